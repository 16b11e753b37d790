//! The reports of `cktile bank` (one instruction) and `cktile analyze` (a
//! tile under an access pattern).

use crate::analyzer::Counts;
use crate::analyzer::report::{BankConflict, InstructionReport, PhaseReport, TileReport, WordAccess};
use crate::{Descriptor, Index};
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
struct WordJson<'a> {
    address: u64,
    lanes: &'a [u32],
}

#[derive(Clone, Debug, Serialize)]
struct ConflictJson<'a> {
    bank: u32,
    ways: usize,
    words: Vec<WordJson<'a>>,
}

#[derive(Clone, Debug, Serialize)]
struct PhaseJson<'a> {
    access: u32,
    active_lanes: u32,
    busiest_bank: u32,
    conflicts: Vec<ConflictJson<'a>>,
    cycles: u32,
    lanes: &'a [u32],
    phase: u32,
    ways: u32,
}

fn word(w: &WordAccess) -> WordJson<'_> {
    WordJson { address: w.address, lanes: &w.lanes }
}

fn conflict(b: &BankConflict) -> ConflictJson<'_> {
    ConflictJson { bank: b.bank, ways: b.words.len(), words: b.words.iter().map(word).collect() }
}

fn phase(p: &PhaseReport) -> PhaseJson<'_> {
    PhaseJson {
        access: p.access,
        active_lanes: p.active_lanes,
        busiest_bank: p.busiest_bank,
        conflicts: p.conflicts.iter().map(conflict).collect(),
        cycles: p.cycles,
        lanes: &p.lanes,
        phase: p.phase,
        ways: p.ways,
    }
}

/// `cktile bank`'s output (also the `worst` of `cktile analyze --json`): one
/// instruction's counts, rocprof-compute's metrics, and every phase in detail.
///
/// ```
/// use cktile::analyzer::{arch, analyze_instruction, Op};
/// let r = analyze_instruction(&arch::GFX90A, Op::DsRead { bits: 32 }, &[Some(0), Some(128)])?;
/// let out = serde_json::to_string(&cktile::json::InstructionJson::new(&r)).unwrap();
/// assert!(out.contains(r#""max_ways":2"#));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct InstructionJson<'a> {
    active_lanes: u32,
    arch: &'static str,
    assumption: Option<&'static str>,
    bank_conflict_rate_pct: f64,
    banks: u32,
    conflict_cycles: u32,
    cycles: u32,
    disputed: Option<&'static str>,
    max_ways: u32,
    op: String,
    phase_detail: Vec<PhaseJson<'a>>,
    phases: u32,
    sources: Option<&'static str>,
    theoretical_bytes: u64,
    worst_phase: u32,
}

impl<'a> InstructionJson<'a> {
    /// The view of `r`.
    ///
    /// ```
    /// use cktile::analyzer::{arch, analyze_instruction, Op};
    /// let r = analyze_instruction(&arch::SM80, Op::LdShared { bits: 32 }, &[Some(0)])?;
    /// let _ = cktile::json::InstructionJson::new(&r);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn new(r: &'a InstructionReport) -> InstructionJson<'a> {
        let c = &r.counts;
        InstructionJson {
            active_lanes: c.active_lanes,
            arch: r.arch.name(),
            assumption: r.provenance.assumption(),
            bank_conflict_rate_pct: r.bank_conflict_rate_pct,
            banks: r.banks,
            conflict_cycles: c.conflict_cycles,
            cycles: c.cycles,
            disputed: r.provenance.disputed(),
            max_ways: c.max_ways,
            op: r.op.to_string(),
            phase_detail: r.phase_detail.iter().map(phase).collect(),
            phases: c.phases,
            sources: r.provenance.sources(),
            theoretical_bytes: r.theoretical_bytes,
            worst_phase: c.worst_phase,
        }
    }
}

#[derive(Clone, Debug, Serialize)]
struct CountsJson {
    conflict_cycles: u32,
    cycles: u32,
    max_ways: u32,
    phases: u32,
    worst_phase: u32,
}

fn counts(i: &Counts) -> CountsJson {
    CountsJson {
        conflict_cycles: i.conflict_cycles,
        cycles: i.cycles,
        max_ways: i.max_ways,
        phases: i.phases,
        worst_phase: i.worst_phase,
    }
}

/// `cktile analyze --json`: a tile's totals, each instruction's counts, and
/// the worst instruction in detail.
///
/// ```
/// use cktile::analyzer::{arch, report::analyze_tile_report, Op, Pattern};
/// let d = cktile::Descriptor::packed(&[16, 64])?;
/// let read = Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } };
/// let r = analyze_tile_report(&d, 2, &arch::GFX942, read)?;
/// let out = serde_json::to_string(&cktile::json::TileJson::new(&d, &r)).unwrap();
/// assert!(out.starts_with(r#"{"arch":"gfx942","bank_conflict_rate_pct":"#));
/// assert!(out.contains(r#""pattern":"mfma16""#));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct TileJson<'a> {
    arch: &'static str,
    bank_conflict_rate_pct: f64,
    conflict_cycles: u32,
    conflicted_instructions: u32,
    cycles: u32,
    element_bytes: usize,
    element_space_size: Index,
    instructions: u32,
    lengths: Vec<Index>,
    max_ways: u32,
    op: String,
    pattern: Option<&'static str>,
    per_instruction: Vec<CountsJson>,
    phases: u32,
    theoretical_bytes: u64,
    worst: InstructionJson<'a>,
    worst_instruction: u32,
}

impl<'a> TileJson<'a> {
    /// The view of `r`, the report of `desc` under a pattern.
    ///
    /// ```
    /// use cktile::analyzer::{arch, report::analyze_tile_report, Op, Pattern};
    /// let d = cktile::Descriptor::packed(&[16, 64])?;
    /// let r = analyze_tile_report(&d, 2, &arch::GFX942, Pattern::Rows { op: Op::DsWrite { bits: 128 } })?;
    /// let _ = cktile::json::TileJson::new(&d, &r);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn new(desc: &Descriptor, r: &'a TileReport) -> TileJson<'a> {
        let c = &r.counts;
        TileJson {
            arch: r.arch.name(),
            bank_conflict_rate_pct: r.bank_conflict_rate_pct,
            conflict_cycles: c.conflict_cycles,
            conflicted_instructions: c.conflicted_instructions,
            cycles: c.cycles,
            element_bytes: r.element_bytes,
            element_space_size: desc.element_space_size(),
            instructions: c.instructions,
            lengths: desc.lengths().as_slice().to_vec(),
            max_ways: c.max_ways,
            op: r.op.to_string(),
            pattern: r.pattern.map(|p| p.name()),
            per_instruction: r.instructions.iter().map(counts).collect(),
            phases: c.phases,
            theoretical_bytes: r.theoretical_bytes,
            worst: InstructionJson::new(&r.worst),
            worst_instruction: c.worst_instruction,
        }
    }
}
