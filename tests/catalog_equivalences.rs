//! Identities between the catalogue's systems, checked on every coordinate:
//! CK Tile's XOR / MLdsLayer blocks are CuTe swizzles of the row-major index;
//! Triton's swizzled and NVMMA encodings are CuTe swizzles too; the SM90 GMMA
//! atoms and the TMA modes are byte-address swizzles, checked for element
//! sizes 1, 2, 4 and 8 against the byte formula and against the chunk
//! descriptions (the CUDA programming guide's TMA swizzle modes: 16-byte
//! chunks XORed by the row within a 128-byte span, `swz_x16 = y16 ^ x16`, and
//! the Blackwell 32- and 64-byte chunk modes); the 8x8 `Swizzle<3,0,3>` table
//! (column `c ^ r`, written out below) and CK Tile's `xor((8,8))` rows. The
//! guide's "CuTe swizzles, TMA modes and Triton encodings" chapter (docs/src/cute-triton.md) draws
//! these encodings.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::layouts::ck::{self, UnmergeOrder};
use cktile::layouts::cute::{self, Gmma, Major, Tma};
use cktile::layouts::{self, triton};
use cktile::{Descriptor, check};
use proptest::prelude::*;

const ORDERS: [UnmergeOrder; 2] = [UnmergeOrder::Fixed2025, UnmergeOrder::Original2024];
const GMMA: [Gmma; 4] = [Gmma::Interleave, Gmma::Sw32, Gmma::Sw64, Gmma::Sw128];
const TMA: [Tma; 6] = [Tma::None, Tma::B32, Tma::B64, Tma::B128, Tma::B128Atom32, Tma::B128Atom64];
const BYTES: [usize; 4] = [1, 2, 4, 8];

/// CuTe `Swizzle<B,M,S>` on an index (S < 0 shifts left), from `swizzle.hpp`:
/// `o ^ shiftr(o & yyy_msk, S)`.
fn swizzle(o: i64, b: u32, m: u32, s: i32) -> i64 {
    let bit_msk = (1i64 << b) - 1;
    let yyy_msk = bit_msk << (m as i32 + s.max(0));
    let y = o & yyy_msk;
    o ^ if s >= 0 { y >> s } else { y << -s }
}

fn log2(v: usize) -> u32 {
    assert!(v.is_power_of_two(), "{v}");
    v.trailing_zeros()
}

/// Asserts two descriptors have the same lengths and element space and the
/// same offset at every coordinate.
fn assert_same_offsets(a: &Descriptor, b: &Descriptor, what: &str) {
    assert_eq!(a.lengths(), b.lengths(), "{what}: lengths");
    assert_eq!(a.element_space_size(), b.element_space_size(), "{what}: element space");
    let n = a.element_size().unwrap() as u64;
    for i in 0..n {
        let c = check::coordinate(a, i);
        assert_eq!(a.calculate_offset(&c), b.calculate_offset(&c), "{what}: offset at {c:?}");
    }
}

/// Asserts `d` is a rows x cols tile with offset `f(r, c)` everywhere.
fn assert_2d(d: &Descriptor, rows: usize, cols: usize, what: &str, f: impl Fn(i64, i64) -> i64) {
    assert_eq!(d.lengths().as_slice(), &[rows as i64, cols as i64], "{what}: lengths");
    for r in 0..rows as i64 {
        for c in 0..cols as i64 {
            assert_eq!(d.calculate_offset(&[r, c]), f(r, c), "{what}: offset at ({r}, {c})");
        }
    }
}

// ---------------------------------------------------------------------------
// CK Tile's XOR blocks are CuTe swizzles
// ---------------------------------------------------------------------------

/// Reference section 7: CK A LDS, M=128, K=64, KPack=8, fp16 is
/// `Swizzle<3,3,3> o (128,64):(64,1)`, in both CK versions (MLdsLayer 1).
#[test]
fn ck_a_lds_k64_is_swizzle_333() {
    let sw = cute::swizzled_tile(3, 3, 3, 128, 64, Major::Row).unwrap();
    assert_2d(&sw, 128, 64, "Swizzle<3,3,3>", |m, k| 64 * m + 8 * ((k / 8) ^ (m % 8)) + k % 8);
    for order in ORDERS {
        let ck = ck::universal_a(128, 64, 8, 2, 32, order).unwrap();
        assert_same_offsets(&ck, &sw, &format!("CK {order:?} K=64 KPack=8 vs Swizzle<3,3,3>"));
        let resolved = layouts::resolve("cute-swizzle:b=3,mbase=3,s=3,rows=128,cols=64").unwrap();
        assert_same_offsets(&ck, &resolved, "CK vs resolved cute-swizzle");
    }
    // The plain XOR preshuffle of the CK docs is the same layout.
    let pre = ck::xor_preshuffle(128, 64, 8).unwrap();
    assert_same_offsets(&pre, &ck::universal_a(128, 64, 8, 2, 32, UnmergeOrder::Fixed2025).unwrap(), "preshuffle");
}

/// Reference section 7: with KPack = 16 it is `Swizzle<2,4,2>`.
#[test]
fn ck_a_lds_k64_kpack16_is_swizzle_242() {
    let sw = cute::swizzled_tile(2, 4, 2, 128, 64, Major::Row).unwrap();
    assert_2d(&sw, 128, 64, "Swizzle<2,4,2>", |m, k| 64 * m + 16 * ((k / 16) ^ (m % 4)) + k % 16);
    for order in ORDERS {
        let ck = ck::universal_a(128, 64, 16, 2, 32, order).unwrap();
        assert_same_offsets(&ck, &sw, &format!("CK {order:?} K=64 KPack=16 vs Swizzle<2,4,2>"));
    }
}

/// Other element sizes: fp8 K=128 KPack=16 is `Swizzle<3,4,3>` (the SM90
/// 128-byte swizzle on bytes); fp32 K=32 KPack=4 is `Swizzle<3,2,3>` (CuTe's
/// SM80 tf32 atom); fp16 K=32 (MLdsLayer 2, 2025 form) is `Swizzle<3,3,3>`
/// over a 32-wide tile.
#[test]
fn ck_a_lds_other_types_are_swizzles() {
    let fp8 = ck::universal_a(128, 128, 16, 1, 32, UnmergeOrder::Fixed2025).unwrap();
    assert_same_offsets(&fp8, &cute::swizzled_tile(3, 4, 3, 128, 128, Major::Row).unwrap(), "fp8");
    let fp32 = ck::universal_a(128, 32, 4, 4, 32, UnmergeOrder::Fixed2025).unwrap();
    assert_same_offsets(&fp32, &cute::swizzled_tile(3, 2, 3, 128, 32, Major::Row).unwrap(), "fp32");
    let k32 = ck::universal_a(128, 32, 8, 2, 32, UnmergeOrder::Fixed2025).unwrap();
    assert_same_offsets(&k32, &cute::swizzled_tile(3, 3, 3, 128, 32, Major::Row).unwrap(), "fp16 K=32");
    // The 2024 form with MLdsLayer 2 is not that swizzle (PR #2007 changed it).
    let old = ck::universal_a(128, 32, 8, 2, 32, UnmergeOrder::Original2024).unwrap();
    assert_ne!(old.calculate_offset(&[1, 0]), k32.calculate_offset(&[1, 0]));
    // The first 8 rows of the fp16 K=64 block are the SM90 SW128 K-major atom.
    let rows8 = ck::universal_a(8, 64, 8, 2, 32, UnmergeOrder::Fixed2025).unwrap();
    assert_same_offsets(&rows8, &cute::gmma_atom(Gmma::Sw128, Major::Row, 2).unwrap(), "CK 8 rows vs GMMA SW128");
}

/// In general the 2025 form is `Swizzle<log2(K0*L), log2 KPack, log2(K0*L)>`
/// on the row-major index (the 2024 form is too, when L = 1).
#[test]
fn ck_2025_form_is_a_swizzle_of_the_row_major_index() {
    let mut checked = 0;
    for m in [8usize, 16, 32, 64] {
        for k in [8usize, 16, 32, 64] {
            for kpack in [1usize, 2, 4, 8] {
                for l in [1usize, 2, 4, 8] {
                    if kpack > k || m % l != 0 {
                        continue;
                    }
                    let bits = log2(k / kpack * l);
                    let sw = cute::swizzled_tile(bits, log2(kpack), bits as i32, m, k, Major::Row).unwrap();
                    let what = format!("M={m} K={k} KPack={kpack} L={l}");
                    let new = ck::xor_lds(m, k, kpack, l, UnmergeOrder::Fixed2025).unwrap();
                    assert_same_offsets(&new, &sw, &what);
                    if l == 1 {
                        let old = ck::xor_lds(m, k, kpack, l, UnmergeOrder::Original2024).unwrap();
                        assert_same_offsets(&old, &sw, &what);
                        // ... and the plain preshuffle.
                        assert_same_offsets(&ck::xor_preshuffle(m, k, kpack).unwrap(), &sw, &what);
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 150, "{checked}");
}

// ---------------------------------------------------------------------------
// The 8x8 Swizzle<3,0,3> table and CK Tile's xor((8,8)) rows
// ---------------------------------------------------------------------------

/// `Swizzle<3,0,3>` on 8x8, as tabulated (physical column of each logical
/// (row, column)): column `c ^ r`.
const SWIZZLE_303_TABLE: [[i64; 8]; 8] = [
    [0, 1, 2, 3, 4, 5, 6, 7],
    [1, 0, 3, 2, 5, 4, 7, 6],
    [2, 3, 0, 1, 6, 7, 4, 5],
    [3, 2, 1, 0, 7, 6, 5, 4],
    [4, 5, 6, 7, 0, 1, 2, 3],
    [5, 4, 7, 6, 1, 0, 3, 2],
    [6, 7, 4, 5, 2, 3, 0, 1],
    [7, 6, 5, 4, 3, 2, 1, 0],
];

#[test]
fn swizzle_303_is_the_tabulated_table() {
    let sw = cute::swizzled_tile(3, 0, 3, 8, 8, Major::Row).unwrap();
    assert_2d(&sw, 8, 8, "Swizzle<3,0,3>", |r, c| 8 * r + SWIZZLE_303_TABLE[r as usize][c as usize]);
    assert_2d(&sw, 8, 8, "Swizzle<3,0,3>", |r, c| 8 * r + (c ^ r));
    // Every row and every column of the table is a permutation (the article's argument).
    for (i, table_row) in SWIZZLE_303_TABLE.iter().enumerate() {
        let mut row: Vec<i64> = table_row.to_vec();
        let mut col: Vec<i64> = SWIZZLE_303_TABLE.iter().map(|r| r[i]).collect();
        row.sort_unstable();
        col.sort_unstable();
        assert_eq!(row, (0..8).collect::<Vec<_>>());
        assert_eq!(col, (0..8).collect::<Vec<_>>());
    }
    // The same table from CK's xor, Triton's encoding and the registry.
    let ck = ck::xor_preshuffle(8, 8, 1).unwrap();
    assert_same_offsets(&ck, &sw, "CK xor((8,8))");
    let tr = triton::swizzled_shared(1, 1, 8, true, 8, 8).unwrap();
    assert_same_offsets(&tr, &sw, "Triton vec=1 maxPhase=8");
    let reg = layouts::resolve("cute-swizzle:b=3,mbase=0,s=3,rows=8,cols=8").unwrap();
    assert_same_offsets(&reg, &sw, "registry");
    // Reference section 7: CK Tile's own xor((8,8)) rows 0..3 on a packed 8x8.
    let rows: [[i64; 8]; 4] = [
        [0, 1, 2, 3, 4, 5, 6, 7],
        [9, 8, 11, 10, 13, 12, 15, 14],
        [18, 19, 16, 17, 22, 23, 20, 21],
        [27, 26, 25, 24, 31, 30, 29, 28],
    ];
    for (r, row) in rows.iter().enumerate() {
        for (c, &o) in row.iter().enumerate() {
            assert_eq!(ck.calculate_offset(&[r as i64, c as i64]), o, "({r},{c})");
        }
    }
    // xor((8,4)) on packed 8x4: row 1 is 5 4 7 6.
    let ck84 = ck::xor_preshuffle(8, 4, 1).unwrap();
    assert_eq!((0..4).map(|c| ck84.calculate_offset(&[1, c])).collect::<Vec<_>>(), [5, 4, 7, 6]);
}

// ---------------------------------------------------------------------------
// Triton
// ---------------------------------------------------------------------------

/// `swizzled_shared(vec=8, perPhase=1, maxPhase=8)` on 64x64 fp16 =
/// `nvmma_shared(128B, 16 bits)` = `Swizzle<3,3,3> o (64,64):(64,1)`.
#[test]
fn triton_swizzled_equals_nvmma_equals_cute() {
    let sw = triton::swizzled_shared(8, 1, 8, true, 64, 64).unwrap();
    let nv = triton::nvmma_shared(128, 16, false, 64).unwrap();
    let cu = cute::swizzled_tile(3, 3, 3, 64, 64, Major::Row).unwrap();
    assert_same_offsets(&sw, &nv, "Triton swizzled vs nvmma");
    assert_same_offsets(&sw, &cu, "Triton swizzled vs Swizzle<3,3,3>");
    assert_same_offsets(&nv, &cu, "nvmma vs Swizzle<3,3,3>");
    // ... and CK's fp16 K=64 block on its first 64 rows.
    let ck = ck::universal_a(64, 64, 8, 2, 32, UnmergeOrder::Fixed2025).unwrap();
    assert_same_offsets(&ck, &cu, "CK vs Swizzle<3,3,3>");
    // The registry's example spells the same layout.
    let ex = layouts::resolve("triton-swizzled:vec=8,perphase=1,maxphase=8,order=10,rows=64,cols=64").unwrap();
    assert_same_offsets(&ex, &cu, "triton-swizzled example");
}

/// With power-of-two parameters, Triton's swizzled encoding is
/// `Swizzle<log2 maxPhase, log2 vec, log2(contiguous length / vec) + log2 perPhase>`
/// on the row-major (order [1,0]) or column-major (order [0,1]) index.
#[test]
fn triton_swizzled_is_a_cute_swizzle() {
    let mut checked = 0;
    for v in 0..=3u32 {
        for p in 0..=2u32 {
            for b in 0..=3u32 {
                for inner_log in (v + b)..=6 {
                    for cycles in [1usize, 2] {
                        for row_major in [true, false] {
                            let (vec, pp, mp) = (1usize << v, 1usize << p, 1usize << b);
                            let inner = 1usize << inner_log;
                            let outer = pp * mp * cycles;
                            let s = (inner_log - v + p) as i32;
                            let (rows, cols, major) =
                                if row_major { (outer, inner, Major::Row) } else { (inner, outer, Major::Column) };
                            let tr = triton::swizzled_shared(vec, pp, mp, row_major, rows, cols).unwrap();
                            let cu = cute::swizzled_tile(b, v, s, rows, cols, major).unwrap();
                            let what = format!("vec={vec} pp={pp} mp={mp} rm={row_major} {rows}x{cols}");
                            assert_same_offsets(&tr, &cu, &what);
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(checked >= 200, "{checked}");
}

/// NVMMA is CuTe's `Swizzle<log2 maxPhase, 4, 3>` on byte addresses, for
/// every swizzle width and element width, in both orientations.
#[test]
fn triton_nvmma_byte_swizzle() {
    for swizzle_bytes in [0usize, 32, 64, 128] {
        let width = if swizzle_bytes == 0 { 128 } else { swizzle_bytes };
        let b = if swizzle_bytes == 0 { 0 } else { log2(swizzle_bytes / 16) };
        for bits in [8usize, 16, 32, 64] {
            let e = (bits / 8) as i64;
            let inner = width * 8 / bits;
            for transposed in [false, true] {
                for strided in [8usize, 16] {
                    let d = triton::nvmma_shared(swizzle_bytes, bits, transposed, strided).unwrap();
                    let what = format!("nvmma sw={swizzle_bytes} bits={bits} t={transposed}");
                    let w = width as i64;
                    if transposed {
                        assert_2d(&d, inner, strided, &what, |r, c| swizzle(c * w + r * e, b, 4, 3) / e);
                    } else {
                        assert_2d(&d, strided, inner, &what, |r, c| swizzle(r * w + c * e, b, 4, 3) / e);
                    }
                    // The swizzled ones are the GMMA atoms (K-major / MN-major) on their first 8 rows.
                    let kind = match swizzle_bytes {
                        32 => Gmma::Sw32,
                        64 => Gmma::Sw64,
                        128 => Gmma::Sw128,
                        _ => continue,
                    };
                    if strided == 8 {
                        let major = if transposed { Major::Column } else { Major::Row };
                        let g = cute::gmma_atom(kind, major, bits / 8).unwrap();
                        assert_same_offsets(&d, &g, &format!("{what} vs GMMA {kind:?}"));
                    }
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Tall NVMMA tiles: the byte formula at sampled coordinates.
    #[test]
    fn triton_nvmma_tall_sampled(
        sw in prop::sample::select(vec![0usize, 32, 64, 128]), bits in prop::sample::select(vec![8usize, 16, 32, 64]),
        transposed in any::<bool>(), strided_8 in 1usize..=64,
        samples in prop::collection::vec((any::<u32>(), any::<u32>()), 32),
    ) {
        let strided = 8 * strided_8;
        let d = triton::nvmma_shared(sw, bits, transposed, strided).unwrap();
        let width = (if sw == 0 { 128 } else { sw }) as i64;
        let b = if sw == 0 { 0 } else { log2(sw / 16) };
        let e = (bits / 8) as i64;
        let inner = width * 8 / bits as i64;
        for (x, y) in samples {
            let (s, i) = ((x as usize % strided) as i64, y as i64 % inner);
            let (coord, byte) = if transposed { ([i, s], s * width + i * e) } else { ([s, i], s * width + i * e) };
            prop_assert_eq!(d.calculate_offset(&coord) * e, swizzle(byte, b, 4, 3));
        }
    }
}

// ---------------------------------------------------------------------------
// SM90 GMMA atoms: byte-address swizzles
// ---------------------------------------------------------------------------

#[test]
fn gmma_kind_constants() {
    let table = [(Gmma::Interleave, 0, 16), (Gmma::Sw32, 1, 32), (Gmma::Sw64, 2, 64), (Gmma::Sw128, 3, 128)];
    for (kind, bits, row_bytes) in table {
        assert_eq!((kind.bits(), kind.row_bytes()), (bits, row_bytes), "{kind:?}");
    }
}

/// Element `(mn, k)` of the atom: K-major rows of `row_bytes` (byte address
/// `mn*R + k*e`), MN-major columns of `row_bytes` (`k*R + mn*e`); the stored
/// byte address is `Swizzle<B,4,3>` of that.
#[test]
fn gmma_atoms_are_byte_swizzles() {
    for kind in GMMA {
        let big_r = kind.row_bytes() as i64;
        for major in [Major::Row, Major::Column] {
            let bytes1 = cute::gmma_atom(kind, major, 1).unwrap();
            for e in BYTES {
                let d = cute::gmma_atom(kind, major, e).unwrap();
                let what = format!("gmma {kind:?} {major:?} {e}B");
                let e = e as i64;
                let per_row = big_r / e;
                let (rows, cols) = match major {
                    Major::Row => (8, per_row),
                    Major::Column => (per_row, 8),
                };
                assert_eq!(d.lengths().as_slice(), &[rows, cols], "{what}");
                for r in 0..rows {
                    for c in 0..cols {
                        let a = match major {
                            Major::Row => r * big_r + c * e,
                            Major::Column => c * big_r + r * e,
                        };
                        let stored = d.calculate_offset(&[r, c]) * e;
                        assert_eq!(stored, swizzle(a, kind.bits(), 4, 3), "{what}: ({r},{c}) byte {a}");
                        // The same byte as the 1-byte atom stores it: the swizzle is on bytes.
                        let one = match major {
                            Major::Row => [r, c * e],
                            Major::Column => [r * e, c],
                        };
                        assert_eq!(bytes1.calculate_offset(&one), stored, "{what}: vs the byte atom");
                    }
                }
            }
        }
    }
    // CuTe's SM80 element-index atoms are the GMMA atoms' upcasts.
    let g = cute::gmma_atom(Gmma::Sw128, Major::Row, 2).unwrap();
    assert_same_offsets(&g, &cute::swizzled_tile(3, 3, 3, 8, 64, Major::Row).unwrap(), "fp16 K-major");
    let g = cute::gmma_atom(Gmma::Sw128, Major::Column, 2).unwrap();
    assert_same_offsets(&g, &cute::swizzled_tile(3, 3, 3, 64, 8, Major::Column).unwrap(), "fp16 M-major");
    let g = cute::gmma_atom(Gmma::Sw64, Major::Row, 2).unwrap();
    assert_same_offsets(&g, &cute::swizzled_tile(2, 3, 3, 8, 32, Major::Row).unwrap(), "fp16 32 wide");
    let g = cute::gmma_atom(Gmma::Sw128, Major::Row, 4).unwrap();
    assert_same_offsets(&g, &cute::swizzled_tile(3, 2, 3, 8, 32, Major::Row).unwrap(), "tf32");
}

// ---------------------------------------------------------------------------
// TMA swizzle modes
// ---------------------------------------------------------------------------

#[test]
fn tma_mode_constants() {
    let table = [
        (Tma::None, (0, 4, 3), 16),
        (Tma::B32, (1, 4, 3), 32),
        (Tma::B64, (2, 4, 3), 64),
        (Tma::B128, (3, 4, 3), 128),
        (Tma::B128Atom32, (2, 5, 2), 128),
        (Tma::B128Atom64, (1, 6, 1), 128),
    ];
    for (mode, bms, row_bytes) in table {
        assert_eq!(mode.swizzle(), bms, "{mode:?}");
        assert_eq!(mode.row_bytes(), row_bytes, "{mode:?}");
    }
    assert_eq!(Tma::None.alignment(), 128);
    assert_eq!(Tma::B32.alignment(), 256);
    assert_eq!(Tma::B64.alignment(), 512);
    assert_eq!(Tma::B128.alignment(), 1024);
    // The Blackwell modes: the swizzle's repeat 2^(M+B+S).
    assert_eq!(Tma::B128Atom32.alignment(), 512);
    assert_eq!(Tma::B128Atom64.alignment(), 256);
}

/// Element `(r, c)` of a row-major box with `R`-byte rows is at byte
/// `a = (r*R/e + c)*e`; the stored byte is `Swizzle<B,M,S>(a)`.
#[test]
fn tma_boxes_are_byte_swizzles() {
    for mode in TMA {
        let (b, m, s) = mode.swizzle();
        let big_r = mode.row_bytes() as i64;
        for e in BYTES {
            for rows in [8usize, 16] {
                let d = cute::tma_box(mode, rows, e).unwrap();
                let what = format!("tma {mode:?} {e}B rows={rows}");
                let e = e as i64;
                assert_2d(&d, rows, (big_r / e) as usize, &what, |r, c| {
                    let a = (r * big_r / e + c) * e;
                    let expected = swizzle(a, b, m, s);
                    assert_eq!(expected % e, 0, "{what}: whole elements");
                    expected / e
                });
            }
        }
    }
}

/// The chunk descriptions, independent of CuTe's (B, M, S): 128B swizzles
/// 16-byte chunks within a 128-byte row by the row (the CUDA programming
/// guide's formula `swz_x16 = y16 ^ x16`), 64B and 32B likewise within 64- and 32-byte
/// rows by `row / (128 / R)`, the Blackwell modes swap 32-byte chunks by
/// `row % 4` and 64-byte chunks on odd rows.
#[test]
fn tma_chunk_descriptions() {
    for e in BYTES {
        let ei = e as i64;
        for rows in [8usize, 16] {
            // The programming guide's formula for 128B: i16 = (y*NX + x)*sizeof(T)/16, y16 = i16/8, x16 = i16%8,
            // swz_x = (y16 ^ x16)*16/sizeof(T) % NX + x % (16/sizeof(T)).
            let nx = 128 / ei;
            let d = cute::tma_box(Tma::B128, rows, e).unwrap();
            assert_2d(&d, rows, nx as usize, "guide 128B", |y, x| {
                let i16 = (y * nx + x) * ei / 16;
                let (y16, x16) = (i16 / 8, i16 % 8);
                let swz_x = ((y16 ^ x16) * 16 / ei) % nx + x % (16 / ei);
                y * nx + swz_x
            });
            for (mode, row_bytes) in [(Tma::B64, 64i64), (Tma::B32, 32)] {
                let d = cute::tma_box(mode, rows, e).unwrap();
                let chunks = row_bytes / 16;
                let per = 128 / row_bytes; // rows per 128-byte line
                assert_2d(&d, rows, (row_bytes / ei) as usize, &format!("{mode:?}"), |r, c| {
                    let byte = c * ei;
                    let chunk = (byte / 16) ^ ((r / per) % chunks);
                    (r * row_bytes + chunk * 16 + byte % 16) / ei
                });
            }
            let d = cute::tma_box(Tma::None, rows, e).unwrap();
            assert_2d(&d, rows, 16 / e, "NONE", |r, c| r * (16 / ei) + c);
            let d = cute::tma_box(Tma::B128Atom32, rows, e).unwrap();
            assert_2d(&d, rows, 128 / e, "128B_ATOM_32B", |r, c| {
                let byte = c * ei;
                (r * 128 + ((byte / 32) ^ (r % 4)) * 32 + byte % 32) / ei
            });
            let d = cute::tma_box(Tma::B128Atom64, rows, e).unwrap();
            assert_2d(&d, rows, 128 / e, "128B_ATOM_64B", |r, c| {
                let byte = c * ei;
                (r * 128 + ((byte / 64) ^ (r % 2)) * 64 + byte % 64) / ei
            });
        }
    }
}

/// GMMA atoms and TMA boxes of the same swizzle are the same 8-row layout,
/// and the registry spells them the same way.
#[test]
fn tma_equals_gmma_k_major() {
    for (mode, kind, name) in [
        (Tma::None, Gmma::Interleave, "none"),
        (Tma::B32, Gmma::Sw32, "32b"),
        (Tma::B64, Gmma::Sw64, "64b"),
        (Tma::B128, Gmma::Sw128, "128b"),
    ] {
        assert_eq!(mode.swizzle(), (kind.bits(), 4, 3));
        assert_eq!(mode.row_bytes(), kind.row_bytes());
        for (e, dtype) in [(1, "fp8"), (2, "fp16"), (4, "fp32"), (8, "fp64")] {
            let t = cute::tma_box(mode, 8, e).unwrap();
            let g = cute::gmma_atom(kind, Major::Row, e).unwrap();
            assert_same_offsets(&t, &g, &format!("{mode:?} vs {kind:?} {e}B"));
            let via_registry = layouts::resolve(&format!("cute-tma:mode={name},rows=8,dtype={dtype}")).unwrap();
            assert_eq!(via_registry, t);
        }
    }
}
