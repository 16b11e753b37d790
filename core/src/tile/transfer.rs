//! Moving data through a distributed tile window: CK Tile's `load_tile`
//! and `store_tile` ([`load_tile`], [`load_tile_into`], [`store_tile`]).
//!
//! Each access of a load or store is one vector of the window's [access
//! plan](super::plan): its top index is the thread's origin plus a
//! compile-time offset, its memory offset the view's descriptor evaluated
//! there, and its elements land at compile-time places of the thread
//! buffer. Loads and stores run over the accesses by explicit unrolling
//! (not by LLVM's loop unroller), so every register index is a constant on
//! every target.
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

use super::memory::{TileMemory, TileMemoryMut};
use super::plan::MAX_ACCESSES;
use super::tensor::StaticDistributedTensor;
use super::window::{Plan, TileWindowWithStaticDistribution};
use crate::Index;
use crate::distribution::typed::TileEncoding;
use crate::typed::Chain;
use cktile_transforms::static_for;

/// One access of a load or store; [`each_access`] calls `visit(a)` for
/// `a` in `0..COUNT`, each call with a constant argument (also the GEMM
/// epilogue's C store, `ops::gemm::store_c_tile`).
pub(crate) trait Visit {
    /// The number of accesses (the plan's, a constant).
    const COUNT: usize;
    fn visit(&mut self, a: usize);
}

/// The accesses, unrolled by hand: `V::COUNT` is a constant of the
/// monomorphised code, so the compiler's first passes drop every guard
/// past it and LLVM sees exactly the accesses the plan makes, each with
/// its constants.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) fn each_access<V: Visit>(v: &mut V) {
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
// The CShuffle epilogue's copy reads its vectors with it too.
#[cfg(any(feature = "alloc", target_arch = "amdgpu", target_arch = "nvptx64"))]
pub(crate) use by_width;

/// The loads of [`load_tile_into`]: one visit per access. `EAGER` visits
/// are inlined always (see [`load_tile_eager`]), the others where LLVM
/// chooses.
struct Loader<'a, B, C: Chain, E: TileEncoding, T: Copy, const EAGER: bool> {
    window: &'a TileWindowWithStaticDistribution<B, C, E>,
    out: &'a mut StaticDistributedTensor<T, E>,
}

impl<B: TileMemory<Element = T>, C: Chain, E: TileEncoding, T: Copy + Default> Visit for Loader<'_, B, C, E, T, false> {
    const COUNT: usize = Plan::<E, C>::PLAN.accesses();
    // `#[inline]`, not `always`: inlined early, its body makes the loops
    // around a load (a block GEMM's warp tiles) too big for LLVM to unroll
    // on amdgcn and nvptx (the performance chapter has the counts); inlined
    // by LLVM's own choice, the data path matches its hand-written twin. An
    // unoptimised build calls it: one small frame.
    #[inline]
    fn visit(&mut self, a: usize) {
        self.access(a);
    }
}

impl<B: TileMemory<Element = T>, C: Chain, E: TileEncoding, T: Copy + Default> Visit for Loader<'_, B, C, E, T, true> {
    const COUNT: usize = Plan::<E, C>::PLAN.accesses();
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn visit(&mut self, a: usize) {
        self.access(a);
    }
}

impl<B: TileMemory<Element = T>, C: Chain, E: TileEncoding, T: Copy + Default, const EAGER: bool>
    Loader<'_, B, C, E, T, EAGER>
{
    /// Access `a`: its vector into the tensor's registers.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn access(&mut self, a: usize) {
        let plan = &Plan::<E, C>::PLAN;
        let (d0, ds) = (plan.d_start(a), plan.d_stride());
        let offset = self.window.access_offset(a);
        let memory = self.window.view().buffer();
        let regs = self.out.thread_buffer_mut();
        let mut put = |j: usize, x: T| {
            if let Some(r) = regs.get_mut(d0 + j * ds) {
                *r = x;
            }
        };
        let fallback = self.window.unreachable_fallback(a, plan.vector(), memory.elements());
        // Where the fallback applies, the access reads at its offset when the memory holds
        // it, and at the memory's last vector otherwise (never, by the fallback's promise).
        // The GPU targets get that as the offset clamped to the last vector: one load the
        // compiler sees fits the memory's end, no branch to a second load. On amdgcn a
        // second load split each block GEMM read's `ds_read_b128` into `ds_read_b96` and
        // `ds_read_u16`. On nvptx, where a vector moves in one instruction only at an
        // aligned address (`tile::cells::Cells::vector_at`), the clamp keeps the offset's low
        // bits known (both sides have them), so the alignment test folds; a second load
        // merged with the first into a load of a selected address, and in CompV3's loop
        // the selection lost them.
        let (offset, fallback) = match (offset, fallback) {
            (Some(o), Some(last)) if CLAMP_TO_FALLBACK => (Some(clamp_to_fallback(o, last)), None),
            other => other,
        };
        if let (true, None, true) = (B::READS_ZEROS, fallback, plan.vector() <= 16) {
            // One read of a memory that reads zeros itself for padding and for a vector
            // outside: AMD's buffer loads, without a branch.
            by_width!(plan.vector(), |N| memory.load_or_default::<N>(offset, &mut put), {});
            return;
        }
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

/// Whether the loads reach their fallback by clamping the offset (amdgcn
/// and nvptx) or by a second load (every other target); see
/// [`Loader::visit`]. The two read the same elements (the tests below hold
/// them equal).
const CLAMP_TO_FALLBACK: bool = cfg!(any(target_arch = "amdgpu", target_arch = "nvptx64"));

/// Offset `o` of a load whose fallback is `last` (the memory's last
/// vector), clamped to it: `o` where the memory holds the vector at `o`,
/// `last` past it (a negative `o` stays, and is refused).
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
fn clamp_to_fallback(o: Index, last: Index) -> Index {
    o.min(last)
}

/// The stores of [`store_tile`] and [`store_tile_with`]: one visit per
/// access, each element converted by `convert` as it is stored. `EAGER`
/// visits are inlined always (see [`store_tile_eager`]), the others where
/// LLVM chooses.
struct Storer<'a, B, C: Chain, E: TileEncoding, S: Copy, F, const EAGER: bool> {
    window: &'a mut TileWindowWithStaticDistribution<B, C, E>,
    from: &'a StaticDistributedTensor<S, E>,
    convert: F,
}

impl<B: TileMemoryMut<Element = T>, C: Chain, E: TileEncoding, S: Copy, T: Copy + Default, F: FnMut(S) -> T> Visit
    for Storer<'_, B, C, E, S, F, false>
{
    const COUNT: usize = Plan::<E, C>::PLAN.accesses();
    // `#[inline]`: see the loads'.
    #[inline]
    fn visit(&mut self, a: usize) {
        self.access(a);
    }
}

impl<B: TileMemoryMut<Element = T>, C: Chain, E: TileEncoding, S: Copy, T: Copy + Default, F: FnMut(S) -> T> Visit
    for Storer<'_, B, C, E, S, F, true>
{
    const COUNT: usize = Plan::<E, C>::PLAN.accesses();
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn visit(&mut self, a: usize) {
        self.access(a);
    }
}

impl<
    B: TileMemoryMut<Element = T>,
    C: Chain,
    E: TileEncoding,
    S: Copy,
    T: Copy + Default,
    F: FnMut(S) -> T,
    const EAGER: bool,
> Storer<'_, B, C, E, S, F, EAGER>
{
    /// Access `a`: the tensor's registers into its vector.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn access(&mut self, a: usize) {
        let plan = &Plan::<E, C>::PLAN;
        let (d0, ds) = (plan.d_start(a), plan.d_stride());
        let Some(offset) = self.window.access_offset(a) else {
            return;
        };
        let regs = self.from.thread_buffer();
        let memory = self.window.view_mut().buffer_mut();
        let convert = &mut self.convert;
        let mut at = |j: usize| regs.get(d0 + j * ds).map(|&x| convert(x)).unwrap_or_default();
        by_width!(plan.vector(), |N| memory.store_with::<N>(offset, &mut at), {
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
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
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
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn load_tile_into<B: TileMemory<Element = T>, C: Chain, E: TileEncoding, T: Copy + Default>(
    window: &TileWindowWithStaticDistribution<B, C, E>,
    tensor: &mut StaticDistributedTensor<T, E>,
) {
    each_access(&mut Loader::<_, _, _, _, false> { window, out: tensor });
}

/// [`load_tile`] whose accesses are inlined where it is called, on nvptx
/// (elsewhere it is [`load_tile`]): a GEMM's DRAM loads
/// (`ops::gemm::OperandPath::load`). In CK's CompV3 K loop on nvptx, LLVM
/// left the four DRAM accesses of a 128 x 128 tile as calls, with 1.4 KB
/// of local memory; inlined, the loop is as the one-stage loop's.
#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) fn load_tile_eager<B: TileMemory<Element = T>, C: Chain, E: TileEncoding, T: Copy + Default>(
    window: &TileWindowWithStaticDistribution<B, C, E>,
) -> StaticDistributedTensor<T, E> {
    let mut out = StaticDistributedTensor::filled(T::default());
    each_access(&mut Loader::<_, _, _, _, { cfg!(target_arch = "nvptx64") }> { window, out: &mut out });
    out
}

/// [`store_tile`] whose accesses are inlined where it is called, on nvptx
/// (elsewhere it is [`store_tile`]): a prefetching GEMM's stores of its
/// DRAM tiles into LDS (`ops::gemm::OperandPath::store_prefetching`). An
/// LDS store on nvptx has two forms, one aligned vector and the element
/// loop (see [`memory`](super::memory)); in CompV3's K loop, where its
/// alignment test does not fold, LLVM left the four stores as calls, with
/// 1.7 KB of local memory. Inlined, they are none.
#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) fn store_tile_eager<B: TileMemoryMut<Element = T>, C: Chain, E: TileEncoding, T: Copy + Default>(
    window: &mut TileWindowWithStaticDistribution<B, C, E>,
    tensor: &StaticDistributedTensor<T, E>,
) {
    each_access(&mut Storer::<_, _, _, _, _, { cfg!(target_arch = "nvptx64") }> {
        window,
        from: tensor,
        convert: |x| x,
    });
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
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn store_tile<B: TileMemoryMut<Element = T>, C: Chain, E: TileEncoding, T: Copy + Default>(
    window: &mut TileWindowWithStaticDistribution<B, C, E>,
    tensor: &StaticDistributedTensor<T, E>,
) {
    each_access(&mut Storer::<_, _, _, _, _, false> { window, from: tensor, convert: |x| x });
}

/// [`store_tile`] of `tensor`'s elements converted by `convert` as they
/// are stored (CK's epilogues store `type_convert<ODataType>(acc)`; this
/// is that without a converted copy of the tensor).
///
/// ```
/// use cktile_core::prelude::*;
/// use cktile_core::tile::{Partition, StaticDistributedTensor, make_tile_window_with_distribution, store_tile_with};
/// use cktile_core::tile::example::RowPerLane;
/// let mut data = [0u8; 32];
/// let view = make_naive_tensor_view_packed(&mut data[..], (Number::<4>, Number::<8>))?;
/// let rows = make_static_tile_distribution::<RowPerLane>();
/// let mut w = make_tile_window_with_distribution(view, (Number::<4>, Number::<8>), [0, 0], rows, Partition::lane(2))?;
/// store_tile_with(&mut w, &StaticDistributedTensor::<f32, RowPerLane>::filled(2.6), |x| x.round() as u8);
/// assert_eq!(&data[16..24], &[3; 8]);
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn store_tile_with<B: TileMemoryMut<Element = T>, C: Chain, E: TileEncoding, S: Copy, T: Copy + Default>(
    window: &mut TileWindowWithStaticDistribution<B, C, E>,
    tensor: &StaticDistributedTensor<S, E>,
    convert: impl FnMut(S) -> T,
) {
    each_access(&mut Storer::<_, _, _, _, _, false> { window, from: tensor, convert });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The clamp reads where the second load would: the offset itself
    /// where the memory holds its vector, the last vector past it. A
    /// negative offset (which no access inside the lengths has: offsets
    /// count from the memory's start) stays negative, and the memory
    /// refuses it (zeros) where the second load read the last vector.
    #[test]
    fn clamping_is_the_second_load() {
        for len in 1..40 {
            for n in 1..=len {
                let last = (len - n) as Index;
                let offsets = (0..70).chain([Index::MAX - 1, Index::MAX]);
                for o in offsets {
                    let fits = o.checked_add(n as Index).is_some_and(|e| e <= len as Index);
                    assert_eq!(clamp_to_fallback(o, last), if fits { o } else { last }, "{o} {n} {len}");
                }
                for o in [Index::MIN, -70, -1] {
                    assert_eq!(clamp_to_fallback(o, last), o);
                }
            }
        }
    }
}
