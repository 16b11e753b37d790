//! The bank-conflict analyzer: exact per-instruction models of AMD LDS and
//! NVIDIA shared memory.
//!
//! - [`arch`]: the chips (vendor, wave size, shared-memory capacity);
//! - [`op`]: the instructions;
//! - [`rules`]: the one table of bank counts and lane groupings per (chip,
//!   instruction), each with its source;
//! - [`model`]: the counting itself (`const fn`, so it also runs at compile time);
//! - [`memo`]: counts reused for an instruction that is another moved in memory;
//! - [`pattern`]: which coordinate each lane touches;
//! - [`pattern_name`]: patterns by their command-line names;
//! - `window` (with the `alloc` feature): the accesses a CK tile window
//!   makes for a [tile distribution](crate::distribution), analysed per warp;
//! - [`tile`]: a descriptor under a pattern, every instruction counted, and
//!   the compile-time check [`assert_conflict_free!`](crate::assert_conflict_free);
//! - [`metrics`]: rocprof-compute's derived metrics (conflict rate, theoretical bytes);
//! - `report` (with the `alloc` feature): the same counts with the detail
//!   behind them (which lanes collide on which bank and word), for one
//!   instruction, a tile under a ready pattern, or a pattern written as a function;
//! - `accesses` (with the `alloc` feature): the accesses a request names (a
//!   pattern's name, or a distribution's text and an instruction) resolved
//!   and analysed, for the CLI and the explorer alike;
//! - `probe` (with the `alloc` feature): measurements from the AMD LDS probe
//!   (`gpu/amd/`) turned into rules and set beside cktile's table;
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

#[cfg(feature = "alloc")]
pub mod accesses;
pub use crate::hardware::arch;
pub mod lookup;
pub mod memo;
pub mod metrics;
pub mod model;
pub use crate::hardware::op;
#[cfg(feature = "alloc")]
pub mod gpu_cases;
pub mod pattern;
pub mod pattern_name;
#[cfg(feature = "alloc")]
pub mod probe;
#[cfg(feature = "alloc")]
pub mod report;
pub mod rules;
pub mod tile;
pub mod window;

pub use crate::error::AnalyzerProblem;
pub use arch::{ARCHS, Arch};
pub use model::{Counts, count};
pub use op::Op;
pub use pattern::Pattern;
#[cfg(feature = "alloc")]
pub use report::{
    InstructionReport, TileReport, analyze_distribution, analyze_instruction, analyze_tile_report, analyze_with,
};
pub use tile::{TileCounts, analyze_tile};
