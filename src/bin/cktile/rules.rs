//! `cktile rules`: the analyzer's rule table.

use crate::common::{Failure, chip, to_json};
use cktile::json::RuleJson;
use cktile::render::rules::{rows, table};

/// The analyzer's rule table: banks, phases and sources per chip and instruction.
#[derive(clap::Args)]
#[command(
    long_about = "The analyzer's rule table: for every chip and every instruction it has, the 4-byte banks that \
resolve the instruction's conflicts, the lanes served together in each phase, and where that comes from (the \
measurement or documentation, or the assumption cktile makes where no source gives it, or the dispute where \
sources disagree).",
    after_help = "Examples:\n  cktile rules --arch gfx950\n  cktile rules --markdown > rules.md\n  cktile rules --json"
)]
pub struct Args {
    // The chips from the one list `--arch` is checked against.
    #[arg(long, help = format!("Only this chip ({})", cktile::analyzer::arch::ARCH_NAMES))]
    arch: Option<String>,
    /// A Markdown table.
    #[arg(long, conflicts_with = "json")]
    markdown: bool,
    /// One JSON array of rows.
    #[arg(long)]
    json: bool,
}

/// Runs `cktile rules`.
pub fn run(a: &Args) -> Result<String, Failure> {
    let arch = a.arch.as_deref().map(chip).transpose()?;
    let rows = rows(arch.as_ref());
    if a.json {
        return to_json(&rows.iter().map(RuleJson::new).collect::<Vec<_>>());
    }
    Ok(table(&rows, a.markdown))
}
