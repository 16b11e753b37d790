//! Tile distributions as text: the lengths, the X coordinate of every
//! (P..., Y...) index and, for a 2-D X, the grid of owners (what
//! `cktile distribution` prints).

use crate::distribution::Distribution;
use crate::distribution::catalogue::transpose::{TrElement, Verdict};
use crate::lanes::Table;
use crate::lanes::coverage::Coverage;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt::Write;

/// The largest X0 x X1 grid drawn.
const GRID_ROWS: i64 = 256;
const GRID_COLS: i64 = 64;

fn tuple(values: &[i64]) -> String {
    let parts: Vec<String> = values.iter().map(|v| format!("{v}")).collect();
    format!("({})", parts.join(","))
}

/// The lines `cktile distribution --compose LAYOUT` adds: the
/// distribution composed with the layout
/// ([`Distribution::compose_descriptor`]), the descriptor over
/// (P..., Y...) each lane's element offsets come from, as a spec that
/// pastes into `cktile offsets`, `check` or `codegen`.
///
/// ```
/// use cktile::distribution::{catalogue, Distribution};
/// let d = Distribution::new(catalogue::mfma_a(16, 16)?)?;
/// let lanes = d.compose_descriptor(&cktile::Descriptor::packed(&[16, 16])?)?;
/// let text = cktile::render::distribution::composed("packed((16,16))", &lanes);
/// assert!(text.starts_with("\nComposed with packed((16,16)): the offset of every (P..., Y...), a descriptor of lengths (64,4):\n"));
/// assert!(text.ends_with(&format!("{lanes}\n")));
/// // User text is shown, never obeyed: a terminal escape in a comment is spelled out.
/// assert!(cktile::render::distribution::composed("packed((16,16)) # \u{1b}[31m", &lanes).contains("# \\u{1b}[31m:"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn composed(layout: &str, descriptor: &crate::Descriptor) -> String {
    // The layout as the user wrote it: a comment may hold anything, so
    // control characters are spelled out (`\u{1b}`), as in every message.
    format!(
        "\nComposed with {}: the offset of every (P..., Y...), a descriptor of lengths {}:\n{descriptor}\n",
        crate::Visible(layout),
        tuple(descriptor.lengths().as_slice())
    )
}

/// The text report of `d`, its enumeration `t` and its coverage `c`.
///
/// ```
/// use cktile::distribution::{catalogue, Distribution};
/// use cktile::lanes::{coverage::Coverage, Table};
/// let d = Distribution::new(catalogue::mfma_a(16, 16)?)?;
/// let text = cktile::render::distribution::distribution(&d, &Table::new(&d)?, &Coverage::new(&d, None)?);
/// assert!(text.lines().nth(1).is_some_and(|l| l.starts_with("distribution(r(), h((16), (4, 4))")));
/// assert!(text.contains("P (21): (5,4) (5,5) (5,6) (5,7)"));
/// assert!(text.contains(" 5 |  5:0  5:1  5:2  5:3 21:0 21:1 21:2 21:3"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn distribution(d: &Distribution, t: &Table, c: &Coverage) -> String {
    let mut out = summary(d, c);
    let p = d.p_lengths();
    let _ = writeln!(out, "\nX of every (P..., Y...): one line per P, its Ys in thread-buffer order (D = 0, 1, ...)");
    let per_p = d.d_length() as usize;
    let ps = t.len().checked_div(per_p).unwrap_or(0);
    let mut p_index = vec![0i64; p.len()];
    let mut labels = Vec::with_capacity(ps);
    for block in 0..ps {
        let label = tuple(&p_index);
        let xs: Vec<String> = (0..per_p).map(|i| tuple(t.x(block * per_p + i))).collect();
        let _ = writeln!(out, "P {label}: {}", xs.join(" "));
        labels.push(p_index.iter().map(|v| format!("{v}")).collect::<Vec<_>>().join("."));
        for dim in (0..p.len()).rev() {
            p_index[dim] += 1;
            if p_index[dim] < p.get(dim) {
                break;
            }
            p_index[dim] = 0;
        }
    }
    let Some(g) = OwnerGrid::new(d, t) else { return out };
    let (rows, cols) = (g.rows as i64, g.cols as i64);
    if rows > GRID_ROWS || cols > GRID_COLS {
        let _ =
            writeln!(out, "\n(the owner grid is drawn for X up to {GRID_ROWS}x{GRID_COLS}; this X is {rows}x{cols})");
        return out;
    }
    let grid: Vec<Option<String>> = g.owners.iter().map(|o| o.map(|o| format!("{}:{}", labels[o.p], o.d))).collect();
    let width = grid.iter().flatten().map(|s| s.len()).max().unwrap_or(1).max(format!("{}", cols - 1).len());
    let row_width = format!("{}", rows - 1).len();
    let _ = writeln!(out, "\nOwner of each X (row X0, column X1) as P:D");
    let _ = write!(out, "{:>row_width$} |", "");
    for c in 0..cols {
        let _ = write!(out, " {c:>width$}");
    }
    let _ = writeln!(out);
    for r in 0..rows {
        let _ = write!(out, "{r:>row_width$} |");
        for c in 0..cols {
            let cell = grid[(r * cols + c) as usize].as_deref().unwrap_or("-");
            let _ = write!(out, " {cell:>width$}");
        }
        let _ = writeln!(out);
    }
    let max = g.copies.iter().copied().max().unwrap_or(0);
    if max > 1 {
        let _ = writeln!(out, "(each element is held by up to {max} threads (R); the first is shown)");
    }
    out
}

/// The head of [`distribution`]'s report: both spellings, the lengths and
/// the coverage line (what `cktile distribution --brief` prints).
///
/// ```
/// use cktile::distribution::{catalogue, Distribution};
/// use cktile::lanes::coverage::Coverage;
/// let d = Distribution::new(catalogue::by_name("warp_raked_256x128x32_v8")?)?;
/// let text = cktile::render::distribution::summary(&d, &Coverage::new(&d, Some(&[128, 32]))?);
/// assert_eq!(text.lines().count(), 4);
/// assert!(text.ends_with("Coverage of the tile (128,32): every element is held once\n"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn summary(d: &Distribution, c: &Coverage) -> String {
    let mut out = String::new();
    let e = d.encoding();
    let (x, p, y, r) = (d.x_lengths(), d.p_lengths(), d.y_lengths(), e.rs_lengths());
    let _ = writeln!(out, "{e}");
    let _ = writeln!(out, "{}", e.compact());
    let _ = writeln!(
        out,
        "X lengths {}, P lengths {}, Y lengths {}, R lengths {}; {} elements per thread",
        tuple(x.as_slice()),
        tuple(p.as_slice()),
        tuple(y.as_slice()),
        tuple(r.as_slice()),
        d.d_length()
    );
    let _ = writeln!(out, "{}", coverage(c));
    out
}

/// The first owner of one element: which P (its number in row-major order
/// over the P lengths) and which thread-buffer index D.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Owner {
    /// The P index, numbered row-major over the P lengths (the last P fastest).
    pub p: usize,
    /// The thread-buffer index.
    pub d: i64,
}

/// Who owns each element of a 2-D X: what the text report's grid and the
/// SVG owner grid both draw.
///
/// ```
/// use cktile::distribution::{catalogue, Distribution};
/// use cktile::lanes::Table;
/// use cktile::render::distribution::OwnerGrid;
/// let d = Distribution::new(catalogue::mfma_a(16, 16)?)?;
/// let g = OwnerGrid::new(&d, &Table::new(&d)?).unwrap();
/// assert_eq!((g.rows, g.cols), (16, 16));
/// assert_eq!(g.owner(5, 6).map(|o| (o.p, o.d)), Some((21, 2))); // lane 21, register 2
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnerGrid {
    /// X0's length.
    pub rows: usize,
    /// X1's length.
    pub cols: usize,
    /// Row-major over (X0, X1): the first owner of each element.
    pub owners: Vec<Option<Owner>>,
    /// Row-major over (X0, X1): how many (P, Y) hold each element.
    pub copies: Vec<usize>,
}

impl OwnerGrid {
    /// The grid of `d` from its enumeration `t`, or `None` when X is not 2-D.
    ///
    /// ```
    /// use cktile::distribution::{catalogue, Distribution};
    /// use cktile::lanes::Table;
    /// use cktile::render::distribution::OwnerGrid;
    /// let d = Distribution::new(catalogue::mfma_c(32, 8)?)?;
    /// let g = OwnerGrid::new(&d, &Table::new(&d)?).unwrap();
    /// assert!(g.copies.iter().all(|&c| c == 1));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn new(d: &Distribution, t: &Table) -> Option<OwnerGrid> {
        let x = d.x_lengths();
        if x.len() != 2 {
            return None;
        }
        let (rows, cols) = (x.get(0) as usize, x.get(1) as usize);
        let per_p = (d.d_length() as usize).max(1);
        let mut owners = vec![None; rows * cols];
        let mut copies = vec![0usize; rows * cols];
        for i in 0..t.len() {
            let xs = t.x(i);
            let cell = xs[0] as usize * cols + xs[1] as usize;
            copies[cell] += 1;
            if owners[cell].is_none() {
                owners[cell] = Some(Owner { p: i / per_p, d: t.d(i) });
            }
        }
        Some(OwnerGrid { rows, cols, owners, copies })
    }

    /// The first owner of `(row, col)`.
    ///
    /// ```
    /// use cktile::distribution::{catalogue, Distribution};
    /// use cktile::lanes::Table;
    /// use cktile::render::distribution::OwnerGrid;
    /// let d = Distribution::new(catalogue::mfma_a(32, 8)?)?;
    /// let g = OwnerGrid::new(&d, &Table::new(&d)?).unwrap();
    /// assert_eq!(g.owner(1, 7), Some(cktile::render::distribution::Owner { p: 33, d: 3 }));
    /// assert_eq!(g.owner(32, 0), None);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn owner(&self, row: usize, col: usize) -> Option<Owner> {
        if row >= self.rows || col >= self.cols {
            return None;
        }
        self.owners[row * self.cols + col]
    }
}

/// "n time(s)" in words for the small counts.
fn times(n: u128) -> String {
    match n {
        1 => "once".into(),
        2 => "twice".into(),
        _ => format!("{n} times"),
    }
}

/// One sentence on how a distribution covers its tile: complete or not
/// (what is missing, what lies outside, the first of each), and how often
/// and through which P steps each held element is replicated.
///
/// ```
/// use cktile::distribution::{catalogue, Distribution};
/// use cktile::lanes::coverage::Coverage;
/// use cktile::render::distribution::coverage;
/// let d = Distribution::new(catalogue::by_name("wmma16x16x16_gfx11_a")?)?;
/// assert_eq!(
///     coverage(&Coverage::new(&d, None)?),
///     "Coverage: every element of X (16,16) is held twice, once per index of R0 (length 2: P0 in steps of 16, \
///      so P0 = p and p + 16 hold the same elements)"
/// );
/// let d = Distribution::new(catalogue::by_name("mfma16x16x16_c")?)?;
/// assert_eq!(
///     coverage(&Coverage::new(&d, Some(&[32, 16]))?),
///     "Coverage of the tile (32,16): NOT COMPLETE: 256 of its 512 elements (50.0%) are held by no thread, \
///      the first (16,0); X is (16,16); every held element is held once"
/// );
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn coverage(c: &Coverage) -> String {
    let x = tuple(c.x_lengths());
    let mut out = if !c.is_of_given_tile() {
        format!("Coverage: every element of X {x} is held")
    } else {
        let mut s = format!("Coverage of the tile {}: ", tuple(c.tile()));
        if c.is_complete() {
            s.push_str("every element is held");
        } else {
            s.push_str("NOT COMPLETE: ");
            let mut parts = Vec::new();
            if let Some(first) = c.first_missing() {
                let share = c.missing() as f64 * 100.0 / c.elements() as f64;
                parts.push(format!(
                    "{} of its {} elements ({share:.1}%) are held by no thread, the first {}",
                    c.missing(),
                    c.elements(),
                    tuple(first)
                ));
            }
            if let Some(first) = c.first_outside() {
                parts.push(format!("{} held elements lie outside it, the first {}", c.outside(), tuple(first)));
            }
            parts.push(format!("X is {x}; every held element is held"));
            s.push_str(&parts.join("; "));
        }
        s
    };
    let _ = write!(out, " {}", times(c.replication()));
    if c.replicas().is_empty() {
        return out;
    }
    let per: Vec<String> = c
        .replicas()
        .iter()
        .map(|r| {
            let steps = if r.stride == 1 { String::new() } else { format!(" in steps of {}", r.stride) };
            let same = match r.length {
                2 => format!("p and p + {}", r.stride),
                n => format!("p, p + {}, ..., p + {}", r.stride, (n - 1) * r.stride),
            };
            format!("R{} (length {}: P{}{steps}, so P{} = {same} hold the same elements)", r.r, r.length, r.p, r.p)
        })
        .collect();
    let _ = write!(out, ", once per index of {}", per.join(" and "));
    out
}

/// The answer of `cktile transpose-load`: whether CK's `load_tile_transpose`
/// (or, `reverse`, its `InputTileDistributionTraits`) accepts the
/// distribution for `elem`'s transposing read, with the lane group size
/// and the resulting distribution's head ([`summary`]), or each lane group
/// size's first broken rule.
///
/// ```
/// use cktile::spelling::resolve;
/// use cktile::distribution::Distribution;
/// use cktile::lanes::coverage::Coverage;
/// use cktile::distribution::catalogue::transpose::{transpose, TrElement};
/// let e = resolve("tile_distribution_encoding<sequence<>, tuple<sequence<1, 1, 4>, sequence<1, 1, 1, 4, 4>>, \
///     tuple<sequence<1, 2, 2, 1, 2>>, tuple<sequence<0, 0, 2, 2, 3>>, sequence<2, 1, 2>, sequence<1, 1, 4>>")?;
/// let v = transpose(&e, TrElement::B16, false)?;
/// let text = cktile::render::distribution::transpose(&v, TrElement::B16, false)?;
/// assert!(text.starts_with("CK's load_tile_transpose accepts it with ds_read_b64_tr_b16, lane groups of 16"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn transpose(v: &Verdict, elem: TrElement, reverse: bool) -> Result<String, crate::Error> {
    let op = elem.op_name();
    let who = if reverse {
        "CK's InputTileDistributionTraits (load_tile_transpose's reverse direction)"
    } else {
        "CK's load_tile_transpose"
    };
    Ok(match v {
        Verdict::Accepted { lane_group, output } => {
            let d = Distribution::new(*output)?;
            let c = Coverage::new(&d, None)?;
            let what = if reverse {
                "The distribution to read with it, for these registers (TransposedDstrEncode):"
            } else {
                "The registers it returns (TransposedDstrEncode):"
            };
            format!("{who} accepts it with {op}, lane groups of {lane_group}.\n{what}\n{}", summary(&d, &c))
        }
        Verdict::Refused(why) => {
            let mut s = format!("{who} refuses it with {op}:\n");
            for r in why {
                let _ = writeln!(s, "  {r}");
            }
            s
        }
    })
}
