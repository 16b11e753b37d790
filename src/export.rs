//! A cktile layout in its peers' own terms, exact or refused.
//!
//! - [`linear_bases`]: Triton's `SharedLinearLayout`: for each bit of the
//!   offset, the coordinate it maps to (`offset_bases`, Triton's
//!   `LinearLayout` from `offset` to `dim0, dim1, ...`). Exact when the
//!   layout is a bijection onto `[0, N)` that is linear over GF(2) (each
//!   coordinate's offset the XOR of its bits' offsets): every swizzle of a
//!   power-of-two tile, the packed layouts, XOR layouts.
//! - [`padded`]: Triton's `PaddedSharedLayout`: a linear layout over the
//!   elements in offset order, plus one `[interval:+padding]` pair (in
//!   elements), as Triton's gfx1250 GEMMs and the catalogue's
//!   `row-padded` write it.
//! - [`cute`]: CuTe's text for a strided layout, `(d0,d1,...):(s0,s1,...)`
//!   (a dimension of several modes as their tuple), or a `Swizzle<B,M,S>`
//!   composed with one, as CuTe prints it: `Sw<B,M,S> o _0 o (d0,d1):(d1,1)`.
//!
//! Each checks every coordinate: a layout the peer cannot express is
//! refused, naming what the peer lacks and the first coordinate that shows
//! it.
//!
//! ```
//! let swizzled = cktile::layouts::resolve("cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64")?;
//! let bases = cktile::export::linear_bases(&swizzled)?;
//! assert_eq!(bases[3], [0, 8]); // offset 8: row 0, column 8
//! assert_eq!(cktile::export::cute(&swizzled)?, "Sw<3,3,3> o _0 o (64,64):(64,1)");
//! let padded = cktile::layouts::resolve("row-padded:rows=64,cols=64,pad=8")?;
//! assert_eq!(cktile::export::padded(&padded)?.interval_padding, (64, 8));
//! # Ok::<(), cktile::Error>(())
//! ```

use crate::check;
use crate::descriptor::Descriptor;
use crate::{Error, ParameterProblem, Snippet};
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// The most elements an export checks: the tile sizes the analyzer takes.
pub const MAX_EXPORT_ELEMENTS: usize = 1 << 20;

fn refuse(parameter: &'static str, value: i64, requirement: &'static str) -> Error {
    Error::parameter(ParameterProblem::Invalid { context: "export", parameter, value, requirement })
}

/// The layout's lengths and every coordinate's offset (row-major), or why
/// an export cannot read them.
fn table(desc: &Descriptor) -> Result<(Vec<usize>, Vec<i64>), Error> {
    let lengths: Vec<usize> = desc.lengths().as_slice().iter().map(|&l| l.max(0) as usize).collect();
    let count = lengths.iter().try_fold(1usize, |n, &l| n.checked_mul(l)).unwrap_or(usize::MAX);
    if count > MAX_EXPORT_ELEMENTS {
        return Err(refuse(
            "elements",
            count.min(i64::MAX as usize) as i64,
            "an export checks tiles of up to 2^20 elements",
        ));
    }
    let o = check::offsets(desc)?;
    if let Some(n) = o.valid.iter().position(|v| !v) {
        return Err(refuse(
            "coordinate",
            n as i64,
            "every coordinate must hold an element; this one (row-major index) is padding",
        ));
    }
    Ok((lengths, o.offsets))
}

/// Row-major index `n` as a coordinate.
fn coordinate(mut n: usize, lengths: &[usize]) -> Vec<i64> {
    let mut c = vec![0i64; lengths.len()];
    for (x, &l) in c.iter_mut().zip(lengths).rev() {
        *x = (n % l.max(1)) as i64;
        n /= l.max(1);
    }
    c
}

/// The GF(2)-linear map from coordinates to `values` (row-major), as the
/// coordinate of each value bit, or why it is not one.
fn invert_linear(lengths: &[usize], values: &[i64], what: &'static str) -> Result<Vec<Vec<i64>>, Error> {
    if let Some(&l) = lengths.iter().find(|l| !l.is_power_of_two()) {
        return Err(refuse("length", l as i64, "Triton's linear layouts cover power-of-two tiles"));
    }
    let n = values.len();
    if n < 2 {
        return Err(refuse(
            "elements",
            n as i64,
            "Triton's shared linear layouts take at least one offset basis: a tile of 2 elements or more",
        ));
    }
    // Bijective onto [0, n).
    let mut at = vec![usize::MAX; n];
    for (i, &v) in values.iter().enumerate() {
        match usize::try_from(v).ok().filter(|&v| v < n) {
            Some(v) if at[v] == usize::MAX => at[v] = i,
            _ => return Err(refuse("coordinate", i as i64, what)),
        }
    }
    // Linear: each index's value is the XOR of its bits' values.
    for (i, &v) in values.iter().enumerate() {
        let mut x = 0;
        for b in 0..usize::BITS {
            if i >> b & 1 == 1 {
                x ^= values[1 << b];
            }
        }
        if x != v {
            return Err(refuse(
                "coordinate",
                i as i64,
                "its offset is not the XOR of its coordinate bits' offsets: the layout is not linear over GF(2), which Triton's linear layouts are",
            ));
        }
    }
    let bits = n.trailing_zeros();
    Ok((0..bits).map(|b| coordinate(at[1 << b], lengths)).collect())
}

/// Triton's `offset_bases` of the layout: for each offset bit (lowest
/// first), the coordinate it maps to.
///
/// ```
/// let packed = cktile::Descriptor::packed(&[4, 8])?;
/// assert_eq!(cktile::export::linear_bases(&packed)?, [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0]]);
/// let padded = cktile::layouts::resolve("row-padded:rows=4,cols=8,pad=1")?;
/// assert!(cktile::export::linear_bases(&padded).unwrap_err().to_string().contains("padded"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn linear_bases(desc: &Descriptor) -> Result<Vec<Vec<i64>>, Error> {
    let (lengths, offsets) = table(desc)?;
    invert_linear(
        &lengths,
        &offsets,
        "its offset repeats another's or leaves [0, N): the layout is not a bijection onto [0, N) (a padded layout is exported with export::padded)",
    )
}

/// A layout as Triton's `PaddedSharedLayout`: the linear layout of the
/// elements in offset order, and its one `[interval:+padding]` pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Padded {
    /// The linear component's `offset_bases`, over the unpadded offsets.
    pub offset_bases: Vec<Vec<i64>>,
    /// `(interval, padding)` in elements: `padding` empty elements after
    /// every `interval`.
    pub interval_padding: (u64, u64),
}

/// The layout as one padded stream over a linear layout, or why not: its
/// offsets, sorted, must run in blocks of `interval` with `padding` empty
/// elements between them (found at the first gap), and the rank of each
/// coordinate's offset must be GF(2)-linear.
///
/// ```
/// let swizzled = cktile::layouts::resolve("cute-swizzle:b=3,mbase=3,s=3,rows=8,cols=64")?;
/// assert!(cktile::export::padded(&swizzled).unwrap_err().to_string().contains("no padding"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn padded(desc: &Descriptor) -> Result<Padded, Error> {
    let (lengths, offsets) = table(desc)?;
    let mut sorted = offsets.clone();
    sorted.sort_unstable();
    let gap = sorted.windows(2).position(|w| w[1] - w[0] != 1);
    let Some(first) = gap else {
        return Err(refuse(
            "padding",
            0,
            "the layout has no padding: export it as a linear layout (export::linear_bases)",
        ));
    };
    let interval = first as i64 + 1;
    let pad = sorted[first + 1] - sorted[first] - 1;
    if sorted[0] != 0 || pad < 1 {
        return Err(refuse("offset", sorted[0], "a padded stream starts at offset 0 and its elements are distinct"));
    }
    let placed = |r: i64| r + (r / interval) * pad;
    if let Some(r) = (0..sorted.len()).find(|&r| sorted[r] != placed(r as i64)) {
        return Err(refuse(
            "element",
            r as i64,
            "Triton's padded layouts here take one [interval:+padding] pair (found at the first gap); the element of this rank (in offset order) is not where one pair puts it",
        ));
    }
    // Each coordinate's rank in offset order: its unpadded offset.
    let ranks: Vec<i64> = offsets.iter().map(|&o| o - (o / (interval + pad)) * pad).collect();
    let offset_bases = invert_linear(&lengths, &ranks, "its unpadded offset repeats another's")?;
    // Gluon's PaddedSharedLayout takes powers of two only (its verify()).
    if !(interval as u64).is_power_of_two() {
        return Err(refuse("interval", interval, "Triton's PaddedSharedLayout takes power-of-two intervals"));
    }
    if !(pad as u64).is_power_of_two() {
        return Err(refuse("padding", pad, "Triton's PaddedSharedLayout takes power-of-two paddings"));
    }
    Ok(Padded { offset_bases, interval_padding: (interval as u64, pad as u64) })
}

/// CuTe's text for the layout, as CuTe prints it: a strided layout
/// `(d0,d1,...):(s0,s1,...)`, a dimension whose offsets are no single
/// stride written as its modes fastest first (`(4,(3,2)):(3,(1,12))`), or
/// `Sw<B,M,S> o _0 o` such a layout (a `Swizzle<B,M,S>` of it: Triton's
/// NVMMA layouts of tiles wider than the swizzle are
/// `Sw<3,3,3> o _0 o (64,(64,2)):(64,(1,4096))`), or an error when it is
/// none of these.
///
/// ```
/// let padded = cktile::layouts::resolve("row-padded:rows=4,cols=8,pad=1")?;
/// assert_eq!(cktile::export::cute(&padded)?, "(4,8):(9,1)");
/// let xor = cktile::layouts::resolve("ck-xor-preshuffle:m=16,k=64,kpack=8")?;
/// assert!(cktile::export::cute(&xor).is_ok());
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn cute(desc: &Descriptor) -> Result<String, Error> {
    let (lengths, offsets) = table(desc)?;
    let join = |v: &[i64]| v.iter().map(|x| format!("{x}")).collect::<Vec<_>>().join(",");
    let shape: Vec<i64> = lengths.iter().map(|&l| l as i64).collect();
    // Strided, each dimension one mode or a hierarchy of them.
    if let Some(modes) = strided(&lengths, |n| offsets[n]) {
        return Ok(modes_text(&modes));
    }
    // A swizzle of the packed row-major 2-D tile: offset = x ^ ((x & yyy) >> s), x = r * cols + c. The
    // single bits give it away: bit k of yyy sends 2^k to 2^k ^ 2^(k - s); every other bit to itself.
    if lengths.len() == 2 && offsets.len().is_power_of_two() && offsets.len() > 1 {
        let bits = offsets.len().trailing_zeros();
        let moved: Vec<(u32, i64)> =
            (0..bits).filter_map(|k| Some((k, offsets[1 << k] ^ (1i64 << k))).filter(|&(_, d)| d != 0)).collect();
        if let (Some(&(low, d)), Some(&(high, _))) = (moved.first(), moved.last()) {
            let b = high - low + 1;
            let shift = low.checked_sub(d.trailing_zeros()).filter(|_| d.count_ones() == 1);
            if let Some(sh) = shift.filter(|&sh| sh >= b && low >= sh) {
                let m = low - sh;
                let yyy = ((1i64 << b) - 1) << low;
                if (0..offsets.len() as i64).all(|x| offsets[x as usize] == x ^ ((x & yyy) >> sh)) {
                    return Ok(format!("Sw<{b},{m},{sh}> o _0 o ({}):({},1)", join(&shape), lengths[1]));
                }
            }
        }
    }
    // A swizzle of any strided layout (NVMMA's atoms tiled past the swizzle's width): a swizzle is its own
    // inverse, so each candidate is tried on the dimensions' own offsets first (what `strided` checks
    // before it reads every element), then on every element.
    let top = offsets.iter().copied().max().unwrap_or(0).max(1);
    let width = i64::BITS - top.leading_zeros();
    for b in 1..=5u32 {
        for sh in b..width {
            for m in 0..width.saturating_sub(b + sh) {
                let yyy = ((1i64 << b) - 1) << (m + sh);
                // One that moves nothing leaves the layout as it is, which is not strided (above).
                let unswizzled = |n: usize| offsets[n] ^ ((offsets[n] & yyy) >> sh);
                if let Some(modes) = strided(&lengths, unswizzled) {
                    return Ok(format!("Sw<{b},{m},{sh}> o _0 o {}", modes_text(&modes)));
                }
            }
        }
    }
    // Neither: name the first element that shows it is not strided.
    let mut step = vec![1usize; lengths.len()];
    for d in (0..lengths.len().saturating_sub(1)).rev() {
        step[d] = step[d + 1] * lengths[d + 1].max(1);
    }
    let axes =
        |n: usize| -> i64 { coordinate(n, &lengths).iter().zip(&step).map(|(&i, &st)| offsets[i as usize * st]).sum() };
    match (0..offsets.len()).find(|&n| offsets[n] != axes(n)) {
        Some(n) => Err(refuse(
            "coordinate",
            n as i64,
            "its offset (at this row-major index) is not the sum of its coordinates' offsets along their axes, and no Swizzle<B,M,S> of a layout makes it so: CuTe's text here is a strided layout or one swizzle of one (export it to Triton as a linear layout)",
        )),
        None => {
            let d =
                (0..lengths.len()).find(|&d| strided(&lengths[d..=d], |i| offsets[i * step[d]]).is_none()).unwrap_or(0);
            Err(refuse(
                "dimension",
                d as i64,
                "its offsets along its axis are no CuTe modes (a hierarchy of lengths and strides), and no Swizzle<B,M,S> of a layout makes them so (export it to Triton as a linear layout)",
            ))
        }
    }
}

/// Each dimension's modes, fastest first as CuTe orders them, `(length,
/// stride)`, when `offset` (of the row-major index) is a strided layout
/// with offset 0 at the origin: each dimension's offsets along its axis
/// factor into modes, and every element's offset is the sum of its
/// coordinates' axis offsets.
fn strided(lengths: &[usize], offset: impl Fn(usize) -> i64) -> Option<Vec<Vec<(usize, i64)>>> {
    if offset(0) != 0 {
        return None;
    }
    let mut step = vec![1usize; lengths.len()];
    for d in (0..lengths.len().saturating_sub(1)).rev() {
        step[d] = step[d + 1] * lengths[d + 1].max(1);
    }
    let mut modes = Vec::with_capacity(lengths.len());
    for (d, &len) in lengths.iter().enumerate() {
        let along = |i: usize| offset(i * step[d]);
        let mut dim: Vec<(usize, i64)> = Vec::new();
        let mut size = 1usize;
        while size < len {
            let stride = along(size);
            let mut l = 1usize;
            while size * (l + 1) <= len && along(size * l) == l as i64 * stride {
                l += 1;
            }
            if l == 1 || !(len / size).is_multiple_of(l) || !len.is_multiple_of(size) {
                return None;
            }
            dim.push((l, stride));
            size *= l;
        }
        if dim.is_empty() {
            dim.push((len.max(1), 0));
        }
        if (0..len).any(|i| along(i) != mode_offset(&dim, i)) {
            return None;
        }
        modes.push(dim);
    }
    let total: usize = lengths.iter().map(|&l| l.max(1)).product();
    let separable = (0..total).all(|n| {
        let c = coordinate(n, lengths);
        offset(n) == c.iter().zip(&modes).map(|(&i, dim)| mode_offset(dim, i as usize)).sum::<i64>()
    });
    separable.then_some(modes)
}

/// Index `i` of a dimension with `modes` (fastest first): its digits times
/// the strides.
fn mode_offset(modes: &[(usize, i64)], mut i: usize) -> i64 {
    let mut o = 0;
    for &(l, s) in modes {
        o += (i % l.max(1)) as i64 * s;
        i /= l.max(1);
    }
    o
}

/// CuTe's text of strided `modes`: `(d0,d1):(s0,s1)`, a dimension of
/// several modes as a tuple of them.
fn modes_text(modes: &[Vec<(usize, i64)>]) -> String {
    let part = |f: &dyn Fn(&(usize, i64)) -> String| {
        let dims: Vec<String> = modes
            .iter()
            .map(|dim| match dim.as_slice() {
                [one] => f(one),
                many => format!("({})", many.iter().map(f).collect::<Vec<_>>().join(",")),
            })
            .collect();
        format!("({})", dims.join(","))
    };
    format!("{}:{}", part(&|m| format!("{}", m.0)), part(&|m| format!("{}", m.1)))
}

/// A layout in a peer's terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exported {
    /// Triton's `SharedLinearLayout`: its `offset_bases`.
    TritonLinear(Vec<Vec<i64>>),
    /// Triton's `PaddedSharedLayout`.
    TritonPadded(Padded),
    /// CuTe's text.
    Cute(String),
}

impl Exported {
    /// The peer's own spelling: Gluon's constructor, or CuTe's text.
    ///
    /// ```
    /// let packed = cktile::Descriptor::packed(&[2, 4])?;
    /// let e = cktile::export::triton(&packed)?;
    /// assert_eq!(e.text(&packed), "gl.SharedLinearLayout(offset_bases=[[0, 1], [0, 2], [1, 0]])");
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn text(&self, desc: &Descriptor) -> String {
        let bases = |b: &[Vec<i64>]| {
            let rows: Vec<String> = b
                .iter()
                .map(|c| format!("[{}]", c.iter().map(|x| format!("{x}")).collect::<Vec<_>>().join(", ")))
                .collect();
            format!("[{}]", rows.join(", "))
        };
        match self {
            Exported::TritonLinear(b) => format!("gl.SharedLinearLayout(offset_bases={})", bases(b)),
            Exported::TritonPadded(p) => {
                let shape: Vec<String> = desc.lengths().as_slice().iter().map(|l| format!("{l}")).collect();
                format!(
                    "gl.PaddedSharedLayout(interval_padding_pairs=[[{}, {}]], offset_bases={}, cga_layout=[], shape=[{}])",
                    p.interval_padding.0,
                    p.interval_padding.1,
                    bases(&p.offset_bases),
                    shape.join(", ")
                )
            }
            Exported::Cute(t) => t.clone(),
        }
    }
}

/// The layout as Triton writes it: a linear layout when it is one, else a
/// padded one ([`linear_bases`], [`padded`]); the linear refusal when
/// neither fits (a layout without padding) or the padded one's.
///
/// ```
/// let padded = cktile::layouts::resolve("row-padded:rows=4,cols=8,pad=2")?;
/// assert!(matches!(cktile::export::triton(&padded)?, cktile::export::Exported::TritonPadded(_)));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn triton(desc: &Descriptor) -> Result<Exported, Error> {
    match linear_bases(desc) {
        Ok(b) => Ok(Exported::TritonLinear(b)),
        Err(linear) => match padded(desc) {
            Ok(p) => Ok(Exported::TritonPadded(p)),
            Err(_) if !has_gap(desc) => Err(linear),
            Err(e) => Err(e),
        },
    }
}

/// Whether the layout's offsets, sorted, leave a gap (it pads).
fn has_gap(desc: &Descriptor) -> bool {
    check::offsets(desc).is_ok_and(|o| {
        let mut s = o.offsets;
        s.sort_unstable();
        s.windows(2).any(|w| w[1] - w[0] > 1)
    })
}

/// A peer cktile exports to: the language a layout is answered in
/// (`cktile export --as`, `cktile search --as`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peer {
    /// Triton's Gluon layouts ([`triton`]).
    Triton,
    /// CuTe's text ([`cute`]).
    Cute,
}

/// The peers' names, as `--as` takes them.
///
/// ```
/// assert_eq!(cktile::export::PEER_NAMES, "triton, cute");
/// ```
pub const PEER_NAMES: &str = "triton, cute";

impl Peer {
    /// The peer named `name` (`triton`, `cute`), or an error naming the
    /// valid ones.
    ///
    /// ```
    /// use cktile::export::Peer;
    /// assert_eq!(Peer::by_name("cute")?, Peer::Cute);
    /// assert!(Peer::by_name("ck").unwrap_err().to_string().contains("triton, cute"));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn by_name(name: &str) -> Result<Peer, Error> {
        match name.trim() {
            "triton" => Ok(Peer::Triton),
            "cute" => Ok(Peer::Cute),
            _ => Err(Error::parameter(ParameterProblem::UnknownName { name: Snippet::new(name), valid: PEER_NAMES })),
        }
    }

    /// The peer's name.
    ///
    /// ```
    /// assert_eq!(cktile::export::Peer::Triton.name(), "triton");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Peer::Triton => "triton",
            Peer::Cute => "cute",
        }
    }

    /// `desc` in this peer's terms ([`triton`] or [`cute`]), or the
    /// peer's refusal.
    ///
    /// ```
    /// use cktile::export::Peer;
    /// let packed = cktile::Descriptor::packed(&[2, 4])?;
    /// assert_eq!(Peer::Cute.export(&packed)?.text(&packed), "(2,4):(4,1)");
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn export(self, desc: &Descriptor) -> Result<Exported, Error> {
        match self {
            Peer::Triton => triton(desc),
            Peer::Cute => cute(desc).map(Exported::Cute),
        }
    }
}
