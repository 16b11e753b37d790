//! [`CountMemo`]: an instruction's counts reused for every later
//! instruction that is the same access moved in memory.
//!
//! The bank model reads an address only through the words it covers and
//! their banks. Move every active lane of an instruction by the same
//! distance `T`, a multiple of 16 bytes and of the instruction's alignment,
//! and
//!
//! - two lanes share a word after the move exactly when they did before;
//! - each word's bank turns by the same `T / 4` positions (modulo the bank
//!   count), so in every phase each bank's distinct words become some other
//!   bank's, and the busiest bank has as many ways as before;
//! - an aligned 8- or 16-byte access stays one unit of 2 or 4 banks
//!   ([`model`](super::model)'s grouping), and every alignment check gives
//!   the same answer.
//!
//! So the moved instruction has the same [`Counts`], field for field (none
//! of them names a bank). A tile's instructions are mostly such moves of a
//! few shapes (of the 16 instructions of each of the benchmark's gfx942
//! pairs, naive, padded and CK's XOR layout under row writes and MFMA
//! reads, one or two are counted), so the analyzer counts each shape once and
//! compares the rest lane by lane, a few instructions per lane instead of
//! the phase walk. The memo holds [`SHAPES`] shapes and replaces the oldest;
//! a lookup that finds nothing costs one pass over the lanes per shape and
//! never changes an answer. `tests/bank_model_reference.rs` holds the counts
//! through the memo equal to [`count`](super::model::count) on every tile it
//! checks.

use super::arch::Arch;
use super::model::{Counts, PhaseTable, count_in};
use super::op::Op;
use super::rules::MAX_LANES;
use crate::error::Error;
use cktile_transforms::tri;

/// How many instruction shapes a [`CountMemo`] remembers.
///
/// ```
/// assert!(cktile_analysis::analyzer::memo::SHAPES >= 4);
/// ```
pub const SHAPES: usize = 8;

/// Marks an inactive lane in a shape. An active lane's entry is its
/// distance from the first active lane plus [`LIMIT`], below `2^63`
/// (addresses past [`LIMIT`] are never remembered), so never this.
const INACTIVE: u64 = u64::MAX;

/// Addresses from here on are counted without the memo, so that no moved
/// access can overflow where its shape did not.
const LIMIT: u64 = 1 << 62;

/// Counts of one instruction (`op` on `arch`) per shape: each active lane's
/// address relative to the first active lane's, and that address modulo the
/// move [`quantum`](CountMemo::quantum).
///
/// ```
/// use cktile_analysis::analyzer::{arch, model::{count, PhaseTable}, memo::CountMemo, Op};
/// let op = Op::DsRead { bits: 128 };
/// let mut memo = CountMemo::new(&arch::GFX942, op);
/// let mut table = PhaseTable::EMPTY;
/// // Two rows of a padded tile, 16 lanes down one column (2 KB apart).
/// let row = |base: u64| -> Vec<Option<u64>> { (0..64).map(|l| Some(base + (l % 16) * 144 + (l / 16) * 16)).collect() };
/// for base in [0, 2048, 4096] {
///     assert_eq!(memo.count(&mut table, &row(base)), count(&arch::GFX942, op, &row(base)));
/// }
/// assert_eq!((memo.shapes(), memo.hits()), (1, 2));
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct CountMemo {
    arch: Arch,
    op: Op,
    quantum: u64,
    /// `shape[s][lane]`: the lane's address minus the first active lane's,
    /// plus [`LIMIT`]; [`INACTIVE`] for an inactive lane. Lanes past the
    /// instruction's are never compared.
    shape: [[u64; MAX_LANES]; SHAPES],
    /// The number of lanes the instruction had.
    lanes: [usize; SHAPES],
    /// The first active lane's address modulo the quantum.
    residue: [u64; SHAPES],
    counts: [Counts; SHAPES],
    len: usize,
    /// Where the next new shape goes once the memo is full.
    next: usize,
    hits: u64,
}

impl CountMemo {
    /// An empty memo for `op` on `arch`.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{arch, memo::CountMemo, Op};
    /// let memo = CountMemo::new(&arch::SM90, Op::StShared { bits: 128 });
    /// assert_eq!((memo.shapes(), memo.hits(), memo.quantum()), (0, 0, 16));
    /// ```
    pub const fn new(arch: &Arch, op: Op) -> CountMemo {
        let align = op.alignment();
        CountMemo {
            arch: *arch,
            op,
            quantum: if align > 16 { align } else { 16 },
            shape: [[INACTIVE; MAX_LANES]; SHAPES],
            lanes: [0; SHAPES],
            residue: [0; SHAPES],
            counts: [Counts { phases: 0, cycles: 0, conflict_cycles: 0, max_ways: 0, worst_phase: 0, active_lanes: 0 };
                SHAPES],
            len: 0,
            next: 0,
            hits: 0,
        }
    }

    /// The distance, in bytes, that two instructions' first active lanes
    /// must lie apart (a multiple of it) to share their counts: 16, or the
    /// instruction's alignment when that is larger.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{arch, memo::CountMemo, Op};
    /// assert_eq!(CountMemo::new(&arch::GFX942, Op::DsRead { bits: 32 }).quantum(), 16);
    /// ```
    pub const fn quantum(&self) -> u64 {
        self.quantum
    }

    /// How many shapes the memo holds.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{arch, memo::CountMemo, Op};
    /// assert_eq!(CountMemo::new(&arch::GFX942, Op::DsRead { bits: 32 }).shapes(), 0);
    /// ```
    pub const fn shapes(&self) -> usize {
        self.len
    }

    /// How many instructions took a remembered shape's counts.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{arch, memo::CountMemo, Op};
    /// assert_eq!(CountMemo::new(&arch::GFX942, Op::DsRead { bits: 32 }).hits(), 0);
    /// ```
    pub const fn hits(&self) -> u64 {
        self.hits
    }

    /// [`count_in`] for the memo's instruction: the counts of a remembered
    /// shape when `addresses` is one moved by a multiple of the
    /// [`quantum`](Self::quantum), otherwise counted with `table` (and
    /// remembered when valid). The same answer, error or counts, as
    /// `count_in(table, arch, op, addresses)`.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{arch, model::PhaseTable, memo::CountMemo, Op};
    /// let mut memo = CountMemo::new(&arch::SM90, Op::LdShared { bits: 32 });
    /// let mut table = PhaseTable::EMPTY;
    /// // A column of a 32x32 fp32 tile: 32-way, however far down the tile.
    /// for base in [0, 4096, 8192] {
    ///     let column: Vec<Option<u64>> = (0..32).map(|l| Some(base + l * 128)).collect();
    ///     assert_eq!(memo.count(&mut table, &column)?.max_ways, 32);
    /// }
    /// // Misaligned: the error `count_in` gives, never a remembered count.
    /// assert!(memo.count(&mut table, &[Some(2)]).is_err());
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub const fn count(&mut self, table: &mut PhaseTable, addresses: &[Option<u64>]) -> Result<Counts, Error> {
        match LaneAddresses::from_options(addresses) {
            Some(a) => self.count_lanes(table, &a),
            None => count_in(table, &self.arch, self.op, addresses),
        }
    }

    /// [`count`](Self::count) of addresses the analyzer keeps as
    /// [`LaneAddresses`].
    #[inline]
    ///
    /// ```
    /// use cktile_analysis::analyzer::memo::{CountMemo, LaneAddresses};
    /// use cktile_analysis::analyzer::model::PhaseTable;
    /// use cktile_analysis::analyzer::{Op, arch};
    /// let (mut memo, mut table) = (CountMemo::new(&arch::GFX942, Op::DsRead { bits: 32 }), PhaseTable::EMPTY);
    /// let mut a = LaneAddresses::new(64);
    /// for lane in 0..64 {
    ///     a.set(lane, 256 * (lane as u64 % 8)); // 8 rows of 256 bytes: 8 lanes a bank
    /// }
    /// let c = memo.count_lanes(&mut table, &a)?;
    /// assert_eq!(c, memo.count(&mut table, &a.options()[..64])?);
    /// assert_eq!(c.max_ways, 8);
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub const fn count_lanes(&mut self, table: &mut PhaseTable, a: &LaneAddresses) -> Result<Counts, Error> {
        let lanes = if a.lanes < MAX_LANES { a.lanes } else { MAX_LANES };
        let active = a.active & if lanes < 64 { (1u64 << lanes) - 1 } else { u64::MAX };
        if active == 0 {
            return count_in(table, &self.arch, self.op, a.options().split_at(lanes).0);
        }
        // The shape: each active lane's distance from the first, plus LIMIT
        // (|a - b| < 2^62 puts it in (0, 2^63)); INACTIVE elsewhere.
        let base = a.at[active.trailing_zeros() as usize % MAX_LANES];
        let (mut key, mut any) = ([INACTIVE; MAX_LANES], 0u64);
        let mut l = 0;
        while l < lanes {
            let on = (active >> l) & 1 == 1;
            key[l] = if on { a.at[l].wrapping_sub(base).wrapping_add(LIMIT) } else { INACTIVE };
            any |= if on { a.at[l] } else { 0 };
            l += 1;
        }
        // An address at or past LIMIT (a power of two) sets a bit of `any` at or above it.
        if any >= LIMIT {
            return count_in(table, &self.arch, self.op, a.options().split_at(lanes).0);
        }
        let residue = base % self.quantum;
        // The most recent shape first: consecutive instructions often share one.
        let mut k = 0;
        while k < self.len {
            let s = (self.next + SHAPES - 1 - k) % SHAPES;
            if self.lanes[s] == lanes && self.residue[s] == residue && same(&self.shape[s], &key, lanes) {
                self.hits += 1;
                return Ok(self.counts[s]);
            }
            k += 1;
        }
        let c = tri!(count_in(table, &self.arch, self.op, a.options().split_at(lanes).0));
        let s = self.next;
        self.shape[s] = key;
        self.lanes[s] = lanes;
        self.residue[s] = residue;
        self.counts[s] = c;
        self.next = (s + 1) % SHAPES;
        if self.len < SHAPES {
            self.len += 1;
        }
        Ok(c)
    }
}

/// One instruction's lane addresses as the analyzer makes them: an address
/// per lane (meaningless where the lane is inactive), the active lanes as
/// mask bits, and the number of lanes.
#[derive(Clone, Copy, Debug)]
///
/// ```
/// use cktile_analysis::analyzer::memo::LaneAddresses;
/// let mut a = LaneAddresses::new(4);
/// a.set(0, 0);
/// a.set(2, 128);
/// assert_eq!(a.options()[..4], [Some(0), None, Some(128), None]);
/// ```
pub struct LaneAddresses {
    pub(crate) at: [u64; MAX_LANES],
    pub(crate) active: u64,
    pub(crate) lanes: usize,
}

const _: () = assert!(MAX_LANES <= 64, "a wave's active lanes are the bits of a u64");

impl LaneAddresses {
    /// `lanes` lanes, none active.
    ///
    /// ```
    /// use cktile_analysis::analyzer::memo::LaneAddresses;
    /// assert!(LaneAddresses::new(64).options().iter().all(Option::is_none));
    /// ```
    pub const fn new(lanes: usize) -> LaneAddresses {
        LaneAddresses { at: [0; MAX_LANES], active: 0, lanes }
    }

    /// Lane `lane` accesses `address`.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    ///
    /// ```
    /// use cktile_analysis::analyzer::memo::LaneAddresses;
    /// let mut a = LaneAddresses::new(2);
    /// a.set(1, 64);
    /// assert_eq!(a.options()[..2], [None, Some(64)]);
    /// ```
    pub const fn set(&mut self, lane: usize, address: u64) {
        self.at[lane % MAX_LANES] = address;
        self.active |= 1 << (lane % MAX_LANES);
    }

    /// The addresses as the model takes them: `None` for an inactive lane.
    ///
    /// ```
    /// use cktile_analysis::analyzer::memo::LaneAddresses;
    /// let mut a = LaneAddresses::new(1);
    /// a.set(0, 8);
    /// a.set(5, 8); // past the instruction's lanes: not one of its accesses
    /// assert_eq!(a.options().iter().flatten().count(), 1);
    /// ```
    pub const fn options(&self) -> [Option<u64>; MAX_LANES] {
        let mut out = [None; MAX_LANES];
        let mut l = 0;
        while l < self.lanes && l < MAX_LANES {
            if (self.active >> l) & 1 == 1 {
                out[l] = Some(self.at[l]);
            }
            l += 1;
        }
        out
    }

    /// The same lanes from the model's form; `None` past [`MAX_LANES`].
    const fn from_options(addresses: &[Option<u64>]) -> Option<LaneAddresses> {
        if addresses.len() > MAX_LANES {
            return None;
        }
        let mut a = LaneAddresses::new(addresses.len());
        let mut l = 0;
        while l < addresses.len() {
            if let Some(address) = addresses[l] {
                a.set(l, address);
            }
            l += 1;
        }
        Some(a)
    }
}

/// Whether two shapes agree on their first `lanes` lanes.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
const fn same(a: &[u64; MAX_LANES], b: &[u64; MAX_LANES], lanes: usize) -> bool {
    let mut l = 0;
    while l < lanes && l < MAX_LANES {
        if a[l] != b[l] {
            return false;
        }
        l += 1;
    }
    true
}
