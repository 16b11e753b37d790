//! Tile windows: CK Tile's `tile_window_with_static_lengths` (a window of
//! fixed lengths at an origin of a tensor view) and
//! `tile_window_with_static_distribution` (the same, with a distribution
//! saying which elements this thread moves), made by [`make_tile_window`]
//! and [`make_tile_window_with_distribution`] and moved by
//! [`move_tile_window`]; [`transfer`](super::transfer) moves data through
//! them (`load_tile`, `store_tile`).
//!
//! A distributed window keeps what CK's keeps in registers: the window's
//! origin and the thread's origin in the view's top coordinates (the
//! origin plus the X of the thread's P at Y = 0), and its access plan, a
//! constant of its distribution and its view's chain.
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

use super::partition::Partition;
use super::plan::AccessPlan;
use super::tensor::Ys;
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

/// The access plan of encoding `E` over chain `C`, as a constant (a
/// compile error naming the problem when there is none).
pub(crate) struct Plan<E, C>(PhantomData<(E, C)>);

impl<E: TileEncoding, C: Chain> Plan<E, C> {
    pub(crate) const PLAN: AccessPlan = match AccessPlan::new(&E::ENCODING, &C::TOP_VECTORS, C::NumTop::USIZE) {
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
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
fn top_of<C: Chain>(from: &[Index]) -> TopIndex<C> {
    let mut top = TopIndex::<C>::default();
    let to = top.as_mut();
    static_for!(to.len().min(from.len()), |j| to[j] = from[j]);
    top
}

/// Adds `step` to `top`, wrapping as the typed coordinates do.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
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
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn make_tile_window<B, C: Chain, W: Values<Len = C::NumTop>>(
    view: TensorView<B, C>,
    lengths: W,
    origin: impl CoordinateOf<TopIndex<C>>,
) -> Result<TileWindowWithStaticLengths<B, C, W>, Error> {
    let dims = lengths.dims().map_err(crate::Error::transform)?;
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
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
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
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
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
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
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
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
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
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
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

#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
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
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
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
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
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
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
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
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
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
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
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
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn plan(&self) -> &'static AccessPlan {
        &Plan::<E, C>::PLAN
    }

    /// The top index of access `a`'s first element.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) fn access_top(&self, a: usize) -> TopIndex<C> {
        let mut top = self.thread_origin;
        add_step(top.as_mut(), &Plan::<E, C>::PLAN.x_delta(a));
        top
    }

    /// The memory offset of access `a` when the descriptor maps it to a
    /// real element (not padding).
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) fn access_offset(&self, a: usize) -> Option<Index> {
        // CK's coordinate_has_valid_offset_assuming_top_index_is_valid and get_offset, on the chain.
        let mut top = [0; MAX_DIMS];
        add_step(&mut top, self.access_top(a).as_ref());
        let chain = self.view.descriptor().chain();
        let offset = if C::LINEAR {
            // The thread's offset plus the step's (`Chain::LINEAR`): the step's part is a
            // constant times the chain's runtime values, the same in every K tile.
            let (mut origin, mut step) = ([0; MAX_DIMS], [0; MAX_DIMS]);
            add_step(&mut origin, self.thread_origin.as_ref());
            add_step(&mut step, &Plan::<E, C>::PLAN.x_delta(a));
            let from_zero = chain.offset(&step).wrapping_sub(chain.offset(&[0; MAX_DIMS]));
            chain.offset(&origin).wrapping_add(from_zero)
        } else {
            chain.offset(&top)
        };
        if chain.is_valid(&top) { Some(offset) } else { None }
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
    /// branch's zeros (on amdgcn the loads clamp the offset to it instead,
    /// the same reads with no branch at all). `None` for anything else: a
    /// refused access then reads zeros, as always.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
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
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn move_window(&mut self, step: TopIndex<C>) {
        add_step(self.origin.as_mut(), step.as_ref());
    }
}

impl<B, C: Chain, E: TileEncoding> MoveTileWindow for TileWindowWithStaticDistribution<B, C, E> {
    type Step = TopIndex<C>;
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
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
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn move_tile_window<W: MoveTileWindow>(window: &mut W, step: W::Step) {
    window.move_window(step);
}
