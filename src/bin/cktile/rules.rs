//! `cktile rules`: the analyzer's rule table.

use crate::common::{Failure, bad};
use cktile::analyzer::Arch;
use cktile::render::rules::{rows, table};
use serde_json::json;

/// Runs `cktile rules`.
pub fn rules(arch: Option<&str>, markdown: bool, as_json: bool) -> Result<String, Failure> {
    let arch = arch.map(Arch::by_name).transpose().map_err(|e| bad(format!("--arch: {e}")))?;
    let rows = rows(arch.as_ref());
    if as_json {
        let list: Vec<_> = rows
            .iter()
            .map(|r| {
                json!({"arch": r.arch, "op": r.op, "banks": r.banks, "phases": r.phases, "provenance": r.kind, "source": r.text})
            })
            .collect();
        return Ok(serde_json::Value::from(list).to_string());
    }
    Ok(table(&rows, markdown))
}
