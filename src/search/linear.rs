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

use super::parallel;
use super::problem::Problem;
use super::workload::{PatternCost, Workload};
use crate::Error;
use crate::analyzer::model::{PhaseTable, count_in, count_validated, validate};
use crate::analyzer::rules::{MAX_LANES, rule};
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
    /// Its classes and instruction shapes take more work than the search
    /// has left of [`MAX_WORK`](super::MAX_WORK) after the other families.
    TooMuchWork { classes_log2: u32, shapes: usize, work: u64, left: u64 },
}

/// One instruction shape: which pattern, how many instructions share it,
/// an instruction to count, the active bits that vary in it, and the costs
/// already counted by the setting of those bits' masks.
struct Shape {
    pattern: usize,
    times: u64,
    instruction: usize,
    varying: Vec<usize>,
    /// Settings of the varying bits' masks, each counted once.
    memo_len: usize,
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

    /// Why the family is left out when its work is past the `left` units
    /// the search has left: its classes, shapes and work.
    pub fn too_much(&self, wave: u64, left: u64) -> Skipped {
        Skipped::TooMuchWork {
            classes_log2: self.classes.trailing_zeros(),
            shapes: self.shapes.len(),
            work: self.work(wave),
            left,
        }
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
                varying,
            });
            shape.times += 1;
        }
    }
    Ok(Prepared { column_bits, row_bits, active, classes, shapes: shapes.into_values().collect() })
}

/// What one run of consecutive classes found: for each total, the first
/// member with the fewest swizzle runs, and the lowest total with how many
/// classes reach it.
#[derive(Default)]
struct Found {
    by_total: BTreeMap<u64, (Vec<PatternCost>, Vec<usize>, usize)>,
    optimal: (u64, u64),
}

impl Found {
    /// Adds the findings of the classes that come after this run's, as the
    /// sequential walk would have met them (an equal member found later
    /// does not replace an earlier one).
    fn then(&mut self, later: Found) {
        for (total, entry) in later.by_total {
            if self.by_total.get(&total).is_none_or(|(_, _, best)| entry.2 < *best) {
                self.by_total.insert(total, entry);
            }
        }
        match later.optimal.0.cmp(&self.optimal.0) {
            core::cmp::Ordering::Less => self.optimal = later.optimal,
            core::cmp::Ordering::Equal => self.optimal.1 += later.optimal.1,
            core::cmp::Ordering::Greater => {}
        }
    }
}

/// Classes per unit of parallel work, and units between progress reports.
const CLASSES_PER_RUN: u64 = 1024;
const RUNS_PER_REPORT: u64 = 16;

/// A shape's counts for every setting of its varying bits' masks (setting
/// `sub` holds mask `k` in bits `column_bits * k..`), the other row bits'
/// masks 0.
fn shape_counts(
    s: &Shape,
    active: &[u32],
    column_bits: u32,
    p: &Problem,
    unit: usize,
    work: &Workload,
) -> Result<Vec<crate::analyzer::Counts>, Error> {
    let (eb, cols, chunks, cb) = (p.element_bytes, p.cols, p.cols / unit, column_bits as usize);
    let wave = (work.arch.wave() as usize).min(MAX_LANES);
    let w = &work.patterns[s.pattern];
    // Each lane's address is `(fixed + ((chunk ^ f(row)) * unit)) * eb`,
    // and `f(row)` (the varying bits' masks alone: the others are 0 in
    // every setting counted) depends only on the row's varying bits,
    // gathered here: one XOR table of 2^varying entries per setting.
    let vbits: Vec<u32> = s.varying.iter().map(|&k| active[k]).collect();
    let lanes: Vec<Option<(usize, usize, usize)>> = w
        .lanes
        .get(s.instruction)
        .map(|at| {
            at[..wave].iter().map(|a| a.map(|(r, c)| (r * cols + c % unit, c / unit, gather(r, &vbits)))).collect()
        })
        .unwrap_or_default();
    // Settings move lanes by whole vectors (`unit * eb` bytes): when that
    // keeps every access's alignment, the checks `count_in` makes give
    // every setting the answer of the first, made once here.
    let address = |table_f: &[usize]| {
        let mut addrs = [None; MAX_LANES];
        for (slot, at) in addrs.iter_mut().zip(&lanes) {
            // Inside the tile (at most 2^20 elements): no overflow.
            *slot = at.map(|(fixed, chunk, g)| ((fixed + (chunk ^ table_f[g]) * unit) * eb) as u64);
        }
        addrs
    };
    let aligned_moves = ((unit * eb) as u64).is_multiple_of(w.op.alignment());
    if aligned_moves {
        validate(&work.arch, w.op, &address(&vec![0; 1 << vbits.len()])[..wave])?;
    }
    let counted = parallel::map_range(s.memo_len as u64, |sub| {
        let mut table_f = vec![0usize; 1 << vbits.len()];
        for g in 1..table_f.len() {
            let k = g.trailing_zeros() as usize;
            table_f[g] = table_f[g & (g - 1)] ^ (((sub as usize) >> (cb * k)) & (chunks - 1));
        }
        let addrs = address(&table_f);
        let mut table = PhaseTable::EMPTY;
        if aligned_moves {
            Ok(count_validated(&mut table, &work.arch, w.op, &addrs[..wave]))
        } else {
            count_in(&mut table, &work.arch, w.op, &addrs[..wave])
        }
    });
    counted.into_iter().collect()
}

/// Searches every class of the prepared family; `progress` gets the number
/// of classes counted so far, about every 16384.
///
/// Every setting of a shape's varying masks is met by some class, so each
/// shape's counts are taken for all of them first (with the other row
/// bits' masks 0, which changes no count: see the module documentation);
/// the classes then only add them up, in runs spread over the cores and
/// merged in class order.
pub(crate) fn run(
    prepared: Prepared,
    p: &Problem,
    unit: usize,
    work: &Workload,
    progress: &mut dyn FnMut(u64),
) -> Result<LinearOutcome, Error> {
    let Prepared { column_bits, row_bits, active, classes, shapes } = prepared;
    let chunks = p.cols / unit;
    let cb = column_bits as usize;
    // Each shape's counts for every setting of its varying masks.
    let mut memos: Vec<Vec<crate::analyzer::Counts>> = Vec::with_capacity(shapes.len());
    for s in &shapes {
        memos.push(shape_counts(s, &active, column_bits, p, unit, work)?);
    }
    // The classes `first..first + n`.
    let walk = |first: u64, n: u64| -> Found {
        let mut found = Found { by_total: BTreeMap::new(), optimal: (u64::MAX, 0) };
        let mut masks = vec![0usize; row_bits as usize];
        let mut chain = [Run { bits: 0, base: 0, shift: 0 }; 64];
        for class in first..first + n {
            for (k, &b) in active.iter().enumerate() {
                masks[b as usize] = ((class >> (cb * k)) as usize) & (chunks - 1);
            }
            let mut costs = vec![PatternCost::default(); work.patterns.len()];
            for (s, memo) in shapes.iter().zip(&memos) {
                let sub = s
                    .varying
                    .iter()
                    .enumerate()
                    .fold(0usize, |acc, (k, &a)| acc | (masks[active[a] as usize] << (cb * k)));
                if let Some(counts) = memo.get(sub) {
                    costs[s.pattern].add(counts, s.times);
                }
            }
            let total: u64 = costs.iter().map(|c| c.cycles).sum();
            match total.cmp(&found.optimal.0) {
                core::cmp::Ordering::Less => found.optimal = (total, 1),
                core::cmp::Ordering::Equal => found.optimal.1 += 1,
                core::cmp::Ordering::Greater => {}
            }
            let n = runs(&masks, column_bits, unit.trailing_zeros(), &mut chain);
            if found.by_total.get(&total).is_none_or(|(_, _, best)| n < *best) {
                found.by_total.insert(total, (costs, masks.clone(), n));
            }
        }
        found
    };
    let mut found = Found { by_total: BTreeMap::new(), optimal: (u64::MAX, 0) };
    let per_report = CLASSES_PER_RUN * RUNS_PER_REPORT;
    let mut first = 0;
    while first < classes {
        progress(first);
        let n = per_report.min(classes - first);
        let parts = parallel::map_range(n.div_ceil(CLASSES_PER_RUN), |k| {
            let start = first + k * CLASSES_PER_RUN;
            walk(start, CLASSES_PER_RUN.min(first + n - start))
        });
        for part in parts {
            found.then(part);
        }
        first += n;
    }
    Ok(LinearOutcome {
        column_bits,
        row_bits,
        active,
        classes,
        best: found.by_total.into_values().collect(),
        optimal_classes: found.optimal.1,
    })
}
