//! The bank-conflict model: exact per-instruction counts of AMD LDS and
//! NVIDIA shared memory, in `const fn`s, so that a kernel crate checks its
//! layouts at compile time ([`assert_conflict_free!`](crate::assert_conflict_free)).
//!
//! - [`arch`]: the chips (vendor, wave size, shared-memory capacity);
//! - [`op`]: the instructions;
//! - [`lookup`]: chips and instructions by name, and their checks;
//! - [`exchange`]: what gfx1250's transposing loads exchange across lanes;
//! - [`rules`]: the one table of bank counts and lane groupings per (chip,
//!   instruction), each with its source;
//! - [`model`]: the counting itself;
//! - [`memo`]: counts reused for an instruction that is another moved in memory;
//! - [`pattern`]: which coordinate each lane touches;
//! - [`pattern_name`]: patterns by their command-line names;
//! - [`window`]: the accesses a CK tile window makes for a
//!   [tile distribution](cktile_core::distribution), analysed per warp;
//! - [`tile`]: a descriptor under a pattern, every instruction counted, and
//!   the compile-time check;
//! - [`metrics`]: rocprof-compute's derived metrics (conflict rate, theoretical bytes).
//!
//! The `cktile` crate adds the reports (which lanes collide on which bank
//! and word) and the front ends over them, in its module of the same name.
//!
//! ```
//! use cktile_analysis::analyzer::{arch, analyze_tile, Op, Pattern};
//! let naive = cktile_core::Descriptor::packed(&[128, 64])?;
//! let counts = analyze_tile(&naive, 2, &arch::GFX942, Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } })?;
//! assert_eq!(counts.max_ways, 4);
//! # Ok::<(), cktile_analysis::Error>(())
//! ```

pub use crate::hardware::arch;
pub mod exchange;
pub mod lookup;
pub mod memo;
pub mod metrics;
pub mod model;
pub use crate::hardware::op;
pub mod pattern;
pub mod pattern_name;
pub mod rules;
pub mod tile;
pub mod window;

pub use crate::error::AnalyzerProblem;
pub use arch::{ARCHS, Arch};
pub use model::{Counts, count};
pub use op::Op;
pub use pattern::Pattern;
pub use tile::{TileCounts, analyze_tile};
