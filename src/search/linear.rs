//! The XOR-linear family, searched class by class without building a
//! descriptor per member.
//!
//! A member stores `(row, col)` at
//! `row * cols + ((col / vec) ^ f(row)) * vec + col % vec` with `f` linear
//! over GF(2) in the row's bits. Two facts make
//! the search exhaustive and fast:
//!
//! - A row bit that is the same for every lane of a phase XORs all of that
//!   phase's vector indices with one constant. Row, vector and element are
//!   disjoint bit fields of the address (every length here is a power of
//!   two), so that is an XOR of every address with one constant: a
//!   permutation of the banks that keeps equal words equal and distinct words
//!   distinct, which leaves the phase's cost unchanged. Only the masks of the
//!   *active* row bits (those that vary inside some phase) matter.
//! - An instruction's cost depends only on the masks of the row bits that vary
//!   inside its own phases, and instructions whose lanes have the same shape
//!   (the same columns, relative rows and active row bits, at addresses one
//!   bank period apart) cost the same. Each such shape is counted once per
//!   setting of its masks and the result reused.

use super::problem::Problem;
use super::workload::{PatternCost, Workload};
use crate::analyzer::model::PhaseTable;
use crate::analyzer::rules::rule;
use crate::error::Error;
use crate::layouts::xor_linear::{Run, runs};
use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;

/// The most classes the family is searched over; more is reported, not cut.
pub const MAX_CLASSES: u64 = 1 << 20;

/// What the family search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LinearOutcome {
    /// log2 of the vectors per row.
    pub column_bits: u32,
    /// Row bits of the tile.
    pub row_bits: u32,
    /// The active row bits, lowest first.
    pub active: Vec<u32>,
    /// Classes searched (`(cols / vec) ^ active.len()`).
    pub classes: u64,
    /// For each distinct total cost, the member with the fewest swizzle runs:
    /// `(per-pattern costs, masks by row bit, runs)`.
    pub best: Vec<(Vec<PatternCost>, Vec<usize>, usize)>,
    /// How many classes reach the lowest total.
    pub optimal_classes: u64,
}

/// Why the family could not be searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Skipped {
    /// `cols / vec` is not a power of two.
    NotPowerOfTwo,
    /// Too many classes.
    TooMany { classes_log2: u32 },
}

/// One instruction shape: which pattern, how many instructions share it,
/// an instruction to count, the active bits that vary in it, and the costs
/// already counted by the setting of those bits' masks.
struct Shape {
    pattern: usize,
    times: u64,
    instruction: usize,
    varying: Vec<usize>,
    /// Entries of `memo`, one per setting of the varying bits' masks
    /// (allocated when the search runs).
    memo_len: usize,
    memo: Vec<Option<crate::analyzer::Counts>>,
}

/// The bits of `x` at the positions `bits`, packed.
fn gather(x: usize, bits: &[u32]) -> usize {
    bits.iter().enumerate().fold(0, |acc, (k, &b)| acc | (((x >> b) & 1) << k))
}

/// The family's search, prepared: its classes and instruction shapes, with
/// the work left to count them known before any is counted.
pub(crate) struct Prepared {
    column_bits: u32,
    row_bits: u32,
    active: Vec<u32>,
    classes: u64,
    shapes: Vec<Shape>,
}

impl Prepared {
    /// Work units the search takes: every class visits every shape, and each
    /// shape's memo entry costs one instruction's lanes when first counted.
    pub fn work(&self, wave: u64) -> u64 {
        let visits = self.classes.saturating_mul(self.shapes.len() as u64);
        let memo: u64 = self.shapes.iter().map(|s| s.memo_len as u64).fold(0, u64::saturating_add);
        visits.saturating_add(memo.saturating_mul(wave))
    }

    /// Classes searched.
    pub fn classes(&self) -> u64 {
        self.classes
    }
}

/// Finds the active row bits and the instruction shapes (no counting yet).
pub(crate) fn prepare(p: &Problem, unit: usize, work: &Workload) -> Result<Prepared, Skipped> {
    let chunks = p.cols / unit;
    if !chunks.is_power_of_two() {
        return Err(Skipped::NotPowerOfTwo);
    }
    let column_bits = chunks.trailing_zeros();
    let row_bits = usize::BITS - (p.rows - 1).leading_zeros();
    let arch = &work.arch;
    // Active row bits: those that differ between two lanes of one phase.
    let mut varying_all = 0usize;
    let mut per_instruction: Vec<Vec<usize>> = Vec::new();
    for w in &work.patterns {
        let g = rule(arch, w.op).grouping;
        let mut v = Vec::with_capacity(w.lanes.len());
        for lanes in &w.lanes {
            let mut varying = 0;
            for phase in 0..g.phases() {
                let mut first = None;
                for &lane in g.phase(phase) {
                    if let Some(Some((r, _))) = lanes.get(lane as usize) {
                        match first {
                            None => first = Some(*r),
                            Some(r0) => varying |= r0 ^ r,
                        }
                    }
                }
            }
            varying_all |= varying;
            v.push(varying);
        }
        per_instruction.push(v);
    }
    let active: Vec<u32> = (0..row_bits).filter(|b| (varying_all >> b) & 1 == 1).collect();
    let classes_log2 = column_bits * active.len() as u32;
    if classes_log2 > MAX_CLASSES.trailing_zeros() {
        return Err(Skipped::TooMany { classes_log2 });
    }
    let classes = 1u64 << classes_log2;
    // Group instructions into shapes.
    // A row's start modulo the widest bank period of the patterns' instructions.
    let period = p.bank_period_bytes();
    let row_bytes = p.cols * p.element_bytes;
    let mut shapes: BTreeMap<Vec<usize>, Shape> = BTreeMap::new();
    for (pi, w) in work.patterns.iter().enumerate() {
        for (i, lanes) in w.lanes.iter().enumerate() {
            let varying: Vec<usize> =
                (0..active.len()).filter(|&k| (per_instruction[pi][i] >> active[k]) & 1 == 1).collect();
            let vbits: Vec<u32> = varying.iter().map(|&k| active[k]).collect();
            let r_min = lanes.iter().flatten().map(|&(r, _)| r).min().unwrap_or(0);
            let mut key = vec![pi, (r_min * row_bytes) % period];
            for at in lanes.iter().take(arch.wave() as usize) {
                match *at {
                    Some((r, c)) => key.extend([1, r - r_min, c, gather(r, &vbits)]),
                    None => key.push(0),
                }
            }
            let shape = shapes.entry(key).or_insert_with(|| Shape {
                pattern: pi,
                times: 0,
                instruction: i,
                memo_len: 1usize << (column_bits as usize * varying.len()),
                memo: Vec::new(),
                varying,
            });
            shape.times += 1;
        }
    }
    Ok(Prepared { column_bits, row_bits, active, classes, shapes: shapes.into_values().collect() })
}

/// Searches every class of the prepared family; `progress` gets each class
/// counted.
pub(crate) fn run(
    prepared: Prepared,
    p: &Problem,
    unit: usize,
    work: &Workload,
    progress: &mut dyn FnMut(u64),
) -> Result<LinearOutcome, Error> {
    let Prepared { column_bits, row_bits, active, classes, mut shapes } = prepared;
    let chunks = p.cols / unit;
    for s in &mut shapes {
        s.memo = vec![None; s.memo_len];
    }
    let eb = p.element_bytes;
    let cols = p.cols;
    let mut by_total: BTreeMap<u64, (Vec<PatternCost>, Vec<usize>, usize)> = BTreeMap::new();
    let mut optimal = (u64::MAX, 0u64);
    let mut masks = vec![0usize; row_bits as usize];
    let mut chain = [Run { bits: 0, base: 0, shift: 0 }; 64];
    let mut table = PhaseTable::EMPTY;
    for class in 0..classes {
        progress(class);
        for (k, &b) in active.iter().enumerate() {
            masks[b as usize] = ((class >> (column_bits as usize * k)) as usize) & (chunks - 1);
        }
        let mut costs = vec![PatternCost::default(); work.patterns.len()];
        for s in &mut shapes {
            let sub = s
                .varying
                .iter()
                .enumerate()
                .fold(0usize, |acc, (k, &a)| acc | (masks[active[a] as usize] << (column_bits as usize * k)));
            let counts = match s.memo[sub] {
                Some(c) => c,
                None => {
                    let f = |r: usize| {
                        masks
                            .iter()
                            .enumerate()
                            .fold(0usize, |acc, (j, &m)| if (r >> j) & 1 == 1 { acc ^ m } else { acc })
                    };
                    let mut address = |_: usize, _: usize, r: usize, c: usize| -> Result<u64, Error> {
                        let e = r * cols + ((c / unit) ^ f(r)) * unit + c % unit;
                        Ok((e * eb) as u64)
                    };
                    let c = work.instruction(&mut table, &work.patterns[s.pattern], s.instruction, &mut address)?;
                    s.memo[sub] = Some(c);
                    c
                }
            };
            costs[s.pattern].add(&counts, s.times);
        }
        let total: u64 = costs.iter().map(|c| c.cycles).sum();
        match total.cmp(&optimal.0) {
            core::cmp::Ordering::Less => optimal = (total, 1),
            core::cmp::Ordering::Equal => optimal.1 += 1,
            core::cmp::Ordering::Greater => {}
        }
        let n = runs(&masks, column_bits, unit.trailing_zeros(), &mut chain);
        let better = by_total.get(&total).is_none_or(|(_, _, best)| n < *best);
        if better {
            by_total.insert(total, (costs, masks.clone(), n));
        }
    }
    Ok(LinearOutcome {
        column_bits,
        row_bits,
        active,
        classes,
        best: by_total.into_values().collect(),
        optimal_classes: optimal.1,
    })
}
