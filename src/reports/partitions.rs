//! gfx1250's LDS partition conflicts: two SIMD pairs reaching one 64 KiB
//! partition together.
//!
//! AMD's ROCm blog "A Deep Dive into LDS Optimizations on AMD Instinct
//! MI450 GPUs" (28 August 2026) describes gfx1250's LDS as five 64 KiB
//! partitions (its 320 KiB) behind one arbiter with two ports of 256 bytes
//! a cycle, shared by the workgroup processor's two SIMD pairs: warp `w` of
//! a workgroup runs on SIMD `w % 4`, pair A being SIMDs 0 and 2 (the even
//! warps) and pair B SIMDs 1 and 3 (the odd ones). When a warp of each pair
//! reaches the same partition in the same cycle, the arbiter serializes
//! them on one port: the blog measures 255.4 bytes a cycle where separate
//! partitions give 509.8, a 1.65x difference.
//!
//! A cycle is not something a layout decides; a partition is. So cktile
//! checks the location half, as the blog's compiler does, under its model
//! of all warps issuing the same instruction together: for each access of a
//! tile window, the partitions the even warps touch and those the odd warps
//! touch, and whether any partition is in both (a *partition conflict*). A
//! partition is a byte address's `/ 65536`, the address being the layout's
//! byte offset plus the buffer's base in LDS (`base`), as the blog's
//! partition-aware allocator places buffers on 64 KiB boundaries.
//!
//! ```
//! use cktile::analyzer::{arch, Op};
//! use cktile::reports::partitions::partitions;
//! use cktile::distribution::{catalogue, Distribution};
//! // Four warps writing a 128 x 32 fp16 tile (8 KiB): one partition for all.
//! let d = Distribution::new(catalogue::by_name("block_raked_128x128x32_v8_w32")?)?;
//! let lds = cktile::Descriptor::packed(&[128, 32])?;
//! let r = partitions(&lds, 2, &arch::GFX1250, &d, Op::DsWrite { bits: 128 }, 0)?;
//! assert_eq!((r.warps, r.conflicted()), (4, r.accesses.len()));
//! # Ok::<(), cktile::Error>(())
//! ```

use crate::analyzer::AnalyzerProblem;
use crate::analyzer::arch::{Arch, Chip};
use crate::analyzer::op::Op;
use crate::analyzer::window::fitted;
use crate::distribution::Distribution;
use crate::{Descriptor, Error};
use alloc::collections::BTreeSet;
use alloc::vec::Vec;

/// Bytes of one LDS partition.
///
/// ```
/// assert_eq!(cktile::reports::partitions::PARTITION_BYTES * 5, 320 * 1024);
/// ```
pub const PARTITION_BYTES: u64 = 64 * 1024;

/// The partitions one access of every warp touches, by SIMD pair.
///
/// ```
/// use cktile::reports::partitions::AccessPartitions;
/// let a = AccessPartitions { pair_a: vec![0], pair_b: vec![0, 1], shared: vec![0] };
/// assert!(a.conflicted());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccessPartitions {
    /// Partitions the even warps (SIMDs 0 and 2) touch, in order.
    pub pair_a: Vec<u64>,
    /// Partitions the odd warps (SIMDs 1 and 3) touch, in order.
    pub pair_b: Vec<u64>,
    /// Partitions both pairs touch: each a conflict when they issue together.
    pub shared: Vec<u64>,
}

impl AccessPartitions {
    /// Whether both pairs touch one partition.
    pub fn conflicted(&self) -> bool {
        !self.shared.is_empty()
    }
}

/// The partition check of one tile window on gfx1250.
///
/// ```
/// use cktile::analyzer::{arch, Op};
/// use cktile::reports::partitions::partitions;
/// use cktile::distribution::{catalogue, Distribution};
/// let d = Distribution::new(catalogue::by_name("block_raked_128x128x32_v8_w32")?)?;
/// let r = partitions(&cktile::Descriptor::packed(&[128, 32])?, 2, &arch::GFX1250, &d, Op::DsWrite { bits: 128 }, 65536)?;
/// assert_eq!(r.accesses[0].shared, [1]);
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionReport {
    /// The window's warps.
    pub warps: usize,
    /// The LDS byte address of the layout's offset 0.
    pub base: u64,
    /// The instruction each access issues.
    pub op: Op,
    /// Each access (every warp's instruction of that number), in order.
    pub accesses: Vec<AccessPartitions>,
}

impl PartitionReport {
    /// How many accesses have both pairs in one partition.
    pub fn conflicted(&self) -> usize {
        self.accesses.iter().filter(|a| a.conflicted()).count()
    }
}

/// The partitions each access of the tile window of `op` over `d` touches,
/// the layout `desc` (of `element_bytes`-byte elements) placed at LDS byte
/// `base`, by SIMD pair. The window is checked as
/// [`analyze_distribution`](crate::reports::analyze_distribution) checks it (its
/// shape, its size, every lane's vector contiguous in `desc`). Refused on a
/// chip other than gfx1250 (no public source gives another chip's
/// partitions), for an instruction gfx1250 lacks, or when an access ends
/// past the chip's 320 KiB.
///
/// ```
/// use cktile::analyzer::{arch, Op};
/// use cktile::reports::partitions::partitions;
/// use cktile::distribution::{catalogue, Distribution};
/// let d = Distribution::new(catalogue::by_name("block_raked_128x128x32_v8_w32")?)?;
/// let lds = cktile::Descriptor::packed(&[128, 32])?;
/// let e = partitions(&lds, 2, &arch::GFX950, &d, Op::DsWrite { bits: 128 }, 0).unwrap_err();
/// assert!(e.to_string().contains("gfx1250"));
/// assert!(partitions(&lds, 2, &arch::GFX1250, &d, Op::DsWrite { bits: 128 }, 320 * 1024).is_err());
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn partitions(
    desc: &Descriptor,
    element_bytes: usize,
    arch: &Arch,
    d: &Distribution,
    op: Op,
    base: u64,
) -> Result<PartitionReport, Error> {
    if arch.chip() != Chip::Gfx1250 {
        return Err(Error::analyzer(AnalyzerProblem::NotOnArch {
            what: "the partition check (the SIMD pairs and 64 KiB LDS partitions of AMD's MI450 blog)",
            arch: arch.name(),
            valid: "it runs on gfx1250, the one chip a public source describes them for",
        }));
    }
    if !op.runs_on(arch) {
        return Err(Error::analyzer(AnalyzerProblem::Unsupported { op, arch: arch.name() }));
    }
    let (w, _) = fitted(desc, element_bytes, arch, d, op)?;
    w.check_contiguous(desc)?;
    let program = w.program_over(desc)?;
    let mut accesses = Vec::with_capacity(w.per_warp());
    for access in 0..w.per_warp() {
        let mut pairs = [BTreeSet::new(), BTreeSet::new()];
        for warp in 0..w.warps() {
            let i = warp * w.per_warp() + access;
            for lane in 0..arch.wave() as usize {
                let Some(offset) = w.address(&program, element_bytes, i, lane)? else { continue };
                let (first, last) = span(arch, op, lane, base, offset)?;
                pairs[warp % 2].extend(first..=last);
            }
        }
        let [a, b] = pairs;
        let shared = a.intersection(&b).copied().collect();
        accesses.push(AccessPartitions { pair_a: a.into_iter().collect(), pair_b: b.into_iter().collect(), shared });
    }
    Ok(PartitionReport { warps: w.warps(), base, op, accesses })
}

/// The first and last partition of one lane's access at `offset` bytes
/// past `base`, or an error when it ends past the chip's shared memory.
fn span(arch: &Arch, op: Op, lane: usize, base: u64, offset: u64) -> Result<(u64, u64), Error> {
    let bytes = op.bytes_per_lane();
    let capacity = arch.shared_bytes();
    let start = base.checked_add(offset);
    match start.and_then(|s| s.checked_add(bytes)) {
        Some(end) if end <= u64::from(capacity) => {
            let s = end - bytes;
            Ok((s / PARTITION_BYTES, (end - 1) / PARTITION_BYTES))
        }
        _ => Err(Error::analyzer(AnalyzerProblem::AccessPastShared {
            lane,
            address: start.unwrap_or(u64::MAX),
            bytes,
            arch: arch.name(),
            capacity,
        })),
    }
}
