//! Typed tensor coordinates: CK Tile's `make_tensor_coordinate`,
//! `move_tensor_coordinate` and `coordinate_has_valid_offset` for a
//! [`TensorDescriptor`].
//!
//! A [`TensorCoordinate`] holds what a hand-written kernel keeps in
//! registers: the top index (one entry per top dimension) and its offset.
//! Nothing of the chain is stored; the coordinate's type names the chain,
//! so it is moved only through the descriptor it was made for.
//!
//! A move adds the step to the top index and computes the offset of the
//! new index through the chain's own evaluation ([`Chain::offset`], the
//! transforms' formulas), so a moved coordinate is a fresh one by
//! construction. This is what a person writes, and LLVM turns it into what a
//! person would optimise it to: inside a loop with a compile-time step the
//! offset becomes an induction variable (`offset += 64`), and after one move
//! by a runtime step the first offset is dead. (Adding the step's offset to
//! the stored one instead, CK Tile's update of each level for affine
//! transforms, measured worse in the proof kernels: one more multiply by a
//! runtime stride for a runtime step, and no gain in a loop.) Indices wrap
//! rather than overflow, as the transforms' formulas do: a coordinate may
//! leave the tensor, and [`coordinate_has_valid_offset`] says whether it did,
//! as in CK Tile.
//!
//! ```
//! use cktile_core::prelude::*;
//! let d = make_naive_tensor_descriptor((Number::<4>, 8usize), (16usize, Number::<1>))?;
//! let mut c = make_tensor_coordinate(&d, [1, 2]);
//! assert_eq!(c.offset(), 18);
//! assert_eq!(move_tensor_coordinate(&d, &mut c, [2, 3]), 35);
//! assert_eq!((c.top(), c.offset()), (&[3, 5], 53));
//! assert_eq!(c, make_tensor_coordinate(&d, [3, 5]));
//! # Ok::<(), cktile_core::Error>(())
//! ```
//!
//! A step of the wrong arity, or a coordinate of another descriptor's
//! chain, does not compile:
//!
//! ```compile_fail
//! use cktile_core::prelude::*;
//! let d = make_naive_tensor_descriptor_packed((Number::<4>, Number::<8>)).unwrap();
//! let mut c = make_tensor_coordinate(&d, [1, 2]);
//! move_tensor_coordinate(&d, &mut c, [1]); // this descriptor or adaptor takes a coordinate `[i64; 2]`
//! ```
//!
//! ```compile_fail
//! use cktile_core::prelude::*;
//! let a = make_naive_tensor_descriptor_packed((Number::<4>, Number::<8>)).unwrap();
//! let b = make_naive_tensor_descriptor_packed((Number::<8>, Number::<4>)).unwrap();
//! let mut c = make_tensor_coordinate(&a, [1, 2]);
//! move_tensor_coordinate(&b, &mut c, [0, 1]); // a coordinate of `a`'s chain
//! ```

use super::{Chain, CoordinateOf, TensorDescriptor, Top, indices};
use crate::Index;
use cktile_transforms::static_for;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::marker::PhantomData;

/// CK Tile's `tensor_coordinate` for a typed descriptor of chain `C`: the top
/// index and its offset.
///
/// ```
/// use cktile_core::prelude::*;
/// let d = make_naive_tensor_descriptor_packed((Number::<4>, Number::<8>))?;
/// let c = make_tensor_coordinate(&d, [3, 1]);
/// assert_eq!((c.top(), c.offset()), (&[3, 1], 25));
/// // Two top indices and an offset, nothing else.
/// assert_eq!(core::mem::size_of_val(&c), 3 * core::mem::size_of::<i64>());
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub struct TensorCoordinate<C: Chain> {
    top: Top<C>,
    offset: Index,
    chain: PhantomData<C>,
}

impl<C: Chain> TensorCoordinate<C> {
    /// The top index (CK's `get_index`), one entry per top dimension.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor_packed((Number::<4>, Number::<8>))?;
    /// assert_eq!(make_tensor_coordinate(&d, [3, 1]).top(), &[3, 1]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn top(&self) -> &Top<C> {
        &self.top
    }

    /// The offset of the top index (CK's `get_offset`).
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// let d = make_naive_tensor_descriptor((Number::<4>, Number::<8>), (Number::<100>, Number::<1>))?;
    /// assert_eq!(make_tensor_coordinate(&d, [2, 5]).offset(), 205);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn offset(&self) -> Index {
        self.offset
    }
}

impl<C: Chain> Clone for TensorCoordinate<C> {
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<C: Chain> Copy for TensorCoordinate<C> {}

impl<C: Chain> PartialEq for TensorCoordinate<C> {
    fn eq(&self, other: &Self) -> bool {
        self.top == other.top && self.offset == other.offset
    }
}

impl<C: Chain> Eq for TensorCoordinate<C> {}

impl<C: Chain> Hash for TensorCoordinate<C> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.top.hash(state);
        self.offset.hash(state);
    }
}

impl<C: Chain> fmt::Debug for TensorCoordinate<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TensorCoordinate").field("top", &self.top).field("offset", &self.offset).finish()
    }
}

/// The top index array of a coordinate given as a slice (of the chain's
/// arity, as [`CoordinateOf`] guarantees).
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
fn top_of<C: Chain>(top: &[Index]) -> Top<C> {
    let full = indices(top);
    let mut out = Top::<C>::default();
    let slots = out.as_mut();
    static_for!(slots.len(), |j| slots[j] = full[j]);
    out
}

/// CK Tile's `make_tensor_coordinate(desc, index)`: the coordinate of a top
/// index, its offset computed once. No range check, as in CK Tile
/// ([`coordinate_has_valid_offset`] asks).
///
/// ```
/// use cktile_core::prelude::*;
/// let d = make_naive_tensor_descriptor((Number::<4>, 8usize), (Number::<100>, Number::<1>))?;
/// let c = make_tensor_coordinate(&d, [2, 5]);
/// assert_eq!(c.offset(), d.calculate_offset([2, 5]));
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn make_tensor_coordinate<C: Chain>(
    desc: &TensorDescriptor<C>,
    top: impl CoordinateOf<Top<C>>,
) -> TensorCoordinate<C> {
    let top = top.as_slice();
    TensorCoordinate { top: top_of::<C>(top), offset: desc.chain.offset(&indices(top)), chain: PhantomData }
}

/// CK Tile's `move_tensor_coordinate(desc, coord, step)`: adds `step` to the
/// top index and sets the offset to the new index's, returning the offset's
/// change. The result equals [`make_tensor_coordinate`] of the new top
/// index. Indices wrap rather than overflow, as the transforms' formulas
/// do; a coordinate may leave the tensor (ask [`coordinate_has_valid_offset`]).
///
/// ```
/// use cktile_core::prelude::*;
/// // A K loop over CK's GEMM A LDS block (M=64, K=64, KPack=8, xor-swizzled).
/// let d = make_naive_tensor_descriptor((Number::<8>, Number::<64>, Number::<8>), (Number::<8>, Number::<64>, Number::<1>))?;
/// let d = transform_tensor_descriptor(
///     d,
///     (make_xor_transform((Number::<64>, Number::<8>)), make_pass_through_transform(Number::<8>)),
///     (ids![1, 0], ids![2]),
///     (ids![1, 0], ids![2]),
/// )?;
/// let d = transform_tensor_descriptor(
///     d,
///     (make_pass_through_transform(Number::<64>), make_merge_transform((Number::<8>, Number::<8>))),
///     (ids![1], ids![0, 2]),
///     (ids![0], ids![1]),
/// )?;
/// let mut c = make_tensor_coordinate(&d, [3, 0]);
/// for k in (0..64).step_by(8) {
///     assert_eq!(c.offset(), 64 * 3 + 8 * ((k / 8) ^ 3));
///     move_tensor_coordinate(&d, &mut c, [0, 8]);
/// }
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn move_tensor_coordinate<C: Chain>(
    desc: &TensorDescriptor<C>,
    coord: &mut TensorCoordinate<C>,
    step: impl CoordinateOf<Top<C>>,
) -> Index {
    let step = indices(step.as_slice());
    let top = coord.top.as_mut();
    static_for!(top.len(), |j| top[j] = top[j].wrapping_add(step[j]));
    let offset = desc.chain.offset(&indices(coord.top.as_ref()));
    let diff = offset.wrapping_sub(coord.offset);
    coord.offset = offset;
    diff
}

/// CK Tile's `coordinate_has_valid_offset(desc, coord)`: the top index lies
/// inside the top lengths and no pad-family transform maps it to padding.
///
/// ```
/// use cktile_core::prelude::*;
/// let d = make_naive_tensor_descriptor((5usize,), (Number::<1>,))?;
/// let d = transform_tensor_descriptor(d, (make_right_pad_transform(5usize, 3usize),), (ids![0],), (ids![0],))?;
/// let mut c = make_tensor_coordinate(&d, [3]);
/// assert!(coordinate_has_valid_offset(&d, &c));
/// move_tensor_coordinate(&d, &mut c, [3]); // 6: in the padding
/// assert!(!coordinate_has_valid_offset(&d, &c));
/// move_tensor_coordinate(&d, &mut c, [2]); // 8: past the padded length
/// assert!(!coordinate_has_valid_offset(&d, &c));
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn coordinate_has_valid_offset<C: Chain>(desc: &TensorDescriptor<C>, coord: &TensorCoordinate<C>) -> bool {
    desc.valid_top(coord.top.as_ref())
}

/// CK Tile's `coordinate_has_valid_offset_assuming_top_index_is_valid(desc,
/// coord)`: only whether a pad-family transform maps the top index to
/// padding, for a caller that knows the index is inside the top lengths.
///
/// ```
/// use cktile_core::prelude::*;
/// let d = make_naive_tensor_descriptor((5usize,), (Number::<1>,))?;
/// let d = transform_tensor_descriptor(d, (make_right_pad_transform(5usize, 3usize),), (ids![0],), (ids![0],))?;
/// let (real, pad) = (make_tensor_coordinate(&d, [4]), make_tensor_coordinate(&d, [5]));
/// assert!(coordinate_has_valid_offset_assuming_top_index_is_valid(&d, &real));
/// assert!(!coordinate_has_valid_offset_assuming_top_index_is_valid(&d, &pad));
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn coordinate_has_valid_offset_assuming_top_index_is_valid<C: Chain>(
    desc: &TensorDescriptor<C>,
    coord: &TensorCoordinate<C>,
) -> bool {
    desc.chain.is_valid(&indices(coord.top.as_ref()))
}
