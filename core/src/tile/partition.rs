//! The thread's place in a tile distribution's P dimensions: CK Tile's
//! `get_partition_index`, read from the hardware ids or given by hand, which
//! a distributed tile window takes.

use crate::Index;

/// The thread's place in a distribution's P dimensions, as CK's
/// `get_partition_index` reads it from the hardware: the warp (P0 of a
/// two-P distribution) and the lane (the last P).
///
/// ```
/// use cktile_core::tile::Partition;
/// // Thread 200 of a block on a 64-lane chip: warp 3, lane 8.
/// assert_eq!(Partition::from_thread::<64>(200), Partition { warp: 3, lane: 8 });
/// assert_eq!(Partition::lane(5).warp, 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Partition {
    /// The warp (wave) in the block.
    pub warp: Index,
    /// The lane in the warp.
    pub lane: Index,
}

impl Partition {
    /// The partition of thread `thread` of a block with `WAVE`-lane warps
    /// (64 on AMD's CDNA chips, 32 on NVIDIA's and on RDNA in wave32).
    ///
    /// ```
    /// use cktile_core::tile::Partition;
    /// assert_eq!(Partition::from_thread::<32>(33), Partition { warp: 1, lane: 1 });
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn from_thread<const WAVE: usize>(thread: usize) -> Partition {
        const { assert!(WAVE > 0, "cktile: a warp has at least one lane") };
        Partition { warp: (thread / WAVE) as Index, lane: (thread % WAVE) as Index }
    }

    /// [`from_thread`](Self::from_thread) for a lane count `wave` known
    /// only after monomorphization (a policy's associated constant, which
    /// generic code cannot pass as a const argument); `None` when `wave`
    /// is 0.
    ///
    /// ```
    /// use cktile_core::tile::Partition;
    /// assert_eq!(Partition::of_thread(200, 64), Some(Partition::from_thread::<64>(200)));
    /// assert_eq!(Partition::of_thread(200, 0), None);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn of_thread(thread: usize, wave: usize) -> Option<Partition> {
        if wave == 0 {
            return None;
        }
        Some(Partition { warp: (thread / wave) as Index, lane: (thread % wave) as Index })
    }

    /// Lane `lane` of warp 0 (for one-P distributions, which read only the lane).
    ///
    /// ```
    /// assert_eq!(cktile_core::tile::Partition::lane(7).lane, 7);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn lane(lane: Index) -> Partition {
        Partition { warp: 0, lane }
    }

    /// This partition when it is one of the first `block_size` threads of
    /// a block of `wave`-lane warps (`warp * wave + lane < block_size`, the
    /// lane inside its warp); `None` otherwise.
    ///
    /// A kernel written for a fixed block (CK's are: a policy's
    /// `BLOCK_SIZE`) starts with it, as a CUDA kernel tests
    /// `threadIdx.x < BlockSize`: with the bound, the compiler can prove
    /// the windows' LDS accesses inside their blocks and drops their
    /// bounds checks (on sm_90, the GEMM A reads for the 32x32x8 MFMA
    /// kept 16-bit loads without it). On a GPU,
    /// `tile::gpu::get_partition_in_block` reads the partition and tests it.
    ///
    /// ```
    /// use cktile_core::tile::Partition;
    /// let p = Partition::from_thread::<64>(200);
    /// assert_eq!(p.in_block(256, 64), Some(p));
    /// assert_eq!(p.in_block(200, 64), None); // threads 0..200 only
    /// assert_eq!(Partition { warp: 0, lane: 70 }.in_block(256, 64), None);
    /// assert_eq!(Partition::from_thread::<64>(99).in_block(100, 64), Some(Partition { warp: 1, lane: 35 }));
    /// assert_eq!(p.in_block(256, 0), None);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn in_block(self, block_size: usize, wave: usize) -> Option<Partition> {
        let Some(full) = block_size.checked_div(wave) else {
            return None;
        };
        let (full, rest) = (full as Index, (block_size % wave) as Index);
        let lane_ok = self.lane >= 0 && self.lane < wave as Index;
        // Written on the warp, wave-uniform (a scalar compare on amdgcn);
        // the partial last warp's test folds away when the wave divides the block.
        let inside = self.warp >= 0 && (self.warp < full || (self.warp == full && self.lane < rest));
        if lane_ok && inside { Some(self) } else { None }
    }
}
