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
