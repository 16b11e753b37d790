//! One stage of either typed chain, a typed descriptor's
//! `transform_tensor_descriptor` or a typed adaptor's transforms: its
//! structure read from the types, its items and the checks of a new one.
//! Beneath both chains (`descriptor/typed/chain.rs`, `adaptor/typed.rs`),
//! which import it and not each other, as the runtime forms share
//! [`Stage`].

use super::lists::{IdArray, IdLists, TransformArray, TransformList};
use super::{Item, Shape, Stage, check_stage_count, in_item};
use crate::MAX_ITEMS;
use crate::error::{DescriptorProblem, Error};
use cktile_transforms::{Dims, Indices, Kind, tri};

/// A list of lengths or ids read from a typed tuple, before it is checked.
pub(crate) type DimsResult = Result<Dims, cktile_transforms::Error>;

/// A transform-level error of such a list, as the runtime constructors name it.
pub(crate) const fn lift(d: DimsResult) -> Result<Dims, Error> {
    in_item(0, d)
}

/// Refuses a stage whose lists of transforms, lower ids and upper ids
/// differ in length.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
const fn check_list_count(transforms: usize, lower: usize, upper: usize) -> Result<(), Error> {
    if transforms != lower || transforms != upper {
        return Err(Error::descriptor(DescriptorProblem::ListCount { transforms, lower, upper }));
    }
    Ok(())
}

/// The structural checks of a `transform_tensor_descriptor` stage, in
/// [`transformed`]'s order: the id lists (as [`IdLists::lists`] returned
/// them), their count, the number of stages so far (`stages`), and
/// [`Stage::check_shape`] with the transforms' kinds and dimension counts
/// (`kinds`) on `lower_count` old top dimensions. Reads no length, so a
/// typed chain with compile-time ids runs it at compile time.
const fn stage_structure(
    stages: usize,
    lower_count: usize,
    kinds: &[(Kind, usize, usize)],
    lower: Result<IdArray, Error>,
    upper: Result<IdArray, Error>,
) -> Result<(), Error> {
    let (lo, up) = (tri!(lower), tri!(upper));
    tri!(check_list_count(kinds.len(), lo.len(), up.len()));
    tri!(check_stage_count(stages));
    if kinds.len() > MAX_ITEMS {
        return Err(Error::descriptor(DescriptorProblem::TooManyItems { given: kinds.len(), max: MAX_ITEMS }));
    }
    let mut shapes = [Shape::EMPTY; MAX_ITEMS];
    let mut i = 0;
    while i < kinds.len() {
        let (kind, num_lower, num_upper) = kinds[i];
        shapes[i] = Shape { name: kind.name(), num_lower, num_upper, lower: lo.get(i), upper: up.get(i) };
        i += 1;
    }
    tri!(Stage::check_shape(lower_count, shapes.split_at(kinds.len()).0));
    Ok(())
}

/// [`stage_structure`] of a stage of the transforms `X` with the id lists
/// `Lo` and `Up`, after `stages` stages and on `lower_count` dimensions,
/// when the ids are compile-time values; `None` when one is a runtime
/// value (the `STRUCTURE` of a typed descriptor's or adaptor's stage).
pub(crate) const fn static_structure<X: TransformList, Lo: IdLists, Up: IdLists>(
    stages: usize,
    lower_count: usize,
) -> Option<Result<(), Error>> {
    match (Lo::STATIC, Up::STATIC) {
        (Some(lo), Some(up)) => Some(stage_structure(stages, lower_count, X::KINDS, lo, up)),
        _ => None,
    }
}

/// The items of one `transform_tensor_*` stage (or a typed adaptor's
/// transforms with their hidden ids): each transform with its row of each
/// id list, refused when the lists differ in length. The items are the
/// first `.1` of `.0`.
pub(crate) const fn stage_items(
    transforms: Result<TransformArray, Error>,
    lower: Result<IdArray, Error>,
    upper: Result<IdArray, Error>,
) -> Result<([Item; MAX_ITEMS], usize), Error> {
    let (t, lo, up) = (tri!(transforms), tri!(lower), tri!(upper));
    tri!(check_list_count(t.len(), lo.len(), up.len()));
    let mut items = [crate::stage::FILLER; MAX_ITEMS];
    let mut i = 0;
    while i < t.len() {
        items[i] = Item::from_ids(t.get(i), lo.get(i), up.get(i));
        i += 1;
    }
    Ok((items, t.len()))
}

/// The checks of a new stage (of a typed descriptor, after `stages`
/// stages, or of a typed adaptor, `stages` 0) over `lower_count` dimensions
/// of lengths `lower_lengths`, in [`Stage::new`]'s order: the transforms'
/// parameters ([`TransformList::check_params`]), the structure
/// ([`stage_structure`]; `structure` when the types gave it), then each
/// transform against the lengths it reads ([`TransformList::check_stage`]).
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) fn check_new_stage<X: TransformList, Lo: IdLists, Up: IdLists>(
    transforms: &X,
    lower: &Lo,
    upper: &Up,
    structure: Option<Result<(), Error>>,
    stages: usize,
    lower_count: usize,
    lower_lengths: &Indices,
) -> Result<(), Error> {
    tri!(transforms.check_params());
    match structure {
        Some(structure) => tri!(structure),
        None => tri!(stage_structure(stages, lower_count, X::KINDS, lower.lists(), upper.lists())),
    }
    transforms.check_stage(&lower.table(), &upper.table(), lower_lengths)
}
