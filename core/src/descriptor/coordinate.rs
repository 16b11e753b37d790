//! Tensor coordinates: CK Tile's `make_tensor_coordinate` and
//! `move_tensor_coordinate`.
//!
//! A coordinate keeps the index at every level of the chain (CK's hidden
//! index), so a move updates each stage incrementally: linear transforms add
//! the transformed step, the others recompute, and stages whose step is zero
//! are skipped. A moved coordinate always equals a fresh one.

use super::offset::to_indices;
use super::{Descriptor, MAX_STAGES};
use cktile_transforms::{Index, Indices, MAX_DIMS};

/// A top coordinate with the index at every level of its descriptor's chain.
///
/// ```
/// use cktile_core::{make_tensor_coordinate, move_tensor_coordinate, Descriptor};
/// let d = Descriptor::packed(&[4, 8]).unwrap();
/// let mut c = make_tensor_coordinate(&d, &[1, 2]);
/// move_tensor_coordinate(&d, &mut c, &[1, 3]);
/// assert_eq!((c.top()[..2].to_vec(), c.offset()), (vec![2, 5], 21));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TensorCoordinate {
    /// `levels[k]` is the lower side of stage `k`; `levels[n]` is the top.
    levels: [Indices; MAX_STAGES + 1],
    n_stages: u8,
}

impl TensorCoordinate {
    /// The top index.
    ///
    /// ```
    /// let d = cktile_core::Descriptor::packed(&[4, 8]).unwrap();
    /// assert_eq!(cktile_core::make_tensor_coordinate(&d, &[3, 1]).top()[..2], [3, 1]);
    /// ```
    pub const fn top(&self) -> &Indices {
        &self.levels[self.n_stages as usize % (MAX_STAGES + 1)]
    }

    /// The offset (the bottom index).
    ///
    /// ```
    /// let d = cktile_core::Descriptor::packed(&[4, 8]).unwrap();
    /// assert_eq!(cktile_core::make_tensor_coordinate(&d, &[3, 1]).offset(), 25);
    /// ```
    pub const fn offset(&self) -> Index {
        self.levels[0][0]
    }

    /// The index at level `k` (0 is the bottom, `stages().len()` the top).
    ///
    /// ```
    /// let d = cktile_core::Descriptor::packed(&[4, 8]).unwrap();
    /// assert_eq!(cktile_core::make_tensor_coordinate(&d, &[3, 1]).level(0)[0], 25);
    /// ```
    pub const fn level(&self, k: usize) -> &Indices {
        &self.levels[k % (MAX_STAGES + 1)]
    }
}

/// CK Tile's `make_tensor_coordinate`: the coordinate of a top index.
///
/// ```
/// let d = cktile_core::Descriptor::naive(&[4, 8], &[100, 1]).unwrap();
/// assert_eq!(cktile_core::make_tensor_coordinate(&d, &[2, 5]).offset(), 205);
/// ```
pub const fn make_tensor_coordinate(desc: &Descriptor, top: &[Index]) -> TensorCoordinate {
    let stages = desc.stages();
    let n = stages.len();
    let mut levels = [[0; MAX_DIMS]; MAX_STAGES + 1];
    levels[n] = to_indices(top);
    let mut s = n;
    while s > 0 {
        s -= 1;
        levels[s] = stages[s].lower(&levels[s + 1]);
    }
    TensorCoordinate { levels, n_stages: n as u8 }
}

/// CK Tile's `move_tensor_coordinate`: moves `coord` by `step` on the top
/// dimensions, updating each level incrementally. Returns the offset step.
///
/// ```
/// use cktile_core::{make_tensor_coordinate, move_tensor_coordinate, Descriptor};
/// let d = Descriptor::packed(&[4, 8]).unwrap();
/// let mut c = make_tensor_coordinate(&d, &[0, 7]);
/// assert_eq!(move_tensor_coordinate(&d, &mut c, &[0, -7]), -7);
/// ```
pub const fn move_tensor_coordinate(desc: &Descriptor, coord: &mut TensorCoordinate, step: &[Index]) -> Index {
    let stages = desc.stages();
    let n = stages.len();
    let mut diff = to_indices(step);
    let mut i = 0;
    while i < MAX_DIMS {
        coord.levels[n][i] = coord.levels[n][i].wrapping_add(diff[i]);
        i += 1;
    }
    let mut s = n;
    while s > 0 {
        s -= 1;
        let (below, above) = coord.levels.split_at_mut(s + 1);
        diff = stages[s].update(&diff, &mut below[s], &above[0]);
    }
    diff[0]
}

/// CK Tile's `coordinate_has_valid_offset` for a coordinate object.
///
/// ```
/// let d = cktile_core::Descriptor::packed(&[4, 8]).unwrap();
/// let c = cktile_core::make_tensor_coordinate(&d, &[3, 7]);
/// assert!(cktile_core::coordinate_has_valid_offset(&d, &c));
/// ```
pub const fn coordinate_has_valid_offset(desc: &Descriptor, coord: &TensorCoordinate) -> bool {
    desc.coordinate_has_valid_offset(coord.top().split_at(desc.num_dims() % (MAX_DIMS + 1)).0)
}
