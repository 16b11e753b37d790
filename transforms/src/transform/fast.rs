//! The runtime hot paths of [`Transform`]: its formulas and incremental step
//! on positions of whole index arrays (no intermediate arrays), for
//! cktile's stage evaluation and coordinate moves. (Compiled offset
//! programs run the transform's [`lowering`](Transform::lowering).) The semantics are those of
//! [`Transform::calculate_lower`] and [`Transform::update_lower`]; the
//! `tests` of cktile check the agreement on random chains.

use super::{Repr, Transform};
use crate::kinds::{self, cyclic_shift, freeze, modulo, offset, pad, pass_through, slice, swizzle, xor};
use crate::{Index, Indices, MAX_DIMS};

// The `*_at` methods mask ids with `MAX_DIMS - 1`.
const _: () = assert!(MAX_DIMS.is_power_of_two());

/// The forward formulas of [`Transform::lower_at`]: `$up!(j)` reads upper
/// value `j`, `$low!(j, v)` writes lower value `j`. Every upper value is
/// read before the first lower value is written.
macro_rules! lower_body {
    ($t:expr, $up:ident, $low:ident) => {
        match &$t.repr {
            Repr::PassThrough { .. } | Repr::RightPad { .. } => $low!(0, pass_through::lower($up!(0))),
            Repr::Pad { left, .. } | Repr::LeftPad { left, .. } => $low!(0, pad::lower($up!(0), *left)),
            Repr::Embed { coefficients, lengths } => {
                let c = coefficients.slots();
                let mut sum: Index = 0;
                let mut j = 0;
                while j < lengths.len() && j < MAX_DIMS {
                    sum = sum.wrapping_add($up!(j).wrapping_mul(c[j]));
                    j += 1;
                }
                $low!(0, sum);
            }
            Repr::Merge { lengths } => {
                let l = lengths.slots();
                let mut t = $up!(0);
                let mut i = lengths.len();
                while i > 1 && i <= MAX_DIMS {
                    i -= 1;
                    $low!(i, kinds::rem(t, l[i]));
                    t = kinds::div(t, l[i]);
                }
                $low!(0, t);
            }
            Repr::Unmerge { lengths } => {
                let l = lengths.slots();
                let mut acc: Index = 0;
                let mut j = 0;
                while j < lengths.len() && j < MAX_DIMS {
                    acc = acc.wrapping_mul(l[j]).wrapping_add($up!(j));
                    j += 1;
                }
                $low!(0, acc);
            }
            Repr::Xor { l1, .. } => {
                let (u0, u1) = ($up!(0), $up!(1));
                $low!(0, u0);
                $low!(1, xor::lower1(u0, u1, *l1));
            }
            Repr::CyclicShift { l1, .. } => {
                let (u0, u1) = ($up!(0), $up!(1));
                $low!(0, u0);
                $low!(1, cyclic_shift::lower1(u0, u1, *l1));
            }
            Repr::Slice { begin, .. } => $low!(0, slice::lower($up!(0), *begin)),
            Repr::Freeze { index } => $low!(0, freeze::lower(*index)),
            Repr::Insert { .. } | Repr::Replicate { .. } => {}
            Repr::Offset { offset, .. } => $low!(0, offset::lower($up!(0), *offset)),
            Repr::Modulo { modulus, .. } => $low!(0, modulo::lower($up!(0), *modulus)),
            Repr::Swizzle { bits, base, shift, .. } => $low!(0, swizzle::apply($up!(0), *bits, *base, *shift)),
        }
    };
}

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
    #[inline(always)]
    pub const fn lower_at(
        &self,
        upper: &Indices,
        up_ids: &[u8; MAX_DIMS],
        lower: &mut Indices,
        low_ids: &[u8; MAX_DIMS],
    ) {
        macro_rules! up {
            ($j:expr) => {
                upper[up_ids[$j] as usize & (MAX_DIMS - 1)]
            };
        }
        macro_rules! low {
            ($j:expr, $v:expr) => {
                lower[low_ids[$j] as usize & (MAX_DIMS - 1)] = $v
            };
        }
        lower_body!(self, up, low);
    }

    /// [`is_valid_upper`](Self::is_valid_upper) reading the upper index at
    /// `upper[up_id]` (only the pad family reads it; `N` must be a power of
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
    #[inline(always)]
    pub const fn is_valid_upper_at<const N: usize>(&self, upper: &[Index; N], up_id: u8) -> bool {
        let u0 = upper[up_id as usize & (N - 1)];
        match self.repr {
            Repr::Pad { len, left, .. } | Repr::LeftPad { len, left } => pad::is_valid(u0, len, left),
            Repr::RightPad { len, .. } => pad::is_valid(u0, len, 0),
            _ => true,
        }
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
    #[inline(always)]
    pub const fn step_at(
        &self,
        diff_up: &Indices,
        up_ids: &[u8; MAX_DIMS],
        diff_low: &mut Indices,
        low_ids: &[u8; MAX_DIMS],
    ) {
        const M: usize = MAX_DIMS - 1;
        let l0 = low_ids[0] as usize & M;
        match &self.repr {
            Repr::PassThrough { .. }
            | Repr::RightPad { .. }
            | Repr::Pad { .. }
            | Repr::LeftPad { .. }
            | Repr::Slice { .. }
            | Repr::Offset { .. } => diff_low[l0] = diff_up[up_ids[0] as usize & M],
            Repr::Embed { coefficients, lengths } => {
                let c = coefficients.slots();
                let mut sum: Index = 0;
                let mut j = 0;
                while j < lengths.len() && j < MAX_DIMS {
                    sum = sum.wrapping_add(diff_up[up_ids[j] as usize & M].wrapping_mul(c[j]));
                    j += 1;
                }
                diff_low[l0] = sum;
            }
            Repr::Unmerge { lengths } => {
                let l = lengths.slots();
                let mut acc: Index = 0;
                let mut j = 0;
                while j < lengths.len() && j < MAX_DIMS {
                    acc = acc.wrapping_mul(l[j]).wrapping_add(diff_up[up_ids[j] as usize & M]);
                    j += 1;
                }
                diff_low[l0] = acc;
            }
            Repr::Freeze { .. } => diff_low[l0] = 0,
            Repr::Insert { .. }
            | Repr::Replicate { .. }
            | Repr::Merge { .. }
            | Repr::Xor { .. }
            | Repr::CyclicShift { .. }
            | Repr::Modulo { .. }
            | Repr::Swizzle { .. } => {}
        }
    }
}
