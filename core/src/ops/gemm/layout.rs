//! How A and B lie in global memory: CK's `tensor_layout::gemm::RowMajor`
//! and `ColumnMajor`, named for the matrices as the product reads them (A
//! is M x K, B is K x N), and what each means for an operand's DRAM view
//! ([`OperandStorage`]: its K contiguous, or its rows).
//!
//! | layout | A (M x K) | B (K x N) |
//! |---|---|---|
//! | [`RowMajor`] | K contiguous ([`KContiguous`]) | N contiguous ([`RowsContiguous`]) |
//! | [`ColumnMajor`] | M contiguous ([`RowsContiguous`]) | K contiguous ([`KContiguous`]) |
//!
//! [`UniversalGemmPolicy`](super::UniversalGemmPolicy) takes A's and B's
//! layouts as its last two parameters, row-major A and column-major B by
//! default (CK's "RCR" with a row-major C, the only layout the MFMA and
//! `mma.sync` paths read without a transpose). Only the DRAM view
//! changes with the layout: the DRAM distribution, the LDS block and the
//! block GEMM are the same for all four.
//!
//! A rows-contiguous operand's DRAM loads move one element at a time:
//! the distribution gives each thread 8 elements along K, and K is its
//! strided dimension (CK loads along M or N there and shuffles the
//! registers before the LDS store; not written yet).
//!
//! ```
//! use cktile_core::ops::gemm::{ALayout, BLayout, BlockWarps, ColumnMajor, Mfma32x32x16, OperandA, OperandPath, OperandStorage, RowMajor, UniversalGemmPolicy};
//! use cktile_core::tile::SharedMemory;
//! use core::cell::Cell;
//! assert!(<<RowMajor as ALayout>::Storage as OperandStorage>::K_CONTIGUOUS);
//! assert!(!<<RowMajor as BLayout>::Storage as OperandStorage>::K_CONTIGUOUS);
//! assert!(<<ColumnMajor as BLayout>::Storage as OperandStorage>::K_CONTIGUOUS);
//! // A column-major 128 x 32 A: (DRAM load, LDS store, warp read) vectors.
//! type P = UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, Mfma32x32x16, ColumnMajor>;
//! let a: Vec<u16> = (0..128 * 32).map(|i| i as u16).collect();
//! let lds: Vec<Cell<u16>> = (0..128 * 32).map(|_| Cell::new(0)).collect();
//! let path = OperandPath::<u16, P, OperandA>::new(OperandA, &a, 128, 32, 128, 0, SharedMemory::new(&lds), 0)?;
//! assert_eq!(path.vectors(), (1, 8, 8));
//! // Thread 0 loads row 0, K 0 to 7: elements 0, 128, 256, ...
//! assert_eq!(path.load().thread_buffer()[..8], [0, 128, 256, 384, 512, 640, 768, 896]);
//! # Ok::<(), cktile_core::Error>(())
//! ```

use super::dram::{DramChain, MnDramChain, make_dram_view, make_mn_dram_view};
use crate::error::Error;
use crate::typed::{Chain, TensorView};
use typenum::U2;

/// A matrix stored row by row (CK's `RowMajor`): A with K contiguous, B
/// with N contiguous.
///
/// ```
/// use cktile_core::ops::gemm::{ALayout, RowMajor};
/// assert_eq!(<RowMajor as ALayout>::NAME, "row-major");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RowMajor;

/// A matrix stored column by column (CK's `ColumnMajor`): A with M
/// contiguous, B with K contiguous.
///
/// ```
/// use cktile_core::ops::gemm::{BLayout, ColumnMajor};
/// assert_eq!(<ColumnMajor as BLayout>::NAME, "column-major");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ColumnMajor;

/// An operand whose K is contiguous: element `(row, k)` at
/// `row * stride + k` (row-major A, column-major B). Its DRAM loads move
/// the policy's [`VECTOR`](super::GemmPolicy::VECTOR) elements along K at
/// once.
///
/// ```
/// use cktile_core::ops::gemm::{KContiguous, OperandStorage};
/// assert_eq!(KContiguous::packed_stride(100, 64), 64);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KContiguous;

/// An operand whose rows (M for A, N for B) are contiguous: element
/// `(row, k)` at `k * stride + row` (column-major A, row-major B). Its
/// DRAM loads move one element at a time ([`MnDramChain`]).
///
/// ```
/// use cktile_core::ops::gemm::{OperandStorage, RowsContiguous};
/// assert_eq!(RowsContiguous::packed_stride(100, 64), 100);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RowsContiguous;

/// How an operand, seen as `rows x K` (M x K for A, N x K for B), lies in
/// memory: its DRAM view's chain and builder.
///
/// ```
/// use cktile_core::ops::gemm::{OperandStorage, RowsContiguous};
/// let a: Vec<u16> = (0..32 * 100).map(|i| i as u16).collect();
/// // 100 x 32, rows contiguous: element (7, 2) is at 2 * 100 + 7.
/// let view = RowsContiguous::make_view::<128, 32, 8, u16>(&a, 100, 32, 100)?;
/// assert_eq!(view.descriptor().calculate_offset([7, 2]), 207);
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub trait OperandStorage {
    /// Whether K is the contiguous dimension.
    const K_CONTIGUOUS: bool;
    /// The DRAM view's chain when a load moves `V` elements.
    type Chain<const V: usize>: Chain<NumTop = U2>;
    /// The DRAM view of a `rows x k` operand with leading dimension
    /// `stride` in `data`, padded to `ROWS x K` block tiles, a load moving
    /// `V` elements where K is contiguous.
    ///
    /// ```
    /// use cktile_core::ops::gemm::{KContiguous, OperandStorage};
    /// let b = vec![0u16; 70 * 40];
    /// let view = KContiguous::make_view::<128, 32, 8, u16>(&b, 70, 40, 40)?;
    /// assert_eq!(view.descriptor().lengths().as_slice(), &[128, 64]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    fn make_view<const ROWS: usize, const K: usize, const V: usize, T: Copy>(
        data: &[T],
        rows: usize,
        k: usize,
        stride: usize,
    ) -> Result<TensorView<&[T], Self::Chain<V>>, Error>;
    /// The leading dimension of a packed `rows x k` operand.
    ///
    /// ```
    /// use cktile_core::ops::gemm::{KContiguous, OperandStorage};
    /// assert_eq!(KContiguous::packed_stride(3, 8), 8);
    /// ```
    fn packed_stride(rows: usize, k: usize) -> usize {
        if Self::K_CONTIGUOUS { k } else { rows }
    }
}

impl OperandStorage for KContiguous {
    const K_CONTIGUOUS: bool = true;
    type Chain<const V: usize> = DramChain<V>;

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn make_view<const ROWS: usize, const K: usize, const V: usize, T: Copy>(
        data: &[T],
        rows: usize,
        k: usize,
        stride: usize,
    ) -> Result<TensorView<&[T], DramChain<V>>, Error> {
        make_dram_view::<ROWS, K, V, T>(data, rows, k, stride)
    }
}

impl OperandStorage for RowsContiguous {
    const K_CONTIGUOUS: bool = false;
    type Chain<const V: usize> = MnDramChain;

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn make_view<const ROWS: usize, const K: usize, const V: usize, T: Copy>(
        data: &[T],
        rows: usize,
        k: usize,
        stride: usize,
    ) -> Result<TensorView<&[T], MnDramChain>, Error> {
        make_mn_dram_view::<ROWS, K, T>(data, rows, k, stride)
    }
}

/// A's layout (A is M x K).
///
/// ```
/// use cktile_core::ops::gemm::{ALayout, ColumnMajor, OperandStorage};
/// assert!(!<<ColumnMajor as ALayout>::Storage as OperandStorage>::K_CONTIGUOUS);
/// ```
pub trait ALayout {
    /// How A, seen as M x K, lies in memory.
    type Storage: OperandStorage;
    /// The layout's name.
    const NAME: &'static str;
}

/// B's layout (B is K x N).
///
/// ```
/// use cktile_core::ops::gemm::{BLayout, ColumnMajor, OperandStorage};
/// assert!(<<ColumnMajor as BLayout>::Storage as OperandStorage>::K_CONTIGUOUS);
/// ```
pub trait BLayout {
    /// How B, seen as N x K, lies in memory.
    type Storage: OperandStorage;
    /// The layout's name.
    const NAME: &'static str;
}

impl ALayout for RowMajor {
    type Storage = KContiguous;
    const NAME: &'static str = "row-major";
}

impl ALayout for ColumnMajor {
    type Storage = RowsContiguous;
    const NAME: &'static str = "column-major";
}

impl BLayout for RowMajor {
    type Storage = RowsContiguous;
    const NAME: &'static str = "row-major";
}

impl BLayout for ColumnMajor {
    type Storage = KContiguous;
    const NAME: &'static str = "column-major";
}
