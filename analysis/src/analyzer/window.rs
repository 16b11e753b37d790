//! Access patterns from tile distributions: the shared-memory instructions a
//! CK Tile tile window issues when it loads or stores a distributed tile.
//!
//! Each warp (the first P of a two-P distribution; a one-P distribution is
//! one warp) issues one instruction per access of its Y space: the *vector
//! dimension* (the Y walking the fastest H component of the last X
//! dimension: the tile windows' rule,
//! [`Distribution::vector_dim_y`], over a last X contiguous along its
//! length) advances by the instruction's width in elements, the other Ys
//! by one, in row-major order. Every lane (the last P) accesses the vector
//! that starts at the X coordinate of its (P..., Y...). A width that does
//! not divide the vector dimension's length is refused, as CK's
//! `get_vector_dim_y_scalar_per_vector` would. The tools crate's `analyze_distribution`
//! also checks the LDS descriptor: every lane's vector must be contiguous
//! there ([`WindowAccess::check_contiguous`]), or one instruction of that
//! width cannot move it and the report would describe accesses no kernel
//! makes; the error names the lane and the widest width that fits.
//!
//! [`repeat_over`] repeats a distribution over a larger tile as CK's block
//! GEMM iterates warp tiles (CK's `make_embed_tile_distribution_encoding`
//! with an outer encoding of iterations only). [`PatternAccess`] is a ready
//! [`Pattern`] at run time: the MFMA operand reads (`mfma16`, `mfma32`) are
//! the catalogue's warp-GEMM A distribution
//! ([`catalogue::mfma_a_per_lane`]) repeated over the tile and read
//! through a tile window, so every run-time report, search and picture of
//! those patterns takes its lane coordinates from the catalogue. The ready
//! patterns' `const fn` path ([`analyze_tile`](super::analyze_tile) and the
//! four-argument [`assert_conflict_free!`](crate::assert_conflict_free))
//! keeps the closed form in [`Pattern::coordinate`]; tests/distribution_analyzer.rs
//! proves the two equal lane by lane. The windows themselves are `const fn`s
//! too: [`analyze_window`] counts a distribution's window at compile time
//! (the five-argument `assert_conflict_free!`), and the same test file holds
//! it equal to the tools crate's `analyze_distribution` report
//! and to the window's definition, every lane's (P..., Y...) through the
//! distribution composed with the layout
//! ([`WindowAccess::address`]). Both read each element a window touches
//! once, a lane's X being its warp's and Ys' plus its own (`window/lanes.rs`):
//! a window of 32 instructions over 4,096 elements costs about half a second
//! of `cargo check`, within rustc's default const-evaluation limit.
//!
//! ```
//! use cktile_analysis::analyzer::{arch, window::{analyze_window, WindowAccess}, Op};
//! use cktile_core::distribution::{catalogue, Distribution};
//! let a = Distribution::new(catalogue::mfma_a(16, 32)?)?;
//! let read = WindowAccess::new(&a, Op::DsRead { bits: 128 }, 2, 64)?;
//! assert_eq!((read.instructions(), read.width(), read.vector_y()), (1, 8, Some(0)));
//! // fp16 16x32 tile stored row-major (64-byte rows): the 8 lanes of a phase
//! // read rows 0..8 at K 0, and rows r and r + 2 share their banks.
//! let c = analyze_window(&cktile_core::Descriptor::packed(&[16, 32])?, 2, &arch::GFX942, &a, Op::DsRead { bits: 128 })?;
//! assert_eq!((c.phases, c.cycles, c.max_ways), (8, 16, 2));
//! # Ok::<(), cktile_analysis::Error>(())
//! ```

use super::AnalyzerProblem;
use super::arch::Arch;
use super::op::{OP_NAMES, Op};
use super::pattern::{MAX_TILE_ELEMENTS, Pattern};
use super::rules::MAX_LANES;
use super::tile::{BreakScan, Tally, TileCounts, fail_on_conflicts, to_address};
use crate::Program;
use crate::error::Error;
use cktile_core::Descriptor;
use cktile_core::DescriptorProblem;
use cktile_core::ParameterProblem;
use cktile_core::distribution::{Distribution, Encoding, EncodingProblem, catalogue, embed_encoding};
use cktile_transforms::tri;
use cktile_transforms::{Index, MAX_DIMS, Vector};

mod lanes;

///
/// A window's lanes placed in a layout, and every instruction of it counted
/// (see [`fitted`] for an example).
pub use lanes::{WindowLanes, counted};

/// The instructions of a tile window over a distribution: which X
/// coordinate each lane of each instruction accesses.
///
/// ```
/// use cktile_analysis::analyzer::{window::WindowAccess, Op};
/// use cktile_core::distribution::{catalogue, Distribution};
/// let c = Distribution::new(catalogue::mfma_c(32, 8)?)?;
/// // fp32 accumulator stored with ds_write_b32: 16 instructions, one register each.
/// let w = WindowAccess::new(&c, Op::DsWrite { bits: 32 }, 4, 64)?;
/// assert_eq!(w.instructions(), 16);
/// assert_eq!(w.coordinate(5, 40), Some([8 + 4 + 1, 8])); // register 5 of lane 40
/// // ds_write_b64 would need two contiguous registers along N: C holds none.
/// assert!(WindowAccess::new(&c, Op::DsWrite { bits: 64 }, 4, 64).is_err());
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowAccess {
    distribution: Distribution,
    op: Op,
    width: usize,
    vector_y: Option<usize>,
    warps: usize,
    lanes: usize,
    /// Y lengths with the vector dimension divided by the width.
    steps: [Index; MAX_DIMS],
    per_warp: usize,
}

const fn window_error(parameter: &'static str, value: usize, requirement: &'static str) -> Error {
    Error::parameter(ParameterProblem::invalid_usize("distribution", parameter, value, requirement))
}

impl WindowAccess {
    /// The accesses of `op` over `d` for `element_bytes`-byte elements on a
    /// chip with `wave` lanes, checking that X is 2-D, that there are one
    /// or two Ps with at most `wave` lanes, that `op` moves one contiguous
    /// vector of whole elements per lane, and that its width fits the
    /// vector dimension.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{window::WindowAccess, Op};
    /// use cktile_core::distribution::{catalogue, Distribution};
    /// let a = Distribution::new(catalogue::mfma_a(32, 8)?)?;
    /// let e = WindowAccess::new(&a, Op::DsRead { bits: 128 }, 2, 64).unwrap_err();
    /// assert!(e.to_string().contains("the vector dimension Y0 has length 4"));
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub const fn new(d: &Distribution, op: Op, element_bytes: usize, wave: usize) -> Result<WindowAccess, Error> {
        let e = d.encoding();
        if e.ndim_x() != 2 {
            return Err(Error::descriptor(DescriptorProblem::NotTwoDimensional { dims: e.ndim_x() }));
        }
        let p = d.p_lengths();
        let (warps, lanes) = match p.as_slice() {
            [lanes] => (1, *lanes as usize),
            [warps, lanes] => (*warps as usize, *lanes as usize),
            _ => {
                return Err(window_error(
                    "P dimensions",
                    p.len(),
                    "a tile window partitions by the lane (one P) or by the warp and the lane (two Ps)",
                ));
            }
        };
        if lanes > wave {
            return Err(window_error("lanes", lanes, "the last P (the lane) must not exceed the chip's wave size"));
        }
        if !op.is_valid() {
            return Err(Error::analyzer(AnalyzerProblem::InvalidOp { op, valid: OP_NAMES }));
        }
        if !op.is_contiguous() {
            return Err(window_error(
                "instruction",
                0,
                "a tile window moves one contiguous vector per lane: not ds_read2/ds_write2 with other offsets \
                 than (0,1), their st64 forms, ldmatrix or stmatrix",
            ));
        }
        let bytes = op.bytes_per_lane() as usize;
        if element_bytes == 0 || !bytes.is_multiple_of(element_bytes) {
            return Err(window_error("element bytes", element_bytes, "the access width must be whole elements"));
        }
        let width = bytes / element_bytes;
        // The vector dimension: CK's rule (the tile windows' one), over a
        // layout contiguous along its last X; the composed layout's
        // addresses are checked afterwards.
        let last_x = e.ndim_x() - 1;
        let mut x = [Vector::UNKNOWN; MAX_DIMS];
        x[last_x] = Vector::new(d.x_lengths().get(last_x), 1);
        let vector_y = match d.vector_dim_y(&x) {
            Some((y, _)) => Some(y),
            None => None,
        };
        let y = d.y_lengths();
        let mut steps = [0 as Index; MAX_DIMS];
        let mut j = 0;
        while j < y.len() {
            steps[j] = y.get(j);
            j += 1;
        }
        match vector_y {
            Some(j) if y.get(j) % width as Index == 0 => steps[j] /= width as Index,
            Some(j) => {
                let problem = EncodingProblem::VectorWidth { y: j, length: y.get(j), width };
                return Err(Error::port(cktile_core::Error::new(cktile_core::ErrorKind::Encoding(problem))));
            }
            None if width > 1 => {
                return Err(Error::port(cktile_core::Error::new(cktile_core::ErrorKind::Encoding(
                    EncodingProblem::NoVectorY { width },
                ))));
            }
            None => {}
        }
        let mut per_warp = 1;
        let mut j = 0;
        while j < y.len() {
            per_warp *= steps[j] as usize;
            j += 1;
        }
        Ok(WindowAccess { distribution: *d, op, width, vector_y, warps, lanes, steps, per_warp })
    }

    /// How many instructions all warps issue together.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{window::WindowAccess, Op};
    /// use cktile_core::distribution::{catalogue, Distribution};
    /// let a = Distribution::new(catalogue::gemm_dram(256, 128, 32, 8)?)?;
    /// // 4 warps, each 2 (M0) x 1 (K1 = 8 in one ds_write_b128) stores.
    /// assert_eq!(WindowAccess::new(&a, Op::DsWrite { bits: 128 }, 2, 64)?.instructions(), 8);
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub const fn instructions(&self) -> usize {
        self.warps * self.per_warp
    }

    /// The instruction's width in elements.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{window::WindowAccess, Op};
    /// use cktile_core::distribution::{catalogue, Distribution};
    /// let a = Distribution::new(catalogue::mfma_a(32, 8)?)?;
    /// assert_eq!(WindowAccess::new(&a, Op::DsRead { bits: 64 }, 2, 64)?.width(), 4);
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub const fn width(&self) -> usize {
        self.width
    }

    /// The vector dimension (a Y index), if some Y walks the fastest H
    /// component of the last X.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{window::WindowAccess, Op};
    /// use cktile_core::distribution::{catalogue, Distribution};
    /// let c = Distribution::new(catalogue::mfma_c(16, 16)?)?;
    /// assert_eq!(WindowAccess::new(&c, Op::DsWrite { bits: 32 }, 4, 64)?.vector_y(), None);
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub const fn vector_y(&self) -> Option<usize> {
        self.vector_y
    }

    /// The instruction.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{window::WindowAccess, Op};
    /// use cktile_core::distribution::{catalogue, Distribution};
    /// let a = Distribution::new(catalogue::mfma_a(16, 16)?)?;
    /// assert_eq!(WindowAccess::new(&a, Op::DsRead { bits: 64 }, 2, 64)?.op(), Op::DsRead { bits: 64 });
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub const fn op(&self) -> Op {
        self.op
    }

    /// The X coordinate lane `lane` of instruction `i` starts its vector
    /// at, or `None` past the lanes or the instructions.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{window::WindowAccess, Op};
    /// use cktile_core::distribution::{catalogue, Distribution};
    /// let a = Distribution::new(catalogue::gemm_dram(256, 128, 32, 8)?)?;
    /// let w = WindowAccess::new(&a, Op::DsWrite { bits: 128 }, 2, 64)?;
    /// // instruction 3 = warp 1, M0 = 1; lane 9: (64 + 16 + 2, 8).
    /// assert_eq!(w.coordinate(3, 9), Some([82, 8]));
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub const fn coordinate(&self, i: usize, lane: usize) -> Option<[i64; 2]> {
        let Some((top, n)) = self.ps_ys(i, lane) else { return None };
        let x = self.distribution.ps_ys_to_xs().bottom_index_unchecked(top.split_at(n).0);
        Some([x.get(0), x.get(1)])
    }

    /// The distribution's index (P..., Y...) of the vector lane `lane` of
    /// instruction `i` starts at, as an array and its length, or `None`
    /// past the lanes or the instructions: what
    /// [`coordinate`](Self::coordinate) maps to X, and what a program of
    /// the distribution composed with a layout
    /// ([`program_over`](Self::program_over)) maps to the offset.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{window::WindowAccess, Op};
    /// use cktile_core::distribution::{catalogue, Distribution};
    /// let a = Distribution::new(catalogue::gemm_dram(256, 128, 32, 8)?)?;
    /// let w = WindowAccess::new(&a, Op::DsWrite { bits: 128 }, 2, 64)?;
    /// // instruction 3 = warp 1, M0 = 1; lane 9; K1 starts at 0.
    /// let (top, n) = w.ps_ys(3, 9).unwrap();
    /// assert_eq!(&top[..n], &[1, 9, 1, 0]);
    /// assert_eq!(a.calculate_index(&top[..n])?.as_slice(), w.coordinate(3, 9).unwrap());
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub const fn ps_ys(&self, i: usize, lane: usize) -> Option<([Index; MAX_DIMS], usize)> {
        if i >= self.instructions() || lane >= self.lanes {
            return None;
        }
        let (warp, mut access) = (i / self.per_warp, i % self.per_warp);
        let ndim_y = self.distribution.encoding().ndim_y();
        let ndim_p = self.distribution.encoding().ndim_p();
        let mut top = [0 as Index; MAX_DIMS];
        if ndim_p == 2 {
            top[0] = warp as Index;
        }
        top[ndim_p - 1] = lane as Index;
        let mut j = ndim_y;
        while j > 0 {
            j -= 1;
            let step = if self.steps[j] > 1 { self.steps[j] as usize } else { 1 };
            let mut v = (access % step) as Index;
            access /= step;
            if let Some(vector) = self.vector_y
                && vector == j
            {
                v *= self.width as Index;
            }
            top[(ndim_p + j) % MAX_DIMS] = v;
        }
        Some((top, ndim_p + ndim_y))
    }

    /// The distribution composed with `desc`, the LDS layout its X lies in
    /// (from the origin, as the windows of the analyses do), compiled: one
    /// [`Program`] from a lane's (P..., Y...) ([`ps_ys`](Self::ps_ys)) to
    /// the offset of its element
    /// ([`Program::through`];
    /// for X lengths equal to `desc`'s, [`Distribution::compose`] compiled).
    /// It defines the window's addresses ([`address`](Self::address)); the
    /// analyses read the same addresses through the layout's own program,
    /// once per element (see `window/lanes.rs`), after this refuses an X
    /// that does not fit in `desc` (or a composition past a program's
    /// limits).
    ///
    /// ```
    /// use cktile_analysis::analyzer::{window::WindowAccess, Op};
    /// use cktile_core::distribution::{catalogue, Distribution};
    /// let a = Distribution::new(catalogue::mfma_a(16, 32)?)?;
    /// let w = WindowAccess::new(&a, Op::DsRead { bits: 128 }, 2, 64)?;
    /// let lds = cktile_analysis::layouts::ck::xor_preshuffle(16, 32, 8)?;
    /// let p = w.program_over(&lds)?;
    /// let (top, n) = w.ps_ys(0, 21).unwrap();
    /// let [m, k] = w.coordinate(0, 21).unwrap();
    /// assert_eq!(p.offset_if_valid(&top[..n]), Some(lds.calculate_offset(&[m, k])));
    /// // The 16 x 32 tile at the origin of a 64 x 64 one; not in a 64 x 16 one.
    /// assert!(w.program_over(&cktile_core::Descriptor::packed(&[64, 64])?).is_ok());
    /// assert!(w.program_over(&cktile_core::Descriptor::packed(&[64, 16])?).is_err());
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    /// use cktile_analysis::Program;
    pub const fn program_over(&self, desc: &Descriptor) -> Result<Program, Error> {
        Program::through(self.distribution.ps_ys_to_xs(), desc, [0; MAX_DIMS].split_at(desc.lengths().len()).0)
    }

    /// The warps of the window (the first P's length, 1 for a one-P
    /// distribution); instruction `i` is warp `i / per_warp()`'s.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{window::WindowAccess, Op};
    /// use cktile_core::distribution::{catalogue, Distribution};
    /// let a = Distribution::new(catalogue::gemm_dram(256, 128, 32, 8)?)?;
    /// let w = WindowAccess::new(&a, Op::DsWrite { bits: 128 }, 2, 64)?;
    /// assert_eq!((w.warps(), w.per_warp()), (4, 2));
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub const fn warps(&self) -> usize {
        self.warps
    }

    /// The instructions each warp issues: its accesses of the Y space.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{window::WindowAccess, Op};
    /// use cktile_core::distribution::{catalogue, Distribution};
    /// let c = Distribution::new(catalogue::mfma_c(32, 8)?)?;
    /// assert_eq!(WindowAccess::new(&c, Op::DsWrite { bits: 32 }, 4, 64)?.per_warp(), 16);
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub const fn per_warp(&self) -> usize {
        self.per_warp
    }

    /// The byte address lane `lane` of instruction `i` starts at, through
    /// `program` (this window's [`program_over`](Self::program_over) an LDS
    /// layout), for `element_bytes`-byte elements: `None` for a lane that
    /// does not take part, an error naming the lane and its X coordinate
    /// when its element is padding, has a negative offset or an address
    /// past `u64`.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{window::WindowAccess, Op};
    /// use cktile_core::distribution::{catalogue, Distribution};
    /// let a = Distribution::new(catalogue::gemm_dram(256, 128, 32, 8)?)?;
    /// let w = WindowAccess::new(&a, Op::DsWrite { bits: 128 }, 2, 64)?;
    /// let p = w.program_over(&cktile_core::Descriptor::packed(&[128, 32])?)?;
    /// // Lane 9 of instruction 3 writes row 82 from K = 8: element 82 * 32 + 8.
    /// assert_eq!(w.address(&p, 2, 3, 9)?, Some((82 * 32 + 8) * 2));
    /// assert_eq!(w.address(&p, 2, 3, 64)?, None);
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub const fn address(
        &self,
        program: &Program,
        element_bytes: usize,
        i: usize,
        lane: usize,
    ) -> Result<Option<u64>, Error> {
        let Some((top, n)) = self.ps_ys(i, lane) else { return Ok(None) };
        let offset = program.offset_if_valid(top.split_at(n).0);
        if let Some(o) = offset
            && o >= 0
            && let Some(a) = (o as u64).checked_mul(element_bytes as u64)
        {
            return Ok(Some(a));
        }
        // The error names the lane's X coordinate.
        let Some(c) = self.coordinate(i, lane) else { return Ok(None) };
        match to_address(offset, element_bytes, i, lane, c) {
            Ok(a) => Ok(Some(a)),
            Err(e) => Err(e),
        }
    }

    /// Refuses a window of more than [`MAX_TILE_ELEMENTS`] lane accesses
    /// (instructions times the chip's wave), the limit of every analysis,
    /// before any is counted.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{arch, window::WindowAccess, Op};
    /// use cktile_core::distribution::{catalogue, Distribution};
    /// let a = Distribution::new(catalogue::gemm_dram(256, 128, 32, 8)?)?;
    /// assert!(WindowAccess::new(&a, Op::DsWrite { bits: 128 }, 2, 64)?.check_size(&arch::GFX942).is_ok());
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub const fn check_size(&self, arch: &Arch) -> Result<(), Error> {
        let accesses = (self.instructions() as u64).saturating_mul(arch.wave() as u64);
        if accesses > MAX_TILE_ELEMENTS {
            return Err(Error::descriptor(DescriptorProblem::TooLarge { size: accesses, limit: MAX_TILE_ELEMENTS }));
        }
        Ok(())
    }

    /// Checks that every lane's vector, `width()` elements along X's last
    /// dimension from its [`coordinate`](Self::coordinate), is contiguous
    /// in `desc`: one instruction of this width moves consecutive bytes.
    /// Otherwise the error names the first lane that is not, how far its
    /// elements are contiguous, and the widest power-of-two width (dividing
    /// this one) contiguous for every lane, the width a CK tile window
    /// would fall back to.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{window::WindowAccess, Op};
    /// use cktile_core::distribution::{catalogue, Distribution};
    /// let a = Distribution::new(catalogue::mfma_a(16, 32)?)?;
    /// let read = WindowAccess::new(&a, Op::DsRead { bits: 128 }, 2, 64)?;
    /// assert!(read.check_contiguous(&cktile_core::Descriptor::packed(&[16, 32])?).is_ok());
    /// // Column-major storage: K is strided, no 8-element vector is contiguous.
    /// let e = read.check_contiguous(&cktile_core::Descriptor::naive(&[16, 32], &[1, 16])?).unwrap_err();
    /// assert!(e.to_string().contains("contiguous for 1 element(s) only"), "{e}");
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    #[inline] // as `analyze_window`
    pub const fn check_contiguous(&self, desc: &Descriptor) -> Result<(), Error> {
        tri!(self.program_over(desc));
        WindowLanes::new(self, desc).check_contiguous(self)
    }
}

/// Checks that each active lane of `instructions` instructions (lanes
/// `0..wave`, lane `lane` of instruction `i` at `coordinate(i, lane)`)
/// moves `vec` elements contiguous in `program` (a compiled 2-D descriptor)
/// along the last dimension:
/// [`AnalyzerProblem::VectorNotContiguous`] otherwise. What the ready
/// patterns ([`PatternAccess::check_contiguous`]) and the patterns written as
/// functions (the tools crate's `reports::analyze_with`) run; tile windows
/// run its `const` twin, [`WindowAccess::check_contiguous`].
///
/// ```
/// use cktile_analysis::Program;
/// use cktile_analysis::analyzer::{Op, window::lane_vectors_contiguous};
/// // 16 lanes, each reading 8 contiguous fp16 elements of a row: fine on a
/// // packed tile, broken where a row's halves are swapped every 4 elements.
/// let packed = Program::of(&cktile_core::Descriptor::packed(&[16, 64])?);
/// let lane = |_, l: usize| Some([l as i64, 0]);
/// assert!(lane_vectors_contiguous(&packed, Op::DsRead { bits: 128 }, 8, 1, 16, lane).is_ok());
/// let swapped = Program::of(&cktile_core::Descriptor::naive(&[16, 2, 32], &[64, 4, 8])?
///     .transform(&[
///         cktile_core::Item::new(cktile_core::Transform::pass_through(16)?, &[0], &[0])?,
///         cktile_core::Item::new(cktile_core::Transform::merge(&[2, 32])?, &[1, 2], &[1])?,
///     ])?);
/// assert!(lane_vectors_contiguous(&swapped, Op::DsRead { bits: 128 }, 8, 1, 16, lane).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn lane_vectors_contiguous(
    program: &Program,
    op: Op,
    vec: usize,
    instructions: usize,
    wave: usize,
    coordinate: impl Fn(usize, usize) -> Option<[i64; 2]>,
) -> Result<(), Error> {
    if vec <= 1 {
        return Ok(());
    }
    let mut scan = BreakScan::NONE;
    for i in 0..instructions {
        for lane in 0..wave.min(MAX_LANES) {
            if let Some([r, c]) = coordinate(i, lane)
                && let Some(breaks) = vector_breaks(program, &[r, c], 1, vec.min(64))
            {
                scan.see(i, lane, [r, c], breaks);
            }
        }
    }
    scan.verdict(op, vec)
}

/// Bit k (1 <= k < width) set: element k of the vector that starts at
/// `start` and runs along dimension `dim` does not follow element k - 1 in
/// the compiled descriptor (or has no offset). `None` when the first
/// element has no offset (the analysis itself reports that coordinate).
const fn vector_breaks(program: &Program, start: &[Index], dim: usize, width: usize) -> Option<u64> {
    let Some(first) = program.offset_if_valid(start) else { return None };
    let mut at = [0 as Index; MAX_DIMS];
    let mut d = 0;
    while d < start.len() && d < MAX_DIMS {
        at[d] = start[d];
        d += 1;
    }
    let n = d;
    let mut prev = Some(first);
    let mut breaks = 0u64;
    let mut k = 1;
    while k < width {
        let here = match start[dim % n].checked_add(k as Index) {
            Some(v) => {
                at[dim % n] = v;
                program.offset_if_valid(at.split_at(n).0)
            }
            None => None,
        };
        let expected = match prev {
            Some(p) => p.checked_add(1),
            None => None,
        };
        let follows = matches!((here, expected), (Some(h), Some(e)) if h == e);
        if !follows {
            breaks |= 1 << k;
        }
        prev = here;
        k += 1;
    }
    Some(breaks)
}

/// `encoding` repeated over a `rows x cols` tile, as CK's block GEMM
/// iterates warp tiles: CK's `make_embed_tile_distribution_encoding` with
/// the outer encoding `<sequence<>, tuple<sequence<rows / M>, sequence<cols / K>>,
/// tuple<>, tuple<>, sequence<1, 2>, sequence<0, 0>>` (two Ys walking the
/// iterations, slowest first, before the inner Ys). The encoding's X must
/// be 2-D with lengths (M, K) dividing the tile's.
///
/// ```
/// use cktile_analysis::analyzer::window::repeat_over;
/// use cktile_core::distribution::{catalogue, Distribution};
/// let block = Distribution::new(repeat_over(&catalogue::mfma_a(16, 32)?, 128, 64)?)?;
/// assert_eq!((block.x_lengths().as_slice(), block.y_lengths().as_slice()), (&[128, 64][..], &[8, 2, 8][..]));
/// assert!(repeat_over(&catalogue::mfma_a(16, 32)?, 128, 48).is_err());
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
pub fn repeat_over(encoding: &Encoding, rows: usize, cols: usize) -> Result<Encoding, Error> {
    if encoding.ndim_x() != 2 {
        return Err(Error::descriptor(DescriptorProblem::NotTwoDimensional { dims: encoding.ndim_x() }));
    }
    let length = |x: usize| encoding.hs_lengths(x).product().unwrap_or(0).max(1) as usize;
    let (m, k) = (length(0), length(1));
    if rows == 0 || !rows.is_multiple_of(m) {
        return Err(window_error(
            "rows",
            rows,
            "the tile's rows must be a multiple of the distribution's first X length",
        ));
    }
    if cols == 0 || !cols.is_multiple_of(k) {
        return Err(window_error(
            "cols",
            cols,
            "the tile's columns must be a multiple of the distribution's second X length",
        ));
    }
    let outer = Encoding::new(&[], &[&[rows / m], &[cols / k]], &[], &[], &[1, 2], &[0, 0])?;
    crate::error::lift(embed_encoding(&outer, encoding))
}

/// A ready [`Pattern`] over a `rows x cols` tile at run time: how many
/// instructions it issues and which coordinate each lane accesses. The MFMA
/// patterns go through their catalogue distribution (see the
/// [module documentation](self)); the others through their closed form.
///
/// ```
/// use cktile_analysis::analyzer::{window::PatternAccess, Op, Pattern};
/// let p = Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } };
/// let a = PatternAccess::new(p, 128, 64, 2, 64)?;
/// assert!(a.window().is_some());
/// assert_eq!(a.instructions(), 16);
/// assert_eq!(a.coordinate(0, 17), Some([1, 8]));
/// assert_eq!(a.coordinate(3, 17).map(|c| c[0]), p.coordinate(128, 64, 2, 64, 3, 17)?.map(|c| c.0));
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatternAccess {
    pattern: Pattern,
    rows: usize,
    cols: usize,
    vec: usize,
    wave: usize,
    instructions: usize,
    window: Option<WindowAccess>,
}

impl PatternAccess {
    /// The accesses of `pattern` over a `rows x cols` tile of
    /// `element_bytes`-byte elements on a chip with `wave` lanes, refused as
    /// [`Pattern::instructions`] refuses them.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{window::PatternAccess, Op, Pattern};
    /// let rows = Pattern::Rows { op: Op::DsWrite { bits: 128 } };
    /// assert_eq!(PatternAccess::new(rows, 64, 64, 2, 64)?.coordinate(0, 9), Some([1, 8]));
    /// assert!(PatternAccess::new(Pattern::Mfma { mdim: 32, op: Op::DsRead { bits: 128 } }, 48, 64, 2, 64).is_err());
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub fn new(
        pattern: Pattern,
        rows: usize,
        cols: usize,
        element_bytes: usize,
        wave: usize,
    ) -> Result<PatternAccess, Error> {
        let (instructions, vec) = pattern.shape(rows, cols, element_bytes, wave)?;
        let window = match pattern {
            Pattern::Mfma { mdim, op } => {
                let warp = catalogue::mfma_a_per_lane(mdim as usize, vec)?;
                let d = Distribution::new(repeat_over(&warp, rows, cols)?)?;
                Some(WindowAccess::new(&d, op, element_bytes, wave)?)
            }
            _ => None,
        };
        if let Some(w) = window {
            debug_assert_eq!(w.instructions(), instructions);
        }
        Ok(PatternAccess { pattern, rows, cols, vec, wave, instructions, window })
    }

    /// The accesses of `pattern` over the 2-D tile `desc` on `arch`: the
    /// tile's lengths and the chip's wave, refused when `desc` is not 2-D.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{arch, window::PatternAccess, Op, Pattern};
    /// let p = Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } };
    /// let tile = cktile_core::Descriptor::packed(&[128, 64])?;
    /// assert_eq!(PatternAccess::over(&tile, p, 2, &arch::GFX942)?, PatternAccess::new(p, 128, 64, 2, 64)?);
    /// assert!(PatternAccess::over(&cktile_core::Descriptor::packed(&[8])?, p, 2, &arch::GFX942).is_err());
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub fn over(
        desc: &Descriptor,
        pattern: Pattern,
        element_bytes: usize,
        arch: &Arch,
    ) -> Result<PatternAccess, Error> {
        let lengths = desc.lengths();
        if lengths.len() != 2 {
            // The patterns give (row, col) coordinates: say the descriptor has the wrong arity.
            return Err(Error::descriptor(DescriptorProblem::NotTwoDimensional { dims: lengths.len() }));
        }
        let (rows, cols) = (lengths.get(0) as usize, lengths.get(1) as usize);
        let access = PatternAccess::new(pattern, rows, cols, element_bytes, arch.wave() as usize)?;
        access.check_contiguous(desc)?;
        Ok(access)
    }

    /// Checks that every lane's vector (its `vec` elements along the last
    /// dimension) is contiguous in `desc`: one instruction moves
    /// consecutive bytes, so a layout that scatters a lane's elements
    /// cannot be accessed this way, and counting its banks would answer a
    /// question no kernel asks. The error names the first lane, how far
    /// its elements are contiguous, and the widest width that is for every
    /// lane. [`over`](Self::over) runs it.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{arch, window::PatternAccess, Op, Pattern};
    /// let rows = Pattern::Rows { op: Op::DsWrite { bits: 128 } };
    /// let a = PatternAccess::new(rows, 8, 4, 4, 64)?;
    /// assert!(a.check_contiguous(&cktile_core::Descriptor::packed(&[8, 4])?).is_ok());
    /// // Row r at offsets 4r, 4r + 1, 4r + 64, 4r + 65: no ds_write_b128 writes it.
    /// let split = cktile_analysis::spec::parse("naive((8,2,2),(4,64,1)) | transform(pass_through(8) on [0] -> [0], merge((2,2)) on [1,2] -> [1])")?;
    /// let e = a.check_contiguous(&split).unwrap_err().to_string();
    /// assert!(e.contains("contiguous for 2 element(s) only") && e.contains("is 2 element(s) (8 bytes)"), "{e}");
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    /// use cktile_analysis::Program;
    pub fn check_contiguous(&self, desc: &Descriptor) -> Result<(), Error> {
        if let Some(w) = &self.window {
            return w.check_contiguous(desc);
        }
        lane_vectors_contiguous(
            &Program::of(desc),
            self.pattern.op(),
            self.vec,
            self.instructions,
            self.wave,
            |i, lane| self.coordinate(i, lane),
        )
    }

    /// The pattern.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{window::PatternAccess, Pattern};
    /// assert_eq!(PatternAccess::new(Pattern::MmaSyncA, 16, 16, 2, 32)?.pattern(), Pattern::MmaSyncA);
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub fn pattern(&self) -> Pattern {
        self.pattern
    }

    /// The tile window the pattern is read through, for the patterns
    /// defined by a distribution.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{window::PatternAccess, Op, Pattern};
    /// let rows = Pattern::Rows { op: Op::DsWrite { bits: 128 } };
    /// assert!(PatternAccess::new(rows, 64, 64, 2, 64)?.window().is_none());
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub fn window(&self) -> Option<&WindowAccess> {
        self.window.as_ref()
    }

    /// How many instructions cover the tile.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{window::PatternAccess, Op, Pattern};
    /// let p = Pattern::Mfma { mdim: 32, op: Op::DsRead { bits: 64 } };
    /// assert_eq!(PatternAccess::new(p, 128, 64, 2, 64)?.instructions(), 32);
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub fn instructions(&self) -> usize {
        self.instructions
    }

    /// The `[row, col]` lane `lane` of instruction `i` accesses, or `None`
    /// for an inactive lane or past the instructions.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{window::PatternAccess, Op, Pattern};
    /// let p = Pattern::Mfma { mdim: 32, op: Op::DsRead { bits: 64 } };
    /// let a = PatternAccess::new(p, 64, 64, 2, 64)?;
    /// assert_eq!(a.coordinate(1, 40), Some([8, 8 + 4])); // second K block: k = 8 + 4 * (40 / 32)
    /// assert_eq!(a.coordinate(16, 0), None);
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub fn coordinate(&self, i: usize, lane: usize) -> Option<[i64; 2]> {
        if i >= self.instructions || lane >= self.wave {
            return None;
        }
        match &self.window {
            Some(w) => w.coordinate(i, lane),
            None => {
                self.pattern.coordinate_valid(self.rows, self.cols, self.vec, self.wave, i, lane).map(|(r, c)| [r, c])
            }
        }
    }
}

/// The counts of the tools crate's `analyze_distribution` as a `const fn`: every
/// instruction of the tile window of `op` over distribution `d` counted
/// over `desc`, after the same checks (the window's, then every lane's
/// vector contiguous in `desc`), summed as [`analyze_tile`](super::analyze_tile)
/// sums a pattern's. What [`assert_conflict_free!`](crate::assert_conflict_free)
/// evaluates at compile time for a distribution.
///
/// ```
/// use cktile_analysis::analyzer::{arch, window::analyze_window, Op};
/// use cktile_core::distribution::{catalogue, Distribution};
/// // CK's block DRAM distribution storing a 128 x 32 fp16 tile row-major:
/// // 8 ds_write_b128 per warp, 64 phases, no conflict.
/// let a = Distribution::new(catalogue::gemm_dram(256, 128, 32, 8)?)?;
/// let lds = cktile_core::Descriptor::packed(&[128, 32])?;
/// let counts = analyze_window(&lds, 2, &arch::GFX942, &a, Op::DsWrite { bits: 128 })?;
/// assert_eq!((counts.instructions, counts.phases, counts.conflict_cycles), (8, 64, 0));
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
#[inline] // as `require_conflict_free_distribution` (see there), not compiled into the library
pub const fn analyze_window(
    desc: &Descriptor,
    element_bytes: usize,
    arch: &Arch,
    d: &Distribution,
    op: Op,
) -> Result<TileCounts, Error> {
    let (w, lanes) = tri!(fitted(desc, element_bytes, arch, d, op));
    counted(&w, &lanes, element_bytes, &mut Tally::new(arch, op, false), &mut [])
}

/// The window of `op` over `d` and its lanes in `desc`, after the checks
/// of the window alone (its shape, its size on the chip, X fitting `desc`:
/// [`WindowAccess::program_over`]), before the vectors' check.
#[inline] // as `analyze_window`
///
/// ```
/// use cktile_analysis::analyzer::window::{WindowLanes, analyze_window, counted, fitted, placed};
/// use cktile_analysis::analyzer::{Op, arch, tile::Tally};
/// use cktile_core::distribution::{Distribution, catalogue};
/// let d = Distribution::new(catalogue::mfma_a(32, 8)?)?;
/// let lds = cktile_core::Descriptor::packed(&[32, 8])?;
/// let op = Op::DsRead { bits: 64 };
/// let (w, lanes) = fitted(&lds, 2, &arch::GFX942, &d, op)?;
/// // Counted in one walk of the lanes: what analyze_window answers.
/// let totals = counted(&w, &lanes, 2, &mut Tally::new(&arch::GFX942, op, false), &mut [])?;
/// assert_eq!(totals, analyze_window(&lds, 2, &arch::GFX942, &d, op)?);
/// // The lanes as placed, or as made directly, give one instruction's addresses alike.
/// let again = placed(&w, &lds)?;
/// assert_eq!(again.addresses(&w, 2, 0)?.options(), WindowLanes::new(&w, &lds).addresses(&w, 2, 0)?.options());
/// assert_eq!(lanes.addresses(&w, 2, 0)?.options(), again.addresses(&w, 2, 0)?.options());
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
pub const fn fitted(
    desc: &Descriptor,
    element_bytes: usize,
    arch: &Arch,
    d: &Distribution,
    op: Op,
) -> Result<(WindowAccess, WindowLanes), Error> {
    let w = tri!(WindowAccess::new(d, op, element_bytes, arch.wave() as usize));
    tri!(w.check_size(arch));
    let lanes = tri!(placed(&w, desc));
    Ok((w, lanes))
}

/// The lanes of `w` placed in `desc`, once its X is known to fit there
/// ([`WindowAccess::program_over`]): built once for every count, check and
/// report of the window.
#[inline] // as `analyze_window`
///
/// (See [`fitted`] for an example.)
pub const fn placed(w: &WindowAccess, desc: &Descriptor) -> Result<WindowLanes, Error> {
    tri!(w.program_over(desc));
    Ok(WindowLanes::new(w, desc))
}

/// The window of `op` over `d`, after the checks every analysis of it
/// makes (its size on the chip, X fitting `desc`, each lane's vector
/// contiguous in `desc`), with its lanes in `desc`, where its addresses
/// come from ([`WindowLanes`]).
#[inline] // as `analyze_window`
pub(crate) const fn prepared(
    desc: &Descriptor,
    element_bytes: usize,
    arch: &Arch,
    d: &Distribution,
    op: Op,
) -> Result<(WindowAccess, WindowLanes), Error> {
    let (w, lanes) = tri!(fitted(desc, element_bytes, arch, d, op));
    tri!(lanes.check_contiguous(&w));
    Ok((w, lanes))
}

/// The two lanes behind the worst conflict of a window's instruction
/// `instruction`, phase `phase` (as [`analyze_window`] numbers them, the
/// phases of every access in order): `(bank, lane, lane)`, `None` when that
/// phase has no conflict. What the window's compile-time check names.
///
/// ```
/// use cktile_analysis::analyzer::{arch, window::{analyze_window, window_conflict}, Op};
/// use cktile_core::distribution::{catalogue, Distribution};
/// // fp16 16x32 tile stored row-major: rows r and r + 2 share their banks.
/// let (desc, a) = (cktile_core::Descriptor::packed(&[16, 32])?, Distribution::new(catalogue::mfma_a(16, 32)?)?);
/// let op = Op::DsRead { bits: 128 };
/// let c = analyze_window(&desc, 2, &arch::GFX942, &a, op)?;
/// let lanes = window_conflict(&desc, 2, &arch::GFX942, &a, op, c.worst_instruction, c.worst_phase)?;
/// assert_eq!(lanes, Some((0, 0, 2)));
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
#[inline] // as `analyze_window`
pub const fn window_conflict(
    desc: &Descriptor,
    element_bytes: usize,
    arch: &Arch,
    d: &Distribution,
    op: Op,
    instruction: u32,
    phase: u32,
) -> Result<Option<(u32, u32, u32)>, Error> {
    let (w, lanes) = tri!(prepared(desc, element_bytes, arch, d, op));
    conflict_in(&w, &lanes, element_bytes, arch, instruction, phase)
}

/// [`window_conflict`] of a window whose checks passed.
#[inline] // as `analyze_window`
const fn conflict_in(
    w: &WindowAccess,
    lanes: &WindowLanes,
    element_bytes: usize,
    arch: &Arch,
    instruction: u32,
    phase: u32,
) -> Result<Option<(u32, u32, u32)>, Error> {
    let addrs = tri!(lanes.addresses(w, element_bytes, instruction as usize));
    let n = addrs.lanes;
    let addrs = addrs.options();
    let r = super::rules::rule(arch, w.op);
    let phases = r.grouping.phases();
    if phases == 0 {
        return Ok(None);
    }
    let (access, p) = (phase as usize / phases, phase as usize % phases);
    Ok(super::model::conflicting_lanes(w.op, &r, access as u32, p, addrs.split_at(n).0))
}

/// [`require_conflict_free`](super::tile::require_conflict_free) for the instructions a CK tile window issues
/// over a distribution (the encoding's, [`analyze_window`]):
/// `op` over every warp's Y accesses. What the five-argument
/// [`assert_conflict_free!`](crate::assert_conflict_free) runs. A conflict
/// is named down to its lanes ([`window_conflict`]):
/// "the window has bank conflicts on gfx942: 4 extra cycles over 8; worst:
/// instruction 0, phase 0, 2-way: lanes 0 and 9 touch two words of bank 0".
///
/// ```
/// use cktile_analysis::analyzer::{arch, window::require_conflict_free_distribution, Op};
/// use cktile_core::distribution::{catalogue, Encoding};
/// const LDS: cktile_core::Descriptor = match cktile_core::Descriptor::packed(&[128, 32]) {
///     Ok(d) => d,
///     Err(e) => panic!("{}", e.summary()),
/// };
/// // catalogue::gemm_dram(256, 128, 32, 8), whose lists Encoding::new takes at compile time.
/// const DRAM: Encoding = match Encoding::new(&[1], &[&[2, 4, 16], &[4, 8]], &[&[1], &[1, 2]], &[&[1], &[2, 0]], &[1, 2], &[0, 1]) {
///     Ok(e) => e,
///     Err(e) => panic!("{}", e.summary()),
/// };
/// assert_eq!(DRAM, catalogue::gemm_dram(256, 128, 32, 8)?);
/// const _: () = require_conflict_free_distribution(&LDS, 2, &arch::GFX942, DRAM, Op::DsWrite { bits: 128 });
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
// `#[inline]`: compiled only where it is called at run time (it is meant for
// constant evaluation), never into the library: compiled for amdgcn gfx942,
// its frame makes LLVM's AMDGPU backend fail ("Cannot scavenge register in FI
// elimination").
#[inline]
pub const fn require_conflict_free_distribution(
    desc: &Descriptor,
    element_bytes: usize,
    arch: &Arch,
    encoding: Encoding,
    op: Op,
) {
    let d = match Distribution::new(encoding) {
        Ok(d) => d,
        Err(e) => cktile_core::typed::static_failure(&e),
    };
    // analyze_window and window_conflict, the window fitted and its lanes placed once.
    let (counts, lanes) = match fitted(desc, element_bytes, arch, &d, op) {
        Ok((w, lanes)) => {
            let counts = counted(&w, &lanes, element_bytes, &mut Tally::new(arch, op, false), &mut []);
            // Name the two lanes behind the worst conflict, as the CLI's report does.
            let named = match counts {
                Ok(c) if c.conflict_cycles > 0 => {
                    match conflict_in(&w, &lanes, element_bytes, arch, c.worst_instruction, c.worst_phase) {
                        Ok(named) => named,
                        Err(_) => None,
                    }
                }
                _ => None,
            };
            (counts, named)
        }
        Err(e) => (Err(e), None),
    };
    fail_on_conflicts(arch, counts, lanes)
}

/// Fails the build when a static layout has bank conflicts under an access
/// pattern: `assert_conflict_free!(DESCRIPTOR, element_bytes, arch, pattern)`,
/// or under the instructions a CK tile window issues over a distribution:
/// `assert_conflict_free!(DESCRIPTOR, element_bytes, arch, encoding, op)`
/// (the encoding a const [`Encoding`], e.g. a typed encoding's
/// [`TileEncoding::ENCODING`](cktile_core::distribution::typed::TileEncoding::ENCODING),
/// its X the descriptor's top; see [`analyze_window`]).
///
/// It expands to a non-generic `const _: () = ...;` item, so `cargo check`
/// reports it too. (A check inside a generic function would be
/// post-monomorphization and fire only on `cargo build` / `cargo test`.)
/// It costs about 0.1 ms of `cargo check` per element the lanes read
/// (half a second for CK's 32 `ds_read_b64` reads of a 128 x 32 block),
/// within rustc's default const-evaluation limit: no
/// `long_running_const_eval` to allow.
///
/// ```
/// use cktile_analysis::analyzer::{arch, Op, Pattern};
/// const GEMM_A: cktile_core::Descriptor =
///     match cktile_analysis::layouts::ck::universal_a(128, 64, 8, 2, 32, cktile_analysis::layouts::ck::UnmergeOrder::Fixed2025) {
///         Ok(d) => d,
///         Err(e) => panic!("{}", e.summary()),
///     };
/// cktile_analysis::assert_conflict_free!(GEMM_A, 2, arch::GFX942, Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } });
/// cktile_analysis::assert_conflict_free!(GEMM_A, 2, arch::GFX942, Pattern::Rows { op: Op::DsWrite { bits: 128 } });
///
/// // CK's block DRAM distribution stores its 128 x 32 A tile with ds_write_b128.
/// cktile_core::tile_distribution_encoding! {
///     struct GemmDram {
///         rs_lengths: [1],
///         hs_lengthss: [[2, 4, 16], [4, 8]],
///         ps_to_rhss_major: [[1], [1, 2]],
///         ps_to_rhss_minor: [[1], [2, 0]],
///         ys_to_rhs_major: [1, 2],
///         ys_to_rhs_minor: [0, 1],
///     }
/// }
/// use cktile_core::distribution::typed::TileEncoding;
/// const A_BLOCK: cktile_core::Descriptor =
///     match cktile_analysis::layouts::ck::universal_a(128, 32, 8, 2, 32, cktile_analysis::layouts::ck::UnmergeOrder::Fixed2025) {
///         Ok(d) => d,
///         Err(e) => panic!("{}", e.summary()),
///     };
/// cktile_analysis::assert_conflict_free!(A_BLOCK, 2, arch::GFX942, GemmDram::ENCODING, Op::DsWrite { bits: 128 });
/// ```
///
/// A conflicting layout fails the build (the row-major 16 x 32 tile under
/// the 16x16x32 MFMA's A reads: rows r and r + 2 share their banks):
///
/// ```compile_fail
/// use cktile_analysis::analyzer::{arch, Op};
/// const ROW_MAJOR: cktile_core::Descriptor = match cktile_core::Descriptor::packed(&[16, 32]) {
///     Ok(d) => d,
///     Err(e) => panic!("{}", e.summary()),
/// };
/// // catalogue::mfma_a(16, 32)
/// const MFMA_A: cktile_core::distribution::Encoding =
///     match cktile_core::distribution::Encoding::new(&[], &[&[16], &[4, 8]], &[&[2, 1]], &[&[0, 0]], &[2], &[1]) {
///         Ok(e) => e,
///         Err(e) => panic!("{}", e.summary()),
///     };
/// cktile_analysis::assert_conflict_free!(ROW_MAJOR, 2, arch::GFX942, MFMA_A, Op::DsRead { bits: 128 });
/// ```
#[macro_export]
macro_rules! assert_conflict_free {
    ($desc:expr, $element_bytes:expr, $arch:expr, $pattern:expr $(,)?) => {
        const _: () = $crate::analyzer::tile::require_conflict_free(&$desc, $element_bytes, &$arch, $pattern);
    };
    ($desc:expr, $element_bytes:expr, $arch:expr, $encoding:expr, $op:expr $(,)?) => {
        const _: () = $crate::analyzer::window::require_conflict_free_distribution(
            &$desc,
            $element_bytes,
            &$arch,
            $encoding,
            $op,
        );
    };
}
