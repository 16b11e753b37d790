//! `cktile offsets`: every top coordinate's offset, or one coordinate level by level.

use crate::common::{Failure, Spec, integers, to_json};
use cktile::json::{CoordinateJson, OffsetsJson};
use cktile::{check, render};

/// Offset and validity of every top coordinate (row-major, last dimension fastest).
#[derive(clap::Args)]
#[command(
    after_help = "Limits: every top coordinate is enumerated: at most 2^24 (16777216) of them, and at most 2^27 coordinates x \
transforms in the chain (a 15-transform chain: 8947848 coordinates); a larger descriptor is refused, so check a slice \
of it. SPEC files and stdin: at most 1 MiB.\n\nExamples:\n  cktile offsets 'packed((4,8))'\n  \
cktile offsets 'naive((5),(1)) | transform(pad(5,2,3) on [0] -> [0])' --json\n  \
cktile offsets 'naive((8,128,8),(8,64,1)) | transform(xor((128,8)) on [1,0] -> [1,0], pass_through(8) on [2] -> [2]) | transform(pass_through(128) on [1] -> [0], merge((8,8)) on [0,2] -> [1])' --at 3,9"
)]
pub struct Args {
    #[command(flatten)]
    spec: Spec,
    /// Print one JSON object: {"lengths", "element_space_size", "offsets", "valid"}.
    #[arg(long)]
    json: bool,
    /// Only this coordinate (comma-separated), with the index at every stage.
    #[arg(long, value_name = "COORD", allow_hyphen_values = true)]
    at: Option<String>,
}

/// Runs `cktile offsets`.
pub fn run(a: &Args) -> Result<String, Failure> {
    let (text, desc) = a.spec.load()?;
    if let Some(at) = a.at.as_deref() {
        let coord = integers("--at", at, "write the coordinate as e.g. 3,9")?;
        let t = check::trace(&desc, &coord).map_err(|e| Failure::input(&text, e))?;
        return if a.json { to_json(&CoordinateJson::from(t)) } else { Ok(render::text::trace(&t)) };
    }
    let o = check::offsets(&desc).map_err(|e| Failure::input(&text, e))?;
    if a.json {
        return to_json(&OffsetsJson::new(&desc, &o));
    }
    Ok(render::text::offsets(&desc, &o))
}
