//! The layout search: the cases, exhaustiveness, agreement of the
//! reported costs with the analyzer, the fast XOR-linear path against
//! descriptors built one by one, the proved lower bound, and the CLI.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::analyzer::{Arch, Pattern, analyze_tile, arch};
use cktile::layouts::xor_linear::xor_linear;
use cktile::search::{LayoutFamily, Problem, SearchReport, search};

fn access(text: &str) -> Pattern {
    Pattern::from_access(text).unwrap()
}

fn gemm_a() -> Problem {
    Problem::new(128, 64, 2, arch::GFX942).write(access("ds_write_b128:row")).read(access("mfma16x16x16:a"))
}

/// Costs recomputed through `analyze_tile`, pattern by pattern, with the
/// element size the printed entry carries (which must be the problem's: an
/// answer fed back to `analyze` as printed gets the search's numbers).
fn analyzer_cycles(p: &Problem, entry: &str) -> Vec<u64> {
    let typed = cktile::layouts::resolve_typed(entry, None).unwrap();
    assert_eq!(typed.element_bytes, Some(p.element_bytes), "{entry} carries the problem's element type");
    let d = typed.descriptor;
    let eb = typed.require_element_bytes().unwrap();
    p.patterns().map(|(_, pat)| u64::from(analyze_tile(&d, eb, &p.arch, pat).unwrap().cycles)).collect()
}

fn check_consistent(r: &SearchReport) {
    let p = &r.problem;
    for c in r.candidates.iter().take(12).chain(r.front.iter()).chain([&r.naive]) {
        let costs: Vec<u64> = c.costs.iter().map(|k| k.cycles).collect();
        assert_eq!(costs, analyzer_cycles(p, &c.entry), "{}", c.entry);
        assert_eq!(c.cycles, costs.iter().sum::<u64>());
        let d = c.descriptor().unwrap();
        let space = d.element_space_size() as u64;
        assert_eq!(c.extra_bytes, (space - (p.rows * p.cols) as u64) * p.element_bytes as u64, "{}", c.entry);
    }
    // Sorted, the front is a staircase, and nothing beats the front.
    assert!(r.candidates.windows(2).all(|w| (w[0].cycles, w[0].extra_bytes) <= (w[1].cycles, w[1].extra_bytes)));
    assert!(r.front.windows(2).all(|w| w[0].cycles < w[1].cycles && w[0].extra_bytes > w[1].extra_bytes));
    for c in &r.candidates {
        assert!(r.front.iter().any(|f| f.cycles <= c.cycles && f.extra_bytes <= c.extra_bytes), "{}", c.entry);
    }
    // Bounds: minimum <= vector bound <= best of each pattern.
    for k in 0..r.minimum.len() {
        assert!(r.minimum[k] <= r.vector_bound[k] && r.vector_bound[k] <= r.pattern_best[k], "pattern {k}");
    }
    assert!(r.best().cycles >= r.vector_bound.iter().sum::<u64>());
}

#[test]
fn gemm_a_tile_on_gfx942_is_conflict_free_without_padding_and_ck_is_optimal() {
    let r = search(&gemm_a()).unwrap();
    assert_eq!(r.minimum, [128, 128]);
    assert_eq!(r.naive.cycles, 640); // 4-way conflicts on every MFMA read phase
    assert!(r.conflict_free());
    assert_eq!(r.best().extra_bytes, 0);
    assert_eq!(r.front.len(), 1);
    let ck = r.optimal.iter().find(|c| c.family == LayoutFamily::CkUniversal).expect("CK's layout is optimal");
    assert_eq!(ck.entry, "ck-universal-a:m=128,k=64,dtype=2,banks=32");
    // CuTe's Swizzle<3,3,3> and Triton's vec=8, perPhase=1, maxPhase=8 are optimal too.
    assert!(r.optimal.iter().any(|c| c.entry == "cute-swizzle:b=3,mbase=3,s=3,rows=128,cols=64,dtype=2"));
    assert!(r.optimal.iter().any(|c| c.entry.starts_with("triton-swizzled:vec=8,perphase=1,maxphase=8")));
    assert!(r.optimal.iter().all(|c| c.cycles == 256 && c.extra_bytes == 0));
    assert!(r.stuck.is_empty());
    check_consistent(&r);
}

#[test]
fn family_sizes_are_the_documented_ranges() {
    let r = search(&gemm_a()).unwrap();
    let size = |f: LayoutFamily| r.families.iter().find(|s| s.family == f).unwrap();
    // Padding: multiples of 8 below the 64-element bank period.
    assert_eq!(size(LayoutFamily::RowPadded).members, 7);
    // KPack 8, 16, 32, 64.
    assert_eq!(size(LayoutFamily::CkXorPreshuffle).members, 4);
    // CuTe: B >= 1, M >= 3, |S| >= B, M + |S| + B <= 13, both signs of S.
    let mut cute = 0;
    for b in 1..=13i32 {
        for m in 3..13 {
            for s in -13..=13i32 {
                cute += i32::from(s.abs() >= b && m + s.abs() + b <= 13);
            }
        }
    }
    assert_eq!(size(LayoutFamily::CuteSwizzle).members, cute as u64);
    // Triton: vec in {8..64}, perPhase in {1..128}, maxPhase in {1..64/vec}.
    let triton: u64 = [8u64, 16, 32, 64].iter().map(|v| 8 * (64 / v).trailing_zeros() as u64 + 8).sum();
    assert_eq!(size(LayoutFamily::TritonSwizzled).members, triton);
    // XOR-linear: the phases vary row bits 0-2 only, 8 vectors per row: 8^3 classes.
    assert_eq!(size(LayoutFamily::XorLinear).members, 512);
    assert!(r.families.iter().all(|f| f.valid <= f.members));
}

#[test]
fn transposed_column_reads_of_vectorised_fp32_cannot_be_conflict_free_and_the_bound_is_reached() {
    // 16-byte row writes force 4-element vectors; a warp reading one column
    // touches 32 words at the same offset of their vectors, which only
    // 32 / 4 = 8 banks can hold: at least 4 ways.
    let p =
        Problem::new(64, 32, 4, arch::SM80).write(access("st.shared.b128:row")).read(access("ld.shared.b32:column"));
    let r = search(&p).unwrap();
    assert!(!r.conflict_free());
    assert_eq!(r.minimum, [64, 64]);
    assert_eq!(r.vector_bound, [64, 256]);
    assert_eq!(r.best().cycles, 320);
    assert_eq!(r.pattern_best, [64, 256]);
    let text = cktile::render::search::report(&r, 3);
    assert!(text.contains("No layout searched is conflict-free. 320 cycles is a lower bound"), "{text}");
    assert!(text.contains("needs at least 320 cycles"), "{text}");
    assert!(text.contains("The best layout reaches that bound."), "{text}");
    check_consistent(&r);
}

#[test]
fn the_same_bound_holds_on_amd_with_fp16() {
    let p = Problem::new(64, 64, 2, arch::GFX942).write(access("ds_write_b128:row")).read(access("ds_read_b32:column"));
    let r = search(&p).unwrap();
    assert!(!r.conflict_free());
    assert_eq!(r.best().cycles, r.vector_bound.iter().sum::<u64>());
    check_consistent(&r);
}

#[test]
fn a_narrower_vector_lifts_the_bound() {
    // The same column read without the 16-byte writes: conflict-free.
    let p = Problem::new(64, 32, 4, arch::SM80).write(access("st.shared.b32:row")).read(access("ld.shared.b32:column"));
    let r = search(&p).unwrap();
    assert!(r.conflict_free());
    assert_eq!(r.best().cycles, r.minimum_cycles());
}

#[test]
fn padding_limit_and_vector_requirement_are_respected() {
    let p = Problem::new(32, 32, 4, arch::SM80).read(access("ld.shared.b32:column")).max_padding_bytes(0);
    let r = search(&p).unwrap();
    assert!(r.candidates.iter().all(|c| c.extra_bytes == 0));
    let p = Problem::new(32, 64, 2, arch::SM90).read(access("ldmatrix.x4")).vector(16);
    let r = search(&p).unwrap();
    assert_eq!(r.vector, 16);
    for c in r.candidates.iter().take(30) {
        let d = c.descriptor().unwrap();
        for row in 0..32 {
            for start in (0..64).step_by(16) {
                let base = d.calculate_offset(&[row, start]);
                assert_eq!(base % 16, 0, "{}", c.entry);
                for k in 1..16 {
                    assert_eq!(d.calculate_offset(&[row, start + k]), base + k, "{}", c.entry);
                }
            }
        }
    }
}

#[test]
fn padding_alone_fixes_the_column_read() {
    let p = Problem::new(32, 32, 4, arch::SM80).read(access("ld.shared.b32:column"));
    let r = search(&p).unwrap();
    let pad = r.candidates.iter().find(|c| c.family == LayoutFamily::RowPadded && c.cycles == r.minimum_cycles());
    assert_eq!(pad.map(|c| c.entry.as_str()), Some("row-padded:rows=32,cols=32,pad=1,dtype=4"));
    // Swizzles reach the same cycles with no storage: padding is not on the front.
    assert_eq!(r.front.len(), 1);
    assert_eq!(r.front[0].extra_bytes, 0);
}

/// Every masks matrix of a small tile, built as a descriptor and counted by
/// the analyzer: the search's XOR-linear optimum and its class count agree.
#[test]
fn xor_linear_fast_path_matches_descriptors_built_one_by_one() {
    for (arch, write, read) in [
        (arch::GFX942, "ds_write_b64:row", "ds_read_b64:column"),
        (arch::SM90, "st.shared.b64:row", "ld.shared.b64:column"),
    ] {
        let (rows, cols, eb, vec) = (8, 32, 2, 4);
        let p = Problem::new(rows, cols, eb, arch).write(access(write)).read(access(read));
        let r = search(&p).unwrap();
        let mut best = u64::MAX;
        let mut at_best = 0;
        for m0 in 0..8 {
            for m1 in 0..8 {
                for m2 in 0..8 {
                    let d = xor_linear(rows, cols, vec, &[m0, m1, m2]).unwrap();
                    let cycles: u64 =
                        p.patterns().map(|(_, pat)| u64::from(analyze_tile(&d, eb, &arch, pat).unwrap().cycles)).sum();
                    match cycles.cmp(&best) {
                        std::cmp::Ordering::Less => (best, at_best) = (cycles, 1),
                        std::cmp::Ordering::Equal => at_best += 1,
                        std::cmp::Ordering::Greater => {}
                    }
                }
            }
        }
        let linear = r.candidates.iter().filter(|c| c.family == LayoutFamily::XorLinear).map(|c| c.cycles).min();
        assert_eq!(linear, Some(best), "{}", arch.name());
        let size = r.families.iter().find(|f| f.family == LayoutFamily::XorLinear).unwrap();
        // Inactive row bits multiply each class by 8 matrices.
        let inactive = 3 - size.members.trailing_zeros() / 3;
        assert_eq!(r.xor_linear_optimal_classes * 8u64.pow(inactive), at_best, "{}", arch.name());
    }
}

#[test]
fn invalid_problems_are_refused_with_the_reason() {
    let e = search(&Problem::new(128, 64, 2, arch::GFX942)).unwrap_err();
    assert_eq!(e.to_string(), "search: patterns = 0; give at least one write or read pattern");
    let e = search(&Problem::new(128, 64, 2, arch::GFX942).write(access("ds_read_b128:row"))).unwrap_err();
    assert!(e.to_string().contains("a write instruction"), "{e}");
    let e = search(&Problem::new(128, 64, 2, arch::GFX942).read(access("ldmatrix.x4"))).unwrap_err();
    assert!(e.to_string().contains("ldmatrix.x4") && e.to_string().contains("gfx942"), "{e}");
    let e = search(&Problem::new(100, 64, 2, arch::GFX942).read(access("mfma16x16x16"))).unwrap_err();
    assert!(e.to_string().contains("100"), "{e}");
    let e = search(&Problem::new(16, 64, 3, arch::GFX942).read(access("ds_read_b32:row"))).unwrap_err();
    assert_eq!(e.to_string(), "search: element bytes = 3; it must be 1, 2, 4 or 8");
    let e = search(&Problem::new(16, 64, 2, arch::GFX942).read(access("ds_read_b32:row")).vector(3)).unwrap_err();
    assert_eq!(e.to_string(), "search: vector = 3; it must be a power of two (1, 2, 4, ...) of elements");
    let e = search(&Problem::new(0, 64, 2, arch::GFX942).read(access("ds_read_b32:row"))).unwrap_err();
    assert_eq!(e.to_string(), "search: rows = 0; it must be at least 1");
}

/// Small problems, every one of the domain (four chips, 8 or 16 rows, 16 or
/// 32 columns, 32-, 64- and 128-bit row writes and column reads): each is
/// valid (a refusal fails the test rather than skipping the case), every
/// reported cost is the analyzer's, the front is a staircase, and the best
/// respects the proved bound.
#[test]
fn reported_costs_are_the_analyzers() {
    for arch in [arch::GFX942, arch::GFX950, arch::SM80, arch::SM90] {
        for (rows, cols) in [(8, 16), (8, 32), (16, 16), (16, 32)] {
            for bits in [32, 64, 128] {
                let amd = arch.name().starts_with("gfx");
                let (w, rd) = if amd {
                    (format!("ds_write_b{bits}:row"), format!("ds_read_b{bits}:column"))
                } else {
                    (format!("st.shared.b{bits}:row"), format!("ld.shared.b{bits}:column"))
                };
                let p = Problem::new(rows, cols, 2, arch).write(access(&w)).read(access(&rd));
                let r = search(&p).unwrap_or_else(|e| panic!("{} {rows}x{cols} b{bits}: {e}", arch.name()));
                check_consistent(&r);
            }
        }
    }
}

#[test]
fn cli_search_text_and_json() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cktile"))
        .args(["search", "--tile", "128x64", "--dtype", "fp16", "--arch", "gfx942"])
        .args(["--write", "ds_write_b128:row", "--read", "mfma16x16x16:a"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("conflict-free minimum: 256 cycles (128 + 128); the row-major tile takes 640"), "{text}");
    assert!(text.contains("CK Tile's own choice: ck-universal-a:m=128,k=64,dtype=2,banks=32: 256 cycles, optimal"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cktile"))
        .args(["search", "--tile", "128x64", "--dtype", "fp16", "--arch", "gfx942", "--write", "ds_write_b128:row"])
        .args(["--read", "mfma16x16x16:a", "--json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["conflict_free"], true);
    assert_eq!(v["best"]["cycles"], 256);
    assert_eq!(v["naive"]["cycles"], 640);
    let spec = v["best"]["spec"].as_str().unwrap();
    let from_spec = cktile::spec::parse(spec).unwrap();
    assert_eq!(from_spec, cktile::layouts::resolve(v["best"]["entry"].as_str().unwrap()).unwrap());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cktile"))
        .args(["search", "--tile", "128by64", "--dtype", "fp16", "--arch", "gfx942", "--read", "mfma16x16x16"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap().trim(),
        "error: --tile: `128by64` is not ROWSxCOLS; write e.g. --tile 128x64"
    );
}

/// Every entry `search --dtype fp32` prints can be fed back to `analyze` as
/// printed: it carries dtype=4, and analyze reports the search's cycles.
#[test]
fn cli_search_answers_feed_back_to_analyze() {
    let bin = env!("CARGO_BIN_EXE_cktile");
    let out = std::process::Command::new(bin)
        .args(["search", "--tile", "64x32", "--dtype", "fp32", "--arch", "sm80", "--read", "ld.shared.b32:column"])
        .arg("--json")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let answers: Vec<&serde_json::Value> =
        v["optimal"].as_array().unwrap().iter().chain(v["front"].as_array().unwrap()).chain([&v["naive"]]).collect();
    assert!(answers.len() >= 3);
    for c in answers {
        let entry = c["entry"].as_str().unwrap();
        assert!(entry.ends_with(",dtype=4"), "{entry}");
        let a = std::process::Command::new(bin)
            .args(["analyze", entry, "--arch", "sm80", "--pattern", "columns", "--op", "ld.shared.b32", "--json"])
            .output()
            .unwrap();
        assert!(a.status.success(), "{entry}: {}", String::from_utf8_lossy(&a.stderr));
        let r: serde_json::Value = serde_json::from_slice(&a.stdout).unwrap();
        assert_eq!(r["element_bytes"], 4, "{entry}");
        assert_eq!(r["cycles"], c["cycles"], "{entry}");
    }
}

/// A read given as a catalogue distribution (or CK's spelling of it) and an
/// instruction is the same workload as the ready MFMA pattern it equals: the
/// same front, optimum, naive cost and per-access costs, candidate by
/// candidate. A distribution that fits no pattern (a 2-warp DRAM store) is
/// searched too, and its costs are the window analyzer's.
#[test]
fn distribution_accesses_search_like_their_patterns() {
    use cktile::search::{Access, Role};
    let ck_16x16x16_a = "ck_tile::tile_distribution_encoding<ck_tile::sequence<>, \
        ck_tile::tuple<ck_tile::sequence<16>, ck_tile::sequence<4, 4>>, ck_tile::tuple<ck_tile::sequence<2, 1>>, \
        ck_tile::tuple<ck_tile::sequence<0, 0>>, ck_tile::sequence<2>, ck_tile::sequence<1>>";
    let ck_read = format!("{ck_16x16x16_a}:ds_read_b64");
    let cases: [(usize, usize, Arch, &str, &str); 4] = [
        (128, 64, arch::GFX942, "mfma16x16x16:a", "mfma16x16x32_a:ds_read_b128"),
        (64, 64, arch::GFX950, "mfma32x32x8:ds_read_b64", "mfma32x32x8_a:ds_read_b64"),
        (128, 32, arch::GFX942, "mfma32x32x8", "mfma32x32x16_a:ds_read_b128"),
        (64, 32, arch::GFX90A, "mfma16x16x16:ds_read_b64", &ck_read),
    ];
    let key = |r: &SearchReport| {
        let f = |c: &cktile::search::Candidate| (c.entry.clone(), c.cycles, c.extra_bytes, c.costs.clone());
        (r.front.iter().map(f).collect::<Vec<_>>(), r.optimal.iter().map(f).collect::<Vec<_>>(), f(&r.naive))
    };
    for (rows, cols, chip, pattern, dist) in cases {
        let base = Problem::new(rows, cols, 2, chip).write(access("ds_write_b128:row"));
        let by_pattern = search(&base.clone().read(access(pattern))).unwrap();
        let with_dist = base.access(Role::Read, Access::parse(dist).unwrap());
        assert_eq!(with_dist.distributions.len(), 1);
        let by_distribution = search(&with_dist).unwrap();
        assert_eq!(key(&by_pattern), key(&by_distribution), "{pattern} vs {dist} on {rows}x{cols}");
        assert_eq!(by_pattern.candidates.len(), by_distribution.candidates.len());
        assert!(!by_pattern.front.is_empty() && by_pattern.naive.cycles > 0);
    }
    // The universal GEMM's A DRAM distribution stored to LDS: no ready pattern writes this way.
    let dram = cktile::distribution::catalogue::gemm_dram(256, 128, 32, 8).unwrap().to_string();
    let p = Problem::new(128, 32, 2, arch::GFX942)
        .access(Role::Write, Access::parse(&format!("{dram}:ds_write_b128")).unwrap())
        .read(access("mfma16x16x16:a"));
    let r = search(&p).unwrap();
    let d = cktile::distribution::Distribution::new(cktile::spelling::parse(&dram).unwrap()).unwrap();
    for c in r.front.iter().chain([&r.naive]) {
        let desc = c.descriptor().unwrap();
        let w = cktile::reports::analyze_distribution(
            &desc,
            2,
            &arch::GFX942,
            &d,
            cktile::analyzer::Op::DsWrite { bits: 128 },
        )
        .unwrap();
        assert_eq!(c.costs[0].cycles, u64::from(w.counts.cycles), "{}", c.entry);
    }
    // Refusals name what is wrong.
    let e = Access::parse("mfma16x16x32_a").unwrap_err().to_string();
    assert!(e.contains("DIST:OP"), "{e}");
    let wrong_role = Problem::new(128, 64, 2, arch::GFX942)
        .access(Role::Write, Access::parse("mfma16x16x32_a:ds_read_b128").unwrap());
    assert!(search(&wrong_role).unwrap_err().to_string().contains("a write instruction"));
    let too_narrow = Problem::new(128, 48, 2, arch::GFX942)
        .access(Role::Read, Access::parse("mfma16x16x32_a:ds_read_b128").unwrap());
    assert!(search(&too_narrow).unwrap_err().to_string().contains("multiple of the distribution's second X length"));
}

/// Every `vector` is a power of two or refused with its value,
/// however it compares with the access width (a narrower one used to be
/// raised to the access's width silently, 0 and 3 included).
#[test]
fn every_vector_is_a_power_of_two_or_refused() {
    // ds_read_b128 of fp16 is 8 elements wide.
    let p = || Problem::new(16, 64, 2, arch::GFX942).read(access("ds_read_b128:row"));
    let refused = |v: usize| Err(format!("search: vector = {v}; it must be a power of two (1, 2, 4, ...) of elements"));
    let table: [(usize, Result<usize, String>); 12] = [
        (0, refused(0)),
        (1, Ok(8)),
        (2, Ok(8)),
        (3, refused(3)),
        (4, Ok(8)),
        (5, refused(5)),
        (6, refused(6)),
        (7, refused(7)),
        (8, Ok(8)),
        (12, refused(12)),
        (16, Ok(16)),
        (64, Ok(64)),
    ];
    for (v, expected) in table {
        assert_eq!(p().vector(v).vector_elements().map_err(|e| e.to_string()), expected, "vector {v}");
        let searched = search(&p().vector(v)).map(|r| r.vector).map_err(|e| e.to_string());
        assert_eq!(searched, expected, "search with vector {v}");
    }
}

/// Issue 34: a 32x16 fp32 tile written and read 4 bytes at a time was
/// refused ("use a smaller tile") because the xor-linear family alone took
/// the search past its work bound; that family is now left out, with its
/// numbers, and the other families answer.
#[test]
fn a_small_tile_whose_xor_linear_family_is_too_costly_is_still_searched() {
    let p = Problem::new(32, 16, 4, arch::SM80).write(access("st.shared.b32:row")).read(access("ld.shared.b32:column"));
    let r = search(&p).expect("the other families fit the work bound");
    let linear = r.families.iter().find(|f| f.family == LayoutFamily::XorLinear).expect("the xor-linear row");
    assert_eq!((linear.members, linear.valid), (0, 0));
    assert!(
        linear.note.starts_with("not searched: 2^20 classes x ") && linear.note.contains("left of the search's 2^28"),
        "{}",
        linear.note
    );
    // Row padding by one word makes both conflict-free: 16 + 16 row writes, 16 column reads.
    assert!(r.conflict_free(), "{:?}", r.optimal.first().map(|c| c.entry.clone()));
}
