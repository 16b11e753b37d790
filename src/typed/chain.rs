//! The chain types of typed descriptors: one type per CK Tile call, and the
//! `const fn`s that turn their parameters into a [`Descriptor`] (used both at
//! compile time, for all-static chains, and at run time).

use super::lists::{IdArray, IdLists, TransformArray, TransformList};
use crate::Descriptor;
use crate::descriptor::{Item, base_error, tri};
use crate::error::{Error, ErrorKind};
use cktile_transforms::{Dims, Value, Values, Vector};
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
///
/// ```
/// use cktile::prelude::*;
/// type Tile = cktile::typed::Naive<(Number<4>, Number<8>), (Number<10>, Number<1>)>;
/// assert_eq!(TensorDescriptor::<Tile>::DESCRIPTOR.element_space_size(), 38);
/// ```
pub struct Naive<L, S>(PhantomData<(L, S)>);

impl<L: Values, S: Values<Len = L::Len>> Chain for Naive<L, S> {
    type NumTop = L::Len;
    const STATIC: Option<Result<Descriptor, Error>> = match (L::STATIC, S::STATIC) {
        (Some(l), Some(s)) => Some(naive(l, s, Vector::UNKNOWN)),
        _ => None,
    };
}

/// `make_naive_tensor_descriptor_packed(lengths)` at the type level.
///
/// ```
/// use cktile::prelude::*;
/// type Tile = cktile::typed::Packed<(Number<4>, Number<8>)>;
/// assert_eq!(TensorDescriptor::<Tile>::DESCRIPTOR.calculate_offset(&[1, 2]), 10);
/// ```
pub struct Packed<L>(PhantomData<L>);

impl<L: Values> Chain for Packed<L> {
    type NumTop = L::Len;
    const STATIC: Option<Result<Descriptor, Error>> = match L::STATIC {
        Some(l) => Some(packed(l)),
        None => None,
    };
}

/// `make_naive_tensor_descriptor_aligned(lengths, align)` at the type level.
///
/// ```
/// use cktile::prelude::*;
/// type Tile = cktile::typed::Aligned<(Number<4>, Number<6>), Number<8>>;
/// assert_eq!(TensorDescriptor::<Tile>::DESCRIPTOR.calculate_offset(&[1, 0]), 8);
/// ```
pub struct Aligned<L, A>(PhantomData<(L, A)>);

impl<L: Values, A: Value> Chain for Aligned<L, A> {
    type NumTop = L::Len;
    const STATIC: Option<Result<Descriptor, Error>> = match (L::STATIC, A::STATIC) {
        (Some(l), Some(a)) => Some(aligned(l, a)),
        _ => None,
    };
}

/// `make_naive_tensor_descriptor_with_offset(lengths, strides, offset)` at the type level.
///
/// ```
/// use cktile::prelude::*;
/// type Tile = cktile::typed::NaiveWithOffset<(Number<4>,), (Number<2>,), Number<100>>;
/// assert_eq!(TensorDescriptor::<Tile>::DESCRIPTOR.calculate_offset(&[3]), 106);
/// ```
pub struct NaiveWithOffset<L, S, O>(PhantomData<(L, S, O)>);

impl<L: Values, S: Values<Len = L::Len>, O: Value> Chain for NaiveWithOffset<L, S, O> {
    type NumTop = L::Len;
    const STATIC: Option<Result<Descriptor, Error>> = match (L::STATIC, S::STATIC, O::STATIC) {
        (Some(l), Some(s), Some(o)) => Some(with_offset(l, s, o)),
        _ => None,
    };
}

/// `transform_tensor_descriptor(prev, transforms, lower ids, upper ids)` at the type level.
///
/// ```
/// use cktile::prelude::*;
/// let d = make_naive_tensor_descriptor_packed((Number::<4>, Number::<8>)).unwrap();
/// let d = transform_tensor_descriptor(d, (make_merge_transform((Number::<4>, Number::<8>)),), (ids![0, 1],), (ids![0],)).unwrap();
/// // The type is Transformed<Packed<..>, ..>; its constant descriptor is known.
/// assert_eq!(d.descriptor().lengths().as_slice(), &[32]);
/// ```
pub struct Transformed<P, X, Lo, Up>(PhantomData<(P, X, Lo, Up)>);

impl<P: Chain, X: TransformList, Lo: IdLists, Up: IdLists> Chain for Transformed<P, X, Lo, Up> {
    type NumTop = X::NumUpper;
    const STATIC: Option<Result<Descriptor, Error>> = match (P::STATIC, X::STATIC, Lo::STATIC, Up::STATIC) {
        (Some(p), Some(x), Some(lo), Some(up)) => Some(transformed(p, x, lo, up)),
        _ => None,
    };
}
