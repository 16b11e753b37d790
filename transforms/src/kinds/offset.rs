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

/// The lowering of `low = up + off` (also `slice`'s, with its `begin`, and
/// every inverse that subtracts): one affine step, none for `off = 0`.
///
/// ```
/// let l = cktile_transforms::kinds::offset::lowering(100);
/// assert_eq!(l.lower(&[4])[0], 104);
/// assert!(cktile_transforms::kinds::offset::lowering(0).steps().is_empty());
/// ```
pub const fn lowering(off: i64) -> crate::lowering::Lowering {
    // (`off = 0` is a lone unit term: the builder keeps it as the input.)
    let mut l = crate::lowering::Lowering::new(1);
    let s = l.affine(&[0], &[1], off);
    l.output(s);
    l
}
