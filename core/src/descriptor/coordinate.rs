//! Tensor coordinates at run time: CK Tile's `make_tensor_coordinate`,
//! `move_tensor_coordinate` and `coordinate_has_valid_offset` over a
//! runtime [`Descriptor`], as [`Coordinate`]'s `new`, `move_by` and
//! `has_valid_offset` (the typed forms keep CK's names: `typed::TensorCoordinate`,
//! `typed::make_tensor_coordinate`, ...).
//!
//! A coordinate keeps the index at every level of the chain (CK's hidden
//! index), so a move updates each stage incrementally: linear transforms add
//! the transformed step, the others recompute, and stages whose step is zero
//! are skipped. A moved coordinate always equals a fresh one.

use super::offset::to_indices;
use super::{Descriptor, MAX_STAGES};
use cktile_transforms::{Index, Indices, MAX_DIMS};

/// A top coordinate with the index at every level of its descriptor's
/// chain: CK Tile's `tensor_coordinate` over a runtime [`Descriptor`].
///
/// ```
/// use cktile_core::{Coordinate, Descriptor};
/// let d = Descriptor::packed(&[4, 8]).unwrap();
/// let mut c = Coordinate::new(&d, &[1, 2]);
/// c.move_by(&d, &[1, 3]);
/// assert_eq!((c.top()[..2].to_vec(), c.offset()), (vec![2, 5], 21));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Coordinate {
    /// `levels[k]` is the lower side of stage `k`; `levels[n]` is the top.
    levels: [Indices; MAX_STAGES + 1],
    n_stages: u8,
}

impl Coordinate {
    /// CK Tile's `make_tensor_coordinate`: the coordinate of a top index
    /// (its dimensions past `desc`'s are ignored, missing ones are 0).
    ///
    /// ```
    /// let d = cktile_core::Descriptor::naive(&[4, 8], &[100, 1]).unwrap();
    /// assert_eq!(cktile_core::Coordinate::new(&d, &[2, 5]).offset(), 205);
    /// ```
    pub const fn new(desc: &Descriptor, top: &[Index]) -> Coordinate {
        let stages = desc.stages();
        let n = stages.len();
        let mut levels = [[0; MAX_DIMS]; MAX_STAGES + 1];
        levels[n] = to_indices(top);
        let mut s = n;
        while s > 0 {
            s -= 1;
            levels[s] = stages[s].lower(&levels[s + 1]);
        }
        Coordinate { levels, n_stages: n as u8 }
    }

    /// CK Tile's `move_tensor_coordinate`: moves the coordinate by `step`
    /// on the top dimensions of `desc` (the descriptor it was made for),
    /// updating each level incrementally. Returns the offset's change.
    ///
    /// ```
    /// use cktile_core::{Coordinate, Descriptor};
    /// let d = Descriptor::packed(&[4, 8]).unwrap();
    /// let mut c = Coordinate::new(&d, &[0, 7]);
    /// assert_eq!(c.move_by(&d, &[0, -7]), -7);
    /// ```
    pub const fn move_by(&mut self, desc: &Descriptor, step: &[Index]) -> Index {
        let stages = desc.stages();
        let n = stages.len() % (MAX_STAGES + 1);
        let mut diff = to_indices(step);
        let mut i = 0;
        while i < MAX_DIMS {
            self.levels[n][i] = self.levels[n][i].wrapping_add(diff[i]);
            i += 1;
        }
        let mut s = n;
        while s > 0 {
            s -= 1;
            let (below, above) = self.levels.split_at_mut(s + 1);
            diff = stages[s].update(&diff, &mut below[s], &above[0]);
        }
        diff[0]
    }

    /// CK Tile's `coordinate_has_valid_offset` for a coordinate object of
    /// `desc`: its top index lies inside the lengths and no pad rejects it.
    ///
    /// ```
    /// let d = cktile_core::Descriptor::packed(&[4, 8]).unwrap();
    /// assert!(cktile_core::Coordinate::new(&d, &[3, 7]).has_valid_offset(&d));
    /// assert!(!cktile_core::Coordinate::new(&d, &[4, 0]).has_valid_offset(&d));
    /// ```
    pub const fn has_valid_offset(&self, desc: &Descriptor) -> bool {
        desc.coordinate_has_valid_offset(self.top().split_at(desc.num_dims() % (MAX_DIMS + 1)).0)
    }

    /// The top index.
    ///
    /// ```
    /// let d = cktile_core::Descriptor::packed(&[4, 8]).unwrap();
    /// assert_eq!(cktile_core::Coordinate::new(&d, &[3, 1]).top()[..2], [3, 1]);
    /// ```
    pub const fn top(&self) -> &Indices {
        &self.levels[self.n_stages as usize % (MAX_STAGES + 1)]
    }

    /// The offset (the bottom index).
    ///
    /// ```
    /// let d = cktile_core::Descriptor::packed(&[4, 8]).unwrap();
    /// assert_eq!(cktile_core::Coordinate::new(&d, &[3, 1]).offset(), 25);
    /// ```
    pub const fn offset(&self) -> Index {
        self.levels[0][0]
    }

    /// The index at level `k` (0 is the bottom, `stages().len()` the top).
    ///
    /// ```
    /// let d = cktile_core::Descriptor::packed(&[4, 8]).unwrap();
    /// assert_eq!(cktile_core::Coordinate::new(&d, &[3, 1]).level(0)[0], 25);
    /// ```
    pub const fn level(&self, k: usize) -> &Indices {
        &self.levels[k % (MAX_STAGES + 1)]
    }
}
