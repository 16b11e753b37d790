//! CuTe's swizzled shared-memory layouts and the TMA swizzle modes.
//!
//! Sources: CUTLASS `include/cute/swizzle.hpp` (`Swizzle<B,M,S>`),
//! `atom/mma_traits_sm90_gmma.hpp` (the SM90 GMMA atoms, swizzles on byte
//! addresses), `test/unit/gemm/device/default_gemm_configuration.hpp` (SM80
//! atoms, swizzles on element indices) and
//! `atom/copy_traits_sm90_tma_swizzle.hpp` (TMA modes).

use super::build::{bad, element_bytes, item, log2, positive};
use crate::Error;
use cktile_core::Descriptor;
use cktile_core::Transform;
use cktile_transforms::tri;

/// Which tile mode is contiguous.
///
/// ```
/// use cktile_analysis::layouts::cute::{swizzled_tile, Major};
/// let row = swizzled_tile(0, 0, 0, 4, 8, Major::Row).unwrap();
/// let col = swizzled_tile(0, 0, 0, 4, 8, Major::Column).unwrap();
/// assert_eq!((row.calculate_offset(&[1, 0]), col.calculate_offset(&[1, 0])), (8, 1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Major {
    /// Row-major: `(rows, cols):(cols, 1)`; for GMMA, K-major.
    Row,
    /// Column-major: `(rows, cols):(1, rows)`; for GMMA, MN-major.
    Column,
}

/// `Swizzle<B,M,S> o (rows, cols):(cols, 1)` (or the column-major tile):
/// the swizzle applied to the element index of a row- or column-major tile.
/// Top dimensions are `(row, col)`.
///
/// The tile's size must be a multiple of the block the swizzle permutes.
///
/// ```
/// use cktile_analysis::layouts::cute::{swizzled_tile, Major};
/// // SM80 fp16 K-major atom: Swizzle<3,3,3> o (8,64):(64,1).
/// let d = swizzled_tile(3, 3, 3, 8, 64, Major::Row).unwrap();
/// assert_eq!(d.calculate_offset(&[1, 0]), 64 + 8);
/// ```
pub const fn swizzled_tile(
    bits: u32,
    base: u32,
    shift: i32,
    rows: usize,
    cols: usize,
    major: Major,
) -> Result<Descriptor, Error> {
    const NAME: &str = "cute-swizzle";
    tri!(positive(NAME, "rows", rows));
    tri!(positive(NAME, "cols", cols));
    let Some(size) = rows.checked_mul(cols) else {
        return Err(bad(NAME, "rows", rows, "rows * cols overflows"));
    };
    let d = crate::port!(Descriptor::packed(&[size]));
    let d = crate::port!(d.transform(&[tri!(item(Transform::swizzle(bits, base, shift), &[0], &[0]))]));
    match major {
        Major::Row => crate::error::lift(d.transform(&[tri!(item(Transform::unmerge(&[rows, cols]), &[0], &[0, 1]))])),
        Major::Column => {
            crate::error::lift(d.transform(&[tri!(item(Transform::unmerge(&[cols, rows]), &[0], &[1, 0]))]))
        }
    }
}

/// The SM90 GMMA shared-memory atoms: `Swizzle<B,4,3>` on byte addresses
/// over 8 rows of 16, 32, 64 or 128 bytes.
///
/// ```
/// use cktile_analysis::layouts::cute::Gmma;
/// assert_eq!(Gmma::Sw128.row_bytes(), 128);
/// assert_eq!(Gmma::Sw32.bits(), 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gmma {
    /// `Swizzle<0,4,3>`, 16-byte rows (no swizzle).
    Interleave,
    /// `Swizzle<1,4,3>`, 32-byte rows.
    Sw32,
    /// `Swizzle<2,4,3>`, 64-byte rows.
    Sw64,
    /// `Swizzle<3,4,3>`, 128-byte rows.
    Sw128,
}

impl Gmma {
    /// B of the byte swizzle.
    ///
    /// ```
    /// assert_eq!(cktile_analysis::layouts::cute::Gmma::Sw128.bits(), 3);
    /// ```
    pub const fn bits(self) -> u32 {
        match self {
            Gmma::Interleave => 0,
            Gmma::Sw32 => 1,
            Gmma::Sw64 => 2,
            Gmma::Sw128 => 3,
        }
    }

    /// Bytes per row of the atom (`16 << B`).
    ///
    /// ```
    /// assert_eq!(cktile_analysis::layouts::cute::Gmma::Interleave.row_bytes(), 16);
    /// ```
    pub const fn row_bytes(self) -> usize {
        16 << self.bits()
    }
}

/// A GMMA atom for elements of `element_bytes` (1, 2, 4 or 8): 8 rows of
/// `row_bytes / element_bytes` elements, K-major ([`Major::Row`], top
/// `(mn, k)` with k contiguous) or MN-major ([`Major::Column`], top `(mn, k)`
/// with mn contiguous, 8 columns of k). The byte swizzle `Swizzle<B,4,3>`
/// acts on `offset * element_bytes`; on element indices it is
/// `Swizzle<B, 4 - log2(element_bytes), 3>` (CuTe's `upcast`).
///
/// ```
/// use cktile_analysis::layouts::cute::{gmma_atom, Gmma, Major};
/// let d = gmma_atom(Gmma::Sw128, Major::Row, 2).unwrap(); // 8 x 64 fp16
/// assert_eq!(d.lengths().as_slice(), &[8, 64]);
/// // byte address of (1, 0): 128 ^ (1 << 4)
/// assert_eq!(d.calculate_offset(&[1, 0]) * 2, 128 ^ 16);
/// ```
pub const fn gmma_atom(kind: Gmma, major: Major, element_bytes_: usize) -> Result<Descriptor, Error> {
    tri!(element_bytes("cute-gmma", element_bytes_));
    let per_row = kind.row_bytes() / element_bytes_;
    let base = 4 - log2(element_bytes_);
    match major {
        Major::Row => swizzled_tile(kind.bits(), base, 3, 8, per_row, Major::Row),
        Major::Column => swizzled_tile(kind.bits(), base, 3, per_row, 8, Major::Column),
    }
}

/// The TMA swizzle modes (`CUtensorMapSwizzle`) as byte-address swizzles.
///
/// ```
/// use cktile_analysis::layouts::cute::Tma;
/// assert_eq!(Tma::B128.swizzle(), (3, 4, 3));
/// assert_eq!(Tma::B128.alignment(), 1024);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tma {
    /// `CU_TENSOR_MAP_SWIZZLE_NONE`.
    None,
    /// `SWIZZLE_32B`: 16-byte chunks within a 32-byte span.
    B32,
    /// `SWIZZLE_64B`: 16-byte chunks within a 64-byte span.
    B64,
    /// `SWIZZLE_128B`: 16-byte chunks within a 128-byte span.
    B128,
    /// `SWIZZLE_128B_ATOM_32B` (Blackwell): 32-byte chunks within 128 bytes, `Swizzle<2,5,2>`.
    B128Atom32,
    /// `SWIZZLE_128B_ATOM_64B` (Blackwell): 64-byte chunks within 128 bytes.
    /// cktile models it as `Swizzle<1,6,1>` from NVIDIA's description (two
    /// 64-byte chunks, swapped on odd 128-byte rows); CuTe's table records
    /// `M=6, B=2` without S, which was not confirmed.
    B128Atom64,
}

impl Tma {
    /// `(B, M, S)` of the byte swizzle.
    ///
    /// ```
    /// assert_eq!(cktile_analysis::layouts::cute::Tma::B128Atom32.swizzle(), (2, 5, 2));
    /// ```
    pub const fn swizzle(self) -> (u32, u32, i32) {
        match self {
            Tma::None => (0, 4, 3),
            Tma::B32 => (1, 4, 3),
            Tma::B64 => (2, 4, 3),
            Tma::B128 => (3, 4, 3),
            Tma::B128Atom32 => (2, 5, 2),
            Tma::B128Atom64 => (1, 6, 1),
        }
    }

    /// Bytes per row: the span the swizzle permutes within (16 for NONE).
    ///
    /// ```
    /// assert_eq!(cktile_analysis::layouts::cute::Tma::B64.row_bytes(), 64);
    /// ```
    pub const fn row_bytes(self) -> usize {
        match self {
            Tma::None => 16,
            Tma::B32 => 32,
            Tma::B64 => 64,
            Tma::B128 | Tma::B128Atom32 | Tma::B128Atom64 => 128,
        }
    }

    /// Shared-memory alignment the mode needs: the swizzle's repeat
    /// `2^(M+B+S)` bytes (CuTe's position-independence check; 1024 for
    /// 128B), and TMA's own 128 bytes for NONE.
    ///
    /// ```
    /// use cktile_analysis::layouts::cute::Tma;
    /// assert_eq!((Tma::None.alignment(), Tma::B32.alignment(), Tma::B64.alignment()), (128, 256, 512));
    /// ```
    pub const fn alignment(self) -> usize {
        let (b, m, s) = self.swizzle();
        if b == 0 { 128 } else { 1 << (m + b + s as u32) }
    }
}

/// A TMA-swizzled box of `rows` rows of one swizzle span each
/// (`row_bytes / element_bytes` elements), row-major, for elements of
/// `element_bytes`. The byte swizzle is applied to `offset * element_bytes`,
/// so the box's bytes must be a multiple of the block the swizzle permutes.
///
/// ```
/// use cktile_analysis::layouts::cute::{tma_box, Tma};
/// let d = tma_box(Tma::B128, 8, 2).unwrap();
/// assert_eq!(d.calculate_offset(&[1, 8]) * 2, (128 + 16) ^ 16);
/// ```
pub const fn tma_box(mode: Tma, rows: usize, element_bytes_: usize) -> Result<Descriptor, Error> {
    tri!(element_bytes("cute-tma", element_bytes_));
    let (b, m, s) = mode.swizzle();
    let per_row = mode.row_bytes() / element_bytes_;
    let e = log2(element_bytes_);
    if m < e {
        return Err(bad(
            "cute-tma",
            "element bytes",
            element_bytes_,
            "the swizzle's 2^M-byte chunk must hold whole elements",
        ));
    }
    swizzled_tile(b, m - e, s, rows, per_row, Major::Row)
}
