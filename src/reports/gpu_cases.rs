//! Hardware-truth cases for NVIDIA: the shared-memory accesses of one warp,
//! lane by lane, with cktile's sm90 prediction, for the measurement harness
//! in `gpu/` (a CUDA program run under Nsight Compute).
//!
//! Each [`GpuCase`] is a catalogue layout (or a plain spec) under an access
//! pattern issuing one instruction: its byte addresses per instruction and
//! lane ([`lane_addresses`]), and per instruction the wavefronts the sm90
//! model predicts ([`count`]): `cycles` is Nsight Compute's
//! `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_*`, `phases` the ideal
//! (one wavefront per phase with an active lane), and `conflict_cycles =
//! cycles - phases` its `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_*`.
//! The harness runs each case as one kernel of one warp that issues exactly
//! these instructions and nothing else touching shared memory, so the
//! per-kernel sums ncu reports are the case's totals.
//!
//! [`cases`] covers every catalogue layout family and every NVIDIA
//! instruction the analyzer models (ld/st.shared of 8 to 128 bits,
//! ldmatrix/stmatrix x1/x2/x4 with and without `.trans`, the `mma.sync` A
//! fragment), with known-conflicting and conflict-free layouts side by side.
//! [`case_file`] writes the plain-text list `gpu/harness.cu` reads.
//!
//! ```
//! use cktile::reports::gpu_cases::{cases, MIN_CASES};
//! let all = cases()?;
//! assert!(all.len() >= MIN_CASES);
//! let naive = all.iter().find(|c| c.name == "c09-packed-32x32-fp32-columns-ld.shared.b32").unwrap();
//! // 32 lanes down one column of a 32x32 fp32 tile: bank 0, 32 ways, 31 conflicts per instruction.
//! assert_eq!((naive.instructions(), naive.totals.conflict_cycles), (32, 32 * 31));
//! # Ok::<(), cktile::Error>(())
//! ```

use crate::Descriptor;
use crate::analyzer::arch::SM90;
use crate::analyzer::model::count_copy;
use crate::analyzer::rules::MAX_LANES;
use crate::analyzer::tile::lane_addresses;
use crate::analyzer::{Counts, Op, Pattern, TileCounts, count};
use crate::layouts;
use crate::{DescriptorProblem, Error, ParameterProblem};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// Lanes per warp.
///
/// ```
/// assert_eq!(cktile::reports::gpu_cases::WARP, cktile::analyzer::arch::SM90.wave() as usize);
/// ```
pub const WARP: usize = 32;

/// The most instructions one case may issue: the harness keeps a lane's
/// addresses in registers (loaded before the first shared access, so no
/// global traffic overlaps the measured accesses).
///
/// ```
/// use cktile::reports::gpu_cases::{cases, MAX_INSTRUCTIONS};
/// assert!(cases()?.iter().all(|c| c.instructions() <= MAX_INSTRUCTIONS));
/// # Ok::<(), cktile::Error>(())
/// ```
pub const MAX_INSTRUCTIONS: usize = 64;

/// The fewest cases [`cases`] gives (the issue asks for 40).
///
/// ```
/// assert!(cktile::reports::gpu_cases::cases()?.len() >= cktile::reports::gpu_cases::MIN_CASES);
/// # Ok::<(), cktile::Error>(())
/// ```
pub const MIN_CASES: usize = 40;

/// The layout families the cases must cover.
///
/// ```
/// assert!(cktile::reports::gpu_cases::CASE_FAMILIES.contains(&"CuTe swizzle"));
/// ```
pub const CASE_FAMILIES: &[&str] = &[
    "naive",
    "row padding",
    "CK xor (universal)",
    "CK xor (lds swapping)",
    "CK xor (preshuffle)",
    "CK kfold/mpair",
    "CK fmha V",
    "CK v1 padded",
    "CuTe swizzle",
    "CuTe GMMA",
    "CuTe TMA",
    "Triton swizzled",
    "Triton NVMMA",
    "probe",
];

/// Every NVIDIA instruction the analyzer models on sm90, by name.
///
/// ```
/// let ops = cktile::reports::gpu_cases::nvidia_ops();
/// assert_eq!(ops.len(), 25);
/// assert!(ops.contains(&"stmatrix.x4.trans"));
/// ```
pub fn nvidia_ops() -> Vec<&'static str> {
    let mut ops = Vec::new();
    for bits in [8, 16, 32, 64, 128] {
        ops.push(Op::LdShared { bits });
        ops.push(Op::StShared { bits });
    }
    for matrices in [1, 2, 4] {
        for trans in [false, true] {
            ops.push(Op::Ldmatrix { matrices, trans });
            ops.push(Op::Stmatrix { matrices, trans });
        }
    }
    for bits in [32, 64, 128] {
        ops.push(Op::CpAsync { bits });
    }
    ops.iter().filter(|op| op.runs_on(&SM90)).map(|op| op.name()).collect()
}

/// The harness kernel that issues `op`: `cktile_` and the instruction's
/// name with `_` for `.` (`extern "C"`, so Nsight Compute shows it as is).
///
/// ```
/// use cktile::analyzer::Op;
/// use cktile::reports::gpu_cases::kernel_name;
/// assert_eq!(kernel_name(Op::Ldmatrix { matrices: 4, trans: true }), "cktile_ldmatrix_x4_trans");
/// assert_eq!(kernel_name(Op::StShared { bits: 128 }), "cktile_st_shared_b128");
/// ```
pub fn kernel_name(op: Op) -> String {
    format!("cktile_{}", op.name().replace('.', "_"))
}

/// One case: a layout, an access pattern, one instruction kind, one warp.
///
/// ```
/// use cktile::reports::gpu_cases::build_case;
/// let c = build_case(7, "naive", "packed((16,64))", "fp16", "ldmatrix", "ldmatrix.x1")?;
/// // lanes 0-7 give the rows of one 8x8 matrix; lanes 8-31 give no address
/// assert_eq!((c.addresses[0][7], c.addresses[0][8]), (Some(7 * 128), None));
/// assert_eq!(c.name, "c07-packed-16x64-fp16-ldmatrix-ldmatrix.x1");
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct GpuCase {
    /// Position in the list (the harness launches cases in this order).
    pub id: usize,
    /// A unique name without spaces: `cID-layout-dtype-pattern-op`.
    pub name: String,
    /// The layout family (one of [`CASE_FAMILIES`]).
    pub family: &'static str,
    /// The layout as written (a catalogue entry or a spec).
    pub layout: String,
    /// The descriptor.
    pub desc: Descriptor,
    /// Bytes per element.
    pub element_bytes: usize,
    /// The access pattern.
    pub pattern: Pattern,
    /// The instruction every access issues.
    pub op: Op,
    /// Shared memory the kernel allocates: the layout's element space in
    /// bytes, rounded up to 16, and at least every access's end.
    pub shared_bytes: u64,
    /// Per instruction, per lane (32), the byte address (`None`: inactive lane).
    pub addresses: Vec<[Option<u64>; WARP]>,
    /// `cp.async` only (empty otherwise): per instruction, per lane, the
    /// global byte offset the lane copies from, which is the same pattern
    /// over a packed row-major tile of the same shape (a coalesced global
    /// tile, as a kernel's global-to-shared copy reads it).
    pub sources: Vec<[Option<u64>; WARP]>,
    /// Per instruction, the sm90 prediction.
    pub predicted: Vec<Counts>,
    /// Totals over the instructions.
    pub totals: TileCounts,
}

impl GpuCase {
    /// Instructions the case issues.
    ///
    /// ```
    /// let c = &cktile::reports::gpu_cases::cases()?[0];
    /// assert_eq!(c.instructions(), c.addresses.len());
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn instructions(&self) -> usize {
        self.addresses.len()
    }

    /// Whether cktile predicts bank conflicts.
    ///
    /// ```
    /// let all = cktile::reports::gpu_cases::cases()?;
    /// assert!(all.iter().any(|c| c.conflicting()) && all.iter().any(|c| !c.conflicting()));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn conflicting(&self) -> bool {
        self.totals.conflict_cycles > 0
    }
}

/// A case before it is built: (family, layout, dtype, pattern, instruction).
type Recipe = (&'static str, &'static str, &'static str, &'static str, &'static str);

/// The case list. Tiles are sized so no case issues more than
/// [`MAX_INSTRUCTIONS`] instructions.
const RECIPES: &[Recipe] = &[
    // Naive row-major tiles: row access is conflict-free, column access the
    // textbook conflict (the column's elements share a bank).
    ("naive", "packed((32,32))", "int8", "rows", "ld.shared.b8"),
    ("naive", "packed((32,32))", "int8", "columns", "ld.shared.b8"),
    ("naive", "packed((32,32))", "int8", "rows", "st.shared.b8"),
    ("naive", "packed((32,32))", "int8", "columns", "st.shared.b8"),
    ("naive", "packed((16,64))", "fp16", "rows", "ld.shared.b16"),
    ("naive", "packed((32,32))", "fp16", "columns", "ld.shared.b16"),
    ("naive", "packed((16,64))", "fp16", "rows", "st.shared.b16"),
    ("naive", "packed((32,32))", "fp16", "columns", "st.shared.b16"),
    ("naive", "packed((32,32))", "fp32", "rows", "ld.shared.b32"),
    ("naive", "packed((32,32))", "fp32", "columns", "ld.shared.b32"),
    ("naive", "packed((32,32))", "fp32", "rows", "st.shared.b32"),
    ("naive", "packed((32,32))", "fp32", "columns", "st.shared.b32"),
    ("naive", "packed((32,64))", "fp16", "rows", "ld.shared.b64"),
    ("naive", "packed((32,64))", "fp16", "columns", "ld.shared.b64"),
    ("naive", "packed((32,64))", "fp16", "rows", "st.shared.b64"),
    ("naive", "packed((32,64))", "fp16", "columns", "st.shared.b64"),
    ("naive", "packed((64,64))", "fp16", "rows", "ld.shared.b128"),
    ("naive", "packed((64,64))", "fp16", "columns", "ld.shared.b128"),
    ("naive", "packed((64,64))", "fp16", "rows", "st.shared.b128"),
    ("naive", "packed((64,64))", "fp16", "columns", "st.shared.b128"),
    ("naive", "packed((16,64))", "fp16", "ldmatrix", "ldmatrix.x1"),
    ("naive", "packed((16,64))", "fp16", "ldmatrix", "ldmatrix.x2"),
    ("naive", "packed((16,64))", "fp16", "ldmatrix", "ldmatrix.x4"),
    ("naive", "packed((16,64))", "fp16", "ldmatrix", "ldmatrix.x4.trans"),
    ("naive", "packed((16,64))", "fp16", "ldmatrix", "stmatrix.x4"),
    ("naive", "packed((16,64))", "fp16", "ldmatrix", "stmatrix.x2.trans"),
    ("naive", "packed((16,64))", "fp16", "mma_sync_a", "ld.shared.b32"),
    // Partly active warps: an idle quarter-warp phase costs no wavefront.
    ("naive", "packed((5,8))", "fp16", "rows", "ld.shared.b128"),
    ("naive", "packed((3,8))", "fp32", "rows", "st.shared.b32"),
    // Row padding: the classic fix.
    ("row padding", "row-padded:rows=32,cols=32,pad=1", "fp32", "columns", "ld.shared.b32"),
    ("row padding", "row-padded:rows=32,cols=32,pad=1", "fp32", "columns", "st.shared.b32"),
    ("row padding", "row-padded:rows=64,cols=64,pad=8", "fp16", "columns", "ld.shared.b128"),
    ("row padding", "row-padded:rows=16,cols=64,pad=8", "fp16", "ldmatrix", "ldmatrix.x4"),
    ("row padding", "row-padded:rows=16,cols=64,pad=8", "fp16", "mma_sync_a", "ld.shared.b32"),
    // CuTe swizzles: Swizzle<3,3,3> on 128-byte fp16 rows, and the half-strength Swizzle<2,3,3>.
    ("CuTe swizzle", "cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64", "fp16", "columns", "ld.shared.b128"),
    ("CuTe swizzle", "cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64", "fp16", "columns", "st.shared.b128"),
    ("CuTe swizzle", "cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64", "fp16", "ldmatrix", "ldmatrix.x1"),
    ("CuTe swizzle", "cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64", "fp16", "ldmatrix", "ldmatrix.x2"),
    ("CuTe swizzle", "cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64", "fp16", "ldmatrix", "ldmatrix.x4"),
    ("CuTe swizzle", "cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64", "fp16", "ldmatrix", "ldmatrix.x1.trans"),
    ("CuTe swizzle", "cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64", "fp16", "ldmatrix", "ldmatrix.x2.trans"),
    ("CuTe swizzle", "cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64", "fp16", "ldmatrix", "stmatrix.x1"),
    ("CuTe swizzle", "cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64", "fp16", "ldmatrix", "stmatrix.x2"),
    ("CuTe swizzle", "cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64", "fp16", "ldmatrix", "stmatrix.x4"),
    ("CuTe swizzle", "cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64", "fp16", "ldmatrix", "stmatrix.x1.trans"),
    ("CuTe swizzle", "cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64", "fp16", "ldmatrix", "stmatrix.x4.trans"),
    ("CuTe swizzle", "cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64", "fp16", "mma_sync_a", "ld.shared.b32"),
    ("CuTe swizzle", "cute-swizzle:b=2,mbase=3,s=3,rows=16,cols=64", "fp16", "ldmatrix", "ldmatrix.x4"),
    ("CuTe swizzle", "cute-swizzle:b=2,mbase=3,s=3,rows=32,cols=64", "fp16", "columns", "st.shared.b128"),
    // CuTe GMMA atoms and TMA swizzle modes.
    ("CuTe GMMA", "cute-gmma:atom=sw128,major=k,dtype=fp16", "fp16", "columns", "ld.shared.b128"),
    ("CuTe GMMA", "cute-gmma:atom=sw64,major=k,dtype=fp16", "fp16", "ldmatrix", "ldmatrix.x1"),
    ("CuTe GMMA", "cute-gmma:atom=sw32,major=k,dtype=fp16", "fp16", "columns", "ld.shared.b64"),
    ("CuTe TMA", "cute-tma:mode=128b,rows=16,dtype=fp16", "fp16", "ldmatrix", "ldmatrix.x4"),
    ("CuTe TMA", "cute-tma:mode=64b,rows=16,dtype=fp16", "fp16", "ldmatrix", "stmatrix.x4.trans"),
    ("CuTe TMA", "cute-tma:mode=32b,rows=32,dtype=fp16", "fp16", "columns", "st.shared.b128"),
    // Triton's shared encodings.
    (
        "Triton swizzled",
        "triton-swizzled:vec=8,perphase=1,maxphase=8,order=10,rows=64,cols=64",
        "fp16",
        "columns",
        "ld.shared.b128",
    ),
    (
        "Triton swizzled",
        "triton-swizzled:vec=8,perphase=1,maxphase=8,order=10,rows=64,cols=64",
        "fp16",
        "ldmatrix",
        "ldmatrix.x4",
    ),
    (
        "Triton swizzled",
        "triton-swizzled:vec=4,perphase=2,maxphase=4,order=10,rows=32,cols=32",
        "fp32",
        "columns",
        "ld.shared.b32",
    ),
    ("Triton NVMMA", "triton-nvmma:swizzle=128,bits=16,rows=64", "fp16", "ldmatrix", "ldmatrix.x4.trans"),
    ("Triton NVMMA", "triton-nvmma:swizzle=128,bits=16,rows=64", "fp16", "ldmatrix", "stmatrix.x4"),
    ("Triton NVMMA", "triton-nvmma:swizzle=64,bits=16,rows=32", "fp16", "mma_sync_a", "ld.shared.b32"),
    // CK Tile's LDS blocks (designed for AMD; here read the NVIDIA way).
    ("CK xor (universal)", "ck-universal-a:m=128,k=32,kpack=8,dtype=fp16", "fp16", "rows", "st.shared.b128"),
    ("CK xor (universal)", "ck-universal-a:m=128,k=32,kpack=8,dtype=fp16", "fp16", "ldmatrix", "ldmatrix.x4"),
    ("CK xor (lds swapping)", "ck-xor-lds:m=128,k=32,kpack=8,mlds=2", "fp16", "ldmatrix", "ldmatrix.x2"),
    ("CK xor (lds swapping)", "ck-xor-lds:m=64,k=64,kpack=8,mlds=1", "fp16", "columns", "ld.shared.b128"),
    ("CK xor (preshuffle)", "ck-xor-preshuffle:m=128,k=64,kpack=8", "fp16", "columns", "ld.shared.b128"),
    ("CK xor (preshuffle)", "ck-xor-preshuffle:m=32,k=64,kpack=8", "fp16", "mma_sync_a", "ld.shared.b32"),
    ("CK kfold/mpair", "ck-kfold-mpair:m=128,k=32,ak1=8,m0=32,kthreadwrite=4", "fp16", "rows", "ld.shared.b128"),
    ("CK kfold/mpair", "ck-kfold-mpair:m=128,k=32,ak1=8,m0=32,kthreadwrite=4", "fp16", "ldmatrix", "ldmatrix.x4"),
    ("CK fmha V", "ck-fmha-v:n=128,k=32,kpack=8,dtype=fp16", "fp16", "columns", "ld.shared.b128"),
    ("CK fmha V", "ck-fmha-v:n=128,k=32,kpack=8,dtype=fp16", "fp16", "ldmatrix", "ldmatrix.x4.trans"),
    ("CK v1 padded", "ck-v1-padded:m=128,k=32,kpack=8", "fp16", "rows", "st.shared.b64"),
    ("CK v1 padded", "ck-v1-padded:m=128,k=32,kpack=8", "fp16", "ldmatrix", "ldmatrix.x4"),
    // st.shared of every width into the CuTe, TMA and Triton layouts.
    ("CuTe swizzle", "cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64", "fp16", "rows", "st.shared.b128"),
    ("CuTe swizzle", "cute-swizzle:b=3,mbase=3,s=3,rows=32,cols=64", "fp16", "rows", "st.shared.b64"),
    ("CuTe swizzle", "cute-swizzle:b=3,mbase=3,s=3,rows=32,cols=64", "fp16", "columns", "st.shared.b64"),
    ("CuTe swizzle", "cute-swizzle:b=3,mbase=3,s=3,rows=32,cols=32", "fp16", "rows", "st.shared.b32"),
    ("CuTe swizzle", "cute-swizzle:b=3,mbase=3,s=3,rows=32,cols=64", "fp16", "columns", "st.shared.b16"),
    ("CuTe swizzle", "cute-swizzle:b=3,mbase=4,s=3,rows=16,cols=128", "int8", "columns", "st.shared.b8"),
    ("CuTe GMMA", "cute-gmma:atom=sw128,major=k,dtype=fp16", "fp16", "columns", "st.shared.b128"),
    ("CuTe GMMA", "cute-gmma:atom=sw128,major=k,dtype=fp16", "fp16", "columns", "st.shared.b32"),
    ("CuTe GMMA", "cute-gmma:atom=sw64,major=k,dtype=fp16", "fp16", "rows", "st.shared.b64"),
    ("CuTe TMA", "cute-tma:mode=128b,rows=32,dtype=fp16", "fp16", "columns", "st.shared.b128"),
    ("CuTe TMA", "cute-tma:mode=128b,rows=32,dtype=fp16", "fp16", "columns", "st.shared.b64"),
    ("CuTe TMA", "cute-tma:mode=64b,rows=32,dtype=fp16", "fp16", "rows", "st.shared.b32"),
    ("CuTe TMA", "cute-tma:mode=128b,rows=32,dtype=fp16", "fp16", "columns", "st.shared.b16"),
    ("CuTe TMA", "cute-tma:mode=128b,rows=16,dtype=int8", "int8", "columns", "st.shared.b8"),
    (
        "Triton swizzled",
        "triton-swizzled:vec=8,perphase=1,maxphase=8,order=10,rows=64,cols=64",
        "fp16",
        "columns",
        "st.shared.b128",
    ),
    (
        "Triton swizzled",
        "triton-swizzled:vec=4,perphase=1,maxphase=8,order=10,rows=32,cols=64",
        "fp16",
        "columns",
        "st.shared.b64",
    ),
    (
        "Triton swizzled",
        "triton-swizzled:vec=4,perphase=2,maxphase=4,order=10,rows=32,cols=32",
        "fp32",
        "columns",
        "st.shared.b32",
    ),
    ("Triton NVMMA", "triton-nvmma:swizzle=128,bits=16,rows=64", "fp16", "columns", "st.shared.b128"),
    ("Triton NVMMA", "triton-nvmma:swizzle=64,bits=16,rows=32", "fp16", "columns", "st.shared.b64"),
    ("Triton NVMMA", "triton-nvmma:swizzle=128,bits=32,rows=32", "fp32", "columns", "st.shared.b32"),
    ("Triton NVMMA", "triton-nvmma:swizzle=128,bits=16,rows=32", "fp16", "columns", "st.shared.b16"),
    ("Triton NVMMA", "triton-nvmma:swizzle=128,bits=8,rows=16", "int8", "columns", "st.shared.b8"),
    // cp.async (LDGSTS) writes: naive tiles against swizzled and padded ones.
    ("naive", "packed((64,64))", "fp16", "rows", "cp.async.b128"),
    ("naive", "packed((64,64))", "fp16", "columns", "cp.async.b128"),
    ("naive", "packed((32,64))", "fp16", "columns", "cp.async.b64"),
    ("naive", "packed((32,32))", "fp32", "columns", "cp.async.b32"),
    ("row padding", "row-padded:rows=64,cols=64,pad=8", "fp16", "columns", "cp.async.b128"),
    ("row padding", "row-padded:rows=32,cols=32,pad=1", "fp32", "columns", "cp.async.b32"),
    ("CuTe swizzle", "cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64", "fp16", "columns", "cp.async.b128"),
    ("CuTe swizzle", "cute-swizzle:b=2,mbase=3,s=3,rows=32,cols=64", "fp16", "columns", "cp.async.b128"),
    ("CuTe swizzle", "cute-swizzle:b=3,mbase=3,s=3,rows=32,cols=64", "fp16", "columns", "cp.async.b64"),
    ("CuTe TMA", "cute-tma:mode=128b,rows=32,dtype=fp16", "fp16", "columns", "cp.async.b128"),
    ("CuTe GMMA", "cute-gmma:atom=sw32,major=k,dtype=fp16", "fp16", "columns", "cp.async.b128"),
    (
        "Triton swizzled",
        "triton-swizzled:vec=8,perphase=1,maxphase=8,order=10,rows=64,cols=64",
        "fp16",
        "columns",
        "cp.async.b128",
    ),
    ("Triton NVMMA", "triton-nvmma:swizzle=128,bits=16,rows=64", "fp16", "columns", "cp.async.b128"),
    ("CK xor (universal)", "ck-universal-a:m=128,k=32,kpack=8,dtype=fp16", "fp16", "rows", "cp.async.b128"),
    ("CK xor (preshuffle)", "ck-xor-preshuffle:m=64,k=64,kpack=8", "fp16", "columns", "cp.async.b128"),
    ("CK kfold/mpair", "ck-kfold-mpair:m=128,k=32,ak1=8,m0=32,kthreadwrite=4", "fp16", "rows", "cp.async.b128"),
    // Full mma.sync m16n8k16 fragments through ldmatrix.x4: A (M x K) and B
    // stored N x K are the non-transposed pattern, B stored K x N `.trans`.
    ("CK xor (lds swapping)", "ck-xor-lds:m=128,k=32,kpack=8,mlds=2", "fp16", "ldmatrix", "ldmatrix.x4"),
    ("CK xor (preshuffle)", "ck-xor-preshuffle:m=128,k=64,kpack=8", "fp16", "ldmatrix", "ldmatrix.x4"),
    ("CK xor (preshuffle)", "ck-xor-preshuffle:m=64,k=64,kpack=8", "fp16", "ldmatrix", "ldmatrix.x4.trans"),
    ("CK fmha V", "ck-fmha-v:n=128,k=32,kpack=8,dtype=fp16", "fp16", "ldmatrix", "ldmatrix.x4"),
    ("CuTe swizzle", "cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64", "fp16", "ldmatrix", "ldmatrix.x4"),
    ("CuTe swizzle", "cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64", "fp16", "ldmatrix", "ldmatrix.x4.trans"),
    ("CuTe TMA", "cute-tma:mode=128b,rows=64,dtype=fp16", "fp16", "ldmatrix", "ldmatrix.x4"),
    ("CuTe TMA", "cute-tma:mode=64b,rows=32,dtype=fp16", "fp16", "ldmatrix", "ldmatrix.x4.trans"),
    // Probes of the model's rules: broadcast, sub-word sharing, the 64-bit
    // half-warp phases, partial warps and ldmatrix rows.
    ("probe", "naive((32,1),(0,1))", "fp32", "rows", "ld.shared.b32"),
    ("probe", "naive((32,1),(0,1))", "fp32", "rows", "st.shared.b32"),
    ("probe", "naive((32,1),(0,1))", "fp32", "rows", "cp.async.b32"),
    ("probe", "naive((2,16),(0,1))", "fp64", "rows", "cp.async.b64"),
    ("probe", "naive((4,64),(0,1))", "fp16", "rows", "cp.async.b128"),
    ("probe", "naive((16,2),(32,1))", "fp32", "rows", "cp.async.b32"),
    ("probe", "naive((32,1),(128,1))", "int8", "rows", "ld.shared.b8"),
    ("probe", "naive((8,4),(128,1))", "int8", "rows", "ld.shared.b8"),
    ("probe", "naive((8,4),(128,1))", "int8", "rows", "st.shared.b8"),
    ("probe", "naive((16,2),(64,1))", "fp16", "rows", "ld.shared.b16"),
    ("probe", "naive((16,2),(64,1))", "fp16", "rows", "st.shared.b16"),
    ("probe", "naive((2,16),(0,1))", "fp64", "rows", "ld.shared.b64"),
    ("probe", "naive((2,16),(0,1))", "fp64", "rows", "st.shared.b64"),
    ("probe", "naive((32,1),(2,1))", "fp64", "rows", "ld.shared.b64"),
    ("probe", "naive((16,2),(1,256))", "fp64", "rows", "ld.shared.b64"),
    ("probe", "naive((16,2),(1,256))", "fp64", "rows", "st.shared.b64"),
    ("probe", "naive((4,64),(0,1))", "fp16", "rows", "ld.shared.b128"),
    ("probe", "naive((32,8),(64,1))", "fp16", "rows", "ld.shared.b128"),
    ("probe", "naive((3,8),(0,1))", "fp16", "rows", "ld.shared.b128"),
    ("probe", "naive((20,1),(32,1))", "fp32", "rows", "ld.shared.b32"),
    ("probe", "naive((8,8),(32,1))", "fp16", "ldmatrix", "ldmatrix.x1"),
    ("probe", "naive((16,16),(0,1))", "fp16", "ldmatrix", "ldmatrix.x4"),
    ("probe", "naive((16,16),(0,1))", "fp16", "ldmatrix", "stmatrix.x4"),
    ("probe", "naive((8,8),(32,1))", "fp16", "ldmatrix", "stmatrix.x1.trans"),
    // Triton's NVMMA encoding (64-byte swizzle, fp16) on a 64 x 64
    // tile, two 64 x 32 atoms 4096 bytes apart, read as 128-bit rows: a
    // quarter-warp reads row 0's first 64 bytes of each atom, the same 16
    // banks twice. cktile counts 2 wavefronts a quarter-warp; Gluon's
    // `bank_conflicts` reports 1.
    (
        "Triton NVMMA",
        "packed((4096)) | transform(swizzle(2,3,3) on [0] -> [0]) | transform(unmerge((2,64,32)) on [0] -> [0,1,2]) \
         | transform(pass_through(64) on [1] -> [0], merge((2,32)) on [0,2] -> [1])",
        "fp16",
        "rows",
        "ld.shared.b128",
    ),
];

fn too_many(instructions: usize) -> Error {
    Error::parameter(ParameterProblem::invalid_usize(
        "gpu case",
        "instructions",
        instructions,
        "a case issues at most 64 instructions (the harness keeps each lane's addresses in registers)",
    ))
}

/// A short name for a layout: the entry name or `packed-RxC`.
fn layout_short(layout: &str, desc: &Descriptor) -> String {
    let lens: Vec<String> = desc.lengths().as_slice().iter().map(|l| l.to_string()).collect();
    match layouts::entry_text(layout) {
        Some(e) => format!("{}-{}", e.split(':').next().unwrap_or(e), lens.join("x")),
        None => {
            let stage = layout.trim_start().split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next();
            format!("{}-{}", stage.unwrap_or("spec"), lens.join("x"))
        }
    }
}

/// The byte addresses of one warp's instruction `i` of `pattern` over `desc`.
fn warp_addresses(
    desc: &Descriptor,
    element_bytes: usize,
    pattern: Pattern,
    i: usize,
) -> Result<[Option<u64>; WARP], Error> {
    let all: [Option<u64>; MAX_LANES] = lane_addresses(desc, element_bytes, &SM90, pattern, i)?;
    let mut lanes = [None; WARP];
    lanes.copy_from_slice(&all[..WARP]);
    Ok(lanes)
}

/// Builds one case: the pattern's every instruction over the layout, with
/// the sm90 counts (for `cp.async`, [`count_copy`] over its shared
/// addresses and its sources).
///
/// ```
/// use cktile::reports::gpu_cases::build_case;
/// let c = build_case(0, "naive", "packed((64,64))", "fp16", "columns", "ld.shared.b128")?;
/// // 8 lanes per quarter-warp phase read 16 bytes each from rows 128 bytes apart: 8-way.
/// assert_eq!((c.totals.max_ways, c.predicted[0].cycles, c.predicted[0].phases), (8, 32, 4));
/// assert_eq!(c.addresses[0][1], Some(128));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn build_case(
    id: usize,
    family: &'static str,
    layout: &str,
    dtype: &str,
    pattern: &str,
    op: &str,
) -> Result<GpuCase, Error> {
    // The case's dtype must agree with the entry's own (refused otherwise).
    let typed = layouts::resolve_typed(layout, Some(dtype))?;
    let element_bytes = typed.require_element_bytes()?;
    let desc = typed.descriptor;
    let op = Op::by_name(op)?;
    let pattern = Pattern::by_name(pattern, Some(op))?;
    let lengths = desc.lengths();
    if lengths.len() != 2 {
        return Err(Error::descriptor(DescriptorProblem::NotTwoDimensional { dims: lengths.len() }));
    }
    let n = pattern.instructions(lengths.get(0) as usize, lengths.get(1) as usize, element_bytes, WARP)?;
    if n > MAX_INSTRUCTIONS {
        return Err(too_many(n));
    }
    let mut addresses = Vec::with_capacity(n);
    let mut sources = Vec::new();
    let global = match op {
        Op::CpAsync { .. } => Some(Descriptor::packed(&[lengths.get(0) as usize, lengths.get(1) as usize])?),
        _ => None,
    };
    let mut predicted = Vec::with_capacity(n);
    let mut totals = TileCounts::EMPTY;
    let space = u64::try_from(desc.element_space_size()).unwrap_or(0).saturating_mul(element_bytes as u64);
    let mut shared_bytes = space;
    for i in 0..n {
        let lanes = warp_addresses(&desc, element_bytes, pattern, i)?;
        // cp.async also reads its source through L1: the copy's cost.
        let c = match (op, &global) {
            (Op::CpAsync { bits }, Some(global)) => {
                let source = warp_addresses(global, element_bytes, pattern, i)?;
                sources.push(source);
                count_copy(&SM90, bits, &lanes, &source)?
            }
            _ => count(&SM90, op, &lanes)?,
        };
        totals.add(&c)?;
        for a in lanes.iter().flatten() {
            shared_bytes = shared_bytes.max(a + op.bytes_per_lane());
        }
        addresses.push(lanes);
        predicted.push(c);
    }
    let name = format!("c{id:02}-{}-{dtype}-{}-{}", layout_short(layout, &desc), pattern.name(), op.name());
    Ok(GpuCase {
        id,
        name,
        family,
        layout: layout.into(),
        desc,
        element_bytes,
        pattern,
        op,
        shared_bytes: shared_bytes.div_ceil(16) * 16,
        addresses,
        sources,
        predicted,
        totals,
    })
}

/// Every case, in launch order.
///
/// ```
/// use cktile::reports::gpu_cases::{cases, nvidia_ops, CASE_FAMILIES};
/// let all = cases()?;
/// for op in nvidia_ops() {
///     assert!(all.iter().any(|c| c.op.name() == op), "{op}");
/// }
/// for f in CASE_FAMILIES {
///     assert!(all.iter().any(|c| c.family == *f), "{f}");
/// }
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn cases() -> Result<Vec<GpuCase>, Error> {
    RECIPES
        .iter()
        .enumerate()
        .map(|(id, &(family, layout, dtype, pattern, op))| build_case(id, family, layout, dtype, pattern, op))
        .collect()
}

/// One `a` or `g` line: the tag and 32 lane offsets (`-` for an inactive lane).
fn push_lanes(out: &mut String, tag: char, lanes: &[Option<u64>; WARP]) {
    out.push(tag);
    for a in lanes {
        match a {
            Some(a) => out.push_str(&format!(" {a}")),
            None => out.push_str(" -"),
        }
    }
    out.push('\n');
}

/// The plain-text case list `gpu/harness.cu` reads:
///
/// ```text
/// cktile-gpu-cases 2
/// cases N
/// case ID OP INSTRUCTIONS SHARED_BYTES WAVEFRONTS IDEAL CONFLICTS NAME
/// a ADDR ... (32 per line, one line per instruction, `-` for an inactive lane)
/// g ADDR ... (cp.async only, after its `a` line: the global offsets it copies from)
/// ...
/// end
/// ```
///
/// Lines starting with `#` are comments. `WAVEFRONTS`, `IDEAL` and
/// `CONFLICTS` are the predicted totals (`CONFLICTS = WAVEFRONTS - IDEAL`).
///
/// ```
/// use cktile::reports::gpu_cases::{build_case, case_file};
/// let c = build_case(0, "naive", "packed((32,32))", "fp32", "columns", "ld.shared.b32")?;
/// let text = case_file(&[c]);
/// assert!(text.contains("\ncase 0 ld.shared.b32 32 4096 1024 32 992 c00-packed-32x32-fp32-columns-ld.shared.b32\n"));
/// assert!(text.contains("\na 0 128 256 384 "));
/// assert!(text.ends_with("end\n"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn case_file(cases: &[GpuCase]) -> String {
    let mut out = String::from(
        "# cktile hardware-truth cases (`cktile gpu-cases`), read by gpu/harness.cu.\n\
         # One warp per case; per instruction, 32 lane byte addresses ('-' = inactive lane).\n\
         # Predictions are cktile's sm90 model: wavefronts, ideal wavefronts, conflicts = excess wavefronts.\n",
    );
    out.push_str(&format!("cktile-gpu-cases 2\ncases {}\n", cases.len()));
    for c in cases {
        out.push_str(&format!(
            "case {} {} {} {} {} {} {} {}\n",
            c.id,
            c.op.name(),
            c.instructions(),
            c.shared_bytes,
            c.totals.cycles,
            c.totals.phases,
            c.totals.conflict_cycles,
            c.name
        ));
        for (i, lanes) in c.addresses.iter().enumerate() {
            push_lanes(&mut out, 'a', lanes);
            if let Some(sources) = c.sources.get(i) {
                push_lanes(&mut out, 'g', sources);
            }
        }
    }
    out.push_str("end\n");
    out
}
