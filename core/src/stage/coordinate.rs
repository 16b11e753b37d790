//! [`CoordinateOf`]: what a typed descriptor's methods take as a top
//! coordinate, with a compiler message that names the arity in words.
//!
//! The methods of [`TensorDescriptor`](crate::typed::TensorDescriptor) take
//! `impl CoordinateOf<[Index; N]>`, `N` being the descriptor's number of top
//! dimensions ([`Count::Coordinate`] of [`Chain::NumTop`](crate::typed::Chain::NumTop)).
//! A coordinate of another arity has no impl, so the error is this trait's
//! message, naming both array types, rather than a mismatch between typenum
//! integers. [`StridesFor`] does the same for the strides of a naive
//! descriptor.

use crate::Index;
use cktile_transforms::{Count, Value, Values};
use cktile_transforms::{Indices, MAX_DIMS, static_for};
use generic_array::GenericArray;

/// A top coordinate for a descriptor whose coordinates are `A` (`[Index; N]`
/// for `N` top dimensions): an array `[Index; N]` or a
/// `GenericArray<Index, N>` (what [`TensorDescriptor::lengths`](crate::typed::TensorDescriptor::lengths)
/// and [`calculate_top_index`](crate::typed::TensorDescriptor::calculate_top_index)
/// return).
///
/// ```
/// use cktile_core::prelude::*;
/// let d = make_naive_tensor_descriptor_packed((Number::<4>, Number::<8>)).unwrap();
/// assert_eq!(d.calculate_offset([3, 7]), 31);
/// assert_eq!(d.calculate_offset(d.calculate_top_index(31).unwrap()), 31);
/// ```
///
/// A coordinate of the wrong arity does not compile, and the message says so:
///
/// ```compile_fail
/// use cktile_core::prelude::*;
/// let d = make_naive_tensor_descriptor_packed((Number::<4>, Number::<8>)).unwrap();
/// let _ = d.calculate_offset([1, 2, 3]); // this descriptor takes a 2-D coordinate `[i64; 2]`, not `[{integer}; 3]`
/// ```
#[diagnostic::on_unimplemented(
    message = "this descriptor or adaptor takes a coordinate `{A}`, not `{Self}`",
    label = "one index per top dimension of the descriptor or adaptor: `{A}`",
    note = "a typed descriptor's or adaptor's coordinate has one index per top dimension (`lengths()` or `top_lengths()` lists them)"
)]
pub trait CoordinateOf<A>: Sized {
    /// The indices, one per top dimension.
    ///
    /// ```
    /// use cktile_core::typed::CoordinateOf;
    /// assert_eq!(CoordinateOf::<[i64; 2]>::as_slice(&[3, 7]), &[3, 7]);
    /// ```
    fn as_slice(&self) -> &[Index];
}

impl<const N: usize> CoordinateOf<[Index; N]> for [Index; N] {
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn as_slice(&self) -> &[Index] {
        self
    }
}

impl<N: Count> CoordinateOf<N::Coordinate> for GenericArray<Index, N> {
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn as_slice(&self) -> &[Index] {
        GenericArray::as_slice(self)
    }
}

/// Strides for lengths whose coordinates are `A` (`[Index; N]`): a
/// [`Values`] tuple of `N` entries, one stride per length. The bound of
/// [`make_naive_tensor_descriptor`](crate::typed::make_naive_tensor_descriptor) and
/// [`make_naive_tensor_descriptor_with_offset`](crate::typed::make_naive_tensor_descriptor_with_offset),
/// so a strides tuple of another length is an error naming both in words.
///
/// ```
/// use cktile_core::typed::StridesFor;
/// use cktile_core::Number;
/// fn strides_for_2d<S: StridesFor<[i64; 2]>>(_: S) {}
/// strides_for_2d((Number::<8>, 1usize));
/// ```
///
/// ```compile_fail
/// use cktile_core::prelude::*;
/// // the strides `(Number<8>,)` do not fit lengths whose coordinates are `[i64; 2]`
/// let _ = make_naive_tensor_descriptor((Number::<4>, Number::<8>), (Number::<8>,));
/// ```
#[diagnostic::on_unimplemented(
    message = "the strides `{Self}` do not fit lengths whose coordinates are `{A}`",
    label = "one stride per length: as many strides as lengths",
    note = "make_naive_tensor_descriptor(lengths, strides) takes a tuple of strides with one entry per length"
)]
pub trait StridesFor<A>: Values {}

macro_rules! strides_for {
    ($($n:literal: ($($t:ident),*);)+) => {
        $(impl<$($t: Value),*> StridesFor<[Index; $n]> for ($($t,)*) {})+
    };
}

strides_for! {
    0: ();
    1: (A);
    2: (A, B);
    3: (A, B, C);
    4: (A, B, C, D);
    5: (A, B, C, D, E);
    6: (A, B, C, D, E, F);
    7: (A, B, C, D, E, F, G);
    8: (A, B, C, D, E, F, G, H);
}

/// A full index array from a typed coordinate.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) fn indices(top: &[Index]) -> Indices {
    let mut out = [0; MAX_DIMS];
    static_for!(top.len(), |j| out[j] = top[j]);
    out
}
