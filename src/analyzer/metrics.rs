//! rocprof-compute's (omniperf's) derived LDS metrics, from the counted
//! cycles: the bank conflict rate and the theoretical bytes.

use super::rules::Rule;

/// rocprof-compute's "Bank Conflict Rate" (metric 12.1.4), in percent:
/// `100 * ((conflicts / 32) / (index_accesses - conflicts))`, with
/// `index_accesses` the cycles (passes through the banks) and `conflicts`
/// the conflict cycles; 0 when no cycle is conflict-free. The 32 is
/// rocprof-compute's constant (the banks one index access may update), kept
/// as it defines the metric, also for 64-bank chips.
///
/// ```
/// use cktile::analyzer::metrics::bank_conflict_rate_pct;
/// // rocprof-compute's example with 2 lanes: 3 index accesses, 1 conflict.
/// assert_eq!(bank_conflict_rate_pct(3, 1), 100.0 * (1.0 / 32.0) / 2.0);
/// assert_eq!(bank_conflict_rate_pct(0, 0), 0.0);
/// ```
pub fn bank_conflict_rate_pct(index_accesses: u32, conflicts: u32) -> f64 {
    let useful = index_accesses.saturating_sub(conflicts);
    if useful == 0 { 0.0 } else { 100.0 * ((f64::from(conflicts) / 32.0) / f64::from(useful)) }
}

/// rocprof-compute's "Theoretical Bandwidth" of some cycles of one
/// instruction: the bytes its banks could have delivered, `cycles * banks * 4`
/// (256 bytes a cycle for gfx950's 64-bank reads, 128 for its writes).
///
/// ```
/// use cktile::analyzer::{arch, metrics::theoretical_bytes, rules::rule, Op};
/// // One lane's ds_read_b32 on gfx90a costs 2 cycles: 256 bytes.
/// assert_eq!(theoretical_bytes(&rule(&arch::GFX90A, Op::DsRead { bits: 32 }), 2), 256);
/// assert_eq!(theoretical_bytes(&rule(&arch::GFX950, Op::DsRead { bits: 128 }), 4), 1024);
/// ```
pub const fn theoretical_bytes(rule: &Rule, cycles: u32) -> u64 {
    cycles as u64 * rule.bytes_per_cycle()
}
