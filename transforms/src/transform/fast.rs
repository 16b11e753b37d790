//! The runtime hot paths of [`Transform`]: its formulas and incremental step
//! on positions of whole index arrays (no intermediate arrays), for
//! cktile's stage evaluation and coordinate moves. (Compiled offset
//! programs run the transform's [`lowering`](Transform::lowering).) The semantics are those of
//! [`Transform::calculate_lower`] and [`Transform::update_lower`]; the
//! `tests` of cktile check the agreement on random chains.

use super::Transform;
use crate::kinds::each_kind;
use crate::{Index, MAX_DIMS};

impl Transform {
    /// [`calculate_lower`](Self::calculate_lower) on positions of whole index
    /// arrays, the form a descriptor's stage evaluates: reads upper value `j`
    /// at `upper[up_ids[j]]` and writes lower value `j` to
    /// `lower[low_ids[j]]`. Same result as gathering, calling
    /// `calculate_lower` and scattering, without the intermediate arrays (the
    /// runtime descriptor's hot path). Ids are taken modulo [`MAX_DIMS`].
    ///
    /// ```
    /// # use cktile_transforms::{Transform, MAX_DIMS};
    /// // merge((4, 8)) reading upper position 2, writing lower positions 1 and 0.
    /// let m = Transform::merge(&[4, 8]).unwrap();
    /// let mut upper = [0; MAX_DIMS];
    /// upper[2] = 29;
    /// let mut lower = [0; MAX_DIMS];
    /// m.lower_at(&upper, &[2, 0, 0, 0, 0, 0, 0, 0], &mut lower, &[1, 0, 0, 0, 0, 0, 0, 0]);
    /// assert_eq!(&lower[..2], &[5, 3]);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn lower_at<const U: usize, const L: usize>(
        &self,
        upper: &[Index; U],
        up_ids: &[u8; MAX_DIMS],
        lower: &mut [Index; L],
        low_ids: &[u8; MAX_DIMS],
    ) {
        each_kind!(&self.repr, k => k.lower_at(upper, up_ids, lower, low_ids))
    }

    /// [`is_valid_upper`](Self::is_valid_upper) reading the upper index at
    /// `upper[up_id]` (only the pad family reads it, in its kind's `is_valid`; `N` must be a power of
    /// two, the id is taken modulo `N`).
    ///
    /// ```
    /// # use cktile_transforms::{Transform, MAX_DIMS};
    /// let p = Transform::pad(10, 2, 3).unwrap();
    /// let mut upper = [0; MAX_DIMS];
    /// upper[3] = 1;
    /// assert!(!p.is_valid_upper_at(&upper, 3));
    /// upper[3] = 2;
    /// assert!(p.is_valid_upper_at(&upper, 3));
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn is_valid_upper_at<const N: usize>(&self, upper: &[Index; N], up_id: u8) -> bool {
        let u0 = upper[up_id as usize & (N - 1)];
        each_kind!(&self.repr, k => k.is_valid(u0))
    }

    /// True when the transform maps its one upper index to its one lower
    /// index unchanged over its whole range, with no invalid positions:
    /// when its [`lowering`](Self::lowering) outputs its input as it is
    /// and checks nothing. `pass_through`, a one-length `merge` or
    /// `unmerge`, an `embed` of one dimension with coefficient 1, and a
    /// zero `offset` or a `slice` from 0 are; right padding keeps the
    /// value too, but has invalid positions.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert!(Transform::pass_through(8).unwrap().is_identity());
    /// assert!(Transform::unmerge(&[512]).unwrap().is_identity());
    /// assert!(Transform::offset(8, 0).unwrap().is_identity());
    /// assert!(!Transform::unmerge(&[8, 64]).unwrap().is_identity());
    /// assert!(!Transform::right_pad(8, 1).unwrap().is_identity());
    /// ```
    pub const fn is_identity(&self) -> bool {
        let l = self.lowering();
        matches!(l.outputs(), [0]) && l.inputs() == 1 && l.check().is_none()
    }

    /// The linear part of a linear transform ([`is_linear`](Self::is_linear))
    /// on positions of whole index arrays: for an upper step read at
    /// `diff_up[up_ids[j]]`, writes the lower step to `diff_low[low_ids[j]]`
    /// (what [`update_lower`](Self::update_lower) adds, without computing the
    /// formula twice). Writes nothing for a transform that is not linear.
    ///
    /// ```
    /// # use cktile_transforms::{Transform, MAX_DIMS};
    /// let e = Transform::embed(&[4, 8], &[8, 1]).unwrap();
    /// let mut step = [0; MAX_DIMS];
    /// step[3] = 1; // dimension 0 of the embed reads position 3
    /// let mut diff = [0; MAX_DIMS];
    /// e.step_at(&step, &[3, 0, 0, 0, 0, 0, 0, 0], &mut diff, &[5, 0, 0, 0, 0, 0, 0, 0]);
    /// assert_eq!(diff[5], 8);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn step_at<const U: usize, const L: usize>(
        &self,
        diff_up: &[Index; U],
        up_ids: &[u8; MAX_DIMS],
        diff_low: &mut [Index; L],
        low_ids: &[u8; MAX_DIMS],
    ) {
        each_kind!(&self.repr, k => k.step_at(diff_up, up_ids, diff_low, low_ids))
    }
}
