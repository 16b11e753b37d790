//! Safe vector lengths and strides of the top dimensions: CK Tile's
//! `get_top_dimension_safe_vector_length_strides`, and why it knows none
//! where it knows none.

use super::Descriptor;
use crate::adaptor::MAX_HIDDEN;
use crate::names::{count_where, names_of};
use cktile_transforms::{Kind, MAX_DIMS, Vector, VectorRule};

/// How CK's rule carries a vector through a kind: 0 not at all, 1 through
/// every dimension it has, 2 through its last lower dimension only (merge),
/// 3 into its last upper dimension only (unmerge). Read off
/// [`VectorRule::of_kind`] for two lower and two upper dimensions, so the
/// message below lists exactly the kinds the rule carries through.
const fn route(kind: Kind) -> u8 {
    match VectorRule::of_kind(kind, 2, 2, Some(1)) {
        VectorRule::Nothing => 0,
        VectorRule::Pass { .. } | VectorRule::Gcd { upper: 0, .. } => 1,
        VectorRule::Last { .. } => 2,
        VectorRule::Gcd { .. } => 3,
    }
}

const EVERY_DIM: [&str; count_where!(Kind::ALL, |k| route(*k) == 1)] =
    names_of!(Kind::ALL, |k| k.name(), if route(*k) == 1);
const LAST_LOWER: [&str; count_where!(Kind::ALL, |k| route(*k) == 2)] =
    names_of!(Kind::ALL, |k| k.name(), if route(*k) == 2);
const LAST_UPPER: [&str; count_where!(Kind::ALL, |k| route(*k) == 3)] =
    names_of!(Kind::ALL, |k| k.name(), if route(*k) == 3);
/// [`VectorUnknown::NotCarried`]'s sentence.
const NOT_CARRIED: &str = crate::names::joined!(
    &[
        "CK's rule carries a vector length only along the base's last dimension and through ",
        crate::names::joined!(&EVERY_DIM),
        ", the last lower dimension of ",
        crate::names::joined!(&LAST_LOWER, " and "),
        " and the last upper dimension of ",
        crate::names::joined!(&LAST_UPPER, " and "),
        "; this dimension's path to memory leaves that route",
    ],
    ""
);

/// Why CK Tile's rule knows no safe vector length for a top dimension.
///
/// ```
/// use cktile_core::descriptor::vector::VectorUnknown;
/// let d = cktile_core::Descriptor::packed(&[128, 64]).unwrap();
/// assert_eq!(d.vector_unknown(1), Some(VectorUnknown::NoBaseGuarantee));
/// assert_eq!(d.vector_unknown(0), Some(VectorUnknown::NotCarried));
/// let d = cktile_core::Descriptor::packed_dims(d.lengths(), Some(8)).unwrap();
/// assert_eq!(d.vector_unknown(1), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VectorUnknown {
    /// CK's rule starts from the vector length the base descriptor
    /// guarantees for its last dimension, and this base guarantees none
    /// (with one, the dimension would have a length).
    NoBaseGuarantee,
    /// The dimension's path to the bottom goes through a transform (or a
    /// base dimension other than the last) that CK's rule carries no vector
    /// length through.
    NotCarried,
}

impl VectorUnknown {
    /// The reason in words, with what would make it known.
    ///
    /// ```
    /// use cktile_core::descriptor::vector::VectorUnknown;
    /// assert!(VectorUnknown::NoBaseGuarantee.explain().contains("packed((LENGTHS), N)"));
    /// assert!(VectorUnknown::NotCarried.explain().contains(
    ///     "through pass_through, pad, left_pad, right_pad, xor, xor_no_modulo, swizzle, cyclic_shift, functor, \
    ///      the last lower dimension of merge and the last upper dimension of unmerge;"
    /// ));
    /// ```
    pub const fn explain(self) -> &'static str {
        match self {
            VectorUnknown::NoBaseGuarantee => {
                "CK's rule starts from the vector length the base descriptor guarantees for its last dimension, \
                 and this base guarantees none (give one: packed((LENGTHS), N) or naive((LENGTHS), (STRIDES), N, 1))"
            }
            VectorUnknown::NotCarried => NOT_CARRIED,
        }
    }
}

impl Descriptor {
    /// For each top dimension, how many consecutive indices are contiguous in
    /// memory (and their stride), propagated from the bottom through every
    /// transform with CK Tile's rules; the base's guaranteed values override.
    /// Entries past [`num_dims`](Self::num_dims) are unknown.
    ///
    /// ```
    /// use cktile_transforms::Vector;
    /// let d = cktile_core::Descriptor::packed(&[4, 8]).unwrap();
    /// // unmerge gives gcd(unknown, 8): unknown length; packed guarantees stride 1.
    /// assert_eq!(d.top_vectors()[1], Vector { length: None, stride: Some(1) });
    /// ```
    pub const fn top_vectors(&self) -> [Vector; MAX_DIMS] {
        let adaptor = &self.adaptor;
        let mut hidden = [Vector::UNKNOWN; MAX_HIDDEN];
        let base_end = self.stage_end((self.n_base as usize).saturating_sub(1));
        let (first, count) = self.level(self.n_base as usize);
        let mut t = 0;
        while t < adaptor.num_items() {
            adaptor.vector_item(t, &mut hidden);
            if t + 1 == base_end && count > 0 {
                // The base's guarantee on its last dimension.
                let last = (first + count - 1) % MAX_HIDDEN;
                hidden[last] = hidden[last].overridden_by(self.guaranteed);
            }
            t += 1;
        }
        let mut v = [Vector::UNKNOWN; MAX_DIMS];
        let top = adaptor.top_ids();
        let mut k = 0;
        while k < top.len() && k < MAX_DIMS {
            v[k] = hidden[top.get(k) % MAX_HIDDEN];
            k += 1;
        }
        v
    }

    /// Why [`top_vectors`](Self::top_vectors) knows no length for top
    /// dimension `dim`: `None` when it knows one (or `dim` is out of range).
    ///
    /// ```
    /// use cktile_core::descriptor::vector::VectorUnknown;
    /// use cktile_core::{Descriptor, Item, Transform};
    /// let pad = Item::new(Transform::pad(4, 1, 1)?, &[0], &[0])?;
    /// let rows = Item::new(Transform::pass_through(8)?, &[1], &[1])?;
    /// let d = Descriptor::packed(&[4, 8])?.transform(&[pad, rows])?;
    /// assert_eq!(d.vector_unknown(0), Some(VectorUnknown::NotCarried));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn vector_unknown(&self, dim: usize) -> Option<VectorUnknown> {
        if dim >= self.num_dims() || self.top_vectors()[dim].length.is_some() {
            return None;
        }
        if self.guaranteed.length.is_none() {
            // The same descriptor with a guaranteed length: does it reach `dim`?
            let mut with = *self;
            with.guaranteed = Vector { length: Some(1 << 30), stride: self.guaranteed.stride };
            if with.top_vectors()[dim].length.is_some() {
                return Some(VectorUnknown::NoBaseGuarantee);
            }
        }
        Some(VectorUnknown::NotCarried)
    }
}
