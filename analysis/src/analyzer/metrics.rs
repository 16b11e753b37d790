//! rocprof-compute's (omniperf's) derived LDS metrics, from the counted
//! cycles: the bank conflict rate and the theoretical bytes; and [`Metric`],
//! one row of a report's metrics as every form of the report (the text
//! table, the JSON object) names it.

use super::rules::Rule;
use core::fmt;

/// A metric's value: a count, or a rate in percent.
///
/// ```
/// use cktile_analysis::analyzer::metrics::MetricValue;
/// assert_eq!((MetricValue::Count(384).to_string(), MetricValue::Percent(9.375).to_string()), ("384".into(), "9.38".into()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MetricValue {
    /// A count (cycles, phases, ways, bytes, lanes, instructions).
    Count(u64),
    /// A rate in percent.
    Percent(f64),
}

impl fmt::Display for MetricValue {
    /// A count as it is, a rate with two decimals.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MetricValue::Count(n) => write!(f, "{n}"),
            MetricValue::Percent(pct) => write!(f, "{pct:.2}"),
        }
    }
}

/// One metric of a report: rocprof-compute's name for it (the text
/// table's row), its unit, its key in the JSON report, and its value. The
/// reports list theirs once (`InstructionReport::metrics`,
/// `TileReport::metrics`), and each form of a report reads that list.
///
/// ```
/// use cktile_analysis::analyzer::metrics::{pass_metrics, MetricValue, Passes};
/// // Two lanes of a ds_read_b32 on one bank, words 0 and 32: one extra cycle.
/// let rows = pass_metrics(Passes { phases: 1, cycles: 2, conflict_cycles: 1, max_ways: 2 }, 3.125, 8);
/// let m = rows.into_iter().find(|m| m.key == "conflict_cycles").unwrap();
/// assert_eq!((m.label, m.unit, m.value), ("Bank Conflict", "cycles", MetricValue::Count(1)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Metric {
    /// rocprof-compute's name, e.g. "Index Accesses".
    pub label: &'static str,
    /// The unit, e.g. "cycles".
    pub unit: &'static str,
    /// The JSON report's key, e.g. `cycles`.
    pub key: &'static str,
    /// The value.
    pub value: MetricValue,
}

impl Metric {
    /// A count metric.
    ///
    /// ```
    /// use cktile_analysis::analyzer::metrics::{Metric, MetricValue};
    /// let m = Metric::count("Bank Conflict Cycles", "cycles", "conflict_cycles", 12);
    /// assert_eq!((m.key, m.value), ("conflict_cycles", MetricValue::Count(12)));
    /// ```
    pub const fn count(label: &'static str, unit: &'static str, key: &'static str, n: u32) -> Metric {
        Metric { label, unit, key, value: MetricValue::Count(n as u64) }
    }
}

/// The passes through the banks counted over some instructions, from which
/// [`pass_metrics`] derives the metrics an instruction's and a tile's
/// reports share.
///
/// ```
/// let p = cktile_analysis::analyzer::metrics::Passes { phases: 4, cycles: 5, conflict_cycles: 1, max_ways: 2 };
/// assert_eq!(p.cycles - p.conflict_cycles, 4);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Passes {
    /// Phases (lane groups served together).
    pub phases: u32,
    /// Cycles: rocprof-compute's index accesses.
    pub cycles: u32,
    /// Cycles beyond one per phase.
    pub conflict_cycles: u32,
    /// Distinct words of the busiest bank in any phase.
    pub max_ways: u32,
}

/// The six metrics an instruction's and a tile's reports share, in table
/// order: phases, index accesses, bank conflict, the conflict rate
/// ([`bank_conflict_rate_pct`]), max ways and the theoretical bytes
/// ([`theoretical_bytes`]), each with its rocprof-compute name, unit and
/// JSON key.
///
/// ```
/// use cktile_analysis::analyzer::metrics::{pass_metrics, MetricValue, Passes};
/// let m = pass_metrics(Passes { phases: 4, cycles: 5, conflict_cycles: 1, max_ways: 2 }, 6.25, 640);
/// let keys: Vec<&str> = m.iter().map(|m| m.key).collect();
/// assert_eq!(keys, ["phases", "cycles", "conflict_cycles", "bank_conflict_rate_pct", "max_ways", "theoretical_bytes"]);
/// assert_eq!((m[1].label, m[3].value), ("Index Accesses", MetricValue::Percent(6.25)));
/// ```
pub fn pass_metrics(p: Passes, rate_pct: f64, bytes: u64) -> [Metric; 6] {
    [
        Metric::count("Phases", "phases", "phases", p.phases),
        Metric::count("Index Accesses", "cycles", "cycles", p.cycles),
        Metric::count("Bank Conflict", "cycles", "conflict_cycles", p.conflict_cycles),
        Metric {
            label: "Bank Conflict Rate",
            unit: "pct",
            key: "bank_conflict_rate_pct",
            value: MetricValue::Percent(rate_pct),
        },
        Metric::count("Max Ways", "words per bank", "max_ways", p.max_ways),
        Metric {
            label: "Theoretical Bytes",
            unit: "bytes",
            key: "theoretical_bytes",
            value: MetricValue::Count(bytes),
        },
    ]
}

/// rocprof-compute's "Bank Conflict Rate" (metric 12.1.4), in percent:
/// `100 * ((conflicts / 32) / (index_accesses - conflicts))`, with
/// `index_accesses` the cycles (passes through the banks) and `conflicts`
/// the conflict cycles; 0 when no cycle is conflict-free. The 32 is
/// rocprof-compute's constant (the banks one index access may update), kept
/// as it defines the metric, also for 64-bank chips.
///
/// ```
/// use cktile_analysis::analyzer::metrics::bank_conflict_rate_pct;
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
/// use cktile_analysis::analyzer::{arch, metrics::theoretical_bytes, rules::rule, Op};
/// // One lane's ds_read_b32 on gfx90a costs 2 cycles: 256 bytes.
/// assert_eq!(theoretical_bytes(&rule(&arch::GFX90A, Op::DsRead { bits: 32 }), 2), 256);
/// assert_eq!(theoretical_bytes(&rule(&arch::GFX950, Op::DsRead { bits: 128 }), 4), 1024);
/// ```
pub const fn theoretical_bytes(rule: &Rule, cycles: u32) -> u64 {
    cycles as u64 * rule.bytes_per_cycle()
}
