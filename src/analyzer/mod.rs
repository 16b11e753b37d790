//! The bank-conflict analyzer: exact per-instruction models of AMD LDS and
//! NVIDIA shared memory.
//!
//! - [`arch`]: the chips (banks, wave size);
//! - [`op`]: the instructions;
//! - [`phases`]: which lanes each instruction serves together, per chip;
//! - [`model`]: the counting itself (`const fn`, so it also runs at compile time).

pub mod arch;
pub mod model;
pub mod op;
pub mod phases;

pub use arch::{ARCHS, Arch};
pub use model::{Counts, count};
pub use op::Op;
