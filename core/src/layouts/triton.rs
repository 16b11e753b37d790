//! Triton's shared-memory encodings as descriptors.
//!
//! Source: `lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp` and
//! `Dialect.cpp` (triton-lang/triton). The swizzled encoding stores element
//! `(row, col)` of a row-major tile (`order = [1, 0]`) at column
//! `((col / vec) ^ ((row / perPhase) % maxPhase)) * vec + col % vec`.
//! (Newer Triton also XORs in `row / perPhase / maxPhase % maxPhase` for
//! tiles taller than one phase cycle; cktile models the classic form, which
//! is what the NVMMA encoding and tiles of at most `perPhase * maxPhase`
//! rows per cycle use.)

use super::build::{bad, item, multiple, positive, power_of_two};
use crate::descriptor::tri;
use crate::{Descriptor, Error, Transform};

/// Triton's `#ttg.swizzled_shared<{vec, perPhase, maxPhase, order}>` on a
/// `rows x cols` tile (top `(row, col)`). `row_major` is `order = [1, 0]`
/// (columns contiguous); otherwise `order = [0, 1]`, where the roles of rows
/// and columns swap.
///
/// Valid when the contiguous length divided by `vec` is a power of two at
/// least `maxPhase`, and the other length is a multiple of
/// `perPhase * maxPhase`.
///
/// ```
/// // vec=8, perPhase=1, maxPhase=8 on 64x64 fp16 is CuTe's Swizzle<3,3,3>.
/// let d = cktile_core::layouts::triton::swizzled_shared(8, 1, 8, true, 64, 64).unwrap();
/// assert_eq!(d.calculate_offset(&[1, 0]), 64 + 8);
/// ```
pub const fn swizzled_shared(
    vec: usize,
    per_phase: usize,
    max_phase: usize,
    row_major: bool,
    rows: usize,
    cols: usize,
) -> Result<Descriptor, Error> {
    const NAME: &str = "triton-swizzled";
    tri!(positive(NAME, "vec", vec));
    tri!(positive(NAME, "perPhase", per_phase));
    tri!(positive(NAME, "maxPhase", max_phase));
    tri!(positive(NAME, "rows", rows));
    tri!(positive(NAME, "cols", cols));
    // (outer, inner): inner is the contiguous dimension.
    let (outer, inner) = if row_major { (rows, cols) } else { (cols, rows) };
    tri!(multiple(NAME, "contiguous length", inner, vec, "it must be a multiple of vec"));
    let chunks = inner / vec;
    tri!(power_of_two(NAME, "contiguous length / vec", chunks, "it must be a power of two"));
    if chunks < max_phase {
        return Err(bad(NAME, "maxPhase", max_phase, "it must be at most the contiguous length / vec"));
    }
    let Some(cycle) = per_phase.checked_mul(max_phase) else {
        return Err(bad(NAME, "perPhase", per_phase, "perPhase * maxPhase overflows"));
    };
    tri!(multiple(NAME, "strided length", outer, cycle, "it must be a multiple of perPhase * maxPhase"));
    let cycles = outer / cycle;
    // (cycle index, phase, row within phase, chunk, element) over a packed tile.
    let Some(row_pitch) = inner.checked_mul(per_phase) else {
        return Err(bad(NAME, "cols", inner, "the tile size overflows"));
    };
    let Some(cycle_pitch) = row_pitch.checked_mul(max_phase) else {
        return Err(bad(NAME, "rows", outer, "the tile size overflows"));
    };
    let d =
        tri!(Descriptor::naive(&[cycles, max_phase, per_phase, chunks, vec], &[cycle_pitch, row_pitch, inner, vec, 1]));
    let d = tri!(d.transform(&[
        tri!(item(Transform::pass_through(cycles), &[0], &[0])),
        tri!(item(Transform::xor(max_phase, chunks), &[1, 3], &[1, 3])),
        tri!(item(Transform::pass_through(per_phase), &[2], &[2])),
        tri!(item(Transform::pass_through(vec), &[4], &[4])),
    ]));
    let (o, i) = if row_major { (0, 1) } else { (1, 0) };
    d.transform(&[
        tri!(item(Transform::merge(&[cycles, max_phase, per_phase]), &[0, 1, 2], &[o])),
        tri!(item(Transform::merge(&[chunks, vec]), &[3, 4], &[i])),
    ])
}

/// Triton's `#ttg.nvmma_shared<{swizzlingByteWidth, elementBitWidth, transposed}>`
/// on a tile whose contiguous dimension is exactly one swizzle width: the
/// swizzled encoding with `vec = 128 / bits`, `perPhase = 128 / swizzleBytes`,
/// `maxPhase = swizzleBytes / 16` (CuTe's `Swizzle<log2 maxPhase, 4, 3>` on
/// bytes). `swizzle_bytes = 0` is the unswizzled layout. `transposed` makes
/// the first dimension contiguous.
///
/// ```
/// let d = cktile_core::layouts::triton::nvmma_shared(128, 16, false, 64).unwrap(); // 64 x 64 fp16
/// assert_eq!(d.lengths().as_slice(), &[64, 64]);
/// assert_eq!(d.calculate_offset(&[1, 0]), 72);
/// ```
pub const fn nvmma_shared(
    swizzle_bytes: usize,
    element_bits: usize,
    transposed: bool,
    strided: usize,
) -> Result<Descriptor, Error> {
    const NAME: &str = "triton-nvmma";
    match element_bits {
        8 | 16 | 32 | 64 => {}
        _ => return Err(bad(NAME, "elementBitWidth", element_bits, "it must be 8, 16, 32 or 64")),
    }
    let vec = 128 / element_bits;
    let (width, per_phase, max_phase) = match swizzle_bytes {
        0 => (128, 1, 1),
        32 | 64 | 128 => (swizzle_bytes, 128 / swizzle_bytes, swizzle_bytes / 16),
        _ => return Err(bad(NAME, "swizzlingByteWidth", swizzle_bytes, "it must be 0, 32, 64 or 128")),
    };
    tri!(positive(NAME, "rows", strided));
    let inner = width * 8 / element_bits;
    let (rows, cols) = if transposed { (inner, strided) } else { (strided, inner) };
    swizzled_shared(vec, per_phase, max_phase, !transposed, rows, cols)
}
