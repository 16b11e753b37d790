//! Generic kernel code without typenum: [`DescriptorOf<N>`] is "a typed
//! descriptor with `N` top dimensions" and [`AdaptorOf<TOP, BOTTOM>`] "a
//! typed adaptor from `TOP` to `BOTTOM` dimensions", as plain const
//! generics, so a kernel's helper function reads
//!
//! ```
//! use cktile_core::typed::DescriptorOf;
//! fn corner<D: DescriptorOf<2>>(d: &D) -> i64 {
//!     let [m, n] = d.lengths();
//!     d.calculate_offset([m - 1, n - 1])
//! }
//! # use cktile_core::prelude::*;
//! # let d = make_naive_tensor_descriptor_packed((Number::<4>, 8usize))?;
//! # assert_eq!(corner(&d), 31);
//! # Ok::<(), cktile_core::Error>(())
//! ```
//!
//! where the bound on [`TensorDescriptor`]'s own methods would need
//! `C: Chain<NumTop = typenum::U2>` and its `where` clauses.
//!
//! How a wrong rank is reported, and why the traits are built that way:
//! see [`DescriptorOf`].
//!
//! Every method is `#[inline(always)]` in kernels and optimised builds (see
//! `core/build.rs`) and calls what the descriptor's or adaptor's own method
//! calls: the traits cost nothing.

use super::{Chain, TensorAdaptor, TensorDescriptor, indices};
use crate::Index;
use crate::adaptor::typed::AdaptorChain;
use cktile_transforms::{Count, MAX_DIMS};

/// The coordinate type of a descriptor's chain `C` (`[Index; K]`).
type Top<C> = <<C as Chain>::NumTop as Count>::Coordinate;
/// The top coordinate type of an adaptor's chain `A`.
type AdaptorTop<A> = <<A as AdaptorChain>::NumTop as Count>::Coordinate;
/// The bottom coordinate type of an adaptor's chain `A`.
type AdaptorBottom<A> = <<A as AdaptorChain>::NumBottom as Count>::Coordinate;

/// A coordinate type with `N` entries: implemented for `[Index; N]` only.
/// The rank check behind [`DescriptorOf`] and [`AdaptorOf`] (see
/// [`DescriptorOf`] for why the check sits on the coordinate type): a
/// descriptor or adaptor of another rank fails this bound, with this
/// message.
///
/// ```
/// use cktile_core::typed::TopDims;
/// fn two<A: TopDims<2>>() {}
/// two::<[i64; 2]>();
/// ```
///
/// ```compile_fail
/// use cktile_core::typed::TopDims;
/// fn two<A: TopDims<2>>() {}
/// two::<[i64; 3]>(); // this code needs 2 top dimensions; ... `[i64; 3]` has another number
/// ```
#[diagnostic::on_unimplemented(
    message = "this code needs {N} top dimensions; a descriptor or adaptor whose coordinates are `{Self}` has another number",
    label = "a descriptor or adaptor with {N} top dimensions is needed here",
    note = "`DescriptorOf<N>` and `AdaptorOf<TOP, BOTTOM>` hold for typed descriptors and adaptors with exactly N (TOP) top dimensions; `lengths()` or `top_lengths()` lists them"
)]
pub trait TopDims<const N: usize> {}

impl<const N: usize> TopDims<N> for [Index; N] {}

/// A bottom coordinate type with `N` entries: implemented for `[Index; N]`
/// only; the bottom rank check of [`AdaptorOf`].
///
/// ```
/// use cktile_core::typed::BottomDims;
/// fn two<A: BottomDims<2>>() {}
/// two::<[i64; 2]>();
/// ```
#[diagnostic::on_unimplemented(
    message = "this code needs an adaptor with {N} bottom dimensions; one whose bottom coordinates are `{Self}` has another number",
    label = "an adaptor with {N} bottom dimensions is needed here",
    note = "`AdaptorOf<TOP, BOTTOM>` holds for typed adaptors with exactly BOTTOM bottom dimensions; `bottom_lengths()` lists them"
)]
pub trait BottomDims<const N: usize> {}

impl<const N: usize> BottomDims<N> for [Index; N] {}

/// The first `N` entries of an index array.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
fn first<const N: usize>(all: &[Index; MAX_DIMS]) -> [Index; N] {
    core::array::from_fn(|i| all[i % MAX_DIMS])
}

/// A typed descriptor with `N` top dimensions, whatever its chain: the
/// bound of generic kernel code (`fn f<D: DescriptorOf<2>>(d: &D)`), with
/// the methods such code needs, taking and returning `[Index; N]`. Each
/// calls what [`TensorDescriptor`]'s method of the same name calls.
///
/// ```
/// use cktile_core::prelude::*;
/// use cktile_core::typed::DescriptorOf;
///
/// /// The offsets of a row, for any 2-D descriptor.
/// fn row<D: DescriptorOf<2>>(d: &D, m: i64) -> [i64; 4] {
///     core::array::from_fn(|k| d.calculate_offset([m, k as i64]))
/// }
/// let packed = make_naive_tensor_descriptor_packed((Number::<4>, Number::<4>))?;
/// let strided = make_naive_tensor_descriptor((4usize, 4usize), (Number::<10>, Number::<2>))?;
/// assert_eq!(row(&packed, 1), [4, 5, 6, 7]);
/// assert_eq!(row(&strided, 1), [10, 12, 14, 16]);
/// # Ok::<(), cktile_core::Error>(())
/// ```
///
/// A descriptor of another rank does not compile, and the message names
/// the ranks as array types:
///
/// ```compile_fail
/// use cktile_core::prelude::*;
/// use cktile_core::typed::DescriptorOf;
/// fn f<D: DescriptorOf<2>>(d: &D) -> i64 { d.calculate_offset([1, 2]) }
/// let d = make_naive_tensor_descriptor_packed((Number::<2>, Number::<4>, Number::<8>)).unwrap();
/// f(&d); // this code needs 2 top dimensions; ... coordinates are `[i64; 3]` has another number
/// ```
///
/// # How a wrong rank is reported
///
/// The traits are implemented once for every rank, with the rank checked
/// on the descriptor's coordinate type: `TensorDescriptor<C>` is a
/// `DescriptorOf<N>` when its coordinate `[Index; K]` is a [`TopDims<N>`],
/// which only `[Index; N]` is. A descriptor of another rank is then an
/// unsatisfied bound on two array types, reported with [`TopDims`]'s
/// message ("this code needs 2 top dimensions; a descriptor or adaptor
/// whose coordinates are `[i64; 3]` has another number"), and the notes
/// name arrays and the descriptor's own type, never a typenum integer.
///
/// One impl per typenum count (`impl<C: Chain<NumTop = U2>>
/// DescriptorOf<2> for TensorDescriptor<C>`, for ranks 0 to 8) reads more
/// directly but reports worse: with a single impl whose self type matches,
/// rustc (1.95) selects it and reports the rank as a type mismatch of the
/// associated type, `error[E0271]: type mismatch resolving <Packed<(Number<2>,
/// Number<4>, Number<8>)> as Chain>::NumTop == UInt<UInt<UTerm, B1>, B0>`
/// ("expected `UInt<UInt<UTerm, B1>, B0>`, found `UInt<UInt<UTerm, B1>,
/// B1>`"), the typenum spelling these traits exist to hide; and
/// `#[diagnostic::on_unimplemented]` is not consulted for a mismatch.
pub trait DescriptorOf<const N: usize>: Copy {
    /// The offset of a top coordinate (CK's `calculate_offset`; no range
    /// checks): [`TensorDescriptor::calculate_offset`].
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// use cktile_core::typed::DescriptorOf;
    /// fn at<D: DescriptorOf<2>>(d: &D) -> i64 { d.calculate_offset([3, 7]) }
    /// assert_eq!(at(&make_naive_tensor_descriptor_packed((Number::<4>, Number::<8>))?), 31);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    fn calculate_offset(&self, top: [Index; N]) -> Index;

    /// Inside the top lengths and not mapped to padding (CK's
    /// `coordinate_has_valid_offset`):
    /// [`TensorDescriptor::coordinate_has_valid_offset`].
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// use cktile_core::typed::DescriptorOf;
    /// fn valid<D: DescriptorOf<1>>(d: &D, i: i64) -> bool { d.coordinate_has_valid_offset([i]) }
    /// let d = make_naive_tensor_descriptor_packed((Number::<4>,))?;
    /// let d = transform_tensor_descriptor(d, (make_pad_transform(Number::<4>, 1usize, 1usize),), (ids![0],), (ids![0],))?;
    /// assert_eq!([valid(&d, -1), valid(&d, 0), valid(&d, 1), valid(&d, 4), valid(&d, 5), valid(&d, 6)], [false, false, true, true, false, false]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    fn coordinate_has_valid_offset(&self, top: [Index; N]) -> bool;

    /// The offset of a valid coordinate, `None` for another:
    /// [`TensorDescriptor::offset_if_valid`].
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// use cktile_core::typed::DescriptorOf;
    /// fn get<D: DescriptorOf<2>>(d: &D, top: [i64; 2]) -> Option<i64> { d.offset_if_valid(top) }
    /// let d = make_naive_tensor_descriptor_packed((Number::<4>, 8usize))?;
    /// assert_eq!((get(&d, [1, 1]), get(&d, [1, 8])), (Some(9), None));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    fn offset_if_valid(&self, top: [Index; N]) -> Option<Index>;

    /// The top lengths: [`TensorDescriptor::lengths`], as an array.
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// use cktile_core::typed::DescriptorOf;
    /// fn lengths<D: DescriptorOf<3>>(d: &D) -> [i64; 3] { d.lengths() }
    /// assert_eq!(lengths(&make_naive_tensor_descriptor_packed((Number::<2>, 3usize, Number::<4>))?), [2, 3, 4]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    fn lengths(&self) -> [Index; N];

    /// CK's `get_element_space_size`: [`TensorDescriptor::element_space_size`].
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// use cktile_core::typed::DescriptorOf;
    /// fn space<D: DescriptorOf<2>>(d: &D) -> i64 { d.element_space_size() }
    /// assert_eq!(space(&make_naive_tensor_descriptor((Number::<4>, 8usize), (Number::<10>, Number::<1>))?), 38);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    fn element_space_size(&self) -> Index;
}

impl<C: Chain, const N: usize> DescriptorOf<N> for TensorDescriptor<C>
where
    Top<C>: TopDims<N>,
{
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn calculate_offset(&self, top: [Index; N]) -> Index {
        self.chain().offset(&indices(&top))
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn coordinate_has_valid_offset(&self, top: [Index; N]) -> bool {
        self.valid_top(&top)
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn offset_if_valid(&self, top: [Index; N]) -> Option<Index> {
        if self.valid_top(&top) { Some(self.chain().offset(&indices(&top))) } else { None }
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn lengths(&self) -> [Index; N] {
        first(&self.chain().lengths())
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn element_space_size(&self) -> Index {
        TensorDescriptor::element_space_size(self)
    }
}

/// A typed adaptor from `TOP` top dimensions to `BOTTOM` bottom dimensions,
/// whatever its chain: the bound of generic code over adaptors (a tile
/// distribution's P/Y to X mapping, say), with
/// [`TensorAdaptor`]'s methods on arrays.
///
/// ```
/// use cktile_core::prelude::*;
/// use cktile_core::typed::AdaptorOf;
///
/// /// Where the last top index lands.
/// fn last<A: AdaptorOf<1, 2>>(a: &A) -> [i64; 2] {
///     let [n] = a.top_lengths();
///     a.calculate_bottom_index([n - 1])
/// }
/// let a = make_single_stage_tensor_adaptor((Number::<4>, 8usize), (make_merge_transform((Number::<4>, 8usize)),), (ids![0, 1],), (ids![0],))?;
/// assert_eq!(last(&a), [3, 7]);
/// # Ok::<(), cktile_core::Error>(())
/// ```
///
/// ```compile_fail
/// use cktile_core::prelude::*;
/// use cktile_core::typed::AdaptorOf;
/// fn f<A: AdaptorOf<1, 3>>(a: &A) -> [i64; 3] { a.calculate_bottom_index([0]) }
/// let a = make_single_stage_tensor_adaptor((Number::<4>, Number::<8>), (make_merge_transform((Number::<4>, Number::<8>)),), (ids![0, 1],), (ids![0],)).unwrap();
/// f(&a); // this code needs an adaptor with 3 bottom dimensions; ...
/// ```
pub trait AdaptorOf<const TOP: usize, const BOTTOM: usize>: Copy {
    /// CK's `calculate_bottom_index` (no range checks):
    /// [`TensorAdaptor::calculate_bottom_index`].
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// use cktile_core::typed::AdaptorOf;
    /// fn bottom<A: AdaptorOf<2, 1>>(a: &A) -> [i64; 1] { a.calculate_bottom_index([1, 5]) }
    /// let a = make_single_stage_tensor_adaptor((Number::<32>,), (make_unmerge_transform((Number::<4>, 8usize)),), (ids![0],), (ids![0, 1],))?;
    /// assert_eq!(bottom(&a), [13]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    fn calculate_bottom_index(&self, top: [Index; TOP]) -> [Index; BOTTOM];

    /// The top lengths: [`TensorAdaptor::top_lengths`].
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// use cktile_core::typed::AdaptorOf;
    /// fn top<A: AdaptorOf<2, 1>>(a: &A) -> [i64; 2] { a.top_lengths() }
    /// let a = make_single_stage_tensor_adaptor((Number::<32>,), (make_unmerge_transform((Number::<4>, 8usize)),), (ids![0],), (ids![0, 1],))?;
    /// assert_eq!(top(&a), [4, 8]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    fn top_lengths(&self) -> [Index; TOP];

    /// The bottom lengths: [`TensorAdaptor::bottom_lengths`].
    ///
    /// ```
    /// use cktile_core::prelude::*;
    /// use cktile_core::typed::AdaptorOf;
    /// fn bottom<A: AdaptorOf<2, 1>>(a: &A) -> [i64; 1] { a.bottom_lengths() }
    /// let a = make_single_stage_tensor_adaptor((Number::<32>,), (make_unmerge_transform((Number::<4>, 8usize)),), (ids![0],), (ids![0, 1],))?;
    /// assert_eq!(bottom(&a), [32]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    fn bottom_lengths(&self) -> [Index; BOTTOM];
}

impl<A: AdaptorChain, const TOP: usize, const BOTTOM: usize> AdaptorOf<TOP, BOTTOM> for TensorAdaptor<A>
where
    AdaptorTop<A>: TopDims<TOP>,
    AdaptorBottom<A>: BottomDims<BOTTOM>,
{
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn calculate_bottom_index(&self, top: [Index; TOP]) -> [Index; BOTTOM] {
        first(&self.chain().bottom_index(&indices(&top)))
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn top_lengths(&self) -> [Index; TOP] {
        first(&self.chain().top_lengths())
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn bottom_lengths(&self) -> [Index; BOTTOM] {
        first(&self.chain().bottom_lengths())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::{AdaptorOf, DescriptorOf};
    use crate::Number;
    use crate::ids;
    use crate::transforms::typed::{make_merge_transform, make_pad_transform, make_unmerge_transform};
    use crate::typed::{
        make_naive_tensor_descriptor, make_naive_tensor_descriptor_packed, make_single_stage_tensor_adaptor,
        transform_tensor_descriptor,
    };

    /// What generic kernel code reads of a descriptor of any rank: the
    /// offset of the last element, of `[1; N]`, the validity of `[1; N]`
    /// and of the lengths themselves, the lengths and the element space.
    fn probe<const N: usize, D: DescriptorOf<N>>(d: &D) -> (i64, i64, bool, bool, [i64; N], i64) {
        let lengths = d.lengths();
        let last = d.calculate_offset(core::array::from_fn(|i| lengths[i] - 1));
        (
            last,
            d.calculate_offset([1; N]),
            d.coordinate_has_valid_offset([1; N]),
            d.coordinate_has_valid_offset(lengths),
            lengths,
            d.element_space_size(),
        )
    }

    #[test]
    fn descriptors_of_ranks_one_two_and_three() {
        // Rank 1, padded on both sides: [0, 1) and [5, 7) are padding.
        let d = make_naive_tensor_descriptor_packed((Number::<4>,)).unwrap();
        let d =
            transform_tensor_descriptor(d, (make_pad_transform(Number::<4>, 1usize, 2usize),), (ids![0],), (ids![0],))
                .unwrap();
        assert_eq!(probe(&d), (5, 0, true, false, [7], 4));
        assert_eq!((d.offset_if_valid([0]), d.offset_if_valid([4]), d.offset_if_valid([5])), (None, Some(3), None));

        // Rank 2, strided, one runtime length.
        let d = make_naive_tensor_descriptor((Number::<4>, 8usize), (Number::<10>, Number::<1>)).unwrap();
        assert_eq!(probe(&d), (37, 11, true, false, [4, 8], 38));

        // Rank 3, packed.
        let d = make_naive_tensor_descriptor_packed((2usize, Number::<3>, Number::<4>)).unwrap();
        assert_eq!(probe(&d), (23, 17, true, false, [2, 3, 4], 24));
    }

    fn walk<const T: usize, const B: usize, A: AdaptorOf<T, B>>(a: &A) -> ([i64; T], [i64; B], [i64; B]) {
        let top = a.top_lengths();
        (top, a.bottom_lengths(), a.calculate_bottom_index(core::array::from_fn(|i| top[i] - 1)))
    }

    #[test]
    fn adaptors_of_several_ranks() {
        let merge = make_single_stage_tensor_adaptor(
            (Number::<4>, 8usize),
            (make_merge_transform((Number::<4>, 8usize)),),
            (ids![0, 1],),
            (ids![0],),
        )
        .unwrap();
        assert_eq!(walk(&merge), ([32], [4, 8], [3, 7]));
        let unmerge = make_single_stage_tensor_adaptor(
            (Number::<24>,),
            (make_unmerge_transform((2usize, Number::<3>, Number::<4>)),),
            (ids![0],),
            (ids![0, 1, 2],),
        )
        .unwrap();
        assert_eq!(walk(&unmerge), ([2, 3, 4], [24], [23]));
        assert_eq!(AdaptorOf::<3, 1>::calculate_bottom_index(&unmerge, [1, 0, 2]), [14]);
    }
}
