//! A distribution composed with a layout, as a descriptor over (P..., Y...).
//!
//! A distribution's ps_ys_to_xs adaptor has two levels (CK Tile builds it
//! so): the transforms that read X (a `replicate` making the R components,
//! one `unmerge` per X into its H components) and the transforms that
//! read those components (one `merge` per P). The Ys are components
//! themselves. So the composition is the layout with two more
//! `transform(...)` stages, which print as a spec:
//!
//! 1. the first level, each component at its place in hidden-id order
//!    (R, then each X's H components in turn);
//! 2. the P merges, a `pass_through` for each Y, and a `freeze(0)` for a
//!    component neither read nor a Y (CK leaves it at 0), the new top in
//!    the adaptor's top order.
//!
//! ```
//! use cktile_core::distribution::{Distribution, catalogue};
//! let a = Distribution::new(catalogue::mfma_c(16, 16)?)?;
//! let lanes = a.compose_descriptor(&cktile_core::Descriptor::packed(&[16, 16])?)?;
//! assert_eq!(lanes.num_stages(), 3); // packed, then the two levels
//! # Ok::<(), cktile_core::Error>(())
//! ```

use crate::adaptor::{self, Adaptor, AdaptorProblem, MAX_HIDDEN};
use crate::error::{Error, ErrorKind};
use crate::stage::in_item;
use crate::{Descriptor, Ids, Item, MAX_ITEMS};
use cktile_transforms::{MAX_DIMS, Transform, tri};

/// Where each hidden id of the ps_ys_to_xs adaptor sits on one level of
/// the composed descriptor (`NONE` where it is not on that level).
struct Places([u8; MAX_HIDDEN]);

impl Places {
    const NONE: u8 = u8::MAX;

    /// The places of `ids`, in order: `None` when one is not on the level.
    const fn of(&self, ids: Ids) -> Option<Ids> {
        let mut raw = [0usize; MAX_DIMS];
        let mut j = 0;
        while j < ids.len() && j < MAX_DIMS {
            let place = self.0[ids.get(j) % MAX_HIDDEN];
            if place == Places::NONE {
                return None;
            }
            raw[j] = place as usize;
            j += 1;
        }
        match Ids::from_slice(raw.split_at(j).0) {
            Ok(ids) => Some(ids),
            Err(_) => None,
        }
    }
}

/// A transform of the first level: every id it reads is a bottom (X) one.
const fn reads_x(item: &Item, x: &Places) -> bool {
    x.of(item.lower()).is_some()
}

/// The places of `ids` on a level (their positions in the list).
const fn places_of(ids: Ids) -> Places {
    let mut places = [Places::NONE; MAX_HIDDEN];
    let mut k = 0;
    while k < ids.len() {
        places[ids.get(k) % MAX_HIDDEN] = k as u8;
        k += 1;
    }
    Places(places)
}

/// A fixed-capacity stage under construction.
struct Level {
    items: [Item; MAX_ITEMS],
    len: usize,
}

impl Level {
    /// Adds an item, refused past [`MAX_ITEMS`] as a stage refuses it.
    const fn push(&mut self, item: Item) -> Result<(), Error> {
        if self.len >= MAX_ITEMS {
            return Err(Error::descriptor(crate::DescriptorProblem::TooManyItems {
                given: self.len + 1,
                max: MAX_ITEMS,
            }));
        }
        self.items[self.len] = item;
        self.len += 1;
        Ok(())
    }

    const fn as_slice(&self) -> &[Item] {
        self.items.split_at(self.len).0
    }
}

/// What a ps_ys_to_xs adaptor of another shape than CK's two levels would
/// get (no distribution builds one): its transform `t` reads or writes
/// hidden id `id` where the two levels have no place for it.
const fn not_two_levels(t: usize, id: usize) -> Error {
    Error::new(ErrorKind::Adaptor(AdaptorProblem::NotYetProduced { transform: t, id }))
}

/// `layout` followed by the two levels of `ps_ys_to_xs` (see the
/// [module documentation](self)). Refused as [`Adaptor::chain`] refuses
/// `layout`'s adaptor and `ps_ys_to_xs`, then as the stages are.
pub(crate) const fn stage_wise(ps_ys_to_xs: &Adaptor, layout: &Descriptor) -> Result<Descriptor, Error> {
    tri!(adaptor::chains_onto(layout.lengths(), ps_ys_to_xs.bottom_lengths()));
    let items = ps_ys_to_xs.items();
    let x = places_of(ps_ys_to_xs.bottom_ids());
    // The components: what the first level produces, placed in id order.
    let mut made = [false; MAX_HIDDEN];
    let mut t = 0;
    while t < items.len() {
        if reads_x(&items[t], &x) {
            let up = items[t].upper();
            let mut j = 0;
            while j < up.len() {
                made[up.get(j) % MAX_HIDDEN] = true;
                j += 1;
            }
        }
        t += 1;
    }
    let mut component = [Places::NONE; MAX_HIDDEN];
    let mut n = 0;
    let mut id = 0;
    while id < MAX_HIDDEN {
        if made[id] {
            component[id] = n;
            n += 1;
        }
        id += 1;
    }
    let component = Places(component);
    let top = places_of(ps_ys_to_xs.top_ids());
    let mut first = Level { items: [crate::stage::FILLER; MAX_ITEMS], len: 0 };
    let mut second = Level { items: [crate::stage::FILLER; MAX_ITEMS], len: 0 };
    let mut read = [false; MAX_HIDDEN];
    t = 0;
    while t < items.len() {
        let item = &items[t];
        let transform = *item.transform();
        if let Some(lower) = x.of(item.lower()) {
            let Some(upper) = component.of(item.upper()) else { return Err(not_two_levels(t, item.upper().get(0))) };
            tri!(first.push(Item::from_ids(transform, lower, upper)));
        } else {
            let Some(lower) = component.of(item.lower()) else {
                return Err(not_two_levels(t, item.lower().get(0)));
            };
            let Some(upper) = top.of(item.upper()) else { return Err(not_two_levels(t, item.upper().get(0))) };
            let mut j = 0;
            while j < item.lower().len() {
                read[item.lower().get(j) % MAX_HIDDEN] = true;
                j += 1;
            }
            tri!(second.push(Item::from_ids(transform, lower, upper)));
        }
        t += 1;
    }
    // Each component the merges leave: a Y passes through, any other is
    // fixed at 0.
    id = 0;
    while id < MAX_HIDDEN {
        if made[id] && !read[id] {
            let at = tri!(Ids::from_slice(&[component.0[id] as usize]));
            let item = if top.0[id] != Places::NONE {
                let pass = tri!(in_item(second.len, Transform::pass_through(ps_ys_to_xs.hidden_length(id) as usize)));
                Item::from_ids(pass, at, tri!(Ids::from_slice(&[top.0[id] as usize])))
            } else {
                Item::from_ids(tri!(in_item(second.len, Transform::freeze(0))), at, Ids::EMPTY)
            };
            tri!(second.push(item));
        }
        id += 1;
    }
    let d = tri!(layout.transform(first.as_slice()));
    d.transform(second.as_slice())
}
