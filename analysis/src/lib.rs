//! # cktile-analysis
//!
//! cktile's layout analysis, beneath its tools and above the port
//! ([`cktile_core`]), `no_std`: what judges and names shared-memory layouts
//! without being part of CK Tile itself.
//!
//! - [`hardware`]: the chips and the shared-memory instructions, by name;
//! - [`analyzer`]: the bank model, exact per-instruction counts of AMD LDS
//!   and NVIDIA shared memory in `const fn`s, and the compile-time check
//!   [`assert_conflict_free!`];
//! - [`program`]: a descriptor compiled once for many runtime offsets
//!   ([`Program`]);
//! - [`layouts`]: the LDS layout catalogue (CK's, CuTe's, Triton's) and its
//!   registry of names;
//! - [`spec`] (with an allocator): the spec language, a descriptor chain as
//!   text;
//! - [`spelling`] (with an allocator): tile distribution encodings as text,
//!   CK's spelling and cktile's compact one;
//! - [`comments`]: the one rule for comments in every text;
//! - [`random`]: seeded random chains for tests.
//!
//! Its one error type, [`Error`], wraps the port's
//! ([`ErrorKind::Port`]) and adds the spec's, the analyzer's and a
//! position in a text.
//!
//! The tools (`cktile`: reports, search, plans, pictures, C++ generation,
//! JSON, the command line) sit above it and re-export it; the compile-time
//! checks (`cktile-checks`) use it without them.
//!
//! ```
//! use cktile_analysis::analyzer::{analyze_tile, arch, Op, Pattern};
//! use cktile_analysis::layouts::ck::{xor_lds, UnmergeOrder};
//!
//! // CK Tile's GEMM A LDS block (M=128, K=32, KPack=8, MLdsLayer=2) under
//! // MFMA 16x16 reads of 16 bytes on gfx942: conflict-free, while the
//! // row-major block it replaces has 2-way conflicts.
//! let xor = xor_lds(128, 32, 8, 2, UnmergeOrder::Fixed2025)?;
//! let read = Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } };
//! assert_eq!(analyze_tile(&xor, 2, &arch::GFX942, read)?.max_ways, 1);
//! let naive = cktile_core::Descriptor::packed(&[128, 32])?;
//! assert_eq!(analyze_tile(&naive, 2, &arch::GFX942, read)?.max_ways, 2);
//! # Ok::<(), cktile_analysis::Error>(())
//! ```

#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![deny(rustdoc::broken_intra_doc_links)]

#[cfg(feature = "alloc")]
extern crate alloc;

pub mod analyzer;
pub mod comments;
mod error;
pub mod hardware;
pub mod layouts;
pub mod program;
pub mod random;
#[cfg(feature = "alloc")]
pub mod spec;
#[cfg(feature = "alloc")]
pub mod spelling;

#[cfg(feature = "alloc")]
pub use error::CompactProblem;
pub use error::{AnalyzerProblem, Error, ErrorKind, Position, SpecProblem, static_failure};
pub use program::Program;
// `crate::port!`, for the `const fn`s that call the port.
pub(crate) use error::port;

/// The crate's README, compiled with the doctests so its example stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct AnalysisReadmeDoctests;
