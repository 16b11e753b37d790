//! A whole tile: a descriptor read or written by an access pattern, every
//! instruction counted. The counting is `const fn` ([`analyze_tile`]), so
//! [`assert_conflict_free!`](crate::assert_conflict_free) checks a static
//! layout at compile time with exactly the numbers the runtime reports give.

use super::AnalyzerProblem;
use super::arch::Arch;
use super::memo::{CountMemo, LaneAddresses};
use super::model::{Counts, PhaseTable};
use super::op::Op;
use super::pattern::{LaneChunk, Pattern};
use super::rules::MAX_LANES;
use crate::Program;
use crate::error::Error;
use crate::program::LANES;
use cktile_core::Descriptor;
use cktile_core::DescriptorProblem;
use cktile_core::Index;
use cktile_transforms::tri;

/// Totals over every instruction of a tile.
///
/// ```
/// use cktile_analysis::analyzer::{arch, analyze_tile, Op, Pattern};
/// let d = cktile_core::Descriptor::packed(&[128, 64]).unwrap();
/// let t = analyze_tile(&d, 2, &arch::GFX942, Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } }).unwrap();
/// assert_eq!((t.instructions, t.phases, t.cycles, t.conflict_cycles), (16, 128, 512, 384));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TileCounts {
    /// Instructions issued.
    pub instructions: u32,
    /// Phases that cost a pass, over all instructions.
    pub phases: u32,
    /// Passes through the banks.
    pub cycles: u32,
    /// Passes beyond the conflict-free minimum.
    pub conflict_cycles: u32,
    /// The most distinct words one bank served in one phase.
    pub max_ways: u32,
    /// Instructions with at least one conflict.
    pub conflicted_instructions: u32,
    /// The instruction with the most conflict cycles (the first of equals).
    pub worst_instruction: u32,
    /// Its conflict cycles.
    pub worst_conflict_cycles: u32,
    /// Its worst phase.
    pub worst_phase: u32,
}

impl TileCounts {
    /// No instruction yet.
    ///
    /// ```
    /// assert_eq!(cktile_analysis::analyzer::TileCounts::EMPTY.instructions, 0);
    /// ```
    pub const EMPTY: TileCounts = TileCounts {
        instructions: 0,
        phases: 0,
        cycles: 0,
        conflict_cycles: 0,
        max_ways: 0,
        conflicted_instructions: 0,
        worst_instruction: 0,
        worst_conflict_cycles: 0,
        worst_phase: 0,
    };

    /// Adds the next instruction's counts to the totals (the worst
    /// instruction is the first with the most conflict cycles). A sum past
    /// `u32::MAX` is an [`Overflow`](cktile_core::DescriptorProblem::Overflow) error and
    /// leaves the totals as they were.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{arch, count, Op, TileCounts};
    /// let mut t = TileCounts::EMPTY;
    /// let op = Op::LdShared { bits: 32 };
    /// t.add(&count(&arch::SM90, op, &[Some(0), Some(4)])?)?;
    /// t.add(&count(&arch::SM90, op, &[Some(0), Some(128)])?)?;
    /// assert_eq!((t.instructions, t.cycles, t.conflict_cycles, t.worst_instruction), (2, 3, 1, 1));
    /// t.cycles = u32::MAX;
    /// assert!(t.add(&count(&arch::SM90, op, &[Some(0)])?).is_err());
    /// assert_eq!(t.instructions, 2);
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub const fn add(&mut self, c: &Counts) -> Result<(), Error> {
        const fn overflow(quantity: &'static str, a: u32, b: u32) -> Error {
            Error::descriptor(DescriptorProblem::Overflow { quantity, value: a as i128 + b as i128 })
        }
        let i = self.instructions;
        let Some(instructions) = i.checked_add(1) else { return Err(overflow("tile's instruction count", i, 1)) };
        let Some(phases) = self.phases.checked_add(c.phases) else {
            return Err(overflow("tile's phase count", self.phases, c.phases));
        };
        let Some(cycles) = self.cycles.checked_add(c.cycles) else {
            return Err(overflow("tile's cycle count", self.cycles, c.cycles));
        };
        let Some(conflict_cycles) = self.conflict_cycles.checked_add(c.conflict_cycles) else {
            return Err(overflow("tile's conflict cycle count", self.conflict_cycles, c.conflict_cycles));
        };
        self.instructions = instructions;
        self.phases = phases;
        self.cycles = cycles;
        self.conflict_cycles = conflict_cycles;
        if c.max_ways > self.max_ways {
            self.max_ways = c.max_ways;
        }
        if c.conflict_cycles > 0 {
            // At most `instructions`, which fitted.
            self.conflicted_instructions += 1;
        }
        if c.conflict_cycles > self.worst_conflict_cycles {
            self.worst_conflict_cycles = c.conflict_cycles;
            self.worst_instruction = i;
            self.worst_phase = c.worst_phase;
        }
        Ok(())
    }
}

/// The analyzer's counting layer, shared by every count of a tile: the
/// tile counter ([`analyze_tile`]), the window counter behind
/// [`analyze_window`](super::window::analyze_window), the compile-time
/// checks and the reports. It counts each instruction's lane addresses
/// once, through the [`CountMemo`] (the bank model's one phase loop for
/// each new shape), adds them to the totals, keeps each instruction's
/// counts where the caller gives room for them, and, when asked, the lane
/// addresses of the worst instruction, from which a report builds that
/// instruction's detail without walking its lanes again.
#[derive(Clone, Copy, Debug)]
///
/// ```
/// use cktile_analysis::analyzer::{Op, arch, count, memo::LaneAddresses, tile::Tally};
/// let op = Op::DsRead { bits: 32 };
/// let mut tally = Tally::new(&arch::GFX942, op, true);
/// let (mut flat, mut rows) = (LaneAddresses::new(64), LaneAddresses::new(64));
/// for lane in 0..64 {
///     flat.set(lane, 4 * lane as u64);
///     rows.set(lane, 256 * (lane as u64 % 8));
/// }
/// let mut per = [Default::default(); 2];
/// tally.count(0, &flat, &mut per)?;
/// tally.count(1, &rows, &mut per)?;
/// assert_eq!(tally.totals.instructions, 2);
/// assert_eq!(per[1], count(&arch::GFX942, op, &rows.options()[..64])?);
/// // The worst instruction, and its addresses, kept for its report.
/// assert_eq!(tally.totals.worst_instruction, 1);
/// assert_eq!(tally.worst.options(), rows.options());
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
pub struct Tally {
    /// The totals so far.
    pub totals: TileCounts,
    table: PhaseTable,
    memo: CountMemo,
    /// Whether to keep the worst instruction's addresses.
    keep_worst: bool,
    /// The addresses of `totals.worst_instruction` (kept with `keep_worst`).
    pub worst: LaneAddresses,
}

impl Tally {
    /// Nothing counted yet, for `op` on `arch`; with `keep_worst`, the
    /// worst instruction's addresses are kept.
    ///
    /// (See [`Tally`] for an example.)
    pub const fn new(arch: &Arch, op: Op, keep_worst: bool) -> Tally {
        Tally {
            totals: TileCounts::EMPTY,
            table: PhaseTable::EMPTY,
            memo: CountMemo::new(arch, op),
            keep_worst,
            worst: LaneAddresses::new(0),
        }
    }

    /// Counts instruction `i`'s lanes (the next instruction of the tile)
    /// and adds them; `per[i]` gets its counts when `per` has room.
    #[inline]
    ///
    /// (See [`Tally`] for an example.)
    pub const fn count(&mut self, i: usize, addrs: &LaneAddresses, per: &mut [Counts]) -> Result<Counts, Error> {
        match self.memo.count_lanes(&mut self.table, addrs) {
            Ok(c) => match self.add(i, &c, Some(addrs), per) {
                Ok(()) => Ok(c),
                Err(e) => Err(e),
            },
            Err(e) => Err(e),
        }
    }

    /// Adds instruction `i`'s counts `c`, already made (a window's warp
    /// that repeats an earlier one), or counted from `addrs`.
    #[inline]
    pub(crate) const fn add(
        &mut self,
        i: usize,
        c: &Counts,
        addrs: Option<&LaneAddresses>,
        per: &mut [Counts],
    ) -> Result<(), Error> {
        let first = self.totals.instructions == 0;
        let worse = c.conflict_cycles > self.totals.worst_conflict_cycles;
        tri!(self.totals.add(c));
        if i < per.len() {
            per[i] = *c;
        }
        if self.keep_worst
            && (first || worse)
            && let Some(a) = addrs
        {
            self.worst = *a;
        }
        Ok(())
    }
}

/// The byte address of the `(row, col)` lane `lane` of instruction `i`
/// accesses: the coordinate must be a valid (not padding) position of the
/// 2-D `desc` with a non-negative offset; `i` and `lane` only name it in the
/// error. It compiles `desc` each call: over many lanes, compile once and
/// use [`program_address`].
///
/// ```
/// use cktile_analysis::analyzer::tile::coordinate_address;
/// let d = cktile_core::Descriptor::packed(&[4, 8]).unwrap();
/// assert_eq!(coordinate_address(&d, 2, 0, 0, [1, 2]), Ok(20));
/// assert!(coordinate_address(&d, 2, 0, 5, [4, 0]).is_err());
/// ```
/// use cktile_analysis::Program;
pub const fn coordinate_address(
    desc: &Descriptor,
    element_bytes: usize,
    i: usize,
    lane: usize,
    coordinate: [i64; 2],
) -> Result<u64, Error> {
    program_address(&Program::of(desc), element_bytes, i, lane, coordinate)
}

/// [`coordinate_address`] through a compiled [`Program`] of a 2-D descriptor.
///
/// ```
/// use cktile_analysis::Program;
/// use cktile_analysis::analyzer::tile::program_address;
/// let p = Program::of(&cktile_core::Descriptor::packed(&[4, 8]).unwrap());
/// assert_eq!(program_address(&p, 2, 0, 0, [1, 2]), Ok(20));
/// assert!(program_address(&p, 2, 0, 5, [4, 0]).is_err());
/// ```
#[inline]
pub const fn program_address(
    program: &Program,
    element_bytes: usize,
    i: usize,
    lane: usize,
    coordinate: [i64; 2],
) -> Result<u64, Error> {
    if program.lengths().len() != 2 {
        return Err(Error::descriptor(DescriptorProblem::NotTwoDimensional { dims: program.lengths().len() }));
    }
    to_address(program.offset_if_valid(&coordinate), element_bytes, i, lane, coordinate)
}

/// A valid element offset as a byte address; an error naming the lane otherwise.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) const fn to_address(
    offset: Option<i64>,
    element_bytes: usize,
    i: usize,
    lane: usize,
    coordinate: [i64; 2],
) -> Result<u64, Error> {
    match offset {
        Some(offset) if offset >= 0 => match (offset as u64).checked_mul(element_bytes as u64) {
            Some(a) => Ok(a),
            None => Err(Error::analyzer(AnalyzerProblem::AddressOverflow {
                instruction: i,
                lane,
                coordinate,
                offset,
                element_bytes,
            })),
        },
        _ => Err(Error::analyzer(AnalyzerProblem::OutsideTile { instruction: i, lane, coordinate })),
    }
}

/// The byte addresses of instruction `i`'s lanes.
///
/// ```
/// use cktile_analysis::analyzer::{arch, tile::lane_addresses, Op, Pattern};
/// let d = cktile_core::Descriptor::packed(&[64, 64]).unwrap();
/// let a = lane_addresses(&d, 2, &arch::GFX942, Pattern::Rows { op: Op::DsWrite { bits: 128 } }, 0).unwrap();
/// assert_eq!((a[0], a[1], a[8]), (Some(0), Some(16), Some(128)));
/// ```
/// use cktile_analysis::Program;
pub const fn lane_addresses(
    desc: &Descriptor,
    element_bytes: usize,
    arch: &Arch,
    pattern: Pattern,
    i: usize,
) -> Result<[Option<u64>; MAX_LANES], Error> {
    program_lane_addresses(&Program::of(desc), element_bytes, arch, pattern, i)
}

/// [`lane_addresses`] through a compiled [`Program`].
///
/// ```
/// use cktile_analysis::Program;
/// use cktile_analysis::analyzer::{arch, tile::program_lane_addresses, Op, Pattern};
/// let p = Program::of(&cktile_core::Descriptor::packed(&[64, 64]).unwrap());
/// let a = program_lane_addresses(&p, 2, &arch::GFX942, Pattern::Rows { op: Op::DsWrite { bits: 128 } }, 0).unwrap();
/// assert_eq!((a[0], a[1], a[8]), (Some(0), Some(16), Some(128)));
/// ```
/// use cktile_analysis::Program;
pub const fn program_lane_addresses(
    program: &Program,
    element_bytes: usize,
    arch: &Arch,
    pattern: Pattern,
    i: usize,
) -> Result<[Option<u64>; MAX_LANES], Error> {
    let lengths = program.lengths();
    if lengths.len() != 2 {
        return Err(Error::descriptor(DescriptorProblem::NotTwoDimensional { dims: lengths.len() }));
    }
    let (rows, cols) = (lengths.get(0) as usize, lengths.get(1) as usize);
    let wave = arch.wave() as usize;
    let out = [None; MAX_LANES];
    if wave == 0 {
        return Ok(out);
    }
    // What `Pattern::coordinate` checks for every lane, checked once.
    let (n, vec) = tri!(pattern.shape(rows, cols, element_bytes, wave));
    if i >= n {
        return Ok(out);
    }
    let mut a = LaneAddresses::new(if wave < MAX_LANES { wave } else { MAX_LANES });
    let runs = program.runs_along_last(vec);
    match shaped_lane_addresses(program, element_bytes, [rows, cols, vec, wave], pattern, i, runs, &mut a) {
        Ok(()) => Ok(a.options()),
        Err(e) => Err(e),
    }
}

/// Writes instruction `i`'s lane addresses into `out` (every lane of the
/// wave, whose active lanes it sets anew), for a pattern whose shape over the 2-D
/// `program` (`[rows, cols, vec, wave]`) was already checked. The lanes go
/// through the program [`LANES`] at a time ([`chunk_walk`]; `runs`:
/// [`Program::runs_along_last`] of `vec`, decided once per program).
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
#[allow(clippy::too_many_arguments)]
const fn shaped_lane_addresses(
    program: &Program,
    element_bytes: usize,
    [rows, cols, vec, wave]: [usize; 4],
    pattern: Pattern,
    i: usize,
    runs: bool,
    out: &mut LaneAddresses,
) -> Result<(), Error> {
    let lanes = if wave < MAX_LANES { wave } else { MAX_LANES };
    out.lanes = lanes;
    out.active = 0;
    let mut first = 0;
    while first < lanes {
        let n = if lanes - first < LANES { lanes - first } else { LANES };
        let mut chunk = LaneChunk::EMPTY;
        pattern.lane_coordinates([rows, cols, vec, wave], i, first, n, &mut chunk);
        let mut breaks = [0; LANES];
        if let Some(e) = chunk_walk(program, element_bytes, i, first, &chunk, n, vec, runs, out, &mut breaks) {
            return Err(e);
        }
        if any(&breaks) {
            // Named over the whole pattern: the first lane, and the widest width that would do.
            return pattern_breaks(program, element_bytes, [rows, cols, vec, wave], pattern).verdict(pattern.op(), vec);
        }
        first += n;
    }
    Ok(())
}

/// One chunk of lanes `first..first + n` (`n` at most [`LANES`]) of
/// instruction `i`, at the coordinates of `chunk`, through the 2-D
/// `program`, in one batch per element of the vectors: each active lane's
/// byte address goes to lane `first + l` of `out` (the chunk's lanes
/// must be inactive in `out` before) where it has one, and with `vec > 1`
/// each active lane whose first element has an offset gets its
/// [`vector_breaks`] in `breaks` (others 0). Returns the error of the first
/// active lane whose element is on padding, outside the tile or past the
/// addresses (as [`to_address`] names it), after the whole chunk. What the
/// patterns' and the tile windows' counts and checks walk.
///
/// `runs`: [`Program::runs_along_last`] proved `vec`-element vectors along
/// the last dimension contiguous (decided once per program). Then a chunk
/// whose checked lanes all start an aligned vector inside the last length
/// ([`runs_cover`]) has no breaks, and its elements past the first are not
/// run; any other chunk runs them ([`vector_breaks_from`]).
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
#[allow(clippy::too_many_arguments)]
pub(crate) const fn chunk_walk(
    program: &Program,
    element_bytes: usize,
    i: usize,
    first: usize,
    chunk: &LaneChunk,
    n: usize,
    vec: usize,
    runs: bool,
    out: &mut LaneAddresses,
    breaks: &mut [u64; LANES],
) -> Option<Error> {
    let mut offsets = [0; LANES];
    let valid = program.offsets_2d(&chunk.rows, &chunk.cols, n, &mut offsets);
    // The lanes with an address: valid, and an offset whose byte address
    // fits (`offset * element_bytes`, unsigned, without overflow).
    let limit = if element_bytes == 0 { u64::MAX } else { u64::MAX / element_bytes as u64 };
    let mut good = 0u64;
    let mut l = 0;
    while l < LANES {
        good |= (((offsets[l] as u64) <= limit) as u64 & (offsets[l] >= 0) as u64) << l;
        l += 1;
    }
    let active = chunk.active & if n < 64 { (1 << n) - 1 } else { u64::MAX };
    let ok = active & valid & good;
    l = 0;
    while l < n && l < LANES {
        // Exact for the lanes in `ok` (checked above), which alone become active.
        out.at[(first + l) % MAX_LANES] = (offsets[l] as u64).wrapping_mul(element_bytes as u64);
        l += 1;
    }
    out.active |= ok << (first % MAX_LANES);
    if vec > 1 && runs && runs_cover(program, chunk, vec, &offsets, active & valid) {
        *breaks = [0; LANES];
    } else if vec > 1 {
        *breaks = vector_breaks_from(program, chunk, n, vec, offsets, valid);
        l = 0;
        while l < LANES {
            if (active & valid) >> l & 1 == 0 {
                breaks[l] = 0;
            }
            l += 1;
        }
    }
    let bad = active & !ok;
    if bad == 0 {
        return None;
    }
    // The first such lane, reported as one coordinate would be.
    let l = bad.trailing_zeros() as usize % LANES;
    let offset = if (valid >> l) & 1 == 1 { Some(offsets[l]) } else { None };
    match to_address(offset, element_bytes, i, first + l, [chunk.rows[l], chunk.cols[l]]) {
        Ok(_) => None,
        Err(e) => Some(e),
    }
}

/// Whether [`Program::runs_along_last`]'s proof (for `vec`) covers every
/// lane of `lanes` (bits of `chunk`, their first elements valid at
/// `offsets`): its vector starts at a multiple of `vec` and ends inside the
/// last length, and `offset + vec - 1` does not overflow. Then its elements
/// follow one another, all valid, as [`vector_breaks_from`] would find.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) const fn runs_cover(
    program: &Program,
    chunk: &LaneChunk,
    vec: usize,
    offsets: &[Index; LANES],
    lanes: u64,
) -> bool {
    if program.lengths().len() != 2 {
        return false;
    }
    let cols = program.lengths().get(1);
    let (v, last) = (vec as Index, (vec - 1) as Index);
    let mut l = 0;
    while l < LANES {
        if (lanes >> l) & 1 == 1 {
            let c = chunk.cols[l];
            if c % v != 0 || c > cols - v || offsets[l] > Index::MAX - last {
                return false;
            }
        }
        l += 1;
    }
    true
}

/// For each lane `l < n` of `chunk` (whose first elements are valid), the
/// elements `k` in `1..vec` of its vector along the last dimension that do
/// not follow element `k - 1` in `program` (bit `k` of entry `l`). One
/// instruction of the pattern moves `vec` consecutive elements a lane, so
/// a lane whose entry is not 0 asks for a vector the layout does not hold
/// contiguously.
const fn vector_breaks(program: &Program, chunk: &LaneChunk, n: usize, vec: usize) -> [u64; LANES] {
    if vec <= 1 {
        return [0; LANES];
    }
    let mut first = [0; LANES];
    let valid = program.offsets_2d(&chunk.rows, &chunk.cols, n, &mut first);
    vector_breaks_from(program, chunk, n, vec, first, valid)
}

/// [`vector_breaks`] from the first elements' offsets and validity mask
/// (as [`Program::offsets_2d`] gives them).
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
const fn vector_breaks_from(
    program: &Program,
    chunk: &LaneChunk,
    n: usize,
    vec: usize,
    first: [Index; LANES],
    valid: u64,
) -> [u64; LANES] {
    let mut breaks = [0u64; LANES];
    let (mut prev, mut next) = (first, [0; LANES]);
    let mut prev_valid = valid;
    let mut cols = chunk.cols;
    let mut k = 1;
    while k < vec && k < 64 {
        let mut l = 0;
        while l < LANES {
            cols[l] = cols[l].saturating_add(1);
            l += 1;
        }
        let valid = program.offsets_2d(&chunk.rows, &cols, n, &mut next);
        l = 0;
        while l < n && l < LANES {
            let follows =
                (valid >> l) & (prev_valid >> l) & 1 == 1 && matches!(prev[l].checked_add(1), Some(e) if e == next[l]);
            if chunk.active >> l & 1 == 1 && !follows {
                breaks[l] |= 1 << k;
            }
            l += 1;
        }
        (prev, prev_valid) = (next, valid);
        k += 1;
    }
    breaks
}

/// Whether any lane has a break.
const fn any(breaks: &[u64; LANES]) -> bool {
    let mut l = 0;
    while l < LANES {
        if breaks[l] != 0 {
            return true;
        }
        l += 1;
    }
    false
}

/// The breaks of every lane of every instruction of `pattern` (shape
/// `[rows, cols, vec, wave]` for `element_bytes`, already checked) over `program`. Runs only
/// when some lane's vector breaks, to name it.
const fn pattern_breaks(
    program: &Program,
    element_bytes: usize,
    [rows, cols, vec, wave]: [usize; 4],
    pattern: Pattern,
) -> BreakScan {
    let mut scan = BreakScan::NONE;
    let Ok((count, _)) = pattern.shape(rows, cols, element_bytes, wave) else { return scan };
    let lanes = if wave < MAX_LANES { wave } else { MAX_LANES };
    let mut i = 0;
    while i < count {
        let mut first = 0;
        while first < lanes {
            let n = if lanes - first < LANES { lanes - first } else { LANES };
            let mut chunk = LaneChunk::EMPTY;
            pattern.lane_coordinates([rows, cols, vec, wave], i, first, n, &mut chunk);
            let breaks = vector_breaks(program, &chunk, n, vec);
            let mut l = 0;
            while l < n && l < LANES {
                scan.see(i, first + l, [chunk.rows[l], chunk.cols[l]], breaks[l]);
                l += 1;
            }
            first += n;
        }
        i += 1;
    }
    scan
}

/// The byte addresses of a chunk of lanes `first..first + n` of
/// instruction `i` (`n` at most [`LANES`]), in one batch through `program`:
/// lane `first + l` of `out` gets lane `l`'s address when active (the
/// chunk's lanes must be inactive in `out` before). An active
/// lane on padding or outside the tile is an error naming the instruction,
/// the lane and the coordinate, as [`program_address`] reports it (and
/// `out` is then left part-written). `chunk_walk` without the vectors:
/// what the layout search counts its accesses with.
#[cfg(feature = "alloc")]
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
///
/// (See [`LaneChunk`] for an example.)
pub const fn chunk_addresses(
    program: &Program,
    element_bytes: usize,
    i: usize,
    first: usize,
    chunk: &LaneChunk,
    n: usize,
    out: &mut LaneAddresses,
) -> Result<(), Error> {
    let mut breaks = [0; LANES];
    match chunk_walk(program, element_bytes, i, first, chunk, n, 1, false, out, &mut breaks) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Counts every instruction of `pattern` over the 2-D `desc` with elements
/// of `element_bytes`, on `arch`.
///
/// ```
/// use cktile_analysis::analyzer::{arch, tile::analyze_tile, Op, Pattern};
/// use cktile_analysis::layouts::ck::{universal_a, UnmergeOrder};
/// let read = Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } };
/// // The CK Tile docs' case: a naive 128x64 fp16 tile has 4-way conflicts in every phase...
/// let naive = cktile_core::Descriptor::packed(&[128, 64]).unwrap();
/// let c = analyze_tile(&naive, 2, &arch::GFX942, read).unwrap();
/// assert_eq!((c.max_ways, c.cycles, c.phases), (4, 4 * c.phases, 16 * 8));
/// // ...and the XOR preshuffle removes them.
/// let xor = universal_a(128, 64, 8, 2, 32, UnmergeOrder::Fixed2025).unwrap();
/// assert_eq!(analyze_tile(&xor, 2, &arch::GFX942, read).unwrap().conflict_cycles, 0);
/// ```
/// use cktile_analysis::Program;
pub const fn analyze_tile(
    desc: &Descriptor,
    element_bytes: usize,
    arch: &Arch,
    pattern: Pattern,
) -> Result<TileCounts, Error> {
    if let Err(e) = pattern.check_arch(arch) {
        return Err(e);
    }
    let lengths = desc.lengths();
    if lengths.len() != 2 {
        return Err(Error::descriptor(DescriptorProblem::NotTwoDimensional { dims: lengths.len() }));
    }
    let (rows, cols) = (lengths.get(0) as usize, lengths.get(1) as usize);
    let wave = arch.wave() as usize;
    let (n, vec) = tri!(pattern.shape(rows, cols, element_bytes, wave));
    let mut program = Program::EMPTY;
    program.compile(desc);
    let mut tally = Tally::new(arch, pattern.op(), false);
    match pattern_counted(&program, element_bytes, [rows, cols, vec, wave], pattern, 0, n, &mut tally, &mut []) {
        Ok(()) => Ok(tally.totals),
        Err(e) => Err(e),
    }
}

/// Instructions `from..to` of `pattern`, whose shape over the 2-D
/// `program` (`[rows, cols, vec, wave]`) was checked, counted into
/// `tally` in order (`per` as [`Tally::count`] fills it), each lane's
/// vector checked on the way: what [`analyze_tile`] and the reports of a
/// closed-form pattern run. The first refused lane, broken vector or count
/// stops it.
#[allow(clippy::too_many_arguments)]
///
/// ```
/// use cktile_analysis::Program;
/// use cktile_analysis::analyzer::{Op, Pattern, analyze_tile, arch, tile::{Tally, pattern_counted}};
/// let d = cktile_core::Descriptor::packed(&[128, 64])?;
/// let pattern = Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } };
/// let (n, vec) = pattern.shape(128, 64, 2, 64)?;
/// let mut tally = Tally::new(&arch::GFX942, pattern.op(), false);
/// pattern_counted(&Program::of(&d), 2, [128, 64, vec, 64], pattern, 0, n, &mut tally, &mut [])?;
/// assert_eq!(tally.totals, analyze_tile(&d, 2, &arch::GFX942, pattern)?);
/// # Ok::<(), cktile_analysis::Error>(())
/// ```
pub const fn pattern_counted(
    program: &Program,
    element_bytes: usize,
    shape: [usize; 4],
    pattern: Pattern,
    from: usize,
    to: usize,
    tally: &mut Tally,
    per: &mut [Counts],
) -> Result<(), Error> {
    let mut addrs = LaneAddresses::new(0);
    let runs = program.runs_along_last(shape[2]);
    let mut i = from;
    while i < to {
        tri!(shaped_lane_addresses(program, element_bytes, shape, pattern, i, runs, &mut addrs));
        if let Err(e) = tally.count(i, &addrs, per) {
            return Err(e);
        }
        i += 1;
    }
    Ok(())
}

/// For [`assert_conflict_free!`](crate::assert_conflict_free): panics (a
/// compile error in a `const` item) when the tile conflicts, naming the
/// worst instruction and phase.
///
/// ```
/// use cktile_analysis::analyzer::{arch, tile::require_conflict_free, Op, Pattern};
/// const XOR: cktile_core::Descriptor = match cktile_analysis::layouts::ck::xor_preshuffle(64, 64, 8) {
///     Ok(d) => d,
///     Err(e) => panic!("{}", e.summary()),
/// };
/// const _: () = require_conflict_free(&XOR, 2, &arch::GFX942, Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } });
/// ```
pub const fn require_conflict_free(desc: &Descriptor, element_bytes: usize, arch: &Arch, pattern: Pattern) {
    fail_on_conflicts(arch, analyze_tile(desc, element_bytes, arch, pattern), None)
}

/// Stops compilation when the counts show conflicts (naming the chip, the
/// extra cycles, the worst instruction and phase, and, when given, the two
/// lanes and the bank behind it: `(bank, lane, lane)`) or the analysis
/// failed (with its error's summary and numbers).
pub(crate) const fn fail_on_conflicts(arch: &Arch, counts: Result<TileCounts, Error>, lanes: Option<(u32, u32, u32)>) {
    match (counts, lanes) {
        (Ok(c), _) if c.conflict_cycles == 0 => {}
        (Ok(c), Some((bank, a, b))) => const_panic::concat_panic!(
            "\ncktile: the window has bank conflicts on ",
            display: arch.name(),
            ": ",
            c.conflict_cycles,
            " extra cycles over ",
            c.cycles,
            "; worst: instruction ",
            c.worst_instruction,
            ", phase ",
            c.worst_phase,
            ", ",
            c.max_ways,
            "-way: lanes ",
            a,
            " and ",
            b,
            " touch two words of bank ",
            bank
        ),
        (Ok(c), None) => const_panic::concat_panic!(
            "\ncktile: the layout has bank conflicts on ",
            display: arch.name(),
            ": ",
            c.conflict_cycles,
            " extra cycles over ",
            c.cycles,
            "; worst: instruction ",
            c.worst_instruction,
            ", phase ",
            c.worst_phase,
            ", ",
            c.max_ways,
            "-way"
        ),
        (Err(e), _) => crate::static_failure(&e),
    }
}

/// The lanes whose vectors break, gathered over a tile's instructions: the
/// first such lane, and every break seen (bit `k`: some lane's element `k`
/// does not follow element `k - 1`). What the window and pattern checks
/// turn into [`AnalyzerProblem::VectorNotContiguous`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct BreakScan {
    /// (instruction, lane, coordinate, run) of the first lane that breaks.
    first: Option<(usize, usize, [i64; 2], usize)>,
    all: u64,
}

impl BreakScan {
    /// Nothing seen.
    pub(crate) const NONE: BreakScan = BreakScan { first: None, all: 0 };

    /// Lane `lane` of instruction `i`, at `coordinate`, with the breaks of its vector.
    pub(crate) const fn see(&mut self, i: usize, lane: usize, coordinate: [i64; 2], breaks: u64) {
        if breaks != 0 && self.first.is_none() {
            self.first = Some((i, lane, coordinate, breaks.trailing_zeros() as usize));
        }
        self.all |= breaks;
    }

    /// `Ok` when no lane's vector of `width` elements broke; otherwise the
    /// error naming the first lane, how far its elements are contiguous,
    /// and the widest power-of-two width (dividing `width`) no break falls
    /// inside: the width a CK tile window would fall back to.
    pub(crate) const fn verdict(&self, op: Op, width: usize) -> Result<(), Error> {
        let Some((instruction, lane, coordinate, run)) = self.first else { return Ok(()) };
        let bits = if width < 64 { width } else { 64 };
        let mut widest = bits;
        while widest > 1 && breaks_inside(self.all, bits, widest) {
            widest /= 2;
        }
        Err(Error::analyzer(AnalyzerProblem::VectorNotContiguous {
            op,
            width,
            instruction,
            lane,
            coordinate,
            run,
            widest,
        }))
    }
}

/// Whether a break of `breaks` (bits 1..width) falls inside a vector of
/// `widest` elements: not at a multiple of it.
const fn breaks_inside(breaks: u64, width: usize, widest: usize) -> bool {
    let mut k = 1;
    while k < width {
        if breaks & (1 << k) != 0 && k % widest != 0 {
            return true;
        }
        k += 1;
    }
    false
}

#[cfg(all(test, feature = "alloc"))]
mod runs_tests;
