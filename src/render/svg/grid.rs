//! The layout grid: every top coordinate of a 1-D or 2-D descriptor as a
//! cell holding its offset and its bank, coloured by bank.
//!
//! Row `r`, column `c` is the coordinate `(r, c)` (a 1-D descriptor is one
//! row). A valid cell's bank is `(offset * element_bytes / 4) mod banks`:
//! the bank of the first 4-byte word the element occupies. Padding
//! positions (not a valid offset) are grey and show their offset in
//! brackets. Every cell carries `data-row`, `data-col`, `data-offset` and
//! `data-bank` attributes, so the picture can be read back.

use super::cells::{CELL_H, LEFT, SWATCH, axes, labels, shown, swatch_rows, swatches};
use super::palette::{PADDING, bank_colour};
use super::raster;
use super::writer::{Anchor, Svg, text_width};
use crate::Descriptor;
use crate::analyzer::{Arch, Op, rules};
use crate::{Error, ParameterProblem};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// What a grid shows and how.
///
/// ```
/// use cktile::render::svg::grid::GridOptions;
/// let o = GridOptions::new("packed((4,8))", 2, 32);
/// assert_eq!((o.element_bytes, o.banks, o.rows, o.cols), (2, 32, None, None));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridOptions {
    /// The picture's title (e.g. the spec or catalogue entry).
    pub title: String,
    /// Bytes per element.
    pub element_bytes: usize,
    /// Banks of 4 bytes (32, or 64 on gfx950).
    pub banks: u32,
    /// Show only the first this many rows (`None`: all; 0 is refused).
    pub rows: Option<usize>,
    /// Show only the first this many columns (`None`: all; 0 is refused).
    pub cols: Option<usize>,
}

impl GridOptions {
    /// Options showing the whole descriptor with `arch`'s banks for `op`:
    /// the instruction's bank count when one is named (gfx950 reads b64 and
    /// b128 over 64 banks, its other instructions over 32), else the chip's
    /// widest ([`Arch::max_banks`]). `cktile render --view grid` and the
    /// guide's explorer colour their grids this way.
    ///
    /// ```
    /// use cktile::analyzer::{arch, Op};
    /// use cktile::render::svg::grid::GridOptions;
    /// assert_eq!(GridOptions::for_chip("t", 2, &arch::GFX950, None).banks, 64);
    /// assert_eq!(GridOptions::for_chip("t", 2, &arch::GFX950, Some(Op::DsRead { bits: 32 })).banks, 32);
    /// assert_eq!(GridOptions::for_chip("t", 2, &arch::SM90, None).banks, 32);
    /// ```
    pub fn for_chip(title: &str, element_bytes: usize, arch: &Arch, op: Option<Op>) -> GridOptions {
        let banks = op.map_or(arch.max_banks(), |op| rules::rule(arch, op).banks);
        GridOptions::new(title, element_bytes, banks)
    }

    /// Options showing the whole descriptor.
    ///
    /// ```
    /// let o = cktile::render::svg::grid::GridOptions::new("t", 4, 64);
    /// assert_eq!(o.title, "t");
    /// ```
    pub fn new(title: &str, element_bytes: usize, banks: u32) -> GridOptions {
        GridOptions { title: String::from(title), element_bytes, banks, rows: None, cols: None }
    }
}

/// One cell of a grid.
///
/// ```
/// use cktile::render::svg::grid::{cells, GridOptions};
/// let d = cktile::Descriptor::packed(&[2, 4])?;
/// let c = cells(&d, &GridOptions::new("t", 4, 32))?;
/// assert_eq!((c[5].row, c[5].col, c[5].offset, c[5].bank), (1, 1, 5, Some(5)));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    /// Row (top dimension 0; 0 for a 1-D descriptor).
    pub row: usize,
    /// Column (top dimension 1, or dimension 0 of a 1-D descriptor).
    pub col: usize,
    /// The offset, in elements.
    pub offset: i64,
    /// The bank of the element's first word; `None` for padding.
    pub bank: Option<u32>,
}

/// The largest element the grid colours by bank (bytes).
const MAX_ELEMENT_BYTES: usize = 4096;
/// The most banks its legend draws.
const MAX_BANKS: u32 = 64;

/// The shape the grid draws: the descriptor's rows and columns, and how
/// many of each are shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    rows: usize,
    cols: usize,
    shown_rows: usize,
    shown_cols: usize,
}

impl Shape {
    /// The shape of `desc` under `o`, or why the grid cannot draw it.
    fn new(desc: &Descriptor, o: &GridOptions) -> Result<Shape, Error> {
        let lengths = desc.lengths();
        let (rows, cols) = match lengths.len() {
            1 => (1, lengths.get(0) as usize),
            2 => (lengths.get(0) as usize, lengths.get(1) as usize),
            n => {
                return Err(Error::parameter(ParameterProblem::invalid_usize(
                    "grid view",
                    "top dimensions",
                    n,
                    "the grid draws descriptors with 1 or 2 top dimensions (merge the others)",
                )));
            }
        };
        if !(1..=MAX_ELEMENT_BYTES).contains(&o.element_bytes) {
            return Err(Error::parameter(ParameterProblem::invalid_usize(
                "grid view",
                "element bytes",
                o.element_bytes,
                "an element is 1 to 4096 bytes",
            )));
        }
        if !(1..=MAX_BANKS).contains(&o.banks) {
            return Err(Error::parameter(ParameterProblem::Invalid {
                context: "grid view",
                parameter: "banks",
                value: i64::from(o.banks),
                requirement: "the legend draws 1 to 64 banks (32 on most chips, 64 on gfx950)",
            }));
        }
        let shown_rows = shown(o.rows, rows, "grid view", "rows")?;
        let shown_cols = shown(o.cols, cols, "grid view", "cols")?;
        if shown_rows.saturating_mul(shown_cols) > 1 << 16 {
            return Err(Error::parameter(ParameterProblem::invalid_usize(
                "grid view",
                "cells",
                shown_rows.saturating_mul(shown_cols),
                "draw at most 65536 cells (show fewer rows or columns)",
            )));
        }
        Ok(Shape { rows, cols, shown_rows, shown_cols })
    }

    /// Whether some rows or columns are left out.
    fn cut(&self) -> bool {
        self.shown_rows < self.rows || self.shown_cols < self.cols
    }
}

/// The cells the grid draws, row by row.
///
/// ```
/// use cktile::render::svg::grid::{cells, GridOptions};
/// let d = cktile::spec::parse("naive((4),(1)) | transform(pad(4,1,0) on [0] -> [0])")?;
/// let c = cells(&d, &GridOptions::new("t", 4, 32))?;
/// assert_eq!((c[0].offset, c[0].bank, c[1].bank), (-1, None, Some(0)));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn cells(desc: &Descriptor, o: &GridOptions) -> Result<Vec<Cell>, Error> {
    let Shape { shown_rows, shown_cols, .. } = Shape::new(desc, o)?;
    let two_d = desc.lengths().len() == 2;
    let mut out = Vec::with_capacity(shown_rows * shown_cols);
    for row in 0..shown_rows {
        for col in 0..shown_cols {
            let coord: Vec<i64> = if two_d { alloc::vec![row as i64, col as i64] } else { alloc::vec![col as i64] };
            let offset = desc.calculate_offset(&coord);
            let bank = desc.coordinate_has_valid_offset(&coord).then(|| {
                let word = (offset as i128 * o.element_bytes as i128).div_euclid(4);
                word.rem_euclid(o.banks as i128) as u32
            });
            out.push(Cell { row, col, offset, bank });
        }
    }
    Ok(out)
}

/// Draws the grid as an SVG document.
///
/// ```
/// use cktile::render::svg::grid::{grid, GridOptions};
/// let d = cktile::layouts::ck::xor_preshuffle(8, 64, 8)?;
/// let svg = grid(&d, &GridOptions::new("ck-xor-preshuffle:m=8,k=64", 2, 32))?;
/// assert_eq!(svg.matches("class=\"cell\"").count(), 8 * 64);
/// // Row 1 starts with the second 8-element vector: offset 72, bank (72 * 2 / 4) % 32 = 4.
/// assert!(svg.contains("data-row=\"1\" data-col=\"0\" data-offset=\"72\" data-bank=\"4\""));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn grid(desc: &Descriptor, o: &GridOptions) -> Result<String, Error> {
    let shape = Shape::new(desc, o)?;
    let cells = cells(desc, o)?;
    if cells.len() > RASTER_CELLS {
        return compact(desc, o, &shape, &cells);
    }
    let two_d = desc.lengths().len() == 2;
    let widest = cells
        .iter()
        .map(|c| if c.bank.is_some() { c.offset.to_string() } else { format!("[{}]", c.offset) })
        .map(|s| text_width(&s, 11))
        .max()
        .unwrap_or(10);
    let cell_w = (widest + 8).max(28);
    let grid_w = LEFT + cell_w * shape.shown_cols as u32;
    let grid_bottom = TOP + CELL_H * shape.shown_rows as u32;

    // Legend geometry: one swatch per bank, wrapped to rows of 32.
    let per_row = o.banks.min(32);
    let legend_rows = swatch_rows(o.banks, per_row);
    let legend_w = 110 + per_row * SWATCH;
    let subtitle = format!(
        "offset of every coordinate ({}); colour and lower number: bank = (offset x {} bytes / 4) mod {}",
        if two_d { "row = dimension 0, column = dimension 1" } else { "dimension 0" },
        o.element_bytes,
        o.banks
    );
    let width = (grid_w + 16).max(legend_w + 16).max(text_width(&o.title, 16) + 32).max(text_width(&subtitle, 11) + 32);
    let legend_top = grid_bottom + 34;
    let height = legend_top + legend_rows * (SWATCH + 4) + 46;

    let mut svg = Svg::new(width, height, &format!("Layout grid: {}", o.title));
    heading(&mut svg, desc, o, &shape, &subtitle);
    axes(&mut svg, TOP, cell_w, shape.shown_rows, shape.shown_cols, if two_d { "d0=" } else { "" });
    for cell in &cells {
        draw_cell(&mut svg, cell, cell_w, o.banks);
    }
    legend(&mut svg, legend_top, o.banks, per_row, legend_rows, CELL_NOTE);
    Ok(svg.finish())
}

/// The top of the cells.
const TOP: u32 = 84;

/// The most cells a grid draws one element each (with its numbers); past
/// it, the grid draws them as one image, a 128 x 128 tile in about 31 KB
/// rather than 770.
pub const RASTER_CELLS: usize = 4096;

/// A compact cell's side in pixels.
const PIXEL: u32 = 6;

/// A grid past [`RASTER_CELLS`]: the cells as one embedded PNG, one pixel
/// per cell coloured by bank (padding grey), scaled `PIXEL` times without
/// smoothing, with every 16th row and column labelled and the bank legend
/// under it. The numbers are left out: `cktile offsets` prints them.
fn compact(desc: &Descriptor, o: &GridOptions, shape: &Shape, cells: &[Cell]) -> Result<String, Error> {
    let (rows, cols) = (shape.shown_rows, shape.shown_cols);
    let banks = o.banks.clamp(1, 255);
    let mut palette: Vec<[u8; 3]> = (0..banks).map(|b| raster::rgb(&bank_colour(b, banks))).collect();
    palette.push(raster::rgb(PADDING));
    let mut pixels = alloc::vec![banks as u8; rows * cols];
    for c in cells {
        if let Some(p) = pixels.get_mut(c.row * cols + c.col) {
            *p = c.bank.map_or(banks as u8, |b| (b % banks) as u8);
        }
    }
    let image = raster::png(cols as u32, rows as u32, &palette, &pixels)?;
    let (grid_w, grid_h) = (PIXEL * cols as u32, PIXEL * rows as u32);
    let per_row = banks.min(32);
    let legend_rows = swatch_rows(banks, per_row);
    let subtitle = format!(
        "bank of every coordinate, one square each (row = dimension 0, column = dimension 1): (offset x {} bytes / 4) \
         mod {}; grey = padding; past {RASTER_CELLS} cells the numbers are left out (cktile offsets prints them)",
        o.element_bytes, banks
    );
    let width = (LEFT + grid_w + 16).max(110 + per_row * SWATCH + 16).max(text_width(&subtitle, 11) + 32);
    let legend_top = TOP + grid_h + 34;
    let height = legend_top + legend_rows * (SWATCH + 4) + 46;
    let mut svg = Svg::new(width, height, &format!("Layout grid: {}", o.title));
    heading(&mut svg, desc, o, shape, &subtitle);
    for c in (0..cols).step_by(16) {
        let x = (LEFT + PIXEL * c as u32) as i64;
        svg.text(x, (TOP - 4) as i64, &c.to_string(), 9, Anchor::Start, &[("fill", "#444444")]);
    }
    for r in (0..rows).step_by(16) {
        let y = (TOP + PIXEL * r as u32 + 8) as i64;
        svg.text((LEFT - 6) as i64, y, &format!("d0={r}"), 10, Anchor::End, &[("fill", "#444444")]);
    }
    let (r, c, b) = (rows.to_string(), cols.to_string(), banks.to_string());
    let attrs = [("class", "cells"), ("data-rows", r.as_str()), ("data-cols", c.as_str()), ("data-banks", b.as_str())];
    svg.image(LEFT as i64, TOP as i64, grid_w, grid_h, &raster::data_uri(&image), &attrs);
    legend(
        &mut svg,
        legend_top,
        banks,
        per_row,
        legend_rows,
        "Each square: one coordinate, coloured by its bank; grey squares are padding.",
    );
    Ok(svg.finish())
}

/// The picture's description, title, subtitle and the line saying what is
/// shown (the lengths, or which rows and columns when some are left out).
fn heading(svg: &mut Svg, desc: &Descriptor, o: &GridOptions, shape: &Shape, subtitle: &str) {
    svg.describe(&format!(
        "Offsets and banks of a {} descriptor with lengths {:?}, {} byte elements, {} banks of 4 bytes",
        if desc.lengths().len() == 2 { "2-D" } else { "1-D" },
        desc.lengths().as_slice(),
        o.element_bytes,
        o.banks
    ));
    svg.text(16, 24, &o.title, 16, Anchor::Start, &[("font-weight", "bold"), ("class", "title")]);
    svg.text(16, 44, subtitle, 11, Anchor::Start, &[]);
    let shown = if shape.cut() {
        format!(
            "showing rows 0-{} of {}, columns 0-{} of {}; element space {}",
            shape.shown_rows - 1,
            shape.rows,
            shape.shown_cols - 1,
            shape.cols,
            desc.element_space_size()
        )
    } else {
        format!("lengths {:?}, element space {}", desc.lengths().as_slice(), desc.element_space_size())
    };
    svg.text(16, 60, &shown, 11, Anchor::Start, &[]);
}

/// One cell: its rectangle in its bank's colour (grey for padding) with
/// its data attributes, the offset above and the bank below.
fn draw_cell(svg: &mut Svg, cell: &Cell, cell_w: u32, banks: u32) {
    let x = (LEFT + cell_w * cell.col as u32) as i64;
    let y = (TOP + CELL_H * cell.row as u32) as i64;
    let (fill, main, sub) = match cell.bank {
        Some(b) => (bank_colour(b, banks), cell.offset.to_string(), format!("b{b}")),
        None => (String::from(PADDING), format!("[{}]", cell.offset), String::from("pad")),
    };
    let (row, col, off) = (cell.row.to_string(), cell.col.to_string(), cell.offset.to_string());
    let bank = cell.bank.map_or(String::from("pad"), |b| b.to_string());
    svg.rect(
        x,
        y,
        cell_w,
        CELL_H,
        &fill,
        &[("class", "cell"), ("data-row", &row), ("data-col", &col), ("data-offset", &off), ("data-bank", &bank)],
    );
    labels(svg, x, y, cell_w, &fill, (&main, "offset"), (&sub, "bank"));
}

/// The bank colours from height `top`, `per_row` swatches a row over
/// `legend_rows` rows, and the note on reading a cell under them.
fn legend(svg: &mut Svg, top: u32, banks: u32, per_row: u32, legend_rows: u32, note: &str) {
    let heading = "Legend: bank colours (same colour = same bank)";
    swatches(svg, top, banks, per_row, heading, "bank", |b| bank_colour(b, banks));
    let note_y = top + legend_rows * (SWATCH + 4) + 20;
    svg.text(16, note_y as i64, note, 11, Anchor::Start, &[]);
}

/// The note under a grid drawn cell by cell.
const CELL_NOTE: &str = "Each cell: offset (upper number) and bank (b..); grey cells are padding, offset in brackets.";
