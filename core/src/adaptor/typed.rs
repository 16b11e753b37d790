//! Typed tensor adaptors: CK Tile's `tensor_adaptor` with its structure and
//! compile-time lengths in the type, as typed descriptors have them.
//!
//! An adaptor maps a top index to a bottom index through transforms wired
//! by dimension ids (see [`adaptor`](crate::adaptor) for the runtime form,
//! [`Adaptor`]). The four CK calls each give a [`TensorAdaptor`] whose type
//! records the call ([`AdaptorChain`]):
//!
//! - [`make_single_stage_tensor_adaptor`]: one stage of transforms over the
//!   bottom dimensions ([`SingleStageAdaptor`]);
//! - [`transform_tensor_adaptor`]: a stage on top of an adaptor
//!   ([`TransformedAdaptor`]);
//! - [`chain_tensor_adaptors`]: one adaptor's top is the next one's bottom
//!   ([`ChainedAdaptors`]);
//! - [`make_tensor_adaptor`]: CK's general constructor, transforms wired by
//!   hidden ids, the form a tile distribution's `ps_ys_to_xs` adaptor takes
//!   ([`HiddenAdaptor`]).
//!
//! As in cktile's runtime [`Adaptor`] (and unlike CK), an adaptor knows its
//! bottom lengths: the single-stage and general constructors take them, and
//! every transform is checked against the lengths it reads.
//!
//! The evaluation is a descriptor stage's ([`TransformList::lower_stage`])
//! for the staged forms, and CK's pass over the hidden index
//! ([`TransformList::lower_hidden`]) for the general one: with compile-time
//! ids every index is a constant and the hidden index lives in registers,
//! so `calculate_bottom_index` compiles to the transforms' arithmetic (the
//! proof kernels of `perf/kernels` check it on amdgcn, nvptx and x86_64).
//! Validation is the runtime constructors' own: an all-static adaptor is
//! built at compile time ([`Built::STATIC`]), so an invalid one does
//! not compile; with runtime lengths a staged adaptor checks its new stage
//! in a few compares, and a chained or general one builds its runtime
//! [`Adaptor`] once, when it is made.
//!
//! ```
//! use cktile_core::prelude::*;
//!
//! // CK's warp-GEMM A distribution of the 32x32x8 MFMA: X = (M 32, K 8),
//! // K split (2, 4), the lane merges (K's 2, M's 32), the register walks K's 4.
//! let a = make_tensor_adaptor(
//!     (Number::<32>, Number::<8>),
//!     (
//!         make_unmerge_transform((Number::<32>,)),
//!         make_unmerge_transform((Number::<2>, Number::<4>)),
//!         make_merge_transform((Number::<2>, Number::<32>)),
//!     ),
//!     (ids![0], ids![1], ids![3, 2]),
//!     (ids![2], ids![3, 4], ids![5]),
//!     ids![0, 1],
//!     ids![5, 4],
//! )?;
//! let (lane, y) = (37, 3);
//! assert_eq!(a.calculate_bottom_index([lane, y]), [lane % 32, (lane / 32) * 4 + y]);
//! assert_eq!(core::mem::size_of_val(&a), 0);
//! # Ok::<(), cktile_core::Error>(())
//! ```

use super::{Adaptor, AdaptorProblem, MAX_HIDDEN, MAX_TRANSFORMS};
use crate::error::{Error, ErrorKind};
use crate::stage::built::static_failure;
use crate::stage::built::{Built, Core};
use crate::stage::check_coordinate;
use crate::stage::coordinate::CoordinateOf;
use crate::stage::coordinate::indices;
use crate::stage::lists::{HiddenIndex, IdLists, TransformList, gather, scatter};
use crate::stage::typed::{DimsResult, check_new_stage, lift, stage_items, static_structure};
use cktile_transforms::{Count, Dims, Index, Indices, MAX_DIMS, Values, static_for, tri};
use core::fmt;
use typenum::Unsigned;

/// An adaptor at the type level; its value holds the adaptor's runtime
/// parameters only (an adaptor of [`Number`](crate::Number)s is
/// zero-sized).
///
/// The evaluation methods assume a validated adaptor (one a
/// [`TensorAdaptor`] was built from) and a top index in the first
/// [`NumTop`](AdaptorChain::NumTop) entries. Its validation and its
/// runtime [`Adaptor`] are the [`Built`] core it shares with typed
/// descriptors.
///
/// ```
/// use cktile_core::prelude::*;
/// use cktile_core::typed::AdaptorChain;
/// let a = make_single_stage_tensor_adaptor((Number::<4>, 8usize), (make_merge_transform((Number::<4>, 8usize)),), (ids![0, 1],), (ids![0],))?;
/// assert_eq!(a.chain().bottom_index(&[13, 0, 0, 0, 0, 0, 0, 0])[..2], [1, 5]);
/// assert_eq!(a.chain().top_lengths()[0], 32);
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub trait AdaptorChain: Built<Runtime = Adaptor> {
    /// Number of bottom dimensions, as a typenum integer.
    type NumBottom: Count;
    /// Number of top dimensions, as a typenum integer.
    type NumTop: Count;
    /// The number of transforms and of hidden dimensions of the runtime
    /// adaptor ([`Adaptor::items`], [`Adaptor::num_hidden`]), when the
    /// types tell them.
    const SIZE: Option<(usize, usize)>;
    /// The bottom index of a top index (CK's `calculate_bottom_index`).
    fn bottom_index(&self, top: &Indices) -> Indices;
    /// The top lengths (the first [`NumTop`](Self::NumTop) entries).
    fn top_lengths(&self) -> Indices;
    /// The bottom lengths (the first [`NumBottom`](Self::NumBottom) entries).
    fn bottom_lengths(&self) -> Indices;
}

/// The coordinate types of an adaptor: `[Index; N]`.
type Top<A> = <<A as AdaptorChain>::NumTop as Count>::Coordinate;
type Bottom<A> = <<A as AdaptorChain>::NumBottom as Count>::Coordinate;

/// The first `N` entries of an index array as a coordinate `[Index; N]`.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
fn coordinate<N: Count>(values: &Indices) -> N::Coordinate {
    let mut out = N::Coordinate::default();
    let slots = out.as_mut();
    static_for!(slots.len(), |j| slots[j] = values[j]);
    out
}

/// An adaptor whose type records its chain `A`, holding only the chain's
/// runtime values: CK Tile's `tensor_adaptor`, made by
/// [`make_single_stage_tensor_adaptor`], [`transform_tensor_adaptor`],
/// [`chain_tensor_adaptors`] or [`make_tensor_adaptor`]. As cktile's
/// runtime [`Adaptor`] (and unlike CK), it knows its bottom lengths.
///
/// ```
/// use cktile_core::prelude::*;
/// // 32 split into (4, 8), then the two swapped and merged back.
/// let split = make_single_stage_tensor_adaptor((Number::<32>,), (make_unmerge_transform((Number::<4>, Number::<8>)),), (ids![0],), (ids![0, 1],))?;
/// let swapped = transform_tensor_adaptor(split, (make_merge_transform((Number::<8>, Number::<4>)),), (ids![1, 0],), (ids![0],))?;
/// assert_eq!(swapped.calculate_bottom_index([9]), [10]); // (k 2, m 1) -> m * 8 + k
/// assert_eq!(swapped.adaptor().to_string(), "bottom [0] (32) | unmerge((4,8)) on [0] -> [1,2] | merge((8,4)) on [2,1] -> [3] | top [3]");
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TensorAdaptor<A: AdaptorChain> {
    chain: A,
}

impl<A: AdaptorChain> fmt::Debug for TensorAdaptor<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TensorAdaptor").field("adaptor", &self.adaptor()).finish()
    }
}

/// Prints the runtime adaptor ([`Adaptor`]'s `Display`).
///
/// ```
/// use cktile_core::prelude::*;
/// let a = make_single_stage_tensor_adaptor((Number::<4>, Number::<8>), (make_merge_transform((Number::<4>, Number::<8>)),), (ids![0, 1],), (ids![0],))?;
/// assert_eq!(a.to_string(), "bottom [0,1] (4,8) | merge((4,8)) on [0,1] -> [2] | top [2]");
/// # Ok::<(), cktile_core::Error>(())
/// ```
impl<A: AdaptorChain> fmt::Display for TensorAdaptor<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.adaptor(), f)
    }
}

impl<A: AdaptorChain> TensorAdaptor<A> {
    /// CK's `get_num_of_top_dimension()`.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// use cktile_core::typed::SingleStageAdaptor;
    /// type Split = SingleStageAdaptor<(Number<32>,), (Unmerge<(Number<4>, Number<8>)>,), ((Number<0>,),), ((Number<0>, Number<1>),)>;
    /// assert_eq!((TensorAdaptor::<Split>::NUM_TOP, TensorAdaptor::<Split>::NUM_BOTTOM), (2, 1));
    /// ```
    pub const NUM_TOP: usize = <A::NumTop as Unsigned>::USIZE;

    /// CK's `get_num_of_bottom_dimension()`.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let a = make_single_stage_tensor_adaptor((Number::<4>, Number::<8>), (make_merge_transform((Number::<4>, Number::<8>)),), (ids![0, 1],), (ids![0],))?;
    /// fn bottoms<A: cktile_core::typed::AdaptorChain>(_: &TensorAdaptor<A>) -> usize { TensorAdaptor::<A>::NUM_BOTTOM }
    /// assert_eq!(bottoms(&a), 2);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const NUM_BOTTOM: usize = <A::NumBottom as Unsigned>::USIZE;

    /// The adaptor when all its parameters are static; `None` otherwise.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// use cktile_core::typed::SingleStageAdaptor;
    /// type Static = SingleStageAdaptor<(Number<32>,), (Unmerge<(Number<4>, Number<8>)>,), ((Number<0>,),), ((Number<0>, Number<1>),)>;
    /// type Dynamic = SingleStageAdaptor<(usize,), (Unmerge<(Number<4>, Number<8>)>,), ((Number<0>,),), ((Number<0>, Number<1>),)>;
    /// assert!(TensorAdaptor::<Static>::STATIC_ADAPTOR.is_some());
    /// assert!(TensorAdaptor::<Dynamic>::STATIC_ADAPTOR.is_none());
    /// ```
    pub const STATIC_ADAPTOR: Option<&'static Adaptor> = match &A::STATIC {
        Some(Ok(a)) => Some(a),
        _ => None,
    };

    /// The adaptor of an all-static chain, as a constant (a compile error
    /// if a parameter is a runtime value).
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// use cktile_core::typed::SingleStageAdaptor;
    /// type Split = SingleStageAdaptor<(Number<32>,), (Unmerge<(Number<4>, Number<8>)>,), ((Number<0>,),), ((Number<0>, Number<1>),)>;
    /// const LENGTHS: cktile_core::transforms::Dims = TensorAdaptor::<Split>::ADAPTOR.top_lengths();
    /// assert_eq!(LENGTHS.as_slice(), &[4, 8]);
    /// ```
    pub const ADAPTOR: &'static Adaptor = match Self::STATIC_ADAPTOR {
        Some(a) => a,
        None => match A::STATIC {
            Some(Err(e)) => static_failure(&e),
            _ => panic!("cktile: ADAPTOR needs every length of the adaptor to be a compile-time Number"),
        },
    };

    /// An adaptor of a chain known valid (an all-static chain whose
    /// [`Core::CHECK`] the caller has referenced).
    pub(crate) const fn from_valid(chain: A) -> Self {
        TensorAdaptor { chain }
    }

    /// Validates the chain ([`Core::validate`]): at compile time when it is
    /// all static, otherwise its newest level, on its values.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn new(chain: A) -> Result<Self, Error> {
        Ok(TensorAdaptor { chain: tri!(Core::validate(chain)) })
    }

    /// The chain: the adaptor's runtime values, and its evaluation.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// use cktile_core::typed::AdaptorChain;
    /// let a = make_single_stage_tensor_adaptor((4usize,), (make_pass_through_transform(4usize),), (ids![0],), (ids![0],))?;
    /// assert_eq!(a.chain().bottom_lengths()[0], 4);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub fn chain(&self) -> &A {
        &self.chain
    }

    /// The runtime adaptor (for printing, and for code that takes an
    /// [`Adaptor`]): the constant for an all-static chain.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let a = make_single_stage_tensor_adaptor((32usize,), (make_unmerge_transform((4usize, 8usize)),), (ids![0],), (ids![0, 1],))?;
    /// assert_eq!(a.adaptor().calculate_bottom_index(&[3, 5])?.as_slice(), &[29]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub fn adaptor(&self) -> Adaptor {
        Core::runtime(&self.chain)
    }

    /// CK's `calculate_bottom_index` (no range checks, as in CK Tile).
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let a = make_single_stage_tensor_adaptor((Number::<4>, Number::<8>), (make_merge_transform((Number::<4>, Number::<8>)),), (ids![0, 1],), (ids![0],))?;
    /// assert_eq!(a.calculate_bottom_index([13]), [1, 5]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn calculate_bottom_index(&self, top: impl CoordinateOf<Top<A>>) -> Bottom<A> {
        coordinate::<A::NumBottom>(&self.chain.bottom_index(&indices(top.as_slice())))
    }

    /// The bottom index of a top index that must lie inside the top
    /// lengths.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let a = make_single_stage_tensor_adaptor((Number::<4>, Number::<8>), (make_merge_transform((Number::<4>, Number::<8>)),), (ids![0, 1],), (ids![0],))?;
    /// assert_eq!(a.try_calculate_bottom_index([31])?, [3, 7]);
    /// assert_eq!(a.try_calculate_bottom_index([32]).unwrap_err().to_string(), "coordinate dimension 0 is 32; it must be in [0, 32)");
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub fn try_calculate_bottom_index(&self, top: impl CoordinateOf<Top<A>>) -> Result<Bottom<A>, Error> {
        let top = top.as_slice();
        check_coordinate(&self.chain.top_lengths(), top)?;
        Ok(coordinate::<A::NumBottom>(&self.chain.bottom_index(&indices(top))))
    }

    /// The top lengths, one per top dimension.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let a = make_single_stage_tensor_adaptor((Number::<32>,), (make_unmerge_transform((Number::<4>, 8usize)),), (ids![0],), (ids![0, 1],))?;
    /// assert_eq!(a.top_lengths(), [4, 8]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn top_lengths(&self) -> Top<A> {
        coordinate::<A::NumTop>(&self.chain.top_lengths())
    }

    /// The bottom lengths, one per bottom dimension.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let a = make_single_stage_tensor_adaptor((Number::<4>, 8usize), (make_merge_transform((Number::<4>, 8usize)),), (ids![0, 1],), (ids![0],))?;
    /// assert_eq!(a.bottom_lengths(), [4, 8]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn bottom_lengths(&self) -> Bottom<A> {
        coordinate::<A::NumBottom>(&self.chain.bottom_lengths())
    }
}

/// The runtime checks a new stage adds to an adaptor of `size` (transforms,
/// hidden dimensions) when it brings `transforms` transforms and `upper`
/// new hidden dimensions: what [`Adaptor::transform`] refuses after its
/// stage's own checks.
#[inline]
const fn check_growth(size: (usize, usize), transforms: usize, upper: usize) -> Result<(), Error> {
    let given = size.0 + transforms;
    if given > MAX_TRANSFORMS {
        return Err(Error::new(ErrorKind::Adaptor(AdaptorProblem::TooManyTransforms { given, max: MAX_TRANSFORMS })));
    }
    if size.1 + upper > MAX_HIDDEN {
        // The new outputs are numbered from `size.1` on; the first too large is MAX_HIDDEN.
        return Err(Error::new(ErrorKind::Adaptor(AdaptorProblem::IdTooLarge { id: MAX_HIDDEN, max: MAX_HIDDEN })));
    }
    Ok(())
}

/// The runtime adaptor's size, read from an all-static chain.
#[inline]
const fn size_of_static(adaptor: &Option<Result<Adaptor, Error>>) -> Option<(usize, usize)> {
    match adaptor {
        Some(Ok(a)) => Some((a.items().len(), a.num_hidden())),
        _ => None,
    }
}

// The runtime constructors' wrappers below are `#[inline]`: compiled only
// where a typed adaptor is built at run time, never into the library itself
// (compiled for amdgcn gfx942, `general`'s fixed-capacity frame makes LLVM's
// AMDGPU backend fail: "Cannot scavenge register in FI elimination").
#[inline]
const fn single_stage(
    lengths: DimsResult,
    transforms: Result<crate::stage::lists::TransformArray, Error>,
    lower: Result<crate::stage::lists::IdArray, Error>,
    upper: Result<crate::stage::lists::IdArray, Error>,
) -> Result<Adaptor, Error> {
    let lengths = tri!(lift(lengths));
    let (items, n) = tri!(stage_items(transforms, lower, upper));
    Adaptor::single_stage(lengths, items.split_at(n).0)
}

/// `make_single_stage_tensor_adaptor` at the type level: bottom lengths
/// `L`, transforms `X`, and for each the bottom dimensions it reads (`Lo`)
/// and the top dimensions it produces (`Up`).
///
/// ```
/// use cktile_core::prelude::*;
/// use cktile_core::typed::SingleStageAdaptor;
/// type Merge2 = SingleStageAdaptor<(Number<4>, Number<8>), (Merge<(Number<4>, Number<8>)>,), ((Number<0>, Number<1>),), ((Number<0>,),)>;
/// assert_eq!(TensorAdaptor::<Merge2>::ADAPTOR.calculate_bottom_index(&[13])?.as_slice(), &[1, 5]);
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SingleStageAdaptor<L, X, Lo, Up> {
    pub(crate) lengths: L,
    pub(crate) transforms: X,
    pub(crate) lower: Lo,
    pub(crate) upper: Up,
}

impl<L: Values, X: TransformList, Lo: IdLists, Up: IdLists> Built for SingleStageAdaptor<L, X, Lo, Up> {
    type Runtime = Adaptor;
    const STATIC: Option<Result<Adaptor, Error>> = match (L::STATIC, X::STATIC, Lo::STATIC, Up::STATIC) {
        (Some(l), Some(x), Some(lo), Some(up)) => Some(single_stage(l, x, lo, up)),
        _ => None,
    };
    const STRUCTURE: Option<Result<(), Error>> = static_structure::<X, Lo, Up>(0, L::Len::USIZE);
    fn build(&self) -> Result<Adaptor, Error> {
        single_stage(self.lengths.dims(), self.transforms.transforms(), self.lower.lists(), self.upper.lists())
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn check(&self) -> Result<(), Error> {
        tri!(lift(self.lengths.dims()));
        let lengths = self.lengths.indices();
        check_new_stage(&self.transforms, &self.lower, &self.upper, Self::STRUCTURE, 0, L::Len::USIZE, &lengths)
    }
}

impl<L: Values, X: TransformList, Lo: IdLists, Up: IdLists> AdaptorChain for SingleStageAdaptor<L, X, Lo, Up> {
    type NumBottom = L::Len;
    type NumTop = X::NumUpper;
    const SIZE: Option<(usize, usize)> = Some((X::KINDS.len(), L::Len::USIZE + X::NumUpper::USIZE));
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn bottom_index(&self, top: &Indices) -> Indices {
        self.transforms.lower_stage(&self.lower.table(), &self.upper.table(), top)
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn top_lengths(&self) -> Indices {
        self.transforms.lengths_stage(&self.lower.table(), &self.upper.table(), &self.lengths.indices())
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn bottom_lengths(&self) -> Indices {
        self.lengths.indices()
    }
}

#[inline]
const fn transformed(
    prev: Result<Adaptor, Error>,
    transforms: Result<crate::stage::lists::TransformArray, Error>,
    lower: Result<crate::stage::lists::IdArray, Error>,
    upper: Result<crate::stage::lists::IdArray, Error>,
) -> Result<Adaptor, Error> {
    let prev = tri!(prev);
    let (items, n) = tri!(stage_items(transforms, lower, upper));
    prev.transform(items.split_at(n).0)
}

/// `transform_tensor_adaptor(adaptor, transforms, lower ids, upper ids)` at
/// the type level: a stage of transforms `X` over the top dimensions of
/// `A`.
///
/// ```
/// use cktile_core::prelude::*;
/// let a = make_single_stage_tensor_adaptor((Number::<32>,), (make_unmerge_transform((Number::<4>, Number::<8>)),), (ids![0],), (ids![0, 1],))?;
/// let b = transform_tensor_adaptor(a, (make_pass_through_transform(Number::<4>), make_pass_through_transform(Number::<8>)), (ids![0], ids![1]), (ids![1], ids![0]))?;
/// assert_eq!(b.calculate_bottom_index([5, 3]), [3 * 8 + 5]);
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TransformedAdaptor<A, X, Lo, Up> {
    pub(crate) prev: A,
    pub(crate) transforms: X,
    pub(crate) lower: Lo,
    pub(crate) upper: Up,
}

impl<A: AdaptorChain, X: TransformList, Lo: IdLists, Up: IdLists> Built for TransformedAdaptor<A, X, Lo, Up> {
    type Runtime = Adaptor;
    const STATIC: Option<Result<Adaptor, Error>> = match (A::STATIC, X::STATIC, Lo::STATIC, Up::STATIC) {
        (Some(a), Some(x), Some(lo), Some(up)) => Some(transformed(a, x, lo, up)),
        _ => None,
    };
    const STRUCTURE: Option<Result<(), Error>> = match (static_structure::<X, Lo, Up>(0, A::NumTop::USIZE), A::SIZE) {
        (Some(Ok(())), Some(size)) => Some(check_growth(size, X::KINDS.len(), X::NumUpper::USIZE)),
        (Some(Err(e)), Some(_)) => Some(Err(e)),
        _ => None,
    };
    fn build(&self) -> Result<Adaptor, Error> {
        transformed(self.prev.build(), self.transforms.transforms(), self.lower.lists(), self.upper.lists())
    }
    /// [`build`](Built::build)'s checks of the new stage (as a
    /// typed descriptor's [`Transformed`](crate::typed::Transformed) runs them),
    /// then the adaptor's growth; a runtime [`Adaptor`] is built only when
    /// `A`'s size is not known from the types.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn check(&self) -> Result<(), Error> {
        let Some(size) = A::SIZE else {
            return self.build().map(|_| ());
        };
        let lengths = self.prev.top_lengths();
        // A known structure is valid here (an invalid one does not compile).
        let structure = Self::STRUCTURE.filter(Result::is_ok);
        tri!(check_new_stage(&self.transforms, &self.lower, &self.upper, structure, 0, A::NumTop::USIZE, &lengths));
        check_growth(size, X::KINDS.len(), X::NumUpper::USIZE)
    }
}

impl<A: AdaptorChain, X: TransformList, Lo: IdLists, Up: IdLists> AdaptorChain for TransformedAdaptor<A, X, Lo, Up> {
    type NumBottom = A::NumBottom;
    type NumTop = X::NumUpper;
    const SIZE: Option<(usize, usize)> = match A::SIZE {
        Some((items, hidden)) => Some((items + X::KINDS.len(), hidden + X::NumUpper::USIZE)),
        None => size_of_static(&Self::STATIC),
    };
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn bottom_index(&self, top: &Indices) -> Indices {
        self.prev.bottom_index(&self.transforms.lower_stage(&self.lower.table(), &self.upper.table(), top))
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn top_lengths(&self) -> Indices {
        self.transforms.lengths_stage(&self.lower.table(), &self.upper.table(), &self.prev.top_lengths())
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn bottom_lengths(&self) -> Indices {
        self.prev.bottom_lengths()
    }
}

#[inline]
const fn chained(first: Result<Adaptor, Error>, second: Result<Adaptor, Error>) -> Result<Adaptor, Error> {
    let (first, second) = (tri!(first), tri!(second));
    first.chain(&second)
}

/// `chain_tensor_adaptors(first, second)` at the type level: `B`'s bottom
/// is `A`'s top.
///
/// ```
/// use cktile_core::prelude::*;
/// let split = make_single_stage_tensor_adaptor((Number::<32>,), (make_unmerge_transform((Number::<4>, Number::<8>)),), (ids![0],), (ids![0, 1],))?;
/// let merge = make_single_stage_tensor_adaptor((Number::<4>, Number::<8>), (make_merge_transform((Number::<8>, Number::<4>)),), (ids![1, 0],), (ids![0],))?;
/// assert_eq!(chain_tensor_adaptors(split, merge)?.calculate_bottom_index([9]), [10]);
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ChainedAdaptors<A, B> {
    pub(crate) first: A,
    pub(crate) second: B,
}

impl<A: AdaptorChain, B: AdaptorChain> Built for ChainedAdaptors<A, B> {
    type Runtime = Adaptor;
    const STATIC: Option<Result<Adaptor, Error>> = match (A::STATIC, B::STATIC) {
        (Some(a), Some(b)) => Some(chained(a, b)),
        _ => None,
    };
    const STRUCTURE: Option<Result<(), Error>> = None;
    fn build(&self) -> Result<Adaptor, Error> {
        chained(self.first.build(), self.second.build())
    }
    /// Builds the runtime adaptor ([`Adaptor::chain`] renumbers both
    /// adaptors' hidden ids, which the types do not carry).
    fn check(&self) -> Result<(), Error> {
        self.build().map(|_| ())
    }
}

impl<A: AdaptorChain, B: AdaptorChain> AdaptorChain for ChainedAdaptors<A, B> {
    type NumBottom = A::NumBottom;
    type NumTop = B::NumTop;
    const SIZE: Option<(usize, usize)> = size_of_static(&Self::STATIC);
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn bottom_index(&self, top: &Indices) -> Indices {
        self.first.bottom_index(&self.second.bottom_index(top))
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn top_lengths(&self) -> Indices {
        self.second.top_lengths()
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn bottom_lengths(&self) -> Indices {
        self.first.bottom_lengths()
    }
}

/// An id list (a [`Values`] tuple) as `usize`s, the first `.1` of `.0`.
#[inline]
const fn id_list(ids: DimsResult) -> Result<([usize; MAX_DIMS], usize), Error> {
    let ids = tri!(crate::Ids::from_dims(&tri!(lift(ids))));
    Ok(ids.to_array())
}

#[inline]
const fn general(
    lengths: DimsResult,
    transforms: Result<crate::stage::lists::TransformArray, Error>,
    lower: Result<crate::stage::lists::IdArray, Error>,
    upper: Result<crate::stage::lists::IdArray, Error>,
    bottom: DimsResult,
    top: DimsResult,
) -> Result<Adaptor, Error> {
    let lengths: Dims = tri!(lift(lengths));
    let (items, n) = tri!(stage_items(transforms, lower, upper));
    let (bottom, n_bottom) = tri!(id_list(bottom));
    let (top, n_top) = tri!(id_list(top));
    Adaptor::new(lengths, items.split_at(n).0, bottom.split_at(n_bottom).0, top.split_at(n_top).0)
}

/// CK's general `tensor_adaptor` constructor at the type level: bottom
/// lengths `L`, transforms `X` with the hidden ids each reads (`Lo`) and
/// writes (`Up`), and the hidden ids of the bottom (`B`) and top (`T`)
/// dimensions.
///
/// ```
/// use cktile_core::prelude::*;
/// use cktile_core::typed::HiddenAdaptor;
/// type N<const V: usize> = Number<V>;
/// // Bottom 0 (length 64) -> hidden 1, 2 (lengths 16, 4); the top is (2, 1).
/// type Split = HiddenAdaptor<(N<64>,), (Unmerge<(N<16>, N<4>)>,), ((N<0>,),), ((N<1>, N<2>),), (N<0>,), (N<2>, N<1>)>;
/// assert_eq!(TensorAdaptor::<Split>::ADAPTOR.calculate_bottom_index(&[3, 5])?.as_slice(), &[5 * 4 + 3]);
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HiddenAdaptor<L, X, Lo, Up, B, T> {
    pub(crate) lengths: L,
    pub(crate) transforms: X,
    pub(crate) lower: Lo,
    pub(crate) upper: Up,
    pub(crate) bottom: B,
    pub(crate) top: T,
}

impl<L: Values, X: TransformList, Lo: IdLists, Up: IdLists, B: Values, T: Values> Built
    for HiddenAdaptor<L, X, Lo, Up, B, T>
{
    type Runtime = Adaptor;
    const STATIC: Option<Result<Adaptor, Error>> =
        match (L::STATIC, X::STATIC, Lo::STATIC, Up::STATIC, B::STATIC, T::STATIC) {
            (Some(l), Some(x), Some(lo), Some(up), Some(b), Some(t)) => Some(general(l, x, lo, up, b, t)),
            _ => None,
        };
    const STRUCTURE: Option<Result<(), Error>> = None;
    fn build(&self) -> Result<Adaptor, Error> {
        general(
            self.lengths.dims(),
            self.transforms.transforms(),
            self.lower.lists(),
            self.upper.lists(),
            self.bottom.dims(),
            self.top.dims(),
        )
    }
    /// Builds the runtime adaptor ([`Adaptor::new`]'s checks interleave
    /// the wiring and the lengths, transform by transform).
    fn check(&self) -> Result<(), Error> {
        self.build().map(|_| ())
    }
}

impl<L: Values, X: TransformList, Lo: IdLists, Up: IdLists, B: Values, T: Values> AdaptorChain
    for HiddenAdaptor<L, X, Lo, Up, B, T>
{
    type NumBottom = B::Len;
    type NumTop = T::Len;
    const SIZE: Option<(usize, usize)> = size_of_static(&Self::STATIC);
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn bottom_index(&self, top: &Indices) -> Indices {
        let mut hidden: HiddenIndex = [0; MAX_HIDDEN];
        scatter(top, &self.top.indices(), T::Len::USIZE, &mut hidden);
        self.transforms.lower_hidden(&self.lower.table(), &self.upper.table(), &mut hidden);
        gather(&hidden, &self.bottom.indices(), B::Len::USIZE)
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn top_lengths(&self) -> Indices {
        let mut lengths: HiddenIndex = [0; MAX_HIDDEN];
        scatter(&self.lengths.indices(), &self.bottom.indices(), B::Len::USIZE, &mut lengths);
        self.transforms.lengths_hidden(&self.lower.table(), &self.upper.table(), &mut lengths);
        gather(&lengths, &self.top.indices(), T::Len::USIZE)
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn bottom_lengths(&self) -> Indices {
        self.lengths.indices()
    }
}

/// Chaining needs the first adaptor's top to have as many dimensions as
/// the second's bottom; the message names both as coordinate types.
#[diagnostic::on_unimplemented(
    message = "cannot chain: the first adaptor's top coordinate is `{A}`, the second's bottom coordinate is `{Self}`",
    label = "the second adaptor's bottom must have one dimension per top dimension of the first",
    note = "chain_tensor_adaptors(first, second) feeds the second adaptor's bottom index to the first one's top"
)]
pub trait ChainsOnto<A> {}

impl<const N: usize> ChainsOnto<[Index; N]> for [Index; N] {}

/// CK Tile's `make_single_stage_tensor_adaptor(transforms, lower ids,
/// upper ids)`, with the bottom lengths first (cktile's adaptors know
/// them, so each transform is checked against the lengths it reads).
///
/// ```
/// use cktile_core::prelude::*;
/// let a = make_single_stage_tensor_adaptor((Number::<4>, 8usize), (make_merge_transform((Number::<4>, 8usize)),), (ids![0, 1],), (ids![0],))?;
/// assert_eq!(a.calculate_bottom_index([13]), [1, 5]);
/// // The merge's lengths do not fit the bottom lengths (4, 9):
/// let e = make_single_stage_tensor_adaptor((Number::<4>, 9usize), (make_merge_transform((Number::<4>, 8usize)),), (ids![0, 1],), (ids![0],));
/// assert!(e.unwrap_err().to_string().contains("merge"));
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn make_single_stage_tensor_adaptor<L: Values, X: TransformList, Lo: IdLists, Up: IdLists>(
    bottom_lengths: L,
    transforms: X,
    lower: Lo,
    upper: Up,
) -> Result<TensorAdaptor<SingleStageAdaptor<L, X, Lo, Up>>, Error> {
    // Referenced here, in the public function, so a compile error points at the caller.
    let () = Core::<SingleStageAdaptor<L, X, Lo, Up>>::CHECK;
    TensorAdaptor::new(SingleStageAdaptor { lengths: bottom_lengths, transforms, lower, upper })
}

/// CK Tile's `transform_tensor_adaptor(adaptor, transforms, lower ids,
/// upper ids)`: the lower ids index the adaptor's top dimensions, the
/// upper ids the new ones.
///
/// ```
/// use cktile_core::prelude::*;
/// let a = make_single_stage_tensor_adaptor((Number::<32>,), (make_unmerge_transform((Number::<4>, Number::<8>)),), (ids![0],), (ids![0, 1],))?;
/// let b = transform_tensor_adaptor(a, (make_merge_transform((Number::<8>, Number::<4>)),), (ids![1, 0],), (ids![0],))?;
/// assert_eq!(b.calculate_bottom_index([9]), [10]);
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn transform_tensor_adaptor<A: AdaptorChain, X: TransformList, Lo: IdLists, Up: IdLists>(
    adaptor: TensorAdaptor<A>,
    transforms: X,
    lower: Lo,
    upper: Up,
) -> Result<TensorAdaptor<TransformedAdaptor<A, X, Lo, Up>>, Error> {
    // Referenced here, in the public function, so a compile error points at the caller.
    let () = Core::<TransformedAdaptor<A, X, Lo, Up>>::CHECK;
    TensorAdaptor::new(TransformedAdaptor { prev: adaptor.chain, transforms, lower, upper })
}

/// CK Tile's `chain_tensor_adaptors(first, second)`: `second`'s bottom
/// dimensions are `first`'s top ones (same number, a compile error
/// otherwise; same lengths, an `Err` otherwise).
///
/// ```
/// use cktile_core::prelude::*;
/// let split = make_single_stage_tensor_adaptor((32usize,), (make_unmerge_transform((4usize, 8usize)),), (ids![0],), (ids![0, 1],))?;
/// let merge = make_single_stage_tensor_adaptor((4usize, 8usize), (make_merge_transform((8usize, 4usize)),), (ids![1, 0],), (ids![0],))?;
/// assert_eq!(chain_tensor_adaptors(split, merge)?.calculate_bottom_index([9]), [10]);
/// let other = make_single_stage_tensor_adaptor((8usize, 4usize), (make_merge_transform((8usize, 4usize)),), (ids![0, 1],), (ids![0],))?;
/// assert_eq!(
///     chain_tensor_adaptors(split, other).unwrap_err().to_string(),
///     "cannot chain: dimension 0 has length 4 as the first adaptor's top and 8 as the second's bottom"
/// );
/// # Ok::<(), cktile_core::Error>(())
/// ```
///
/// ```compile_fail
/// use cktile_core::prelude::*;
/// let split = make_single_stage_tensor_adaptor((32usize,), (make_unmerge_transform((4usize, 8usize)),), (ids![0],), (ids![0, 1],)).unwrap();
/// let _ = chain_tensor_adaptors(split, split); // 2 top dimensions, 1 bottom dimension
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn chain_tensor_adaptors<A: AdaptorChain, B: AdaptorChain>(
    first: TensorAdaptor<A>,
    second: TensorAdaptor<B>,
) -> Result<TensorAdaptor<ChainedAdaptors<A, B>>, Error>
where
    Bottom<B>: ChainsOnto<Top<A>>,
{
    // Referenced here, in the public function, so a compile error points at the caller.
    let () = Core::<ChainedAdaptors<A, B>>::CHECK;
    TensorAdaptor::new(ChainedAdaptors { first: first.chain, second: second.chain })
}

/// CK Tile's general `tensor_adaptor` constructor: the bottom lengths, the
/// transforms, for each the hidden ids it reads and writes, and the hidden
/// ids of the bottom and top dimensions. The checks are [`Adaptor::new`]'s.
///
/// ```
/// use cktile_core::prelude::*;
/// // The merge reads hidden dimension 5, which nothing produces.
/// let e = make_tensor_adaptor(
///     (32usize,),
///     (make_unmerge_transform((4usize, 8usize)), make_merge_transform((4usize, 8usize))),
///     (ids![0], ids![1, 5]),
///     (ids![1, 2], ids![3]),
///     ids![0],
///     ids![3],
/// );
/// assert!(e.unwrap_err().to_string().contains("reads hidden dimension 5"));
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
#[allow(clippy::type_complexity)] // the six parameters of CK's constructor
pub fn make_tensor_adaptor<L: Values, X: TransformList, Lo: IdLists, Up: IdLists, B: Values, T: Values>(
    bottom_lengths: L,
    transforms: X,
    lower: Lo,
    upper: Up,
    bottom: B,
    top: T,
) -> Result<TensorAdaptor<HiddenAdaptor<L, X, Lo, Up, B, T>>, Error> {
    // Referenced here, in the public function, so a compile error points at the caller.
    let () = Core::<HiddenAdaptor<L, X, Lo, Up, B, T>>::CHECK;
    TensorAdaptor::new(HiddenAdaptor { lengths: bottom_lengths, transforms, lower, upper, bottom, top })
}
