//! `freeze(index)`: one lower dimension, no upper: the lower index is fixed
//! at `index`. A move never changes it. Not invertible (it drops a dimension).

/// The lower index, whatever the upper side.
///
/// ```
/// assert_eq!(cktile_transforms::kinds::freeze::lower(3), 3);
/// ```
#[inline(always)]
pub const fn lower(index: i64) -> i64 {
    index
}

/// The lowering: a constant (no inputs, one affine step without terms).
///
/// ```
/// let l = cktile_transforms::kinds::freeze::lowering(3);
/// assert_eq!((l.inputs(), l.lower(&[])[0]), (0, 3));
/// ```
pub const fn lowering(index: i64) -> crate::lowering::Lowering {
    let mut l = crate::lowering::Lowering::new(0);
    let s = l.affine(&[], &[], index);
    l.output(s);
    l
}
