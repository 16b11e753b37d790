//! The chain types of typed descriptors: one type per CK Tile call, holding
//! that call's parameters (zero-sized [`Number`](crate::Number)s, stored
//! `usize`s), and the `const fn`s that turn them into a [`Descriptor`] (at
//! compile time for all-static chains, on demand at run time).
//!
//! Offsets, validity and top lengths are computed by recursion over the
//! chain's types ([`Chain::offset`]): each level calls the transforms'
//! formulas ([`TypedTransform::lower`](cktile_transforms::typed::TypedTransform::lower),
//! the functions of `cktile_transforms::kinds`) with its stored values, so a
//! compile-time parameter is a constant in the arithmetic and no descriptor
//! data is read at run time.

use crate::Descriptor;
use crate::descriptor::{
    aligned_strides, guaranteed, naive_accepts, naive_base, packed_accepts, packed_base, tri, vector_accepts,
    vector_fits, with_offset_base,
};
use crate::error::Error;
use crate::stage::built::Built;
use crate::stage::carry_vectors;
use crate::stage::coordinate::StridesFor;
use crate::stage::lists::{IdArray, IdLists, TransformArray, TransformList};
use crate::stage::typed::{DimsResult, check_new_stage, lift, stage_items, static_structure};
use cktile_transforms::kinds::{embed, offset, unmerge};
use cktile_transforms::{Count, Dims, Index, Indices, MAX_DIMS, Value, Values, Vector};
use typenum::Unsigned;

/// A descriptor chain at the type level; its value holds the chain's
/// runtime parameters only (a chain of [`Number`](crate::Number)s is
/// zero-sized).
///
/// The evaluation methods assume a validated chain (one a
/// [`TensorDescriptor`](crate::typed::TensorDescriptor) was built from) and a top
/// index in its first [`NumTop`](Chain::NumTop) entries.
///
/// Its validation and its runtime [`Descriptor`] are the [`Built`] core it
/// shares with typed adaptors; what it adds is the evaluation down to one
/// offset, the top vectors and the runtime values a kernel argument
/// carries.
///
/// ```
/// use cktile_core::typed::{Chain, Packed};
/// use cktile_core::Number;
/// type P = Packed<(Number<4>, Number<8>)>;
/// assert_eq!(P::default().offset(&[1, 1, 0, 0, 0, 0, 0, 0]), 9);
/// assert_eq!(<P as Chain>::STAGES, 1);
/// assert_eq!(core::mem::size_of::<P>(), 0);
/// ```
pub trait Chain: Built<Runtime = Descriptor> {
    /// Number of top dimensions, as a typenum integer.
    type NumTop: Count;
    /// The number of stages of the chain's descriptor (base stages included).
    ///
    /// ```
    /// use cktile_core::typed::{Chain, NaiveWithOffset, Packed};
    /// use cktile_core::Number;
    /// assert_eq!(<Packed<(usize,)> as Chain>::STAGES, 1);
    /// assert_eq!(<NaiveWithOffset<(usize,), (usize,), usize> as Chain>::STAGES, 2);
    /// ```
    const STAGES: usize;
    /// Every level's [`check`](Built::check), from the first to the newest:
    /// the validation [`build`](Built::build) runs, building nothing, for a
    /// chain none of whose levels is known valid (one read back from a
    /// [`KernelArg`](crate::typed::KernelArg)). Agrees with `build`: `Ok`
    /// together, or the same `Err`.
    ///
    /// ```
    /// use cktile_core::typed::{Built, Chain, Packed, Transformed};
    /// use cktile_core::transforms::typed::Merge;
    /// use cktile_core::Number;
    /// type C = Transformed<Packed<(usize, usize)>, (Merge<(usize, usize)>,), ((Number<0>, Number<1>),), ((Number<0>,),)>;
    /// let good = C::read_runtime(&[4, 8, 4, 8], 0);
    /// let bad = C::read_runtime(&[4, 8, 4, 9], 0); // the merge's lengths are not the packed lengths
    /// assert_eq!(good.check_levels(), Ok(()));
    /// assert_eq!(bad.check_levels(), bad.build().map(|_| ()));
    /// assert!(bad.check_levels().is_err());
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn check_levels(&self) -> Result<(), Error> {
        self.check()
    }
    /// The offset of a top index (CK's `calculate_offset`).
    ///
    /// ```
    /// use cktile_core::typed::Chain;
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor((Number::<4>, 8usize), (Number::<100>, Number::<1>)).unwrap();
    /// assert_eq!(d.chain().offset(&[2, 5, 0, 0, 0, 0, 0, 0]), 205);
    /// ```
    fn offset(&self, top: &Indices) -> Index;
    /// The safe vector length and stride of each top dimension, as CK
    /// Tile's `get_top_dimension_safe_vector_length_strides` computes them
    /// from what is known at compile time: the base's guaranteed vector,
    /// carried up through each transform's rule
    /// ([`TransformList::VECTOR_RULES`]); a runtime length CK's rule would
    /// read is unknown. For an all-static chain it is the runtime
    /// descriptor's [`top_vectors`](Descriptor::top_vectors). What tile
    /// windows vectorise by.
    ///
    /// ```
    /// use cktile_core::typed::Chain;
    /// use cktile_core::prelude::*;
    /// use cktile_core::transforms::Vector;
    /// // Runtime M, K and row stride; 8 elements guaranteed contiguous along K.
    /// let d = make_naive_tensor_descriptor_with_vector((100usize, 56usize), (64usize, Number::<1>), Number::<8>, Number::<1>)?;
    /// let d = transform_tensor_descriptor(
    ///     d,
    ///     (make_right_pad_transform(100usize, 28usize), make_right_pad_transform(56usize, 8usize)),
    ///     (ids![0], ids![1]),
    ///     (ids![0], ids![1]),
    /// )?;
    /// fn vectors<C: Chain>(_: &TensorDescriptor<C>) -> [Vector; 8] { C::TOP_VECTORS }
    /// assert_eq!(vectors(&d)[..2], [Vector::UNKNOWN, Vector::new(8, 1)]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    const TOP_VECTORS: [Vector; MAX_DIMS];
    /// Whether the offset moves by a fixed linear function of the top
    /// step, whatever the runtime values (an affine map of the top index):
    /// a naive base (a weighted sum of its indices plus an offset) under
    /// stages of linear kinds alone
    /// ([`Kind::is_linear`](crate::transforms::Kind::is_linear)). Then
    /// `offset(a + b) = offset(a) + offset(b) - offset(0)` (wrapping), so a
    /// tile window computes an access's offset as its thread's offset plus
    /// the access's step, a constant, rather than from the sum of their
    /// indices (multiplied out again at every access).
    ///
    /// ```
    /// use cktile_core::typed::Chain;
    /// use cktile_core::prelude::*;
    /// use cktile_core::ops::gemm::{DramChain, LdsChainOf};
    /// // The GEMM's padded DRAM view is linear; its XOR LDS block is not.
    /// assert!(<DramChain as Chain>::LINEAR && !<LdsChainOf<128, 32> as Chain>::LINEAR);
    /// ```
    const LINEAR: bool;
    /// Whether no pad-family transform maps the top index to padding (CK's
    /// `coordinate_has_valid_offset_assuming_top_index_is_valid`).
    ///
    /// ```
    /// use cktile_core::typed::Chain;
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor_packed((Number::<4>,)).unwrap();
    /// let d = transform_tensor_descriptor(d, (make_pad_transform(Number::<4>, 1usize, 1usize),), (ids![0],), (ids![0],)).unwrap();
    /// assert!(!d.chain().is_valid(&[0; 8]) && d.chain().is_valid(&[1, 0, 0, 0, 0, 0, 0, 0]));
    /// ```
    fn is_valid(&self, top: &Indices) -> bool;
    /// The top lengths (the first [`NumTop`](Chain::NumTop) entries).
    ///
    /// ```
    /// use cktile_core::typed::Chain;
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor_packed((Number::<4>, 8usize)).unwrap();
    /// assert_eq!(d.chain().lengths()[..2], [4, 8]);
    /// ```
    fn lengths(&self) -> Indices;
    /// How many runtime values the chain holds, over all its levels: its
    /// lengths, strides, transform parameters and ids that are `usize`s
    /// (the slots [`write_runtime`](Self::write_runtime) fills; what a
    /// [`KernelArg`](crate::typed::KernelArg) carries).
    ///
    /// ```
    /// use cktile_core::typed::Chain;
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor((Number::<4>, 8usize), (16usize, Number::<1>)).unwrap();
    /// let d = transform_tensor_descriptor(d, (make_pad_transform(Number::<4>, 1usize, Number::<0>), make_pass_through_transform(8usize)), (ids![0], ids![1]), (ids![0], ids![1])).unwrap();
    /// fn runtime<C: Chain>(_: &TensorDescriptor<C>) -> usize { C::RUNTIME }
    /// assert_eq!(runtime(&d), 4); // 8, 16, then 1 and 8
    /// ```
    const RUNTIME: usize;
    /// Writes the chain's runtime values to `out[at..at + RUNTIME]`, from
    /// the first level to the newest, each level's in the order of its
    /// constructor's arguments; compile-time values write nothing.
    ///
    /// ```
    /// use cktile_core::typed::Chain;
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor((Number::<4>, 8usize), (16usize, Number::<1>)).unwrap();
    /// let mut out = [0u64; 2];
    /// d.chain().write_runtime(&mut out, 0);
    /// assert_eq!(out, [8, 16]);
    /// ```
    fn write_runtime(&self, out: &mut [u64], at: usize);
    /// The chain whose runtime values [`write_runtime`](Self::write_runtime)
    /// wrote from `slots[at..]` (not validated: see
    /// [`KernelArg`](crate::typed::KernelArg)). Inlined with `at` a constant, each
    /// runtime value is one load and each compile-time one is nothing.
    ///
    /// ```
    /// use cktile_core::typed::{Chain, Naive};
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor((Number::<4>, 8usize), (16usize, Number::<1>)).unwrap();
    /// let back = <Naive<(Number<4>, usize), (usize, Number<1>)> as Chain>::read_runtime(&[8, 16], 0);
    /// assert_eq!(&back, d.chain());
    /// ```
    fn read_runtime(slots: &[u64], at: usize) -> Self;
}

/// The runtime items of [`Chain`] for a chain struct whose fields are
/// written out in the order given (each a [`Value`], [`Values`], [`Chain`],
/// [`TransformList`] or [`IdLists`]).
macro_rules! runtime_fields {
    ($name:ident { $($field:ident: $ty:ident),+ }) => {
        const RUNTIME: usize = 0 $(+ <$ty>::RUNTIME)+;
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn write_runtime(&self, out: &mut [u64], at: usize) {
            let mut at = at;
            $(
                self.$field.write_runtime(out, at);
                at += <$ty>::RUNTIME;
            )+
            let _ = at;
        }
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn read_runtime(slots: &[u64], at: usize) -> Self {
            let mut at = at;
            let out = $name { $($field: {
                let value = <$ty>::read_runtime(slots, at);
                at += <$ty>::RUNTIME;
                value
            }),+ };
            let _ = at;
            out
        }
    };
}

/// The top vectors of a one-call base of `n` top dimensions whose last
/// dimension carries `guaranteed`: its stages (embed, unmerge, offset) carry
/// nothing up from the element space, so only the guarantee is known.
const fn base_vectors(n: usize, guaranteed: Vector) -> [Vector; MAX_DIMS] {
    let mut v = [Vector::UNKNOWN; MAX_DIMS];
    if n > 0 {
        v[(n - 1) % MAX_DIMS] = guaranteed;
    }
    v
}

/// The top vectors of a chain: the runtime descriptor's when the chain is
/// all static (the same rule, with every length known), else `known`.
const fn vectors_of(static_: &Option<Result<Descriptor, Error>>, known: [Vector; MAX_DIMS]) -> [Vector; MAX_DIMS] {
    match static_ {
        Some(Ok(d)) => d.top_vectors(),
        _ => known,
    }
}

/// The top vectors of a stage of rules `rules` over the previous top's
/// `lower`, with its id lists when they are compile-time values (all
/// unknown otherwise).
const fn stage_vectors(
    lower: &[Vector; MAX_DIMS],
    rules: &[cktile_transforms::VectorRule],
    lower_ids: Option<Result<IdArray, Error>>,
    upper_ids: Option<Result<IdArray, Error>>,
) -> [Vector; MAX_DIMS] {
    let mut upper = [Vector::UNKNOWN; MAX_DIMS];
    if let (Some(Ok(lo)), Some(Ok(up))) = (lower_ids, upper_ids) {
        let mut i = 0;
        while i < rules.len() && i < lo.len() && i < up.len() {
            carry_vectors(lower, rules[i], lo.get(i), up.get(i), &mut upper);
            i += 1;
        }
    }
    upper
}

/// The number of entries of a [`Values`] tuple.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
fn len_of<L: Values>() -> usize {
    <L::Len as Unsigned>::USIZE
}

pub(crate) const fn naive(lengths: DimsResult, strides: DimsResult, vector: Vector) -> Result<Descriptor, Error> {
    Descriptor::naive_dims(tri!(lift(lengths)), tri!(lift(strides)), vector)
}

/// [`naive`]'s checks, building nothing.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
const fn naive_check(lengths: DimsResult, strides: DimsResult) -> Result<(), Error> {
    tri!(naive_base(&tri!(lift(lengths)), &tri!(lift(strides))));
    Ok(())
}

/// A compile-time value as an index, `None` when it is a runtime value
/// (or does not fit).
const fn static_index(v: Option<usize>) -> Option<Index> {
    match v {
        Some(v) if v <= Index::MAX as usize => Some(v as Index),
        _ => None,
    }
}

pub(crate) const fn packed(lengths: DimsResult) -> Result<Descriptor, Error> {
    Descriptor::packed_dims(tri!(lift(lengths)), None)
}

/// [`packed`]'s checks, building nothing.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
const fn packed_check(lengths: DimsResult) -> Result<(), Error> {
    tri!(packed_base(&tri!(lift(lengths))));
    Ok(())
}

pub(crate) const fn aligned(lengths: DimsResult, align: usize) -> Result<Descriptor, Error> {
    Descriptor::aligned_dims(tri!(lift(lengths)), align)
}

/// [`aligned`]'s checks ([`Descriptor::aligned_dims`]'s), building nothing.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
const fn aligned_check(lengths: DimsResult, align: usize) -> Result<(), Error> {
    let lengths = tri!(lift(lengths));
    let strides = tri!(aligned_strides(&lengths, align));
    tri!(naive_base(&lengths, &strides));
    Ok(())
}

/// The offset of [`with_offset`] as an index.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
const fn offset_index(offset: usize) -> Result<Index, Error> {
    match Dims::from_usizes(&[offset]) {
        Ok(off) => Ok(off.get(0)),
        Err(_) => Err(Error::transform(cktile_transforms::Error::ValueTooLarge { value: offset as u64 })),
    }
}

pub(crate) const fn with_offset(lengths: DimsResult, strides: DimsResult, offset: usize) -> Result<Descriptor, Error> {
    let (l, s) = (tri!(lift(lengths)), tri!(lift(strides)));
    Descriptor::naive_with_offset_dims(l, s, tri!(offset_index(offset)))
}

/// [`with_offset`]'s checks, building nothing.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
const fn with_offset_check(lengths: DimsResult, strides: DimsResult, offset: usize) -> Result<(), Error> {
    let (l, s) = (tri!(lift(lengths)), tri!(lift(strides)));
    tri!(with_offset_base(&l, &s, tri!(offset_index(offset))));
    Ok(())
}

pub(crate) const fn transformed(
    prev: Result<Descriptor, Error>,
    transforms: Result<TransformArray, Error>,
    lower: Result<IdArray, Error>,
    upper: Result<IdArray, Error>,
) -> Result<Descriptor, Error> {
    let prev = tri!(prev);
    let (items, n) = tri!(stage_items(transforms, lower, upper));
    prev.transform(items.split_at(n).0)
}

/// The [`Chain`] items the one-call chains ([`Naive`], [`NaiveVector`],
/// [`Packed`], [`Aligned`], [`NaiveWithOffset`]) share, for a chain of
/// `$stages` stages with lengths `L` in a field `lengths`: the top is `L`,
/// no top index maps to padding, and there are no ids to check.
macro_rules! base_chain_items {
    ($stages:expr) => {
        type NumTop = L::Len;
        const STAGES: usize = $stages;
        const LINEAR: bool = true;
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn is_valid(&self, _: &Indices) -> bool {
            true
        }
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn lengths(&self) -> Indices {
            self.lengths.indices()
        }
    };
}

/// `make_naive_tensor_descriptor(lengths, strides)` at the type level.
///
/// ```
/// use cktile_core::prelude::*;
/// type Tile = cktile_core::typed::Naive<(Number<4>, Number<8>), (Number<10>, Number<1>)>;
/// assert_eq!(TensorDescriptor::<Tile>::DESCRIPTOR.element_space_size(), 38);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Naive<L, S> {
    pub(crate) lengths: L,
    pub(crate) strides: S,
}

impl<L: Copy, S: Copy> Naive<L, S> {
    /// The lengths and strides, as given (the GEMM epilogue's row slices,
    /// `ops::gemm::store_c_tile`).
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) fn dims(&self) -> (L, S) {
        (self.lengths, self.strides)
    }
}

impl<L: Values, S: StridesFor<<L::Len as Count>::Coordinate>> Built for Naive<L, S> {
    type Runtime = Descriptor;
    // A base has no ids: its structure is always valid.
    const STRUCTURE: Option<Result<(), Error>> = Some(Ok(()));
    const STATIC: Option<Result<Descriptor, Error>> = match (L::STATIC, S::STATIC) {
        (Some(l), Some(s)) => Some(naive(l, s, Vector::UNKNOWN)),
        _ => None,
    };
    fn build(&self) -> Result<Descriptor, Error> {
        naive(self.lengths.dims(), self.strides.dims(), Vector::UNKNOWN)
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn check(&self) -> Result<(), Error> {
        naive_check(self.lengths.dims(), self.strides.dims())
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn accepts(&self) -> bool {
        naive_accepts(&self.lengths.indices(), &self.strides.indices(), len_of::<L>())
    }
}

impl<L: Values, S: StridesFor<<L::Len as Count>::Coordinate>> Chain for Naive<L, S> {
    base_chain_items!(1);
    const TOP_VECTORS: [Vector; MAX_DIMS] = vectors_of(&Self::STATIC, base_vectors(L::Len::USIZE, Vector::UNKNOWN));
    runtime_fields!(Naive { lengths: L, strides: S });
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn offset(&self, top: &Indices) -> Index {
        embed::lower(top, &self.strides.indices(), len_of::<L>())
    }
}

/// CK's four-argument `make_naive_tensor_descriptor(lengths, strides,
/// number<GuaranteedLastDimensionVectorLength>,
/// number<GuaranteedLastDimensionVectorStride>)` at the type level: offsets
/// as [`Naive`]'s, and the descriptor carries the guaranteed vector of the
/// last dimension (what CK's tile windows read to vectorise), refused
/// when the lengths and strides do not keep it (the rule of
/// [`Descriptor::naive_with_vector`]; with a [`Number`](crate::Number)
/// vector, [`Built::accepts`] tests it on the low bits of the lengths and
/// strides).
///
/// ```
/// use cktile_core::prelude::*;
/// use cktile_core::transforms::Vector;
/// type Tile = cktile_core::typed::NaiveVector<(Number<4>, Number<64>), (Number<72>, Number<1>), Number<8>, Number<1>>;
/// let d = TensorDescriptor::<Tile>::DESCRIPTOR;
/// assert_eq!((d.calculate_offset(&[1, 2]), d.top_vectors()[1]), (74, Vector::new(8, 1)));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NaiveVector<L, S, V, W> {
    pub(crate) lengths: L,
    pub(crate) strides: S,
    pub(crate) vector_length: V,
    pub(crate) vector_stride: W,
}

const fn naive_vector(
    lengths: DimsResult,
    strides: DimsResult,
    length: usize,
    stride: usize,
) -> Result<Descriptor, Error> {
    naive(lengths, strides, tri!(guaranteed(length, stride)))
}

impl<L: Values, S: StridesFor<<L::Len as Count>::Coordinate>, V: Value, W: Value> Built for NaiveVector<L, S, V, W> {
    type Runtime = Descriptor;
    // A base has no ids: its structure is always valid.
    const STRUCTURE: Option<Result<(), Error>> = Some(Ok(()));
    const STATIC: Option<Result<Descriptor, Error>> = match (L::STATIC, S::STATIC, V::STATIC, W::STATIC) {
        (Some(l), Some(s), Some(v), Some(w)) => Some(naive_vector(l, s, v, w)),
        _ => None,
    };
    fn build(&self) -> Result<Descriptor, Error> {
        naive_vector(self.lengths.dims(), self.strides.dims(), self.vector_length.get(), self.vector_stride.get())
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn check(&self) -> Result<(), Error> {
        // As `naive_vector`: the guaranteed vector first, then the lengths and
        // strides, then the vector against them.
        let vector = tri!(guaranteed(self.vector_length.get(), self.vector_stride.get()));
        let (lengths, strides) = (tri!(lift(self.lengths.dims())), tri!(lift(self.strides.dims())));
        tri!(naive_base(&lengths, &strides));
        vector_fits("naive", &lengths, Some(&strides), vector)
    }
    /// The base's checks and the vector's, and-ed without branches: with
    /// the vector a compile-time [`Number`](crate::Number) (CK's
    /// `number<8>{}`), the vector's tests are low-bit tests of the lengths
    /// and strides.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn accepts(&self) -> bool {
        let (lengths, strides, n) = (self.lengths.indices(), self.strides.indices(), len_of::<L>());
        // The guaranteed vector's values must fit an index (past i64::MAX they
        // wrap negative, which `vector_accepts` refuses).
        let (length, stride) = (self.vector_length.get() as Index, self.vector_stride.get() as Index);
        naive_accepts(&lengths, &strides, n) & vector_accepts(&lengths, &strides, n, length, stride)
    }
}

impl<L: Values, S: StridesFor<<L::Len as Count>::Coordinate>, V: Value, W: Value> Chain for NaiveVector<L, S, V, W> {
    base_chain_items!(1);
    const TOP_VECTORS: [Vector; MAX_DIMS] = vectors_of(
        &Self::STATIC,
        base_vectors(L::Len::USIZE, Vector { length: static_index(V::STATIC), stride: static_index(W::STATIC) }),
    );
    runtime_fields!(NaiveVector { lengths: L, strides: S, vector_length: V, vector_stride: W });
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn offset(&self, top: &Indices) -> Index {
        embed::lower(top, &self.strides.indices(), len_of::<L>())
    }
}

/// `make_naive_tensor_descriptor_packed(lengths)` at the type level.
///
/// ```
/// use cktile_core::prelude::*;
/// type Tile = cktile_core::typed::Packed<(Number<4>, Number<8>)>;
/// assert_eq!(TensorDescriptor::<Tile>::DESCRIPTOR.calculate_offset(&[1, 2]), 10);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Packed<L> {
    pub(crate) lengths: L,
}

impl<L: Values> Built for Packed<L> {
    type Runtime = Descriptor;
    // A base has no ids: its structure is always valid.
    const STRUCTURE: Option<Result<(), Error>> = Some(Ok(()));
    const STATIC: Option<Result<Descriptor, Error>> = match L::STATIC {
        Some(l) => Some(packed(l)),
        None => None,
    };
    fn build(&self) -> Result<Descriptor, Error> {
        packed(self.lengths.dims())
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn check(&self) -> Result<(), Error> {
        packed_check(self.lengths.dims())
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn accepts(&self) -> bool {
        packed_accepts(&self.lengths.indices(), len_of::<L>())
    }
}

impl<L: Values> Chain for Packed<L> {
    base_chain_items!(1);
    const TOP_VECTORS: [Vector; MAX_DIMS] =
        vectors_of(&Self::STATIC, base_vectors(L::Len::USIZE, Vector { length: None, stride: Some(1) }));
    runtime_fields!(Packed { lengths: L });
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn offset(&self, top: &Indices) -> Index {
        unmerge::lower(top, &self.lengths.indices(), len_of::<L>())
    }
}

/// `make_naive_tensor_descriptor_aligned(lengths, align)` at the type level.
///
/// ```
/// use cktile_core::prelude::*;
/// type Tile = cktile_core::typed::Aligned<(Number<4>, Number<6>), Number<8>>;
/// assert_eq!(TensorDescriptor::<Tile>::DESCRIPTOR.calculate_offset(&[1, 0]), 8);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Aligned<L, A> {
    pub(crate) lengths: L,
    pub(crate) align: A,
}

impl<L: Values, A: Value> Built for Aligned<L, A> {
    type Runtime = Descriptor;
    // A base has no ids: its structure is always valid.
    const STRUCTURE: Option<Result<(), Error>> = Some(Ok(()));
    const STATIC: Option<Result<Descriptor, Error>> = match (L::STATIC, A::STATIC) {
        (Some(l), Some(a)) => Some(aligned(l, a)),
        _ => None,
    };
    fn build(&self) -> Result<Descriptor, Error> {
        aligned(self.lengths.dims(), self.align.get())
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn check(&self) -> Result<(), Error> {
        aligned_check(self.lengths.dims(), self.align.get())
    }
}

impl<L: Values, A: Value> Chain for Aligned<L, A> {
    base_chain_items!(1);
    const TOP_VECTORS: [Vector; MAX_DIMS] = vectors_of(&Self::STATIC, base_vectors(L::Len::USIZE, Vector::UNKNOWN));
    runtime_fields!(Aligned { lengths: L, align: A });
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn offset(&self, top: &Indices) -> Index {
        // The strides were checked when the descriptor was built.
        match self.lengths.dims() {
            Ok(l) => match aligned_strides(&l, self.align.get()) {
                Ok(strides) => embed::lower(top, &strides.to_array(), len_of::<L>()),
                Err(_) => 0,
            },
            Err(_) => 0,
        }
    }
}

/// `make_naive_tensor_descriptor_with_offset(lengths, strides, offset)` at the type level.
///
/// ```
/// use cktile_core::prelude::*;
/// type Tile = cktile_core::typed::NaiveWithOffset<(Number<4>,), (Number<2>,), Number<100>>;
/// assert_eq!(TensorDescriptor::<Tile>::DESCRIPTOR.calculate_offset(&[3]), 106);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NaiveWithOffset<L, S, O> {
    pub(crate) lengths: L,
    pub(crate) strides: S,
    pub(crate) offset: O,
}

impl<L: Values, S: StridesFor<<L::Len as Count>::Coordinate>, O: Value> Built for NaiveWithOffset<L, S, O> {
    type Runtime = Descriptor;
    // A base has no ids: its structure is always valid.
    const STRUCTURE: Option<Result<(), Error>> = Some(Ok(()));
    const STATIC: Option<Result<Descriptor, Error>> = match (L::STATIC, S::STATIC, O::STATIC) {
        (Some(l), Some(s), Some(o)) => Some(with_offset(l, s, o)),
        _ => None,
    };
    fn build(&self) -> Result<Descriptor, Error> {
        with_offset(self.lengths.dims(), self.strides.dims(), self.offset.get())
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn check(&self) -> Result<(), Error> {
        with_offset_check(self.lengths.dims(), self.strides.dims(), self.offset.get())
    }
}

impl<L: Values, S: StridesFor<<L::Len as Count>::Coordinate>, O: Value> Chain for NaiveWithOffset<L, S, O> {
    base_chain_items!(2);
    const TOP_VECTORS: [Vector; MAX_DIMS] = vectors_of(&Self::STATIC, base_vectors(L::Len::USIZE, Vector::UNKNOWN));
    runtime_fields!(NaiveWithOffset { lengths: L, strides: S, offset: O });
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn offset(&self, top: &Indices) -> Index {
        let space = embed::lower(top, &self.strides.indices(), len_of::<L>());
        offset::lower(space, self.offset.get() as Index)
    }
}

/// `transform_tensor_descriptor(prev, transforms, lower ids, upper ids)` at the type level.
///
/// ```
/// use cktile_core::prelude::*;
/// let d = make_naive_tensor_descriptor_packed((Number::<4>, Number::<8>)).unwrap();
/// let d = transform_tensor_descriptor(d, (make_merge_transform((Number::<4>, Number::<8>)),), (ids![0, 1],), (ids![0],)).unwrap();
/// // The type is Transformed<Packed<..>, ..>; its constant descriptor is known.
/// assert_eq!(d.descriptor().lengths().as_slice(), &[32]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Transformed<P, X, Lo, Up> {
    pub(crate) prev: P,
    pub(crate) transforms: X,
    pub(crate) lower: Lo,
    pub(crate) upper: Up,
}

impl<P: Chain, X: TransformList, Lo: IdLists, Up: IdLists> Built for Transformed<P, X, Lo, Up> {
    type Runtime = Descriptor;
    const STATIC: Option<Result<Descriptor, Error>> = match (P::STATIC, X::STATIC, Lo::STATIC, Up::STATIC) {
        (Some(p), Some(x), Some(lo), Some(up)) => Some(transformed(p, x, lo, up)),
        _ => None,
    };
    const STRUCTURE: Option<Result<(), Error>> = static_structure::<X, Lo, Up>(P::STAGES, P::NumTop::USIZE);
    fn build(&self) -> Result<Descriptor, Error> {
        transformed(self.prev.build(), self.transforms.transforms(), self.lower.lists(), self.upper.lists())
    }
    /// The checks [`build`](Built::build) runs on the new stage, in its
    /// order: the transforms' parameters (all of them, as
    /// [`TransformList::transforms`] does), the structure
    /// ([`STRUCTURE`](Built::STRUCTURE), a constant with compile-time ids),
    /// then each transform against the lengths it reads
    /// ([`TransformList::check_stage`], as [`Stage::new`](crate::Stage::new) binds them).
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn check(&self) -> Result<(), Error> {
        let lengths = self.prev.lengths();
        check_new_stage(
            &self.transforms,
            &self.lower,
            &self.upper,
            Self::STRUCTURE,
            P::STAGES,
            P::NumTop::USIZE,
            &lengths,
        )
    }
    /// With compile-time ids ([`STRUCTURE`](Built::STRUCTURE) known), each
    /// transform's [`TypedTransform::accepts`](cktile_transforms::typed::TypedTransform::accepts)
    /// against the lengths it reads, and-ed without branches.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn accepts(&self) -> bool {
        match Self::STRUCTURE {
            Some(Ok(())) => self.transforms.accepts_stage(&self.lower.table(), &self.prev.lengths()),
            Some(Err(_)) => false,
            None => self.check().is_ok(),
        }
    }
}

impl<P: Chain, X: TransformList, Lo: IdLists, Up: IdLists> Chain for Transformed<P, X, Lo, Up> {
    type NumTop = X::NumUpper;
    runtime_fields!(Transformed { prev: P, transforms: X, lower: Lo, upper: Up });
    const STAGES: usize = P::STAGES + 1;
    const LINEAR: bool = P::LINEAR && X::LINEAR;
    const TOP_VECTORS: [Vector; MAX_DIMS] =
        vectors_of(&Self::STATIC, stage_vectors(&P::TOP_VECTORS, X::VECTOR_RULES, Lo::STATIC, Up::STATIC));
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn check_levels(&self) -> Result<(), Error> {
        tri!(self.prev.check_levels());
        self.check()
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn offset(&self, top: &Indices) -> Index {
        let lower = self.transforms.lower_stage(&self.lower.table(), &self.upper.table(), top);
        self.prev.offset(&lower)
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn is_valid(&self, top: &Indices) -> bool {
        let (lo, up) = (self.lower.table(), self.upper.table());
        // `&`, not `&&`: both sides are pure and cheap, and one condition
        // over every stage lets a window branch once per access (a
        // short-circuit left one branch per padded dimension on nvptx).
        self.transforms.valid_stage(&up, top) & self.prev.is_valid(&self.transforms.lower_stage(&lo, &up, top))
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn lengths(&self) -> Indices {
        self.transforms.lengths_stage(&self.lower.table(), &self.upper.table(), &self.prev.lengths())
    }
}
