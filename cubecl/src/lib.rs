//! cktile's descriptors inside [cubecl](https://github.com/tracel-ai/cubecl)
//! kernels.
//!
//! [`CkLayout<D>`](CkLayout) implements cubecl's
//! [`Layout`](cubecl::std::tensor::layout::Layout) for any compile-time
//! cktile descriptor `D` (a [`StaticDescriptor`](cktile_core::StaticDescriptor):
//! CK's LDS blocks from `cktile_analysis::layouts`, a chain of CK calls, a
//! catalogue entry). A `#[cube]` kernel reads shared memory through it as
//! through any cubecl layout; its shapes are comptime values, and each
//! offset expands to the index arithmetic of the descriptor's transforms
//! with every literal folded: the same operations a hand-written cubecl
//! layout spells out.
//!
//! While the kernel crate compiles, the layout checks that the coordinate
//! type matches the descriptor's rank, that every value the offset takes
//! fits a 32-bit index ([`IndexType`]), and, given a [`Reads`] type, that
//! cktile's bank model counts no conflict on the named chip: a swizzle that
//! is fine on NVIDIA's 32 banks but conflicts on gfx950's 64-bank LDS reads
//! does not build.
//!
//! - [`layout`]: [`CkLayout`] (a compile-time descriptor, or a typed CK
//!   chain through [`Typed`]),
//!   [`DescriptorLayout`] (one built at run time, a comptime kernel
//!   argument) and [`IndexType`];
//! - [`error`]: why a descriptor cannot be a layout;
//! - [`reads`]: the compile-time bank checks;
//! - [`coords`]: the coordinate types;
//! - `emit`: the forward walk of a descriptor written into the kernel, from
//!   each transform's lowering (the steps cktile's C++ emitter reads).
//!
//! The guide's chapter "cktile in cubecl" runs a kernel through it, checks
//! every offset on a GPU-less wgpu runtime (Mesa's lavapipe), and compares
//! the compiled kernel with one over a hand-written cubecl layout.

#![forbid(unsafe_code)]
#![deny(rustdoc::broken_intra_doc_links)]

extern crate alloc;

pub mod coords;
mod emit;
pub mod error;
pub mod layout;
pub mod reads;

pub use coords::TopCoordinates;
pub use emit::Int;
pub use error::Error;
pub use layout::{CkLayout, CkLayoutExpand, DescriptorLayout, IndexType, Typed};
pub use reads::{Access, Check, Reads, Unchecked};

/// The guide's chapter "cktile in cubecl" (`docs/src/cubecl.md`), whose
/// Rust blocks run as this crate's doctests: its kernel on wgpu, its
/// refusal as a compile failure.
#[cfg(doctest)]
#[doc = include_str!("../../docs/src/cubecl.md")]
pub struct Chapter;
