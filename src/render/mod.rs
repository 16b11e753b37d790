//! Rendering descriptors and reports for people: text grids and summaries
//! (what the `cktile` command prints).
//!
//! - [`text`]: offset grids and check reports;
//! - [`bank`]: bank-conflict reports and layout comparisons;
//! - [`search`]: layout search reports;
//! - [`plan`]: direct-to-LDS load plans;
//! - [`svg`]: pictures (layout grids, bank heat maps, transform chains) as SVG.

pub mod bank;
pub mod plan;
pub mod search;
pub mod svg;
pub mod text;
