//! CK Tile's universal GEMM (`ck_tile/ops/gemm`: the
//! `UniversalGemmPipelineAgBgCrPolicy` and the block GEMM it picks,
//! `BlockUniversalGemmAsBsCr`), its A and B data paths written once,
//! generic over the block size, the block tile, the warps and the MFMA
//! warp GEMM, as CK's policy is generic over its `Problem`:
//!
//! - [`encodings`]: the DRAM distribution ([`ADramDistribution`], CK's
//!   `MakeADramTileDistribution`/`MakeBDramTileDistribution`), the MFMA
//!   operand ([`WarpOperand`]) and accumulator ([`WarpAccumulator`]), the
//!   block GEMM's outer encodings ([`ABlockOuter`], [`BBlockOuter`],
//!   [`CBlockOuter`]) that
//!   [`EmbedEncoding`](crate::distribution::EmbedEncoding) places around them;
//! - [`mfma`]: the MFMA instructions' lane maps ([`MfmaInstruction`], from
//!   AMD's ISA) and the element types ([`Fp16`], [`Bf16`], the 8-bit
//!   floats [`Fp8`], [`Bf8`], [`Fp8Fnuz`], [`Bf8Fnuz`], and [`Int8`]) with
//!   their accumulators ([`Accumulator`]);
//! - [`mma`]: NVIDIA's `mma.sync.m16n8k16` and `m16n8k32` lane maps
//!   ([`MmaSyncInstruction`], from the PTX ISA), behind the [`MmaSync`]
//!   warp GEMM that runs the same policies on sm_80 and later, and
//!   [`WarpInstruction`], either vendor's instruction;
//! - [`lds`]: the XOR LDS block (`MakeALdsBlockDescriptor`, KPack and
//!   MLdsLayer), its chain spelled once ([`LdsChainOf`]);
//! - [`dram`]: the DRAM views, padded to the block tile ([`make_dram_view`],
//!   [`make_mn_dram_view`] for an operand stored with its rows contiguous,
//!   and C's, [`make_c_dram_view`]);
//! - [`layout`]: A's and B's layouts ([`RowMajor`], [`ColumnMajor`], CK's
//!   `ALayout` and `BLayout`) and what each means for an operand's DRAM
//!   view ([`OperandStorage`]);
//! - [`policy`]: [`GemmPolicy`], every one of them as an associated item
//!   of one type, and [`UniversalGemmPolicy`], the policy of any
//!   configuration in one line;
//! - [`path`]: one thread's windows of an operand ([`OperandPath`]: the
//!   DRAM window, the LDS store window, the warp window) and CK's block
//!   GEMM read ([`block_window`], over a side's block distribution:
//!   [`BlockGemmSide`]);
//! - [`block`]: the block GEMM's schedule ([`for_each_warp_gemm`]) and its
//!   block tensors ([`CBlockTensor`], ...);
//! - [`pipeline`]: CK's K-loop pipelines ([`OneStage`], [`CompV3`]), one
//!   order of the same steps each, for the GPU and the emulation;
//! - [`epilogue`]: CK's epilogues ([`Epilogue`]): `Default2DEpilogue`
//!   ([`Default2D`]: [`c_window`], [`store_c_tile`]) and
//!   `CShuffleEpilogue` ([`CShuffle`]);
//! - [`cshuffle`]: the CShuffle epilogue's shuffle tile
//!   ([`ShuffleTile`]) and its LDS round trip;
//! - [`emulate`]: the block GEMM of a wave on the host
//!   ([`emulate_block_gemm`]) and a whole kernel (`emulate_gemm`, with an
//!   allocator);
//! - `gpu` (on amdgcn and nvptx): the policy's partition from the hardware
//!   ids (`get_policy_partition`: the policy's 64-lane warps on every GPU),
//!   the block GEMM (`block_gemm`: the MFMA intrinsics on amdgcn,
//!   `mma.sync` on nvptx) and the whole kernel body (`universal_gemm`: a
//!   GEMM kernel is a policy line and an entry point).
//!
//! Every encoding sizes its thread buffer itself (the product of its Y
//! lengths, computed as a type: [`registers`](crate::distribution::typed::registers)),
//! so a configuration is one line and nothing more. The elements are 16
//! bits wide (fp16, bf16: 8-element DRAM vectors and LDS packs) or 8
//! (fp8, bf8, int8: 16-element ones; C in `i32` for int8), the data path
//! moving their bits ([`BitsOf`]), and the warps are CDNA's 64 lanes (on
//! an NVIDIA GPU, pairs of warps: [`MmaSync`]). Both
//! operands are seen as rows x K (A as M x K, B as N x K), so the two
//! paths are one code with M and N swapped, as CK's policies are; each
//! operand's layout (K contiguous, or its rows) changes its DRAM view
//! alone. A configuration CK refuses is a compile error with the
//! requirement's message ([`GemmPolicy::CHECK`]).
//!
//! ```
//! use cktile_core::distribution::typed::TileEncoding;
//! use cktile_core::distribution::{catalogue, embed_encoding};
//! use cktile_core::ops::gemm::{BlockWarps, GemmPolicy, Mfma16x16x32, UniversalGemmPolicy};
//! // 256 x 256 x 64 on 256 threads, 2 x 2 warps of the 16x16x32 MFMA: one line.
//! type P = UniversalGemmPolicy<256, 256, 256, 64, BlockWarps<2, 2>, Mfma16x16x32>;
//! assert_eq!(<P as GemmPolicy>::ADram::ENCODING, catalogue::gemm_dram(256, 256, 64, 8)?);
//! assert_eq!(<P as GemmPolicy>::AWarp::ENCODING, catalogue::mfma_a(16, 32)?);
//! assert_eq!(<P as GemmPolicy>::ABlock::ENCODING, embed_encoding(&<P as GemmPolicy>::ABlockOuter::ENCODING, &catalogue::mfma_a(16, 32)?)?);
//! let lds = P::make_a_lds_block()?.descriptor();
//! // CK's XOR block (KPack 8, MLdsLayer 1): row 200, K0 37 / 8 = 4 ^ (200 % 8) = 4, element 37 % 8.
//! assert_eq!(lds.calculate_offset(&[200, 37]), 200 * 64 + 4 * 8 + 5);
//! // 8 x 2 warp tiles of 8 registers a thread.
//! assert_eq!((P::M_ITERS, P::K_ITERS, <<P as GemmPolicy>::ABlock as TileEncoding>::ENCODING.y_elements()), (8, 2, 128));
//! # Ok::<(), cktile_core::Error>(())
//! ```

pub mod block;
pub mod cshuffle;
#[cfg(test)]
mod cshuffle_tests;
pub mod dram;
pub mod emulate;
pub mod encodings;
pub mod epilogue;
#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
pub mod gpu;
pub mod layout;
pub mod lds;
pub mod mfma;
mod minifloat;
pub mod mma;
pub mod path;
pub mod pipeline;
pub mod policy;
#[cfg(test)]
mod tests;
pub mod wmma;

pub use block::{ABlockTensor, AccOf, BBlockTensor, BitsOf, CBlockTensor, ElementOf, WarpGemmStep, for_each_warp_gemm};
pub use cshuffle::{CShuffle, MAX_SHUFFLES, SMEM_CAPACITY, ShuffleTile};
pub use dram::{
    CDramChain, DramChain, MnDramChain, make_c_dram_descriptor, make_c_dram_view, make_dram_view, make_mn_dram_view,
};
pub use emulate::{GemmProblem, emulate_block_gemm};
#[cfg(feature = "alloc")]
pub use emulate::{emulate_gemm, emulate_gemm_with};
pub use encodings::{
    ABlockOuter, ADramDistribution, BBlockOuter, BDramDistribution, CBlockOuter, MmaSyncA, MmaSyncB, MmaSyncC,
    WarpAccumulator, WarpOperand, WmmaA, WmmaB, WmmaC,
};
pub use epilogue::{CWindow, Default2D, Epilogue, c_window, store_c_tile};
#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
pub use gpu::block_gemm;
#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
pub use gpu::{get_policy_partition, universal_gemm, universal_gemm_with};
pub use layout::{ALayout, BLayout, ColumnMajor, KContiguous, OperandStorage, RowMajor, RowsContiguous};
pub use lds::{
    KPacks, KPacksLayers, Layer, LdsChain, LdsChainOf, LdsRowStride, MPerLayer, Pack, check_banks, default_kpack,
    kpack, lds_chain, make_lds_block, make_lds_chain, mlds_layer,
};
pub use mfma::{
    Accumulator, Bf8, Bf8Fnuz, Bf16, CElement, ElementKind, Fp8, Fp8Fnuz, Fp16, Int8, MfmaElement, MfmaInstruction,
};
pub use mma::{MmaSyncInstruction, WARP_32, WarpInstruction};
pub use path::{
    BlockGemmSide, BlockWindow, DramTensor, DramWindow, GlobalOf, LdsStoreWindow, OperandA, OperandB, OperandPath,
    OperandSide, WarpTensor, WarpWindow, block_window,
};
pub use pipeline::{CompV3, OneStage, Pipeline};
pub use policy::{
    ADramChain, BDramChain, BlockWarps, GemmPolicy, MAX_WARP_GEMMS, Mfma, Mfma16x16x16, Mfma16x16x32, Mfma32x32x8,
    Mfma32x32x16, MmaSync, UniversalGemmPolicy, WarpGemm, Wmma,
};
pub use wmma::{Gfx11, Gfx12, RdnaWmma, WmmaInstruction};

/// Lanes per warp (CDNA's waves).
///
/// ```
/// assert_eq!(cktile_core::ops::gemm::WAVE, 64);
/// ```
pub const WAVE: usize = 64;
