//! The entry points (`.visible .entry` in the PTX), nvptx64 only: each
//! thread writes the offsets of its vector ([`crate::vector_of`]) of the
//! tile to `out`, the tile in row-major order. The launcher gives `out`
//! `rows * cols` elements and at least `rows * cols / 8` threads in x
//! (threads past the tile write nothing).
//!
//! The only `unsafe` code is reading the thread's index (special registers)
//! and writing through the raw output pointer, both in [`store`].

use crate::{Index, VECTOR, tiles, vector_of};
use core::arch::nvptx::{_block_dim_x, _block_idx_x, _thread_idx_x};

/// Writes the offsets of the calling thread's vector of a `rows` x `cols`
/// tile, `offset(m, k)` each, to `out`.
///
/// # Safety
///
/// `out` must point to `rows * cols` writable `Index`es that no other
/// thread of the launch writes but through this function (each element is
/// written by exactly one thread).
#[inline(always)]
unsafe fn store(out: *mut Index, rows: u64, cols: u64, offset: impl Fn(Index, Index) -> Index) {
    // SAFETY: reading %ctaid.x, %ntid.x and %tid.x has no precondition in a kernel.
    let tid = unsafe { _block_idx_x() as u64 * _block_dim_x() as u64 + _thread_idx_x() as u64 };
    if let Some((first, m, k)) = vector_of(tid, rows, cols) {
        for j in 0..VECTOR {
            // SAFETY: first + j < rows * cols (vector_of keeps the vector in
            // the tile), in bounds of `out` by the caller's contract; usize is
            // 64 bits on nvptx64.
            unsafe { out.add((first + j) as usize).write(offset(m, k + j as Index)) }
        }
    }
}

/// [`tiles::typed_a_lds`] over its 128 x 32 tile.
///
/// # Safety
///
/// `out` holds 128 * 32 elements (see the module docs).
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn typed_a_lds(out: *mut Index) {
    // SAFETY: the caller's contract.
    unsafe { store(out, tiles::A_LDS.0, tiles::A_LDS.1, tiles::typed_a_lds()) }
}

/// [`tiles::hand_a_lds`] over its 128 x 32 tile.
///
/// # Safety
///
/// `out` holds 128 * 32 elements.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn hand_a_lds(out: *mut Index) {
    // SAFETY: the caller's contract.
    unsafe { store(out, tiles::A_LDS.0, tiles::A_LDS.1, tiles::hand_a_lds()) }
}

/// [`tiles::typed_a_lds_rt`] over its `m_per_block` x 32 tile, the
/// descriptor built here from the argument.
///
/// # Safety
///
/// `out` holds `m_per_block * 32` elements.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn typed_a_lds_rt(out: *mut Index, m_per_block: u64) {
    // SAFETY: the caller's contract.
    unsafe { store(out, m_per_block, tiles::A_LDS_RT_COLS, tiles::typed_a_lds_rt(m_per_block)) }
}

/// [`tiles::hand_a_lds`] over an `m_per_block` x 32 tile.
///
/// # Safety
///
/// `out` holds `m_per_block * 32` elements.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn hand_a_lds_rt(out: *mut Index, m_per_block: u64) {
    // SAFETY: the caller's contract.
    unsafe { store(out, m_per_block, tiles::A_LDS_RT_COLS, tiles::hand_a_lds()) }
}

/// [`tiles::typed_b_lds`] over its 256 x 64 tile.
///
/// # Safety
///
/// `out` holds 256 * 64 elements.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn typed_b_lds(out: *mut Index) {
    // SAFETY: the caller's contract.
    unsafe { store(out, tiles::B_LDS.0, tiles::B_LDS.1, tiles::typed_b_lds()) }
}

/// [`tiles::hand_b_lds`] over its 256 x 64 tile.
///
/// # Safety
///
/// `out` holds 256 * 64 elements.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn hand_b_lds(out: *mut Index) {
    // SAFETY: the caller's contract.
    unsafe { store(out, tiles::B_LDS.0, tiles::B_LDS.1, tiles::hand_b_lds()) }
}

/// [`tiles::typed_fmha_v`] over its 256 x 32 tile (two buffers).
///
/// # Safety
///
/// `out` holds 256 * 32 elements.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn typed_fmha_v(out: *mut Index) {
    // SAFETY: the caller's contract.
    unsafe { store(out, tiles::FMHA_V.0, tiles::FMHA_V.1, tiles::typed_fmha_v()) }
}

/// [`tiles::hand_fmha_v`] over its 256 x 32 tile (two buffers).
///
/// # Safety
///
/// `out` holds 256 * 32 elements.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn hand_fmha_v(out: *mut Index) {
    // SAFETY: the caller's contract.
    unsafe { store(out, tiles::FMHA_V.0, tiles::FMHA_V.1, tiles::hand_fmha_v()) }
}

/// [`tiles::typed_global_a`] over its padded `(m + pad_m)` x `(k + pad_k)`
/// tile, the descriptor built here from the arguments.
///
/// # Safety
///
/// `out` holds `(m + pad_m) * (k + pad_k)` elements.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn typed_global_a(out: *mut Index, m: u64, k: u64, stride: u64, pad_m: u64, pad_k: u64) {
    let args = (m, k, stride, pad_m, pad_k);
    if let Some((rows, cols)) = tiles::global_a_shape(args) {
        // SAFETY: the caller's contract.
        unsafe { store(out, rows, cols, tiles::typed_global_a(args)) }
    }
}

/// [`tiles::hand_global_a`] over its padded `(m + pad_m)` x `(k + pad_k)` tile.
///
/// # Safety
///
/// `out` holds `(m + pad_m) * (k + pad_k)` elements.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn hand_global_a(out: *mut Index, m: u64, k: u64, stride: u64, pad_m: u64, pad_k: u64) {
    let args = (m, k, stride, pad_m, pad_k);
    if let Some((rows, cols)) = tiles::global_a_shape(args) {
        // SAFETY: the caller's contract.
        unsafe { store(out, rows, cols, tiles::hand_global_a(args)) }
    }
}

/// A panic (none is expected: the static kernels' PTX is checked to call no
/// function) traps, so the launch fails with an error instead of hanging.
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // SAFETY: `trap` aborts the kernel; it has no precondition.
    unsafe { core::arch::nvptx::trap() }
}
