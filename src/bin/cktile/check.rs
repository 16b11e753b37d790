//! `cktile check`: injectivity, surjectivity, holes and vector lengths.

use crate::common::{Failure, Spec, to_json};
use cktile::json::CheckJson;
use cktile::{check, render};

/// Injective? Surjective onto [0, element_space_size)? Holes, collisions, vector lengths.
#[derive(clap::Args)]
#[command(
    after_help = "Limits: every top coordinate is enumerated: at most 2^24 (16777216) of them, and at most 2^27 coordinates x \
transforms in the chain (a 15-transform chain: 8947848 coordinates); a larger descriptor is refused, so check a slice \
of it. SPEC files and stdin: at most 1 MiB.\n\nExamples:\n  cktile check 'naive((4,8),(10,1))'\n  cktile check @layout.spec --json"
)]
pub struct Args {
    #[command(flatten)]
    spec: Spec,
    /// Print the report as one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs `cktile check`.
pub fn run(a: &Args) -> Result<String, Failure> {
    let (text, desc) = a.spec.load()?;
    let r = check::check(&desc).map_err(|e| Failure::input(&text, e))?;
    if a.json {
        return to_json(&CheckJson::new(&r));
    }
    Ok(render::text::report(&r))
}
