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
//!
//! AMD's rotating encoding (`AMDRotatingSharedEncodingAttr`, converted by
//! `sharedToLinearLayoutAMDRotating` in the same file) is the swizzled one
//! whose phase also turns with the row's block: see [`rotating_shared`].

use super::build::{bad, item, log2, multiple, positive, power_of_two};
use super::cute::Major;
use super::xor_linear::{MAX_ROW_BITS, Run, runs, xor_linear_tile};
use crate::Error;
use cktile_core::Descriptor;
use cktile_core::MAX_STAGES;
use cktile_core::Transform;
use cktile_transforms::tri;

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
/// let d = cktile_analysis::layouts::triton::swizzled_shared(8, 1, 8, true, 64, 64).unwrap();
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
    let d = crate::port!(Descriptor::naive(
        &[cycles, max_phase, per_phase, chunks, vec],
        &[cycle_pitch, row_pitch, inner, vec, 1]
    ));
    let d = crate::port!(d.transform(&[
        tri!(item(Transform::pass_through(cycles), &[0], &[0])),
        tri!(item(Transform::xor(max_phase, chunks), &[1, 3], &[1, 3])),
        tri!(item(Transform::pass_through(per_phase), &[2], &[2])),
        tri!(item(Transform::pass_through(vec), &[4], &[4])),
    ]));
    let (o, i) = if row_major { (0, 1) } else { (1, 0) };
    crate::error::lift(d.transform(&[
        tri!(item(Transform::merge(&[cycles, max_phase, per_phase]), &[0, 1, 2], &[o])),
        tri!(item(Transform::merge(&[chunks, vec]), &[3, 4], &[i])),
    ]))
}

/// Triton's `#ttg.nvmma_shared<{swizzlingByteWidth, elementBitWidth, transposed}>`
/// on a tile whose contiguous dimension is exactly one swizzle width: the
/// swizzled encoding with `vec = 128 / bits`, `perPhase = 128 / swizzleBytes`,
/// `maxPhase = swizzleBytes / 16` (CuTe's `Swizzle<log2 maxPhase, 4, 3>` on
/// bytes). `swizzle_bytes = 0` is the unswizzled layout. `transposed` makes
/// the first dimension contiguous.
///
/// ```
/// let d = cktile_analysis::layouts::triton::nvmma_shared(128, 16, false, 64).unwrap(); // 64 x 64 fp16
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

/// Triton's `#ttg.amd_rotating_shared<{vec, perPhase, maxPhase, order}>`
/// (what `tl.dot` on AMD's CDNA targets picks for an operand whose LDS write
/// and read orders differ) on a `rows x cols` tile, exactly as Triton's
/// linear layout defines it. `row_major` is `order = [1, 0]` (columns
/// contiguous); otherwise `order = [0, 1]`, and rows and columns swap roles.
///
/// In Triton's terms the contiguous dimension holds the "columns" and the
/// other one the "rows". Triton gives each power-of-two row `r = 2^j` a
/// column shift: `phase = (r / perPhase) % maxPhase` as in the swizzled
/// encoding, `block = r / (perPhase * maxPhase) % maxPhase` (which group of
/// `perPhase * maxPhase` rows `r` starts), and the shift is
/// `vec * (phase ^ block)`, wrapped to the row length. Any other row's shift
/// is the XOR of its bits' shifts: element `(row, col)` sits at
/// `row * cols + (col ^ shift(row))`. With power-of-two parameters (what
/// Triton picks) that is `col / vec ^ ((row / perPhase) % maxPhase ^ (row /
/// (perPhase * maxPhase)) % maxPhase)` in vectors, so the first block is the
/// swizzled encoding and each later one starts its phases at its block
/// number: the pattern turns `maxPhase` times before it repeats, every
/// `perPhase * maxPhase^2` rows. Other parameters are taken as Triton takes
/// them, bit by bit.
///
/// Valid when `rows` and `cols` are powers of two (Triton's linear layouts
/// cover power-of-two tiles), `perPhase` and `maxPhase` at least 1, `vec`
/// times the largest phase fits `usize`, and the row bits' shifts fit a
/// descriptor (at most `MAX_STAGES - 2` runs of swizzled bits, which
/// power-of-two parameters never pass). `vec = 0` swizzles nothing, as in
/// Triton.
///
/// ```
/// use cktile_analysis::layouts::triton::{rotating_shared, swizzled_shared};
/// // vec=1, perPhase=1, maxPhase=4 on 8 x 4: row 4 starts block 1, so it is XORed with 1.
/// let d = rotating_shared(1, 1, 4, true, 8, 4).unwrap();
/// assert_eq!([0, 1, 2, 3].map(|c| d.calculate_offset(&[4, c])), [17, 16, 19, 18]);
/// assert_eq!([0, 1, 2, 3].map(|c| d.calculate_offset(&[6, c])), [27, 26, 25, 24]); // phase 2 ^ block 1
/// // Within its first perPhase * maxPhase rows it is the swizzled encoding.
/// let s = swizzled_shared(4, 1, 16, true, 16, 64).unwrap();
/// let r = rotating_shared(4, 1, 16, true, 16, 64).unwrap();
/// assert_eq!(r.calculate_offset(&[5, 9]), s.calculate_offset(&[5, 9]));
/// ```
pub const fn rotating_shared(
    vec: usize,
    per_phase: usize,
    max_phase: usize,
    row_major: bool,
    rows: usize,
    cols: usize,
) -> Result<Descriptor, Error> {
    const NAME: &str = "triton-rotating";
    tri!(positive(NAME, "perPhase", per_phase));
    tri!(positive(NAME, "maxPhase", max_phase));
    tri!(power_of_two(
        NAME,
        "rows",
        rows,
        "it must be a power of two (Triton's linear layouts cover power-of-two tiles)"
    ));
    tri!(power_of_two(
        NAME,
        "cols",
        cols,
        "it must be a power of two (Triton's linear layouts cover power-of-two tiles)"
    ));
    // (outer, inner): Triton's rows and columns; inner is the contiguous dimension.
    let (outer, inner, major) = if row_major { (rows, cols, Major::Row) } else { (cols, rows, Major::Column) };
    let row_bits = log2(outer) as usize;
    if row_bits > MAX_ROW_BITS {
        return Err(bad(NAME, if row_major { "rows" } else { "cols" }, outer, "it must be at most 2^62"));
    }
    // The column shift of each power-of-two row, in elements (Triton's bases).
    let mut shifts = [0usize; MAX_ROW_BITS];
    let mut j = 0;
    while j < row_bits {
        let row = 1usize << j;
        let phase = (row / per_phase) % max_phase;
        let block = (row / per_phase / max_phase) % max_phase;
        let Some(shift) = vec.checked_mul(phase ^ block) else {
            return Err(bad(NAME, "vec", vec, "vec times a phase overflows"));
        };
        shifts[j] = shift % inner;
        j += 1;
    }
    let shifts = shifts.split_at(row_bits).0;
    let mut chain = [Run { bits: 0, base: 0, shift: 0 }; MAX_STAGES];
    let n = runs(shifts, log2(inner), 0, &mut chain);
    if n > MAX_STAGES - 2 {
        return Err(bad(
            NAME,
            "swizzle runs the shifts need",
            n,
            "at most 6 fit in a descriptor (power-of-two vec, perPhase and maxPhase need at most 2)",
        ));
    }
    xor_linear_tile(rows, cols, 1, shifts, major)
}
