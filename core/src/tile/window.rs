//! Tile windows: CK Tile's `tile_window_with_static_lengths` (a window of
//! fixed lengths at an origin of a tensor view) and
//! `tile_window_with_static_distribution` (the same, with a distribution
//! saying which elements this thread moves), and the functions that move
//! data through them: [`load_tile`], [`store_tile`], [`move_tile_window`].
//!
//! A distributed window keeps what CK's keeps in registers: the window's
//! origin and the thread's origin in the view's top coordinates (the
//! origin plus the X of the thread's P at Y = 0). Each access of a load or
//! store is one vector of the [access plan](super::plan): its top index is
//! the thread's origin plus a compile-time offset, its memory offset the
//! view's descriptor evaluated there, and its elements land at
//! compile-time places of the thread buffer. Loads and stores run over the
//! accesses by explicit unrolling (not by LLVM's loop unroller), so every
//! register index is a constant on every target.
//!
//! Validity is CK's: an access reads its vector when the view's descriptor
//! maps its top index to a real element
//! ([`coordinate_has_valid_offset_assuming_top_index_is_valid`](crate::typed::coordinate_has_valid_offset_assuming_top_index_is_valid): padding
//! reads as zeros and is not written) and the vector lies inside the memory
//! (see [`memory`](super::memory)); the top index itself is assumed inside
//! the view, as in CK (pad the view, as CK's GEMMs do, for tiles that
//! overhang).
//!
//! Over a view whose chain is a compile-time constant (an LDS block), a
//! load also gives the compiler what it cannot derive from the offset's
//! arithmetic: an access inside the view's lengths lies inside a memory
//! that holds every offset the chain reaches
//! ([`descriptor::bounds::offset_reach`](crate::descriptor::bounds::offset_reach)). Its
//! bounds check then folds (on sm_90, the 64 x 64 GEMM tile's reads of
//! XOR-swizzled offsets of a thread id below 128); what it reads is
//! unchanged.
//!
//! ```
//! use cktile_core::prelude::*;
//! use cktile_core::tile::{Partition, load_tile, make_tile_window_with_distribution};
//! // The examples' distribution: 4 lanes over a 4 x 8 tile, a row of 8 elements each.
//! use cktile_core::tile::example::RowPerLane;
//! let data: Vec<u16> = (0..6 * 10).collect();
//! // A 6 x 10 matrix with 8-element vectors guaranteed along its rows... of stride 10: the guarantee is 2.
//! let d = make_naive_tensor_descriptor_with_vector(
//!     (6usize, 10usize), (10usize, Number::<1>), Number::<2>, Number::<1>,
//! )?;
//! let view = make_tensor_view(&data[..], d);
//! let rows = make_static_tile_distribution::<RowPerLane>();
//! let w = make_tile_window_with_distribution(view, (Number::<4>, Number::<8>), [1, 2], rows, Partition::lane(2))?;
//! // Lane 2 holds row 1 + 2 = 3 from column 2: elements 32..40.
//! assert_eq!(load_tile(&w).thread_buffer(), &[32, 33, 34, 35, 36, 37, 38, 39]);
//! assert_eq!(w.plan().vector(), 2); // four loads of two elements
//! # Ok::<(), cktile_core::Error>(())
//! ```

use super::memory::{TileMemory, TileMemoryMut};
use super::plan::{AccessPlan, MAX_ACCESSES};
use super::tensor::{StaticDistributedTensor, Ys};
use crate::Index;
use crate::distribution::typed::{TileDistribution, TileEncoding};
use crate::error::{Error, ParameterProblem};
use crate::typed::{AdaptorChain, Chain, CoordinateOf, TensorDescriptor, TensorView, static_failure};
use cktile_transforms::static_for;
use cktile_transforms::{Count, MAX_DIMS, Values};
use core::marker::PhantomData;
use typenum::Unsigned;

/// The top index type of a chain: `[Index; N]`.
pub type TopIndex<C> = <<C as Chain>::NumTop as Count>::Coordinate;

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
    #[inline(always)]
    pub const fn from_thread<const WAVE: usize>(thread: usize) -> Partition {
        const { assert!(WAVE > 0, "cktile: a warp has at least one lane") };
        Partition { warp: (thread / WAVE) as Index, lane: (thread % WAVE) as Index }
    }

    /// Lane `lane` of warp 0 (for one-P distributions, which read only the lane).
    ///
    /// ```
    /// assert_eq!(cktile_core::tile::Partition::lane(7).lane, 7);
    /// ```
    #[inline(always)]
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
    #[inline(always)]
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

/// The access plan of encoding `E` over chain `C`, as a constant (a
/// compile error naming the problem when there is none).
struct Plan<E, C>(PhantomData<(E, C)>);

impl<E: TileEncoding, C: Chain> Plan<E, C> {
    const PLAN: AccessPlan = match AccessPlan::new(&E::ENCODING, &C::TOP_VECTORS, C::NumTop::USIZE) {
        Ok(p) => p,
        Err(e) => static_failure(&e),
    };
    /// Evaluates the plan and the registers' check (a hand-written
    /// encoding's registers must hold one element per Y index), so a window
    /// that cannot be made is a compile error where it is made.
    const CHECK: () = {
        let _ = Self::PLAN;
        Ys::<E>::CHECK
    };
}

/// One access of a load or store; [`each_access`] calls `visit(a)` for
/// `a` in `0..COUNT`, each call with a constant argument.
trait Visit {
    /// The number of accesses (the plan's, a constant).
    const COUNT: usize;
    fn visit(&mut self, a: usize);
}

/// The accesses, unrolled by hand: `V::COUNT` is a constant of the
/// monomorphised code, so the compiler's first passes drop every guard
/// past it and LLVM sees exactly the accesses the plan makes, each with
/// its constants.
#[inline(always)]
fn each_access<V: Visit>(v: &mut V) {
    static_for!(V::COUNT, |a| v.visit(a);
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
        32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63
        64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95
        96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123
        124 125 126 127
    );
    const { assert!(MAX_ACCESSES == 128) };
}

/// `$body` with `$n` a constant generic argument for each vector width
/// 1..=16 that `$w` can be, and element by element for a wider vector.
macro_rules! by_width {
    ($w:expr, |$n:ident| $body:expr, $fallback:expr) => {
        match $w {
            1 => {
                const $n: usize = 1;
                $body
            }
            2 => {
                const $n: usize = 2;
                $body
            }
            3 => {
                const $n: usize = 3;
                $body
            }
            4 => {
                const $n: usize = 4;
                $body
            }
            5 => {
                const $n: usize = 5;
                $body
            }
            6 => {
                const $n: usize = 6;
                $body
            }
            7 => {
                const $n: usize = 7;
                $body
            }
            8 => {
                const $n: usize = 8;
                $body
            }
            9 => {
                const $n: usize = 9;
                $body
            }
            10 => {
                const $n: usize = 10;
                $body
            }
            11 => {
                const $n: usize = 11;
                $body
            }
            12 => {
                const $n: usize = 12;
                $body
            }
            13 => {
                const $n: usize = 13;
                $body
            }
            14 => {
                const $n: usize = 14;
                $body
            }
            15 => {
                const $n: usize = 15;
                $body
            }
            16 => {
                const $n: usize = 16;
                $body
            }
            _ => $fallback,
        }
    };
}

/// CK Tile's `tile_window_with_static_lengths`: a window of `lengths` at
/// `origin` of a tensor view, with no distribution (what a block keeps
/// to make distributed windows from, and to move).
///
/// ```
/// use cktile_core::prelude::*;
/// use cktile_core::tile::{make_tile_window, move_tile_window};
/// let view = make_naive_tensor_view_packed([0u8; 64], (Number::<8>, Number::<8>))?;
/// let mut w = make_tile_window(view, (Number::<4>, Number::<4>), [0, 4])?;
/// move_tile_window(&mut w, [4, 0]);
/// assert_eq!((w.window_origin(), w.window_lengths()), ([4, 4], [4, 4]));
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct TileWindowWithStaticLengths<B, C: Chain, W> {
    view: TensorView<B, C>,
    lengths: W,
    origin: TopIndex<C>,
}

// The loops over a coordinate's dimensions are unrolled by hand
// (`static_for!`): LLVM's AMDGPU backend leaves such short loops rolled, and
// a rolled loop over a coordinate puts it in scratch memory.

/// The chain's top index holding `from`'s first entries.
#[inline(always)]
fn top_of<C: Chain>(from: &[Index]) -> TopIndex<C> {
    let mut top = TopIndex::<C>::default();
    let to = top.as_mut();
    static_for!(to.len().min(from.len()), |j| to[j] = from[j]);
    top
}

/// Adds `step` to `top`, wrapping as the typed coordinates do.
#[inline(always)]
fn add_step(top: &mut [Index], step: &[Index]) {
    static_for!(top.len().min(step.len()), |j| top[j] = top[j].wrapping_add(step[j]));
}

const fn window_error(parameter: &'static str, value: i64, requirement: &'static str) -> Error {
    Error::parameter(ParameterProblem::Invalid { context: "tile window", parameter, value, requirement })
}

/// CK Tile's `make_tile_window(view, lengths, origin)`: a window of
/// `lengths` (one per top dimension of the view, each at least 1) at
/// `origin`. The origin may lie anywhere (a window over padding, or being
/// moved into place); only its accesses are checked.
///
/// ```
/// use cktile_core::prelude::*;
/// use cktile_core::tile::make_tile_window;
/// let view = make_naive_tensor_view_packed([0u8; 64], (Number::<8>, Number::<8>))?;
/// let e = make_tile_window(view, (4usize, 0usize), [0, 0]).unwrap_err();
/// assert!(e.to_string().contains("window length"));
/// # Ok::<(), cktile_core::Error>(())
/// ```
///
/// A window of another number of dimensions than its view does not compile:
///
/// ```compile_fail
/// use cktile_core::prelude::*;
/// let view = make_naive_tensor_view_packed([0u8; 64], (Number::<8>, Number::<8>)).unwrap();
/// let _ = cktile_core::tile::make_tile_window(view, (Number::<4>,), [0, 0]);
/// ```
#[inline(always)]
pub fn make_tile_window<B, C: Chain, W: Values<Len = C::NumTop>>(
    view: TensorView<B, C>,
    lengths: W,
    origin: impl CoordinateOf<TopIndex<C>>,
) -> Result<TileWindowWithStaticLengths<B, C, W>, Error> {
    let dims = lengths.dims().map_err(crate::descriptor::base_error)?;
    for &l in dims.as_slice() {
        if l < 1 {
            return Err(window_error("window length", l, "every window length is at least 1"));
        }
    }
    Ok(TileWindowWithStaticLengths { view, lengths, origin: top_of::<C>(origin.as_slice()) })
}

impl<B, C: Chain, W: Values<Len = C::NumTop>> TileWindowWithStaticLengths<B, C, W> {
    /// The window's origin in the view's top coordinates (CK's `get_window_origin`).
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let view = make_naive_tensor_view_packed([0u8; 16], (Number::<4>, Number::<4>))?;
    /// assert_eq!(cktile_core::tile::make_tile_window(view, (Number::<2>, Number::<2>), [2, 0])?.window_origin(), [2, 0]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[inline(always)]
    pub fn window_origin(&self) -> TopIndex<C> {
        self.origin
    }

    /// The window's lengths (CK's `get_window_lengths`).
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let view = make_naive_tensor_view_packed([0u8; 16], (Number::<4>, Number::<4>))?;
    /// assert_eq!(cktile_core::tile::make_tile_window(view, (Number::<2>, 3usize), [0, 0])?.window_lengths(), [2, 3]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[inline(always)]
    pub fn window_lengths(&self) -> TopIndex<C> {
        top_of::<C>(&self.lengths.indices())
    }

    /// The view the window looks into (CK's `get_bottom_tensor_view`).
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let view = make_naive_tensor_view_packed([1u8; 16], (Number::<4>, Number::<4>))?;
    /// let w = cktile_core::tile::make_tile_window(view, (Number::<2>, Number::<2>), [0, 0])?;
    /// assert_eq!(w.view().buffer(), &[1; 16]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[inline(always)]
    pub fn view(&self) -> &TensorView<B, C> {
        &self.view
    }

    /// CK Tile's `make_tile_window(window, distribution)`: this window with
    /// a distribution, for thread `partition`
    /// ([`make_tile_window_with_distribution`]'s checks).
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// use cktile_core::tile::{Partition, load_tile, make_tile_window};
    /// use cktile_core::tile::example::RowPerLane;
    /// let data: Vec<u8> = (0..128).collect();
    /// let view = make_naive_tensor_view_packed(&data[..], (Number::<8>, Number::<16>))?;
    /// let w = make_tile_window(view, (Number::<4>, Number::<8>), [4, 8])?;
    /// let d = w.with_distribution(make_static_tile_distribution::<RowPerLane>(), Partition::lane(1))?;
    /// // Lane 1: row 4 + 1 of the rows of 16, from column 8.
    /// assert_eq!(load_tile(&d).thread_buffer(), &[88, 89, 90, 91, 92, 93, 94, 95]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[inline(always)]
    pub fn with_distribution<E: TileEncoding>(
        self,
        distribution: TileDistribution<E>,
        partition: Partition,
    ) -> Result<TileWindowWithStaticDistribution<B, C, E>, Error> {
        distributed(self.view, &self.lengths.indices(), self.origin, distribution, partition)
    }
}

/// CK Tile's `tile_window_with_static_distribution`: a window whose
/// distribution says which elements this thread loads and stores. See the
/// [module documentation](self).
///
/// ```
/// use cktile_core::prelude::*;
/// use cktile_core::tile::{Partition, make_tile_window_with_distribution};
/// use cktile_core::tile::example::RowPerLane;
/// let view = make_naive_tensor_view_packed([0u16; 64], (Number::<8>, Number::<8>))?;
/// let rows = make_static_tile_distribution::<RowPerLane>();
/// let w = make_tile_window_with_distribution(view, (Number::<4>, Number::<8>), [4, 0], rows, Partition::lane(3))?;
/// assert_eq!((w.window_origin(), w.thread_origin()), ([4, 0], [7, 0]));
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub struct TileWindowWithStaticDistribution<B, C: Chain, E: TileEncoding> {
    view: TensorView<B, C>,
    origin: TopIndex<C>,
    thread_origin: TopIndex<C>,
    encoding: PhantomData<E>,
}

impl<B: Clone, C: Chain, E: TileEncoding> Clone for TileWindowWithStaticDistribution<B, C, E> {
    #[inline(always)]
    fn clone(&self) -> Self {
        TileWindowWithStaticDistribution {
            view: self.view.clone(),
            origin: self.origin,
            thread_origin: self.thread_origin,
            encoding: PhantomData,
        }
    }
}

impl<B: Copy, C: Chain, E: TileEncoding> Copy for TileWindowWithStaticDistribution<B, C, E> {}

impl<B: core::fmt::Debug, C: Chain, E: TileEncoding> core::fmt::Debug for TileWindowWithStaticDistribution<B, C, E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("TileWindowWithStaticDistribution")
            .field("view", &self.view)
            .field("origin", &self.origin)
            .field("thread_origin", &self.thread_origin)
            .field("encoding", &E::ENCODING)
            .finish()
    }
}

#[inline(always)]
fn distributed<B, C: Chain, E: TileEncoding>(
    view: TensorView<B, C>,
    lengths: &cktile_transforms::Indices,
    origin: TopIndex<C>,
    distribution: TileDistribution<E>,
    partition: Partition,
) -> Result<TileWindowWithStaticDistribution<B, C, E>, Error> {
    // Referenced here, so a distribution that cannot make a window is a compile error at the caller.
    let () = Plan::<E, C>::CHECK;
    let x_lengths = distribution.ps_ys_to_xs().bottom_lengths();
    let want = x_lengths.as_ref();
    let mut mismatch = None;
    static_for!(want.len().min(lengths.len()), |j| if want[j] != lengths[j] && mismatch.is_none() {
        mismatch = Some(lengths[j]);
    });
    if let Some(got) = mismatch {
        return Err(window_error(
            "window length",
            got,
            "a distributed window's lengths are its distribution's X lengths",
        ));
    }
    // The thread's X at Y = 0: CK's window_adaptor_thread_coord at (P..., 0...).
    let mut ps_ys = [0; MAX_DIMS];
    if E::ENCODING.ndim_p() == 2 {
        ps_ys[0] = partition.warp;
        ps_ys[1] = partition.lane;
    } else {
        ps_ys[0] = partition.lane;
    }
    let x = distribution.ps_ys_to_xs().chain().bottom_index(&ps_ys);
    let mut thread_origin = origin;
    add_step(thread_origin.as_mut(), &x);
    Ok(TileWindowWithStaticDistribution { view, origin, thread_origin, encoding: PhantomData })
}

/// CK Tile's `make_tile_window(view, lengths, origin, distribution)`: a
/// window of `lengths` at `origin` whose distribution assigns elements to
/// the thread `partition`. The lengths must be the distribution's X
/// lengths; the distribution must have one X dimension per top dimension
/// of the view and one or two Ps (a compile error otherwise, as the
/// plan's other limits).
///
/// ```
/// use cktile_core::prelude::*;
/// use cktile_core::tile::{Partition, make_tile_window_with_distribution};
/// use cktile_core::tile::example::RowPerLane;
/// let view = make_naive_tensor_view_packed([0u16; 64], (Number::<8>, Number::<8>))?;
/// let rows = make_static_tile_distribution::<RowPerLane>();
/// let e = make_tile_window_with_distribution(view, (4usize, 4usize), [0, 0], rows, Partition::lane(0)).unwrap_err();
/// assert!(e.to_string().contains("X lengths"));
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[inline(always)]
pub fn make_tile_window_with_distribution<B, C: Chain, W: Values<Len = C::NumTop>, E: TileEncoding>(
    view: TensorView<B, C>,
    lengths: W,
    origin: impl CoordinateOf<TopIndex<C>>,
    distribution: TileDistribution<E>,
    partition: Partition,
) -> Result<TileWindowWithStaticDistribution<B, C, E>, Error> {
    make_tile_window(view, lengths, origin)?.with_distribution(distribution, partition)
}

impl<B, C: Chain, E: TileEncoding> TileWindowWithStaticDistribution<B, C, E> {
    /// The window's origin (CK's `get_window_origin`).
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// use cktile_core::tile::{Partition, make_tile_window_with_distribution};
    /// use cktile_core::tile::example::RowPerLane;
    /// let view = make_naive_tensor_view_packed([0u16; 64], (Number::<8>, Number::<8>))?;
    /// let rows = make_static_tile_distribution::<RowPerLane>();
    /// let w = make_tile_window_with_distribution(view, (Number::<4>, Number::<8>), [2, 0], rows, Partition::lane(0))?;
    /// assert_eq!(w.window_origin(), [2, 0]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[inline(always)]
    pub fn window_origin(&self) -> TopIndex<C> {
        self.origin
    }

    /// The thread's origin: the window's origin plus the X of the thread's
    /// partition at Y = 0.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// use cktile_core::tile::{Partition, make_tile_window_with_distribution};
    /// use cktile_core::tile::example::RowPerLane;
    /// let view = make_naive_tensor_view_packed([0u16; 64], (Number::<8>, Number::<8>))?;
    /// let rows = make_static_tile_distribution::<RowPerLane>();
    /// let w = make_tile_window_with_distribution(view, (Number::<4>, Number::<8>), [2, 0], rows, Partition::lane(1))?;
    /// assert_eq!(w.thread_origin(), [3, 0]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[inline(always)]
    pub fn thread_origin(&self) -> TopIndex<C> {
        self.thread_origin
    }

    /// The view (CK's `get_bottom_tensor_view`).
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// use cktile_core::tile::{Partition, make_tile_window_with_distribution};
    /// use cktile_core::tile::example::RowPerLane;
    /// let view = make_naive_tensor_view_packed([5u16; 64], (Number::<8>, Number::<8>))?;
    /// let rows = make_static_tile_distribution::<RowPerLane>();
    /// let w = make_tile_window_with_distribution(view, (Number::<4>, Number::<8>), [0, 0], rows, Partition::lane(1))?;
    /// assert_eq!(w.view().buffer()[0], 5);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[inline(always)]
    pub fn view(&self) -> &TensorView<B, C> {
        &self.view
    }

    /// The view, writable.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// use cktile_core::tile::{Partition, make_tile_window_with_distribution};
    /// use cktile_core::tile::example::RowPerLane;
    /// let view = make_naive_tensor_view_packed([0u16; 64], (Number::<8>, Number::<8>))?;
    /// let rows = make_static_tile_distribution::<RowPerLane>();
    /// let mut w = make_tile_window_with_distribution(
    ///     view, (Number::<4>, Number::<8>), [0, 0], rows, Partition::lane(1),
    /// )?;
    /// w.view_mut().buffer_mut()[3] = 1;
    /// assert_eq!(w.view().buffer()[3], 1);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[inline(always)]
    pub fn view_mut(&mut self) -> &mut TensorView<B, C> {
        &mut self.view
    }

    /// The access plan loads and stores follow (a constant).
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// use cktile_core::tile::{Partition, make_tile_window_with_distribution};
    /// use cktile_core::tile::example::RowPerLane;
    /// let view = make_naive_tensor_view_packed([0u16; 64], (Number::<8>, Number::<8>))?;
    /// let rows = make_static_tile_distribution::<RowPerLane>();
    /// let w = make_tile_window_with_distribution(view, (Number::<4>, Number::<8>), [0, 0], rows, Partition::lane(1))?;
    /// // A packed view guarantees nothing of its rows' vectors (CK's rule): one element a load.
    /// assert_eq!((w.plan().accesses(), w.plan().vector()), (8, 1));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[inline(always)]
    pub fn plan(&self) -> &'static AccessPlan {
        &Plan::<E, C>::PLAN
    }

    /// The top index of access `a`'s first element.
    #[inline(always)]
    fn access_top(&self, a: usize) -> TopIndex<C> {
        let mut top = self.thread_origin;
        add_step(top.as_mut(), &Plan::<E, C>::PLAN.x_delta(a));
        top
    }

    /// The memory offset of access `a` when the descriptor maps it to a
    /// real element (not padding).
    #[inline(always)]
    pub(crate) fn access_offset(&self, a: usize) -> Option<Index> {
        // CK's coordinate_has_valid_offset_assuming_top_index_is_valid and get_offset, on the chain.
        let mut top = [0; MAX_DIMS];
        add_step(&mut top, self.access_top(a).as_ref());
        let chain = self.view.descriptor().chain();
        if chain.is_valid(&top) { Some(chain.offset(&top)) } else { None }
    }

    /// Where access `a` of `vector` elements reads when the memory refuses
    /// its offset although the access lies inside the view's lengths (its
    /// first and last elements) and the memory of `elements` elements
    /// holds everything the view's compile-time chain reaches
    /// ([`offset_reach`](crate::descriptor::bounds::offset_reach)):
    /// the memory's last vector. That never happens (an offset inside the
    /// lengths lies at or below the reach, and a vector's elements follow
    /// its first), and the tests check it for every GEMM policy's LDS
    /// windows. It is there for the compiler, which can prove an access
    /// inside the lengths (compares of its top index) but not its offset
    /// inside the memory (an LDS block's XOR-swizzled offset of a thread
    /// id known to be below the block size): with a vector of the memory
    /// on both sides of the test, it drops the test and the refused
    /// branch's zeros. `None` for anything else: a refused access then
    /// reads zeros, as always.
    #[inline(always)]
    pub(crate) fn unreachable_fallback(&self, a: usize, vector: usize, elements: Option<usize>) -> Option<Index> {
        let (Some(reach), Some(elements)) = (TensorDescriptor::<C>::REACH, elements) else {
            return None;
        };
        let lengths = self.view.descriptor().chain().lengths();
        let first = self.access_top(a);
        let mut last = self.thread_origin;
        add_step(last.as_mut(), &Plan::<E, C>::PLAN.x_last(a));
        let (first, last) = (first.as_ref(), last.as_ref());
        let mut inside = (reach as u64) < elements as u64 && vector <= elements;
        for d in 0..C::NumTop::USIZE.min(MAX_DIMS) {
            inside &= ((first[d] as u64) < lengths[d] as u64) & ((last[d] as u64) < lengths[d] as u64);
        }
        if inside { Some(elements.saturating_sub(vector) as Index) } else { None }
    }
}

/// A move of a tile window's origin (CK's `move_tile_window`), for both kinds of window.
///
/// ```
/// use cktile_core::prelude::*;
/// use cktile_core::tile::{MoveTileWindow, make_tile_window};
/// let view = make_naive_tensor_view_packed([0u8; 64], (Number::<8>, Number::<8>))?;
/// let mut w = make_tile_window(view, (Number::<4>, Number::<4>), [0, 0])?;
/// w.move_window([1, 2]);
/// assert_eq!(w.window_origin(), [1, 2]);
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub trait MoveTileWindow {
    /// The step: one index per top dimension of the view.
    type Step;
    /// Adds `step` to the window's origin (indices wrap, as typed coordinates do).
    fn move_window(&mut self, step: Self::Step);
}

impl<B, C: Chain, W> MoveTileWindow for TileWindowWithStaticLengths<B, C, W> {
    type Step = TopIndex<C>;
    #[inline(always)]
    fn move_window(&mut self, step: TopIndex<C>) {
        add_step(self.origin.as_mut(), step.as_ref());
    }
}

impl<B, C: Chain, E: TileEncoding> MoveTileWindow for TileWindowWithStaticDistribution<B, C, E> {
    type Step = TopIndex<C>;
    #[inline(always)]
    fn move_window(&mut self, step: TopIndex<C>) {
        add_step(self.origin.as_mut(), step.as_ref());
        add_step(self.thread_origin.as_mut(), step.as_ref());
    }
}

/// CK Tile's `move_tile_window(window, step)`: moves the window's origin by
/// `step`, as the K loop of a GEMM moves its A and B windows by KPerBlock.
///
/// ```
/// use cktile_core::prelude::*;
/// use cktile_core::tile::{Partition, load_tile, make_tile_window_with_distribution, move_tile_window};
/// use cktile_core::tile::example::RowPerLane;
/// let data: Vec<u8> = (0..128).collect();
/// let view = make_naive_tensor_view_packed(&data[..], (Number::<8>, Number::<16>))?;
/// let rows = make_static_tile_distribution::<RowPerLane>();
/// let mut w = make_tile_window_with_distribution(view, (Number::<4>, Number::<8>), [0, 0], rows, Partition::lane(0))?;
/// move_tile_window(&mut w, [0, 8]);
/// assert_eq!(load_tile(&w).thread_buffer(), &[8, 9, 10, 11, 12, 13, 14, 15]);
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[inline(always)]
pub fn move_tile_window<W: MoveTileWindow>(window: &mut W, step: W::Step) {
    window.move_window(step);
}

/// The loads of [`load_tile_into`]: one visit per access.
struct Loader<'a, B, C: Chain, E: TileEncoding, T: Copy> {
    window: &'a TileWindowWithStaticDistribution<B, C, E>,
    out: &'a mut StaticDistributedTensor<T, E>,
}

impl<B: TileMemory<Element = T>, C: Chain, E: TileEncoding, T: Copy + Default> Visit for Loader<'_, B, C, E, T> {
    const COUNT: usize = Plan::<E, C>::PLAN.accesses();
    // `#[inline]`, not `always`: inlined early, its body makes the loops
    // around a load (a block GEMM's warp tiles) too big for LLVM to unroll
    // on amdgcn and nvptx (the performance chapter has the counts); inlined
    // by LLVM's own choice, the data path matches its hand-written twin. An
    // unoptimised build calls it: one small frame.
    #[inline]
    fn visit(&mut self, a: usize) {
        let plan = &Plan::<E, C>::PLAN;
        let (d0, ds) = (plan.d_start(a), plan.d_stride());
        let offset = self.window.access_offset(a);
        let memory = self.window.view.buffer();
        let regs = self.out.thread_buffer_mut();
        let mut put = |j: usize, x: T| {
            if let Some(r) = regs.get_mut(d0 + j * ds) {
                *r = x;
            }
        };
        let fallback = self.window.unreachable_fallback(a, plan.vector(), memory.elements());
        let loaded = match offset {
            Some(o) => by_width!(
                plan.vector(),
                |N| memory.load_with::<N>(o, &mut put)
                    || fallback.is_some_and(|last| memory.load_with::<N>(last, &mut put)),
                {
                    // Wider than 16: element by element, each checked.
                    let mut all = true;
                    for j in 0..plan.vector() {
                        all &= memory.load_with::<1>(o.wrapping_add(j as Index), |_, x| put(j, x));
                    }
                    all
                }
            ),
            None => false,
        };
        if !loaded {
            // Padding, or a vector outside the memory: zeros, as CK's invalid elements.
            for j in 0..plan.vector() {
                put(j, T::default());
            }
        }
    }
}

/// The stores of [`store_tile`]: one visit per access.
struct Storer<'a, B, C: Chain, E: TileEncoding, T: Copy> {
    window: &'a mut TileWindowWithStaticDistribution<B, C, E>,
    from: &'a StaticDistributedTensor<T, E>,
}

impl<B: TileMemoryMut<Element = T>, C: Chain, E: TileEncoding, T: Copy + Default> Visit for Storer<'_, B, C, E, T> {
    const COUNT: usize = Plan::<E, C>::PLAN.accesses();
    // `#[inline]`: see the loads'.
    #[inline]
    fn visit(&mut self, a: usize) {
        let plan = &Plan::<E, C>::PLAN;
        let (d0, ds) = (plan.d_start(a), plan.d_stride());
        let Some(offset) = self.window.access_offset(a) else {
            return;
        };
        let regs = self.from.thread_buffer();
        let memory = self.window.view.buffer_mut();
        let at = |j: usize| regs.get(d0 + j * ds).copied().unwrap_or_default();
        by_width!(plan.vector(), |N| memory.store_with::<N>(offset, at), {
            for j in 0..plan.vector() {
                memory.store_with::<1>(offset.wrapping_add(j as Index), |_| at(j));
            }
            true
        });
    }
}

/// CK Tile's `load_tile(window)`: this thread's elements of the window, as
/// a distributed tensor, vectorised as CK vectorises them (the plan's
/// vector dimension and width). Padding and memory outside the buffer read
/// as `T::default()` (zero).
///
/// ```
/// use cktile_core::prelude::*;
/// use cktile_core::tile::{Partition, load_tile, make_tile_window_with_distribution};
/// use cktile_core::tile::example::RowPerLane;
/// // A 3 x 7 matrix padded to 4 x 8: row 3 and column 7 are padding.
/// let data: Vec<u8> = (1..=21).collect();
/// let view = pad_tensor_view(
///     make_tensor_view(&data[..], make_naive_tensor_descriptor((3usize, 7usize), (7usize, Number::<1>))?),
///     (Number::<4>, Number::<8>),
///     (DoPad::<true>, DoPad::<true>),
/// )?;
/// let tile = |lane| {
///     let rows = make_static_tile_distribution::<RowPerLane>();
///     let w = make_tile_window_with_distribution(
///         view, (Number::<4>, Number::<8>), [0, 0], rows, Partition::lane(lane),
///     )?;
///     Ok::<_, cktile_core::Error>(load_tile(&w).thread_buffer().to_vec())
/// };
/// assert_eq!(tile(1)?, [8, 9, 10, 11, 12, 13, 14, 0]);
/// assert_eq!(tile(3)?, [0; 8]);
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[inline(always)]
pub fn load_tile<B: TileMemory<Element = T>, C: Chain, E: TileEncoding, T: Copy + Default>(
    window: &TileWindowWithStaticDistribution<B, C, E>,
) -> StaticDistributedTensor<T, E> {
    let mut out = StaticDistributedTensor::filled(T::default());
    load_tile_into(window, &mut out);
    out
}

/// CK Tile's `load_tile(tensor, window)`: [`load_tile`] into an existing
/// tensor (every element is written).
///
/// ```
/// use cktile_core::prelude::*;
/// use cktile_core::tile::{Partition, StaticDistributedTensor, load_tile_into, make_tile_window_with_distribution};
/// use cktile_core::tile::example::RowPerLane;
/// let view = make_naive_tensor_view_packed([3u8; 32], (Number::<4>, Number::<8>))?;
/// let rows = make_static_tile_distribution::<RowPerLane>();
/// let w = make_tile_window_with_distribution(view, (Number::<4>, Number::<8>), [0, 0], rows, Partition::lane(2))?;
/// let mut t = StaticDistributedTensor::<u8, RowPerLane>::filled(9);
/// load_tile_into(&w, &mut t);
/// assert_eq!(t.thread_buffer(), &[3; 8]);
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[inline(always)]
pub fn load_tile_into<B: TileMemory<Element = T>, C: Chain, E: TileEncoding, T: Copy + Default>(
    window: &TileWindowWithStaticDistribution<B, C, E>,
    tensor: &mut StaticDistributedTensor<T, E>,
) {
    each_access(&mut Loader { window, out: tensor });
}

/// CK Tile's `store_tile(window, tensor)`: writes this thread's elements
/// through the window, vectorised as [`load_tile`] reads; padding and
/// memory outside the buffer are not written.
///
/// ```
/// use cktile_core::prelude::*;
/// use cktile_core::tile::{Partition, StaticDistributedTensor, make_tile_window_with_distribution, store_tile};
/// use cktile_core::tile::example::RowPerLane;
/// let mut data = [0u8; 32];
/// let view = make_naive_tensor_view_packed(&mut data[..], (Number::<4>, Number::<8>))?;
/// let rows = make_static_tile_distribution::<RowPerLane>();
/// let mut w = make_tile_window_with_distribution(view, (Number::<4>, Number::<8>), [0, 0], rows, Partition::lane(2))?;
/// store_tile(&mut w, &StaticDistributedTensor::filled(7));
/// assert_eq!(data[16..24], [7; 8]);
/// assert_eq!(data.iter().filter(|&&x| x == 7).count(), 8);
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[inline(always)]
pub fn store_tile<B: TileMemoryMut<Element = T>, C: Chain, E: TileEncoding, T: Copy + Default>(
    window: &mut TileWindowWithStaticDistribution<B, C, E>,
    tensor: &StaticDistributedTensor<T, E>,
) {
    each_access(&mut Storer { window, from: tensor });
}
