//! The bank-conflict analyzer: exact per-instruction models of AMD LDS and
//! NVIDIA shared memory. The model itself (chips, instructions, rules,
//! counting, patterns, tiles, windows) is `cktile_analysis::analyzer`,
//! re-exported here whole; this crate adds the reports and front ends.
//!
//! The model's modules ([`arch`], [`op`], [`rules`], [`model`], [`memo`],
//! [`pattern`], [`pattern_name`], [`window`], [`tile`], [`metrics`]) are the
//! port's, documented there. This crate's own:
//!
//! - `report` (with the `alloc` feature): the same counts with the detail
//!   behind them (which lanes collide on which bank and word), for one
//!   instruction, a tile under a ready pattern, or a pattern written as a function;
//! - `accesses` (with the `alloc` feature): the accesses a request names (a
//!   pattern's name, or a distribution's text and an instruction) resolved
//!   and analysed, for the CLI and the explorer alike;
//! - `probe` (with the `alloc` feature): measurements from the AMD LDS probe
//!   (`gpu/amd/`) turned into rules and set beside cktile's table;
//! - `models` (with the `alloc` feature): every public model of AMD's LDS
//!   (rocKE, rocRoller, Triton's two, IREE, amd-shark, HipKittens, AMD's MI450 blog) beside
//!   cktile's table, each refusing where its source is silent, and the
//!   search for the accesses on which they disagree;
//! - `partitions` (with the `alloc` feature): gfx1250's partition
//!   conflicts, both SIMD pairs' warps reaching one 64 KiB LDS partition
//!   (AMD's MI450 blog);
//! - `gpu_cases` (with the `alloc` feature): the NVIDIA hardware-truth cases
//!   (`gpu/`), each a warp's accesses with cktile's sm90 prediction.
//!
//! ```
//! use cktile::analyzer::{arch, report::analyze_tile_report, Op, Pattern};
//! let naive = cktile::Descriptor::packed(&[128, 64])?;
//! let r = analyze_tile_report(&naive, 2, &arch::GFX942, Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } })?;
//! assert_eq!((r.counts.max_ways, r.bank_conflict_rate_pct), (4, 9.375));
//! # Ok::<(), cktile::Error>(())
//! ```

/// The port's bank model, whole (chips, instructions, rules, counting).
pub use cktile_analysis::analyzer::*;

#[cfg(feature = "alloc")]
pub mod accesses;
#[cfg(feature = "alloc")]
pub mod disagreements;
#[cfg(feature = "alloc")]
pub mod gpu_cases;
#[cfg(feature = "alloc")]
pub mod models;
#[cfg(feature = "alloc")]
pub mod partitions;
#[cfg(feature = "alloc")]
pub mod probe;
#[cfg(feature = "alloc")]
pub mod report;

#[cfg(feature = "alloc")]
pub use report::{
    InstructionReport, TileReport, analyze_distribution, analyze_instruction, analyze_tile_report, analyze_with,
};
