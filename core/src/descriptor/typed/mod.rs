//! The typed descriptor, [`TensorDescriptor`]: CK Tile's
//! `tensor_descriptor` with its chain of calls and its compile-time lengths
//! in the type, beside the runtime [`Descriptor`] it builds on demand. Its
//! chain types (`chain.rs`), its kernel-argument form (`kernel_arg.rs`),
//! its coordinates (`tensor_coordinate.rs`, beside the runtime
//! [`Coordinate`](crate::descriptor::coordinate::Coordinate)) and
//! [`descriptor_chain!`](crate::descriptor_chain) (`spelled.rs`: a chain
//! written once as its type and both its builders) live here too; what it
//! shares with the typed adaptor is in [`stage`](crate::stage), and
//! [`typed`](crate::typed) gathers the whole typed API.

mod chain;
mod kernel_arg;
mod spelled;
mod tensor_coordinate;

pub use chain::{Aligned, Chain, Naive, NaiveVector, NaiveWithOffset, Packed, Transformed};
pub use kernel_arg::{KERNEL_ARG_SLOTS, KernelArg};
pub use tensor_coordinate::{
    TensorCoordinate, coordinate_has_valid_offset, coordinate_has_valid_offset_assuming_top_index_is_valid,
    make_tensor_coordinate, move_tensor_coordinate,
};

use crate::stage::built::{Core, static_failure};
use crate::stage::coordinate::{CoordinateOf, StridesFor, indices};
use crate::stage::lists::{IdLists, TransformList};
use crate::stage::{check_coordinate, in_range};
use crate::{Descriptor, Error, Index};
use cktile_transforms::{Count, MAX_DIMS, Value, Values, static_for, tri};
use core::fmt;
use generic_array::GenericArray;
use generic_array::sequence::GenericSequence;

#[allow(unused_imports)]
use cktile_transforms::Number;

/// A descriptor whose type records its chain `C`, holding only the chain's
/// runtime values: a descriptor whose every length is a
/// [`Number`] is zero-sized, one with runtime lengths holds
/// those `usize`s. Offsets and validity are computed from the chain's types
/// ([`Chain::offset`]), so compile-time values are constants in straight-line
/// arithmetic and runtime ones are read from the value; the runtime
/// [`Descriptor`] is built on demand ([`descriptor`](Self::descriptor)).
///
/// ```
/// use cktile_core::prelude::*;
/// let d = make_naive_tensor_descriptor((Number::<4>, 8usize), (Number::<8>, Number::<1>)).unwrap();
/// assert_eq!(d.calculate_offset([2, 3]), 19);
/// assert_eq!(d.lengths().as_slice(), &[4, 8]);
/// assert_eq!(core::mem::size_of_val(&d), core::mem::size_of::<usize>()); // the runtime length
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TensorDescriptor<C: Chain> {
    chain: C,
}

impl<C: Chain> fmt::Debug for TensorDescriptor<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TensorDescriptor").field("descriptor", &self.descriptor()).finish()
    }
}

/// Prints the chain's spec text (the analysis crate's `spec` grammar).
///
/// ```
/// use cktile_core::prelude::*;
/// let d = make_naive_tensor_descriptor_packed((Number::<4>, Number::<8>)).unwrap();
/// assert_eq!(d.to_string(), "packed((4,8))");
/// ```
impl<C: Chain> fmt::Display for TensorDescriptor<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.descriptor(), f)
    }
}

/// The coordinate type of a chain `C`: `[Index; N]` for `N` top dimensions.
type Top<C> = <<C as Chain>::NumTop as Count>::Coordinate;

impl<C: Chain> TensorDescriptor<C> {
    /// The chain's descriptor when all its parameters are static; `None` otherwise.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// type Static = cktile_core::typed::Packed<(Number<4>, Number<8>)>;
    /// type Dynamic = cktile_core::typed::Packed<(Number<4>, usize)>;
    /// assert!(TensorDescriptor::<Static>::STATIC_DESCRIPTOR.is_some());
    /// assert!(TensorDescriptor::<Dynamic>::STATIC_DESCRIPTOR.is_none());
    /// ```
    pub const STATIC_DESCRIPTOR: Option<&'static Descriptor> = match &C::STATIC {
        Some(Ok(d)) => Some(d),
        _ => None,
    };

    /// The largest offset an all-static chain reaches from top indices
    /// inside its lengths ([`offset_reach`](crate::descriptor::bounds::offset_reach)),
    /// `None` for a chain with runtime values or one whose offsets may be
    /// negative: what tile windows bound their loads by.
    pub(crate) const REACH: Option<Index> = match Self::STATIC_DESCRIPTOR {
        Some(d) => crate::descriptor::bounds::offset_reach(d),
        None => None,
    };

    /// The descriptor of an all-static chain, as a constant (a compile error
    /// if a parameter is a runtime value).
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// type Tile = cktile_core::typed::Packed<(Number<4>, Number<8>)>;
    /// const OFFSET: i64 = TensorDescriptor::<Tile>::DESCRIPTOR.calculate_offset(&[3, 7]);
    /// assert_eq!(OFFSET, 31);
    /// ```
    pub const DESCRIPTOR: &'static Descriptor = match Self::STATIC_DESCRIPTOR {
        Some(d) => d,
        None => match C::STATIC {
            Some(Err(e)) => static_failure(&e),
            _ => panic!("cktile: DESCRIPTOR needs every length of the chain to be a compile-time Number"),
        },
    };

    /// A descriptor of a chain known valid (an all-static chain whose
    /// [`Core::CHECK`] the caller has referenced, or one read back
    /// from a [`KernelArg`] a valid descriptor wrote).
    pub(crate) const fn from_valid(chain: C) -> Self {
        TensorDescriptor { chain }
    }

    /// Validates the chain ([`Core::validate`]): at compile time when it is
    /// all static, otherwise its newest level, on its values (the levels
    /// below were validated when they were built; no runtime descriptor is
    /// built).
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn new(chain: C) -> Result<Self, Error> {
        Ok(TensorDescriptor { chain: tri!(Core::validate(chain)) })
    }

    /// The chain: the descriptor's runtime values, and its evaluation.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// use cktile_core::typed::Chain;
    /// let d = make_naive_tensor_descriptor_packed((Number::<4>, 8usize)).unwrap();
    /// assert_eq!(d.chain().lengths()[..2], [4, 8]);
    /// ```
    pub fn chain(&self) -> &C {
        &self.chain
    }

    /// The runtime descriptor (for analysis, printing, the spec language),
    /// built from the chain's values: the constant for an all-static chain.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor_packed((Number::<4>, 8usize)).unwrap();
    /// assert_eq!(d.descriptor(), Descriptor::packed(&[4, 8]).unwrap());
    /// assert_eq!(d.descriptor().calculate_offset(&[1, 2]), 10);
    /// ```
    pub fn descriptor(&self) -> Descriptor {
        Core::runtime(&self.chain)
    }

    /// The offset of a top coordinate (CK's `calculate_offset`; no range
    /// checks, as in CK Tile).
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor_packed((Number::<4>, Number::<8>)).unwrap();
    /// assert_eq!(d.calculate_offset([3, 7]), 31);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn calculate_offset(&self, top: impl CoordinateOf<Top<C>>) -> Index {
        self.chain.offset(&indices(top.as_slice()))
    }

    /// The offset of a coordinate that must lie inside the top lengths.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor_packed((Number::<4>, Number::<8>)).unwrap();
    /// assert!(d.try_calculate_offset([4, 0]).is_err());
    /// ```
    pub fn try_calculate_offset(&self, top: impl CoordinateOf<Top<C>>) -> Result<Index, Error> {
        let top = top.as_slice();
        check_coordinate(&self.chain.lengths(), top)?;
        Ok(self.chain.offset(&indices(top)))
    }

    /// CK's `coordinate_has_valid_offset`: inside the top lengths and not
    /// mapped to padding.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor_packed((Number::<4>,)).unwrap();
    /// let d = transform_tensor_descriptor(d, (make_pad_transform(Number::<4>, Number::<1>, Number::<1>),), (ids![0],), (ids![0],)).unwrap();
    /// assert!(!d.coordinate_has_valid_offset([0]) && d.coordinate_has_valid_offset([1]));
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn coordinate_has_valid_offset(&self, top: impl CoordinateOf<Top<C>>) -> bool {
        self.valid_top(top.as_slice())
    }

    /// Whether a top index (of the chain's arity) lies inside the top
    /// lengths and maps to no padding: every condition evaluated and
    /// combined without branches, as a kernel's bounds check is.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) fn valid_top(&self, top: &[Index]) -> bool {
        let lengths = self.chain.lengths();
        let mut inside = true;
        static_for!(top.len(), |j| inside &= in_range(top[j], lengths[j]));
        inside & self.chain.is_valid(&indices(top))
    }

    /// The top coordinate whose offset is `offset` (the inverse; CK's
    /// `calculate_top_index` for the layouts it inverts), through
    /// [`Descriptor::calculate_top_index`]: `None` when a transform has no
    /// inverse or no valid coordinate has that offset.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor((Number::<4>, Number::<8>), (Number::<100>, Number::<1>)).unwrap();
    /// assert_eq!(d.calculate_top_index(205).map(|c| c.to_vec()), Some(vec![2, 5]));
    /// assert_eq!(d.calculate_top_index(50), None); // a hole
    /// ```
    pub fn calculate_top_index(&self, offset: Index) -> Option<GenericArray<Index, C::NumTop>> {
        let top = self.descriptor().calculate_top_index(offset)?;
        Some(<GenericArray<Index, C::NumTop> as GenericSequence<Index>>::generate(|i| top.get(i)))
    }

    /// The offset of a coordinate when it is valid
    /// ([`coordinate_has_valid_offset`](Self::coordinate_has_valid_offset)),
    /// `None` otherwise.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor_packed((Number::<4>,)).unwrap();
    /// let d = transform_tensor_descriptor(d, (make_pad_transform(Number::<4>, Number::<1>, Number::<1>),), (ids![0],), (ids![0],)).unwrap();
    /// assert_eq!((d.offset_if_valid([0]), d.offset_if_valid([1])), (None, Some(0)));
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn offset_if_valid(&self, top: impl CoordinateOf<Top<C>>) -> Option<Index> {
        let top = top.as_slice();
        if self.valid_top(top) { Some(self.chain.offset(&indices(top))) } else { None }
    }

    /// Top lengths, one per dimension.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor_packed((Number::<4>, Number::<8>)).unwrap();
    /// assert_eq!(d.lengths().as_slice(), &[4, 8]);
    /// ```
    pub fn lengths(&self) -> GenericArray<Index, C::NumTop> {
        let lengths = self.chain.lengths();
        <GenericArray<Index, C::NumTop> as GenericSequence<Index>>::generate(|i| lengths[i % MAX_DIMS])
    }

    /// CK's `get_element_space_size`.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor((Number::<4>,), (Number::<3>,)).unwrap();
    /// assert_eq!(d.element_space_size(), 10);
    /// ```
    pub fn element_space_size(&self) -> Index {
        self.descriptor().element_space_size()
    }
}

/// CK Tile's `make_naive_tensor_descriptor(lengths, strides)`.
///
/// ```
/// use cktile_core::prelude::*;
/// let d = make_naive_tensor_descriptor((Number::<4>, Number::<8>), (Number::<100>, Number::<1>)).unwrap();
/// assert_eq!(d.calculate_offset([2, 5]), 205);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn make_naive_tensor_descriptor<L: Values, S: StridesFor<<L::Len as Count>::Coordinate>>(
    lengths: L,
    strides: S,
) -> Result<TensorDescriptor<Naive<L, S>>, Error> {
    // Referenced here, in the public function, so a compile error points at the caller.
    let () = Core::<Naive<L, S>>::CHECK;
    TensorDescriptor::new(Naive { lengths, strides })
}

/// CK Tile's four-argument `make_naive_tensor_descriptor(lengths, strides,
/// number<GuaranteedLastDimensionVectorLength>, number<GuaranteedLastDimensionVectorStride>)`:
/// the same offsets as [`make_naive_tensor_descriptor`], and the runtime
/// descriptor ([`TensorDescriptor::descriptor`]) carries the guaranteed
/// vector of the last dimension through every transform, as CK's does.
///
/// ```
/// use cktile_core::prelude::*;
/// use cktile_core::transforms::Vector;
/// // CK's GEMM A LDS block: KPack = 8 elements are guaranteed contiguous.
/// let d = make_naive_tensor_descriptor_with_vector(
///     (Number::<8>, Number::<128>, Number::<8>),
///     (Number::<8>, Number::<64>, Number::<1>),
///     Number::<8>,
///     Number::<1>,
/// )?;
/// assert_eq!(d.calculate_offset([1, 2, 3]), 8 + 128 + 3);
/// assert_eq!(d.descriptor().top_vectors()[2], Vector::new(8, 1));
/// assert!(make_naive_tensor_descriptor_with_vector((4usize,), (1usize,), usize::MAX, 1usize).is_err());
/// # Ok::<(), cktile_core::Error>(())
/// ```
///
/// A guarantee the lengths and strides do not keep is refused, as
/// [`Descriptor::naive_with_vector`] refuses it (CK refuses it only in its kernels' `IsSupportedArgument`):
/// with K = 70, the vector at k = 64 would read past the end of its row.
///
/// ```
/// use cktile_core::prelude::*;
/// let (rows, k, stride) = (128usize, 70usize, 72usize);
/// let e = make_naive_tensor_descriptor_with_vector((rows, k), (stride, Number::<1>), Number::<8>, Number::<1>).unwrap_err();
/// assert!(e.to_string().contains("has length 70, not a multiple of the guaranteed vector length 8"), "{e}");
/// ```
///
/// With every value a [`Number`], that is a compile error:
///
/// ```compile_fail
/// use cktile_core::prelude::*;
/// let _ = make_naive_tensor_descriptor_with_vector(
///     (Number::<128>, Number::<70>),
///     (Number::<72>, Number::<1>),
///     Number::<8>,
///     Number::<1>,
/// );
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn make_naive_tensor_descriptor_with_vector<
    L: Values,
    S: StridesFor<<L::Len as Count>::Coordinate>,
    V: Value,
    W: Value,
>(
    lengths: L,
    strides: S,
    vector_length: V,
    vector_stride: W,
) -> Result<TensorDescriptor<NaiveVector<L, S, V, W>>, Error> {
    // Referenced here, in the public function, so a compile error points at the caller.
    let () = Core::<NaiveVector<L, S, V, W>>::CHECK;
    TensorDescriptor::new(NaiveVector { lengths, strides, vector_length, vector_stride })
}

/// CK Tile's `make_naive_tensor_descriptor_packed(lengths)`.
///
/// ```
/// use cktile_core::prelude::*;
/// let d = make_naive_tensor_descriptor_packed((Number::<2>, Number::<3>, Number::<4>)).unwrap();
/// assert_eq!(d.calculate_offset([1, 2, 3]), 23);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn make_naive_tensor_descriptor_packed<L: Values>(lengths: L) -> Result<TensorDescriptor<Packed<L>>, Error> {
    // Referenced here, in the public function, so a compile error points at the caller.
    let () = Core::<Packed<L>>::CHECK;
    TensorDescriptor::new(Packed { lengths })
}

/// CK Tile's `make_naive_tensor_descriptor_aligned(lengths, align)`.
///
/// ```
/// use cktile_core::prelude::*;
/// let d = make_naive_tensor_descriptor_aligned((Number::<4>, Number::<6>), Number::<8>).unwrap();
/// assert_eq!(d.calculate_offset([1, 0]), 8);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn make_naive_tensor_descriptor_aligned<L: Values, A: Value>(
    lengths: L,
    align: A,
) -> Result<TensorDescriptor<Aligned<L, A>>, Error> {
    // Referenced here, in the public function, so a compile error points at the caller.
    let () = Core::<Aligned<L, A>>::CHECK;
    TensorDescriptor::new(Aligned { lengths, align })
}

/// CK Tile's `make_naive_tensor_descriptor_with_offset(lengths, strides, offset)`.
///
/// ```
/// use cktile_core::prelude::*;
/// let d = make_naive_tensor_descriptor_with_offset((Number::<4>,), (Number::<2>,), 100usize).unwrap();
/// assert_eq!(d.calculate_offset([3]), 106);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn make_naive_tensor_descriptor_with_offset<L: Values, S: StridesFor<<L::Len as Count>::Coordinate>, O: Value>(
    lengths: L,
    strides: S,
    offset: O,
) -> Result<TensorDescriptor<NaiveWithOffset<L, S, O>>, Error> {
    // Referenced here, in the public function, so a compile error points at the caller.
    let () = Core::<NaiveWithOffset<L, S, O>>::CHECK;
    TensorDescriptor::new(NaiveWithOffset { lengths, strides, offset })
}

/// CK Tile's `transform_tensor_descriptor(desc, transforms, lower_ids, upper_ids)`:
/// a tuple of transforms, and for each a tuple of the old top dimensions it
/// reads ([`ids!`](crate::ids)) and of the new top dimensions it produces.
///
/// ```
/// use cktile_core::prelude::*;
/// let d = make_naive_tensor_descriptor((Number::<4>, Number::<8>), (Number::<100>, Number::<1>)).unwrap();
/// let d = transform_tensor_descriptor(
///     d,
///     (make_merge_transform((Number::<4>, Number::<8>)),),
///     (ids![0, 1],),
///     (ids![0],),
/// )
/// .unwrap();
/// assert_eq!(d.calculate_offset([9]), 101);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn transform_tensor_descriptor<C: Chain, X: TransformList, Lo: IdLists, Up: IdLists>(
    desc: TensorDescriptor<C>,
    transforms: X,
    lower: Lo,
    upper: Up,
) -> Result<TensorDescriptor<Transformed<C, X, Lo, Up>>, Error> {
    // Referenced here, in the public function, so a compile error points at the caller.
    let () = Core::<Transformed<C, X, Lo, Up>>::CHECK;
    TensorDescriptor::new(Transformed { prev: desc.chain, transforms, lower, upper })
}
