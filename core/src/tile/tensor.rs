//! [`StaticDistributedTensor`]: CK Tile's `static_distributed_tensor`, a
//! thread's share of a distributed tile (its registers, one element per Y
//! index in `ys_to_d` order), and the functions over it: [`set_tile`],
//! [`tile_elementwise_in`], [`tile_elementwise_inout`], [`sweep_tile`].
//!
//! The tensor holds nothing but the elements: the distribution is its type
//! (zero-sized), so an element's place is a constant wherever the Y index
//! is.
//!
//! ```
//! use cktile_core::prelude::*;
//! use cktile_core::tile::{make_static_distributed_tensor, set_tile, sweep_tile, tile_elementwise_in};
//! use cktile_core::tile::example::TwoByFour;
//! let mut t = make_static_distributed_tensor::<u32, TwoByFour>();
//! set_tile(&mut t, 3);
//! t.set([1, 2], 10);
//! let doubled = tile_elementwise_in(|x| 2 * x, &t);
//! assert_eq!((doubled.get([1, 2]), doubled.get([0, 0])), (20, 6));
//! let mut seen = Vec::new();
//! sweep_tile(&t, |ys| seen.push(ys));
//! assert_eq!(seen.len(), 8);
//! assert_eq!(seen[5], [1, 1]); // row-major over the Y lengths (2, 4)
//! assert_eq!(core::mem::size_of_val(&t), 8 * 4);
//! ```

use crate::Index;
use crate::distribution::Distribution;
use crate::distribution::typed::{
    Registers, ThreadBuffer, TileDistribution, TileEncoding, make_static_tile_distribution,
};
use crate::typed::{Chain, CoordinateOf};
use cktile_transforms::{Count, MAX_DIMS};
use core::fmt;
use core::marker::PhantomData;
use typenum::Unsigned;

/// The Y index type of an encoding: `[Index; NDimY]`.
pub type YIndex<E> = <<<E as TileEncoding>::YsToD as Chain>::NumTop as Count>::Coordinate;

/// CK Tile's `static_distributed_tensor<T, distribution>`: a thread's
/// elements of a tile distributed by the encoding `E`, in the thread's
/// registers.
///
/// ```
/// use cktile_core::prelude::*;
/// use cktile_core::tile::StaticDistributedTensor;
/// cktile_core::tile_distribution_encoding! {
///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16], [4]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1, 2], ys_to_rhs_minor: [0, 0] }
/// }
/// let t = StaticDistributedTensor::<f32, Rows>::filled(1.5);
/// assert_eq!(t.thread_buffer(), &[1.5; 16]);
/// ```
pub struct StaticDistributedTensor<T: Copy, E: TileEncoding> {
    registers: Registers<T, E>,
    encoding: PhantomData<E>,
}

impl<T: Copy, E: TileEncoding> Clone for StaticDistributedTensor<T, E> {
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn clone(&self) -> Self {
        StaticDistributedTensor { registers: self.registers.clone(), encoding: PhantomData }
    }
}

/// `Copy` for every concrete encoding (a `GenericArray` of `Copy`
/// elements is `Copy` once its length is known).
impl<T: Copy, E: TileEncoding> Copy for StaticDistributedTensor<T, E> where Registers<T, E>: Copy {}

impl<T: Copy + fmt::Debug, E: TileEncoding> fmt::Debug for StaticDistributedTensor<T, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StaticDistributedTensor").field("thread_buffer", &self.thread_buffer()).finish()
    }
}

impl<T: Copy + PartialEq, E: TileEncoding> PartialEq for StaticDistributedTensor<T, E> {
    fn eq(&self, other: &Self) -> bool {
        self.thread_buffer() == other.thread_buffer()
    }
}

/// The Y lengths of an encoding, as a constant.
pub(super) struct Ys<E>(PhantomData<E>);

impl<E: TileEncoding> Ys<E> {
    const LENGTHS: ([Index; MAX_DIMS], usize) = match Distribution::new(E::ENCODING) {
        Ok(d) => (d.y_lengths().to_array(), d.y_lengths().len()),
        Err(_) => ([1; MAX_DIMS], 0),
    };
    /// Refuses (at compile time) a hand-written encoding whose registers do
    /// not hold one element per Y index: every tensor is made through it,
    /// so no element access can miss.
    pub(super) const CHECK: () = {
        let (lengths, n) = Self::LENGTHS;
        let mut size: usize = 1;
        let mut i = 0;
        while i < n {
            size = size.saturating_mul(lengths[i] as usize);
            i += 1;
        }
        if n == 0 || <E::RegisterCount as Unsigned>::USIZE != size {
            panic!("cktile: a TileEncoding's RegisterCount must be one register per Y index (the Y lengths' product)");
        }
    };
}

impl<T: Copy, E: TileEncoding> StaticDistributedTensor<T, E> {
    /// A tensor whose every element is `value`.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// use cktile_core::tile::StaticDistributedTensor;
    /// use cktile_core::tile::example::TwoPerLane;
    /// assert_eq!(StaticDistributedTensor::<i8, TwoPerLane>::filled(-1).thread_buffer(), &[-1, -1]);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn filled(value: T) -> Self {
        let () = Ys::<E>::CHECK;
        StaticDistributedTensor { registers: ThreadBuffer::filled(value), encoding: PhantomData }
    }

    /// The distribution (zero-sized).
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// use cktile_core::tile::StaticDistributedTensor;
    /// use cktile_core::tile::example::TwoPerLane;
    /// let t = StaticDistributedTensor::<u8, TwoPerLane>::filled(0);
    /// assert_eq!(t.distribution().calculate_index([5, 1]), [11]);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn distribution(&self) -> TileDistribution<E> {
        make_static_tile_distribution::<E>()
    }

    /// The elements, in `ys_to_d` order (CK's `get_thread_buffer`).
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// use cktile_core::tile::StaticDistributedTensor;
    /// use cktile_core::tile::example::TwoPerLane;
    /// assert_eq!(StaticDistributedTensor::<u8, TwoPerLane>::filled(4).thread_buffer().len(), 2);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn thread_buffer(&self) -> &[T] {
        self.registers.as_slice()
    }

    /// The elements, writable.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// use cktile_core::tile::StaticDistributedTensor;
    /// use cktile_core::tile::example::TwoPerLane;
    /// let mut t = StaticDistributedTensor::<u8, TwoPerLane>::filled(4);
    /// t.thread_buffer_mut()[1] = 9;
    /// assert_eq!(t.get([1]), 9);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn thread_buffer_mut(&mut self) -> &mut [T] {
        self.registers.as_mut_slice()
    }

    /// The element at a Y index. Every Y index inside the Y lengths has an
    /// element; an index outside them reads the element its `ys_to_d`
    /// offset wraps onto (no range check, as in CK; never a panic: a tensor
    /// always has one element per Y index, checked when it is made).
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// use cktile_core::tile::StaticDistributedTensor;
    /// use cktile_core::tile::example::TwoByFour;
    /// let mut t = StaticDistributedTensor::<u8, TwoByFour>::filled(0);
    /// t.set([1, 3], 5);
    /// assert_eq!((t.get([1, 3]), t.thread_buffer()[7]), (5, 5));
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn get(&self, ys: impl CoordinateOf<YIndex<E>>) -> T {
        let regs = self.registers.as_slice();
        regs[self.place(ys) % regs.len().max(1)]
    }

    /// Writes the element at a Y index (see [`get`](Self::get)).
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// use cktile_core::tile::StaticDistributedTensor;
    /// use cktile_core::tile::example::TwoByFour;
    /// let mut t = StaticDistributedTensor::<u8, TwoByFour>::filled(0);
    /// t.set([0, 1], 2);
    /// assert_eq!(t.thread_buffer(), &[0, 2, 0, 0, 0, 0, 0, 0]);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn set(&mut self, ys: impl CoordinateOf<YIndex<E>>, value: T) {
        let place = self.place(ys);
        let regs = self.registers.as_mut_slice();
        let n = regs.len().max(1);
        if let Some(r) = regs.get_mut(place % n) {
            *r = value;
        }
    }

    /// The thread-buffer place of a Y index.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn place(&self, ys: impl CoordinateOf<YIndex<E>>) -> usize {
        self.distribution().d_index(ys).rem_euclid(Index::MAX) as usize
    }

    /// A tensor of the same distribution with `f` applied to each element.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// use cktile_core::tile::StaticDistributedTensor;
    /// use cktile_core::tile::example::TwoPerLane;
    /// let t = StaticDistributedTensor::<u8, TwoPerLane>::filled(3).map(|x| f32::from(x) / 2.0);
    /// assert_eq!(t.thread_buffer(), &[1.5, 1.5]);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn map<U: Copy>(&self, mut f: impl FnMut(T) -> U) -> StaticDistributedTensor<U, E> {
        let () = Ys::<E>::CHECK;
        let from = self.thread_buffer();
        StaticDistributedTensor {
            registers: ThreadBuffer::from_fn(|i| f(from[i % from.len().max(1)])),
            encoding: PhantomData,
        }
    }
}

/// CK Tile's `make_static_distributed_tensor<T>(distribution)`: a tensor
/// of `T::default()` (zeros).
///
/// ```
/// use cktile_core::prelude::*;
/// use cktile_core::tile::make_static_distributed_tensor;
/// use cktile_core::tile::example::TwoPerLane;
/// assert_eq!(make_static_distributed_tensor::<i32, TwoPerLane>().thread_buffer(), &[0, 0]);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn make_static_distributed_tensor<T: Copy + Default, E: TileEncoding>() -> StaticDistributedTensor<T, E> {
    StaticDistributedTensor::filled(T::default())
}

/// CK Tile's `set_tile(tensor, value)`: every element `value`.
///
/// ```
/// use cktile_core::prelude::*;
/// use cktile_core::tile::{make_static_distributed_tensor, set_tile};
/// use cktile_core::tile::example::TwoPerLane;
/// let mut t = make_static_distributed_tensor::<u8, TwoPerLane>();
/// set_tile(&mut t, 7);
/// assert_eq!(t.thread_buffer(), &[7, 7]);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn set_tile<T: Copy, E: TileEncoding>(tensor: &mut StaticDistributedTensor<T, E>, value: T) {
    for r in tensor.thread_buffer_mut() {
        *r = value;
    }
}

/// CK Tile's `tile_elementwise_in(f, tensor)`: a new tensor of `f` of each
/// element ([`StaticDistributedTensor::map`]).
///
/// ```
/// use cktile_core::prelude::*;
/// use cktile_core::tile::{StaticDistributedTensor, tile_elementwise_in};
/// use cktile_core::tile::example::TwoPerLane;
/// let t = StaticDistributedTensor::<u16, TwoPerLane>::filled(4);
/// assert_eq!(tile_elementwise_in(|x| u32::from(x) << 20, &t).thread_buffer(), &[4 << 20; 2]);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn tile_elementwise_in<T: Copy, U: Copy, E: TileEncoding>(
    f: impl FnMut(T) -> U,
    tensor: &StaticDistributedTensor<T, E>,
) -> StaticDistributedTensor<U, E> {
    tensor.map(f)
}

/// CK Tile's `tile_elementwise_inout(f, tensor)`: `f` on each element in
/// place.
///
/// ```
/// use cktile_core::prelude::*;
/// use cktile_core::tile::{StaticDistributedTensor, tile_elementwise_inout};
/// use cktile_core::tile::example::TwoPerLane;
/// let mut t = StaticDistributedTensor::<i32, TwoPerLane>::filled(4);
/// tile_elementwise_inout(|x| *x = -*x, &mut t);
/// assert_eq!(t.thread_buffer(), &[-4, -4]);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn tile_elementwise_inout<T: Copy, E: TileEncoding>(
    mut f: impl FnMut(&mut T),
    tensor: &mut StaticDistributedTensor<T, E>,
) {
    for r in tensor.thread_buffer_mut() {
        f(r);
    }
}

/// CK Tile's `sweep_tile(tensor, f)`: calls `f` with every Y index of the
/// tensor's distribution, row-major over the Y lengths (the thread
/// buffer's order), so `f` reads and writes elements through
/// [`get`](StaticDistributedTensor::get) and
/// [`set`](StaticDistributedTensor::set). CK hands `f` a distributed index
/// grouped by X spans; cktile hands it the Y index itself, which the
/// distribution maps to X ([`TileDistribution::calculate_index`]).
///
/// ```
/// use cktile_core::prelude::*;
/// use cktile_core::tile::{StaticDistributedTensor, sweep_tile};
/// use cktile_core::tile::example::TwoByFour;
/// let mut t = StaticDistributedTensor::<i64, TwoByFour>::filled(0);
/// let d = t.distribution();
/// // Each element holds its M coordinate for lane 5.
/// let mut m = Vec::new();
/// sweep_tile(&t.clone(), |ys| { let x = d.calculate_index([5, ys[0], ys[1]]); t.set(ys, x[0]); m.push(x[0]); });
/// assert_eq!(m, [5, 5, 5, 5, 21, 21, 21, 21]);
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn sweep_tile<T: Copy, E: TileEncoding>(tensor: &StaticDistributedTensor<T, E>, mut f: impl FnMut(YIndex<E>)) {
    let _ = tensor;
    let (lengths, n) = Ys::<E>::LENGTHS;
    let total: Index = lengths.iter().take(n).product();
    for d in 0..total {
        let mut ys = YIndex::<E>::default();
        let slots = ys.as_mut();
        let mut rest = d;
        let mut i = n.min(slots.len());
        while i > 0 {
            i -= 1;
            slots[i] = rest % lengths[i];
            rest /= lengths[i];
        }
        f(ys);
    }
}
