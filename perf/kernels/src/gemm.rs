//! The whole GEMM on amdgcn: CK's universal GEMM kernel, `C = A * B^T` in
//! `f32` from fp16 A (M x K, row-major) and B (N x K), as a kernel author
//! writes it with the library: the policy in one line, both operands'
//! paths, the block GEMM's windows, the MFMA block GEMM
//! (`ops::gemm::block_gemm`) and the `Default2DEpilogue`
//! (`ops::gemm::store_c_tile`). The host runs the same library calls
//! stage by stage, its MFMAs emulated (`tests/gemm_emulated.rs` in the
//! workspace, `examples/block_gemm.rs`).

#[cfg(target_arch = "amdgpu")]
mod kernels {
    use crate::entry::Tile128K16;
    use cktile_core::Index;
    use cktile_core::ops::gemm::{
        CBlockTensor, GemmPolicy, OperandA, OperandB, OperandPath, block_gemm, block_window, c_window,
        get_policy_partition, store_c_tile,
    };
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

    /// The 128 x 128 x 32 GEMM (2 x 2 warps of the 32x32x16 MFMA: two
    /// `v_mfma_f32_32x32x8_f16` a warp tile and K iteration).
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
}
