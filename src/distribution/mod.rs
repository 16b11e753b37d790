//! Tile distributions, and what the tools ask of them. The distributions
//! themselves (CK Tile's `tile_distribution_encoding`, its spellings, the
//! catalogue and the typed forms) are `cktile_core::distribution`,
//! re-exported here whole; this crate adds the analyses:
//!
//! - [`coverage`]: which elements of a tile a distribution reaches, and the
//!   first it misses;
//! - [`equiv`]: whether two distributions are the same map (the same
//!   element for each lane and register);
//! - [`table`]: every (P..., Y...) index with its X coordinate and
//!   thread-buffer index, for printing and JSON.
//!
//! ```
//! use cktile::distribution::{catalogue, coverage::Coverage, Distribution, Table};
//! let d = Distribution::new(catalogue::mfma_a(16, 16)?)?;
//! assert_eq!(Table::new(&d)?.len(), 64 * 4);
//! assert_eq!(Coverage::new(&d, None)?.missing(), 0);
//! # Ok::<(), cktile::Error>(())
//! ```

/// The encodings' parsers, beside the port's printers.
#[cfg(feature = "alloc")]
pub use cktile_analysis::spelling::{is_encoding_text, parse, parse_compact, resolve};
/// The port's distributions, whole.
pub use cktile_core::distribution::*;

pub mod coverage;
#[cfg(feature = "alloc")]
pub mod equiv;
#[cfg(feature = "alloc")]
pub mod table;

#[cfg(feature = "alloc")]
pub use table::Table;
