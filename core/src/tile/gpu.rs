//! The GPU memory layer: what a kernel on amdgcn or nvptx needs from
//! outside safe Rust to run a data path, and with `tile::cells` (nvptx's
//! aligned vector accesses to shared memory) and `tile::buffer` (amdgcn's
//! buffer loads) the only `unsafe` code of the library besides the block
//! GEMM's instructions. It exists when compiling for `amdgcn-amd-amdhsa` or
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
//!   can reach.) Its base is declared 16-byte aligned, which nvptx's
//!   vector accesses rest on (`tile::cells`).
//! - [`block_sync_lds`]: CK's `block_sync_lds`: every LDS access of this
//!   thread complete, then the block barrier.
//! - CK's hardware ids (`arch/utility.hpp`): [`get_thread_id`],
//!   [`get_block_id`], [`get_warp_size`], [`get_lane_id`], [`get_warp_id`]
//!   (wave-uniform, in a scalar register on amdgcn as CK's), and
//!   [`get_partition`], the (warp, lane) the windows take.
//! - On nvptx, bf16's conversion from `f32` in one instruction
//!   (`cvt.rn.bf16.f32`; Rust has no bf16 type to convert to with `as`),
//!   which [`Bf16`](crate::ops::gemm::Bf16) rounds a C tile with.
//!
//! A kernel (compiled by `scripts/target-icount.sh` for both targets, in
//! `perf/kernels/src/paths.rs`):
//!
//! ```ignore
//! // The block's 128 x 32 fp16 LDS block; launched with 8 KiB of dynamic shared memory.
//! let lds = unsafe { cktile_core::tile::gpu::workgroup_memory::<u16>(128 * 32) };
//! let lds_view = make_tensor_view(lds, make_lds_block::<128, 32, 2, 32, 16>()?);
//! // ... store_tile(&mut lds_store_window, &tile);
//! unsafe { cktile_core::tile::gpu::block_sync_lds() };
//! // ... load_tile(&warp_window);
//! ```
#![allow(unsafe_code)]

use super::cells::{Align16, Cells};
use super::memory::SharedMemory;
use super::partition::Partition;
use crate::Index;
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
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub unsafe fn workgroup_memory<'a, T>(len: usize) -> SharedMemory<'a, T> {
    let base = core::intrinsics::gpu::gpu_launch_sized_workgroup_mem::<Align16<T>>().cast::<T>();
    // SAFETY: the caller guarantees `len` elements of launch-sized memory;
    // the pointer is aligned for `Align16<T>`, so for `T` and to 16 bytes
    // (the intrinsic's promise, once it has been called with the type, as
    // here), and a `Cell<T>` has `T`'s layout.
    let cells = unsafe { core::slice::from_raw_parts(base as *const Cell<T>, len) };
    // SAFETY: the base is aligned to 16 bytes, as above.
    SharedMemory::of(unsafe { Cells::aligned_unchecked(cells) })
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
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
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

/// CK's `get_thread_id`: the thread's index in its block along x (HIP's and
/// CUDA's `threadIdx.x`; `workitem_id_x` on amdgcn, `%tid.x` on nvptx).
///
/// LLVM knows its range (below the kernel's flat work-group size on
/// amdgcn, 1024 by default), so arithmetic on it needs no overflow checks.
///
/// ```ignore
/// let tid = cktile_core::tile::gpu::get_thread_id(); // 0..256 in a 256-thread block
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn get_thread_id() -> usize {
    #[cfg(target_arch = "amdgpu")]
    let id = core::arch::amdgpu::workitem_id_x();
    // SAFETY: reading %tid.x has no precondition in a kernel.
    #[cfg(target_arch = "nvptx64")]
    let id = unsafe { core::arch::nvptx::_thread_idx_x() } as u32;
    id as usize
}

/// CK's `get_block_id`: the block's index in the grid along x (`blockIdx.x`;
/// `workgroup_id_x` on amdgcn, in a scalar register, `%ctaid.x` on nvptx).
///
/// ```ignore
/// let block_row = cktile_core::tile::gpu::get_block_id() * 128; // this block's first M row
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn get_block_id() -> usize {
    #[cfg(target_arch = "amdgpu")]
    let id = core::arch::amdgpu::workgroup_id_x();
    // SAFETY: reading %ctaid.x has no precondition in a kernel.
    #[cfg(target_arch = "nvptx64")]
    let id = unsafe { core::arch::nvptx::_block_idx_x() } as u32;
    id as usize
}

/// CK's `get_warp_size`: lanes per warp (wave). 64 on gfx9 (CDNA: gfx942),
/// 32 or 64 on RDNA (the compiled wave size, a constant LLVM folds), 32 on
/// NVIDIA.
///
/// ```ignore
/// assert_eq!(cktile_core::tile::gpu::get_warp_size(), 64); // compiled for gfx942
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn get_warp_size() -> usize {
    #[cfg(target_arch = "amdgpu")]
    let size = core::arch::amdgpu::wavefrontsize() as usize;
    #[cfg(target_arch = "nvptx64")]
    let size = 32;
    size
}

/// CK's `get_lane_id`: the thread's lane in its warp. On amdgcn it is HIP's
/// `__lane_id()` (`v_mbcnt_lo`, and `v_mbcnt_hi` in wave64: the count of
/// lanes below this one), as CK reads it; on nvptx `%tid.x % 32` (the block
/// is one-dimensional in CK's kernels, so that is `%laneid`).
///
/// ```ignore
/// let lane = cktile_core::tile::gpu::get_lane_id(); // 0..64 on gfx942
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn get_lane_id() -> usize {
    #[cfg(target_arch = "amdgpu")]
    let lane = {
        let low = core::arch::amdgpu::mbcnt_lo(u32::MAX, 0);
        if get_warp_size() == 64 { core::arch::amdgpu::mbcnt_hi(u32::MAX, low) } else { low }
    };
    #[cfg(target_arch = "nvptx64")]
    let lane = get_thread_id() as u32 % 32;
    lane as usize
}

/// CK's `get_warp_id`: the thread's warp in its block, `threadIdx.x /
/// warp size`. On amdgcn it is read from the wave's first lane
/// (`v_readfirstlane_b32`, CK's `amd_wave_read_first_lane`), so the
/// compiler knows it is the same in every lane and keeps it, and what is
/// computed from it, in scalar registers (an offset per warp costs SALU
/// instructions, not VALU ones, as in CK). nvptx has no scalar registers:
/// there it is the division.
///
/// ```ignore
/// let warp = cktile_core::tile::gpu::get_warp_id(); // 0..4 in a 256-thread block on gfx942
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn get_warp_id() -> usize {
    let warp = (get_thread_id() / get_warp_size()) as u32;
    #[cfg(target_arch = "amdgpu")]
    let warp = core::arch::amdgpu::readfirstlane_u32(warp);
    warp as usize
}

/// The calling thread's (warp, lane), as the tile windows take it
/// ([`make_tile_window_with_distribution`](super::make_tile_window_with_distribution)):
/// [`get_warp_id`] (wave-uniform) and [`get_lane_id`].
///
/// ```ignore
/// let p = cktile_core::tile::gpu::get_partition();
/// let window = make_tile_window_with_distribution(view, (Number::<128>, Number::<32>), [0, 0], make_static_tile_distribution(), p)?;
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn get_partition() -> Partition {
    Partition { warp: get_warp_id() as Index, lane: get_lane_id() as Index }
}

/// The calling thread's partition into warps of `WAVE` lanes, in a
/// kernel launched with `block_size` threads a block: `None` in a thread
/// past them ([`Partition::in_block`]). CK's kernels are written for their
/// policy's block; starting with this gives the compiler the warp's bound,
/// so the windows' LDS bounds checks fold.
///
/// `WAVE` is the lane count the distributions were written for, not the
/// hardware's: where the hardware's warp has `WAVE` lanes (64 on gfx942)
/// it is [`get_partition`] (the warp wave-uniform, a scalar register on
/// amdgcn); elsewhere (a 64-lane data path on an NVIDIA GPU's 32-lane
/// warps) it is computed from the thread id, `threadIdx.x / WAVE` and
/// `threadIdx.x % WAVE`, so every thread of the block still takes its own
/// place in the distributions. (A partition of the hardware's 32-lane
/// warps given to 64-lane distributions leaves half the lanes' places
/// unused and the warps past the distribution's refused: half a tile.)
/// A GEMM policy names its lanes itself: `ops::gemm::get_policy_partition`.
///
/// ```ignore
/// let Some(p) = cktile_core::tile::gpu::get_partition_in_block::<64>(256) else { return };
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn get_partition_in_block<const WAVE: usize>(block_size: usize) -> Option<Partition> {
    partition_in_block(block_size, WAVE)
}

/// [`get_partition_in_block`] for a lane count known after
/// monomorphization (a policy's associated constant), which a const
/// generic argument cannot name in generic code.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) fn partition_in_block(block_size: usize, wave: usize) -> Option<Partition> {
    if get_warp_size() == wave {
        get_partition().in_block(block_size, wave)
    } else {
        Partition::of_thread(get_thread_id(), wave)?.in_block(block_size, wave)
    }
}

/// `value` in bf16 by `cvt.rn.bf16.f32` (sm_80 and later): to nearest,
/// ties to even, as [`Bf16::from_f32`](crate::ops::gemm::MfmaElement::from_f32)
/// rounds on the host; a NaN's payload may differ.
#[cfg(target_arch = "nvptx64")]
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) fn bf16_from_f32(value: f32) -> u16 {
    let bits: u16;
    // SAFETY: a conversion between registers: no memory, no precondition (sm_80 and later have
    // it; the kernels are compiled for sm_90).
    unsafe {
        core::arch::asm!("cvt.rn.bf16.f32 {b}, {v};", b = out(reg16) bits, v = in(reg32) value, options(pure, nomem, nostack));
    }
    bits
}
