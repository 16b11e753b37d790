//! Tensor coordinates at run time: CK Tile's `make_tensor_coordinate`,
//! `move_tensor_coordinate` and `coordinate_has_valid_offset` over a
//! runtime [`Descriptor`], as [`Coordinate`]'s `new`, `move_by` and
//! `has_valid_offset` (the typed forms keep CK's names: `typed::TensorCoordinate`,
//! `typed::make_tensor_coordinate`, ...).
//!
//! A coordinate keeps the index at every level of the chain (CK's hidden
//! index), so a move updates each transform incrementally: linear transforms
//! add the transformed step, the others recompute, and transforms whose step
//! is zero are skipped. A moved coordinate always equals a fresh one.

use super::{Descriptor, MAX_STAGES};
use crate::adaptor::{Hidden, MAX_HIDDEN};
use cktile_transforms::{Index, Indices, MAX_DIMS};

/// A top coordinate with the index at every level of its descriptor's
/// chain: CK Tile's `tensor_coordinate` over a runtime [`Descriptor`], its
/// whole hidden index ([`Hidden`]).
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
    hidden: Hidden,
    /// Where each level's ids start, and one past the top's (level `k`'s
    /// ids are `bounds[k]..bounds[k + 1]`).
    bounds: [u8; MAX_STAGES + 2],
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
        let n = desc.num_stages();
        let mut bounds = [0u8; MAX_STAGES + 2];
        let mut k = 0;
        while k <= n && k <= MAX_STAGES {
            let (first, count) = desc.level(k);
            bounds[k] = first as u8;
            bounds[k + 1] = (first + count) as u8;
            k += 1;
        }
        Coordinate { hidden: desc.adaptor().hidden_index_unchecked(top), bounds, n_stages: n as u8 }
    }

    /// CK Tile's `move_tensor_coordinate`: moves the coordinate by `step`
    /// on the top dimensions of `desc` (the descriptor it was made for),
    /// updating the hidden index transform by transform, as CK does
    /// ([`Adaptor::move_item`](crate::adaptor::Adaptor::move_item)).
    /// Returns the offset's change.
    ///
    /// ```
    /// use cktile_core::{Coordinate, Descriptor};
    /// let d = Descriptor::packed(&[4, 8]).unwrap();
    /// let mut c = Coordinate::new(&d, &[0, 7]);
    /// assert_eq!(c.move_by(&d, &[0, -7]), -7);
    /// ```
    pub const fn move_by(&mut self, desc: &Descriptor, step: &[Index]) -> Index {
        let adaptor = desc.adaptor();
        let top = adaptor.top_ids();
        let mut diff = [0 as Index; MAX_HIDDEN];
        let mut k = 0;
        while k < top.len() && k < step.len() {
            let id = top.get(k) % MAX_HIDDEN;
            diff[id] = step[k];
            self.hidden[id] = self.hidden[id].wrapping_add(step[k]);
            k += 1;
        }
        let mut t = adaptor.num_items();
        while t > 0 {
            t -= 1;
            adaptor.move_item(t, &mut self.hidden, &mut diff);
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
        let top = self.top();
        desc.coordinate_has_valid_offset(top.split_at(desc.num_dims() % (MAX_DIMS + 1)).0)
    }

    /// The top index.
    ///
    /// ```
    /// let d = cktile_core::Descriptor::packed(&[4, 8]).unwrap();
    /// assert_eq!(cktile_core::Coordinate::new(&d, &[3, 1]).top()[..2], [3, 1]);
    /// ```
    pub const fn top(&self) -> Indices {
        self.level(self.n_stages as usize)
    }

    /// The offset (the bottom index).
    ///
    /// ```
    /// let d = cktile_core::Descriptor::packed(&[4, 8]).unwrap();
    /// assert_eq!(cktile_core::Coordinate::new(&d, &[3, 1]).offset(), 25);
    /// ```
    pub const fn offset(&self) -> Index {
        self.hidden[0]
    }

    /// The index at level `k` (0 is the bottom, `num_stages()` the top;
    /// zeros past the level's dimensions and past the top).
    ///
    /// ```
    /// let d = cktile_core::Descriptor::packed(&[4, 8]).unwrap();
    /// assert_eq!(cktile_core::Coordinate::new(&d, &[3, 1]).level(0)[0], 25);
    /// ```
    pub const fn level(&self, k: usize) -> Indices {
        let mut out = [0; MAX_DIMS];
        if k > self.n_stages as usize || k > MAX_STAGES {
            return out;
        }
        let (first, end) = (self.bounds[k] as usize, self.bounds[k + 1] as usize);
        let mut p = 0;
        while first + p < end && p < MAX_DIMS {
            out[p] = self.hidden[(first + p) % MAX_HIDDEN];
            p += 1;
        }
        out
    }

    /// The whole hidden index (CK's `get_hidden_index`), numbered as
    /// [`Descriptor::adaptor`] numbers it.
    ///
    /// ```
    /// let d = cktile_core::Descriptor::packed(&[4, 8]).unwrap();
    /// assert_eq!(cktile_core::Coordinate::new(&d, &[3, 1]).hidden()[..3], [25, 3, 1]);
    /// ```
    pub const fn hidden(&self) -> &Hidden {
        &self.hidden
    }
}
