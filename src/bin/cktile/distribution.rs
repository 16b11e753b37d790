//! `cktile distribution`: a tile distribution's lengths and every thread's coordinates.

use crate::common::{Failure, read_spec, to_json};
use cktile::distribution::{Distribution, Table, catalogue, parse};
use cktile::json::DistributionJson;
use cktile::render;

/// Reads an ENCODING argument (CK's spelling, a catalogue name, `@path` or
/// `-`) and builds its distribution.
pub fn load_distribution(arg: &str) -> Result<(String, Distribution), Failure> {
    let text = read_spec(arg)?;
    let trimmed = text.trim();
    let is_name = !trimmed.is_empty() && trimmed.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let encoding =
        if is_name && trimmed != "tile_distribution_encoding" { catalogue::by_name(trimmed) } else { parse(&text) };
    let d = encoding.and_then(Distribution::new).map_err(|e| Failure::input(&text, e))?;
    Ok((text, d))
}

/// Runs `cktile distribution`.
pub fn distribution(arg: &str, json: bool) -> Result<String, Failure> {
    let (text, d) = load_distribution(arg)?;
    let table = Table::new(&d).map_err(|e| Failure::input(&text, e))?;
    if json {
        return to_json(&DistributionJson::new(&d, &table));
    }
    Ok(render::distribution::distribution(&d, &table))
}
