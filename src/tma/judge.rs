//! The decision: does one tensor map write the tile, and which.

use super::modes::{tma_modes, tma_name};
use crate::descriptor::Descriptor;
use crate::layouts::cute::Tma;
use crate::matrix_desc::Target;
use crate::matrix_desc::mode::tma_apply;
use crate::{Error, ParameterProblem};
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// The most dimensions a tensor map has.
///
/// ```
/// assert_eq!(cktile::tma::MAX_RANK, 5);
/// ```
pub const MAX_RANK: usize = 5;

/// The most elements a tile may have (one address each is stored and
/// compared once per mode).
const MAX_ELEMENTS: usize = 1 << 20;

const CONTEXT: &str = "tma";

fn bad(parameter: &'static str, value: i64, requirement: &'static str) -> Error {
    Error::parameter(ParameterProblem::Invalid { context: CONTEXT, parameter, value, requirement })
}

/// What to judge: a shared tile whose top coordinate is the box's
/// coordinate in the global tensor, dimension for dimension.
///
/// ```
/// use cktile::tma::TmaRequest;
/// let tile = cktile::Descriptor::packed(&[64, 64])?;
/// let r = TmaRequest::new(&tile, 2, vec![1024, 1], cktile::matrix_desc::Target::Sm90);
/// assert_eq!((r.base, r.swizzle, r.global_shape.clone()), (0, None, None));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct TmaRequest<'a> {
    /// The shared tile.
    pub layout: &'a Descriptor,
    /// Bytes per element: 1, 2, 4 or 8.
    pub element_bytes: usize,
    /// The global tensor's stride along each top dimension, in elements.
    pub global_strides: Vec<i64>,
    /// The global tensor's extent along each top dimension (`None`: the
    /// tile's own, a box that is the whole tensor).
    pub global_shape: Option<Vec<u64>>,
    /// sm90 or sm100 (which has the 128B modes with 32- and 64-byte atoms).
    pub target: Target,
    /// The mode to try; `None` tries every mode of the target, widest first.
    pub swizzle: Option<Tma>,
    /// The box's first shared-memory byte.
    pub base: u64,
}

impl<'a> TmaRequest<'a> {
    /// Every mode, the tile's own extents, base 0.
    pub fn new(
        layout: &'a Descriptor,
        element_bytes: usize,
        global_strides: Vec<i64>,
        target: Target,
    ) -> TmaRequest<'a> {
        TmaRequest { layout, element_bytes, global_strides, global_shape: None, target, swizzle: None, base: 0 }
    }
}

/// The tensor map that writes the tile: every field
/// `cuTensorMapEncodeTiled` takes, innermost dimension first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorMap {
    /// The swizzle mode.
    pub swizzle: Tma,
    /// Other modes that write the tile as well.
    pub also: Vec<Tma>,
    /// Bytes per element.
    pub element_bytes: usize,
    /// The top dimension of the tile each map dimension is, innermost first.
    pub dims: Vec<usize>,
    /// `globalDim`, innermost first.
    pub global_dim: Vec<u64>,
    /// `globalStrides`: dimensions 1 and up, in bytes.
    pub global_strides_bytes: Vec<u64>,
    /// `boxDim`, innermost first.
    pub box_dim: Vec<usize>,
    /// `elementStrides` (all 1).
    pub element_strides: Vec<usize>,
    /// The box's first shared-memory byte.
    pub base: u64,
    /// The shared-memory bytes one box fills.
    pub bytes: u64,
    /// The copies: each one's box origin, as a tile coordinate, and its first
    /// shared-memory byte from `base`. One copy, at the tile's origin, when
    /// one box is the whole tile; otherwise the tile splits into equal boxes
    /// along one dimension (a K-major tile wider than its swizzle's span, as
    /// CuTe tiles one).
    pub copies: Vec<(Vec<usize>, u64)>,
    /// The elements compared (the whole tile).
    pub elements: usize,
}

/// Where one mode breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TmaBreak {
    /// The mode tried.
    pub swizzle: Tma,
    /// The element, as the tile's top coordinate (empty for a rule about the
    /// map rather than an element).
    pub coordinate: Vec<usize>,
    /// Its byte in the tile, from the base (`None`: a pad, or no element).
    pub actual: Option<u64>,
    /// Where the dense box puts it (`None`: no element).
    pub expected: Option<u64>,
    /// The rule broken.
    pub rule: String,
}

/// The answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TmaVerdict {
    /// One copy with this map writes the tile.
    Writes(TensorMap),
    /// None does: where each mode breaks.
    Refused(Vec<TmaBreak>),
}

/// The tile's byte at every coordinate (row-major over the top dimensions;
/// `None`: a pad) and the coordinates' lengths.
struct Tile {
    lengths: Vec<usize>,
    bytes: Vec<Option<u64>>,
}

impl Tile {
    fn coordinate(&self, mut index: usize) -> Vec<usize> {
        let mut c = vec![0; self.lengths.len()];
        for (d, &len) in self.lengths.iter().enumerate().rev() {
            c[d] = index % len;
            index /= len;
        }
        c
    }

    /// The row-major index of coordinate `c`.
    fn index(&self, c: &[usize]) -> usize {
        c.iter().zip(&self.lengths).fold(0, |i, (&x, &len)| i * len + x)
    }
}

fn tile(req: &TmaRequest<'_>) -> Result<Tile, Error> {
    let e = req.element_bytes;
    if !matches!(e, 1 | 2 | 4 | 8) {
        return Err(bad("element bytes", e as i64, "it must be 1, 2, 4 or 8"));
    }
    let lengths: Vec<usize> =
        req.layout.lengths().as_slice().iter().map(|&l| usize::try_from(l).unwrap_or(0)).collect();
    if lengths.is_empty() || lengths.len() > MAX_RANK {
        return Err(bad("tile dimensions", lengths.len() as i64, "a tensor map has 1 to 5"));
    }
    if req.global_strides.len() != lengths.len() {
        return Err(bad("global strides", req.global_strides.len() as i64, "give one per tile dimension"));
    }
    if req.base >= 1 << 32 {
        return Err(bad("base", i64::try_from(req.base).unwrap_or(i64::MAX), "a shared-memory address below 2^32"));
    }
    if let Some(shape) = &req.global_shape
        && shape.len() != lengths.len()
    {
        return Err(bad("global shape", shape.len() as i64, "give one extent per tile dimension"));
    }
    let elements = lengths.iter().try_fold(1usize, |n, &l| n.checked_mul(l)).filter(|&n| n > 0 && n <= MAX_ELEMENTS);
    let Some(elements) = elements else {
        return Err(bad("tile elements", 0, "a tile of 1 to 2^20 elements"));
    };
    let mut t = Tile { lengths, bytes: Vec::with_capacity(elements) };
    for i in 0..elements {
        let c: Vec<i64> = t.coordinate(i).into_iter().map(|x| x as i64).collect();
        let off = req.layout.offset_if_valid(&c);
        t.bytes.push(off.and_then(|o| u64::try_from(o).ok()).and_then(|o| o.checked_mul(e as u64)));
    }
    Ok(t)
}

/// The map of one mode, or where it breaks.
fn try_mode(req: &TmaRequest<'_>, t: &Tile, mode: Tma) -> Result<TensorMap, TmaBreak> {
    let e = req.element_bytes as u64;
    let rank = t.lengths.len();
    let brk = |coordinate: Vec<usize>, actual: Option<u64>, expected: Option<u64>, rule: String| TmaBreak {
        swizzle: mode,
        coordinate,
        actual,
        expected,
        rule,
    };
    let rule = |rule: String| brk(Vec::new(), None, None, rule);
    if !tma_modes(req.target).contains(&mode) {
        return Err(rule(format!("{} exists on sm100 only", tma_name(mode))));
    }
    let align = (mode.alignment() as u64).max(128);
    if !req.base.is_multiple_of(align) {
        return Err(rule(format!(
            "the box's base {} is not a multiple of {align} bytes (TMA's 128, and the swizzle pattern's start)",
            req.base
        )));
    }
    let unswizzled = |i: usize| t.bytes[i].map(|b| tma_apply(mode, req.base + b) - req.base);
    // The dimensions in the order their unit steps grow (length-1 ones last).
    let origin = vec![0; rank];
    let Some(start) = unswizzled(0) else {
        return Err(brk(origin, None, Some(0), String::from("the tile stores no element at its origin (a pad)")));
    };
    let step = |d: usize| -> Option<u64> {
        if t.lengths[d] < 2 {
            return None;
        }
        let mut c = vec![0; rank];
        c[d] = 1;
        unswizzled(t.index(&c)).and_then(|b| b.checked_sub(start))
    };
    let mut dims: Vec<usize> = (0..rank).collect();
    dims.sort_by_key(|&d| (t.lengths[d] == 1, step(d).unwrap_or(u64::MAX), d));
    let box_dim: Vec<usize> = dims.iter().map(|&d| t.lengths[d]).collect();
    // The dense box's pitch along each top dimension.
    let mut pitch = vec![0u64; rank];
    let mut p = e;
    for &d in &dims {
        pitch[d] = p;
        p = p.saturating_mul(t.lengths[d] as u64);
    }
    let bytes = p;
    for i in 0..t.bytes.len() {
        let c = t.coordinate(i);
        let dense: u64 = c.iter().zip(&pitch).map(|(&x, &q)| x as u64 * q).sum();
        let expected = tma_apply(mode, req.base + dense) - req.base;
        if t.bytes[i] != Some(expected) {
            let order: Vec<String> = dims.iter().map(|d| format!("{d}")).collect();
            return Err(brk(
                c,
                t.bytes[i],
                Some(expected),
                format!(
                    "TMA writes the box densely, dimensions {} innermost first, then swizzles each byte address: \
                     this element lands at byte {expected}",
                    order.join(", ")
                ),
            ));
        }
    }
    // The map's own rules.
    let inner = dims[0];
    if req.global_strides[inner] != 1 {
        return Err(rule(format!(
            "the tile's contiguous dimension {inner} has global stride {}: TMA's innermost dimension is the global \
             tensor's contiguous one (stride 1), so a copy cannot transpose",
            req.global_strides[inner]
        )));
    }
    if let Some(&d) = dims.iter().find(|&&d| t.lengths[d] > 256) {
        return Err(rule(format!("box dimension {} (tile dimension {d}) is over 256 elements", t.lengths[d])));
    }
    let inner_bytes = box_dim[0] as u64 * e;
    if !inner_bytes.is_multiple_of(16) {
        return Err(rule(format!("the inner box dimension is {inner_bytes} bytes, not a multiple of 16")));
    }
    if mode != Tma::None && inner_bytes > mode.row_bytes() as u64 {
        return Err(rule(format!(
            "the inner box dimension is {inner_bytes} bytes, over the {}-byte span of {}",
            mode.row_bytes(),
            tma_name(mode)
        )));
    }
    let mut strides = Vec::with_capacity(rank.saturating_sub(1));
    for &d in &dims[1..] {
        let s = req.global_strides[d];
        let b = u64::try_from(s).ok().and_then(|s| s.checked_mul(e));
        match b {
            Some(b) if b > 0 && b % 16 == 0 && b < 1 << 40 => strides.push(b),
            _ => {
                return Err(rule(format!(
                    "tile dimension {d}'s global stride is {s} elements: TMA needs a positive multiple of 16 bytes \
                     below 2^40"
                )));
            }
        }
    }
    let global_dim: Vec<u64> = match &req.global_shape {
        Some(shape) => dims.iter().map(|&d| shape[d]).collect(),
        None => box_dim.iter().map(|&l| l as u64).collect(),
    };
    if let Some((i, &g)) =
        global_dim.iter().enumerate().find(|(i, g)| **g == 0 || **g > 1 << 32 || **g < box_dim[*i] as u64)
    {
        return Err(rule(format!(
            "global extent {g} of tile dimension {}: TMA needs 1 to 2^32, and at least the box's {}",
            dims[i], box_dim[i]
        )));
    }
    Ok(TensorMap {
        swizzle: mode,
        also: Vec::new(),
        element_bytes: req.element_bytes,
        element_strides: vec![1; rank],
        dims,
        global_dim,
        global_strides_bytes: strides,
        box_dim,
        base: req.base,
        bytes,
        copies: vec![(vec![0; rank], 0)],
        elements: t.bytes.len(),
    })
}

impl Tile {
    /// The part of the tile from `start` to `start + len` along `dim`, its
    /// bytes counted from its own origin's (`None` where one lies below it).
    fn part(&self, dim: usize, start: usize, len: usize) -> (Tile, Option<u64>) {
        let mut lengths = self.lengths.clone();
        lengths[dim] = len;
        let mut part = Tile { lengths, bytes: Vec::new() };
        let n: usize = part.lengths.iter().product();
        let mut origin = vec![0; self.lengths.len()];
        origin[dim] = start;
        let first = self.bytes[self.index(&origin)];
        for i in 0..n {
            let mut c = part.coordinate(i);
            c[dim] += start;
            let b = self.bytes[self.index(&c)];
            part.bytes.push(match (b, first) {
                (Some(b), Some(f)) => b.checked_sub(f),
                _ => None,
            });
        }
        (part, first)
    }
}

/// The tile as `parts` equal boxes along `dim`, each written by one copy of
/// one map in `mode`; `None` if any part is not.
fn try_split(req: &TmaRequest<'_>, t: &Tile, mode: Tma, dim: usize, parts: usize) -> Option<TensorMap> {
    let len = t.lengths[dim] / parts;
    let mut map: Option<TensorMap> = None;
    let mut copies = Vec::with_capacity(parts);
    for p in 0..parts {
        let (part, first) = t.part(dim, p * len, len);
        let first = first?;
        // The tensor is the whole tile (or the shape given), not the part.
        let shape = req.global_shape.clone().or_else(|| Some(t.lengths.iter().map(|&l| l as u64).collect()));
        let sub = TmaRequest { base: req.base.checked_add(first)?, global_shape: shape, ..req.clone() };
        let m = try_mode(&sub, &part, mode).ok()?;
        let mut origin = vec![0; t.lengths.len()];
        origin[dim] = p * len;
        copies.push((origin, first));
        match &map {
            Some(prev) if prev.dims != m.dims => return None,
            Some(_) => {}
            None => map = Some(m),
        }
    }
    map.map(|m| TensorMap { copies, base: req.base, elements: t.bytes.len(), ..m })
}

/// Whether one `cp.async.bulk.tensor` writes `req.layout`, and its tensor
/// map: see the [module docs](super). When no single copy does, the fewest
/// equal boxes along one dimension that one map writes, each copy at its
/// own shared-memory offset ([`TensorMap::copies`]). Errors are requests no
/// map could serve (element size, rank, the strides' count); a tile TMA
/// cannot write is [`TmaVerdict::Refused`], with each mode's first break as
/// one copy.
///
/// ```
/// use cktile::tma::{judge, TmaRequest, TmaVerdict};
/// use cktile::matrix_desc::Target;
/// // A row-padded tile: TMA writes boxes densely, so no mode writes it.
/// let padded = cktile::layouts::resolve("row-padded:rows=64,cols=64,pad=8")?;
/// let TmaVerdict::Refused(breaks) = judge(&TmaRequest::new(&padded, 2, vec![64, 1], Target::Sm90))? else { panic!() };
/// assert_eq!(breaks.len(), 4);
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn judge(req: &TmaRequest<'_>) -> Result<TmaVerdict, Error> {
    let t = tile(req)?;
    let modes: Vec<Tma> = match req.swizzle {
        Some(m) => vec![m],
        None => tma_modes(req.target).to_vec(),
    };
    let mut breaks = Vec::new();
    let mut found: Option<TensorMap> = None;
    for &mode in &modes {
        match (try_mode(req, &t, mode), &mut found) {
            (Ok(map), None) => found = Some(map),
            (Ok(_), Some(f)) => f.also.push(mode),
            (Err(b), None) => breaks.push(b),
            (Err(_), Some(_)) => {}
        }
    }
    if let Some(map) = found {
        return Ok(TmaVerdict::Writes(map));
    }
    // Several copies of one box: the fewest, along any dimension, widest mode first.
    let mut best: Option<TensorMap> = None;
    for &mode in &modes {
        for dim in 0..t.lengths.len() {
            let mut parts = 2;
            while parts <= t.lengths[dim] && best.as_ref().is_none_or(|b| parts < b.copies.len()) {
                if t.lengths[dim] % parts == 0
                    && let Some(map) = try_split(req, &t, mode, dim, parts)
                {
                    best = Some(map);
                    break;
                }
                parts *= 2;
            }
        }
    }
    Ok(match best {
        Some(map) => TmaVerdict::Writes(map),
        None => TmaVerdict::Refused(breaks),
    })
}
