//! cktile's typed descriptors on an NVIDIA GPU: kernels for
//! `nvptx64-nvidia-cuda` in which every thread writes the offsets of one
//! vector of a tile, once through cktile's typed API (`typed_*`) and once
//! through the formula written by hand (`hand_*`, the twin).
//!
//! `gpu/kernel.sh` builds the PTX (nightly, `-Zbuild-std=core`,
//! `-Ctarget-cpu=sm_90 --emit=asm`), writes what cktile's CLI says each
//! offset is (`cktile offsets --json` on the catalogue entry or spec of
//! `cases.txt`), and, on a machine with a GPU, runs every kernel and compares
//! every element it wrote.
//!
//! The descriptors are those of the zero-cost proof kernels: `builders` is
//! `perf/kernels/src/builders.rs`, compiled into this crate. The per-thread
//! work ([`tiles`], [`vector_of`]) is plain Rust, so the host test
//! (`tests/host.rs`) runs the same code on x86_64 against the catalogue
//! before any GPU does; only the entry points (`src/kernels.rs`) are nvptx-only.
#![no_std]
#![cfg_attr(target_arch = "nvptx64", feature(abi_ptx, stdarch_nvptx))]
#![deny(missing_docs)]

// The proof kernels' descriptors, one definition for both crates (their
// spelled-out descriptor types are the point, hence the allow).
#[allow(clippy::type_complexity)]
#[path = "../../../perf/kernels/src/builders.rs"]
pub mod builders;
#[cfg(target_arch = "nvptx64")]
pub mod kernels;
pub mod tiles;

pub use cktile_core::Index;

/// Elements each thread writes: one vector of 8 consecutive elements of a
/// row (16 bytes of fp16, CK's KPack).
pub const VECTOR: u64 = 8;

/// Written instead of an offset when a kernel's descriptor was refused on
/// the device: never an offset, and not -1 (a padding element).
pub const REFUSED: Index = -2;

/// Written for a padding element (a coordinate the view marks invalid), as
/// `cktile offsets --json` reports it with `valid: false`.
pub const PADDING: Index = -1;

/// Thread `tid`'s vector in a row-major `rows` x `cols` tile (`cols` a
/// multiple of [`VECTOR`]): the index of its first element in the output
/// and its `(m, k)` coordinate; `None` for a thread past the tile.
///
/// The output is the tile in row-major order, the order of
/// `cktile offsets --json`.
///
/// ```
/// // A 4 x 16 tile: two threads a row.
/// assert_eq!(cktile_gpu_kernel::vector_of(3, 4, 16), Some((24, 1, 8)));
/// assert_eq!(cktile_gpu_kernel::vector_of(8, 4, 16), None);
/// ```
#[inline(always)]
pub fn vector_of(tid: u64, rows: u64, cols: u64) -> Option<(u64, Index, Index)> {
    let per_row = cols / VECTOR;
    if per_row == 0 || tid >= rows.checked_mul(per_row)? {
        return None;
    }
    let (m, k) = (tid / per_row, (tid % per_row) * VECTOR);
    // m <= tid and k < cols, both below rows * cols <= u64::MAX / 8 < 2^63:
    // the conversions are lossless.
    Some((m * cols + k, m as Index, k as Index))
}
