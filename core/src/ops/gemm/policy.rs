//! The universal GEMM's policy: [`GemmPolicy`], every encoding, chain,
//! tile and builder of CK's `UniversalGemmPipelineAgBgCrPolicy` (and of
//! the block GEMM it picks, `BlockUniversalGemmAsBsCr`) as associated
//! items of one type, and [`UniversalGemmPolicy`], the policy for any
//! block size, block tile, warp layout and MFMA warp GEMM.
//!
//! ```
//! use cktile_core::distribution::typed::TileEncoding;
//! use cktile_core::ops::gemm::{BlockWarps, GemmPolicy, Mfma16x16x32, UniversalGemmPolicy};
//! // 64 x 64 x 32 on 128 threads: 2 x 1 warps of the 16x16x32 MFMA.
//! type P = UniversalGemmPolicy<128, 64, 64, 32, BlockWarps<2, 1>, Mfma16x16x32>;
//! assert_eq!((P::M_ITERS, P::N_ITERS, P::K_ITERS), (2, 4, 1));
//! assert_eq!(<P as GemmPolicy>::BDram::ENCODING, cktile_core::distribution::catalogue::gemm_dram(128, 64, 32, 8)?);
//! # Ok::<(), cktile_core::Error>(())
//! ```

use super::WAVE;
use super::dram::{CDramChain, make_c_dram_descriptor, make_c_dram_view};
#[cfg(doc)]
use super::dram::{make_dram_view, make_mn_dram_view};
use super::encodings::{
    ABlockOuter, ADramDistribution, BBlockOuter, CBlockOuter, MmaSyncA, MmaSyncB, MmaSyncC, WarpAccumulator,
    WarpOperand, WmmaA, WmmaB, WmmaC,
};
use super::layout::{ALayout, BLayout, ColumnMajor, OperandStorage, RowMajor};
use super::lds::kpack;
use super::lds::{LdsChainOf, make_lds_block};
use super::mfma::{Bf8, Bf8Fnuz, Bf16, ElementKind, Fp8, Fp8Fnuz, Fp16, Int8, MfmaElement, MfmaInstruction};
use super::mma::{MmaSyncInstruction, WarpInstruction};
use super::wmma::{Gfx11, Gfx12, RdnaWmma};
use crate::distribution::EmbedEncoding;
use crate::distribution::typed::TileEncoding;
use crate::error::Error;
use crate::tile::{GlobalAccess, Partition, Plain};
use crate::typed::{Chain, TensorDescriptor, TensorView, static_failure};
use cktile_transforms::{Number, Values};
use core::marker::PhantomData;
use typenum::U2;

/// A warp GEMM: CK's `WarpGemm` (what `WarpGemmMfmaDispatcher` returns),
/// its sizes, the instructions it issues and its A, B and C encodings
/// (`AWarpDstrEncoding`, `BWarpDstrEncoding`, `CWarpDstrEncoding`).
/// [`Mfma`] implements it for CK's MFMAs (gfx942), [`MmaSync`] for
/// NVIDIA's `mma.sync` (sm_80 and later; its 8-bit floats sm_89),
/// [`Wmma`] for RDNA's wave32 WMMAs (gfx11, gfx12).
///
/// ```
/// use cktile_core::distribution::typed::TileEncoding;
/// use cktile_core::ops::gemm::{Mfma32x32x16, WarpGemm};
/// assert_eq!((Mfma32x32x16::M, Mfma32x32x16::K, Mfma32x32x16::A_PER_LANE), (32, 16, 8));
/// assert_eq!(<Mfma32x32x16 as WarpGemm>::AWarp::ENCODING, cktile_core::distribution::catalogue::mfma_a(32, 16)?);
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not one of the universal GEMM's warp GEMMs",
    label = "not a warp GEMM",
    note = "the warp GEMMs are Mfma<32, 32, K> with K 8, 16 or 32, Mfma<16, 16, K> with K 16, 32 or 64, MmaSync<32, N, K> with N 8, 16 or 32 and K 16 (16-bit elements) or 32 (8-bit ones), and Wmma<32, N, 16, E, Gfx11 or Gfx12> with N 16, 32 or 64"
)]
pub trait WarpGemm {
    /// The warp tile's M (CK's `kM`).
    const M: usize;
    /// The warp tile's N (`kN`).
    const N: usize;
    /// The warp tile's K (`kK`).
    const K: usize;
    /// The A registers a lane holds for one warp tile: for the MFMAs,
    /// the K values of its row (`kABKPerLane * kKIter`).
    const A_PER_LANE: usize;
    /// The B registers a lane holds for one warp tile (the MFMAs': as
    /// A's).
    const B_PER_LANE: usize;
    /// The accumulator registers a lane holds (`M * N / 64`).
    const C_PER_LANE: usize;
    /// The instruction it issues.
    const INSTRUCTION: WarpInstruction;
    /// The instructions a lane issues for one warp tile: for the MFMAs,
    /// CK's `kKIter` along K; for [`MmaSync`], one each 8 columns; for
    /// [`Wmma`], one each 16 columns.
    const INSTRUCTIONS: usize;
    /// How far each instruction moves on in the lane's A, B and C
    /// registers: instruction `q` starts at `q` times these
    /// ([`WarpGemmStep::instruction`](super::WarpGemmStep::instruction)).
    /// The MFMAs walk K (`(kl, kl, 0)` with `kl` the instruction's K
    /// values a lane: one accumulator), [`MmaSync`] walks N (`(0, 2 p,
    /// 4)` with `p` elements a register: one A fragment), and so does
    /// [`Wmma`] (`(0, kl, 8)`, `kl` the B elements a lane).
    const REGISTER_STEPS: (usize, usize, usize);
    /// The element type of A and B.
    type Element: MfmaElement;
    /// The A operand's encoding.
    type AWarp: TileEncoding;
    /// The B operand's encoding.
    type BWarp: TileEncoding;
    /// The accumulator's encoding (`CWarpDstrEncoding`).
    type CWarp: TileEncoding;
}

/// CK's MFMA warp GEMM of an `M x N x K` warp tile of element type `E` on
/// gfx942: [`Fp16`] (the default), [`Bf16`] or the 8-bit
/// [`Fp8Fnuz`], [`Bf8Fnuz`] and
/// [`Int8`] (gfx942's fp8 and bf8 are the FNUZ formats). Each
/// lane holds `M * K / 64` K values of each operand ([`WarpOperand`]);
/// the instruction holds 8 bytes of them (4 16-bit or 8 8-bit K values),
/// and the warp GEMM is one instruction or CK's `...IterateK` pair of
/// them. The shapes CK's dispatcher has: for 16-bit elements 32x32x8,
/// 32x32x16, 16x16x16 and 16x16x32; for 8-bit ones 32x32x16, 32x32x32,
/// 16x16x32 and 16x16x64. Another shape, or OCP's [`Fp8`] and
/// [`Bf8`], is a compile error from the policy's
/// [`CHECK`](GemmPolicy::CHECK).
///
/// ```
/// use cktile_core::ops::gemm::{Bf16, Fp8Fnuz, Int8, Mfma, WarpGemm};
/// assert_eq!(<Mfma<16, 16, 16> as WarpGemm>::A_PER_LANE, 4);
/// // bf16's 32x32x16: two v_mfma_f32_32x32x8_bf16 along K, 16 accumulators a lane.
/// type W = Mfma<32, 32, 16, Bf16>;
/// assert_eq!((W::INSTRUCTIONS, W::C_PER_LANE, W::INSTRUCTION.k()), (2, 16, 8));
/// // fp8's 32x32x16 is one v_mfma_f32_32x32x16_fp8_fp8; int8's 16x16x64 two v_mfma_i32_16x16x32_i8.
/// assert_eq!((<Mfma<32, 32, 16, Fp8Fnuz> as WarpGemm>::INSTRUCTIONS, <Mfma<16, 16, 64, Int8> as WarpGemm>::INSTRUCTIONS), (1, 2));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mfma<const M: usize, const N: usize, const K: usize, E = Fp16>(PhantomData<E>);

/// The 32x32x8 fp16 MFMA (4 K values a lane).
///
/// ```
/// assert_eq!(<cktile_core::ops::gemm::Mfma32x32x8 as cktile_core::ops::gemm::WarpGemm>::A_PER_LANE, 4);
/// ```
pub type Mfma32x32x8 = Mfma<32, 32, 8>;
/// The 32x32x16 fp16 MFMA (8 K values a lane: one `ds_read_b128`).
///
/// ```
/// assert_eq!(<cktile_core::ops::gemm::Mfma32x32x16 as cktile_core::ops::gemm::WarpGemm>::A_PER_LANE, 8);
/// ```
pub type Mfma32x32x16 = Mfma<32, 32, 16>;
/// The 16x16x16 fp16 MFMA (4 K values a lane).
///
/// ```
/// assert_eq!(<cktile_core::ops::gemm::Mfma16x16x16 as cktile_core::ops::gemm::WarpGemm>::A_PER_LANE, 4);
/// ```
pub type Mfma16x16x16 = Mfma<16, 16, 16>;
/// The 16x16x32 fp16 MFMA (8 K values a lane).
///
/// ```
/// assert_eq!(<cktile_core::ops::gemm::Mfma16x16x32 as cktile_core::ops::gemm::WarpGemm>::A_PER_LANE, 8);
/// ```
pub type Mfma16x16x32 = Mfma<16, 16, 32>;

/// The instructions an MFMA warp GEMM holding `per_lane` K values a lane
/// issues over elements of kind `kind` (`bytes` bytes): one or two (CK's
/// `...IterateK`); a compile error for a shape CK's dispatcher lacks or a
/// format gfx942's MFMAs do not read.
const fn mfma_instructions(per_lane: usize, kind: ElementKind, bytes: usize) -> usize {
    if matches!(kind, ElementKind::Fp8 | ElementKind::Bf8) {
        static_failure(&Error::policy(
            "gfx942's MFMAs read fp8 and bf8 as the FNUZ formats: take Fp8Fnuz or Bf8Fnuz (OCP's Fp8 and Bf8 are mma.sync's)",
        ));
    }
    let instruction = 8 / bytes;
    if per_lane != instruction && per_lane != 2 * instruction {
        static_failure(&Error::policy(
            "no MFMA warp GEMM of CK's has this shape for this element: 16-bit elements take 32x32x8, 32x32x16, 16x16x16 or 16x16x32, 8-bit ones 32x32x16, 32x32x32, 16x16x32 or 16x16x64",
        ));
    }
    per_lane / instruction
}

macro_rules! mfma {
    ($($m:literal x $k:literal => $kl:literal;)+) => {$(
        impl<E: MfmaElement> WarpGemm for Mfma<$m, $m, $k, E> {
            const M: usize = $m;
            const N: usize = $m;
            const K: usize = $k;
            const A_PER_LANE: usize = $kl;
            const B_PER_LANE: usize = $kl;
            const C_PER_LANE: usize = $m * $m / WAVE;
            const INSTRUCTION: WarpInstruction = WarpInstruction::Mfma(MfmaInstruction::of_rows::<$m>(E::BYTES));
            const INSTRUCTIONS: usize = mfma_instructions($kl, E::KIND, E::BYTES);
            const REGISTER_STEPS: (usize, usize, usize) = ($kl / Self::INSTRUCTIONS, $kl / Self::INSTRUCTIONS, 0);
            type Element = E;
            type AWarp = WarpOperand<$m, $kl>;
            type BWarp = WarpOperand<$m, $kl>;
            type CWarp = WarpAccumulator<$m>;
        }
    )+};
}

mfma! {
    32 x 8 => 4;
    32 x 16 => 8;
    32 x 32 => 16;
    16 x 16 => 4;
    16 x 32 => 8;
    16 x 64 => 16;
}

/// NVIDIA's warp GEMM of a 32 x `N` x `K` warp tile of element type `E`
/// on sm_80 and later: the [`WarpGemm`] that puts the universal GEMM's
/// policies on an NVIDIA GPU. The policy's 64-lane warp is a pair of
/// NVIDIA warps, warp `h` of the pair computing rows `16 h .. 16 h + 16`
/// with `N / 8` `mma.sync.aligned` instructions ([`MmaSyncInstruction`]),
/// all on the same A fragment; both hold the warp tile's B. `K` is 16 for
/// 16-bit elements ([`Fp16`], [`Bf16`]:
/// `m16n8k16.row.col.f32`) and 32 for 8-bit ones ([`Fp8`],
/// [`Bf8`]: `m16n8k32.row.col.f32.{e4m3,e5m2}`, sm_89 and
/// later; [`Int8`]: `m16n8k32.row.col.s32.s8.s8.s32`). Its
/// encodings are [`MmaSyncA`], [`MmaSyncB`] and [`MmaSyncC`]. `N` is 8,
/// 16 or 32.
///
/// ```
/// use cktile_core::ops::gemm::{BlockWarps, GemmPolicy, Int8, MmaSync, UniversalGemmPolicy, WarpGemm};
/// type W = MmaSync<32, 16, 16>;
/// // Two mma.sync a lane, each on its 8 A elements, 4 B elements and 4 accumulators.
/// assert_eq!((W::INSTRUCTIONS, W::A_PER_LANE, W::B_PER_LANE, W::C_PER_LANE, W::REGISTER_STEPS), (2, 8, 8, 8, (0, 4, 4)));
/// // 128 x 128 x 32 on 256 threads (8 NVIDIA warps): 2 x 2 policy warps, 2 x 4 warp tiles each.
/// type P = UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, W>;
/// assert_eq!((P::M_ITERS, P::N_ITERS, P::K_ITERS), (2, 4, 2));
/// // int8: m16n8k32, 16 A elements and 8 B elements an instruction.
/// type I = MmaSync<32, 16, 32, Int8>;
/// assert_eq!((I::INSTRUCTIONS, I::A_PER_LANE, I::B_PER_LANE, I::REGISTER_STEPS), (2, 16, 16, (0, 8, 4)));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MmaSync<const M: usize, const N: usize, const K: usize, E = Fp16>(PhantomData<E>);

/// The `mma.sync` a lane issues per warp tile of `n` columns over elements
/// of kind `kind` and `bytes` bytes, the warp tile's K being `k`: `n / 8`;
/// a compile error for a K the element's instruction does not have or a
/// format `mma.sync` does not read.
const fn mma_sync_instructions(n: usize, k: usize, kind: ElementKind, bytes: usize) -> usize {
    if matches!(kind, ElementKind::Fp8Fnuz | ElementKind::Bf8Fnuz) {
        static_failure(&Error::policy(
            "mma.sync reads OCP's fp8 and bf8 (e4m3, e5m2): take Fp8 or Bf8 (the FNUZ formats are gfx942's)",
        ));
    }
    if k != 32 / bytes {
        static_failure(&Error::policy(
            "an MmaSync warp tile's K is the instruction's: 16 for 16-bit elements (m16n8k16), 32 for 8-bit ones (m16n8k32)",
        ));
    }
    n / 8
}

macro_rules! mma_sync {
    ($($k:literal => $pack:literal: $($n:literal),+;)+) => {$($(
        impl<E: MfmaElement> WarpGemm for MmaSync<32, $n, $k, E> {
            const M: usize = 32;
            const N: usize = $n;
            const K: usize = $k;
            const A_PER_LANE: usize = 4 * $pack;
            const B_PER_LANE: usize = $n / 8 * 2 * $pack;
            const C_PER_LANE: usize = 32 * $n / WAVE;
            const INSTRUCTION: WarpInstruction = WarpInstruction::MmaSync(MmaSyncInstruction::of_bytes(E::BYTES));
            const INSTRUCTIONS: usize = mma_sync_instructions($n, $k, E::KIND, E::BYTES);
            const REGISTER_STEPS: (usize, usize, usize) = (0, 2 * $pack, 4);
            type Element = E;
            type AWarp = MmaSyncA<$pack>;
            type BWarp = MmaSyncB<$n, $pack>;
            type CWarp = MmaSyncC<$n>;
        }
    )+)+};
}

mma_sync! {
    16 => 2: 8, 16, 32;
    32 => 4: 8, 16, 32;
}

/// RDNA's warp GEMM of a 32 x `N` x `K` warp tile of element type `E` on
/// generation `G` ([`Gfx11`]: RDNA3; [`Gfx12`], the default: RDNA4): the
/// [`WarpGemm`] that puts the universal GEMM's policies on a wave32 GPU,
/// as [`MmaSync`] does on an NVIDIA one. The policy's 64-lane warp is a
/// pair of wave32 waves, wave `h` computing rows `16 h .. 16 h + 16` with
/// `N / 16` 16x16x16 WMMAs ([`WmmaInstruction`](super::WmmaInstruction)),
/// all on the same A; both hold the warp tile's B. `K` is 16: gfx11 takes
/// [`Fp16`], [`Bf16`] and [`Int8`] (`v_wmma_{f32_16x16x16_f16,
/// f32_16x16x16_bf16, i32_16x16x16_iu8}`), gfx12 also OCP's [`Fp8`] and
/// [`Bf8`] (`v_wmma_f32_16x16x16_{fp8_fp8, bf8_bf8}`); anything else is a
/// compile error from the policy's [`CHECK`](GemmPolicy::CHECK). Its
/// encodings are [`WmmaA`], [`WmmaB`] and [`WmmaC`]. `N` is 16, 32 or 64.
///
/// CK's own RDNA policies count 32-lane warps; these count 64 (the
/// universal GEMM's encodings, whose DRAM distributions and block sizes
/// are CDNA's), so the GEMM reads the same tiles on every target.
///
/// ```
/// use cktile_core::ops::gemm::{BlockWarps, Gfx11, GemmPolicy, Int8, UniversalGemmPolicy, WarpGemm, Wmma};
/// type W = Wmma<32, 32, 16>;
/// // gfx12: two WMMAs a lane, each on its 8 A elements, 8 B elements and 8 accumulators.
/// assert_eq!((W::INSTRUCTIONS, W::A_PER_LANE, W::B_PER_LANE, W::C_PER_LANE, W::REGISTER_STEPS), (2, 8, 16, 16, (0, 8, 8)));
/// // gfx11 holds A's and B's whole K in every lane: 16 elements an instruction.
/// type W11 = Wmma<32, 32, 16, Int8, Gfx11>;
/// assert_eq!((W11::A_PER_LANE, W11::B_PER_LANE, W11::REGISTER_STEPS), (16, 32, (0, 16, 8)));
/// // 128 x 128 x 32 on 256 threads (8 waves): 2 x 2 policy warps, 2 x 2 warp tiles each, 2 K steps.
/// type P = UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, Wmma<32, 32, 16>>;
/// assert_eq!((P::M_ITERS, P::N_ITERS, P::K_ITERS), (2, 2, 2));
/// ```
///
/// ```compile_fail
/// use cktile_core::ops::gemm::{BlockWarps, Fp8, Gfx11, GemmPolicy, UniversalGemmPolicy, Wmma};
/// // gfx11's WMMAs take no fp8.
/// let () = UniversalGemmPolicy::<256, 128, 128, 32, BlockWarps<2, 2>, Wmma<32, 32, 16, Fp8, Gfx11>>::CHECK;
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Wmma<const M: usize, const N: usize, const K: usize, E = Fp16, G = Gfx12>(PhantomData<(E, G)>);

/// The WMMAs a lane issues per warp tile of `n` columns over elements of
/// kind `kind` on generation `G`: `n / 16`; a compile error for a format
/// the generation's WMMAs do not read.
const fn wmma_instructions<G: RdnaWmma>(n: usize, kind: ElementKind) -> usize {
    match kind {
        ElementKind::Fp16 | ElementKind::Bf16 | ElementKind::Int8 => {}
        ElementKind::Fp8 | ElementKind::Bf8 if matches!(G::RDNA, crate::distribution::catalogue::wmma::Rdna::Gfx12) => {
        }
        ElementKind::Fp8 | ElementKind::Bf8 => static_failure(&Error::policy(
            "gfx11's WMMAs take fp16, bf16 and int8: fp8 and bf8 need gfx12 (Wmma<.., Gfx12>)",
        )),
        ElementKind::Fp8Fnuz | ElementKind::Bf8Fnuz => static_failure(&Error::policy(
            "gfx12's WMMAs read OCP's fp8 and bf8: take Fp8 or Bf8 (the FNUZ formats are gfx942's)",
        )),
    }
    n / 16
}

macro_rules! wmma {
    ($($g:ident = $gfx:literal: $($n:literal),+;)+) => {$($(
        impl<E: MfmaElement> WarpGemm for Wmma<32, $n, 16, E, $g> {
            const M: usize = 32;
            const N: usize = $n;
            const K: usize = 16;
            const A_PER_LANE: usize = $g::INSTRUCTION.operand_registers();
            const B_PER_LANE: usize = $n / 16 * Self::A_PER_LANE;
            const C_PER_LANE: usize = 32 * $n / WAVE;
            const INSTRUCTION: WarpInstruction = WarpInstruction::Wmma($g::INSTRUCTION);
            const INSTRUCTIONS: usize = wmma_instructions::<$g>($n, E::KIND);
            const REGISTER_STEPS: (usize, usize, usize) = (0, Self::A_PER_LANE, $g::INSTRUCTION.c_registers());
            type Element = E;
            type AWarp = WmmaA<$gfx>;
            type BWarp = WmmaB<$n, $gfx>;
            type CWarp = WmmaC<$n, $gfx>;
        }
    )+)+};
}

wmma! {
    Gfx11 = 11: 16, 32, 64;
    Gfx12 = 12: 16, 32, 64;
}

/// The block's warps: `M` along M by `N` along N (CK's `BlockWarps`,
/// `sequence<MWarp, NWarp, 1>`); warp `w` is `(w / N, w % N)`.
///
/// ```
/// use cktile_core::ops::gemm::{BlockWarps, GemmPolicy, UniversalGemmPolicy};
/// type P = UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<4, 1>>;
/// assert_eq!((P::M_WARPS, P::N_WARPS, P::M_ITERS, P::N_ITERS), (4, 1, 1, 4));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BlockWarps<const M: usize, const N: usize>;

/// CK's universal GEMM policy for one configuration: the sizes, every
/// encoding and descriptor chain of the A and B data paths as associated
/// types, and their builders. [`UniversalGemmPolicy`] implements it; code
/// generic over `P: GemmPolicy` names `P::ADram`, `P::ALdsChain`, ...,
/// and a concrete policy `<P as GemmPolicy>::ADram` (Rust's spelling of
/// an associated type of a concrete type).
///
/// ```
/// use cktile_core::distribution::typed::TileEncoding;
/// use cktile_core::ops::gemm::{GemmPolicy, UniversalGemmPolicy};
/// use cktile_core::tile::StaticDistributedTensor;
/// /// A thread's registers of the block GEMM's A operand, for any policy.
/// fn a_registers<P: GemmPolicy>() -> usize {
///     StaticDistributedTensor::<u16, P::ABlock>::filled(0).thread_buffer().len()
/// }
/// // M iterations x K iterations x 8 K values a lane.
/// assert_eq!(a_registers::<UniversalGemmPolicy<256, 128, 128, 32>>(), 2 * 2 * 8);
/// assert_eq!(a_registers::<UniversalGemmPolicy<256, 256, 256, 64>>(), 4 * 4 * 8);
/// ```
pub trait GemmPolicy {
    /// Threads per block (CK's `kBlockSize`).
    const BLOCK_SIZE: usize;
    /// MPerBlock.
    const M_PER_BLOCK: usize;
    /// NPerBlock.
    const N_PER_BLOCK: usize;
    /// KPerBlock.
    const K_PER_BLOCK: usize;
    /// Warps along M (`MWarp`).
    const M_WARPS: usize;
    /// Warps along N (`NWarp`).
    const N_WARPS: usize;
    /// The warp GEMM's M.
    const WARP_M: usize;
    /// The warp GEMM's N.
    const WARP_N: usize;
    /// The warp GEMM's K.
    const WARP_K: usize;
    /// Warp tiles a warp iterates along M (`MIterPerWarp`).
    const M_ITERS: usize;
    /// Warp tiles a warp iterates along N (`NIterPerWarp`).
    const N_ITERS: usize;
    /// Warp tiles per K tile (`KIterPerWarp`).
    const K_ITERS: usize;
    /// The elements of one DRAM load where K is contiguous (CK's
    /// `VectorSizeA`/`VectorSizeB`): 16 bytes of them, 8 16-bit or 16
    /// 8-bit elements.
    ///
    /// ```
    /// use cktile_core::ops::gemm::{BlockWarps, GemmPolicy, Int8, Mfma, UniversalGemmPolicy};
    /// assert_eq!(<UniversalGemmPolicy<256, 128, 128, 32> as GemmPolicy>::VECTOR, 8);
    /// assert_eq!(<UniversalGemmPolicy<256, 128, 128, 64, BlockWarps<2, 2>, Mfma<32, 32, 32, Int8>> as GemmPolicy>::VECTOR, 16);
    /// ```
    const VECTOR: usize;
    /// KPack: the elements of one LDS vector of the A and B blocks, CK's
    /// `GetSmemPackA`: the warp GEMM's K values a lane, at most 16 bytes of
    /// them ([`kpack`]).
    ///
    /// ```
    /// use cktile_core::ops::gemm::{BlockWarps, GemmPolicy, Mfma32x32x8, UniversalGemmPolicy};
    /// assert_eq!(<UniversalGemmPolicy<256, 128, 128, 32> as GemmPolicy>::KPACK, 8);
    /// // The 32x32x8 MFMA holds 4 K values a lane: KPack 4.
    /// assert_eq!(<UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, Mfma32x32x8> as GemmPolicy>::KPACK, 4);
    /// ```
    const KPACK: usize;
    /// Lanes of the warps the policy's encodings are written for (their
    /// lane P dimension: [`WAVE`], CDNA's 64, for [`UniversalGemmPolicy`]).
    /// The partition the windows take must count lanes the same way
    /// ([`partition_of_thread`](Self::partition_of_thread); on a GPU,
    /// `ops::gemm::get_policy_partition`), whatever the hardware's warp.
    ///
    /// ```
    /// use cktile_core::ops::gemm::{GemmPolicy, UniversalGemmPolicy};
    /// assert_eq!(<UniversalGemmPolicy<256, 128, 128, 32> as GemmPolicy>::WAVE, 64);
    /// ```
    const WAVE: usize;
    /// The configuration's checks (CK's `static_assert`s), each a compile
    /// error with its message when it fails: the block size against the
    /// warps, and every encoding's own requirements. The library's
    /// functions over a policy evaluate it.
    const CHECK: ();
    /// The warp GEMM.
    type Warp: WarpGemm;
    /// How the GEMM reads A and B from global memory
    /// ([`GlobalMemory`](crate::tile::GlobalMemory)): [`Plain`] loads, or
    /// CK's buffer loads of an AMD generation
    /// ([`BufferGfx9`](crate::tile::BufferGfx9) for the MFMAs of gfx942
    /// and gfx950, [`BufferGfx11`](crate::tile::BufferGfx11) for the WMMAs
    /// of gfx11 and gfx12), whose hardware range check reads a vector
    /// outside as zeros with no compare and branch. The last parameter of
    /// [`UniversalGemmPolicy`], `Plain` by default.
    type Global: GlobalAccess;
    /// A's DRAM distribution (`MakeADramTileDistribution`), also the LDS store's.
    type ADram: TileEncoding;
    /// B's DRAM distribution (`MakeBDramTileDistribution`).
    type BDram: TileEncoding;
    /// The warp GEMM's A operand encoding.
    type AWarp: TileEncoding;
    /// The warp GEMM's B operand encoding.
    type BWarp: TileEncoding;
    /// The block GEMM's outer encoding of A.
    type ABlockOuter: TileEncoding;
    /// The block GEMM's outer encoding of B.
    type BBlockOuter: TileEncoding;
    /// The block GEMM's A distribution: the outer encoding embedded with
    /// the warp operand's (`MakeABlockDistributionEncode`).
    type ABlock: TileEncoding;
    /// The block GEMM's B distribution.
    type BBlock: TileEncoding;
    /// The warp GEMM's accumulator encoding.
    type CWarp: TileEncoding;
    /// The block GEMM's outer encoding of C.
    type CBlockOuter: TileEncoding;
    /// The block's C distribution (CK's `MakeCBlockTile`): the outer
    /// encoding embedded with the accumulator's (Y = M iteration, N
    /// iteration, then the accumulator's registers).
    ///
    /// ```
    /// use cktile_core::distribution::typed::TileEncoding;
    /// use cktile_core::ops::gemm::{GemmPolicy, UniversalGemmPolicy};
    /// type P = UniversalGemmPolicy<256, 128, 128, 32>;
    /// // 2 x 2 warp tiles of 16 accumulators a thread: 128 * 128 / 256.
    /// assert_eq!(<P as GemmPolicy>::CBlock::ENCODING.y_elements(), 64);
    /// ```
    type CBlock: TileEncoding;
    /// A's LDS block chain (`MakeALdsBlockDescriptor`).
    type ALdsChain: Chain<NumTop = U2>;
    /// B's LDS block chain (`MakeBLdsBlockDescriptor`).
    type BLdsChain: Chain<NumTop = U2>;
    /// How A, seen as M x K, lies in global memory (its layout's
    /// [`OperandStorage`]).
    type AStorage: OperandStorage;
    /// How B, seen as N x K, lies in global memory.
    type BStorage: OperandStorage;
    /// A's DRAM view chain: its storage's
    /// [`Chain`](OperandStorage::Chain) at the policy's vector
    /// ([`ADramChain`]).
    type ADramChain: Chain<NumTop = U2>;
    /// B's DRAM view chain ([`BDramChain`]).
    type BDramChain: Chain<NumTop = U2>;
    /// A's block tile lengths (MPerBlock, KPerBlock) as compile-time numbers.
    type ATile: Values<Len = U2> + Default;
    /// B's block tile lengths (NPerBlock, KPerBlock).
    type BTile: Values<Len = U2> + Default;
    /// A's warp tile lengths (the warp GEMM's M and K).
    type AWarpTile: Values<Len = U2> + Default;
    /// B's warp tile lengths (the warp GEMM's N and K).
    type BWarpTile: Values<Len = U2> + Default;
    /// C's block tile lengths (MPerBlock, NPerBlock).
    type CTile: Values<Len = U2> + Default;
    /// A's LDS block descriptor.
    ///
    /// ```
    /// use cktile_core::ops::gemm::{GemmPolicy, UniversalGemmPolicy};
    /// assert_eq!(UniversalGemmPolicy::<256, 128, 64, 32>::make_a_lds_block()?.element_space_size(), 128 * 32);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    fn make_a_lds_block() -> Result<TensorDescriptor<Self::ALdsChain>, Error>;

    /// The partition of thread `thread` of a block run by this policy:
    /// warps of [`WAVE`](Self::WAVE) lanes, whatever the hardware's
    /// (an NVIDIA warp is 32 lanes; this policy's data path is written
    /// for 64), `None` past [`BLOCK_SIZE`](Self::BLOCK_SIZE)
    /// ([`Partition::in_block`]). On a GPU, `ops::gemm::get_policy_partition`
    /// reads it from the hardware ids.
    ///
    /// ```
    /// use cktile_core::ops::gemm::{GemmPolicy, UniversalGemmPolicy};
    /// use cktile_core::tile::Partition;
    /// type P = UniversalGemmPolicy<256, 128, 128, 32>;
    /// // Thread 100: warp 1, lane 36 (64-lane warps, on every target).
    /// assert_eq!(P::partition_of_thread(100), Some(Partition { warp: 1, lane: 36 }));
    /// assert_eq!(P::partition_of_thread(256), None);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn partition_of_thread(thread: usize) -> Option<Partition> {
        let () = Self::CHECK;
        Partition::of_thread(thread, Self::WAVE)?.in_block(Self::BLOCK_SIZE, Self::WAVE)
    }
    /// B's LDS block descriptor.
    ///
    /// ```
    /// use cktile_core::ops::gemm::{GemmPolicy, UniversalGemmPolicy};
    /// assert_eq!(UniversalGemmPolicy::<256, 128, 64, 32>::make_b_lds_block()?.element_space_size(), 64 * 32);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    fn make_b_lds_block() -> Result<TensorDescriptor<Self::BLdsChain>, Error>;
    /// A's DRAM view, padded to MPerBlock x KPerBlock ([`make_dram_view`]
    /// for a row-major A, [`make_mn_dram_view`] for a column-major one; the
    /// stride is A's leading dimension).
    ///
    /// ```
    /// use cktile_core::ops::gemm::{GemmPolicy, UniversalGemmPolicy};
    /// let a = vec![0u16; 100 * 40];
    /// let v = UniversalGemmPolicy::<256, 128, 64, 32>::make_a_dram_view(&a, 100, 40, 40)?;
    /// assert_eq!(v.descriptor().lengths().as_slice(), &[128, 64]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    fn make_a_dram_view<T: Copy>(
        data: &[T],
        rows: usize,
        k: usize,
        stride: usize,
    ) -> Result<TensorView<&[T], ADramChain<Self>>, Error>;
    /// B's DRAM view (padded to NPerBlock x KPerBlock).
    ///
    /// ```
    /// use cktile_core::ops::gemm::{GemmPolicy, UniversalGemmPolicy};
    /// let b = vec![0u16; 100 * 40];
    /// let v = UniversalGemmPolicy::<256, 128, 64, 32>::make_b_dram_view(&b, 100, 40, 40)?;
    /// assert_eq!(v.descriptor().lengths().as_slice(), &[128, 64]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    fn make_b_dram_view<T: Copy>(
        data: &[T],
        rows: usize,
        k: usize,
        stride: usize,
    ) -> Result<TensorView<&[T], BDramChain<Self>>, Error>;
    /// C's DRAM view ([`make_c_dram_view`] padded to MPerBlock x NPerBlock).
    ///
    /// ```
    /// use cktile_core::ops::gemm::{GemmPolicy, UniversalGemmPolicy};
    /// let mut c = vec![0f32; 100 * 70];
    /// let v = UniversalGemmPolicy::<256, 128, 64, 32>::make_c_dram_view(&mut c, 100, 70, 70)?;
    /// assert_eq!(v.descriptor().lengths().as_slice(), &[128, 128]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    fn make_c_dram_view<T: Copy>(
        data: &mut [T],
        rows: usize,
        cols: usize,
        stride: usize,
    ) -> Result<TensorView<&mut [T], CDramChain>, Error>;
    /// C's DRAM descriptor ([`make_c_dram_descriptor`] padded to MPerBlock
    /// x NPerBlock) over a C of `len` elements: the view's, with every
    /// check, made without C's slice (as `universal_gemm_with` makes it on
    /// the GPU targets, then wraps the slice with `make_tensor_view`).
    ///
    /// ```
    /// use cktile_core::ops::gemm::{GemmPolicy, UniversalGemmPolicy};
    /// type P = UniversalGemmPolicy<256, 128, 64, 32>;
    /// let mut c = vec![0f32; 100 * 70];
    /// let desc = P::make_c_dram_descriptor(c.len(), 100, 70, 70)?;
    /// assert_eq!(desc, *P::make_c_dram_view(&mut c, 100, 70, 70)?.descriptor());
    /// assert!(P::make_c_dram_descriptor(c.len() - 1, 100, 70, 70).is_err());
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    fn make_c_dram_descriptor(
        len: usize,
        rows: usize,
        cols: usize,
        stride: usize,
    ) -> Result<TensorDescriptor<CDramChain>, Error>;
}

/// A's DRAM view chain under policy `P` (its storage's
/// [`Chain`](OperandStorage::Chain) at the policy's vector).
///
/// ```
/// use cktile_core::ops::gemm::{ADramChain, BlockWarps, DramChain, Fp8Fnuz, Mfma, UniversalGemmPolicy};
/// let _: fn(ADramChain<UniversalGemmPolicy<256, 128, 128, 32>>) -> DramChain<8> = |x| x;
/// type P8 = UniversalGemmPolicy<256, 128, 128, 64, BlockWarps<2, 2>, Mfma<32, 32, 32, Fp8Fnuz>>;
/// let _: fn(ADramChain<P8>) -> DramChain<16> = |x| x;
/// ```
pub type ADramChain<P> = <P as GemmPolicy>::ADramChain;

/// B's DRAM view chain under policy `P`.
///
/// ```
/// use cktile_core::ops::gemm::{BDramChain, BlockWarps, Mfma32x32x16, MnDramChain, RowMajor, UniversalGemmPolicy};
/// type P = UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, Mfma32x32x16, RowMajor, RowMajor>;
/// let _: fn(BDramChain<P>) -> MnDramChain = |x| x;
/// ```
pub type BDramChain<P> = <P as GemmPolicy>::BDramChain;

/// CK's universal GEMM policy for a `BLOCK`-thread block computing an
/// `M x N x K` block tile (MPerBlock, NPerBlock, KPerBlock) with the
/// warps `Warps` ([`BlockWarps`], 2 x 2 by default) and the warp GEMM
/// `Warp` ([`Mfma`], the 32x32x16 fp16 MFMA by default; its element type
/// is the GEMM's, 16- or 8-bit: DRAM vectors and LDS packs of 16 bytes),
/// for A and B laid out as `A` and `B` say ([`RowMajor`] A and
/// [`ColumnMajor`] B by default, CK's `ALayout` and `BLayout`: see
/// [`layout`](super::layout)), and A and B read from global memory as
/// `Global` says ([`Plain`] loads by default, or CK's buffer loads on
/// AMD GPUs: [`BufferGfx9`](crate::tile::BufferGfx9) for the MFMAs,
/// [`BufferGfx11`](crate::tile::BufferGfx11) for the WMMAs; see
/// [`GemmPolicy::Global`]): one line per configuration, every encoding,
/// chain and builder an associated item of [`GemmPolicy`]. A
/// configuration CK refuses is a compile error naming the requirement.
///
/// ```
/// use cktile_core::distribution::typed::TileEncoding;
/// use cktile_core::distribution::{catalogue, embed_encoding};
/// use cktile_core::ops::gemm::{BlockWarps, ColumnMajor, GemmPolicy, Mfma32x32x16, UniversalGemmPolicy};
/// type P = UniversalGemmPolicy<256, 256, 256, 64>;
/// assert_eq!(<P as GemmPolicy>::ADram::ENCODING, catalogue::gemm_dram(256, 256, 64, 8)?);
/// assert_eq!(<P as GemmPolicy>::AWarp::ENCODING, catalogue::mfma_a(32, 16)?);
/// let block = embed_encoding(&<P as GemmPolicy>::ABlockOuter::ENCODING, &catalogue::mfma_a(32, 16)?)?;
/// assert_eq!(<P as GemmPolicy>::ABlock::ENCODING, block);
/// // The same tiles over a column-major A: element (m, k) at k * lda + m.
/// type Pc = UniversalGemmPolicy<256, 256, 256, 64, BlockWarps<2, 2>, Mfma32x32x16, ColumnMajor>;
/// let a = vec![0u16; 64 * 300];
/// assert_eq!(Pc::make_a_dram_view(&a, 256, 64, 300)?.descriptor().calculate_offset([5, 2]), 605);
/// # Ok::<(), cktile_core::Error>(())
/// ```
///
/// ```compile_fail
/// use cktile_core::ops::gemm::{GemmPolicy, UniversalGemmPolicy};
/// // 2 x 2 warps are 256 threads, not 128.
/// let () = UniversalGemmPolicy::<128, 64, 64, 32>::CHECK;
/// ```
///
/// ```compile_fail
/// use cktile_core::ops::gemm::{BlockWarps, GemmPolicy, Mfma, UniversalGemmPolicy};
/// // No fp16 MFMA is 32x32x32.
/// let () = UniversalGemmPolicy::<256, 128, 128, 32, BlockWarps<2, 2>, Mfma<32, 32, 32>>::CHECK;
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct UniversalGemmPolicy<
    const BLOCK: usize,
    const M: usize,
    const N: usize,
    const K: usize,
    Warps = BlockWarps<2, 2>,
    Warp = Mfma32x32x16,
    A = RowMajor,
    B = ColumnMajor,
    Global = Plain,
>(PhantomData<(Warps, Warp, A, B, Global)>);

/// A quotient, or 0 for a division by zero (a configuration `CHECK` refuses).
const fn or_zero(v: Option<usize>) -> usize {
    match v {
        Some(v) => v,
        None => 0,
    }
}

/// The A and B outer encodings of a configuration, by name (the policy's
/// where-clauses and associated types).
type AOuter<const M: usize, const K: usize, const MW: usize, const NW: usize, const WM: usize, const WK: usize> =
    ABlockOuter<M, K, MW, NW, WM, WK>;
type BOuter<const N: usize, const K: usize, const MW: usize, const NW: usize, const WN: usize, const WK: usize> =
    BBlockOuter<N, K, MW, NW, WN, WK>;
type COuter<const M: usize, const N: usize, const MW: usize, const NW: usize, const WM: usize, const WN: usize> =
    CBlockOuter<M, N, MW, NW, WM, WN>;

/// The most warp GEMMs one block GEMM step unrolls (its K x M x N warp
/// tiles; a policy past it is a compile error): 256, CK's largest tiles
/// (256 x 256 x 64 over 2 x 2 warps of the 16x16x16 MFMA).
///
/// ```
/// use cktile_core::ops::gemm::{GemmPolicy, MAX_WARP_GEMMS, Mfma16x16x16, BlockWarps, UniversalGemmPolicy};
/// type P = UniversalGemmPolicy<256, 256, 256, 64, BlockWarps<2, 2>, Mfma16x16x16>;
/// assert_eq!(P::K_ITERS * P::M_ITERS * P::N_ITERS, MAX_WARP_GEMMS);
/// ```
pub const MAX_WARP_GEMMS: usize = 256;

/// Refuses a block GEMM step of more than [`MAX_WARP_GEMMS`] warp GEMMs.
const fn check_warp_gemms(k_iters: usize, m_iters: usize, n_iters: usize) {
    if k_iters.saturating_mul(m_iters).saturating_mul(n_iters) > MAX_WARP_GEMMS {
        static_failure(&Error::policy(
            "the block GEMM unrolls at most 256 warp GEMMs (K x M x N warp tiles): take a smaller block tile or more warps",
        ));
    }
}

/// A universal policy's block size against its warps (a compile error
/// from its `CHECK` when they disagree).
const fn check_block_size(block: usize, m_warps: usize, n_warps: usize) {
    if m_warps == 0 || n_warps == 0 || block != m_warps * n_warps * WAVE {
        static_failure(&Error::policy(
            "the block size must be MWarp * NWarp * 64: the block's threads are its BlockWarps' warps",
        ));
    }
}

/// [`UniversalGemmPolicy`] over each warp GEMM family (`Mfma`, `MmaSync`,
/// `Wmma` over each generation)
/// and each element type it takes (`$bytes` bytes: the DRAM vector and
/// LDS pack are 16 bytes of elements): one impl each, every type a
/// concrete one of the configuration's sizes.
macro_rules! universal_policy {
    ($($family:ident $generation:tt: $($elem:ident = $bytes:literal),+;)+) => {$($(
        universal_policy!(@one $family $generation $elem $bytes);
    )+)+};
    // One family and element; `[G: Bound]` for a family generic over a generation (`Wmma`).
    (@one $family:ident [$($g:ident: $bound:path)?] $elem:ident $bytes:literal) => {
impl<
    const BLOCK: usize,
    const M: usize,
    const N: usize,
    const K: usize,
    const MW: usize,
    const NW: usize,
    const WM: usize,
    const WN: usize,
    const WK: usize,
    A: ALayout,
    B: BLayout,
    Global: GlobalAccess,
    $($g: $bound,)?
> GemmPolicy for UniversalGemmPolicy<BLOCK, M, N, K, BlockWarps<MW, NW>, $family<WM, WN, WK, $elem $(, $g)?>, A, B, Global>
where
    $family<WM, WN, WK, $elem $(, $g)?>: WarpGemm,
    ADramDistribution<BLOCK, M, K, { 16 / $bytes }>: TileEncoding,
    ADramDistribution<BLOCK, N, K, { 16 / $bytes }>: TileEncoding,
    AOuter<M, K, MW, NW, WM, WK>: TileEncoding,
    BOuter<N, K, MW, NW, WN, WK>: TileEncoding,
    EmbedEncoding<AOuter<M, K, MW, NW, WM, WK>, <$family<WM, WN, WK, $elem $(, $g)?> as WarpGemm>::AWarp>: TileEncoding,
    EmbedEncoding<BOuter<N, K, MW, NW, WN, WK>, <$family<WM, WN, WK, $elem $(, $g)?> as WarpGemm>::BWarp>: TileEncoding,
    COuter<M, N, MW, NW, WM, WN>: TileEncoding,
    EmbedEncoding<COuter<M, N, MW, NW, WM, WN>, <$family<WM, WN, WK, $elem $(, $g)?> as WarpGemm>::CWarp>: TileEncoding,
{
    const BLOCK_SIZE: usize = BLOCK;
    const M_PER_BLOCK: usize = M;
    const N_PER_BLOCK: usize = N;
    const K_PER_BLOCK: usize = K;
    const M_WARPS: usize = MW;
    const N_WARPS: usize = NW;
    const WARP_M: usize = WM;
    const WARP_N: usize = WN;
    const WARP_K: usize = WK;
    const M_ITERS: usize = or_zero(M.checked_div(MW * WM));
    const N_ITERS: usize = or_zero(N.checked_div(NW * WN));
    const K_ITERS: usize = or_zero(K.checked_div(WK));
    const VECTOR: usize = 16 / $bytes;
    const KPACK: usize = match kpack($bytes, WM * WK / WAVE) {
        Ok(p) => p,
        Err(e) => static_failure(&e),
    };
    const WAVE: usize = WAVE;
    const CHECK: () = {
        // The warp GEMM exists for this element (its instruction count is checked when evaluated).
        let _instructions = <Self::Warp as WarpGemm>::INSTRUCTIONS;
        check_block_size(BLOCK, MW, NW);
        check_warp_gemms(Self::K_ITERS, Self::M_ITERS, Self::N_ITERS);
        // Every encoding's own requirements, in CK's order: the DRAM loads, then the block GEMM.
        let _encodings = [
            <Self::ADram as TileEncoding>::ENCODING,
            <Self::BDram as TileEncoding>::ENCODING,
            <Self::AWarp as TileEncoding>::ENCODING,
            <Self::BWarp as TileEncoding>::ENCODING,
            <Self::ABlock as TileEncoding>::ENCODING,
            <Self::BBlock as TileEncoding>::ENCODING,
            <Self::CBlock as TileEncoding>::ENCODING,
        ];
    };
    type Warp = $family<WM, WN, WK, $elem $(, $g)?>;
    type Global = Global;
    type ADram = ADramDistribution<BLOCK, M, K, { 16 / $bytes }>;
    type BDram = ADramDistribution<BLOCK, N, K, { 16 / $bytes }>;
    type AWarp = <$family<WM, WN, WK, $elem $(, $g)?> as WarpGemm>::AWarp;
    type BWarp = <$family<WM, WN, WK, $elem $(, $g)?> as WarpGemm>::BWarp;
    type ABlockOuter = AOuter<M, K, MW, NW, WM, WK>;
    type BBlockOuter = BOuter<N, K, MW, NW, WN, WK>;
    type ABlock = EmbedEncoding<AOuter<M, K, MW, NW, WM, WK>, <$family<WM, WN, WK, $elem $(, $g)?> as WarpGemm>::AWarp>;
    type BBlock = EmbedEncoding<BOuter<N, K, MW, NW, WN, WK>, <$family<WM, WN, WK, $elem $(, $g)?> as WarpGemm>::BWarp>;
    type CWarp = <$family<WM, WN, WK, $elem $(, $g)?> as WarpGemm>::CWarp;
    type CBlockOuter = COuter<M, N, MW, NW, WM, WN>;
    type CBlock = EmbedEncoding<COuter<M, N, MW, NW, WM, WN>, <$family<WM, WN, WK, $elem $(, $g)?> as WarpGemm>::CWarp>;
    // One KPack for both blocks: the A operand's K values a lane (an MFMA's B holds as many; an
    // MmaSync's a 16-byte vector).
    type ALdsChain = LdsChainOf<M, K, $bytes, WM, WK>;
    type BLdsChain = LdsChainOf<N, K, $bytes, WM, WK>;
    type AStorage = A::Storage;
    type BStorage = B::Storage;
    type ADramChain = <A::Storage as OperandStorage>::Chain<{ 16 / $bytes }>;
    type BDramChain = <B::Storage as OperandStorage>::Chain<{ 16 / $bytes }>;
    type ATile = (Number<M>, Number<K>);
    type BTile = (Number<N>, Number<K>);
    type AWarpTile = (Number<WM>, Number<WK>);
    type BWarpTile = (Number<WN>, Number<WK>);
    type CTile = (Number<M>, Number<N>);

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn make_a_lds_block() -> Result<TensorDescriptor<Self::ALdsChain>, Error> {
        make_lds_block::<M, K, $bytes, WM, WK>()
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn make_b_lds_block() -> Result<TensorDescriptor<Self::BLdsChain>, Error> {
        make_lds_block::<N, K, $bytes, WM, WK>()
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn make_a_dram_view<T: Copy>(
        data: &[T],
        rows: usize,
        k: usize,
        stride: usize,
    ) -> Result<TensorView<&[T], ADramChain<Self>>, Error> {
        A::Storage::make_view::<M, K, { 16 / $bytes }, T>(data, rows, k, stride)
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn make_b_dram_view<T: Copy>(
        data: &[T],
        rows: usize,
        k: usize,
        stride: usize,
    ) -> Result<TensorView<&[T], BDramChain<Self>>, Error> {
        B::Storage::make_view::<N, K, { 16 / $bytes }, T>(data, rows, k, stride)
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn make_c_dram_view<T: Copy>(
        data: &mut [T],
        rows: usize,
        cols: usize,
        stride: usize,
    ) -> Result<TensorView<&mut [T], CDramChain>, Error> {
        make_c_dram_view::<M, N, T>(data, rows, cols, stride)
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn make_c_dram_descriptor(
        len: usize,
        rows: usize,
        cols: usize,
        stride: usize,
    ) -> Result<TensorDescriptor<CDramChain>, Error> {
        make_c_dram_descriptor::<M, N>(len, rows, cols, stride)
    }
}
    };
}

universal_policy! {
    Mfma []: Fp16 = 2, Bf16 = 2, Fp8Fnuz = 1, Bf8Fnuz = 1, Int8 = 1, Fp8 = 1, Bf8 = 1;
    MmaSync []: Fp16 = 2, Bf16 = 2, Fp8 = 1, Bf8 = 1, Int8 = 1, Fp8Fnuz = 1, Bf8Fnuz = 1;
    Wmma [G: RdnaWmma]: Fp16 = 2, Bf16 = 2, Fp8 = 1, Bf8 = 1, Int8 = 1, Fp8Fnuz = 1, Bf8Fnuz = 1;
}
