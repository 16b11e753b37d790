//! The bank model: how many passes through the banks one instruction takes.
//!
//! Per phase, every active lane's access is split into the 4-byte words it
//! covers; a word lives in bank `word % banks`, with the instruction's own
//! bank count on the chip ([`rule`]). Lanes touching the same word
//! share one access (a broadcast for reads; for writes one lane's value
//! lands), except for `cp.async`, whose lanes each write their own copy
//! ([`Op::shares_words`]; measured on an H100). The phase then takes as many passes as the busiest bank has
//! distinct words (its *ways*). On AMD every phase of the instruction is a
//! pass even with no active lane (rocprof-compute counts it); on NVIDIA a
//! phase with no active lane costs nothing. An instruction with two
//! addresses per lane (`ds_read2_*`, `ds_write2_*`) is served as two
//! accesses: the first address of every lane in the grouping's phases, then
//! the second in the same phases.
//!
//! Everything here is `const fn` over fixed-size arrays, so the same code
//! answers at run time and in `const` items (compile-time checks). Its cost
//! is proportional to the lanes: an aligned 64- or 128-bit access is one
//! unit over a group of 2 or 4 banks, not 2 or 4 words ([`PhaseTable`]),
//! and a phase starts by moving to the next generation of the per-bank
//! counters instead of clearing them. tests/bank_model_reference.rs holds
//! it equal to a per-word reference counter.

use super::AnalyzerProblem;
use super::arch::{Arch, Vendor};
use super::op::Op;
use super::rules::{MAX_LANES, Rule, rule};
use crate::error::Error;
use cktile_core::DescriptorProblem;
use cktile_core::ParameterProblem;

/// The most distinct units one phase can touch (64 lanes x 4 words).
const MAX_UNITS: usize = 256;

/// The most banks of any rule (tests/bank_model_reference.rs checks the table).
const MAX_BANKS: usize = 64;

/// The words per *unit* of `op`'s accesses: an access's whole words when
/// they are 1, 2 or 4 and every access is aligned to them, else 1.
///
/// Units of an aligned power-of-two width never straddle: two lanes' units
/// are equal or disjoint, and unit `u` of `w` words covers the `w`
/// consecutive banks from `(u * w) % banks`, all of them with one word of
/// it. So the distinct words a bank serves are the distinct units of its
/// group of banks, and a 128-bit access is counted once, not per word.
const fn unit_words(op: Op, banks: u64) -> u64 {
    let bytes = op.access_bytes();
    let w = bytes / 4;
    if (w == 2 || w == 4) && op.alignment().is_multiple_of(bytes) && banks.is_multiple_of(w) { w } else { 1 }
}

/// The distinct words one phase touches, grouped by bank.
///
/// It counts *units*: an access's whole words when they are 2 or 4 and
/// every access is aligned to them, else single words. Each distinct unit
/// is one word in each bank of its group of consecutive banks. Its
/// per-group counters carry the generation of the phase that last wrote
/// them, so starting a phase resets nothing but a counter; [`count_in`]
/// reuses one table across instructions.
///
/// ```
/// use cktile_analysis::analyzer::{arch, model::phase_table, rules::rule, Op};
/// let op = Op::LdShared { bits: 32 };
/// let addrs: Vec<Option<u64>> = (0..32).map(|l| Some(l * 4)).collect();
/// let t = phase_table(op, &rule(&arch::SM80, op), 0, 0, &addrs);
/// assert_eq!((t.active, t.busiest().1), (32, 1));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct PhaseTable {
    /// The distinct units of the phase, in first-touch order.
    units: [u64; MAX_UNITS],
    /// For each unit, the one added before it to its group (a chain per group).
    next: [u16; MAX_UNITS],
    len: usize,
    /// Words per unit and groups of banks (`banks / unit`); `groups - 1`
    /// when `groups` is a power of two (every rule's), else 0.
    unit: u64,
    groups: u64,
    group_mask: u64,
    /// Per group: the generation that last wrote it, its distinct units and
    /// the last unit added to it.
    stamp: [u32; MAX_BANKS],
    ways: [u16; MAX_BANKS],
    head: [u16; MAX_BANKS],
    generation: u32,
    /// The most ways of any group (which group: [`busiest`](Self::busiest)).
    max_ways: u32,
    /// Whether lanes touching one unit share it ([`Op::shares_words`]).
    share: bool,
    /// Number of active lanes in the phase.
    pub active: u32,
}

impl PhaseTable {
    /// A table with no phase yet: pass it to [`count_in`] to count many
    /// instructions without setting up a table for each.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{arch, model::{count, count_in, PhaseTable}, Op};
    /// let mut t = PhaseTable::EMPTY;
    /// let addrs = [Some(0), Some(128)];
    /// let op = Op::LdShared { bits: 32 };
    /// assert_eq!(count_in(&mut t, &arch::SM80, op, &addrs), count(&arch::SM80, op, &addrs));
    /// ```
    pub const EMPTY: PhaseTable = PhaseTable {
        units: [0; MAX_UNITS],
        next: [0; MAX_UNITS],
        len: 0,
        unit: 1,
        groups: 1,
        group_mask: 0,
        stamp: [0; MAX_BANKS],
        ways: [0; MAX_BANKS],
        head: [0; MAX_BANKS],
        generation: 0,
        max_ways: 0,
        share: true,
        active: 0,
    };

    /// Starts a phase of `op` under `r`: the previous phase's words are
    /// forgotten by moving to the next generation.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    const fn begin(&mut self, op: Op, r: &Rule) {
        let banks = if r.banks == 0 || r.banks as usize > MAX_BANKS { MAX_BANKS as u64 } else { r.banks as u64 };
        self.unit = unit_words(op, banks);
        self.share = op.shares_words();
        self.groups = banks / self.unit;
        self.group_mask = if self.groups.is_power_of_two() { self.groups - 1 } else { 0 };
        self.len = 0;
        self.active = 0;
        self.max_ways = 0;
        if self.generation == u32::MAX {
            // Every stamp is older than generation 1 again.
            self.stamp = [0; MAX_BANKS];
            self.generation = 0;
        }
        self.generation += 1;
    }

    /// The group of banks of a unit.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    const fn group(&self, unit: u64) -> u64 {
        if self.group_mask != 0 { unit & self.group_mask } else { unit % self.groups }
    }

    /// Adds one unit (a no-op when the phase already has it).
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    const fn insert(&mut self, unit: u64) {
        let g = self.group(unit) as usize;
        if g >= MAX_BANKS || self.len >= MAX_UNITS {
            return;
        }
        let ways = if self.stamp[g] == self.generation {
            // Only the units of this group can equal it.
            let mut i = self.head[g] as usize;
            let mut k: u16 = 0;
            while self.share && k < self.ways[g] && i < MAX_UNITS {
                if self.units[i] == unit {
                    return;
                }
                i = self.next[i] as usize;
                k += 1;
            }
            self.ways[g] + 1
        } else {
            self.stamp[g] = self.generation;
            1
        };
        self.units[self.len] = unit;
        self.next[self.len] = self.head[g];
        self.head[g] = self.len as u16;
        self.len += 1;
        self.ways[g] = ways;
        if ways as u32 > self.max_ways {
            self.max_ways = ways as u32;
        }
    }

    /// Adds the words of phase `p` of access `access` (see [`phase_table`]).
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    const fn fill(&mut self, op: Op, r: &Rule, access: u32, p: usize, addresses: &[Option<u64>]) {
        self.begin(op, r);
        let lanes = r.grouping.phase(p);
        // Units are 4, 8 or 16 bytes: a shift, not a division.
        let unit_shift = (self.unit * 4).trailing_zeros();
        let offset = op.access_offset(access);
        let mut i = 0;
        while i < lanes.len() {
            let lane = lanes[i] as usize;
            if lane < addresses.len()
                && let Some(a) = addresses[lane]
            {
                self.active += 1;
                if self.unit > 1 {
                    self.insert(a.saturating_add(offset) >> unit_shift);
                } else {
                    let (first, n) = access_words(op, a, access);
                    let mut w = 0;
                    while w < n {
                        self.insert(first + w);
                        w += 1;
                    }
                }
            }
            i += 1;
        }
    }

    /// Number of distinct words bank `bank` must serve.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{arch, model::phase_table, rules::rule, Op};
    /// let op = Op::DsRead { bits: 32 };
    /// let mut addrs = [None; 64];
    /// addrs[0] = Some(0);
    /// addrs[1] = Some(128); // same bank, another word
    /// let t = phase_table(op, &rule(&arch::GFX942, op), 0, 0, &addrs);
    /// assert_eq!((t.ways(0), t.ways(1)), (2, 0));
    /// ```
    pub const fn ways(&self, bank: u32) -> u32 {
        let g = bank as u64 / self.unit;
        if g < self.groups && (g as usize) < MAX_BANKS && self.stamp[g as usize] == self.generation {
            self.ways[g as usize] as u32
        } else {
            0
        }
    }

    /// The busiest bank and its ways (bank 0 and 0 ways for an idle phase).
    ///
    /// ```
    /// use cktile_analysis::analyzer::{arch, model::phase_table, rules::rule, Op};
    /// let op = Op::LdShared { bits: 32 };
    /// let addrs = [Some(4); 32]; // every lane reads one word: a broadcast
    /// let t = phase_table(op, &rule(&arch::SM90, op), 0, 0, &addrs);
    /// assert_eq!(t.busiest(), (1, 1));
    /// ```
    pub const fn busiest(&self) -> (u32, u32) {
        // The lowest group with the most ways (found when asked: counting
        // needs only the ways, `max_ways`).
        let mut g = 0;
        while g < self.groups as usize && g < MAX_BANKS {
            if self.stamp[g] == self.generation && self.ways[g] as u32 == self.max_ways {
                return ((g as u64 * self.unit) as u32, self.max_ways);
            }
            g += 1;
        }
        (0, 0)
    }

    /// The distinct words of bank `bank`, in first-touch order (at most `N`).
    ///
    /// ```
    /// use cktile_analysis::analyzer::{arch, model::phase_table, rules::rule, Op};
    /// let op = Op::DsRead { bits: 32 };
    /// let mut addrs = [None; 64];
    /// addrs[0] = Some(0);
    /// addrs[5] = Some(256);
    /// let t = phase_table(op, &rule(&arch::GFX942, op), 0, 0, &addrs);
    /// assert_eq!(t.words_of::<4>(0), ([0, 64, 0, 0], 2));
    /// ```
    pub const fn words_of<const N: usize>(&self, bank: u32) -> ([u64; N], usize) {
        let mut out = [0u64; N];
        let mut n = 0;
        let g = bank as u64 / self.unit;
        if g >= self.groups {
            return (out, 0);
        }
        let mut i = 0;
        while i < self.len && n < N {
            if self.group(self.units[i]) == g {
                out[n] = self.units[i] * self.unit + bank as u64 % self.unit;
                n += 1;
            }
            i += 1;
        }
        (out, n)
    }
}

/// The first 4-byte word access `access` (0, or 1 for the second address
/// of read2/write2) of a lane at byte address `address` touches, and how
/// many it touches (addresses past `u64::MAX` saturate; [`validate`]
/// refuses them before counting).
///
/// ```
/// use cktile_analysis::analyzer::{model::access_words, Op};
/// assert_eq!(access_words(Op::DsRead { bits: 128 }, 32, 0), (8, 4));
/// assert_eq!(access_words(Op::LdShared { bits: 16 }, 6, 0), (1, 1));
/// // ds_read2_b64(0,8): the second access is 64 bytes further.
/// assert_eq!(access_words(Op::DsRead2 { bits: 64, offsets: [0, 8], st64: false }, 16, 1), (20, 2));
/// ```
pub const fn access_words(op: Op, address: u64, access: u32) -> (u64, u64) {
    let bytes = op.access_bytes();
    let start = address.saturating_add(op.access_offset(access));
    let first = start / 4;
    let last = start.saturating_add(if bytes == 0 { 0 } else { bytes - 1 }) / 4;
    (first, last - first + 1)
}

/// The words phase `p` of access `access` of an instruction touches under
/// its rule `r`. `addresses[lane]` is the lane's byte address, `None` for
/// an inactive lane.
///
/// ```
/// use cktile_analysis::analyzer::{arch, model::phase_table, rules::rule, Op};
/// let op = Op::DsRead { bits: 128 };
/// let addrs: [Option<u64>; 64] = core::array::from_fn(|l| Some(16 * l as u64));
/// let t = phase_table(op, &rule(&arch::GFX942, op), 0, 0, &addrs);
/// // lanes 0-3 cover banks 0-15 and lanes 20-23 banks 16-31: one pass.
/// assert_eq!((t.active, t.busiest().1), (8, 1));
/// ```
pub const fn phase_table(op: Op, r: &Rule, access: u32, p: usize, addresses: &[Option<u64>]) -> PhaseTable {
    let mut t = PhaseTable::EMPTY;
    t.fill(op, r, access, p, addresses);
    t
}

/// Two lanes behind a phase's worst bank conflict: phase `p` of access
/// `access` (as [`phase_table`] reads it), its busiest bank, and the first
/// lane touching each of that bank's first two distinct words. `None` when
/// no bank serves two words in the phase.
///
/// ```
/// use cktile_analysis::analyzer::{arch, model::conflicting_lanes, rules::rule, Op};
/// let op = Op::DsRead { bits: 32 };
/// let mut addrs = [None; 64];
/// addrs[3] = Some(8);
/// addrs[7] = Some(8 + 128); // bank 2 again, another word
/// assert_eq!(conflicting_lanes(op, &rule(&arch::GFX942, op), 0, 0, &addrs), Some((2, 3, 7)));
/// addrs[7] = Some(8); // the same word: a broadcast
/// assert_eq!(conflicting_lanes(op, &rule(&arch::GFX942, op), 0, 0, &addrs), None);
/// ```
pub const fn conflicting_lanes(
    op: Op,
    r: &Rule,
    access: u32,
    p: usize,
    addresses: &[Option<u64>],
) -> Option<(u32, u32, u32)> {
    let t = phase_table(op, r, access, p, addresses);
    let (bank, ways) = t.busiest();
    if ways < 2 {
        return None;
    }
    let (words, n) = t.words_of::<2>(bank);
    if n < 2 {
        return None;
    }
    let lanes = r.grouping.phase(p);
    let mut found = [u32::MAX; 2];
    let mut i = 0;
    while i < lanes.len() {
        let lane = lanes[i] as usize;
        if lane < addresses.len()
            && let Some(a) = addresses[lane]
        {
            let (first, count) = access_words(op, a, access);
            let mut k = 0;
            while k < 2 {
                if found[k] == u32::MAX && words[k] >= first && words[k] - first < count {
                    found[k] = lane as u32;
                }
                k += 1;
            }
        }
        i += 1;
    }
    if found[0] == u32::MAX || found[1] == u32::MAX {
        return None;
    }
    let (a, b) = if found[0] <= found[1] { (found[0], found[1]) } else { (found[1], found[0]) };
    Some((bank, a, b))
}

/// The passes a phase whose busiest bank has `ways` distinct words costs:
/// `ways`, except that an idle phase (`ways == 0`, no active lane) still
/// costs one pass on AMD and none on NVIDIA.
///
/// ```
/// use cktile_analysis::analyzer::{arch, model::phase_cycles};
/// assert_eq!((phase_cycles(&arch::GFX942, 0), phase_cycles(&arch::GFX942, 4)), (1, 4));
/// assert_eq!(phase_cycles(&arch::SM90, 0), 0);
/// ```
pub const fn phase_cycles(arch: &Arch, ways: u32) -> u32 {
    match arch.vendor() {
        Vendor::Amd => {
            if ways == 0 {
                1
            } else {
                ways
            }
        }
        Vendor::Nvidia => ways,
    }
}

/// The counts of one instruction.
///
/// ```
/// use cktile_analysis::analyzer::{arch, count, Op};
/// let c = count(&arch::SM80, Op::LdShared { bits: 32 }, &[Some(0), Some(128)]).unwrap();
/// assert_eq!((c.phases, c.cycles, c.conflict_cycles, c.max_ways, c.active_lanes), (1, 2, 1, 2, 2));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Counts {
    /// Phases that cost a pass (on AMD all of the instruction's phases,
    /// both accesses' for read2/write2; on NVIDIA those with an active lane).
    pub phases: u32,
    /// Passes through the banks: rocprof-compute's index accesses, Nsight
    /// Compute's wavefronts.
    pub cycles: u32,
    /// `cycles - phases`: passes beyond the conflict-free minimum
    /// (rocprof-compute's bank conflict cycles, Nsight's bank conflicts).
    pub conflict_cycles: u32,
    /// The most distinct words one bank served in one phase.
    pub max_ways: u32,
    /// The phase with the most passes (the first of equals), numbered over
    /// the accesses: phase `p` of the second access of read2/write2 is
    /// `phases_per_access + p`.
    pub worst_phase: u32,
    /// Active lanes.
    pub active_lanes: u32,
}

/// Checks the request: the instruction exists and the chip has it, at
/// most one address per lane, each access aligned ([`Op::alignment`];
/// ldmatrix rows to 16 bytes) and ending below 2^64.
///
/// ```
/// use cktile_analysis::analyzer::{arch, model::validate, Op};
/// let e = validate(&arch::GFX942, Op::DsRead { bits: 64 }, &[Some(4)]).unwrap_err();
/// assert_eq!(e.to_string(), "lane 0: address 4 is not a multiple of 8, the access's alignment");
/// assert!(validate(&arch::GFX942, Op::DsRead { bits: 12 }, &[Some(0)]).is_err());
/// // Aligned, but its 16 bytes end at 2^64.
/// let e = validate(&arch::GFX942, Op::DsRead { bits: 128 }, &[Some(u64::MAX - 15)]).unwrap_err();
/// assert!(e.to_string().starts_with("lane 0: the 16-byte access at address 18446744073709551600 ends at 18446744073709551616"), "{e}");
/// ```
pub const fn validate(arch: &Arch, op: Op, addresses: &[Option<u64>]) -> Result<(), Error> {
    if let Err(e) = check_op(op) {
        return Err(e);
    }
    if !op.runs_on(arch) {
        return Err(Error::analyzer(AnalyzerProblem::Unsupported { op, arch: arch.name() }));
    }
    if addresses.len() > arch.wave() as usize || addresses.len() > MAX_LANES {
        return Err(Error::analyzer(AnalyzerProblem::TooManyLanes { given: addresses.len(), wave: arch.wave() }));
    }
    let align = op.alignment();
    let bytes = op.access_bytes();
    let mut lane = 0;
    while lane < addresses.len() {
        if let Some(a) = addresses[lane] {
            let mut access = 0;
            while access < op.accesses() {
                let start = a.checked_add(op.access_offset(access));
                match start {
                    // Every alignment is a power of two: a mask, not a division.
                    Some(s) if s & align.wrapping_sub(1) != 0 => {
                        return Err(Error::analyzer(AnalyzerProblem::Misaligned {
                            lane,
                            address: s,
                            alignment: align,
                        }));
                    }
                    Some(s) if s <= u64::MAX - bytes => {}
                    // The access (or read2/write2's second one) ends past 2^64 - 1.
                    _ => {
                        return Err(Error::analyzer(AnalyzerProblem::AccessPastEnd {
                            lane,
                            address: a,
                            bytes: op.access_offset(access).saturating_add(bytes),
                        }));
                    }
                }
                access += 1;
            }
        }
        lane += 1;
    }
    Ok(())
}

/// [`validate`], and every access inside the chip's shared memory
/// ([`Arch::shared_bytes`]): what the entries that take byte addresses of
/// the chip's LDS check (`cktile bank`'s JSON request, Python's `bank`).
/// A tile analysis does not: its addresses are a layout's, which may span
/// more than one workgroup's shared memory.
///
/// ```
/// use cktile_analysis::analyzer::{arch, model::validate_shared, Op};
/// assert!(validate_shared(&arch::GFX942, Op::DsRead { bits: 32 }, &[Some(65532)]).is_ok());
/// let e = validate_shared(&arch::GFX942, Op::DsRead { bits: 32 }, &[None, Some(65536)]).unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "lane 1: the 4-byte access at address 65536 ends at 65540 (exclusive), past the 65536 bytes of shared \
///      memory on gfx942; give addresses whose accesses end by byte 65536"
/// );
/// assert!(validate_shared(&arch::GFX950, Op::DsRead { bits: 32 }, &[Some(65536)]).is_ok()); // 160 KB
/// ```
pub const fn validate_shared(arch: &Arch, op: Op, addresses: &[Option<u64>]) -> Result<(), Error> {
    if let Err(e) = validate(arch, op, addresses) {
        return Err(e);
    }
    let capacity = arch.shared_bytes() as u64;
    let mut lane = 0;
    while lane < addresses.len() {
        if let Some(a) = addresses[lane] {
            let mut access = 0;
            while access < op.accesses() {
                // `validate` held every access's end below 2^64.
                let span = op.access_offset(access) + op.access_bytes();
                if a + span > capacity {
                    return Err(Error::analyzer(AnalyzerProblem::AccessPastShared {
                        lane,
                        address: a,
                        bytes: span,
                        arch: arch.name(),
                        capacity: arch.shared_bytes(),
                    }));
                }
                access += 1;
            }
        }
        lane += 1;
    }
    Ok(())
}

/// [`Op::check`] in `const` code.
const fn check_op(op: Op) -> Result<(), Error> {
    if op.is_valid() {
        Ok(())
    } else {
        Err(Error::analyzer(AnalyzerProblem::InvalidOp { op, valid: super::op::OP_NAMES }))
    }
}

/// Counts the passes one instruction takes.
///
/// ```
/// use cktile_analysis::analyzer::{arch, model::count, Op};
/// // rocprof-compute's example: N lanes of a wave read `lane * 32 * 4` with
/// // ds_read_b32 (all in bank 0): N + 1 cycles, N - 1 of them conflicts.
/// let n = 5;
/// let addrs: Vec<Option<u64>> = (0..64).map(|l| (l < n).then_some(l * 128)).collect();
/// let c = count(&arch::GFX90A, Op::DsRead { bits: 32 }, &addrs).unwrap();
/// assert_eq!((c.cycles, c.conflict_cycles, c.max_ways), (n as u32 + 1, n as u32 - 1, n as u32));
/// ```
pub const fn count(arch: &Arch, op: Op, addresses: &[Option<u64>]) -> Result<Counts, Error> {
    let mut t = PhaseTable::EMPTY;
    count_in(&mut t, arch, op, addresses)
}

/// [`count`] with a table the caller keeps (any table: its contents are
/// never read before they are written), to count many instructions
/// without setting one up for each.
///
/// ```
/// use cktile_analysis::analyzer::{arch, model::{count, count_in, PhaseTable}, Op};
/// let mut t = PhaseTable::EMPTY;
/// let op = Op::DsRead { bits: 128 };
/// for stride in [16, 64, 128] {
///     let addrs: Vec<Option<u64>> = (0..64).map(|l| Some(l * stride)).collect();
///     assert_eq!(count_in(&mut t, &arch::GFX942, op, &addrs), count(&arch::GFX942, op, &addrs));
/// }
/// ```
pub const fn count_in(t: &mut PhaseTable, arch: &Arch, op: Op, addresses: &[Option<u64>]) -> Result<Counts, Error> {
    match validate(arch, op, addresses) {
        Ok(()) => Ok(count_validated(t, arch, op, addresses)),
        Err(e) => Err(e),
    }
}

/// [`count_in`] of a request [`validate`] accepts (or one that provably
/// gets the same answer from it: the xor-linear search validates one
/// setting of an instruction whose settings differ by whole aligned
/// vectors).
///
/// ```
/// use cktile_analysis::analyzer::model::{PhaseTable, count_validated};
/// use cktile_analysis::analyzer::{Op, arch, count};
/// let a: Vec<Option<u64>> = (0..64).map(|l| Some(4 * l)).collect();
/// let op = Op::DsRead { bits: 32 };
/// assert_eq!(count_validated(&mut PhaseTable::EMPTY, &arch::GFX942, op, &a), count(&arch::GFX942, op, &a)?);
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
pub const fn count_validated(t: &mut PhaseTable, arch: &Arch, op: Op, addresses: &[Option<u64>]) -> Counts {
    count_phases(t, arch, op, addresses, &mut [])
}

/// The analyzer's one phase loop: every phase of the instruction (over its
/// accesses) filled once and tallied. Phase `k` is filled into `kept[k]`
/// when there is one, there to stay for the report that reads its detail
/// ([`count_kept`]), else into `t`.
const fn count_phases(
    t: &mut PhaseTable,
    arch: &Arch,
    op: Op,
    addresses: &[Option<u64>],
    kept: &mut [PhaseTable],
) -> Counts {
    let r = rule(arch, op);
    let phases = r.grouping.phases();
    let mut c = Counts { phases: 0, cycles: 0, conflict_cycles: 0, max_ways: 0, worst_phase: 0, active_lanes: 0 };
    let mut worst = 0;
    let mut access = 0;
    while access < op.accesses() {
        let mut p = 0;
        while p < phases {
            let index = access as usize * phases + p;
            let table: &mut PhaseTable = if index < kept.len() { &mut kept[index] } else { &mut *t };
            table.fill(op, &r, access, p, addresses);
            // A lane with two addresses is one active lane.
            let active = if access == 0 { table.active } else { 0 };
            tally(&mut c, &mut worst, arch, table.max_ways, index, active);
            p += 1;
        }
        access += 1;
    }
    c.conflict_cycles = c.cycles - c.phases;
    c
}

/// [`count`], keeping every phase's table: `kept[k]` ends up holding phase
/// `k` (numbered over the accesses, as [`Counts::worst_phase`] numbers
/// them) for the phases `kept` has room for, so that a report reads each
/// phase's detail (its busiest bank, the words of each bank) from the very
/// tables the counts came from ([`phase_count`] phases in all).
///
/// ```
/// use cktile_analysis::analyzer::{arch, model::{count, count_kept, phase_count, PhaseTable}, Op};
/// let op = Op::DsRead { bits: 128 };
/// let addrs: Vec<Option<u64>> = (0..64).map(|l| Some(l * 128)).collect();
/// let mut kept = vec![PhaseTable::EMPTY; phase_count(&arch::GFX942, op)];
/// let c = count_kept(&arch::GFX942, op, &addrs, &mut kept)?;
/// assert_eq!(Ok(c), count(&arch::GFX942, op, &addrs));
/// assert_eq!((kept.len(), kept[0].active, kept[0].busiest().1), (8, 8, 8));
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
pub const fn count_kept(
    arch: &Arch,
    op: Op,
    addresses: &[Option<u64>],
    kept: &mut [PhaseTable],
) -> Result<Counts, Error> {
    match validate(arch, op, addresses) {
        Ok(()) => Ok(count_kept_validated(arch, op, addresses, kept)),
        Err(e) => Err(e),
    }
}

/// [`count_kept`] of a request [`validate`] accepts: a tile report's worst
/// instruction, whose count accepted it.
///
/// ```
/// use cktile_analysis::analyzer::model::{PhaseTable, count_kept_validated};
/// use cktile_analysis::analyzer::{Op, arch, count};
/// let a: Vec<Option<u64>> = (0..64).map(|l| Some(16 * l)).collect();
/// let op = Op::DsRead { bits: 128 };
/// let mut kept = [PhaseTable::EMPTY; 8];
/// assert_eq!(count_kept_validated(&arch::GFX942, op, &a, &mut kept), count(&arch::GFX942, op, &a)?);
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
pub const fn count_kept_validated(arch: &Arch, op: Op, addresses: &[Option<u64>], kept: &mut [PhaseTable]) -> Counts {
    let mut t = PhaseTable::EMPTY;
    count_phases(&mut t, arch, op, addresses, kept)
}

/// The phases of `op` on `arch`, over its accesses (both addresses of
/// read2/write2): how many tables [`count_kept`] fills.
///
/// ```
/// use cktile_analysis::analyzer::{arch, model::phase_count, Op};
/// assert_eq!(phase_count(&arch::GFX942, Op::DsRead { bits: 128 }), 8);
/// assert_eq!(phase_count(&arch::GFX942, Op::DsRead2 { bits: 64, offsets: [0, 1], st64: false }), 8);
/// ```
pub const fn phase_count(arch: &Arch, op: Op) -> usize {
    rule(arch, op).grouping.phases() * op.accesses() as usize
}

/// Adds phase `index` (over the accesses), whose busiest bank has `ways`
/// words and which has `active` lanes not counted yet, to `c`; `worst` is
/// the costliest phase's passes so far.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
const fn tally(c: &mut Counts, worst: &mut u32, arch: &Arch, ways: u32, index: usize, active: u32) {
    let cost = phase_cycles(arch, ways);
    if cost > 0 {
        c.phases += 1;
    }
    if cost > *worst {
        *worst = cost;
        c.worst_phase = index as u32;
    }
    c.cycles += cost;
    if ways > c.max_ways {
        c.max_ways = ways;
    }
    c.active_lanes += active;
}

/// `cp.async` with its global sources: each phase costs the more of its
/// shared-memory writes (as [`count`] counts them) and its reads of the
/// source from L1's data banks, counted as `ld.shared` of the same width
/// over the source addresses. That is what an H100 shows: a copy from a
/// column of a row-major global tile costs as many wavefronts as the
/// column's words share an L1 bank, whatever the shared layout
/// (docs/gpu-measurements.md). `sources[lane]` is the global byte address
/// lane `lane` copies from (its offset in an L1 line is what matters).
///
/// ```
/// use cktile_analysis::analyzer::{arch, model::{count, count_copy}, Op};
/// // 32 lanes copy one column of a 32x32 fp32 row-major tile into a padded
/// // (conflict-free) shared tile: the shared writes take one wavefront,
/// // the source column 32.
/// let shared: Vec<Option<u64>> = (0..32).map(|l| Some(l * 33 * 4)).collect();
/// let column: Vec<Option<u64>> = (0..32).map(|l| Some(l * 32 * 4)).collect();
/// assert_eq!(count(&arch::SM90, Op::CpAsync { bits: 32 }, &shared)?.cycles, 1);
/// assert_eq!(count_copy(&arch::SM90, 32, &shared, &column)?.cycles, 32);
/// // A coalesced source adds nothing.
/// let row: Vec<Option<u64>> = (0..32).map(|l| Some(l * 4)).collect();
/// assert_eq!(count_copy(&arch::SM90, 32, &shared, &row)?.cycles, 1);
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
pub const fn count_copy(
    arch: &Arch,
    bits: u32,
    addresses: &[Option<u64>],
    sources: &[Option<u64>],
) -> Result<Counts, Error> {
    let op = Op::CpAsync { bits };
    let read = Op::LdShared { bits };
    if let Err(e) = validate(arch, op, addresses) {
        return Err(e);
    }
    if let Err(e) = validate(arch, read, sources) {
        return Err(e);
    }
    if addresses.len() != sources.len() {
        return Err(Error::descriptor(DescriptorProblem::LengthMismatch {
            function: "count_copy (addresses, sources)",
            first: addresses.len(),
            second: sources.len(),
        }));
    }
    let mut lane = 0;
    while lane < addresses.len() {
        if addresses[lane].is_some() != sources[lane].is_some() {
            return Err(Error::parameter(ParameterProblem::invalid_usize(
                "cp.async",
                "source lane",
                lane,
                "a lane has a source address exactly when it has a shared address",
            )));
        }
        lane += 1;
    }
    let (r, rr) = (rule(arch, op), rule(arch, read));
    let (mut t, mut s) = (PhaseTable::EMPTY, PhaseTable::EMPTY);
    let mut c = Counts { phases: 0, cycles: 0, conflict_cycles: 0, max_ways: 0, worst_phase: 0, active_lanes: 0 };
    let mut worst = 0;
    let mut p = 0;
    while p < r.grouping.phases() {
        t.fill(op, &r, 0, p, addresses);
        s.fill(read, &rr, 0, p, sources);
        let (a, b) = (t.max_ways, s.max_ways);
        tally(&mut c, &mut worst, arch, if a > b { a } else { b }, p, t.active);
        p += 1;
    }
    c.conflict_cycles = c.cycles - c.phases;
    Ok(c)
}
