//! `cktile bank`: one instruction's bank conflicts from a JSON request on stdin.

use crate::common::{Failure, analysis, bad, read_bounded, to_json};
use cktile::analyzer::report::analyze_instruction;
use cktile::analyzer::{Arch, Op};
use cktile::json::{BankRequest, InstructionJson, REQUEST_SHAPE};

/// Runs `cktile bank`.
pub fn bank() -> Result<String, Failure> {
    let text = read_bounded(std::io::stdin().lock(), "stdin")?;
    let req = BankRequest::from_json(&text)
        .map_err(|e| bad(format!("malformed JSON request ({e}); expected one object such as {REQUEST_SHAPE}")))?;
    let arch = Arch::by_name(&req.arch).map_err(|e| bad(format!("arch: {e}")))?;
    let op = Op::by_name(&req.op).map_err(|e| bad(format!("op: {e}")))?;
    let r = analyze_instruction(&arch, op, &req.addresses).map_err(analysis)?;
    to_json(&InstructionJson::new(&r))
}
