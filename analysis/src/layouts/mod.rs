//! The layout catalogue: the shared-memory layouts production kernels use,
//! each a descriptor built from the core transforms (no hand-written offset
//! functions).
//!
//! - [`ck`]: CK Tile's LDS blocks (XOR / MLdsLayer in both CK versions,
//!   kfold / mpair, v1 3-D + padding, fmha V, the docs' index swapping and
//!   plain XOR preshuffle);
//! - [`cute`]: CuTe `Swizzle<B,M,S>` tiles, the SM90 GMMA atoms and the TMA
//!   swizzle modes;
//! - [`triton`]: Triton's swizzled, NVMMA and AMD rotating shared encodings;
//! - [`padding`]: row padding.
//!
//! Every builder is a `const fn` returning `Result<Descriptor, Error>`: in a
//! `const` item (for example behind [`StaticDescriptor`](cktile_core::StaticDescriptor))
//! invalid parameters fail the build, at run time they are an `Err` naming
//! the parameter. [`CATALOGUE`] lists the entries by name, and [`resolve`]
//! accepts a spec or an entry with parameters, e.g.
//! `ck-universal-a:m=128,k=32,dtype=fp16`, wherever a spec is accepted.
//!
//! ```
//! use cktile_analysis::layouts;
//! use cktile_core::{Descriptor, StaticDescriptor};
//! struct GemmA;
//! impl StaticDescriptor for GemmA {
//!     const DESCRIPTOR: Descriptor =
//!         match layouts::ck::universal_a(128, 64, 8, 2, 32, layouts::ck::UnmergeOrder::Fixed2025) {
//!             Ok(d) => d,
//!             Err(e) => panic!("{}", e.summary()),
//!         };
//! }
//! assert_eq!(GemmA::calculate_offset(&[3, 9]), 209);
//! assert_eq!(layouts::resolve("ck-universal-a:m=128,k=64")?, GemmA::DESCRIPTOR);
//! # Ok::<(), cktile_analysis::Error>(())
//! ```

mod build;
pub mod ck;
pub mod cute;
pub mod padding;
pub mod registry;
pub mod triton;
pub mod xor_linear;

pub use registry::{
    CATALOGUE, DTYPE_LIST, DTYPE_NAMES, Domain, ENTRY_NAMES, Entry, EntryParam, Layout, build_entry, dtype_bytes,
    entry_text,
};
#[cfg(feature = "alloc")]
pub use registry::{resolve, resolve_typed};
