//! The accesses a problem makes, computed once: for every pattern and
//! instruction, the `(row, col)` each lane touches. A layout's cost is then
//! its byte address for each of them, counted by the analyzer's model.

use super::problem::Problem;
use crate::Error;
use crate::Program;
use crate::analyzer::memo::{CountMemo, LaneAddresses};
use crate::analyzer::model::PhaseTable;
use crate::analyzer::pattern::LaneChunk;
use crate::analyzer::rules::MAX_LANES;
use crate::analyzer::tile::chunk_addresses;
use crate::analyzer::{Arch, Counts, Op};
use crate::program::LANES;
use alloc::vec::Vec;

/// One lane's access: instruction, lane, and the coordinate.
pub(crate) type Lanes = Vec<[Option<(usize, usize)>; MAX_LANES]>;

/// One pattern's accesses.
#[derive(Clone, Debug)]
pub(crate) struct PatternWork {
    /// The instruction every access issues.
    pub op: Op,
    /// Per instruction, per lane.
    pub lanes: Lanes,
    /// The same lanes as the program reads them: per instruction, the
    /// wave's lanes in chunks of [`LANES`] (`chunks_per_instruction` each).
    pub chunks: Vec<LaneChunk>,
}

/// What one pattern costs under one layout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PatternCost {
    /// Passes through the banks over every instruction.
    pub cycles: u64,
    /// Phases: the conflict-free minimum of `cycles`.
    pub phases: u64,
    /// The most distinct words one bank served in one phase.
    pub max_ways: u32,
}

impl PatternCost {
    /// Adds `times` instructions with counts `c`.
    pub(crate) fn add(&mut self, c: &Counts, times: u64) {
        self.cycles += u64::from(c.cycles) * times;
        self.phases += u64::from(c.phases) * times;
        self.max_ways = self.max_ways.max(c.max_ways);
    }
}

/// Every pattern's accesses over the tile.
#[derive(Clone, Debug)]
pub(crate) struct Workload {
    pub arch: Arch,
    pub element_bytes: usize,
    pub patterns: Vec<PatternWork>,
}

impl Workload {
    /// The accesses of a (validated) problem.
    pub fn new(problem: &Problem) -> Result<Workload, Error> {
        let arch = problem.arch;
        let wave = arch.wave() as usize;
        let (rows, cols, eb) = (problem.rows, problem.cols, problem.element_bytes);
        let mut patterns = Vec::new();
        for (_, access) in problem.accesses() {
            let op = access.op();
            let access = access.tiled(rows, cols, eb, wave)?;
            let n = access.instructions();
            let mut lanes = Vec::with_capacity(n);
            for i in 0..n {
                let mut at = [None; MAX_LANES];
                for (lane, slot) in at.iter_mut().enumerate().take(wave) {
                    *slot = access
                        .coordinate(i, lane)
                        .map(|[r, c]| (usize::try_from(r).unwrap_or(0), usize::try_from(c).unwrap_or(0)));
                }
                lanes.push(at);
            }
            let counted = wave.min(MAX_LANES);
            let mut chunks = Vec::with_capacity(n * counted.div_ceil(LANES));
            for at in &lanes {
                for group in at[..counted].chunks(LANES) {
                    let mut chunk = LaneChunk::EMPTY;
                    for (l, slot) in group.iter().enumerate() {
                        if let Some((r, c)) = *slot {
                            chunk.set(l, r, c);
                        }
                    }
                    chunks.push(chunk);
                }
            }
            patterns.push(PatternWork { op, lanes, chunks });
        }
        Ok(Workload { arch, element_bytes: eb, patterns })
    }

    /// Each pattern's cost under a compiled descriptor, with the analyzer's address
    /// rule (a lane on a padded or outside coordinate is an error); each
    /// instruction's lanes go through the program in batches of [`LANES`].
    pub fn program_cost(&self, program: &Program) -> Result<Vec<PatternCost>, Error> {
        let wave = (self.arch.wave() as usize).min(MAX_LANES);
        let mut out = Vec::with_capacity(self.patterns.len());
        let mut table = PhaseTable::EMPTY;
        for p in &self.patterns {
            let mut cost = PatternCost::default();
            let mut memo = CountMemo::new(&self.arch, p.op);
            for (i, chunks) in p.chunks.chunks(wave.div_ceil(LANES)).enumerate() {
                let mut addrs = LaneAddresses::new(wave);
                for (k, chunk) in chunks.iter().enumerate() {
                    let first = k * LANES;
                    chunk_addresses(
                        program,
                        self.element_bytes,
                        i,
                        first,
                        chunk,
                        (wave - first).min(LANES),
                        &mut addrs,
                    )?;
                }
                cost.add(&memo.count_lanes(&mut table, &addrs)?, 1);
            }
            out.push(cost);
        }
        Ok(out)
    }
}
