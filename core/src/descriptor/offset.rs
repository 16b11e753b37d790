//! Offsets and validity: CK Tile's `calculate_offset` and
//! `coordinate_has_valid_offset`.
//!
//! Every offset is the descriptor's adaptor's one walk down
//! ([`Adaptor::lower_item`](crate::adaptor::Adaptor::lower_item), from the
//! top ids to hidden id 0): runtime descriptors run it with runtime data,
//! static descriptors ([`StaticDescriptor`](crate::StaticDescriptor),
//! through `static_offset!`) with constant data and its loops written
//! out, and `const` items evaluate it at compile time. With constant data
//! and the `#[inline(always)]` chain, the loops over transforms and ids
//! unroll and fold, leaving the transforms' own arithmetic.

use super::Descriptor;
use crate::error::{DescriptorProblem, Error};
pub(crate) use crate::stage::check_coordinate;
use cktile_transforms::{Index, Indices, MAX_DIMS};

/// Copies a coordinate into a full index array (extra entries are ignored).
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) const fn to_indices(top: &[Index]) -> Indices {
    let mut idx = [0; MAX_DIMS];
    let mut i = 0;
    while i < top.len() && i < MAX_DIMS {
        idx[i] = top[i];
        i += 1;
    }
    idx
}

/// The offset through a descriptor that is a constant expression `$d` (of
/// type `&'static Descriptor`; it may name associated constants of generic
/// parameters), for the index array `$top`: the walk of
/// [`Descriptor::calculate_offset_indices`] (the adaptor's, item by item:
/// [`Adaptor::lower_item`](crate::adaptor::Adaptor::lower_item)) with its
/// loops over stages and their transforms written out, each slot behind an
/// inline `const` test of the descriptor's shape. A slot the descriptor
/// does not have is never compiled, even without optimisation (so a debug
/// build emits code for the real transforms only, not for all
/// [`MAX_STAGES`](super::MAX_STAGES) x [`MAX_ITEMS`](super::MAX_ITEMS)
/// slots), and with optimisation every test and every transform dispatch
/// folds, leaving the transforms' arithmetic. What
/// [`StaticDescriptor`](crate::StaticDescriptor) calls.
macro_rules! static_offset {
    ($d:expr, $top:expr) => {{
        let mut hidden = $d.adaptor().placed($top);
        cktile_transforms::static_for!(const rev $d.num_stages(), |s| {
            cktile_transforms::static_for!(
                const if s < $d.num_stages() { $d.stage_end(s) - $d.stage_start(s) } else { 0 },
                |i| {
                    $d.adaptor().lower_item($d.stage_start(s) + i, &mut hidden);
                }
            );
        });
        hidden[0]
    }};
}
pub(crate) use static_offset;

impl Descriptor {
    /// The offset of a top coordinate, as CK Tile computes it: no range
    /// checks (a padded position gives its real, possibly negative, offset;
    /// a coordinate outside the lengths gives an unspecified value, never a
    /// panic). Missing trailing dimensions count as 0. Use
    /// [`try_calculate_offset`](Self::try_calculate_offset) to check.
    ///
    /// ```
    /// // CK Tile on the host: pad(5, 2, 3) over 5 elements gives -2, -1, ..., 7.
    /// use cktile_core::{Descriptor, Item};
    /// use cktile_transforms::Transform;
    /// let d = Descriptor::naive(&[5], &[1]).unwrap()
    ///     .transform(&[Item::new(Transform::pad(5, 2, 3).unwrap(), &[0], &[0]).unwrap()])
    ///     .unwrap();
    /// assert_eq!(d.calculate_offset(&[0]), -2);
    /// assert_eq!(d.calculate_offset(&[9]), 7);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn calculate_offset(&self, top: &[Index]) -> Index {
        self.calculate_offset_indices(&to_indices(top))
    }

    /// [`calculate_offset`](Self::calculate_offset) on a full index array.
    ///
    /// ```
    /// let d = cktile_core::Descriptor::packed(&[4, 8]).unwrap();
    /// assert_eq!(d.calculate_offset_indices(&[1, 2, 0, 0, 0, 0, 0, 0]), 10);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn calculate_offset_indices(&self, top: &Indices) -> Index {
        self.adaptor.hidden_index_unchecked(top)[0]
    }

    /// Checks a coordinate's arity and range.
    ///
    /// ```
    /// let d = cktile_core::Descriptor::packed(&[4, 8]).unwrap();
    /// assert!(d.check_coordinate(&[3, 7]).is_ok());
    /// assert_eq!(d.check_coordinate(&[4, 0]).unwrap_err().to_string(),
    ///            "coordinate dimension 0 is 4; it must be in [0, 4)");
    /// ```
    pub const fn check_coordinate(&self, top: &[Index]) -> Result<(), Error> {
        let lengths = self.lengths();
        if top.len() != lengths.len() {
            return Err(Error::descriptor(DescriptorProblem::CoordinateArity {
                expected: lengths.len(),
                found: top.len(),
            }));
        }
        check_coordinate(&lengths.to_array(), top)
    }

    /// The offset of a coordinate that must have the right arity and lie
    /// inside the top lengths.
    ///
    /// ```
    /// let d = cktile_core::Descriptor::packed(&[4, 8]).unwrap();
    /// assert_eq!(d.try_calculate_offset(&[1, 2]), Ok(10));
    /// assert!(d.try_calculate_offset(&[1]).is_err());
    /// ```
    pub const fn try_calculate_offset(&self, top: &[Index]) -> Result<Index, Error> {
        match self.check_coordinate(top) {
            Ok(()) => Ok(self.calculate_offset(top)),
            Err(e) => Err(e),
        }
    }

    /// CK Tile's `coordinate_has_valid_offset`: the coordinate is inside the
    /// top lengths and no pad-family transform maps it to padding.
    ///
    /// ```
    /// use cktile_core::{Descriptor, Item};
    /// use cktile_transforms::Transform;
    /// let d = Descriptor::naive(&[10], &[1]).unwrap()
    ///     .transform(&[Item::new(Transform::pad(10, 2, 3).unwrap(), &[0], &[0]).unwrap()])
    ///     .unwrap();
    /// let valid: Vec<i64> = (0..15).filter(|&i| d.coordinate_has_valid_offset(&[i])).collect();
    /// assert_eq!(valid, (2..12).collect::<Vec<_>>());
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn coordinate_has_valid_offset(&self, top: &[Index]) -> bool {
        if self.check_coordinate(top).is_err() {
            return false;
        }
        self.coordinate_has_valid_offset_assuming_top_index_is_valid(&to_indices(top))
    }

    /// The offset of a coordinate when [`coordinate_has_valid_offset`](Self::coordinate_has_valid_offset)
    /// holds, `None` otherwise: both answers from one walk down the chain
    /// (what the bank analyzer asks for every lane).
    ///
    /// ```
    /// use cktile_core::{Descriptor, Item};
    /// use cktile_transforms::Transform;
    /// let d = Descriptor::naive(&[10], &[1]).unwrap()
    ///     .transform(&[Item::new(Transform::pad(10, 2, 3).unwrap(), &[0], &[0]).unwrap()])
    ///     .unwrap();
    /// assert_eq!((d.offset_if_valid(&[1]), d.offset_if_valid(&[2]), d.offset_if_valid(&[15])), (None, Some(0), None));
    /// ```
    #[inline]
    pub const fn offset_if_valid(&self, top: &[Index]) -> Option<Index> {
        if self.check_coordinate(top).is_err() {
            return None;
        }
        self.offset_if_valid_inside(top)
    }

    /// [`offset_if_valid`](Self::offset_if_valid) for a `top` known to lie
    /// inside the lengths: the walk down, stopped at the first transform
    /// that maps it to padding.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) const fn offset_if_valid_inside(&self, top: &[Index]) -> Option<Index> {
        let mut hidden = self.adaptor.placed(top);
        let mut t = self.adaptor.num_items();
        while t > 0 {
            t -= 1;
            if !self.adaptor.lower_item(t, &mut hidden) {
                return None;
            }
        }
        Some(hidden[0])
    }

    /// CK Tile's `coordinate_has_valid_offset_assuming_top_index_is_valid`:
    /// only the pad-family checks.
    ///
    /// ```
    /// let d = cktile_core::Descriptor::packed(&[4]).unwrap();
    /// assert!(d.coordinate_has_valid_offset_assuming_top_index_is_valid(&[9, 0, 0, 0, 0, 0, 0, 0]));
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn coordinate_has_valid_offset_assuming_top_index_is_valid(&self, top: &Indices) -> bool {
        self.offset_if_valid_inside(top).is_some()
    }
}
