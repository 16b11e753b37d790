//! `cktile bank`: one instruction's bank conflicts from a JSON request on stdin.

use crate::common::{Failure, analysis, bad};
use cktile::analyzer::report::{InstructionReport, analyze_instruction};
use cktile::analyzer::{Arch, Op};
use serde_json::{Value, json};
use std::io::Read;

const REQUEST_SHAPE: &str = r#"{"arch": "gfx90a", "op": "ds_read_b32", "addresses": [0, 128, null]}"#;

/// Reads `cktile bank`'s request: the chip, the instruction and each lane's address.
fn bank_request(text: &str) -> Result<(Arch, Op, Vec<Option<u64>>), Failure> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| bad(format!("malformed JSON request ({e}); expected one object such as {REQUEST_SHAPE}")))?;
    let Value::Object(fields) = value else {
        return Err(bad(format!("the request must be one JSON object such as {REQUEST_SHAPE}")));
    };
    if let Some(key) = fields.keys().find(|k| !matches!(k.as_str(), "arch" | "op" | "addresses")) {
        return Err(bad(format!("unknown key `{key}` in the request; expected arch, op and addresses")));
    }
    let string = |key: &str| -> Result<&str, Failure> {
        match fields.get(key) {
            Some(Value::String(s)) => Ok(s),
            Some(other) => Err(bad(format!("`{key}` must be a string, found {other}"))),
            None => Err(bad(format!("the request has no `{key}`; expected an object such as {REQUEST_SHAPE}"))),
        }
    };
    let arch = Arch::by_name(string("arch")?).map_err(|e| bad(format!("arch: {e}")))?;
    let op = Op::by_name(string("op")?).map_err(|e| bad(format!("op: {e}")))?;
    let Some(Value::Array(items)) = fields.get("addresses") else {
        return Err(bad(format!(
            "`addresses` must be an array with one byte address (or null) per lane; expected an object such as {REQUEST_SHAPE}"
        )));
    };
    let addresses = items
        .iter()
        .enumerate()
        .map(|(lane, v)| match v {
            Value::Null => Ok(None),
            v => v.as_u64().map(Some).ok_or_else(|| {
                bad(format!(
                    "addresses[{lane}] is {v}; expected a byte address (a non-negative integer) or null for an inactive lane"
                ))
            }),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((arch, op, addresses))
}

/// One instruction's report as JSON (also the `worst` of `cktile analyze --json`).
pub fn instruction_json(r: &InstructionReport) -> Value {
    let c = &r.counts;
    json!({
        "arch": r.arch.name,
        "op": r.op.name(),
        "phases": c.phases,
        "cycles": c.cycles,
        "conflict_cycles": c.conflict_cycles,
        "max_ways": c.max_ways,
        "bank_conflict_rate_pct": r.bank_conflict_rate_pct,
        "theoretical_bytes": r.theoretical_bytes,
        "active_lanes": c.active_lanes,
        "worst_phase": c.worst_phase,
        "assumption": r.assumption,
        "phase_detail": r.phase_detail.iter().map(|p| json!({
            "phase": p.phase,
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
    let (arch, op, addresses) = bank_request(&text)?;
    let r = analyze_instruction(&arch, op, &addresses).map_err(analysis)?;
    Ok(instruction_json(&r).to_string())
}
