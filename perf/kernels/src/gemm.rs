//! The whole GEMM on amdgcn and nvptx: CK's universal GEMM kernel, `C = A * B^T` in
//! `f32` from fp16 A (M x K, row-major) and B (N x K), as a kernel author
//! writes it with the library ([`kernels`]'s `typed_gemm_128_k16`): the
//! policy in one line, both operands' paths, the block GEMM's windows, the
//! MFMA block GEMM (`ops::gemm::block_gemm`) and the `Default2DEpilogue`
//! (`ops::gemm::store_c_tile`); and its twin, `hand_gemm_128_k16`: the
//! data path's twin ([`hand`](crate::entry::hand), every address by hand)
//! feeding its operands to the MFMA intrinsics it declares itself
//! ([`MfmaSink`]), its C stores by hand. The host runs the library's calls
//! stage by stage, its MFMAs emulated (`tests/gemm_emulated.rs` in the
//! workspace, `examples/gemm_kernels.rs`); the GPU's MFMA runs only there.
//! On sm_90 the same body over NVIDIA's warp GEMM ([`Mma128K32`], ...:
//! `typed_gemm_mma_*`) runs against hand twins (`hand_gemm_mma_*`, every
//! address, `mma.sync` fragment and C store by hand), and on an H200
//! (`gpu/sm90_gemm.sh`).

/// The C arguments a GEMM's sink needs (the twin's data path hands its
/// sink one pointer; it points at these).
#[derive(Clone, Copy)]
pub struct GemmArgs {
    /// C, `m x n`, row-major.
    pub c: *mut f32,
    /// C's rows.
    pub m: usize,
    /// C's columns (and row stride).
    pub n: usize,
    /// The 2-D tile partition's tiles along N.
    pub n_blocks: u32,
}

/// The twin's MFMA block GEMM and epilogue for policy `P` with `ACC = MI x
/// NI` warp tiles of the 32x32x16 fp16 warp GEMM: each K step's operands
/// through two `v_mfma_f32_32x32x8_f16` a warp tile (registers 0..4, then
/// 4..8), and at the end each accumulator stored at the element AMD's lane
/// map names, inside C.
#[cfg(target_arch = "amdgpu")]
pub use twin::MfmaSink;

#[cfg(target_arch = "amdgpu")]
#[allow(unsafe_code)]
mod twin {
    use super::GemmArgs;
    use crate::entry::{Ids, Sink};
    use cktile_core::ops::gemm::GemmPolicy;
    use cktile_core::transforms::static_for;
    use core::marker::PhantomData;

    #[repr(simd)]
    #[derive(Clone, Copy)]
    struct F16x4([f16; 4]);
    #[repr(simd)]
    #[derive(Clone, Copy)]
    struct F32x16([f32; 16]);

    unsafe extern "llvm-intrinsic" {
        #[link_name = "llvm.amdgcn.mfma.f32.32x32x8f16"]
        fn mfma_32x32x8_f16(a: F16x4, b: F16x4, c: F32x16, cbsz: i32, abid: i32, blgp: i32) -> F32x16;
    }

    /// See [`MfmaSink`](super::MfmaSink).
    pub struct MfmaSink<P, const ACC: usize> {
        acc: [[f32; 16]; ACC],
        args: GemmArgs,
        ids: Ids,
        policy: PhantomData<P>,
    }

    impl<P: GemmPolicy, const MI: usize, const NI: usize, const ACC: usize> Sink<MI, NI> for MfmaSink<P, ACC> {
        #[inline(always)]
        fn start(out: *mut u16, ids: Ids, _: usize) -> Self {
            const { assert!(ACC == MI * NI && MI <= 8 && NI <= 8 && P::WARP_M == 32 && P::WARP_K == 16) };
            // SAFETY: the twin's entry point passes its `GemmArgs` as `out`.
            let args = unsafe { *(out as *const GemmArgs) };
            MfmaSink { acc: [[0.0; 16]; ACC], args, ids, policy: PhantomData }
        }

        #[inline(always)]
        fn step(&mut self, a: [&[u16]; MI], b: [&[u16]; NI]) {
            #[inline(always)]
            fn half(regs: &[u16], q: usize) -> F16x4 {
                F16x4(core::array::from_fn(|j| f16::from_bits(regs.get(4 * q + j).copied().unwrap_or(0))))
            }
            // Written out (a rolled loop indexes the accumulators at run time: scratch memory).
            static_for!(MI, |i| {
                static_for!(NI, |j| {
                    static_for!(2, |q| {
                        let acc = &mut self.acc[i * NI + j];
                        // SAFETY: gfx942 has the instruction; a SIMD vector of 16 `f32` is the array's layout.
                        *acc = unsafe {
                            core::mem::transmute::<F32x16, [f32; 16]>(mfma_32x32x8_f16(
                                half(a[i], q),
                                half(b[j], q),
                                F32x16(*acc),
                                0,
                                0,
                                0,
                            ))
                        };
                    }; 0 1)
                })
            }; 0 1 2 3 4 5 6 7);
        }

        #[inline(always)]
        fn finish(self) {
            let Some(p) = self.ids.partition::<P>() else { return };
            let (m0, n0) = self.ids.tile::<P>(self.args.n_blocks);
            let (warp, lane) = (p.warp as usize, p.lane as usize);
            let (wm, wn) = (warp / P::N_WARPS, warp % P::N_WARPS);
            let GemmArgs { c, m, n, .. } = self.args;
            static_for!(MI, |i| {
                static_for!(NI, |j| {
                    static_for!(16, |r| {
                        // AMD's D layout of the 32x32x8 MFMA: row 8 (r / 4) + 4 (lane / 32) + r % 4, column lane % 32.
                        let row = m0 as usize + (i * P::M_WARPS + wm) * 32 + 8 * (r / 4) + 4 * (lane / 32) + r % 4;
                        let col = n0 as usize + (j * P::N_WARPS + wn) * 32 + lane % 32;
                        if row < m && col < n {
                            // SAFETY: the host passes `m x n` writable elements of C.
                            unsafe { *c.add(row * n + col) = self.acc[i * NI + j][r] };
                        }
                    }; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15)
                })
            });
        }
    }
}

use cktile_core::ops::gemm::{Bf16, BlockWarps, ColumnMajor, MmaSync, RowMajor, UniversalGemmPolicy};

/// The sm_90 GEMMs' policies: CK's universal GEMM policy over NVIDIA's
/// warp GEMM (`MmaSync`: a policy warp is a pair of NVIDIA warps, each
/// issuing `mma.sync.m16n8k16`), 128 x 128 on 256 threads.
pub type Mma128K32 = UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, MmaSync<32, 16, 16>>;
/// [`Mma128K32`] with K tiles of 64.
pub type Mma128K64 = UniversalGemmPolicy<256, 128, 128, 64, BlockWarps<2, 2>, MmaSync<32, 16, 16>>;
/// [`Mma128K32`] in bf16.
pub type Mma128K32Bf16 = UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, MmaSync<32, 16, 16, Bf16>>;
/// [`Mma128K32`] over a column-major A and a row-major B (both stored K x
/// rows, rows contiguous: element loads along K).
pub type Mma128K32Crr =
    UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, MmaSync<32, 16, 16>, ColumnMajor, RowMajor>;

/// The twins of the sm_90 GEMMs (`hand_gemm_mma_*`): the whole kernel by
/// hand for [`Mma128K32`]'s numbers (and its K 64 and bf16 forms): CK's
/// DRAM loads and XOR LDS block (as [`hand`](crate::entry::hand) writes
/// them), the operands read at the places the PTX ISA gives
/// `mma.sync.m16n8k16`'s fragments, the instruction in inline PTX, and
/// each accumulator stored inside C.
#[cfg(target_arch = "nvptx64")]
#[allow(unsafe_code)]
mod mma_twin {
    use crate::paths::barrier;
    use cktile_core::tile::gpu::{get_block_id, get_thread_id, workgroup_memory};
    use cktile_core::transforms::static_for;

    /// `c += a * b`: one `mma.sync.aligned.m16n8k16.row.col.f32`, of bf16
    /// or fp16.
    #[inline(always)]
    fn mma<const BF16: bool>(c: &mut [f32; 4], a: [u32; 4], b: [u32; 2]) {
        let [d0, d1, d2, d3] = c;
        // SAFETY: a warp instruction on registers only; every lane of the block runs it together.
        unsafe {
            if BF16 {
                core::arch::asm!(
                    "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {{{0}, {1}, {2}, {3}}}, {{{4}, {5}, {6}, {7}}}, {{{8}, {9}}}, {{{0}, {1}, {2}, {3}}};",
                    inout(reg32) *d0, inout(reg32) *d1, inout(reg32) *d2, inout(reg32) *d3,
                    in(reg32) a[0], in(reg32) a[1], in(reg32) a[2], in(reg32) a[3], in(reg32) b[0], in(reg32) b[1],
                    options(pure, nomem, nostack),
                )
            } else {
                core::arch::asm!(
                    "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {{{0}, {1}, {2}, {3}}}, {{{4}, {5}, {6}, {7}}}, {{{8}, {9}}}, {{{0}, {1}, {2}, {3}}};",
                    inout(reg32) *d0, inout(reg32) *d1, inout(reg32) *d2, inout(reg32) *d3,
                    in(reg32) a[0], in(reg32) a[1], in(reg32) a[2], in(reg32) a[3], in(reg32) b[0], in(reg32) b[1],
                    options(pure, nomem, nostack),
                )
            }
        }
    }

    /// The 128 x 128 x `BK` GEMM on 256 threads: 2 x 2 pairs of warps,
    /// each NVIDIA warp 16 rows of a 32 x 16 warp tile, 2 x 4 warp tiles a
    /// pair; `MA` DRAM vectors a thread and operand.
    #[inline(always)]
    fn gemm<const BK: usize, const MA: usize, const BF16: bool, const MN: bool>(
        (a, b, c): (*const u16, *const u16, *mut f32),
        (m, n, k, stride): (usize, usize, usize, usize),
        n_blocks: usize,
    ) {
        const BM: usize = 128;
        // CK's DRAM distribution: K0 lanes along K, M2 rows a warp of 64, 4 warps.
        let k0 = BK / 8;
        let m2 = 64 / k0;
        // The XOR block's MLdsLayer.
        let l = if 64 / BK > 1 { 64 / BK } else { 1 };
        const { assert!(MA * (64 / (BK / 8)) * 4 == BM && BK / 16 <= 4) };
        let thread = get_thread_id();
        if thread >= 256 {
            return;
        }
        let n_blocks = n_blocks.max(1);
        let block = get_block_id();
        let (m0, n0) = (block / n_blocks * BM, block % n_blocks * BM);
        // SAFETY: launched with (128 + 128) x BK fp16 of dynamic shared memory; A and B hold
        // their rows of `stride` elements.
        let (lds, a, b) = unsafe {
            (
                workgroup_memory::<u16>(2 * BM * BK),
                core::slice::from_raw_parts(a, if MN { k } else { m } * stride),
                core::slice::from_raw_parts(b, if MN { k } else { n } * stride),
            )
        };
        let cells = lds.cells();
        let (warp, lane) = (thread / 64, thread % 64);
        let lds_offset = |row: usize, col: usize| {
            let (rp, rl) = (row / l, row % l);
            ((rl * k0 + col / 8) ^ (rp % (k0 * l))) * 8 + rp * (BK * l) + col % 8
        };
        let (row, col) = (warp * m2 + lane / k0, (lane % k0) * 8);
        let dram = |x: &[u16], rows: usize, r0: usize, kc: usize| {
            let mut tile = [[0u16; 8]; MA];
            static_for!(MA, |y0| {
                let (r, kk) = (r0 + y0 * 4 * m2 + row, kc + col);
                if r < rows && kk < k {
                    if MN {
                        // Rows contiguous: element (r, kk + j) at (kk + j) * stride + r, each alone.
                        static_for!(8, |j| {
                            if kk + j < k {
                                if let Some(&v) = x.get((kk + j) * stride + r) {
                                    tile[y0][j] = v;
                                }
                            }
                        });
                    } else if let Some(v) = x.get(r * stride + kk..r * stride + kk + 8) {
                        static_for!(8, |j| tile[y0][j] = v[j]);
                    }
                }
            });
            tile
        };
        let store = |tile: &[[u16; 8]; MA], at: usize| {
            static_for!(MA, |y0| {
                let offset = lds_offset(y0 * 4 * m2 + row, col) + at;
                if let Some(c) = cells.get(offset..offset + 8) {
                    static_for!(8, |j| c[j].set(tile[y0][j]));
                }
            });
        };
        // Two elements along K at (row, kc) of the block at `at`, as one register (the first low).
        let pair = |row: usize, kc: usize, at: usize| {
            let o = lds_offset(row, kc) + at;
            match cells.get(o..o + 2) {
                Some(c) => u32::from(c[0].get()) | (u32::from(c[1].get()) << 16),
                None => 0,
            }
        };
        // The pair's warp tiles: 32 rows of A from (warp / 2) * 32, 16 of B from (warp % 2) * 16.
        let (h, g, t) = (lane / 32, lane % 32 / 4, lane % 4);
        let (a_row, b_row) = ((warp / 2) * 32 + 16 * h + g, (warp % 2) * 16 + g);
        let mut acc = [[[[0f32; 4]; 2]; 4]; 2];
        let mut kc = 0;
        while kc < k {
            let (a_tile, b_tile) = (dram(a, m, m0, kc), dram(b, n, n0, kc));
            kc += BK;
            barrier();
            store(&a_tile, 0);
            store(&b_tile, BM * BK);
            barrier();
            static_for!(BK / 16, |k_iter| {
                let k_base = k_iter * 16 + 2 * t;
                let mut av = [[0u32; 4]; 2];
                static_for!(2, |i| {
                    let r = a_row + i * 64;
                    av[i] = [
                        pair(r, k_base, 0),
                        pair(r + 8, k_base, 0),
                        pair(r, k_base + 8, 0),
                        pair(r + 8, k_base + 8, 0),
                    ];
                }; 0 1);
                let mut bv = [[[0u32; 2]; 2]; 4];
                static_for!(4, |j| {
                    static_for!(2, |q| {
                        let r = b_row + j * 32 + 8 * q;
                        bv[j][q] = [pair(r, k_base, BM * BK), pair(r, k_base + 8, BM * BK)];
                    }; 0 1);
                }; 0 1 2 3);
                static_for!(2, |i| {
                    static_for!(4, |j| {
                        static_for!(2, |q| mma::<BF16>(&mut acc[i][j][q], av[i], bv[j][q]); 0 1);
                    }; 0 1 2 3);
                }; 0 1);
            }; 0 1 2 3);
            barrier();
        }
        // D's register r: row g + 8 (r / 2), column 2 t + r % 2 of each 16 x 8 block.
        static_for!(2, |i| {
            static_for!(4, |j| {
                static_for!(2, |q| {
                    static_for!(4, |r| {
                        let row = m0 + a_row + i * 64 + 8 * (r / 2);
                        let col = n0 + b_row - g + j * 32 + 8 * q + 2 * t + r % 2;
                        if row < m && col < n {
                            // SAFETY: the host passes `m x n` writable elements of C.
                            unsafe { *c.add(row * n + col) = acc[i][j][q][r] };
                        }
                    }; 0 1 2 3);
                }; 0 1);
            }; 0 1 2 3);
        }; 0 1);
    }

    macro_rules! twins {
        ($($(#[$doc:meta])* $name:ident: $bk:literal, $ma:literal, $bf16:literal, $mn:literal;)+) => {$(
            $(#[$doc])*
            #[unsafe(no_mangle)]
            #[allow(clippy::too_many_arguments)]
            pub extern "gpu-kernel" fn $name(
                a: *const u16,
                b: *const u16,
                c: *mut f32,
                m: u32,
                n: u32,
                k: u32,
                stride: u32,
                n_blocks: u32,
            ) {
                gemm::<$bk, $ma, $bf16, $mn>((a, b, c), (m as usize, n as usize, k as usize, stride as usize), n_blocks as usize);
            }
        )+};
    }

    twins! {
        /// Twin of `typed_gemm_mma_128_k32`.
        hand_gemm_mma_128_k32: 32, 2, false, false;
        /// Twin of `typed_gemm_mma_128_k64`.
        hand_gemm_mma_128_k64: 64, 4, false, false;
        /// Twin of `typed_gemm_mma_128_k32_bf16`.
        hand_gemm_mma_128_k32_bf16: 32, 2, true, false;
        /// Twin of `typed_gemm_mma_128_k32_crr`: A stored K x M, B K x N, each with leading
        /// dimension `stride`.
        hand_gemm_mma_128_k32_crr: 32, 2, false, true;
    }
}

#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
mod kernels {
    #[cfg(target_arch = "amdgpu")]
    use crate::entry::{Ids, Tile128K16, hand};
    #[cfg(target_arch = "amdgpu")]
    use cktile_core::Index;
    use cktile_core::ops::gemm::{AccOf, BitsOf, GemmPolicy, GemmProblem, OperandStorage, universal_gemm};
    use cktile_core::tile::gpu::workgroup_memory;
    #[cfg(target_arch = "amdgpu")]
    use cktile_core::tile::gpu::{get_block_id, get_thread_id};

    /// The GEMM of policy `P` over an `m x n x k` problem (A's and B's row
    /// stride `stride`, C's `n`): the library's kernel body,
    /// `ops::gemm::universal_gemm` (its 2-D tile partition is the twins'
    /// over `n_blocks` tiles along N). `stride` is A's and B's leading
    /// dimension: their row stride when K is contiguous, their K stride
    /// when their rows are.
    #[inline(always)]
    fn gemm<P: GemmPolicy>(
        a: *const BitsOf<P>,
        b: *const BitsOf<P>,
        c: *mut AccOf<P>,
        (m, n, k, stride): (usize, usize, usize, usize),
    ) {
        let outer = |rows: usize, k_contiguous: bool| if k_contiguous { rows } else { k } * stride;
        // SAFETY: launched with (M + N) x KPerBlock fp16 of dynamic shared memory; A and B hold
        // their `stride`-element rows (or K columns), C `m x n` (each thread writes only its own).
        let (lds, a, b, c) = unsafe {
            (
                workgroup_memory::<BitsOf<P>>((P::M_PER_BLOCK + P::N_PER_BLOCK) * P::K_PER_BLOCK),
                core::slice::from_raw_parts(a, outer(m, <P::AStorage as OperandStorage>::K_CONTIGUOUS)),
                core::slice::from_raw_parts(b, outer(n, <P::BStorage as OperandStorage>::K_CONTIGUOUS)),
                core::slice::from_raw_parts_mut(c, m * n),
            )
        };
        let problem = GemmProblem { m, n, k, a_stride: stride, b_stride: stride, c_stride: n };
        let _ = universal_gemm::<P>((a, b, c), problem, lds);
    }

    /// The twin of [`typed_gemm_128_k16`]: the data path's twin feeding
    /// [`MfmaSink`](super::MfmaSink).
    #[cfg(target_arch = "amdgpu")]
    #[unsafe(no_mangle)]
    #[allow(clippy::too_many_arguments)]
    pub extern "gpu-kernel" fn hand_gemm_128_k16(
        a: *const u16,
        b: *const u16,
        c: *mut f32,
        m: u32,
        n: u32,
        k: u32,
        stride: u32,
        n_blocks: u32,
    ) {
        type P = Tile128K16;
        let args = super::GemmArgs { c, m: m as usize, n: n as usize, n_blocks };
        // SAFETY: launched with (M + N) x KPerBlock fp16 of dynamic shared memory.
        let lds = unsafe { workgroup_memory::<u16>((P::M_PER_BLOCK + P::N_PER_BLOCK) * P::K_PER_BLOCK) };
        let ids = Ids { block: get_block_id(), thread: get_thread_id() };
        let shape = (m as Index, n as Index, k as Index, stride as Index);
        let out = &args as *const super::GemmArgs as *mut u16;
        hand::<P, 2, 2, 2, 2, super::MfmaSink<P, 4>>((ids, lds), (a, b), shape, n_blocks, out);
    }

    /// The 128 x 128 x 32 GEMM (2 x 2 warps of the 32x32x16 MFMA: two
    /// `v_mfma_f32_32x32x8_f16` a warp tile and K iteration).
    #[cfg(target_arch = "amdgpu")]
    #[unsafe(no_mangle)]
    #[allow(clippy::too_many_arguments)]
    pub extern "gpu-kernel" fn typed_gemm_128_k16(
        a: *const u16,
        b: *const u16,
        c: *mut f32,
        m: u32,
        n: u32,
        k: u32,
        stride: u32,
        n_blocks: u32,
    ) {
        let _ = n_blocks;
        gemm::<Tile128K16>(a, b, c, (m as usize, n as usize, k as usize, stride as usize));
    }

    /// The sm_90 GEMMs: one policy line each ([`Mma128K32`](super::Mma128K32),
    /// ...) and the same kernel body as gfx942's.
    macro_rules! sm90 {
        ($($(#[$doc:meta])* $name:ident: $policy:ty;)+) => {$(
            $(#[$doc])*
            #[cfg(target_arch = "nvptx64")]
            #[unsafe(no_mangle)]
            #[allow(clippy::too_many_arguments)]
            pub extern "gpu-kernel" fn $name(
                a: *const u16,
                b: *const u16,
                c: *mut f32,
                m: u32,
                n: u32,
                k: u32,
                stride: u32,
                n_blocks: u32,
            ) {
                let _ = n_blocks;
                gemm::<$policy>(a, b, c, (m as usize, n as usize, k as usize, stride as usize));
            }
        )+};
    }

    sm90! {
        /// fp16, 128 x 128 x 32.
        typed_gemm_mma_128_k32: super::Mma128K32;
        /// fp16, 128 x 128 x 64.
        typed_gemm_mma_128_k64: super::Mma128K64;
        /// bf16, 128 x 128 x 32.
        typed_gemm_mma_128_k32_bf16: super::Mma128K32Bf16;
        /// fp16, 128 x 128 x 32, a column-major A and a row-major B.
        typed_gemm_mma_128_k32_crr: super::Mma128K32Crr;
    }
}
