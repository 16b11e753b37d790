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

pub use crate::arith::swizzle::{Fields, apply, block_bits};

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
use super::row::{Row, sig};
use crate::lowering::Lowering;
use crate::signature::{Arg, Args, Param};
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
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) const fn lower_at<const U: usize, const L: usize>(
        &self,
        up: &[Index; U],
        up_ids: &[u8; MAX_DIMS],
        low: &mut [Index; L],
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
    use crate::kinds::forms::*;

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
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn to_transform(self) -> Result<Transform, Error> {
            Transform::swizzle(B, M, S)
        }
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn lower(&self, up: &Indices) -> Indices {
            one(super::apply(up[0], B, M, S))
        }
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn is_valid(&self, _: &Indices) -> bool {
            true
        }
        /// A swizzle is as long as the dimension it is applied to.
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn upper_lengths(&self, lower_lengths: &Indices) -> Indices {
            one(lower_lengths[0])
        }
        /// A swizzle's parameters are all in its type.
        const RUNTIME: usize = 0;
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn write_runtime(&self, _: &mut [u64], _: usize) {}
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
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
