//! # cktile
//!
//! CK Tile's tensor-descriptor machinery in Rust, and the tools to design
//! and check shared-memory (LDS) layouts with it.
//!
//! The library is three crates. The port, [`cktile_core`] (`no_std`, what a
//! kernel depends on), holds CK Tile's transforms, adaptors, descriptors,
//! distributions, windows and GEMM policy; its page maps every CK Tile
//! name to cktile's. The analysis, [`cktile_analysis`] (`no_std` too),
//! holds the bank model behind [`assert_conflict_free!`], the chips and
//! instructions, the layout catalogue, the spec language and the
//! distributions' parsers. This crate re-exports both (`cktile::descriptor`
//! is `cktile_core::descriptor`, `cktile::analyzer` is
//! `cktile_analysis::analyzer`: each module path is one crate's) and adds
//! the tools over them:
//!
//! - [`check`]: whole-descriptor properties (injective, surjective, holes),
//!   checks with a first counterexample (`is_bijective`, ...) and whether
//!   two descriptors are the same map;
//! - [`reports`]: the reports behind the bank model's counts (which lanes
//!   collide on which bank and word), the public AMD models beside
//!   cktile's, and the hardware cases;
//! - [`lanes`]: what a tile distribution reaches (coverage), whether two
//!   are the same map, and every lane's elements as a table;
//! - [`matrix_desc`]: whether Hopper's `wgmma` or Blackwell's `tcgen05.mma`
//!   reads a layout through a shared-memory matrix descriptor, and the
//!   descriptor; [`tma`]: whether one TMA copy writes a layout, and its
//!   tensor map;
//! - [`search`]: the layout search; [`plan`]: direct-to-LDS load plans;
//! - [`render`]: text and SVG pictures; [`codegen`]: CUDA/HIP code;
//! - `json` (the `serde` feature): requests and reports as JSON, shared by
//!   the command line, the explorer and the Python package;
//! - `strategy` (the `proptest` feature): proptest strategies for
//!   coordinates, offsets, catalogue families and random chains.
//!
//! The `cktile` command (the `cli` feature, on by default) explores the same
//! descriptors written as text, and analyses their bank conflicts.
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
//!   [Measured on an H100](https://github.com/cktile/cktile/blob/main/docs/src/gpu-measurements.md),
//!   [Hopper and Blackwell: what wgmma and tcgen05 read](https://github.com/cktile/cktile/blob/main/docs/src/hopper.md),
//!   [AMD's LDS in 2026: gfx1250 and the public models](https://github.com/cktile/cktile/blob/main/docs/src/amd-models.md)
//! - finding and using layouts: [Layout search](https://github.com/cktile/cktile/blob/main/docs/src/search.md),
//!   [Direct-to-LDS planning](https://github.com/cktile/cktile/blob/main/docs/src/dma-plan.md),
//!   [Generating CUDA code](https://github.com/cktile/cktile/blob/main/docs/src/codegen.md),
//!   [cktile in cubecl](https://github.com/cktile/cktile/blob/main/docs/src/cubecl.md) (its code runs
//!   as the doctests of `cubecl/`, a crate of its own),
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

/// The analysis beneath the tools ([`cktile_analysis`]): its error type
/// (which wraps the port's) is the tools' one, and its modules are
/// `cktile::...` too. The [`prelude`] stays the port's, for kernel code:
/// its `Error` is the port's, which `?` turns into [`Error`].
pub use cktile_analysis::{
    AnalyzerProblem, Error, ErrorKind, Position, Program, SpecProblem, analyzer, assert_conflict_free, comments,
    hardware, layouts, program, random, static_failure,
};
#[cfg(feature = "alloc")]
pub use cktile_analysis::{CompactProblem, spec, spelling};

#[cfg(feature = "alloc")]
pub mod check;
#[cfg(feature = "alloc")]
pub mod codegen;
#[cfg(feature = "alloc")]
pub mod export;
#[cfg(feature = "serde")]
pub mod json;
pub mod lanes;
#[cfg(feature = "alloc")]
pub mod matrix_desc;
#[cfg(feature = "alloc")]
pub mod plan;
#[cfg(feature = "alloc")]
pub mod render;
pub mod reports;
#[cfg(feature = "alloc")]
pub mod search;
#[cfg(feature = "proptest")]
pub mod strategy;
#[cfg(feature = "alloc")]
pub mod tma;

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
        Hopper = "hopper.md";
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
