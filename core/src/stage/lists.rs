//! Tuples of transforms and of id lists, the arguments of
//! [`transform_tensor_descriptor`](crate::typed::transform_tensor_descriptor).

use super::{Ids, MAX_HIDDEN, MAX_ITEMS, in_item};
use crate::error::{DescriptorProblem, Error};
use cktile_transforms::Count;
use cktile_transforms::static_for;
use cktile_transforms::tri;
use cktile_transforms::typed::TypedTransform;
use cktile_transforms::{Dims, Index, Indices, Kind, MAX_DIMS, Transform, Values, VectorRule};
use typenum::Unsigned;

/// One id list per transform of a stage (the first ids of each row), as
/// index arrays: what [`IdLists::table`] returns.
pub type IdTable = [Indices; MAX_ITEMS];

const _: () = assert!(MAX_DIMS == 8);

/// The `n` values a transform reads: `values[ids[j]]`, from a stage's
/// dimensions ([`MAX_DIMS`] of them) or an adaptor's hidden ones
/// ([`MAX_HIDDEN`]). The ids were checked to be in range when the
/// descriptor or adaptor was built; masked so they cannot panic.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) fn gather<const N: usize>(values: &[Index; N], ids: &Indices, n: usize) -> Indices {
    let mut out = [0; MAX_DIMS];
    static_for!(n, |j| out[j] = values[ids[j] as usize & (N - 1)]);
    out
}

/// Writes a transform's `n` values to `into[ids[j]]`.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) fn scatter<const N: usize>(values: &Indices, ids: &Indices, n: usize, into: &mut [Index; N]) {
    static_for!(n, |j| into[ids[j] as usize & (N - 1)] = values[j]);
}

const _: () = assert!(MAX_DIMS.is_power_of_two() && MAX_HIDDEN.is_power_of_two());

/// An adaptor's hidden index (or lengths), one entry per hidden id.
pub type HiddenIndex = [Index; MAX_HIDDEN];

/// Up to [`MAX_ITEMS`] transforms, validated.
///
/// ```
/// use cktile_core::typed::TransformList;
/// use cktile_core::prelude::*;
/// let list = (make_pass_through_transform(Number::<4>), make_merge_transform((Number::<2>, Number::<3>)));
/// assert!(list.transforms().is_ok());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TransformArray {
    transforms: [Transform; MAX_ITEMS],
    len: usize,
}

impl TransformArray {
    /// Collects transforms, naming the first invalid one.
    pub(crate) const fn collect(
        results: &[Result<Transform, cktile_transforms::Error>],
    ) -> Result<TransformArray, Error> {
        let mut out = TransformArray { transforms: [*crate::stage::FILLER.transform(); MAX_ITEMS], len: 0 };
        if results.len() > MAX_ITEMS {
            return Err(Error::descriptor(DescriptorProblem::TooManyItems { given: results.len(), max: MAX_ITEMS }));
        }
        let mut i = 0;
        while i < results.len() {
            out.transforms[i] = match results[i] {
                Ok(t) => t,
                Err(source) => return Err(Error::descriptor(DescriptorProblem::Transform { item: i, source })),
            };
            i += 1;
        }
        out.len = results.len();
        Ok(out)
    }

    /// Number of transforms.
    pub(crate) const fn len(&self) -> usize {
        self.len
    }

    /// Transform `i`.
    pub(crate) const fn get(&self, i: usize) -> Transform {
        self.transforms[i % MAX_ITEMS]
    }
}

/// Up to [`MAX_ITEMS`] id lists.
///
/// ```
/// use cktile_core::typed::IdLists;
/// assert!((cktile_core::ids![1, 0], cktile_core::ids![2]).lists().is_ok());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdArray {
    ids: [Ids; MAX_ITEMS],
    len: usize,
}

impl IdArray {
    const fn collect(lists: &[Result<Dims, cktile_transforms::Error>]) -> Result<IdArray, Error> {
        let mut out = IdArray { ids: [Ids::EMPTY; MAX_ITEMS], len: 0 };
        if lists.len() > MAX_ITEMS {
            return Err(Error::descriptor(DescriptorProblem::TooManyItems { given: lists.len(), max: MAX_ITEMS }));
        }
        let mut i = 0;
        while i < lists.len() {
            out.ids[i] = match lists[i] {
                Ok(d) => tri!(Ids::from_dims(&d)),
                Err(source) => return Err(Error::descriptor(DescriptorProblem::Transform { item: i, source })),
            };
            i += 1;
        }
        out.len = lists.len();
        Ok(out)
    }

    /// Id lists given as slices ([`Descriptor::transform_lists`](crate::Descriptor::transform_lists)).
    pub(crate) const fn of_slices(lists: &[&[usize]]) -> Result<IdArray, Error> {
        let mut out = IdArray { ids: [Ids::EMPTY; MAX_ITEMS], len: 0 };
        if lists.len() > MAX_ITEMS {
            return Err(Error::descriptor(DescriptorProblem::TooManyItems { given: lists.len(), max: MAX_ITEMS }));
        }
        let mut i = 0;
        while i < lists.len() {
            out.ids[i] = tri!(Ids::from_slice(lists[i]));
            i += 1;
        }
        out.len = lists.len();
        Ok(out)
    }

    pub(crate) const fn len(&self) -> usize {
        self.len
    }

    pub(crate) const fn get(&self, i: usize) -> Ids {
        self.ids[i % MAX_ITEMS]
    }
}

/// Whether every kind of `kinds` is linear.
const fn all_linear(kinds: &[(Kind, usize, usize)]) -> bool {
    let mut i = 0;
    while i < kinds.len() {
        if !kinds[i].0.is_linear() {
            return false;
        }
        i += 1;
    }
    true
}

/// A tuple of [`TypedTransform`]s, with the total number of upper
/// dimensions as a type-level integer.
///
/// ```
/// use cktile_core::typed::TransformList;
/// use cktile_core::prelude::*;
/// type X = (Xor<Number<64>, Number<8>>, PassThrough<Number<8>>);
/// assert_eq!(<<X as TransformList>::NumUpper as typenum::Unsigned>::USIZE, 3);
/// ```
pub trait TransformList: Copy {
    /// Total number of upper dimensions.
    type NumUpper: Count;
    /// The transforms, when every parameter is static.
    const STATIC: Option<Result<TransformArray, Error>>;
    /// Each transform's kind and numbers of lower and upper dimensions, in
    /// order: what the structural checks of a stage read of it, known from
    /// the types whatever the parameters.
    ///
    /// ```
    /// use cktile_core::typed::TransformList;
    /// use cktile_core::prelude::*;
    /// use cktile_core::transforms::Kind;
    /// type X = (Xor<usize, Number<8>>, Merge<(usize, usize, usize)>);
    /// assert_eq!(X::KINDS, &[(Kind::Xor, 2, 2), (Kind::Merge, 3, 1)]);
    /// ```
    const KINDS: &'static [(Kind, usize, usize)];
    /// Each transform's vector rule ([`TypedTransform::VECTOR_RULE`]), in
    /// order: how the stage carries safe vector lengths upward, as CK Tile
    /// knows it from the compile-time parameters.
    ///
    /// ```
    /// use cktile_core::typed::TransformList;
    /// use cktile_core::prelude::*;
    /// use cktile_core::transforms::VectorRule;
    /// type X = (Xor<usize, Number<8>>, Unmerge<(usize, Number<8>)>);
    /// assert_eq!(X::VECTOR_RULES, &[VectorRule::Pass { dims: 2 }, VectorRule::Gcd { upper: 1, with: Some(8) }]);
    /// ```
    const VECTOR_RULES: &'static [VectorRule];
    /// Whether every transform's kind is linear ([`Kind::is_linear`]): the
    /// stage's lower index then moves by a fixed linear function of the
    /// upper step, whatever the parameters.
    ///
    /// ```
    /// use cktile_core::typed::TransformList;
    /// use cktile_core::prelude::*;
    /// type Pads = (RightPad<usize, usize>, Unmerge<(usize, Number<8>)>);
    /// assert!(Pads::LINEAR && !<(Xor<usize, Number<8>>,)>::LINEAR);
    /// ```
    const LINEAR: bool = all_linear(Self::KINDS);
    /// The transforms.
    fn transforms(self) -> Result<TransformArray, Error>;
    /// The checks of [`transforms`](Self::transforms), keeping nothing:
    /// each transform's parameters, the first invalid one named.
    ///
    /// ```
    /// use cktile_core::typed::TransformList;
    /// use cktile_core::prelude::*;
    /// use cktile_core::{DescriptorProblem, ErrorKind};
    /// let bad = (make_pass_through_transform(4usize), make_xor_transform((64usize, 12usize)));
    /// assert_eq!(bad.check_params(), bad.transforms().map(|_| ()));
    /// assert!(matches!(bad.check_params().unwrap_err().kind(), ErrorKind::Descriptor(DescriptorProblem::Transform { item: 1, .. })));
    /// ```
    fn check_params(&self) -> Result<(), Error>;
    /// Checks each transform, in order, against the lengths of the old top
    /// dimensions it reads (`lower_lengths` at its row of `lower_ids`):
    /// what [`Stage::new`](crate::Stage::new) checks when it binds them
    /// ([`TypedTransform::check_lower_lengths`]), for a stage whose
    /// structure is valid.
    ///
    /// ```
    /// use cktile_core::typed::{IdLists, TransformList};
    /// use cktile_core::prelude::*;
    /// let x = (make_merge_transform((4usize, 8usize)),);
    /// let (lo, up) = ((ids![0, 1],).table(), (ids![0],).table());
    /// assert!(x.check_stage(&lo, &up, &[4, 8, 0, 0, 0, 0, 0, 0]).is_ok());
    /// assert!(x.check_stage(&lo, &up, &[4, 9, 0, 0, 0, 0, 0, 0]).is_err());
    /// ```
    fn check_stage(&self, lower_ids: &IdTable, upper_ids: &IdTable, lower_lengths: &Indices) -> Result<(), Error>;
    /// Whether every transform accepts its parameters and the lengths it
    /// reads ([`TypedTransform::accepts`], and-ed without branches): the
    /// verdict of [`check_params`](Self::check_params) and
    /// [`check_stage`](Self::check_stage) together, for a stage whose
    /// structure is valid.
    ///
    /// ```
    /// use cktile_core::typed::{IdLists, TransformList};
    /// use cktile_core::prelude::*;
    /// let x = (make_right_pad_transform(100usize, 28usize), make_pass_through_transform(8usize));
    /// let lo = (ids![0], ids![1]).table();
    /// assert!(x.accepts_stage(&lo, &[100, 8, 0, 0, 0, 0, 0, 0]));
    /// assert!(!x.accepts_stage(&lo, &[100, 9, 0, 0, 0, 0, 0, 0]));
    /// ```
    fn accepts_stage(&self, lower_ids: &IdTable, lower_lengths: &Indices) -> bool;
    /// The stage's lower index for its upper index `upper`: each transform
    /// reads its upper values at the ids of its row of `upper_ids` and
    /// writes its lower values at the ids of its row of `lower_ids`.
    ///
    /// ```
    /// use cktile_core::typed::{IdLists, TransformList};
    /// use cktile_core::prelude::*;
    /// let x = (make_merge_transform((Number::<4>, Number::<8>)),);
    /// let (lo, up) = ((ids![1, 0],).table(), (ids![0],).table());
    /// assert_eq!(x.lower_stage(&lo, &up, &[13, 0, 0, 0, 0, 0, 0, 0])[..2], [5, 1]);
    /// ```
    fn lower_stage(&self, lower_ids: &IdTable, upper_ids: &IdTable, upper: &Indices) -> Indices;
    /// Whether no transform of the stage maps `upper` to padding.
    ///
    /// ```
    /// use cktile_core::typed::{IdLists, TransformList};
    /// use cktile_core::prelude::*;
    /// let x = (make_right_pad_transform(Number::<4>, Number::<2>),);
    /// let up = (ids![0],).table();
    /// assert!(x.valid_stage(&up, &[3, 0, 0, 0, 0, 0, 0, 0]) && !x.valid_stage(&up, &[4, 0, 0, 0, 0, 0, 0, 0]));
    /// ```
    fn valid_stage(&self, upper_ids: &IdTable, upper: &Indices) -> bool;
    /// The stage's upper lengths from its lower lengths.
    ///
    /// ```
    /// use cktile_core::typed::{IdLists, TransformList};
    /// use cktile_core::prelude::*;
    /// let x = (make_merge_transform((Number::<4>, Number::<8>)),);
    /// let (lo, up) = ((ids![0, 1],).table(), (ids![0],).table());
    /// assert_eq!(x.lengths_stage(&lo, &up, &[4, 8, 0, 0, 0, 0, 0, 0])[0], 32);
    /// ```
    fn lengths_stage(&self, lower_ids: &IdTable, upper_ids: &IdTable, lower_lengths: &Indices) -> Indices;
    /// CK's `calculate_bottom_index` pass over an adaptor's hidden index:
    /// the transforms from the last to the first, each reading its upper
    /// values at the hidden ids of its row of `upper_ids` and writing its
    /// lower values at those of its row of `lower_ids`.
    ///
    /// ```
    /// use cktile_core::typed::{IdLists, TransformList};
    /// use cktile_core::prelude::*;
    /// // hidden 0 -> (1, 2) by an unmerge, then (2, 1) -> 3 by a merge.
    /// let x = (make_unmerge_transform((Number::<4>, Number::<8>)), make_merge_transform((Number::<8>, Number::<4>)));
    /// let (lo, up) = ((ids![0], ids![2, 1]).table(), (ids![1, 2], ids![3]).table());
    /// let mut hidden = [0; cktile_core::adaptor::MAX_HIDDEN];
    /// hidden[3] = 9; // top: (k = 2, m = 1) in the (8, 4) merge
    /// x.lower_hidden(&lo, &up, &mut hidden);
    /// assert_eq!(hidden[..4], [10, 1, 2, 9]);
    /// ```
    fn lower_hidden(&self, lower_ids: &IdTable, upper_ids: &IdTable, hidden: &mut HiddenIndex);
    /// The lengths of an adaptor's hidden dimensions: from the bottom ones
    /// already in `lengths`, the transforms from the first to the last, each
    /// writing its upper lengths from its lower ones.
    ///
    /// ```
    /// use cktile_core::typed::{IdLists, TransformList};
    /// use cktile_core::prelude::*;
    /// let x = (make_unmerge_transform((Number::<4>, Number::<8>)), make_merge_transform((Number::<8>, Number::<4>)));
    /// let (lo, up) = ((ids![0], ids![2, 1]).table(), (ids![1, 2], ids![3]).table());
    /// let mut lengths = [0; cktile_core::adaptor::MAX_HIDDEN];
    /// lengths[0] = 32;
    /// x.lengths_hidden(&lo, &up, &mut lengths);
    /// assert_eq!(lengths[..4], [32, 4, 8, 32]);
    /// ```
    fn lengths_hidden(&self, lower_ids: &IdTable, upper_ids: &IdTable, lengths: &mut HiddenIndex);
    /// How many runtime parameters the transforms hold, together (the
    /// slots [`write_runtime`](Self::write_runtime) fills).
    ///
    /// ```
    /// use cktile_core::typed::TransformList;
    /// use cktile_core::prelude::*;
    /// type X = (Xor<usize, Number<8>>, Merge<(usize, usize, Number<2>)>);
    /// assert_eq!(<X as TransformList>::RUNTIME, 3);
    /// ```
    const RUNTIME: usize;
    /// Writes each transform's runtime parameters, in order, to
    /// `out[at..at + RUNTIME]` ([`TypedTransform::write_runtime`]).
    ///
    /// ```
    /// use cktile_core::typed::TransformList;
    /// use cktile_core::prelude::*;
    /// let mut out = [0u64; 3];
    /// (make_xor_transform((64usize, Number::<8>)), make_merge_transform((4usize, 2usize))).write_runtime(&mut out, 0);
    /// assert_eq!(out, [64, 4, 2]);
    /// ```
    fn write_runtime(&self, out: &mut [u64], at: usize);
    /// Reads back what [`write_runtime`](Self::write_runtime) wrote from
    /// `slots[at..]`.
    ///
    /// ```
    /// use cktile_core::typed::TransformList;
    /// use cktile_core::prelude::*;
    /// type X = (Xor<usize, Number<8>>, Merge<(usize, usize)>);
    /// assert_eq!(X::read_runtime(&[64, 4, 2], 0), (make_xor_transform((64usize, Number::<8>)), make_merge_transform((4usize, 2usize))));
    /// ```
    fn read_runtime(slots: &[u64], at: usize) -> Self;
}

/// A tuple of id lists (each a tuple of [`Value`](cktile_transforms::Value)s,
/// usually written with [`ids!`](crate::ids)).
///
/// ```
/// use cktile_core::typed::IdLists;
/// use cktile_core::ids;
/// assert!((ids![1, 0], ids![2]).lists().is_ok());
/// ```
pub trait IdLists: Copy {
    /// The lists, when every id is static.
    const STATIC: Option<Result<IdArray, Error>>;
    /// The lists.
    fn lists(self) -> Result<IdArray, Error>;
    /// The lists as index arrays, unchecked (for lists already validated by
    /// [`lists`](Self::lists)); static ids fold into the evaluation.
    ///
    /// ```
    /// use cktile_core::typed::IdLists;
    /// assert_eq!((cktile_core::ids![1, 0], cktile_core::ids![2]).table()[..2], [[1, 0, 0, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0, 0, 0]]);
    /// ```
    fn table(&self) -> IdTable;
    /// How many ids are runtime values (the slots
    /// [`write_runtime`](Self::write_runtime) fills).
    ///
    /// ```
    /// use cktile_core::typed::IdLists;
    /// use cktile_core::Number;
    /// assert_eq!(<((Number<1>, usize), (usize,)) as IdLists>::RUNTIME, 2);
    /// ```
    const RUNTIME: usize;
    /// Writes the runtime ids, list by list, to `out[at..at + RUNTIME]`.
    ///
    /// ```
    /// use cktile_core::typed::IdLists;
    /// use cktile_core::Number;
    /// let mut out = [0u64; 2];
    /// ((Number::<1>, 0usize), (2usize,)).write_runtime(&mut out, 0);
    /// assert_eq!(out, [0, 2]);
    /// ```
    fn write_runtime(&self, out: &mut [u64], at: usize);
    /// Reads back what [`write_runtime`](Self::write_runtime) wrote from
    /// `slots[at..]`.
    ///
    /// ```
    /// use cktile_core::typed::IdLists;
    /// use cktile_core::Number;
    /// assert_eq!(<((Number<1>, usize), (usize,)) as IdLists>::read_runtime(&[0, 2], 0), ((Number::<1>, 0), (2,)));
    /// ```
    fn read_runtime(slots: &[u64], at: usize) -> Self;
}

/// Every entry's value when all are known; `None` when one is not.
const fn all_known<T: Copy, const N: usize>(all: [Option<T>; N], filler: T) -> Option<[T; N]> {
    let mut out = [filler; N];
    let mut i = 0;
    while i < N {
        match all[i] {
            Some(v) => out[i] = v,
            None => return None,
        }
        i += 1;
    }
    Some(out)
}

/// A transform's number of lower dimensions.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
fn num_lower<T: TypedTransform>(_: &T) -> usize {
    <T::NumLower as Unsigned>::USIZE
}

/// A transform's number of upper dimensions.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
fn num_upper<T: TypedTransform>(_: &T) -> usize {
    <T::NumUpper as Unsigned>::USIZE
}

/// The lower values of `t` for its upper values, read from `upper` at
/// `upper_ids` (the step of a pass from the top to the bottom).
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
fn lower_of<T: TypedTransform, const N: usize>(t: &T, upper: &[Index; N], upper_ids: &Indices) -> Indices {
    t.lower(&gather(upper, upper_ids, num_upper(t)))
}

/// The upper lengths of `t` for its lower lengths, read from `lower` at
/// `lower_ids` (the step of a pass from the bottom to the top).
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
fn upper_lengths_of<T: TypedTransform, const N: usize>(t: &T, lower: &[Index; N], lower_ids: &Indices) -> Indices {
    t.upper_lengths(&gather(lower, lower_ids, num_lower(t)))
}

macro_rules! impl_lists {
    // Runs `$body` for each entry of the tuple `$self` (a reference), in
    // order, written out: `$x` the entry, `$i` its position.
    (@each $self:expr => $($t:ident),+; |$x:ident, $i:ident| $body:expr) => {{
        #[allow(non_snake_case)]
        let ($($t,)+) = $self;
        let mut $i: usize = 0;
        $(
            let $x = $t;
            $body;
            $i += 1;
        )+
        let _ = $i;
    }};
    // The runtime items of a tuple whose entries implement `$tr`.
    (@runtime $tr:ident; $($t:ident),+) => {
        const RUNTIME: usize = 0 $(+ <$t as $tr>::RUNTIME)+;
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn write_runtime(&self, out: &mut [u64], at: usize) {
            #[allow(non_snake_case)]
            let ($($t,)+) = self;
            let mut at = at;
            $(
                $t.write_runtime(out, at);
                at += <$t as $tr>::RUNTIME;
            )+
            let _ = at;
        }
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn read_runtime(slots: &[u64], at: usize) -> Self {
            let mut at = at;
            let out = ($({
                let value = <$t as $tr>::read_runtime(slots, at);
                at += <$t as $tr>::RUNTIME;
                value
            },)+);
            let _ = at;
            out
        }
    };
    (@common $($t:ident),+) => {
        impl<$($t: Values),+> IdLists for ($($t,)+) {
            const STATIC: Option<Result<IdArray, Error>> = match all_known([$($t::STATIC),+], Ok(Dims::EMPTY)) {
                Some(lists) => Some(IdArray::collect(&lists)),
                None => None,
            };
            #[allow(non_snake_case)]
            fn lists(self) -> Result<IdArray, Error> {
                let ($($t,)+) = self;
                IdArray::collect(&[$($t.dims()),+])
            }
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn table(&self) -> IdTable {
                let mut out = [[0; MAX_DIMS]; MAX_ITEMS];
                impl_lists!(@each self => $($t),+; |ids, i| out[i % MAX_ITEMS] = ids.indices());
                out
            }
            impl_lists!(@runtime Values; $($t),+);
        }
    };
    (@transforms $($t:ident),+) => {
        impl_lists!(@runtime TypedTransform; $($t),+);
        const STATIC: Option<Result<TransformArray, Error>> =
            match all_known([$($t::STATIC),+], Ok(*crate::stage::FILLER.transform())) {
                Some(transforms) => Some(TransformArray::collect(&transforms)),
                None => None,
            };
        const KINDS: &'static [(Kind, usize, usize)] = &[$((
            $t::KIND,
            <<$t as TypedTransform>::NumLower as Unsigned>::USIZE,
            <<$t as TypedTransform>::NumUpper as Unsigned>::USIZE,
        )),+];
        const VECTOR_RULES: &'static [VectorRule] = &[$($t::VECTOR_RULE),+];
        #[allow(non_snake_case)]
        fn transforms(self) -> Result<TransformArray, Error> {
            let ($($t,)+) = self;
            TransformArray::collect(&[$($t.to_transform()),+])
        }
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn check_params(&self) -> Result<(), Error> {
            impl_lists!(@each self => $($t),+; |t, i| tri!(in_item(i, t.to_transform())));
            Ok(())
        }
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn check_stage(&self, lower_ids: &IdTable, _upper_ids: &IdTable, lower_lengths: &Indices) -> Result<(), Error> {
            impl_lists!(@each self => $($t),+; |t, i| {
                let lengths = gather(lower_lengths, &lower_ids[i % MAX_ITEMS], num_lower(t));
                tri!(in_item(i, t.check_lower_lengths(&lengths)))
            });
            Ok(())
        }
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn accepts_stage(&self, lower_ids: &IdTable, lower_lengths: &Indices) -> bool {
            let mut ok = true;
            impl_lists!(@each self => $($t),+; |t, i| {
                ok &= t.accepts(&gather(lower_lengths, &lower_ids[i % MAX_ITEMS], num_lower(t)));
            });
            ok
        }
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn lower_stage(&self, lower_ids: &IdTable, upper_ids: &IdTable, upper: &Indices) -> Indices {
            let mut lower = [0; MAX_DIMS];
            impl_lists!(@each self => $($t),+; |t, i| {
                let low = lower_of(t, upper, &upper_ids[i % MAX_ITEMS]);
                scatter(&low, &lower_ids[i % MAX_ITEMS], num_lower(t), &mut lower)
            });
            lower
        }
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn valid_stage(&self, upper_ids: &IdTable, upper: &Indices) -> bool {
            // Every transform's test, joined without short-circuits (see `Transformed::is_valid`).
            let mut valid = true;
            impl_lists!(@each self => $($t),+; |t, i| {
                valid &= t.is_valid(&gather(upper, &upper_ids[i % MAX_ITEMS], num_upper(t)));
            });
            valid
        }
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn lengths_stage(&self, lower_ids: &IdTable, upper_ids: &IdTable, lower_lengths: &Indices) -> Indices {
            let mut out = [0; MAX_DIMS];
            impl_lists!(@each self => $($t),+; |t, i| {
                let lengths = upper_lengths_of(t, lower_lengths, &lower_ids[i % MAX_ITEMS]);
                scatter(&lengths, &upper_ids[i % MAX_ITEMS], num_upper(t), &mut out)
            });
            out
        }
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn lower_hidden(&self, lower_ids: &IdTable, upper_ids: &IdTable, hidden: &mut HiddenIndex) {
            // Written out from the last transform to the first; with a
            // constant `k` every test but one folds away.
            static_for!(rev Self::KINDS.len(), |k| {
                impl_lists!(@each self => $($t),+; |t, i| {
                    if i == k {
                        let low = lower_of(t, hidden, &upper_ids[i % MAX_ITEMS]);
                        scatter(&low, &lower_ids[i % MAX_ITEMS], num_lower(t), hidden);
                    }
                });
            });
        }
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        fn lengths_hidden(&self, lower_ids: &IdTable, upper_ids: &IdTable, lengths: &mut HiddenIndex) {
            impl_lists!(@each self => $($t),+; |t, i| {
                let upper = upper_lengths_of(t, lengths, &lower_ids[i % MAX_ITEMS]);
                scatter(&upper, &upper_ids[i % MAX_ITEMS], num_upper(t), lengths)
            });
        }
    };
    ($a:ident) => {
        impl_lists!(@common $a);
        impl<$a: TypedTransform> TransformList for ($a,) {
            type NumUpper = $a::NumUpper;
            impl_lists!(@transforms $a);
        }
    };
    ($a:ident, $($rest:ident),+) => {
        impl_lists!(@common $a, $($rest),+);
        impl<$a: TypedTransform, $($rest: TypedTransform),+> TransformList for ($a, $($rest),+) {
            type NumUpper = <$a::NumUpper as Count>::Plus<<($($rest,)+) as TransformList>::NumUpper>;
            impl_lists!(@transforms $a, $($rest),+);
        }
        impl_lists!($($rest),+);
    };
}

impl_lists!(A, B, C, D, E, F, G, H);
