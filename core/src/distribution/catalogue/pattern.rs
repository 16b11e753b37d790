//! CK Tile's 2-D access patterns (`ck_tile/core/algorithm/static_encoding_pattern.hpp`,
//! `tile_distribution_encoding_pattern_2d`): the distribution CK builds for
//! `BlockSize` threads loading a `YPerTile x XPerTile` tile whose X is
//! contiguous, from a suggested vector size and a raking.
//!
//! CK splits X into `X0` lanes, `X1` elements per vector and `X2` vectors
//! per thread, and Y into three factors whose order is the raking: the
//! iteration after the thread (thread-raked), between warp and thread
//! (warp-raked), or before the warp (block-raked). [`Pattern2d::factors`]
//! computes them as CK does, refusing every case CK's `static_assert`s
//! refuse, with the value at fault; [`Pattern2d::encoding`] returns CK's
//! encoding for the regular, packed or shuffled distribution.
//!
//! ```
//! use cktile_core::distribution::{Distribution, catalogue::pattern::{Pattern2d, Raking, Variant}};
//! // CK's warp-raked A-tile load: 256 threads, 128 x 32 fp16, 8 per vector.
//! let p = Pattern2d::new(256, 128, 32, 8, Raking::Warp);
//! let f = p.factors()?;
//! assert_eq!((f.y0, f.y1, f.y2, f.x0, f.x1, f.x2), (4, 2, 16, 4, 8, 1));
//! let d = Distribution::new(p.encoding(Variant::Regular)?)?;
//! // Warp 1, lane 5, iteration 1, element 3: row 32 + 16 + 1, column 8 + 3.
//! assert_eq!(d.calculate_index(&[1, 5, 1, 3])?.as_slice(), &[49, 11]);
//! # Ok::<(), cktile_core::Error>(())
//! ```

use super::NameFamily;
use crate::distribution::Encoding;
use crate::error::{Error, ParameterProblem};

/// Where the Y iteration sits in the thread hierarchy: CK's
/// `tile_distribution_pattern`.
///
/// ```
/// use cktile_core::distribution::catalogue::pattern::Raking;
/// assert_eq!(Raking::Block.name(), "block_raked");
/// assert_eq!(Raking::from_name("warp_raked"), Some(Raking::Warp));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Raking {
    /// `thread_raked`: each thread's rows are consecutive (element-wise kernels).
    Thread,
    /// `warp_raked`: a warp's rows are consecutive, its lanes interleave
    /// across iterations (GEMM tile loads).
    Warp,
    /// `block_raked`: the whole block covers consecutive rows per iteration
    /// (reductions).
    Block,
}

impl Raking {
    /// Every raking, in CK's order.
    pub const ALL: [Raking; 3] = [Raking::Thread, Raking::Warp, Raking::Block];

    /// CK's enumerator name.
    ///
    /// ```
    /// assert_eq!(cktile_core::distribution::catalogue::pattern::Raking::Thread.name(), "thread_raked");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Raking::Thread => "thread_raked",
            Raking::Warp => "warp_raked",
            Raking::Block => "block_raked",
        }
    }

    /// The raking CK names `name`, if any.
    ///
    /// ```
    /// use cktile_core::distribution::catalogue::pattern::Raking;
    /// assert_eq!(Raking::from_name("thread_raked"), Some(Raking::Thread));
    /// assert_eq!(Raking::from_name("raked"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Raking> {
        Raking::ALL.into_iter().find(|r| r.name() == name)
    }
}

/// Which of CK's distributions of a pattern.
///
/// ```
/// use cktile_core::distribution::catalogue::pattern::{Pattern2d, Raking, Variant};
/// let p = Pattern2d::new(64, 64, 32, 4, Raking::Thread);
/// // X2 = 1: the packed distribution is the regular one, as in CK.
/// assert_eq!(p.encoding(Variant::Packed)?, p.encoding(Variant::Regular)?);
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// `make_2d_static_tile_distribution()`: X = (Y tile, X tile).
    Regular,
    /// `make_2d_static_tile_distribution<true>()` (thread-raked only): with
    /// X2 > 1, X2 rather than X1 is the thread buffer's fastest Y.
    Packed,
    /// `make_shuffled_2d_static_tile_distribution()`: the same threads with
    /// X = (X tile, Y tile), for a transposed store.
    Shuffled,
}

/// CK's factors of a pattern, as its `print` shows them: `<Y0, Y1, Y2>`
/// and `<X0, X1, X2>`.
///
/// ```
/// use cktile_core::distribution::catalogue::pattern::{Pattern2d, Raking};
/// // CK's own print test: thread-raked 64 threads, 8 x 16, vector 4.
/// let f = Pattern2d::new(64, 8, 16, 4, Raking::Thread).factors()?;
/// assert_eq!(([f.y0, f.y1, f.y2], [f.x0, f.x1, f.x2]), ([1, 8, 1], [8, 2, 1]));
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Factors {
    /// Warps in the block (`BlockSize / warp_size`).
    pub num_warps: usize,
    /// `(X * Y) / BlockSize`: the most elements one access may move.
    pub largest_vec: usize,
    /// Lanes along X.
    pub x0: usize,
    /// Elements per vector access.
    pub x1: usize,
    /// Vector accesses per thread along X.
    pub x2: usize,
    /// The first Y factor (warps for thread- and warp-raked; iterations for block-raked).
    pub y0: usize,
    /// The second Y factor.
    pub y1: usize,
    /// The third Y factor.
    pub y2: usize,
}

/// One of CK's `tile_distribution_encoding_pattern_2d<BlockSize, YPerTile,
/// XPerTile, VecSize, DistributionPattern, NumWaveGroups>`, with the warp
/// size CK's `get_warp_size()` returns on the target (64 on CDNA, 32 on
/// RDNA).
///
/// ```
/// use cktile_core::distribution::catalogue::pattern::{Pattern2d, Raking};
/// let p = Pattern2d::new(256, 16, 256, 2, Raking::Thread).wave_groups(2).warp_size(32);
/// assert_eq!((p.num_wave_groups, p.warp_size), (2, 32));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pattern2d {
    /// Threads in the block.
    pub block_size: usize,
    /// The tile's outer (row) length.
    pub y_per_tile: usize,
    /// The tile's contiguous (column) length.
    pub x_per_tile: usize,
    /// The suggested vector size in elements.
    pub vec_size: usize,
    /// The raking.
    pub raking: Raking,
    /// Wave groups (CK's `NumWaveGroups`); only the thread-raked pattern
    /// uses it, the others ignore it as CK does.
    pub num_wave_groups: usize,
    /// Lanes per warp: 64 (CDNA) or 32 (RDNA).
    pub warp_size: usize,
}

/// A refusal naming the pattern, the parameter and CK's rule.
const fn bad(raking: Raking, parameter: &'static str, value: usize, requirement: &'static str) -> Error {
    Error::parameter(ParameterProblem::invalid_usize(raking.name(), parameter, value, requirement))
}

/// The smaller of two sizes (in a `const fn`).
const fn min(a: usize, b: usize) -> usize {
    if a < b { a } else { b }
}

impl Pattern2d {
    /// A pattern with one wave group and 64-lane warps.
    ///
    /// ```
    /// use cktile_core::distribution::catalogue::pattern::{Pattern2d, Raking};
    /// assert_eq!(Pattern2d::new(256, 64, 64, 8, Raking::Block).warp_size, 64);
    /// ```
    pub const fn new(block_size: usize, y_per_tile: usize, x_per_tile: usize, vec_size: usize, raking: Raking) -> Self {
        Pattern2d { block_size, y_per_tile, x_per_tile, vec_size, raking, num_wave_groups: 1, warp_size: 64 }
    }

    /// The same pattern with `groups` wave groups.
    ///
    /// ```
    /// use cktile_core::distribution::catalogue::pattern::{Pattern2d, Raking};
    /// assert_eq!(Pattern2d::new(256, 64, 64, 8, Raking::Thread).wave_groups(2).num_wave_groups, 2);
    /// ```
    pub const fn wave_groups(mut self, groups: usize) -> Self {
        self.num_wave_groups = groups;
        self
    }

    /// The same pattern for `lanes`-lane warps.
    ///
    /// ```
    /// use cktile_core::distribution::catalogue::pattern::{Pattern2d, Raking};
    /// assert_eq!(Pattern2d::new(128, 64, 64, 8, Raking::Warp).warp_size(32).warp_size, 32);
    /// ```
    pub const fn warp_size(mut self, lanes: usize) -> Self {
        self.warp_size = lanes;
        self
    }

    /// CK's factors, or the first of CK's rules the parameters break.
    ///
    /// ```
    /// use cktile_core::distribution::catalogue::pattern::{Pattern2d, Raking};
    /// let e = Pattern2d::new(256, 16, 30, 4, Raking::Warp).factors().unwrap_err();
    /// assert_eq!(e.to_string(), "warp_raked: XPerTile = 30; XPerTile must be a multiple of VecSize");
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn factors(&self) -> Result<Factors, Error> {
        let r = self.raking;
        let warp = self.warp_size;
        if warp != 32 && warp != 64 {
            return Err(bad(r, "warp size", warp, "a warp has 64 lanes (CDNA) or 32 (RDNA)"));
        }
        if self.block_size == 0 || !self.block_size.is_multiple_of(warp) {
            let rule = if warp == 64 {
                "BlockSize must be a positive multiple of the warp size, 64"
            } else {
                "BlockSize must be a positive multiple of the warp size, 32"
            };
            return Err(bad(r, "BlockSize", self.block_size, rule));
        }
        if self.y_per_tile == 0 {
            return Err(bad(r, "YPerTile", 0, "the tile has at least one row"));
        }
        if self.vec_size == 0 {
            return Err(bad(r, "VecSize", 0, "a vector holds at least one element"));
        }
        if self.x_per_tile == 0 || !self.x_per_tile.is_multiple_of(self.vec_size) {
            return Err(bad(r, "XPerTile", self.x_per_tile, "XPerTile must be a multiple of VecSize"));
        }
        let num_warps = self.block_size / warp;
        let groups = self.num_wave_groups;
        let thread = matches!(r, Raking::Thread);
        if thread && (groups == 0 || !num_warps.is_multiple_of(groups)) {
            return Err(bad(r, "NumWaveGroups", groups, "NumWaveGroups must divide the block's warps"));
        }
        let largest_vec = match self.x_per_tile.checked_mul(self.y_per_tile) {
            Some(e) => e / self.block_size,
            None => 0,
        };
        if largest_vec == 0 {
            return Err(bad(r, "YPerTile", self.y_per_tile, "the tile must hold at least one element per thread"));
        }
        let x1 = min(self.vec_size, largest_vec);
        let x0 = min(warp, self.x_per_tile / x1);
        let x2 = self.x_per_tile / (x0 * x1);
        if x0 * x1 * x2 != self.x_per_tile {
            return Err(bad(r, "XPerTile", self.x_per_tile, "X0 * X1 * X2 must cover XPerTile"));
        }
        // Rows one warp covers in one access.
        let rows_per_warp = warp / x0;
        if x0 * rows_per_warp != warp {
            return Err(bad(r, "XPerTile", self.x_per_tile, "X0 lanes along X must divide the warp"));
        }
        let (y0, y1, y2) = match r {
            Raking::Thread => {
                let y0 = num_warps / groups;
                (y0, rows_per_warp, self.y_per_tile / (rows_per_warp * y0))
            }
            Raking::Warp => (num_warps, self.y_per_tile / (rows_per_warp * num_warps), rows_per_warp),
            Raking::Block => (self.y_per_tile / (rows_per_warp * num_warps), num_warps, rows_per_warp),
        };
        if y0 * y1 * y2 != self.y_per_tile {
            return Err(bad(r, "YPerTile", self.y_per_tile, "Y0 * Y1 * Y2 must cover YPerTile"));
        }
        Ok(Factors { num_warps, largest_vec, x0, x1, x2, y0, y1, y2 })
    }

    /// CK's encoding of the `variant` distribution, exactly as
    /// `static_encoding_pattern.hpp` writes it.
    ///
    /// ```
    /// use cktile_core::distribution::catalogue::pattern::{Pattern2d, Raking, Variant};
    /// let p = Pattern2d::new(256, 128, 32, 8, Raking::Warp);
    /// assert_eq!(
    ///     p.encoding(Variant::Regular)?.to_string(),
    ///     "tile_distribution_encoding<sequence<1>, tuple<sequence<4, 2, 16>, sequence<4, 8>>, \
    ///      tuple<sequence<1>, sequence<1, 2>>, tuple<sequence<0>, sequence<2, 0>>, sequence<1, 2>, sequence<1, 1>>"
    /// );
    /// assert!(p.encoding(Variant::Packed).unwrap_err().to_string().contains("only thread_raked"));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub fn encoding(&self, variant: Variant) -> Result<Encoding, Error> {
        let Factors { x0, x1, x2, y0, y1, y2, .. } = self.factors()?;
        if variant == Variant::Packed && self.raking != Raking::Thread {
            return Err(bad(self.raking, "Packed", 1, "only thread_raked has a packed distribution"));
        }
        let split = x2 > 1;
        let xs: &[usize] = if split { &[x0, x1, x2] } else { &[x0, x1] };
        let shuffled = variant == Variant::Shuffled;
        // The H groups of the tile's rows and columns: X = (rows, columns), or swapped when shuffled.
        let (rows, cols) = if shuffled { (2, 1) } else { (1, 2) };
        // With wave groups, CK makes the warp an R component: the rows are then (Y1, Y2).
        let grouped = self.raking == Raking::Thread && self.num_wave_groups != 1;
        // The rows' H components; the (major, minor) of the warp; the lane's row component; the iteration's.
        let (row_hs, warp, lane_row, iter): (&[usize], [usize; 2], usize, usize) = if grouped {
            (&[y1, y2], [0, 0], 0, 1)
        } else {
            let (w, l) = match self.raking {
                Raking::Thread => (0, 1),
                Raking::Warp => (0, 2),
                Raking::Block => (1, 2),
            };
            (&[y0, y1, y2], [rows, w], l, 3 - w - l)
        };
        let rs: &[usize] = if grouped { &[y0] } else { &[1] };
        let hs: [&[usize]; 2] = if shuffled { [xs, row_hs] } else { [row_hs, xs] };
        // The column Ys: X1, then X2 (packed, shuffled) or X2, then X1 (regular).
        let col_minors: &[usize] = match (variant, split) {
            (_, false) => &[1],
            (Variant::Regular, true) => &[2, 1],
            _ => &[1, 2],
        };
        // The Ys: the iteration first, or last when shuffled.
        let mut ys_major = [0; 3];
        let mut ys_minor = [0; 3];
        let n = 1 + col_minors.len();
        let first_col = usize::from(!shuffled);
        for (i, &m) in col_minors.iter().enumerate() {
            (ys_major[first_col + i], ys_minor[first_col + i]) = (cols, m);
        }
        let at = if shuffled { n - 1 } else { 0 };
        (ys_major[at], ys_minor[at]) = (rows, iter);
        Encoding::new(
            rs,
            &hs,
            &[&[warp[0]], &[rows, cols]],
            &[&[warp[1]], &[lane_row, 0]],
            &ys_major[..n],
            &ys_minor[..n],
        )
    }
}

/// The names [`by_name`] reads.
pub const NAME_FORM: &str = "{thread,warp,block}_raked_{BLOCK}x{Y}x{X}_v{VEC}, optionally followed by _w32 (32-lane \
warps), _g{GROUPS} (wave groups) and _packed or _shuffled, e.g. warp_raked_256x128x32_v8";

/// The encoding a pattern name gives: `{raking}_{BLOCK}x{Y}x{X}_v{VEC}`
/// with optional suffixes `_w32` or `_w64` (the warp size, 64 unless
/// given), `_g{GROUPS}` (wave groups) and `_packed` or `_shuffled` (the
/// variant), in any order. `Ok(None)` when the name starts with no
/// raking's name.
///
/// ```
/// use cktile_core::distribution::catalogue::pattern::{self, Pattern2d, Raking, Variant};
/// let e = pattern::by_name("thread_raked_256x16x256_v2_g2_packed")?.unwrap();
/// let p = Pattern2d::new(256, 16, 256, 2, Raking::Thread).wave_groups(2);
/// assert_eq!(e, p.encoding(Variant::Packed)?);
/// assert_eq!(pattern::by_name("mfma16x16x16_a")?, None);
/// assert!(pattern::by_name("warp_raked_256x16_v2").unwrap_err().to_string().contains("warp_raked_256x16_v2"));
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub fn by_name(name: &str) -> Result<Option<Encoding>, Error> {
    let Some((raking, rest)) = Raking::ALL.into_iter().find_map(|r| Some((r, name.strip_prefix(r.name())?))) else {
        return Ok(None);
    };
    let unknown = || {
        Error::parameter(crate::error::ParameterProblem::UnknownName {
            name: crate::error::Snippet::new(name),
            valid: NAME_FORM,
        })
    };
    let mut parts = rest.strip_prefix('_').ok_or_else(unknown)?.split('_');
    let shape: Option<Vec3> = parts.next().and_then(|s| {
        let mut it = s.split('x').map(|n| n.parse::<usize>().ok());
        match (it.next(), it.next(), it.next(), it.next()) {
            (Some(Some(b)), Some(Some(y)), Some(Some(x)), None) => Some((b, y, x)),
            _ => None,
        }
    });
    let (block, y, x) = shape.ok_or_else(unknown)?;
    let vec = parts.next().and_then(|v| v.strip_prefix('v')?.parse::<usize>().ok()).ok_or_else(unknown)?;
    let mut p = Pattern2d::new(block, y, x, vec, raking);
    let mut variant = Variant::Regular;
    for part in parts {
        match part {
            "packed" if variant == Variant::Regular => variant = Variant::Packed,
            "shuffled" if variant == Variant::Regular => variant = Variant::Shuffled,
            _ => {
                let number = |prefix: char| part.strip_prefix(prefix).and_then(|n| n.parse::<usize>().ok());
                match (number('w'), number('g')) {
                    (Some(w), _) => p = p.warp_size(w),
                    (_, Some(g)) => p = p.wave_groups(g),
                    _ => return Err(unknown()),
                }
            }
        }
    }
    p.encoding(variant).map(Some)
}

/// Block, Y and X of a pattern name.
type Vec3 = (usize, usize, usize);

/// This family's row of [`FAMILIES`](super::FAMILIES): its names' form,
/// CK's common members and its reader.
pub const FAMILY: NameFamily = NameFamily {
    form: NAME_FORM,
    names: &[
        "warp_raked_256x128x32_v8",
        "thread_raked_256x128x64_v8",
        "block_raked_256x32x64_v16",
        "thread_raked_128x64x128_v8_w32_shuffled",
    ],
    read: by_name,
};
