//! Access patterns: which tile coordinate each lane of each instruction
//! touches, for a 2-D tile of `rows x cols` elements (top dimension 0 is the
//! row, dimension 1 the column).
//!
//! Every pattern is `const fn` data, so a tile can be analysed at compile
//! time. Write your own as a closure through the tools crate's
//! `reports::analyze_with`.
//!
//! The MFMA patterns have one definition: the catalogue's warp-GEMM A
//! distribution ([`catalogue::mfma_a_per_lane`](cktile_core::distribution::catalogue::mfma_a_per_lane))
//! repeated over the tile. Everything that runs at run time (reports,
//! search, pictures) reads them through that distribution with
//! `window::PatternAccess` (with the `alloc` feature). A distribution
//! cannot be built in a `const fn`, so [`Pattern::coordinate`] keeps their
//! closed form for the compile-time path only
//! ([`analyze_tile`](super::analyze_tile),
//! [`assert_conflict_free!`](crate::assert_conflict_free)); the test
//! `mfma_patterns_equal_the_catalogue_distributions` proves it equal to the
//! distribution, lane by lane.

use super::AnalyzerProblem;
use super::arch::{Arch, Vendor};
use super::op::Op;
use crate::error::Error;
use crate::program::LANES;
use cktile_core::DescriptorProblem;
use cktile_core::Index;
use cktile_core::ParameterProblem;
use cktile_transforms::tri;

/// The most tile elements a pattern covers (2^24): every instruction of a
/// pattern is counted, so a larger tile is refused rather than analysed for
/// minutes (a 2^24-element tile takes seconds, whatever the layout).
///
/// ```
/// use cktile_analysis::analyzer::{Op, Pattern};
/// let rows = Pattern::Rows { op: Op::DsWrite { bits: 128 } };
/// assert_eq!(rows.instructions(4096, 4096, 2, 64), Ok(32768));
/// assert!(rows.instructions(4096, 4097 * 8, 2, 64).is_err());
/// assert!(rows.instructions(1 << 40, 1 << 40, 2, 64).is_err());
/// ```
pub const MAX_TILE_ELEMENTS: u64 = 1 << 24;

/// A ready access pattern over a 2-D tile.
///
/// ```
/// use cktile_analysis::analyzer::{Op, Pattern};
/// let p = Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } };
/// // fp16: lane 17 reads (m = 1, k = 8) in the first instruction.
/// assert_eq!(p.coordinate(128, 64, 2, 64, 0, 17), Ok(Some((1, 8))));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pattern {
    /// Each lane accesses one vector of `op`'s width along a row; lanes
    /// (then instructions) walk the tile row by row. A wave writing or
    /// reading a row-major tile with `ds_write_b128` / `st.shared.v4`.
    Rows {
        /// The instruction.
        op: Op,
    },
    /// Each lane accesses one row vector; lanes walk down a column of
    /// vectors first (a transposing access).
    Columns {
        /// The instruction.
        op: Op,
    },
    /// AMD MFMA operand read (A: `M x K` tile, B stored `N x K`): lane `l`
    /// reads the vector at `(m = l % mdim, k = (l / mdim) * vec)` of each
    /// `mdim x (64 / mdim * vec)` block (16x16x16 and 32x32x8 fp16 families):
    /// CK's warp-GEMM A distribution with `vec` K values per lane, repeated
    /// over the tile (see the [module documentation](self)).
    Mfma {
        /// The MFMA's M (16 or 32).
        mdim: u32,
        /// The read instruction (`ds_read_b64` or `ds_read_b128`).
        op: Op,
    },
    /// NVIDIA `ldmatrix` of `mma.sync` fragments: matrix `j` of an
    /// instruction covers rows `8 * (j % 2)..+8` and the 16-byte column
    /// block `j / 2` of each fragment; fragments walk the tile row-major.
    Ldmatrix {
        /// `ldmatrix` or `stmatrix` (`.x1`, `.x2`, `.x4`, optionally `.trans`).
        op: Op,
    },
    /// NVIDIA `mma.sync.m16n8k16` A fragment loaded with `ld.shared.b32`:
    /// register `i` of lane `l` holds the element pair at
    /// `(l / 4 + 8 * (i % 2), 2 * (l % 4) + 8 * (i / 2))` of a 16x16 block.
    MmaSyncA,
}

/// `(x / d, x % d)` for `d > 0`, by a divisor used once.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
const fn divmod(x: usize, d: usize) -> (usize, usize) {
    Divisor::new(d).divmod(x)
}

/// A divisor for many dividends: `(x / d, x % d)` as a shift and a mask
/// when `d` is a power of two (tile lengths almost always are, and a lane's
/// coordinate needs several divisions), the test made once.
#[derive(Clone, Copy)]
struct Divisor {
    d: usize,
    /// `log2(d)` when `d` is a power of two.
    shift: Option<u32>,
}

impl Divisor {
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    const fn new(d: usize) -> Divisor {
        Divisor { d, shift: if d.is_power_of_two() { Some(d.trailing_zeros()) } else { None } }
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    const fn divmod(&self, x: usize) -> (usize, usize) {
        match self.shift {
            Some(s) => (x >> s, x & (self.d - 1)),
            None => (x / self.d, x % self.d),
        }
    }
}

/// The coordinates of up to [`LANES`] consecutive lanes of one
/// instruction, as a [`Program`](crate::Program) reads them: a column of
/// rows, a column of columns, and the active lanes as mask bits.
#[derive(Clone, Copy, Debug)]
///
/// ```
/// use cktile_analysis::Program;
/// use cktile_analysis::analyzer::{memo::LaneAddresses, pattern::LaneChunk, tile::chunk_addresses};
/// // Two lanes of a packed 8 x 8 tile of 2-byte elements.
/// let p = Program::of(&cktile_core::Descriptor::packed(&[8, 8])?);
/// let mut chunk = LaneChunk::EMPTY;
/// chunk.set(0, 1, 2);
/// chunk.set(1, 3, 4);
/// let mut out = LaneAddresses::new(2);
/// chunk_addresses(&p, 2, 0, 0, &chunk, 2, &mut out)?;
/// assert_eq!(out.options()[..2], [Some(2 * 10), Some(2 * 28)]);
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
pub struct LaneChunk {
    pub(crate) rows: [Index; LANES],
    pub(crate) cols: [Index; LANES],
    pub(crate) active: u64,
}

impl LaneChunk {
    /// No active lane.
    ///
    /// (See [`LaneChunk`] for an example.)
    pub const EMPTY: LaneChunk = LaneChunk { rows: [0; LANES], cols: [0; LANES], active: 0 };

    /// Lane `l` of the chunk (below [`LANES`]) accesses `(row, col)`, each
    /// below a tile length (so it fits an index).
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    ///
    /// (See [`LaneChunk`] for an example.)
    pub const fn set(&mut self, l: usize, row: usize, col: usize) {
        self.rows[l % LANES] = row as Index;
        self.cols[l % LANES] = col as Index;
        self.active |= 1 << (l % LANES);
    }
}

const fn bad(what: &'static str, value: usize, requirement: &'static str) -> Error {
    Error::parameter(ParameterProblem::invalid_usize("pattern", what, value, requirement))
}

impl Pattern {
    /// Refuses a pattern of one vendor's matrix instructions on the other
    /// vendor's chip (MFMA reads are AMD's, ldmatrix and mma.sync
    /// NVIDIA's), naming both and the patterns that do run there.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{arch, Pattern};
    /// let mfma = Pattern::by_name("mfma16", None)?;
    /// assert!(mfma.check_arch(&arch::GFX942).is_ok());
    /// assert_eq!(
    ///     mfma.check_arch(&arch::SM80).unwrap_err().to_string(),
    ///     "the mfma16 pattern (an AMD MFMA operand read) does not run on sm80; it is an NVIDIA chip: \
    ///      use rows or columns (with ld.shared / st.shared), ldmatrix or mma_sync_a"
    /// );
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub const fn check_arch(&self, arch: &Arch) -> Result<(), Error> {
        const ON_AMD: &str = "it is an AMD chip: use rows or columns (with ds_read / ds_write), mfma16 or mfma32";
        const ON_NVIDIA: &str =
            "it is an NVIDIA chip: use rows or columns (with ld.shared / st.shared), ldmatrix or mma_sync_a";
        let (what, vendor) = match *self {
            Pattern::Mfma { mdim: 16, .. } => ("the mfma16 pattern (an AMD MFMA operand read)", Vendor::Amd),
            Pattern::Mfma { .. } => ("the mfma32 pattern (an AMD MFMA operand read)", Vendor::Amd),
            Pattern::Ldmatrix { .. } => ("the ldmatrix pattern (NVIDIA ldmatrix / stmatrix fragments)", Vendor::Nvidia),
            Pattern::MmaSyncA => ("the mma_sync_a pattern (an NVIDIA mma.sync fragment)", Vendor::Nvidia),
            Pattern::Rows { .. } | Pattern::Columns { .. } => return Ok(()),
        };
        match (vendor, arch.vendor()) {
            (Vendor::Amd, Vendor::Nvidia) => {
                Err(Error::analyzer(AnalyzerProblem::NotOnArch { what, arch: arch.name(), valid: ON_NVIDIA }))
            }
            (Vendor::Nvidia, Vendor::Amd) => {
                Err(Error::analyzer(AnalyzerProblem::NotOnArch { what, arch: arch.name(), valid: ON_AMD }))
            }
            _ => Ok(()),
        }
    }

    /// The instruction the pattern issues.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{Op, Pattern};
    /// assert_eq!(Pattern::MmaSyncA.op(), Op::LdShared { bits: 32 });
    /// ```
    pub const fn op(&self) -> Op {
        match *self {
            Pattern::Rows { op } | Pattern::Columns { op } | Pattern::Mfma { op, .. } | Pattern::Ldmatrix { op } => op,
            Pattern::MmaSyncA => Op::LdShared { bits: 32 },
        }
    }

    /// Elements per lane access.
    const fn vec(&self, element_bytes: usize) -> Result<usize, Error> {
        let op = self.op();
        if !op.is_valid() {
            return Err(Error::analyzer(AnalyzerProblem::InvalidOp { op, valid: super::op::OP_NAMES }));
        }
        if !op.is_contiguous() {
            return Err(Error::analyzer(AnalyzerProblem::PatternOp {
                pattern: self.name(),
                given: Some(op),
                expected: "an instruction whose lane moves one contiguous vector: ds_read2/ds_write2 only with \
                           offsets (0,1) and not the st64 forms; analyze other offsets with `cktile bank`",
            }));
        }
        let bytes = op.bytes_per_lane() as usize;
        if element_bytes == 0 || !bytes.is_multiple_of(element_bytes) {
            return Err(bad("element bytes", element_bytes, "the access width must be a whole number of elements"));
        }
        Ok(bytes / element_bytes)
    }

    /// How many instructions cover the tile, checking that the tile divides
    /// into the pattern's blocks.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{Op, Pattern};
    /// // 128 x 64 fp16 with ds_write_b128: 1024 vectors, 16 waves of 64 lanes.
    /// assert_eq!(Pattern::Rows { op: Op::DsWrite { bits: 128 } }.instructions(128, 64, 2, 64), Ok(16));
    /// ```
    pub const fn instructions(
        &self,
        rows: usize,
        cols: usize,
        element_bytes: usize,
        wave: usize,
    ) -> Result<usize, Error> {
        let vec = tri!(self.vec(element_bytes));
        if rows == 0 || cols == 0 || wave == 0 {
            return Err(bad("rows", rows, "the tile must have rows and columns"));
        }
        let elements = (rows as u64).saturating_mul(cols as u64);
        if elements > MAX_TILE_ELEMENTS {
            return Err(Error::descriptor(DescriptorProblem::TooLarge { size: elements, limit: MAX_TILE_ELEMENTS }));
        }
        match *self {
            Pattern::Rows { .. } | Pattern::Columns { .. } => {
                if !cols.is_multiple_of(vec) {
                    return Err(bad("cols", cols, "it must be a multiple of the access width in elements"));
                }
                Ok((rows * (cols / vec)).div_ceil(wave))
            }
            Pattern::Mfma { mdim, .. } => {
                let m = mdim as usize;
                if (m != 16 && m != 32) || wave != 64 {
                    return Err(bad("mdim", m, "MFMA reads need a wave64 chip and mdim 16 or 32"));
                }
                let kblock = wave / m * vec;
                if !rows.is_multiple_of(m) {
                    return Err(bad("rows", rows, "it must be a multiple of the MFMA's M"));
                }
                if !cols.is_multiple_of(kblock) {
                    return Err(bad("cols", cols, "it must be a multiple of 64 / mdim * vector elements"));
                }
                Ok(rows / m * (cols / kblock))
            }
            Pattern::Ldmatrix { op } => {
                let (mrows, mcols) = match op {
                    Op::Ldmatrix { matrices, .. } | Op::Stmatrix { matrices, .. } => {
                        (if matrices >= 2 { 16 } else { 8 }, if matrices == 4 { 2 * vec } else { vec })
                    }
                    _ => {
                        return Err(Error::analyzer(AnalyzerProblem::PatternOp {
                            pattern: "ldmatrix",
                            given: Some(op),
                            expected: "ldmatrix.x1|x2|x4[.trans] or stmatrix.x1|x2|x4[.trans]",
                        }));
                    }
                };
                if !rows.is_multiple_of(mrows) || !cols.is_multiple_of(mcols) {
                    return Err(bad("rows", rows, "the tile must divide into ldmatrix fragments"));
                }
                Ok(rows / mrows * (cols / mcols))
            }
            Pattern::MmaSyncA => {
                if element_bytes != 2 || !rows.is_multiple_of(16) || !cols.is_multiple_of(16) {
                    return Err(bad(
                        "element bytes",
                        element_bytes,
                        "mma.sync m16n8k16 A needs 16-bit elements and 16x16 blocks",
                    ));
                }
                Ok(rows / 16 * (cols / 16) * 4)
            }
        }
    }

    /// The `(row, col)` lane `lane` of instruction `i` accesses, or `None`
    /// for an inactive lane.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{Op, Pattern};
    /// let p = Pattern::Ldmatrix { op: Op::Ldmatrix { matrices: 4, trans: false } };
    /// assert_eq!(p.coordinate(16, 16, 2, 32, 0, 9), Ok(Some((9, 0))));
    /// assert_eq!(p.coordinate(16, 16, 2, 32, 0, 17), Ok(Some((1, 8))));
    /// ```
    pub const fn coordinate(
        &self,
        rows: usize,
        cols: usize,
        element_bytes: usize,
        wave: usize,
        i: usize,
        lane: usize,
    ) -> Result<Option<(i64, i64)>, Error> {
        let n = tri!(self.instructions(rows, cols, element_bytes, wave));
        let vec = tri!(self.vec(element_bytes));
        if i >= n || lane >= wave {
            return Ok(None);
        }
        Ok(self.coordinate_valid(rows, cols, vec, wave, i, lane))
    }

    /// [`coordinate`](Self::coordinate) once the pattern is known to fit the
    /// tile, with `vec` its access width in elements and `i`, `lane` in
    /// range: [`lane_coordinates`](Self::lane_coordinates) for one lane.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) const fn coordinate_valid(
        &self,
        rows: usize,
        cols: usize,
        vec: usize,
        wave: usize,
        i: usize,
        lane: usize,
    ) -> Option<(i64, i64)> {
        let mut chunk = LaneChunk::EMPTY;
        self.lane_coordinates([rows, cols, vec, wave], i, lane, 1, &mut chunk);
        if chunk.active & 1 == 1 { Some((chunk.rows[0], chunk.cols[0])) } else { None }
    }

    /// The coordinates of lanes `first..first + n` of instruction `i` (`n`
    /// at most [`LANES`]), lane `first + l` as entry `l` of `chunk` (which
    /// the caller starts [`EMPTY`](LaneChunk::EMPTY)), for a pattern known
    /// to fit the `[rows, cols, vec, wave]` tile: the definition of every
    /// pattern's lanes. The analyzer asks it for a chunk at a time, so the
    /// pattern is matched once per chunk and each length divides by a
    /// shift where it is a power of two.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) const fn lane_coordinates(
        &self,
        [rows, cols, vec, wave]: [usize; 4],
        i: usize,
        first: usize,
        n: usize,
        chunk: &mut LaneChunk,
    ) {
        let n = if n < LANES { n } else { LANES };
        let mut l = 0;
        match *self {
            Pattern::Rows { .. } | Pattern::Columns { .. } => {
                // Lanes walk the tile row by row (or column by column), one
                // vector each: vector v is at (v / per_row, v % per_row) (or
                // (v % rows, v / rows)).
                let by_rows = matches!(*self, Pattern::Rows { .. });
                let per_row = divmod(cols, vec).0;
                let walk = Divisor::new(if by_rows { per_row } else { rows });
                let total = rows * per_row;
                while l < n {
                    let v = i * wave + first + l;
                    if v < total {
                        let (q, rem) = walk.divmod(v);
                        let (r, c) = if by_rows { (q, rem) } else { (rem, q) };
                        chunk.set(l, r, c * vec);
                    }
                    l += 1;
                }
            }
            Pattern::Mfma { mdim, .. } => {
                // Instruction i reads the M block i / kb at the K block i % kb;
                // lane l reads row l % m of it, at the vector l / m.
                let m = Divisor::new(mdim as usize);
                let kblock = m.divmod(wave).0 * vec;
                let (ib, ik) = divmod(i, divmod(cols, kblock).0);
                while l < n {
                    let (lk, lm) = m.divmod(first + l);
                    chunk.set(l, ib * m.d + lm, ik * kblock + lk * vec);
                    l += 1;
                }
            }
            Pattern::Ldmatrix { op } => {
                let matrices = match op {
                    Op::Ldmatrix { matrices, .. } | Op::Stmatrix { matrices, .. } => matrices as usize,
                    _ => 0,
                };
                // Lanes 8j..8j+8 give the rows of matrix j: matrices stack in
                // pairs down, then across.
                let mrows = if matrices >= 2 { 16 } else { 8 };
                let mcols = if matrices == 4 { 2 * vec } else { vec };
                let (ir, ic) = divmod(i, divmod(cols, mcols).0);
                while l < n {
                    let lane = first + l;
                    if lane < 8 * matrices {
                        let j = lane / 8;
                        chunk.set(l, ir * mrows + 8 * (j % 2) + lane % 8, ic * mcols + (j / 2) * vec);
                    }
                    l += 1;
                }
            }
            Pattern::MmaSyncA => {
                // Instruction i loads register i % 4 of the 16x16 block i / 4.
                let (block, reg) = (i / 4, i % 4);
                let (br, bc) = divmod(block, cols / 16);
                while l < n {
                    let lane = first + l;
                    chunk.set(l, br * 16 + lane / 4 + 8 * (reg % 2), bc * 16 + 2 * (lane % 4) + 8 * (reg / 2));
                    l += 1;
                }
            }
        }
    }

    /// The number of instructions and the access width in elements, or why
    /// the pattern does not fit the tile: what [`coordinate`](Self::coordinate)
    /// checks on every call.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{Op, Pattern};
    /// // 16 x 16 MFMA reads of 16 bytes over a 128 x 64 fp16 tile, 64 lanes:
    /// // 8 elements a lane, 512 a wave, 16 instructions.
    /// let p = Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } };
    /// assert_eq!(p.shape(128, 64, 2, 64)?, (16, 8));
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub const fn shape(
        &self,
        rows: usize,
        cols: usize,
        element_bytes: usize,
        wave: usize,
    ) -> Result<(usize, usize), Error> {
        let n = tri!(self.instructions(rows, cols, element_bytes, wave));
        match self.vec(element_bytes) {
            Ok(v) => Ok((n, v)),
            Err(e) => Err(e),
        }
    }
}
