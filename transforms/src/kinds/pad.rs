//! `pad(len, left, right)`, `left_pad(len, left)`, `right_pad(len, right)`.
//!
//! The upper dimension is the lower one with `left` extra indices before and
//! `right` after: `up_len = len + left + right`, `low = up - left`. Padded
//! positions still get an offset (negative on the left, as in CK Tile), but
//! are not *valid*: `coordinate_has_valid_offset` is false there.
//!
//! CK Tile differences, kept for exactness or fixed where CK is broken:
//! - All three pass vector information through, as current CK Tile
//!   (rocm-libraries) does: `pad` "simply shifts the index", so the stride
//!   is unchanged. (Older CK Tile gave `pad` its base class's default,
//!   nothing; cktile followed that until CK changed.)
//! - CK Tile's `left_pad` cannot be used in `transform_tensor_descriptor`
//!   (it lacks `base_transform`, a compile error). In cktile it composes like
//!   every other transform.

/// `low = up - left` (for `pad` and `left_pad`; `right_pad` has `left = 0`).
///
/// ```
/// // CK Tile's test: pad(10, 2, 3) maps upper 2 to 0 and 11 to 9.
/// use cktile_transforms::kinds::pad::lower;
/// assert_eq!((lower(2, 2), lower(11, 2)), (0, 9));
/// ```
#[inline(always)]
pub const fn lower(up: i64, left: i64) -> i64 {
    up.wrapping_sub(left)
}

/// Inverse: `up = low + left`.
///
/// ```
/// assert_eq!(cktile_transforms::kinds::pad::upper(0, 2), 2);
/// ```
#[inline(always)]
pub const fn upper(low: i64, left: i64) -> i64 {
    low.wrapping_add(left)
}

/// Whether `up` is a real (non-padded) position: `left <= up < len + left`.
///
/// ```
/// // pad(10, 2, 3): valid for [2, 11].
/// use cktile_transforms::kinds::pad::is_valid;
/// assert!(!is_valid(1, 10, 2) && is_valid(2, 10, 2) && is_valid(11, 10, 2) && !is_valid(12, 10, 2));
/// ```
#[inline(always)]
pub const fn is_valid(up: i64, len: i64, left: i64) -> bool {
    up >= left && up.wrapping_sub(left) < len
}

/// The upper length: `len + left + right` (`left_pad` has `right = 0`,
/// `right_pad` `left = 0`; the sum is checked when the transform is built).
///
/// ```
/// assert_eq!(cktile_transforms::kinds::pad::upper_length(10, 2, 3), 15);
/// ```
#[inline(always)]
pub const fn upper_length(len: i64, left: i64, right: i64) -> i64 {
    len.wrapping_add(left).wrapping_add(right)
}

/// The lowering of `pad`/`left_pad`/`right_pad` (`right_pad` has
/// `left = 0`): `low = up - left`, valid for `left <= up < left + len`.
/// A right pad is a pass-through with a test.
///
/// ```
/// use cktile_transforms::kinds::pad::lowering;
/// let l = lowering(10, 2);
/// assert_eq!((l.lower(&[2])[0], l.is_valid(&[1]), l.is_valid(&[11])), (0, false, true));
/// assert!(lowering(10, 0).steps().is_empty());
/// ```
pub const fn lowering(len: i64, left: i64) -> crate::lowering::Lowering {
    let mut l = super::offset::lowering(left.wrapping_neg());
    l.set_check(0, left, left.wrapping_add(len));
    l
}

/// The inverse's lowering: `up = low + left`.
///
/// ```
/// assert_eq!(cktile_transforms::kinds::pad::upper_lowering(2).lower(&[0])[0], 2);
/// ```
pub const fn upper_lowering(left: i64) -> crate::lowering::Lowering {
    super::offset::lowering(left)
}
