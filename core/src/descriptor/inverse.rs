//! The inverse of a descriptor: from an offset back to the top coordinate.

use super::Descriptor;
use cktile_transforms::{Dims, Index};

impl Descriptor {
    /// The top coordinate whose offset is `offset`, walking the chain upward
    /// with each transform's inverse. `None` when a transform has no inverse
    /// (freeze, modulo, broadcast, a non-radix embed) or no valid coordinate
    /// has that offset. The answer is checked: it lies inside the lengths, is
    /// valid (not padding) and maps back to `offset`.
    ///
    /// ```
    /// let d = cktile_core::Descriptor::naive(&[4, 8], &[100, 1]).unwrap();
    /// assert_eq!(d.calculate_top_index(205).map(|c| c.as_slice().to_vec()), Some(vec![2, 5]));
    /// assert_eq!(d.calculate_top_index(50), None); // a hole
    /// // pad(5, 2, 3): offset -2 is where padded coordinate 0 points; no valid one has it.
    /// use cktile_core::{Item, Transform};
    /// let pad = Item::new(Transform::pad(5, 2, 3).unwrap(), &[0], &[0]).unwrap();
    /// let p = cktile_core::Descriptor::naive(&[5], &[1]).unwrap().transform(&[pad]).unwrap();
    /// assert_eq!(p.calculate_top_index(-2), None);
    /// assert_eq!(p.calculate_top_index(0).map(|c| c.as_slice().to_vec()), Some(vec![2]));
    /// ```
    pub const fn calculate_top_index(&self, offset: Index) -> Option<Dims> {
        let mut idx = [0; cktile_transforms::MAX_DIMS];
        idx[0] = offset;
        let stages = self.stages();
        let mut s = 0;
        while s < stages.len() {
            idx = match stages[s].upper(&idx) {
                Some(up) => up,
                None => return None,
            };
            s += 1;
        }
        let top = match Dims::from_slice(idx.split_at(self.num_dims()).0) {
            Ok(d) => d,
            Err(_) => return None,
        };
        match self.try_calculate_offset(top.as_slice()) {
            Ok(o) if o == offset && self.coordinate_has_valid_offset(top.as_slice()) => Some(top),
            _ => None,
        }
    }
}
