//! What the cell pictures ([`grid`](super::grid) and
//! [`owners`](super::owners)) share: the axis labels around a grid of
//! cells, and a legend of colour swatches wrapped into rows.

use super::palette::text_on;
use super::writer::{Anchor, Svg};
use alloc::format;
use alloc::string::{String, ToString};

/// The left edge of the cells: room for the row labels.
pub(crate) const LEFT: u32 = 64;
/// A cell's height.
pub(crate) const CELL_H: u32 = 30;
/// A legend swatch's side.
pub(crate) const SWATCH: u32 = 22;

/// How many of `all` rows or columns a picture shows when asked for
/// `given` (`None`: all; more than there are: all), or a refusal of 0,
/// which would show nothing. `context` and `parameter` name the view and
/// the option in the message.
pub(crate) fn shown(
    given: Option<usize>,
    all: usize,
    context: &'static str,
    parameter: &'static str,
) -> Result<usize, crate::Error> {
    match given {
        Some(0) => Err(crate::Error::parameter(crate::ParameterProblem::Invalid {
            context,
            parameter,
            value: 0,
            requirement: "show at least 1 (leave it out to show all)",
        })),
        Some(n) => Ok(n.min(all).max(1)),
        None => Ok(all),
    }
}

/// Column numbers above and row labels (`row_prefix` then the row) left of
/// `rows` x `cols` cells `cell_w` wide whose top is at `top`.
pub(crate) fn axes(svg: &mut Svg, top: u32, cell_w: u32, rows: usize, cols: usize, row_prefix: &str) {
    for c in 0..cols {
        let x = (LEFT + cell_w * c as u32 + cell_w / 2) as i64;
        svg.text(x, (top - 4) as i64, &c.to_string(), 9, Anchor::Middle, &[("fill", "#444444")]);
    }
    for r in 0..rows {
        let y = (top + CELL_H * r as u32 + CELL_H / 2 + 4) as i64;
        svg.text((LEFT - 6) as i64, y, &format!("{row_prefix}{r}"), 10, Anchor::End, &[("fill", "#444444")]);
    }
}

/// A legend of `n` numbered swatches coloured by `fill`, `per_row` to a
/// row, from height `top`: `heading` above, `unit` (what the numbers are)
/// to the left.
pub(crate) fn swatches(
    svg: &mut Svg,
    top: u32,
    n: u32,
    per_row: u32,
    heading: &str,
    unit: &str,
    fill: impl Fn(u32) -> String,
) {
    svg.text(16, (top - 10) as i64, heading, 11, Anchor::Start, &[]);
    for k in 0..n {
        let x = (110 + (k % per_row) * SWATCH) as i64;
        let y = (top + (k / per_row) * (SWATCH + 4)) as i64;
        let colour = fill(k);
        svg.rect(x, y, SWATCH, SWATCH, &colour, &[("class", "legend")]);
        svg.text(x + (SWATCH / 2) as i64, y + 15, &k.to_string(), 9, Anchor::Middle, &[("fill", text_on(&colour))]);
    }
    svg.text(16, (top + 15) as i64, unit, 11, Anchor::Start, &[]);
}

/// Rows of a swatch legend of `n` swatches, `per_row` to a row.
pub(crate) fn swatch_rows(n: u32, per_row: u32) -> u32 {
    n.div_ceil(per_row.max(1))
}

/// A cell's two lines of text, `main` above `sub`, centred in the cell at
/// (`x`, `y`) on `fill`.
pub(crate) fn labels(svg: &mut Svg, x: i64, y: i64, cell_w: u32, fill: &str, main: (&str, &str), sub: (&str, &str)) {
    let ink = text_on(fill);
    let cx = x + (cell_w / 2) as i64;
    svg.text(cx, y + 13, main.0, 11, Anchor::Middle, &[("fill", ink), ("class", main.1)]);
    svg.text(cx, y + 25, sub.0, 9, Anchor::Middle, &[("fill", ink), ("class", sub.1)]);
}
