//! The inverse of a descriptor: from an offset back to the top coordinate.

use super::Descriptor;
use crate::adaptor::MAX_HIDDEN;
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
        let adaptor = &self.adaptor;
        let mut hidden = [0; MAX_HIDDEN];
        hidden[0] = offset;
        let mut t = 0;
        while t < adaptor.num_items() {
            if !adaptor.upper_item(t, &mut hidden) {
                return None;
            }
            t += 1;
        }
        let mut top = Dims::EMPTY;
        let ids = adaptor.top_ids();
        let mut k = 0;
        while k < ids.len() {
            top = match top.push(hidden[ids.get(k) % MAX_HIDDEN]) {
                Ok(d) => d,
                Err(_) => return None,
            };
            k += 1;
        }
        match self.try_calculate_offset(top.as_slice()) {
            Ok(o) if o == offset && self.coordinate_has_valid_offset(top.as_slice()) => Some(top),
            _ => None,
        }
    }
}
