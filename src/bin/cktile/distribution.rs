//! `cktile distribution`: a tile distribution's lengths and every thread's coordinates.

use crate::common::{Failure, read_spec, to_json};
use cktile::distribution::{Distribution, Table, resolve};
use cktile::json::DistributionJson;
use cktile::render;

/// Reads an ENCODING argument (CK's spelling, a catalogue name, `@path` or
/// `-`) and builds its distribution.
pub fn load_distribution(arg: &str) -> Result<(String, Distribution), Failure> {
    let text = read_spec(arg)?;
    let d = resolve(&text).and_then(Distribution::new).map_err(|e| Failure::input(&text, e))?;
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
