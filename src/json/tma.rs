//! The report of `cktile tma --json`: whether one TMA copy writes a tile,
//! and its tensor map, keys in alphabetical order.

use crate::tma::{TmaVerdict, cuda_name, tma_name};
use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;

/// Where one mode breaks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TmaBreakJson {
    /// The element's byte in the tile (`null`: a pad, or a rule about the map).
    pub actual: Option<u64>,
    /// The element, as the tile's top coordinate (empty: a rule about the map).
    pub coordinate: Vec<usize>,
    /// Where the dense box puts it.
    pub expected: Option<u64>,
    /// The rule broken.
    pub rule: String,
    /// The mode's name.
    pub swizzle: &'static str,
}

/// One copy of the box.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CopyJson {
    /// Its first shared-memory byte, from the base.
    pub offset: u64,
    /// Its origin, as a tile coordinate.
    pub origin: Vec<usize>,
}

/// The tensor map's fields, innermost dimension first, as
/// `cuTensorMapEncodeTiled` takes them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TensorMapJson {
    /// `boxDim`.
    pub box_dim: Vec<usize>,
    /// The shared-memory bytes one box fills.
    pub bytes: u64,
    /// The copies (one when the box is the whole tile).
    pub copies: Vec<CopyJson>,
    /// The tile's top dimension of each map dimension.
    pub dims: Vec<usize>,
    /// `elementStrides`.
    pub element_strides: Vec<usize>,
    /// `globalDim`.
    pub global_dim: Vec<u64>,
    /// `globalStrides` (dimensions 1 and up, bytes).
    pub global_strides_bytes: Vec<u64>,
    /// `interleave`.
    pub interleave: &'static str,
    /// `swizzle`, as the driver names it.
    pub swizzle_enum: &'static str,
    /// `tensorRank`.
    pub tensor_rank: usize,
}

/// The verdict.
///
/// ```
/// use cktile::json::TmaJson;
/// use cktile::tma::{judge, TmaRequest};
/// let tile = cktile::layouts::resolve("triton-nvmma:swizzle=64,bits=16,rows=64")?;
/// let v = judge(&TmaRequest::new(&tile, 2, vec![4096, 1], cktile::matrix_desc::Target::Sm90))?;
/// let text = serde_json::to_string(&TmaJson::new("t", &v)).unwrap();
/// assert!(text.contains(r#""swizzle":"64b""#) && text.contains(r#""box_dim":[32,64]"#));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TmaJson {
    /// Other modes that write it too.
    pub also: Vec<&'static str>,
    /// The box's first shared-memory byte.
    pub base: Option<u64>,
    /// Where each mode breaks (refusals).
    pub breaks: Vec<TmaBreakJson>,
    /// Bytes per element.
    pub element_bytes: Option<usize>,
    /// The elements compared.
    pub elements: Option<usize>,
    /// The tensor map (`null` for a refusal).
    pub map: Option<TensorMapJson>,
    /// The tile as given.
    pub source: String,
    /// The mode's name (`null` for a refusal).
    pub swizzle: Option<&'static str>,
    /// Whether one copy writes the tile.
    pub writes: bool,
}

impl TmaJson {
    /// The view of a verdict on the tile `source`.
    pub fn new(source: &str, v: &TmaVerdict) -> TmaJson {
        match v {
            TmaVerdict::Writes(m) => TmaJson {
                also: m.also.iter().map(|&s| tma_name(s)).collect(),
                base: Some(m.base),
                breaks: Vec::new(),
                element_bytes: Some(m.element_bytes),
                elements: Some(m.elements),
                map: Some(TensorMapJson {
                    box_dim: m.box_dim.clone(),
                    bytes: m.bytes,
                    copies: m.copies.iter().map(|(o, b)| CopyJson { offset: *b, origin: o.clone() }).collect(),
                    dims: m.dims.clone(),
                    element_strides: m.element_strides.clone(),
                    global_dim: m.global_dim.clone(),
                    global_strides_bytes: m.global_strides_bytes.clone(),
                    interleave: "CU_TENSOR_MAP_INTERLEAVE_NONE",
                    swizzle_enum: cuda_name(m.swizzle),
                    tensor_rank: m.dims.len(),
                }),
                source: source.into(),
                swizzle: Some(tma_name(m.swizzle)),
                writes: true,
            },
            TmaVerdict::Refused(breaks) => TmaJson {
                also: Vec::new(),
                base: None,
                breaks: breaks
                    .iter()
                    .map(|b| TmaBreakJson {
                        actual: b.actual,
                        coordinate: b.coordinate.clone(),
                        expected: b.expected,
                        rule: b.rule.clone(),
                        swizzle: tma_name(b.swizzle),
                    })
                    .collect(),
                element_bytes: None,
                elements: None,
                map: None,
                source: source.into(),
                swizzle: None,
                writes: false,
            },
        }
    }
}
