//! The transform-chain diagram: a descriptor's levels of dimensions and,
//! between them, each stage's transforms as boxes wired to the dimensions
//! they read and produce (CK Tile's hidden-dimension graph, drawn).
//!
//! The top row is the top (user) coordinate, level 0, the bottom row the
//! single memory offset (levels are numbered as `cktile offsets --at`
//! prints them). Between two rows of dimensions sit the transforms of one
//! stage: a wire enters a box from each upper dimension it consumes and
//! leaves it to each lower dimension it produces, with the transform's own
//! port numbers (`u0`, `u1`, ... above the box, `l0`, ... below), so swapped
//! id lists such as `xor((64,8)) on [1,0] -> [1,0]` are visible as crossed
//! wires.

use super::palette::kind_colour;
use super::writer::{Anchor, Svg, text_width};
use crate::{Descriptor, Item};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

const LEFT: u32 = 130;
const GAP: u32 = 28;
const DIM_H: u32 = 32;
const ITEM_H: u32 = 38;
const BAND: u32 = 70;
/// The y of the top row (below the title, subtitle and base line).
const TOP: u32 = 82;

/// A placed box: left x and width.
#[derive(Clone, Copy)]
struct Slot {
    x: u32,
    w: u32,
}

impl Slot {
    fn centre(&self) -> i64 {
        (self.x + self.w / 2) as i64
    }
    /// The x of port `j` of `n` along the box's edge.
    fn port(&self, j: usize, n: usize) -> i64 {
        (self.x + self.w * (2 * j as u32 + 1) / (2 * n.max(1) as u32)) as i64
    }
}

/// The width of a row of boxes of the given widths, `GAP` apart.
fn row_width(widths: &[u32]) -> u32 {
    widths.iter().sum::<u32>() + GAP * widths.len().saturating_sub(1) as u32
}

/// Lays boxes of the given widths out in a row centred on `centre`.
fn place(widths: &[u32], centre: u32) -> Vec<Slot> {
    let mut x = centre.saturating_sub(row_width(widths) / 2);
    widths
        .iter()
        .map(|&w| {
            let s = Slot { x, w };
            x += w + GAP;
            s
        })
        .collect()
}

/// The width of a dimension's box.
fn dim_width(len: i64) -> u32 {
    (text_width(&format!("len {len}"), 10) + 14).max(54)
}

/// The width of a transform's box: its two lines of text and a margin.
fn item_width((transform, ids): &(String, String)) -> u32 {
    text_width(transform, 11).max(text_width(ids, 10)) + 18
}

/// The lengths of every level: `levels[k]` is the lower side of stage `k`,
/// and the last is the top.
fn level_lengths(desc: &Descriptor) -> Vec<Vec<i64>> {
    let stages = desc.stages();
    let mut levels: Vec<Vec<i64>> = stages.iter().map(|s| s.lower_lengths().as_slice().to_vec()).collect();
    if let Some(top) = stages.last() {
        levels.push(top.upper_lengths().as_slice().to_vec());
    }
    levels
}

/// An item's two lines: its transform (`xor((64,8))`) and its id lists
/// (`on [1,0] -> [1,0]`).
fn item_text(item: &Item) -> (String, String) {
    let transform = item.transform().to_string();
    let full = item.to_string();
    let ids = full.strip_prefix(&transform).unwrap_or("").trim_start().to_string();
    (transform, ids)
}

/// Each stage's items as [`item_text`] writes them.
fn item_texts(desc: &Descriptor) -> Vec<Vec<(String, String)>> {
    desc.stages().iter().map(|s| s.items().iter().map(item_text).collect()).collect()
}

/// The picture's width: the content's, or the widest line of the header.
fn picture_width(content_w: u32, desc: &Descriptor, title: &str) -> u32 {
    (LEFT + content_w + 24)
        .max(text_width(title, 16) + 32)
        .max(text_width(SUBTITLE, 11) + 32)
        .max(text_width(&origin_text(desc), 11) + 32)
}

/// Draws the chain of `desc` as an SVG document titled `title`.
///
/// ```
/// use cktile::render::svg::chain::chain;
/// let d = cktile::spec::parse("packed((4,8)) | transform(merge((4,8)) on [0,1] -> [0])")?;
/// let svg = chain(&d, "merge");
/// // Levels: the offset, (4, 8), then the merged 32; two stages of one transform each.
/// assert_eq!(svg.matches("class=\"dim\"").count(), 1 + 2 + 1);
/// assert_eq!(svg.matches("class=\"transform\"").count(), 2);
/// assert!(svg.contains(">merge((4,8))</text>"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn chain(desc: &Descriptor, title: &str) -> String {
    let layout = Layout::new(desc, title);
    let mut svg = layout.frame(desc, title);
    // Wires first, so boxes draw over their ends.
    layout.wires(desc, &mut svg);
    layout.levels(&mut svg);
    layout.stages(desc, &mut svg);
    svg.finish()
}

const SUBTITLE: &str =
    "top to bottom: top coordinate, stages of transforms, memory offset; u/l: a transform's upper/lower ports";

/// Where everything goes: the rows of dimensions (levels) and of
/// transforms (stages), each box placed, and the picture's size.
struct Layout {
    /// Stages of the descriptor (base stages included).
    n: usize,
    /// `levels[k]`: the lengths on the lower side of stage `k` (`k = n`: the top).
    levels: Vec<Vec<i64>>,
    /// Each item's transform text and its id lists, per stage.
    item_text: Vec<Vec<(String, String)>>,
    /// The placed boxes of each level's dimensions and each stage's items.
    dims: Vec<Vec<Slot>>,
    items: Vec<Vec<Slot>>,
    width: u32,
}

impl Layout {
    fn new(desc: &Descriptor, title: &str) -> Layout {
        let levels = level_lengths(desc);
        let item_text = item_texts(desc);
        let dim_widths: Vec<Vec<u32>> = levels.iter().map(|l| l.iter().map(|&len| dim_width(len)).collect()).collect();
        let item_widths: Vec<Vec<u32>> = item_text.iter().map(|items| items.iter().map(item_width).collect()).collect();
        let content_w = dim_widths.iter().chain(&item_widths).map(|ws| row_width(ws)).max().unwrap_or(100).max(200);
        let centre = LEFT + content_w / 2;
        Layout {
            n: desc.stages().len(),
            levels,
            item_text,
            dims: dim_widths.iter().map(|ws| place(ws, centre)).collect(),
            items: item_widths.iter().map(|ws| place(ws, centre)).collect(),
            width: picture_width(content_w, desc, title),
        }
    }

    /// Row y of level `k` (`k = n` at the top).
    fn level_y(&self, k: usize) -> u32 {
        TOP + (self.n - k) as u32 * (DIM_H + ITEM_H + 2 * BAND)
    }

    /// Row y of stage `k`'s transforms.
    fn stage_y(&self, k: usize) -> u32 {
        self.level_y(k + 1) + DIM_H + BAND
    }

    /// The document with its title, subtitle, base line and description.
    fn frame(&self, desc: &Descriptor, title: &str) -> Svg {
        let height = self.level_y(0) + DIM_H + 34;
        let mut svg = Svg::new(self.width, height, &format!("Transform chain: {title}"));
        svg.describe(&format!(
            "The descriptor's {} stages from the top coordinate (lengths {:?}) down to the offset (element space {}).",
            self.n,
            desc.lengths().as_slice(),
            desc.element_space_size()
        ));
        svg.text(16, 24, title, 16, Anchor::Start, &[("font-weight", "bold"), ("class", "title")]);
        svg.text(16, 44, SUBTITLE, 11, Anchor::Start, &[]);
        svg.text(16, 60, &origin_text(desc), 11, Anchor::Start, &[("fill", "#444444")]);
        svg
    }

    /// A wire from each upper dimension into its port on the item's box, and
    /// from each lower port to its dimension, with the port names.
    fn wires(&self, desc: &Descriptor, svg: &mut Svg) {
        for (k, stage) in desc.stages().iter().enumerate() {
            for (i, it) in stage.items().iter().enumerate() {
                self.wires_in(k, self.items[k][i], it, svg);
                self.wires_out(k, self.items[k][i], it, svg);
            }
        }
    }

    /// The wires of stage `k`'s item in box `slot` from the upper
    /// dimensions it reads, port `uj` for its `j`-th.
    fn wires_in(&self, k: usize, slot: Slot, it: &Item, svg: &mut Svg) {
        let (up, nu) = it.upper().to_array();
        for (j, &d) in up[..nu].iter().enumerate() {
            if let Some(from) = self.dims[k + 1].get(d) {
                let (x2, y2) = (slot.port(j, nu), self.stage_y(k) as i64);
                let y1 = (self.level_y(k + 1) + DIM_H) as i64;
                svg.wire(from.centre(), y1, x2, y2, "#333333", &[("class", "wire")]);
                svg.text(x2 + 3, y2 - 4, &format!("u{j}"), 9, Anchor::Start, &[("fill", "#0072b2")]);
            }
        }
    }

    /// The wires of stage `k`'s item in box `slot` to the lower dimensions
    /// it produces, port `lj` for its `j`-th.
    fn wires_out(&self, k: usize, slot: Slot, it: &Item, svg: &mut Svg) {
        let (low, nl) = it.lower().to_array();
        for (j, &d) in low[..nl].iter().enumerate() {
            if let Some(to) = self.dims[k].get(d) {
                let (x1, y1) = (slot.port(j, nl), (self.stage_y(k) + ITEM_H) as i64);
                svg.wire(x1, y1, to.centre(), self.level_y(k) as i64, "#333333", &[("class", "wire")]);
                svg.text(x1 + 3, y1 + 11, &format!("l{j}"), 9, Anchor::Start, &[("fill", "#d55e00")]);
            }
        }
    }

    /// The rows of dimensions, numbered from the top as `cktile offsets
    /// --at` prints them.
    fn levels(&self, svg: &mut Svg) {
        for (k, lengths) in self.levels.iter().enumerate() {
            let y = self.level_y(k);
            svg.text(16, (y + 20) as i64, &self.level_label(k), 11, Anchor::Start, &[("font-weight", "bold")]);
            for (d, &len) in lengths.iter().enumerate() {
                self.dim_box(k, d, len, svg);
            }
        }
    }

    /// Level `k`'s label: `level 0: top`, `level N: offset` or `level K`.
    fn level_label(&self, k: usize) -> String {
        let n = self.n;
        if k == n {
            String::from("level 0: top")
        } else if k == 0 {
            format!("level {n}: offset")
        } else {
            format!("level {}", n - k)
        }
    }

    /// Dimension `d` of level `k`, of length `len`: its box, name and length.
    fn dim_box(&self, k: usize, d: usize, len: i64, svg: &mut Svg) {
        let (s, y) = (self.dims[k][d], self.level_y(k));
        let (level_s, dim_s, len_s) = ((self.n - k).to_string(), d.to_string(), len.to_string());
        svg.rounded(
            s.x as i64,
            y as i64,
            s.w,
            DIM_H,
            "#ffffff",
            &[("class", "dim"), ("data-level", &level_s), ("data-dim", &dim_s), ("data-len", &len_s)],
        );
        let name = if k == 0 { String::from("offset") } else { format!("d{d}") };
        svg.text(s.centre(), (y + 13) as i64, &name, 10, Anchor::Middle, &[("font-weight", "bold")]);
        svg.text(s.centre(), (y + 26) as i64, &format!("len {len}"), 10, Anchor::Middle, &[]);
    }

    /// Each stage's transforms as boxes coloured by kind.
    fn stages(&self, desc: &Descriptor, svg: &mut Svg) {
        let n_base = self.n - desc.transform_stages().len();
        for (k, stage) in desc.stages().iter().enumerate() {
            let label = if k < n_base { String::from("base") } else { format!("stage {}", k - n_base + 1) };
            svg.text(16, (self.stage_y(k) + 22) as i64, &label, 11, Anchor::Start, &[("fill", "#444444")]);
            for (i, it) in stage.items().iter().enumerate() {
                self.item_box(k, i, it, svg);
            }
        }
    }

    /// Item `i` of stage `k`: its box, coloured by kind, with its transform
    /// and id lists.
    fn item_box(&self, k: usize, i: usize, it: &Item, svg: &mut Svg) {
        let (s, y) = (self.items[k][i], self.stage_y(k));
        let (stage_s, item_s) = (k.to_string(), i.to_string());
        let kind = it.transform().kind();
        svg.rounded(
            s.x as i64,
            y as i64,
            s.w,
            ITEM_H,
            kind_colour(kind),
            &[("class", "transform"), ("data-stage", &stage_s), ("data-item", &item_s), ("data-kind", kind.name())],
        );
        let (t, ids) = &self.item_text[k][i];
        svg.text(s.centre(), (y + 16) as i64, t, 11, Anchor::Middle, &[("font-weight", "bold")]);
        svg.text(s.centre(), (y + 30) as i64, ids, 10, Anchor::Middle, &[]);
    }
}

/// The base line: `base: naive(...)`.
fn origin_text(desc: &Descriptor) -> String {
    format!("base: {}", desc.origin())
}
