//! `cyclic_shift((L0, L1))`: two upper dimensions, two lower:
//! `low0 = up0`, `low1 = (up1 + up0) % L1`.
//!
//! CK Tile's `cyclic_shift_t` (2025), its "SwizzleT" pattern against LDS
//! bank conflicts: row `r` of an `L0 x L1` tile is rotated by `r` places,
//! so a column read touches `L1` different columns. Unlike `xor`, `L1` may
//! be any length (a rotation is a permutation of every row whatever its
//! length). `L0` only sets the upper length of dimension 0. Valid
//! everywhere; not linear (a move recomputes); vector length and stride
//! pass through per dimension, as CK's rule says. The inverse is CK's
//! `inverse_cyclic_shift_t`: `up1 = (low1 + L1 - low0 % L1) % L1`.

/// `(up1 + up0) % l1`: the new value of dimension 1 (dimension 0 is
/// unchanged). Wrapping, truncating as C.
///
/// ```
/// use cktile_transforms::kinds::cyclic_shift::lower1;
/// // Row 3 of a 4 x 6 tile: column 0 lands on 3, column 5 on 2.
/// assert_eq!((lower1(3, 0, 6), lower1(3, 5, 6)), (3, 2));
/// ```
#[inline(always)]
pub const fn lower1(up0: i64, up1: i64, l1: i64) -> i64 {
    super::rem(up1.wrapping_add(up0), l1)
}

/// The inverse: `(low1 + l1 - low0 % l1) % l1`, the column a rotated row
/// came from.
///
/// ```
/// use cktile_transforms::kinds::cyclic_shift::{lower1, upper1};
/// assert!((0..6).all(|c| upper1(3, lower1(3, c, 6), 6) == c));
/// ```
#[inline(always)]
pub const fn upper1(low0: i64, low1: i64, l1: i64) -> i64 {
    super::rem(low1.wrapping_add(l1).wrapping_sub(super::rem(low0, l1)), l1)
}

/// The lowering: `low0 = up0`, `low1 = (up1 + up0) % l1`: a sum, then a
/// remainder.
///
/// ```
/// let l = cktile_transforms::kinds::cyclic_shift::lowering(6);
/// assert_eq!(&l.lower(&[3, 5])[..2], &[3, 2]);
/// ```
pub const fn lowering(l1: i64) -> crate::lowering::Lowering {
    let mut l = crate::lowering::Lowering::new(2);
    let sum = l.affine(&[0, 1], &[1, 1], 0);
    let low1 = l.rem(sum, l1);
    l.output(0);
    l.output(low1);
    l
}

/// The inverse's lowering: `up0 = low0`,
/// `up1 = (low1 + l1 - low0 % l1) % l1`.
///
/// ```
/// let l = cktile_transforms::kinds::cyclic_shift::upper_lowering(6);
/// assert_eq!(&l.lower(&[3, 2])[..2], &[3, 5]);
/// ```
pub const fn upper_lowering(l1: i64) -> crate::lowering::Lowering {
    let mut l = crate::lowering::Lowering::new(2);
    let r = l.rem(0, l1);
    let shifted = l.affine(&[1, r], &[1, -1], l1);
    let up1 = l.rem(shifted, l1);
    l.output(0);
    l.output(up1);
    l
}

use super::Draw;
use super::kit::{at, expect_len, length, put, two};
use crate::lowering::Lowering;
use crate::signature::{Arg, Args};
use crate::transform::table::{PAIR, Row, sig};
use crate::{Dims, Error, Family, Index, Indices, MAX_DIMS, Params, Transform, VectorRule};

/// The parameters of `cyclic_shift((l0, l1))`.
///
/// ```
/// use cktile_transforms::{kinds::CyclicShift, Params, Transform};
/// assert_eq!(Transform::cyclic_shift(64, 8)?.params(), Params::CyclicShift(CyclicShift { l0: 64, l1: 8 }));
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CyclicShift {
    /// Length of dimension 0.
    pub l0: Index,
    /// Length of dimension 1, the rotation's modulus.
    pub l1: Index,
}

impl Transform {
    /// `cyclic_shift((l0, l1))`: CK Tile's `cyclic_shift_t`,
    /// `low1 = (up1 + up0) % l1` (row `up0` rotated by `up0` places); any
    /// lengths of at least 1 whose sum fits an index.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::cyclic_shift(4, 6).unwrap().to_string(), "cyclic_shift((4,6))");
    /// assert!(Transform::cyclic_shift(4, 0).is_err());
    /// ```
    #[inline]
    pub const fn cyclic_shift(l0: usize, l1: usize) -> Result<Transform, Error> {
        const NAME: &str = CyclicShift::ROW.signature.name;
        let l0 = crate::tri!(length(l0, NAME, "L0"));
        let l1 = crate::tri!(length(l1, NAME, "L1"));
        // up0 + up1 for indices inside the lengths.
        crate::tri!(super::kit::checked_sum(l0, l1, NAME));
        Ok(Transform::wrap(Params::CyclicShift(CyclicShift { l0, l1 })))
    }
}

impl CyclicShift {
    pub(crate) const ROW: Row = Row {
        family: Family::Permutation,
        signature: sig("cyclic_shift", const { &[PAIR] }),
        build: |a| {
            let (l0, l1) = a.pair(0)?;
            Transform::cyclic_shift(l0, l1)
        },
    };
    pub(crate) const fn args(&self) -> Args {
        Args::new([Arg::List(two(self.l0, self.l1)), Args::Z, Args::Z], 1)
    }
    pub(crate) const fn num_lower(&self) -> usize {
        2
    }
    pub(crate) const fn num_upper(&self) -> usize {
        2
    }
    pub(crate) const fn upper_lengths(&self) -> Dims {
        two(self.l0, self.l1)
    }
    pub(crate) const fn bind(&self, lower: &Dims) -> Result<Transform, Error> {
        let name = Self::ROW.signature.name;
        crate::tri!(expect_len(name, 0, self.l0, lower.get(0)));
        crate::tri!(expect_len(name, 1, self.l1, lower.get(1)));
        Ok(Transform::wrap(Params::CyclicShift(*self)))
    }
    #[inline(always)]
    pub(crate) const fn lower_at(
        &self,
        up: &Indices,
        up_ids: &[u8; MAX_DIMS],
        low: &mut Indices,
        low_ids: &[u8; MAX_DIMS],
    ) {
        let (u0, u1) = (at(up, up_ids, 0), at(up, up_ids, 1));
        put(low, low_ids, 0, u0);
        put(low, low_ids, 1, lower1(u0, u1, self.l1));
    }
    #[inline(always)]
    pub(crate) const fn step_at(&self, _: &Indices, _: &[u8; MAX_DIMS], _: &mut Indices, _: &[u8; MAX_DIMS]) {}
    pub(crate) const fn is_linear(&self) -> bool {
        false
    }
    /// A rotation carries: `(up1 + up0) % l1` is not a xor of bits.
    pub(crate) const fn is_xor_linear(&self) -> bool {
        false
    }
    #[inline(always)]
    pub(crate) const fn is_valid(&self, _up0: Index) -> bool {
        true
    }
    pub(crate) const fn calculate_upper(&self, low: &Indices) -> Option<Indices> {
        let mut up = [0; MAX_DIMS];
        up[0] = low[0];
        up[1] = upper1(low[0], low[1], self.l1);
        Some(up)
    }
    pub(crate) const fn lowering(&self) -> Lowering {
        lowering(self.l1)
    }
    pub(crate) const fn upper_lowering(&self) -> Option<Lowering> {
        Some(upper_lowering(self.l1))
    }
    pub(crate) const fn vector(_num_lower: usize, _num_upper: usize, _with: Option<i64>) -> VectorRule {
        VectorRule::Pass { dims: 2 }
    }
    pub(crate) const fn vector_with(&self) -> Option<i64> {
        None
    }
    /// The offered dimension's rows rotated over another free dimension of
    /// any length; nothing when no other is free.
    pub(crate) fn draw(d: &mut dyn Draw) -> Option<Transform> {
        let l1 = d.take(&|l: Index| l > 0)?;
        Transform::cyclic_shift(d.offered(), usize::try_from(l1).ok()?).ok()
    }
}
