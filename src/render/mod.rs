//! Rendering descriptors and reports for people: text grids and summaries
//! (what the `cktile` command prints).

pub mod text;
