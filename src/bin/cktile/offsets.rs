//! `cktile offsets`: every top coordinate's offset, or one coordinate level by level.

use crate::common::{Failure, load, to_json};
use cktile::json::{CoordinateJson, OffsetsJson};
use cktile::{check, render};

fn parse_coordinate(text: &str) -> Result<Vec<i64>, Failure> {
    text.split(',')
        .map(|s| {
            s.trim().parse::<i64>().map_err(|_| Failure {
                message: format!("error: --at: `{}` is not an integer; write the coordinate as e.g. 3,9", s.trim()),
                code: 2,
            })
        })
        .collect()
}

/// Runs `cktile offsets`.
pub fn offsets(arg: &str, json: bool, at: Option<&str>) -> Result<String, Failure> {
    let (text, desc) = load(arg)?;
    if let Some(at) = at {
        let coord = parse_coordinate(at)?;
        let c = CoordinateJson::new(&desc, &coord).map_err(|e| Failure::input(&text, e))?;
        if json {
            return to_json(&c);
        }
        let mut s = format!("{coord:?} -> offset {} ({})\n", c.offset(), if c.valid() { "valid" } else { "padding" });
        for (i, level) in c.levels().iter().enumerate() {
            s.push_str(&format!("  level {i}: {level:?}\n"));
        }
        return Ok(s);
    }
    let o = check::offsets(&desc).map_err(|e| Failure::input(&text, e))?;
    if json {
        return to_json(&OffsetsJson::new(&desc, &o));
    }
    Ok(render::text::offsets(&desc, &o))
}
