//! `cktile catalog`: the layout catalogue, one entry or all.

use crate::common::{Failure, bad, to_json};
use cktile::json::CatalogEntryJson;
use cktile::layouts;

/// The layout catalogue: every entry with its parameters, source and footprint.
#[derive(clap::Args)]
#[command(
    after_help = "Limits: none needed; the catalogue and its examples are fixed and small.\n\nExamples:\n  cktile catalog\n  cktile catalog ck-universal-a\n  cktile catalog --json"
)]
pub struct Args {
    /// Show only this entry, with its spec.
    name: Option<String>,
    /// Print the catalogue as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs `cktile catalog`.
pub fn run(a: &Args) -> Result<String, Failure> {
    let (name, json) = (a.name.as_deref(), a.json);
    let entries: Vec<&layouts::Entry> = match name {
        Some(n) => {
            let found: Vec<_> = layouts::CATALOG.iter().filter(|e| e.name == n).collect();
            if found.is_empty() {
                let names: Vec<_> = layouts::CATALOG.iter().map(|e| e.name).collect();
                return Err(bad(format!("unknown catalogue entry `{n}`; expected one of: {}", names.join(", "))));
            }
            found
        }
        None => layouts::CATALOG.iter().collect(),
    };
    let mut items = Vec::new();
    let mut text = String::new();
    for e in entries {
        let j = CatalogEntryJson::new(e).map_err(|err| Failure::input(e.example, err))?;
        let (tile, space) = (j.example_element_size(), j.example_element_space_size());
        let overhead = if tile > 0 { 100.0 * (space - tile) as f64 / tile as f64 } else { 0.0 };
        if json {
            items.push(j);
            continue;
        }
        text.push_str(&format!("{}\n  {}\n  source: {}\n", e.name, e.summary, e.source));
        for p in e.params {
            let default = p.default.map_or(String::new(), |d| format!(" (default {d})"));
            text.push_str(&format!("  {:>13}: {}{default}\n", p.name, p.help));
        }
        text.push_str(&format!(
            "  example: {}\n           {tile} elements in {space} ({overhead:.1}% extra), {}\n",
            e.example,
            if e.bijective { "bijective" } else { "injective, padded" }
        ));
        if name.is_some() {
            text.push_str(&format!(
                "  spec:\n{}\n",
                j.example_spec().lines().map(|l| format!("    {l}")).collect::<Vec<_>>().join("\n")
            ));
        }
        text.push('\n');
    }
    if json { to_json(&items) } else { Ok(text) }
}
