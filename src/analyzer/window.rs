//! Access patterns from tile distributions: the shared-memory instructions a
//! CK Tile tile window issues when it loads or stores a distributed tile.
//!
//! Each warp (the first P of a two-P distribution; a one-P distribution is
//! one warp) issues one instruction per access of its Y space: the *vector
//! dimension* (the Y walking the fastest H component of the last X
//! dimension) advances by the instruction's width in elements, the other Ys
//! by one, in row-major order. Every lane (the last P) accesses the vector
//! that starts at the X coordinate of its (P..., Y...). A width that does
//! not divide the vector dimension's length is refused, as CK's
//! `get_vector_dim_y_scalar_per_vector` would. The LDS descriptor's own
//! contiguity is not checked: like the ready patterns, each lane's vector is
//! taken to be contiguous from its first element's offset.
//!
//! ```
//! use cktile::analyzer::{arch, window::{analyze_distribution, WindowAccess}, Op};
//! use cktile::distribution::{catalogue, Distribution};
//! let a = Distribution::new(catalogue::mfma_a(16, 32)?)?;
//! let read = WindowAccess::new(&a, Op::DsRead { bits: 128 }, 2, 64)?;
//! assert_eq!((read.instructions(), read.width(), read.vector_y()), (1, 8, Some(0)));
//! // fp16 16x32 tile stored row-major (64-byte rows): the 8 lanes of a phase
//! // read rows 0..8 at K 0, and rows r and r + 2 share their banks.
//! let r = analyze_distribution(&cktile::Descriptor::packed(&[16, 32])?, 2, &arch::GFX942, &a, Op::DsRead { bits: 128 })?;
//! assert_eq!(r.counts.max_ways, 2);
//! # Ok::<(), cktile::Error>(())
//! ```

use super::arch::Arch;
use super::op::{OP_NAMES, Op};
use super::report::{TileReport, analyze_with};
use crate::Descriptor;
use crate::distribution::{Distribution, EncodingProblem};
use crate::error::{Error, ErrorKind};
use cktile_transforms::{Index, MAX_DIMS};

/// The instructions of a tile window over a distribution: which X
/// coordinate each lane of each instruction accesses.
///
/// ```
/// use cktile::analyzer::{window::WindowAccess, Op};
/// use cktile::distribution::{catalogue, Distribution};
/// let c = Distribution::new(catalogue::mfma_c(32, 8)?)?;
/// // fp32 accumulator stored with ds_write_b32: 16 instructions, one register each.
/// let w = WindowAccess::new(&c, Op::DsWrite { bits: 32 }, 4, 64)?;
/// assert_eq!(w.instructions(), 16);
/// assert_eq!(w.coordinate(5, 40), Some([8 + 4 + 1, 8])); // register 5 of lane 40
/// // ds_write_b64 would need two contiguous registers along N: C holds none.
/// assert!(WindowAccess::new(&c, Op::DsWrite { bits: 64 }, 4, 64).is_err());
/// # Ok::<(), cktile::Error>(())
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

fn window_error(parameter: &'static str, value: usize, requirement: &'static str) -> Error {
    Error::new(ErrorKind::LayoutParameter { layout: "distribution", parameter, value: value as i64, requirement })
}

impl WindowAccess {
    /// The accesses of `op` over `d` for `element_bytes`-byte elements on a
    /// chip with `wave` lanes, checking that X is 2-D, that there are one
    /// or two Ps with at most `wave` lanes, that `op` moves one contiguous
    /// vector of whole elements per lane, and that its width fits the
    /// vector dimension.
    ///
    /// ```
    /// use cktile::analyzer::{window::WindowAccess, Op};
    /// use cktile::distribution::{catalogue, Distribution};
    /// let a = Distribution::new(catalogue::mfma_a(32, 8)?)?;
    /// let e = WindowAccess::new(&a, Op::DsRead { bits: 128 }, 2, 64).unwrap_err();
    /// assert!(e.to_string().contains("the vector dimension Y0 has length 4"));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn new(d: &Distribution, op: Op, element_bytes: usize, wave: usize) -> Result<WindowAccess, Error> {
        let e = d.encoding();
        if e.ndim_x() != 2 {
            return Err(Error::new(ErrorKind::NotTwoDimensional { dims: e.ndim_x() }));
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
            return Err(Error::new(ErrorKind::InvalidOp { op, valid: OP_NAMES }));
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
        if element_bytes == 0 || bytes % element_bytes != 0 {
            return Err(window_error("element bytes", element_bytes, "the access width must be whole elements"));
        }
        let width = bytes / element_bytes;
        // The vector dimension: the Y on the fastest H component of the last X.
        let (ys_major, ys_minor) = e.y_to_rh();
        let last_x = e.ndim_x();
        let fastest = e.hs_lengths(last_x - 1).len() as Index - 1;
        let vector_y =
            (0..e.ndim_y()).rev().find(|&j| ys_major.get(j) == last_x as Index && ys_minor.get(j) == fastest);
        let y = d.y_lengths();
        let mut steps = [0 as Index; MAX_DIMS];
        steps[..y.len()].copy_from_slice(y.as_slice());
        match vector_y {
            Some(j) if y.get(j) % width as Index == 0 => steps[j] /= width as Index,
            Some(j) => {
                let problem = EncodingProblem::VectorWidth { y: j, length: y.get(j), width };
                return Err(Error::new(ErrorKind::Encoding { problem }));
            }
            None if width > 1 => {
                return Err(Error::new(ErrorKind::Encoding { problem: EncodingProblem::NoVectorY { width } }));
            }
            None => {}
        }
        let per_warp = steps[..y.len()].iter().product::<Index>() as usize;
        Ok(WindowAccess { distribution: *d, op, width, vector_y, warps, lanes, steps, per_warp })
    }

    /// How many instructions all warps issue together.
    ///
    /// ```
    /// use cktile::analyzer::{window::WindowAccess, Op};
    /// use cktile::distribution::{catalogue, Distribution};
    /// let a = Distribution::new(catalogue::gemm_dram(256, 128, 32, 8)?)?;
    /// // 4 warps, each 2 (M0) x 1 (K1 = 8 in one ds_write_b128) stores.
    /// assert_eq!(WindowAccess::new(&a, Op::DsWrite { bits: 128 }, 2, 64)?.instructions(), 8);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn instructions(&self) -> usize {
        self.warps * self.per_warp
    }

    /// The instruction's width in elements.
    ///
    /// ```
    /// use cktile::analyzer::{window::WindowAccess, Op};
    /// use cktile::distribution::{catalogue, Distribution};
    /// let a = Distribution::new(catalogue::mfma_a(32, 8)?)?;
    /// assert_eq!(WindowAccess::new(&a, Op::DsRead { bits: 64 }, 2, 64)?.width(), 4);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn width(&self) -> usize {
        self.width
    }

    /// The vector dimension (a Y index), if some Y walks the fastest H
    /// component of the last X.
    ///
    /// ```
    /// use cktile::analyzer::{window::WindowAccess, Op};
    /// use cktile::distribution::{catalogue, Distribution};
    /// let c = Distribution::new(catalogue::mfma_c(16, 16)?)?;
    /// assert_eq!(WindowAccess::new(&c, Op::DsWrite { bits: 32 }, 4, 64)?.vector_y(), None);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn vector_y(&self) -> Option<usize> {
        self.vector_y
    }

    /// The instruction.
    ///
    /// ```
    /// use cktile::analyzer::{window::WindowAccess, Op};
    /// use cktile::distribution::{catalogue, Distribution};
    /// let a = Distribution::new(catalogue::mfma_a(16, 16)?)?;
    /// assert_eq!(WindowAccess::new(&a, Op::DsRead { bits: 64 }, 2, 64)?.op(), Op::DsRead { bits: 64 });
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn op(&self) -> Op {
        self.op
    }

    /// The X coordinate lane `lane` of instruction `i` starts its vector
    /// at, or `None` past the lanes or the instructions.
    ///
    /// ```
    /// use cktile::analyzer::{window::WindowAccess, Op};
    /// use cktile::distribution::{catalogue, Distribution};
    /// let a = Distribution::new(catalogue::gemm_dram(256, 128, 32, 8)?)?;
    /// let w = WindowAccess::new(&a, Op::DsWrite { bits: 128 }, 2, 64)?;
    /// // instruction 3 = warp 1, M0 = 1; lane 9: (64 + 16 + 2, 8).
    /// assert_eq!(w.coordinate(3, 9), Some([82, 8]));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn coordinate(&self, i: usize, lane: usize) -> Option<[i64; 2]> {
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
        for j in (0..ndim_y).rev() {
            let step = self.steps[j].max(1) as usize;
            let mut v = (access % step) as Index;
            access /= step;
            if Some(j) == self.vector_y {
                v *= self.width as Index;
            }
            top[ndim_p + j] = v;
        }
        let x = self.distribution.ps_ys_to_xs().bottom_index_unchecked(&top[..ndim_p + ndim_y]);
        Some([x.get(0), x.get(1)])
    }
}

/// Bank conflicts of the tile window's instructions over `desc` (the LDS
/// layout of the distribution's X), every instruction of every warp counted
/// as the ready patterns are.
///
/// ```
/// use cktile::analyzer::{arch, window::analyze_distribution, Op};
/// use cktile::distribution::{catalogue, Distribution};
/// let a = Distribution::new(catalogue::gemm_dram(256, 128, 32, 8)?)?;
/// let lds = cktile::Descriptor::packed(&[128, 32])?;
/// let r = analyze_distribution(&lds, 2, &arch::GFX942, &a, Op::DsWrite { bits: 128 })?;
/// assert_eq!((r.instructions.len(), r.counts.conflict_cycles), (8, 0));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn analyze_distribution(
    desc: &Descriptor,
    element_bytes: usize,
    arch: &Arch,
    d: &Distribution,
    op: Op,
) -> Result<TileReport, Error> {
    let w = WindowAccess::new(d, op, element_bytes, arch.wave() as usize)?;
    analyze_with(desc, element_bytes, arch, op, w.instructions(), |i, lane| w.coordinate(i, lane))
}
