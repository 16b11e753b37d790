//! A whole GEMM through CK Tile's universal data paths, run on the CPU.
//!
//! Every block of `C = A * B^T` (A is M x K, B is N x K, both K-contiguous
//! with a row stride of their own) runs the code a GPU kernel runs:
//! `OperandPath` loads each thread's DRAM tile (8-element vectors, padded
//! to the block tile), stores it into the block's LDS with CK's XOR
//! layout, and reads each warp's MFMA operands back. The block's 256
//! threads run one after another in each stage; the stages are the
//! kernel's barriers. The MFMA itself is emulated from AMD's lane map
//! (lane `l`, register `r` of a 32 x 8 operand holds row `l % 32`, K value
//! `4 * (l / 32) + r`), and the result is compared with a plain triple
//! loop, exactly: the inputs are small integers, so every sum is exact in
//! `f32`.
//!
//! ```text
//! cargo run --example block_gemm
//! ```
//!
//! The GPU form of the same data path (one thread per lane, LDS from
//! `tile::gpu::workgroup_memory`, `block_sync_lds` for the barriers) is in
//! the guide's "Writing a kernel" chapter; `perf/kernels` compiles it for
//! gfx942 and sm_90.

use cktile::Error;
use cktile::ops::gemm::{GemmPolicy, OperandA, OperandB, OperandPath, OperandSide, UniversalGemmPolicy};
use cktile::tile::SharedMemory;
use std::cell::Cell;

/// CK's 256-thread, 128 x 128 x 32 configuration: 2 x 2 warps of the
/// 32x32x8 MFMA.
type P = UniversalGemmPolicy<256, 128, 128, 32>;
/// The lanes of an AMD wave.
const WAVE: usize = 64;

/// One operand of one block: every thread's path over the operand's rows
/// from `block_row`, into `lds`.
fn paths<'a, S: OperandSide<P> + Copy>(
    side: S,
    operand: &'a [f32],
    (rows, k, stride): (usize, usize, usize),
    block_row: usize,
    lds: &'a [Cell<f32>],
) -> Result<Vec<OperandPath<'a, f32, P, S>>, Error> {
    (0..P::BLOCK_SIZE)
        .map(|t| OperandPath::new(side, operand, rows, k, stride, block_row as i64, SharedMemory::new(lds), t))
        .collect()
}

/// The K tile's loads (every thread), then its LDS stores (every thread):
/// the kernel's two stages around a barrier.
fn stage<S: OperandSide<P>>(paths: &mut [OperandPath<'_, f32, P, S>]) {
    let tiles: Vec<_> = paths.iter_mut().map(|p| (p.load(), p.next_k()).0).collect();
    for (p, t) in paths.iter_mut().zip(&tiles) {
        p.store(t);
    }
}

/// A warp tile of operand `S` as the MFMA sees it: `[row][k]`, gathered
/// from the 64 lanes' registers by AMD's lane map.
fn warp_tile<S: OperandSide<P>>(
    paths: &[OperandPath<'_, f32, P, S>],
    warp: usize,
    iter: usize,
    k_iter: usize,
) -> Vec<Vec<f32>> {
    let kl = P::WARP_K * S::WARP_ROWS / WAVE;
    let mut tile = vec![vec![0.0; P::WARP_K]; S::WARP_ROWS];
    for lane in 0..WAVE {
        let regs = paths[warp * WAVE + lane].read(iter, k_iter);
        for (r, &x) in regs.thread_buffer().iter().enumerate() {
            tile[lane % S::WARP_ROWS][kl * (lane / S::WARP_ROWS) + r] = x;
        }
    }
    tile
}

/// `C`'s block at (`m0`, `n0`).
fn block(
    a: &[f32],
    b: &[f32],
    c: &mut [f32],
    (m, n, k, stride): (usize, usize, usize, usize),
    (m0, n0): (usize, usize),
) -> Result<(), Error> {
    let a_lds: Vec<Cell<f32>> = (0..P::M_PER_BLOCK * P::K_PER_BLOCK).map(|_| Cell::new(0.0)).collect();
    let b_lds: Vec<Cell<f32>> = (0..P::N_PER_BLOCK * P::K_PER_BLOCK).map(|_| Cell::new(0.0)).collect();
    let mut a_paths = paths(OperandA, a, (m, k, stride), m0, &a_lds)?;
    let mut b_paths = paths(OperandB, b, (n, k, stride), n0, &b_lds)?;
    for _ in 0..k.div_ceil(P::K_PER_BLOCK) {
        stage(&mut a_paths);
        stage(&mut b_paths);
        // Barrier: every warp multiplies its warp tiles.
        for warp in 0..P::BLOCK_SIZE / WAVE {
            let wm = <OperandA as OperandSide<P>>::warp_row(OperandA, warp as i64) as usize;
            let wn = <OperandB as OperandSide<P>>::warp_row(OperandB, warp as i64) as usize;
            for (im, jn, ki) in
                (0..P::M_ITERS).flat_map(|i| (0..P::N_ITERS).flat_map(move |j| (0..P::K_ITERS).map(move |q| (i, j, q))))
            {
                let (at, bt) = (warp_tile(&a_paths, warp, im, ki), warp_tile(&b_paths, warp, jn, ki));
                let row0 = m0 + (im * P::M_WARPS + wm) * P::WARP_M;
                let col0 = n0 + (jn * P::N_WARPS + wn) * P::WARP_N;
                for (i, a_row) in at.iter().enumerate() {
                    for (j, b_row) in bt.iter().enumerate() {
                        if row0 + i < m && col0 + j < n {
                            c[(row0 + i) * n + col0 + j] += a_row.iter().zip(b_row).map(|(x, y)| x * y).sum::<f32>();
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

fn main() -> Result<(), Error> {
    // Padded along M, N and K, with a row stride that is no multiple of the vector (CK accepts it).
    let (m, n, k, stride) = (200, 150, 72, 76);
    let a: Vec<f32> = (0..m * stride).map(|i| ((i * 7 + 3) % 11) as f32 - 5.0).collect();
    let b: Vec<f32> = (0..n * stride).map(|i| ((i * 5 + 1) % 13) as f32 - 6.0).collect();
    let mut c = vec![0.0f32; m * n];
    for m0 in (0..m).step_by(P::M_PER_BLOCK) {
        for n0 in (0..n).step_by(P::N_PER_BLOCK) {
            block(&a, &b, &mut c, (m, n, k, stride), (m0, n0))?;
        }
    }
    let reference = |i: usize, j: usize| (0..k).map(|q| a[i * stride + q] * b[j * stride + q]).sum::<f32>();
    let wrong = (0..m * n).filter(|&x| c[x] != reference(x / n, x % n)).count();
    println!(
        "C = A * B^T, {m} x {n} x {k} (row stride {stride}), {} blocks of {}: {wrong} of {} elements differ from the reference",
        m.div_ceil(P::M_PER_BLOCK) * n.div_ceil(P::N_PER_BLOCK),
        P::BLOCK_SIZE,
        m * n
    );
    if wrong == 0 { Ok(()) } else { std::process::exit(1) }
}
