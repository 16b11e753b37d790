//! The JSON request of `cktile bank`: the chip, the instruction and each
//! lane's byte address.

use crate::Error;
use crate::analyzer::{Arch, Op};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use serde::de::{self, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

/// An example request, quoted in messages.
///
/// ```
/// let r = cktile::json::BankRequest::from_json(cktile::json::REQUEST_SHAPE)?;
/// assert_eq!(r.addresses, [Some(0), Some(128), None]);
/// # Ok::<(), serde_json::Error>(())
/// ```
pub const REQUEST_SHAPE: &str = r#"{"arch": "gfx90a", "op": "ds_read_b32", "addresses": [0, 128, null]}"#;

/// `cktile bank`'s request: the chip and instruction by name, and each
/// lane's byte address (`None`, JSON `null`: the lane is inactive).
///
/// Unknown keys are refused, and so is an address that is not a
/// non-negative integer (the message names its lane).
///
/// ```
/// use cktile::json::BankRequest;
/// let r = BankRequest { arch: "sm80".into(), op: "ld.shared.b32".into(), addresses: vec![Some(0), None], model: None };
/// let text = serde_json::to_string(&r)?;
/// assert_eq!(text, r#"{"arch":"sm80","op":"ld.shared.b32","addresses":[0,null]}"#);
/// assert_eq!(BankRequest::from_json(&text)?, r);
/// let e = BankRequest::from_json(r#"{"arch": "sm80", "op": "ld.shared.b32", "addresses": [0, -4]}"#).unwrap_err();
/// assert!(e.to_string().contains("addresses[1] is -4"));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, expecting = "one JSON object with arch, op, addresses and optionally model")]
pub struct BankRequest {
    /// The chip, as `Arch::by_name` takes it.
    pub arch: String,
    /// The instruction, e.g. `ds_read_b32`, `ld.shared.b128`, `ldmatrix.x4`.
    pub op: String,
    /// Each lane's byte address, from lane 0; `None` for an inactive lane.
    #[serde(deserialize_with = "addresses")]
    pub addresses: Vec<Option<u64>>,
    /// The public model to answer with (`cktile::reports::models`: rocke,
    /// rocroller, ...); absent: cktile's own table, with the full report.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

impl BankRequest {
    /// Reads a request from JSON text: one object (serde's positional
    /// array form of a struct is refused here).
    ///
    /// ```
    /// use cktile::json::BankRequest;
    /// let e = BankRequest::from_json(r#"{"arch": "gfx90a"}"#).unwrap_err();
    /// assert!(e.to_string().contains("missing field `op`"));
    /// let e = BankRequest::from_json(r#"["gfx90a", "ds_read_b32", [0]]"#).unwrap_err();
    /// assert!(e.to_string().contains("must be one JSON object"));
    /// ```
    pub fn from_json(text: &str) -> Result<BankRequest, serde_json::Error> {
        let first = text.trim_start().chars().next();
        if first.is_some_and(|c| c != '{') {
            return Err(de::Error::custom("the request must be one JSON object with arch, op and addresses"));
        }
        serde_json::from_str(text)
    }

    /// The chip and instruction the request names.
    ///
    /// ```
    /// use cktile::json::BankRequest;
    /// let r = BankRequest { arch: "gfx1030".into(), op: "ds_read_b32".into(), addresses: vec![], model: None };
    /// assert!(r.resolve().unwrap_err().to_string().contains("gfx90a, gfx942"));
    /// ```
    pub fn resolve(&self) -> Result<(Arch, Op), Error> {
        Ok((Arch::by_name(&self.arch)?, Op::by_name(&self.op)?))
    }
}

/// The addresses, each checked with its lane named.
fn addresses<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Option<u64>>, D::Error> {
    struct Lanes;
    impl<'de> Visitor<'de> for Lanes {
        type Value = Vec<Option<u64>>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an array with one byte address (or null) per lane")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            loop {
                let lane = out.len();
                match seq.next_element::<serde_json::Value>()? {
                    None => return Ok(out),
                    Some(serde_json::Value::Null) => out.push(None),
                    Some(v) => match v.as_u64() {
                        Some(a) => out.push(Some(a)),
                        None => {
                            return Err(de::Error::custom(format!(
                                "addresses[{lane}] is {v}; expected a byte address (a non-negative integer) \
                                 or null for an inactive lane"
                            )));
                        }
                    },
                }
            }
        }
    }
    d.deserialize_seq(Lanes)
}
