//! `cktile gpu-cases`: the hardware-truth cases for the NVIDIA harness in `gpu/`.

use crate::common::analysis;
use cktile::analyzer::Counts;
use cktile::codegen::gpu_cases::{self, FAMILIES, MAX_INSTRUCTIONS, case_file, kernel_name, nvidia_ops};
use serde_json::{Value, json};

fn counts(c: &Counts) -> Value {
    json!({
        "wavefronts": c.cycles,
        "ideal_wavefronts": c.phases,
        "conflicts": c.conflict_cycles,
        "max_ways": c.max_ways,
        "active_lanes": c.active_lanes,
    })
}

/// Runs `cktile gpu-cases`: the case file `gpu/harness.cu` reads, or JSON.
pub fn gpu_cases(json: bool) -> Result<String, crate::common::Failure> {
    let cases = gpu_cases::cases().map_err(analysis)?;
    if !json {
        return Ok(case_file(&cases));
    }
    let list: Vec<Value> = cases
        .iter()
        .map(|c| {
            json!({
                "id": c.id,
                "name": c.name,
                "family": c.family,
                "layout": c.layout,
                "spec": c.desc.to_string(),
                "lengths": c.desc.lengths().as_slice(),
                "element_bytes": c.element_bytes,
                "pattern": c.pattern.name(),
                "op": c.op.name(),
                "kernel": kernel_name(c.op),
                "is_load": c.op.is_read(),
                "instructions": c.instructions(),
                "shared_bytes": c.shared_bytes,
                "predicted": {
                    "wavefronts": c.totals.cycles,
                    "ideal_wavefronts": c.totals.phases,
                    "conflicts": c.totals.conflict_cycles,
                    "max_ways": c.totals.max_ways,
                    "conflicted_instructions": c.totals.conflicted_instructions,
                },
                "per_instruction": c.predicted.iter().map(counts).collect::<Vec<_>>(),
                "addresses": c.addresses,
            })
        })
        .collect();
    Ok(json!({
        "format": "cktile-gpu-cases/1",
        "arch": "sm90",
        "max_instructions": MAX_INSTRUCTIONS,
        "families": FAMILIES,
        "ops": nvidia_ops(),
        "patterns": ["rows", "columns", "ldmatrix", "mma_sync_a"],
        "cases": list,
    })
    .to_string())
}
