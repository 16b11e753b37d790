//! `cktile analyze`: a tile layout under an access pattern, instruction by instruction.

use crate::bank::instruction_json;
use crate::common::{Failure, bad, element_bytes, load_typed};
use cktile::analyzer::report::analyze_tile_report;
use cktile::analyzer::{Arch, Op, Pattern};
use cktile::render;
use serde_json::json;

/// The arguments of `cktile analyze`.
pub struct AnalyzeArgs<'a> {
    pub spec: &'a str,
    pub arch: &'a str,
    pub pattern: &'a str,
    pub op: Option<&'a str>,
    pub dtype: Option<&'a str>,
    pub json: bool,
}

/// Runs `cktile analyze`.
pub fn analyze(a: &AnalyzeArgs<'_>) -> Result<String, Failure> {
    let (text, layout) = load_typed(a.spec, a.dtype)?;
    let element_bytes = element_bytes(&layout)?;
    let desc = layout.descriptor;
    let arch = Arch::by_name(a.arch).map_err(|e| bad(format!("--arch: {e}")))?;
    let op = a.op.map(Op::by_name).transpose().map_err(|e| bad(format!("--op: {e}")))?;
    let pattern = Pattern::by_name(a.pattern, op).map_err(|e| bad(format!("--pattern: {e}")))?;
    let r = analyze_tile_report(&desc, element_bytes, &arch, pattern).map_err(|e| Failure::input(&text, e))?;
    if a.json {
        let c = &r.counts;
        return Ok(json!({
            "arch": arch.name,
            "op": r.op.name(),
            "pattern": pattern.name(),
            "element_bytes": element_bytes,
            "lengths": desc.lengths().as_slice(),
            "element_space_size": desc.element_space_size(),
            "instructions": c.instructions,
            "phases": c.phases,
            "cycles": c.cycles,
            "conflict_cycles": c.conflict_cycles,
            "max_ways": c.max_ways,
            "conflicted_instructions": c.conflicted_instructions,
            "bank_conflict_rate_pct": r.bank_conflict_rate_pct,
            "theoretical_bytes": r.theoretical_bytes,
            "worst_instruction": c.worst_instruction,
            "per_instruction": r.instructions.iter().map(|i| json!({
                "phases": i.phases,
                "cycles": i.cycles,
                "conflict_cycles": i.conflict_cycles,
                "max_ways": i.max_ways,
                "worst_phase": i.worst_phase,
            })).collect::<Vec<_>>(),
            "worst": instruction_json(&r.worst),
        })
        .to_string());
    }
    let lengths: Vec<String> = desc.lengths().as_slice().iter().map(|l| l.to_string()).collect();
    Ok(format!(
        "{} tile, {} elements of storage\n{}",
        lengths.join("x"),
        desc.element_space_size(),
        render::bank::tile(&r)
    ))
}
