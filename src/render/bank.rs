//! Plain-text rendering of bank-conflict reports: a metric table like
//! rocprof-compute's LDS section, the worst phase with its lanes, banks and
//! words, and a side-by-side comparison of layouts.

use crate::analyzer::metrics::{Metric, MetricValue};
use crate::reports::{InstructionReport, PhaseReport, TileReport};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::Write;

/// Conflicting banks listed per phase before the rest are summarised.
const MAX_BANKS_SHOWN: usize = 8;

/// Lane numbers as ranges: `0-3, 20-23`.
///
/// ```
/// assert_eq!(cktile::render::bank::lane_ranges(&[0, 1, 2, 3, 20, 21, 22, 23]), "0-3, 20-23");
/// assert_eq!(cktile::render::bank::lane_ranges(&[5, 7]), "5, 7");
/// ```
pub fn lane_ranges(lanes: &[u32]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < lanes.len() {
        let start = lanes[i];
        let mut end = start;
        while i + 1 < lanes.len() && lanes[i + 1] == end + 1 {
            end += 1;
            i += 1;
        }
        parts.push(if end > start { format!("{start}-{end}") } else { format!("{start}") });
        i += 1;
    }
    parts.join(", ")
}

fn table(rows: &[(&str, String, &str)]) -> String {
    let name_w = rows.iter().map(|r| r.0.len()).chain(["Metric".len()]).max().unwrap_or(6);
    let value_w = rows.iter().map(|r| r.1.len()).chain(["Value".len()]).max().unwrap_or(5);
    let mut out = String::new();
    let _ = writeln!(out, "  {:<name_w$}  {:>value_w$}  Unit", "Metric", "Value");
    let _ = writeln!(out, "  {}  {}  {}", "-".repeat(name_w), "-".repeat(value_w), "-".repeat(6));
    for (name, value, unit) in rows {
        let _ = writeln!(out, "  {name:<name_w$}  {value:>value_w$}  {unit}");
    }
    out
}

/// One line naming a phase: its lanes, how many are active, its cycles and ways.
///
/// ```
/// use cktile::reports::analyze_instruction;
/// use cktile::analyzer::{arch, Op};
/// let r = analyze_instruction(&arch::GFX90A, Op::DsRead { bits: 32 }, &[Some(0), Some(128)])?;
/// assert_eq!(cktile::render::bank::phase_heading(&r.phase_detail[0]), "phase 0: lanes 0-31 (2 active), 2 cycles, 2-way");
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn phase_heading(p: &PhaseReport) -> String {
    let access = if p.access > 0 { " (second address)" } else { "" };
    format!(
        "phase {}{access}: lanes {} ({} active), {} cycle{}, {}-way",
        p.phase,
        lane_ranges(&p.lanes),
        p.active_lanes,
        p.cycles,
        if p.cycles == 1 { "" } else { "s" },
        p.ways
    )
}

/// One phase's lanes and its conflicting banks, each with its words and the
/// lanes touching them.
///
/// ```
/// use cktile::analyzer::{arch, Op};
/// use cktile::reports::analyze_instruction;
/// let r = analyze_instruction(&arch::SM90, Op::LdShared { bits: 32 }, &[Some(0), Some(128), Some(128)])?;
/// let text = cktile::render::bank::phase(&r.phase_detail[0]);
/// assert!(text.contains("phase 0: lanes 0-31 (3 active), 2 cycles, 2-way"), "{text}");
/// assert!(text.contains("bank 0: 2 words: 0 (lane 0), 128 (lanes 1-2)"), "{text}");
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn phase(p: &PhaseReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", phase_heading(p));
    for bank in p.conflicts.iter().take(MAX_BANKS_SHOWN) {
        let words: Vec<String> = bank
            .words
            .iter()
            .map(|w| {
                let s = if w.lanes.len() == 1 { "" } else { "s" };
                format!("{} (lane{s} {})", w.address, lane_ranges(&w.lanes))
            })
            .collect();
        let _ = writeln!(out, "  bank {}: {} words: {}", bank.bank, bank.words.len(), words.join(", "));
    }
    if p.conflicts.len() > MAX_BANKS_SHOWN {
        let _ = writeln!(out, "  ... and {} more conflicting banks", p.conflicts.len() - MAX_BANKS_SHOWN);
    }
    out
}

/// One line saying why a phase conflicts: its busiest bank, the words it
/// must serve (each by byte address, with the lanes asking for it and,
/// through `element`, what the caller's layout stores there), and the rule
/// that puts them in one bank: byte addresses a multiple of `banks` x 4
/// bytes apart. `None` for a phase with no conflicting bank.
///
/// ```
/// use cktile::reports::analyze_instruction;
/// use cktile::analyzer::{arch, Op};
/// let r = analyze_instruction(&arch::GFX90A, Op::DsRead { bits: 32 }, &[Some(0), Some(128)])?;
/// let line = cktile::render::bank::conflict_reason(&r.phase_detail[0], 32, &|a| Some(format!("row {}", a / 128)));
/// assert_eq!(
///     line.as_deref(),
///     Some("bank 0 serves bytes 0 (lane 0, row 0) and 128 (lane 1, row 1), multiples of 128 bytes (32 banks x 4 bytes) apart")
/// );
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn conflict_reason(p: &PhaseReport, banks: u32, element: &dyn Fn(u64) -> Option<String>) -> Option<String> {
    let bank = p.conflicts.iter().find(|c| c.bank == p.busiest_bank).or(p.conflicts.first())?;
    let words: Vec<String> = bank
        .words
        .iter()
        .map(|w| {
            let s = if w.lanes.len() == 1 { "" } else { "s" };
            let what = element(w.address).map(|e| format!(", {e}")).unwrap_or_default();
            format!("{} (lane{s} {}{what})", w.address, lane_ranges(&w.lanes))
        })
        .collect();
    let list = match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => words.join(""),
    };
    Some(format!(
        "bank {} serves bytes {list}, multiples of {} bytes ({banks} banks x 4 bytes) apart",
        bank.bank,
        u64::from(banks) * 4
    ))
}

/// The note a report prints under numbers that rest on an assumed or
/// disputed rule (nothing for a sourced one).
///
/// ```
/// use cktile::analyzer::{arch, rules::rule, Op};
/// let note = cktile::render::bank::caveat_note(&rule(&arch::GFX950, Op::DsRead { bits: 32 }).provenance);
/// assert!(note.starts_with("Note (disputed): "), "{note}");
/// assert_eq!(cktile::render::bank::caveat_note(&rule(&arch::GFX942, Op::DsRead { bits: 32 }).provenance), "");
/// ```
pub fn caveat_note(provenance: &crate::analyzer::rules::Provenance) -> String {
    match provenance.caveat() {
        Some((kind, text)) => format!("Note ({kind}): the bank count and phase grouping of this rule: {text}.\n"),
        None => String::new(),
    }
}

/// The worst phase of an instruction in detail (or a line saying there is
/// no conflict), with the rule's assumption or dispute if it has one.
fn worst_phase(r: &InstructionReport, label: &str) -> String {
    let mut out = String::new();
    if r.counts.conflict_cycles == 0 {
        let _ = writeln!(out, "No bank conflicts: every active phase is served in one pass.");
    } else if let Some(p) = r.worst_phase() {
        let _ = write!(out, "Worst: {label}{}", phase(p));
    }
    out.push_str(&caveat_note(&r.provenance));
    out
}

/// The metric table: each metric's name, value and unit.
fn metric_table(metrics: &[Metric]) -> String {
    let rows: Vec<(&str, String, &str)> = metrics.iter().map(|m| (m.label, m.value.to_string(), m.unit)).collect();
    table(&rows)
}

/// One instruction's report: the metric table, then its worst phase.
///
/// ```
/// use cktile::analyzer::{arch, Op};
/// use cktile::reports::analyze_instruction;
/// let addrs: Vec<Option<u64>> = (0..4).map(|l| Some(l * 128)).collect();
/// let r = analyze_instruction(&arch::GFX90A, Op::DsRead { bits: 32 }, &addrs)?;
/// let text = cktile::render::bank::instruction(&r);
/// assert!(text.contains("Index Accesses          5  cycles"), "{text}");
/// assert!(text.contains("Bank Conflict           3  cycles"), "{text}");
/// // Addresses for lanes an instruction does not read are named, not counted.
/// let r = analyze_instruction(&arch::SM90, Op::Ldmatrix { matrices: 1, trans: false }, &[Some(0); 10])?;
/// let text = cktile::render::bank::instruction(&r);
/// assert!(text.contains("Not read: ldmatrix.x1 does not read the addresses given for lanes 8-9"), "{text}");
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn instruction(r: &InstructionReport) -> String {
    let mut out = format!("{} on {} ({}, {} banks)\n\n", r.op, r.arch.name(), r.arch.description(), r.banks);
    out.push_str(&metric_table(&r.metrics()));
    out.push('\n');
    if !r.unread_lanes.is_empty() {
        let _ = writeln!(
            out,
            "Not read: {} does not read the addresses given for lane{} {} (no phase holds them); they are not counted.\n",
            r.op,
            if r.unread_lanes.len() == 1 { "" } else { "s" },
            lane_ranges(&r.unread_lanes)
        );
    }
    out.push_str(&worst_phase(r, ""));
    out
}

/// What a tile report's accesses are, e.g. `ds_read_b128, pattern mfma16`.
///
/// ```
/// use cktile::analyzer::{arch, Op, Pattern};
/// use cktile::reports::analyze_tile_report;
/// let d = cktile::Descriptor::packed(&[16, 64])?;
/// let r = analyze_tile_report(&d, 2, &arch::SM90, Pattern::by_name("ldmatrix", None)?)?;
/// assert_eq!(cktile::render::bank::accesses(&r), "ldmatrix.x4, pattern ldmatrix");
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn accesses(r: &TileReport) -> String {
    format!("{}, pattern {}", r.op, r.pattern.map_or("custom", |p| p.name()))
}

/// A tile's report: what was analysed, the metric table over every
/// instruction, then the worst instruction's worst phase.
///
/// ```
/// use cktile::analyzer::{arch, Op, Pattern};
/// use cktile::reports::analyze_tile_report;
/// let naive = cktile::Descriptor::packed(&[128, 64])?;
/// let r = analyze_tile_report(&naive, 2, &arch::GFX942, Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } })?;
/// let text = cktile::render::bank::tile(&r);
/// assert!(text.contains("Bank Conflict              384  cycles"), "{text}");
/// assert!(text.contains("Worst: instruction 0, phase 0: lanes 0-3, 20-23 (8 active), 4 cycles, 4-way"), "{text}");
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn tile(r: &TileReport) -> String {
    let c = &r.counts;
    let worst = r.worst();
    let mut out = format!(
        "{} on {} ({}, {} banks), {}-byte elements\n\n",
        accesses(r),
        r.arch.name(),
        r.arch.description(),
        r.banks,
        r.element_bytes
    );
    out.push_str(&metric_table(&r.metrics()));
    out.push('\n');
    out.push_str(&worst_phase(&worst, &format!("instruction {}, ", c.worst_instruction)));
    out
}

/// One layout of a [`comparison`]: its name, storage and reports (the
/// same patterns, in the same order, for every layout).
///
/// ```
/// use cktile::analyzer::{arch, Pattern};
/// use cktile::reports::analyze_tile_report;
/// let d = cktile::layouts::padding::row_padded(128, 64, 8)?;
/// let column = cktile::render::bank::LayoutColumn {
///     name: "padded",
///     elements: 128 * 64,
///     element_space: d.element_space_size(),
///     reports: vec![analyze_tile_report(&d, 2, &arch::GFX942, Pattern::by_name("mfma16", None)?)?],
/// };
/// assert_eq!(column.element_space, 9208);
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct LayoutColumn<'a> {
    /// The layout's name (a column header).
    pub name: &'a str,
    /// Elements the tile holds.
    pub elements: i64,
    /// Elements of storage it takes (its element space).
    pub element_space: i64,
    /// One report per pattern.
    pub reports: Vec<TileReport>,
}

/// Layouts side by side: storage and overhead, then per pattern the index
/// accesses, conflict cycles, max ways and conflict rate.
///
/// ```
/// use cktile::analyzer::{arch, Op, Pattern};
/// use cktile::reports::analyze_tile_report;
/// use cktile::render::bank::{comparison, LayoutColumn};
/// let read = Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } };
/// let column = |name, d: cktile::Descriptor| -> Result<LayoutColumn<'static>, cktile::Error> {
///     Ok(LayoutColumn { name, elements: 8192, element_space: d.element_space_size(),
///                       reports: vec![analyze_tile_report(&d, 2, &arch::GFX942, read)?] })
/// };
/// let text = comparison(&[
///     column("naive", cktile::Descriptor::packed(&[128, 64])?)?,
///     column("xor", cktile::layouts::ck::xor_preshuffle(128, 64, 8)?)?,
/// ]);
/// assert!(text.contains("bank conflict (cycles)     384      0"), "{text}");
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn comparison(columns: &[LayoutColumn<'_>]) -> String {
    let mut rows: Vec<(String, Vec<String>)> = Vec::new();
    rows.push((String::new(), columns.iter().map(|c| String::from(c.name)).collect()));
    rows.push(("storage (elements)".into(), columns.iter().map(|c| format!("{}", c.element_space)).collect()));
    rows.push((
        "overhead".into(),
        columns.iter().map(|c| format!("{:.1}%", super::text::overhead_pct(c.elements, c.element_space))).collect(),
    ));
    let patterns = columns.first().map_or(0, |c| c.reports.len());
    for k in 0..patterns {
        let title = columns.first().and_then(|c| c.reports.get(k)).map_or(String::new(), accesses);
        rows.push((title, Vec::new()));
        let metric = |f: &dyn Fn(&TileReport) -> String| -> Vec<String> {
            columns.iter().map(|c| c.reports.get(k).map_or(String::from("-"), f)).collect()
        };
        rows.push(("  index accesses (cycles)".into(), metric(&|r| format!("{}", r.counts.cycles))));
        rows.push(("  bank conflict (cycles)".into(), metric(&|r| format!("{}", r.counts.conflict_cycles))));
        rows.push(("  max ways".into(), metric(&|r| format!("{}", r.counts.max_ways))));
        rows.push((
            "  conflict rate".into(),
            metric(&|r| format!("{}%", MetricValue::Percent(r.bank_conflict_rate_pct))),
        ));
    }
    let label_w = rows.iter().filter(|r| !r.1.is_empty()).map(|r| r.0.len()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns.len())
        .map(|i| rows.iter().filter_map(|r| r.1.get(i)).map(String::len).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for (label, cells) in &rows {
        if cells.is_empty() {
            let _ = writeln!(out, "{label}");
            continue;
        }
        let _ = write!(out, "{label:<label_w$}");
        for (cell, w) in cells.iter().zip(&widths) {
            let _ = write!(out, "  {cell:>w$}");
        }
        out.push('\n');
    }
    out
}
