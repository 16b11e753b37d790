//! The universal GEMM's DRAM views: CK's
//! `make_naive_tensor_view<address_space_enum::global>(p, (rows, K),
//! (stride, 1), number<VECTOR>, number<1>)` padded to the block tile
//! (`pad_tensor_view(view, (MPerBlock, KPerBlock), sequence<true, true>)`),
//! its chain [`DramChain`] the same type for every tile size (the pads
//! are runtime values).
//!
//! ```
//! use cktile_core::ops::gemm::make_dram_view;
//! let a = vec![1u16; 100 * 48];
//! // A 100 x 40 operand (row stride 48), padded to 128 x 32 block tiles: 128 x 64.
//! let view = make_dram_view::<128, 32, _>(&a, 100, 40, 48)?;
//! assert_eq!(view.descriptor().lengths().as_slice(), &[128, 64]);
//! # Ok::<(), cktile_core::Error>(())
//! ```

use crate::error::Error;
use crate::typed::{
    DoPad, NaiveVector, TensorView, Transformed, make_naive_tensor_descriptor_with_vector, make_tensor_view,
    pad_tensor_view,
};
use cktile_transforms::Number as N;
use cktile_transforms::typed::RightPad;

/// The elements a DRAM load moves at once (CK's `VectorSizeA` and
/// `VectorSizeB` for 16-bit elements: 16 bytes), guaranteed contiguous
/// along K.
///
/// ```
/// assert_eq!(cktile_core::ops::gemm::VECTOR, 8);
/// ```
pub const VECTOR: usize = 8;

/// The DRAM view's chain: naive (rows, K) with strides (stride, 1) and
/// [`VECTOR`] elements guaranteed contiguous along K, each dimension
/// right-padded to the block tile. The same type for A and B and for
/// every tile size.
///
/// ```
/// use cktile_core::ops::gemm::{DramChain, make_dram_view};
/// use cktile_core::typed::TensorView;
/// let a = [0u16; 64 * 64];
/// let _: TensorView<&[u16], DramChain> = make_dram_view::<256, 64, _>(&a, 64, 64, 64)?;
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub type DramChain = Transformed<
    NaiveVector<(usize, usize), (usize, N<1>), N<VECTOR>, N<1>>,
    (RightPad<usize, usize>, RightPad<usize, usize>),
    ((N<0>,), (N<1>,)),
    ((N<0>,), (N<1>,)),
>;

/// The DRAM view of a `rows x k` operand (row stride `stride`) in `data`,
/// padded to `ROWS x K` block tiles (`ROWS` is MPerBlock for A,
/// NPerBlock for B). Refused when it is built: K not a multiple of
/// [`VECTOR`] (a vector would run past a row's end into the stride gap;
/// CK's kernels refuse it too, in their host-side `IsSupportedArgument`),
/// or, with more than one row, the row stride not a multiple of it. CK
/// does not check the stride (its AMD buffer loads need only 4-byte
/// alignment); cktile refuses it on every target because the guaranteed
/// vector promises vectors that start aligned to [`VECTOR`] elements, as an
/// nvptx vector load needs (natural alignment). The guaranteed vector's rule is
/// the library's (`make_naive_tensor_descriptor_with_vector`), whose error
/// names the value; and whatever else the builders refuse.
///
/// ```
/// use cktile_core::ops::gemm::make_dram_view;
/// let a = vec![0u16; 1000];
/// let e = make_dram_view::<128, 32, _>(&a, 10, 36, 40).unwrap_err();
/// assert!(e.to_string().contains("length 36, not a multiple of the guaranteed vector length 8"), "{e}");
/// let e = make_dram_view::<128, 32, _>(&a, 10, 40, 44).unwrap_err();
/// assert!(e.to_string().contains("stride 44, not a multiple of the guaranteed vector length 8"), "{e}");
/// ```
#[inline(always)]
pub fn make_dram_view<const ROWS: usize, const K: usize, T: Copy>(
    data: &[T],
    rows: usize,
    k: usize,
    stride: usize,
) -> Result<TensorView<&[T], DramChain>, Error> {
    let d = make_naive_tensor_descriptor_with_vector((rows, k), (stride, N::<1>), N::<VECTOR>, N::<1>)?;
    pad_tensor_view(make_tensor_view(data, d), (N::<ROWS>, N::<K>), (DoPad::<true>, DoPad::<true>))
}
