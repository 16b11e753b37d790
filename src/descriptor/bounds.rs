//! The range of every value the offset computation produces for
//! coordinates inside the lengths, padded ones included: an interval
//! analysis. It tells whether CK's offsets of padded coordinates fit 64 bits
//! (`check::offsets` and `check::trace` refuse to print a wrapped one), and
//! chooses the generated code's integer type (`codegen`, which re-exports
//! this module as `codegen::bounds`).
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
use cktile_transforms::lowering::{Lowering, Step};
use cktile_transforms::{MAX_DIMS, Transform, kinds::swizzle};
use core::fmt;

/// The signed integer type of the generated code.
///
/// ```
/// use cktile::codegen::IndexType;
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
    /// assert_eq!(cktile::codegen::IndexType::I64.c_name(), "std::int64_t");
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
    /// assert_eq!(cktile::codegen::IndexType::I32.max(), i32::MAX as i128);
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
/// use cktile::codegen::{bounds::value_range, IndexType};
/// let d = cktile::Descriptor::naive(&[4, 8], &[100, 1])?;
/// let r = value_range(&d)?;
/// assert_eq!((r.low, r.high, r.index_type), (0, 308, IndexType::I32));
/// # Ok::<(), cktile::Error>(())
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

impl Span {
    const ZERO: Span = Span { lo: 0, hi: 0 };

    fn shift(self, k: i128) -> Span {
        Span { lo: self.lo + k, hi: self.hi + k }
    }

    fn scale(self, k: i128) -> Span {
        let (a, b) = (self.lo * k, self.hi * k);
        Span { lo: a.min(b), hi: a.max(b) }
    }

    fn add(self, other: Span) -> Span {
        Span { lo: self.lo + other.lo, hi: self.hi + other.hi }
    }

    fn magnitude(self) -> i128 {
        self.lo.abs().max(self.hi.abs())
    }

    /// `x % m` (truncating): `[0, m - 1]` for non-negative `x`, else `[-(m - 1), m - 1]`.
    fn rem(self, m: i128) -> Span {
        let top = (m - 1).min(self.magnitude());
        if self.lo >= 0 { Span { lo: 0, hi: top } } else { Span { lo: -top, hi: top } }
    }

    /// `x / m` (truncating, monotone in `x`).
    fn div(self, m: i128) -> Span {
        Span { lo: self.lo / m, hi: self.hi / m }
    }

    /// A bound of `x ^ y` for `x` in `self` and `y` in `other`.
    fn xor(self, other: Span) -> Span {
        let m = self.magnitude().max(other.magnitude());
        let k = power_of_two_above(m);
        if self.lo >= 0 && other.lo >= 0 { Span { lo: 0, hi: k - 1 } } else { Span { lo: -k, hi: k - 1 } }
    }
}

/// The smallest power of two strictly greater than `m` (`m >= 0`).
fn power_of_two_above(m: i128) -> i128 {
    let mut k: i128 = 1;
    while k <= m {
        k <<= 1;
    }
    k
}

/// Tracks the extreme values seen.
struct Extremes {
    low: i128,
    high: i128,
}

impl Extremes {
    fn see(&mut self, s: Span) -> Span {
        self.low = self.low.min(s.lo);
        self.high = self.high.max(s.hi);
        s
    }

    fn see_value(&mut self, v: i128) {
        self.see(Span { lo: v.min(0), hi: v.max(0) });
    }
}

/// The intervals of a lowering's outputs from its inputs', step by step
/// (and the extremes of every intermediate value).
fn lowering_spans(l: &Lowering, up: &[Span], x: &mut Extremes) -> alloc::vec::Vec<Span> {
    let mut v = alloc::vec![Span::ZERO; l.slots()];
    for (slot, s) in v.iter_mut().zip(up) {
        *slot = *s;
    }
    let at = |v: &[Span], slot: u8| v.get(usize::from(slot)).copied().unwrap_or(Span::ZERO);
    for step in l.steps() {
        let out = usize::from(step.out());
        let span = match *step {
            Step::Affine { n, ins, coef, constant, .. } => {
                let terms: alloc::vec::Vec<Span> =
                    ins[..usize::from(n).min(MAX_DIMS)].iter().map(|&i| at(&v, i)).collect();
                let sum = weighted_sum(&terms, coef.iter().map(|&c| i128::from(c)), x);
                sum.shift(i128::from(constant))
            }
            Step::Split { a, lengths, .. } => {
                let l = lengths.as_slice();
                let mut t = at(&v, a);
                for i in (1..l.len()).rev() {
                    if let Some(slot) = v.get_mut(out + i) {
                        *slot = x.see(t.rem(l[i].into()));
                    }
                    t = x.see(t.div(l[i].into()));
                }
                if let Some(slot) = v.get_mut(out) {
                    *slot = t;
                }
                continue;
            }
            Step::Div { a, by, .. } => at(&v, a).div(by.into()),
            Step::Rem { a, by, .. } => at(&v, a).rem(by.into()),
            Step::Xor { a, b, .. } => at(&v, a).xor(at(&v, b)),
            Step::Swizzle { a, bits, base, shift, .. } => {
                let s = at(&v, a);
                if bits == 0 {
                    s
                } else if s.lo >= 0 {
                    // Every index stays inside its aligned block.
                    let block = 1i128 << swizzle::block_bits(bits, base, shift);
                    Span { lo: s.lo - s.lo % block, hi: s.hi - s.hi % block + block - 1 }
                } else {
                    s.xor(Span { lo: 0, hi: (1i128 << swizzle::block_bits(bits, base, shift)) - 1 })
                }
            }
        };
        if let Some(slot) = v.get_mut(out) {
            *slot = x.see(span);
        }
    }
    l.outputs().iter().map(|&o| x.see(at(&v, o))).collect()
}

/// `sum(up[i] * k[i])`, with every product and partial sum seen.
fn weighted_sum(up: &[Span], k: impl Iterator<Item = i128>, x: &mut Extremes) -> Span {
    let mut sum = Span::ZERO;
    let mut reach = Span::ZERO;
    for (s, k) in up.iter().zip(k) {
        let term = x.see(s.scale(k));
        sum = x.see(sum.add(term));
        reach = reach.add(Span { lo: term.lo.min(0), hi: term.hi.max(0) });
    }
    // Any partial sum, in any order the terms are added, is within this.
    x.see(reach);
    sum
}

/// The literals a transform's code uses, both ways (coefficients,
/// constants, divisors, the bounds of its test, a swizzle's masks and
/// shifts), read off its lowerings.
fn literals(t: &Transform, x: &mut Extremes) {
    for l in [Some(t.lowering()), t.upper_lowering()].into_iter().flatten() {
        for step in l.steps() {
            match *step {
                Step::Affine { n, coef, constant, .. } => {
                    // A negative constant is written as a subtraction of its
                    // magnitude (`x - 2`).
                    x.see_value(constant.unsigned_abs().into());
                    // A negative coefficient is written as a subtraction too.
                    for c in &coef[..usize::from(n).min(MAX_DIMS)] {
                        x.see_value(c.unsigned_abs().into());
                    }
                }
                Step::Split { lengths, .. } => {
                    for v in lengths.as_slice() {
                        x.see_value((*v).into());
                    }
                }
                Step::Div { by, .. } | Step::Rem { by, .. } => x.see_value(by.into()),
                Step::Xor { .. } => {}
                Step::Swizzle { bits, base, shift, .. } => {
                    // The code is `o ^ (((o >> a) & mask) << b)`: the mask and
                    // the shifted field stay below the block.
                    if bits > 0 {
                        x.see_value(1i128 << swizzle::block_bits(bits, base, shift));
                        x.see_value((1i128 << bits) - 1);
                        x.see_value((base as i128) + i128::from(shift.unsigned_abs()));
                    }
                }
            }
        }
        if let Some(c) = l.check() {
            x.see_value(c.low.into());
            x.see_value(c.high.into());
        }
    }
}

/// The range of every value the generated code handles for coordinates
/// inside the lengths, and the integer type that holds it; an error when
/// not even `std::int64_t` does.
///
/// ```
/// use cktile::codegen::{bounds::value_range, IndexType};
/// // pad(5, 2, 3): offsets -2..=7; embed with a stride of 2^31 needs 64 bits.
/// let d = cktile::spec::parse("naive((5),(1)) | transform(pad(5,2,3) on [0] -> [0])")?;
/// assert_eq!(value_range(&d)?.low, -2);
/// let wide = cktile::Descriptor::naive(&[2, 2], &[1 << 31, 1])?;
/// assert_eq!(value_range(&wide)?.index_type, IndexType::I64);
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn value_range(desc: &Descriptor) -> Result<ValueRange, Error> {
    let mut x = Extremes { low: 0, high: 0 };
    x.see_value(desc.element_space_size().into());
    let lengths = desc.lengths();
    let mut spans = [Span::ZERO; MAX_DIMS];
    for (s, &len) in spans.iter_mut().zip(lengths.as_slice()) {
        *s = x.see(Span { lo: 0, hi: i128::from(len) - 1 });
        x.see_value(len.into());
    }
    for stage in desc.stages().iter().rev() {
        for &l in stage.lower_lengths().as_slice().iter().chain(stage.upper_lengths().as_slice()) {
            x.see_value(l.into());
        }
        let mut lower = [Span::ZERO; MAX_DIMS];
        for item in stage.items() {
            let (up_ids, nu) = item.upper().to_array();
            let up: alloc::vec::Vec<Span> = up_ids[..nu].iter().map(|&i| spans[i % MAX_DIMS]).collect();
            literals(item.transform(), &mut x);
            let low = lowering_spans(&item.transform().lowering(), &up, &mut x);
            let (low_ids, nl) = item.lower().to_array();
            for (&id, &span) in low_ids[..nl].iter().zip(&low) {
                lower[id % MAX_DIMS] = span;
            }
        }
        spans = lower;
    }
    // The inverse, each stage from its lower dimensions' lengths.
    for stage in desc.stages() {
        let lengths = stage.lower_lengths();
        for item in stage.items() {
            if let Some(inverse) = item.transform().upper_lowering() {
                let (low_ids, nl) = item.lower().to_array();
                let inputs: alloc::vec::Vec<Span> = low_ids[..nl]
                    .iter()
                    .map(|&i| Span { lo: 0, hi: i128::from(lengths.get(i % MAX_DIMS)) - 1 })
                    .collect();
                lowering_spans(&inverse, &inputs, &mut x);
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
