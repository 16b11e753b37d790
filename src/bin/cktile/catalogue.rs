//! `cktile catalogue`: the layout catalogue, one entry or all.

use crate::common::{Failure, bad, to_json};
use cktile::json::CatalogueEntryJson;
use cktile::{Visible, layouts, render};

/// The layout catalogue: every entry with its parameters, source and footprint.
#[derive(clap::Args)]
#[command(
    after_help = "Limits: none needed; the catalogue and its examples are fixed and small.\n\nExamples:\n  cktile catalogue\n  cktile catalogue ck-universal-a\n  cktile catalogue --json"
)]
pub struct Args {
    /// Show only this entry, with its spec.
    name: Option<String>,
    /// Print the catalogue as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs `cktile catalogue`.
pub fn run(a: &Args) -> Result<String, Failure> {
    let (name, json) = (a.name.as_deref(), a.json);
    let entries: Vec<&layouts::Entry> = match name {
        Some(n) => match layouts::CATALOGUE.iter().find(|e| e.name == n) {
            Some(e) => vec![e],
            None => {
                return Err(bad(format!(
                    "unknown catalogue entry `{}`; expected one of: {}",
                    Visible(n),
                    layouts::ENTRY_NAMES
                )));
            }
        },
        None => layouts::CATALOGUE.iter().collect(),
    };
    if json {
        let items = entries.iter().map(|e| CatalogueEntryJson::new(e).map_err(|err| Failure::input(e.example, err)));
        return to_json(&items.collect::<Result<Vec<_>, _>>()?);
    }
    let mut text = String::new();
    for e in entries {
        text.push_str(&render::catalogue::entry(e, name.is_some()).map_err(|err| Failure::input(e.example, err))?);
    }
    Ok(text)
}
