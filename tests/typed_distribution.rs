//! Typed tile distributions (`tile_distribution_encoding!`,
//! `make_static_tile_distribution`) against the runtime ones: for every
//! catalogue distribution declared below (the catalogue's encodings, their
//! lists written out), the typed encoding is the catalogue's, its
//! `ps_ys_to_xs` adaptor and `ys_to_d` descriptor are the runtime
//! distribution's field for field, and at every (P..., Y...) index the typed
//! evaluation gives the runtime X and D; two lane maps are also checked
//! against their closed forms.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::distribution::{Distribution, Encoding, catalogue as c};
use cktile::prelude::*;
use cktile::typed::{AdaptorChain, Chain};

cktile::tile_distribution_encoding! {
    /// `mfma16x16x16_a`
    struct Mfma16x16x16A { rs_lengths: [], hs_lengthss: [[16], [4, 4]], ps_to_rhss_major: [[2, 1]], ps_to_rhss_minor: [[0, 0]], ys_to_rhs_major: [2], ys_to_rhs_minor: [1] }
}

cktile::tile_distribution_encoding! {
    /// `mfma16x16x16_b`
    struct Mfma16x16x16B { rs_lengths: [], hs_lengthss: [[16], [4, 4]], ps_to_rhss_major: [[2, 1]], ps_to_rhss_minor: [[0, 0]], ys_to_rhs_major: [2], ys_to_rhs_minor: [1] }
}

cktile::tile_distribution_encoding! {
    /// `mfma16x16x16_c`
    struct Mfma16x16x16C { rs_lengths: [], hs_lengthss: [[1, 4, 4], [16]], ps_to_rhss_major: [[1, 2]], ps_to_rhss_minor: [[1, 0]], ys_to_rhs_major: [1, 1], ys_to_rhs_minor: [0, 2] }
}

cktile::tile_distribution_encoding! {
    /// `mfma16x16x16_c_transposed`
    struct Mfma16x16x16CTransposed { rs_lengths: [], hs_lengthss: [[16], [1, 4, 4]], ps_to_rhss_major: [[2, 1]], ps_to_rhss_minor: [[1, 0]], ys_to_rhs_major: [2, 2], ys_to_rhs_minor: [0, 2] }
}

cktile::tile_distribution_encoding! {
    /// `mfma16x16x32_a`
    struct Mfma16x16x32A { rs_lengths: [], hs_lengthss: [[16], [4, 8]], ps_to_rhss_major: [[2, 1]], ps_to_rhss_minor: [[0, 0]], ys_to_rhs_major: [2], ys_to_rhs_minor: [1] }
}

cktile::tile_distribution_encoding! {
    /// `mfma16x16x32_b`
    struct Mfma16x16x32B { rs_lengths: [], hs_lengthss: [[16], [4, 8]], ps_to_rhss_major: [[2, 1]], ps_to_rhss_minor: [[0, 0]], ys_to_rhs_major: [2], ys_to_rhs_minor: [1] }
}

cktile::tile_distribution_encoding! {
    /// `mfma16x16x32_c`
    struct Mfma16x16x32C { rs_lengths: [], hs_lengthss: [[1, 4, 4], [16]], ps_to_rhss_major: [[1, 2]], ps_to_rhss_minor: [[1, 0]], ys_to_rhs_major: [1, 1], ys_to_rhs_minor: [0, 2] }
}

cktile::tile_distribution_encoding! {
    /// `mfma16x16x32_c_transposed`
    struct Mfma16x16x32CTransposed { rs_lengths: [], hs_lengthss: [[16], [1, 4, 4]], ps_to_rhss_major: [[2, 1]], ps_to_rhss_minor: [[1, 0]], ys_to_rhs_major: [2, 2], ys_to_rhs_minor: [0, 2] }
}

cktile::tile_distribution_encoding! {
    /// `mfma32x32x8_a`
    struct Mfma32x32x8A { rs_lengths: [], hs_lengthss: [[32], [2, 4]], ps_to_rhss_major: [[2, 1]], ps_to_rhss_minor: [[0, 0]], ys_to_rhs_major: [2], ys_to_rhs_minor: [1] }
}

cktile::tile_distribution_encoding! {
    /// `mfma32x32x8_b`
    struct Mfma32x32x8B { rs_lengths: [], hs_lengthss: [[32], [2, 4]], ps_to_rhss_major: [[2, 1]], ps_to_rhss_minor: [[0, 0]], ys_to_rhs_major: [2], ys_to_rhs_minor: [1] }
}

cktile::tile_distribution_encoding! {
    /// `mfma32x32x8_c`
    struct Mfma32x32x8C { rs_lengths: [], hs_lengthss: [[4, 2, 4], [32]], ps_to_rhss_major: [[1, 2]], ps_to_rhss_minor: [[1, 0]], ys_to_rhs_major: [1, 1], ys_to_rhs_minor: [0, 2] }
}

cktile::tile_distribution_encoding! {
    /// `mfma32x32x8_c_transposed`
    struct Mfma32x32x8CTransposed { rs_lengths: [], hs_lengthss: [[32], [4, 2, 4]], ps_to_rhss_major: [[2, 1]], ps_to_rhss_minor: [[1, 0]], ys_to_rhs_major: [2, 2], ys_to_rhs_minor: [0, 2] }
}

cktile::tile_distribution_encoding! {
    /// `mfma32x32x16_a`
    struct Mfma32x32x16A { rs_lengths: [], hs_lengthss: [[32], [2, 8]], ps_to_rhss_major: [[2, 1]], ps_to_rhss_minor: [[0, 0]], ys_to_rhs_major: [2], ys_to_rhs_minor: [1] }
}

cktile::tile_distribution_encoding! {
    /// `mfma32x32x16_b`
    struct Mfma32x32x16B { rs_lengths: [], hs_lengthss: [[32], [2, 8]], ps_to_rhss_major: [[2, 1]], ps_to_rhss_minor: [[0, 0]], ys_to_rhs_major: [2], ys_to_rhs_minor: [1] }
}

cktile::tile_distribution_encoding! {
    /// `mfma32x32x16_c`
    struct Mfma32x32x16C { rs_lengths: [], hs_lengthss: [[4, 2, 4], [32]], ps_to_rhss_major: [[1, 2]], ps_to_rhss_minor: [[1, 0]], ys_to_rhs_major: [1, 1], ys_to_rhs_minor: [0, 2] }
}

cktile::tile_distribution_encoding! {
    /// `mfma32x32x16_c_transposed`
    struct Mfma32x32x16CTransposed { rs_lengths: [], hs_lengthss: [[32], [4, 2, 4]], ps_to_rhss_major: [[2, 1]], ps_to_rhss_minor: [[1, 0]], ys_to_rhs_major: [2, 2], ys_to_rhs_minor: [0, 2] }
}

cktile::tile_distribution_encoding! {
    /// `mfma32x32x16_b_swizzled`
    struct Mfma32x32x16BSwizzled { rs_lengths: [], hs_lengthss: [[2, 2, 2, 4], [2, 8]], ps_to_rhss_major: [[2, 1, 1, 1, 1]], ps_to_rhss_minor: [[0, 0, 2, 1, 3]], ys_to_rhs_major: [2], ys_to_rhs_minor: [1] }
}

cktile::tile_distribution_encoding! {
    /// `mfma32x32x16_c_swizzled`
    struct Mfma32x32x16CSwizzled { rs_lengths: [], hs_lengthss: [[32], [2, 2, 8]], ps_to_rhss_major: [[2, 1]], ps_to_rhss_minor: [[1, 0]], ys_to_rhs_major: [2, 2], ys_to_rhs_minor: [0, 2] }
}

cktile::tile_distribution_encoding! {
    /// `gemm_dram(256, 128, 32, 8)`
    struct GemmDram256128328 { rs_lengths: [1], hs_lengthss: [[2, 4, 16], [4, 8]], ps_to_rhss_major: [[1], [1, 2]], ps_to_rhss_minor: [[1], [2, 0]], ys_to_rhs_major: [1, 2], ys_to_rhs_minor: [0, 1] }
}

cktile::tile_distribution_encoding! {
    /// `gemm_dram(256, 256, 64, 8)`
    struct GemmDram256256648 { rs_lengths: [1], hs_lengthss: [[8, 4, 8], [8, 8]], ps_to_rhss_major: [[1], [1, 2]], ps_to_rhss_minor: [[1], [2, 0]], ys_to_rhs_major: [1, 2], ys_to_rhs_minor: [0, 1] }
}

cktile::tile_distribution_encoding! {
    /// `fmha_lse_d_dram(64, 4, 1)`
    struct FmhaLseDDram6441 { rs_lengths: [1, 1], hs_lengthss: [[4, 64, 1]], ps_to_rhss_major: [[0, 1], [0, 1]], ps_to_rhss_minor: [[0, 0], [1, 1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [2] }
}

cktile::tile_distribution_encoding! {
    /// `fmha_q_load_once(128, 64, 4, 16, 16)`
    struct FmhaQLoadOnce1286441616 { rs_lengths: [1], hs_lengthss: [[2, 4, 16], [4, 4, 4]], ps_to_rhss_major: [[1], [2, 1]], ps_to_rhss_minor: [[1], [1, 2]], ys_to_rhs_major: [1, 2, 2], ys_to_rhs_minor: [0, 0, 2] }
}

cktile::tile_distribution_encoding! {
    /// `fmha_k_dram_async(256, 128, 32, 2)`
    struct FmhaKDramAsync256128322 { rs_lengths: [1], hs_lengthss: [[8, 4, 4], [16, 2]], ps_to_rhss_major: [[1], [1, 2]], ps_to_rhss_minor: [[2], [1, 0]], ys_to_rhs_major: [1, 2], ys_to_rhs_minor: [0, 1] }
}

cktile::tile_distribution_encoding! {
    /// `fmha_v_dram(256, 128, 32, 2, RowMajor)`
    struct FmhaVDram256128322RowMajor { rs_lengths: [1], hs_lengthss: [[32, 4], [4, 1, 2, 4]], ps_to_rhss_major: [[2], [2, 1, 2]], ps_to_rhss_minor: [[0], [1, 0, 2]], ys_to_rhs_major: [2, 1], ys_to_rhs_minor: [3, 1] }
}

cktile::tile_distribution_encoding! {
    /// `fmha_v_dram(256, 128, 16, 2, RowMajor)`
    struct FmhaVDram256128162RowMajor { rs_lengths: [1], hs_lengthss: [[32, 4], [2, 2, 2, 2]], ps_to_rhss_major: [[2, 2], [1, 2]], ps_to_rhss_minor: [[0, 1], [0, 2]], ys_to_rhs_major: [2, 1], ys_to_rhs_minor: [3, 1] }
}

cktile::tile_distribution_encoding! {
    /// `fmha_v_shuffled(256, 128, 32, 2)`
    struct FmhaVShuffled256128322 { rs_lengths: [1], hs_lengthss: [[32, 4], [4, 1, 2, 4]], ps_to_rhss_major: [[2], [2, 1, 2]], ps_to_rhss_minor: [[0], [1, 0, 2]], ys_to_rhs_major: [1, 2], ys_to_rhs_minor: [1, 3] }
}

/// The typed distribution of `E` is the runtime distribution of
/// `runtime`; returns the number of (P..., Y...) indices compared.
fn same<E: TileEncoding>(name: &str, runtime: Result<Encoding, cktile_core::Error>) -> usize {
    let runtime = runtime.unwrap();
    assert_eq!(E::ENCODING, runtime, "{name}");
    let typed = make_static_tile_distribution::<E>();
    let r = Distribution::new(runtime).unwrap();
    assert_eq!(&typed.ps_ys_to_xs().adaptor(), r.ps_ys_to_xs(), "{name}");
    assert_eq!(typed.ys_to_d().descriptor(), *r.ys_to_d(), "{name}");
    assert_eq!(size_of_val(&typed), 0, "{name}");
    // The thread buffer the encoding sizes itself: one register per Y index.
    assert_eq!(
        <E::RegisterCount as typenum::Unsigned>::USIZE,
        r.y_lengths().as_slice().iter().product::<i64>() as usize,
        "{name}"
    );
    let ndim_p = runtime.ndim_p();
    let mut count = 0;
    r.for_each(1 << 20, |ps_ys, xs, d| {
        let mut top = [0; 8];
        top[..ps_ys.len()].copy_from_slice(ps_ys);
        let bottom = typed.ps_ys_to_xs().chain().bottom_index(&top);
        assert_eq!(&bottom[..xs.len()], xs, "{name} at {ps_ys:?}");
        let mut ys = [0; 8];
        ys[..ps_ys.len() - ndim_p].copy_from_slice(&ps_ys[ndim_p..]);
        assert_eq!(typed.ys_to_d().chain().offset(&ys), d, "{name} at {ps_ys:?}");
        count += 1;
    })
    .unwrap();
    count
}

#[test]
fn typed_distributions_are_the_runtime_ones_at_every_index() {
    let mut count = 0;
    count += same::<Mfma16x16x16A>("mfma16x16x16_a", c::by_name("mfma16x16x16_a"));
    count += same::<Mfma16x16x16B>("mfma16x16x16_b", c::by_name("mfma16x16x16_b"));
    count += same::<Mfma16x16x16C>("mfma16x16x16_c", c::by_name("mfma16x16x16_c"));
    count += same::<Mfma16x16x16CTransposed>("mfma16x16x16_c_transposed", c::by_name("mfma16x16x16_c_transposed"));
    count += same::<Mfma16x16x32A>("mfma16x16x32_a", c::by_name("mfma16x16x32_a"));
    count += same::<Mfma16x16x32B>("mfma16x16x32_b", c::by_name("mfma16x16x32_b"));
    count += same::<Mfma16x16x32C>("mfma16x16x32_c", c::by_name("mfma16x16x32_c"));
    count += same::<Mfma16x16x32CTransposed>("mfma16x16x32_c_transposed", c::by_name("mfma16x16x32_c_transposed"));
    count += same::<Mfma32x32x8A>("mfma32x32x8_a", c::by_name("mfma32x32x8_a"));
    count += same::<Mfma32x32x8B>("mfma32x32x8_b", c::by_name("mfma32x32x8_b"));
    count += same::<Mfma32x32x8C>("mfma32x32x8_c", c::by_name("mfma32x32x8_c"));
    count += same::<Mfma32x32x8CTransposed>("mfma32x32x8_c_transposed", c::by_name("mfma32x32x8_c_transposed"));
    count += same::<Mfma32x32x16A>("mfma32x32x16_a", c::by_name("mfma32x32x16_a"));
    count += same::<Mfma32x32x16B>("mfma32x32x16_b", c::by_name("mfma32x32x16_b"));
    count += same::<Mfma32x32x16C>("mfma32x32x16_c", c::by_name("mfma32x32x16_c"));
    count += same::<Mfma32x32x16CTransposed>("mfma32x32x16_c_transposed", c::by_name("mfma32x32x16_c_transposed"));
    count += same::<Mfma32x32x16BSwizzled>("mfma32x32x16_b_swizzled", c::mfma_b_swizzled());
    count += same::<Mfma32x32x16CSwizzled>("mfma32x32x16_c_swizzled", c::mfma_c_swizzled());
    count += same::<GemmDram256128328>("gemm_dram(256, 128, 32, 8)", c::gemm_dram(256, 128, 32, 8));
    count += same::<GemmDram256256648>("gemm_dram(256, 256, 64, 8)", c::gemm_dram(256, 256, 64, 8));
    count += same::<FmhaLseDDram6441>("fmha_lse_d_dram(64, 4, 1)", c::fmha_lse_d_dram(64, 4, 1));
    count += same::<FmhaQLoadOnce1286441616>(
        "fmha_q_load_once(128, 64, 4, 16, 16)",
        c::fmha_q_load_once(128, 64, 4, 16, 16),
    );
    count +=
        same::<FmhaKDramAsync256128322>("fmha_k_dram_async(256, 128, 32, 2)", c::fmha_k_dram_async(256, 128, 32, 2));
    count += same::<FmhaVDram256128322RowMajor>(
        "fmha_v_dram(256, 128, 32, 2, RowMajor)",
        c::fmha_v_dram(256, 128, 32, 2, c::VLayout::RowMajor),
    );
    count += same::<FmhaVDram256128162RowMajor>(
        "fmha_v_dram(256, 128, 16, 2, RowMajor)",
        c::fmha_v_dram(256, 128, 16, 2, c::VLayout::RowMajor),
    );
    count += same::<FmhaVShuffled256128322>("fmha_v_shuffled(256, 128, 32, 2)", c::fmha_v_shuffled(256, 128, 32, 2));
    assert!(count > 50_000, "{count}"); // every index of 26 distributions (52,992)
}

#[test]
fn typed_lane_maps_are_the_closed_forms() {
    // The 32x32x8 MFMA A operand: lane l, register y hold A(l % 32, 4 (l / 32) + y).
    let a = make_static_tile_distribution::<Mfma32x32x8A>();
    for lane in 0..64 {
        for y in 0..4 {
            assert_eq!(a.calculate_index([lane, y]), [lane % 32, 4 * (lane / 32) + y]);
            assert_eq!(a.d_index([y]), y);
        }
    }
    // CK's universal GEMM block DRAM distribution (256 threads, 128 x 32, K1 = 8):
    // warp w, lane l, Y (i, v) hold (64 i + 16 w + l / 4, 8 (l % 4) + v), D = 8 i + v.
    let g = make_static_tile_distribution::<GemmDram256128328>();
    for w in 0..4 {
        for l in 0..64 {
            for i in 0..2 {
                for v in 0..8 {
                    assert_eq!(g.calculate_index([w, l, i, v]), [64 * i + 16 * w + l / 4, 8 * (l % 4) + v]);
                    assert_eq!(g.d_index([i, v]), 8 * i + v);
                }
            }
        }
    }
}

cktile::tile_distribution_encoding! {
    /// A block's iteration with no R and no P: 2 warp tiles along M, 3 along K.
    struct Iterate2x3 { rs_lengths: [], hs_lengthss: [[2], [3]], ps_to_rhss_major: [], ps_to_rhss_minor: [], ys_to_rhs_major: [1, 2], ys_to_rhs_minor: [0, 0] }
}

cktile::tile_distribution_encoding! {
    /// CK's block GEMM A outer encoding: 2 warps along N (R), 2 x 2 along M, 2 along K.
    struct BlockAOuter { rs_lengths: [2], hs_lengthss: [[2, 2], [2]], ps_to_rhss_major: [[1, 0]], ps_to_rhss_minor: [[1, 0]], ys_to_rhs_major: [1, 2], ys_to_rhs_minor: [0, 0] }
}

cktile::tile_distribution_encoding! {
    /// An inner encoding with an R of its own, read by its P, and a Y per X.
    struct InnerWithR { rs_lengths: [2], hs_lengthss: [[4, 2], [8]], ps_to_rhss_major: [[0, 1]], ps_to_rhss_minor: [[0, 0]], ys_to_rhs_major: [1, 2], ys_to_rhs_minor: [1, 0] }
}

cktile::tile_distribution_encoding! {
    /// A 1-D outer with a P.
    struct Outer1d { rs_lengths: [], hs_lengthss: [[4, 2]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
}

cktile::tile_distribution_encoding! {
    /// A 1-D inner with a P over two components.
    struct Inner1d { rs_lengths: [], hs_lengthss: [[2, 4, 2]], ps_to_rhss_major: [[1, 1]], ps_to_rhss_minor: [[0, 2]], ys_to_rhs_major: [1], ys_to_rhs_minor: [1] }
}

/// `EmbedEncoding<O, I>` (CK's `make_embed_tile_distribution_encoding` as a
/// type) is the runtime `embed` of the two encodings at every index, with
/// and without Rs and Ps on either side, nested too.
#[test]
fn typed_embeddings_are_the_runtime_ones_at_every_index() {
    use cktile::distribution::{EmbedEncoding, embed_encoding};
    let e = |o: Encoding, i: Encoding| embed_encoding(&o, &i);
    let mut count = 0;
    count += same::<EmbedEncoding<Iterate2x3, Mfma16x16x32A>>(
        "iterate 2x3 + mfma16x16x32_a",
        e(Iterate2x3::ENCODING, Mfma16x16x32A::ENCODING),
    );
    count += same::<EmbedEncoding<BlockAOuter, Mfma32x32x16A>>(
        "block A outer + mfma32x32x16_a",
        e(BlockAOuter::ENCODING, Mfma32x32x16A::ENCODING),
    );
    count += same::<EmbedEncoding<BlockAOuter, InnerWithR>>(
        "block A outer + an inner with R",
        e(BlockAOuter::ENCODING, InnerWithR::ENCODING),
    );
    count += same::<EmbedEncoding<Outer1d, Inner1d>>("1-D", e(Outer1d::ENCODING, Inner1d::ENCODING));
    // Nested: the 1-D embedding inside another 1-D outer.
    count += same::<EmbedEncoding<Outer1d, EmbedEncoding<Outer1d, Inner1d>>>(
        "1-D, nested",
        e(Outer1d::ENCODING, embed_encoding(&Outer1d::ENCODING, &Inner1d::ENCODING).unwrap()),
    );
    assert!(count > 10_000, "{count}");
}
