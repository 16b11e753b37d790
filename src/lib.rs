//! # cktile
//!
//! CK Tile's tensor-descriptor machinery in Rust: coordinate transforms
//! compose into descriptors (shared-memory / LDS layouts above all) whose
//! offsets are computed at compile time when the shapes are static, and fold
//! to straight-line integer arithmetic when the coordinate is a runtime value.
//!
//! - [`Descriptor`]: a descriptor as plain data, built by CK Tile's functions
//!   (`naive`, `packed`, `aligned`, `naive_with_offset`, `transform`). All of
//!   it is `const fn`: a descriptor in a `const` item is validated at compile
//!   time and its offsets are constants.
//! - [`typed`]: the static API, mirroring CK Tile's calls one-to-one
//!   (`make_naive_tensor_descriptor`, `transform_tensor_descriptor`,
//!   `make_xor_transform`, ...), where every length may be a compile-time
//!   [`Number`] or a runtime `usize`, the type records the whole chain and the
//!   number of top dimensions, and an invalid static composition does not
//!   compile.
//! - [`spec`]: a text form of a descriptor chain, read into a [`Descriptor`]
//!   and printed back by `Display`.
//! - [`check`]: whole-descriptor properties (injective, surjective, holes),
//!   and checks with a first counterexample (`is_bijective`, ...).
//! - `strategy` (the `proptest` feature): proptest strategies for
//!   coordinates, offsets, catalogue families and random chains.
//!
//! The transforms themselves live in the [`cktile_transforms`] crate,
//! re-exported as [`transforms`].
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
// No `unsafe` anywhere but the GPU memory layer (`tile::gpu`, which
// exists for amdgcn and nvptx only, built with nightly Rust as those
// targets are).
#![cfg_attr(not(any(target_arch = "amdgpu", target_arch = "nvptx64")), forbid(unsafe_code))]
#![cfg_attr(any(target_arch = "amdgpu", target_arch = "nvptx64"), deny(unsafe_code))]
#![cfg_attr(
    any(target_arch = "amdgpu", target_arch = "nvptx64"),
    feature(core_intrinsics, gpu_intrinsics, gpu_launch_sized_workgroup_mem),
    allow(internal_features)
)]
#![cfg_attr(target_arch = "amdgpu", feature(stdarch_amdgpu, link_llvm_intrinsics))]
#![cfg_attr(target_arch = "nvptx64", feature(stdarch_nvptx))]
#![deny(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;

pub mod adaptor;
pub mod analyzer;
#[cfg(feature = "alloc")]
pub mod check;
#[cfg(feature = "alloc")]
pub mod codegen;
pub mod descriptor;
pub mod distribution;
mod error;
mod hardware;
#[cfg(feature = "serde")]
pub mod json;
pub mod layouts;
mod names;
pub mod ops;
#[cfg(feature = "alloc")]
pub mod plan;
pub mod random;
#[cfg(feature = "alloc")]
pub mod render;
#[cfg(feature = "alloc")]
pub mod search;
#[cfg(feature = "alloc")]
pub mod spec;
#[cfg(feature = "proptest")]
pub mod strategy;
pub mod tile;
pub mod typed;

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

pub use cktile_transforms as transforms;
pub use cktile_transforms::{Dims, Index, Indices, MAX_DIMS, Number, Transform, Value, Values, Vector};
pub use descriptor::coordinate::{
    TensorCoordinate, coordinate_has_valid_offset, make_tensor_coordinate, move_tensor_coordinate,
};
pub use descriptor::program::Program;
pub use descriptor::static_descriptor::StaticDescriptor;
pub use descriptor::{Descriptor, Ids, Item, MAX_ITEMS, MAX_STAGES, Origin, Stage};
pub use error::{
    DescriptorProblem, Error, ErrorKind, ParameterProblem, PolicyProblem, Position, Side, Snippet, SpecProblem,
    VectorFault, Visible, is_hidden,
};
/// The type-level integers typed encodings count their groups in (for
/// [`tile_distribution_encoding!`]'s expansion).
#[doc(hidden)]
pub use typenum;

/// Everything a kernel author needs, in one import.
///
/// ```
/// use cktile::prelude::*;
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
