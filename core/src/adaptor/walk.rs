//! The one runtime walk: how an adaptor's transforms carry a hidden index.
//!
//! Every runtime evaluation of a chain of transforms, an adaptor's or a
//! descriptor's (a descriptor *is* an adaptor plus an element space), is a
//! walk over one hidden index, an array with a slot per hidden id:
//!
//! - down ([`Adaptor::lower_item`]), from the top values to the bottom ones:
//!   offsets, bottom indices, validity;
//! - by a step ([`Adaptor::move_item`]), CK Tile's `move_tensor_coordinate`:
//!   a coordinate keeps the whole hidden index and updates it in place;
//! - up ([`Adaptor::upper_item`]), with each transform's inverse;
//! - vectors up ([`Adaptor::vector_item`]), CK's safe vector lengths.
//!
//! Each step is one item: its transform ([`Transform`](cktile_transforms::Transform),
//! where every formula lives) reads the values at its ids and writes its
//! results at its other ids. The loops over items stay with
//! the callers, so a caller with a constant adaptor can write them out
//! ([`StaticDescriptor`](crate::StaticDescriptor)).

use super::{Adaptor, MAX_HIDDEN, MAX_TRANSFORMS};
use crate::Item;
use crate::stage::carry_vectors;
use cktile_transforms::{Index, MAX_DIMS, Vector};

/// A hidden index: one value per hidden id (ids past the adaptor's unused).
///
/// ```
/// let h: cktile_core::adaptor::Hidden = [0; cktile_core::adaptor::MAX_HIDDEN];
/// assert_eq!(h.len(), 32);
/// ```
pub type Hidden = [Index; MAX_HIDDEN];

/// Positions `0, 1, ...`: a transform's values in order.
const IN_ORDER: [u8; MAX_DIMS] = [0, 1, 2, 3, 4, 5, 6, 7];

impl Adaptor {
    /// Item `t`'s part of the walk down: reads its upper ids' values and
    /// writes its lower ids' (CK Tile's `calculate_lower_index`). Returns
    /// whether the upper values are valid ones (a pad-family transform maps
    /// padding to `false`; the lower values are written either way). An
    /// item past the adaptor's does nothing and is valid.
    ///
    /// ```
    /// use cktile_core::adaptor::{Adaptor, MAX_HIDDEN};
    /// use cktile_core::transforms::{Dims, Transform};
    /// use cktile_core::Item;
    /// let a = Adaptor::single_stage(Dims::from_slice(&[32])?, &[Item::new(Transform::unmerge(&[4, 8])?, &[0], &[0, 1])?])?;
    /// let mut hidden = [0; MAX_HIDDEN];
    /// (hidden[1], hidden[2]) = (3, 5);
    /// assert!(a.lower_item(0, &mut hidden));
    /// assert_eq!(hidden[0], 29);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn lower_item(&self, t: usize, hidden: &mut Hidden) -> bool {
        if t >= self.n_items as usize || t >= MAX_TRANSFORMS {
            return true;
        }
        let item = &self.items[t];
        // The transform reads its upper values in order from a small copy
        // and writes its lower ones at their ids in place (its ids are
        // other than the ones it reads). Written out, not called: the
        // compile-time checks evaluate this for every coordinate of a tile.
        let (ids, n) = (&item.upper.ids, item.upper.len as usize);
        let mut up = [0; MAX_DIMS];
        let mut j = 0;
        while j < n {
            up[j & (MAX_DIMS - 1)] = hidden[ids[j & (MAX_DIMS - 1)] as usize & (MAX_HIDDEN - 1)];
            j += 1;
        }
        let valid = item.transform.is_valid_upper_at(&up, 0);
        item.transform.lower_at(&up, &IN_ORDER, hidden, &item.lower.ids);
        valid
    }

    /// Item `t`'s part of a coordinate's move (CK Tile's
    /// `update_lower_index`): `hidden` holds the new upper values and the
    /// old lower ones, `diff` the upper values' steps. When a step is not
    /// zero the lower values move (a linear transform adds its mapped step,
    /// the others recompute) and their steps are written into `diff`; an
    /// item whose upper values did not move is skipped, as in CK.
    ///
    /// ```
    /// use cktile_core::adaptor::{Adaptor, MAX_HIDDEN};
    /// use cktile_core::transforms::{Dims, Transform};
    /// use cktile_core::Item;
    /// let a = Adaptor::single_stage(Dims::from_slice(&[4, 8])?, &[Item::new(Transform::merge(&[4, 8])?, &[0, 1], &[0])?])?;
    /// // Bottom ids 0, 1; the merge writes top id 2. Top 7 is (0, 7); one step on is (1, 0).
    /// let (mut hidden, mut diff) = ([0; MAX_HIDDEN], [0; MAX_HIDDEN]);
    /// (hidden[0], hidden[1]) = (0, 7);
    /// (hidden[2], diff[2]) = (8, 1);
    /// a.move_item(0, &mut hidden, &mut diff);
    /// assert_eq!((hidden[0], hidden[1], diff[0], diff[1]), (1, 0, 1, -7));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn move_item(&self, t: usize, hidden: &mut Hidden, diff: &mut Hidden) {
        if t >= self.n_items as usize || t >= MAX_TRANSFORMS {
            return;
        }
        let item = &self.items[t];
        let step = Item::gather(diff, &item.upper);
        let mut moved = false;
        let mut j = 0;
        while j < item.upper().len() && j < MAX_DIMS {
            moved |= step[j] != 0;
            j += 1;
        }
        if !moved {
            return;
        }
        let (low, n) = (item.lower.ids, item.lower.len as usize);
        if item.transform().is_linear() {
            // The lower values move by the transform's linear part.
            item.transform().step_at(&step, &IN_ORDER, diff, &low);
            j = 0;
            while j < n && j < MAX_DIMS {
                let l = low[j] as usize % MAX_HIDDEN;
                hidden[l] = hidden[l].wrapping_add(diff[l]);
                j += 1;
            }
        } else {
            // Recomputed from the new upper values.
            let old = Item::gather(hidden, &item.lower);
            item.transform().lower_at(&Item::gather(hidden, &item.upper), &IN_ORDER, hidden, &low);
            j = 0;
            while j < n && j < MAX_DIMS {
                let l = low[j] as usize % MAX_HIDDEN;
                diff[l] = hidden[l].wrapping_sub(old[j]);
                j += 1;
            }
        }
    }

    /// Item `t`'s part of the walk up, with its transform's inverse: reads
    /// its lower ids' values and writes its upper ids'. `false` when the
    /// transform has no inverse there (nothing is written then).
    ///
    /// ```
    /// use cktile_core::adaptor::{Adaptor, MAX_HIDDEN};
    /// use cktile_core::transforms::{Dims, Transform};
    /// use cktile_core::Item;
    /// let a = Adaptor::single_stage(Dims::from_slice(&[32])?, &[Item::new(Transform::unmerge(&[4, 8])?, &[0], &[0, 1])?])?;
    /// let mut hidden = [0; MAX_HIDDEN];
    /// hidden[0] = 29;
    /// assert!(a.upper_item(0, &mut hidden));
    /// assert_eq!((hidden[1], hidden[2]), (3, 5));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn upper_item(&self, t: usize, hidden: &mut Hidden) -> bool {
        if t >= self.n_items as usize || t >= MAX_TRANSFORMS {
            return true;
        }
        let item = &self.items[t];
        match item.transform().calculate_upper(&Item::gather(hidden, &item.lower)) {
            Some(up) => {
                Item::scatter(&up, &item.upper, hidden);
                true
            }
            None => false,
        }
    }

    /// Item `t`'s part of the vector propagation: the safe vector length
    /// and stride of its upper ids from its lower ids' (CK Tile's rules,
    /// [`VectorRule`](cktile_transforms::VectorRule)).
    ///
    /// ```
    /// use cktile_core::adaptor::{Adaptor, MAX_HIDDEN};
    /// use cktile_core::transforms::{Dims, Transform, Vector};
    /// use cktile_core::Item;
    /// let a = Adaptor::single_stage(Dims::from_slice(&[4, 8])?, &[Item::new(Transform::merge(&[4, 8])?, &[0, 1], &[0])?])?;
    /// let mut v = [Vector::UNKNOWN; MAX_HIDDEN];
    /// v[1] = Vector::new(8, 1);
    /// a.vector_item(0, &mut v);
    /// assert_eq!(v[2], Vector::new(8, 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn vector_item(&self, t: usize, vectors: &mut [Vector; MAX_HIDDEN]) {
        if t >= self.n_items as usize || t >= MAX_TRANSFORMS {
            return;
        }
        let item = &self.items[t];
        // Only the item's upper ids change.
        let before = *vectors;
        carry_vectors(&before, item.transform().vector_rule(), item.lower(), item.upper(), vectors);
    }
}
