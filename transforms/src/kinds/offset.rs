//! `offset(len, off)`: `low = up + off`, upper length `len`.
//!
//! `make_naive_tensor_descriptor_with_offset` puts one below its embed. Linear,
//! valid everywhere, no vector information; inverse `up = low - off`.

/// `low = up + off`.
///
/// ```
/// assert_eq!(cktile_transforms::kinds::offset::lower(4, 100), 104);
/// ```
#[inline(always)]
pub const fn lower(up: i64, off: i64) -> i64 {
    up.wrapping_add(off)
}
