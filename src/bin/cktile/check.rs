//! `cktile check`: injectivity, surjectivity, holes and vector lengths.

use crate::common::{Failure, load, to_json};
use cktile::json::CheckJson;
use cktile::{check, render};

/// Runs `cktile check`.
pub fn check_report(arg: &str, json: bool) -> Result<String, Failure> {
    let (text, desc) = load(arg)?;
    let r = check::check(&desc).map_err(|e| Failure::input(&text, e))?;
    if json {
        return to_json(&CheckJson::new(&r));
    }
    Ok(render::text::report(&r))
}
