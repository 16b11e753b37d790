//! `slice(len, begin, end)`: the upper dimension is `[begin, end)` of the
//! lower one: `up_len = end - begin`, `low = up + begin`.
//!
//! Valid everywhere (CK Tile checks no bounds), linear, no vector information.

/// `low = up + begin`.
///
/// ```
/// assert_eq!(cktile_transforms::kinds::slice::lower(0, 3), 3);
/// ```
#[inline(always)]
pub const fn lower(up: i64, begin: i64) -> i64 {
    up.wrapping_add(begin)
}

/// The upper length: `end - begin`.
///
/// ```
/// assert_eq!(cktile_transforms::kinds::slice::upper_length(2, 5), 3);
/// ```
#[inline(always)]
pub const fn upper_length(begin: i64, end: i64) -> i64 {
    end.wrapping_sub(begin)
}

/// The lowering: `low = up + begin`; the inverse is
/// [`offset::lowering`](super::offset::lowering)`(-begin)`.
///
/// ```
/// assert_eq!(cktile_transforms::kinds::slice::lowering(3).lower(&[0])[0], 3);
/// ```
pub const fn lowering(begin: i64) -> crate::lowering::Lowering {
    super::offset::lowering(begin)
}
