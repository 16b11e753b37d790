//! Row padding: the memory-for-conflicts alternative to swizzling.

use super::build::{bad, positive};
use crate::Error;
use cktile_core::Descriptor;
use cktile_transforms::tri;

/// A row-major `rows x cols` tile whose rows are padded by `pad` elements:
/// `offset = row * (cols + pad) + col`. Injective; the holes are the last
/// `pad` elements of every row but the last. (CK Tile's KPack-granular
/// padding is [`ck::v1_padded`](super::ck::v1_padded).)
///
/// ```
/// let d = cktile_analysis::layouts::padding::row_padded(128, 64, 8).unwrap();
/// assert_eq!(d.calculate_offset(&[1, 0]), 72);
/// assert_eq!(d.element_space_size(), 127 * 72 + 64);
/// ```
pub const fn row_padded(rows: usize, cols: usize, pad: usize) -> Result<Descriptor, Error> {
    tri!(positive("row-padded", "rows", rows));
    tri!(positive("row-padded", "cols", cols));
    let Some(pitch) = cols.checked_add(pad) else {
        return Err(bad("row-padded", "pad", pad, "cols + pad overflows"));
    };
    crate::error::lift(Descriptor::naive(&[rows, cols], &[pitch, 1]))
}
