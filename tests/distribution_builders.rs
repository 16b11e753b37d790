//! The distributions cktile builds the way CK builds them (issue 38, item
//! 3), against independent derivations:
//!
//! - CK's raked 2-D patterns (`static_encoding_pattern.hpp`): which
//!   parameters CK accepts, restated here from its `static_assert`s; every
//!   (P, Y) -> X against closed forms written from the header's description
//!   of each raking; the cases CK's own tests assert; coverage of the
//!   tile by enumeration;
//! - RDNA's WMMA operands against AMD's published lane maps;
//! - coverage reports against a brute-force count over every (P, Y) of
//!   random encodings and tiles, including the replicas' lane steps;
//! - the CK bug the coverage check exists for: the raked pattern before
//!   the X2 dimension (rocm-libraries PR 7528) leaves half the tile unread.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "support/xorshift.rs"]
mod xorshift;

use cktile::distribution::catalogue::pattern::{Pattern2d, Raking, Variant};
use cktile::distribution::catalogue::wmma::{self, Rdna};
use cktile::distribution::{Distribution, Encoding, MAX_ENUMERATED, catalogue};
use cktile::lanes::Table;
use cktile::lanes::coverage::Coverage;
use std::collections::HashMap;
use std::process::{Command, Output};
use xorshift::Rng;

/// CK's factors restated from the header's `static_assert`s and
/// definitions: `None` where CK's template would not compile.
fn ck_factors(p: &Pattern2d) -> Option<[usize; 6]> {
    let warp = p.warp_size;
    let (block, y, x, vec, groups) = (p.block_size, p.y_per_tile, p.x_per_tile, p.vec_size, p.num_wave_groups);
    if !(warp == 32 || warp == 64) || block == 0 || block % warp != 0 || y == 0 || vec == 0 {
        return None;
    }
    if x == 0 || x % vec != 0 {
        return None;
    }
    let warps = block / warp;
    let largest = x * y / (warps * warp);
    if largest == 0 {
        return None;
    }
    let x1 = vec.min(largest);
    let x0 = warp.min(x / x1);
    let x2 = x / (x0 * x1);
    if x0 * x1 * x2 != x || !warp.is_multiple_of(x0) {
        return None;
    }
    let rows = warp / x0;
    let (y0, y1, y2) = match p.raking {
        Raking::Thread => {
            if groups == 0 || !warps.is_multiple_of(groups) {
                return None;
            }
            let y0 = warps / groups;
            if x0 * rows * y0 * groups != block {
                return None;
            }
            (y0, rows, y / (rows * y0))
        }
        Raking::Warp => (warps, y / (rows * warps), rows),
        Raking::Block => (y / (rows * warps), warps, rows),
    };
    (y0 * y1 * y2 == y).then_some([y0, y1, y2, x0, x1, x2])
}

/// Where thread (w, l) puts Y index `ys`: (row, column) of the tile, from
/// the header's prose. Lanes split as `l = a X0 + x0`, with `a` the row
/// within a warp's access; a thread's X is `x0 X1 X2 + v1 X2 + v2` (X1 the
/// vector, X2 the repeats); the raking orders (warp, row in access,
/// iteration) along Y.
fn closed_form(p: &Pattern2d, v: Variant, f: [usize; 6], ps_ys: &[i64]) -> [i64; 2] {
    let [y0, y1, y2, x0n, x1n, x2n] = f.map(|n| n as i64);
    let (w, l) = (ps_ys[0], ps_ys[1]);
    let ys = &ps_ys[2..];
    let (a, x0) = (l / x0n, l % x0n);
    let split = x2n > 1;
    // (iteration, v1, v2) from the Ys in the variant's order.
    let (i, v1, v2) = match (v, split) {
        (Variant::Shuffled, false) => (ys[1], ys[0], 0),
        (Variant::Shuffled, true) => (ys[2], ys[0], ys[1]),
        (_, false) => (ys[0], ys[1], 0),
        (Variant::Packed, true) => (ys[0], ys[1], ys[2]),
        (Variant::Regular, true) => (ys[0], ys[2], ys[1]),
    };
    let col = x0 * x1n * x2n + v1 * x2n + v2;
    let grouped = p.raking == Raking::Thread && p.num_wave_groups != 1;
    let row = match p.raking {
        // Each group's warps hold the same rows (CK's R = <Y0>).
        Raking::Thread if grouped => a * y2 + i,
        Raking::Thread => w * y1 * y2 + a * y2 + i,
        Raking::Warp => w * y1 * y2 + i * y2 + a,
        Raking::Block => i * y1 * y2 + w * y2 + a,
    };
    let _ = y0;
    if v == Variant::Shuffled { [col, row] } else { [row, col] }
}

/// Every parameter set of the sweep.
fn sweep() -> Vec<Pattern2d> {
    let mut out = Vec::new();
    for raking in Raking::ALL {
        for warp in [32, 64] {
            for block in [32, 64, 128, 192, 256, 512] {
                for y in [1, 2, 4, 8, 12, 16, 32, 64, 128, 256] {
                    for x in [1, 2, 4, 8, 16, 24, 32, 64, 96, 128, 256, 512] {
                        for vec in [1, 2, 3, 4, 8, 16] {
                            for groups in [1, 2, 4] {
                                let p = Pattern2d::new(block, y, x, vec, raking).warp_size(warp).wave_groups(groups);
                                out.push(p);
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

#[test]
fn raked_patterns_accept_what_ck_accepts_with_its_factors() {
    let (mut accepted, mut refused) = (0, 0);
    for p in sweep() {
        match (p.factors(), ck_factors(&p)) {
            (Ok(f), Some(ck)) => {
                assert_eq!([f.y0, f.y1, f.y2, f.x0, f.x1, f.x2], ck, "{p:?}");
                accepted += 1;
            }
            (Err(e), None) => {
                let m = e.to_string();
                assert!(m.starts_with(p.raking.name()), "{p:?}: {m}");
                refused += 1;
            }
            (ours, ck) => panic!("{p:?}: cktile {ours:?}, CK {ck:?}"),
        }
    }
    assert!(accepted > 3000 && refused > 3000, "{accepted} accepted, {refused} refused");
}

#[test]
fn raked_patterns_put_every_element_where_cks_description_says() {
    let mut checked = 0;
    for (n, p) in sweep().into_iter().enumerate() {
        let Some(f) = ck_factors(&p) else { continue };
        // A deterministic sample of the accepted patterns, tiles up to 2^14.
        if n % 7 != 0 || p.y_per_tile * p.x_per_tile > 1 << 14 {
            continue;
        }
        let variants: &[Variant] = if p.raking == Raking::Thread {
            &[Variant::Regular, Variant::Packed, Variant::Shuffled]
        } else {
            &[Variant::Regular, Variant::Shuffled]
        };
        for &v in variants {
            let d = Distribution::new(p.encoding(v).unwrap()).unwrap();
            let mut held: HashMap<[i64; 2], u64> = HashMap::new();
            d.for_each(MAX_ENUMERATED, |ps_ys, xs, _| {
                let want = closed_form(&p, v, f, ps_ys);
                assert_eq!(xs, &want[..], "{p:?} {v:?}: (P, Y) = {ps_ys:?}");
                *held.entry(want).or_default() += 1;
            })
            .unwrap();
            let tile = if v == Variant::Shuffled { [p.x_per_tile, p.y_per_tile] } else { [p.y_per_tile, p.x_per_tile] };
            let tile = tile.map(|n| n as i64);
            let c = Coverage::new(&d, Some(&tile)).unwrap();
            assert_coverage_is_the_count(&c, &tile, &held);
            let grouped = p.raking == Raking::Thread && p.num_wave_groups != 1 && f[0] > 1;
            // Complete, each element once, unless the group's warps share rows.
            assert_eq!(c.is_complete() && c.replication() == 1, !grouped, "{p:?} {v:?}");
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked}");
}

/// `c` says what counting every (P, Y) found: `held` maps each X to its
/// number of (P, Y) indices.
fn assert_coverage_is_the_count(c: &Coverage, tile: &[i64], held: &HashMap<[i64; 2], u64>) {
    let inside = |x: &[i64; 2]| x[0] < tile[0] && x[1] < tile[1];
    let mut missing = Vec::new();
    for r in 0..tile[0] {
        for col in 0..tile[1] {
            if !held.contains_key(&[r, col]) {
                missing.push([r, col]);
            }
        }
    }
    let mut outside: Vec<[i64; 2]> = held.keys().filter(|x| !inside(x)).copied().collect();
    outside.sort();
    assert_eq!(c.elements(), (tile[0] * tile[1]) as u128);
    assert_eq!(c.missing(), missing.len() as u128, "missing");
    assert_eq!(c.first_missing(), missing.first().map(|m| &m[..]), "first missing");
    assert_eq!(c.outside(), outside.len() as u128, "outside");
    assert_eq!(c.first_outside(), outside.first().map(|m| &m[..]), "first outside");
    for (x, &n) in held {
        assert_eq!(n as u128, c.replication(), "{x:?} is held {n} times");
    }
    assert_eq!(c.is_complete(), missing.is_empty() && outside.is_empty());
}

// CK's own tests (test/ck_tile/core: the print test and the packed
// iteration-order test). The print test compares the printed factors with
// the class's constants; the values below are CK's formulas evaluated by
// hand. The packed test's assertions are restated as they are written.
#[test]
fn cks_own_pattern_tests_hold() {
    let cases = [
        (Pattern2d::new(64, 8, 16, 4, Raking::Thread), [1, 8, 1, 8, 2, 1]),
        (Pattern2d::new(128, 16, 32, 8, Raking::Warp), [2, 1, 8, 8, 4, 1]),
        (Pattern2d::new(256, 32, 64, 16, Raking::Block), [1, 4, 8, 8, 8, 1]),
    ];
    for (p, want) in cases {
        let f = p.factors().unwrap();
        assert_eq!([f.y0, f.y1, f.y2, f.x0, f.x1, f.x2], want, "{p:?}");
    }
    // check_packed_iteration_order<XPerTile, NumWaveGroups>: 256 threads, 16 rows, vector 2;
    // X = 256 on wave64 and X = 128 on wave32 (the gfx1100 A tile).
    for (x, warp) in [(256, 64), (128, 32)] {
        for groups in [1, 2] {
            let p = Pattern2d::new(256, 16, x, 2, Raking::Thread).wave_groups(groups).warp_size(warp);
            let x2 = p.factors().unwrap().x2 as i64;
            assert!(x2 > 1);
            let regular = Distribution::new(p.encoding(Variant::Regular).unwrap()).unwrap();
            let packed = Distribution::new(p.encoding(Variant::Packed).unwrap()).unwrap();
            assert_eq!((regular.p_lengths().len(), regular.y_lengths().len()), (2, 3));
            assert_eq!((packed.p_lengths().len(), packed.y_lengths().len()), (2, 3));
            let col = |d: &Distribution, at: [i64; 5]| d.calculate_index(&at).unwrap().get(1);
            let (origin, y1, y2) = ([0, 0, 0, 0, 0], [0, 0, 0, 1, 0], [0, 0, 0, 0, 1]);
            assert_eq!(col(&regular, y1) - col(&regular, origin), 1);
            assert_eq!(col(&regular, y2) - col(&regular, origin), x2);
            assert_eq!(col(&packed, y1) - col(&packed, origin), x2);
            assert_eq!(col(&packed, y2) - col(&packed, origin), 1);
            let d = |at: [i64; 3]| packed.d_index(&at).unwrap();
            assert_eq!(d([0, 1, 0]) - d([0, 0, 0]), x2);
            assert_eq!(d([0, 0, 1]) - d([0, 0, 0]), 1);
        }
    }
}

// Where CK calls the patterns (ops/gemm pipelines and epilogues, fmha,
// conv), with the sizes of its common configurations: each builds, and
// covers its tile exactly once.
#[test]
fn cks_call_sites_cover_their_tiles() {
    let sites = [
        // Universal GEMM A/B DRAM loads, async (warp-raked, 16-byte fp16 vectors).
        Pattern2d::new(256, 128, 32, 8, Raking::Warp),
        Pattern2d::new(256, 256, 64, 8, Raking::Warp),
        Pattern2d::new(256, 128, 64, 16, Raking::Warp),
        // CShuffle epilogue stores (thread- or warp-raked), fp16 C in 8-element vectors.
        Pattern2d::new(256, 32, 128, 8, Raking::Thread),
        Pattern2d::new(256, 64, 64, 8, Raking::Warp),
        // fmha pooling of Q (thread-raked, 8 elements), conv A (warp-raked).
        Pattern2d::new(256, 128, 128, 8, Raking::Thread),
        Pattern2d::new(256, 64, 64, 4, Raking::Warp),
        // The grouped convolution with vector size 1 on a 128 x 128 tile (PR 7528's case).
        Pattern2d::new(256, 128, 128, 1, Raking::Thread),
        Pattern2d::new(256, 128, 128, 1, Raking::Warp),
        // gfx1100 (wave32) A tile.
        Pattern2d::new(256, 16, 128, 2, Raking::Thread).warp_size(32),
    ];
    for p in sites {
        let d = Distribution::new(p.encoding(Variant::Regular).unwrap()).unwrap();
        let c = Coverage::new(&d, Some(&[p.y_per_tile as i64, p.x_per_tile as i64])).unwrap();
        assert!(c.is_complete() && c.replication() == 1, "{p:?}: {}", cktile::render::distribution::coverage(&c));
    }
}

/// CK's thread-raked (and warp-raked) encoding as it was before X2: the
/// X lengths stop at X0 X1 even when the tile is wider.
fn before_the_x2_fix(p: &Pattern2d) -> Encoding {
    let f = p.factors().unwrap();
    let (x0, x1) = (f.x0, f.x1);
    let hs: [&[usize]; 2] = [&[f.y0, f.y1, f.y2], &[x0, x1]];
    match p.raking {
        Raking::Thread => Encoding::new(&[1], &hs, &[&[1], &[1, 2]], &[&[0], &[1, 0]], &[1, 2], &[2, 1]),
        _ => Encoding::new(&[1], &hs, &[&[1], &[1, 2]], &[&[0], &[2, 0]], &[1, 2], &[1, 1]),
    }
    .unwrap()
}

#[test]
fn the_raked_pattern_before_its_fix_is_caught_at_its_first_bad_element() {
    for raking in [Raking::Thread, Raking::Warp] {
        let p = Pattern2d::new(256, 128, 128, 1, raking);
        let old = Distribution::new(before_the_x2_fix(&p)).unwrap();
        let c = Coverage::new(&old, Some(&[128, 128])).unwrap();
        // "About 50 percent wrong values, errors starting exactly at X0 * X1 = 64."
        assert_eq!((c.missing(), c.elements()), (8192, 16384));
        assert_eq!(c.first_missing(), Some(&[0, 64][..]));
        let mut held = HashMap::new();
        old.for_each(MAX_ENUMERATED, |_, xs, _| *held.entry([xs[0], xs[1]]).or_insert(0) += 1).unwrap();
        assert_coverage_is_the_count(&c, &[128, 128], &held);
        // The current pattern covers it.
        let now = Distribution::new(p.encoding(Variant::Regular).unwrap()).unwrap();
        assert!(Coverage::new(&now, Some(&[128, 128])).unwrap().is_complete());
    }
}

// AMD's WMMA lane maps (RDNA3 ISA guide, "Wave Matrix Multiply Accumulate";
// RDNA4 ISA guide, the same section), wave32, 16x16x16 with 16-bit inputs:
// gfx11 A[m][k] sits in lanes m and m + 16 (both halves hold it), element k;
// D[m][n] in lane n + 16 (m % 2), element m / 2. gfx12 A[m][k] in lane
// m + 16 (k / 8), element k % 8; D[m][n] in lane n + 16 (m / 8), element m % 8.
#[test]
fn wmma_operands_match_amds_lane_maps() {
    type Map = fn(i64, i64) -> [i64; 2];
    let cases: [(Rdna, &str, Map); 6] = [
        (Rdna::Gfx11, "a", |l, e| [l % 16, e]),
        (Rdna::Gfx11, "c", |l, e| [2 * e + l / 16, l % 16]),
        (Rdna::Gfx11, "c_transposed", |l, e| [l % 16, 2 * e + l / 16]),
        (Rdna::Gfx12, "a", |l, e| [l % 16, 8 * (l / 16) + e]),
        (Rdna::Gfx12, "c", |l, e| [8 * (l / 16) + e, l % 16]),
        (Rdna::Gfx12, "c_transposed", |l, e| [l % 16, 8 * (l / 16) + e]),
    ];
    for (arch, operand, map) in cases {
        let name = format!("wmma16x16x16_{}_{operand}", arch.name());
        let d = Distribution::new(catalogue::by_name(&name).unwrap()).unwrap();
        assert_eq!(d.p_lengths().as_slice(), &[32], "{name}: wave32");
        let t = Table::new(&d).unwrap();
        let per_lane = d.d_length() as usize;
        let mut held = HashMap::new();
        for i in 0..t.len() {
            let (lane, e) = ((i / per_lane) as i64, t.d(i));
            assert_eq!(t.x(i), &map(lane, e)[..], "{name}: lane {lane}, element {e}");
            *held.entry([t.x(i)[0], t.x(i)[1]]).or_insert(0) += 1;
        }
        let c = Coverage::new(&d, None).unwrap();
        assert_coverage_is_the_count(&c, &[16, 16], &held);
        let replicated = arch == Rdna::Gfx11 && operand == "a";
        assert_eq!(c.replication(), if replicated { 2 } else { 1 }, "{name}");
        if replicated {
            let r = c.replicas()[0];
            assert_eq!((r.r, r.length, r.p, r.stride), (0, 2, 0, 16));
        }
    }
    for arch in Rdna::ALL {
        for &k in arch.ks() {
            assert_eq!(wmma::wmma_b(arch, k).unwrap(), wmma::wmma_a(arch, k).unwrap());
        }
    }
}

// gfx1250 from CK's traits (warp_gemm_attribute_wmma_impl_base_traits.hpp;
// the gfx125_t WmmaTraits of the 16-bit and 8-bit traits files sit on
// WmmaTraitsBase<gfx12_t, ..., K>): kRepeat = 1, kAMLane = 16, kABKLane = 2,
// kAK1PerLane = 8 and kAK0PerLane = K / (8 * 2), i.e. 2 at K = 32 (fp16,
// bf16) and 4 at K = 64 (int8, uint8); kCM0PerLane = 1, kCMLane = 2,
// kCM1PerLane = 8, kCNLane = 16. AWarpDstrEncodingTrait makes K
// (kAK0PerLane, kABKLane, kAK1PerLane) with the lane on (kABKLane, kAMLane)
// and the registers on (kAK0PerLane, kAK1PerLane): lane l, register r hold
// A(l % 16, 16 (r / 8) + 8 (l / 16) + r % 8). C is gfx12's: lane l,
// register i hold C(8 (l / 16) + i, l % 16).
#[test]
fn gfx1250_wmma_operands_follow_cks_traits() {
    type Map = fn(i64, i64) -> [i64; 2];
    let a: Map = |l, r| [l % 16, 16 * (r / 8) + 8 * (l / 16) + r % 8];
    let cases: [(usize, &str, Map, [i64; 2]); 8] = [
        (32, "a", a, [16, 32]),
        (32, "b", a, [16, 32]),
        (32, "c", |l, i| [8 * (l / 16) + i, l % 16], [16, 16]),
        (32, "c_transposed", |l, i| [l % 16, 8 * (l / 16) + i], [16, 16]),
        (64, "a", a, [16, 64]),
        (64, "b", a, [16, 64]),
        (64, "c", |l, i| [8 * (l / 16) + i, l % 16], [16, 16]),
        (64, "c_transposed", |l, i| [l % 16, 8 * (l / 16) + i], [16, 16]),
    ];
    for (k, operand, map, tile) in cases {
        let name = format!("wmma16x16x{k}_gfx1250_{operand}");
        let d = Distribution::new(catalogue::by_name(&name).unwrap()).unwrap();
        assert_eq!(d.p_lengths().as_slice(), &[32], "{name}: wave32");
        // Registers per lane: 16 x K / 32 of A, 8 of C (CK's kAInputSize, kCOutputSize).
        let per_lane = if operand.starts_with('c') { 8 } else { k as i64 / 2 };
        assert_eq!(d.d_length(), per_lane, "{name}: registers");
        let t = Table::new(&d).unwrap();
        let mut held = HashMap::new();
        for i in 0..t.len() {
            let (lane, r) = ((i / per_lane as usize) as i64, t.d(i));
            assert_eq!(t.x(i), &map(lane, r)[..], "{name}: lane {lane}, register {r}");
            *held.entry([t.x(i)[0], t.x(i)[1]]).or_insert(0) += 1;
        }
        // Every element once: no kRepeat on gfx1250.
        let c = Coverage::new(&d, None).unwrap();
        assert_coverage_is_the_count(&c, &tile, &held);
        assert!(c.is_complete() && c.replication() == 1, "{name}");
    }
    // A few lanes and registers, each from the formula above, by hand.
    let at = |name: &str, lane: i64, ys: [i64; 3]| {
        let d = Distribution::new(catalogue::by_name(name).unwrap()).unwrap();
        d.calculate_index(&[lane, ys[0], ys[1], ys[2]]).unwrap().as_slice().to_vec()
    };
    // K = 32, lane 0: row 0, K 0..8 then 16..24; lane 16 the same row, K 8..16 then 24..32.
    assert_eq!(at("wmma16x16x32_gfx1250_a", 0, [0, 0, 0]), [0, 0]);
    assert_eq!(at("wmma16x16x32_gfx1250_a", 0, [0, 1, 0]), [0, 16]);
    assert_eq!(at("wmma16x16x32_gfx1250_a", 16, [0, 0, 7]), [0, 15]);
    assert_eq!(at("wmma16x16x32_gfx1250_a", 31, [0, 1, 7]), [15, 31]);
    // K = 64, lane 21 (row 5, second half-wave), register 8 * 3 + 2: K = 48 + 8 + 2.
    assert_eq!(at("wmma16x16x64_gfx1250_a", 21, [0, 3, 2]), [5, 58]);
    assert_eq!(at("wmma16x16x64_gfx1250_b", 9, [0, 2, 5]), [9, 37]);
    // C: lane 17, register 6: row 8 + 6, column 1, for either K.
    for k in [32, 64] {
        let d = Distribution::new(catalogue::by_name(&format!("wmma16x16x{k}_gfx1250_c")).unwrap()).unwrap();
        assert_eq!(d.calculate_index(&[17, 0, 6]).unwrap().as_slice(), &[14, 1]);
    }
    // gfx1250's C is gfx12's (the same traits, and C does not depend on K).
    assert_eq!(wmma::wmma_c(Rdna::Gfx1250).unwrap(), wmma::wmma_c(Rdna::Gfx12).unwrap());
    assert_eq!(wmma::wmma_c_transposed(Rdna::Gfx1250).unwrap(), wmma::wmma_c_transposed(Rdna::Gfx12).unwrap());
    // No K the generation lacks.
    for (arch, k) in [(Rdna::Gfx1250, 16), (Rdna::Gfx12, 32), (Rdna::Gfx11, 64), (Rdna::Gfx1250, 128)] {
        let e = wmma::wmma_a(arch, k).unwrap_err().to_string();
        assert!(e.contains(&format!("K = {k}")) && e.contains(arch.name()), "{e}");
    }
}

/// A random well-formed encoding: 1-2 X dimensions of 1-3 H components,
/// 0-2 R components, the components dealt to 1-2 Ps and the Ys (every Y
/// an H component, every H longer than 1 dealt to someone).
fn random_encoding(rng: &mut Rng) -> Option<Encoding> {
    let ndim_x = 1 + rng.below(2);
    let hs: Vec<Vec<usize>> = (0..ndim_x).map(|_| (0..1 + rng.below(3)).map(|_| 1 + rng.below(4)).collect()).collect();
    let rs: Vec<usize> = (0..rng.below(3)).map(|_| 1 + rng.below(3)).collect();
    let ndim_p = 1 + rng.below(2);
    let mut ps: Vec<Vec<(usize, usize)>> = vec![Vec::new(); ndim_p];
    let mut ys = Vec::new();
    for (r, _) in rs.iter().enumerate() {
        // An R goes to a P, or (length 1 only, else it replicates nothing anyway) is left out.
        if rng.below(4) != 0 {
            ps[rng.below(ndim_p)].push((0, r));
        }
    }
    for (x, h) in hs.iter().enumerate() {
        for minor in 0..h.len() {
            if rng.below(2) == 0 { ps[rng.below(ndim_p)].push((x + 1, minor)) } else { ys.push((x + 1, minor)) }
        }
    }
    if ys.is_empty() || ps.iter().any(Vec::is_empty) {
        return None;
    }
    for p in &mut ps {
        // Shuffle each P's order.
        for i in (1..p.len()).rev() {
            p.swap(i, rng.below(i + 1));
        }
    }
    let hs_ref: Vec<&[usize]> = hs.iter().map(Vec::as_slice).collect();
    let p_major: Vec<Vec<usize>> = ps.iter().map(|p| p.iter().map(|c| c.0).collect()).collect();
    let p_minor: Vec<Vec<usize>> = ps.iter().map(|p| p.iter().map(|c| c.1).collect()).collect();
    let p_major_ref: Vec<&[usize]> = p_major.iter().map(Vec::as_slice).collect();
    let p_minor_ref: Vec<&[usize]> = p_minor.iter().map(Vec::as_slice).collect();
    let y_major: Vec<usize> = ys.iter().map(|c| c.0).collect();
    let y_minor: Vec<usize> = ys.iter().map(|c| c.1).collect();
    Encoding::new(&rs, &hs_ref, &p_major_ref, &p_minor_ref, &y_major, &y_minor).ok()
}

#[test]
fn coverage_is_what_counting_every_index_finds() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut checked, mut replicated, mut incomplete) = (0, 0, 0);
    while checked < 3000 {
        let Some(e) = random_encoding(&mut rng) else { continue };
        let d = Distribution::new(e).unwrap();
        let x = d.x_lengths();
        // The tile: X's own lengths, or each length moved by -2..=+2 (at least 1).
        let tile: Vec<i64> = (0..x.len())
            .map(|i| if rng.below(3) == 0 { x.get(i) } else { (x.get(i) + rng.below(5) as i64 - 2).max(1) })
            .collect();
        let c = Coverage::new(&d, Some(&tile)).unwrap();
        let mut held: HashMap<Vec<i64>, u128> = HashMap::new();
        let mut by_x: HashMap<Vec<i64>, Vec<Vec<i64>>> = HashMap::new();
        d.for_each(MAX_ENUMERATED, |ps_ys, xs, _| {
            *held.entry(xs.to_vec()).or_default() += 1;
            by_x.entry(xs.to_vec()).or_default().push(ps_ys.to_vec());
        })
        .unwrap();
        // Missing and outside, counted and first in row-major order.
        let mut missing: Vec<Vec<i64>> = Vec::new();
        each_coordinate(&tile, |t| {
            if !held.contains_key(t) {
                missing.push(t.to_vec());
            }
        });
        let mut outside: Vec<Vec<i64>> =
            held.keys().filter(|k| k.iter().zip(&tile).any(|(v, t)| v >= t)).cloned().collect();
        outside.sort();
        assert_eq!(c.missing(), missing.len() as u128, "{e}: tile {tile:?}");
        assert_eq!(c.first_missing(), missing.first().map(Vec::as_slice), "{e}: tile {tile:?}");
        assert_eq!(c.outside(), outside.len() as u128, "{e}: tile {tile:?}");
        assert_eq!(c.first_outside(), outside.first().map(Vec::as_slice), "{e}: tile {tile:?}");
        assert_eq!(c.elements(), tile.iter().product::<i64>() as u128);
        for (x, &n) in &held {
            assert_eq!(n, c.replication(), "{e}: {x:?}");
        }
        // Each replica: moving its P by a multiple of the stride keeps X.
        for r in c.replicas() {
            let p_len = d.p_lengths().get(r.p);
            for owners in by_x.values() {
                for o in owners {
                    let k = (o[r.p] / r.stride) % r.length;
                    let mut moved = o.clone();
                    moved[r.p] = o[r.p] - k * r.stride + ((k + 1) % r.length) * r.stride;
                    assert!(moved[r.p] < p_len);
                    assert!(owners.contains(&moved), "{e}: {o:?} and {moved:?} hold different elements");
                }
            }
        }
        checked += 1;
        replicated += usize::from(c.replication() > 1);
        incomplete += usize::from(!c.is_complete());
    }
    assert!(replicated > 300 && incomplete > 1000, "{replicated} replicated, {incomplete} incomplete");
}

/// Calls `f` with every coordinate below `lengths`, row-major.
fn each_coordinate(lengths: &[i64], mut f: impl FnMut(&[i64])) {
    let mut c = vec![0i64; lengths.len()];
    loop {
        f(&c);
        let mut dim = lengths.len();
        loop {
            if dim == 0 {
                return;
            }
            dim -= 1;
            c[dim] += 1;
            if c[dim] < lengths[dim] {
                break;
            }
            c[dim] = 0;
        }
    }
}

fn cktile(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cktile")).args(args).output().unwrap()
}

#[test]
fn the_cli_reports_coverage_with_exit_codes() {
    let o = cktile(&["distribution", "warp_raked_256x128x32_v8", "--tile", "128,32"]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("\nCoverage of the tile (128,32): every element is held once\n"), "{text}");
    // The pattern's name pastes back: its encoding is CK's.
    let p = Pattern2d::new(256, 128, 32, 8, Raking::Warp);
    assert!(text.starts_with(&p.encoding(Variant::Regular).unwrap().to_string()));

    let o = cktile(&["distribution", "thread_raked_256x16x256_v2_g2", "--tile", "16,256", "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let c = &v["coverage"];
    assert_eq!(c["complete"], false);
    assert_eq!((c["missing"].as_u64(), c["replication"].as_u64()), (Some(2048), Some(2)));
    assert_eq!(c["first_missing"], serde_json::json!([8, 0]));
    assert_eq!(c["replicas"], serde_json::json!([{"length": 2, "p": 0, "r": 0, "stride": 1}]));

    let o = cktile(&["distribution", "wmma16x16x16_gfx11_a"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8(o.stdout).unwrap().contains("is held twice, once per index of R0"));

    for (args, message) in [
        (&["distribution", "mfma16x16x16_a", "--tile", "16"][..], "--tile: the tile has 1 length(s)"),
        (&["distribution", "mfma16x16x16_a", "--tile", "16,0"], "--tile: tile length 1 is 0"),
        (&["distribution", "warp_raked_256x16x30_v4"], "warp_raked: XPerTile = 30; XPerTile must be a multiple of"),
        (&["distribution", "warp_raked_256x16_v4"], "{thread,warp,block}_raked_{BLOCK}x{Y}x{X}_v{VEC}"),
        (&["distribution", "block_raked_256x16x64_v4_packed"], "only thread_raked has a packed distribution"),
        (
            &["distribution", "wmma16x16x16_gfx10_a"],
            "expected one of: wmma16x16x16_{gfx11,gfx12}_X, wmma16x16x32_gfx1250_X",
        ),
        (&["distribution", "wmma16x16x32_gfx12_a"], "wmma16x16x32_gfx1250_X or wmma16x16x64_gfx1250_X with X one of"),
        (&["distribution", "wmma16x16x16_gfx1250_c"], "wmma16x16x64_gfx1250_X with X one of a, b, c, c_transposed"),
        (&["distribution", "wmma16x16x032_gfx1250_a"], "wmma16x16x16_{gfx11,gfx12}_X"),
        (&["distribution", "wmma16x16x64_gfx1250_d"], "wmma16x16x16_{gfx11,gfx12}_X"),
        (&["distribution", "wmma16x16x64_gfx1250"], "wmma16x16x16_{gfx11,gfx12}_X"),
    ] {
        let o = cktile(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(err.contains(message), "{args:?}: {err}");
    }
}

// CK's encoding calculator (TileDistrEncCalc): with its defaults it gives
// the WarpGemm encodings the catalogue holds, term for term where CK's
// comments say so, and the same map otherwise.
#[test]
fn the_mma_calculator_gives_the_warp_gemm_encodings() {
    use cktile::distribution::catalogue::mma::{Calc, MMA_OPS};
    use cktile::lanes::equiv::equivalent;
    let op = |name: &str| MMA_OPS.iter().find(|o| o.name == name).unwrap();
    let same = |a: Encoding, b: Encoding| {
        let v = equivalent(&Distribution::new(a).unwrap(), &Distribution::new(b).unwrap()).unwrap();
        assert!(v.is_same(), "{a}\n{b}\n{v:?}");
    };
    let exact = [
        ("mfma_f32_16x16x16f16", "mfma16x16x16"),
        ("mfma_f32_16x16x32_f16", "mfma16x16x32"),
        ("mfma_f32_32x32x8f16", "mfma32x32x8"),
        ("mfma_f32_32x32x16_bf8_bf8", "mfma32x32x16"),
        ("wmma_f32_16x16x16_f16_w32", "wmma16x16x16_gfx11"),
        ("wmma_f32_16x16x16_f16_w32_gfx12", "wmma16x16x16_gfx12"),
    ];
    // gfx1250: CK's amdgcn_mma gives one K access of kABKPerLane = 16 (32)
    // values; its warp GEMM traits, kAK0PerLane = 2 (4) blocks of 8. The
    // calculator asked for that many accesses gives the warp GEMM's map;
    // at its default it does not (lane 0 would hold K 0..16, not 0..8 and 16..24).
    for (name, entry, accesses) in
        [("wmma_f32_16x16x32_bf16", "wmma16x16x32_gfx1250", 2), ("wmma_i32_16x16x64_iu8", "wmma16x16x64_gfx1250", 4)]
    {
        let by = |s: &str| catalogue::by_name(&format!("{entry}_{s}")).unwrap();
        let split = Calc { num_access_a: accesses, num_access_b: accesses, ..Calc::default() };
        for c_transpose in [false, true] {
            let [a, b, c] = op(name).encodings(&Calc { c_transpose, ..split }).unwrap();
            let (a, b) = if c_transpose { (b, a) } else { (a, b) };
            same(a, by("a"));
            same(b, by("b"));
            same(c, by(if c_transpose { "c_transposed" } else { "c" }));
        }
        let [a, _, _] = op(name).encodings(&Calc::default()).unwrap();
        let v = equivalent(&Distribution::new(a).unwrap(), &Distribution::new(by("a")).unwrap()).unwrap();
        assert!(!v.is_same(), "{name}: {v:?}");
    }
    for (name, entry) in exact {
        let [a, b, c] = op(name).encodings(&Calc::default()).unwrap();
        let by = |s: &str| catalogue::by_name(&format!("{entry}_{s}")).unwrap();
        assert_eq!(a, by("a"), "{name} A");
        assert_eq!(b, by("b"), "{name} B");
        // gfx12's C keeps CK's general R = <1> and H = <M2, M1, M0>: the same map as WarpGemm's.
        if name.ends_with("gfx12") {
            same(c, by("c"))
        } else {
            assert_eq!(c, by("c"), "{name} C")
        }
        let [_, _, ct] = op(name).encodings(&Calc { c_transpose: true, ..Calc::default() }).unwrap();
        same(ct, by("c_transposed"));
    }
}

/// The calculator's settings each instruction is tried with.
fn calcs() -> Vec<cktile::distribution::catalogue::mma::Calc> {
    use cktile::distribution::catalogue::mma::Calc;
    let mut out = Vec::new();
    for c_transpose in [false, true] {
        for k_iter in [1, 2] {
            for (num_access_a, num_access_b) in [(1, 1), (2, 2), (2, 1), (4, 4)] {
                for packed_num_access in [false, true] {
                    for uncompressed_a in [false, true] {
                        for swizzle_factor in [1, 2, 4] {
                            out.push(Calc {
                                c_transpose,
                                swizzle_factor,
                                k_iter,
                                num_access_a,
                                num_access_b,
                                uncompressed_a,
                                packed_num_access,
                            });
                        }
                    }
                }
            }
        }
    }
    out
}

// CK's comments call each "legacy" A/B spelling a PROVABLY IDENTICAL map
// of the general ABWarpDstrEncStridedK, and the C encoding without its
// length-1 R the same as with it, "verified by tracing". Every instruction
// and setting the calculator accepts is checked here by comparing every
// lane and register; CK's own static_asserts (lanes = the wave, registers
// = the vector sizes) are restated too.
#[test]
fn cks_provably_identical_claims_hold_for_every_instruction() {
    use cktile::distribution::catalogue::mma::{MMA_OPS, MmaFamily};
    use cktile::lanes::equiv::{DistributionEquivalence, equivalent};
    let (mut compared, mut refused, mut respelled) = (0, 0, 0);
    for op in MMA_OPS {
        for calc in calcs() {
            let Ok([a, b, c]) = op.encodings(&calc) else {
                refused += 1;
                continue;
            };
            let (ga, gb) = (op.general_ab(&calc, true).unwrap(), op.general_ab(&calc, false).unwrap());
            let (a, b) = if calc.c_transpose { (b, a) } else { (a, b) };
            // The packed form (ABWarpDstrEncContiguousK) is a different map by design: a lane's K accesses
            // are contiguous. Only the legacy forms are claimed identical.
            let packed_a = calc.packed_num_access && op.a_k_num_access.max(calc.num_access_a) > 1;
            let packed_b = calc.packed_num_access && op.b_k_num_access.max(calc.num_access_b) > 1;
            for (name, picked, general, other_map) in
                [("A", a, ga, calc.swizzle_factor > 1 || packed_a), ("B", b, gb, packed_b)]
            {
                let d = Distribution::new(picked).unwrap();
                assert_eq!(d.p_lengths().product(), Some(op.wave_size as i64), "{} {name}: lanes", op.name);
                let sparse_a = name == "A" && op.sparse && !calc.uncompressed_a;
                let (mn, repeat) = if name == "A" { (op.m, op.a_repeat) } else { (op.n, op.b_repeat) };
                let per_lane = mn * op.k * repeat / op.wave_size / if sparse_a { 2 } else { 1 } * calc.k_iter;
                assert_eq!(d.d_length() as usize, per_lane, "{} {name}: registers", op.name);
                let c = Coverage::new(&d, None).unwrap();
                assert!(c.is_complete() && c.replication() == repeat as u128, "{} {name}", op.name);
                if other_map {
                    continue; // a swizzled A permutes M, a packed one K: not respellings of the general form
                }
                let v = equivalent(&d, &Distribution::new(general).unwrap()).unwrap();
                assert!(v.is_same(), "{} {name} {calc:?}:\n{picked}\n{general}\n{v:?}", op.name);
                respelled += usize::from(picked != general);
                compared += 1;
            }
            let dc = Distribution::new(c).unwrap();
            assert_eq!(dc.p_lengths().product(), Some(op.wave_size as i64), "{} C: lanes", op.name);
            assert_eq!(dc.d_length() as usize, op.m * op.n / op.wave_size, "{} C: registers", op.name);
            assert!(Coverage::new(&dc, None).unwrap().is_complete());
            // The C without blocks, with CK's general R = <1> put back.
            let (cm, cn) = if op.family == MmaFamily::Mfma { (op.b_repeat, op.a_repeat) } else { (1, 1) };
            if (cm, cn) == (1, 1) && op.family == MmaFamily::Mfma && !op.sparse && calc.swizzle_factor == 1 {
                let sf = calc.swizzle_factor;
                let m = [op.c_m_num_access / sf, op.m / op.c_m_per_lane, op.c_m_per_lane * sf / op.c_m_num_access];
                let n = [op.n];
                let (mi, ni, hs): (usize, usize, [&[usize]; 2]) =
                    if calc.c_transpose { (2, 1, [&n, &m]) } else { (1, 2, [&m, &n]) };
                let general = Encoding::new(&[1], &hs, &[&[mi, ni]], &[&[1, 0]], &[mi, mi], &[0, 2]).unwrap();
                let v = equivalent(&dc, &Distribution::new(general).unwrap()).unwrap();
                assert!(matches!(v, DistributionEquivalence::Same { .. }), "{} C: {v:?}", op.name);
            }
        }
    }
    assert!(
        compared > 500 && respelled > 200 && refused > 100,
        "{compared} compared, {respelled} respelled, {refused} refused"
    );
}

// Distributions whose Y lengths differ but whose thread buffers do not are
// compared lane by lane and register by register: every verdict against
// the two enumerations (index i of a Table is thread i / D, register i % D).
#[test]
fn register_verdicts_are_what_the_enumerations_say() {
    use cktile::lanes::equiv::{DistributionEquivalence, equivalent};
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut pool: HashMap<(Vec<i64>, Vec<i64>, i64), Vec<Encoding>> = HashMap::new();
    let (mut same, mut differ, mut respelled) = (0, 0, 0);
    let mut made = 0;
    while made < 4000 {
        let Some(e) = random_encoding(&mut rng) else { continue };
        made += 1;
        let d = Distribution::new(e).unwrap();
        let key = (d.x_lengths().as_slice().to_vec(), d.p_lengths().as_slice().to_vec(), d.d_length());
        // A respelling: a length-1 H component on the last X, named by a new Y at a random place.
        let (n_x, (y_major, y_minor)) = (e.ndim_x(), e.y_to_rh());
        let hs: Vec<Vec<usize>> =
            (0..n_x).map(|x| e.hs_lengths(x).as_slice().iter().map(|&v| v as usize).collect()).collect();
        let mut hs2 = hs.clone();
        hs2[n_x - 1].push(1);
        let mut ys: Vec<(usize, usize)> =
            y_major.as_slice().iter().zip(y_minor.as_slice()).map(|(&a, &b)| (a as usize, b as usize)).collect();
        ys.insert(rng.below(ys.len() + 1), (n_x, hs2[n_x - 1].len() - 1));
        let rs: Vec<usize> = e.rs_lengths().as_slice().iter().map(|&v| v as usize).collect();
        let ps: Vec<(Vec<usize>, Vec<usize>)> = (0..e.ndim_p())
            .map(|p| {
                let (ma, mi) = e.p_to_rh(p);
                (
                    ma.as_slice().iter().map(|&v| v as usize).collect(),
                    mi.as_slice().iter().map(|&v| v as usize).collect(),
                )
            })
            .collect();
        let hs_ref: Vec<&[usize]> = hs2.iter().map(Vec::as_slice).collect();
        let pm: Vec<&[usize]> = ps.iter().map(|p| p.0.as_slice()).collect();
        let pn: Vec<&[usize]> = ps.iter().map(|p| p.1.as_slice()).collect();
        let (ym, yn): (Vec<usize>, Vec<usize>) = ys.into_iter().unzip();
        pool.entry(key).or_default().push(e);
        // Refused only past the P + Y capacity.
        let Ok(e2) = Encoding::new(&rs, &hs_ref, &pm, &pn, &ym, &yn) else { continue };
        let v = equivalent(&d, &Distribution::new(e2).unwrap()).unwrap();
        assert!(matches!(v, DistributionEquivalence::SameRegisters { .. }), "{e}\n{e2}\n{v:?}");
        respelled += 1;
    }
    for group in pool.values() {
        for (i, &a) in group.iter().enumerate().take(6) {
            for &b in group.iter().skip(i + 1).take(6) {
                let (da, db) = (Distribution::new(a).unwrap(), Distribution::new(b).unwrap());
                let v = equivalent(&da, &db).unwrap();
                let (ta, tb) = (Table::new(&da).unwrap(), Table::new(&db).unwrap());
                let first = (0..ta.len()).find(|&k| ta.x(k) != tb.x(k));
                let per = da.d_length() as usize;
                match (&v, first) {
                    (DistributionEquivalence::Same { indices }, None) => {
                        assert_eq!(*indices as usize, ta.len());
                        same += 1;
                    }
                    (DistributionEquivalence::SameRegisters { indices, .. }, None) => {
                        assert_ne!(da.y_lengths(), db.y_lengths());
                        assert_eq!(*indices as usize, ta.len());
                        same += 1;
                    }
                    (DistributionEquivalence::Differ { a: xa, b: xb, compared, .. }, Some(k))
                    | (DistributionEquivalence::DifferRegister { a: xa, b: xb, compared, .. }, Some(k)) => {
                        assert_eq!((*compared as usize, xa.as_slice(), xb.as_slice()), (k + 1, ta.x(k), tb.x(k)));
                        if let DistributionEquivalence::DifferRegister { d, .. } = v {
                            assert_eq!(d as usize, k % per);
                        }
                        differ += 1;
                    }
                    _ => panic!("{a}\n{b}\n{v:?}, first difference {first:?}"),
                }
            }
        }
    }
    assert!(respelled > 3000 && same > 50 && differ > 500, "{respelled} respelled, {same} same, {differ} differ");
}

// A tile of any size is answered, never overflowed: the counts saturate.
#[test]
fn huge_tiles_are_answered_without_overflow() {
    let d = Distribution::new(catalogue::mfma_c(16, 16).unwrap()).unwrap();
    let c = Coverage::new(&d, Some(&[i64::MAX, i64::MAX])).unwrap();
    assert_eq!(c.elements(), (i64::MAX as u128) * (i64::MAX as u128));
    assert_eq!(c.missing(), c.elements() - 256);
    assert_eq!(c.first_missing(), Some(&[0, 16][..]));
    assert!(Coverage::new(&d, Some(&[i64::MIN, 1])).unwrap_err().to_string().contains("tile length 0 is"));
}

// Extreme parameters are refused or answered, never panicked on.
#[test]
fn extreme_pattern_parameters_never_panic() {
    let values = [0usize, 1, 3, 32, 64, 1 << 20, 1 << 40, 1 << 62, usize::MAX / 64 * 64, usize::MAX];
    for raking in Raking::ALL {
        for &block in &values {
            for &y in &values {
                for &x in &values {
                    for &vec in &[0usize, 1, 8, 1 << 40, usize::MAX] {
                        for groups in [0usize, 1, 2, usize::MAX] {
                            for warp in [32usize, 64, 0, 48] {
                                let p = Pattern2d::new(block, y, x, vec, raking).wave_groups(groups).warp_size(warp);
                                for v in [Variant::Regular, Variant::Packed, Variant::Shuffled] {
                                    if let Ok(e) = p.encoding(v) {
                                        let _ = Distribution::new(e).map(|d| Coverage::new(&d, Some(&[1, 1])));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    for name in [
        "thread_raked_99999999999999999999x1x1_v1",
        "warp_raked_64x64x64_v18446744073709551615",
        "block_raked_",
        "thread_raked_64x64x64_v8_w99_g0_packed_packed",
    ] {
        assert!(catalogue::by_name(name).is_err(), "{name}");
    }
}

// Any well-formed encoding gets an answer from the transposing-load rules,
// in both directions and for every element size: accepted (and then a
// distribution that builds) or refused, never a panic.
#[test]
fn transpose_rules_answer_any_encoding() {
    use cktile::distribution::catalogue::transpose::{TrElement, Verdict, transpose};
    let mut rng = Rng(0x0dd_ba11);
    let mut answered = 0;
    while answered < 2000 {
        let Some(e) = random_encoding(&mut rng) else { continue };
        for elem in [TrElement::B16, TrElement::B8, TrElement::B4] {
            for reverse in [false, true] {
                if let Ok(Verdict::Accepted { output, .. }) = transpose(&e, elem, reverse) {
                    Distribution::new(output).unwrap();
                }
            }
        }
        answered += 1;
    }
}
