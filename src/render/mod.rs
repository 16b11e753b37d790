//! Rendering descriptors and reports for people: text grids and summaries
//! (what the `cktile` command prints).
//!
//! - [`text`]: offset grids, a coordinate's path and check reports;
//! - [`catalogue`]: the layout catalogue, entry by entry;
//! - [`distribution`]: tile distributions (every thread's coordinates, the owner grid);
//! - [`equiv`]: whether two layouts or two distributions are the same map;
//! - [`export`]: a layout in a peer's terms (`analyze --as`, `search --as`);
//! - [`bank`]: bank-conflict reports and layout comparisons;
//! - [`search`]: layout search reports;
//! - [`matrix_desc`]: whether `wgmma` / `tcgen05.mma` reads a layout, and its descriptor;
//! - [`partitions`]: gfx1250's partition check (which LDS partitions each SIMD pair reaches);
//! - [`plan`]: direct-to-LDS load plans;
//! - [`rules`]: the analyzer's rule table (banks and phases per chip and instruction, with sources);
//! - [`tma`]: whether one TMA copy writes a tile, and its tensor map;
//! - [`svg`]: pictures (layout grids, bank heat maps, transform chains) as SVG.

pub mod bank;
pub mod catalogue;
pub mod distribution;
pub mod equiv;
pub mod export;
pub mod matrix_desc;
pub mod partitions;
pub mod plan;
pub mod rules;
pub mod search;
pub mod svg;
pub mod text;
pub mod tma;
