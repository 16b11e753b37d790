//! `cktile check`: injectivity, surjectivity, holes and vector lengths.

use crate::common::{Failure, load};
use cktile::{check, render};
use serde_json::json;

/// Runs `cktile check`.
pub fn check_report(arg: &str, json: bool) -> Result<String, Failure> {
    let (text, desc) = load(arg)?;
    let r = check::check(&desc).map_err(|e| Failure::input(&text, e))?;
    Ok(if json {
        let opt = |x: Option<i64>| x.map_or(json!(null), |v| json!(v));
        json!({
            "lengths": r.lengths,
            "element_size": r.element_size,
            "valid_count": r.valid_count,
            "element_space_size": r.element_space_size,
            "injective": r.injective,
            "surjective": r.surjective,
            "bijective": r.is_bijective(),
            "hole_count": r.hole_count,
            "holes": r.holes,
            "collision_count": r.collision_count,
            "collisions": r.collisions.iter().map(|c| json!({"offset": c.offset, "first": c.first, "second": c.second})).collect::<Vec<_>>(),
            "outside_count": r.outside_count,
            "outside": r.outside.iter().map(|(c, o)| json!({"coordinate": c, "offset": o})).collect::<Vec<_>>(),
            "vectors": r.vectors.iter().zip(&r.verified).zip(&r.vector_unknown).map(|((v, verified), why)| json!({
                "length": opt(v.length),
                "stride": opt(v.stride),
                "verified_length": verified,
                "ck_claim_holds": v.length.is_none_or(|l| l <= *verified),
                "unknown_because": why.map(|w| w.explain()),
            })).collect::<Vec<_>>(),
        })
        .to_string()
    } else {
        render::text::report(&r)
    })
}
