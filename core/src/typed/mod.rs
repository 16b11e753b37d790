//! The static (typed) descriptor API, mirroring CK Tile's calls, gathered
//! in one place from the modules where each typed form sits beside its
//! runtime one: the typed descriptor and its coordinates in
//! [`descriptor::typed`](crate::descriptor::typed), the typed adaptor in
//! [`adaptor::typed`](crate::adaptor::typed), what both share in
//! [`stage`](crate::stage). Views ([`TensorView`]), the rank aliases
//! ([`DescriptorOf`], [`AdaptorOf`]) and `derived_number!`, which use both,
//! live here.
//!
//! Every length, stride and transform parameter is a [`Value`]: a
//! compile-time [`Number`] (or typenum integer) or a runtime `usize`, mixed
//! freely as CK Tile mixes `number<N>` and `index_t`. The type of a
//! [`TensorDescriptor`] records its whole chain ([`Naive`], [`Packed`],
//! [`Transformed`], ...) and its number of top dimensions
//! ([`Chain::NumTop`], a type-level integer), so a coordinate of the wrong
//! arity does not compile.
//!
//! The cost model is CK Tile's: the chain's structure and its compile-time
//! lengths live in the type, and a descriptor value holds only the runtime
//! values (an all-static descriptor is zero-sized). Offsets, validity and
//! top lengths are computed by recursion over the chain's types
//! ([`Chain::offset`]), calling the transforms' formulas
//! (`cktile_transforms::kinds`) with the stored values, so they compile to
//! straight-line arithmetic on x86_64, nvptx and amdgcn alike (checked by
//! `scripts/target-icount.sh`). The runtime [`Descriptor`] is built on demand
//! ([`TensorDescriptor::descriptor`]), for the analyzer and the checks.
//!
//! When every parameter is static, the chain's [`Descriptor`] is computed at
//! compile time ([`Built::STATIC`], by the same `const fn`s as the runtime
//! path): an invalid composition is a compile error with a readable message
//! and [`TensorDescriptor::DESCRIPTOR`] is usable in `const` items. With
//! runtime parameters, the checks that read only types (each stage's ids
//! against its transforms' dimension counts, [`Built::STRUCTURE`]) are
//! still a compile error; the checks of the values run when each level is
//! built, on that level's values only (the levels below it were checked
//! when they were built), and return an `Err` ([`Built::check`], the
//! runtime path's own functions). No runtime [`Descriptor`] is built, and
//! the verdict itself is [`Built::accepts`]: the base chains and the
//! pass-through and pad kinds write it as a few compares and 64-bit
//! multiplies with overflow flags, without branches, so a kernel that
//! builds its descriptor pays for the error (`check`) only where it keeps
//! one. Tests hold the two verdicts equal.
//!
//! Coordinates ([`TensorCoordinate`], [`make_tensor_coordinate`],
//! [`move_tensor_coordinate`], [`coordinate_has_valid_offset`]) hold a top
//! index and its offset; views ([`TensorView`], [`make_tensor_view`],
//! [`pad_tensor_view`]) read and write a buffer through a descriptor.
//!
//! Tensor adaptors ([`TensorAdaptor`]: [`make_single_stage_tensor_adaptor`],
//! [`transform_tensor_adaptor`], [`chain_tensor_adaptors`] and CK's general
//! constructor with hidden ids, [`make_tensor_adaptor`]) map a top index to
//! a bottom index with the same cost model; they are what typed tile
//! distributions ([`distribution::typed`](crate::distribution::typed)) are
//! built on. As the runtime [`Adaptor`](crate::adaptor::Adaptor), a typed
//! adaptor knows its bottom lengths, and its checks are the runtime
//! constructors' (at compile time when it is all static).
//!
//! Typed descriptors and typed adaptors share one core (`stage/built.rs`), as CK
//! Tile's `tensor_descriptor` is its `tensor_adaptor` plus an element
//! space: both chains are [`Built`] (the runtime object at compile time,
//! the checks read from types, the newest level's validation and its
//! branch-free verdict), and one generic path turns that into a compile
//! error, an `Err` or the runtime object for both wrappers. Only their
//! evaluation differs: [`Chain`] ends in one offset, [`AdaptorChain`] in a
//! bottom index; both run a stage through the same
//! [`TransformList::lower_stage`] and check a new one with the same
//! `stage/typed.rs`. The typed adaptor imports nothing of the typed
//! descriptor, as the runtime adaptor imports nothing of the runtime
//! descriptor.
//!
//! ```
//! use cktile_core::prelude::*;
//!
//! // CK Tile's GEMM A LDS descriptor, M=128, K=64, KPack=8 (MLdsLayer 1).
//! let d = make_naive_tensor_descriptor((Number::<8>, Number::<128>, Number::<8>), (Number::<8>, Number::<64>, Number::<1>))?;
//! let d = transform_tensor_descriptor(
//!     d,
//!     (make_xor_transform((Number::<128>, Number::<8>)), make_pass_through_transform(Number::<8>)),
//!     (ids![1, 0], ids![2]),
//!     (ids![1, 0], ids![2]),
//! )?;
//! let d = transform_tensor_descriptor(
//!     d,
//!     (make_pass_through_transform(Number::<128>), make_merge_transform((Number::<8>, Number::<8>))),
//!     (ids![1], ids![0, 2]),
//!     (ids![0], ids![1]),
//! )?;
//! let (m, k) = (3, 9);
//! assert_eq!(d.calculate_offset([m, k]), 64 * m + 8 * ((k / 8) ^ (m % 8)) + k % 8);
//! # Ok::<(), cktile_core::Error>(())
//! ```
//!
//! [`Value`]: crate::Value
//! [`Number`]: crate::Number
//! [`Descriptor`]: crate::Descriptor

mod derived;
mod rank;
#[cfg(test)]
mod tests;
mod view;

pub use crate::adaptor::typed::{
    AdaptorChain, ChainedAdaptors, ChainsOnto, HiddenAdaptor, SingleStageAdaptor, TensorAdaptor, TransformedAdaptor,
    chain_tensor_adaptors, make_single_stage_tensor_adaptor, make_tensor_adaptor, transform_tensor_adaptor,
};
pub use crate::descriptor::typed::{
    Aligned, Chain, Naive, NaiveVector, NaiveWithOffset, Packed, TensorDescriptor, Transformed,
    make_naive_tensor_descriptor, make_naive_tensor_descriptor_aligned, make_naive_tensor_descriptor_packed,
    make_naive_tensor_descriptor_with_offset, make_naive_tensor_descriptor_with_vector, transform_tensor_descriptor,
};
pub use crate::descriptor::typed::{KERNEL_ARG_SLOTS, KernelArg};
pub use crate::descriptor::typed::{
    TensorCoordinate, coordinate_has_valid_offset, coordinate_has_valid_offset_assuming_top_index_is_valid,
    make_tensor_coordinate, move_tensor_coordinate,
};
pub(crate) use crate::stage::built::Core;
pub use crate::stage::built::{Built, static_failure};
pub(crate) use crate::stage::coordinate::indices;
pub use crate::stage::coordinate::{CoordinateOf, StridesFor};
pub use crate::stage::lists::{HiddenIndex, IdLists, IdTable, TransformList};
pub use rank::{AdaptorOf, BottomDims, DescriptorOf, TopDims};
pub use view::{
    Buffer, BufferMut, DoPad, PadFlag, TensorView, TileLengths, make_naive_tensor_view, make_naive_tensor_view_packed,
    make_tensor_view, pad_tensor_view, transform_tensor_view,
};

/// A list of dimension ids for [`transform_tensor_descriptor`], as CK Tile's
/// `sequence<...>`: `ids![1, 0]` is `(Number<1>, Number<0>)`.
///
/// ```
/// use cktile_core::ids;
/// let x: (cktile_core::Number<1>, cktile_core::Number<0>) = ids![1, 0];
/// let none: () = ids![];
/// # let _ = (x, none);
/// ```
#[macro_export]
macro_rules! ids {
    ($($id:literal),* $(,)?) => {
        ($($crate::Number::<$id>,)*)
    };
}
