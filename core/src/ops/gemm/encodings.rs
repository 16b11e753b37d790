//! The universal GEMM's tile distribution encodings, each written once
//! over the sizes CK's policy computes them from (their thread buffers'
//! sizes computed as types: nothing to write per instantiation):
//!
//! - [`ADramDistribution`]: CK's `MakeADramTileDistribution` (and
//!   `MakeBDramTileDistribution`, [`BDramDistribution`]), the block's
//!   DRAM loads and LDS stores;
//! - [`WarpOperand`]: the MFMA warp GEMM's A and B operand
//!   (`AWarpDstrEncoding`, `BWarpDstrEncoding`);
//! - [`WarpAccumulator`]: the MFMA warp GEMM's C (`CWarpDstrEncoding`);
//! - [`ABlockOuter`], [`BBlockOuter`], [`CBlockOuter`]: the block GEMM's
//!   outer encodings (`a_block_outer_dstr_encoding`,
//!   `b_block_outer_dstr_encoding`, `c_block_outer_dstr_encoding` in
//!   `block_universal_gemm_as_bs_cr.hpp`), which
//!   [`EmbedEncoding`](crate::distribution::EmbedEncoding) places around the warp
//!   operand's or accumulator's (CK's `make_embed_tile_distribution_encoding`).
//!
//! A configuration CK's `static_assert`s refuse is a compile error with
//! the requirement's message.
//!
//! ```
//! use cktile_core::distribution::typed::TileEncoding;
//! use cktile_core::distribution::{catalogue, embed_encoding, EmbedEncoding};
//! use cktile_core::ops::gemm::{ABlockOuter, ADramDistribution, WarpOperand};
//! assert_eq!(ADramDistribution::<256, 256, 64, 8>::ENCODING, catalogue::gemm_dram(256, 256, 64, 8)?);
//! // The block GEMM's A: 2 x 2 warps, MFMA 32x32x16 (8 K values a lane), over 128 x 32.
//! type Block = EmbedEncoding<ABlockOuter<128, 32, 2, 2, 32, 16>, WarpOperand<32, 8>>;
//! assert_eq!(Block::ENCODING, embed_encoding(&ABlockOuter::<128, 32, 2, 2, 32, 16>::ENCODING, &catalogue::mfma_a(32, 16)?)?);
//! # Ok::<(), cktile_core::Error>(())
//! ```

crate::tile_distribution_encoding! {
    /// CK's `MakeADramTileDistribution` (thread-raked, row-major A; the
    /// column-major B's `MakeBDramTileDistribution` is the same over N,
    /// [`BDramDistribution`]) for `BLOCK` threads over an `M x K` block
    /// tile, `K1` elements a DRAM vector: K0 = K / K1 lanes along K,
    /// M2 = 64 / K0 lanes along M, M1 = BLOCK / 64 warps, M0 = M / (M2 *
    /// M1) rows a thread; P = (warp, lane = (M2, K0)), Y = (M0, K1): each
    /// thread loads M0 vectors of K1 (M0 * K1 = M * K / BLOCK registers).
    ///
    /// ```
    /// use cktile_core::distribution::typed::TileEncoding;
    /// use cktile_core::ops::gemm::ADramDistribution;
    /// use cktile_core::tile::StaticDistributedTensor;
    /// assert_eq!(ADramDistribution::<256, 128, 32, 8>::ENCODING, cktile_core::distribution::catalogue::gemm_dram(256, 128, 32, 8)?);
    /// assert_eq!(StaticDistributedTensor::<u16, ADramDistribution<128, 64, 32, 8>>::filled(0).thread_buffer().len(), 64 * 32 / 128);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    ///
    /// ```compile_fail
    /// use cktile_core::distribution::typed::TileEncoding;
    /// // MPerBlock 100 is not a multiple of 16 lanes * 4 warps: CK's static_assert, a compile error here.
    /// let _ = cktile_core::ops::gemm::ADramDistribution::<256, 100, 32, 8>::ENCODING;
    /// ```
    pub struct ADramDistribution<const BLOCK: usize, const M: usize, const K: usize, const K1: usize> {
        requires: [
            K1 > 0 && K.is_multiple_of(K1) => "K1 (the DRAM vector) must divide KPerBlock",
            K >= K1 && 64 % (K / K1) == 0 => "KPerBlock / K1 must divide the wave size 64",
            BLOCK >= 64 && BLOCK.is_multiple_of(64) => "the block size must be a multiple of the wave size 64",
            M > 0 && M.is_multiple_of(64 / (K / K1) * (BLOCK / 64)) =>
                "MPerBlock must be a multiple of (64 / (KPerBlock / K1)) * (BLOCK / 64): every thread loads whole rows",
        ],
        rs_lengths: [1],
        hs_lengthss: [[M / (64 / (K / K1) * (BLOCK / 64)), BLOCK / 64, 64 / (K / K1)], [K / K1, K1]],
        ps_to_rhss_major: [[1], [1, 2]],
        ps_to_rhss_minor: [[1], [2, 0]],
        ys_to_rhs_major: [1, 2],
        ys_to_rhs_minor: [0, 1],
    }
}

/// CK's `MakeBDramTileDistribution` for a column-major B (N x K, K
/// contiguous): [`ADramDistribution`] over NPerBlock.
///
/// ```
/// use cktile_core::distribution::typed::TileEncoding;
/// use cktile_core::ops::gemm::BDramDistribution;
/// assert_eq!(BDramDistribution::<256, 64, 32, 8>::ENCODING, cktile_core::distribution::catalogue::gemm_dram(256, 64, 32, 8)?);
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub type BDramDistribution<const BLOCK: usize, const N: usize, const K: usize, const K1: usize> =
    ADramDistribution<BLOCK, N, K, K1>;

crate::tile_distribution_encoding! {
    /// CK's MFMA warp-GEMM A (and B) operand encoding for an `ML`-lane MFMA
    /// (16 or 32 rows) whose lanes hold `KL` consecutive K values
    /// (`kABKPerLane * kKIter`): X = (ML, K = (64 / ML, KL)); the lane
    /// merges K's 64 / ML groups with the ML rows, the register walks the
    /// KL values. The fp16 MFMAs: 32x32x8 is `<32, 4>`, 32x32x16 `<32, 8>`,
    /// 16x16x16 `<16, 4>`, 16x16x32 `<16, 8>` ([`Mfma`](super::Mfma)).
    ///
    /// ```
    /// use cktile_core::distribution::typed::TileEncoding;
    /// use cktile_core::ops::gemm::WarpOperand;
    /// use cktile_core::prelude::*;
    /// assert_eq!(WarpOperand::<16, 8>::ENCODING, cktile_core::distribution::catalogue::mfma_a(16, 32)?);
    /// // Lane 37, register 5 of the 32x32x16 operand: row 37 % 32, K 8 * (37 / 32) + 5.
    /// assert_eq!(make_static_tile_distribution::<WarpOperand<32, 8>>().calculate_index([37, 5]), [5, 13]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    ///
    /// ```compile_fail
    /// use cktile_core::distribution::typed::TileEncoding;
    /// // No MFMA has 8 rows.
    /// let _ = cktile_core::ops::gemm::WarpOperand::<8, 4>::ENCODING;
    /// ```
    pub struct WarpOperand<const ML: usize, const KL: usize> {
        requires: [ML == 16 || ML == 32 => "the MFMA's M (lanes per K group) is 16 or 32"],
        rs_lengths: [],
        hs_lengthss: [[ML], [64 / ML, KL]],
        ps_to_rhss_major: [[2, 1]],
        ps_to_rhss_minor: [[0, 0]],
        ys_to_rhs_major: [2],
        ys_to_rhs_minor: [1],
    }
}

crate::tile_distribution_encoding! {
    /// CK's MFMA warp-GEMM accumulator encoding (`CWarpDstrEncoding` of
    /// `WarpGemmAtrributeMfma`, the same for its `IterateK` forms) for an
    /// `ML x ML` warp tile: X = (M, N), M split into (registers in blocks
    /// of 4, 64 / ML lane groups, 4 consecutive rows); the lane merges (M
    /// lane group, N), the registers walk the two per-lane M parts. Lane
    /// `l`, register `r` of the 32 x 32 accumulator hold row `8 * (r / 4) +
    /// 4 * (l / 32) + r % 4`, column `l % 32`: AMD's D layout of
    /// `v_mfma_f32_32x32x8_f16` ([`MfmaInstruction`](super::MfmaInstruction)).
    ///
    /// ```
    /// use cktile_core::distribution::typed::TileEncoding;
    /// use cktile_core::ops::gemm::WarpAccumulator;
    /// use cktile_core::prelude::*;
    /// assert_eq!(WarpAccumulator::<32>::ENCODING, cktile_core::distribution::catalogue::mfma_c(32, 8)?);
    /// assert_eq!(WarpAccumulator::<16>::ENCODING, cktile_core::distribution::catalogue::mfma_c(16, 16)?);
    /// // Lane 37, register 6 (= Y (1, 2)) of the 32 x 32 accumulator: row 8 + 4 + 2, column 5.
    /// assert_eq!(make_static_tile_distribution::<WarpAccumulator<32>>().calculate_index([37, 1, 2]), [14, 5]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    ///
    /// ```compile_fail
    /// use cktile_core::distribution::typed::TileEncoding;
    /// // No MFMA has 8 rows.
    /// let _ = cktile_core::ops::gemm::WarpAccumulator::<8>::ENCODING;
    /// ```
    pub struct WarpAccumulator<const ML: usize> {
        requires: [ML == 16 || ML == 32 => "the MFMA's M (lanes per K group) is 16 or 32"],
        rs_lengths: [],
        hs_lengthss: [[ML * ML / 256, 64 / ML, 4], [ML]],
        ps_to_rhss_major: [[1, 2]],
        ps_to_rhss_minor: [[1, 0]],
        ys_to_rhs_major: [1, 1],
        ys_to_rhs_minor: [0, 2],
    }
}

crate::tile_distribution_encoding! {
    /// CK's block GEMM outer encoding of A (`a_block_outer_dstr_encoding`
    /// in `block_universal_gemm_as_bs_cr.hpp`) for an `M x K` block tile,
    /// `M_WARPS x N_WARPS` warps and a `WARP_M x .. x WARP_K` warp GEMM:
    /// `tile_distribution_encoding<sequence<NWarp>, tuple<sequence<MIterPerWarp,
    /// MWarp>, sequence<KIterPerWarp>>, tuple<sequence<1, 0>>,
    /// tuple<sequence<1, 0>>, sequence<1, 2>, sequence<0, 0>>` with
    /// MIterPerWarp = M / (M_WARPS * WARP_M) and KIterPerWarp = K / WARP_K.
    /// The warps along N hold copies (R); a warp is `m_warp * N_WARPS +
    /// n_warp`. Embedded with the warp operand's encoding
    /// ([`EmbedEncoding`](crate::distribution::EmbedEncoding)) it is the block's A operand
    /// distribution (Y = M iteration, K iteration, then the warp operand's).
    ///
    /// ```
    /// use cktile_core::distribution::{typed::TileEncoding, Encoding};
    /// use cktile_core::ops::gemm::ABlockOuter;
    /// // 128 x 32 over 2 x 2 warps of MFMA 32x32x16: 2 x 2 warp tiles a warp.
    /// let ck = Encoding::new(&[2], &[&[2, 2], &[2]], &[&[1, 0]], &[&[1, 0]], &[1, 2], &[0, 0])?;
    /// assert_eq!(ABlockOuter::<128, 32, 2, 2, 32, 16>::ENCODING, ck);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    ///
    /// ```compile_fail
    /// use cktile_core::distribution::typed::TileEncoding;
    /// // 2 warps of 32 rows do not tile MPerBlock 96.
    /// let _ = cktile_core::ops::gemm::ABlockOuter::<96, 32, 2, 2, 32, 16>::ENCODING;
    /// ```
    pub struct ABlockOuter<const M: usize, const K: usize, const M_WARPS: usize, const N_WARPS: usize, const WARP_M: usize, const WARP_K: usize> {
        requires: [
            M_WARPS > 0 && N_WARPS > 0 => "a block has at least one warp along M and along N",
            WARP_M > 0 && M.is_multiple_of(M_WARPS * WARP_M) => "MPerBlock must be a multiple of MWarp * the warp GEMM's M (CK: warps should cover all the block tile)",
            WARP_K > 0 && K.is_multiple_of(WARP_K) => "KPerBlock must be a multiple of the warp GEMM's K",
        ],
        rs_lengths: [N_WARPS],
        hs_lengthss: [[M / (M_WARPS * WARP_M), M_WARPS], [K / WARP_K]],
        ps_to_rhss_major: [[1, 0]],
        ps_to_rhss_minor: [[1, 0]],
        ys_to_rhs_major: [1, 2],
        ys_to_rhs_minor: [0, 0],
    }
}

crate::tile_distribution_encoding! {
    /// CK's block GEMM outer encoding of B (`b_block_outer_dstr_encoding`):
    /// [`ABlockOuter`] with N for M over an `N x K` block tile, the warps
    /// along M holding copies: `tile_distribution_encoding<sequence<MWarp>,
    /// tuple<sequence<NIterPerWarp, NWarp>, sequence<KIterPerWarp>>,
    /// tuple<sequence<0, 1>>, tuple<sequence<0, 1>>, sequence<1, 2>,
    /// sequence<0, 0>>` (a warp is still `m_warp * N_WARPS + n_warp`).
    ///
    /// ```
    /// use cktile_core::distribution::{typed::TileEncoding, Encoding};
    /// use cktile_core::ops::gemm::BBlockOuter;
    /// let ck = Encoding::new(&[2], &[&[2, 2], &[2]], &[&[0, 1]], &[&[0, 1]], &[1, 2], &[0, 0])?;
    /// assert_eq!(BBlockOuter::<128, 32, 2, 2, 32, 16>::ENCODING, ck);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    ///
    /// ```compile_fail
    /// use cktile_core::distribution::typed::TileEncoding;
    /// // KPerBlock 24 is not a multiple of the warp GEMM's K 16.
    /// let _ = cktile_core::ops::gemm::BBlockOuter::<128, 24, 2, 2, 32, 16>::ENCODING;
    /// ```
    pub struct BBlockOuter<const N: usize, const K: usize, const M_WARPS: usize, const N_WARPS: usize, const WARP_N: usize, const WARP_K: usize> {
        requires: [
            M_WARPS > 0 && N_WARPS > 0 => "a block has at least one warp along M and along N",
            WARP_N > 0 && N.is_multiple_of(N_WARPS * WARP_N) => "NPerBlock must be a multiple of NWarp * the warp GEMM's N (CK: warps should cover all the block tile)",
            WARP_K > 0 && K.is_multiple_of(WARP_K) => "KPerBlock must be a multiple of the warp GEMM's K",
        ],
        rs_lengths: [M_WARPS],
        hs_lengthss: [[N / (N_WARPS * WARP_N), N_WARPS], [K / WARP_K]],
        ps_to_rhss_major: [[0, 1]],
        ps_to_rhss_minor: [[0, 1]],
        ys_to_rhs_major: [1, 2],
        ys_to_rhs_minor: [0, 0],
    }
}

crate::tile_distribution_encoding! {
    /// CK's block GEMM outer encoding of C (`c_block_outer_dstr_encoding`):
    /// an `M x N` block tile of `M_WARPS x N_WARPS` warps of `WARP_M x
    /// WARP_N` warp tiles, no copies: `tile_distribution_encoding<sequence<>,
    /// tuple<sequence<MIterPerWarp, MWarp>, sequence<NIterPerWarp, NWarp>>,
    /// tuple<sequence<1, 2>>, tuple<sequence<1, 1>>, sequence<1, 2>,
    /// sequence<0, 0>>`. Embedded with the warp GEMM's accumulator
    /// ([`WarpAccumulator`]) it is the block's C distribution, CK's
    /// `MakeCBlockTile` (Y = M iteration, N iteration, then the
    /// accumulator's registers).
    ///
    /// ```
    /// use cktile_core::distribution::{typed::TileEncoding, Encoding};
    /// use cktile_core::ops::gemm::CBlockOuter;
    /// let ck = Encoding::new(&[], &[&[2, 2], &[1, 2]], &[&[1, 2]], &[&[1, 1]], &[1, 2], &[0, 0])?;
    /// assert_eq!(CBlockOuter::<128, 64, 2, 2, 32, 32>::ENCODING, ck);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    ///
    /// ```compile_fail
    /// use cktile_core::distribution::typed::TileEncoding;
    /// // 2 warps of 32 columns do not tile NPerBlock 96.
    /// let _ = cktile_core::ops::gemm::CBlockOuter::<128, 96, 2, 2, 32, 32>::ENCODING;
    /// ```
    pub struct CBlockOuter<const M: usize, const N: usize, const M_WARPS: usize, const N_WARPS: usize, const WARP_M: usize, const WARP_N: usize> {
        requires: [
            M_WARPS > 0 && N_WARPS > 0 => "a block has at least one warp along M and along N",
            WARP_M > 0 && M.is_multiple_of(M_WARPS * WARP_M) => "MPerBlock must be a multiple of MWarp * the warp GEMM's M (CK: warps should cover all the block tile)",
            WARP_N > 0 && N.is_multiple_of(N_WARPS * WARP_N) => "NPerBlock must be a multiple of NWarp * the warp GEMM's N (CK: warps should cover all the block tile)",
        ],
        rs_lengths: [],
        hs_lengthss: [[M / (M_WARPS * WARP_M), M_WARPS], [N / (N_WARPS * WARP_N), N_WARPS]],
        ps_to_rhss_major: [[1, 2]],
        ps_to_rhss_minor: [[1, 1]],
        ys_to_rhs_major: [1, 2],
        ys_to_rhs_minor: [0, 0],
    }
}

crate::tile_distribution_encoding! {
    /// The A operand of [`MmaSync`](super::MmaSync)'s 32 x `8 P` warp tile
    /// (M x K) over a policy's 64-lane warp, a pair of NVIDIA warps, each
    /// 32-bit register packing `P` elements (2: 16-bit elements, 4: 8-bit
    /// ones): each warp holds its 16 rows as `mma.sync.m16n8k{16,32}` reads
    /// A ([`MmaSyncInstruction`](super::MmaSyncInstruction)). X = (M =
    /// (warp `h`, row half, group `g`), K = (K half, thread `t`, pack));
    /// the lane is `32 h + 4 g + t`, the `4 P` registers walk (K half, row
    /// half, pack): element `r` is the PTX ISA's `a{r}`.
    ///
    /// ```
    /// use cktile_core::ops::gemm::MmaSyncA;
    /// use cktile_core::prelude::*;
    /// // Lane 41 (the second warp's lane 9), register 5: row 16 + 2, K 8 + 2 + 1.
    /// assert_eq!(make_static_tile_distribution::<MmaSyncA<2>>().calculate_index([41, 1, 0, 1]), [18, 11]);
    /// // 8-bit: register 13 of lane 41 is row 16 + 8 + 2, K 16 + 4 + 1.
    /// assert_eq!(make_static_tile_distribution::<MmaSyncA<4>>().calculate_index([41, 1, 1, 1]), [26, 21]);
    /// ```
    pub struct MmaSyncA<const P: usize> {
        requires: [P == 2 || P == 4 => "an mma.sync register packs 2 (16-bit) or 4 (8-bit) elements"],
        rs_lengths: [],
        hs_lengthss: [[2, 2, 8], [2, 4, P]],
        ps_to_rhss_major: [[1, 1, 2]],
        ps_to_rhss_minor: [[0, 2, 1]],
        ys_to_rhs_major: [2, 1, 2],
        ys_to_rhs_minor: [0, 1, 2],
    }
}

crate::tile_distribution_encoding! {
    /// The B operand of [`MmaSync`](super::MmaSync)'s `N` x `8 P` warp
    /// tile (N x K, B stored K-contiguous, `P` elements a 32-bit register)
    /// over a policy's 64-lane warp: both NVIDIA warps of the pair hold the
    /// same B (R), each lane `N / 8` fragments of `mma.sync`'s B, one an
    /// instruction. X = (N = (instruction, group `g`), K = (K half, thread
    /// `t`, pack)); the lane is `32 h + 4 g + t`, the registers walk
    /// (instruction, K half, pack): instruction `j`'s `b{r}` is register
    /// `2 P j + r`.
    ///
    /// ```
    /// use cktile_core::ops::gemm::MmaSyncB;
    /// use cktile_core::prelude::*;
    /// // Lane 37 (the second warp's lane 5), instruction 1, register 2: column 8 + 1, K 8 + 2.
    /// assert_eq!(make_static_tile_distribution::<MmaSyncB<16, 2>>().calculate_index([37, 1, 1, 0]), [9, 10]);
    /// ```
    ///
    /// ```compile_fail
    /// use cktile_core::distribution::typed::TileEncoding;
    /// // N must be a multiple of the instruction's 8 columns.
    /// let _ = cktile_core::ops::gemm::MmaSyncB::<12, 2>::ENCODING;
    /// ```
    pub struct MmaSyncB<const N: usize, const P: usize> {
        requires: [
            N > 0 && N.is_multiple_of(8) => "the mma.sync warp tile's N is a multiple of the instruction's 8 columns",
            P == 2 || P == 4 => "an mma.sync register packs 2 (16-bit) or 4 (8-bit) elements",
        ],
        rs_lengths: [2],
        hs_lengthss: [[N / 8, 8], [2, 4, P]],
        ps_to_rhss_major: [[0, 1, 2]],
        ps_to_rhss_minor: [[0, 1, 1]],
        ys_to_rhs_major: [1, 2, 2],
        ys_to_rhs_minor: [0, 0, 2],
    }
}

crate::tile_distribution_encoding! {
    /// The accumulator of [`MmaSync`](super::MmaSync)'s 32 x `N` warp tile
    /// over a policy's 64-lane warp: NVIDIA warp `h` of the pair holds rows
    /// `16 h ..`, as `mma.sync.m16n8k16` lays D out, one instruction each 8
    /// columns. X = (M = (warp `h`, row half, group `g`), N = (instruction,
    /// thread `t`, pair)); the lane is `32 h + 4 g + t`, the registers walk
    /// (instruction, row half, pair): instruction `j`'s `d{r}` is register
    /// `4 j + r`.
    ///
    /// ```
    /// use cktile_core::ops::gemm::MmaSyncC;
    /// use cktile_core::prelude::*;
    /// // Lane 41, instruction 1, register 3: row 16 + 8 + 2, column 8 + 2 + 1.
    /// assert_eq!(make_static_tile_distribution::<MmaSyncC<16>>().calculate_index([41, 1, 1, 1]), [26, 11]);
    /// ```
    pub struct MmaSyncC<const N: usize> {
        requires: [N > 0 && N.is_multiple_of(8) => "the mma.sync warp tile's N is a multiple of the instruction's 8 columns"],
        rs_lengths: [],
        hs_lengthss: [[2, 2, 8], [N / 8, 4, 2]],
        ps_to_rhss_major: [[1, 1, 2]],
        ps_to_rhss_minor: [[0, 2, 1]],
        ys_to_rhs_major: [2, 1, 2],
        ys_to_rhs_minor: [0, 1, 2],
    }
}

crate::tile_distribution_encoding! {
    /// The A operand of [`Wmma`](super::Wmma)'s 32 x 16 warp tile (M x K)
    /// over a policy's 64-lane warp, a pair of RDNA wave32 waves, wave `h`
    /// holding rows `16 h .. 16 h + 16` as the 16x16x16 WMMA of gfx`GFX`
    /// reads A ([`WmmaInstruction`](super::WmmaInstruction)): X = (M =
    /// (wave `h`, row), K = (lane group, K values)); the lane is `32 h + 16
    /// g + row`, `g` the half-wave, which on gfx11 holds a copy (R) and on
    /// gfx12 the K values `8 g ..`. For one wave it is the catalogue's
    /// [`wmma_a`](crate::distribution::catalogue::wmma::wmma_a) (the
    /// module's tests hold them equal).
    ///
    /// ```
    /// use cktile_core::ops::gemm::WmmaA;
    /// use cktile_core::prelude::*;
    /// // gfx12: lane 37 (wave 1, half-wave 0, row 5), register 6: row 16 + 5, K 6; lane 53 (half-wave 1) K 8 + 6.
    /// assert_eq!(make_static_tile_distribution::<WmmaA<12>>().calculate_index([37, 6]), [21, 6]);
    /// assert_eq!(make_static_tile_distribution::<WmmaA<12>>().calculate_index([53, 6]), [21, 14]);
    /// // gfx11: lane 53 holds row 21's whole K, as lane 37 does.
    /// assert_eq!(make_static_tile_distribution::<WmmaA<11>>().calculate_index([53, 12]), [21, 12]);
    /// ```
    ///
    /// ```compile_fail
    /// use cktile_core::distribution::typed::TileEncoding;
    /// // gfx10 has no WMMA.
    /// let _ = cktile_core::ops::gemm::WmmaA::<10>::ENCODING;
    /// ```
    pub struct WmmaA<const GFX: usize> {
        requires: [GFX == 11 || GFX == 12 => "the universal GEMM's WMMAs are gfx11's and gfx12's"],
        rs_lengths: [13 - GFX],
        hs_lengthss: [[2, 16], [GFX - 10, 16 / (GFX - 10)]],
        ps_to_rhss_major: [[1, 0, 2, 1]],
        ps_to_rhss_minor: [[0, 0, 0, 1]],
        ys_to_rhs_major: [2],
        ys_to_rhs_minor: [1],
    }
}

crate::tile_distribution_encoding! {
    /// The B operand of [`Wmma`](super::Wmma)'s `N` x 16 warp tile (N x
    /// K, B stored K-contiguous) over a policy's 64-lane warp: both waves
    /// of the pair hold the same B (R), each lane `N / 16` WMMA B operands,
    /// one an instruction, laid out as [`WmmaA`]. X = (N = (instruction,
    /// column), K = (lane group, K values)); the registers walk
    /// (instruction, K values).
    ///
    /// ```
    /// use cktile_core::ops::gemm::WmmaB;
    /// use cktile_core::prelude::*;
    /// // gfx12, lane 53 (half-wave 1 of wave 1, column 5), instruction 1, register 2: column 16 + 5, K 8 + 2.
    /// assert_eq!(make_static_tile_distribution::<WmmaB<32, 12>>().calculate_index([53, 1, 2]), [21, 10]);
    /// ```
    ///
    /// ```compile_fail
    /// use cktile_core::distribution::typed::TileEncoding;
    /// // N must be a multiple of the WMMA's 16 columns.
    /// let _ = cktile_core::ops::gemm::WmmaB::<24, 12>::ENCODING;
    /// ```
    pub struct WmmaB<const N: usize, const GFX: usize> {
        requires: [
            N > 0 && N.is_multiple_of(16) => "the WMMA warp tile's N is a multiple of the instruction's 16 columns",
            GFX == 11 || GFX == 12 => "the universal GEMM's WMMAs are gfx11's and gfx12's",
        ],
        rs_lengths: [2, 13 - GFX],
        hs_lengthss: [[N / 16, 16], [GFX - 10, 16 / (GFX - 10)]],
        ps_to_rhss_major: [[0, 0, 2, 1]],
        ps_to_rhss_minor: [[0, 1, 0, 1]],
        ys_to_rhs_major: [1, 2],
        ys_to_rhs_minor: [0, 1],
    }
}

crate::tile_distribution_encoding! {
    /// The accumulator of [`Wmma`](super::Wmma)'s 32 x `N` warp tile over
    /// a policy's 64-lane warp: wave `h` of the pair holds rows `16 h ..`,
    /// as gfx`GFX`'s WMMA lays C out, one instruction each 16 columns. X =
    /// (M = (wave, row blocks, half-wave, rows), N = (instruction,
    /// column)); the lane is `32 h + 16 g + column`, the registers walk
    /// (instruction, row blocks, rows): instruction `j`'s accumulator `r`
    /// is register `8 j + r`, row `2 r + g` on gfx11 and `8 g + r` on gfx12.
    ///
    /// ```
    /// use cktile_core::ops::gemm::WmmaC;
    /// use cktile_core::prelude::*;
    /// // Lane 53 (wave 1, half-wave 1, column 5), instruction 1, accumulator 3.
    /// assert_eq!(make_static_tile_distribution::<WmmaC<32, 11>>().calculate_index([53, 1, 3, 0]), [16 + 7, 21]);
    /// assert_eq!(make_static_tile_distribution::<WmmaC<32, 12>>().calculate_index([53, 1, 0, 3]), [16 + 11, 21]);
    /// ```
    pub struct WmmaC<const N: usize, const GFX: usize> {
        requires: [
            N > 0 && N.is_multiple_of(16) => "the WMMA warp tile's N is a multiple of the instruction's 16 columns",
            GFX == 11 || GFX == 12 => "the universal GEMM's WMMAs are gfx11's and gfx12's",
        ],
        rs_lengths: [],
        hs_lengthss: [[2, (12 - GFX) * 7 + 1, 2, 8 / ((12 - GFX) * 7 + 1)], [N / 16, 16]],
        ps_to_rhss_major: [[1, 1, 2]],
        ps_to_rhss_minor: [[0, 2, 1]],
        ys_to_rhs_major: [2, 1, 1],
        ys_to_rhs_minor: [0, 1, 3],
    }
}
