//! [`Descriptor::from_adaptor`]: CK Tile's
//! `make_tensor_descriptor_from_adaptor`, the other half of CK's
//! "a descriptor is an adaptor plus an element space" (the first is
//! [`Adaptor::of_descriptor`]).
//!
//! An adaptor wires transforms through hidden ids; a descriptor lists them
//! in `transform(...)` stages, each reading every dimension of the stage
//! below once. The adaptor's transforms are taken in order and gathered
//! into as few stages as their wiring allows: a stage closes when a
//! transform reads what the stage itself produces. A dimension no
//! transform of a stage reads is passed through it, and a hidden
//! dimension nothing reads and that is no top one, which CK leaves at 0,
//! is fixed at 0 (`freeze(0)`). The last stage orders its dimensions as
//! the adaptor's top; the others keep the adaptor's hidden order.

use super::{Descriptor, Item, MAX_ITEMS, tri};
use crate::adaptor::{Adaptor, AdaptorProblem, MAX_HIDDEN};
use crate::error::{DescriptorProblem, Error};
use cktile_transforms::{Dims, Index, MAX_DIMS, Transform};

/// The hidden ids of one level of stages (the top of the stages so far).
#[derive(Clone, Copy)]
struct Level {
    ids: [usize; MAX_DIMS],
    n: usize,
}

impl Level {
    /// The position of hidden dimension `id`, if it is on this level.
    const fn position(&self, id: usize) -> Option<usize> {
        let mut p = 0;
        while p < self.n {
            if self.ids[p] == id {
                return Some(p);
            }
            p += 1;
        }
        None
    }
}

/// What the adaptor says of each hidden dimension: read by a transform,
/// or a top one.
struct Use {
    read: [bool; MAX_HIDDEN],
    top: [bool; MAX_HIDDEN],
}

impl Use {
    const fn of(adaptor: &Adaptor) -> Use {
        let (mut read, mut top) = ([false; MAX_HIDDEN], [false; MAX_HIDDEN]);
        let items = adaptor.items();
        let mut t = 0;
        while t < items.len() {
            let lower = items[t].lower();
            let mut j = 0;
            while j < lower.len() {
                read[lower.get(j) % MAX_HIDDEN] = true;
                j += 1;
            }
            t += 1;
        }
        let ids = adaptor.top_ids();
        let mut k = 0;
        while k < ids.len() {
            top[ids.get(k) % MAX_HIDDEN] = true;
            k += 1;
        }
        Use { read, top }
    }

    /// Nothing reads it and it is no top dimension: CK leaves it at 0.
    const fn dangling(&self, id: usize) -> bool {
        !self.read[id % MAX_HIDDEN] && !self.top[id % MAX_HIDDEN]
    }
}

impl Descriptor {
    /// CK Tile's `make_tensor_descriptor_from_adaptor(adaptor,
    /// element_space_size)`: the descriptor whose top is the adaptor's top
    /// and whose offset is the adaptor's one bottom index. The element
    /// space is the bottom dimension's length (cktile's adaptors know it),
    /// the base is `packed((length))`, and the adaptor's transforms follow
    /// in `transform(...)` stages (see the [module documentation](self)).
    /// First transforms that are a base's own (an `embed` or `unmerge` of
    /// the whole element space, or an `offset` below an `embed`) become
    /// the base, `naive`, `packed` or `naive_with_offset`,
    /// so the result prints as a spec and serves every descriptor tool:
    /// the analyzer, the checks, the code generator.
    ///
    /// With [`Adaptor::of_descriptor`] it goes both ways: a descriptor
    /// read as an adaptor and back has the same offsets, validity, stages
    /// and element space (tests hold this on random chains and the
    /// catalogue). The element space is the bottom dimension's length, but
    /// under a folded `naive_with_offset` base, whose element space leaves
    /// its offset out, as CK's does.
    ///
    /// # Errors
    ///
    /// [`AdaptorProblem::DescriptorBottom`] unless the adaptor has exactly
    /// one bottom dimension; a descriptor's limits where the stages exceed
    /// them: [`DescriptorProblem::TooManyDims`] (a level of more than
    /// [`MAX_DIMS`] dimensions), `TooManyItems`, `TooManyStages`.
    ///
    /// ```
    /// use cktile_core::adaptor::Adaptor;
    /// use cktile_core::transforms::{Dims, Transform};
    /// use cktile_core::{Descriptor, Item};
    /// // Hidden 0 (64 elements) unmerged into hidden 1, 2 (16, 4); the top is (2, 1).
    /// let split = Item::new(Transform::unmerge(&[16, 4])?, &[0], &[1, 2])?;
    /// let a = Adaptor::new(Dims::from_slice(&[64])?, &[split], &[0], &[2, 1])?;
    /// let d = Descriptor::from_adaptor(&a)?;
    /// assert_eq!(d.to_string(), "packed(64)\n| transform(unmerge((16,4)) on [0] -> [1,0])");
    /// assert_eq!(d.calculate_offset(&[3, 5]), a.calculate_bottom_index(&[3, 5])?.get(0));
    /// assert_eq!(d.element_space_size(), 64);
    /// // With the top in the unmerge's order, the unmerge is the base: a packed (16, 4).
    /// let b = Adaptor::new(Dims::from_slice(&[64])?, &[split], &[0], &[1, 2])?;
    /// assert_eq!(Descriptor::from_adaptor(&b)?, Descriptor::packed(&[16, 4])?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn from_adaptor(adaptor: &Adaptor) -> Result<Descriptor, Error> {
        let bottom = adaptor.bottom_ids();
        if bottom.len() != 1 {
            return Err(Error::new(crate::ErrorKind::Adaptor(AdaptorProblem::DescriptorBottom { dims: bottom.len() })));
        }
        let space = adaptor.bottom_lengths().get(0);
        let uses = Use::of(adaptor);
        let items = adaptor.items();
        let mut level = Level { ids: [0; MAX_DIMS], n: 1 };
        level.ids[0] = bottom.get(0);
        let mut t = 0;
        let mut desc = match folded_base(adaptor, space, &uses) {
            Some((base, next, used)) => {
                t = used;
                level = next;
                base
            }
            None => tri!(Descriptor::packed(&[space as usize])),
        };
        while t < items.len() || has_dangling(&level, &uses) {
            // Gather the transforms that read only this level, each
            // dimension once.
            let first = t;
            let mut consumed = [false; MAX_DIMS];
            while t < items.len() {
                let lower = items[t].lower();
                let mut fits = true;
                let mut j = 0;
                while j < lower.len() {
                    match level.position(lower.get(j)) {
                        Some(p) if !consumed[p] => {}
                        _ => fits = false,
                    }
                    j += 1;
                }
                if !fits {
                    break;
                }
                let mut j = 0;
                while j < lower.len() {
                    if let Some(p) = level.position(lower.get(j)) {
                        consumed[p] = true;
                    }
                    j += 1;
                }
                t += 1;
            }
            let next = tri!(next_level(adaptor, &level, &consumed, first, t, &uses));
            let stage = tri!(stage_items(adaptor, &level, &next, &consumed, first, t, &uses));
            desc = tri!(desc.transform(stage.0.split_at(stage.1).0));
            level = next;
        }
        Ok(desc)
    }
}

/// The base a descriptor read as an adaptor started from, with the level
/// above it and how many of the adaptor's transforms it takes: an `embed`
/// (a `naive` base) or an `unmerge` (a `packed` one) of the whole bottom
/// dimension, or an `offset` of it below an `embed` (a
/// `naive_with_offset` one), whose outputs are the next level in order and
/// whose bottom is the adaptor's. `None` otherwise (the base is then
/// `packed((space))` and the transforms stages).
const fn folded_base(adaptor: &Adaptor, space: Index, uses: &Use) -> Option<(Descriptor, Level, usize)> {
    let bottom = Level { ids: [adaptor.bottom_ids().get(0), 0, 0, 0, 0, 0, 0, 0], n: 1 };
    let items = adaptor.items();
    let Some(first) = items.first() else { return None };
    let (base, next, used) = match base_stage(adaptor, 0, &bottom, uses) {
        Some((lengths, _, true, next)) => (Descriptor::packed_dims(lengths, None), next, 1),
        Some((lengths, strides, false, next)) => {
            (Descriptor::naive_dims(lengths, strides, cktile_transforms::Vector::UNKNOWN), next, 1)
        }
        None => {
            // An offset of the bottom below an embed of its output.
            let (lower, upper) = (first.lower(), first.upper());
            if lower.len() != 1 || upper.len() != 1 {
                return None;
            }
            let length = adaptor.hidden_length(upper.get(0));
            let shift = first.transform().calculate_lower(&[0; MAX_DIMS])[0];
            let kind = first.transform().kind() as u8;
            if shift < 0 || !matches!(kind_of(Transform::offset(length as usize, shift as usize)), Ok(k) if k == kind) {
                return None;
            }
            let mut between = Level { ids: [0; MAX_DIMS], n: 1 };
            between.ids[0] = upper.get(0);
            let Some((lengths, strides, false, next)) = base_stage(adaptor, 1, &between, uses) else { return None };
            (Descriptor::naive_with_offset_dims(lengths, strides, shift), next, 2)
        }
    };
    match base {
        Ok(d) if d.stages()[0].lower_lengths().get(0) == space => Some((d, next, used)),
        _ => None,
    }
}

/// Whether transform `t` of the adaptor is a base's own over `level` (one
/// dimension, read whole): an `unmerge` (`true`) or an `embed` (`false`)
/// whose outputs are the level above it in order. Its lengths and
/// strides, and that level.
const fn base_stage(adaptor: &Adaptor, t: usize, level: &Level, uses: &Use) -> Option<(Dims, Dims, bool, Level)> {
    let items = adaptor.items();
    if t >= items.len() {
        return None;
    }
    let item = &items[t];
    if item.lower().len() != 1 || item.lower().get(0) != level.ids[0] {
        return None;
    }
    let Ok(next) = next_level(adaptor, level, &[true, false, false, false, false, false, false, false], t, t + 1, uses)
    else {
        return None;
    };
    let upper = item.upper();
    if upper.len() != next.n {
        return None;
    }
    let (mut lengths, mut strides) = (Dims::EMPTY, Dims::EMPTY);
    let mut j = 0;
    while j < upper.len() {
        if next.ids[j] != upper.get(j) {
            return None; // the outputs are not the next level in order
        }
        let mut unit = [0; MAX_DIMS];
        unit[j] = 1;
        let Ok(l) = lengths.push(adaptor.hidden_length(upper.get(j))) else { return None };
        let Ok(s) = strides.push(item.transform().calculate_lower(&unit)[0]) else { return None };
        (lengths, strides) = (l, s);
        j += 1;
    }
    let kind = item.transform().kind() as u8;
    if matches!(kind_of(Transform::unmerge_dims(lengths)), Ok(k) if k == kind) {
        Some((lengths, strides, true, next))
    } else if matches!(kind_of(Transform::embed_dims(lengths, strides)), Ok(k) if k == kind) {
        Some((lengths, strides, false, next))
    } else {
        None
    }
}

/// The kind of a transform just built, as a number to compare in `const`.
const fn kind_of(t: Result<Transform, cktile_transforms::Error>) -> Result<u8, ()> {
    match t {
        Ok(t) => Ok(t.kind() as u8),
        Err(_) => Err(()),
    }
}

/// Whether a dimension of `level` is one CK leaves at 0 (it needs a stage
/// to fix it).
const fn has_dangling(level: &Level, uses: &Use) -> bool {
    let mut p = 0;
    while p < level.n {
        if uses.dangling(level.ids[p]) {
            return true;
        }
        p += 1;
    }
    false
}

/// The level above a stage of the adaptor's transforms `first..end` over
/// `level`: their outputs and the dimensions passed through (the
/// unconsumed ones that are not fixed at 0). The last stage (every
/// transform gathered, nothing left to fix) orders them as the adaptor's
/// top; the others by hidden id.
const fn next_level(
    adaptor: &Adaptor,
    level: &Level,
    consumed: &[bool; MAX_DIMS],
    first: usize,
    end: usize,
    uses: &Use,
) -> Result<Level, Error> {
    let mut present = [false; MAX_HIDDEN];
    let mut count = 0;
    let items = adaptor.items();
    let mut t = first;
    while t < end {
        let upper = items[t].upper();
        let mut j = 0;
        while j < upper.len() {
            present[upper.get(j) % MAX_HIDDEN] = true;
            count += 1;
            j += 1;
        }
        t += 1;
    }
    let mut p = 0;
    while p < level.n {
        if !consumed[p] && !uses.dangling(level.ids[p]) {
            present[level.ids[p] % MAX_HIDDEN] = true;
            count += 1;
        }
        p += 1;
    }
    if count > MAX_DIMS {
        return Err(Error::descriptor(DescriptorProblem::TooManyDims { given: count, max: MAX_DIMS }));
    }
    let mut next = Level { ids: [0; MAX_DIMS], n: count };
    let mut last = end == items.len();
    let mut id = 0;
    while id < MAX_HIDDEN {
        if present[id] && uses.dangling(id) {
            last = false;
        }
        id += 1;
    }
    if last {
        let top = adaptor.top_ids();
        let mut k = 0;
        while k < top.len() && k < MAX_DIMS {
            next.ids[k] = top.get(k);
            k += 1;
        }
    } else {
        let (mut id, mut k) = (0, 0);
        while id < MAX_HIDDEN && k < MAX_DIMS {
            if present[id] {
                next.ids[k] = id;
                k += 1;
            }
            id += 1;
        }
    }
    Ok(next)
}

/// The items of the stage from `level` to `next`: the adaptor's
/// transforms `first..end`, then a pass-through of each unconsumed
/// dimension, or `freeze(0)` of one CK leaves at 0.
const fn stage_items(
    adaptor: &Adaptor,
    level: &Level,
    next: &Level,
    consumed: &[bool; MAX_DIMS],
    first: usize,
    end: usize,
    uses: &Use,
) -> Result<([Item; MAX_ITEMS], usize), Error> {
    let filler = tri!(Item::new(tri!(lift(Transform::freeze(0))), &[0], &[]));
    let mut out = [filler; MAX_ITEMS];
    let mut n = 0;
    let items = adaptor.items();
    let mut t = first;
    while t < end {
        let (lower, upper) = (items[t].lower(), items[t].upper());
        let (mut lo, mut up) = ([0usize; MAX_DIMS], [0usize; MAX_DIMS]);
        let mut j = 0;
        while j < lower.len() {
            lo[j] = position_of(level, lower.get(j));
            j += 1;
        }
        let mut j = 0;
        while j < upper.len() {
            up[j] = position_of(next, upper.get(j));
            j += 1;
        }
        let item = tri!(Item::new(*items[t].transform(), lo.split_at(lower.len()).0, up.split_at(upper.len()).0));
        n = tri!(push(&mut out, n, item));
        t += 1;
    }
    let mut p = 0;
    while p < level.n {
        if !consumed[p] {
            let id = level.ids[p];
            let item = if uses.dangling(id) {
                tri!(Item::new(tri!(lift(Transform::freeze(0))), &[p], &[]))
            } else {
                let length = adaptor.hidden_length(id);
                tri!(Item::new(tri!(lift(Transform::pass_through(length as usize))), &[p], &[position_of(next, id)]))
            };
            n = tri!(push(&mut out, n, item));
        }
        p += 1;
    }
    Ok((out, n))
}

/// `id`'s position on `level` (every id asked for is on it: the stage's
/// reads were gathered from it, its outputs and pass-throughs make the
/// next one).
const fn position_of(level: &Level, id: usize) -> usize {
    match level.position(id) {
        Some(p) => p,
        None => MAX_DIMS, // out of range: Item::new refuses it
    }
}

/// Appends `item` at `n`, or the descriptor's item limit.
const fn push(out: &mut [Item; MAX_ITEMS], n: usize, item: Item) -> Result<usize, Error> {
    if n >= MAX_ITEMS {
        return Err(Error::descriptor(DescriptorProblem::TooManyItems { given: n + 1, max: MAX_ITEMS }));
    }
    out[n] = item;
    Ok(n + 1)
}

/// A transform-level error as this crate's (the pass-throughs and
/// freezes built here are valid for every length an adaptor holds).
const fn lift(r: Result<Transform, cktile_transforms::Error>) -> Result<Transform, Error> {
    match r {
        Ok(t) => Ok(t),
        Err(source) => Err(Error::transform(source)),
    }
}

/// The descriptor-to-adaptor half of the conversion, written here, with the
/// other half, so that the adaptor (beneath the descriptor) knows nothing of
/// descriptors.
impl Adaptor {
    /// The descriptor as CK Tile holds it: an adaptor from its top
    /// dimensions to its one bottom dimension, the element offset, whose
    /// length is the base's element space (CK's tensor descriptor is an
    /// adaptor plus its element space size). Each of the descriptor's
    /// stages becomes one [`transform`](Adaptor::transform) call, so
    /// `calculate_bottom_index(top)` is `[calculate_offset(top)]` and the
    /// adaptor validates a coordinate as the descriptor does.
    ///
    /// Fails only when the stages hold more than [`MAX_TRANSFORMS`](crate::adaptor::MAX_TRANSFORMS)
    /// transforms together, or more than [`MAX_HIDDEN`] dimensions.
    ///
    /// ```
    /// use cktile_core::adaptor::Adaptor;
    /// use cktile_core::{Descriptor, Item, Transform};
    /// // 64 rows of four 8-element vectors, vector x of row y at slot x ^ (y % 4).
    /// let block = Descriptor::packed(&[64, 4, 8])?;
    /// let xor = [Item::new(Transform::xor(64, 4)?, &[0, 1], &[0, 1])?, Item::new(Transform::pass_through(8)?, &[2], &[2])?];
    /// let merge = [Item::new(Transform::pass_through(64)?, &[0], &[0])?, Item::new(Transform::merge(&[4, 8])?, &[1, 2], &[1])?];
    /// let xor = block.transform(&xor)?.transform(&merge)?;
    /// let a = Adaptor::of_descriptor(&xor)?;
    /// assert_eq!(a.top_lengths(), xor.lengths());
    /// assert_eq!(a.calculate_bottom_index(&[5, 17])?.as_slice(), [xor.calculate_offset(&[5, 17])]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn of_descriptor(desc: &Descriptor) -> Result<Adaptor, Error> {
        let stages = desc.stages();
        // A descriptor always has its base stage; an empty chain would be
        // the single stage of no transforms.
        let Some((first, rest)) = stages.split_first() else {
            return Adaptor::single_stage(desc.lengths(), &[]);
        };
        let mut adaptor = tri!(Adaptor::single_stage(first.lower_lengths(), first.items()));
        let mut s = 0;
        while s < rest.len() {
            adaptor = tri!(adaptor.transform(rest[s].items()));
            s += 1;
        }
        Ok(adaptor)
    }
}
