//! Safe vector lengths and strides of the top dimensions: CK Tile's
//! `get_top_dimension_safe_vector_length_strides`.

use super::Descriptor;
use cktile_transforms::{MAX_DIMS, Vector};

impl Descriptor {
    /// For each top dimension, how many consecutive indices are contiguous in
    /// memory (and their stride), propagated from the bottom through every
    /// transform with CK Tile's rules; the base's guaranteed values override.
    /// Entries past [`num_dims`](Self::num_dims) are unknown.
    ///
    /// ```
    /// use cktile_transforms::Vector;
    /// let d = cktile::Descriptor::packed(&[4, 8]).unwrap();
    /// // unmerge gives gcd(unknown, 8): unknown length; packed guarantees stride 1.
    /// assert_eq!(d.top_vectors()[1], Vector { length: None, stride: Some(1) });
    /// ```
    pub const fn top_vectors(&self) -> [Vector; MAX_DIMS] {
        let mut v = [Vector::UNKNOWN; MAX_DIMS];
        let stages = self.stages();
        let mut s = 0;
        while s < stages.len() {
            v = stages[s].upper_vectors(&v);
            if s + 1 == self.n_base as usize {
                let last = (stages[s].upper_lengths().len() + MAX_DIMS - 1) % MAX_DIMS;
                v[last] = v[last].overridden_by(self.guaranteed);
            }
            s += 1;
        }
        v
    }
}
