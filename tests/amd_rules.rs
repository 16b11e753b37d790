//! The rule table against its sources.
//!
//! - MI300X's published `SQ_LDS_BANK_CONFLICT` counts by stride
//!   (nod-ai/amd-shark-ai `docs/empirical-lds/cdna3info.md`: per `ds_read`,
//!   all 64 lanes, lane `t` at byte `t * stride`), through `cktile bank`.
//! - rocprof-compute's MI250 LDS example (the `conflicts` kernel: N lanes of
//!   a wave in bank 0), through `cktile bank`.
//! - For every (chip, instruction), a two-lane probe table: which lane pairs
//!   conflict when they touch one bank at different words, counted by the
//!   model, equals the pairs the source's grouping puts in one phase; and a
//!   same-phase pair 128 bytes apart conflicts exactly when the source says
//!   the instruction sees 32 banks. The sources' groupings are restated
//!   here independently of `analysis/src/analyzer/rules.rs`: rocKE's phase keys (bit
//!   functions of the lane) for gfx90a, gfx942 and gfx950, nod-ai's and
//!   HipKittens' measured lists for the rest, and for each assumed rule the
//!   assumption the table documents.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::analyzer::arch::{self, Chip};
use cktile::analyzer::op::all_ops;
use cktile::analyzer::rules::{Provenance, rule};
use cktile::analyzer::{ARCHS, Arch, Op, count};
use std::io::Write;
use std::process::{Command, Stdio};

fn bank(request: &str) -> serde_json::Value {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cktile"))
        .arg("bank")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(request.as_bytes()).unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{request}: {}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn strided(arch: &str, op: &str, stride: u64) -> serde_json::Value {
    let addrs: Vec<String> = (0..64).map(|t| (t * stride).to_string()).collect();
    bank(&format!(r#"{{"arch": "{arch}", "op": "{op}", "addresses": [{}]}}"#, addrs.join(",")))
}

#[test]
fn mi300x_conflict_counts_by_stride() {
    // (instruction, [(stride, conflicts per ds_read)]) from the MI300X table
    // (per 64-read block / 64); the natural stride is conflict-free.
    let table: [(&str, &[(u64, u64)]); 3] = [
        ("ds_read_b32", &[(4, 0), (8, 2), (16, 6), (32, 14), (64, 30), (128, 62), (256, 62), (512, 62)]),
        ("ds_read_b64", &[(8, 0), (16, 4), (32, 12), (64, 28), (128, 60), (256, 60), (512, 60)]),
        ("ds_read_b128", &[(16, 0), (32, 8), (64, 24), (128, 56), (256, 56), (512, 56)]),
    ];
    for (op, rows) in table {
        for &(stride, conflicts) in rows {
            let v = strided("gfx942", op, stride);
            assert_eq!(v["conflict_cycles"], conflicts, "{op} stride {stride}: {v}");
        }
    }
}

#[test]
fn rocprof_compute_mi250_example() {
    // N lanes read `array[lane * 32]` (4-byte ints) with ds_read_b32 on
    // gfx90a: N + 1 index accesses (N passes, plus the idle second
    // half-wave), N - 1 bank conflicts, rate 100 * ((N-1)/32) / 2, and
    // 128 bytes per cycle of theoretical bandwidth.
    for n in 1..=32u64 {
        let addrs: Vec<String> = (0..n).map(|l| (l * 128).to_string()).collect();
        let v = bank(&format!(r#"{{"arch": "gfx90a", "op": "ds_read_b32", "addresses": [{}]}}"#, addrs.join(",")));
        assert_eq!((v["cycles"].as_u64(), v["conflict_cycles"].as_u64()), (Some(n + 1), Some(n - 1)), "N={n}");
        let rate = 100.0 * ((n - 1) as f64 / 32.0) / 2.0;
        assert_eq!(v["bank_conflict_rate_pct"].as_f64(), Some(rate), "N={n}");
        assert_eq!(v["theoretical_bytes"].as_u64(), Some((n + 1) * 128), "N={n}");
    }
}

fn bit(lane: u32, b: u32) -> u32 {
    (lane >> b) & 1
}

/// What a source says of one instruction on one chip: the phase key of a
/// lane (lanes with equal keys are served together) and the bank period in
/// bytes. Lanes the instruction takes no address from get `None`.
struct Stated {
    key: Box<dyn Fn(u32) -> Option<Vec<u32>>>,
    period: u64,
}

fn keyed(period: u64, key: impl Fn(u32) -> Vec<u32> + 'static) -> Stated {
    Stated { key: Box::new(move |l| Some(key(l))), period }
}

/// rocKE's gfx90a profile (gfx942 follows it): b32 by lane bit 5, b64 by bits
/// 5 and 4, b128 reads by (5, 4 ^ 2, 3), b128 writes by (5, 4, 3); 128-byte period.
fn rocke_gfx90a(read: bool, bytes: u64) -> Stated {
    match (read, bytes) {
        (_, 4) => keyed(128, |l| vec![bit(l, 5)]),
        (_, 8) => keyed(128, |l| vec![bit(l, 5), bit(l, 4)]),
        (true, _) => keyed(128, |l| vec![bit(l, 5), bit(l, 4) ^ bit(l, 2), bit(l, 3)]),
        (false, _) => keyed(128, |l| vec![bit(l, 5), bit(l, 4), bit(l, 3)]),
    }
}

/// rocKE's gfx950 profile: reads of 8 and 16 bytes on 64 banks (keys
/// (5) and (5, 4 ^ 3 ^ 2)), everything else as gfx90a. `ds_read_b96`:
/// HipKittens measured gfx942's b128 read phases on 32 banks. The disputed
/// `ds_read_b32`: AMD's rule by default, nod-ai's one 64-lane phase on 64
/// banks in the variant.
fn gfx950(chip: Chip, read: bool, bytes: u64) -> Stated {
    match (read, bytes) {
        (true, 8) => keyed(256, |l| vec![bit(l, 5)]),
        (true, 16) => keyed(256, |l| vec![bit(l, 5), bit(l, 4) ^ bit(l, 3) ^ bit(l, 2)]),
        (true, 12) => rocke_gfx90a(true, 16),
        (true, 4) if chip == Chip::Gfx950B32x64 => keyed(256, |_| vec![]),
        _ => rocke_gfx90a(read, bytes),
    }
}

/// nod-ai's W7900 (gfx1100) and RX 9070 XT (gfx1201) reads: b32 one phase,
/// b64 by lane bit 4, b128 by (4 ^ 2, 3) on gfx1100 and (4, 3) on gfx1201.
/// Writes (assumed): consecutive lanes filling 32 banks. b96: as b128 (assumed).
fn rdna(chip: Chip, read: bool, bytes: u64) -> Stated {
    match (read, bytes, chip) {
        (_, 4, _) => keyed(128, |_| vec![]),
        (_, 8, _) => keyed(128, |l| vec![bit(l, 4)]),
        (true, _, Chip::Gfx1100) => keyed(128, |l| vec![bit(l, 4) ^ bit(l, 2), bit(l, 3)]),
        _ => keyed(128, |l| vec![bit(l, 4), bit(l, 3)]),
    }
}

/// gfx1250 (wave32): 64 banks (CK Tile's and Triton's constants); b128
/// reads in groups of 16 lanes (AMD's MI450 blog; disputed by the GFX12
/// ISA's 8-lane groups as Triton #11365 quotes them), so keyed by lane bit
/// 4; b96 reads as b128 (assumed); b32/b64 reads and b32/b64 writes one
/// phase (assumed); b96/b128 writes as the reads (assumed).
fn gfx1250(bytes: u64) -> Stated {
    match bytes {
        4 | 8 => keyed(256, |_| vec![]),
        _ => keyed(256, |l| vec![bit(l, 4)]),
    }
}

/// The grouping the sources (or the documented assumption) give `op` on `arch`.
fn stated(arch: &Arch, op: Op) -> Stated {
    let amd = |read: bool, bytes: u64| match arch.chip() {
        Chip::Gfx90a | Chip::Gfx942 => rocke_gfx90a(read, if bytes == 12 { 16 } else { bytes }),
        Chip::Gfx950 | Chip::Gfx950B32x64 => gfx950(arch.chip(), read, bytes),
        Chip::Gfx1100 | Chip::Gfx1201 => rdna(arch.chip(), read, if bytes == 12 { 16 } else { bytes }),
        Chip::Gfx1250 => gfx1250(bytes),
        Chip::Sm80 | Chip::Sm90 => unreachable!(),
    };
    match op {
        // Sub-dword (assumed): the chip's b32 rule.
        Op::DsRead { bits: 8 | 16 } => amd(true, 4),
        Op::DsWrite { bits: 8 | 16 } => amd(false, 4),
        Op::DsRead { bits } => amd(true, u64::from(bits / 8)),
        Op::DsWrite { bits } => amd(false, u64::from(bits / 8)),
        // kuhar's ds_read2_b64 rule (sourced on gfx942, assumed elsewhere):
        // each address as the single-address instruction of its width.
        Op::DsRead2 { bits, .. } => amd(true, u64::from(bits / 8)),
        Op::DsWrite2 { bits, .. } => amd(false, u64::from(bits / 8)),
        // Transposing reads (assumed): gfx950's ds_read_b64.
        Op::DsReadTr { .. } => amd(true, 8),
        // gfx1250's transposing loads (AMD's MI450 blog): the plain read of their width.
        Op::DsLoadTr { element_bits } => amd(
            true,
            if element_bits == 16 {
                16
            } else if element_bits == 6 {
                12
            } else {
                8
            },
        ),
        // CUDA: one phase of 32 lanes, half-warps for 64 bits, quarter-warps for 128
        // (cp.async measured so on an H100).
        Op::LdShared { bits } | Op::StShared { bits } | Op::CpAsync { bits } => match bits {
            128 => keyed(128, |l| vec![bit(l, 4), bit(l, 3)]),
            64 => keyed(128, |l| vec![bit(l, 4)]),
            _ => keyed(128, |_| vec![]),
        },
        // ldmatrix/stmatrix: matrix l / 8 per pass, addresses from lanes 0..8 * matrices.
        Op::Ldmatrix { matrices, .. } | Op::Stmatrix { matrices, .. } => {
            Stated { key: Box::new(move |l| (l < 8 * matrices).then(|| vec![l / 8])), period: 128 }
        }
    }
}

/// Whether lanes `a` and `b` conflict under the model when both touch one
/// bank at different words (`separation` bytes apart).
fn conflicts(arch: &Arch, op: Op, a: u32, b: u32, separation: u64) -> bool {
    let mut addrs = vec![None; arch.wave() as usize];
    addrs[a as usize] = Some(0);
    addrs[b as usize] = Some(separation);
    count(arch, op, &addrs).unwrap().conflict_cycles > 0
}

#[test]
fn two_lane_probes_match_every_source() {
    let mut checked = 0;
    for arch in ARCHS {
        for op in all_ops().filter(|op| op.runs_on(&arch)) {
            let s = stated(&arch, op);
            let wave = arch.wave();
            // Any pair 1024 bytes apart shares a bank on every chip: it
            // conflicts exactly when the source puts both lanes in one phase.
            for a in 0..wave {
                for b in a + 1..wave {
                    let same = match ((s.key)(a), (s.key)(b)) {
                        (Some(ka), Some(kb)) => ka == kb,
                        _ => false,
                    };
                    assert_eq!(conflicts(&arch, op, a, b, 1024), same, "{} {op}: lanes {a}, {b}", arch.name());
                }
            }
            // The bank count: two lanes of lane 0's phase, 128 bytes apart,
            // meet in one bank only on 32 banks.
            let k0 = (s.key)(0);
            let partner = (1..wave).find(|&l| (s.key)(l) == k0).unwrap();
            let on_32 = conflicts(&arch, op, 0, partner, 128);
            assert_eq!(on_32, s.period == 128, "{} {op}: period {}", arch.name(), s.period);
            assert_eq!(rule(&arch, op).banks as u64 * 4, s.period, "{} {op}", arch.name());
            checked += 1;
        }
    }
    // 9 chips: 23 AMD instructions on gfx950 (its 3 transposing reads), 24
    // on gfx1250 (its 4 transposing loads), 20 elsewhere; 19 NVIDIA ones on
    // sm80 (no stmatrix), 25 on sm90.
    assert_eq!(checked, 4 * 20 + 2 * 23 + 24 + 19 + 25, "every (chip, instruction) probed");
}

#[test]
fn read2_serves_its_two_addresses_in_separate_phases() {
    // kuhar: the first address of every lane, then the second, in the same
    // phases. So one lane's two addresses never conflict with each other, and
    // one lane's second address never meets another lane's first, even on one
    // bank at different words; two lanes' second addresses do.
    for arch in ARCHS.iter().filter(|a| a.vendor() == arch::Vendor::Amd) {
        for bits in [32u32, 64] {
            let period = rule(arch, Op::DsRead2 { bits, offsets: [0, 1], st64: false }).banks as u64 * 4;
            let step = (period / u64::from(bits / 8)) as u8; // offset1 one bank period away
            let op = Op::DsRead2 { bits, offsets: [0, step], st64: false };
            assert_eq!(count(arch, op, &[Some(0)]).unwrap().conflict_cycles, 0, "{} {op}", arch.name());
            let s = stated(arch, op);
            let partner = (1..arch.wave()).find(|&l| (s.key)(l) == (s.key)(0)).unwrap();
            let mut addrs = vec![None; arch.wave() as usize];
            // Lane 0's second address is the partner's first word: separate phases.
            addrs[0] = Some(0);
            addrs[partner as usize] = Some(period);
            let c = count(arch, op, &addrs).unwrap();
            // First accesses: words 0 and period/4 (one bank, 2 words): a conflict. Second
            // accesses: period/4 and period/2: again one bank: a conflict. So exactly 2.
            assert_eq!(c.conflict_cycles, 2, "{} {op}", arch.name());
            addrs[partner as usize] = Some(2 * period);
            assert_eq!(count(arch, op, &addrs).unwrap().conflict_cycles, 2, "{} {op}", arch.name());
        }
        // st64: offsets count 64 elements: ds_read2st64_b32(0,1) reads bytes 0 and 256.
        let op = Op::DsRead2 { bits: 32, offsets: [0, 1], st64: true };
        assert_eq!(op.access_offset(1), 256);
        assert_eq!(count(arch, op, &[Some(0)]).unwrap().conflict_cycles, 0, "{}", arch.name());
    }
}

#[test]
fn every_rule_has_a_provenance_and_only_gfx950_b32_and_gfx1250_b128_are_disputed() {
    for arch in ARCHS {
        for op in all_ops().filter(|op| op.runs_on(&arch)) {
            let p = rule(&arch, op).provenance;
            assert!(!p.text().is_empty(), "{} {op}", arch.name());
            let disputed = (arch.is_gfx950() && op == (Op::DsRead { bits: 32 }))
                || (arch.chip() == Chip::Gfx1250 && op == (Op::DsRead { bits: 128 }));
            assert_eq!(p.disputed().is_some(), disputed, "{} {op}", arch.name());
        }
    }
    // Sourced, per the issue: gfx942's writes and gfx950's b64/b128 reads and writes.
    for (a, op) in [
        (arch::GFX942, Op::DsWrite { bits: 32 }),
        (arch::GFX942, Op::DsWrite { bits: 64 }),
        (arch::GFX950, Op::DsWrite { bits: 64 }),
        (arch::GFX950, Op::DsRead { bits: 96 }),
        (arch::GFX942, Op::DsRead2 { bits: 64, offsets: [0, 1], st64: false }),
        (arch::GFX1100, Op::DsRead { bits: 128 }),
        // The GFX12 ISA's sequential 8-lane groups, on RDNA4.
        (arch::GFX1201, Op::DsRead { bits: 96 }),
        // AMD's MI450 blog: ds_load_tr16_b128 meets the banks as ds_load_b128.
        (arch::GFX1250, Op::DsLoadTr { element_bits: 16 }),
    ] {
        assert!(matches!(rule(&a, op).provenance, Provenance::Sourced(_)), "{} {op}", a.name());
    }
    for (a, op) in [
        (arch::GFX950, Op::DsReadTr { element_bits: 16 }),
        (arch::GFX942, Op::DsRead { bits: 8 }),
        (arch::GFX1201, Op::DsWrite { bits: 128 }),
        (arch::GFX942, Op::DsRead { bits: 96 }),
        (arch::GFX1250, Op::DsRead { bits: 32 }),
        (arch::GFX1250, Op::DsRead { bits: 64 }),
        (arch::GFX1250, Op::DsWrite { bits: 128 }),
        (arch::GFX1250, Op::DsRead { bits: 96 }),
        (arch::GFX1250, Op::DsLoadTr { element_bits: 8 }),
        (arch::GFX1250, Op::DsLoadTr { element_bits: 6 }),
    ] {
        assert!(rule(&a, op).provenance.assumption().is_some(), "{} {op}", a.name());
    }
    // The MI450 blog's 16-lane groups against the GFX12 ISA's 8 (Triton #11365).
    let b128 = rule(&arch::GFX1250, Op::DsRead { bits: 128 });
    assert!(b128.provenance.disputed().is_some_and(|t| t.contains("MI450") && t.contains("#11365")));
    assert_eq!((b128.grouping.phases(), b128.grouping.lanes_per_phase(), b128.banks), (2, 16, 64));
}

/// The chip each measured device or chip named in a source is, by the
/// spellings the rule table uses ("measured on MI300X", "on an H100",
/// "HipKittens measured gfx950's ...").
const DEVICES: [(&str, &[Chip]); 8] = [
    ("MI300X", &[Chip::Gfx942]),
    ("MI300:", &[Chip::Gfx942]),
    ("MI350X", &[Chip::Gfx950, Chip::Gfx950B32x64]),
    ("W7900", &[Chip::Gfx1100]),
    ("RX 9070 XT", &[Chip::Gfx1201]),
    ("H100", &[Chip::Sm90]),
    ("A100", &[Chip::Sm80]),
    ("measured gfx", &[]),
];

/// Issue 34: a sourced row cites measurements made on its own chip only
/// (gfx90a's ds_read2_b64 cited kuhar's MI300 rule, sm80's rows H100
/// measurements); a rule carried over from another chip is an assumption
/// and says so.
#[test]
fn every_sourced_row_cites_measurements_of_its_own_chip() {
    let mut wrong = Vec::new();
    for arch in ARCHS {
        for op in all_ops().filter(|op| op.runs_on(&arch)) {
            let Provenance::Sourced(text) = rule(&arch, op).provenance else { continue };
            for (device, chips) in DEVICES {
                if text.contains(device) && !chips.contains(&arch.chip()) {
                    wrong.push(format!("{} {op}: cites {device}", arch.name()));
                }
            }
        }
    }
    assert_eq!(wrong, Vec::<String>::new());
    // The rows the issue names, now assumptions that name the chip they borrow from.
    let read2 = rule(&arch::GFX90A, Op::DsRead2 { bits: 64, offsets: [0, 1], st64: false }).provenance;
    assert!(read2.assumption().is_some_and(|t| t.contains("MI300, gfx942")), "{read2:?}");
    let copy = rule(&arch::SM80, Op::CpAsync { bits: 128 }).provenance;
    assert!(copy.assumption().is_some_and(|t| t.contains("measured on an sm90")), "{copy:?}");
}
