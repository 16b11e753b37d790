//! `cktile bank`: one instruction's bank conflicts from a JSON request on stdin.

use crate::common::{Failure, analysis, bad};
use crate::request::bank_request;
use cktile::analyzer::report::{InstructionReport, analyze_instruction};
use cktile::analyzer::rules::Provenance;
use serde_json::{Value, json};
use std::io::Read;

/// One instruction's report as JSON (also the `worst` of `cktile analyze --json`).
pub fn instruction_json(r: &InstructionReport) -> Value {
    let c = &r.counts;
    json!({
        "arch": r.arch.name(),
        "op": r.op.to_string(),
        "banks": r.banks,
        "phases": c.phases,
        "cycles": c.cycles,
        "conflict_cycles": c.conflict_cycles,
        "max_ways": c.max_ways,
        "bank_conflict_rate_pct": r.bank_conflict_rate_pct,
        "theoretical_bytes": r.theoretical_bytes,
        "active_lanes": c.active_lanes,
        "worst_phase": c.worst_phase,
        "assumption": r.provenance.assumption(),
        "disputed": r.provenance.disputed(),
        "sources": match r.provenance { Provenance::Sourced(t) => Some(t), _ => None },
        "phase_detail": r.phase_detail.iter().map(|p| json!({
            "phase": p.phase,
            "access": p.access,
            "lanes": p.lanes,
            "active_lanes": p.active_lanes,
            "cycles": p.cycles,
            "ways": p.ways,
            "busiest_bank": p.busiest_bank,
            "conflicts": p.conflicts.iter().map(|b| json!({
                "bank": b.bank,
                "ways": b.words.len(),
                "words": b.words.iter().map(|w| json!({"address": w.address, "lanes": w.lanes})).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

/// Runs `cktile bank`.
pub fn bank() -> Result<String, Failure> {
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(|e| Failure { message: format!("error: cannot read stdin: {e}"), code: 1 })?;
    let (arch, op, addresses) = bank_request(&text).map_err(bad)?;
    let r = analyze_instruction(&arch, op, &addresses).map_err(analysis)?;
    Ok(instruction_json(&r).to_string())
}
