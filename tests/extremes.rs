//! Extreme numbers (0, 1, powers of two and their neighbours, `usize::MAX`
//! and its neighbours) fed to the public functions that take numbers: each
//! returns `Ok` or `Err`, never panics (this suite runs overflow-checked, so
//! a wrapping product would panic), and an `Ok` equals the value computed
//! exactly in 128 bits, so nothing wrapped silently in release either.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::Descriptor;
use cktile::analyzer::{Op, Pattern};
use cktile::layouts::{self, CATALOG, ck};
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
        cktile::ErrorKind::TooLarge { size: u64::MAX, limit: 16777216 }
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
    use cktile::plan::dma::{DmaPlan, Gather, simulate};
    let p = DmaPlan {
        subgroups: 1,
        wave: 0,
        width: usize::MAX,
        lds_bytes: 4,
        slice_bytes: u64::MAX,
        loads_per_thread: 0,
        gathers: vec![Gather { lds_byte: 0, global_byte: 0, coordinate: vec![0] }],
    };
    assert!(simulate(&p).is_err());
    assert_eq!(p.slice(usize::MAX), u64::MAX..u64::MAX);
    // One lane whose global byte is i64::MAX: its second byte overflows.
    let p = DmaPlan {
        subgroups: 1,
        wave: 1,
        width: 2,
        lds_bytes: 2,
        slice_bytes: 2,
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
    fn every_catalogue_parameter_takes_extremes(entry in 0usize..CATALOG.len(), param in 0usize..8, value in extreme()) {
        // The entry's example with one parameter replaced: built or refused, never a panic.
        let e = &CATALOG[entry];
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
