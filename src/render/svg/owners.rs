//! The owner grid of a 2-D tile distribution: every element of X as a cell
//! naming the thread (P) that holds it and where in its thread buffer (D),
//! coloured by the lane (the last P), like the figures of CK's
//! documentation.
//!
//! Cells carry `data-row`, `data-col`, `data-p` (the P index, its
//! components joined by `.`), `data-lane`, `data-d` and `data-copies` (how
//! many threads hold the element; more than one when R replicates it), so
//! the picture can be read back. The owners are
//! [`OwnerGrid`]'s, the same as `cktile distribution` prints.

use super::cells::{CELL_H, LEFT, SWATCH, axes, labels, shown, swatch_rows, swatches};
use super::palette::viridis;
use super::writer::{Anchor, Svg, text_width};
use crate::distribution::Distribution;
use crate::lanes::Table;
use crate::render::distribution::OwnerGrid;
use crate::{DescriptorProblem, Error, ParameterProblem};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// The most cells drawn.
const MAX_CELLS: usize = 1 << 16;

/// The P index numbered `p` (row-major over `lengths`), as `a.b`.
fn p_label(p: usize, lengths: &[i64]) -> String {
    let mut parts = Vec::with_capacity(lengths.len());
    let mut rest = p as i64;
    for &len in lengths.iter().rev() {
        let len = len.max(1);
        parts.push((rest % len).to_string());
        rest /= len;
    }
    parts.reverse();
    parts.join(".")
}

/// Draws the owner grid of the 2-D distribution `d` as an SVG document,
/// showing the first `rows` x `cols` elements (`None`: all).
///
/// ```
/// use cktile::distribution::{catalogue, Distribution};
/// use cktile::render::svg::owners::owners;
/// let d = Distribution::new(catalogue::mfma_a(16, 16)?)?;
/// let svg = owners(&d, "mfma16x16x16_a", None, None)?;
/// assert_eq!(svg.matches("class=\"cell\"").count(), 16 * 16);
/// // A(5, 6) is register 2 of lane 21.
/// assert!(svg.contains("data-row=\"5\" data-col=\"6\" data-p=\"21\" data-lane=\"21\" data-d=\"2\" data-copies=\"1\""));
/// assert!(owners(&Distribution::new(catalogue::mfma_a(16, 16)?)?, "t", Some(200), None).is_ok());
/// let e = owners(&Distribution::new(catalogue::mfma_a(16, 16)?)?, "t", None, Some(0)).unwrap_err();
/// assert_eq!(e.to_string(), "distribution view: cols = 0; show at least 1 (leave it out to show all)");
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn owners(d: &Distribution, title: &str, rows: Option<usize>, cols: Option<usize>) -> Result<String, Error> {
    let x = d.x_lengths();
    if x.len() != 2 {
        return Err(Error::descriptor(DescriptorProblem::NotTwoDimensional { dims: x.len() }));
    }
    let (all_rows, all_cols) = (x.get(0) as usize, x.get(1) as usize);
    let shown_rows = shown(rows, all_rows, "distribution view", "rows")?;
    let shown_cols = shown(cols, all_cols, "distribution view", "cols")?;
    if shown_rows.saturating_mul(shown_cols) > MAX_CELLS {
        return Err(Error::parameter(ParameterProblem::invalid_usize(
            "distribution view",
            "cells",
            shown_rows.saturating_mul(shown_cols),
            "draw at most 65536 cells (show fewer rows or columns with --rows / --cols)",
        )));
    }
    let table = Table::new(d)?;
    let Some(grid) = OwnerGrid::new(d, &table) else {
        return Err(Error::descriptor(DescriptorProblem::NotTwoDimensional { dims: x.len() }));
    };
    let p_lengths = d.p_lengths();
    let lanes = p_lengths.as_slice().last().copied().unwrap_or(1).max(1) as usize;
    let label = |p: usize| p_label(p, p_lengths.as_slice());
    let widest = grid.owners.iter().flatten().map(|o| text_width(&label(o.p), 11)).max().unwrap_or(10);
    let cell_w = (widest + 10).max(30);
    let grid_w = LEFT + cell_w * shown_cols as u32;
    let top = 84u32;
    let grid_bottom = top + CELL_H * shown_rows as u32;
    let p_names = if p_lengths.len() == 2 { "warp.lane" } else { "lane" };
    let subtitle = format!(
        "owner of every element: P ({p_names}, upper) and thread-buffer index D (lower); colour: lane; \
         row = X0, column = X1"
    );
    let legend_n = lanes.min(64) as u32;
    let per_row = legend_n.min(32);
    let legend_rows = swatch_rows(legend_n, per_row);
    let legend_w = 110 + per_row * SWATCH;
    let width = (grid_w + 16).max(legend_w + 16).max(text_width(title, 16) + 32).max(text_width(&subtitle, 11) + 32);
    let legend_top = grid_bottom + 34;
    let height = legend_top + legend_rows * (SWATCH + 4) + 46;

    let mut svg = Svg::new(width, height, &format!("Owner grid: {title}"));
    svg.describe(&format!(
        "Which thread and register hold each element of a tile distribution with X lengths {:?}, P lengths {:?}, \
         Y lengths {:?}",
        x.as_slice(),
        p_lengths.as_slice(),
        d.y_lengths().as_slice()
    ));
    svg.text(16, 24, title, 16, Anchor::Start, &[("font-weight", "bold"), ("class", "title")]);
    svg.text(16, 44, &subtitle, 11, Anchor::Start, &[]);
    let shown = if shown_rows < all_rows || shown_cols < all_cols {
        format!("showing X0 0-{} of {all_rows}, X1 0-{} of {all_cols}", shown_rows - 1, shown_cols - 1)
    } else {
        format!("X lengths {:?}, {} elements per thread", x.as_slice(), d.d_length())
    };
    svg.text(16, 60, &shown, 11, Anchor::Start, &[]);
    axes(&mut svg, top, cell_w, shown_rows, shown_cols, "x0=");
    let cell = Cell { top, cell_w, lanes, label: &label };
    for r in 0..shown_rows {
        for c in 0..shown_cols {
            cell.draw(&mut svg, &grid, r, c);
        }
    }
    let heading = if lanes > 64 { "Legend: lane colours (the first 64 lanes)" } else { "Legend: lane colours" };
    swatches(&mut svg, legend_top, legend_n, per_row, heading, "lane", |l| viridis(l, lanes as u32));
    let most = grid.copies.iter().copied().max().unwrap_or(0);
    let note = if most > 1 {
        format!("Each element is held by up to {most} threads (R replicates it); the first is shown.")
    } else {
        String::from("Each element is held by exactly one thread.")
    };
    let note_y = legend_top + legend_rows * (SWATCH + 4) + 20;
    svg.text(16, note_y as i64, &note, 11, Anchor::Start, &[]);
    Ok(svg.finish())
}

/// Where and how the grid's cells are drawn.
struct Cell<'a> {
    top: u32,
    cell_w: u32,
    lanes: usize,
    label: &'a dyn Fn(usize) -> String,
}

impl Cell<'_> {
    /// The cell of X (`r`, `c`): its owner's P and D on the lane's colour,
    /// or grey when no thread holds it.
    fn draw(&self, svg: &mut Svg, grid: &OwnerGrid, r: usize, c: usize) {
        let (x0, y0) = ((LEFT + self.cell_w * c as u32) as i64, (self.top + CELL_H * r as u32) as i64);
        let copies = grid.copies[r * grid.cols + c];
        let (row, col, n) = (r.to_string(), c.to_string(), copies.to_string());
        match grid.owner(r, c) {
            Some(o) => {
                let lane = o.p % self.lanes;
                let fill = viridis(lane as u32, self.lanes as u32);
                let (p, lane_s, dd) = ((self.label)(o.p), lane.to_string(), o.d.to_string());
                svg.rect(
                    x0,
                    y0,
                    self.cell_w,
                    CELL_H,
                    &fill,
                    &[
                        ("class", "cell"),
                        ("data-row", &row),
                        ("data-col", &col),
                        ("data-p", &p),
                        ("data-lane", &lane_s),
                        ("data-d", &dd),
                        ("data-copies", &n),
                    ],
                );
                labels(svg, x0, y0, self.cell_w, &fill, (&p, "owner"), (&format!("d{dd}"), "d"));
            }
            None => svg.rect(
                x0,
                y0,
                self.cell_w,
                CELL_H,
                "#dddddd",
                &[("class", "cell"), ("data-row", &row), ("data-col", &col), ("data-copies", &n)],
            ),
        }
    }
}
