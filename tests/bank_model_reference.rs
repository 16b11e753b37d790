//! The bank model against a deliberately simple reference, and against the
//! counts it gave before it was made fast.
//!
//! - `reference_counts` below recounts an instruction the obvious way: every
//!   byte of every active lane's access becomes its 4-byte word, each phase
//!   keeps the distinct words in a list (every lane's words for cp.async), and a bank's ways are the words of
//!   the list in that bank. [`count`], the analyzer's [`phase_table`] detail
//!   and [`analyze_instruction`] must agree with it exactly over random
//!   addresses (dense, clustered and sparse) for every chip and every
//!   instruction of the rule table, read2/write2 offsets and `st64` forms
//!   included.
//! - `memo_*`: [`CountMemo`] gives `count`'s answer for instructions that
//!   are moves of a few random shapes, by multiples of its quantum and by
//!   other distances, misaligned ones included.
//! - `golden` replays whole tiles (layouts x patterns x chips) and compares a
//!   digest of each tile report with `tests/data/bank_model_golden.tsv`,
//!   recorded from the per-word model before it counted per access
//!   (`CKTILE_BLESS=1` rewrites it; review the diff before committing one).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::analyzer::arch::Vendor;
use cktile::analyzer::memo::CountMemo;
use cktile::analyzer::model::{PhaseTable, phase_table};
use cktile::analyzer::op::all_ops;
use cktile::analyzer::rules::rule;
use cktile::analyzer::{ARCHS, Arch, Counts, Op, Pattern, analyze_tile, count};
use cktile::reports::{analyze_instruction, analyze_tile_report};
// The suite's seeded generator: reproducible addresses.
use cktile::random::Rng;

/// The distinct words of one phase, in first-touch order, and its active lanes.
fn reference_words(arch: &Arch, op: Op, addresses: &[Option<u64>], access: u32, phase: usize) -> (Vec<u64>, u32) {
    let r = rule(arch, op);
    let mut words: Vec<u64> = Vec::new();
    let mut active = 0;
    for &lane in r.grouping.phase(phase) {
        let Some(Some(a)) = addresses.get(lane as usize) else { continue };
        active += 1;
        let start = a + op.access_offset(access);
        let mut own: Vec<u64> = (start..start + op.access_bytes()).map(|byte| byte / 4).collect();
        own.dedup();
        for w in own {
            // cp.async's lanes each write their own copy (measured on an H100).
            if matches!(op, Op::CpAsync { .. }) || !words.contains(&w) {
                words.push(w);
            }
        }
    }
    (words, active)
}

/// Ways of each bank.
fn reference_ways(banks: u32, words: &[u64]) -> Vec<u32> {
    (0..banks).map(|b| words.iter().filter(|&&w| w % u64::from(banks) == u64::from(b)).count() as u32).collect()
}

/// An instruction's counts, the obvious way.
fn reference_counts(arch: &Arch, op: Op, addresses: &[Option<u64>]) -> Counts {
    let r = rule(arch, op);
    let phases = r.grouping.phases();
    let mut c = Counts { phases: 0, cycles: 0, conflict_cycles: 0, max_ways: 0, worst_phase: 0, active_lanes: 0 };
    let mut worst = 0;
    for access in 0..op.accesses() {
        for p in 0..phases {
            let (words, active) = reference_words(arch, op, addresses, access, p);
            let ways = reference_ways(r.banks, &words).into_iter().max().unwrap_or(0);
            let cost = match arch.vendor() {
                Vendor::Amd => ways.max(1),
                Vendor::Nvidia => ways,
            };
            if cost > 0 {
                c.phases += 1;
            }
            if cost > worst {
                worst = cost;
                c.worst_phase = (access as usize * phases + p) as u32;
            }
            c.cycles += cost;
            c.max_ways = c.max_ways.max(ways);
            if access == 0 {
                c.active_lanes += active;
            }
        }
    }
    c.conflict_cycles = c.cycles - c.phases;
    c
}

/// Every instruction of the rule table, with read2/write2 offsets beyond the defaults.
fn ops() -> Vec<Op> {
    let mut out: Vec<Op> = all_ops().collect();
    for bits in [32, 64] {
        for st64 in [false, true] {
            for offsets in [[0, 2], [3, 1], [0, 16], [7, 200]] {
                out.push(Op::DsRead2 { bits, offsets, st64 });
                out.push(Op::DsWrite2 { bits, offsets, st64 });
            }
        }
    }
    out
}

/// Random lane addresses for `op`: every access aligned, within `span` bytes
/// (small spans make conflicts and shared words), some lanes inactive.
fn addresses(rng: &mut Rng, arch: &Arch, op: Op, span: u64, inactive_per_16: u64) -> Vec<Option<u64>> {
    let align = op.alignment();
    let lanes = arch.wave() as usize - rng.below(2) as usize * rng.below(arch.wave() as u64) as usize;
    (0..lanes).map(|_| (rng.below(16) >= inactive_per_16).then(|| rng.below(span / align + 1) * align)).collect()
}

#[test]
fn count_and_detail_match_the_reference_on_random_addresses() {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0u32;
    for arch in &ARCHS {
        for op in ops().into_iter().filter(|op| op.runs_on(arch)) {
            let r = rule(arch, op);
            let period = u64::from(r.banks) * 4;
            for round in 0..120 {
                // Spans from a fraction of one bank period (shared words,
                // broadcasts) to many periods (distinct words in one bank).
                let span = match round % 4 {
                    0 => period / 2,
                    1 => period * 2,
                    2 => period * 16,
                    _ => 1 << 20,
                };
                let inactive = rng.below(6);
                let addrs = addresses(&mut rng, arch, op, span, inactive);
                let want = reference_counts(arch, op, &addrs);
                let got = count(arch, op, &addrs).unwrap();
                assert_eq!(got, want, "{} {op} {addrs:?}", arch.name());
                let report = analyze_instruction(arch, op, &addrs).unwrap();
                assert_eq!(report.counts, want, "{} {op}", arch.name());
                for access in 0..op.accesses() {
                    for p in 0..r.grouping.phases() {
                        let (words, active) = reference_words(arch, op, &addrs, access, p);
                        let ways = reference_ways(r.banks, &words);
                        let t = phase_table(op, &r, access, p, &addrs);
                        assert_eq!(t.active, active);
                        let max = ways.iter().copied().max().unwrap_or(0);
                        let busiest = ways.iter().position(|&w| w == max && max > 0).unwrap_or(0) as u32;
                        assert_eq!(t.busiest(), (busiest, max), "{} {op} {addrs:?}", arch.name());
                        for (bank, &w) in ways.iter().enumerate() {
                            assert_eq!(t.ways(bank as u32), w);
                            let mine: Vec<u64> =
                                words.iter().copied().filter(|w| w % u64::from(r.banks) == bank as u64).collect();
                            let (theirs, n) = t.words_of::<256>(bank as u32);
                            assert_eq!(&theirs[..n], &mine[..], "{} {op} bank {bank}", arch.name());
                        }
                    }
                }
                checked += 1;
            }
        }
    }
    // 8 chips, every instruction they have: thousands of instructions.
    assert!(checked > 20_000, "{checked}");
}

#[test]
fn memo_counts_moved_instructions_as_count_does() {
    let mut rng = Rng::new(0x0123_4567_89ab_cdef);
    let (mut hits, mut checked) = (0u64, 0u32);
    for arch in &ARCHS {
        for op in ops().into_iter().filter(|op| op.runs_on(arch)) {
            let period = u64::from(rule(arch, op).banks) * 4;
            let mut memo = CountMemo::new(arch, op);
            let mut table = PhaseTable::EMPTY;
            let shapes: Vec<Vec<Option<u64>>> = (0..3)
                .map(|k| {
                    let inactive = rng.below(4);
                    addresses(&mut rng, arch, op, period * (1 << (2 * k)), inactive)
                })
                .collect();
            for _ in 0..40 {
                let shape = &shapes[rng.below(3) as usize];
                // A multiple of the quantum (the memo's counts), of the alignment
                // only, of a word, or any distance (then usually misaligned).
                let unit = match rng.below(4) {
                    0 => memo.quantum(),
                    1 => op.alignment(),
                    2 => 4,
                    _ => 1,
                };
                let shift = rng.below(1 << 14) * unit;
                let moved: Vec<Option<u64>> = shape.iter().map(|a| a.map(|a| a + shift)).collect();
                assert_eq!(
                    memo.count(&mut table, &moved),
                    count(arch, op, &moved),
                    "{} {op} moved by {shift}: {moved:?}",
                    arch.name()
                );
                checked += 1;
            }
            hits += memo.hits();
        }
    }
    // Far from 4 GB, and no active lane: counted directly, never remembered.
    let mut memo = CountMemo::new(&ARCHS[0], Op::DsRead { bits: 32 });
    let mut table = PhaseTable::EMPTY;
    for addrs in [vec![Some(u64::MAX - 3)], vec![Some(1 << 62)], vec![None, None], vec![]] {
        assert_eq!(memo.count(&mut table, &addrs), count(&ARCHS[0], Op::DsRead { bits: 32 }, &addrs));
    }
    assert_eq!((memo.shapes(), memo.hits()), (0, 0));
    // Many instructions, a good share of them answered by the memo.
    assert!(checked > 10_000 && hits * 5 > u64::from(checked), "{checked} checked, {hits} hits");
}

#[test]
fn every_rule_fits_the_tables_of_the_model() {
    // The model's per-bank tables hold 64 banks, and its unit groups rely on
    // a power-of-two bank count (any other count is still exact, only slower).
    for arch in &ARCHS {
        for op in ops().into_iter().filter(|op| op.runs_on(arch)) {
            let r = rule(arch, op);
            assert!(r.banks <= 64 && r.banks.is_power_of_two(), "{} {op}: {} banks", arch.name(), r.banks);
        }
    }
}

#[test]
fn one_word_per_lane_edge_cases_match_the_reference() {
    // Every lane on one word, every lane on one bank, and lanes at the top of
    // the address space (words near u64::MAX / 4).
    for arch in &ARCHS {
        for op in ops().into_iter().filter(|op| op.runs_on(arch)) {
            let wave = arch.wave() as usize;
            let align = op.alignment();
            let top = (u64::MAX - (1 << 20)) / align * align;
            let sets: Vec<Vec<Option<u64>>> = vec![
                vec![Some(0); wave],
                (0..wave as u64).map(|l| Some(l * 512)).collect(),
                (0..wave as u64).map(|l| Some(top - l * align * 3)).collect(),
                vec![None; wave],
            ];
            for addrs in sets {
                assert_eq!(
                    count(arch, op, &addrs).unwrap(),
                    reference_counts(arch, op, &addrs),
                    "{} {op}",
                    arch.name()
                );
            }
        }
    }
}

/// The layouts of the golden replay, by catalogue name, for a `rows x cols` tile.
fn golden_layouts(rows: usize, cols: usize, eb: usize) -> Vec<String> {
    let mut out = vec![
        format!("packed(({rows},{cols}))"),
        format!("row-padded:rows={rows},cols={cols},pad=8,dtype={eb}"),
        format!("row-padded:rows={rows},cols={cols},pad=4,dtype={eb}"),
        format!("ck-xor-preshuffle:m={rows},k={cols},kpack=8,dtype={eb}"),
        format!("cute-swizzle:b=3,mbase=3,s=3,rows={rows},cols={cols},dtype={eb}"),
        format!("cute-swizzle:b=2,mbase=2,s=4,rows={rows},cols={cols},dtype={eb}"),
        format!("triton-swizzled:vec=8,perphase=1,maxphase=8,order=10,rows={rows},cols={cols},dtype={eb}"),
        format!("triton-swizzled:vec=4,perphase=2,maxphase=4,order=10,rows={rows},cols={cols},dtype={eb}"),
        format!("xor-linear:rows={rows},cols={cols},vec=8,masks=1.2.4,dtype={eb}"),
    ];
    if eb == 2 {
        out.push(format!("ck-universal-a:m={rows},k={cols},dtype=fp16"));
    }
    out
}

const GOLDEN_PATTERNS: [&str; 20] = [
    "ds_write_b128:row",
    "ds_read_b128:row",
    "ds_read_b128:column",
    "ds_write_b64:row",
    "ds_read_b64:column",
    "ds_read_b32:column",
    "ds_write_b16:column",
    "ds_read_b96:row",
    "ds_read2_b64:row",
    "mfma16x16x16:a",
    "mfma32x32x8:b",
    "mfma16x16x16:ds_read_b64",
    "st.shared.b128:row",
    "st.shared.b128:column",
    "ld.shared.b64:column",
    "ld.shared.b8:column",
    "ldmatrix.x4",
    "stmatrix.x2.trans",
    "ldmatrix.x1",
    "mma_sync_a",
];

/// FNV-1a over a report's debug text: any change of any count, way, lane or
/// word of any phase changes it.
fn digest(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// One line per (chip, element size, layout, pattern) the analyzer accepts.
fn golden_lines() -> Vec<String> {
    let mut out = Vec::new();
    for arch in &ARCHS {
        for (rows, cols, eb) in [(64, 64, 2), (32, 64, 4), (64, 128, 1)] {
            for layout in golden_layouts(rows, cols, eb) {
                let Ok(d) = cktile::layouts::resolve(&layout) else { continue };
                for name in GOLDEN_PATTERNS {
                    let p = Pattern::from_access(name).unwrap();
                    let Ok(report) = analyze_tile_report(&d, eb, arch, p) else { continue };
                    // analyze_tile counts through its memo, the report instruction by instruction.
                    let t = analyze_tile(&d, eb, arch, p).unwrap();
                    assert_eq!((t, t.instructions as usize), (report.counts, report.instructions.len()));
                    let c = report.counts;
                    let ways: Vec<String> = report.instructions.iter().map(|i| i.max_ways.to_string()).collect();
                    out.push(format!(
                        "{}\t{eb}\t{layout}\t{name}\t{} {} {} {} {}\t{}\t{:016x}",
                        arch.name(),
                        c.instructions,
                        c.cycles,
                        c.conflict_cycles,
                        c.max_ways,
                        c.worst_instruction,
                        ways.join(","),
                        digest(&format!("{report:?}")),
                    ));
                }
            }
        }
    }
    out
}

#[test]
fn tiles_reproduce_the_recorded_reports() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/bank_model_golden.tsv");
    let lines = golden_lines();
    if std::env::var_os("CKTILE_BLESS").is_some() {
        std::fs::write(path, lines.join("\n") + "\n").unwrap();
    }
    let recorded = std::fs::read_to_string(path).unwrap();
    let recorded: Vec<&str> = recorded.lines().collect();
    assert!(recorded.len() > 1000, "{}", recorded.len());
    assert_eq!(lines.len(), recorded.len());
    for (got, want) in lines.iter().zip(&recorded) {
        assert_eq!(got, want);
    }
}

/// A tile report the way the analyzer made it before it was one engine:
/// the contiguity of every lane's vector checked first
/// (`PatternAccess::over`), then each instruction's addresses
/// (`pattern_lane_addresses`) counted on their own (`count`), summed, and
/// the worst instruction analysed again from its addresses
/// (`analyze_instruction`).
type Recount = (cktile::analyzer::TileCounts, Vec<cktile::analyzer::Counts>, cktile::reports::InstructionReport);

fn recounted(d: &cktile::Descriptor, eb: usize, arch: &Arch, p: Pattern) -> Result<Recount, cktile::Error> {
    use cktile::analyzer::window::PatternAccess;
    use cktile::analyzer::{TileCounts, count};
    use cktile::reports::{analyze_instruction, pattern_lane_addresses};
    p.check_arch(arch)?;
    let access = PatternAccess::over(d, p, eb, arch)?;
    let wave = arch.wave() as usize;
    let (mut t, mut per, mut lanes) = (TileCounts::EMPTY, vec![], vec![]);
    for i in 0..access.instructions() {
        let a = pattern_lane_addresses(d, eb, arch, &access, i)?;
        let c = count(arch, p.op(), &a[..wave])?;
        t.add(&c)?;
        per.push(c);
        lanes.push(a[..wave].to_vec());
    }
    let worst = analyze_instruction(arch, p.op(), &lanes[t.worst_instruction as usize])?;
    Ok((t, per, worst))
}

/// The one engine's report (each instruction counted once, the lanes of a
/// window placed once and walked once, vectors checked in the same walk,
/// the worst instruction's detail from the lanes its count kept) is the
/// recount's ([`recounted`]), refusals included, on random 2-D layouts of
/// every transform kind and the golden layouts, every ready pattern, every chip and element sizes
/// 1, 2 and 4.
#[test]
fn reports_are_the_recount_on_random_layouts() {
    use cktile::random::Rng;
    use cktile::random::chain::{ChainConfig, chain};
    let config = ChainConfig::default();
    let (mut counted, mut refused, mut tiles) = (0, 0, 0);
    for seed in 0..3_000u64 {
        let mut rng = Rng::new(seed);
        // Every other tile one of the golden layouts, at a random size.
        let d = if seed % 2 == 0 {
            let (rows, cols, eb) = [(64, 64, 2), (32, 64, 4), (64, 128, 1), (16, 32, 2)][rng.below(4) as usize];
            let layouts = golden_layouts(rows, cols, eb);
            match cktile::layouts::resolve(&layouts[rng.below(layouts.len() as u64) as usize]) {
                Ok(d) => d,
                Err(_) => continue,
            }
        } else {
            chain(seed, &config)
        };
        if d.lengths().len() != 2 || d.element_size().is_none_or(|s| s > 1 << 14) {
            continue;
        }
        tiles += 1;
        for _ in 0..3 {
            let arch = ARCHS[rng.below(ARCHS.len() as u64) as usize];
            let p = Pattern::from_access(GOLDEN_PATTERNS[rng.below(GOLDEN_PATTERNS.len() as u64) as usize]).unwrap();
            let eb = [1, 2, 4][rng.below(3) as usize];
            let what = format!("seed {seed}: {d}, {p:?} on {}, {eb}-byte elements", arch.name());
            let got = analyze_tile_report(&d, eb, &arch, p).map(|r| (r.counts, r.instructions.clone(), r.worst()));
            let want = recounted(&d, eb, &arch, p);
            assert_eq!(got, want, "{what}");
            if want.is_ok() { counted += 1 } else { refused += 1 }
        }
    }
    eprintln!("COVER {tiles} tiles: {counted} counted, {refused} refused");
    assert!(counted > 800 && refused > 1000, "{tiles} tiles: {counted} counted, {refused} refused");
}
