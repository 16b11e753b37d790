//! # cktile
//!
//! CK Tile's tensor-descriptor machinery in Rust: coordinate transforms
//! compose into descriptors (shared-memory / LDS layouts above all) whose
//! offsets are computed at compile time when the shapes are static, and fold
//! to straight-line integer arithmetic when the coordinate is a runtime value.
//! The `cktile` command (the `cli` feature, on by default) explores the same
//! descriptors written as text, and analyses their bank conflicts.
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
//! | `tensor_adaptor`, `make_single_stage_tensor_adaptor`, `chain_tensor_adaptors` | [`typed::TensorAdaptor`], [`typed::make_single_stage_tensor_adaptor`], [`typed::chain_tensor_adaptors`] | [`adaptor::Adaptor`], [`Descriptor::from_adaptor`] |
//! | `tensor_coordinate`, `make_tensor_coordinate`, `move_tensor_coordinate`, `coordinate_has_valid_offset` | [`typed::TensorCoordinate`], [`typed::make_tensor_coordinate`], [`typed::move_tensor_coordinate`] | [`TensorCoordinate`], [`make_tensor_coordinate`], [`move_tensor_coordinate`], [`coordinate_has_valid_offset`] |
//! | `tensor_view`, `make_naive_tensor_view`, `transform_tensor_view`, `pad_tensor_view` | [`typed::TensorView`], [`typed::make_naive_tensor_view`], [`typed::transform_tensor_view`], [`typed::pad_tensor_view`] | |
//! | `tile_distribution_encoding<RsLengths, HsLengthss, Ps2RHss..., Ys2RHs...>` | [`tile_distribution_encoding!`] | [`distribution::Encoding`] |
//! | `tile_distribution`, `make_static_tile_distribution` | [`distribution::typed::TileDistribution`], [`distribution::typed::make_static_tile_distribution`] | [`distribution::Distribution`] |
//! | `detail::make_embed_tile_distribution_encoding` | | [`distribution::embed()`] |
//! | `static_encoding_pattern` (`tile_distribution_encoding_pattern_2d`) | | [`distribution::pattern`] |
//! | `static_distributed_tensor`, `make_static_distributed_tensor`, `sweep_tile`, `tile_elementwise_in` | [`tile::StaticDistributedTensor`], [`tile::make_static_distributed_tensor`], [`tile::sweep_tile`], [`tile::tile_elementwise_in`] | |
//! | `tile_window` (`tile_window_with_static_lengths`, `_with_static_distribution`), `make_tile_window`, `move_tile_window` | [`tile::TileWindowWithStaticLengths`], [`tile::TileWindowWithStaticDistribution`], [`tile::make_tile_window`], [`tile::move_tile_window`] | |
//! | `load_tile`, `store_tile` | [`tile::load_tile`], [`tile::store_tile`] | the accesses they make: [`analyzer::window`] |
//! | `load_tile_transpose` | | [`distribution::transpose`] |
//! | the universal GEMM's policy (`MakeALdsBlockDescriptor`, ...) | [`ops::gemm`] | the same chains as values: [`layouts::ck`] |
//!
//! What CK Tile has no name for: the inverse (`calculate_top_index`), the
//! whole-layout checks ([`check`], [`assert_bijective!`]), the bank-conflict
//! analyzer ([`analyzer`], [`assert_conflict_free!`]), the layout search
//! ([`search`]), the layout catalogue ([`layouts`]), the spec text
//! ([`spec`]), CUDA/HIP code generation ([`codegen`]) and the pictures
//! ([`render`]).
//!
//! ## Modules
//!
//! - [`Descriptor`] ([`descriptor`]): a descriptor as plain data, built by
//!   CK Tile's functions (`naive`, `packed`, `aligned`, `naive_with_offset`,
//!   `transform`). All of it is `const fn`: a descriptor in a `const` item is
//!   validated at compile time and its offsets are constants.
//! - [`typed`]: the static API, mirroring CK Tile's calls one-to-one
//!   (`make_naive_tensor_descriptor`, `transform_tensor_descriptor`,
//!   `make_xor_transform`, ...), where every length may be a compile-time
//!   [`Number`] or a runtime `usize`, the type records the whole chain and the
//!   number of top dimensions, and an invalid static composition does not
//!   compile. [`prelude`] imports it.
//! - [`distribution`] and [`tile`]: tile distributions, and the kernel half
//!   (windows, loads and stores, distributed tensors).
//! - [`spec`]: a text form of a descriptor chain, read into a [`Descriptor`]
//!   and printed back by `Display`.
//! - [`check`]: whole-descriptor properties (injective, surjective, holes),
//!   and checks with a first counterexample (`is_bijective`, ...).
//! - [`analyzer`]: bank conflicts of each shared-memory instruction, per chip.
//! - `strategy` (the `proptest` feature): proptest strategies for
//!   coordinates, offsets, catalogue families and random chains.
//!
//! The transforms themselves live in the [`cktile_transforms`] crate,
//! re-exported as [`transforms`].
//!
//! ## The guide
//!
//! The guide (an mdBook in `docs/`, `scripts/build-book.sh` builds it; its
//! chapters also read as they are, with every command's output) teaches the
//! library chapter by chapter:
//!
//! - [Introduction](https://github.com/cktile/cktile/blob/main/docs/src/introduction.md),
//!   [Getting started](https://github.com/cktile/cktile/blob/main/docs/src/getting-started.md)
//! - descriptors: [What a tensor descriptor is](https://github.com/cktile/cktile/blob/main/docs/src/descriptors.md),
//!   [The transforms](https://github.com/cktile/cktile/blob/main/docs/src/transforms.md),
//!   [Composing descriptors](https://github.com/cktile/cktile/blob/main/docs/src/composing.md),
//!   [Tile distributions](https://github.com/cktile/cktile/blob/main/docs/src/distributions.md),
//!   [Writing a kernel with cktile](https://github.com/cktile/cktile/blob/main/docs/src/writing-a-kernel.md)
//! - shared-memory banks: [Banks, phases and how the analyzer counts](https://github.com/cktile/cktile/blob/main/docs/src/banks.md),
//!   [Padding versus XOR preshuffle](https://github.com/cktile/cktile/blob/main/docs/src/padding-vs-xor.md),
//!   [LDS index swapping, step by step](https://github.com/cktile/cktile/blob/main/docs/src/index-swapping.md),
//!   [CuTe swizzles, TMA modes and Triton encodings](https://github.com/cktile/cktile/blob/main/docs/src/cute-triton.md),
//!   [Measured on an H100](https://github.com/cktile/cktile/blob/main/docs/src/gpu-measurements.md)
//! - finding and using layouts: [Layout search](https://github.com/cktile/cktile/blob/main/docs/src/search.md),
//!   [Direct-to-LDS planning](https://github.com/cktile/cktile/blob/main/docs/src/dma-plan.md),
//!   [Generating CUDA code](https://github.com/cktile/cktile/blob/main/docs/src/codegen.md),
//!   [Testing your layouts](https://github.com/cktile/cktile/blob/main/docs/src/testing.md),
//!   [The layout explorer](https://github.com/cktile/cktile/blob/main/docs/src/explorer.md), [From Python](https://github.com/cktile/cktile/blob/main/docs/src/python.md)
//!   (with [From CuTe and CuTe DSL](https://github.com/cktile/cktile/blob/main/docs/src/from-cute.md),
//!   [From Triton and Gluon](https://github.com/cktile/cktile/blob/main/docs/src/from-triton.md) and
//!   [From tensor-layouts](https://github.com/cktile/cktile/blob/main/docs/src/from-tensor-layouts.md))
//! - reference: [The command line](https://github.com/cktile/cktile/blob/main/docs/src/cli.md),
//!   [From CK Tile to cktile](https://github.com/cktile/cktile/blob/main/docs/src/ck-to-cktile.md),
//!   [Performance](https://github.com/cktile/cktile/blob/main/docs/src/performance.md), [Fuzzing](https://github.com/cktile/cktile/blob/main/docs/src/fuzzing.md),
//!   [Architecture](https://github.com/cktile/cktile/blob/main/docs/src/architecture.md)
//!
//! ```
//! use cktile::prelude::*;
//!
//! // CK Tile's GEMM A LDS descriptor, M=128, K=32, KPack=8, MLdsLayer=2 (2024 form).
//! let d = cktile::spec::parse(
//!     "naive((8,64,8),(8,64,1))
//!      | transform(xor((64,8)) on [1,0] -> [1,0], pass_through(8) on [2] -> [2])
//!      | transform(unmerge((4,2)) on [0] -> [0,2], pass_through(64) on [1] -> [1], pass_through(8) on [2] -> [3])
//!      | transform(merge((4,8)) on [0,3] -> [1], merge((64,2)) on [1,2] -> [0])",
//! )?;
//! // offset(m, k) = 64*(m/2) + 8*(((k/8)*2 + m%2) ^ ((m/2)%8)) + k%8
//! assert_eq!(d.calculate_offset(&[3, 9]), 81);
//! # Ok::<(), cktile::Error>(())
//! ```
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![deny(rustdoc::broken_intra_doc_links)]

#[cfg(feature = "alloc")]
extern crate alloc;

/// The port, whole: every module and item of [`cktile_core`] is also
/// `cktile::...`.
pub use cktile_core::*;

pub mod analyzer;
#[cfg(feature = "alloc")]
pub mod check;
#[cfg(feature = "alloc")]
pub mod codegen;
#[cfg(feature = "serde")]
pub mod json;
#[cfg(feature = "alloc")]
pub mod plan;
#[cfg(feature = "alloc")]
pub mod render;
#[cfg(feature = "alloc")]
pub mod search;
#[cfg(feature = "proptest")]
pub mod strategy;

/// The guide in `docs/` (an mdBook), compiled as doctests: every Rust code
/// block of every chapter runs in `cargo test`, so the book's examples
/// cannot stop compiling or start lying.
#[cfg(doctest)]
pub mod book {
    macro_rules! chapters {
        ($($name:ident = $file:literal;)*) => {$(
            #[doc = include_str!(concat!("../docs/src/", $file))]
            pub struct $name;
        )*};
    }
    chapters! {
        Introduction = "introduction.md";
        GettingStarted = "getting-started.md";
        Descriptors = "descriptors.md";
        Transforms = "transforms.md";
        Composing = "composing.md";
        Distributions = "distributions.md";
        WritingAKernel = "writing-a-kernel.md";
        Banks = "banks.md";
        PaddingVsXor = "padding-vs-xor.md";
        IndexSwapping = "index-swapping.md";
        CuteTriton = "cute-triton.md";
        Search = "search.md";
        DmaPlan = "dma-plan.md";
        Codegen = "codegen.md";
        Cli = "cli.md";
        CkToCktile = "ck-to-cktile.md";
        Performance = "performance.md";
        Fuzzing = "fuzzing.md";
    }
    // Its examples use `cktile::strategy`: they need the `proptest` feature,
    // which `cargo test` turns on through cktile's dev-dependency on itself.
    #[cfg(feature = "proptest")]
    chapters! {
        Testing = "testing.md";
    }
}
