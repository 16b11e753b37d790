//! [`Error`]: why a descriptor cannot be a cubecl layout.

use core::fmt;

/// Why [`DescriptorLayout::new`](crate::DescriptorLayout::new) refused a
/// descriptor. (A [`CkLayout`](crate::CkLayout) refuses the same things at
/// compile time.)
///
/// ```
/// use cktile_cubecl::{DescriptorLayout, Error};
/// let d = cktile_core::Descriptor::packed(&[4, 8, 2])?;
/// let e = DescriptorLayout::<(u32, u32)>::new(d).unwrap_err();
/// assert_eq!(e, Error::Rank { descriptor: 3, coordinates: 2 });
/// assert_eq!(e.to_string(), "the descriptor has 3 top dimensions, the coordinates 2: use u32 for one, a tuple of u32 for two to four");
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// The coordinate type has another number of dimensions.
    Rank {
        /// The descriptor's top dimensions.
        descriptor: usize,
        /// The coordinate type's.
        coordinates: usize,
    },
    /// A value of the offset computation fits no 32-bit index.
    Range {
        /// The smallest value.
        low: i128,
        /// The largest value.
        high: i128,
    },
    /// The layout has bank conflicts under a [`Check`](crate::Check).
    Conflicts {
        /// The chip.
        chip: &'static str,
        /// Cycles lost to conflicts.
        conflict_cycles: u32,
        /// Cycles in all.
        cycles: u32,
        /// The most words one bank serves in one phase.
        max_ways: u32,
    },
    /// The check's access does not fit the layout or the chip.
    Analysis(cktile_analysis::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Rank { descriptor, coordinates } => write!(
                f,
                "the descriptor has {descriptor} top dimensions, the coordinates {coordinates}: use u32 for one, a tuple of u32 for two to four"
            ),
            Error::Range { low, high } => write!(
                f,
                "the offset computation reaches values from {low} to {high}, beyond a 32-bit index (0..=4294967295 unsigned, or -2147483648..=2147483647)"
            ),
            Error::Conflicts { chip, conflict_cycles, cycles, max_ways } => write!(
                f,
                "the layout has bank conflicts on {chip}: {conflict_cycles} extra cycles over {cycles}, {max_ways}-way at worst; a conflict-free layout has 0"
            ),
            Error::Analysis(e) => write!(f, "the bank check cannot run: {e}"),
        }
    }
}

impl std::error::Error for Error {}
