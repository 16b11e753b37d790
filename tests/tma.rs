//! `tma::judge` against a TMA simulation written here from the CUDA driver
//! documentation (`cuTensorMapEncodeTiled`) and CUTLASS's TMA swizzles, not
//! from cktile's code: a map's box is written densely, innermost dimension
//! first, each shared-memory byte address swizzled by the mode's
//! `Swizzle<B,M,S>`.
//!
//! - every map cktile gives writes every element of the tile where the
//!   layout stores it, reading the global element the tile's coordinate
//!   names, and obeys the driver's rules;
//! - every refusal is recomputed by brute force over every order of the
//!   dimensions and every mode: no map writes the tile within the rules.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::layouts::cute::Tma;
use cktile::matrix_desc::Target;
use cktile::tma::{TensorMap, TmaRequest, TmaVerdict, judge};
use cktile::{Descriptor, layouts};

fn swizzle(mode: Tma, x: u64) -> u64 {
    let (b, m, s) = match mode {
        Tma::None => (0, 4, 3),
        Tma::B32 => (1, 4, 3),
        Tma::B64 => (2, 4, 3),
        Tma::B128 => (3, 4, 3),
        Tma::B128Atom32 => (2, 5, 2),
        Tma::B128Atom64 => (1, 6, 1),
    };
    let yyy = ((1u64 << b) - 1) << (m + s);
    x ^ ((x & yyy) >> s)
}

fn span(mode: Tma) -> u64 {
    match mode {
        Tma::None => 16,
        Tma::B32 => 32,
        Tma::B64 => 64,
        Tma::B128 | Tma::B128Atom32 | Tma::B128Atom64 => 128,
    }
}

fn lengths(d: &Descriptor) -> Vec<usize> {
    d.lengths().as_slice().iter().map(|&l| l as usize).collect()
}

fn coordinates(lengths: &[usize]) -> Vec<Vec<usize>> {
    let mut all = vec![vec![]];
    for &l in lengths {
        all = all.into_iter().flat_map(|c: Vec<usize>| (0..l).map(move |x| [c.clone(), vec![x]].concat())).collect();
    }
    all
}

fn tile_byte(d: &Descriptor, e: usize, c: &[usize]) -> Option<u64> {
    let c: Vec<i64> = c.iter().map(|&x| x as i64).collect();
    d.offset_if_valid(&c).map(|o| o as u64 * e as u64)
}

/// Simulates the copy a map describes: every box element's shared byte and
/// the global element it reads, keyed by the tile coordinate.
fn simulate(map: &TensorMap, rank: usize, strides: &[i64]) -> Vec<(Vec<usize>, u64, i64)> {
    let e = map.element_bytes as u64;
    let mut out = Vec::new();
    for box_c in coordinates(&map.box_dim.iter().rev().copied().collect::<Vec<_>>()) {
        // box_c is outermost first; map dimension i is box_c[rank - 1 - i].
        let mut dense = 0u64;
        let mut pitch = e;
        let mut tile_c = vec![0usize; rank];
        let mut global = 0i64;
        for i in 0..rank {
            let x = box_c[rank - 1 - i];
            dense += x as u64 * pitch;
            pitch *= map.box_dim[i] as u64;
            tile_c[map.dims[i]] = x;
            global += x as i64 * strides[map.dims[i]];
        }
        out.push((tile_c, swizzle(map.swizzle, map.base + dense).wrapping_sub(map.base), global));
    }
    out
}

/// The driver's rules, written again.
fn obeys_rules(map: &TensorMap, strides: &[i64], target: Target) -> bool {
    let e = map.element_bytes as u64;
    let inner = map.box_dim[0] as u64 * e;
    let blackwell = matches!(map.swizzle, Tma::B128Atom32 | Tma::B128Atom64);
    strides[map.dims[0]] == 1
        && map.box_dim.iter().all(|&b| (1..=256).contains(&b))
        && inner.is_multiple_of(16)
        && (map.swizzle == Tma::None || inner <= span(map.swizzle))
        && map.global_strides_bytes.iter().all(|&s| s % 16 == 0 && s > 0 && s < 1 << 40)
        && (target == Target::Sm100 || !blackwell)
        && map.element_strides.iter().all(|&s| s == 1)
}

fn assert_writes(d: &Descriptor, e: usize, strides: &[i64], target: Target) -> TensorMap {
    let req = TmaRequest::new(d, e, strides.to_vec(), target);
    let TmaVerdict::Writes(map) = judge(&req).unwrap() else { panic!("refused") };
    let rank = lengths(d).len();
    // Every copy, simulated at its own shared offset and box origin; together they cover the tile once.
    let mut covered = std::collections::BTreeSet::new();
    for (origin, offset) in &map.copies {
        let copy = TensorMap { base: map.base + offset, ..map.clone() };
        for (c, smem, global) in simulate(&copy, rank, strides) {
            let c: Vec<usize> = c.iter().zip(origin).map(|(x, o)| x + o).collect();
            assert_eq!(tile_byte(d, e, &c), Some(offset + smem), "tile {c:?}");
            let g: i64 = c.iter().zip(strides).map(|(&x, &s)| x as i64 * s).sum();
            let o: i64 = origin.iter().zip(strides).map(|(&x, &s)| x as i64 * s).sum();
            assert_eq!(g, global + o);
            assert!(covered.insert(c));
        }
    }
    assert_eq!(covered.len(), map.elements);
    assert!(obeys_rules(&map, strides, target), "{map:?}");
    let expected: Vec<u64> = map.dims[1..].iter().map(|&d| strides[d] as u64 * e as u64).collect();
    assert_eq!(map.global_strides_bytes, expected);
    map
}

fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for i in 0..=p.len() {
            let mut q = p.clone();
            q.insert(i, n - 1);
            out.push(q);
        }
    }
    out
}

/// No order of the dimensions and no mode writes the tile within the rules,
/// as one box or as equal boxes along any dimension (each box at the shared
/// byte of its origin, where a dense box starts).
fn assert_no_map_writes(d: &Descriptor, e: usize, strides: &[i64], target: Target, what: &str) {
    let len = lengths(d);
    let rank = len.len();
    for split in 0..rank {
        let mut parts = 1;
        while parts <= len[split] {
            if len[split].is_multiple_of(parts) {
                let mut part_len = len.clone();
                part_len[split] = len[split] / parts;
                for dims in permutations(rank) {
                    for mode in [Tma::None, Tma::B32, Tma::B64, Tma::B128, Tma::B128Atom32, Tma::B128Atom64] {
                        let map = TensorMap {
                            swizzle: mode,
                            also: vec![],
                            element_bytes: e,
                            box_dim: dims.iter().map(|&x| part_len[x]).collect(),
                            global_dim: dims.iter().map(|&x| len[x] as u64).collect(),
                            global_strides_bytes: dims[1..]
                                .iter()
                                .map(|&x| (strides[x] * e as i64).max(0) as u64)
                                .collect(),
                            element_strides: vec![1; rank],
                            dims: dims.clone(),
                            base: 0,
                            bytes: 0,
                            copies: vec![],
                            elements: 0,
                        };
                        let all_parts = || {
                            (0..parts).all(|p| {
                                let mut origin = vec![0; rank];
                                origin[split] = p * part_len[split];
                                let Some(first) = tile_byte(d, e, &origin) else { return false };
                                let at = TensorMap { base: first, ..map.clone() };
                                simulate(&at, rank, strides).iter().all(|(c, smem, _)| {
                                    let c: Vec<usize> = c.iter().zip(&origin).map(|(x, o)| x + o).collect();
                                    tile_byte(d, e, &c) == Some(first + smem)
                                })
                            })
                        };
                        let aligned = (0..parts).all(|p| {
                            let mut origin = vec![0; rank];
                            origin[split] = p * part_len[split];
                            tile_byte(d, e, &origin).is_some_and(|b| b % (mode.alignment() as u64).max(128) == 0)
                        });
                        assert!(
                            !(aligned && obeys_rules(&map, strides, target) && all_parts()),
                            "{what}: {parts} x {map:?}"
                        );
                    }
                }
            }
            parts *= 2;
        }
    }
}

#[test]
fn triton_nvmma_tiles_are_written_by_their_swizzle() {
    for width in [0usize, 32, 64, 128] {
        for bits in [8usize, 16, 32] {
            let e = bits / 8;
            let d = layouts::resolve(&format!("triton-nvmma:swizzle={width},bits={bits},rows=64")).unwrap();
            let cols = lengths(&d)[1] as i64;
            // Rows of a row-major K x 4096 matrix; the box's inner dimension is K.
            let map = assert_writes(&d, e, &[4096, 1], Target::Sm90);
            assert_eq!(map.dims, [1, 0]);
            assert_eq!(map.box_dim, [cols as usize, 64]);
            let mode = match width {
                // The unswizzled NVMMA tile has 128-byte rows: no swizzle, a 128-byte inner box.
                0 => Tma::None,
                32 => Tma::B32,
                64 => Tma::B64,
                _ => Tma::B128,
            };
            assert_eq!(map.swizzle, mode, "swizzle {width} bits {bits}");
            // Transposed (column-major) tiles come from a column-major matrix.
            let t =
                layouts::resolve(&format!("triton-nvmma:swizzle={width},bits={bits},transposed=true,rows=64")).unwrap();
            let map = assert_writes(&t, e, &[1, 4096], Target::Sm90);
            assert_eq!((map.dims.clone(), map.swizzle), (vec![0, 1], mode));
        }
    }
}

#[test]
fn cute_tma_boxes_of_every_mode_are_written_by_that_mode() {
    for (mode, name, target) in [
        (Tma::None, "none", Target::Sm90),
        (Tma::B32, "32b", Target::Sm90),
        (Tma::B64, "64b", Target::Sm90),
        (Tma::B128, "128b", Target::Sm90),
        (Tma::B128Atom32, "128b-atom-32b", Target::Sm100),
        (Tma::B128Atom64, "128b-atom-64b", Target::Sm100),
    ] {
        for e in [1usize, 2, 4] {
            let d = cktile::layouts::cute::tma_box(mode, 16, e).unwrap();
            let row = lengths(&d)[1] as i64;
            let req = TmaRequest { swizzle: Some(mode), ..TmaRequest::new(&d, e, vec![row * 4, 1], target) };
            let TmaVerdict::Writes(map) = judge(&req).unwrap() else { panic!("{name} refused") };
            assert_eq!(map.swizzle, mode);
            assert_writes(&d, e, &[row * 4, 1], target);
            assert_eq!(cktile::tma::tma_by_name(name).unwrap(), mode);
            if target == Target::Sm100 {
                let req = TmaRequest { swizzle: Some(mode), ..TmaRequest::new(&d, e, vec![row * 4, 1], Target::Sm90) };
                assert!(matches!(judge(&req).unwrap(), TmaVerdict::Refused(_)), "{name} on sm90");
            }
        }
    }
}

#[test]
fn cks_k32_block_is_a_64_byte_box_under_the_128_byte_swizzle() {
    // 64-byte rows swizzled with Swizzle<3,4,3> on bytes: TMA's 128B mode on a box whose inner
    // dimension (64 bytes) is under the span writes it, as the swizzle is a function of the address.
    let d = layouts::resolve("ck-universal-a:m=128,k=32").unwrap();
    let map = assert_writes(&d, 2, &[4096, 1], Target::Sm90);
    assert_eq!((map.swizzle, map.box_dim.clone()), (Tma::B128, vec![32, 128]));
}

#[test]
fn cute_tiles_wider_than_the_span_are_several_copies_of_one_box() {
    use cktile::matrix_desc::{OperandMajor, SwizzleMode, canonical_spec};
    // tile_to_shape(Layout_K_SW128_Atom<half_t>, (128, 128)): two 64-wide K atoms, each a box.
    let d = cktile::spec::parse(&canonical_spec(OperandMajor::K, SwizzleMode::B128, 2, 128, 128, 1).unwrap()).unwrap();
    let map = assert_writes(&d, 2, &[4096, 1], Target::Sm90);
    assert_eq!((map.swizzle, map.box_dim.clone()), (Tma::B128, vec![64, 128]));
    assert_eq!(map.copies, [(vec![0, 0], 0), (vec![0, 64], 16384)]);
    // The tensor is the whole tile, not one box.
    assert_eq!(map.global_dim, [128, 128]);
    // A box has at most 256 rows: 512 rows are two copies.
    let d = Descriptor::packed(&[512, 8]).unwrap();
    let map = assert_writes(&d, 2, &[8, 1], Target::Sm90);
    assert_eq!((map.box_dim.clone(), map.copies.len()), (vec![8, 256], 2));
    // MN-major SW64 fp16: a column of atoms along K is one box; two 32-wide MN atoms are two.
    let d = cktile::spec::parse(&canonical_spec(OperandMajor::Mn, SwizzleMode::B64, 2, 32, 32, 1).unwrap()).unwrap();
    let map = assert_writes(&d, 2, &[1, 4096], Target::Sm90);
    assert_eq!((map.swizzle, map.box_dim.clone(), map.copies.len()), (Tma::B64, vec![32, 32], 1));
    let d = cktile::spec::parse(&canonical_spec(OperandMajor::Mn, SwizzleMode::B64, 2, 64, 8, 1).unwrap()).unwrap();
    let map = assert_writes(&d, 2, &[1, 4096], Target::Sm90);
    assert_eq!((map.box_dim.clone(), map.copies), (vec![32, 8], vec![(vec![0, 0], 0), (vec![32, 0], 512)]));
}

#[test]
fn three_dimensional_boxes_in_any_order() {
    // A (4, 8, 16) fp16 tile stored dims 2, 0, 1 innermost first, unswizzled.
    let d = cktile::spec::parse("packed((8,4,16)) | transform(pass_through(8) on [0] -> [1], pass_through(4) on [1] -> [0], pass_through(16) on [2] -> [2])").unwrap();
    let map = assert_writes(&d, 2, &[1 << 14, 1 << 10, 1], Target::Sm90);
    assert_eq!(map.dims, [2, 0, 1]);
    assert_eq!(map.global_strides_bytes, [1 << 15, 1 << 11]);
}

/// Tiles no single copy writes, with their element bytes and global strides.
const REFUSED: &[(&str, usize, &[i64])] = &[
    // Padding between rows: TMA boxes are dense.
    ("row-padded:rows=64,cols=64,pad=8", 2, &[64, 1]),
    ("row-padded:rows=16,cols=32,pad=4", 4, &[32, 1]),
    // The swizzle's rows are 256 bytes: the inner box is over the 128-byte span.
    ("cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=128", 2, &[128, 1]),
    // A transposing copy: the tile's contiguous dimension is strided in global memory.
    ("triton-nvmma:swizzle=128,bits=16,rows=64", 2, &[1, 64]),
    // A row of 88 bytes in global memory: not a multiple of 16.
    ("triton-nvmma:swizzle=64,bits=16,rows=16", 2, &[44, 1]),
    // An inner box of 8 bytes.
    ("packed((16,4))", 2, &[4096, 1]),
    // 8-byte chunks swizzled (Swizzle<3,3,3> on bytes): TMA moves 16-byte chunks at least.
    ("cute-swizzle:b=3,mbase=2,s=3,rows=16,cols=64", 2, &[64, 1]),
    // Swizzle<3,3,4> on fp16 (S = 4): its XOR reads address bits 8 to 10, a pattern no TMA mode has.
    ("cute-swizzle:b=3,mbase=3,s=4,rows=32,cols=64", 2, &[64, 1]),
];

#[test]
fn tiles_no_copy_writes_are_refused_and_brute_force_agrees() {
    for &(text, e, strides) in REFUSED {
        let d = layouts::resolve(text).unwrap();
        for target in [Target::Sm90, Target::Sm100] {
            let TmaVerdict::Refused(breaks) = judge(&TmaRequest::new(&d, e, strides.to_vec(), target)).unwrap() else {
                panic!("{text} written on {target:?}")
            };
            assert_eq!(breaks.len(), cktile::tma::tma_modes(target).len());
            for b in &breaks {
                if !b.coordinate.is_empty() {
                    assert_eq!(b.actual, tile_byte(&d, e, &b.coordinate), "{text}");
                    assert_ne!(b.actual, b.expected);
                }
                assert!(b.rule.len() > 20);
            }
            assert_no_map_writes(&d, e, strides, target, text);
        }
    }
}

#[test]
fn requests_no_map_serves_are_errors_naming_the_value() {
    let d = Descriptor::packed(&[64, 64]).unwrap();
    for (req, word) in [
        (TmaRequest::new(&d, 3, vec![64, 1], Target::Sm90), "element bytes"),
        (TmaRequest::new(&d, 2, vec![1], Target::Sm90), "global strides"),
        (
            TmaRequest { global_shape: Some(vec![64]), ..TmaRequest::new(&d, 2, vec![64, 1], Target::Sm90) },
            "global shape",
        ),
    ] {
        let e = judge(&req).unwrap_err().to_string();
        assert!(e.contains(word), "{e}");
    }
    let far = TmaRequest { base: u64::MAX - 127, ..TmaRequest::new(&d, 2, vec![64, 1], Target::Sm90) };
    assert!(judge(&far).unwrap_err().to_string().contains("2^32"));
    let six = Descriptor::packed(&[2, 2, 2, 2, 2, 2]).unwrap();
    assert!(judge(&TmaRequest::new(&six, 2, vec![1; 6], Target::Sm90)).unwrap_err().to_string().contains("1 to 5"));
    // A base off the swizzle's boundary, and a global extent smaller than the box, break every mode.
    let t = layouts::resolve("triton-nvmma:swizzle=128,bits=16,rows=64").unwrap();
    let req = TmaRequest { base: 512, swizzle: Some(Tma::B128), ..TmaRequest::new(&t, 2, vec![64, 1], Target::Sm90) };
    let TmaVerdict::Refused(b) = judge(&req).unwrap() else { panic!() };
    assert!(b[0].rule.contains("1024"), "{}", b[0].rule);
    let req = TmaRequest { global_shape: Some(vec![64, 32]), ..TmaRequest::new(&t, 2, vec![64, 1], Target::Sm90) };
    let TmaVerdict::Refused(b) = judge(&req).unwrap() else { panic!() };
    assert!(b[0].rule.contains("at least the box"), "{}", b[0].rule);
    // Fewer rows in the tensor than in the tile: two copies of a half-height box.
    let req = TmaRequest { global_shape: Some(vec![32, 64]), ..TmaRequest::new(&t, 2, vec![64, 1], Target::Sm90) };
    let TmaVerdict::Writes(m) = judge(&req).unwrap() else { panic!() };
    assert_eq!((m.box_dim.clone(), m.copies.len()), (vec![64, 32], 2));
}

mod hostile {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Any catalogue layout, any strides, any base: an answer (every map
        /// simulated element by element) or an error, never a panic.
        #[test]
        fn any_tile_and_strides_get_an_answer_that_holds(
            m in cktile::strategy::catalogue(4096),
            e in prop::sample::select(vec![1usize, 2, 4, 8]),
            strides in prop::collection::vec(prop_oneof![Just(1i64), Just(64), Just(4096), any::<i64>()], 1..4),
            base in prop_oneof![Just(0u64), Just(1024), any::<u64>()],
        ) {
            let d = &m.descriptor;
            let mut req = TmaRequest::new(d, e, strides.clone(), Target::Sm100);
            req.base = base;
            if let Ok(TmaVerdict::Writes(map)) = judge(&req) {
                prop_assert!(obeys_rules(&map, &strides, Target::Sm100));
                if base == 0 {
                    assert_writes(d, e, &strides, Target::Sm100);
                }
            }
        }
    }
}

#[test]
fn the_rule_table_says_wgmma_reads_and_tma_writes_are_not_counted() {
    let rows = cktile::render::rules::rows(Some(&cktile::analyzer::arch::SM90));
    let uncounted: Vec<_> =
        rows.iter().filter(|r| r.kind == "not counted").map(|r| (r.op, r.phases.as_str())).collect();
    assert_eq!(
        uncounted,
        [("wgmma.mma_async (shared-memory operand read)", "-"), ("cp.async.bulk.tensor (TMA write)", "-")]
    );
    // Nowhere else but gfx1250's partitions: no other chip claims or denies them.
    let elsewhere: Vec<_> = cktile::render::rules::rows(None)
        .into_iter()
        .filter(|r| r.kind == "not counted" && r.arch != "sm90")
        .map(|r| (r.arch, r.op))
        .collect();
    assert_eq!(elsewhere, [("gfx1250", "LDS partitions (between warps)")]);
}
