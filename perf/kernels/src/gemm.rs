//! The whole GEMM on amdgcn: CK's universal GEMM kernel, `C = A * B^T` in
//! `f32` from fp16 A (M x K, row-major) and B (N x K), as a kernel author
//! writes it with the library ([`kernels`]'s `typed_gemm_128_k16`): the
//! policy in one line, both operands' paths, the block GEMM's windows, the
//! MFMA block GEMM (`ops::gemm::block_gemm`) and the `Default2DEpilogue`
//! (`ops::gemm::store_c_tile`); and its twin, `hand_gemm_128_k16`: the
//! data path's twin ([`hand`](crate::entry::hand), every address by hand)
//! feeding its operands to the MFMA intrinsics it declares itself
//! ([`MfmaSink`]), its C stores by hand. The host runs the library's calls
//! stage by stage, its MFMAs emulated (`tests/gemm_emulated.rs` in the
//! workspace, `examples/block_gemm.rs`); the GPU's MFMA runs only there.

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
                    })
                })
            });
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

/// The sm_90 GEMMs' policies: CK's universal GEMM policy over NVIDIA's
/// warp GEMM (`MmaSync`: a policy warp is a pair of NVIDIA warps, each
/// issuing `mma.sync.m16n8k16`), 128 x 128 on 256 threads.
pub type Mma128K32 = cktile_core::ops::gemm::UniversalGemmPolicy<
    256,
    128,
    128,
    32,
    cktile_core::ops::gemm::BlockWarps<2, 2>,
    cktile_core::ops::gemm::MmaSync<32, 16, 16>,
>;
/// [`Mma128K32`] with K tiles of 64.
pub type Mma128K64 = cktile_core::ops::gemm::UniversalGemmPolicy<
    256,
    128,
    128,
    64,
    cktile_core::ops::gemm::BlockWarps<2, 2>,
    cktile_core::ops::gemm::MmaSync<32, 16, 16>,
>;
/// [`Mma128K32`] in bf16.
pub type Mma128K32Bf16 = cktile_core::ops::gemm::UniversalGemmPolicy<
    256,
    128,
    128,
    32,
    cktile_core::ops::gemm::BlockWarps<2, 2>,
    cktile_core::ops::gemm::MmaSync<32, 16, 16, cktile_core::ops::gemm::Bf16>,
>;

#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
mod kernels {
    #[cfg(target_arch = "amdgpu")]
    use crate::entry::{Ids, Tile128K16, hand};
    use cktile_core::Index;
    use cktile_core::ops::gemm::{
        CBlockTensor, GemmPolicy, OperandA, OperandB, OperandPath, block_gemm, block_window, c_window,
        get_policy_partition, store_c_tile,
    };
    #[cfg(target_arch = "amdgpu")]
    use cktile_core::tile::gpu::get_thread_id;
    use cktile_core::tile::gpu::{block_sync_lds, get_block_id, workgroup_memory};
    use cktile_core::tile::load_tile;

    /// The GEMM of policy `P` over an `m x n x k` problem (A's and B's row
    /// stride `stride`, C's `n`), the block's tile the 2-D tile
    /// partitioner's over `n_blocks` tiles along N.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn gemm<P: GemmPolicy>(
        a: *const u16,
        b: *const u16,
        c: *mut f32,
        (m, n, k, stride): (usize, usize, usize, usize),
        n_blocks: usize,
    ) {
        let Some(p) = get_policy_partition::<P>() else { return };
        let block = get_block_id();
        let n_blocks = n_blocks.max(1);
        let (m0, n0) = ((block / n_blocks * P::M_PER_BLOCK) as Index, (block % n_blocks * P::N_PER_BLOCK) as Index);
        // SAFETY: launched with (M + N) x KPerBlock fp16 of dynamic shared memory; A and B hold
        // their rows of `stride` elements, C `m x n` (each thread writes only its own elements).
        let (lds, a, b, c) = unsafe {
            (
                workgroup_memory::<u16>((P::M_PER_BLOCK + P::N_PER_BLOCK) * P::K_PER_BLOCK),
                core::slice::from_raw_parts(a, m * stride),
                core::slice::from_raw_parts(b, n * stride),
                core::slice::from_raw_parts_mut(c, m * n),
            )
        };
        let (a_lds, b_lds) = lds.split_at(P::M_PER_BLOCK * P::K_PER_BLOCK);
        let (Ok(a_view), Ok(b_view)) = (P::make_a_dram_view(a, m, k, stride), P::make_b_dram_view(b, n, k, stride))
        else {
            return;
        };
        let (Ok(mut a_path), Ok(mut b_path), Ok(a_block), Ok(b_block)) = (
            OperandPath::<u16, P, OperandA>::with_partition(OperandA, *a_view.descriptor(), a, m0, a_lds, p),
            OperandPath::<u16, P, OperandB>::with_partition(OperandB, *b_view.descriptor(), b, n0, b_lds, p),
            block_window::<u16, P, OperandA>(a_lds, p),
            block_window::<u16, P, OperandB>(b_lds, p),
        ) else {
            return;
        };
        let mut acc = CBlockTensor::<P>::filled(0.0);
        for _ in 0..k.div_ceil(P::K_PER_BLOCK) {
            let (a_tile, b_tile) = (a_path.load(), b_path.load());
            a_path.next_k();
            b_path.next_k();
            // SAFETY: every thread of the block runs the same K loop.
            unsafe { block_sync_lds() };
            a_path.store(&a_tile);
            b_path.store(&b_tile);
            // SAFETY: as above.
            unsafe { block_sync_lds() };
            block_gemm::<P>(&mut acc, &load_tile(&a_block), &load_tile(&b_block));
        }
        let Ok(c_view) = P::make_c_dram_view(c, m, n, n) else { return };
        let Ok(mut window) = c_window::<f32, P>(c_view, (m0, n0), p) else { return };
        store_c_tile::<f32, P>(&mut window, &acc, |x| x);
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
        gemm::<Tile128K16>(a, b, c, (m as usize, n as usize, k as usize, stride as usize), n_blocks as usize);
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
                gemm::<$policy>(a, b, c, (m as usize, n as usize, k as usize, stride as usize), n_blocks as usize);
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
    }
}
