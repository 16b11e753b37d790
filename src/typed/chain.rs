//! The chain types of typed descriptors: one type per CK Tile call, and the
//! `const fn`s that turn their parameters into a [`Descriptor`] (used both at
//! compile time, for all-static chains, and at run time).

use super::lists::{IdArray, IdLists, TransformArray, TransformList};
use crate::Descriptor;
use crate::descriptor::{FILLER_STAGE, Item, Stage, base_error, tri};
use crate::error::{Error, ErrorKind};
use cktile_transforms::{Dims, Indices, Value, Values, Vector};
use core::marker::PhantomData;
use generic_array::ArrayLength;

type DimsResult = Result<Dims, cktile_transforms::Error>;

/// A descriptor chain at the type level.
///
/// ```
/// use cktile::typed::{Chain, Packed};
/// use cktile::Number;
/// type P = Packed<(Number<4>, Number<8>)>;
/// const D: cktile::Descriptor = match P::STATIC {
///     Some(Ok(d)) => d,
///     _ => panic!(),
/// };
/// assert_eq!(D.calculate_offset(&[1, 1]), 9);
/// ```
pub trait Chain {
    /// Number of top dimensions, as a typenum integer.
    type NumTop: ArrayLength;
    /// The descriptor, when every parameter of the chain is static (an `Err`
    /// when they are invalid; turned into a compile error by the builders).
    const STATIC: Option<Result<Descriptor, Error>>;
    /// Number of stages of the chain (base stages included).
    const DEPTH: usize;
    /// The bottom index of a top index, for an all-static chain, computed
    /// stage by stage through each stage's constant data: the recursion is
    /// over types, so every stage is a separate inlined call on a constant
    /// and folds to its arithmetic. Chains with runtime parameters never call
    /// it (they use [`Descriptor::calculate_offset`]).
    fn static_bottom(top: &Indices) -> Indices;
}

/// Stage `k` of an all-static chain, as a constant.
const fn static_stage<C: Chain + ?Sized>(k: usize) -> &'static Stage {
    match &C::STATIC {
        Some(Ok(d)) => &d.stages()[k],
        _ => &FILLER_STAGE,
    }
}

/// A base stage (one item) evaluated without a loop over items.
#[inline(always)]
fn single_item(stage: &Stage, top: &Indices) -> Indices {
    let mut lower = [0; cktile_transforms::MAX_DIMS];
    stage.lower_item(0, top, &mut lower);
    lower
}

/// Holds the per-chain constant stages.
struct StageOf<C: ?Sized, const K: usize>(PhantomData<C>);

impl<C: Chain + ?Sized, const K: usize> StageOf<C, K> {
    const STAGE: &'static Stage = static_stage::<C>(K);
}

const fn lift(d: DimsResult) -> Result<Dims, Error> {
    match d {
        Ok(d) => Ok(d),
        Err(e) => Err(base_error(e)),
    }
}

pub(crate) const fn naive(lengths: DimsResult, strides: DimsResult, vector: Vector) -> Result<Descriptor, Error> {
    Descriptor::naive_dims(tri!(lift(lengths)), tri!(lift(strides)), vector)
}

pub(crate) const fn packed(lengths: DimsResult) -> Result<Descriptor, Error> {
    Descriptor::packed_dims(tri!(lift(lengths)), None)
}

pub(crate) const fn aligned(lengths: DimsResult, align: usize) -> Result<Descriptor, Error> {
    Descriptor::aligned_dims(tri!(lift(lengths)), align)
}

pub(crate) const fn with_offset(lengths: DimsResult, strides: DimsResult, offset: usize) -> Result<Descriptor, Error> {
    let (l, s) = (tri!(lift(lengths)), tri!(lift(strides)));
    let Ok(off) = Dims::from_usizes(&[offset]) else {
        return Err(base_error(cktile_transforms::Error::ValueTooLarge { value: offset as u64 }));
    };
    Descriptor::naive_with_offset_dims(l, s, off.get(0))
}

pub(crate) const fn transformed(
    prev: Result<Descriptor, Error>,
    transforms: Result<TransformArray, Error>,
    lower: Result<IdArray, Error>,
    upper: Result<IdArray, Error>,
) -> Result<Descriptor, Error> {
    let prev = tri!(prev);
    let (t, lo, up) = (tri!(transforms), tri!(lower), tri!(upper));
    if t.len() != lo.len() || t.len() != up.len() {
        return Err(Error::new(ErrorKind::ListCount { transforms: t.len(), lower: lo.len(), upper: up.len() }));
    }
    let mut items = [crate::descriptor::stage::FILLER; crate::MAX_ITEMS];
    let mut i = 0;
    while i < t.len() {
        items[i] = Item::from_ids(t.get(i), lo.get(i), up.get(i));
        i += 1;
    }
    prev.transform(items.split_at(t.len()).0)
}

/// `make_naive_tensor_descriptor(lengths, strides)` at the type level.
pub struct Naive<L, S>(PhantomData<(L, S)>);

impl<L: Values, S: Values<Len = L::Len>> Chain for Naive<L, S> {
    type NumTop = L::Len;
    const DEPTH: usize = 1;
    #[inline(always)]
    fn static_bottom(top: &Indices) -> Indices {
        single_item(StageOf::<Self, 0>::STAGE, top)
    }
    const STATIC: Option<Result<Descriptor, Error>> = match (L::STATIC, S::STATIC) {
        (Some(l), Some(s)) => Some(naive(l, s, Vector::UNKNOWN)),
        _ => None,
    };
}

/// `make_naive_tensor_descriptor_packed(lengths)` at the type level.
pub struct Packed<L>(PhantomData<L>);

impl<L: Values> Chain for Packed<L> {
    type NumTop = L::Len;
    const DEPTH: usize = 1;
    #[inline(always)]
    fn static_bottom(top: &Indices) -> Indices {
        single_item(StageOf::<Self, 0>::STAGE, top)
    }
    const STATIC: Option<Result<Descriptor, Error>> = match L::STATIC {
        Some(l) => Some(packed(l)),
        None => None,
    };
}

/// `make_naive_tensor_descriptor_aligned(lengths, align)` at the type level.
pub struct Aligned<L, A>(PhantomData<(L, A)>);

impl<L: Values, A: Value> Chain for Aligned<L, A> {
    type NumTop = L::Len;
    const DEPTH: usize = 1;
    #[inline(always)]
    fn static_bottom(top: &Indices) -> Indices {
        single_item(StageOf::<Self, 0>::STAGE, top)
    }
    const STATIC: Option<Result<Descriptor, Error>> = match (L::STATIC, A::STATIC) {
        (Some(l), Some(a)) => Some(aligned(l, a)),
        _ => None,
    };
}

/// `make_naive_tensor_descriptor_with_offset(lengths, strides, offset)` at the type level.
pub struct NaiveWithOffset<L, S, O>(PhantomData<(L, S, O)>);

impl<L: Values, S: Values<Len = L::Len>, O: Value> Chain for NaiveWithOffset<L, S, O> {
    type NumTop = L::Len;
    const DEPTH: usize = 2;
    #[inline(always)]
    fn static_bottom(top: &Indices) -> Indices {
        single_item(StageOf::<Self, 0>::STAGE, &single_item(StageOf::<Self, 1>::STAGE, top))
    }
    const STATIC: Option<Result<Descriptor, Error>> = match (L::STATIC, S::STATIC, O::STATIC) {
        (Some(l), Some(s), Some(o)) => Some(with_offset(l, s, o)),
        _ => None,
    };
}

/// `transform_tensor_descriptor(prev, transforms, lower ids, upper ids)` at the type level.
pub struct Transformed<P, X, Lo, Up>(PhantomData<(P, X, Lo, Up)>);

impl<P: Chain, X: TransformList, Lo: IdLists, Up: IdLists> Chain for Transformed<P, X, Lo, Up> {
    type NumTop = X::NumUpper;
    const DEPTH: usize = P::DEPTH + 1;
    #[inline(always)]
    fn static_bottom(top: &Indices) -> Indices {
        P::static_bottom(&X::static_lower(static_stage::<Self>(P::DEPTH), top))
    }
    const STATIC: Option<Result<Descriptor, Error>> = match (P::STATIC, X::STATIC, Lo::STATIC, Up::STATIC) {
        (Some(p), Some(x), Some(lo), Some(up)) => Some(transformed(p, x, lo, up)),
        _ => None,
    };
}
