//! CK's block GEMM and its epilogue, over a policy's C distribution:
//!
//! - [`for_each_warp_gemm`]: the block GEMM's schedule
//!   (`BlockUniversalGemmAsBsCr::operator()`): K iterations outermost, then
//!   M, then N, each warp GEMM reading a slice of the thread's A and B
//!   block tensors ([`block_window`](super::block_window)'s loads) and
//!   accumulating into a slice of its C block tensor ([`CBlockTensor`]).
//!   Written once: the GPU's per-thread block GEMM (`ops::gemm::block_gemm`,
//!   the MFMA intrinsics on amdgcn, `mma.sync` on nvptx) and the host's
//!   emulation of a whole policy warp
//!   ([`emulate_block_gemm`](super::emulate_block_gemm), the vendors' lane
//!   maps) walk the same steps.
//!
//! The epilogue that stores the C block tensor is [`epilogue`](super::epilogue)'s.
//!
//! ```
//! use cktile_core::ops::gemm::{CBlockTensor, GemmPolicy, UniversalGemmPolicy, for_each_warp_gemm};
//! type P = UniversalGemmPolicy<256, 128, 128, 32>;
//! let mut steps = Vec::new();
//! for_each_warp_gemm::<P>(|s| steps.push((s.k_iter, s.m_iter, s.n_iter, s.c)));
//! // 2 K iterations x 2 x 2 warp tiles; warp tile (1, 0) accumulates in registers 32..48.
//! assert_eq!(steps.len(), 8);
//! assert_eq!(steps[2], (0, 1, 0, 32));
//! assert_eq!(CBlockTensor::<P>::filled(0.0).thread_buffer().len(), 64);
//! ```

use super::mfma::MfmaElement;
use super::policy::{GemmPolicy, MAX_WARP_GEMMS, WarpGemm};
use crate::tile::StaticDistributedTensor;
use cktile_transforms::static_for;

/// A thread's A block tensor: its registers of every A warp tile of the
/// LDS block ([`block_window`](super::block_window) of
/// [`OperandA`](super::OperandA), loaded), the elements as their bits
/// ([`BitsOf`]).
///
/// ```
/// use cktile_core::ops::gemm::{ABlockTensor, UniversalGemmPolicy};
/// // 2 M iterations x 2 K iterations x 8 K values a lane.
/// assert_eq!(ABlockTensor::<UniversalGemmPolicy<256, 128, 128, 32>>::filled(0).thread_buffer().len(), 32);
/// ```
pub type ABlockTensor<P> = StaticDistributedTensor<BitsOf<P>, <P as GemmPolicy>::ABlock>;

/// A thread's B block tensor ([`ABlockTensor`] of
/// [`OperandB`](super::OperandB)).
///
/// ```
/// use cktile_core::ops::gemm::{BBlockTensor, UniversalGemmPolicy};
/// assert_eq!(BBlockTensor::<UniversalGemmPolicy<256, 128, 64, 32>>::filled(0).thread_buffer().len(), 16);
/// ```
pub type BBlockTensor<P> = StaticDistributedTensor<BitsOf<P>, <P as GemmPolicy>::BBlock>;

/// A thread's C block tensor (CK's `MakeCBlockTile`): its accumulators of
/// every warp tile of the block tile, distributed by
/// [`GemmPolicy::CBlock`].
///
/// ```
/// use cktile_core::ops::gemm::{BlockWarps, CBlockTensor, Mfma16x16x32, UniversalGemmPolicy};
/// // 64 x 64 over 2 x 1 warps of 16 x 16: 2 x 4 warp tiles of 4 accumulators.
/// type P = UniversalGemmPolicy<128, 64, 64, 32, BlockWarps<2, 1>, Mfma16x16x32>;
/// assert_eq!(CBlockTensor::<P>::filled(0.0).thread_buffer().len(), 32);
/// ```
pub type CBlockTensor<P> = StaticDistributedTensor<AccOf<P>, <P as GemmPolicy>::CBlock>;

/// One warp GEMM of a block GEMM: the warp tile (`m_iter`, `n_iter`) at
/// K iteration `k_iter`, and where its operands and accumulators start in
/// the thread's block tensors' buffers (`a`: [`WarpGemm::A_PER_LANE`]
/// registers of the [`ABlockTensor`], `b`: [`WarpGemm::B_PER_LANE`] of
/// the [`BBlockTensor`], `c`:
/// [`WarpGemm::C_PER_LANE`] of the [`CBlockTensor`]).
///
/// ```
/// use cktile_core::ops::gemm::{UniversalGemmPolicy, WarpGemmStep, for_each_warp_gemm};
/// let mut last = None;
/// for_each_warp_gemm::<UniversalGemmPolicy<256, 128, 128, 32>>(|s| last = Some(s));
/// assert_eq!(last, Some(WarpGemmStep { m_iter: 1, n_iter: 1, k_iter: 1, a: 24, b: 24, c: 48 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WarpGemmStep {
    /// The warp tile's M iteration.
    pub m_iter: usize,
    /// The warp tile's N iteration.
    pub n_iter: usize,
    /// The K iteration.
    pub k_iter: usize,
    /// The first A register (Y = (`m_iter`, `k_iter`, 0)).
    pub a: usize,
    /// The first B register (Y = (`n_iter`, `k_iter`, 0)).
    pub b: usize,
    /// The first accumulator (Y = (`m_iter`, `n_iter`, 0, 0)).
    pub c: usize,
}

impl WarpGemmStep {
    /// Where instruction `q` of warp GEMM `W` (of its
    /// [`INSTRUCTIONS`](WarpGemm::INSTRUCTIONS)) reads its A and B
    /// registers and accumulates: the first of each, `q` times
    /// [`REGISTER_STEPS`](WarpGemm::REGISTER_STEPS) on.
    ///
    /// ```
    /// use cktile_core::ops::gemm::{Mfma32x32x16, MmaSync, WarpGemmStep};
    /// let s = WarpGemmStep { m_iter: 1, n_iter: 0, k_iter: 1, a: 24, b: 8, c: 32 };
    /// // The MFMAs walk K: 4 registers of A and of B on, the same accumulators.
    /// assert_eq!(s.instruction::<Mfma32x32x16>(1), (28, 12, 32));
    /// // mma.sync walks N: the same A, 4 registers of B and of C on.
    /// assert_eq!(s.instruction::<MmaSync<32, 16, 16>>(1), (24, 12, 36));
    /// ```
    pub const fn instruction<W: WarpGemm>(&self, q: usize) -> (usize, usize, usize) {
        let (a, b, c) = W::REGISTER_STEPS;
        (self.a + q * a, self.b + q * b, self.c + q * c)
    }
}

/// Calls `f` with each warp GEMM of policy `P`'s block GEMM, in CK's
/// order (`BlockUniversalGemmAsBsCr`: K iterations, then M, then N). The
/// registers are the block tensors' Y indices packed, as CK's
/// `get_y_sliced_thread_data` reads them; the loops are unrolled, so on a
/// GPU every register index is a constant. A policy whose block GEMM has
/// more than [`MAX_WARP_GEMMS`] warp GEMMs is a compile error.
///
/// ```
/// use cktile_core::ops::gemm::{BlockWarps, Mfma32x32x8, UniversalGemmPolicy, for_each_warp_gemm};
/// type P = UniversalGemmPolicy<256, 256, 128, 64, BlockWarps<2, 2>, Mfma32x32x8>;
/// let mut n = 0;
/// for_each_warp_gemm::<P>(|s| {
///     assert_eq!(s.a, (s.m_iter * 8 + s.k_iter) * 4);
///     n += 1;
/// });
/// assert_eq!(n, 8 * 4 * 2);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn for_each_warp_gemm<P: GemmPolicy>(f: impl FnMut(WarpGemmStep)) {
    // Checked here too, so that a refused policy's error points at the caller's line.
    let () = P::CHECK;
    visit_warp_gemms::<P, _>(&mut Calls(f));
}

/// What [`visit_warp_gemms`] calls with each warp GEMM step. The GPUs'
/// block GEMMs implement it with their `step` always inlined: a closure is
/// inlined where LLVM judges it worth it, and a kernel body a few checks
/// longer called its 16 warp GEMMs out of line, with the accumulators in
/// local memory (the performance chapter's "The whole GEMM on sm_90").
pub(crate) trait WarpGemmVisitor {
    /// One warp GEMM step.
    fn step(&mut self, s: WarpGemmStep);
}

/// A closure as a [`WarpGemmVisitor`].
struct Calls<F>(F);

impl<F: FnMut(WarpGemmStep)> WarpGemmVisitor for Calls<F> {
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn step(&mut self, s: WarpGemmStep) {
        (self.0)(s)
    }
}

/// [`for_each_warp_gemm`] for a [`WarpGemmVisitor`]: the one schedule.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) fn visit_warp_gemms<P: GemmPolicy, V: WarpGemmVisitor>(v: &mut V) {
    let () = P::CHECK;
    // `UniversalGemmPolicy`'s check holds its warp GEMMs to the literals below; this holds
    // any other policy's (a warp GEMM past them would be skipped).
    const {
        assert!(
            P::K_ITERS.saturating_mul(P::M_ITERS).saturating_mul(P::N_ITERS) <= MAX_WARP_GEMMS,
            "the block GEMM unrolls at most 256 warp GEMMs (K x M x N warp tiles)"
        )
    };
    let (k_iters, m_iters, n_iters) = (P::K_ITERS, P::M_ITERS, P::N_ITERS);
    let (al, bl, cl) =
        (<P::Warp as WarpGemm>::A_PER_LANE, <P::Warp as WarpGemm>::B_PER_LANE, <P::Warp as WarpGemm>::C_PER_LANE);
    // Unrolled by hand: LLVM keeps loops over a few large iterations rolled, and a rolled
    // loop indexes the registers at run time (the accumulators go to scratch memory). One
    // level over the warp GEMMs in order, not three nested: each level of `static_for!`
    // writes its body once per literal, so three levels of 16 wrote the call 4,096 times
    // for the compiler to fold away (minutes of a debug build of the tests).
    static_for!(k_iters * m_iters * n_iters, |t| {
        let (k_iter, m_iter, n_iter) = (t / (m_iters * n_iters), t / n_iters % m_iters, t % n_iters);
        v.step(WarpGemmStep {
            m_iter,
            n_iter,
            k_iter,
            a: (m_iter * k_iters + k_iter) * al,
            b: (n_iter * k_iters + k_iter) * bl,
            c: (m_iter * n_iters + n_iter) * cl,
        })
    };
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34
        35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66
        67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98
        99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122
        123 124 125 126 127 128 129 130 131 132 133 134 135 136 137 138 139 140 141 142 143 144 145 146
        147 148 149 150 151 152 153 154 155 156 157 158 159 160 161 162 163 164 165 166 167 168 169 170
        171 172 173 174 175 176 177 178 179 180 181 182 183 184 185 186 187 188 189 190 191 192 193 194
        195 196 197 198 199 200 201 202 203 204 205 206 207 208 209 210 211 212 213 214 215 216 217 218
        219 220 221 222 223 224 225 226 227 228 229 230 231 232 233 234 235 236 237 238 239 240 241 242
        243 244 245 246 247 248 249 250 251 252 253 254 255
    );
}

/// The element type a policy's MFMAs multiply.
///
/// ```
/// use cktile_core::ops::gemm::{ElementOf, MfmaElement, UniversalGemmPolicy};
/// assert_eq!(<ElementOf<UniversalGemmPolicy<256, 128, 128, 32>>>::NAME, "fp16_t");
/// ```
pub type ElementOf<P> = <<P as GemmPolicy>::Warp as WarpGemm>::Element;

/// The bits a policy's data path moves for each element of A and B
/// (`u16`, `u8`, or `i8` for [`Int8`](super::Int8)).
///
/// ```
/// use cktile_core::ops::gemm::{BitsOf, BlockWarps, Int8, Mfma, UniversalGemmPolicy};
/// let _: BitsOf<UniversalGemmPolicy<256, 128, 128, 32>> = 0u16;
/// let _: BitsOf<UniversalGemmPolicy<256, 128, 128, 64, BlockWarps<2, 2>, Mfma<32, 32, 32, Int8>>> = -1i8;
/// ```
pub type BitsOf<P> = <ElementOf<P> as MfmaElement>::Bits;

/// A policy's accumulator (`f32`, or `i32` for [`Int8`](super::Int8)):
/// the C block tensor's elements.
///
/// ```
/// use cktile_core::ops::gemm::{AccOf, BlockWarps, Int8, Mfma, UniversalGemmPolicy};
/// let _: AccOf<UniversalGemmPolicy<256, 128, 128, 32>> = 0f32;
/// let _: AccOf<UniversalGemmPolicy<256, 128, 128, 64, BlockWarps<2, 2>, Mfma<32, 32, 32, Int8>>> = 0i32;
/// ```
pub type AccOf<P> = <ElementOf<P> as MfmaElement>::Acc;

/// A GEMM's A, B (as their bits) and C (as C's type `C` holds it,
/// [`CElement::Bits`](super::CElement::Bits)), as
/// [`emulate_gemm`](super::emulate_gemm)'s kernel and `universal_gemm`
/// take them.
#[cfg(any(feature = "alloc", target_arch = "amdgpu", target_arch = "nvptx64"))]
pub(crate) type Matrices<'a, P, C> =
    (&'a [BitsOf<P>], &'a [BitsOf<P>], &'a mut [<C as super::CElement<AccOf<P>>>::Bits]);
