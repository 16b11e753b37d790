//! Layout search: given how a tile is written and read on a chip, which
//! layout is conflict-free for all of it, at what storage cost.
//!
//! [`search`] walks the named families exhaustively within the problem's
//! limits (each [`LayoutFamily`] says what it ranges over): CK Tile's XOR layouts,
//! CuTe swizzles, Triton's swizzled encoding, row padding and every
//! GF(2)-linear swizzle of the column's vectors by the row bits. Each
//! candidate is a catalogue entry; its cost is the analyzer's count of
//! passes through the banks over every instruction of every pattern. The
//! candidates are ranked by total cycles, then extra bytes, then the number
//! of transforms, and the report gives the Pareto front of cycles against
//! extra bytes. Because the walk is exhaustive, the best total is a proved
//! lower bound for these families; when it is above the conflict-free
//! minimum the report lists each pattern's best alone (do the patterns
//! clash?) and the phases whose lanes all access one row, which no row
//! padding or row-indexed XOR can separate.
//!
//! With the `parallel` feature (part of `cli`) the family members and the
//! xor-linear classes are counted on every core and merged in the order a
//! single core meets them, so the report is the same either way
//! (tests/search_golden.rs replays recorded reports in both builds).
//!
//! ```
//! use cktile::analyzer::{arch, Pattern};
//! use cktile::search::{Problem, search};
//! // The CK Tile docs' tile: 128x64 fp16 on gfx942, row writes and MFMA reads.
//! let p = Problem::new(128, 64, 2, arch::GFX942)
//!     .write(Pattern::from_access("ds_write_b128:row")?)
//!     .read(Pattern::from_access("mfma16x16x16:a")?);
//! let r = search(&p)?;
//! assert!(r.conflict_free() && r.best().extra_bytes == 0);
//! assert!(r.naive.cycles > r.best().cycles);
//! # Ok::<(), cktile::Error>(())
//! ```

pub mod access;
mod bound;
mod families;
mod judged;
mod linear;
mod member;
mod outcome;
mod parallel;
mod problem;
mod workload;

pub use access::{Access, DistributionAccess};
pub use families::LayoutFamily;
pub use judged::{DEFAULT_LISTED, Judged, under_model};
pub use linear::MAX_CLASSES;
pub use member::Member;
pub use outcome::{Candidate, FamilySize, SearchReport, StuckPhase};
pub use problem::{MAX_SEARCH_TILE_ELEMENTS, Problem, Role};
pub use workload::PatternCost;

use crate::Error;
use crate::Program;
use crate::analyzer::rules::MAX_LANES;
use crate::analyzer::tile::program_address;
use crate::program::LANES;
use crate::reports::analyze_instruction;
use crate::transforms::Kind;
use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use linear::Skipped;
use workload::Workload;

/// Transforms in a descriptor, pass-throughs not counted.
fn transforms(d: &crate::Descriptor) -> usize {
    d.stages().iter().flat_map(|s| s.items()).filter(|i| i.transform().kind() != Kind::PassThrough).count()
}

/// Checks that every aligned run of `unit` elements along a row is stored
/// contiguously at an offset that is a multiple of `unit`.
fn keeps_vectors(d: &crate::Program, rows: usize, cols: usize, unit: usize) -> Result<(), Error> {
    if d.lengths().as_slice() != [rows as i64, cols as i64] {
        return Err(problem::bad("layout rows", d.lengths().get(0) as usize, "the layout's shape must be the tile's"));
    }
    let w = unit as i64;
    // One row at a time through the program's batched evaluation, LANES
    // columns per batch; an element it refuses (padding) or past the row
    // is asked one by one, as every element once was, so the verdicts are
    // unchanged.
    let mut row = vec![0i64; cols];
    let mut cs = [0i64; LANES];
    let mut offsets = [0i64; LANES];
    for r in 0..rows as i64 {
        let rs = [r; LANES];
        for c0 in (0..cols).step_by(LANES) {
            let n = LANES.min(cols - c0);
            for (l, c) in cs[..n].iter_mut().enumerate() {
                *c = (c0 + l) as i64;
            }
            let valid = d.offsets_2d(&rs, &cs, n, &mut offsets);
            for l in 0..n {
                row[c0 + l] = if (valid >> l) & 1 == 1 { offsets[l] } else { d.calculate_offset(&[r, cs[l]]) };
            }
        }
        let offset = |c: i64| match row.get(c as usize) {
            Some(&o) => o,
            None => d.calculate_offset(&[r, c]),
        };
        for c0 in (0..cols as i64).step_by(unit) {
            let base = offset(c0);
            if base.rem_euclid(w) != 0 || (1..w).any(|k| offset(c0 + k) != base + k) {
                return Err(problem::bad(
                    "vector",
                    unit,
                    "the layout splits or misaligns a vector of this many elements",
                ));
            }
        }
    }
    Ok(())
}

/// LayoutFamily members evaluated together (on every core with the `parallel`
/// feature) between progress reports.
const MEMBERS_PER_BATCH: usize = 32;

/// A program to compile candidates into, on the heap.
fn scratch_program() -> Box<Program> {
    Box::new(Program::EMPTY)
}

/// Evaluates one family member: its candidate, or why it does not fit;
/// `program` is where its descriptor is compiled (any program: the search
/// reuses one per worker, a program being 20 KB). Only a member that fits
/// is written as its catalogue entry.
fn evaluate(
    family: LayoutFamily,
    member: &Member,
    p: &Problem,
    unit: usize,
    work: &Workload,
    program: &mut Program,
) -> Result<Candidate, Error> {
    let d = member.descriptor()?;
    let tile = (p.rows * p.cols) as u64;
    let space = u64::try_from(d.element_space_size()).unwrap_or(u64::MAX);
    let extra_bytes = space.saturating_sub(tile).saturating_mul(p.element_bytes as u64);
    if p.max_padding_bytes.is_some_and(|max| extra_bytes > max) {
        return Err(problem::bad("max padding bytes", extra_bytes as usize, "the layout pads more than the limit"));
    }
    let bytes = space.saturating_mul(p.element_bytes as u64);
    p.arch.check_fits(bytes)?;
    program.compile(&d);
    keeps_vectors(program, p.rows, p.cols, unit)?;
    let costs = work.program_cost(program)?;
    Ok(Candidate {
        family,
        entry: member.to_string(),
        member: member.clone(),
        cycles: costs.iter().map(|c| c.cycles).sum(),
        costs,
        extra_bytes,
        transforms: transforms(&d),
    })
}

/// Searches every family for the layouts of `problem`'s tile that cost the
/// fewest passes through the banks over all its patterns.
///
/// Errors: the problem is invalid ([`Problem::validate`]), or its work
/// (computed first) is past [`MAX_LANE_ACCESSES`] or [`MAX_WORK`].
///
/// ```
/// use cktile::analyzer::{arch, Pattern};
/// use cktile::search::{LayoutFamily, Problem, search};
/// let p = Problem::new(64, 64, 2, arch::SM90)
///     .write(Pattern::from_access("st.shared.b128:row")?)
///     .read(Pattern::from_access("ldmatrix.x4")?);
/// let r = search(&p)?;
/// assert!(r.conflict_free());
/// assert!(r.optimal.iter().any(|c| c.family == LayoutFamily::CuteSwizzle));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn search(problem: &Problem) -> Result<SearchReport, Error> {
    search_with_progress(problem, &mut |_, _| {})
}

/// The most work units a search takes (2^28, about half a minute on one
/// core): a unit is one lane access or one vector check of one candidate
/// layout, or one instruction shape of one xor-linear class. [`search`]
/// computes the work before counting anything and refuses a larger problem
/// with the numbers.
///
/// ```
/// use cktile::analyzer::{arch, Pattern};
/// use cktile::search::{Problem, search};
/// // 128 KiB of fp8 fits the SM80's shared memory, but not the work bound.
/// let p = Problem::new(256, 512, 1, arch::SM80).read(Pattern::from_access("ld.shared.b8:column")?);
/// let e = search(&p).unwrap_err().to_string();
/// assert!(e.contains("work units = 443547648") && e.contains("268435456"), "{e}");
/// # Ok::<(), cktile::Error>(())
/// ```
pub const MAX_WORK: u64 = 1 << 28;

/// The most lane accesses the patterns of a search make together (2^24):
/// each is held in memory while the search runs.
///
/// ```
/// use cktile::analyzer::{arch, Pattern};
/// use cktile::search::{Problem, search};
/// let column = Pattern::from_access("ld.shared.b8:column")?;
/// // 129 column reads of a 128 KiB fp8 tile: 129 * 2^17 lane accesses.
/// let mut p = Problem::new(128, 1024, 1, arch::SM80);
/// for _ in 0..129 {
///     p = p.read(column);
/// }
/// assert!(search(&p).unwrap_err().to_string().contains("lane accesses = 16908288"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub const MAX_LANE_ACCESSES: u64 = 1 << 24;

/// The lane accesses of every pattern together, from the problem alone.
fn accesses(p: &Problem) -> Result<u64, Error> {
    let wave = p.arch.wave() as usize;
    let mut total = 0u64;
    for (_, access) in p.accesses() {
        let n = access.tiled(p.rows, p.cols, p.element_bytes, wave)?.instructions();
        total = total.saturating_add((n as u64).saturating_mul(wave as u64));
    }
    Ok(total)
}

fn too_much(what: &'static str, value: u64, requirement: &'static str) -> Error {
    problem::bad(what, usize::try_from(value).unwrap_or(usize::MAX), requirement)
}

/// [`search`], telling `progress(done, total)` the work units counted so
/// far and in all (at most [`MAX_WORK`]) as it goes.
///
/// ```
/// use cktile::analyzer::{arch, Pattern};
/// use cktile::search::{Problem, search_with_progress};
/// let p = Problem::new(32, 64, 2, arch::GFX942).read(Pattern::from_access("mfma16x16x16:a")?);
/// let (mut calls, mut last) = (0, (0, 0));
/// search_with_progress(&p, &mut |done, total| { calls += 1; last = (done, total); })?;
/// assert!(calls > 1 && last.0 == last.1 && last.1 > 0);
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn search_with_progress(problem: &Problem, progress: &mut dyn FnMut(u64, u64)) -> Result<SearchReport, Error> {
    problem.validate()?;
    let unit = problem.vector_elements()?;
    let families: Vec<(LayoutFamily, Vec<Member>)> = LayoutFamily::ALL
        .into_iter()
        .filter(|f| !matches!(f, LayoutFamily::Naive | LayoutFamily::XorLinear))
        .map(|f| (f, families::members(f, problem, unit)))
        .collect();
    let work = Workload::new(problem)?;
    let (budget, prepared) = Budget::new(problem, &families, linear::prepare(problem, unit, &work))?;
    let mut done = 0u64;
    progress(done, budget.total);
    let naive = evaluate(
        LayoutFamily::Naive,
        &Member::new(problem, families::NAIVE),
        problem,
        unit,
        &work,
        &mut scratch_program(),
    )?;
    done += budget.per_layout;
    progress(done, budget.total);
    let minimum: Vec<u64> = naive.costs.iter().map(|c| c.phases).collect();
    let vector_bound = bound::vector_bound(&work, unit);
    let mut found = Found { candidates: Vec::new(), sizes: Vec::new(), evaluated: 1 };
    for (family, members) in families {
        found.family(family, &members, problem, unit, &work, &mut |_| {
            done += budget.per_layout;
            progress(done, budget.total);
        });
    }
    let xor_linear_optimal_classes = match prepared {
        Ok(l) => {
            let (base, per_class) = (done, l.work(u64::from(problem.arch.wave())) / l.classes().max(1));
            let outcome = linear::run(l, problem, unit, &work, &mut |class| {
                if class % 1024 == 0 {
                    progress(base + class * per_class, budget.total);
                }
            })?;
            progress(budget.total, budget.total);
            found.xor_linear(&outcome, problem, unit, &work);
            outcome.optimal_classes
        }
        Err(skipped) => {
            progress(budget.total, budget.total);
            found.sizes.push(FamilySize {
                family: LayoutFamily::XorLinear,
                members: 0,
                valid: 0,
                note: skipped_note(skipped),
            });
            0
        }
    };
    // The row-major tile competes too: when nothing beats it, it is the answer.
    let mut candidates = found.candidates;
    candidates.push(naive.clone());
    candidates.sort_by(|a, b| a.key().cmp(&b.key()));
    let (front, optimal) = ranked(&candidates);
    let pattern_best =
        (0..minimum.len()).map(|k| candidates.iter().map(|c| c.costs[k].cycles).min().unwrap_or(0)).collect();
    let best = candidates.first().unwrap_or(&naive);
    let stuck = stuck_phases(problem, &work, best)?;
    Ok(SearchReport {
        problem: problem.clone(),
        vector: unit,
        minimum,
        naive,
        families: found.sizes,
        evaluated: found.evaluated,
        candidates,
        front,
        optimal,
        xor_linear_optimal_classes,
        pattern_best,
        vector_bound,
        stuck,
    })
}

/// A search's work, counted from the problem before anything is evaluated,
/// and refused past [`MAX_LANE_ACCESSES`] lane accesses or [`MAX_WORK`] units.
struct Budget {
    /// The work of one candidate layout: its lane accesses and a check of
    /// every element.
    per_layout: u64,
    /// Every family's layouts, the naive one and the xor-linear classes.
    total: u64,
}

impl Budget {
    /// The work of the families and of the prepared xor-linear family, or
    /// a refusal when the other families alone are past the bounds. The
    /// xor-linear family is left out, with its numbers, when it alone
    /// would take the search past [`MAX_WORK`]: the other families are
    /// still searched exhaustively.
    fn new(
        problem: &Problem,
        families: &[(LayoutFamily, Vec<Member>)],
        linear: Result<linear::Prepared, Skipped>,
    ) -> Result<(Budget, Result<linear::Prepared, Skipped>), Error> {
        let lanes = accesses(problem)?;
        if lanes > MAX_LANE_ACCESSES {
            return Err(too_much(
                "lane accesses",
                lanes,
                "the patterns together make at most 2^24 (16777216) lane accesses; use fewer --write/--read or a \
                 smaller tile",
            ));
        }
        let per_layout = lanes.saturating_add((problem.rows * problem.cols) as u64);
        let layouts = 1 + families.iter().map(|(_, m)| m.len() as u64).sum::<u64>();
        let total = layouts.saturating_mul(per_layout);
        if total > MAX_WORK {
            return Err(too_much(
                "work units",
                total,
                "a search takes at most 2^28 (268435456) work units (its layouts x its lane accesses and elements); \
                 use a smaller tile or fewer --write/--read",
            ));
        }
        let wave = u64::from(problem.arch.wave());
        match linear {
            Ok(l) if l.work(wave) > MAX_WORK - total => {
                let skipped = l.too_much(wave, MAX_WORK - total);
                Ok((Budget { per_layout, total }, Err(skipped)))
            }
            Ok(l) => Ok((Budget { per_layout, total: total + l.work(wave) }, Ok(l))),
            Err(skipped) => Ok((Budget { per_layout, total }, Err(skipped))),
        }
    }
}

/// The candidates a search has evaluated so far, and per family how many.
struct Found {
    candidates: Vec<Candidate>,
    sizes: Vec<FamilySize>,
    evaluated: u64,
}

impl Found {
    /// Evaluates a family's members, in batches over the cores, taking the
    /// results in order; `step` runs once per member.
    fn family(
        &mut self,
        family: LayoutFamily,
        members: &[Member],
        problem: &Problem,
        unit: usize,
        work: &Workload,
        step: &mut dyn FnMut(u64),
    ) {
        let (n, mut valid, mut first_reason) = (members.len() as u64, 0u64, None);
        for batch in members.chunks(MEMBERS_PER_BATCH) {
            let results = parallel::map_init(batch, scratch_program, |program, member| {
                evaluate(family, member, problem, unit, work, program)
            });
            for result in results {
                self.evaluated += 1;
                match result {
                    Ok(c) => {
                        valid += 1;
                        self.candidates.push(c);
                    }
                    Err(e) => {
                        first_reason.get_or_insert_with(|| format!("{e}"));
                    }
                }
                step(self.evaluated);
            }
        }
        let mut note = String::from(family.range());
        if let Some(reason) = first_reason {
            note.push_str(&format!("; {} left out, e.g. {reason}", n - valid));
        }
        self.sizes.push(FamilySize { family, members: n, valid, note });
    }

    /// The xor-linear family: the simplest member of each cost level the
    /// class count found, evaluated through its descriptor (which checks
    /// the fast count).
    fn xor_linear(&mut self, outcome: &linear::LinearOutcome, problem: &Problem, unit: usize, work: &Workload) {
        self.evaluated += outcome.classes;
        let mut unbuilt = 0;
        for (_, masks, _) in &outcome.best {
            let used = masks.iter().rposition(|&m| m != 0).map_or(0, |k| k + 1);
            let member = Member::new(problem, member::Shape::XorLinear { vec: unit, masks: masks[..used].to_vec() });
            match evaluate(LayoutFamily::XorLinear, &member, problem, unit, work, &mut scratch_program()) {
                Ok(c) => self.candidates.push(c),
                Err(_) => unbuilt += 1,
            }
        }
        let active: Vec<String> = outcome.active.iter().map(|b| format!("{b}")).collect();
        let mut note = format!(
            "{}; 2^{} masks matrices ({} column bits x {} row bits); active row bits [{}]: {} classes, all counted; \
             the simplest member of each cost level is listed",
            LayoutFamily::XorLinear.range(),
            outcome.column_bits * outcome.row_bits,
            outcome.column_bits,
            outcome.row_bits,
            active.join(", "),
            outcome.classes
        );
        if unbuilt > 0 {
            note.push_str(&format!("; {unbuilt} cost levels had no member that fits a descriptor's stages"));
        }
        self.sizes.push(FamilySize {
            family: LayoutFamily::XorLinear,
            members: outcome.classes,
            valid: outcome.classes,
            note,
        });
    }
}

/// Why the xor-linear family was not searched, for its row of the report.
fn skipped_note(skipped: Skipped) -> String {
    match skipped {
        Skipped::NotPowerOfTwo => "not searched: cols / vector width is not a power of two".into(),
        Skipped::TooMany { classes_log2 } => {
            format!("not searched: 2^{classes_log2} classes exceed the limit of 2^{}", MAX_CLASSES.trailing_zeros())
        }
        Skipped::TooMuchWork { classes_log2, shapes, work, left } => format!(
            "not searched: 2^{classes_log2} classes x {shapes} instruction shapes take {work} work units, more than \
             the {left} left of the search's 2^28 (a wider --vector, fewer rows or fewer accesses bring it within)"
        ),
    }
}

/// Of candidates sorted best first: the Pareto front of cycles against
/// extra bytes, and every candidate as good as the best in both.
fn ranked(candidates: &[Candidate]) -> (Vec<Candidate>, Vec<Candidate>) {
    let mut front: Vec<Candidate> = Vec::new();
    for c in candidates {
        if front.last().is_none_or(|f| c.extra_bytes < f.extra_bytes) {
            front.push(c.clone());
        }
    }
    let optimal = match candidates.first() {
        Some(b) => {
            candidates.iter().filter(|c| (c.cycles, c.extra_bytes) == (b.cycles, b.extra_bytes)).cloned().collect()
        }
        None => Vec::new(),
    };
    (front, optimal)
}

/// The conflicting phases of `best` whose active lanes all access one row.
fn stuck_phases(p: &Problem, work: &Workload, best: &Candidate) -> Result<Vec<StuckPhase>, Error> {
    let program = Program::of(&best.descriptor()?);
    let mut out = Vec::new();
    for (k, w) in work.patterns.iter().enumerate() {
        for (i, lanes) in w.lanes.iter().enumerate() {
            let mut addrs = [None; MAX_LANES];
            for (lane, (slot, at)) in addrs.iter_mut().zip(lanes).enumerate() {
                if let Some((r, c)) = *at {
                    *slot = Some(program_address(&program, p.element_bytes, i, lane, [r as i64, c as i64])?);
                }
            }
            let r = analyze_instruction(&p.arch, w.op, &addrs[..p.arch.wave() as usize])?;
            for ph in r.phase_detail.iter().filter(|ph| ph.cycles > 1) {
                let rows: Vec<usize> =
                    ph.lanes.iter().filter_map(|&l| lanes.get(l as usize).copied().flatten()).map(|(r, _)| r).collect();
                if let Some(&row) = rows.first()
                    && rows.iter().all(|&r| r == row)
                {
                    out.push(StuckPhase {
                        pattern: k,
                        instruction: i as u32,
                        phase: ph.phase,
                        row,
                        lanes: ph.lanes.clone(),
                        cycles: ph.cycles,
                    });
                }
            }
        }
    }
    Ok(out)
}
