//! The analyzer's reports and front ends, over the bank model of
//! [`cktile::analyzer`](crate::analyzer) (the analysis crate's
//! `cktile_analysis::analyzer`: chips, instructions, rules, counting,
//! patterns, tiles, windows):
//!
//! - [`banks`] (with the `alloc` feature): the same counts with the detail
//!   behind them (which lanes collide on which bank and word), for one
//!   instruction, a tile under a ready pattern, or a pattern written as a
//!   function; its items are re-exported here;
//! - [`accesses`] (with the `alloc` feature): the accesses a request names (a
//!   pattern's name, or a distribution's text and an instruction) resolved
//!   and analysed, for the CLI and the explorer alike;
//! - [`probe`] (with the `alloc` feature): measurements from the AMD LDS probe
//!   (`gpu/amd/`) turned into rules and set beside cktile's table;
//! - [`models`] (with the `alloc` feature): every public model of AMD's LDS
//!   (rocKE, rocRoller, Triton's two, IREE, amd-shark, HipKittens, AMD's MI450 blog) beside
//!   cktile's table, each refusing where its source is silent, and the
//!   search for the accesses on which they disagree ([`disagreements`]);
//! - [`partitions`] (with the `alloc` feature): gfx1250's partition
//!   conflicts, both SIMD pairs' warps reaching one 64 KiB LDS partition
//!   (AMD's MI450 blog);
//! - [`gpu_cases`] (with the `alloc` feature): the NVIDIA hardware-truth cases
//!   (`gpu/`), each a warp's accesses with cktile's sm90 prediction.
//!
//! ```
//! use cktile::analyzer::{Op, Pattern, arch};
//! use cktile::reports::analyze_tile_report;
//! let naive = cktile::Descriptor::packed(&[128, 64])?;
//! let r = analyze_tile_report(&naive, 2, &arch::GFX942, Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } })?;
//! assert_eq!((r.counts.max_ways, r.bank_conflict_rate_pct), (4, 9.375));
//! # Ok::<(), cktile::Error>(())
//! ```

#[cfg(feature = "alloc")]
pub mod accesses;
#[cfg(feature = "alloc")]
pub mod banks;
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
pub use banks::{
    BankConflict, InstructionReport, PhaseReport, TileReport, WordAccess, analyze_distribution, analyze_instruction,
    analyze_tile_report, analyze_tile_report_with_progress, analyze_with, pattern_lane_addresses,
    window_lane_addresses,
};
