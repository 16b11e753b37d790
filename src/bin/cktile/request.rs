//! The JSON request of `cktile bank`: the chip, the instruction and each
//! lane's byte address. It depends only on the library and serde_json, so the
//! fuzz target `bank` compiles this very file.

use cktile::analyzer::{Arch, Op};
use serde_json::Value;

/// An example request, quoted in messages.
pub const REQUEST_SHAPE: &str = r#"{"arch": "gfx90a", "op": "ds_read_b32", "addresses": [0, 128, null]}"#;

/// Reads `cktile bank`'s request: the chip, the instruction and each lane's address.
pub fn bank_request(text: &str) -> Result<(Arch, Op, Vec<Option<u64>>), String> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| format!("malformed JSON request ({e}); expected one object such as {REQUEST_SHAPE}"))?;
    let Value::Object(fields) = value else {
        return Err(format!("the request must be one JSON object such as {REQUEST_SHAPE}"));
    };
    if let Some(key) = fields.keys().find(|k| !matches!(k.as_str(), "arch" | "op" | "addresses")) {
        return Err(format!("unknown key `{key}` in the request; expected arch, op and addresses"));
    }
    let string = |key: &str| -> Result<&str, String> {
        match fields.get(key) {
            Some(Value::String(s)) => Ok(s),
            Some(other) => Err(format!("`{key}` must be a string, found {other}")),
            None => Err(format!("the request has no `{key}`; expected an object such as {REQUEST_SHAPE}")),
        }
    };
    let arch = Arch::by_name(string("arch")?).map_err(|e| format!("arch: {e}"))?;
    let op = Op::by_name(string("op")?).map_err(|e| format!("op: {e}"))?;
    let Some(Value::Array(items)) = fields.get("addresses") else {
        return Err(format!(
            "`addresses` must be an array with one byte address (or null) per lane; expected an object such as {REQUEST_SHAPE}"
        ));
    };
    let addresses = items
        .iter()
        .enumerate()
        .map(|(lane, v)| match v {
            Value::Null => Ok(None),
            v => v.as_u64().map(Some).ok_or_else(|| {
                format!(
                    "addresses[{lane}] is {v}; expected a byte address (a non-negative integer) or null for an inactive lane"
                )
            }),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((arch, op, addresses))
}
