//! Pictures of descriptors and bank conflicts as standalone SVG documents,
//! drawn by cktile itself so they can never drift from the code.
//!
//! - [`grid`]: a 1-D or 2-D descriptor's offsets, coloured by bank;
//! - [`banks`]: one instruction's phases, lanes by banks, the colliding
//!   lanes highlighted with their ids;
//! - [`chain`]: the transform chain, stage by stage, with its id wiring;
//! - [`owners`]: a 2-D tile distribution's owner grid (which thread and
//!   register hold each element);
//! - [`raster`]: the PNG a picture too large for one element per cell
//!   embeds;
//! - [`writer`]: the SVG writer they share; [`palette`]: their colours
//!   (viridis and Okabe–Ito, readable with colour-vision deficiencies).
//!
//! Text is real `<text>` (selectable), every picture has a `<title>`, a
//! legend, and `class` / `data-*` attributes on its cells so a test or a
//! tool can read the numbers back.
//!
//! ```
//! use cktile::render::svg::{chain::chain, grid::{grid, GridOptions}};
//! let d = cktile::spec::parse("packed((4,8))")?;
//! let picture = grid(&d, &GridOptions::new("packed((4,8))", 4, 32))?;
//! assert!(picture.contains("data-row=\"3\" data-col=\"7\" data-offset=\"31\" data-bank=\"31\""));
//! assert!(chain(&d, "packed").contains(">unmerge((4,8))</text>"));
//! # Ok::<(), cktile::Error>(())
//! ```

pub mod banks;
mod cells;
pub mod chain;
pub mod grid;
pub mod owners;
pub mod palette;
pub mod raster;
pub mod writer;

use alloc::format;
use alloc::string::{String, ToString};

/// A picture's title from the text it draws (a spec, a catalogue entry or a
/// distribution): its first non-blank line, with ` ...` when more lines follow.
///
/// ```
/// use cktile::render::svg::title_of;
/// assert_eq!(title_of("row-padded:pad=4"), "row-padded:pad=4");
/// assert_eq!(title_of("\n  naive((4,8),(8,1))\n  | transform(pass(4) on [0] -> [0])"), "naive((4,8),(8,1)) ...");
/// assert_eq!(title_of("  "), "descriptor");
/// ```
pub fn title_of(text: &str) -> String {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("descriptor");
    let more = text.lines().filter(|l| !l.trim().is_empty()).count() > 1;
    if more { format!("{first} ...") } else { first.to_string() }
}
