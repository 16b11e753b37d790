//! The kernels' per-thread work on the host, before any GPU runs it: for
//! every case of `cases.txt`, each thread's vector (`vector_of`) through the
//! typed descriptor and through the hand-written twin, every element of the
//! tile compared with cktile's dynamic path (`layouts::resolve` of the
//! case's catalogue entry or spec, `check::offsets`: what
//! `cktile offsets --json` prints), each element written exactly once.

use cktile::Index;
use cktile_gpu_kernel::{PADDING, VECTOR, tiles, vector_of};

/// One line of `cases.txt`.
struct Case {
    name: String,
    typed: String,
    hand: String,
    rows: u64,
    cols: u64,
    args: Vec<u64>,
    spec: String,
}

fn cases() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/cases.txt");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|line| {
            let mut rest = line.trim();
            let mut field = || {
                let (f, r) = rest.split_once(char::is_whitespace).unwrap_or_else(|| panic!("short line: {line}"));
                rest = r.trim_start();
                f.to_string()
            };
            let (name, typed, hand, build, rows, cols, args) =
                (field(), field(), field(), field(), field(), field(), field());
            assert!(build == "static" || build == "device", "{name}: BUILD is `{build}`");
            let number = |s: &str| s.parse::<u64>().unwrap_or_else(|_| panic!("{name}: `{s}` is not a u64"));
            let args = if args == "-" { vec![] } else { args.split(',').map(number).collect() };
            Case { rows: number(&rows), cols: number(&cols), name, typed, hand, args, spec: rest.to_string() }
        })
        .collect()
}

/// Every thread of a launch covering the tile, as the kernel runs it: the
/// tile in row-major order, `None` where no thread wrote.
fn launch(rows: u64, cols: u64, offset: impl Fn(Index, Index) -> Index) -> Vec<Option<Index>> {
    let mut out = vec![None; (rows * cols) as usize];
    // One more block of 128 threads than needed: the extra ones write nothing.
    for tid in 0..rows * cols / VECTOR + 128 {
        if let Some((first, m, k)) = vector_of(tid, rows, cols) {
            for j in 0..VECTOR {
                let slot = &mut out[(first + j) as usize];
                assert!(slot.is_none(), "element {} written twice", first + j);
                *slot = Some(offset(m, k + j as Index));
            }
        }
    }
    out
}

/// The kernel `name` of a case on the host.
fn run(name: &str, case: &Case) -> Vec<Option<Index>> {
    let (r, c, a) = (case.rows, case.cols, &case.args);
    let global = || -> tiles::GlobalArgs {
        assert_eq!(a.len(), 5, "{}: {name} takes 5 arguments", case.name);
        let args = (a[0], a[1], a[2], a[3], a[4]);
        assert_eq!(tiles::global_a_shape(args), Some((r, c)), "{}: ROWS x COLS", case.name);
        args
    };
    let m_per_block = || {
        assert_eq!((a.len(), a.first()), (1, Some(&r)), "{}: {name} takes MPerBlock = ROWS", case.name);
        a[0]
    };
    match name {
        "typed_a_lds" => launch(r, c, tiles::typed_a_lds()),
        "hand_a_lds" => launch(r, c, tiles::hand_a_lds()),
        "typed_a_lds_rt" => launch(r, c, tiles::typed_a_lds_rt(m_per_block())),
        "hand_a_lds_rt" => launch(m_per_block(), c, tiles::hand_a_lds()),
        "typed_b_lds" => launch(r, c, tiles::typed_b_lds()),
        "hand_b_lds" => launch(r, c, tiles::hand_b_lds()),
        "typed_fmha_v" => launch(r, c, tiles::typed_fmha_v()),
        "hand_fmha_v" => launch(r, c, tiles::hand_fmha_v()),
        "typed_global_a" => launch(r, c, tiles::typed_global_a(global())),
        "hand_global_a" => launch(r, c, tiles::hand_global_a(global())),
        other => panic!("{}: no kernel {other} in tests/host.rs", case.name),
    }
}

#[test]
fn every_offset_equals_the_catalogue() {
    let cases = cases();
    assert!(cases.len() >= 6, "{} cases", cases.len());
    for case in &cases {
        let desc = cktile::layouts::resolve(&case.spec).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        assert_eq!(
            desc.lengths().as_slice(),
            &[case.rows as Index, case.cols as Index],
            "{}: the spec's lengths",
            case.name
        );
        let o = cktile::check::offsets(&desc).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let expected: Vec<Index> =
            o.offsets.iter().zip(&o.valid).map(|(&off, &valid)| if valid { off } else { PADDING }).collect();
        for kernel in [&case.typed, &case.hand] {
            let got = run(kernel, case);
            assert_eq!(got.len(), expected.len());
            for (e, (g, want)) in got.iter().zip(&expected).enumerate() {
                assert_eq!(*g, Some(*want), "{} {kernel}: element {e}", case.name);
            }
        }
    }
}
