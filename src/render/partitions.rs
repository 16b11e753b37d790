//! The text of gfx1250's partition check
//! ([`partitions`](crate::reports::partitions)): which LDS partitions each
//! access's SIMD pairs reach, and the accesses where both reach one.

use crate::reports::partitions::{AccessPartitions, PartitionReport};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

/// Accesses listed one by one before the rest are counted.
const LISTED: usize = 8;

fn list(partitions: &[u64]) -> String {
    let p: Vec<String> = partitions.iter().map(|p| format!("{p}")).collect();
    if p.is_empty() { String::from("none") } else { p.join(", ") }
}

fn line(i: usize, a: &AccessPartitions) -> String {
    let verdict = if a.conflicted() { format!("both reach {}", list(&a.shared)) } else { String::from("apart") };
    format!("  access {i}: pair A {}, pair B {}: {verdict}\n", list(&a.pair_a), list(&a.pair_b))
}

/// The report as text: a heading with the model, the verdict, the
/// accesses (conflicted ones first, up to eight), and what separates the
/// pairs.
///
/// ```
/// use cktile::analyzer::{arch, Op};
/// use cktile::reports::partitions::partitions;
/// use cktile::distribution::{catalogue, Distribution};
/// let d = Distribution::new(catalogue::by_name("block_raked_128x128x32_v8_w32")?)?;
/// let r = partitions(&cktile::Descriptor::packed(&[128, 32])?, 2, &arch::GFX1250, &d, Op::DsWrite { bits: 128 }, 0)?;
/// let text = cktile::render::partitions::partitions(&r);
/// assert!(text.contains("4 of 4 accesses"), "{text}");
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn partitions(r: &PartitionReport) -> String {
    let mut out = format!(
        "Partitions (gfx1250, AMD's MI450 blog): {} warps of {}; pair A = the even warps (SIMDs 0, 2), pair B = the \
         odd ones (SIMDs 1, 3); 64 KiB partitions, the layout at LDS byte {}\n",
        r.warps, r.op, r.base
    );
    if r.warps < 2 {
        out.push_str("  one warp: no second pair to meet it\n");
        return out;
    }
    let n = r.conflicted();
    if n == 0 {
        let _ = writeln!(out, "  no access puts both pairs in one partition ({} accesses)", r.accesses.len());
    } else {
        let _ = writeln!(
            out,
            "  {n} of {} accesses put both pairs in one partition: a partition conflict whenever the pairs issue \
             them in the same cycle (they then share one port of 256 bytes a cycle)",
            r.accesses.len()
        );
    }
    let mut order: Vec<(usize, &AccessPartitions)> = r.accesses.iter().enumerate().collect();
    order.sort_by_key(|(i, a)| (!a.conflicted(), *i));
    for (i, a) in order.iter().take(LISTED) {
        out.push_str(&line(*i, a));
    }
    if order.len() > LISTED {
        let _ = writeln!(out, "  ... and {} more accesses", order.len() - LISTED);
    }
    if n > 0 {
        out.push_str(
            "  To keep the pairs apart, give the even and the odd warps' data different 64 KiB partitions (as \
             Triton's PartitionedSharedLayout does), or have the two pairs read different buffers placed 64 KiB \
             apart (--lds-base moves this one)\n",
        );
    }
    out
}
