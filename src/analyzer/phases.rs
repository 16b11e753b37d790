//! Which lanes the banks serve together: the phase grouping of each
//! instruction on each chip.
//!
//! Sources: the CK Tile docs and measurements of gfx942 and gfx950
//! (nod-ai/amd-shark-ai `docs/empirical-lds`), for NVIDIA the CUDA
//! programming guide's 32-bit bank rule with 64-bit accesses in half-warps
//! and 128-bit accesses in quarter-warps (the model Triton uses), and
//! `ldmatrix`'s one 8-row matrix per pass. Groupings no source gives are
//! marked [`Grouping::assumption`] and reported as such; each is one table
//! entry below.

use super::arch::{Arch, Vendor};
use super::op::Op;

/// The most lanes of a wave.
///
/// ```
/// use cktile::analyzer::{phases::MAX_LANES, ARCHS};
/// assert!(ARCHS.iter().all(|a| a.wave as usize <= MAX_LANES));
/// ```
pub const MAX_LANES: usize = 64;

/// The phases of one instruction: `phases` groups of `lanes_per_phase`
/// lanes, listed in `lanes` phase after phase.
///
/// ```
/// use cktile::analyzer::{arch, phases::grouping, Op};
/// let g = grouping(&arch::GFX942, Op::DsRead { bits: 128 });
/// assert_eq!((g.phases, g.lanes_per_phase), (8, 8));
/// assert_eq!(g.phase(0), &[0, 1, 2, 3, 20, 21, 22, 23]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grouping {
    /// Number of phases.
    pub phases: usize,
    /// Lanes per phase.
    pub lanes_per_phase: usize,
    /// The lanes of every phase, in order.
    pub lanes: [u8; MAX_LANES],
    /// `Some(why)` when no source gives this grouping and cktile assumes it.
    pub assumption: Option<&'static str>,
}

impl Grouping {
    /// The lanes of phase `p`.
    ///
    /// ```
    /// use cktile::analyzer::{arch, phases::grouping, Op};
    /// assert_eq!(grouping(&arch::SM90, Op::LdShared { bits: 64 }).phase(1)[0], 16);
    /// ```
    pub const fn phase(&self, p: usize) -> &[u8] {
        let start = p * self.lanes_per_phase;
        let end = start + self.lanes_per_phase;
        if end > MAX_LANES { &[] } else { self.lanes.split_at(end).0.split_at(start).1 }
    }
}

/// Consecutive lanes: `phases` groups of `per` lanes.
const fn consecutive(phases: usize, per: usize, assumption: Option<&'static str>) -> Grouping {
    let mut lanes = [0u8; MAX_LANES];
    let mut i = 0;
    while i < phases * per && i < MAX_LANES {
        lanes[i] = i as u8;
        i += 1;
    }
    Grouping { phases, lanes_per_phase: per, lanes, assumption }
}

/// Phases made of runs of four lanes: `runs[p]` lists the first lane of each run of phase `p`.
const fn runs_of_four<const P: usize, const R: usize>(runs: [[u8; R]; P]) -> Grouping {
    let mut lanes = [0u8; MAX_LANES];
    let mut p = 0;
    let mut n = 0;
    while p < P {
        let mut r = 0;
        while r < R {
            let mut j = 0;
            while j < 4 {
                lanes[n] = runs[p][r] + j;
                n += 1;
                j += 1;
            }
            r += 1;
        }
        p += 1;
    }
    Grouping { phases: P, lanes_per_phase: 4 * R, lanes, assumption: None }
}

/// gfx90a / gfx942 `ds_read_b128`: {0-3, 20-23}, {32-35, 52-55}, {4-7, 16-19}, {36-39, 48-51},
/// {8-11, 28-31}, {40-43, 60-63}, {12-15, 24-27}, {44-47, 56-59}.
const CDNA3_READ_B128: Grouping =
    runs_of_four([[0, 20], [32, 52], [4, 16], [36, 48], [8, 28], [40, 60], [12, 24], [44, 56]]);

/// gfx950 `ds_read_b128`: {0-3, 12-15, 20-23, 24-27}, {32-35, 44-47, 52-55, 56-59},
/// {4-7, 8-11, 16-19, 28-31}, {36-39, 40-43, 48-51, 60-63}.
const CDNA4_READ_B128: Grouping = runs_of_four([[0, 12, 20, 24], [32, 44, 52, 56], [4, 8, 16, 28], [36, 40, 48, 60]]);

const WRITE_B64: &str = "no source gives the ds_write_b64 grouping; cktile assumes consecutive lanes filling \
one pass of the banks (16 lanes on 32 banks, 32 on 64), as ds_read_b64";
const CDNA3_WRITE_B32: &str = "no source gives the ds_write_b32 grouping; cktile assumes ds_read_b32's \
(lanes 0-31, then 32-63)";
const CDNA4_WRITE: &str = "no source gives gfx950's ds_write groupings; cktile assumes consecutive lanes \
filling one pass of the 64 banks";

/// The phase grouping of `op` on `arch` (an instruction the chip does not
/// have gets no phases; see [`Op::runs_on`]).
///
/// ```
/// use cktile::analyzer::{arch, phases::grouping, Op};
/// assert!(grouping(&arch::GFX942, Op::DsWrite { bits: 64 }).assumption.is_some());
/// assert_eq!(grouping(&arch::GFX950, Op::DsRead { bits: 32 }).phases, 1);
/// ```
pub const fn grouping(arch: &Arch, op: Op) -> Grouping {
    if !op.runs_on(arch) {
        return consecutive(0, 0, None);
    }
    let wide = arch.banks == 64;
    match (arch.vendor, op) {
        (Vendor::Amd, Op::DsRead { bits: 128 }) => {
            if wide {
                CDNA4_READ_B128
            } else {
                CDNA3_READ_B128
            }
        }
        (Vendor::Amd, Op::DsWrite { bits: 128 }) => {
            if wide {
                consecutive(4, 16, Some(CDNA4_WRITE))
            } else {
                consecutive(8, 8, None)
            }
        }
        (Vendor::Amd, Op::DsRead { bits: 64 }) => {
            if wide {
                consecutive(2, 32, None)
            } else {
                consecutive(4, 16, None)
            }
        }
        (Vendor::Amd, Op::DsWrite { bits: 64 }) => {
            if wide {
                consecutive(2, 32, Some(WRITE_B64))
            } else {
                consecutive(4, 16, Some(WRITE_B64))
            }
        }
        (Vendor::Amd, Op::DsRead { .. }) => {
            if wide {
                consecutive(1, 64, None)
            } else {
                consecutive(2, 32, None)
            }
        }
        (Vendor::Amd, Op::DsWrite { .. }) => {
            if wide {
                consecutive(1, 64, Some(CDNA4_WRITE))
            } else {
                consecutive(2, 32, Some(CDNA3_WRITE_B32))
            }
        }
        (Vendor::Nvidia, Op::LdShared { bits } | Op::StShared { bits }) => match bits {
            128 => consecutive(4, 8, None),
            64 => consecutive(2, 16, None),
            _ => consecutive(1, 32, None),
        },
        (Vendor::Nvidia, Op::Ldmatrix { matrices, .. } | Op::Stmatrix { matrices, .. }) => {
            consecutive(matrices as usize, 8, None)
        }
        _ => consecutive(0, 0, None),
    }
}
