//! Typed tensor views: CK Tile's `tensor_view`, a typed descriptor over a
//! buffer of elements, read and written at tensor coordinates.
//!
//! A [`TensorView`] pairs a [`TensorDescriptor`] with a [`Buffer`] (a slice,
//! a mutable slice, an array, or with the `alloc` feature a `Vec`). Reads
//! at a coordinate that is not valid give `None`, and writes there do
//! nothing, as CK Tile's buffer view returns zero for and skips invalid
//! elements: a coordinate is valid when
//! [`coordinate_has_valid_offset`](super::coordinate_has_valid_offset) holds
//! (inside the top lengths, not in padding) and its elements lie inside the
//! buffer (CK's out-of-bounds check against the buffer's size). A vector
//! access reads or writes `N` consecutive elements from the coordinate's
//! offset; as in CK Tile, the coordinate's validity stands for the whole
//! vector (the caller aligns vectors to the guaranteed vector length).
//!
//! [`pad_tensor_view`] is CK's `pad_tensor_view`: each dimension chosen by
//! `do_pads` is right-padded to a multiple of its tile length
//! ([`make_right_pad_transform`](cktile_transforms::typed::make_right_pad_transform)
//! through [`transform_tensor_view`]), the others pass through. Reads in the
//! padding give `None`.
//!
//! ```
//! use cktile_core::prelude::*;
//! // A 3 x 5 row-major matrix, padded to 4 x 8 (tiles of 2 x 4).
//! let data: Vec<i32> = (0..15).collect();
//! let d = make_naive_tensor_descriptor((3usize, 5usize), (5usize, Number::<1>))?;
//! let view = pad_tensor_view(make_tensor_view(&data[..], d), (Number::<2>, Number::<4>), (DoPad::<true>, DoPad::<true>))?;
//! assert_eq!(view.descriptor().lengths().as_slice(), &[4, 8]);
//! let at = |m, k| view.get(&make_tensor_coordinate(view.descriptor(), [m, k]));
//! assert_eq!((at(2, 4), at(2, 5), at(3, 0)), (Some(14), None, None));
//! # Ok::<(), cktile_core::Error>(())
//! ```

use super::Core;
use super::{
    Chain, IdLists, Naive, Packed, StridesFor, TensorCoordinate, TensorDescriptor, TransformList, Transformed,
    coordinate_has_valid_offset, make_naive_tensor_descriptor, make_naive_tensor_descriptor_packed,
    transform_tensor_descriptor,
};
use crate::error::{DescriptorProblem, Error};
use crate::{Index, Indices, Number, Value, Values};
use cktile_transforms::Count;
use cktile_transforms::typed::{PassThrough, RightPad, TypedTransform};
use cktile_transforms::typed::{make_pass_through_transform, make_right_pad_transform};
use core::fmt;

/// Memory a [`TensorView`] reads (CK Tile's buffer view): a slice of
/// elements, indexed by a descriptor's offsets.
///
/// ```
/// use cktile_core::typed::Buffer;
/// let data = [1.0f32, 2.0, 3.0];
/// assert_eq!((&data[..]).elements(), &[1.0, 2.0, 3.0]);
/// assert_eq!(data.elements().len(), 3);
/// ```
pub trait Buffer {
    /// The element type.
    type Element: Copy;
    /// The elements, offset 0 first.
    fn elements(&self) -> &[Self::Element];
}

/// A [`Buffer`] a [`TensorView`] can also write.
///
/// ```
/// use cktile_core::typed::BufferMut;
/// let mut data = [0u8; 4];
/// (&mut data[..]).elements_mut()[1] = 7;
/// assert_eq!(data, [0, 7, 0, 0]);
/// ```
pub trait BufferMut: Buffer {
    /// The elements, writable.
    fn elements_mut(&mut self) -> &mut [Self::Element];
}

impl<T: Copy> Buffer for &[T] {
    type Element = T;
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn elements(&self) -> &[T] {
        self
    }
}

impl<T: Copy> Buffer for &mut [T] {
    type Element = T;
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn elements(&self) -> &[T] {
        self
    }
}

impl<T: Copy> BufferMut for &mut [T] {
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn elements_mut(&mut self) -> &mut [T] {
        self
    }
}

impl<T: Copy, const N: usize> Buffer for [T; N] {
    type Element = T;
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn elements(&self) -> &[T] {
        self
    }
}

impl<T: Copy, const N: usize> BufferMut for [T; N] {
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn elements_mut(&mut self) -> &mut [T] {
        self
    }
}

#[cfg(feature = "alloc")]
impl<T: Copy> Buffer for alloc::vec::Vec<T> {
    type Element = T;
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn elements(&self) -> &[T] {
        self
    }
}

#[cfg(feature = "alloc")]
impl<T: Copy> BufferMut for alloc::vec::Vec<T> {
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn elements_mut(&mut self) -> &mut [T] {
        self
    }
}

/// CK Tile's `tensor_view`: a typed descriptor over a buffer.
///
/// ```
/// use cktile_core::prelude::*;
/// let mut data = [0i64; 12];
/// let d = make_naive_tensor_descriptor_packed((Number::<3>, Number::<4>))?;
/// let mut view = make_tensor_view(&mut data[..], d);
/// let c = make_tensor_coordinate(&d, [2, 1]);
/// assert!(view.set(&c, 5));
/// assert_eq!(view.get(&c), Some(5));
/// assert_eq!(data[9], 5);
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub struct TensorView<B, C: Chain> {
    buffer: B,
    desc: TensorDescriptor<C>,
}

impl<B: Clone, C: Chain> Clone for TensorView<B, C> {
    fn clone(&self) -> Self {
        TensorView { buffer: self.buffer.clone(), desc: self.desc }
    }
}

impl<B: Copy, C: Chain> Copy for TensorView<B, C> {}

impl<B: fmt::Debug, C: Chain> fmt::Debug for TensorView<B, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TensorView").field("buffer", &self.buffer).field("desc", &self.desc).finish()
    }
}

/// CK Tile's `make_tensor_view(p, desc)`: a view of `buffer` through `desc`.
/// The buffer need not cover the descriptor's element space: an element
/// past its end reads as `None` and is not written. Any buffer makes a
/// view: a [`Buffer`] for [`get`](TensorView::get) and
/// [`set`](TensorView::set), a [`TileMemory`](crate::tile::TileMemory)
/// (a slice of `Cell`s too, for shared memory several windows write) for
/// tile windows.
///
/// ```
/// use cktile_core::prelude::*;
/// let data = [10, 11, 12, 13, 14, 15];
/// let d = make_naive_tensor_descriptor((Number::<2>, Number::<3>), (Number::<3>, Number::<1>))?;
/// let view = make_tensor_view(data, d);
/// assert_eq!(view.get(&make_tensor_coordinate(&d, [1, 2])), Some(15));
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn make_tensor_view<B, C: Chain>(buffer: B, desc: TensorDescriptor<C>) -> TensorView<B, C> {
    TensorView { buffer, desc }
}

/// CK Tile's `make_naive_tensor_view(p, lengths, strides)`: a view of
/// `buffer` through [`make_naive_tensor_descriptor`](super::make_naive_tensor_descriptor)
/// (its errors).
///
/// ```
/// use cktile_core::prelude::*;
/// let data: Vec<u32> = (0..40).collect();
/// let v = make_naive_tensor_view(&data[..], (4usize, Number::<8>), (10usize, Number::<1>))?;
/// assert_eq!(v.get(&make_tensor_coordinate(v.descriptor(), [3, 7])), Some(37));
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn make_naive_tensor_view<B: Buffer, L: Values, S: StridesFor<<L::Len as Count>::Coordinate>>(
    buffer: B,
    lengths: L,
    strides: S,
) -> Result<TensorView<B, Naive<L, S>>, Error> {
    Ok(make_tensor_view(buffer, make_naive_tensor_descriptor(lengths, strides)?))
}

/// CK Tile's `make_naive_tensor_view_packed(p, lengths)`: a view of
/// `buffer` through [`make_naive_tensor_descriptor_packed`](super::make_naive_tensor_descriptor_packed)
/// (its errors).
///
/// ```
/// use cktile_core::prelude::*;
/// let v = make_naive_tensor_view_packed([5u8, 6, 7, 8, 9, 10], (Number::<2>, Number::<3>))?;
/// assert_eq!(v.get(&make_tensor_coordinate(v.descriptor(), [1, 0])), Some(8));
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn make_naive_tensor_view_packed<B: Buffer, L: Values>(
    buffer: B,
    lengths: L,
) -> Result<TensorView<B, Packed<L>>, Error> {
    Ok(make_tensor_view(buffer, make_naive_tensor_descriptor_packed(lengths)?))
}

impl<B, C: Chain> TensorView<B, C> {
    /// The descriptor (CK's `get_tensor_descriptor`).
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor_packed((Number::<2>, Number::<3>))?;
    /// assert_eq!(make_tensor_view([0u8; 6], d).descriptor(), &d);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn descriptor(&self) -> &TensorDescriptor<C> {
        &self.desc
    }

    /// The buffer (CK's `get_buffer_view`).
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor_packed((Number::<2>,))?;
    /// assert_eq!(make_tensor_view([4u8, 5], d).buffer(), &[4, 5]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn buffer(&self) -> &B {
        &self.buffer
    }

    /// The buffer, giving the view up.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor_packed((Number::<2>,))?;
    /// let mut view = make_tensor_view([0u8; 2], d);
    /// view.set(&make_tensor_coordinate(&d, [1]), 9);
    /// assert_eq!(view.into_buffer(), [0, 9]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn into_buffer(self) -> B {
        self.buffer
    }

    /// The buffer, writable (CK's `get_buffer_view`).
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor_packed((Number::<2>,))?;
    /// let mut view = make_tensor_view([0u8; 2], d);
    /// view.buffer_mut()[0] = 3;
    /// assert_eq!(view.buffer(), &[3, 0]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn buffer_mut(&mut self) -> &mut B {
        &mut self.buffer
    }
}

impl<B: Buffer, C: Chain> TensorView<B, C> {
    /// The range of buffer positions `[offset, offset + n)` a valid
    /// coordinate addresses, `None` when the coordinate is not valid or the
    /// range leaves the buffer.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn range(&self, coord: &TensorCoordinate<C>, n: usize) -> Option<core::ops::Range<usize>> {
        if !coordinate_has_valid_offset(&self.desc, coord) {
            return None;
        }
        let start = usize::try_from(coord.offset()).ok()?;
        let end = start.checked_add(n)?;
        if end <= self.buffer.elements().len() { Some(start..end) } else { None }
    }

    /// The element at a coordinate (CK's `get_vectorized_elements` of one
    /// element): `None` when the coordinate is not valid (outside the top
    /// lengths, in padding) or its offset is outside the buffer.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor((4usize,), (Number::<1>,))?;
    /// let d = transform_tensor_descriptor(d, (make_right_pad_transform(4usize, 4usize),), (ids![0],), (ids![0],))?;
    /// let view = make_tensor_view([1, 2, 3, 4], d);
    /// let at = |i| view.get(&make_tensor_coordinate(&d, [i]));
    /// assert_eq!((at(3), at(4), at(8), at(-1)), (Some(4), None, None, None));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn get(&self, coord: &TensorCoordinate<C>) -> Option<B::Element> {
        let range = self.range(coord, 1)?;
        self.buffer.elements().get(range.start).copied()
    }

    /// `N` consecutive elements from a coordinate's offset (CK's
    /// `get_vectorized_elements`): `None` when the coordinate is not valid
    /// or the vector leaves the buffer. The coordinate's validity stands
    /// for the whole vector, as in CK Tile.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let data: Vec<u16> = (0..32).collect();
    /// let d = make_naive_tensor_descriptor((Number::<4>, Number::<8>), (Number::<8>, Number::<1>))?;
    /// let view = make_tensor_view(&data[..], d);
    /// assert_eq!(view.get_vector::<4>(&make_tensor_coordinate(&d, [2, 4])), Some([20, 21, 22, 23]));
    /// assert_eq!(view.get_vector::<4>(&make_tensor_coordinate(&d, [3, 6])), None); // past the buffer
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn get_vector<const N: usize>(&self, coord: &TensorCoordinate<C>) -> Option<[B::Element; N]> {
        let range = self.range(coord, N)?;
        self.buffer.elements().get(range)?.try_into().ok()
    }
}

impl<B: BufferMut, C: Chain> TensorView<B, C> {
    /// Writes the element at a coordinate (CK's `set_vectorized_elements` of
    /// one element) when the coordinate is valid and inside the buffer;
    /// returns whether it wrote.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor((3usize,), (Number::<1>,))?;
    /// let d = transform_tensor_descriptor(d, (make_right_pad_transform(3usize, 1usize),), (ids![0],), (ids![0],))?;
    /// let mut view = make_tensor_view([0; 4], d);
    /// assert!(view.set(&make_tensor_coordinate(&d, [2]), 7));
    /// assert!(!view.set(&make_tensor_coordinate(&d, [3]), 8)); // padding: not written
    /// assert_eq!(view.into_buffer(), [0, 0, 7, 0]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn set(&mut self, coord: &TensorCoordinate<C>, value: B::Element) -> bool {
        self.set_vector(coord, [value])
    }

    /// Writes `N` consecutive elements from a coordinate's offset (CK's
    /// `set_vectorized_elements`) when the coordinate is valid and the
    /// vector lies inside the buffer; returns whether it wrote.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let mut data = [0u8; 8];
    /// let d = make_naive_tensor_descriptor_packed((Number::<2>, Number::<4>))?;
    /// let mut view = make_tensor_view(&mut data[..], d);
    /// assert!(view.set_vector(&make_tensor_coordinate(&d, [1, 0]), [1, 2, 3, 4]));
    /// assert!(!view.set_vector(&make_tensor_coordinate(&d, [1, 2]), [5, 6, 7, 8])); // past the buffer
    /// assert_eq!(data, [0, 0, 0, 0, 1, 2, 3, 4]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn set_vector<const N: usize>(&mut self, coord: &TensorCoordinate<C>, values: [B::Element; N]) -> bool {
        let Some(range) = self.range(coord, N) else {
            return false;
        };
        match self.buffer.elements_mut().get_mut(range) {
            Some(slots) => {
                slots.copy_from_slice(&values);
                true
            }
            None => false,
        }
    }
}

/// CK Tile's `transform_tensor_view(view, transforms, lower_ids, upper_ids)`:
/// the same buffer through
/// [`transform_tensor_descriptor`](super::transform_tensor_descriptor) of
/// the view's descriptor (its errors, its compile-time checks).
///
/// ```
/// use cktile_core::prelude::*;
/// let data: Vec<i32> = (0..6).collect();
/// let d = make_naive_tensor_descriptor_packed((Number::<2>, Number::<3>))?;
/// // The transpose: (k, m) -> (m, k).
/// let t = transform_tensor_view(
///     make_tensor_view(&data[..], d),
///     (make_pass_through_transform(Number::<3>), make_pass_through_transform(Number::<2>)),
///     (ids![1], ids![0]),
///     (ids![0], ids![1]),
/// )?;
/// assert_eq!(t.get(&make_tensor_coordinate(t.descriptor(), [2, 1])), Some(5));
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
#[allow(clippy::type_complexity)]
pub fn transform_tensor_view<B: Buffer, C: Chain, X: TransformList, Lo: IdLists, Up: IdLists>(
    view: TensorView<B, C>,
    transforms: X,
    lower: Lo,
    upper: Up,
) -> Result<TensorView<B, Transformed<C, X, Lo, Up>>, Error> {
    let desc = transform_tensor_descriptor(view.desc, transforms, lower, upper)?;
    Ok(TensorView { buffer: view.buffer, desc })
}

/// Whether [`pad_tensor_view`] pads a dimension: `DoPad::<true>` right-pads
/// it to a multiple of its tile length, `DoPad::<false>` leaves it (CK's
/// `sequence<bool...>` of `DoPads`).
///
/// ```
/// use cktile_core::typed::{DoPad, PadFlag};
/// assert!(<DoPad<true> as PadFlag>::PADS && !<DoPad<false> as PadFlag>::PADS);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DoPad<const PAD: bool>;

/// The transform [`pad_tensor_view`] applies to one dimension: implemented
/// by [`DoPad<true>`] (a right pad) and [`DoPad<false>`] (a pass-through).
///
/// ```
/// use cktile_core::typed::{DoPad, PadFlag};
/// use cktile_core::transforms::typed::TypedTransform;
/// let pad = <DoPad<true> as PadFlag>::transform(0, 10, 4)?;
/// assert_eq!(pad.upper_lengths(&[10, 0, 0, 0, 0, 0, 0, 0])[0], 12);
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub trait PadFlag: Copy {
    /// Whether the dimension is padded.
    const PADS: bool;
    /// The dimension's transform.
    type Transform: TypedTransform;
    /// The transform of dimension `dim`, of length `length`, for tiles of
    /// `tile` elements.
    fn transform(dim: usize, length: Index, tile: usize) -> Result<Self::Transform, Error>;
    /// The same transform and whether [`transform`](Self::transform)
    /// accepts it, without branches: what [`pad_tensor_view`] decides
    /// with, so a kernel that pads a view pays a test, not the error.
    ///
    /// ```
    /// use cktile_core::typed::{DoPad, PadFlag};
    /// let (pad, ok) = <DoPad<true> as PadFlag>::quick(10, 4);
    /// assert!(ok && pad.right == 2);
    /// assert!(!<DoPad<true> as PadFlag>::quick(10, 0).1);
    /// assert!(!<DoPad<true> as PadFlag>::quick(i64::MAX, 4).1);
    /// ```
    fn quick(length: Index, tile: usize) -> (Self::Transform, bool);
}

impl PadFlag for DoPad<true> {
    const PADS: bool = true;
    type Transform = RightPad<usize, usize>;
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn transform(dim: usize, length: Index, tile: usize) -> Result<Self::Transform, Error> {
        let (length, pad) = padding(dim, length, tile)?;
        Ok(make_right_pad_transform(length, pad))
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn quick(length: Index, tile: usize) -> (Self::Transform, bool) {
        // A validated descriptor's lengths are at least 1.
        let (length, tile) = (length as u64, tile as u64);
        let (padded, overflow) = length.div_ceil(tile.max(1)).overflowing_mul(tile);
        let pad = padded.wrapping_sub(length);
        // `padding`'s conversions to usize, which fail only where usize is narrower than 64 bits.
        let fits_usize = usize::try_from(length).is_ok() & usize::try_from(pad).is_ok();
        let ok = (tile != 0) & !overflow & (padded <= i64::MAX as u64) & fits_usize;
        (make_right_pad_transform(length as usize, pad as usize), ok)
    }
}

impl PadFlag for DoPad<false> {
    const PADS: bool = false;
    type Transform = PassThrough<usize>;
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn transform(_: usize, length: Index, _: usize) -> Result<Self::Transform, Error> {
        Ok(make_pass_through_transform(length as usize))
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn quick(length: Index, _: usize) -> (Self::Transform, bool) {
        (make_pass_through_transform(length as usize), true)
    }
}

/// The error of [`pad_tensor_view`] for dimension `dim`.
const fn pad_error(dim: usize, source: cktile_transforms::Error) -> Error {
    Error::descriptor(DescriptorProblem::Transform { item: dim, source })
}

/// A dimension's length and its right pad up to a multiple of `tile`:
/// `ceil(length / tile) * tile - length`, refused for a zero tile and when
/// the padded length does not fit a signed 64-bit index.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
fn padding(dim: usize, length: Index, tile: usize) -> Result<(usize, usize), Error> {
    // A validated descriptor's lengths are at least 1.
    let length = length as u64;
    let zero = cktile_transforms::Error::ZeroLength {
        transform: "pad_tensor_view",
        parameter: "tile_lengths",
        position: Some(dim),
    };
    let tile = match tile as u64 {
        0 => return Err(pad_error(dim, zero)),
        t => t,
    };
    let padded = length.div_ceil(tile) as u128 * tile as u128;
    if padded > i64::MAX as u128 {
        return Err(pad_error(
            dim,
            cktile_transforms::Error::Overflow {
                transform: "pad_tensor_view",
                quantity: "padded length",
                value: padded as i128,
            },
        ));
    }
    // Both fit a signed 64-bit index, so they fit `usize` on the 64-bit
    // targets kernels run on; elsewhere a value past `usize` is refused.
    let too_large = |value: u64| pad_error(dim, cktile_transforms::Error::ValueTooLarge { value });
    let pad = padded as u64 - length;
    match (usize::try_from(length), usize::try_from(pad)) {
        (Ok(length), Ok(pad)) => Ok((length, pad)),
        (Err(_), _) => Err(too_large(length)),
        (_, Err(_)) => Err(too_large(pad)),
    }
}

/// The tile lengths of [`pad_tensor_view`], one [`Value`] per dimension,
/// with their [`DoPad`] flags `F`: the stage of pads the view gets.
///
/// ```
/// use cktile_core::typed::{DoPad, TileLengths};
/// use cktile_core::Number;
/// let x = (Number::<4>, 8usize).transforms((DoPad::<true>, DoPad::<false>), &[10, 3, 0, 0, 0, 0, 0, 0])?;
/// assert_eq!((x.0.len, x.0.right, x.1.len), (10, 2, 3));
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub trait TileLengths<F>: Copy {
    /// The pad stage's transforms, one per dimension.
    type Transforms: TransformList;
    /// The stage's ids: dimension `i` to dimension `i`.
    type Ids: IdLists + Default;
    /// The transforms for a view of top lengths `lengths`.
    fn transforms(self, flags: F, lengths: &Indices) -> Result<Self::Transforms, Error>;
}

macro_rules! tile_lengths {
    ($(($($t:ident $f:ident $i:literal),+);)+) => {$(
        impl<$($t: Value,)+ $($f: PadFlag,)+> TileLengths<($($f,)+)> for ($($t,)+) {
            type Transforms = ($($f::Transform,)+);
            type Ids = ($((Number<$i>,),)+);
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            #[allow(non_snake_case)]
            fn transforms(self, _: ($($f,)+), lengths: &Indices) -> Result<Self::Transforms, Error> {
                let ($($t,)+) = self;
                // Decided by the quick forms; the checked ones name the first refusal.
                let mut ok = true;
                let out = ($({
                    let (x, good) = $f::quick(lengths[$i], $t.get());
                    ok &= good;
                    x
                },)+);
                if ok {
                    return Ok(out);
                }
                #[cfg(not(any(target_arch = "amdgpu", target_arch = "nvptx64")))]
                {
                    $($f::transform($i, lengths[$i], $t.get())?;)+
                }
                Err(Error::descriptor(DescriptorProblem::RefusedOnDevice))
            }
        }
    )+};
}

tile_lengths! {
    (A FA 0);
    (A FA 0, B FB 1);
    (A FA 0, B FB 1, C FC 2);
    (A FA 0, B FB 1, C FC 2, D FD 3);
    (A FA 0, B FB 1, C FC 2, D FD 3, E FE 4);
    (A FA 0, B FB 1, C FC 2, D FD 3, E FE 4, G FG 5);
    (A FA 0, B FB 1, C FC 2, D FD 3, E FE 4, G FG 5, H FH 6);
    (A FA 0, B FB 1, C FC 2, D FD 3, E FE 4, G FG 5, H FH 6, I FI 7);
}

/// CK Tile's `pad_tensor_view(view, tile_lengths, do_pads)`: each dimension
/// whose flag is [`DoPad<true>`] right-padded to the next multiple of its
/// tile length (`make_right_pad_transform(length, pad)`), the others passed
/// through, by [`transform_tensor_view`]. The pads are runtime values
/// (computed from the view's lengths). Errors: a zero tile length or a
/// padded length past the signed 64-bit range (naming the dimension; in a
/// GPU kernel, [`DescriptorProblem::RefusedOnDevice`], as the typed
/// builders refuse there, the verdict being [`PadFlag::quick`]'s); a
/// tuple of tile lengths whose arity is not the view's fails to compile.
///
/// ```
/// use cktile_core::prelude::*;
/// // CK's global A view: M = 100, K = 60 with row stride 72, tiles of 64 x 32.
/// let data = vec![1.5f32; 100 * 72];
/// let d = make_naive_tensor_descriptor((100usize, 60usize), (72usize, Number::<1>))?;
/// let a = pad_tensor_view(make_tensor_view(&data[..], d), (Number::<64>, Number::<32>), (DoPad::<true>, DoPad::<true>))?;
/// assert_eq!(a.descriptor().lengths().as_slice(), &[128, 64]);
/// let c = make_tensor_coordinate(a.descriptor(), [99, 60]); // K padding
/// assert_eq!(a.get(&c), None);
/// assert_eq!(a.get(&make_tensor_coordinate(a.descriptor(), [99, 59])), Some(1.5));
/// // Only M padded; a zero tile is an error naming the dimension.
/// let m_only = pad_tensor_view(make_tensor_view(&data[..], d), (Number::<64>, 0usize), (DoPad::<true>, DoPad::<false>))?;
/// assert_eq!(m_only.descriptor().lengths().as_slice(), &[128, 60]);
/// assert!(pad_tensor_view(make_tensor_view(&data[..], d), (0usize, Number::<32>), (DoPad::<true>, DoPad::<true>)).is_err());
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
#[allow(clippy::type_complexity)]
pub fn pad_tensor_view<B: Buffer, C: Chain, T: TileLengths<F>, F>(
    view: TensorView<B, C>,
    tile_lengths: T,
    do_pads: F,
) -> Result<TensorView<B, Transformed<C, T::Transforms, T::Ids, T::Ids>>, Error> {
    let transforms = tile_lengths.transforms(do_pads, &view.desc.chain().lengths())?;
    // Each pad was accepted by its quick verdict, which makes the stage
    // valid: a right pad of the dimension's own length with a padded length
    // that fits, or a pass-through of it, each dimension to itself. Built
    // without checking it again (`pad_stages_are_valid_when_quick_accepts`
    // holds `Built::accepts` to it); the ids' structure is still checked at
    // compile time.
    let () = Core::<Transformed<C, T::Transforms, T::Ids, T::Ids>>::CHECK;
    let chain =
        Transformed { prev: *view.desc.chain(), transforms, lower: T::Ids::default(), upper: T::Ids::default() };
    Ok(TensorView { buffer: view.buffer, desc: TensorDescriptor::from_valid(chain) })
}
