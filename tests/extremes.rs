//! Extreme numbers (0, 1, powers of two and their neighbours, `usize::MAX`
//! and its neighbours) fed to the public functions that take numbers: each
//! returns `Ok` or `Err`, never panics (this suite runs overflow-checked, so
//! a wrapping product would panic), and an `Ok` equals the value computed
//! exactly in 128 bits, so nothing wrapped silently in release either.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::Descriptor;
use cktile::analyzer::{Op, Pattern};
use cktile::layouts::{self, CATALOGUE, ck};
use proptest::prelude::*;

/// 0, 1, 2, 3, 2^k - 1, 2^k, 2^k + 1 for k in 2..64, and `usize::MAX` with
/// its neighbours below.
fn extremes() -> Vec<usize> {
    let mut v = vec![0, 1, 2, 3, usize::MAX, usize::MAX - 1, usize::MAX / 2, usize::MAX / 2 + 1];
    for k in 2..64 {
        let p = 1usize << k;
        v.extend([p - 1, p, p + 1]);
    }
    v
}

fn extreme() -> impl Strategy<Value = usize> {
    prop::sample::select(extremes())
}

#[test]
fn the_library_is_built_with_overflow_checks() {
    // `cargo test` builds cktile with overflow checks ([profile.dev.package.cktile]);
    // the properties below rely on them to catch a wrapping product.
    let x = std::hint::black_box(u32::MAX);
    assert!(std::panic::catch_unwind(|| x + 1).is_err(), "overflow checks are off in this build");
}

#[test]
fn the_issue_examples() {
    let rows = Pattern::Rows { op: Op::DsWrite { bits: 128 } };
    assert!(matches!(
        rows.instructions(1 << 40, 1 << 40, 2, 64).unwrap_err().kind(),
        cktile::ErrorKind::Port(cktile_core::ErrorKind::Descriptor(cktile::DescriptorProblem::TooLarge {
            size: u64::MAX,
            limit: 16777216
        }))
    ));
    assert!(ck::mlds_layer(1, 1, usize::MAX).unwrap_err().to_string().contains("banks"));
    let e = layouts::resolve("ck-kfold-mpair:m=1,k=4611686018427387904,ak1=1,m0=1,kthreadwrite=1").unwrap_err();
    assert!(e.to_string().contains("kfold * K0PerThreadWrite overflows"), "{e}");
    let mut t = cktile::analyzer::TileCounts::EMPTY;
    t.conflict_cycles = u32::MAX;
    let c = cktile::analyzer::count(&cktile::analyzer::arch::SM90, Op::LdShared { bits: 32 }, &[Some(0), Some(128)])
        .unwrap();
    assert!(t.add(&c).is_err());
    assert_eq!(t.instructions, 0, "a refused add leaves the totals");
}

#[test]
fn a_hand_built_dma_plan_is_checked_not_divided_by() {
    use cktile::plan::dma::{DmaPlan, Gather, Order, simulate};
    let p = DmaPlan {
        subgroups: 1,
        wave: 0,
        width: usize::MAX,
        lds_bytes: 4,
        slice_bytes: u64::MAX,
        order: Order::WaveMajor,
        loads_per_thread: 0,
        gathers: vec![Gather { lds_byte: 0, global_byte: 0, coordinate: vec![0] }],
    };
    assert!(simulate(&p).is_err());
    assert_eq!(p.slice(usize::MAX), None);
    // One lane whose global byte is i64::MAX: its second byte overflows.
    let p = DmaPlan {
        subgroups: 1,
        wave: 1,
        width: 2,
        lds_bytes: 2,
        slice_bytes: 2,
        order: Order::WaveMajor,
        loads_per_thread: 1,
        gathers: vec![Gather { lds_byte: 0, global_byte: i64::MAX, coordinate: vec![0] }],
    };
    assert!(simulate(&p).unwrap_err().to_string().contains("overflows i64"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn pattern_instructions_are_exact_or_refused(rows in extreme(), cols in extreme(), eb in extreme(), wave in extreme(), which in 0usize..5) {
        let op = [Op::DsWrite { bits: 128 }, Op::DsRead { bits: 32 }, Op::LdShared { bits: 8 }, Op::Ldmatrix { matrices: 4, trans: false }, Op::LdShared { bits: 32 }][which];
        let p = match which {
            0 | 1 => Pattern::Rows { op },
            2 => Pattern::Columns { op },
            3 => Pattern::Ldmatrix { op },
            _ => Pattern::MmaSyncA,
        };
        if let Ok(n) = p.instructions(rows, cols, eb, wave) {
            prop_assert!((rows as u128) * (cols as u128) <= 1 << 24);
            if which <= 2 {
                let vec = (op.bytes_per_lane() as u128) / eb as u128;
                prop_assert_eq!(n as u128, ((rows as u128) * (cols as u128 / vec)).div_ceil(wave as u128));
            }
        }
    }

    #[test]
    fn ck_rules_are_exact_or_refused(a in extreme(), b in extreme(), c in extreme(), banks in prop::sample::select(vec![0usize, 32, 64, 33, usize::MAX])) {
        if let Ok(l) = ck::mlds_layer(a, b, banks) {
            let expected = if a == 0 || b == 0 { 1 } else { ((banks as u128 * 4 / a as u128) / b as u128).max(1) };
            prop_assert_eq!(l as u128, expected);
        }
        let p = ck::KfoldParams { m: a, k: b, ak1: a, m0: b, k_thread_write: c, m_per_xdl: 16, element_bytes: c, banks };
        if let Ok(k) = p.kfold() {
            // Three 64-bit factors can pass even 128 bits: then the product is above banks * 4.
            let w = (a as u128 * b as u128).checked_mul(c as u128);
            let expected = match w {
                Some(w) if w > 0 && w <= banks as u128 * 4 => banks as u128 * 4 / w,
                _ => 1,
            };
            prop_assert_eq!(k as u128, expected);
        }
        let _ = ck::kfold_mpair(&p);
        let _ = ck::xor_lds(a, b, c, banks, ck::UnmergeOrder::Fixed2025);
        let _ = ck::universal_a(a, b, c, 2, banks, ck::UnmergeOrder::Original2024);
    }

    #[test]
    fn naive_element_spaces_are_exact_or_refused(l0 in extreme(), l1 in extreme(), s0 in extreme(), s1 in extreme()) {
        if let Ok(d) = Descriptor::naive(&[l0, l1], &[s0, s1]) {
            let space = 1 + (l0 as i128 - 1) * s0 as i128 + (l1 as i128 - 1) * s1 as i128;
            prop_assert_eq!(d.element_space_size() as i128, space);
            prop_assert_eq!(d.element_size().map(i128::from), Some(l0 as i128 * l1 as i128));
        }
        if let Ok(d) = Descriptor::packed(&[l0, l1, s0]) {
            prop_assert_eq!(d.element_space_size() as i128, l0 as i128 * l1 as i128 * s0 as i128);
        }
    }

    #[test]
    fn every_catalogue_parameter_takes_extremes(entry in 0usize..CATALOGUE.len(), param in 0usize..8, value in extreme()) {
        // The entry's example with one parameter replaced: built or refused, never a panic.
        let e = &CATALOGUE[entry];
        let Some(p) = e.params.get(param % e.params.len().max(1)) else { return Ok(()) };
        let (name, rest) = e.example.split_once(':').unwrap_or((e.example, ""));
        let mut pairs: Vec<String> = rest.split(',').filter(|s| !s.is_empty()).filter(|s| !s.starts_with(&format!("{}=", p.name))).map(str::to_string).collect();
        pairs.push(format!("{}={value}", p.name));
        let text = format!("{name}:{}", pairs.join(","));
        if let Ok(d) = layouts::resolve(&text) {
            prop_assert!(d.element_space_size() >= 0, "{}", text);
        }
    }
}

/// `Op` is a public enum with public fields, so a caller can build an
/// instruction no chip has (`DsRead { bits: 7 }`, `Ldmatrix { matrices: 0 }`).
/// Every function that takes one is total: the queries answer, and every
/// analysis refuses it with an error naming the instruction, on every chip.
#[test]
fn instructions_no_chip_has_are_refused_not_panicked_on() {
    use cktile::analyzer::arch::ARCHS;
    use cktile::analyzer::model::{access_words, count, phase_table, validate};
    use cktile::analyzer::rules::rule;
    use cktile::reports::{analyze_instruction, analyze_tile_report, analyze_with};
    let odd = [0u32, 1, 7, 12, 33, 256, u32::MAX];
    let mut ops = Vec::new();
    for &bits in &odd {
        ops.extend([Op::DsRead { bits }, Op::DsWrite { bits }, Op::LdShared { bits }, Op::StShared { bits }]);
        ops.extend([Op::DsReadTr { element_bits: bits }, Op::Ldmatrix { matrices: bits, trans: false }]);
        ops.push(Op::Stmatrix { matrices: bits, trans: true });
        for st64 in [false, true] {
            ops.push(Op::DsRead2 { bits, offsets: [0, 255], st64 });
            ops.push(Op::DsWrite2 { bits, offsets: [255, 0], st64 });
        }
    }
    let tile = Descriptor::packed(&[64, 64]).unwrap();
    let lanes: Vec<Option<u64>> = (0..64).map(|l| Some(l * 16)).collect();
    for op in ops.into_iter().filter(|op| !op.is_valid()) {
        assert!(op.check().is_err(), "{op:?}");
        let _ = (op.to_string(), op.accesses(), op.access_bytes(), op.bytes_per_lane(), op.alignment());
        let _ = (op.access_offset(0), op.access_offset(1), op.access_offset(u32::MAX), op.is_contiguous());
        let _ = access_words(op, u64::MAX, u32::MAX);
        for arch in &ARCHS {
            let r = rule(arch, op);
            for p in [0, 1, r.grouping.phases(), usize::MAX] {
                let _ = r.grouping.phase(p);
                let _ = phase_table(op, &r, 0, p, &lanes);
            }
            let _ = op.runs_on(arch);
            assert!(validate(arch, op, &lanes).is_err(), "{op:?} on {}", arch.name());
            assert!(count(arch, op, &lanes).is_err(), "{op:?} on {}", arch.name());
            assert!(analyze_instruction(arch, op, &lanes).is_err(), "{op:?} on {}", arch.name());
            let r = analyze_with(&tile, 2, arch, op, 1, |_, lane| Some([lane as i64, 0]));
            assert!(r.is_err(), "{op:?} on {}", arch.name());
            let rows = Pattern::Rows { op };
            assert!(analyze_tile_report(&tile, 2, arch, rows).is_err(), "{op:?} on {}", arch.name());
        }
    }
}

/// The other public structs with public fields: a DMA request, a search
/// problem, grid options and codegen options built by hand with zeros,
/// maxima and mismatched lengths are refused with an error (or drawn, for
/// harmless values), never a panic or a division by zero.
#[test]
fn hand_built_requests_are_refused_not_panicked_on() {
    use cktile::analyzer::arch::{self, ARCHS};
    use cktile::codegen::{Lang, Options, generate};
    use cktile::plan::dma::{DmaRequest, plan};
    use cktile::render::svg::grid::{GridOptions, grid};
    use cktile::search::{Problem, search};
    let tile = Descriptor::packed(&[16, 64]).unwrap();
    let values = [0usize, 1, 3, 64, 1 << 40, usize::MAX];
    for &workgroup in &values {
        for &wave in &values {
            for &width in &values {
                for strides in [vec![], vec![64], vec![64, 1], vec![i64::MAX, i64::MIN], vec![-1, 1], vec![1, 2, 3]] {
                    for a in [arch::GFX942, arch::GFX950, arch::SM90] {
                        let req = DmaRequest {
                            lds: &tile,
                            element_bytes: width.min(9),
                            global_strides: strides.clone(),
                            arch: a,
                            workgroup,
                            wave,
                            width,
                        };
                        let _ = plan(&req);
                    }
                }
            }
        }
    }
    for a in &ARCHS {
        for &(rows, cols, bytes) in &[(0, 0, 0), (1, 1, 1), (16, 16, 3), (usize::MAX, 2, 2), (2, usize::MAX, 1)] {
            let mut p = Problem::new(rows, cols, bytes, *a);
            p.reads.push(Pattern::Rows { op: Op::DsRead { bits: 7 } });
            assert!(search(&p).is_err(), "{rows}x{cols} x {bytes} bytes on {}", a.name());
            p.reads.clear();
            p.vector = Some(usize::MAX);
            p.max_padding_bytes = Some(u64::MAX);
            let _ = search(&p);
        }
    }
    for &bytes in &values {
        for banks in [0u32, 1, 32, u32::MAX] {
            for (rows, cols) in [(None, None), (Some(0), Some(0)), (Some(usize::MAX), Some(usize::MAX))] {
                let opts = GridOptions { rows, cols, ..GridOptions::new("t", bytes, banks) };
                let r = grid(&tile, &opts);
                // Showing 0 rows or columns is refused (issue 34: it drew one).
                let valid = (1..=4096).contains(&bytes) && (1..=64).contains(&banks) && rows != Some(0);
                assert_eq!(r.is_ok(), valid, "{bytes} {banks} {rows:?}");
            }
        }
    }
    // A legend of 2^32 banks once drew until memory ran out.
    let e = grid(&tile, &GridOptions::new("t", 2, u32::MAX)).unwrap_err().to_string();
    assert!(e.contains("banks = 4294967295; the legend draws 1 to 64 banks"), "{e}");
    for name in ["", "_x", "int", "a b", "ok_name"] {
        for entry in [None, Some(String::new()), Some("a\nb\\".to_string())] {
            let opts = Options { entry, ..Options::new(Lang::Cuda, name) };
            let _ = generate(&tile, &opts);
        }
    }
}
