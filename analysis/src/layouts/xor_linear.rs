//! General XOR-linear (GF(2)-linear) swizzles of a row-major tile: the
//! column's vector index is XORed with a linear function of the row's bits.
//!
//! Element `(row, col)` of a `rows x cols` tile, with vectors of `vec`
//! elements and `cols / vec` a power of two, is stored at
//! `row * cols + ((col / vec) ^ f(row)) * vec + col % vec`, where
//! `f(row)` is the XOR of `masks[j]` over the bits `j` set in `row`. Every
//! CuTe `Swizzle<B,M,S>` whose source bits lie in the row and whose target
//! bits lie in the column is one such map, as are Triton's swizzled encodings
//! with `perPhase` a power of two and CK's plain XOR preshuffle; this family
//! holds every matrix, not only the shifted identities those name.
//!
//! As a descriptor the map is a chain of CuTe swizzles on the linear index,
//! one per run of consecutive ones on a diagonal of the bit matrix (entries
//! `(column bit i, row bit j)` with the same shift `log2(cols / vec) + j - i`),
//! followed by the unmerge into `(row, col)`. The swizzles only read row bits,
//! which none of them changes, so their order does not matter.

use super::build::{bad, item, log2, multiple, positive, power_of_two};
use super::cute::Major;
use crate::Error;
use cktile_core::Descriptor;
use cktile_core::MAX_STAGES;
use cktile_core::Transform;
use cktile_transforms::tri;

const NAME: &str = "xor-linear";

/// The most row bits a mask list may name (the index is below 2^62).
pub const MAX_ROW_BITS: usize = 62;

/// One `Swizzle<B,M,S>` of the chain: `bits` consecutive column bits from
/// `base`, fed by the row bits `shift` places above them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Run {
    /// `B`: how many consecutive bits.
    pub bits: u32,
    /// `M`: the lowest target bit of the linear index.
    pub base: u32,
    /// `S`: how far above the target the source bits are.
    pub shift: i32,
}

/// The swizzle runs that realise `masks` on a tile with `vec`-element vectors
/// and `cols / vec = 2^column_bits` vectors per row: at most
/// `column_bits * masks.len()` of them, written into `out`; returns how many.
/// A row of `2^(vec_bits + column_bits)` elements must be countable: when
/// `vec_bits + column_bits` passes `usize::BITS` no tile has such rows, and
/// there are no runs (0).
///
/// ```
/// use cktile_analysis::layouts::xor_linear::{runs, Run};
/// // masks 1, 2, 4 (row bit j flips column bit j) on 8 vectors of 8: Swizzle<3,3,3>.
/// let mut out = [Run { bits: 0, base: 0, shift: 0 }; 8];
/// assert_eq!(runs(&[1, 2, 4], 3, 3, &mut out), 1);
/// assert_eq!(out[0], Run { bits: 3, base: 3, shift: 3 });
/// assert_eq!(runs(&[usize::MAX; 70], u32::MAX, u32::MAX, &mut out), 0);
/// ```
pub const fn runs(masks: &[usize], column_bits: u32, vec_bits: u32, out: &mut [Run]) -> usize {
    match vec_bits.checked_add(column_bits) {
        Some(bits) if bits <= usize::BITS => {}
        _ => return 0,
    }
    let mut n = 0;
    // Shift s = column_bits + j - i ranges over 1..column_bits + rows bits.
    let mut s = 1;
    while s < column_bits as usize + masks.len() {
        let mut i = 0;
        while i < column_bits as usize {
            if entry(masks, column_bits, s, i) {
                let start = i;
                while i < column_bits as usize && entry(masks, column_bits, s, i) {
                    i += 1;
                }
                if n < out.len() {
                    out[n] = Run { bits: (i - start) as u32, base: vec_bits + start as u32, shift: s as i32 };
                }
                n += 1;
            } else {
                i += 1;
            }
        }
        s += 1;
    }
    n
}

/// Whether row bit `i + s - column_bits` feeds column bit `i`.
const fn entry(masks: &[usize], column_bits: u32, s: usize, i: usize) -> bool {
    if i + s < column_bits as usize {
        return false;
    }
    let j = i + s - column_bits as usize;
    j < masks.len() && (masks[j] >> i) & 1 == 1
}

/// The XOR-linear swizzle of a `rows x cols` row-major tile: vector
/// `col / vec` of row `row` moves to `(col / vec) ^ f(row)`, with `f(row)`
/// the XOR of `masks[j]` over the set bits `j` of `row` (mask of row bit 0
/// first). Top dimensions are `(row, col)`; the layout is a bijection.
/// [`xor_linear_tile`] with [`Major::Row`].
///
/// Valid when `cols` is a multiple of `vec`, `cols / vec` is a power of two,
/// every mask is below `cols / vec`, and the chain fits the descriptor's
/// stages (at most `MAX_STAGES - 2` swizzle runs).
///
/// ```
/// use cktile_analysis::layouts::xor_linear::xor_linear;
/// // Row bit 0 flips vector bit 1, row bit 1 flips vector bits 0 and 2.
/// let d = xor_linear(4, 64, 8, &[0b010, 0b101]).unwrap();
/// assert_eq!(d.calculate_offset(&[1, 0]), 64 + 2 * 8);
/// assert_eq!(d.calculate_offset(&[3, 9]), 3 * 64 + ((1 ^ 0b111) * 8) + 1);
/// assert!(xor_linear(4, 64, 8, &[8]).is_err()); // mask 8 is not below 64 / 8
/// ```
pub const fn xor_linear(rows: usize, cols: usize, vec: usize, masks: &[usize]) -> Result<Descriptor, Error> {
    xor_linear_tile(rows, cols, vec, masks, Major::Row)
}

/// The XOR-linear swizzle of a `rows x cols` tile stored row-major (as
/// [`xor_linear`]) or column-major: then the roles turn, and vector
/// `row / vec` of column `col` moves to `(row / vec) ^ f(col)`, `masks[j]`
/// belonging to bit `j` of the column (Triton's shared encodings with
/// `order = [0, 1]`). Top dimensions are `(row, col)` either way.
///
/// ```
/// use cktile_analysis::layouts::{cute::Major, xor_linear::{xor_linear, xor_linear_tile}};
/// let col = xor_linear_tile(64, 4, 8, &[0b010, 0b101], Major::Column).unwrap();
/// let row = xor_linear(4, 64, 8, &[0b010, 0b101]).unwrap();
/// // The column-major tile is the row-major one transposed.
/// assert_eq!(col.calculate_offset(&[9, 3]), row.calculate_offset(&[3, 9]));
/// assert_eq!(col.lengths().as_slice(), &[64, 4]);
/// ```
pub const fn xor_linear_tile(
    rows: usize,
    cols: usize,
    vec: usize,
    masks: &[usize],
    major: Major,
) -> Result<Descriptor, Error> {
    // `outer` runs over the slow dimension, `inner` over the contiguous one.
    let (outer, inner, (outer_name, inner_name)) = match major {
        Major::Row => (rows, cols, ("rows", "cols")),
        Major::Column => (cols, rows, ("cols", "rows")),
    };
    tri!(positive(NAME, outer_name, outer));
    tri!(positive(NAME, inner_name, inner));
    tri!(positive(NAME, "vec", vec));
    tri!(multiple(NAME, inner_name, inner, vec, "it must be a multiple of vec"));
    let chunks = inner / vec;
    let chunks_name = match major {
        Major::Row => "cols / vec",
        Major::Column => "rows / vec",
    };
    tri!(power_of_two(NAME, chunks_name, chunks, "it must be a power of two"));
    if masks.len() > MAX_ROW_BITS {
        return Err(bad(NAME, "masks", masks.len(), "at most 62 row bits may have a mask"));
    }
    let mut j = 0;
    while j < masks.len() {
        if masks[j] >= chunks {
            let why = match major {
                Major::Row => "each mask must be below cols / vec",
                Major::Column => "each mask must be below rows / vec (major=col)",
            };
            return Err(bad(NAME, "masks", masks[j], why));
        }
        j += 1;
    }
    let Some(size) = outer.checked_mul(inner) else {
        return Err(bad(NAME, outer_name, outer, "rows * cols overflows"));
    };
    let mut chain = [Run { bits: 0, base: 0, shift: 0 }; MAX_STAGES];
    let n = runs(masks, log2(chunks), log2(vec), &mut chain);
    if n > MAX_STAGES - 2 {
        return Err(bad(NAME, "swizzle runs the masks need", n, "at most 6 fit in a descriptor (MAX_STAGES - 2)"));
    }
    let mut d = crate::port!(Descriptor::packed(&[size]));
    let mut k = 0;
    while k < n {
        let r = chain[k];
        d = crate::port!(d.transform(&[tri!(item(Transform::swizzle(r.bits, r.base, r.shift), &[0], &[0]))]));
        k += 1;
    }
    let ids: &[usize] = match major {
        Major::Row => &[0, 1],
        Major::Column => &[1, 0],
    };
    crate::error::lift(d.transform(&[tri!(item(Transform::unmerge(&[outer, inner]), &[0], ids))]))
}
