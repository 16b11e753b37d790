//! The bank-conflict analyzer: exact per-instruction models of AMD LDS and
//! NVIDIA shared memory.
//!
//! - [`arch`]: the chips (banks, wave size);
//! - [`op`]: the instructions;
//! - [`phases`]: which lanes each instruction serves together, per chip;
//! - [`model`]: the counting itself (`const fn`, so it also runs at compile time);
//! - [`pattern`]: which coordinate each lane touches;
//! - [`tile`]: a descriptor under a pattern, every instruction counted, and
//!   the compile-time check [`assert_conflict_free!`](crate::assert_conflict_free).

pub mod arch;
pub mod model;
pub mod op;
pub mod pattern;
pub mod phases;
pub mod tile;

pub use arch::{ARCHS, Arch};
pub use model::{Counts, count};
pub use op::Op;
pub use pattern::Pattern;
pub use tile::{TileCounts, analyze_tile};
