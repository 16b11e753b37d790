//! `xor((L0, L1))`: two upper dimensions, two lower:
//! `low0 = up0`, `low1 = up1 ^ (up0 % L1)`.
//!
//! This is CK Tile's `xor_t` since August 2024 (before that it was a
//! subtract-and-wrap, not a XOR). `L0` only sets the upper length of
//! dimension 0; `L1` must be a power of two, or the XOR leaves `[0, L1)`. The
//! transform is an involution: applying it twice gives the identity, so the
//! inverse is the same formula. Valid everywhere; a move recomputes; vector
//! length and stride pass through per dimension.
//!
//! In a descriptor it usually appears with swapped id lists
//! (`xor((M, K0)) on [1,0] -> [1,0]`), so the XORed dimension is the one the
//! descriptor lists first.

/// `up1 ^ (up0 % l1)`: the new value of dimension 1 (dimension 0 is unchanged).
///
/// ```
/// // CK Tile on a packed 8x8: row 1 is 9 8 11 10 13 12 15 14, so column 0 -> 1.
/// assert_eq!(cktile_transforms::kinds::xor::lower1(1, 0, 8), 1);
/// assert_eq!(cktile_transforms::kinds::xor::lower1(3, 2, 8), 1);
/// ```
#[inline(always)]
pub const fn lower1(up0: i64, up1: i64, l1: i64) -> i64 {
    up1 ^ super::rem(up0, l1)
}

/// The lowering: `low0 = up0`, `low1 = up1 ^ (up0 % l1)`. An involution:
/// the same lowering inverts it.
///
/// ```
/// let l = cktile_transforms::kinds::xor::lowering(8);
/// assert_eq!(&l.lower(&[3, 2])[..2], &[3, 1]);
/// ```
pub const fn lowering(l1: i64) -> crate::lowering::Lowering {
    let mut l = crate::lowering::Lowering::new(2);
    let r = l.rem(0, l1);
    let x = l.xor(1, r);
    l.output(0);
    l.output(x);
    l
}

use super::Draw;
use super::kit::{at, expect_len, length, put, two};
use crate::lowering::Lowering;
use crate::signature::{Arg, Args};
use crate::transform::table::{PAIR, Row, sig};
use crate::{Dims, Error, Family, Index, Indices, MAX_DIMS, Params, Transform, VectorRule};

/// The parameters of `xor((l0, l1))`.
///
/// ```
/// use cktile_transforms::{kinds::Xor, Params, Transform};
/// assert_eq!(Transform::xor(64, 8)?.params(), Params::Xor(Xor { l0: 64, l1: 8 }));
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Xor {
    /// Length of dimension 0.
    pub l0: Index,
    /// Length of dimension 1, a power of two.
    pub l1: Index,
}

impl Transform {
    /// `xor((l0, l1))`: `low1 = up1 ^ (up0 % l1)`; `l1` must be a power of two.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert!(Transform::xor(64, 8).is_ok());
    /// assert!(Transform::xor(64, 12).is_err());
    /// ```
    #[inline]
    pub const fn xor(l0: usize, l1: usize) -> Result<Transform, Error> {
        const NAME: &str = Xor::ROW.signature.name;
        let l0 = crate::tri!(length(l0, NAME, "L0"));
        let l1 = crate::tri!(length(l1, NAME, "L1"));
        if !(l1 as u64).is_power_of_two() {
            return Err(Error::XorNotPowerOfTwo { l1 });
        }
        Ok(Transform::wrap(Params::Xor(Xor { l0, l1 })))
    }
}

impl Xor {
    pub(crate) const ROW: Row = Row {
        family: Family::Permutation,
        signature: sig("xor", const { &[PAIR] }),
        build: |a| {
            let (l0, l1) = a.pair(0)?;
            Transform::xor(l0, l1)
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
        Ok(Transform::wrap(Params::Xor(*self)))
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
    pub(crate) const fn is_xor_linear(&self) -> bool {
        true
    }
    #[inline(always)]
    pub(crate) const fn is_valid(&self, _up0: Index) -> bool {
        true
    }
    /// An involution: the same formula inverts it.
    pub(crate) const fn calculate_upper(&self, low: &Indices) -> Option<Indices> {
        let mut up = [0; MAX_DIMS];
        up[0] = low[0];
        up[1] = lower1(low[0], low[1], self.l1);
        Some(up)
    }
    pub(crate) const fn lowering(&self) -> Lowering {
        lowering(self.l1)
    }
    pub(crate) const fn upper_lowering(&self) -> Option<Lowering> {
        Some(lowering(self.l1))
    }
    pub(crate) const fn vector(_num_lower: usize, _num_upper: usize, _with: Option<i64>) -> VectorRule {
        VectorRule::Pass { dims: 2 }
    }
    pub(crate) const fn vector_with(&self) -> Option<i64> {
        None
    }
    /// The offered dimension xored with another free one of power-of-two
    /// length; nothing when there is none.
    pub(crate) fn draw(d: &mut dyn Draw) -> Option<Transform> {
        let l1 = d.take(&|l: Index| (l as u64).is_power_of_two())?;
        Transform::xor(d.offered(), usize::try_from(l1).ok()?).ok()
    }
}
