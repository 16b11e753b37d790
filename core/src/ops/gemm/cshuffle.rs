//! CK's `CShuffleEpilogue` (`ops/epilogue/cshuffle_epilogue.hpp`): the
//! accumulators reach C through LDS, so that each thread stores C in
//! vectors along its rows rather than in the warp GEMM's accumulator
//! layout (one column a lane on an MFMA).
//!
//! CK walks the block tile in shuffle tiles ([`ShuffleTile`]: a few warp
//! tiles a wave, as many as one C vector's worth of each lane's
//! accumulators, within 64 KiB of LDS), along its space-filling curve
//! (row-major, snaking). For each one, every thread:
//!
//! 1. waits at the block's barrier (the LDS may still be read: by the
//!    K loop's last block GEMM, or by the previous shuffle tile);
//! 2. writes its accumulators of that tile into the LDS tile, converted
//!    to C's type, in the block GEMM's C distribution (CK's
//!    `slice_acc_tile` and the store through `in_lds_window`);
//! 3. waits at the barrier;
//! 4. reads its rows' vectors back with CK's thread-raked 2-D pattern
//!    (`tile_distribution_encoding_pattern_2d<BlockSize, MPerIterationShuffle,
//!    NPerIterationShuffle, GetVectorSizeC(), thread_raked>`: each thread
//!    a run of consecutive rows, one vector in each) and stores them into
//!    C, the vectors past C's rows or columns dropped.
//!
//! The LDS tile is row-major, `MPerIterationShuffle x NPerIterationShuffle`
//! elements of C: CK's `MakeLdsBlockDescriptor` with its MLdsLayer
//! reduces to that when it pads nothing (every chip but gfx950), and the
//! tests hold the two equal.
//!
//! ```
//! use cktile_core::ops::gemm::{ShuffleTile, UniversalGemmPolicy};
//! // 128 x 128 over 2 x 2 warps of 32x32 MFMAs, C in f32: each lane holds 16
//! // accumulators of a warp tile, 4 per C vector, so CK shuffles two warp tiles
//! // along M at a time: 128 x 64, in two steps.
//! let t = ShuffleTile::of::<UniversalGemmPolicy<256, 128, 128, 32>>(4)?;
//! assert_eq!((t.m_tiles, t.n_tiles, t.m, t.n, t.vector), (2, 1, 128, 64, 4));
//! assert_eq!((t.accesses(), t.access_origin(1)), (2, (0, 64)));
//! # Ok::<(), cktile_core::Error>(())
//! ```

use super::epilogue::Epilogue;
use super::epilogue::sealed::SealedEpilogue;
use super::policy::GemmPolicy;
use crate::distribution::catalogue::pattern::{Pattern2d, Raking};
use crate::error::Error;
use crate::tile::SharedMemory;
use crate::typed::static_failure;
use core::marker::PhantomData;

/// The shared memory CK's `get_smem_capacity()` gives gfx942 (and every
/// gfx9 chip but gfx950): a shuffle tile larger than this falls back to
/// one warp tile a wave.
///
/// ```
/// assert_eq!(cktile_core::ops::gemm::SMEM_CAPACITY, 65536);
/// ```
pub const SMEM_CAPACITY: usize = 64 * 1024;

/// The most shuffle tiles one epilogue walks: 64, each unrolled with its
/// constants. A block tile of more is a compile error (a 256 x 256 block
/// tile of 16x16 warp tiles on one warp has 256).
///
/// ```
/// use cktile_core::ops::gemm::{MAX_SHUFFLES, ShuffleTile};
/// let t = ShuffleTile::new((256, 256), (1, 1), (16, 16), 4)?;
/// assert_eq!(t.accesses(), 256);
/// assert!(t.accesses() > MAX_SHUFFLES);
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub const MAX_SHUFFLES: usize = 64;

/// CK's shuffle tile (`CShuffleEpilogue`'s `NumMXdlPerWavePerShuffle`,
/// `NumNXdlPerWavePerShuffle`, `MPerIterationShuffle`,
/// `NPerIterationShuffle` and `GetVectorSizeC()`) for a row-major C, and
/// the space-filling curve of its accesses over the block tile.
///
/// ```
/// use cktile_core::ops::gemm::ShuffleTile;
/// // 16x16 warp tiles: 4 accumulators a lane, one f32 vector: one warp tile a wave.
/// let t = ShuffleTile::new((128, 128), (2, 2), (16, 16), 4)?;
/// assert_eq!((t.m, t.n, t.m_accesses, t.n_accesses), (32, 32, 4, 4));
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShuffleTile {
    /// Warp tiles a wave along M in one shuffle tile (`NumMXdlPerWavePerShuffle`).
    pub m_tiles: usize,
    /// Warp tiles a wave along N (`NumNXdlPerWavePerShuffle`).
    pub n_tiles: usize,
    /// The shuffle tile's rows (`MPerIterationShuffle`).
    pub m: usize,
    /// Its columns (`NPerIterationShuffle`).
    pub n: usize,
    /// C's elements a vector store (`GetVectorSizeC()`): 16 bytes of
    /// them, at most the columns the block's warps cover at once.
    pub vector: usize,
    /// Shuffle tiles along the block tile's M.
    pub m_accesses: usize,
    /// Shuffle tiles along its N.
    pub n_accesses: usize,
}

const fn min(a: usize, b: usize) -> usize {
    if a < b { a } else { b }
}

impl ShuffleTile {
    /// CK's shuffle tile for an `M x N` block tile (`block`) of `MWarp x
    /// NWarp` warps (`warps`) of `MPerXdl x NPerXdl` warp tiles
    /// (`warp_tile`) on 64-lane waves, C's elements `bytes` wide.
    ///
    /// Errors, each naming the value: a zero or overflowing size, an
    /// element over 16 bytes, a block tile the warps do not tile, and what
    /// CK's `static_assert`s refuse (a lane's accumulators of a warp tile
    /// not a whole number of vectors; MPerBlock not a multiple of the
    /// shuffles a warp tile needs, or of the shuffle tile CK picks).
    ///
    /// ```
    /// use cktile_core::ops::gemm::ShuffleTile;
    /// // mma.sync's 32 x 16 warp tile: 8 accumulators a lane, two f32 vectors.
    /// let t = ShuffleTile::new((128, 128), (2, 2), (32, 16), 4)?;
    /// assert_eq!((t.m_tiles, t.m, t.n), (2, 128, 32));
    /// // fp16 C: 8 a vector, so one warp tile of 32 x 16.
    /// assert_eq!(ShuffleTile::new((128, 128), (2, 2), (32, 16), 2)?.m, 64);
    /// // Eight waves: CK takes all of a warp's N tiles at once (BlockedXDLN_PerWarp).
    /// assert_eq!(ShuffleTile::new((256, 128), (4, 2), (32, 32), 4)?.n_tiles, 2);
    /// let e = ShuffleTile::new((128, 96), (2, 2), (32, 32), 4).unwrap_err();
    /// assert!(e.to_string().contains("NPerBlock = 96"), "{e}");
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn new(
        block: (usize, usize),
        warps: (usize, usize),
        warp_tile: (usize, usize),
        bytes: usize,
    ) -> Result<ShuffleTile, Error> {
        let ((m_block, n_block), (m_warps, n_warps), (warp_m, warp_n)) = (block, warps, warp_tile);
        if bytes == 0 || bytes > 16 {
            return Err(Error::policy_size("C's elements are 1 to 16 bytes wide", "bytes", bytes));
        }
        if m_warps == 0 || n_warps == 0 {
            return Err(Error::policy_size("a block has at least one warp along M and along N", "MWarp * NWarp", 0));
        }
        // MPerIteration and NPerIteration: the rows and columns the block's warps cover at once.
        let (Some(m_iter), Some(n_iter)) = (m_warps.checked_mul(warp_m), n_warps.checked_mul(warp_n)) else {
            return Err(Error::policy_size("the warps' tile overflows", "MWarp * MPerXdl", usize::MAX));
        };
        if m_iter == 0 || m_block == 0 || !m_block.is_multiple_of(m_iter) {
            return Err(Error::policy_size(
                "MPerBlock must be a positive multiple of MWarp * MPerXdl",
                "MPerBlock",
                m_block,
            ));
        }
        if n_iter == 0 || n_block == 0 || !n_block.is_multiple_of(n_iter) {
            return Err(Error::policy_size(
                "NPerBlock must be a positive multiple of NWarp * NPerXdl",
                "NPerBlock",
                n_block,
            ));
        }
        let vector = min(n_iter, 16 / bytes);
        let Some(per_lane) = warp_m.checked_mul(warp_n) else {
            return Err(Error::policy_size("the warp tile overflows", "MPerXdl * NPerXdl", usize::MAX));
        };
        let per_lane = per_lane / 64;
        let (m_tiles, n_shuffle) = if per_lane <= vector {
            (1, 1)
        } else {
            if !per_lane.is_multiple_of(vector) {
                return Err(Error::policy_size(
                    "a lane's accumulators of a warp tile (MPerXdl * NPerXdl / 64) must be a whole number of C vectors",
                    "MPerXdl * NPerXdl / 64",
                    per_lane,
                ));
            }
            let shuffles = per_lane / vector;
            if !m_block.is_multiple_of(shuffles) {
                return Err(Error::policy_size(
                    "MPerBlock must be a multiple of the shuffles a warp tile needs (its accumulators a lane / the C vector)",
                    "MPerBlock",
                    m_block,
                ));
            }
            let m_tiles = min(shuffles, m_block / m_iter);
            // CK's AlignShuffleTileWithSmem: one warp tile a wave when the tile would not fit.
            match (m_iter * m_tiles).checked_mul(n_iter) {
                Some(e) if e <= SMEM_CAPACITY / bytes => (m_tiles, 1),
                _ => (1, 1),
            }
        };
        // Eight waves: CK's BlockedXDLN_PerWarp, a warp's N tiles all at once.
        let blocked = if matches!(m_warps.checked_mul(n_warps), Some(8)) { n_block / n_iter } else { 1 };
        let n_tiles = if blocked > n_shuffle { blocked } else { n_shuffle };
        let (m, n) = (m_iter * m_tiles, n_iter * n_tiles);
        if !m_block.is_multiple_of(m) {
            return Err(Error::policy_size(
                "MPerBlock must be a multiple of CK's shuffle tile's rows (MWarp * MPerXdl * NumMXdlPerWavePerShuffle)",
                "MPerBlock",
                m_block,
            ));
        }
        if !n_block.is_multiple_of(n) {
            return Err(Error::policy_size(
                "NPerBlock must be a multiple of CK's shuffle tile's columns (NWarp * NPerXdl * NumNXdlPerWavePerShuffle)",
                "NPerBlock",
                n_block,
            ));
        }
        Ok(ShuffleTile { m_tiles, n_tiles, m, n, vector, m_accesses: m_block / m, n_accesses: n_block / n })
    }

    /// [`new`](Self::new) for policy `P`'s block tile, warps and warp
    /// GEMM.
    ///
    /// ```
    /// use cktile_core::ops::gemm::{BlockWarps, Mfma16x16x32, ShuffleTile, UniversalGemmPolicy};
    /// type P = UniversalGemmPolicy<128, 64, 64, 32, BlockWarps<2, 1>, Mfma16x16x32>;
    /// assert_eq!(ShuffleTile::of::<P>(4)?, ShuffleTile::new((64, 64), (2, 1), (16, 16), 4)?);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn of<P: GemmPolicy>(bytes: usize) -> Result<ShuffleTile, Error> {
        ShuffleTile::new((P::M_PER_BLOCK, P::N_PER_BLOCK), (P::M_WARPS, P::N_WARPS), (P::WARP_M, P::WARP_N), bytes)
    }

    /// The shuffle tiles of the block tile: CK's
    /// `SFC::get_num_of_access()`.
    ///
    /// ```
    /// use cktile_core::ops::gemm::ShuffleTile;
    /// assert_eq!(ShuffleTile::new((128, 128), (2, 2), (16, 16), 4)?.accesses(), 16);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    // Always inlined: the kernels' epilogue calls it with constants.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn accesses(&self) -> usize {
        self.m_accesses.saturating_mul(self.n_accesses)
    }

    /// The origin, in the block tile, of shuffle tile `i`: CK's
    /// space-filling curve over the block tile in shuffle tiles, rows
    /// first, each odd row of tiles walked backwards (CK's curves snake).
    /// `(0, 0)` for an `i` past the last.
    ///
    /// ```
    /// use cktile_core::ops::gemm::ShuffleTile;
    /// let t = ShuffleTile::new((64, 64), (1, 1), (16, 16), 4)?;
    /// let walk: Vec<_> = (0..8).map(|i| t.access_origin(i)).collect();
    /// assert_eq!(walk, [(0, 0), (0, 16), (0, 32), (0, 48), (16, 48), (16, 32), (16, 16), (16, 0)]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    // Always inlined: the kernels' epilogue calls it with constants.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn access_origin(&self, i: usize) -> (usize, usize) {
        if i >= self.accesses() {
            return (0, 0);
        }
        let (row, j) = (i / self.n_accesses, i % self.n_accesses);
        let col = if row % 2 == 1 { self.n_accesses - 1 - j } else { j };
        (row.saturating_mul(self.m), col.saturating_mul(self.n))
    }

    /// The LDS tile's elements: `m * n`, row-major (CK's
    /// `GetSmemSize()` over the element's size).
    ///
    /// ```
    /// use cktile_core::ops::gemm::ShuffleTile;
    /// assert_eq!(ShuffleTile::new((128, 128), (2, 2), (32, 32), 4)?.lds_elements(), 128 * 64);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn lds_elements(&self) -> usize {
        self.m.saturating_mul(self.n)
    }

    /// CK's thread-raked pattern that reads the LDS tile back for the C
    /// stores, for a block of `block_size` threads (64-lane waves).
    ///
    /// ```
    /// use cktile_core::ops::gemm::ShuffleTile;
    /// let t = ShuffleTile::new((128, 128), (2, 2), (32, 32), 4)?;
    /// let f = t.store_pattern(256).factors()?;
    /// // 16 lanes of 4 columns, 4 rows a warp, each thread 8 consecutive rows.
    /// assert_eq!((f.x0, f.x1, f.y1, f.y2), (16, 4, 4, 8));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn store_pattern(&self, block_size: usize) -> Pattern2d {
        Pattern2d::new(block_size, self.m, self.n, self.vector, Raking::Thread)
    }
}

/// CK's `CShuffleEpilogue` over the LDS tile `lds`: the accumulators pass
/// through it, one shuffle tile at a time, and each thread stores C in
/// vectors along its rows ([module](self)). The LDS tile
/// must hold [`lds_elements`](Self::lds_elements) elements of C; on a GPU
/// it may be the GEMM's own LDS, as in CK (the epilogue waits at the
/// block's barrier before it writes), taken from the same launch-sized
/// memory with C's element type.
///
/// ```
/// use cktile_core::ops::gemm::{CShuffle, UniversalGemmPolicy};
/// use cktile_core::tile::SharedMemory;
/// type P = UniversalGemmPolicy<256, 128, 128, 32>;
/// let mut lds = vec![0f32; CShuffle::<f32>::lds_elements::<P>()];
/// assert_eq!(lds.len(), 128 * 64);
/// let _epilogue = CShuffle::new(SharedMemory::from_mut(&mut lds));
/// ```
pub struct CShuffle<'a, T> {
    lds: SharedMemory<'a, T>,
}

impl<'a, T> CShuffle<'a, T> {
    /// The epilogue over the LDS tile `lds`.
    ///
    /// ```
    /// use cktile_core::ops::gemm::CShuffle;
    /// use cktile_core::tile::SharedMemory;
    /// let mut lds = [0i32; 64];
    /// let _ = CShuffle::new(SharedMemory::from_mut(&mut lds));
    /// ```
    pub const fn new(lds: SharedMemory<'a, T>) -> CShuffle<'a, T> {
        CShuffle { lds }
    }

    /// The elements of C its LDS tile must hold under policy `P` (CK's
    /// `GetSmemSize()` in elements: the shuffle tile's,
    /// [`ShuffleTile::lds_elements`]).
    /// A policy CK's `CShuffleEpilogue` refuses is a compile error.
    ///
    /// ```
    /// use cktile_core::ops::gemm::{BlockWarps, CShuffle, Mfma16x16x16, UniversalGemmPolicy};
    /// type P = UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, Mfma16x16x16>;
    /// assert_eq!(CShuffle::<f32>::lds_elements::<P>(), 32 * 32);
    /// ```
    pub const fn lds_elements<P: GemmPolicy>() -> usize {
        Shuffle::<P, T>::TILE.lds_elements()
    }
}

impl<T> Clone for CShuffle<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for CShuffle<'_, T> {}

impl<T> core::fmt::Debug for CShuffle<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("CShuffle").field("lds_elements", &self.lds.len()).finish()
    }
}

impl<T> SealedEpilogue<T> for CShuffle<'_, T> {
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn shuffle_lds(&self) -> Option<SharedMemory<'_, T>> {
        Some(self.lds)
    }
}

impl<T> Epilogue<T> for CShuffle<'_, T> {
    const NAME: &'static str = "CShuffle";
}

/// Policy `P`'s shuffle tile and store pattern for C elements of type
/// `T`, each a compile error naming what is wrong when CK would refuse it.
pub(crate) struct Shuffle<P, T>(PhantomData<(P, T)>);

impl<P: GemmPolicy, T> Shuffle<P, T> {
    pub(crate) const TILE: ShuffleTile = match ShuffleTile::of::<P>(size_of::<T>()) {
        Ok(t) if t.accesses() <= MAX_SHUFFLES => t,
        Ok(_) => static_failure(&Error::policy(
            "the CShuffle epilogue walks at most 64 shuffle tiles: take a smaller block tile or more warps",
        )),
        Err(e) => static_failure(&e),
    };
}

#[cfg(any(feature = "alloc", target_arch = "amdgpu", target_arch = "nvptx64"))]
pub(crate) use steps::{ShuffleSteps, check_lds, run_shuffle, shuffle_copy, shuffle_write};

/// The epilogue's steps, for the GPU's kernel body and the host's
/// emulation (which need an allocator or a GPU).
#[cfg(any(feature = "alloc", target_arch = "amdgpu", target_arch = "nvptx64"))]
mod steps {
    use super::{MAX_SHUFFLES, Shuffle};
    use crate::Index;
    use crate::distribution::catalogue::pattern::Factors;
    use crate::error::Error;
    use crate::ops::gemm::block::{AccOf, CBlockTensor};
    use crate::ops::gemm::dram::CDramChain;
    use crate::ops::gemm::epilogue::{CWindow, store_in_row};
    use crate::ops::gemm::policy::GemmPolicy;
    use crate::tile::memory::{TileMemory, TileMemoryMut};
    use crate::tile::transfer::{Visit, by_width, each_access};
    use crate::tile::window::Plan;
    use crate::tile::{Partition, SharedMemory};
    use crate::typed::static_failure;
    use cktile_transforms::static_for;

    impl<P: GemmPolicy, T> Shuffle<P, T> {
        /// The thread-raked factors: X0 lanes of X1 elements along the
        /// shuffle tile's columns, Y1 rows a warp, Y2 rows a thread.
        pub(crate) const STORE: Factors = match Self::TILE.store_pattern(P::BLOCK_SIZE).factors() {
            Ok(f) if f.x2 == 1 => f,
            Ok(_) => static_failure(&Error::policy(
                "the CShuffle epilogue's C stores take one vector a row (NPerIterationShuffle / the C vector at most 64)",
            )),
            Err(e) => static_failure(&e),
        };

        /// The C distribution's plan over C's view: its first two Ys are the
        /// block GEMM's M and N iterations (a warp tile each), never the
        /// vector's.
        const CHECK: () = {
            let plan = &Plan::<P::CBlock, CDramChain>::PLAN;
            if let Some(0 | 1) = plan.vector_dim_y() {
                static_failure(&Error::policy("the C distribution's first two Ys are warp tiles, never a vector"));
            }
        };
    }

    /// Refuses a CShuffle LDS tile of `len` elements of `T` too short for
    /// policy `P`'s shuffle tile (before the K loop, in every thread alike).
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) fn check_lds<P: GemmPolicy, T>(len: usize) -> Result<(), Error> {
        if len < Shuffle::<P, T>::TILE.lds_elements() {
            return Err(Error::policy_minimum(
                "the CShuffle epilogue's LDS tile must hold MPerIterationShuffle x NPerIterationShuffle elements of C",
                "lds.len()",
                len,
                Shuffle::<P, T>::TILE.lds_elements(),
            ));
        }
        Ok(())
    }

    /// The steps of the CShuffle epilogue, for the GPU's thread or the host's
    /// block: the barrier, the LDS writes of a shuffle tile and its copy to C.
    pub(crate) trait ShuffleSteps {
        fn sync(&mut self);
        fn write(&mut self, access: usize);
        fn copy(&mut self, access: usize);
    }

    /// CK's loop over the shuffle tiles (`static_for<0, num_access, 1>`):
    /// barrier, write, barrier, copy, each access unrolled with its constant.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) fn run_shuffle<P: GemmPolicy, T, S: ShuffleSteps>(s: &mut S) {
        let () = Shuffle::<P, T>::CHECK;
        static_for!(Shuffle::<P, T>::TILE.accesses(), |i| {
            s.sync();
            s.write(i);
            s.sync();
            s.copy(i);
        };
            0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
            32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63
        );
        const { assert!(MAX_SHUFFLES == 64) };
    }

    /// One thread's accumulators of shuffle tile `access` written into the
    /// LDS tile (`lds`, row-major), converted by `convert`: each accumulator
    /// of the C distribution whose warp tile lies in the shuffle tile, at
    /// its place there. `window` is the thread's C window, which places the
    /// accumulators.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) fn shuffle_write<T: Copy + Default, P: GemmPolicy>(
        window: &CWindow<'_, T, P>,
        lds: SharedMemory<'_, T>,
        acc: &CBlockTensor<P>,
        access: usize,
        convert: impl FnMut(AccOf<P>) -> T,
    ) {
        each_access(&mut SliceWrites::<T, P, _> { window, lds, acc, access, convert });
    }

    /// [`shuffle_write`]'s accesses: the C distribution's, over C's view
    /// (one element each: C's view guarantees no vector).
    struct SliceWrites<'w, 'a, T, P: GemmPolicy, F> {
        window: &'w CWindow<'a, T, P>,
        lds: SharedMemory<'w, T>,
        acc: &'w CBlockTensor<P>,
        access: usize,
        convert: F,
    }

    impl<T: Copy + Default, P: GemmPolicy, F: FnMut(AccOf<P>) -> T> Visit for SliceWrites<'_, '_, T, P, F> {
        const COUNT: usize = Plan::<P::CBlock, CDramChain>::PLAN.accesses();

        #[inline]
        fn visit(&mut self, a: usize) {
            let tile = &Shuffle::<P, T>::TILE;
            let plan = &Plan::<P::CBlock, CDramChain>::PLAN;
            let (origin_m, origin_n) = tile.access_origin(self.access);
            // The access's warp tile (CK's slice_acc_tile: M and N iterations in the shuffle tile's).
            let ys = plan.ys_start(a);
            let (m_iter, n_iter) = (ys[0] as usize, ys[1] as usize);
            if m_iter / tile.m_tiles != origin_m / tile.m || n_iter / tile.n_tiles != origin_n / tile.n {
                return;
            }
            let ([row, col], [row0, col0]) = (self.window.access_top(a), self.window.window_origin());
            // The place in the shuffle tile: inside it, as the warp tile is. (Taken modulo the tile,
            // which changes nothing for a thread of the block, so the compiler sees every write
            // inside the LDS tile and drops its test.)
            let r = row.wrapping_sub(row0).wrapping_sub(origin_m as Index) as usize % tile.m;
            let c = col.wrapping_sub(col0).wrapping_sub(origin_n as Index) as usize % tile.n;
            let offset = (r * tile.n + c) as Index;
            let (d0, ds) = (plan.d_start(a), plan.d_stride());
            let regs = self.acc.thread_buffer();
            for j in 0..plan.vector() {
                if let Some(&x) = regs.get(d0 + j * ds) {
                    let x = (self.convert)(x);
                    self.lds.store_with::<1>(offset.wrapping_add(j as Index), |_| x);
                }
            }
        }
    }

    /// One thread's rows of shuffle tile `access` read from the LDS tile
    /// with CK's thread-raked pattern and stored into C through the thread's
    /// C window's view (the window places the block tile in C), thread `p`
    /// of the block.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) fn shuffle_copy<T: Copy + Default, P: GemmPolicy>(
        window: &mut CWindow<'_, T, P>,
        lds: SharedMemory<'_, T>,
        p: Partition,
        access: usize,
    ) {
        let tile = &Shuffle::<P, T>::TILE;
        let Factors { x0, x1, y1, y2, .. } = Shuffle::<P, T>::STORE;
        let (origin_m, origin_n) = tile.access_origin(access);
        let [row0, col0] = window.window_origin();
        // CK's thread-raked encoding: the warp and the lane's row (lane / X0) pick Y2 consecutive
        // rows, the lane's column (lane % X0) an X1-element vector in each.
        // (A partition of the block has warp < Y0 and lane < 64: taken modulo them, which changes
        // nothing, the compiler sees every row inside the tile and every read inside the LDS tile.)
        let (warp, lane) = (p.warp as usize % Shuffle::<P, T>::STORE.y0, p.lane as usize % 64);
        let first = (warp * y1 + lane / x0) * y2;
        let col = (lane % x0) * x1;
        // Each read's offset, written as a multiple of the vector.
        let vectors = tile.n / x1;
        for i in 0..y2 {
            let r = first + i;
            let mut v = [T::default(); 16];
            let at = ((r * vectors + lane % x0) * x1) as Index;
            let _ = by_width!(
                x1,
                |N| lds.load_with::<N>(at, |j, x| {
                    if let Some(d) = v.get_mut(j) {
                        *d = x;
                    }
                }),
                false
            );
            let top = (row0.wrapping_add((origin_m + r) as Index), col0.wrapping_add((origin_n + col) as Index));
            store_in_row(window.view_mut(), top, x1, |j| v.get(j).copied());
        }
    }
}
