//! Whole data paths: CK's universal GEMM A and B operand paths
//! written with cktile's tile windows (`cktile_checks::gemm`, the code the
//! CPU lane simulator checks) next to hand-written twins that compute the
//! same addresses, validity and register placement by hand.
//!
//! Each kernel runs one thread's K loop: the DRAM window's load (2 vectors
//! of 8 fp16), the move along K, a block barrier, the LDS store (2 vectors
//! of 8), a barrier, the 2 x 2 warp tiles' MFMA 32x32x16 operand reads (one
//! vector of 8 each), folded into eight accumulators by xor (standing in for the
//! MFMA, which both sides would issue alike), and a barrier. Memory is
//! reached through slices made from the kernel's pointers, bounds checked
//! on both sides (what safe Rust does; CK's AMD buffer loads check in
//! hardware). LDS is the launch-sized workgroup memory
//! (`cktile_core::tile::gpu::workgroup_memory`) on the GPU targets, so both sides
//! issue `ds_read`/`ds_write` (amdgcn) and `ld.shared` (nvptx), and the
//! barriers are CK's `block_sync_lds` (`s_waitcnt` + `s_barrier`,
//! `bar.sync`); on the host, where the test runs the kernels one thread at
//! a time, LDS is the block the `lds` argument points at.
//!
//! Forms:
//! - `typed_gemm_*` takes the DRAM descriptor built on the host, in its
//!   kernel-argument form (`KernelArg`, by pointer); held to 1.10 x its
//!   twin + 4 instructions with no calls, scratch or spills.
//! - `typed_gemm_*_block`: the same, the MFMA operands read as CK's block
//!   GEMM reads them, one `load_tile` per K tile through a window of the
//!   embedded block distribution (`ABlockDistribution`,
//!   `BBlockDistribution`); held to the same twin (`icount.py`'s `TWINS`).
//! - `typed_gemm_*_index32` builds the view in the kernel with `?` from
//!   32-bit arguments, the width of CK's `index_t` kernel arguments (4b),
//!   and is held to a twin written as CK's code is, every index an `i32`
//!   (`hand_gemm_*_index32`, 4c), on both GPU targets. Widened from `u32`,
//!   each value is known to be below 2^32, so the builders' overflow flags
//!   (`Built::accepts`) fold away and the validation left is a few compares.
//! - `typed_gemm_*_build` builds it from `usize` arguments. On nvptx it is
//!   held to the twin too; on amdgcn the two overflow-checked 64-bit
//!   multiplies of the element space (a dozen VALU instructions each) and
//!   what follows them do not fit the bound, so it is reported there
//!   (`icount.py`'s `BUILD_GATED`).

use cktile_checks::gemm::{
    DramChain, ITERS, K_ITERS, K_PER_BLOCK, LDS_ELEMENTS, LdsChain, Operand, OperandPath, Policy, VECTOR, WARPS, WAVE,
    block_window, make_dram_view,
};
use cktile_core::Index;
use cktile_core::ops::gemm::{BlockGemmSide, OperandA, OperandB};
use cktile_core::tile::load_tile;
use cktile_core::tile::{Partition, SharedMemory};
use cktile_core::typed::KernelArg;
#[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
use core::cell::Cell;

/// A block barrier: CK's `block_sync_lds` (`cktile_core::tile::gpu`) on the GPU
/// targets, nothing on the host, where the test runs one thread at a time.
/// Both sides call this same function.
#[inline(always)]
pub fn barrier() {
    #[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
    // SAFETY: every thread of the block runs the same K loop, so reaches each barrier.
    unsafe {
        cktile_core::tile::gpu::block_sync_lds()
    };
}

/// The kernel's memory: `len` elements of A as a slice, and the LDS block.
/// On the GPU targets the LDS block is the launch-sized workgroup memory
/// (`cktile_core::tile::gpu::workgroup_memory`: LLVM's shared address space,
/// so `ds_read`/`ds_write` and `ld.shared`/`st.shared`) and `lds` is not
/// read; on the host (the test) it is the block at `lds`.
#[inline(always)]
fn memory<'a>(a: *const u16, len: usize, lds: *mut u16) -> (&'a [u16], SharedMemory<'a, u16>) {
    // SAFETY: the caller passes `len` readable elements at `a`.
    let global = unsafe { core::slice::from_raw_parts(a, len) };
    #[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
    // SAFETY: the kernel is launched with LDS_ELEMENTS elements of dynamic shared memory.
    let shared = {
        let _ = lds;
        unsafe { cktile_core::tile::gpu::workgroup_memory::<u16>(LDS_ELEMENTS) }
    };
    #[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
    // SAFETY: the caller passes an LDS block of LDS_ELEMENTS elements at `lds`; a `Cell<u16>` has `u16`'s layout.
    let shared = SharedMemory::new(unsafe { core::slice::from_raw_parts(lds as *const Cell<u16>, LDS_ELEMENTS) });
    (global, shared)
}

/// The MFMA's stand-in: folds an 8-element operand into the accumulators,
/// each element written out (no loop for LLVM to keep rolled: an MFMA takes
/// the operand's registers as they are).
#[inline(always)]
fn fold(acc: &mut [u16; 8], v: &[u16]) {
    if let Ok(v) = <&[u16; 8]>::try_from(v) {
        acc[0] ^= v[0];
        acc[1] ^= v[1];
        acc[2] ^= v[2];
        acc[3] ^= v[3];
        acc[4] ^= v[4];
        acc[5] ^= v[5];
        acc[6] ^= v[6];
        acc[7] ^= v[7];
    }
}

/// One thread's K loop through a data path: returns the eight
/// accumulators. `read` folds the thread's 2 x 2 MFMA operands of the K
/// tile in the LDS block into them.
#[inline(always)]
fn k_loop(path: &mut OperandPath<'_, u16>, k: usize, read: impl Fn(&OperandPath<'_, u16>, &mut [u16; 8])) -> [u16; 8] {
    let mut acc = [0u16; 8];
    let mut kt = 0;
    while kt < k.div_ceil(K_PER_BLOCK) {
        let tile = path.load();
        path.next_k();
        barrier();
        path.store(&tile);
        barrier();
        read(path, &mut acc);
        barrier();
        kt += 1;
    }
    acc
}

/// The operand reads through the warp window, moved over the 2 x 2 warp tiles.
#[inline(always)]
fn warp_reads(path: &OperandPath<'_, u16>, acc: &mut [u16; 8]) {
    let mut regs = cktile_checks::gemm::WarpTile::filled(0);
    for iter in 0..ITERS {
        for k_iter in 0..K_ITERS {
            path.read_into(iter, k_iter, &mut regs);
            fold(acc, regs.thread_buffer());
        }
    }
}

/// Writes the accumulators of thread `tid`.
#[inline(always)]
fn write_out(out: *mut u16, tid: u32, acc: [u16; 8]) {
    // SAFETY: the caller passes 8 writable elements per thread at `out`.
    unsafe { core::ptr::write(out.add(8 * tid as usize) as *mut [u16; 8], acc) }
}

/// The typed path of `operand`, its DRAM view built in the kernel, then
/// the windows from it (one `Result` around both kept the whole path in
/// scratch memory; the performance chapter has the counts).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn typed_inkernel(
    operand: Operand,
    a: *const u16,
    rows: usize,
    k: usize,
    stride: usize,
    block_row: Index,
    lds: *mut u16,
    tid: u32,
    out: *mut u16,
) {
    let (global, lds) = memory(a, rows * stride, lds);
    let Ok(view) = make_dram_view(global, rows, k, stride) else {
        return;
    };
    let Ok(mut path) = OperandPath::from_descriptor(operand, *view.descriptor(), global, block_row, lds, tid as usize)
    else {
        return;
    };
    write_out(out, tid, k_loop(&mut path, k, warp_reads));
}

/// Thread `tid`'s data path of `operand` over the DRAM descriptor the host
/// wrote at `arg`, with its LDS block and the K length to loop to (the
/// descriptor's padded K: the loop runs to the last tile).
#[inline(always)]
fn host_path<'a>(
    operand: Operand,
    arg: *const KernelArg<DramChain>,
    a: *const u16,
    len: usize,
    block_row: Index,
    lds: *mut u16,
    tid: u32,
) -> Option<(OperandPath<'a, u16>, SharedMemory<'a, u16>, usize)> {
    // SAFETY: the caller passes the kernel argument the host wrote.
    let desc = unsafe { (*arg).descriptor() };
    let (global, lds) = memory(a, len, lds);
    let path = OperandPath::from_descriptor(operand, desc, global, block_row, lds, tid as usize).ok()?;
    Some((path, lds, desc.lengths()[1] as usize))
}

/// The typed path of `operand` over a DRAM descriptor built on the host.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn typed_host(
    operand: Operand,
    arg: *const KernelArg<DramChain>,
    a: *const u16,
    len: usize,
    block_row: Index,
    lds: *mut u16,
    tid: u32,
    out: *mut u16,
) {
    let Some((mut path, _, k)) = host_path(operand, arg, a, len, block_row, lds, tid) else {
        return;
    };
    write_out(out, tid, k_loop(&mut path, k, warp_reads));
}

/// [`typed_host`] reading the operands as CK's block GEMM does: one
/// `load_tile` per K tile through a window of the embedded block
/// distribution `E` (the outer encoding with the warp operand's), the 2 x 2
/// warp tiles at once.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn typed_host_block<S: BlockGemmSide<Policy, LdsChain = LdsChain>>(
    operand: Operand,
    arg: *const KernelArg<DramChain>,
    a: *const u16,
    len: usize,
    block_row: Index,
    lds: *mut u16,
    tid: u32,
    out: *mut u16,
) {
    let Some((mut path, lds, k)) = host_path(operand, arg, a, len, block_row, lds, tid) else {
        return;
    };
    let Ok(block) = block_window::<u16, S>(lds, Partition::from_thread::<WAVE>(tid as usize)) else {
        return;
    };
    let read = |_: &OperandPath<'_, u16>, acc: &mut [u16; 8]| {
        // The four warp tiles written out: a loop over the thread buffer
        // stays rolled on amdgcn, in scratch memory.
        let regs = load_tile(&block);
        let r = regs.thread_buffer();
        fold(acc, &r[0..8]);
        fold(acc, &r[8..16]);
        fold(acc, &r[16..24]);
        fold(acc, &r[24..32]);
    };
    write_out(out, tid, k_loop(&mut path, k, read));
}

/// The hand-written twin, for one index type: the same loop with every
/// index written out. `hand` computes in 64 bits (cktile's `Index`);
/// `hand_i32` in 32 bits, as CK's code does with its `index_t`: M, K and
/// the stride are taken as the kernel's 32-bit arguments and used as they
/// are (CK checks its arguments on the host).
macro_rules! hand_twin {
    ($name:ident, $lds_offset:ident, $load:ident, $i:ty) => {
        /// The LDS offset of (m, k) in CK's A LDS block (xor, KPack 8, MLdsLayer 2).
        #[inline(always)]
        fn $lds_offset(m: $i, k: $i) -> $i {
            let (mp, l) = (m / 2, m % 2);
            ((l * 4 + k / 8) ^ (mp % 8)) * 8 + mp * 64 + k % 8
        }

        /// `N` elements at `offset` of `s`, or `None` outside it.
        #[inline(always)]
        fn $load<T: Copy, const N: usize>(s: &[T], offset: $i) -> Option<[T; N]> {
            let start = usize::try_from(offset).ok()?;
            s.get(start..start.checked_add(N)?)?.try_into().ok()
        }

        /// The twin of the typed paths in this index type.
        #[inline(always)]
        #[allow(clippy::too_many_arguments)]
        fn $name(
            operand: Operand,
            a: *const u16,
            rows: $i,
            k: $i,
            stride: $i,
            block_row: $i,
            lds: *mut u16,
            tid: u32,
            out: *mut u16,
        ) {
            let (global, lds) = memory(a, rows as usize * stride as usize, lds);
            let lds = lds.cells();
            let (warp, lane) = ((tid / 64) as $i, (tid % 64) as $i);
            // DRAM: row y0 * 64 + warp * 16 + lane / 4, K (lane % 4) * 8, 8 elements per y0.
            let (m_base, k_base) = (warp * 16 + lane / 4, (lane % 4) * 8);
            let warp_row = match operand {
                Operand::A => warp / WARPS as $i,
                Operand::B => warp % WARPS as $i,
            } * 32;
            let mut acc = [0u16; 8];
            let mut k0 = 0;
            while k0 < k {
                let mut tile = [0u16; 16];
                for y0 in 0..2 {
                    let (m, kk) = (block_row + y0 * 64 + m_base, k0 + k_base);
                    if m < rows && kk < k {
                        if let Some(v) = $load::<u16, VECTOR>(global, m * stride + kk) {
                            tile[8 * y0 as usize..8 * y0 as usize + 8].copy_from_slice(&v);
                        }
                    }
                }
                k0 += K_PER_BLOCK as $i;
                barrier();
                for y0 in 0..2 {
                    let offset = $lds_offset(y0 * 64 + m_base, k_base);
                    if let Some(c) = usize::try_from(offset).ok().and_then(|o| lds.get(o..o + 8)) {
                        // Written out, as the reads are: one 8-element vector store.
                        let t = &tile[8 * y0 as usize..8 * y0 as usize + 8];
                        c[0].set(t[0]);
                        c[1].set(t[1]);
                        c[2].set(t[2]);
                        c[3].set(t[3]);
                        c[4].set(t[4]);
                        c[5].set(t[5]);
                        c[6].set(t[6]);
                        c[7].set(t[7]);
                    }
                }
                barrier();
                for iter in 0..ITERS as $i {
                    for k_iter in 0..K_ITERS as $i {
                        let offset = $lds_offset(warp_row + iter * 64 + lane % 32, k_iter * 16 + 8 * (lane / 32));
                        if let Some(c) = usize::try_from(offset).ok().and_then(|o| lds.get(o..o + 8)) {
                            let v = [
                                c[0].get(),
                                c[1].get(),
                                c[2].get(),
                                c[3].get(),
                                c[4].get(),
                                c[5].get(),
                                c[6].get(),
                                c[7].get(),
                            ];
                            fold(&mut acc, &v);
                        }
                    }
                }
                barrier();
            }
            write_out(out, tid, acc);
        }
    };
}

hand_twin!(hand, lds_offset, load, Index);
hand_twin!(hand_i32, lds_offset_i32, load_i32, i32);

/// The typed path built in the kernel from 32-bit kernel arguments (M, K,
/// stride and block row as `u32`, the width of CK's `index_t`), widened
/// to `usize` as they are: the builders' overflow checks then fold, as
/// LLVM knows each value is below 2^32.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn typed_index32(
    operand: Operand,
    a: *const u16,
    rows: u32,
    k: u32,
    stride: u32,
    block_row: u32,
    lds: *mut u16,
    tid: u32,
    out: *mut u16,
) {
    typed_inkernel(operand, a, rows as usize, k as usize, stride as usize, block_row as Index, lds, tid, out)
}

macro_rules! operand_kernels {
    ($operand:expr, $typed:ident, $hand:ident, $build:ident, $typed32:ident, $hand32:ident) => {
        /// The typed path over the host-built DRAM descriptor, passed in its
        /// kernel-argument form (a pointer to it: what a GPU kernel ABI takes
        /// without a lint).
        #[unsafe(no_mangle)]
        #[allow(clippy::too_many_arguments)]
        pub extern "C" fn $typed(
            desc: *const KernelArg<DramChain>,
            a: *const u16,
            len: usize,
            block_row: Index,
            lds: *mut u16,
            tid: u32,
            out: *mut u16,
        ) {
            typed_host($operand, desc, a, len, block_row, lds, tid, out)
        }

        /// Twin of the typed path: M, K and the stride as arguments.
        #[unsafe(no_mangle)]
        #[allow(clippy::too_many_arguments)]
        pub extern "C" fn $hand(
            a: *const u16,
            rows: usize,
            k: usize,
            stride: usize,
            block_row: Index,
            lds: *mut u16,
            tid: u32,
            out: *mut u16,
        ) {
            hand($operand, a, rows as Index, k as Index, stride as Index, block_row, lds, tid, out)
        }

        /// The typed path, its DRAM view built in the kernel with `?`
        /// (held to the twin on nvptx, reported on amdgcn: see the module docs).
        #[unsafe(no_mangle)]
        #[allow(clippy::too_many_arguments)]
        pub extern "C" fn $build(
            a: *const u16,
            rows: usize,
            k: usize,
            stride: usize,
            block_row: Index,
            lds: *mut u16,
            tid: u32,
            out: *mut u16,
        ) {
            typed_inkernel($operand, a, rows, k, stride, block_row, lds, tid, out)
        }

        /// The typed path built in the kernel with `?` from 32-bit kernel
        /// arguments, as CK's kernels take their `index_t` sizes:
        /// held to the all-32-bit twin on both GPU targets.
        #[unsafe(no_mangle)]
        #[allow(clippy::too_many_arguments)]
        pub extern "C" fn $typed32(
            a: *const u16,
            rows: u32,
            k: u32,
            stride: u32,
            block_row: u32,
            lds: *mut u16,
            tid: u32,
            out: *mut u16,
        ) {
            typed_index32($operand, a, rows, k, stride, block_row, lds, tid, out)
        }

        /// Twin of the 32-bit-argument path: CK's code, every index an `i32`
        /// (`index_t`), the arguments used as they are.
        #[unsafe(no_mangle)]
        #[allow(clippy::too_many_arguments)]
        pub extern "C" fn $hand32(
            a: *const u16,
            rows: u32,
            k: u32,
            stride: u32,
            block_row: u32,
            lds: *mut u16,
            tid: u32,
            out: *mut u16,
        ) {
            hand_i32($operand, a, rows as i32, k as i32, stride as i32, block_row as i32, lds, tid, out)
        }
    };
}

operand_kernels!(Operand::A, typed_gemm_a, hand_gemm_a, typed_gemm_a_build, typed_gemm_a_index32, hand_gemm_a_index32);
operand_kernels!(Operand::B, typed_gemm_b, hand_gemm_b, typed_gemm_b_build, typed_gemm_b_index32, hand_gemm_b_index32);

macro_rules! block_kernels {
    ($operand:expr, $side:ty, $typed:ident) => {
        /// The host-descriptor path reading its operands through one window
        /// of CK's embedded block distribution (`EmbedEncoding`); its twin is the
        /// warp-window path's (`icount.py`'s `TWINS`).
        #[unsafe(no_mangle)]
        #[allow(clippy::too_many_arguments)]
        pub extern "C" fn $typed(
            desc: *const KernelArg<DramChain>,
            a: *const u16,
            len: usize,
            block_row: Index,
            lds: *mut u16,
            tid: u32,
            out: *mut u16,
        ) {
            typed_host_block::<$side>($operand, desc, a, len, block_row, lds, tid, out)
        }
    };
}

block_kernels!(Operand::A, OperandA, typed_gemm_a_block);
block_kernels!(Operand::B, OperandB, typed_gemm_b_block);

/// The host's DRAM descriptor of a `rows x k` operand (`make_dram_view`'s),
/// in its kernel-argument form.
pub fn host_descriptor(rows: usize, k: usize, stride: usize) -> Option<KernelArg<DramChain>> {
    make_dram_view::<u16>(&[], rows, k, stride).ok().map(|v| v.descriptor().to_kernel_arg())
}

/// The kernel-argument form has one layout on every target (the library
/// asserts it too): 16 eight-byte slots.
const _: () = assert!(core::mem::size_of::<KernelArg<DramChain>>() == 128);
const _: () = assert!(core::mem::align_of::<KernelArg<DramChain>>() == 8);

/// Every typed path kernel leaves the same accumulators and the same LDS
/// block as its twin, for every thread of the block and shapes that pad
/// along M, K and both (each thread runs alone over a pre-filled LDS
/// block: the addresses, validity and register places are what is
/// compared; `checks/tests/gemm_simulator.rs` runs the block together).
#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::vec;
    use std::vec::Vec;

    type Kernel = extern "C" fn(*const u16, usize, usize, usize, Index, *mut u16, u32, *mut u16);
    type Kernel32 = extern "C" fn(*const u16, u32, u32, u32, u32, *mut u16, u32, *mut u16);
    type HostKernel = extern "C" fn(*const KernelArg<DramChain>, *const u16, usize, Index, *mut u16, u32, *mut u16);

    /// (accumulators of every thread, final LDS) of a kernel.
    fn run(kernel: impl Fn(*const u16, *mut u16, u32, *mut u16), a: &[u16]) -> (Vec<u16>, Vec<u16>) {
        let mut out = vec![0u16; 8 * 256];
        let mut lds_after = Vec::new();
        for tid in 0..256 {
            let mut lds: Vec<u16> = (0..LDS_ELEMENTS).map(|i| (i * 7 + 3) as u16).collect();
            kernel(a.as_ptr(), lds.as_mut_ptr(), tid, out.as_mut_ptr());
            lds_after.extend(lds);
        }
        (out, lds_after)
    }

    #[test]
    fn path_kernels_equal_their_twins() {
        let kernels: [(HostKernel, Kernel, Kernel); 4] = [
            (typed_gemm_a, hand_gemm_a, typed_gemm_a_build),
            (typed_gemm_b, hand_gemm_b, typed_gemm_b_build),
            (typed_gemm_a_block, hand_gemm_a, typed_gemm_a_build),
            (typed_gemm_b_block, hand_gemm_b, typed_gemm_b_build),
        ];
        for (rows, k, stride, block_row) in
            [(128, 32, 32, 0), (200, 72, 80, 128), (130, 40, 48, 0), (257, 96, 104, 256)]
        {
            let a: Vec<u16> = (0..rows * stride).map(|i| (i % 65521) as u16 + 1).collect();
            let desc = host_descriptor(rows, k, stride).unwrap();
            for (typed, hand, build) in kernels {
                let want = run(|a, l, t, o| hand(a, rows, k, stride, block_row, l, t, o), &a);
                assert!(want.0.iter().any(|&x| x != 0), "the twin reads something");
                assert_eq!(run(|a, l, t, o| typed(&desc, a, rows * stride, block_row, l, t, o), &a), want);
                assert_eq!(run(|a, l, t, o| build(a, rows, k, stride, block_row, l, t, o), &a), want);
            }
            // The 32-bit-argument kernels: the typed path and CK's all-i32 code agree with the 64-bit twin.
            let kernels32: [(Kernel32, Kernel32, Kernel); 2] = [
                (typed_gemm_a_index32, hand_gemm_a_index32, hand_gemm_a),
                (typed_gemm_b_index32, hand_gemm_b_index32, hand_gemm_b),
            ];
            let (r, kk, s, b) = (rows as u32, k as u32, stride as u32, block_row as u32);
            for (typed, hand32, hand) in kernels32 {
                let want = run(|a, l, t, o| hand(a, rows, k, stride, block_row, l, t, o), &a);
                assert_eq!(run(|a, l, t, o| hand32(a, r, kk, s, b, l, t, o), &a), want);
                assert_eq!(run(|a, l, t, o| typed(a, r, kk, s, b, l, t, o), &a), want);
            }
        }
        // A shape the 8-element loads cannot serve: the in-kernel builds refuse it, nothing is written.
        let a = vec![1u16; 4096];
        let builds: [&dyn Fn(*mut u16, *mut u16); 2] =
            [&|o, l| typed_gemm_a_build(a.as_ptr(), 10, 36, 40, 0, l, 0, o), &|o, l| {
                typed_gemm_a_index32(a.as_ptr(), 10, 36, 40, 0, l, 0, o)
            }];
        for build in builds {
            let mut out = vec![0u16; 8 * 256];
            let mut lds = vec![0u16; LDS_ELEMENTS];
            build(out.as_mut_ptr(), lds.as_mut_ptr());
            assert!(out.iter().all(|&x| x == 0) && lds.iter().all(|&x| x == 0));
        }
    }
}
