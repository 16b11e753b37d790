//! The layout catalogue for people: each entry with its parameters, its
//! source and its example's footprint, as `cktile catalogue` prints it.

use super::text::overhead_pct;
use crate::Error;
use crate::layouts::{self, Entry};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::Write;

/// One entry: its name, summary and source, each parameter with its help
/// and default, and its example with the example's footprint; with
/// `spec`, the example's descriptor printed as a spec. Ends with a blank
/// line. An error only if the catalogue's own example does not build.
///
/// ```
/// let e = cktile::layouts::CATALOGUE.iter().find(|e| e.name == "row-padded").unwrap();
/// let text = cktile::render::catalogue::entry(e, false)?;
/// assert!(text.starts_with("row-padded\n"));
/// assert!(text.contains("            pad: "));
/// assert!(text.contains("elements in "));
/// assert!(!text.contains("  spec:"));
/// assert!(cktile::render::catalogue::entry(e, true)?.contains("  spec:\n    naive("));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn entry(e: &Entry, spec: bool) -> Result<String, Error> {
    let example = layouts::resolve(e.example)?;
    let (tile, space) = (example.element_size().unwrap_or(0), example.element_space_size());
    let mut text = format!("{}\n  {}\n  source: {}\n", e.name, e.summary, e.source);
    for p in e.params {
        let default = p.default.map_or(String::new(), |d| format!(" (default {d})"));
        let _ = writeln!(text, "  {:>13}: {}{default}", p.name, p.help);
    }
    let _ = writeln!(
        text,
        "  example: {}\n           {tile} elements in {space} ({:.1}% extra), {}",
        e.example,
        overhead_pct(tile, space),
        if e.bijective { "bijective" } else { "injective, padded" }
    );
    if spec {
        let lines: Vec<String> = example.to_string().lines().map(|l| format!("    {l}")).collect();
        let _ = writeln!(text, "  spec:\n{}", lines.join("\n"));
    }
    text.push('\n');
    Ok(text)
}
