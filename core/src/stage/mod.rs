//! [`Stage`] and [`Item`]: one `transform_tensor_descriptor` call as data.
//!
//! A stage maps the *new* top dimensions (its upper side) to the *old* top
//! dimensions (its lower side) through a list of items, each a transform with
//! the positions it reads and writes: every old top dimension is consumed
//! once and every new one produced once, so a stage's lower side is exactly
//! the previous stage's upper side. It is what
//! [`Descriptor::transform`](crate::Descriptor::transform) takes, which
//! numbers its positions as the descriptor's adaptor's hidden ids (CK
//! Tile's bookkeeping), and what
//! [`Descriptor::stages`](crate::Descriptor::stages) gives back. A stage
//! evaluates nothing itself: offsets are the adaptor's walk
//! ([`adaptor::walk`](crate::adaptor::walk)).
//!
//! What descriptors and adaptors, runtime and typed, share lives here,
//! beneath all four, importing none of them: the limits ([`MAX_ITEMS`] a
//! stage, [`MAX_STAGES`] a descriptor, [`MAX_HIDDEN`] an adaptor's hidden
//! ids), the checks of a stage's shape and ids, and the check of a top
//! coordinate against its lengths; and for the typed forms, the contract
//! both chains follow ([`built`]), their lists of transforms and ids
//! ([`lists`]), one typed stage's checks ([`typed`]) and the coordinate
//! arguments their methods take ([`coordinate`]).

pub mod built;
pub mod coordinate;
pub mod lists;
pub mod typed;

use crate::error::{DescriptorProblem, Error, Side};
use crate::names::write_joined;
use cktile_transforms::tri;
use cktile_transforms::{Dims, Index, Indices, MAX_DIMS, Transform, Vector};
use core::fmt;

/// The most transforms one stage may have.
///
/// ```
/// use cktile_core::transforms::Transform;
/// let d = cktile_core::Descriptor::packed(&[1; 9][..8]).unwrap();
/// let items: Vec<cktile_core::Item> =
///     (0..8).map(|i| cktile_core::Item::new(Transform::pass_through(1).unwrap(), &[i], &[i]).unwrap()).collect();
/// assert_eq!(items.len(), cktile_core::MAX_ITEMS);
/// assert!(d.transform(&items).is_ok());
/// ```
pub const MAX_ITEMS: usize = 8;

/// The most stages (base stages included) a descriptor may have.
///
/// ```
/// use cktile_core::{Descriptor, Item};
/// use cktile_core::transforms::Transform;
/// let mut d = Descriptor::packed(&[4]).unwrap();
/// let step = [Item::new(Transform::pass_through(4).unwrap(), &[0], &[0]).unwrap()];
/// for _ in 1..cktile_core::MAX_STAGES {
///     d = d.transform(&step).unwrap();
/// }
/// assert!(d.transform(&step).is_err()); // one stage too many
/// ```
pub const MAX_STAGES: usize = 8;

/// The most hidden dimensions an adaptor may number (ids `0..MAX_HIDDEN`):
/// the size of the hidden index both adaptors evaluate through.
///
/// ```
/// assert!(cktile_core::adaptor::MAX_HIDDEN >= 24);
/// ```
pub const MAX_HIDDEN: usize = 32;

/// A transform-level error of item `item`.
pub(crate) const fn in_item<T: Copy>(item: usize, r: Result<T, cktile_transforms::Error>) -> Result<T, Error> {
    match r {
        Ok(v) => Ok(v),
        Err(source) => Err(Error::descriptor(DescriptorProblem::Transform { item, source })),
    }
}

/// Refuses a new stage on a descriptor that has `n_stages` stages already
/// ([`MAX_STAGES`] at most).
#[inline]
pub(crate) const fn check_stage_count(n_stages: usize) -> Result<(), Error> {
    if n_stages >= MAX_STAGES {
        return Err(Error::descriptor(DescriptorProblem::TooManyStages { max: MAX_STAGES }));
    }
    Ok(())
}

/// Whether `index` lies in `[0, length)`, for a `length` that is not
/// negative (a descriptor's): one unsigned compare, a negative index being
/// a huge unsigned one.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) const fn in_range(index: Index, length: Index) -> bool {
    (index as u64) < (length as u64)
}

/// Checks that each entry of `top` lies in `[0, lengths[i])` (the arity is
/// the caller's: `lengths` has at least `top.len()` entries).
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) const fn check_coordinate(lengths: &Indices, top: &[Index]) -> Result<(), Error> {
    let mut i = 0;
    while i < top.len() && i < MAX_DIMS {
        if !in_range(top[i], lengths[i]) {
            return Err(Error::descriptor(DescriptorProblem::CoordinateOutOfRange {
                dim: i,
                value: top[i],
                length: lengths[i],
            }));
        }
        i += 1;
    }
    Ok(())
}

/// A list of dimension positions (CK Tile's `sequence<...>` of ids).
///
/// ```
/// let ids = cktile_core::Ids::from_slice(&[1, 0]).unwrap();
/// assert_eq!(ids.to_array().0[..2], [1, 0]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ids {
    pub(crate) len: u8,
    /// The ids; `u8::MAX` stands for `wide`.
    pub(crate) ids: [u8; MAX_DIMS],
    /// The first id that does not fit a `u8` (no valid id does: a stage has
    /// at most [`MAX_DIMS`] dimensions), kept so errors name it as written.
    wide: usize,
}

impl Ids {
    /// No ids.
    ///
    /// ```
    /// assert!(cktile_core::Ids::EMPTY.is_empty());
    /// ```
    pub const EMPTY: Ids = Ids { len: 0, ids: [0; MAX_DIMS], wide: 0 };

    /// Copies a list of ids (at most [`MAX_DIMS`] of them; their range is
    /// checked where they are used).
    ///
    /// ```
    /// assert!(cktile_core::Ids::from_slice(&[0; 9]).is_err());
    /// ```
    pub const fn from_slice(ids: &[usize]) -> Result<Ids, Error> {
        if ids.len() > MAX_DIMS {
            return Err(Error::descriptor(DescriptorProblem::TooManyDims { given: ids.len(), max: MAX_DIMS }));
        }
        let mut out = Ids::EMPTY;
        let mut i = 0;
        while i < ids.len() {
            if ids[i] < u8::MAX as usize {
                out.ids[i] = ids[i] as u8;
            } else {
                if out.wide == 0 {
                    out.wide = ids[i];
                }
                out.ids[i] = u8::MAX;
            }
            i += 1;
        }
        out.len = ids.len() as u8;
        Ok(out)
    }

    /// Converts a [`Dims`] of ids (negative ones become out of range).
    ///
    /// ```
    /// # use cktile_transforms::Dims;
    /// let d = Dims::from_slice(&[2, 0]).unwrap();
    /// assert_eq!(cktile_core::Ids::from_dims(&d).unwrap().to_array().0[..2], [2, 0]);
    /// ```
    pub const fn from_dims(dims: &Dims) -> Result<Ids, Error> {
        let mut raw = [0usize; MAX_DIMS];
        let mut i = 0;
        while i < dims.len() {
            let v = dims.get(i);
            // A negative id can never be in range; usize::MAX is named as such.
            raw[i] = if v < 0 { usize::MAX } else { v as usize };
            i += 1;
        }
        Ids::from_slice(raw.split_at(dims.len()).0)
    }

    /// The ids `0, 1, ..., n - 1` (at most [`MAX_DIMS`] of them).
    pub(crate) const fn first(n: usize) -> Ids {
        let mut ids = Ids::EMPTY;
        while (ids.len as usize) < n && (ids.len as usize) < MAX_DIMS {
            ids.ids[ids.len as usize] = ids.len;
            ids.len += 1;
        }
        ids
    }

    /// Every id less `by` (each at least `by`: the ids of a descriptor's
    /// level made positions again).
    pub(crate) const fn less(self, by: usize) -> Ids {
        let mut out = self;
        let mut j = 0;
        while j < self.len as usize && j < MAX_DIMS {
            out.ids[j] = self.ids[j].wrapping_sub(by as u8);
            j += 1;
        }
        out
    }

    /// Number of ids.
    ///
    /// ```
    /// assert_eq!(cktile_core::Ids::EMPTY.len(), 0);
    /// ```
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// True when there are no ids.
    ///
    /// ```
    /// assert!(cktile_core::Ids::EMPTY.is_empty());
    /// ```
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Id `i` (masked into range, so it never panics).
    ///
    /// ```
    /// assert_eq!(cktile_core::Ids::from_slice(&[3, 1]).unwrap().get(1), 1);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn get(&self, i: usize) -> usize {
        let id = self.ids[i % MAX_DIMS];
        if id == u8::MAX { self.wide } else { id as usize }
    }

    /// The ids.
    ///
    /// ```
    /// assert_eq!(cktile_core::Ids::from_slice(&[3, 1000]).unwrap().to_array(), ([3, 1000, 0, 0, 0, 0, 0, 0], 2));
    /// ```
    pub const fn to_array(&self) -> ([usize; MAX_DIMS], usize) {
        let mut out = [0; MAX_DIMS];
        let mut i = 0;
        while i < self.len() {
            out[i] = self.get(i);
            i += 1;
        }
        (out, self.len())
    }
}

/// One transform of a stage with its id lists: CK Tile's
/// `(transform, lower ids, upper ids)` triple.
///
/// ```
/// use cktile_core::Item;
/// use cktile_transforms::Transform;
/// let item = Item::new(Transform::xor(64, 8).unwrap(), &[1, 0], &[1, 0]).unwrap();
/// assert_eq!(item.to_string(), "xor((64,8)) on [1,0] -> [1,0]");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Item {
    pub(crate) transform: Transform,
    pub(crate) lower: Ids,
    pub(crate) upper: Ids,
}

impl Item {
    /// A transform applied to old top dimensions `lower`, producing new top
    /// dimensions `upper`.
    ///
    /// ```
    /// # use cktile_core::Item;
    /// # use cktile_transforms::Transform;
    /// assert!(Item::new(Transform::pass_through(8).unwrap(), &[2], &[2]).is_ok());
    /// ```
    pub const fn new(transform: Transform, lower: &[usize], upper: &[usize]) -> Result<Item, Error> {
        let lower = tri!(Ids::from_slice(lower));
        let upper = tri!(Ids::from_slice(upper));
        Ok(Item { transform, lower, upper })
    }

    /// An item from already-built id lists.
    ///
    /// ```
    /// # use cktile_core::{Ids, Item};
    /// # use cktile_transforms::Transform;
    /// let ids = Ids::from_slice(&[0]).unwrap();
    /// let item = Item::from_ids(Transform::pass_through(4).unwrap(), ids, ids);
    /// assert_eq!(item.lower(), ids);
    /// ```
    pub const fn from_ids(transform: Transform, lower: Ids, upper: Ids) -> Item {
        Item { transform, lower, upper }
    }

    /// The transform.
    ///
    /// ```
    /// # use cktile_core::Item;
    /// # use cktile_transforms::{Kind, Transform};
    /// let item = Item::new(Transform::insert(2).unwrap(), &[], &[0]).unwrap();
    /// assert_eq!(item.transform().kind(), Kind::Insert);
    /// ```
    pub const fn transform(&self) -> &Transform {
        &self.transform
    }

    /// Positions among the old top dimensions that the transform reads.
    ///
    /// ```
    /// # use cktile_core::Item;
    /// # use cktile_transforms::Transform;
    /// let item = Item::new(Transform::merge(&[4, 8]).unwrap(), &[0, 3], &[1]).unwrap();
    /// assert_eq!(item.lower().to_array().0[..2], [0, 3]);
    /// ```
    pub const fn lower(&self) -> Ids {
        self.lower
    }

    /// Positions among the new top dimensions that the transform produces.
    ///
    /// ```
    /// # use cktile_core::Item;
    /// # use cktile_transforms::Transform;
    /// let item = Item::new(Transform::merge(&[4, 8]).unwrap(), &[0, 3], &[1]).unwrap();
    /// assert_eq!(item.upper().to_array().0[..1], [1]);
    /// ```
    pub const fn upper(&self) -> Ids {
        self.upper
    }

    /// Reads the values at `ids`, in order, out of a full list: a stage's
    /// dimensions or an adaptor's hidden index (ids taken modulo `N`).
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) const fn gather<const N: usize>(values: &[Index; N], ids: &Ids) -> Indices {
        let mut out = [0; MAX_DIMS];
        let mut j = 0;
        while j < ids.len() && j < MAX_DIMS {
            out[j] = values[ids.get(j) % N];
            j += 1;
        }
        out
    }

    /// Writes `values`, in order, at `ids` of a full list.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) const fn scatter<const N: usize>(values: &Indices, ids: &Ids, into: &mut [Index; N]) {
        let mut j = 0;
        while j < ids.len() && j < MAX_DIMS {
            into[ids.get(j) % N] = values[j];
            j += 1;
        }
    }
}

pub(crate) const FILLER: Item = Item {
    transform: match Transform::insert(1) {
        Ok(t) => t,
        Err(_) => panic!("insert(1) is valid"),
    },
    lower: Ids::EMPTY,
    upper: Ids::EMPTY,
};

/// A stage with no items and no dimensions, to fill arrays.
pub(crate) const EMPTY_STAGE: Stage =
    Stage { items: [FILLER; MAX_ITEMS], n_items: 0, lower_lengths: Dims::EMPTY, upper_lengths: Dims::EMPTY };

/// One `transform_tensor_descriptor` call, validated: its items, and the
/// lengths on both sides.
///
/// ```
/// use cktile_core::{Item, Stage};
/// use cktile_transforms::{Dims, Transform};
/// let old = Dims::from_slice(&[4, 8]).unwrap();
/// let merge = Item::new(Transform::merge(&[4, 8]).unwrap(), &[0, 1], &[0]).unwrap();
/// let stage = Stage::new(old, &[merge]).unwrap();
/// assert_eq!(stage.upper_lengths().as_slice(), &[32]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stage {
    items: [Item; MAX_ITEMS],
    n_items: u8,
    lower_lengths: Dims,
    upper_lengths: Dims,
}

/// What the structural checks of a stage read of one item: its
/// transform's name and numbers of dimensions, and its id lists. A typed
/// descriptor knows them from its types (whatever its runtime lengths),
/// so it runs [`Stage::check_shape`] at compile time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    pub(crate) name: &'static str,
    pub(crate) num_lower: usize,
    pub(crate) num_upper: usize,
    pub(crate) lower: Ids,
    pub(crate) upper: Ids,
}

impl Shape {
    pub(crate) const EMPTY: Shape =
        Shape { name: "", num_lower: 0, num_upper: 0, lower: Ids::EMPTY, upper: Ids::EMPTY };

    /// The shape of an item.
    #[inline]
    pub(crate) const fn of(item: &Item) -> Shape {
        Shape {
            name: item.transform.kind().name(),
            num_lower: item.transform.num_lower(),
            num_upper: item.transform.num_upper(),
            lower: item.lower,
            upper: item.upper,
        }
    }

    /// Refuses item `item` (of this shape) when one of its id lists, the
    /// lower one first, holds another number of ids than its transform has
    /// dimensions on that side.
    #[inline]
    pub(crate) const fn check_id_counts(&self, item: usize) -> Result<(), Error> {
        tri!(check_id_count(item, self.name, Side::Lower, self.num_lower, self.lower.len()));
        check_id_count(item, self.name, Side::Upper, self.num_upper, self.upper.len())
    }
}

/// Refuses item `item`, a `transform`, whose `side` lists `found` ids where
/// the transform has `expected` dimensions.
#[inline]
pub(crate) const fn check_id_count(
    item: usize,
    transform: &'static str,
    side: Side,
    expected: usize,
    found: usize,
) -> Result<(), Error> {
    if found != expected {
        return Err(Error::descriptor(DescriptorProblem::IdCount { item, transform, side, expected, found }));
    }
    Ok(())
}

/// Checks that the ids of one side, over all items, name each of `count`
/// dimensions exactly once.
#[inline]
const fn check_permutation(items: &[Shape], side: Side, count: usize) -> Result<(), Error> {
    let mut seen = [false; MAX_DIMS];
    let mut i = 0;
    while i < items.len() {
        let ids = match side {
            Side::Lower => items[i].lower,
            Side::Upper => items[i].upper,
        };
        let mut j = 0;
        while j < ids.len() {
            let id = ids.get(j);
            if id >= count {
                return Err(Error::descriptor(DescriptorProblem::IdOutOfRange { item: i, side, id, count }));
            }
            if seen[id] {
                return Err(Error::descriptor(DescriptorProblem::IdRepeated { side, id }));
            }
            seen[id] = true;
            j += 1;
        }
        i += 1;
    }
    let mut id = 0;
    while id < count {
        if !seen[id] {
            return Err(Error::descriptor(DescriptorProblem::IdMissing { side, id }));
        }
        id += 1;
    }
    Ok(())
}

impl Stage {
    /// Validates a stage applied to old top dimensions of lengths
    /// `lower_lengths`: id counts match the transforms, both id sides are
    /// permutations, and each transform fits the lengths it is applied to.
    ///
    /// ```
    /// # use cktile_core::{Item, Stage};
    /// # use cktile_transforms::{Dims, Transform};
    /// let old = Dims::from_slice(&[4, 8]).unwrap();
    /// let bad = Item::new(Transform::merge(&[4, 8]).unwrap(), &[0, 0], &[0]).unwrap();
    /// let e = Stage::new(old, &[bad]).unwrap_err();
    /// assert_eq!(e.to_string(), "lower ids are not a permutation: 0 appears more than once");
    /// ```
    pub const fn new(lower_lengths: Dims, items: &[Item]) -> Result<Stage, Error> {
        if items.len() > MAX_ITEMS {
            return Err(Error::descriptor(DescriptorProblem::TooManyItems { given: items.len(), max: MAX_ITEMS }));
        }
        let mut shapes = [Shape::EMPTY; MAX_ITEMS];
        let mut i = 0;
        while i < items.len() {
            shapes[i] = Shape::of(&items[i]);
            i += 1;
        }
        let n_upper = tri!(Stage::check_shape(lower_lengths.len(), shapes.split_at(items.len()).0));
        let mut stage = Stage {
            items: [FILLER; MAX_ITEMS],
            n_items: items.len() as u8,
            lower_lengths,
            upper_lengths: Dims::splat(n_upper, 0),
        };
        let mut upper = [0; MAX_DIMS];
        i = 0;
        while i < items.len() {
            let item = &items[i];
            let lens = Item::gather(&lower_lengths.to_array(), &item.lower);
            let lens = match Dims::from_slice(lens.split_at(item.lower.len()).0) {
                Ok(d) => d,
                Err(e) => return Err(Error::descriptor(DescriptorProblem::Transform { item: i, source: e })),
            };
            let bound = match item.transform.bind(&lens) {
                Ok(t) => t,
                Err(e) => return Err(Error::descriptor(DescriptorProblem::Transform { item: i, source: e })),
            };
            Item::scatter(&bound.upper_lengths().to_array(), &item.upper, &mut upper);
            stage.items[i] = Item { transform: bound, lower: item.lower, upper: item.upper };
            i += 1;
        }
        stage.upper_lengths = match Dims::from_slice(upper.split_at(n_upper).0) {
            Ok(d) => d,
            Err(e) => return Err(Error::descriptor(DescriptorProblem::Transform { item: 0, source: e })),
        };
        Ok(stage)
    }

    /// A stage of items already bound to `lower_lengths` (a descriptor's
    /// stage, read back from its adaptor), with no check.
    pub(crate) const fn from_bound(lower_lengths: Dims, upper_lengths: Dims, items: &[Item]) -> Stage {
        let mut stage = Stage { items: [FILLER; MAX_ITEMS], n_items: 0, lower_lengths, upper_lengths };
        while (stage.n_items as usize) < items.len() && (stage.n_items as usize) < MAX_ITEMS {
            stage.items[stage.n_items as usize] = items[stage.n_items as usize];
            stage.n_items += 1;
        }
        stage
    }

    /// The structural checks of [`new`](Self::new), which read no length
    /// but the number of old top dimensions, `lower_count`: at most
    /// [`MAX_ITEMS`] items, id counts that match the transforms, at most
    /// [`MAX_DIMS`] new top dimensions, and both id sides permutations.
    /// Returns the number of new top dimensions.
    #[inline]
    pub(crate) const fn check_shape(lower_count: usize, items: &[Shape]) -> Result<usize, Error> {
        if items.len() > MAX_ITEMS {
            return Err(Error::descriptor(DescriptorProblem::TooManyItems { given: items.len(), max: MAX_ITEMS }));
        }
        let mut n_upper = 0;
        let mut i = 0;
        while i < items.len() {
            let s = &items[i];
            tri!(s.check_id_counts(i));
            n_upper += s.num_upper;
            i += 1;
        }
        if n_upper > MAX_DIMS {
            return Err(Error::descriptor(DescriptorProblem::TooManyDims { given: n_upper, max: MAX_DIMS }));
        }
        if let Err(e) = check_permutation(items, Side::Lower, lower_count) {
            return Err(e);
        }
        if let Err(e) = check_permutation(items, Side::Upper, n_upper) {
            return Err(e);
        }
        Ok(n_upper)
    }

    /// The stage's items.
    ///
    /// ```
    /// # use cktile_core::{Item, Stage};
    /// # use cktile_transforms::{Dims, Transform};
    /// let item = Item::new(Transform::pass_through(4).unwrap(), &[0], &[0]).unwrap();
    /// let s = Stage::new(Dims::from_slice(&[4]).unwrap(), &[item]).unwrap();
    /// assert_eq!(s.items(), &[item]);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn items(&self) -> &[Item] {
        self.items.split_at(self.n_items as usize).0
    }

    /// Lengths of the old top dimensions (the lower side).
    ///
    /// ```
    /// # use cktile_core::{Item, Stage};
    /// # use cktile_transforms::{Dims, Transform};
    /// let item = Item::new(Transform::unmerge(&[2, 2]).unwrap(), &[0], &[0, 1]).unwrap();
    /// let s = Stage::new(Dims::from_slice(&[4]).unwrap(), &[item]).unwrap();
    /// assert_eq!(s.lower_lengths().as_slice(), &[4]);
    /// ```
    pub const fn lower_lengths(&self) -> Dims {
        self.lower_lengths
    }

    /// Lengths of the new top dimensions (the upper side).
    ///
    /// ```
    /// # use cktile_core::{Item, Stage};
    /// # use cktile_transforms::{Dims, Transform};
    /// let item = Item::new(Transform::unmerge(&[2, 2]).unwrap(), &[0], &[0, 1]).unwrap();
    /// let s = Stage::new(Dims::from_slice(&[4]).unwrap(), &[item]).unwrap();
    /// assert_eq!(s.upper_lengths().as_slice(), &[2, 2]);
    /// ```
    pub const fn upper_lengths(&self) -> Dims {
        self.upper_lengths
    }
}

/// One item's step of the vector propagation: the vectors of its lower ids
/// (read from `lower`) carried by `rule` to its upper ids (written into
/// `upper`). The runtime walk ([`Adaptor::vector_item`](crate::adaptor::Adaptor::vector_item))
/// and the typed chains' compile-time vectors share it.
pub(crate) const fn carry_vectors<const N: usize>(
    lower: &[Vector; N],
    rule: cktile_transforms::VectorRule,
    lower_ids: Ids,
    upper_ids: Ids,
    upper: &mut [Vector; N],
) {
    let mut low = [Vector::UNKNOWN; MAX_DIMS];
    let mut j = 0;
    while j < lower_ids.len() {
        let id = lower_ids.get(j);
        if id < N {
            low[j % MAX_DIMS] = lower[id];
        }
        j += 1;
    }
    let up = rule.upper(&low);
    j = 0;
    while j < upper_ids.len() {
        let id = upper_ids.get(j);
        if id < N {
            upper[id] = up[j % MAX_DIMS];
        }
        j += 1;
    }
}

/// An id list in spec syntax: `[0,3]`.
pub(crate) fn write_ids(f: &mut fmt::Formatter<'_>, ids: Ids) -> fmt::Result {
    let (ids, len) = ids.to_array();
    f.write_str("[")?;
    write_joined(f, &ids[..len], ",", |f, id| write!(f, "{id}"))?;
    f.write_str("]")
}

/// `transform on [lower] -> [upper]`.
///
/// ```
/// use cktile_core::Item;
/// use cktile_transforms::Transform;
/// let i = Item::new(Transform::merge(&[4, 8]).unwrap(), &[0, 3], &[1]).unwrap();
/// assert_eq!(i.to_string(), "merge((4,8)) on [0,3] -> [1]");
/// ```
impl fmt::Display for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} on ", self.transform())?;
        write_ids(f, self.lower())?;
        f.write_str(" -> ")?;
        write_ids(f, self.upper())
    }
}
