//! CK's epilogues: how the universal GEMM's accumulators reach C
//! ([`Epilogue`]):
//!
//! - [`Default2D`]: CK's `Default2DEpilogue`: the C block tensor
//!   ([`CBlockTensor`]) converted to C's type and stored into C's DRAM
//!   view ([`make_c_dram_view`](super::make_c_dram_view)) through a window
//!   with the policy's C distribution ([`c_window`], [`store_c_tile`]),
//!   the padding's stores dropped;
//! - [`CShuffle`](super::CShuffle): CK's `CShuffleEpilogue`, the accumulators through an
//!   LDS tile so that C is stored in vectors along its rows
//!   (`ops::gemm::cshuffle`).
//!
//! ```
//! use cktile_core::ops::gemm::{CBlockTensor, GemmPolicy, UniversalGemmPolicy, c_window, store_c_tile};
//! type P = UniversalGemmPolicy<256, 128, 128, 32>;
//! // A 100 x 70 C (row stride 72): every thread of the block stores its tile of ones.
//! let mut c = vec![0f32; 100 * 72];
//! for t in 0..P::BLOCK_SIZE {
//!     let p = P::partition_of_thread(t).ok_or(cktile_core::Error::policy("in the block"))?;
//!     let mut w = c_window::<f32, P>(P::make_c_dram_view(&mut c, 100, 70, 72)?, (0, 0), p)?;
//!     store_c_tile::<f32, P>(&mut w, &CBlockTensor::<P>::filled(1.0), |x| x);
//! }
//! assert!((0..100 * 72).all(|i| c[i] == if i % 72 < 70 { 1.0 } else { 0.0 }));
//! # Ok::<(), cktile_core::Error>(())
//! ```

use super::block::{AccOf, CBlockTensor};
use super::dram::CDramChain;
use super::policy::GemmPolicy;
use crate::Index;
use crate::distribution::typed::make_static_tile_distribution;
use crate::error::Error;
use crate::tile::transfer::{Visit, each_access};
use crate::tile::window::Plan;
use crate::tile::{Partition, SharedMemory, TileWindowWithStaticDistribution, make_tile_window_with_distribution};
use crate::typed::TensorView;

/// How the universal GEMM's accumulators, of type `T`, reach C: one of
/// CK's epilogue pipelines, which the kernel body
/// (`ops::gemm::universal_gemm_with`) and the host's
/// [`emulate_gemm_with`](super::emulate_gemm_with) take. Sealed:
/// [`Default2D`] and [`CShuffle`](super::CShuffle).
///
/// ```
/// use cktile_core::ops::gemm::{CShuffle, Default2D, Epilogue};
/// assert_eq!(<Default2D as Epilogue<f32>>::NAME, "Default2D");
/// assert_eq!(<CShuffle<'_, f32> as Epilogue<f32>>::NAME, "CShuffle");
/// ```
pub trait Epilogue<T>: sealed::SealedEpilogue<T> {
    /// Its name in the guide (CK's, without `Epilogue`).
    const NAME: &'static str;
}

pub(crate) mod sealed {
    use crate::tile::SharedMemory;

    pub trait SealedEpilogue<T> {
        /// The LDS tile of a shuffling epilogue; `None` for one that
        /// stores straight into C.
        fn shuffle_lds(&self) -> Option<SharedMemory<'_, T>>;
    }
}

/// CK's `Default2DEpilogue`: each thread stores its accumulators straight
/// into C, in the block GEMM's C distribution ([`store_c_tile`]). On an
/// MFMA, a lane's accumulators lie in one column of C, so each is its own
/// store; no LDS.
///
/// ```
/// use cktile_core::ops::gemm::{Default2D, Epilogue};
/// assert_eq!(<Default2D as Epilogue<i32>>::NAME, "Default2D");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Default2D;

impl<T> sealed::SealedEpilogue<T> for Default2D {
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn shuffle_lds(&self) -> Option<SharedMemory<'_, T>> {
        None
    }
}

impl<T> Epilogue<T> for Default2D {
    const NAME: &'static str = "Default2D";
}

/// A thread's C window: its block's `MPerBlock x NPerBlock` tile of C's
/// DRAM view, distributed by the policy's C distribution.
///
/// ```
/// use cktile_core::ops::gemm::{CWindow, UniversalGemmPolicy};
/// fn _epilogue(w: &mut CWindow<'_, f32, UniversalGemmPolicy<256, 128, 128, 32>>) -> usize {
///     w.plan().accesses()
/// }
/// ```
pub type CWindow<'a, T, P> = TileWindowWithStaticDistribution<&'a mut [T], CDramChain, <P as GemmPolicy>::CBlock>;

/// The C window of the thread at partition `p` over the block tile at
/// (`block_row`, `block_col`) of `view` (from
/// [`GemmPolicy::make_c_dram_view`]). Errors: the window's (a partition
/// outside the policy's block). An origin past C is no error: its stores
/// fall in the padding, or past the view, and are dropped.
///
/// ```
/// use cktile_core::ops::gemm::{GemmPolicy, UniversalGemmPolicy, c_window};
/// type P = UniversalGemmPolicy<256, 128, 128, 32>;
/// let mut c = vec![0f32; 200 * 150];
/// let p = P::partition_of_thread(0).ok_or(cktile_core::Error::policy("thread 0 is in the block"))?;
/// let w = c_window::<f32, P>(P::make_c_dram_view(&mut c, 200, 150, 150)?, (128, 128), p)?;
/// assert_eq!(w.window_origin(), [128, 128]);
/// // A block past C: its stores are dropped.
/// let mut far = c_window::<f32, P>(P::make_c_dram_view(&mut c, 200, 150, 150)?, (256, 0), p)?;
/// cktile_core::ops::gemm::store_c_tile::<f32, P>(&mut far, &cktile_core::ops::gemm::CBlockTensor::<P>::filled(1.0), |x| x);
/// assert!(c.iter().all(|&x| x == 0.0));
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn c_window<'a, T: Copy, P: GemmPolicy>(
    view: TensorView<&'a mut [T], CDramChain>,
    (block_row, block_col): (Index, Index),
    p: Partition,
) -> Result<CWindow<'a, T, P>, Error> {
    let () = P::CHECK;
    make_tile_window_with_distribution(
        view,
        P::CTile::default(),
        [block_row, block_col],
        make_static_tile_distribution(),
        p,
    )
}

/// CK's `Default2DEpilogue`: the thread's accumulators converted by
/// `convert` (CK's `type_convert` to C's type: identity for a C of the
/// accumulator's type, `f32` or `i32`,
/// [`MfmaElement::from_f32`](super::MfmaElement::from_f32) for a 16-bit
/// one) and stored through its C
/// window; the stores that fall in the padding past C's rows or columns
/// are dropped.
///
/// Each access takes its row of C as one slice of the memory, then
/// stores inside it: the memory test is the row's, the same for every
/// access of that row, and the compiler makes it once a row (C's 64
/// stores a thread in the 128 x 128 GEMM lie in 8 rows), where
/// [`store_tile_with`](crate::tile::store_tile_with) tests every
/// element's offset. So a row is stored only when all of it lies inside
/// the memory, which [`make_c_dram_view`](super::make_c_dram_view)
/// guarantees: over its views the two store the same elements (the
/// tests hold them equal), and a view over a memory shorter than its last
/// row loses that row's stores here.
///
/// ```
/// use cktile_core::ops::gemm::{CBlockTensor, Fp16, GemmPolicy, MfmaElement, UniversalGemmPolicy, c_window, store_c_tile};
/// type P = UniversalGemmPolicy<256, 128, 128, 32>;
/// let mut c = vec![0u16; 100 * 100];
/// for t in 0..P::BLOCK_SIZE {
///     let p = P::partition_of_thread(t).ok_or(cktile_core::Error::policy("in the block"))?;
///     let mut w = c_window::<u16, P>(P::make_c_dram_view(&mut c, 100, 100, 100)?, (0, 0), p)?;
///     store_c_tile::<u16, P>(&mut w, &CBlockTensor::<P>::filled(1.5), Fp16::from_f32);
/// }
/// // The 100 x 100 corner of the 128 x 128 tile: every element written.
/// assert!(c.iter().all(|&x| x == Fp16::from_f32(1.5)));
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn store_c_tile<T: Copy + Default, P: GemmPolicy>(
    window: &mut CWindow<'_, T, P>,
    c: &CBlockTensor<P>,
    convert: impl FnMut(AccOf<P>) -> T,
) {
    each_access(&mut RowStores::<T, P, _> { window, from: c, convert });
}

/// [`store_c_tile`]'s accesses: each one's row of C as one slice, then
/// its elements inside it (see [`store_c_tile`] for why).
struct RowStores<'w, 'a, T, P: GemmPolicy, F> {
    window: &'w mut CWindow<'a, T, P>,
    from: &'w CBlockTensor<P>,
    convert: F,
}

impl<T: Copy, P: GemmPolicy, F: FnMut(AccOf<P>) -> T> Visit for RowStores<'_, '_, T, P, F> {
    const COUNT: usize = Plan::<P::CBlock, CDramChain>::PLAN.accesses();

    // `#[inline]` as the tile stores' (`tile::transfer`).
    #[inline]
    fn visit(&mut self, a: usize) {
        let plan = &Plan::<P::CBlock, CDramChain>::PLAN;
        let (d0, ds, n) = (plan.d_start(a), plan.d_stride(), plan.vector());
        let [row, col] = self.window.access_top(a);
        let (regs, convert) = (self.from.thread_buffer(), &mut self.convert);
        store_in_row(self.window.view_mut(), (row, col), n, |j| regs.get(d0 + j * ds).map(|&x| convert(x)));
    }
}

/// Stores `n` elements, `at(0..n)`, at (`row`, `col`) of C's view and
/// the columns after it: C's row taken as one slice of the memory, then
/// the elements stored inside it (see [`store_c_tile`] for why). A row
/// past C's rows, or one past the memory, stores nothing; past C's
/// columns, the elements there are dropped (all `n` in one vector store
/// when they all lie inside C).
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) fn store_in_row<T: Copy>(
    view: &mut TensorView<&mut [T], CDramChain>,
    (row, col): (Index, Index),
    n: usize,
    mut at: impl FnMut(usize) -> Option<T>,
) {
    // C's rows and columns (before the padding) and its row stride.
    let ((rows, cols), (stride, _)) = view.descriptor().chain().prev.dims();
    let memory: &mut [T] = view.buffer_mut();
    // Everything is computed before the one test, so what depends on the row alone is the
    // same value in every access of that row (the compiler computes it once). A negative
    // index, as a `u64`, lies past every length. `row * stride + cols` cannot wrap for a row
    // inside C: the descriptor's builder refuses an element space, `(rows - 1) * stride +
    // cols`, past `i64::MAX`.
    let (row, col) = (row as u64, col as u64);
    let start = (row as usize).wrapping_mul(stride);
    let end = start.wrapping_add(cols);
    // The padding's rule (a row or column past C's is not stored) and the row in the memory:
    // the row's part first, one value a row, then the access's.
    let line = (row < rows as u64) & (start <= end) & (end <= memory.len());
    let whole = (col < cols as u64) & (n as u64 <= (cols as u64).wrapping_sub(col));
    if !line {
        return;
    }
    let Some(line) = memory.get_mut(start..end) else { return };
    let col = col as usize;
    if whole {
        // The whole vector inside the row: one slice of it, so its stores can be one.
        if let Some(dst) = line.get_mut(col..col.wrapping_add(n)) {
            for (j, d) in dst.iter_mut().enumerate() {
                if let Some(x) = at(j) {
                    *d = x;
                }
            }
        }
    } else if n > 1 && col < cols {
        // A vector across C's last column: its elements inside C, the others dropped.
        for j in 0..n {
            if let (Some(d), Some(x)) = (line.get_mut(col.wrapping_add(j)), at(j)) {
                *d = x;
            }
        }
    }
}
