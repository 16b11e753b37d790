//! A tile window's lanes placed in its layout ([`WindowLanes`]): the walk
//! every count and check of a window ([`analyze_window`](super::analyze_window),
//! the tools crate's `analyze_distribution`,
//! [`WindowAccess::check_contiguous`]) runs over the lanes, at compile
//! time and at run time, and the counting of a whole window in one walk
//! ([`counted`]).

use super::WindowAccess;
use crate::Program;
use crate::analyzer::memo::LaneAddresses;
use crate::analyzer::model::Counts;
use crate::analyzer::pattern::LaneChunk;
use crate::analyzer::rules::MAX_LANES;
use crate::analyzer::tile::{BreakScan, Tally, TileCounts, chunk_walk};
use crate::error::Error;
use crate::program::LANES;
use cktile_core::Descriptor;
use cktile_core::Index;
#[cfg(doc)]
use cktile_core::distribution::Encoding;
use cktile_transforms::tri;

/// A window's lanes placed in its layout, what every count and check of a
/// window reads: each lane's X with the warp and the Ys at 0, the first
/// lane with the same X, and the layout compiled. Built once a window fits
/// its layout ([`WindowAccess::program_over`] succeeded); no other check.
///
/// It gives the same addresses and vector breaks as running the composed
/// program at every lane's (P..., Y...) ([`WindowAccess::address`]) and
/// every element of its vector, but reads each element a window touches
/// once, from the layout's own program, [`LANES`] lanes a batch (in
/// constant evaluation, where each run of a program is interpreted, that is
/// what a compile-time check costs), because of three facts of the encoding
/// (`tests/distribution_analyzer.rs` holds the two ways equal on random
/// encodings, layouts, instructions and element sizes, refusals included):
///
/// - X is a sum of one term per P and per Y, each 0 at 0: an encoding
///   names each R or H component at most once ([`Encoding::new`] refuses
///   others), a Y is one H component, a P merges its components, and each
///   X unmerges its H components. So X(warp, lane, Ys) = X(warp, 0, Ys) +
///   X(0, lane, 0): one adaptor run per instruction and per lane, not per
///   (instruction, lane);
/// - the vector dimension is the fastest H component of the last X, whose
///   stride there is 1, so element `k` of a lane's vector is its X plus `k`
///   along the last dimension, read from the layout's own program (the
///   composed program is the distribution's adaptor followed by it);
/// - R components never reach X: lanes with the same X (a lane that is a
///   copy of an earlier one) have the same address and vector, and so do
///   the instructions of a warp whose X at Y = 0 is an earlier warp's.
///   Their vectors are checked once, at the earlier lane or warp, which is
///   also where a break or a refused address is first seen.
#[derive(Clone, Copy, Debug)]
pub struct WindowLanes {
    layout: Program,
    /// Lane `l`'s X with the warp and the Ys at 0: `coordinate(0, l)`.
    lane_x: [[Index; 2]; MAX_LANES],
    /// The first lane whose X is lane `l`'s (`l` when no earlier lane's is).
    first: [u8; MAX_LANES],
    /// The window's lanes, at most [`MAX_LANES`].
    lanes: usize,
    /// [`Program::runs_along_last`] of the window's width: decided once,
    /// it spares the vector check the elements past each lane's first.
    runs: bool,
}

impl WindowLanes {
    /// The lanes of `w` in `desc`, which its X must fit (as
    /// [`WindowAccess::program_over`] checks).
    #[inline] // as `analyze_window`
    ///
    /// (See [`fitted`](super::fitted) for an example.)
    pub const fn new(w: &WindowAccess, desc: &Descriptor) -> WindowLanes {
        let lanes = if w.lanes < MAX_LANES { w.lanes } else { MAX_LANES };
        let mut out = WindowLanes {
            layout: Program::EMPTY,
            lane_x: [[0; 2]; MAX_LANES],
            first: [0; MAX_LANES],
            lanes,
            runs: false,
        };
        out.layout.compile(desc);
        out.runs = w.vector_y.is_some() && w.width > 1 && out.layout.runs_along_last(w.width);
        let mut lane = 0;
        while lane < lanes {
            if let Some(x) = w.coordinate(0, lane) {
                out.lane_x[lane] = x;
            }
            let mut earlier = 0;
            while earlier < lane && !same_x(out.lane_x[earlier], out.lane_x[lane]) {
                earlier += 1;
            }
            out.first[lane] = earlier as u8;
            lane += 1;
        }
        out
    }

    /// Walks the lanes of instruction `i` (whose X with the lane at 0 is
    /// `base`, `coordinate(i, 0)`), [`LANES`] at a time ([`chunk_walk`]):
    /// each lane's byte address into `out` (lanes that are copies take
    /// their first lane's), and with `vectors` each first lane's vector
    /// breaks into `scan`. Returns the error [`WindowAccess::address`]
    /// gives for the first lane whose element is refused, after walking
    /// every lane (the vector check of the window comes before any
    /// address's refusal).
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    #[allow(clippy::too_many_arguments)]
    const fn walk(
        &self,
        w: &WindowAccess,
        element_bytes: usize,
        i: usize,
        base: [Index; 2],
        vectors: bool,
        scan: &mut BreakScan,
        out: &mut LaneAddresses,
    ) -> Option<Error> {
        let width = if w.width < 64 { w.width } else { 64 };
        let vec = if vectors && w.vector_y.is_some() { width } else { 1 };
        let mut error = None;
        let mut first = 0;
        while first < self.lanes {
            let n = if self.lanes - first < LANES { self.lanes - first } else { LANES };
            let mut chunk = LaneChunk::EMPTY;
            let mut l = 0;
            while l < n {
                let lane = first + l;
                if self.first[lane % MAX_LANES] as usize == lane {
                    let x = self.lane_x[lane % MAX_LANES];
                    chunk.rows[l] = base[0].wrapping_add(x[0]);
                    chunk.cols[l] = base[1].wrapping_add(x[1]);
                    chunk.active |= 1 << l;
                }
                l += 1;
            }
            let mut breaks = [0; LANES];
            let e = chunk_walk(&self.layout, element_bytes, i, first, &chunk, n, vec, self.runs, out, &mut breaks);
            if error.is_none() {
                error = e;
            }
            l = 0;
            while l < n {
                let lane = first + l;
                let copied = self.first[lane % MAX_LANES] as usize % MAX_LANES;
                if copied != lane && (out.active >> copied) & 1 == 1 {
                    // A copy of an earlier lane: its address (its refusal came first).
                    out.set(lane, out.at[copied]);
                }
                if vec > 1 && (chunk.active >> l) & 1 == 1 {
                    scan.see(i, lane, [chunk.rows[l], chunk.cols[l]], breaks[l]);
                }
                l += 1;
            }
            first += n;
        }
        error
    }

    /// The byte address of each lane of instruction `i` of `w`.
    #[inline] // as `analyze_window`
    ///
    /// (See [`fitted`](super::fitted) for an example.)
    pub const fn addresses(&self, w: &WindowAccess, element_bytes: usize, i: usize) -> Result<LaneAddresses, Error> {
        let mut out = LaneAddresses::new(self.lanes);
        let Some(base) = w.coordinate(i, 0) else { return Ok(out) };
        let mut scan = BreakScan::NONE;
        match self.walk(w, element_bytes, i, base, false, &mut scan, &mut out) {
            Some(e) => Err(e),
            None => Ok(out),
        }
    }

    /// [`WindowAccess::check_contiguous`]: every lane's vector of every
    /// instruction of `w` (once per distinct X).
    #[inline] // as `analyze_window`
    pub(super) const fn check_contiguous(&self, w: &WindowAccess) -> Result<(), Error> {
        if w.vector_y.is_none() || w.width <= 1 {
            return Ok(());
        }
        let mut scan = BreakScan::NONE;
        let mut warps = Warps::NONE;
        let mut i = 0;
        while i < w.instructions() {
            let Some(base) = w.coordinate(i, 0) else { break };
            if !warps.copied(w, i, base) {
                let mut out = LaneAddresses::new(self.lanes);
                // Elements 0 are checked here; their refusals are the addresses' to name.
                let _ = self.walk(w, 1, i, base, true, &mut scan, &mut out);
            }
            i += 1;
        }
        scan.verdict(w.op, w.width)
    }
}

/// Whether two X coordinates are equal.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
const fn same_x(a: [Index; 2], b: [Index; 2]) -> bool {
    a[0] == b[0] && a[1] == b[1]
}

/// The warps of a window seen so far, by their X at lane 0 and Y = 0 (the
/// first [`MAX_LANES`] distinct ones): a warp whose X is an earlier warp's
/// is a copy of it (see [`WindowLanes`]).
struct Warps {
    x: [[Index; 2]; MAX_LANES],
    len: usize,
    /// Whether the current warp copies an earlier one.
    copy: bool,
    /// The current warp's place among the distinct warps seen (the one it
    /// copies, or its own; [`MAX_LANES`] when the table was full).
    slot: usize,
}

impl Warps {
    const NONE: Warps = Warps { x: [[0; 2]; MAX_LANES], len: 0, copy: false, slot: 0 };

    /// Whether instruction `i` of `w` (X at lane 0: `base`) belongs to a
    /// warp that copies an earlier one; its first instruction decides.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    const fn copied(&mut self, w: &WindowAccess, i: usize, base: [Index; 2]) -> bool {
        if w.per_warp == 0 || !i.is_multiple_of(w.per_warp) {
            return self.copy;
        }
        let mut k = 0;
        while k < self.len && !same_x(self.x[k], base) {
            k += 1;
        }
        self.copy = k < self.len;
        self.slot = k;
        if !self.copy && self.len < MAX_LANES {
            self.x[self.len] = base;
            self.len += 1;
        }
        self.copy
    }
}

/// How many instructions' counts [`counted`] keeps for the warps that copy
/// an earlier warp (the first instructions of the first warps).
const KEPT: usize = 256;

/// Every instruction of a [`fitted`](super::fitted) window counted into
/// `tally` (`per` as [`Tally::count`] fills it), in one walk of its lanes
/// that also checks their vectors: the answer of checking every vector
/// first (`prepared`), then counting instruction by
/// instruction (the first refused address or count stops it). A warp that
/// copies an earlier one ([`WindowLanes`]) issues that warp's instructions
/// again: their counts are added again without walking them (where kept).
#[inline] // as `analyze_window`
pub const fn counted(
    w: &WindowAccess,
    lanes: &WindowLanes,
    element_bytes: usize,
    tally: &mut Tally,
    per: &mut [Counts],
) -> Result<TileCounts, Error> {
    let (mut scan, mut warps, mut refused) = (BreakScan::NONE, Warps::NONE, None);
    let none = Counts { phases: 0, cycles: 0, conflict_cycles: 0, max_ways: 0, worst_phase: 0, active_lanes: 0 };
    let mut kept = [none; KEPT];
    let vectors = w.vector_y.is_some() && w.width > 1;
    let mut i = 0;
    while i < w.instructions() {
        let Some(base) = w.coordinate(i, 0) else { break };
        let copy = warps.copied(w, i, base);
        // Instruction i's place among the kept counts: its warp's (or the
        // warp it copies) slot, then its access; none past the slots.
        let k = if warps.slot < MAX_LANES {
            warps.slot.saturating_mul(w.per_warp).saturating_add(i % w.per_warp)
        } else {
            KEPT
        };
        if copy && k < KEPT {
            if refused.is_none()
                && let Err(e) = tally.add(i, &kept[k], None, per)
            {
                refused = Some(e);
            }
        } else if refused.is_none() || (vectors && !copy) {
            let mut addrs = LaneAddresses::new(lanes.lanes);
            let e = lanes.walk(w, element_bytes, i, base, vectors && !copy, &mut scan, &mut addrs);
            if refused.is_none() {
                refused = match e {
                    Some(e) => Some(e),
                    None => match tally.count(i, &addrs, per) {
                        Ok(c) => {
                            if k < KEPT {
                                kept[k] = c;
                            }
                            None
                        }
                        Err(e) => Some(e),
                    },
                };
            }
        }
        i += 1;
    }
    tri!(scan.verdict(w.op, w.width));
    match refused {
        Some(e) => Err(e),
        None => Ok(tally.totals),
    }
}
