//! The universal GEMM's DRAM views: CK's
//! `make_naive_tensor_view<address_space_enum::global>(p, (rows, K),
//! (stride, 1), number<V>, number<1>)` padded to the block tile
//! (`pad_tensor_view(view, (MPerBlock, KPerBlock), sequence<true, true>)`),
//! its chain [`DramChain`] the same type for every tile size (the pads
//! are runtime values); an operand stored with its rows contiguous
//! (column-major A, row-major B) has its own, [`MnDramChain`]
//! ([`make_mn_dram_view`]).
//!
//! ```
//! use cktile_core::ops::gemm::make_dram_view;
//! let a = vec![1u16; 100 * 48];
//! // A 100 x 40 operand (row stride 48), padded to 128 x 32 block tiles: 128 x 64.
//! let view = make_dram_view::<128, 32, 8, _>(&a, 100, 40, 48)?;
//! assert_eq!(view.descriptor().lengths().as_slice(), &[128, 64]);
//! # Ok::<(), cktile_core::Error>(())
//! ```

use crate::error::Error;
use crate::typed::{
    DoPad, Naive, NaiveVector, TensorDescriptor, TensorView, Transformed, make_naive_tensor_descriptor,
    make_naive_tensor_descriptor_with_vector, make_tensor_view, pad_tensor_view,
};
use cktile_transforms::Number as N;
use cktile_transforms::typed::RightPad;

/// The DRAM view's chain: naive (rows, K) with strides (stride, 1) and
/// `V` elements guaranteed contiguous along K (8 by default: CK's
/// `VectorSizeA`/`VectorSizeB`, 16 bytes, for 16-bit elements; 16 for
/// 8-bit ones: [`GemmPolicy::VECTOR`](super::GemmPolicy::VECTOR)), each
/// dimension right-padded to the block tile. The same type for A and B
/// and for every tile size.
///
/// ```
/// use cktile_core::ops::gemm::{DramChain, make_dram_view};
/// use cktile_core::typed::TensorView;
/// let a = [0u16; 64 * 64];
/// let _: TensorView<&[u16], DramChain> = make_dram_view::<256, 64, 8, _>(&a, 64, 64, 64)?;
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub type DramChain<const V: usize = 8> = Transformed<
    NaiveVector<(usize, usize), (usize, N<1>), N<V>, N<1>>,
    (RightPad<usize, usize>, RightPad<usize, usize>),
    ((N<0>,), (N<1>,)),
    ((N<0>,), (N<1>,)),
>;

/// The DRAM view of a `rows x k` operand (row stride `stride`) in `data`,
/// padded to `ROWS x K` block tiles (`ROWS` is MPerBlock for A,
/// NPerBlock for B).
///
/// Refused when it is built: K not a multiple of the vector `V` (a vector
/// would run past a row's end into the stride gap; CK's kernels refuse it
/// too, in their host-side `IsSupportedArgument`), with the error of the
/// guaranteed vector's rule (`make_naive_tensor_descriptor_with_vector`,
/// naming the value), and whatever else the builders refuse (no rows, no
/// K, sizes past 64 bits).
///
/// Any row stride is accepted, as CK accepts it: the guarantee is that a
/// vector's `V` elements are contiguous, not that it starts aligned,
/// and no target needs more. A window's loads are element loads through
/// safe slices, which LLVM merges only as far as the alignment it can
/// prove allows:
/// - on amdgcn (gfx942) the 8 loads of a vector become one
///   `global_load_dwordx4` from the 2-byte alignment a `&[u16]` promises
///   (the HSA ABI runs the GPU in its unaligned-access mode; CK's buffer
///   loads need 4 bytes), for any stride;
/// - on nvptx (sm_90) a vector load needs natural alignment (16 bytes
///   here), which LLVM cannot prove from a `&[u16]`, so it keeps 8
///   `ld.global.b16`, for any stride, in the typed kernels and their hand
///   twins alike (`scripts/target-icount.sh` and the performance chapter).
///
/// So no stride is unsound on either target; an aligned stride makes no
/// load wider.
///
/// ```
/// use cktile_core::ops::gemm::make_dram_view;
/// let a: Vec<u16> = (0..1000).collect();
/// let e = make_dram_view::<128, 32, 8, _>(&a, 10, 36, 40).unwrap_err();
/// assert!(e.to_string().contains("length 36, not a multiple of the guaranteed vector length 8"), "{e}");
/// // Row stride 44 with K = 40: accepted, and element (3, 5) is at 3 * 44 + 5.
/// let view = make_dram_view::<128, 32, 8, _>(&a, 10, 40, 44)?;
/// assert_eq!(view.descriptor().calculate_offset([3, 5]), 137);
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn make_dram_view<const ROWS: usize, const K: usize, const V: usize, T: Copy>(
    data: &[T],
    rows: usize,
    k: usize,
    stride: usize,
) -> Result<TensorView<&[T], DramChain<V>>, Error> {
    let d = make_naive_tensor_descriptor_with_vector((rows, k), (stride, N::<1>), N::<V>, N::<1>)?;
    pad_tensor_view(make_tensor_view(data, d), (N::<ROWS>, N::<K>), (DoPad::<true>, DoPad::<true>))
}

/// The DRAM view's chain of an operand stored with its rows contiguous
/// (CK's column-major A, M x K with M contiguous, and row-major B, K x N
/// with N contiguous): naive (rows, K) with strides (1, stride), each
/// dimension right-padded to the block tile. The same type for A and B
/// and for every tile size.
///
/// The universal GEMM's DRAM distribution walks K in each thread's
/// vector, and K is the strided dimension here: the window's plan finds
/// no contiguous vector and loads the elements one at a time (CK instead
/// loads along M or N and shuffles the registers before the LDS store,
/// not written yet). The LDS block and everything after it are those of
/// the K-contiguous operand.
///
/// ```
/// use cktile_core::ops::gemm::{MnDramChain, make_mn_dram_view};
/// use cktile_core::typed::TensorView;
/// let a = [0u16; 64 * 64];
/// let _: TensorView<&[u16], MnDramChain> = make_mn_dram_view::<256, 64, _>(&a, 64, 64, 64)?;
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub type MnDramChain = Transformed<
    Naive<(usize, usize), (N<1>, usize)>,
    (RightPad<usize, usize>, RightPad<usize, usize>),
    ((N<0>,), (N<1>,)),
    ((N<0>,), (N<1>,)),
>;

/// The DRAM view of a `rows x k` operand stored with its rows contiguous
/// (element `(row, k)` at `k * stride + row`: a column-major A, or a
/// row-major B seen as N x K) in `data`, padded to `ROWS x K` block tiles.
/// Its chain is [`MnDramChain`].
///
/// Refused when it is built: a stride below `rows` (two K columns would
/// overlap), and whatever the builders refuse (no rows, no K, sizes past
/// 64 bits). Any K is accepted: no vector runs along K.
///
/// ```
/// use cktile_core::ops::gemm::make_mn_dram_view;
/// let a: Vec<u16> = (0..40 * 104).map(|i| i as u16).collect();
/// // A 100 x 40 column-major A (leading dimension 104), padded to 128 x 32 tiles: 128 x 64.
/// let view = make_mn_dram_view::<128, 32, _>(&a, 100, 40, 104)?;
/// assert_eq!(view.descriptor().lengths().as_slice(), &[128, 64]);
/// // Element (3, 5) is at 5 * 104 + 3.
/// assert_eq!(view.descriptor().calculate_offset([3, 5]), 523);
/// let e = make_mn_dram_view::<128, 32, _>(&a, 100, 40, 99).unwrap_err();
/// assert!(e.to_string().ends_with("(stride = 99; at least 100)"), "{e}");
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn make_mn_dram_view<const ROWS: usize, const K: usize, T: Copy>(
    data: &[T],
    rows: usize,
    k: usize,
    stride: usize,
) -> Result<TensorView<&[T], MnDramChain>, Error> {
    if stride < rows {
        return Err(Error::policy_minimum(
            "an operand stored with its rows contiguous needs a leading dimension of at least its rows",
            "stride",
            stride,
            rows,
        ));
    }
    let d = make_naive_tensor_descriptor((rows, k), (N::<1>, stride))?;
    pad_tensor_view(make_tensor_view(data, d), (N::<ROWS>, N::<K>), (DoPad::<true>, DoPad::<true>))
}

/// C's DRAM view's chain: naive (rows, columns) with strides (stride, 1),
/// each dimension right-padded to the block tile. The accumulator's
/// lanes hold one column each (AMD's MFMA D layout), so C's stores are
/// elements and no vector is guaranteed.
///
/// ```
/// use cktile_core::ops::gemm::{CDramChain, make_c_dram_view};
/// use cktile_core::typed::TensorView;
/// let mut c = [0f32; 10 * 12];
/// let _: TensorView<&mut [f32], CDramChain> = make_c_dram_view::<128, 128, _>(&mut c, 10, 12, 12)?;
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub type CDramChain = Transformed<
    Naive<(usize, usize), (usize, N<1>)>,
    (RightPad<usize, usize>, RightPad<usize, usize>),
    ((N<0>,), (N<1>,)),
    ((N<0>,), (N<1>,)),
>;

/// The DRAM view of a row-major `rows x cols` C (row stride `stride`) in
/// `data`, padded to `ROWS x COLS` block tiles (MPerBlock x NPerBlock; CK's C view in
/// `MakeGemmTensorViews`, padded as `MakeGemmPadViews` pads it): the
/// epilogue's stores into the padding are dropped
/// ([`store_c_tile`](super::store_c_tile)).
///
/// Refused when it is built ([`make_c_dram_descriptor`]): a zero size, a
/// stride below `cols`, sizes past 64 bits, or `data` too short for the
/// last row.
///
/// ```
/// use cktile_core::ops::gemm::make_c_dram_view;
/// let mut c = vec![0f32; 100 * 72];
/// // A 100 x 70 C (row stride 72), padded to 128 x 64 block tiles: 128 x 128.
/// let view = make_c_dram_view::<128, 64, _>(&mut c, 100, 70, 72)?;
/// assert_eq!(view.descriptor().lengths().as_slice(), &[128, 128]);
/// assert_eq!(view.descriptor().calculate_offset([3, 5]), 3 * 72 + 5);
/// let e = make_c_dram_view::<128, 64, _>(&mut c, 101, 70, 72).unwrap_err();
/// assert!(e.to_string().contains("7200"), "{e}");
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn make_c_dram_view<const ROWS: usize, const COLS: usize, T: Copy>(
    data: &mut [T],
    rows: usize,
    cols: usize,
    stride: usize,
) -> Result<TensorView<&mut [T], CDramChain>, Error> {
    let desc = make_c_dram_descriptor::<ROWS, COLS>(data.len(), rows, cols, stride)?;
    Ok(make_tensor_view(data, desc))
}

/// The descriptor of [`make_c_dram_view`] over a C of `len` elements, with
/// all of its checks: no memory is needed to make it.
///
/// A kernel makes it and then wraps C's slice in it with
/// `make_tensor_view`, which cannot fail, as `universal_gemm_with` does on
/// the GPU targets: no `Result` holds C's slice. One that does keeps the
/// slice's pointer and its error in the same bytes, which the compiler then
/// carries as an integer: C's stores lose the global address space
/// (`flat_store_dword` on gfx942, not `global_store_dword`).
///
/// ```
/// use cktile_core::ops::gemm::{make_c_dram_descriptor, make_c_dram_view};
/// use cktile_core::typed::make_tensor_view;
/// let mut c = vec![0f32; 100 * 72];
/// let desc = make_c_dram_descriptor::<128, 64>(c.len(), 100, 70, 72)?;
/// assert_eq!(desc, *make_c_dram_view::<128, 64, _>(&mut c, 100, 70, 72)?.descriptor());
/// let view = make_tensor_view(&mut c[..], desc);
/// assert_eq!(view.descriptor().calculate_offset([99, 69]), 99 * 72 + 69);
/// let e = make_c_dram_descriptor::<128, 64>(100 * 72, 100, 73, 72).unwrap_err();
/// assert!(e.to_string().contains("stride"), "{e}");
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub fn make_c_dram_descriptor<const ROWS: usize, const COLS: usize>(
    len: usize,
    rows: usize,
    cols: usize,
    stride: usize,
) -> Result<TensorDescriptor<CDramChain>, Error> {
    if stride < cols {
        return Err(Error::policy_minimum("C's row stride must be at least its columns", "stride", stride, cols));
    }
    let d = make_naive_tensor_descriptor((rows, cols), (stride, N::<1>))?;
    // The descriptor's element space: the builder above has refused no rows and a size past
    // 64 bits, so `needed` is `Some` (the largest size stands for any other answer).
    let needed = rows.checked_sub(1).and_then(|r| r.checked_mul(stride)).and_then(|o| o.checked_add(cols));
    if needed.is_none_or(|n| n > len) {
        return Err(Error::policy_minimum(
            "C's buffer must hold (rows - 1) * stride + cols elements",
            "len",
            len,
            needed.unwrap_or(usize::MAX),
        ));
    }
    // The padded chain, over no memory (`make_tensor_view` wraps the memory in it).
    let padded =
        pad_tensor_view(make_tensor_view(&[0u8][..0], d), (N::<ROWS>, N::<COLS>), (DoPad::<true>, DoPad::<true>))?;
    Ok(*padded.descriptor())
}
