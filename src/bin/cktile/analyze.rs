//! `cktile analyze`: a tile layout under an access pattern, instruction by instruction.

use crate::common::{Failure, bad, element_bytes, load_typed, to_json};
use cktile::analyzer::report::analyze_tile_report_with_progress;
use cktile::analyzer::window::analyze_distribution;
use cktile::analyzer::{Arch, Op, Pattern};
use cktile::json::TileJson;
use cktile::render;

/// The arguments of `cktile analyze`.
pub struct AnalyzeArgs<'a> {
    pub spec: &'a str,
    pub arch: &'a str,
    pub pattern: Option<&'a str>,
    pub distribution: Option<&'a str>,
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
    let r = match (a.pattern, a.distribution) {
        (_, Some(encoding)) => {
            let (enc_text, d) = crate::distribution::load_distribution(encoding)?;
            let op = op.ok_or_else(|| bad("--distribution needs the instruction it issues (--op)".into()))?;
            analyze_distribution(&desc, element_bytes, &arch, &d, op).map_err(|e| match e.position() {
                Some(_) => Failure::input(&enc_text, e),
                None => Failure::input(&text, e),
            })?
        }
        (Some(pattern), None) => {
            let pattern = Pattern::by_name(pattern, op).map_err(|e| bad(format!("--pattern: {e}")))?;
            let r = crate::common::with_progress("analysing", |progress| {
                analyze_tile_report_with_progress(&desc, element_bytes, &arch, pattern, progress)
            });
            r.map_err(|e| Failure::input(&text, e))?
        }
        (None, None) => return Err(bad("give --pattern or --distribution".into())),
    };
    if a.json {
        return to_json(&TileJson::new(&desc, &r));
    }
    let lengths: Vec<String> = desc.lengths().as_slice().iter().map(|l| l.to_string()).collect();
    Ok(format!(
        "{} tile, {} elements of storage\n{}",
        lengths.join("x"),
        desc.element_space_size(),
        render::bank::tile(&r)
    ))
}
