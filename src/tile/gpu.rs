//! The GPU memory layer: what a kernel on amdgcn or nvptx needs from
//! outside safe Rust to run a data path, and the only `unsafe` code of the
//! library. It exists when compiling for `amdgcn-amd-amdhsa` or
//! `nvptx64-nvidia-cuda` (with nightly Rust, which those targets need
//! anyway for `-Zbuild-std=core`).
//!
//! - [`workgroup_memory`]: the block's shared memory (LDS on AMD, shared
//!   memory on NVIDIA) as a [`SharedMemory`], from the launch-sized
//!   workgroup memory (`core::intrinsics::gpu::gpu_launch_sized_workgroup_mem`,
//!   HIP's and CUDA's dynamic shared memory). Its pointer is in LLVM's
//!   shared address space, so the windows' accesses compile to `ds_read` /
//!   `ds_write` on amdgcn and `ld.shared` on nvptx, as CK's do. (Rust cannot
//!   declare a static in that address space; launch-sized memory is what it
//!   can reach.)
//! - [`block_sync_lds`]: CK's `block_sync_lds`: every LDS access of this
//!   thread complete, then the block barrier.
//!
//! A kernel (compiled by `scripts/target-icount.sh` for both targets, in
//! `perf/kernels/src/paths.rs`):
//!
//! ```ignore
//! // The block's 128 x 32 fp16 LDS block; launched with 8 KiB of dynamic shared memory.
//! let lds = unsafe { cktile::tile::gpu::workgroup_memory::<u16>(128 * 32) };
//! let lds_view = make_tensor_view(lds, make_lds_block::<128, 32>()?);
//! // ... store_tile(&mut lds_store_window, &tile);
//! unsafe { cktile::tile::gpu::block_sync_lds() };
//! // ... load_tile(&warp_window);
//! ```
#![allow(unsafe_code)]

use super::memory::SharedMemory;
use core::cell::Cell;
use core::sync::atomic::{Ordering, compiler_fence};

/// The block's launch-sized workgroup memory (LDS, dynamic shared memory)
/// as `len` elements of `T` that every window of the block shares.
///
/// # Safety
///
/// The kernel was launched with at least `len * size_of::<T>()` bytes of
/// dynamic workgroup memory (HIP's and CUDA's dynamic shared memory size),
/// and the returned memory is used only by this launch's block: every
/// thread that calls this gets the same memory, and its accesses must be
/// ordered by [`block_sync_lds`] as CK's are. The elements hold whatever the
/// memory held before (write before reading).
#[inline(always)]
pub unsafe fn workgroup_memory<'a, T>(len: usize) -> SharedMemory<'a, T> {
    let base = core::intrinsics::gpu::gpu_launch_sized_workgroup_mem::<T>();
    // SAFETY: the caller guarantees `len` elements of launch-sized memory;
    // the pointer is aligned for `T` (the intrinsic's promise), and a
    // `Cell<T>` has `T`'s layout.
    SharedMemory::new(unsafe { core::slice::from_raw_parts(base as *const Cell<T>, len) })
}

// `llvm.amdgcn.s.waitcnt`: waits until the counters reach the given values.
#[cfg(target_arch = "amdgpu")]
unsafe extern "llvm-intrinsic" {
    #[link_name = "llvm.amdgcn.s.waitcnt"]
    fn s_waitcnt(counters: i32);
}

/// CK Tile's `block_sync_lds`: waits until this thread's shared-memory
/// accesses are complete, then waits at the block barrier, so every
/// thread's stores before it are seen by every thread's loads after it.
///
/// - amdgcn: `s_waitcnt 0` (every counter at zero: correct on gfx9, gfx10
///   and gfx11; CK waits on the LDS counter alone, `lgkmcnt(0)`, whose
///   encoding differs between those generations) and `s_barrier`. On gfx942
///   the barrier itself waits for nothing (the back-off barrier), so the
///   wait is needed; gfx12's split counters are not covered.
/// - nvptx: `bar.sync 0` (`__syncthreads`), which orders the block's
///   shared-memory accesses itself.
///
/// Compiler fences on both sides keep the compiler from moving memory
/// accesses across it.
///
/// # Safety
///
/// Every thread of the block calls it, as often and in the same order (a
/// barrier some threads skip hangs the block, or worse: the hardware's
/// rule, and CK's).
#[inline(always)]
pub unsafe fn block_sync_lds() {
    compiler_fence(Ordering::SeqCst);
    #[cfg(target_arch = "amdgpu")]
    {
        // SAFETY: waiting on the counters has no precondition.
        unsafe { s_waitcnt(0) };
        core::arch::amdgpu::s_barrier();
    }
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: every thread of the block reaches this barrier (the caller's promise).
    unsafe {
        core::arch::nvptx::_syncthreads()
    };
    compiler_fence(Ordering::SeqCst);
}
