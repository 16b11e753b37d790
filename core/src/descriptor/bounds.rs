//! The range of every value the offset computation produces for
//! coordinates inside the lengths, padded ones included: an interval
//! analysis. It tells whether CK's offsets of padded coordinates fit 64 bits
//! (`check::offsets` and `check::trace` refuse to print a wrapped one),
//! chooses the generated code's integer type (`codegen`, which re-exports
//! this module as `codegen::bounds`), and gives the largest offset a
//! compile-time chain reaches ([`offset_reach`], a `const fn`), with which
//! tile windows let the compiler drop their LDS loads' bounds checks.
//!
//! Starting from `[0, len - 1]` for each top dimension, every stage maps the
//! intervals of its upper dimensions to those of its lower dimensions
//! through the steps of each transform's
//! [`lowering`](cktile_transforms::Transform::lowering), the same steps the
//! generated code runs (an affine step scales, adds and shifts, possibly
//! below zero; a split, a division and a remainder bound by their divisors;
//! a xor by the next power of two; a swizzle keeps each index inside its
//! aligned block). It never looks at a transform's kind. Every intermediate
//! value (partial sums, products, the quotients of a merge) is covered, and
//! so are every literal the code uses and every length of every stage. The
//! inverse's steps ([`upper_lowering`](cktile_transforms::Transform::upper_lowering))
//! are analysed the same way, stage by stage from the bottom, each stage's
//! inputs inside their dimensions' lengths: the inverse runs only on
//! bijective layouts, where every level's value is inside its dimension,
//! but its intermediate values need not be (a cyclic shift's inverse adds
//! its length before the remainder). The analysis is done in `i128`, so it
//! cannot overflow itself.

use crate::Descriptor;
use crate::error::{DescriptorProblem, Error};
use cktile_transforms::lowering::{Lowering, MAX_SLOTS, Step};
use cktile_transforms::{MAX_DIMS, Transform, kinds::swizzle};
use core::fmt;

/// The signed integer type of the generated code.
///
/// ```
/// use cktile_core::descriptor::bounds::IndexType;
/// assert_eq!(IndexType::I32.c_name(), "std::int32_t");
/// assert_eq!(IndexType::I64.max(), i64::MAX as i128);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IndexType {
    /// `std::int32_t`: every value fits 31 bits and a sign.
    I32,
    /// `std::int64_t`.
    I64,
}

impl IndexType {
    /// The C++ type name.
    ///
    /// ```
    /// assert_eq!(cktile_core::descriptor::bounds::IndexType::I64.c_name(), "std::int64_t");
    /// ```
    pub const fn c_name(self) -> &'static str {
        match self {
            IndexType::I32 => "std::int32_t",
            IndexType::I64 => "std::int64_t",
        }
    }

    /// The largest value of the type.
    ///
    /// ```
    /// assert_eq!(cktile_core::descriptor::bounds::IndexType::I32.max(), i32::MAX as i128);
    /// ```
    pub const fn max(self) -> i128 {
        match self {
            IndexType::I32 => i32::MAX as i128,
            IndexType::I64 => i64::MAX as i128,
        }
    }
}

impl fmt::Display for IndexType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.c_name())
    }
}

/// The range of values the generated code computes, and the type chosen.
///
/// ```
/// use cktile_core::descriptor::bounds::{value_range, IndexType};
/// let d = cktile_core::Descriptor::naive(&[4, 8], &[100, 1])?;
/// let r = value_range(&d)?;
/// assert_eq!((r.low, r.high, r.index_type), (0, 308, IndexType::I32));
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueRange {
    /// The smallest value (negative on padding).
    pub low: i128,
    /// The largest value (including the lengths used as literals).
    pub high: i128,
    /// `std::int32_t` when both fit it, else `std::int64_t`.
    pub index_type: IndexType,
}

/// An interval of values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    lo: i128,
    hi: i128,
}

const fn min(a: i128, b: i128) -> i128 {
    if a < b { a } else { b }
}

const fn max(a: i128, b: i128) -> i128 {
    if a > b { a } else { b }
}

// Every value is an i64 widened, or a product or sum of a few of them
// (at most MAX_DIMS terms of two i64 factors), so i128 arithmetic cannot
// overflow; saturating operations keep that true even for absurd inputs.
impl Span {
    const ZERO: Span = Span { lo: 0, hi: 0 };

    const fn shift(self, k: i128) -> Span {
        Span { lo: self.lo.saturating_add(k), hi: self.hi.saturating_add(k) }
    }

    const fn scale(self, k: i128) -> Span {
        let (a, b) = (self.lo.saturating_mul(k), self.hi.saturating_mul(k));
        Span { lo: min(a, b), hi: max(a, b) }
    }

    const fn add(self, other: Span) -> Span {
        Span { lo: self.lo.saturating_add(other.lo), hi: self.hi.saturating_add(other.hi) }
    }

    const fn magnitude(self) -> i128 {
        max(self.lo.saturating_abs(), self.hi.saturating_abs())
    }

    /// `x % m` (truncating): `[0, m - 1]` for non-negative `x`, else `[-(m - 1), m - 1]`.
    const fn rem(self, m: i128) -> Span {
        let top = min(m.saturating_sub(1), self.magnitude());
        if self.lo >= 0 { Span { lo: 0, hi: top } } else { Span { lo: -top, hi: top } }
    }

    /// `x / m` (truncating, monotone in `x`; a zero divisor gives 0, as the steps do).
    const fn div(self, m: i128) -> Span {
        match (self.lo.checked_div(m), self.hi.checked_div(m)) {
            (Some(lo), Some(hi)) => Span { lo, hi },
            _ => Span::ZERO,
        }
    }

    /// A bound of `x ^ y` for `x` in `self` and `y` in `other`.
    const fn xor(self, other: Span) -> Span {
        let k = power_of_two_above(max(self.magnitude(), other.magnitude()));
        if self.lo >= 0 && other.lo >= 0 { Span { lo: 0, hi: k - 1 } } else { Span { lo: -k, hi: k - 1 } }
    }
}

/// The smallest power of two strictly greater than `m` (`m >= 0`), or
/// `i128::MAX` past the largest one.
const fn power_of_two_above(m: i128) -> i128 {
    let mut k: i128 = 1;
    while k <= m {
        k = match k.checked_mul(2) {
            Some(k) => k,
            None => return i128::MAX,
        };
    }
    k
}

/// Tracks the extreme values seen.
struct Extremes {
    low: i128,
    high: i128,
}

impl Extremes {
    const fn see(&mut self, s: Span) -> Span {
        self.low = min(self.low, s.lo);
        self.high = max(self.high, s.hi);
        s
    }

    const fn see_value(&mut self, v: i128) {
        self.see(Span { lo: min(v, 0), hi: max(v, 0) });
    }
}

/// The span of slot `slot` of `v` (zero past the slots).
const fn at(v: &[Span; MAX_SLOTS], slot: u8) -> Span {
    let i = slot as usize;
    if i < MAX_SLOTS { v[i] } else { Span::ZERO }
}

/// Writes `span` at slot `i` of `v` when it is one.
const fn put(v: &mut [Span; MAX_SLOTS], i: usize, span: Span) {
    if i < MAX_SLOTS {
        v[i] = span;
    }
}

/// The intervals of a lowering's slots from its `n` inputs' (`up`), step
/// by step, every intermediate value seen by `x`; the outputs are the
/// slots [`Lowering::outputs`] names.
const fn lowering_spans(l: &Lowering, up: &[Span; MAX_DIMS], n: usize, x: &mut Extremes) -> [Span; MAX_SLOTS] {
    let mut v = [Span::ZERO; MAX_SLOTS];
    let mut i = 0;
    while i < n && i < MAX_DIMS {
        v[i] = up[i];
        i += 1;
    }
    let steps = l.steps();
    let mut k = 0;
    while k < steps.len() {
        let out = steps[k].out() as usize;
        let span = match steps[k] {
            Step::Affine { n, ins, coef, constant, .. } => {
                // `sum(in[i] * coef[i])`, with every product and partial sum seen.
                let (mut sum, mut reach) = (Span::ZERO, Span::ZERO);
                let mut t = 0;
                while t < n as usize && t < MAX_DIMS {
                    let term = x.see(at(&v, ins[t]).scale(coef[t] as i128));
                    sum = x.see(sum.add(term));
                    reach = reach.add(Span { lo: min(term.lo, 0), hi: max(term.hi, 0) });
                    t += 1;
                }
                // Any partial sum, in any order the terms are added, is within this.
                x.see(reach);
                sum.shift(constant as i128)
            }
            Step::Split { a, lengths, .. } => {
                let mut t = at(&v, a);
                let mut d = lengths.len();
                while d > 1 {
                    d -= 1;
                    let len = lengths.get(d) as i128;
                    put(&mut v, out + d, x.see(t.rem(len)));
                    t = x.see(t.div(len));
                }
                put(&mut v, out, t);
                k += 1;
                continue;
            }
            Step::Div { a, by, .. } => at(&v, a).div(by as i128),
            Step::Rem { a, by, .. } => at(&v, a).rem(by as i128),
            Step::Xor { a, b, .. } => at(&v, a).xor(at(&v, b)),
            Step::Swizzle { a, bits, base, shift, .. } => {
                let s = at(&v, a);
                let block_bits = swizzle::block_bits(bits, base, shift);
                if bits == 0 {
                    s
                } else if block_bits >= 126 {
                    // No block that wide: anything a 64-bit index holds.
                    Span { lo: i64::MIN as i128, hi: i64::MAX as i128 }
                } else if s.lo >= 0 {
                    // Every index stays inside its aligned block.
                    let block = 1i128 << block_bits;
                    Span { lo: s.lo - s.lo % block, hi: (s.hi - s.hi % block).saturating_add(block - 1) }
                } else {
                    s.xor(Span { lo: 0, hi: (1i128 << block_bits) - 1 })
                }
            }
            Step::Permute { a, map, .. } => {
                let s = at(&v, a);
                // The code keeps the high bits as `o - (o & mask)`: from
                // the first block's start, and the low bits `0..block`.
                x.see(Span { lo: s.lo - s.lo.rem_euclid(map.block() as i128), hi: s.hi });
                x.see(Span { lo: 0, hi: map.block() as i128 - 1 });
                let (lo, hi) = map.range(s.lo, s.hi);
                Span { lo, hi }
            }
        };
        put(&mut v, out, x.see(span));
        k += 1;
    }
    let outputs = l.outputs();
    let mut o = 0;
    while o < outputs.len() {
        x.see(at(&v, outputs[o]));
        o += 1;
    }
    v
}

/// The spans of the bottom dimensions for top indices inside the lengths
/// (padded ones included), every intermediate value and every length of
/// every stage seen by `x`.
const fn forward_spans(desc: &Descriptor, x: &mut Extremes) -> [Span; MAX_DIMS] {
    let lengths = desc.lengths();
    let mut spans = [Span::ZERO; MAX_DIMS];
    let mut d = 0;
    while d < lengths.len() && d < MAX_DIMS {
        let len = lengths.get(d) as i128;
        spans[d] = x.see(Span { lo: 0, hi: len - 1 });
        x.see_value(len);
        d += 1;
    }
    let stages = desc.stages();
    let stages = stages.as_slice();
    let mut s = stages.len();
    while s > 0 {
        s -= 1;
        let stage = &stages[s];
        see_lengths(stage.lower_lengths(), x);
        see_lengths(stage.upper_lengths(), x);
        let mut lower = [Span::ZERO; MAX_DIMS];
        let items = stage.items();
        let mut i = 0;
        while i < items.len() {
            let (up_ids, nu) = items[i].upper().to_array();
            let mut up = [Span::ZERO; MAX_DIMS];
            let mut u = 0;
            while u < nu && u < MAX_DIMS {
                up[u] = spans[up_ids[u] % MAX_DIMS];
                u += 1;
            }
            let l = items[i].transform().lowering();
            let v = lowering_spans(&l, &up, nu, x);
            let (low_ids, nl) = items[i].lower().to_array();
            let outputs = l.outputs();
            let mut o = 0;
            while o < nl && o < outputs.len() && o < MAX_DIMS {
                lower[low_ids[o] % MAX_DIMS] = at(&v, outputs[o]);
                o += 1;
            }
            i += 1;
        }
        spans = lower;
    }
    spans
}

/// Has `x` see every length of `lengths`.
const fn see_lengths(lengths: crate::Dims, x: &mut Extremes) {
    let mut d = 0;
    while d < lengths.len() {
        x.see_value(lengths.get(d) as i128);
        d += 1;
    }
}

/// The largest offset a top index inside the descriptor's lengths can map
/// to, padded indices included, from the same interval analysis as
/// [`value_range`]: `None` when one of those offsets may be negative (a
/// left pad, a negative offset) or the bound does not fit an index. A
/// kernel's window reads `offset.min(reach)` from a memory of at least
/// `reach + vector` elements: the same element when the top index is inside
/// the lengths, and a bounds check the compiler can drop.
///
/// ```
/// use cktile_core::descriptor::bounds::offset_reach;
/// use cktile_core::{Item, Transform};
/// let d = cktile_core::Descriptor::naive(&[4, 8], &[100, 1])?;
/// assert_eq!(offset_reach(&d), Some(307));
/// // xor((4, 8)) over a 4 x 8 block: every index stays below 32.
/// let x = cktile_core::Descriptor::packed(&[4, 8])?.transform(&[Item::new(Transform::xor(4, 8)?, &[0, 1], &[0, 1])?])?;
/// assert_eq!(offset_reach(&x), Some(31));
/// let padded = cktile_core::Descriptor::naive(&[5], &[1])?.transform(&[Item::new(Transform::pad(5, 2, 3)?, &[0], &[0])?])?;
/// assert_eq!(offset_reach(&padded), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const fn offset_reach(desc: &Descriptor) -> Option<crate::Index> {
    let mut x = Extremes { low: 0, high: 0 };
    let offset = forward_spans(desc, &mut x)[0];
    if offset.lo < 0 || offset.hi > i64::MAX as i128 || desc.num_stages() == 0 {
        return None;
    }
    Some(offset.hi as crate::Index)
}

/// The literals a transform's code uses, both ways (coefficients,
/// constants, divisors, the bounds of its test, a swizzle's masks and
/// shifts), read off its lowerings.
fn literals(t: &Transform, x: &mut Extremes) {
    for l in [Some(t.lowering()), t.upper_lowering()].into_iter().flatten() {
        lowering_literals(&l, x);
    }
}

/// The literals the code of one lowering uses.
const fn lowering_literals(l: &Lowering, x: &mut Extremes) {
    let steps = l.steps();
    let mut k = 0;
    while k < steps.len() {
        match steps[k] {
            Step::Affine { n, coef, constant, .. } => {
                // A negative constant is written as a subtraction of its
                // magnitude (`x - 2`).
                x.see_value(constant.unsigned_abs() as i128);
                // A negative coefficient is written as a subtraction too.
                let mut t = 0;
                while t < n as usize && t < MAX_DIMS {
                    x.see_value(coef[t].unsigned_abs() as i128);
                    t += 1;
                }
            }
            Step::Split { lengths, .. } => see_lengths(lengths, x),
            Step::Div { by, .. } | Step::Rem { by, .. } => x.see_value(by as i128),
            Step::Xor { .. } => {}
            Step::Permute { map, .. } => {
                // The code is `((o - (o & mask)) | moved fields) ^ flip`:
                // masks and flip below the block, shifts below its bits.
                x.see_value(map.block() as i128 - 1);
            }
            Step::Swizzle { bits, base, shift, .. } => {
                // The code is `o ^ (((o >> a) & mask) << b)`: the mask and
                // the shifted field stay below the block.
                if bits > 0 {
                    let block_bits = swizzle::block_bits(bits, base, shift);
                    x.see_value(if block_bits < 127 { 1i128 << block_bits } else { i128::MAX });
                    x.see_value(if bits < 127 { (1i128 << bits) - 1 } else { i128::MAX });
                    x.see_value((base as i128) + shift.unsigned_abs() as i128);
                }
            }
        }
        k += 1;
    }
    if let Some(c) = l.check() {
        x.see_value(c.low as i128);
        x.see_value(c.high as i128);
    }
}

/// The smallest and the largest value the forward code (top coordinate to
/// offset) handles for top indices inside the lengths, padded ones
/// included: every intermediate value, every length of every stage and
/// every literal of the transforms' forward lowerings. A `const fn`, so
/// that a compile-time chain can choose (or refuse) a narrow integer type
/// for generated code at compile time; [`value_range`] covers the inverse
/// too.
///
/// ```
/// use cktile_core::descriptor::bounds::{forward_range, value_range};
/// use cktile_core::{Item, Transform};
/// let d = cktile_core::Descriptor::naive(&[4, 8], &[100, 1])?;
/// assert_eq!(forward_range(&d), (0, 308));
/// let padded = cktile_core::Descriptor::naive(&[5], &[1])?.transform(&[Item::new(Transform::pad(5, 2, 3)?, &[0], &[0])?])?;
/// assert_eq!(forward_range(&padded).0, value_range(&padded)?.low);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const fn forward_range(desc: &Descriptor) -> (i128, i128) {
    let mut x = Extremes { low: 0, high: 0 };
    x.see_value(desc.element_space_size() as i128);
    forward_spans(desc, &mut x);
    let stages = desc.stages();
    let stages = stages.as_slice();
    let mut s = 0;
    while s < stages.len() {
        let items = stages[s].items();
        let mut i = 0;
        while i < items.len() {
            lowering_literals(&items[i].transform().lowering(), &mut x);
            i += 1;
        }
        s += 1;
    }
    (x.low, x.high)
}

/// The range of every value the generated code handles for coordinates
/// inside the lengths, and the integer type that holds it; an error when
/// not even `std::int64_t` does.
///
/// ```
/// use cktile_core::descriptor::bounds::{value_range, IndexType};
/// use cktile_core::{Item, Transform};
/// // pad(5, 2, 3): offsets -2..=7; embed with a stride of 2^31 needs 64 bits.
/// let d = cktile_core::Descriptor::naive(&[5], &[1])?.transform(&[Item::new(Transform::pad(5, 2, 3)?, &[0], &[0])?])?;
/// assert_eq!(value_range(&d)?.low, -2);
/// let wide = cktile_core::Descriptor::naive(&[2, 2], &[1 << 31, 1])?;
/// assert_eq!(value_range(&wide)?.index_type, IndexType::I64);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn value_range(desc: &Descriptor) -> Result<ValueRange, Error> {
    let mut x = Extremes { low: 0, high: 0 };
    x.see_value(desc.element_space_size().into());
    forward_spans(desc, &mut x);
    for stage in desc.stages() {
        for item in stage.items() {
            literals(item.transform(), &mut x);
        }
    }
    // The inverse, each stage from its lower dimensions' lengths.
    for stage in desc.stages() {
        let lengths = stage.lower_lengths();
        for item in stage.items() {
            if let Some(inverse) = item.transform().upper_lowering() {
                let (low_ids, nl) = item.lower().to_array();
                let mut inputs = [Span::ZERO; MAX_DIMS];
                for (span, &i) in inputs.iter_mut().zip(&low_ids[..nl]) {
                    *span = Span { lo: 0, hi: i128::from(lengths.get(i % MAX_DIMS)) - 1 };
                }
                lowering_spans(&inverse, &inputs, nl, &mut x);
            }
        }
    }
    let index_type = if x.low >= -IndexType::I32.max() && x.high <= IndexType::I32.max() {
        IndexType::I32
    } else if x.low >= -IndexType::I64.max() && x.high <= IndexType::I64.max() {
        IndexType::I64
    } else {
        let value = if x.high > IndexType::I64.max() { x.high } else { x.low };
        return Err(Error::descriptor(DescriptorProblem::Overflow {
            quantity: "range of the offset computation's intermediate values (padded coordinates included)",
            value,
        }));
    };
    Ok(ValueRange { low: x.low, high: x.high, index_type })
}
