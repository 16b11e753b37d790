//! CK Tile's own C++ spelling of an [`Encoding`], as `Display` prints it:
//! `tile_distribution_encoding<sequence<...>, tuple<...>, ...>`. The
//! analysis crate (`cktile-analysis`, its `spelling` module) reads it back.

use crate::distribution::encoding::Encoding;
use crate::names::write_joined;
use alloc::vec::Vec;
use core::fmt;

fn write_seq(f: &mut fmt::Formatter<'_>, values: &[i64]) -> fmt::Result {
    f.write_str("sequence<")?;
    write_joined(f, values, ", ", |f, v| write!(f, "{v}"))?;
    f.write_str(">")
}

fn write_tuple<'a>(f: &mut fmt::Formatter<'_>, seqs: impl Iterator<Item = &'a [i64]>) -> fmt::Result {
    f.write_str("tuple<")?;
    write_joined(f, seqs, ", ", write_seq)?;
    f.write_str(">")
}

/// CK Tile's spelling, without the `ck_tile::` prefixes:
/// `tile_distribution_encoding<sequence<...>, tuple<...>, tuple<...>, tuple<...>, sequence<...>, sequence<...>>`.
/// The analysis crate's `spelling::parse` reads it back to an equal encoding.
///
/// ```
/// let a = cktile_core::distribution::catalogue::mfma_a(32, 8)?;
/// assert_eq!(
///     a.to_string(),
///     "tile_distribution_encoding<sequence<>, tuple<sequence<32>, sequence<2, 4>>, tuple<sequence<2, 1>>, \
///      tuple<sequence<0, 0>>, sequence<2>, sequence<1>>"
/// );
/// # Ok::<(), cktile_core::Error>(())
/// ```
impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hs: Vec<_> = (0..self.ndim_x()).map(|x| self.hs_lengths(x)).collect();
        let ps: Vec<_> = (0..self.ndim_p()).map(|p| self.p_to_rh(p)).collect();
        let (ys_major, ys_minor) = self.y_to_rh();
        f.write_str("tile_distribution_encoding<")?;
        write_seq(f, self.rs_lengths().as_slice())?;
        f.write_str(", ")?;
        write_tuple(f, hs.iter().map(|h| h.as_slice()))?;
        f.write_str(", ")?;
        write_tuple(f, ps.iter().map(|(major, _)| major.as_slice()))?;
        f.write_str(", ")?;
        write_tuple(f, ps.iter().map(|(_, minor)| minor.as_slice()))?;
        f.write_str(", ")?;
        write_seq(f, ys_major.as_slice())?;
        f.write_str(", ")?;
        write_seq(f, ys_minor.as_slice())?;
        f.write_str(">")
    }
}
