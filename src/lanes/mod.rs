//! What the tools ask of a tile distribution ([`cktile::distribution`](crate::distribution),
//! the port's `cktile_core::distribution`): which lane holds which
//! element, checked and tabled.
//!
//! - [`coverage`]: which elements of a tile a distribution reaches, and the
//!   first it misses;
//! - [`equiv`]: whether two distributions are the same map (the same
//!   element for each lane and register);
//! - [`table`]: every (P..., Y...) index with its X coordinate and
//!   thread-buffer index, for printing and JSON.
//!
//! ```
//! use cktile::distribution::{Distribution, catalogue};
//! use cktile::lanes::{Table, coverage::Coverage};
//! let d = Distribution::new(catalogue::mfma_a(16, 16)?)?;
//! assert_eq!(Table::new(&d)?.len(), 64 * 4);
//! assert_eq!(Coverage::new(&d, None)?.missing(), 0);
//! # Ok::<(), cktile::Error>(())
//! ```

pub mod coverage;
#[cfg(feature = "alloc")]
pub mod equiv;
#[cfg(feature = "alloc")]
pub mod table;

#[cfg(feature = "alloc")]
pub use table::Table;
