//! [`StaticDescriptor`]: a descriptor that is a compile-time constant, with
//! offsets that fold to the transforms' arithmetic.

use super::Descriptor;
use super::offset::to_indices;
use crate::Index;

/// A descriptor known at compile time: implement it with a `const`
/// [`Descriptor`] (built by the `const fn` constructors, so an invalid one
/// fails to compile), and its offsets for runtime coordinates compile to
/// straight-line integer arithmetic with every shape folded in.
///
/// ```
/// use cktile_core::{Descriptor, Item, StaticDescriptor, Transform};
///
/// /// A 64x64 fp16 tile padded by 8 elements per row.
/// struct Padded;
/// impl StaticDescriptor for Padded {
///     const DESCRIPTOR: Descriptor = match Descriptor::naive(&[64, 64], &[72, 1]) {
///         Ok(d) => d,
///         Err(e) => panic!("{}", e.summary()),
///     };
/// }
/// assert_eq!(Padded::calculate_offset(&[2, 3]), 147);
/// const AT_1_1: i64 = Padded::DESCRIPTOR.calculate_offset(&[1, 1]);
/// assert_eq!(AT_1_1, 73);
/// ```
pub trait StaticDescriptor {
    /// The descriptor.
    const DESCRIPTOR: Descriptor;

    /// The descriptor as a `'static` reference (what evaluation reads).
    const REFERENCE: &'static Descriptor = &Self::DESCRIPTOR;

    /// The offset of a top coordinate, [`Descriptor::calculate_offset`]'s
    /// walk with its loops written out over constant data, only for the
    /// stages and items the descriptor has: every test and transform
    /// dispatch folds, leaving the transforms' arithmetic.
    ///
    /// ```
    /// use cktile_core::{Descriptor, StaticDescriptor};
    /// struct Tile;
    /// impl StaticDescriptor for Tile {
    ///     const DESCRIPTOR: Descriptor = match Descriptor::packed(&[4, 8]) {
    ///         Ok(d) => d,
    ///         Err(e) => panic!("{}", e.summary()),
    ///     };
    /// }
    /// assert_eq!(Tile::calculate_offset(&[3, 7]), 31);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn calculate_offset(top: &[Index]) -> Index {
        super::offset::static_offset!(Self::REFERENCE, &to_indices(top))
    }
}
