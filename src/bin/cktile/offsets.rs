//! `cktile offsets`: every top coordinate's offset, or one coordinate level by level.

use crate::common::{Failure, load};
use cktile::{check, render};
use serde_json::json;

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
        let offset = desc.try_calculate_offset(&coord).map_err(|e| Failure::input(&text, e))?;
        let valid = desc.coordinate_has_valid_offset(&coord);
        let c = cktile::make_tensor_coordinate(&desc, &coord);
        let levels: Vec<Vec<i64>> = (0..=desc.stages().len())
            .rev()
            .map(|k| {
                let n = if k == 0 { 1 } else { desc.stages()[k - 1].upper_lengths().len() };
                c.level(k)[..n].to_vec()
            })
            .collect();
        return Ok(if json {
            json!({"coordinate": coord, "offset": offset, "valid": valid, "levels": levels}).to_string()
        } else {
            let mut s = format!("{coord:?} -> offset {offset} ({})\n", if valid { "valid" } else { "padding" });
            for (i, level) in levels.iter().enumerate() {
                s.push_str(&format!("  level {i}: {level:?}\n"));
            }
            s
        });
    }
    let o = check::offsets(&desc).map_err(|e| Failure::input(&text, e))?;
    Ok(if json {
        json!({
            "lengths": desc.lengths().as_slice(),
            "element_space_size": desc.element_space_size(),
            "offsets": o.offsets,
            "valid": o.valid,
        })
        .to_string()
    } else {
        render::text::offsets(&desc, &o)
    })
}
