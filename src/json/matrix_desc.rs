//! The report of `cktile matrix-desc --json`: whether `wgmma` (sm90) or
//! `tcgen05.mma` (sm100) reads a layout, keys in alphabetical order.

use crate::Error;
use crate::matrix_desc::{Break, Readability};
use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;

/// Where one (major-ness, mode) candidate breaks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BreakJson {
    /// The element's byte in the layout, from the base (`null`: a pad).
    pub actual: Option<u64>,
    /// The element, as the layout's top coordinate.
    pub coordinate: [usize; 2],
    /// Where the canonical layout needs it (`null`: no fields formed).
    pub expected: Option<u64>,
    /// `k` or `mn`.
    pub major: &'static str,
    /// The rule broken.
    pub rule: String,
    /// The mode's name.
    pub swizzle: &'static str,
}

impl BreakJson {
    fn new(b: &Break) -> BreakJson {
        BreakJson {
            actual: b.actual,
            coordinate: b.coordinate,
            expected: b.expected,
            major: b.major.name(),
            rule: b.rule.clone(),
            swizzle: b.swizzle.name(),
        }
    }
}

/// The nearest canonical layout of a refusal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NearestJson {
    /// `k` or `mn`.
    pub major: &'static str,
    /// Its spec text.
    pub spec: String,
    /// The mode.
    pub swizzle: &'static str,
}

/// The verdict: `readable` with the fields and every instruction's
/// descriptor, or the breaks and the nearest canonical layout.
///
/// ```
/// use cktile::json::MatrixDescJson;
/// use cktile::matrix_desc::{judge, Request, Target};
/// let tile = cktile::layouts::resolve("triton-nvmma:swizzle=128,bits=16,rows=64")?;
/// let j = MatrixDescJson::new("t", &judge(&Request::new(&tile, 2, Target::Sm90))?)?;
/// let text = serde_json::to_string(&j).unwrap();
/// assert!(text.contains(r#""descriptors":["0x4000004000010000","#));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MatrixDescJson {
    /// Other modes that read it too.
    pub also: Vec<&'static str>,
    /// The tile's base address.
    pub base: Option<u64>,
    /// Where each candidate breaks (refusals).
    pub breaks: Vec<BreakJson>,
    /// Each instruction's descriptor as hex text (64-bit values do not fit
    /// every JSON reader's numbers), in `starts` order.
    pub descriptors: Vec<String>,
    /// Bytes per element.
    pub element_bytes: Option<usize>,
    /// The instruction's PTX name.
    pub instruction: &'static str,
    /// What one instruction reads, (MN, K).
    pub instruction_shape: Option<[usize; 2]>,
    /// The leading-dimension byte offset.
    pub lbo: Option<u64>,
    /// Whether the hardware reads LBO for this tile.
    pub lbo_used: Option<bool>,
    /// `k` or `mn`.
    pub major: Option<&'static str>,
    /// The nearest canonical layout (refusals).
    pub nearest: Option<NearestJson>,
    /// Whether the instruction reads the layout.
    pub readable: bool,
    /// The stride-dimension byte offset.
    pub sbo: Option<u64>,
    /// Whether the hardware reads SBO for this tile.
    pub sbo_used: Option<bool>,
    /// The layout as given.
    pub source: String,
    /// Each instruction's start, bytes from the base: MN blocks outer, K steps inner.
    pub starts: Vec<u64>,
    /// The mode's name.
    pub swizzle: Option<&'static str>,
    /// `sm90` or `sm100`.
    pub target: &'static str,
    /// The tile, (MN, K).
    pub tile: Option<[usize; 2]>,
}

impl MatrixDescJson {
    /// The view of a verdict on the layout `source`.
    pub fn new(source: &str, v: &Readability) -> Result<MatrixDescJson, Error> {
        Ok(match v {
            Readability::Readable(r) => MatrixDescJson {
                also: r.also.iter().map(|s| s.name()).collect(),
                base: Some(r.base),
                breaks: Vec::new(),
                descriptors: (0..r.starts.len())
                    .map(|i| r.descriptor(i).map(|d| alloc::format!("{d:#018x}")))
                    .collect::<Result<_, _>>()?,
                element_bytes: Some(r.element_bytes),
                instruction: r.target.instruction(),
                instruction_shape: Some(r.instruction),
                lbo: Some(r.lbo),
                lbo_used: Some(r.lbo_used),
                major: Some(r.major.name()),
                nearest: None,
                readable: true,
                sbo: Some(r.sbo),
                sbo_used: Some(r.sbo_used),
                source: source.into(),
                starts: r.starts.clone(),
                swizzle: Some(r.swizzle.name()),
                target: r.target.name(),
                tile: Some(r.tile),
            },
            Readability::Unreadable(u) => MatrixDescJson {
                also: Vec::new(),
                base: None,
                breaks: u.breaks.iter().map(BreakJson::new).collect(),
                descriptors: Vec::new(),
                element_bytes: None,
                instruction: u.target.instruction(),
                instruction_shape: None,
                lbo: None,
                lbo_used: None,
                major: None,
                nearest: u.nearest.as_ref().map(|(m, s, t)| NearestJson {
                    major: m.name(),
                    spec: t.clone(),
                    swizzle: s.name(),
                }),
                readable: false,
                sbo: None,
                sbo_used: None,
                source: source.into(),
                starts: Vec::new(),
                swizzle: None,
                target: u.target.name(),
                tile: None,
            },
        })
    }
}
