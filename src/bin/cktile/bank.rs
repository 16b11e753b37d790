//! `cktile bank`: one instruction's bank conflicts from a JSON request on stdin.

use crate::common::{Failure, analysis, bad, read_bounded, to_json};
use cktile::analyzer::arch::ARCH_NAMES;
use cktile::analyzer::model::validate_shared;
use cktile::analyzer::op::OP_NAMES;
use cktile::analyzer::{Arch, Op};
use cktile::json::{BankRequest, InstructionJson, ModelAnswerJson, REQUEST_SHAPE};
use cktile::reports::analyze_instruction;
use cktile::reports::models::Model;

/// Bank conflicts of one shared-memory instruction: reads one JSON request on stdin, prints one JSON object.
#[derive(clap::Args)]
#[command(
    long_about = format!("Bank conflicts of one shared-memory instruction.\n\n\
Reads one JSON object on stdin: {{\"arch\": ARCH, \"op\": OP, \"addresses\": [...]}}, one byte address per lane \
(null: the lane is inactive; lanes past the list are inactive), each access inside the chip's shared memory. Prints one JSON object: phases, cycles \
(rocprof-compute's index accesses, Nsight's wavefronts), conflict_cycles, max_ways, bank_conflict_rate_pct, \
theoretical_bytes, active_lanes, worst_phase, unread_lanes (lanes given an address the instruction does not read, such as lanes 8-31 of ldmatrix.x1: named, not counted), assumption (null, or why the phase grouping is assumed) and \
phase_detail (per phase: lanes, active lanes, cycles, ways, and each conflicting bank's words with their lanes).\n\n\
ARCH: {}.\n\
OP (each on the chips that have it): {}.", ARCH_NAMES, OP_NAMES),
    after_help = "Limits: stdin is read up to 1 MiB; at most one address per lane of the chip's wave (32 or 64).\n\nExamples:\n  \
echo '{\"arch\": \"gfx90a\", \"op\": \"ds_read_b32\", \"addresses\": [0, 128, null, 256]}' | cktile bank\n  \
echo '{\"arch\": \"gfx942\", \"op\": \"ds_read_b128\", \"addresses\": [0, 0, 0, 0]}' | cktile bank --model rocke\n  \
cktile bank < request.json"
)]
pub struct Args {
    // The models, from the library's list.
    #[arg(long, help = format!(
        "Answer with this public model of AMD's LDS instead of cktile's table: {} (also a request's \"model\" key); \
         prints the model's max_ways, phases, banks, broadcast and source, or its refusal where its source is silent",
        cktile::reports::models::MODEL_NAMES
    ))]
    model: Option<String>,
}

/// Runs `cktile bank`.
pub fn run(a: &Args) -> Result<String, Failure> {
    let text = read_bounded(std::io::stdin().lock(), "stdin")?;
    let req = BankRequest::from_json(&text).map_err(|e| {
        bad(format!(
            "malformed JSON request ({}); expected one object such as {REQUEST_SHAPE}",
            cktile::Visible(&e.to_string())
        ))
    })?;
    let arch = Arch::by_name(&req.arch).map_err(|e| bad(format!("arch: {e}")))?;
    let op = Op::by_name(&req.op).map_err(|e| bad(format!("op: {e}")))?;
    validate_shared(&arch, op, &req.addresses).map_err(analysis)?;
    let model = match (&a.model, &req.model) {
        (Some(x), Some(y)) if x != y => {
            return Err(bad(format!(
                "--model `{}` and the request's model `{}` differ; give one",
                cktile::Visible(x),
                cktile::Visible(y)
            )));
        }
        (Some(m), _) | (None, Some(m)) => Some(Model::by_name(m).map_err(|e| bad(format!("model: {e}")))?),
        (None, None) => None,
    };
    if let Some(m) = model.filter(|&m| m != Model::Cktile) {
        return to_json(&ModelAnswerJson::new(m, &arch, op, &req.addresses).map_err(analysis)?);
    }
    let r = analyze_instruction(&arch, op, &req.addresses).map_err(analysis)?;
    to_json(&InstructionJson::new(&r))
}
