//! Reports for people and tools: the counts of one instruction or of a whole
//! tile, with the detail behind them (which lanes collide on which bank and
//! word), and the rocprof-compute metrics derived from them.
//!
//! Nothing here counts. The analyzer is one engine in three layers, and a
//! report is its top one:
//!
//! 1. addresses: every lane's byte address from the layout compiled once
//!    into a [`Program`] (a closed-form pattern's lanes, a tile window's
//!    lanes placed in the layout, a pattern written as a function, or
//!    addresses given as they are);
//! 2. counting: each instruction counted once by the counting layer the
//!    tile counter ([`analyze_tile`](crate::analyzer::analyze_tile)) and the
//!    compile-time checks run (`tile::Tally`, through the memo to the bank
//!    model's one phase loop), each lane's vector checked in the same walk;
//! 3. reports: the totals and each instruction's counts as the counting
//!    layer left them, and one instruction's detail from the phase tables
//!    its one count filled ([`count_kept`](crate::analyzer::model::count_kept)), built when asked
//!    ([`TileReport::worst`]) from the lane addresses the count kept.
//!
//! `tests/layering.rs` holds that this file calls no counting entry point
//! but those two.

use crate::analyzer::arch::Arch;
use crate::analyzer::memo::LaneAddresses;
use crate::analyzer::metrics::{Metric, Passes, bank_conflict_rate_pct, pass_metrics, theoretical_bytes};
use crate::analyzer::model::{
    Counts, PhaseTable, access_words, count_kept_validated, phase_count, phase_cycles, validate,
};
use crate::analyzer::op::Op;
use crate::analyzer::pattern::{MAX_TILE_ELEMENTS, Pattern};
use crate::analyzer::rules::{MAX_LANES, Provenance, Rule, rule};
use crate::analyzer::tile::{Tally, TileCounts, pattern_counted, program_address};
use crate::analyzer::window::{
    PatternAccess, WindowAccess, WindowLanes, counted, fitted, lane_vectors_contiguous, placed,
};
use crate::distribution::Distribution;
use crate::{Descriptor, Program};
use crate::{DescriptorProblem, Error, ParameterProblem};
use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;

/// The most distinct 4-byte words one phase can touch (64 lanes x 4 words).
const MAX_WORDS: usize = 4 * MAX_LANES;

/// One 4-byte word a conflicting bank serves, and the lanes that touch it.
///
/// ```
/// use cktile::analyzer::{arch, Op};
/// use cktile::reports::analyze_instruction;
/// // Lanes 0 and 1 read the same 16 bytes, lane 2 another 16 bytes on the same banks.
/// let r = analyze_instruction(&arch::SM90, Op::LdShared { bits: 128 }, &[Some(0), Some(0), Some(128)])?;
/// let word = &r.phase_detail[0].conflicts[0].words[0];
/// assert_eq!((word.address, &word.lanes[..]), (0, &[0, 1][..]));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WordAccess {
    /// The word's byte address.
    pub address: u64,
    /// The lanes whose access covers it, in phase order (for `cp.async`,
    /// whose lanes do not share words, one lane: a word two lanes write is
    /// listed twice).
    ///
    /// ```
    /// use cktile::reports::analyze_instruction;
    /// use cktile::analyzer::{arch, Op};
    /// let r = analyze_instruction(&arch::SM90, Op::CpAsync { bits: 32 }, &[Some(0), Some(0)])?;
    /// let words = &r.phase_detail[0].conflicts[0].words;
    /// assert_eq!((words[0].lanes.clone(), words[1].lanes.clone()), (vec![0], vec![1]));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub lanes: Vec<u32>,
}

/// A bank that must serve more than one distinct word in a phase: one pass
/// per word.
///
/// ```
/// use cktile::analyzer::{arch, Op};
/// use cktile::reports::analyze_instruction;
/// let r = analyze_instruction(&arch::GFX942, Op::DsRead { bits: 64 }, &[Some(0), Some(128), Some(256)])?;
/// let banks: Vec<(u32, usize)> = r.phase_detail[0].conflicts.iter().map(|b| (b.bank, b.words.len())).collect();
/// assert_eq!(banks, [(0, 3), (1, 3)]);
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BankConflict {
    /// The bank.
    pub bank: u32,
    /// Its words in first-touch order; their number is the bank's ways.
    pub words: Vec<WordAccess>,
}

/// One phase of an instruction: the lanes the banks serve together.
///
/// ```
/// use cktile::analyzer::{arch, Op};
/// use cktile::reports::analyze_instruction;
/// let addrs: Vec<Option<u64>> = (0..64).map(|l| Some(l * 16)).collect();
/// let r = analyze_instruction(&arch::GFX942, Op::DsRead { bits: 128 }, &addrs)?;
/// let p = &r.phase_detail[2];
/// assert_eq!(p.lanes, [4, 5, 6, 7, 16, 17, 18, 19]);
/// assert_eq!((p.access, p.active_lanes, p.cycles, p.ways, p.conflicts.len()), (0, 8, 1, 1, 0));
/// // ds_read2_b64: the second addresses pass in phases 4-7, the same lanes as 0-3.
/// let r = analyze_instruction(&arch::GFX942, Op::DsRead2 { bits: 64, offsets: [0, 1], st64: false }, &addrs)?;
/// assert_eq!((r.phase_detail[5].access, &r.phase_detail[5].lanes[..2]), (1, &[16, 17][..]));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseReport {
    /// Its index within the instruction (over both accesses of read2/write2).
    pub phase: u32,
    /// Which of the lane's addresses it serves: 0, or 1 for the second
    /// address of read2/write2.
    pub access: u32,
    /// Its lanes, in the hardware's order.
    pub lanes: Vec<u32>,
    /// How many of them are active.
    pub active_lanes: u32,
    /// Passes it costs.
    pub cycles: u32,
    /// Its busiest bank's distinct words (0 for an idle phase).
    pub ways: u32,
    /// Its busiest bank (the lowest of equals).
    pub busiest_bank: u32,
    /// Every bank with more than one word, in bank order.
    pub conflicts: Vec<BankConflict>,
    /// For each of [`lanes`](Self::lanes), in order, the banks its access
    /// covers, ascending (none for an inactive lane): what a picture of the
    /// phase draws, without going back to the addresses.
    ///
    /// ```
    /// use cktile::analyzer::{arch, Op};
    /// use cktile::reports::analyze_instruction;
    /// // ld.shared.b64 at byte 8: words 2 and 3, banks 2 and 3; lane 1 idle.
    /// let r = analyze_instruction(&arch::SM90, Op::LdShared { bits: 64 }, &[Some(8), None])?;
    /// assert_eq!(r.phase_detail[0].lane_banks[..2], [vec![2, 3], vec![]]);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub lane_banks: Vec<Vec<u32>>,
}

/// One instruction analysed: its counts, rocprof-compute's metrics and every
/// phase's detail.
///
/// ```
/// use cktile::analyzer::{arch, Op};
/// use cktile::reports::analyze_instruction;
/// // Lanes 0 and 1 read bank 0 at two different words; lane 2 shares lane 0's word.
/// let r = analyze_instruction(&arch::GFX90A, Op::DsRead { bits: 32 }, &[Some(0), Some(128), Some(0)])?;
/// assert_eq!((r.counts.cycles, r.counts.conflict_cycles, r.counts.max_ways), (3, 1, 2));
/// assert_eq!(r.theoretical_bytes, 384);
/// let bank0 = &r.phase_detail[0].conflicts[0];
/// assert_eq!((bank0.bank, bank0.words.len()), (0, 2));
/// assert_eq!((bank0.words[0].address, &bank0.words[0].lanes[..]), (0, &[0, 2][..]));
/// assert_eq!((bank0.words[1].address, &bank0.words[1].lanes[..]), (128, &[1][..]));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct InstructionReport {
    /// The chip.
    pub arch: Arch,
    /// The instruction.
    pub op: Op,
    /// Phases, cycles, conflict cycles, max ways, worst phase, active lanes.
    pub counts: Counts,
    /// rocprof-compute's bank conflict rate, in percent
    /// ([`bank_conflict_rate_pct`]).
    pub bank_conflict_rate_pct: f64,
    /// `cycles * banks * 4` ([`theoretical_bytes`]).
    pub theoretical_bytes: u64,
    /// Every phase of the instruction (on NVIDIA also the idle ones, which
    /// cost nothing).
    pub phase_detail: Vec<PhaseReport>,
    /// The banks resolving this instruction's conflicts on this chip.
    pub banks: u32,
    /// Where the bank count and grouping come from; reports print an
    /// assumption or a dispute.
    pub provenance: Provenance,
    /// The lanes given an address that the instruction does not read, in
    /// order: no phase holds them (`ldmatrix.x1` reads the addresses of
    /// lanes 0-7 only, `.x2` of 0-15), so they count nowhere.
    ///
    /// ```
    /// use cktile::analyzer::{arch, Op};
    /// use cktile::reports::analyze_instruction;
    /// let addrs: Vec<Option<u64>> = (0..10).map(|l| Some(l * 16)).collect();
    /// let r = analyze_instruction(&arch::SM90, Op::Ldmatrix { matrices: 1, trans: false }, &addrs)?;
    /// assert_eq!((r.counts.active_lanes, &r.unread_lanes[..]), (8, &[8, 9][..]));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub unread_lanes: Vec<u32>,
}

impl InstructionReport {
    /// The report of an instruction counted as `counts`, without its phase
    /// and lane details (empty): the rate, bytes, banks and provenance
    /// computed from the counts and the chip's rule, as
    /// [`analyze_instruction`] computes them.
    ///
    /// ```
    /// use cktile::analyzer::{arch, count, Op};
    /// use cktile::reports::{{analyze_instruction, InstructionReport}};
    /// let addresses = [Some(0), Some(128)];
    /// let counts = count(&arch::GFX90A, Op::DsRead { bits: 32 }, &addresses)?;
    /// let summary = InstructionReport::from_counts(&arch::GFX90A, Op::DsRead { bits: 32 }, counts);
    /// let full = analyze_instruction(&arch::GFX90A, Op::DsRead { bits: 32 }, &addresses)?;
    /// assert_eq!((summary.counts, summary.theoretical_bytes), (full.counts, full.theoretical_bytes));
    /// assert!(summary.phase_detail.is_empty());
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn from_counts(arch: &Arch, op: Op, counts: Counts) -> InstructionReport {
        let r = rule(arch, op);
        InstructionReport {
            arch: *arch,
            op,
            counts,
            bank_conflict_rate_pct: bank_conflict_rate_pct(counts.cycles, counts.conflict_cycles),
            theoretical_bytes: theoretical_bytes(&r, counts.cycles),
            phase_detail: Vec::new(),
            banks: r.banks,
            provenance: r.provenance,
            unread_lanes: Vec::new(),
        }
    }

    /// The instruction's metrics, in table order: the [shared
    /// six](pass_metrics), then its active lanes.
    ///
    /// ```
    /// use cktile::analyzer::{arch, Op};
    /// use cktile::reports::analyze_instruction;
    /// let r = analyze_instruction(&arch::GFX90A, Op::DsRead { bits: 32 }, &[Some(0), Some(128)])?;
    /// let labels: Vec<&str> = r.metrics().iter().map(|m| m.label).collect();
    /// assert_eq!(labels, ["Phases", "Index Accesses", "Bank Conflict", "Bank Conflict Rate", "Max Ways",
    ///                     "Theoretical Bytes", "Active Lanes"]);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn metrics(&self) -> Vec<Metric> {
        let c = &self.counts;
        let passes =
            Passes { phases: c.phases, cycles: c.cycles, conflict_cycles: c.conflict_cycles, max_ways: c.max_ways };
        let mut out = pass_metrics(passes, self.bank_conflict_rate_pct, self.theoretical_bytes).to_vec();
        out.push(Metric::count("Active Lanes", "lanes", "active_lanes", c.active_lanes));
        out
    }

    /// The worst phase (the first with the most cycles), in detail.
    ///
    /// ```
    /// use cktile::analyzer::{arch, Op};
    /// use cktile::reports::analyze_instruction;
    /// let r = analyze_instruction(&arch::GFX90A, Op::DsRead { bits: 32 }, &[Some(0), Some(128)])?;
    /// assert_eq!(r.worst_phase().map(|p| p.ways), Some(2));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn worst_phase(&self) -> Option<&PhaseReport> {
        self.phase_detail.get(self.counts.worst_phase as usize)
    }
}

/// The lanes of `lanes` whose access `access` covers `word`.
fn lanes_touching(op: Op, access: u32, lanes: &[u8], addresses: &[Option<u64>], word: u64) -> Vec<u32> {
    lanes
        .iter()
        .filter(|&&lane| {
            addresses.get(lane as usize).copied().flatten().is_some_and(|a| {
                let (first, n) = access_words(op, a, access);
                (first..first + n).contains(&word)
            })
        })
        .map(|&lane| u32::from(lane))
        .collect()
}

/// Phase `index` of the instruction (over its accesses), read from its
/// table `t` as the count filled it.
fn phase_report(arch: &Arch, op: Op, r: &Rule, index: usize, t: &PhaseTable, addresses: &[Option<u64>]) -> PhaseReport {
    let per_access = r.grouping.phases().max(1);
    let (access, p) = ((index / per_access) as u32, index % per_access);
    let lanes = r.grouping.phase(p);
    let (busiest_bank, ways) = t.busiest();
    let conflicts = (0..r.banks)
        .filter(|&bank| t.ways(bank) > 1)
        .map(|bank| {
            let (words, n) = t.words_of::<MAX_WORDS>(bank);
            let words = words[..n]
                .iter()
                .enumerate()
                .map(|(i, &word)| {
                    let touching = lanes_touching(op, access, lanes, addresses, word);
                    // cp.async lists a word once per lane writing it, in lane order.
                    let lanes = if op.shares_words() {
                        touching
                    } else {
                        let k = words[..i].iter().filter(|&&w| w == word).count();
                        touching.get(k).map(|&l| alloc::vec![l]).unwrap_or_default()
                    };
                    WordAccess { address: word * 4, lanes }
                })
                .collect();
            BankConflict { bank, words }
        })
        .collect();
    let banks = u64::from(r.banks.max(1));
    let lane_banks = lanes
        .iter()
        .map(|&lane| match addresses.get(lane as usize).copied().flatten() {
            Some(a) => {
                let (first, n) = access_words(op, a, access);
                let mut out: Vec<u32> = (first..first + n).map(|w| (w % banks) as u32).collect();
                out.sort_unstable();
                out.dedup();
                out
            }
            None => Vec::new(),
        })
        .collect();
    PhaseReport {
        phase: index as u32,
        access,
        lanes: lanes.iter().map(|&l| u32::from(l)).collect(),
        lane_banks,
        active_lanes: t.active,
        cycles: phase_cycles(arch, ways),
        ways,
        busiest_bank,
        conflicts,
    }
}

/// Analyses one instruction: `addresses[lane]` is the lane's byte address,
/// `None` for an inactive lane (lanes past the slice are inactive).
///
/// Errors as [`count`](crate::analyzer::count): an instruction the chip does not have, more
/// addresses than lanes, a misaligned address.
///
/// ```
/// use cktile::analyzer::{arch, Op};
/// use cktile::reports::analyze_instruction;
/// // rocprof-compute's example: one lane of a wave reads with ds_read_b32.
/// let r = analyze_instruction(&arch::GFX90A, Op::DsRead { bits: 32 }, &[Some(0)])?;
/// assert_eq!((r.counts.cycles, r.counts.conflict_cycles, r.theoretical_bytes), (2, 0, 256));
/// assert_eq!(r.phase_detail[1].active_lanes, 0); // lanes 32-63 idle, still a cycle
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn analyze_instruction(arch: &Arch, op: Op, addresses: &[Option<u64>]) -> Result<InstructionReport, Error> {
    validate(arch, op, addresses)?;
    Ok(instruction_report(arch, op, addresses))
}

/// [`analyze_instruction`] of addresses [`validate`] accepts: one count
/// that keeps its phase tables ([`count_kept`](crate::analyzer::model::count_kept)),
/// each phase's detail read from its table.
fn instruction_report(arch: &Arch, op: Op, addresses: &[Option<u64>]) -> InstructionReport {
    let mut kept = vec![PhaseTable::EMPTY; phase_count(arch, op)];
    let counts = count_kept_validated(arch, op, addresses, &mut kept);
    let r = rule(arch, op);
    let phase_detail: Vec<PhaseReport> =
        kept.iter().enumerate().map(|(p, t)| phase_report(arch, op, &r, p, t, addresses)).collect();
    let mut read = vec![false; addresses.len()];
    for lane in phase_detail.iter().flat_map(|p| p.lanes.iter()) {
        if let Some(r) = read.get_mut(*lane as usize) {
            *r = true;
        }
    }
    let unread_lanes = (0..addresses.len()).filter(|&l| addresses[l].is_some() && !read[l]).map(|l| l as u32).collect();
    InstructionReport { phase_detail, unread_lanes, ..InstructionReport::from_counts(arch, op, counts) }
}

/// A whole tile analysed: the totals over every instruction, each
/// instruction's counts, and the worst instruction in detail.
///
/// ```
/// use cktile::analyzer::{arch, Op, Pattern};
/// use cktile::reports::analyze_tile_report;
/// let naive = cktile::Descriptor::packed(&[128, 64])?;
/// let read = Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } };
/// let r = analyze_tile_report(&naive, 2, &arch::GFX942, read)?;
/// assert_eq!((r.counts.instructions, r.counts.cycles, r.counts.conflict_cycles), (16, 512, 384));
/// assert_eq!(r.instructions.len(), 16);
/// let worst = r.worst();
/// assert_eq!(worst.phase_detail[0].lanes, [0, 1, 2, 3, 20, 21, 22, 23]);
/// assert_eq!(worst.phase_detail[0].ways, 4);
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, PartialEq)]
pub struct TileReport {
    /// The chip.
    pub arch: Arch,
    /// The instruction every access issues.
    pub op: Op,
    /// The ready pattern, `None` for one written with [`analyze_with`].
    pub pattern: Option<Pattern>,
    /// Bytes per element.
    pub element_bytes: usize,
    /// Totals over every instruction (as [`analyze_tile`](crate::analyzer::analyze_tile) gives them).
    pub counts: TileCounts,
    /// rocprof-compute's bank conflict rate over the tile, in percent.
    pub bank_conflict_rate_pct: f64,
    /// The tile's theoretical bytes: `cycles * banks * 4`, with the
    /// instruction's banks on the chip.
    pub theoretical_bytes: u64,
    /// Each instruction's counts, in issue order.
    pub instructions: Vec<Counts>,
    /// The banks resolving the instruction's conflicts on the chip.
    pub banks: u32,
    /// The lane addresses of the worst instruction, as its count read them:
    /// what [`worst`](Self::worst) details.
    worst_lanes: Vec<Option<u64>>,
}

/// The report as it reads: its counts and the worst instruction in detail
/// ([`TileReport::worst`]), the fields in the order the report has always
/// printed them.
impl core::fmt::Debug for TileReport {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("TileReport")
            .field("arch", &self.arch)
            .field("op", &self.op)
            .field("pattern", &self.pattern)
            .field("element_bytes", &self.element_bytes)
            .field("counts", &self.counts)
            .field("bank_conflict_rate_pct", &self.bank_conflict_rate_pct)
            .field("theoretical_bytes", &self.theoretical_bytes)
            .field("instructions", &self.instructions)
            .field("worst", &self.worst())
            .finish()
    }
}

impl TileReport {
    /// The instruction with the most conflict cycles (the first of equals;
    /// the first instruction when none conflicts), in detail: built when
    /// asked, from the lane addresses its count read, its phase tables
    /// filled once ([`analyze_instruction`]'s report of them). Its counts
    /// are that instruction's in [`instructions`](Self::instructions).
    ///
    /// ```
    /// use cktile::analyzer::{arch, Pattern};
    /// use cktile::reports::analyze_tile_report;
    /// let r = analyze_tile_report(&cktile::Descriptor::packed(&[128, 64])?, 2, &arch::GFX942, Pattern::by_name("mfma16", None)?)?;
    /// let worst = r.worst();
    /// assert_eq!(worst.counts, r.instructions[r.counts.worst_instruction as usize]);
    /// assert_eq!(worst.worst_phase().map(|p| p.ways), Some(4));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn worst(&self) -> InstructionReport {
        // Accepted as it was counted: no second validation.
        instruction_report(&self.arch, self.op, &self.worst_lanes)
    }

    /// The tile's metrics, in table order: its instructions, the [shared
    /// six](pass_metrics) over all of them, then how many conflict.
    ///
    /// ```
    /// use cktile::analyzer::{arch, Op, Pattern};
    /// use cktile::reports::analyze_tile_report;
    /// let r = analyze_tile_report(&cktile::Descriptor::packed(&[16, 64])?, 2, &arch::GFX942, Pattern::by_name("mfma16", None)?)?;
    /// let keys: Vec<&str> = r.metrics().iter().map(|m| m.key).collect();
    /// assert_eq!(keys, ["instructions", "phases", "cycles", "conflict_cycles", "bank_conflict_rate_pct", "max_ways",
    ///                   "theoretical_bytes", "conflicted_instructions"]);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn metrics(&self) -> Vec<Metric> {
        let c = &self.counts;
        let passes =
            Passes { phases: c.phases, cycles: c.cycles, conflict_cycles: c.conflict_cycles, max_ways: c.max_ways };
        let mut out = vec![Metric::count("Instructions", "instructions", "instructions", c.instructions)];
        out.extend(pass_metrics(passes, self.bank_conflict_rate_pct, self.theoretical_bytes));
        out.push(Metric::count(
            "Conflicted Instructions",
            "instructions",
            "conflicted_instructions",
            c.conflicted_instructions,
        ));
        out
    }
}

/// The report of a tile counted into `tally` (its instructions' counts in
/// `instructions`), the totals and the worst instruction's lanes as the
/// count left them.
fn tile_report(
    arch: &Arch,
    op: Op,
    pattern: Option<Pattern>,
    element_bytes: usize,
    tally: &Tally,
    instructions: Vec<Counts>,
) -> TileReport {
    let counts = tally.totals;
    let r = rule(arch, op);
    let wave = (arch.wave() as usize).min(MAX_LANES);
    let mut worst_lanes = tally.worst.options().to_vec();
    worst_lanes.truncate(wave);
    TileReport {
        arch: *arch,
        op,
        pattern,
        element_bytes,
        counts,
        bank_conflict_rate_pct: bank_conflict_rate_pct(counts.cycles, counts.conflict_cycles),
        theoretical_bytes: theoretical_bytes(&r, counts.cycles),
        instructions,
        banks: r.banks,
        worst_lanes,
    }
}

/// Zero counts: the slots the counting layer fills, one per instruction.
fn count_slots(n: usize) -> Vec<Counts> {
    vec![Counts::default(); n]
}

/// Analyses every instruction of a ready `pattern` over the 2-D `desc` with
/// elements of `element_bytes` on `arch`: [`analyze_tile`](crate::analyzer::analyze_tile)'s
/// totals with the detail behind them.
///
/// ```
/// use cktile::analyzer::{arch, Op, Pattern};
/// use cktile::reports::analyze_tile_report;
/// let xor = cktile::layouts::ck::xor_preshuffle(128, 64, 8)?;
/// let read = Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } };
/// let r = analyze_tile_report(&xor, 2, &arch::GFX942, read)?;
/// assert_eq!((r.counts.cycles, r.counts.conflict_cycles, r.bank_conflict_rate_pct), (128, 0, 0.0));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn analyze_tile_report(
    desc: &Descriptor,
    element_bytes: usize,
    arch: &Arch,
    pattern: Pattern,
) -> Result<TileReport, Error> {
    analyze_tile_report_with_progress(desc, element_bytes, arch, pattern, &mut |_, _| {})
}

/// [`analyze_tile_report`], telling `progress(done, total)` the instructions
/// counted so far and in all as it goes.
///
/// ```
/// use cktile::analyzer::{arch, Op, Pattern};
/// use cktile::reports::analyze_tile_report_with_progress;
/// let d = cktile::Descriptor::packed(&[128, 64])?;
/// let mut last = (0, 0);
/// let read = Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } };
/// analyze_tile_report_with_progress(&d, 2, &arch::GFX942, read, &mut |done, total| last = (done, total))?;
/// assert_eq!(last, (16, 16));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn analyze_tile_report_with_progress(
    desc: &Descriptor,
    element_bytes: usize,
    arch: &Arch,
    pattern: Pattern,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<TileReport, Error> {
    pattern.check_arch(arch)?;
    let lengths = desc.lengths();
    if lengths.len() != 2 {
        return Err(Error::descriptor(DescriptorProblem::NotTwoDimensional { dims: lengths.len() }));
    }
    let (rows, cols) = (lengths.get(0) as usize, lengths.get(1) as usize);
    let wave = arch.wave() as usize;
    let access = PatternAccess::new(pattern, rows, cols, element_bytes, wave)?;
    let (op, n) = (pattern.op(), access.instructions());
    let mut tally = Tally::new(arch, op, true);
    let mut per = count_slots(n);
    match access.window() {
        // One walk of the window's lanes, placed once: vectors, addresses, counts.
        Some(w) => {
            let lanes = placed(w, desc)?;
            progress(0, n as u64);
            counted(w, &lanes, element_bytes, &mut tally, &mut per)?;
        }
        None => {
            let program = Program::of(desc);
            let (_, vec) = pattern.shape(rows, cols, element_bytes, wave)?;
            for from in (0..n).step_by(PROGRESS_EVERY) {
                progress(from as u64, n as u64);
                let to = n.min(from + PROGRESS_EVERY);
                let counted = pattern_counted(
                    &program,
                    element_bytes,
                    [rows, cols, vec, wave],
                    pattern,
                    from,
                    to,
                    &mut tally,
                    &mut per,
                );
                if let Err(e) = counted {
                    // A broken vector anywhere in the tile is named before any
                    // lane's refusal: find one, as the check over every lane finds it.
                    lane_vectors_contiguous(&program, op, vec, n, wave, |i, lane| access.coordinate(i, lane))?;
                    return Err(e);
                }
            }
        }
    }
    progress(n as u64, n as u64);
    Ok(tile_report(arch, op, Some(pattern), element_bytes, &tally, per))
}

/// How many instructions a report counts between two calls of its progress.
const PROGRESS_EVERY: usize = 4096;

/// Where a ready pattern's addresses come from: for a pattern read through
/// a tile window (the MFMA operands), its lanes placed in the tile
/// ([`WindowLanes`], after
/// [`WindowAccess::program_over`](crate::analyzer::window::WindowAccess::program_over)
/// checked that they fit); for a closed form, the tile's program at each
/// lane's coordinate.
enum PatternAddresses<'a> {
    Window(&'a WindowAccess, Box<WindowLanes>),
    Closed(&'a PatternAccess, Box<Program>),
}

impl<'a> PatternAddresses<'a> {
    fn new(desc: &Descriptor, access: &'a PatternAccess) -> Result<PatternAddresses<'a>, Error> {
        Ok(match access.window() {
            Some(w) => {
                w.program_over(desc)?;
                PatternAddresses::Window(w, Box::new(WindowLanes::new(w, desc)))
            }
            None => PatternAddresses::Closed(access, Box::new(Program::of(desc))),
        })
    }

    /// The byte addresses of instruction `i`.
    fn of(&self, element_bytes: usize, arch: &Arch, i: usize) -> Result<[Option<u64>; MAX_LANES], Error> {
        match self {
            PatternAddresses::Window(w, lanes) => window_addresses(w, lanes, element_bytes, arch, i),
            PatternAddresses::Closed(access, program) => {
                addresses_by(program, element_bytes, arch, i, |i, lane| access.coordinate(i, lane))
            }
        }
    }
}

/// The byte addresses of instruction `i` of a tile window through its
/// lanes in the layout, on the chip's lanes.
fn window_addresses(
    window: &WindowAccess,
    lanes: &WindowLanes,
    element_bytes: usize,
    arch: &Arch,
    i: usize,
) -> Result<[Option<u64>; MAX_LANES], Error> {
    let mut out = lanes.addresses(window, element_bytes, i)?.options();
    out.iter_mut().skip(arch.wave() as usize).for_each(|a| *a = None);
    Ok(out)
}

/// The byte addresses of instruction `i` of a ready pattern at run time
/// (through its distribution, see [`PatternAccess`]): what
/// [`lane_addresses`](crate::analyzer::tile::lane_addresses) gives at compile time.
///
/// ```
/// use cktile::analyzer::{arch, tile::lane_addresses, window::PatternAccess, Op, Pattern};
/// use cktile::reports::pattern_lane_addresses;
/// let d = cktile::Descriptor::packed(&[64, 64])?;
/// let p = Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } };
/// let a = PatternAccess::new(p, 64, 64, 2, 64)?;
/// assert_eq!(pattern_lane_addresses(&d, 2, &arch::GFX942, &a, 3)?, lane_addresses(&d, 2, &arch::GFX942, p, 3)?);
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn pattern_lane_addresses(
    desc: &Descriptor,
    element_bytes: usize,
    arch: &Arch,
    access: &PatternAccess,
    i: usize,
) -> Result<[Option<u64>; MAX_LANES], Error> {
    PatternAddresses::new(desc, access)?.of(element_bytes, arch, i)
}

/// The byte addresses of instruction `i` of a CK tile window over a
/// distribution ([`WindowAccess`]), as
/// [`analyze_distribution`] counts them.
///
/// ```
/// use cktile::analyzer::{arch, window::WindowAccess, Op};
/// use cktile::reports::window_lane_addresses;
/// use cktile::distribution::{catalogue, Distribution};
/// let d = Distribution::new(catalogue::gemm_dram(256, 128, 32, 8)?)?;
/// let w = WindowAccess::new(&d, Op::DsWrite { bits: 128 }, 2, 64)?;
/// let lds = cktile::Descriptor::packed(&[128, 32])?;
/// let a = window_lane_addresses(&lds, 2, &arch::GFX942, &w, 0)?;
/// // Lane 1 of warp 0 writes K = 8..16 of row 0: bytes 16..32.
/// assert_eq!((a[0], a[1], a[4]), (Some(0), Some(16), Some(64)));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn window_lane_addresses(
    desc: &Descriptor,
    element_bytes: usize,
    arch: &Arch,
    window: &WindowAccess,
    i: usize,
) -> Result<[Option<u64>; MAX_LANES], Error> {
    window.program_over(desc)?;
    window_addresses(window, &WindowLanes::new(window, desc), element_bytes, arch, i)
}

/// The byte addresses of instruction `i` whose lanes access `coordinate(i, lane)`,
/// through the compiled descriptor.
fn addresses_by(
    program: &Program,
    element_bytes: usize,
    arch: &Arch,
    i: usize,
    coordinate: impl Fn(usize, usize) -> Option<[i64; 2]>,
) -> Result<[Option<u64>; MAX_LANES], Error> {
    let wave = (arch.wave() as usize).min(MAX_LANES);
    let mut out = [None; MAX_LANES];
    for (lane, slot) in out.iter_mut().enumerate().take(wave) {
        if let Some(c) = coordinate(i, lane) {
            *slot = Some(program_address(program, element_bytes, i, lane, c)?);
        }
    }
    Ok(out)
}

/// [`addresses_by`] on the wave's lanes, as the counting layer takes them.
fn lanes_by(
    program: &Program,
    element_bytes: usize,
    wave: usize,
    i: usize,
    coordinate: impl Fn(usize, usize) -> Option<[i64; 2]>,
) -> Result<LaneAddresses, Error> {
    let mut out = LaneAddresses::new(wave);
    for lane in 0..wave {
        if let Some(c) = coordinate(i, lane) {
            out.set(lane, program_address(program, element_bytes, i, lane, c)?);
        }
    }
    Ok(out)
}

/// Analyses a pattern written as a function: `instructions` instructions of
/// `op`, lane `lane` of instruction `i` accessing the `(row, col)` element
/// `coordinate(i, lane)` of the 2-D `desc` (`None`: the lane is inactive).
/// Every coordinate must be a valid (not padding) position with a
/// non-negative offset, and the elements a lane moves (the instruction's
/// bytes per lane, from its coordinate along the last dimension)
/// contiguous in `desc`, as for the ready patterns. At most
/// [`MAX_TILE_ELEMENTS`] lane accesses
/// (`instructions * wave`) are counted; more is refused.
///
/// ```
/// use cktile::analyzer::{arch, Op};
/// use cktile::reports::analyze_with;
/// // A warp reads column 0 of a 32 x 32 fp32 tile: every lane in bank 0.
/// let tile = cktile::Descriptor::packed(&[32, 32])?;
/// let r = analyze_with(&tile, 4, &arch::SM80, Op::LdShared { bits: 32 }, 1, |_, lane| Some([lane as i64, 0]))?;
/// assert_eq!((r.counts.cycles, r.counts.max_ways), (32, 32));
/// // Padding each row by one word removes the conflict.
/// let padded = cktile::layouts::padding::row_padded(32, 32, 1)?;
/// let r = analyze_with(&padded, 4, &arch::SM80, Op::LdShared { bits: 32 }, 1, |_, lane| Some([lane as i64, 0]))?;
/// assert_eq!(r.counts.conflict_cycles, 0);
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn analyze_with(
    desc: &Descriptor,
    element_bytes: usize,
    arch: &Arch,
    op: Op,
    instructions: usize,
    coordinate: impl Fn(usize, usize) -> Option<[i64; 2]>,
) -> Result<TileReport, Error> {
    if instructions == 0 {
        return Err(Error::parameter(ParameterProblem::Invalid {
            context: "pattern",
            parameter: "instructions",
            value: 0,
            requirement: "a pattern issues at least one instruction",
        }));
    }
    let wave = (arch.wave() as usize).min(MAX_LANES);
    let accesses = (instructions as u64).saturating_mul(wave as u64);
    if accesses > MAX_TILE_ELEMENTS {
        return Err(Error::descriptor(DescriptorProblem::TooLarge { size: accesses, limit: MAX_TILE_ELEMENTS }));
    }
    let program = Program::of(desc);
    // A lane of a contiguous instruction moves `vec` elements from its coordinate on.
    if op.is_contiguous() && element_bytes > 0 && (op.bytes_per_lane() as usize).is_multiple_of(element_bytes) {
        let vec = op.bytes_per_lane() as usize / element_bytes;
        crate::analyzer::window::lane_vectors_contiguous(&program, op, vec, instructions, wave, &coordinate)?;
    }
    let mut tally = Tally::new(arch, op, true);
    let mut per = count_slots(instructions);
    for i in 0..instructions {
        let addrs = lanes_by(&program, element_bytes, wave, i, &coordinate)?;
        tally.count(i, &addrs, &mut per)?;
    }
    Ok(tile_report(arch, op, None, element_bytes, &tally, per))
}

/// Bank conflicts of the tile window's instructions over `desc` (the LDS
/// layout the distribution's X lies in, from its origin), every instruction
/// of every warp counted as the ready patterns are, after checking that
/// every lane's vector is contiguous in `desc`
/// ([`WindowAccess::check_contiguous`](crate::analyzer::window::WindowAccess::check_contiguous)).
/// Every lane's address comes from one program: the distribution composed
/// with `desc` ([`WindowAccess::program_over`](crate::analyzer::window::WindowAccess::program_over)).
///
/// ```
/// use cktile::analyzer::{arch, Op};
/// use cktile::reports::analyze_distribution;
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
    let (w, lanes) = fitted(desc, element_bytes, arch, d, op)?;
    let mut tally = Tally::new(arch, op, true);
    let mut per = count_slots(w.instructions());
    counted(&w, &lanes, element_bytes, &mut tally, &mut per)?;
    Ok(tile_report(arch, op, None, element_bytes, &tally, per))
}
