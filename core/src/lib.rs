//! # cktile-core
//!
//! CK Tile's core in Rust, `no_std`: what a GPU kernel (amdgcn or nvptx) or
//! a host program needs to compose shared-memory (LDS) layouts and move
//! tiles through them, and nothing else. Coordinate transforms (the
//! [`cktile_transforms`] crate, re-exported as [`transforms`]) compose into
//! adaptors and descriptors whose offsets are constants when the shapes are
//! static; tile distributions say which lane holds which element; tile
//! windows load and store them; and the universal GEMM's policy builds CK's
//! A and B data paths.
//!
//! What judges layouts sits above it: the bank-conflict model with its
//! compile-time check `assert_conflict_free!`, the chips and instructions,
//! the LDS layout catalogue, the spec language and compiled offset
//! programs are the `cktile-analysis` crate's. The tools (reports, the
//! layout search, direct-to-LDS plans, pictures, C++ generation, JSON and
//! the command line) live in the `cktile` crate, which re-exports this one
//! whole: every path below is also a path of `cktile`.
//!
//! ## CK Tile's names in cktile
//!
//! cktile keeps CK Tile's names and argument orders. Each CK Tile item has a
//! static (typed) form, whose type records the chain and which folds to
//! constants, for kernels; most also have a runtime form, a plain value, for
//! tools, the analyzer and the command line. The guide's chapter
//! [From CK Tile to cktile](https://github.com/cktile/cktile/blob/main/docs/src/ck-to-cktile.md) gives every argument.
//!
//! | CK Tile (`ck_tile::`) | cktile, static | cktile, runtime |
//! |---|---|---|
//! | `number<N>`, `sequence<...>` | [`Number`], [`ids!`] | `usize`, `&[usize]` |
//! | `tensor_descriptor` | [`typed::TensorDescriptor`] | [`Descriptor`] |
//! | `make_naive_tensor_descriptor` (`_packed`, `_aligned`, `_with_offset`) | [`typed::make_naive_tensor_descriptor`], [`typed::make_naive_tensor_descriptor_packed`], ... | [`Descriptor::naive`], [`Descriptor::packed`], ... |
//! | `transform_tensor_descriptor` | [`typed::transform_tensor_descriptor`] | [`Descriptor::transform`] with [`Item`]s |
//! | `make_pass_through_transform`, `make_merge_transform`, `make_xor_transform`, ... | [`transforms::typed`] (`make_merge_transform`, ...) | [`Transform`] ([`Transform::merge`], ...) |
//! | `tensor_adaptor`, `make_single_stage_tensor_adaptor`, `chain_tensor_adaptors` | [`typed::TensorAdaptor`], [`typed::make_single_stage_tensor_adaptor`], [`typed::chain_tensor_adaptors`] | [`adaptor::Adaptor`], [`Descriptor::adaptor`] |
//! | `tensor_coordinate`, `make_tensor_coordinate`, `move_tensor_coordinate`, `coordinate_has_valid_offset` | [`typed::TensorCoordinate`], [`typed::make_tensor_coordinate`], [`typed::move_tensor_coordinate`], [`typed::coordinate_has_valid_offset`] | [`Coordinate`] ([`Coordinate::new`], [`Coordinate::move_by`], [`Coordinate::has_valid_offset`]) |
//! | `tensor_view`, `make_naive_tensor_view`, `transform_tensor_view`, `pad_tensor_view` | [`typed::TensorView`], [`typed::make_naive_tensor_view`], [`typed::transform_tensor_view`], [`typed::pad_tensor_view`] | |
//! | `tile_distribution_encoding<RsLengths, HsLengthss, Ps2RHss..., Ys2RHs...>` | [`tile_distribution_encoding!`] | [`distribution::Encoding`] |
//! | `tile_distribution`, `make_static_tile_distribution` | [`distribution::typed::TileDistribution`], [`distribution::typed::make_static_tile_distribution`] | [`distribution::Distribution`] |
//! | `detail::make_embed_tile_distribution_encoding` | | [`distribution::embed_encoding()`] |
//! | `static_encoding_pattern` (`tile_distribution_encoding_pattern_2d`) | | [`distribution::catalogue::pattern`] |
//! | `static_distributed_tensor`, `make_static_distributed_tensor`, `sweep_tile`, `tile_elementwise_in` | [`tile::StaticDistributedTensor`], [`tile::make_static_distributed_tensor`], [`tile::sweep_tile`], [`tile::tile_elementwise_in`] | |
//! | `tile_window` (`tile_window_with_static_lengths`, `_with_static_distribution`), `make_tile_window`, `move_tile_window` | [`tile::TileWindowWithStaticLengths`], [`tile::TileWindowWithStaticDistribution`], [`tile::make_tile_window`], [`tile::move_tile_window`] | |
//! | `load_tile`, `store_tile` | [`tile::load_tile`], [`tile::store_tile`] | the accesses they make: the analysis crate's `analyzer::window` |
//! | `load_tile_transpose` | | [`distribution::catalogue::transpose`] |
//! | the universal GEMM's policy (`MakeALdsBlockDescriptor`, ...) | [`ops::gemm`] | the same chains as values: the analysis crate's `layouts::ck` |
//!
//! What else it holds: the inverse (`calculate_top_index`) and
//! bijectivity at compile time ([`assert_bijective!`]).
//!
//! ## Modules, lowest first
//!
//! - [`stage`], [`adaptor`] and [`descriptor`]: chains of transforms,
//!   each concept with its runtime and typed forms side by side (`stage`
//!   holding what the adaptor and the descriptor share). At run time they
//!   are plain data built by CK Tile's functions (`naive`, `packed`,
//!   `aligned`, `naive_with_offset`, `transform`), all `const fn`: a
//!   descriptor in a `const` item is validated at compile time and its
//!   offsets are constants.
//! - [`typed`]: the static API gathered in one place, mirroring CK Tile's
//!   calls one-to-one (`make_naive_tensor_descriptor`,
//!   `transform_tensor_descriptor`, ...), where every length may be a
//!   compile-time [`Number`] or a runtime `usize`, and an invalid static
//!   composition does not compile. [`prelude`] imports it.
//! - [`distribution`]: tile distribution encodings, their printed
//!   spellings and the catalogue of CK's, MFMA's and WMMA's.
//! - [`tile`]: the kernel half (windows, `load_tile`/`store_tile`,
//!   distributed tensors, shared memory on amdgcn and nvptx).
//! - [`ops`]: CK's universal GEMM policy and its data paths.
//!
//! ```
//! use cktile_core::prelude::*;
//!
//! // CK Tile's GEMM A LDS block (M=128, K=32, KPack=8, MLdsLayer=2) as
//! // the universal policy builds it: a typed chain whose offsets fold to
//! // constants, and the same chain as a runtime value.
//! let d = cktile_core::ops::gemm::make_lds_block::<128, 32, 2, 32, 16>()?;
//! assert_eq!(d.calculate_offset([3, 9]), 97);
//! assert_eq!(d.descriptor().calculate_offset(&[3, 9]), 97);
//! # Ok::<(), cktile_core::Error>(())
//! ```

#![cfg_attr(not(feature = "std"), no_std)]
// No `unsafe` anywhere but the GPU layer (`tile::gpu`, the memory and
// the hardware ids, and `ops::gemm::gpu`, the MFMA intrinsics), which
// exists for amdgcn and nvptx only, built with nightly Rust as those
// targets are.
#![cfg_attr(not(any(target_arch = "amdgpu", target_arch = "nvptx64")), forbid(unsafe_code))]
#![cfg_attr(any(target_arch = "amdgpu", target_arch = "nvptx64"), deny(unsafe_code))]
#![cfg_attr(
    any(target_arch = "amdgpu", target_arch = "nvptx64"),
    feature(core_intrinsics, gpu_intrinsics, gpu_launch_sized_workgroup_mem),
    allow(internal_features)
)]
#![cfg_attr(target_arch = "amdgpu", feature(stdarch_amdgpu, link_llvm_intrinsics, repr_simd, simd_ffi, f16))]
#![cfg_attr(target_arch = "nvptx64", feature(stdarch_nvptx, asm_experimental_arch, f16))]
#![deny(missing_docs)]
#![deny(rustdoc::broken_intra_doc_links)]

#[cfg(feature = "alloc")]
extern crate alloc;

pub mod adaptor;
pub mod descriptor;
pub mod distribution;
pub mod error;
pub mod names;
pub mod ops;
pub mod stage;
pub mod tile;
pub mod typed;

pub use cktile_transforms as transforms;
pub use cktile_transforms::{Dims, Index, Indices, MAX_DIMS, Number, Transform, Value, Values, Vector};
pub use descriptor::coordinate::Coordinate;
pub use descriptor::static_descriptor::StaticDescriptor;
pub use descriptor::{Descriptor, MAX_STAGES, Origin, Stages};
pub use error::{
    DescriptorProblem, Error, ErrorKind, ParameterProblem, PolicyProblem, Position, Side, Snippet, VectorFault,
    Visible, is_hidden,
};
pub use stage::{Ids, Item, MAX_ITEMS, Stage};
/// The type-level integers typed encodings count their groups in (what
/// [`tile_distribution_encoding!`]'s expansion names).
pub use typenum;

/// Everything a kernel author needs, in one import.
///
/// ```
/// use cktile_core::prelude::*;
/// let d = make_naive_tensor_descriptor_packed((Number::<4>, Number::<8>)).unwrap();
/// assert_eq!(d.calculate_offset([1, 2]), 10);
/// ```
pub mod prelude {
    pub use crate::distribution::typed::{TileDistribution, TileEncoding, make_static_tile_distribution};
    pub use crate::ids;
    pub use crate::typed::{AdaptorOf, DescriptorOf};
    pub use crate::typed::{
        DoPad, TensorView, make_naive_tensor_view, make_naive_tensor_view_packed, make_tensor_view, pad_tensor_view,
        transform_tensor_view,
    };
    pub use crate::typed::{
        TensorAdaptor, chain_tensor_adaptors, make_single_stage_tensor_adaptor, make_tensor_adaptor,
        transform_tensor_adaptor,
    };
    pub use crate::typed::{
        TensorCoordinate, coordinate_has_valid_offset, coordinate_has_valid_offset_assuming_top_index_is_valid,
        make_tensor_coordinate, move_tensor_coordinate,
    };
    pub use crate::typed::{
        TensorDescriptor, make_naive_tensor_descriptor, make_naive_tensor_descriptor_aligned,
        make_naive_tensor_descriptor_packed, make_naive_tensor_descriptor_with_offset,
        make_naive_tensor_descriptor_with_vector, transform_tensor_descriptor,
    };
    pub use crate::{Descriptor, Error, Item, Number, StaticDescriptor};
    pub use cktile_transforms::typed::*;
}

/// The crate's README, compiled with the doctests so its example stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct CoreReadmeDoctests;
