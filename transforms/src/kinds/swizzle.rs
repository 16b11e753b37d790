//! `swizzle(B, M, S)`: CuTe's `SwizzleParams<B, M, S>` as a one-to-one transform on
//! a linear index.
//!
//! With `mask = (1 << B) - 1`, the source field is `mask << (M + max(0, S))`
//! and the target field `mask << (M - min(0, S))`:
//! `low = o ^ shift_right(o & source, S)` (a negative `S` shifts left). For
//! `S > 0` this is `o ^ (((o >> (M + S)) & mask) << M)`. It is an involution
//! (its own inverse) and linear over GF(2). CuTe requires `|S| >= B`.
//!
//! Only the target bits change, so every aligned block of
//! `2^(top of the target field)` indices maps onto itself: the dimension's
//! length must be a multiple of that block. The lowest `M` bits never change,
//! so runs of `2^M` consecutive indices stay contiguous; cktile reports that as
//! the vector length (`gcd(lower length, 2^M)`). CK Tile has no swizzle.

/// The permuted index.
///
/// ```
/// use cktile_transforms::kinds::swizzle::apply;
/// // SwizzleParams<3,3,3>: row r = o >> 6 XORs the 8-element chunk (o >> 3) & 7.
/// assert_eq!(apply(64, 3, 3, 3), 64 + 8);
/// assert_eq!(apply(apply(1234, 3, 3, 3), 3, 3, 3), 1234);
/// ```
#[inline(always)]
pub const fn apply(o: i64, bits: u32, base: u32, shift: i32) -> i64 {
    Fields::new(bits, base, shift).apply(o)
}

/// A swizzle's parameters as the three numbers its formula uses: the source
/// field and the two shifts that move it onto the target field (one of
/// them 0), so a caller applying one swizzle to many indices computes them
/// once and runs a formula without a branch. [`apply`] is this formula.
///
/// ```
/// use cktile_transforms::kinds::swizzle::{apply, Fields};
/// let f = Fields::new(2, 0, -3);
/// assert_eq!(f, Fields { source: 0b11, right: 0, left: 3 });
/// assert!((0..64).all(|o| f.apply(o) == apply(o, 2, 0, -3)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fields {
    /// The source field's bits: `mask << (M + max(0, S))`.
    pub source: i64,
    /// How far right the source field moves: `max(0, S)`.
    pub right: u32,
    /// How far left it moves: `max(0, -S)`.
    pub left: u32,
}

impl Fields {
    /// The fields of `swizzle(bits, base, shift)`.
    ///
    /// ```
    /// use cktile_transforms::kinds::swizzle::Fields;
    /// assert_eq!(Fields::new(3, 3, 3), Fields { source: 0b111 << 6, right: 3, left: 0 });
    /// ```
    #[inline(always)]
    pub const fn new(bits: u32, base: u32, shift: i32) -> Fields {
        // Wrapping shifts: the same bits for every valid swizzle (fields inside
        // 63 bits), and no panic for parameters no validated transform has.
        let mask: i64 = 1i64.wrapping_shl(bits).wrapping_sub(1);
        if shift >= 0 {
            Fields { source: mask.wrapping_shl(base.wrapping_add(shift as u32)), right: shift as u32, left: 0 }
        } else {
            Fields { source: mask.wrapping_shl(base), right: 0, left: shift.unsigned_abs() }
        }
    }

    /// The permuted index: `o ^ (((o & source) >> right) << left)`. The
    /// right shift is a logical one: a valid swizzle reaches at most bit 62
    /// ([`Transform::swizzle`](crate::Transform::swizzle)), so its source
    /// field never holds the sign bit and the two shifts agree, and vector
    /// units have the logical one for 64-bit lanes.
    ///
    /// ```
    /// use cktile_transforms::kinds::swizzle::Fields;
    /// assert_eq!(Fields::new(3, 3, 3).apply(64), 64 + 8);
    /// ```
    #[inline(always)]
    pub const fn apply(&self, o: i64) -> i64 {
        o ^ (((o & self.source) as u64).wrapping_shr(self.right) as i64).wrapping_shl(self.left)
    }
}

/// Exponent of the block every index stays inside: the top of the target
/// field, `B + M - min(0, S)` (0 when `B = 0`, the identity).
///
/// ```
/// assert_eq!(cktile_transforms::kinds::swizzle::block_bits(3, 3, 3), 6);
/// assert_eq!(cktile_transforms::kinds::swizzle::block_bits(2, 0, -3), 5);
/// ```
#[inline]
pub const fn block_bits(bits: u32, base: u32, shift: i32) -> u32 {
    if bits == 0 {
        0
    } else if shift >= 0 {
        base.saturating_add(bits)
    } else {
        base.saturating_add(shift.unsigned_abs()).saturating_add(bits)
    }
}

/// The lowering: one swizzle step (an involution, so also the inverse).
///
/// ```
/// assert_eq!(cktile_transforms::kinds::swizzle::lowering(3, 3, 3).lower(&[64])[0], 72);
/// ```
pub const fn lowering(bits: u32, base: u32, shift: i32) -> crate::lowering::Lowering {
    let mut l = crate::lowering::Lowering::new(1);
    let s = l.swizzle(0, bits, base, shift);
    l.output(s);
    l
}

use super::Draw;
use super::kit::{at, length, one, put, single};
use crate::lowering::Lowering;
use crate::signature::{Arg, Args, Param};
use crate::transform::table::{Row, sig};
use crate::{Dims, Error, Family, Index, Indices, MAX_DIMS, Params, Transform, VectorRule};

/// The parameters of `swizzle(B, M, S)`, CuTe's `SwizzleParams<B, M, S>`, with
/// the length of the dimension it is bound to.
///
/// ```
/// use cktile_transforms::{kinds::SwizzleParams, Params, Transform};
/// let s = Transform::swizzle_with_len(512, 3, 3, 3)?;
/// assert_eq!(s.params(), Params::Swizzle(SwizzleParams { bits: 3, base: 3, shift: 3, len: 512 }));
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SwizzleParams {
    /// CuTe's B.
    pub bits: u32,
    /// CuTe's M.
    pub base: u32,
    /// CuTe's S.
    pub shift: i32,
    /// The dimension's length (0 before binding).
    pub len: Index,
}

/// CuTe's `B` and `M`, and its `S`: the ranges whose bit fields fit 62 bits.
const BITS: &str = "an integer in [0, 62]";
const SHIFT: &str = "an integer in [-62, 62]";

impl Transform {
    /// `swizzle(bits, base, shift)`: CuTe's `SwizzleParams<B, M, S>`. Its length is
    /// that of the dimension it is applied to (see [`bind`](Self::bind)).
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert!(Transform::swizzle(3, 3, 3).is_ok());
    /// assert!(Transform::swizzle(3, 3, 2).is_err()); // |S| < B
    /// ```
    #[inline]
    pub const fn swizzle(bits: u32, base: u32, shift: i32) -> Result<Transform, Error> {
        let reach = base as u64 + shift.unsigned_abs() as u64 + bits as u64;
        if (shift.unsigned_abs()) < bits || reach > 62 {
            return Err(Error::SwizzleParameters { bits, base, shift });
        }
        Ok(Transform::wrap(Params::Swizzle(SwizzleParams { bits, base, shift, len: 0 })))
    }

    /// A swizzle with its length already known (checked as [`bind`](Self::bind) would).
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert!(Transform::swizzle_with_len(512, 3, 3, 3).is_ok());
    /// assert!(Transform::swizzle_with_len(100, 3, 3, 3).is_err());
    /// ```
    #[inline]
    pub const fn swizzle_with_len(len: usize, bits: u32, base: u32, shift: i32) -> Result<Transform, Error> {
        const NAME: &str = SwizzleParams::ROW.signature.name;
        let len = crate::tri!(length(len, NAME, "len"));
        let t = crate::tri!(Transform::swizzle(bits, base, shift));
        t.bind(&single(len))
    }
}

super::kit::kind_defaults!(SwizzleParams: one_lower, one_upper, always_valid, recomputed);

impl SwizzleParams {
    pub(crate) const ROW: Row = Row {
        family: Family::Permutation,
        signature: sig(
            "swizzle",
            const { &[Param::int("B", 0, 62, BITS), Param::int("M", 0, 62, BITS), Param::int("S", -62, 62, SHIFT)] },
        ),
        // The ranges bound each value, so the narrowing casts are exact.
        build: |a| Transform::swizzle(a.int(0)? as u32, a.int(1)? as u32, a.int(2)? as i32),
    };
    /// A swizzle's bound length is not an argument.
    pub(crate) const fn args(&self) -> Args {
        Args::new([Arg::Int(self.bits as i64), Arg::Int(self.base as i64), Arg::Int(self.shift as i64)], 3)
    }
    pub(crate) const fn upper_lengths(&self) -> Dims {
        single(self.len)
    }
    /// Takes the dimension's length, which must be a whole number of the
    /// swizzle's blocks.
    pub(crate) const fn bind(&self, lower: &Dims) -> Result<Transform, Error> {
        let found = lower.get(0);
        let block = 1i64 << block_bits(self.bits, self.base, self.shift);
        if found % block != 0 {
            return Err(Error::SwizzleLength { len: found, block });
        }
        Ok(Transform::wrap(Params::Swizzle(SwizzleParams { len: found, ..*self })))
    }
    #[inline(always)]
    pub(crate) const fn lower_at(
        &self,
        up: &Indices,
        up_ids: &[u8; MAX_DIMS],
        low: &mut Indices,
        low_ids: &[u8; MAX_DIMS],
    ) {
        put(low, low_ids, 0, apply(at(up, up_ids, 0), self.bits, self.base, self.shift));
    }
    pub(crate) const fn is_xor_linear(&self) -> bool {
        true
    }
    /// An involution: the same formula inverts it.
    pub(crate) const fn calculate_upper(&self, low: &Indices) -> Option<Indices> {
        Some(one(apply(low[0], self.bits, self.base, self.shift)))
    }
    pub(crate) const fn lowering(&self) -> Lowering {
        lowering(self.bits, self.base, self.shift)
    }
    pub(crate) const fn upper_lowering(&self) -> Option<Lowering> {
        Some(lowering(self.bits, self.base, self.shift))
    }
    pub(crate) const fn vector(_num_lower: usize, _num_upper: usize, with: Option<i64>) -> VectorRule {
        VectorRule::Gcd { upper: 0, with }
    }
    /// Runs of `2^M` stay together.
    pub(crate) const fn vector_with(&self) -> Option<i64> {
        Some(1i64 << self.base)
    }
    /// A swizzle of the offered length with small B, M and S: one that
    /// moves something (B > 0) three times in four when the length allows
    /// one, else any valid one.
    pub(crate) fn draw(d: &mut dyn Draw) -> Option<Transform> {
        let la = d.offered();
        let mut options = [None; 3 * 3 * 7];
        let (mut n, mut moving) = (0, 0);
        for b in 0..=2u32 {
            for m in 0..=2u32 {
                for s in -3i32..=3 {
                    if let Ok(t) = Transform::swizzle_with_len(la, b, m, s) {
                        options[n] = Some((t, b > 0));
                        n += 1;
                        moving += usize::from(b > 0);
                    }
                }
            }
        }
        let only_moving = moving > 0 && d.below(4) != 0;
        let pool = if only_moving { moving } else { n };
        let pick = d.index(pool);
        options[..n].iter().flatten().filter(|(_, m)| *m || !only_moving).nth(pick).map(|(t, _)| *t)
    }
}

/// The typed form, for kernel code: its parameters as [`Value`](crate::Value)s
/// (compile-time [`Number`](crate::Number)s or runtime `usize`s) and CK
/// Tile's builder, evaluated by this module's formulas. Re-exported in
/// [`typed`](crate::typed).
pub mod typed {
    use crate::typed::forms::*;

    /// CuTe's `Swizzle<B, M, S>` (always static, as in CuTe); its length is that
    /// of the dimension it is applied to.
    ///
    /// ```
    /// use cktile_transforms::typed::{Swizzle, TypedTransform};
    /// assert_eq!(Swizzle::<3, 3, 3>.to_transform().unwrap().to_string(), "swizzle(3,3,3)");
    /// ```
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub struct Swizzle<const B: u32, const M: u32, const S: i32>;

    impl<const B: u32, const M: u32, const S: i32> TypedTransform for Swizzle<B, M, S> {
        type NumLower = U1;
        type NumUpper = U1;
        const KIND: Kind = Kind::Swizzle;
        const STATIC: Option<Result<Transform, Error>> = Some(Transform::swizzle(B, M, S));
        #[inline(always)]
        fn to_transform(self) -> Result<Transform, Error> {
            Transform::swizzle(B, M, S)
        }
        #[inline(always)]
        fn lower(&self, up: &Indices) -> Indices {
            one(super::apply(up[0], B, M, S))
        }
        #[inline(always)]
        fn is_valid(&self, _: &Indices) -> bool {
            true
        }
        /// A swizzle is as long as the dimension it is applied to.
        #[inline(always)]
        fn upper_lengths(&self, lower_lengths: &Indices) -> Indices {
            one(lower_lengths[0])
        }
        /// A swizzle's parameters are all in its type.
        const RUNTIME: usize = 0;
        #[inline(always)]
        fn write_runtime(&self, _: &mut [u64], _: usize) {}
        #[inline(always)]
        fn read_runtime(_: &[u64], _: usize) -> Self {
            Swizzle
        }
    }

    /// Builds a [`Swizzle`] (CuTe's `Swizzle<B, M, S>{}`).
    ///
    /// ```
    /// use cktile_transforms::typed::*;
    /// assert!(make_swizzle_transform::<3, 3, 3>().to_transform().is_ok());
    /// ```
    pub const fn make_swizzle_transform<const B: u32, const M: u32, const S: i32>() -> Swizzle<B, M, S> {
        Swizzle
    }
}
