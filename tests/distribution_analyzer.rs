//! The analyzer driven by tile distributions: CK's tile-window accesses
//! agree with the ready MFMA patterns (`mfma16`, `mfma32`) instruction by
//! instruction and lane by lane, and the window's refusals name the width.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::analyzer::window::WindowAccess;
use cktile::analyzer::{Arch, Op, Pattern, arch};
use cktile::distribution::{Distribution, Encoding, catalogue};
use cktile::reports::analyze_distribution;
use cktile::reports::analyze_tile_report;

/// The warp-GEMM A operand of the `mdim x mdim` MFMA with `vec` elements per
/// lane (CK's `AWarpDstrEncoding`), repeated over a `rows x cols` tile as
/// CK's block GEMM iterates warp tiles: X = (M, K) = ((MIter, mdim), (KIter,
/// 64 / mdim, vec)); lane = (K lane group, M lane); Y = (MIter, KIter, vec).
fn block_a(rows: usize, cols: usize, mdim: usize, vec: usize) -> Distribution {
    let k_lane = 64 / mdim;
    let e = Encoding::new(
        &[],
        &[&[rows / mdim, mdim], &[cols / (k_lane * vec), k_lane, vec]],
        &[&[2, 1]],
        &[&[1, 1]],
        &[1, 2, 2],
        &[0, 0, 2],
    )
    .unwrap();
    Distribution::new(e).unwrap()
}

#[test]
fn block_a_repeats_the_catalogue_warp_tile() {
    // One warp tile: the block encoding with one iteration is the catalogue's A up to the length-1 iteration components.
    for (mdim, k) in [(16, 16), (16, 32), (32, 8), (32, 16)] {
        let warp = Distribution::new(catalogue::mfma_a(mdim, k).unwrap()).unwrap();
        let vec = k * mdim / 64;
        let block = block_a(mdim, k, mdim, vec);
        for lane in 0..64 {
            for v in 0..vec as i64 {
                assert_eq!(
                    block.calculate_index(&[lane, 0, 0, v]).unwrap(),
                    warp.calculate_index(&[lane, v]).unwrap(),
                    "{mdim}x{k} lane {lane} v {v}"
                );
            }
        }
    }
}

#[test]
fn mfma_patterns_equal_the_catalogue_distributions() {
    let layouts = [
        cktile::Descriptor::packed(&[128, 64]).unwrap(),
        cktile::layouts::ck::universal_a(128, 64, 8, 2, 32, cktile::layouts::ck::UnmergeOrder::Fixed2025).unwrap(),
        cktile::spec::parse("naive((64,64),(72,1))").unwrap(),
    ];
    let reads = [Op::DsRead { bits: 128 }, Op::DsRead { bits: 64 }];
    let chips: [&Arch; 3] = [&arch::GFX90A, &arch::GFX942, &arch::GFX950];
    let mut compared = 0;
    for desc in &layouts {
        let (rows, cols) = (desc.lengths().get(0) as usize, desc.lengths().get(1) as usize);
        for mdim in [16u32, 32] {
            for op in reads {
                let vec = (op.bytes_per_lane() / 2) as usize; // fp16
                let pattern = Pattern::Mfma { mdim, op };
                let d = block_a(rows, cols, mdim as usize, vec);
                let w = WindowAccess::new(&d, op, 2, 64).unwrap();
                let n = pattern.instructions(rows, cols, 2, 64).unwrap();
                assert_eq!(w.instructions(), n);
                for i in 0..n {
                    for lane in 0..64 {
                        let expected = pattern.coordinate(rows, cols, 2, 64, i, lane).unwrap().map(|(r, c)| [r, c]);
                        assert_eq!(w.coordinate(i, lane), expected, "mfma{mdim} {op:?} instruction {i} lane {lane}");
                        compared += 1;
                    }
                }
                for chip in chips {
                    let by_pattern = analyze_tile_report(desc, 2, chip, pattern).unwrap();
                    let by_window = analyze_distribution(desc, 2, chip, &d, op).unwrap();
                    assert_eq!(by_pattern.instructions, by_window.instructions);
                    assert_eq!(by_pattern.counts, by_window.counts);
                }
            }
        }
    }
    // (16 + 32 + 16 + 32) instructions on each 128x64 tile, (8 + 16 + 8 + 16) on 64x64, 64 lanes each.
    assert_eq!(compared, (2 * 96 + 48) * 64);
}

#[test]
fn widths_that_do_not_fit_are_refused() {
    let a = Distribution::new(catalogue::mfma_a(32, 8).unwrap()).unwrap();
    let e = WindowAccess::new(&a, Op::DsRead { bits: 128 }, 2, 64).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the instruction moves 8 elements per lane, but the vector dimension Y0 has length 4; CK's tile window \
         (get_vector_dim_y_scalar_per_vector) issues only widths that divide it"
    );
    let c = Distribution::new(catalogue::mfma_c(32, 8).unwrap()).unwrap();
    let e = WindowAccess::new(&c, Op::DsWrite { bits: 64 }, 4, 64).unwrap_err();
    assert!(e.to_string().starts_with("the instruction moves 2 elements per lane, but no Y walks"), "{e}");
    // The transposed C holds 4 contiguous M values per lane: ds_write_b128 of fp32 fits.
    let t = Distribution::new(catalogue::mfma_c_transposed(32, 8).unwrap()).unwrap();
    let w = WindowAccess::new(&t, Op::DsWrite { bits: 128 }, 4, 64).unwrap();
    assert_eq!((w.instructions(), w.vector_y()), (4, Some(1)));
    // Wave 32 chips cannot hold a 64-lane P.
    assert!(WindowAccess::new(&a, Op::DsRead { bits: 64 }, 2, 32).is_err());
}

#[test]
fn gemm_dram_store_to_lds() {
    // CK's universal GEMM: A stored from the DRAM distribution with ds_write_b128 (8 fp16 per lane).
    let d = Distribution::new(catalogue::gemm_dram(256, 128, 32, 8).unwrap()).unwrap();
    let w = WindowAccess::new(&d, Op::DsWrite { bits: 128 }, 2, 64).unwrap();
    assert_eq!(w.instructions(), 8);
    // Every element is written exactly once over all instructions.
    let mut seen = std::collections::HashSet::new();
    for i in 0..8 {
        for lane in 0..64 {
            let [m, k] = w.coordinate(i, lane).unwrap();
            for e in 0..8 {
                assert!(seen.insert((m, k + e)));
            }
        }
    }
    assert_eq!(seen.len(), 128 * 32);
    let r = analyze_distribution(
        &cktile::Descriptor::packed(&[128, 32]).unwrap(),
        2,
        &arch::GFX942,
        &d,
        Op::DsWrite { bits: 128 },
    )
    .unwrap();
    // Each 8-lane phase writes two whole 64-byte rows: 128 consecutive bytes, every bank once.
    assert_eq!((r.counts.instructions, r.counts.conflict_cycles, r.counts.max_ways), (8, 0, 1));
}

/// Every ready pattern read at run time ([`PatternAccess`], through the
/// catalogue distribution for the MFMA patterns) gives the const closed
/// form's instructions and coordinates, for every element size and
/// instruction, and is refused exactly when the closed form is.
#[test]
fn run_time_patterns_are_the_const_patterns() {
    use cktile::analyzer::window::PatternAccess;
    let mut patterns = vec![Pattern::MmaSyncA];
    for op in [
        Op::DsRead { bits: 64 },
        Op::DsRead { bits: 128 },
        Op::DsRead2 { bits: 32, offsets: [0, 1], st64: false },
        Op::DsRead2 { bits: 64, offsets: [0, 1], st64: false },
    ] {
        patterns.extend([Pattern::Mfma { mdim: 16, op }, Pattern::Mfma { mdim: 32, op }, Pattern::Rows { op }]);
        patterns.push(Pattern::Columns { op });
    }
    for matrices in [1, 2, 4] {
        patterns.push(Pattern::Ldmatrix { op: Op::Ldmatrix { matrices, trans: false } });
    }
    let (mut compared, mut refused) = (0u64, 0u64);
    for pattern in patterns {
        for (rows, cols) in [(64, 64), (128, 32), (32, 128), (48, 64), (16, 16)] {
            for eb in [1, 2, 4] {
                for wave in [32, 64] {
                    let closed = pattern.instructions(rows, cols, eb, wave);
                    let run = PatternAccess::new(pattern, rows, cols, eb, wave);
                    match (closed, run) {
                        (Ok(n), Ok(a)) => {
                            assert_eq!(a.instructions(), n, "{pattern:?} {rows}x{cols} eb {eb}");
                            assert_eq!(a.window().is_some(), matches!(pattern, Pattern::Mfma { .. }));
                            for i in 0..n {
                                for lane in 0..wave {
                                    let c = pattern.coordinate(rows, cols, eb, wave, i, lane).unwrap();
                                    assert_eq!(a.coordinate(i, lane), c.map(|(r, c)| [r, c]), "{pattern:?} {i} {lane}");
                                    compared += 1;
                                }
                            }
                        }
                        (Err(e), Err(f)) => {
                            assert_eq!(e, f, "{pattern:?} {rows}x{cols} eb {eb}: the same refusal");
                            refused += 1;
                        }
                        (c, r) => panic!("{pattern:?} {rows}x{cols} eb {eb} wave {wave}: {c:?} vs {r:?}"),
                    }
                }
            }
        }
    }
    assert!(compared > 100_000 && refused > 50, "{compared} {refused}");
}

/// CK's `make_embed_tile_distribution_encoding` of the catalogue's warp A
/// in an iteration-only outer encoding is the block encoding written by
/// hand above (and in the guide's `dist-read` commands).
#[test]
fn embedding_the_warp_a_gives_the_hand_written_block() {
    use cktile::analyzer::window::repeat_over;
    for (mdim, k) in [(16, 16), (16, 32), (32, 8), (32, 16)] {
        let vec = k * mdim / 64;
        for (rows, cols) in [(mdim, k), (128, 64), (64, 128), (32 * mdim / 16, 2 * k)] {
            let embedded = repeat_over(&catalogue::mfma_a(mdim, k).unwrap(), rows, cols).unwrap();
            assert_eq!(&embedded, block_a(rows, cols, mdim, vec).encoding(), "{mdim}x{k} over {rows}x{cols}");
        }
    }
    let guide = cktile::spelling::parse(
        "tile_distribution_encoding<sequence<>, tuple<sequence<8, 16>, sequence<1, 4, 8>>, tuple<sequence<2, 1>>, \
         tuple<sequence<1, 1>>, sequence<1, 2, 2>, sequence<0, 0, 2>>",
    )
    .unwrap();
    assert_eq!(repeat_over(&catalogue::mfma_a(16, 32).unwrap(), 128, 32).unwrap(), guide);
}

/// CK's block GEMM A (`BlockGemmASmemBSmemCRegV1`-style outer encoding: R =
/// the N warps, P0 = (M warp, N warp), Ys = (M iteration, K iteration))
/// embedded with the 32x32x8 warp A, against the block's closed form:
/// m = (iter_m * MWarp + warp_m) * 32 + lane % 32,
/// k = iter_k * 8 + 4 * (lane / 32) + v, every N warp holding a copy.
#[test]
fn embedded_block_gemm_a_with_warps() {
    use cktile::distribution::embed_encoding;
    let (n_warp, m_iter, m_warp, k_iter) = (2usize, 2usize, 2usize, 3usize);
    let outer =
        Encoding::new(&[n_warp], &[&[m_iter, m_warp], &[k_iter]], &[&[1, 0]], &[&[1, 0]], &[1, 2], &[0, 0]).unwrap();
    let e = embed_encoding(&outer, &catalogue::mfma_a(32, 8).unwrap()).unwrap();
    let hand = Encoding::new(
        &[n_warp],
        &[&[m_iter, m_warp, 32], &[k_iter, 2, 4]],
        &[&[1, 0], &[2, 1]],
        &[&[1, 0], &[1, 2]],
        &[1, 2, 2],
        &[0, 0, 2],
    )
    .unwrap();
    assert_eq!(e, hand);
    let d = Distribution::new(e).unwrap();
    assert_eq!(d.p_lengths().as_slice(), &[4, 64]);
    let mut seen = 0;
    d.for_each(cktile::distribution::MAX_ENUMERATED, |ps_ys, xs, _| {
        let [warp, lane, im, ik, v] = ps_ys.try_into().unwrap();
        let (warp_m, warp_n) = (warp / n_warp as i64, warp % n_warp as i64);
        assert_eq!(xs, [(im * m_warp as i64 + warp_m) * 32 + lane % 32, ik * 8 + 4 * (lane / 32) + v], "{ps_ys:?}");
        assert_eq!(d.rs_index(&[warp, lane]).unwrap().as_slice(), &[warp_n]);
        seen += 1;
    })
    .unwrap();
    assert_eq!(seen, 4 * 64 * m_iter * k_iter * 4);
    // Mismatched X counts and overlong lists are refused.
    let one_d = Encoding::new(&[], &[&[2]], &[], &[], &[1], &[0]).unwrap();
    assert!(
        embed_encoding(&one_d, &catalogue::mfma_a(32, 8).unwrap()).unwrap_err().to_string().contains("X dimensions")
    );
    let deep = Encoding::new(&[], &[&[1, 1, 1, 1, 1, 1], &[1]], &[], &[], &[1], &[0]).unwrap();
    let e = embed_encoding(&deep, &catalogue::mfma_c(32, 8).unwrap()).unwrap_err().to_string();
    assert!(e.contains("HsLengthss[0] has 9 entries; at most 8"), "{e}");
}

/// The banks view of a tile window (`render --view banks --distribution`)
/// draws the instruction the analysis counted: for every instruction of a
/// few (layout, distribution, instruction, chip) cases, the picked
/// instruction's counts equal the tile report's, the default pick is the
/// report's worst, its heat map has one conflicting cell per lane and bank
/// the report's conflicts name, and the CLI draws the same picture.
#[test]
fn distribution_heat_maps_draw_the_counted_instructions() {
    use cktile::render::svg::banks::{distribution_heat_map, distribution_instruction};
    let cases = [
        ("packed((128,32))", "mfma32x32x8_a", Op::DsRead { bits: 64 }, arch::GFX942),
        ("ck-universal-a:m=128,k=32", "mfma16x16x32_a", Op::DsRead { bits: 128 }, arch::GFX950),
        ("packed((128,32))", "mfma16x16x16_c", Op::DsWrite { bits: 16 }, arch::GFX942),
    ];
    for (spec, dist, op, chip) in cases {
        let lds = cktile::layouts::resolve(spec).unwrap();
        let d = Distribution::new(catalogue::by_name(dist).unwrap()).unwrap();
        let tile = analyze_distribution(&lds, 2, &chip, &d, op).unwrap();
        for (i, counts) in tile.instructions.iter().enumerate() {
            let pick = distribution_instruction(&lds, 2, &chip, &d, op, Some(i)).unwrap();
            assert_eq!(&pick.report.counts, counts, "{spec} {dist} instruction {i}");
        }
        let worst = distribution_instruction(&lds, 2, &chip, &d, op, None).unwrap();
        assert_eq!(worst.instruction, tile.counts.worst_instruction as usize, "{spec} {dist}");
        let svg = distribution_heat_map(&lds, 2, &chip, &d, op, None, "t").unwrap();
        let conflicting: usize = worst
            .report
            .phase_detail
            .iter()
            .map(|p| {
                let mut cells = std::collections::BTreeSet::new();
                for c in &p.conflicts {
                    for w in &c.words {
                        cells.extend(w.lanes.iter().map(|&l| (l, c.bank)));
                    }
                }
                cells.len()
            })
            .sum();
        assert_eq!(svg.matches("class=\"lane conflict\"").count(), conflicting, "{spec} {dist}");
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_cktile"))
            .args(["render", spec, "--view", "banks", "--arch", chip.name(), "--distribution", dist])
            .args(["--op", &op.to_string(), "--dtype", "fp16", "--title", "t"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(String::from_utf8(out.stdout).unwrap().trim_end(), svg.trim_end(), "{spec} {dist}");
    }
    let lds = cktile::Descriptor::packed(&[128, 32]).unwrap();
    let d = Distribution::new(catalogue::mfma_a(32, 8).unwrap()).unwrap();
    let e = distribution_instruction(&lds, 2, &arch::GFX942, &d, Op::DsRead { bits: 64 }, Some(9)).unwrap_err();
    assert!(e.to_string().contains("instruction") && e.to_string().contains('9'), "{e}");
}

/// The vector check against a brute force: over layouts whose rows are
/// split into `run`-element pieces placed apart (so vectors are contiguous
/// for `run` elements), and every read width of the fp16 block A, the
/// window is accepted exactly when every lane's elements are consecutive
/// offsets, and a refusal names the first such lane, its contiguous run and
/// the widest width that every lane's vectors fit.
#[test]
fn lane_vectors_must_be_contiguous_in_the_layout() {
    let a = block_a(32, 32, 16, 8);
    for run in [1usize, 2, 4, 8, 16] {
        // Row r, column c = (piece p, within w): offset r * 512 + p * 2 * run + w,
        // pieces of `run` elements with a gap as long between them (aligned for every width).
        let pieces = 32 / run;
        let spec = format!(
            "naive((32,{pieces},{run}),(512,{},1)) | transform(pass_through(32) on [0] -> [0], merge(({pieces},{run})) on [1,2] -> [1])",
            2 * run
        );
        let desc = cktile::layouts::resolve(&spec).unwrap();
        for bits in [32u32, 64, 128] {
            let op = Op::DsRead { bits };
            let w = WindowAccess::new(&a, op, 2, 64).unwrap();
            let width = w.width() as i64;
            // Brute force: the first lane whose elements are not consecutive, and its run.
            let mut first = None;
            'scan: for i in 0..w.instructions() {
                for lane in 0..64 {
                    let Some([r, c]) = w.coordinate(i, lane) else { continue };
                    let base = desc.calculate_offset(&[r, c]);
                    let k = (1..width).find(|&k| desc.calculate_offset(&[r, c + k]) != base + k);
                    if let Some(k) = k {
                        first = Some((i, lane, [r, c], k as usize));
                        break 'scan;
                    }
                }
            }
            let got = w.check_contiguous(&desc);
            match first {
                None => assert_eq!(got, Ok(()), "run {run}, {op}"),
                Some((instruction, lane, coordinate, k)) => {
                    let e = got.unwrap_err();
                    let widest = (run as u64).min(width as u64) as usize;
                    assert_eq!(
                        *e.kind(),
                        cktile::ErrorKind::Analyzer(cktile::analyzer::AnalyzerProblem::VectorNotContiguous {
                            op,
                            width: width as usize,
                            instruction,
                            lane,
                            coordinate,
                            run: k,
                            widest
                        }),
                        "run {run}, {op}"
                    );
                    // analyze_distribution refuses the same way, and accepts the widest width.
                    assert_eq!(analyze_distribution(&desc, 2, &arch::GFX942, &a, op).unwrap_err(), e);
                    let narrow = Op::DsRead { bits: (widest * 16) as u32 };
                    if widest >= 2 {
                        let r = analyze_distribution(&desc, 2, &arch::GFX942, &a, narrow);
                        assert!(r.is_ok(), "{narrow}: {r:?}");
                    }
                }
            }
            // Accepted exactly when the pieces hold a whole vector.
            assert_eq!(w.check_contiguous(&desc).is_ok(), run as i64 >= width, "run {run}, {op}");
        }
    }
}

/// The compile-time analysis of a tile window (`analyze_window`, what
/// `assert_conflict_free!` runs for a distribution) gives the run-time
/// report's counts, and refuses what it refuses with the same error: every
/// catalogue MFMA operand, block DRAM and fmha distribution, over row-major,
/// padded and XOR layouts of its X, with every width of reads and writes, on
/// gfx942, gfx950 and sm90.
#[test]
fn const_window_analysis_is_the_run_time_report() {
    use cktile::analyzer::window::analyze_window;
    use cktile::layouts;
    let mut encodings = vec![
        catalogue::gemm_dram(256, 128, 32, 8).unwrap(),
        catalogue::gemm_dram(256, 256, 64, 8).unwrap(),
        catalogue::fmha_q_load_once(128, 64, 4, 16, 16).unwrap(),
        catalogue::fmha_k_dram_async(256, 128, 32, 2).unwrap(),
        catalogue::mfma_b_swizzled().unwrap(),
        catalogue::mfma_c_swizzled().unwrap(),
    ];
    for (m, k) in [(16, 16), (16, 32), (32, 8), (32, 16)] {
        encodings.extend([
            catalogue::mfma_a(m, k).unwrap(),
            catalogue::mfma_b(m, k).unwrap(),
            catalogue::mfma_c(m, k).unwrap(),
        ]);
    }
    let ops = [
        Op::DsRead { bits: 32 },
        Op::DsRead { bits: 64 },
        Op::DsRead { bits: 128 },
        Op::DsWrite { bits: 16 },
        Op::DsWrite { bits: 64 },
        Op::DsWrite { bits: 128 },
    ];
    let (mut agreed, mut refused, mut conflicted) = (0, 0, 0);
    for e in encodings {
        let d = Distribution::new(e).unwrap();
        let [rows, cols] = [d.x_lengths().get(0) as usize, d.x_lengths().get(1) as usize];
        let layouts = [
            cktile::Descriptor::packed(&[rows, cols]).unwrap(),
            layouts::resolve(&format!("row-padded:rows={rows},cols={cols},pad=8")).unwrap(),
            cktile::Descriptor::naive(&[rows, cols], &[1, rows]).unwrap(),
        ];
        for lds in &layouts {
            for arch in [arch::GFX942, arch::GFX950, arch::SM90] {
                for op in ops {
                    for eb in [2, 4] {
                        let run = analyze_distribution(lds, eb, &arch, &d, op).map(|r| r.counts);
                        let compiled = analyze_window(lds, eb, &arch, &d, op);
                        assert_eq!(compiled, run, "{e} {lds} {} {op:?} {eb}", arch.name());
                        match run {
                            Ok(c) => {
                                agreed += 1;
                                conflicted += (c.conflict_cycles > 0) as u32;
                            }
                            Err(_) => refused += 1,
                        }
                    }
                }
            }
        }
    }
    assert!(agreed > 100 && refused > 100 && conflicted > 20, "{agreed} {refused} {conflicted}");
}

/// A random encoding of a distribution over X lengths `x` (as
/// tests/distribution.rs draws them): each X split into one or two H
/// components, often one R component of 2 or 4 (copies of a warp or of a
/// lane), every component named by one of one or two Ps or by a Y. `None`
/// when the draw breaks a rule of encodings.
fn random_encoding(x: &[i64], rng: &mut cktile::random::Rng) -> Option<Encoding> {
    let hs: Vec<Vec<usize>> = x
        .iter()
        .map(|&len| {
            let len = len as usize;
            let divisors: Vec<usize> = (1..=len).filter(|d| len.is_multiple_of(*d)).collect();
            let d = divisors[rng.below(divisors.len() as u64) as usize];
            if d == 1 || d == len { vec![len] } else { vec![d, len / d] }
        })
        .collect();
    let rs: Vec<usize> = if rng.below(2) == 0 { vec![2 << rng.below(2)] } else { vec![] };
    let n_p = 1 + rng.below(2) as usize;
    let mut ps: Vec<Vec<(usize, usize)>> = vec![vec![]; n_p];
    let mut ys: Vec<(usize, usize)> = vec![];
    for minor in 0..rs.len() {
        // Mostly the warp's (copies of warps), else any P's.
        let p = if n_p == 2 && rng.below(3) > 0 { 0 } else { rng.below(n_p as u64) as usize };
        ps[p].push((0, minor));
    }
    for (x, h) in hs.iter().enumerate() {
        for minor in 0..h.len() {
            let to = rng.below(n_p as u64 + 1) as usize;
            let c = (x + 1, minor);
            if to == n_p { ys.push(c) } else { ps[to].push(c) }
        }
    }
    if ys.is_empty() || ps.iter().any(Vec::is_empty) || ps.len() + ys.len() > 8 {
        return None;
    }
    // Shuffle each P's components (which one is fastest).
    for p in &mut ps {
        if p.len() > 1 && rng.below(2) == 0 {
            p.reverse();
        }
    }
    let hs: Vec<&[usize]> = hs.iter().map(Vec::as_slice).collect();
    let major: Vec<Vec<usize>> = ps.iter().map(|p| p.iter().map(|c| c.0).collect()).collect();
    let minor: Vec<Vec<usize>> = ps.iter().map(|p| p.iter().map(|c| c.1).collect()).collect();
    let major: Vec<&[usize]> = major.iter().map(Vec::as_slice).collect();
    let minor: Vec<&[usize]> = minor.iter().map(Vec::as_slice).collect();
    let (ys_major, ys_minor): (Vec<usize>, Vec<usize>) = ys.into_iter().unzip();
    Encoding::new(&rs, &hs, &major, &minor, &ys_major, &ys_minor).ok()
}

/// A tile window analysed by its definition, lane by lane: every vector
/// element through the distribution composed with the layout at the lane's
/// (P..., Y...) plus `k` along the vector dimension
/// ([`WindowAccess::program_over`], [`WindowAccess::ps_ys`]), then every
/// instruction's addresses ([`WindowAccess::address`]) counted one by one
/// ([`cktile::analyzer::count`]): the counts and each instruction's
/// addresses, or the first refusal.
type Definition = Result<(cktile::analyzer::TileCounts, Vec<Vec<Option<u64>>>), cktile::Error>;

fn by_definition(desc: &cktile::Descriptor, eb: usize, arch: &Arch, d: &Distribution, op: Op) -> Definition {
    use cktile::analyzer::{AnalyzerProblem, TileCounts, count};
    let w = WindowAccess::new(d, op, eb, arch.wave() as usize)?;
    w.check_size(arch)?;
    let p = w.program_over(desc)?;
    let lanes = *d.p_lengths().as_slice().last().unwrap() as usize;
    // Every lane's vector, element by element.
    if let Some(v) = w.vector_y()
        && w.width() > 1
    {
        let width = w.width().min(64);
        let (mut first, mut all) = (None, 0u64);
        for i in 0..w.instructions() {
            for lane in 0..lanes {
                let (mut top, n) = w.ps_ys(i, lane).unwrap();
                let Some(start) = p.offset_if_valid(&top[..n]) else { continue };
                let (mut prev, mut breaks) = (Some(start), 0u64);
                let dim = d.encoding().ndim_p() + v;
                for k in 1..width {
                    top[dim] += 1;
                    let here = p.offset_if_valid(&top[..n]);
                    if !matches!((prev, here), (Some(a), Some(b)) if a + 1 == b) {
                        breaks |= 1 << k;
                    }
                    prev = here;
                }
                if breaks != 0 && first.is_none() {
                    first = Some((i, lane, w.coordinate(i, lane).unwrap(), breaks.trailing_zeros() as usize));
                }
                all |= breaks;
            }
        }
        if let Some((instruction, lane, coordinate, run)) = first {
            // The widest power of two no break falls inside.
            let mut widest = width;
            while widest > 1 && (1..width).any(|k| all & (1 << k) != 0 && k % widest != 0) {
                widest /= 2;
            }
            let problem = AnalyzerProblem::VectorNotContiguous {
                op,
                width: w.width(),
                instruction,
                lane,
                coordinate,
                run,
                widest,
            };
            return Err(cktile::Error::new(cktile::ErrorKind::Analyzer(problem)));
        }
    }
    let mut t = TileCounts::EMPTY;
    let mut addresses = vec![];
    for i in 0..w.instructions() {
        let a: Vec<Option<u64>> = (0..lanes).map(|lane| w.address(&p, eb, i, lane)).collect::<Result<_, _>>()?;
        t.add(&count(arch, op, &a)?)?;
        addresses.push(a);
    }
    Ok((t, addresses))
}

/// What [`window_walks_are_the_definition_on_random_windows`] has compared.
#[derive(Default, Debug)]
struct Compared {
    counted: u32,
    conflicted: u32,
    lane_copies: u32,
    warp_copies: u32,
    not_contiguous: u32,
    refused: u32,
}

impl Compared {
    /// Holds every analysis of the window of `op` over `encoding` in `lds`
    /// equal to [`by_definition`].
    fn window(&mut self, lds: &cktile::Descriptor, encoding: Encoding, op: Op, eb: usize, arch: Arch, what: &str) {
        use cktile::analyzer::AnalyzerProblem;
        use cktile::analyzer::model::conflicting_lanes;
        use cktile::analyzer::rules::rule;
        use cktile::analyzer::window::{analyze_window, require_conflict_free_distribution, window_conflict};
        use cktile::reports::window_lane_addresses;
        let d = Distribution::new(encoding).unwrap();
        let what = format!("{what}: {encoding} over {lds}, {op} on {}, {eb}-byte elements", arch.name());
        let expected = by_definition(lds, eb, &arch, &d, op);
        let compiled = analyze_window(lds, eb, &arch, &d, op);
        assert_eq!(compiled, expected.as_ref().map(|e| e.0).map_err(Clone::clone), "{what}");
        let run = analyze_distribution(lds, eb, &arch, &d, op).map(|r| r.counts);
        assert_eq!(run, compiled, "{what}");
        if let Ok(w) = WindowAccess::new(&d, op, eb, arch.wave() as usize)
            && w.program_over(lds).is_ok()
        {
            let contiguous = w.check_contiguous(lds);
            if let Err(e) = &expected
                && matches!(e.kind(), cktile::ErrorKind::Analyzer(AnalyzerProblem::VectorNotContiguous { .. }))
            {
                assert_eq!(contiguous.as_ref(), Err(e), "{what}");
                self.not_contiguous += 1;
            } else if w.check_size(&arch).is_ok() {
                assert_eq!(contiguous, Ok(()), "{what}");
            }
        }
        // The compile-time check panics where it would stop a build: caught, not printed.
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let message = std::panic::catch_unwind(|| require_conflict_free_distribution(lds, eb, &arch, encoding, op))
            .err()
            .map(|p| p.downcast_ref::<String>().cloned().unwrap_or_default());
        std::panic::set_hook(hook);
        let (c, addresses) = match &expected {
            Err(e) => {
                self.refused += 1;
                let message = message.unwrap_or_else(|| panic!("{what}: accepted, expected {e}"));
                assert!(message.contains(e.summary()), "{what}: {message} vs {e}");
                return;
            }
            Ok((c, addresses)) => (c, addresses),
        };
        self.counted += 1;
        // Whether an R component makes lanes copies (in the last P) or warps copies (the first of two).
        let np = encoding.ndim_p();
        for p in 0..np {
            if encoding.p_to_rh(p).0.as_slice().contains(&0) {
                if p + 1 == np { self.lane_copies += 1 } else { self.warp_copies += 1 }
            }
        }
        // The report: each instruction's counts, and the worst one's detail
        // from the lanes its count kept, as counting its addresses again gives them.
        let report = analyze_distribution(lds, eb, &arch, &d, op).unwrap();
        let per: Vec<_> = addresses.iter().map(|a| cktile::analyzer::count(&arch, op, a).unwrap()).collect();
        assert_eq!(report.instructions, per, "{what}");
        let worst = cktile::reports::analyze_instruction(&arch, op, &addresses[c.worst_instruction as usize]).unwrap();
        assert_eq!(report.worst(), worst, "{what}");
        let w = WindowAccess::new(&d, op, eb, arch.wave() as usize).unwrap();
        for (i, a) in addresses.iter().enumerate() {
            let got = window_lane_addresses(lds, eb, &arch, &w, i).unwrap();
            assert_eq!(&got[..a.len()], &a[..], "{what}: instruction {i}");
        }
        let lanes = window_conflict(lds, eb, &arch, &d, op, c.worst_instruction, c.worst_phase).unwrap();
        if c.conflict_cycles == 0 {
            assert_eq!(message, None, "{what}");
            return;
        }
        self.conflicted += 1;
        let r = rule(&arch, op);
        let phases = r.grouping.phases();
        let p = c.worst_phase as usize;
        let a = &addresses[c.worst_instruction as usize];
        assert_eq!(lanes, conflicting_lanes(op, &r, (p / phases) as u32, p % phases, a), "{what}");
        let (bank, l0, l1) = lanes.unwrap();
        let needle = format!(
            "cktile: the window has bank conflicts on {}: {} extra cycles over {}; worst: instruction {}, phase {}, \
             {}-way: lanes {l0} and {l1} touch two words of bank {bank}",
            arch.name(),
            c.conflict_cycles,
            c.cycles,
            c.worst_instruction,
            c.worst_phase,
            c.max_ways
        );
        assert!(message.as_deref().is_some_and(|m| m.contains(&needle)), "{what}: {message:?}");
    }
}

/// The window's analyses walk each distinct element once: X is a sum of
/// one term per P and Y (so a lane's X is its warp's and Ys' plus its
/// own), a vector runs along the last X in the layout itself, and lanes or
/// warps that copy earlier ones (an R component) are not walked again. On
/// random encodings (one or two Ps, R components in the warp or the lane)
/// over random 2-D layouts of every transform kind and GEMM-sized tiles in
/// LDS layouts (the window at their origin, X their lengths or smaller),
/// and on CK's block GEMM operands (the warps along N copies) over those
/// tiles, with reads and writes of every width, element sizes 1, 2 and 4,
/// on gfx942 and sm90, everything they give is the definition's
/// ([`by_definition`]): the compile-time counts (`analyze_window`), the
/// run-time report, each instruction's addresses, the vector check, the
/// lanes a conflict is named by, and the compile-time check's message,
/// refusals included.
#[test]
fn window_walks_are_the_definition_on_random_windows() {
    use cktile::random::Rng;
    use cktile::random::chain::{ChainConfig, chain};
    let config = ChainConfig::default();
    let ops = [
        Op::DsRead { bits: 32 },
        Op::DsRead { bits: 64 },
        Op::DsRead { bits: 128 },
        Op::DsWrite { bits: 16 },
        Op::DsWrite { bits: 64 },
        Op::LdShared { bits: 64 },
        Op::StShared { bits: 128 },
    ];
    let mut compared = Compared::default();
    // GEMM-sized tiles in the layouts LDS tiles take, and blocks of 48 rows
    // 8 elements apart (row blocks that warps and accesses cross differently).
    let mut layouts = vec![];
    for (m, k) in [(32, 32), (64, 32), (128, 32), (32, 64), (128, 64)] {
        layouts.extend([
            cktile::Descriptor::packed(&[m, k]).unwrap(),
            cktile::Descriptor::naive(&[m, k], &[1, m]).unwrap(),
            cktile::layouts::padding::row_padded(m, k, 4).unwrap(),
            cktile::layouts::ck::xor_preshuffle(m, k, 8).unwrap(),
            cktile::layouts::ck::universal_a(m, k, 4, 2, 32, cktile::layouts::ck::UnmergeOrder::Fixed2025).unwrap(),
        ]);
    }
    for k in [32, 64] {
        let spec = format!(
            "naive((3,48,{k}),({},{k},1)) | transform(merge((3,48)) on [0,1] -> [0], pass_through({k}) on [2] -> [1])",
            48 * k + 8
        );
        layouts.push(cktile::layouts::resolve(&spec).unwrap());
    }
    // CK's block operands of the MFMA 32x32x8 and 32x32x16 A (2 x 2 warps, the
    // warps along N copies, before or after those along M) and its DRAM stores.
    let mut blocks = vec![catalogue::gemm_dram(256, 128, 32, 8).unwrap()];
    for (k, kiter) in [(8, 4), (16, 2)] {
        for outer in [
            Encoding::new(&[2], &[&[2, 2], &[kiter]], &[&[1, 0]], &[&[1, 0]], &[1, 2], &[0, 0]).unwrap(),
            Encoding::new(&[2], &[&[2, 2], &[kiter]], &[&[0, 1]], &[&[0, 1]], &[1, 2], &[0, 0]).unwrap(),
        ] {
            blocks.push(cktile::distribution::embed_encoding(&outer, &catalogue::mfma_a(32, k).unwrap()).unwrap());
        }
    }
    for lds in &layouts {
        for &encoding in &blocks {
            for op in ops {
                compared.window(lds, encoding, op, 2, arch::GFX942, "block");
            }
        }
    }
    let tiles = layouts.len() as u64;
    let mut windows = 0;
    for seed in 0..12_000u64 {
        let lds = if seed % 3 == 0 { layouts[(seed / 3 % tiles) as usize] } else { chain(seed, &config) };
        if lds.lengths().len() != 2 {
            continue;
        }
        let mut rng = Rng::new(seed);
        // X: the layout's lengths, or a window of them at the origin.
        let x: Vec<i64> = lds
            .lengths()
            .as_slice()
            .iter()
            .map(|&l| if rng.below(4) == 0 { 1 + rng.below(l as u64) as i64 } else { l })
            .collect();
        let Some(encoding) = random_encoding(&x, &mut rng) else { continue };
        windows += 1;
        for _ in 0..4 {
            let op = ops[rng.below(ops.len() as u64) as usize];
            let eb = [1, 2, 4][rng.below(3) as usize];
            let arch = if rng.below(2) == 0 { arch::GFX942 } else { arch::SM90 };
            compared.window(&lds, encoding, op, eb, arch, &format!("seed {seed}"));
        }
    }
    eprintln!("COVER {windows} {compared:?}");
    let c = &compared;
    assert!(
        windows > 2000
            && c.counted > 800
            && c.conflicted > 300
            && c.lane_copies > 50
            && c.warp_copies > 100
            && c.not_contiguous > 300
            && c.refused > 5000,
        "{windows} {compared:?}"
    );
}
