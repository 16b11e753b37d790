//! [`embed`]: CK Tile's `detail::make_embed_tile_distribution_encoding`,
//! which places an inner encoding (a warp GEMM's, say) inside an outer one
//! (how a block iterates warps and warp tiles).
//!
//! For each list, the outer entries come first and the inner ones after:
//!
//! - R: the outer `RsLengths` followed by the inner ones;
//! - H: for each X, the outer `HsLengthss[x]` followed by the inner ones, so
//!   the outer components are the slower part of X;
//! - P: the outer Ps followed by the inner Ps (each keeps its own list);
//! - Y: the outer Ys followed by the inner Ys.
//!
//! The inner entries' minors are shifted past the outer components of the
//! same R/H group, so they still name the components they named before.
//!
//! ```
//! use cktile::distribution::{catalogue, embed, Distribution, Encoding};
//! // A 32x64 block of the 16x16x32 A operand: 2 warp tiles along M, 2 along K.
//! let iterate = Encoding::new(&[], &[&[2], &[2]], &[], &[], &[1, 2], &[0, 0])?;
//! let block = Distribution::new(embed(&iterate, &catalogue::mfma_a(16, 32)?)?)?;
//! assert_eq!(block.x_lengths().as_slice(), &[32, 64]);
//! // lane 21, M iteration 1, K iteration 1, register 3: (16 + 21 % 16, 32 + 8 * (21 / 16) + 3).
//! assert_eq!(block.calculate_index(&[21, 1, 1, 3])?.as_slice(), &[21, 43]);
//! # Ok::<(), cktile::Error>(())
//! ```

use super::encoding::{Encoding, EncodingProblem, List};
use crate::error::{Error, ErrorKind, ParameterProblem};
use cktile_transforms::{Dims, MAX_DIMS};

/// A list of at most [`MAX_DIMS`] `usize`s built by appending.
#[derive(Clone, Copy)]
struct Buf {
    values: [usize; MAX_DIMS],
    len: usize,
}

impl Buf {
    const EMPTY: Buf = Buf { values: [0; MAX_DIMS], len: 0 };

    /// Appends `dims` (each value plus `shift`), or names `list` as too long.
    fn extend(&mut self, dims: Dims, shift: impl Fn(usize) -> usize, list: List) -> Result<(), Error> {
        let given = self.len + dims.len();
        if given > MAX_DIMS {
            return Err(Error::new(ErrorKind::Encoding(EncodingProblem::TooMany { list, given, max: MAX_DIMS })));
        }
        for (i, &v) in dims.as_slice().iter().enumerate() {
            // Encoding entries are validated: lengths >= 1, majors and minors small and non-negative.
            self.values[self.len] = shift(i) + v as usize;
            self.len += 1;
        }
        Ok(())
    }

    fn as_slice(&self) -> &[usize] {
        &self.values[..self.len]
    }
}

/// CK Tile's `make_embed_tile_distribution_encoding(outer, inner)`: the
/// inner encoding embedded in the outer one (see the
/// [module documentation](self)). Both must have the same number of X
/// dimensions; the result is validated like any [`Encoding`], and a list
/// that grows past [`MAX_DIMS`] entries is named.
///
/// ```
/// use cktile::distribution::{catalogue, embed, Encoding};
/// // CK's block GEMM A: 2 warps along M, each iterating 2 warp tiles along M and 1 along K,
/// // the warps along N (R) holding copies.
/// let outer = Encoding::new(&[2], &[&[2, 2], &[1]], &[&[1, 0]], &[&[1, 0]], &[1, 2], &[0, 0])?;
/// let block = embed(&outer, &catalogue::mfma_a(32, 8)?)?;
/// assert_eq!(
///     block.to_string(),
///     "tile_distribution_encoding<sequence<2>, tuple<sequence<2, 2, 32>, sequence<1, 2, 4>>, \
///      tuple<sequence<1, 0>, sequence<2, 1>>, tuple<sequence<1, 0>, sequence<1, 2>>, \
///      sequence<1, 2, 2>, sequence<0, 0, 2>>"
/// );
/// // A 1-D outer does not match a 2-D inner.
/// let one_d = Encoding::new(&[], &[&[2]], &[], &[], &[1], &[0])?;
/// assert!(embed(&one_d, &catalogue::mfma_a(32, 8)?).is_err());
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn embed(outer: &Encoding, inner: &Encoding) -> Result<Encoding, Error> {
    let ndim_x = outer.ndim_x();
    if inner.ndim_x() != ndim_x {
        return Err(Error::parameter(ParameterProblem::Invalid {
            context: "embed",
            parameter: "inner X dimensions",
            value: inner.ndim_x() as i64,
            requirement: "the inner encoding must have as many X dimensions as the outer one",
        }));
    }
    // How many outer components each R/H group has: the inner minors' shift.
    let outer_count = |major: usize| outer.rh_lengths(major).len();
    let mut rs = Buf::EMPTY;
    rs.extend(outer.rs_lengths(), |_| 0, List::Rs)?;
    rs.extend(inner.rs_lengths(), |_| 0, List::Rs)?;
    let mut hs = [Buf::EMPTY; MAX_DIMS];
    for (x, h) in hs.iter_mut().enumerate().take(ndim_x) {
        h.extend(outer.hs_lengths(x), |_| 0, List::Hs(x as u8))?;
        h.extend(inner.hs_lengths(x), |_| 0, List::Hs(x as u8))?;
    }
    let n_p = outer.ndim_p() + inner.ndim_p();
    if n_p > MAX_DIMS {
        return Err(Error::new(ErrorKind::Encoding(EncodingProblem::TooMany {
            list: List::Ps,
            given: n_p,
            max: MAX_DIMS,
        })));
    }
    let mut ps_major = [Buf::EMPTY; MAX_DIMS];
    let mut ps_minor = [Buf::EMPTY; MAX_DIMS];
    for p in 0..outer.ndim_p() {
        let (major, minor) = outer.p_to_rh(p);
        ps_major[p].extend(major, |_| 0, List::P(p as u8))?;
        ps_minor[p].extend(minor, |_| 0, List::P(p as u8))?;
    }
    for q in 0..inner.ndim_p() {
        let p = outer.ndim_p() + q;
        let (major, minor) = inner.p_to_rh(q);
        ps_major[p].extend(major, |_| 0, List::P(p as u8))?;
        ps_minor[p].extend(minor, |i| outer_count(major.get(i) as usize), List::P(p as u8))?;
    }
    let (outer_ys_major, outer_ys_minor) = outer.y_to_rh();
    let (inner_ys_major, inner_ys_minor) = inner.y_to_rh();
    let (mut ys_major, mut ys_minor) = (Buf::EMPTY, Buf::EMPTY);
    ys_major.extend(outer_ys_major, |_| 0, List::Ys)?;
    ys_major.extend(inner_ys_major, |_| 0, List::Ys)?;
    ys_minor.extend(outer_ys_minor, |_| 0, List::Ys)?;
    ys_minor.extend(inner_ys_minor, |i| outer_count(inner_ys_major.get(i) as usize), List::Ys)?;
    let hs_slices: [&[usize]; MAX_DIMS] = core::array::from_fn(|x| hs[x].as_slice());
    let ps_major_slices: [&[usize]; MAX_DIMS] = core::array::from_fn(|p| ps_major[p].as_slice());
    let ps_minor_slices: [&[usize]; MAX_DIMS] = core::array::from_fn(|p| ps_minor[p].as_slice());
    Encoding::new(
        rs.as_slice(),
        &hs_slices[..ndim_x],
        &ps_major_slices[..n_p],
        &ps_minor_slices[..n_p],
        ys_major.as_slice(),
        ys_minor.as_slice(),
    )
}
