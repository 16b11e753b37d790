//! [`TopCoordinates`]: the cubecl coordinate types a descriptor's top
//! dimensions are read with, `u32` for one dimension and tuples of `u32`
//! for two to four.

use alloc::vec::Vec;
use cubecl::prelude::*;
use cubecl::std::tensor::layout::Coordinates;

/// A cubecl coordinate type with one `u32` per top dimension of a
/// descriptor.
///
/// ```
/// use cktile_cubecl::TopCoordinates;
/// assert_eq!(<(u32, u32) as TopCoordinates>::RANK, 2);
/// assert_eq!((3u32, 9u32).to_indices(), vec![3, 9]);
/// assert_eq!(<(u32, u32)>::from_lengths(&[128, 64]), (128, 64));
/// ```
pub trait TopCoordinates: Coordinates + Copy {
    /// The number of dimensions.
    const RANK: usize;

    /// The coordinates as cktile indices.
    fn to_indices(self) -> Vec<i64>;

    /// The coordinates of `lengths` (each saturated to `u32`; a layout's
    /// lengths fit it, as [`CkLayout`](crate::CkLayout) checks at compile
    /// time).
    fn from_lengths(lengths: &[i64]) -> Self;

    /// The kernel values of an expanded coordinate, one per dimension.
    fn expand_values(e: Self::ExpandType) -> Vec<NativeExpand<u32>>;

    /// `from_lengths` as kernel constants.
    fn expand_lengths(scope: &Scope, lengths: &[i64]) -> Self::ExpandType;
}

/// `l` as a `u32`, saturating.
fn length(lengths: &[i64], d: usize) -> u32 {
    lengths.get(d).map_or(0, |&l| u32::try_from(l.max(0)).unwrap_or(u32::MAX))
}

impl TopCoordinates for u32 {
    const RANK: usize = 1;

    fn to_indices(self) -> Vec<i64> {
        alloc::vec![i64::from(self)]
    }

    fn from_lengths(lengths: &[i64]) -> Self {
        length(lengths, 0)
    }

    fn expand_values(e: Self::ExpandType) -> Vec<NativeExpand<u32>> {
        alloc::vec![e]
    }

    fn expand_lengths(scope: &Scope, lengths: &[i64]) -> Self::ExpandType {
        NativeExpand::from_lit(scope, length(lengths, 0))
    }
}

/// Implements `TopCoordinates` for a tuple of `u32`s, one per index.
macro_rules! tuple_coordinates {
    ($rank:literal: $($i:tt),+) => {
        impl TopCoordinates for ($(tuple_coordinates!(@u32 $i),)+) {
            const RANK: usize = $rank;

            fn to_indices(self) -> Vec<i64> {
                alloc::vec![$(i64::from(self.$i)),+]
            }

            fn from_lengths(lengths: &[i64]) -> Self {
                ($(length(lengths, $i),)+)
            }

            fn expand_values(e: Self::ExpandType) -> Vec<NativeExpand<u32>> {
                alloc::vec![$(e.$i),+]
            }

            fn expand_lengths(scope: &Scope, lengths: &[i64]) -> Self::ExpandType {
                ($(NativeExpand::from_lit(scope, length(lengths, $i)),)+)
            }
        }
    };
    (@u32 $i:tt) => { u32 };
}

tuple_coordinates!(2: 0, 1);
tuple_coordinates!(3: 0, 1, 2);
tuple_coordinates!(4: 0, 1, 2, 3);
