//! [`Adaptor`]: CK Tile's `tensor_adaptor` at run time, a list of
//! transforms wired through numbered *hidden* dimensions.
//!
//! A descriptor ([`Descriptor`](crate::Descriptor)) is a chain of
//! [`Stage`]s, each consuming all of the previous stage's top dimensions. An
//! adaptor is CK's more general form: every transform names the hidden
//! dimensions it reads (its lower ids) and writes (its upper ids), the
//! bottom dimensions are some hidden ids and the top dimensions others. A top
//! dimension may be produced by any transform, not only the last, which is
//! what a tile distribution needs (its Y dimensions are outputs of the
//! unmerges that its P merges also read from).
//!
//! - [`Adaptor::new`] is CK's `tensor_adaptor{transforms}` with explicit
//!   hidden ids, validated;
//! - [`Adaptor::single_stage`] is `make_single_stage_tensor_adaptor`;
//! - [`Adaptor::transform`] is `transform_tensor_adaptor`;
//! - [`Adaptor::chain`] is `chain_tensor_adaptors`;
//! - [`Adaptor::calculate_bottom_index`] is `calculate_bottom_index`.
//!
//! The single-stage and transform forms validate their stage with the
//! descriptor's [`Stage`] (the same permutation and length checks), and every
//! transform's arithmetic is [`Transform::calculate_lower`](cktile_transforms::Transform::calculate_lower) from
//! `cktile_transforms`: an adaptor only moves values between hidden slots.
//!
//! Unlike CK, an adaptor knows its bottom lengths: each constructor takes
//! them (or inherits them), and every transform is bound to the lengths of
//! the hidden dimensions it reads, so a mismatch is an error when the adaptor
//! is built rather than a wrong index later.
//!
//! ```
//! use cktile_core::adaptor::Adaptor;
//! use cktile_core::transforms::{Dims, Transform};
//! use cktile_core::Item;
//!
//! // One dimension of 32 split into (4, 8), then the two swapped and merged back.
//! let a = Adaptor::single_stage(Dims::from_slice(&[32])?, &[Item::new(Transform::unmerge(&[4, 8])?, &[0], &[0, 1])?])?;
//! let b = a.transform(&[Item::new(Transform::merge(&[8, 4])?, &[1, 0], &[0])?])?;
//! // top 9 = (k = 2, m = 1) in the (8, 4) merge -> bottom m * 8 + k = 10.
//! assert_eq!(b.calculate_bottom_index(&[9])?.as_slice(), &[10]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod typed;
pub mod walk;

use crate::error::{DescriptorProblem, Error, ErrorKind, Side};
use crate::names::write_joined;
use crate::stage::{self, FILLER, in_item, write_ids};
use crate::{Ids, Item, MAX_ITEMS, Stage};
use cktile_transforms::tri;
use cktile_transforms::{Dims, Index, MAX_DIMS, Transform, Vector};
use core::fmt;

pub use crate::error::AdaptorProblem;

pub use crate::stage::MAX_HIDDEN;
pub use walk::Hidden;

/// The most transforms an adaptor, and so a descriptor, may hold (CK
/// Tile's tile distributions allow 20).
///
/// ```
/// assert_eq!(cktile_core::adaptor::MAX_TRANSFORMS, 32);
/// ```
pub const MAX_TRANSFORMS: usize = 32;

pub(crate) const fn problem(problem: AdaptorProblem) -> Error {
    Error::new(ErrorKind::Adaptor(problem))
}

/// `id` when it is below [`MAX_HIDDEN`].
const fn hidden_id(id: usize) -> Result<usize, Error> {
    if id >= MAX_HIDDEN { Err(problem(AdaptorProblem::IdTooLarge { id, max: MAX_HIDDEN })) } else { Ok(id) }
}

const fn max(a: usize, b: usize) -> usize {
    if a > b { a } else { b }
}

/// Refuses an item whose `side` lists another number of ids than its
/// transform has dimensions there ([`stage::check_id_count`]; the
/// transform's counts are read here, not through a [`Shape`](stage::Shape):
/// the larger frame makes LLVM's AMDGPU backend fail on [`Adaptor::new`],
/// "Cannot scavenge register in FI elimination").
const fn check_id_count(item: usize, transform: &Transform, side: Side, ids: Ids) -> Result<(), Error> {
    let expected = match side {
        Side::Lower => transform.num_lower(),
        Side::Upper => transform.num_upper(),
    };
    stage::check_id_count(item, transform.kind().name(), side, expected, ids.len())
}

/// The ids `first, first + 1, ...`, [`MAX_DIMS`] of them.
const fn first_ids(first: usize) -> [usize; MAX_DIMS] {
    let mut out = [0; MAX_DIMS];
    let mut i = 0;
    while i < MAX_DIMS {
        out[i] = first + i;
        i += 1;
    }
    out
}

/// How an adaptor constructor renumbers ids (a `const fn` cannot take a
/// closure): [`IdMap::ids`] maps every id of a list.
enum IdMap {
    /// Every id plus this.
    Shift(usize),
    /// Positions among these ids turned into the ids.
    Select(Ids),
    /// CK's renaming of a chained adaptor's hidden ids: its bottom ids
    /// (`from`) become the first adaptor's top ids (`to`, by position),
    /// every other id moves by `base - smallest`.
    Rename { to: Ids, from: Ids, base: usize, smallest: usize },
}

impl IdMap {
    const fn id(&self, id: usize) -> usize {
        match *self {
            IdMap::Shift(by) => id + by,
            IdMap::Select(of) => of.get(id),
            IdMap::Rename { to, from, base, smallest } => {
                let mut k = 0;
                while k < from.len() {
                    if from.get(k) == id {
                        return to.get(k);
                    }
                    k += 1;
                }
                id - smallest + base
            }
        }
    }

    /// Every id of `ids` mapped.
    const fn ids(&self, ids: Ids) -> Result<Ids, Error> {
        let (mut raw, len) = ids.to_array();
        let mut j = 0;
        while j < len {
            raw[j] = self.id(raw[j]);
            j += 1;
        }
        Ids::from_slice(raw.split_at(len).0)
    }
}

/// Whether `ids` lists `id`.
const fn contains(ids: Ids, id: usize) -> bool {
    let mut j = 0;
    while j < ids.len() {
        if ids.get(j) == id {
            return true;
        }
        j += 1;
    }
    false
}

/// The top ids of [`Adaptor::new`]: each must exist (`known`), be listed
/// once and be read by no item (`reader`: one past the item reading each
/// id, 0 for none). Which ids are top ones.
const fn top_ids_of(
    top: &[usize],
    known: &[bool; MAX_HIDDEN],
    reader: &[usize; MAX_HIDDEN],
) -> Result<[bool; MAX_HIDDEN], Error> {
    let mut is_top = [false; MAX_HIDDEN];
    let mut k = 0;
    while k < top.len() {
        let id = tri!(hidden_id(top[k]));
        if !known[id] {
            return Err(problem(AdaptorProblem::TopUnknown { id }));
        }
        if is_top[id] {
            return Err(problem(AdaptorProblem::TopRepeated { id }));
        }
        if reader[id] > 0 {
            return Err(problem(AdaptorProblem::TopRead { id, transform: reader[id] - 1 }));
        }
        is_top[id] = true;
        k += 1;
    }
    Ok(is_top)
}

/// Every bottom dimension of [`Adaptor::new`] (ids `bottom`, already
/// checked) is reached: read by an item (`reader`) or itself a top one
/// (`is_top`).
const fn check_reached(
    bottom: &[usize],
    reader: &[usize; MAX_HIDDEN],
    is_top: &[bool; MAX_HIDDEN],
) -> Result<(), Error> {
    let mut position = 0;
    while position < bottom.len() {
        let id = bottom[position];
        if reader[id] == 0 && !is_top[id] {
            return Err(problem(AdaptorProblem::BottomUnreached { position, id }));
        }
        position += 1;
    }
    Ok(())
}

/// Whether an adaptor whose bottom lengths are `bottom` chains onto a top
/// of lengths `top` ([`Adaptor::chain`]'s first check): as many
/// dimensions, of the same lengths.
pub(crate) const fn chains_onto(top: Dims, bottom: Dims) -> Result<(), Error> {
    if top.len() != bottom.len() {
        return Err(problem(AdaptorProblem::ChainCount { top: top.len(), bottom: bottom.len() }));
    }
    let mut dim = 0;
    while dim < top.len() {
        if top.get(dim) != bottom.get(dim) {
            return Err(problem(AdaptorProblem::ChainLength { dim, top: top.get(dim), bottom: bottom.get(dim) }));
        }
        dim += 1;
    }
    Ok(())
}

/// CK Tile's `tensor_adaptor`: transforms wired through hidden dimensions,
/// with the bottom and top dimensions naming hidden ones. See the
/// [module documentation](self).
///
/// ```
/// use cktile_core::adaptor::Adaptor;
/// use cktile_core::transforms::{Dims, Transform};
/// use cktile_core::Item;
/// // Bottom 0 (length 64) -> hidden 1, 2 (lengths 16, 4); the top is (2, 1).
/// let split = Item::new(Transform::unmerge(&[16, 4])?, &[0], &[1, 2])?;
/// let a = Adaptor::new(Dims::from_slice(&[64])?, &[split], &[0], &[2, 1])?;
/// assert_eq!(a.top_lengths().as_slice(), &[4, 16]);
/// assert_eq!(a.calculate_bottom_index(&[3, 5])?.as_slice(), &[5 * 4 + 3]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Adaptor {
    items: [Item; MAX_TRANSFORMS],
    n_items: u8,
    /// Length of each hidden dimension (0 for an id nothing uses).
    lengths: [Index; MAX_HIDDEN],
    /// One past the largest hidden id in use.
    n_hidden: u8,
    bottom: Ids,
    top: Ids,
}

impl Adaptor {
    /// CK Tile's `tensor_adaptor` constructor: `items` in order (each item's
    /// lower and upper ids are hidden ids), the bottom dimensions' hidden
    /// ids and lengths, and the top dimensions' hidden ids.
    ///
    /// Checked: every transform reads only hidden dimensions that exist
    /// already (bottom ones or earlier outputs) and that no other transform
    /// reads, produces only new ones, and fits the lengths it reads; every
    /// top id exists, is listed once and is read by no transform; every
    /// bottom dimension is reached (read by a transform or itself a top one);
    /// ids are below [`MAX_HIDDEN`], at most [`MAX_TRANSFORMS`] transforms
    /// and at most [`MAX_DIMS`] top and bottom dimensions.
    ///
    /// ```
    /// use cktile_core::adaptor::Adaptor;
    /// use cktile_core::transforms::{Dims, Transform};
    /// use cktile_core::Item;
    /// let split = Item::new(Transform::unmerge(&[4, 8])?, &[0], &[1, 2])?;
    /// // The unmerge's lengths do not fit a bottom length of 30.
    /// let e = Adaptor::new(Dims::from_slice(&[30])?, &[split], &[0], &[1, 2]).unwrap_err();
    /// assert!(e.to_string().contains("unmerge"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn new(bottom_lengths: Dims, items: &[Item], bottom: &[usize], top: &[usize]) -> Result<Adaptor, Error> {
        if items.len() > MAX_TRANSFORMS {
            return Err(problem(AdaptorProblem::TooManyTransforms { given: items.len(), max: MAX_TRANSFORMS }));
        }
        let bottom_ids = tri!(Ids::from_slice(bottom));
        let top_ids = tri!(Ids::from_slice(top));
        if bottom.len() != bottom_lengths.len() {
            return Err(problem(AdaptorProblem::BottomCount { ids: bottom.len(), lengths: bottom_lengths.len() }));
        }
        // The bottom and item loops stay in this function: moved into
        // functions (free ones, a state struct's methods, even
        // `#[inline(always)]` ones), they make LLVM's AMDGPU backend fail on
        // gfx942 ("Cannot scavenge register in FI elimination";
        // scripts/target-icount.sh). The checks after them are steps.
        let mut lengths = [0 as Index; MAX_HIDDEN];
        let mut known = [false; MAX_HIDDEN];
        // One past the transform that reads each hidden id (0: none).
        let mut reader = [0usize; MAX_HIDDEN];
        let mut n_hidden = 0;
        let mut k = 0;
        while k < bottom.len() {
            let id = tri!(hidden_id(bottom[k]));
            if known[id] {
                return Err(problem(AdaptorProblem::BottomRepeated { id }));
            }
            known[id] = true;
            lengths[id] = bottom_lengths.get(k);
            n_hidden = max(n_hidden, id + 1);
            k += 1;
        }
        let mut bound = [FILLER; MAX_TRANSFORMS];
        let mut t = 0;
        while t < items.len() {
            let item = &items[t];
            let transform = *item.transform();
            tri!(check_id_count(t, &transform, Side::Lower, item.lower()));
            tri!(check_id_count(t, &transform, Side::Upper, item.upper()));
            let mut low = Dims::EMPTY;
            let mut j = 0;
            while j < item.lower().len() {
                let id = tri!(hidden_id(item.lower().get(j)));
                if !known[id] {
                    return Err(problem(AdaptorProblem::NotYetProduced { transform: t, id }));
                }
                if reader[id] > 0 {
                    return Err(problem(AdaptorProblem::ReadTwice { first: reader[id] - 1, second: t, id }));
                }
                reader[id] = t + 1;
                low = tri!(in_item(t, low.push(lengths[id])));
                j += 1;
            }
            let b = tri!(in_item(t, transform.bind(&low)));
            let up = b.upper_lengths();
            let mut j = 0;
            while j < item.upper().len() {
                let id = tri!(hidden_id(item.upper().get(j)));
                if known[id] {
                    return Err(problem(AdaptorProblem::ProducedTwice { transform: t, id }));
                }
                known[id] = true;
                lengths[id] = up.get(j);
                n_hidden = max(n_hidden, id + 1);
                j += 1;
            }
            bound[t] = Item::from_ids(b, item.lower(), item.upper());
            t += 1;
        }
        let is_top = tri!(top_ids_of(top, &known, &reader));
        tri!(check_reached(bottom, &reader, &is_top));
        Ok(Adaptor {
            items: bound,
            n_items: items.len() as u8,
            lengths,
            n_hidden: n_hidden as u8,
            bottom: bottom_ids,
            top: top_ids,
        })
    }

    /// CK Tile's `make_single_stage_tensor_adaptor`: one stage of `items`
    /// over bottom dimensions of lengths `bottom_lengths`, each item's lower
    /// ids naming bottom dimensions and its upper ids new top dimensions
    /// (both, over all items, permutations), validated as a descriptor's
    /// [`Stage`] is.
    ///
    /// ```
    /// use cktile_core::adaptor::Adaptor;
    /// use cktile_core::transforms::{Dims, Transform};
    /// use cktile_core::Item;
    /// let m = Item::new(Transform::merge(&[4, 8])?, &[0, 1], &[0])?;
    /// let a = Adaptor::single_stage(Dims::from_slice(&[4, 8])?, &[m])?;
    /// assert_eq!(a.calculate_bottom_index(&[13])?.as_slice(), &[1, 5]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn single_stage(bottom_lengths: Dims, items: &[Item]) -> Result<Adaptor, Error> {
        let stage = tri!(Stage::new(bottom_lengths, items));
        let n_old = bottom_lengths.len();
        let mut shifted = [FILLER; MAX_ITEMS];
        let mut i = 0;
        while i < stage.items().len() {
            let item = &stage.items()[i];
            let upper = tri!(IdMap::Shift(n_old).ids(item.upper()));
            shifted[i] = Item::from_ids(*item.transform(), item.lower(), upper);
            i += 1;
        }
        let n_new = stage.upper_lengths().len();
        let (bottom, top) = (first_ids(0), first_ids(n_old));
        Adaptor::new(
            bottom_lengths,
            shifted.split_at(stage.items().len()).0,
            bottom.split_at(n_old).0,
            top.split_at(n_new).0,
        )
    }

    /// CK Tile's `transform_tensor_adaptor`: a new adaptor whose top
    /// dimensions are produced by `items` from this one's top dimensions
    /// (lower ids index this adaptor's top dimensions, upper ids the new
    /// ones; both permutations). The new transforms' outputs get fresh hidden
    /// ids after this adaptor's, as in CK.
    ///
    /// ```
    /// use cktile_core::adaptor::Adaptor;
    /// use cktile_core::transforms::{Dims, Transform};
    /// use cktile_core::Item;
    /// let a = Adaptor::single_stage(Dims::from_slice(&[32])?, &[Item::new(Transform::unmerge(&[4, 8])?, &[0], &[0, 1])?])?;
    /// let b = a.transform(&[
    ///     Item::new(Transform::pass_through(4)?, &[0], &[1])?,
    ///     Item::new(Transform::pass_through(8)?, &[1], &[0])?,
    /// ])?;
    /// assert_eq!(b.top_lengths().as_slice(), &[8, 4]);
    /// assert_eq!(b.calculate_bottom_index(&[5, 3])?.as_slice(), &[3 * 8 + 5]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn transform(&self, items: &[Item]) -> Result<Adaptor, Error> {
        let stage = tri!(Stage::new(self.top_lengths(), items));
        let mut all = tri!(ItemList::of(self.items(), stage.items().len()));
        let mut next = self.n_hidden as usize;
        let mut new_top = [0usize; MAX_DIMS];
        let mut i = 0;
        while i < stage.items().len() {
            let item = &stage.items()[i];
            let lower = tri!(IdMap::Select(self.top).ids(item.lower()));
            let mut fresh = [0usize; MAX_DIMS];
            let mut j = 0;
            while j < item.upper().len() {
                fresh[j] = next;
                new_top[item.upper().get(j) % MAX_DIMS] = next;
                next += 1;
                j += 1;
            }
            let upper = tri!(Ids::from_slice(fresh.split_at(item.upper().len()).0));
            all.push(Item::from_ids(*item.transform(), lower, upper));
            i += 1;
        }
        let n_top = stage.upper_lengths().len();
        let (bottom, n_bottom) = self.bottom.to_array();
        Adaptor::new(self.bottom_lengths(), all.as_slice(), bottom.split_at(n_bottom).0, new_top.split_at(n_top).0)
    }

    /// The adaptor of one bottom dimension of `length` that is also its
    /// top (hidden id 0, no transforms): where a descriptor's chain starts.
    pub(crate) const fn of_space(length: Index) -> Adaptor {
        let mut lengths = [0 as Index; MAX_HIDDEN];
        lengths[0] = length;
        let zero = Ids::first(1);
        Adaptor { items: [FILLER; MAX_TRANSFORMS], n_items: 0, lengths, n_hidden: 1, bottom: zero, top: zero }
    }

    /// CK Tile's `transform_tensor_descriptor` on the adaptor inside a
    /// descriptor: `stage` (validated against this adaptor's top lengths)
    /// appended, its lower positions naming this adaptor's top ids, its
    /// upper positions `p` the fresh ids `num_hidden() + p`, which are the
    /// new top in order (CK's numbering: a descriptor's every level is a
    /// run of consecutive ids). Refused past [`MAX_TRANSFORMS`] transforms
    /// or [`MAX_HIDDEN`] ids.
    pub(crate) const fn stacked(&self, stage: &Stage) -> Result<Adaptor, Error> {
        let given = self.items().len() + stage.items().len();
        if given > MAX_TRANSFORMS {
            return Err(problem(AdaptorProblem::TooManyTransforms { given, max: MAX_TRANSFORMS }));
        }
        let next = self.n_hidden as usize;
        let up = stage.upper_lengths();
        if next + up.len() > MAX_HIDDEN {
            return Err(problem(AdaptorProblem::IdTooLarge { id: next + up.len() - 1, max: MAX_HIDDEN }));
        }
        let mut out = *self;
        let mut i = 0;
        while i < stage.items().len() {
            let item = &stage.items()[i];
            let lower = tri!(IdMap::Select(self.top).ids(item.lower()));
            let upper = tri!(IdMap::Shift(next).ids(item.upper()));
            out.items[(self.n_items as usize + i) % MAX_TRANSFORMS] = Item::from_ids(*item.transform(), lower, upper);
            i += 1;
        }
        let mut j = 0;
        while j < up.len() {
            out.lengths[(next + j) % MAX_HIDDEN] = up.get(j);
            j += 1;
        }
        out.n_items = given as u8;
        out.n_hidden = (next + up.len()) as u8;
        out.top = tri!(IdMap::Shift(next).ids(Ids::first(up.len())));
        Ok(out)
    }

    /// CK Tile's `chain_tensor_adaptors(self, next)`: `next`'s bottom
    /// dimensions are this adaptor's top dimensions (same number, same
    /// lengths); the result goes from `next`'s top to this adaptor's bottom.
    /// `next`'s other hidden ids are shifted past this adaptor's.
    ///
    /// ```
    /// use cktile_core::adaptor::Adaptor;
    /// use cktile_core::transforms::{Dims, Transform};
    /// use cktile_core::Item;
    /// let split = Adaptor::single_stage(Dims::from_slice(&[32])?, &[Item::new(Transform::unmerge(&[4, 8])?, &[0], &[0, 1])?])?;
    /// let merge = Adaptor::single_stage(Dims::from_slice(&[4, 8])?, &[Item::new(Transform::merge(&[8, 4])?, &[1, 0], &[0])?])?;
    /// let both = split.chain(&merge)?;
    /// assert_eq!(both.calculate_bottom_index(&[9])?.as_slice(), &[10]);
    /// assert!(merge.chain(&merge).is_err()); // 1 top dimension, 2 bottom ones
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn chain(&self, next: &Adaptor) -> Result<Adaptor, Error> {
        tri!(chains_onto(self.top_lengths(), next.bottom_lengths()));
        // CK's shift: `next`'s smallest non-bottom id lands just past this adaptor's largest.
        let rename = IdMap::Rename {
            to: self.top,
            from: next.bottom,
            base: self.n_hidden as usize,
            smallest: next.smallest_inner_id(),
        };
        let mut all = tri!(ItemList::of(self.items(), next.items().len()));
        let mut i = 0;
        while i < next.items().len() {
            let item = &next.items()[i];
            all.push(Item::from_ids(*item.transform(), tri!(rename.ids(item.lower())), tri!(rename.ids(item.upper()))));
            i += 1;
        }
        let (top, n_top) = tri!(rename.ids(next.top)).to_array();
        let (bottom, n_bottom) = self.bottom.to_array();
        Adaptor::new(self.bottom_lengths(), all.as_slice(), bottom.split_at(n_bottom).0, top.split_at(n_top).0)
    }

    /// The smallest hidden id an item reads or writes that is not a bottom
    /// one (0 when there is none).
    const fn smallest_inner_id(&self) -> usize {
        let mut smallest = usize::MAX;
        let mut i = 0;
        while i < self.items().len() {
            let item = &self.items()[i];
            let mut side = 0;
            while side < 2 {
                let ids = if side == 0 { item.lower() } else { item.upper() };
                let mut j = 0;
                while j < ids.len() {
                    let id = ids.get(j);
                    if !contains(self.bottom, id) && id < smallest {
                        smallest = id;
                    }
                    j += 1;
                }
                side += 1;
            }
            i += 1;
        }
        if smallest == usize::MAX { 0 } else { smallest }
    }

    /// The transforms, in order, with their hidden ids.
    ///
    /// ```
    /// use cktile_core::adaptor::Adaptor;
    /// use cktile_core::transforms::{Dims, Transform};
    /// use cktile_core::Item;
    /// let a = Adaptor::single_stage(Dims::from_slice(&[32])?, &[Item::new(Transform::unmerge(&[4, 8])?, &[0], &[0, 1])?])?;
    /// assert_eq!(a.items()[0].to_string(), "unmerge((4,8)) on [0] -> [1,2]");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn items(&self) -> &[Item] {
        self.items.split_at(self.n_items as usize).0
    }

    /// The number of transforms (`items().len()`).
    ///
    /// ```
    /// use cktile_core::adaptor::Adaptor;
    /// use cktile_core::transforms::{Dims, Transform};
    /// use cktile_core::Item;
    /// let a = Adaptor::single_stage(Dims::from_slice(&[32])?, &[Item::new(Transform::unmerge(&[4, 8])?, &[0], &[0, 1])?])?;
    /// assert_eq!(a.num_items(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn num_items(&self) -> usize {
        self.n_items as usize
    }

    /// The bottom dimensions' hidden ids.
    ///
    /// ```
    /// use cktile_core::adaptor::Adaptor;
    /// use cktile_core::transforms::{Dims, Transform};
    /// use cktile_core::Item;
    /// let a = Adaptor::single_stage(Dims::from_slice(&[4, 8])?, &[Item::new(Transform::merge(&[4, 8])?, &[0, 1], &[0])?])?;
    /// assert_eq!(a.bottom_ids().to_array(), ([0, 1, 0, 0, 0, 0, 0, 0], 2));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn bottom_ids(&self) -> Ids {
        self.bottom
    }

    /// The top dimensions' hidden ids.
    ///
    /// ```
    /// use cktile_core::adaptor::Adaptor;
    /// use cktile_core::transforms::{Dims, Transform};
    /// use cktile_core::Item;
    /// let a = Adaptor::single_stage(Dims::from_slice(&[4, 8])?, &[Item::new(Transform::merge(&[4, 8])?, &[0, 1], &[0])?])?;
    /// assert_eq!(a.top_ids().to_array(), ([2, 0, 0, 0, 0, 0, 0, 0], 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn top_ids(&self) -> Ids {
        self.top
    }

    /// CK Tile's `get_top_dimension_safe_vector_length_strides` of an
    /// adaptor: the vectors of the bottom dimensions (`bottom`, one per
    /// bottom dimension in order) carried up through every transform by its
    /// rule ([`Transform::vector_rule`](cktile_transforms::Transform::vector_rule)),
    /// one per top dimension. A tile window finds its vector dimension this
    /// way: the distribution's `ps_ys_to_xs` adaptor over the view's top
    /// vectors.
    ///
    /// ```
    /// use cktile_core::distribution::{catalogue, Distribution};
    /// use cktile_core::transforms::{MAX_DIMS, Vector};
    /// let a = Distribution::new(catalogue::mfma_a(32, 8)?)?;
    /// let mut x = [Vector::UNKNOWN; MAX_DIMS];
    /// x[1] = Vector::new(8, 1); // K: 8 contiguous elements
    /// // (P, Y): Y walks K's last 4 components, so it may move 4 at once.
    /// assert_eq!(a.ps_ys_to_xs().top_vectors(&x)[1], Vector::new(4, 1));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn top_vectors(&self, bottom: &[Vector; MAX_DIMS]) -> [Vector; MAX_DIMS] {
        let mut hidden = [Vector::UNKNOWN; MAX_HIDDEN];
        let mut i = 0;
        while i < self.bottom.len() {
            let id = self.bottom.get(i);
            if id < MAX_HIDDEN {
                hidden[id] = bottom[i % MAX_DIMS];
            }
            i += 1;
        }
        i = 0;
        while i < self.num_items() {
            self.vector_item(i, &mut hidden);
            i += 1;
        }
        let mut top = [Vector::UNKNOWN; MAX_DIMS];
        i = 0;
        while i < self.top.len() && i < MAX_DIMS {
            let id = self.top.get(i);
            if id < MAX_HIDDEN {
                top[i] = hidden[id];
            }
            i += 1;
        }
        top
    }

    /// One past the largest hidden id in use (CK's `get_num_of_hidden_dimension`
    /// when the ids are dense, as every constructor here makes them).
    ///
    /// ```
    /// use cktile_core::adaptor::Adaptor;
    /// use cktile_core::transforms::{Dims, Transform};
    /// use cktile_core::Item;
    /// let a = Adaptor::single_stage(Dims::from_slice(&[32])?, &[Item::new(Transform::unmerge(&[4, 8])?, &[0], &[0, 1])?])?;
    /// assert_eq!(a.num_hidden(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn num_hidden(&self) -> usize {
        self.n_hidden as usize
    }

    /// The length of hidden dimension `id` (0 past the ids in use).
    ///
    /// ```
    /// use cktile_core::adaptor::Adaptor;
    /// use cktile_core::transforms::{Dims, Transform};
    /// use cktile_core::Item;
    /// let a = Adaptor::single_stage(Dims::from_slice(&[32])?, &[Item::new(Transform::unmerge(&[4, 8])?, &[0], &[0, 1])?])?;
    /// assert_eq!((a.hidden_length(0), a.hidden_length(2), a.hidden_length(9)), (32, 8, 0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn hidden_length(&self, id: usize) -> Index {
        if id < MAX_HIDDEN { self.lengths[id] } else { 0 }
    }

    const fn lengths_of(&self, ids: Ids) -> Dims {
        let mut out = Dims::EMPTY;
        let mut i = 0;
        while i < ids.len() {
            // At most MAX_DIMS ids: the push cannot fail.
            out = match out.push(self.hidden_length(ids.get(i))) {
                Ok(d) => d,
                Err(_) => out,
            };
            i += 1;
        }
        out
    }

    /// Lengths of the top dimensions.
    ///
    /// ```
    /// use cktile_core::adaptor::Adaptor;
    /// use cktile_core::transforms::{Dims, Transform};
    /// use cktile_core::Item;
    /// let a = Adaptor::single_stage(Dims::from_slice(&[32])?, &[Item::new(Transform::unmerge(&[4, 8])?, &[0], &[0, 1])?])?;
    /// assert_eq!(a.top_lengths().as_slice(), &[4, 8]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn top_lengths(&self) -> Dims {
        self.lengths_of(self.top)
    }

    /// Lengths of the bottom dimensions.
    ///
    /// ```
    /// use cktile_core::adaptor::Adaptor;
    /// use cktile_core::transforms::{Dims, Transform};
    /// use cktile_core::Item;
    /// let a = Adaptor::single_stage(Dims::from_slice(&[32])?, &[Item::new(Transform::unmerge(&[4, 8])?, &[0], &[0, 1])?])?;
    /// assert_eq!(a.bottom_lengths().as_slice(), &[32]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn bottom_lengths(&self) -> Dims {
        self.lengths_of(self.bottom)
    }

    /// Checks a top index: one value per top dimension, each in range.
    fn check_top(&self, top: &[Index]) -> Result<(), Error> {
        if top.len() != self.top.len() {
            return Err(Error::descriptor(DescriptorProblem::CoordinateArity {
                expected: self.top.len(),
                found: top.len(),
            }));
        }
        stage::check_coordinate(&self.top_lengths().to_array(), top)
    }

    /// The hidden index with the top values at the top ids (values past
    /// the top dimensions are ignored, missing ones are 0) and 0 elsewhere:
    /// where a walk down starts.
    ///
    /// ```
    /// use cktile_core::adaptor::Adaptor;
    /// use cktile_core::transforms::{Dims, Transform};
    /// use cktile_core::Item;
    /// let a = Adaptor::single_stage(Dims::from_slice(&[32])?, &[Item::new(Transform::unmerge(&[4, 8])?, &[0], &[0, 1])?])?;
    /// assert_eq!(a.placed(&[3, 5])[..3], [0, 3, 5]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn placed(&self, top: &[Index]) -> Hidden {
        let mut hidden = [0 as Index; MAX_HIDDEN];
        let mut k = 0;
        while k < top.len() && k < self.top.len() {
            hidden[self.top.get(k) % MAX_HIDDEN] = top[k];
            k += 1;
        }
        hidden
    }

    /// Every hidden index for a top index, without range checks (CK's
    /// `calculate_bottom_index` before it selects the bottom ones): the top
    /// values are placed at their hidden ids and the transforms run from the
    /// last to the first, each writing its lower ids from its upper ones.
    /// Hidden dimensions nothing writes stay 0.
    ///
    /// ```
    /// use cktile_core::adaptor::Adaptor;
    /// use cktile_core::transforms::{Dims, Transform};
    /// use cktile_core::Item;
    /// let a = Adaptor::single_stage(Dims::from_slice(&[32])?, &[Item::new(Transform::unmerge(&[4, 8])?, &[0], &[0, 1])?])?;
    /// assert_eq!(a.hidden_index_unchecked(&[3, 5])[..3], [29, 3, 5]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn hidden_index_unchecked(&self, top: &[Index]) -> Hidden {
        let mut hidden = self.placed(top);
        let mut t = self.num_items();
        while t > 0 {
            t -= 1;
            self.lower_item(t, &mut hidden);
        }
        hidden
    }

    /// The bottom index for a top index, without range checks.
    ///
    /// ```
    /// use cktile_core::adaptor::Adaptor;
    /// use cktile_core::transforms::{Dims, Transform};
    /// use cktile_core::Item;
    /// let a = Adaptor::single_stage(Dims::from_slice(&[32])?, &[Item::new(Transform::unmerge(&[4, 8])?, &[0], &[0, 1])?])?;
    /// assert_eq!(a.bottom_index_unchecked(&[3, 5]).as_slice(), &[29]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn bottom_index_unchecked(&self, top: &[Index]) -> Dims {
        let hidden = self.hidden_index_unchecked(top);
        let mut out = Dims::EMPTY;
        let mut k = 0;
        while k < self.bottom.len() {
            // At most MAX_DIMS ids: the push cannot fail.
            out = match out.push(hidden[self.bottom.get(k) % MAX_HIDDEN]) {
                Ok(d) => d,
                Err(_) => out,
            };
            k += 1;
        }
        out
    }

    /// CK Tile's `calculate_bottom_index`, checking that `top` has one value
    /// per top dimension, each within its length.
    ///
    /// ```
    /// use cktile_core::adaptor::Adaptor;
    /// use cktile_core::transforms::{Dims, Transform};
    /// use cktile_core::Item;
    /// let a = Adaptor::single_stage(Dims::from_slice(&[32])?, &[Item::new(Transform::unmerge(&[4, 8])?, &[0], &[0, 1])?])?;
    /// assert_eq!(a.calculate_bottom_index(&[3, 5])?.as_slice(), &[29]);
    /// assert_eq!(a.calculate_bottom_index(&[3, 8]).unwrap_err().to_string(), "coordinate dimension 1 is 8; it must be in [0, 8)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn calculate_bottom_index(&self, top: &[Index]) -> Result<Dims, Error> {
        self.check_top(top)?;
        Ok(self.bottom_index_unchecked(top))
    }
}

/// A fixed-capacity list of items, for building adaptors without `alloc`.
#[derive(Clone, Copy)]
struct ItemList {
    items: [Item; MAX_TRANSFORMS],
    len: usize,
}

impl ItemList {
    /// A list starting with `items`, with room for `more`: refused when the
    /// total exceeds [`MAX_TRANSFORMS`], naming the total.
    const fn of(items: &[Item], more: usize) -> Result<ItemList, Error> {
        let given = items.len() + more;
        if given > MAX_TRANSFORMS {
            return Err(problem(AdaptorProblem::TooManyTransforms { given, max: MAX_TRANSFORMS }));
        }
        let mut list = ItemList { items: [FILLER; MAX_TRANSFORMS], len: items.len() };
        let mut i = 0;
        while i < items.len() {
            list.items[i] = items[i];
            i += 1;
        }
        Ok(list)
    }

    /// Appends an item (room was made by [`of`](Self::of)).
    const fn push(&mut self, item: Item) {
        self.items[self.len % MAX_TRANSFORMS] = item;
        self.len += 1;
    }

    const fn as_slice(&self) -> &[Item] {
        self.items.split_at(self.len).0
    }
}

/// `bottom [ids] (lengths) | item | ... | top [ids]`, the transforms with
/// their hidden ids (for reading; there is no parser for it).
///
/// ```
/// use cktile_core::adaptor::Adaptor;
/// use cktile_core::transforms::{Dims, Transform};
/// use cktile_core::Item;
/// let a = Adaptor::single_stage(Dims::from_slice(&[32])?, &[Item::new(Transform::unmerge(&[4, 8])?, &[0], &[0, 1])?])?;
/// assert_eq!(a.to_string(), "bottom [0] (32) | unmerge((4,8)) on [0] -> [1,2] | top [1,2]");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl fmt::Display for Adaptor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("bottom ")?;
        write_ids(f, self.bottom)?;
        f.write_str(" (")?;
        write_joined(f, self.bottom_lengths().as_slice(), ",", |f, length| write!(f, "{length}"))?;
        f.write_str(")")?;
        for item in self.items() {
            write!(f, " | {item}")?;
        }
        f.write_str(" | top ")?;
        write_ids(f, self.top)
    }
}
