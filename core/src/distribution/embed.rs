//! [`embed_encoding`]: CK Tile's `detail::make_embed_tile_distribution_encoding`,
//! which places an inner encoding (a warp GEMM's, say) inside an outer one
//! (how a block iterates warps and warp tiles); [`EmbedEncoding`] is the same as a
//! typed encoding, for kernel code (a `const fn`, `embed` computes both).
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
//! use cktile_core::distribution::{catalogue, embed_encoding, Distribution, Encoding};
//! // A 32x64 block of the 16x16x32 A operand: 2 warp tiles along M, 2 along K.
//! let iterate = Encoding::new(&[], &[&[2], &[2]], &[], &[], &[1, 2], &[0, 0])?;
//! let block = Distribution::new(embed_encoding(&iterate, &catalogue::mfma_a(16, 32)?)?)?;
//! assert_eq!(block.x_lengths().as_slice(), &[32, 64]);
//! // lane 21, M iteration 1, K iteration 1, register 3: (16 + 21 % 16, 32 + 8 * (21 / 16) + 3).
//! assert_eq!(block.calculate_index(&[21, 1, 1, 3])?.as_slice(), &[21, 43]);
//! # Ok::<(), cktile_core::Error>(())
//! ```

use super::encoding::{Encoding, EncodingProblem, List};
use super::typed::shape::{AdaptorShape, EmbedShape, ShapeCounts};
use super::typed::{EncodingSource, TileEncoding, encoding_or_fail, registers_or_fail};
use crate::error::{Error, ErrorKind, ParameterProblem};
use crate::typed::{AdaptorChain, Chain};
use cktile_transforms::{Dims, MAX_DIMS, tri};
use core::marker::PhantomData;
use core::ops::Mul;
use typenum::{Prod, Unsigned};

/// A list of at most [`MAX_DIMS`] `usize`s built by appending.
#[derive(Clone, Copy)]
struct Buf {
    values: [usize; MAX_DIMS],
    len: usize,
}

/// How the entries appended to a [`Buf`] are shifted: not at all, or, for
/// an inner encoding's minors, by the outer encoding's component count of
/// each entry's major (read from `majors`, the same list's majors).
#[derive(Clone, Copy)]
enum Shift<'a> {
    None,
    PastOuter { outer: &'a Encoding, majors: Dims },
}

impl Buf {
    const EMPTY: Buf = Buf { values: [0; MAX_DIMS], len: 0 };

    /// Appends `dims` (each value shifted as `shift` says), or names `list` as too long.
    const fn extend(&mut self, dims: Dims, shift: Shift<'_>, list: List) -> Result<(), Error> {
        let given = self.len + dims.len();
        if given > MAX_DIMS {
            return Err(Error::new(ErrorKind::Encoding(EncodingProblem::TooMany { list, given, max: MAX_DIMS })));
        }
        let mut i = 0;
        while i < dims.len() {
            // Encoding entries are validated: lengths >= 1, majors and minors small and non-negative.
            let by = match shift {
                Shift::None => 0,
                Shift::PastOuter { outer, majors } => outer.rh_lengths(majors.get(i) as usize).len(),
            };
            self.values[self.len] = by + dims.get(i) as usize;
            self.len += 1;
            i += 1;
        }
        Ok(())
    }

    const fn as_slice(&self) -> &[usize] {
        self.values.split_at(self.len).0
    }
}

/// CK Tile's `make_embed_tile_distribution_encoding(outer, inner)`: the
/// inner encoding embedded in the outer one (see the
/// [module documentation](self)). Both must have the same number of X
/// dimensions; the result is validated like any [`Encoding`], and a list
/// that grows past [`MAX_DIMS`] entries is named.
///
/// ```
/// use cktile_core::distribution::{catalogue, embed_encoding, Encoding};
/// // CK's block GEMM A: 2 warps along M, each iterating 2 warp tiles along M and 1 along K,
/// // the warps along N (R) holding copies.
/// let outer = Encoding::new(&[2], &[&[2, 2], &[1]], &[&[1, 0]], &[&[1, 0]], &[1, 2], &[0, 0])?;
/// let block = embed_encoding(&outer, &catalogue::mfma_a(32, 8)?)?;
/// assert_eq!(
///     block.to_string(),
///     "tile_distribution_encoding<sequence<2>, tuple<sequence<2, 2, 32>, sequence<1, 2, 4>>, \
///      tuple<sequence<1, 0>, sequence<2, 1>>, tuple<sequence<1, 0>, sequence<1, 2>>, \
///      sequence<1, 2, 2>, sequence<0, 0, 2>>"
/// );
/// // A 1-D outer does not match a 2-D inner.
/// let one_d = Encoding::new(&[], &[&[2]], &[], &[], &[1], &[0])?;
/// assert!(embed_encoding(&one_d, &catalogue::mfma_a(32, 8)?).is_err());
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub const fn embed_encoding(outer: &Encoding, inner: &Encoding) -> Result<Encoding, Error> {
    let ndim_x = outer.ndim_x();
    if inner.ndim_x() != ndim_x {
        return Err(Error::parameter(ParameterProblem::invalid_usize(
            "embed",
            "inner X dimensions",
            inner.ndim_x(),
            "the inner encoding must have as many X dimensions as the outer one",
        )));
    }
    let mut rs = Buf::EMPTY;
    tri!(rs.extend(outer.rs_lengths(), Shift::None, List::Rs));
    tri!(rs.extend(inner.rs_lengths(), Shift::None, List::Rs));
    let mut hs = [Buf::EMPTY; MAX_DIMS];
    let mut x = 0;
    while x < ndim_x && x < MAX_DIMS {
        tri!(hs[x].extend(outer.hs_lengths(x), Shift::None, List::Hs(x as u8)));
        tri!(hs[x].extend(inner.hs_lengths(x), Shift::None, List::Hs(x as u8)));
        x += 1;
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
    let mut p = 0;
    while p < n_p {
        // The outer Ps first, then the inner ones, their minors shifted past the outer components.
        let (major, minor, shift) = if p < outer.ndim_p() {
            let (major, minor) = outer.p_to_rh(p);
            (major, minor, Shift::None)
        } else {
            let (major, minor) = inner.p_to_rh(p - outer.ndim_p());
            (major, minor, Shift::PastOuter { outer, majors: major })
        };
        tri!(ps_major[p].extend(major, Shift::None, List::P(p as u8)));
        tri!(ps_minor[p].extend(minor, shift, List::P(p as u8)));
        p += 1;
    }
    let (outer_ys_major, outer_ys_minor) = outer.y_to_rh();
    let (inner_ys_major, inner_ys_minor) = inner.y_to_rh();
    let (mut ys_major, mut ys_minor) = (Buf::EMPTY, Buf::EMPTY);
    tri!(ys_major.extend(outer_ys_major, Shift::None, List::Ys));
    tri!(ys_major.extend(inner_ys_major, Shift::None, List::Ys));
    tri!(ys_minor.extend(outer_ys_minor, Shift::None, List::Ys));
    tri!(ys_minor.extend(inner_ys_minor, Shift::PastOuter { outer, majors: inner_ys_major }, List::Ys));
    let mut hs_slices: [&[usize]; MAX_DIMS] = [&[]; MAX_DIMS];
    let mut ps_major_slices: [&[usize]; MAX_DIMS] = [&[]; MAX_DIMS];
    let mut ps_minor_slices: [&[usize]; MAX_DIMS] = [&[]; MAX_DIMS];
    let mut i = 0;
    while i < MAX_DIMS {
        hs_slices[i] = hs[i].as_slice();
        ps_major_slices[i] = ps_major[i].as_slice();
        ps_minor_slices[i] = ps_minor[i].as_slice();
        i += 1;
    }
    Encoding::new(
        rs.as_slice(),
        hs_slices.split_at(ndim_x).0,
        ps_major_slices.split_at(n_p).0,
        ps_minor_slices.split_at(n_p).0,
        ys_major.as_slice(),
        ys_minor.as_slice(),
    )
}

/// CK Tile's `make_embed_tile_distribution_encoding(Outer, Inner)` as a
/// type: the typed encoding of [`embed_encoding`]`(Outer::ENCODING, Inner::ENCODING)`,
/// as CK's block GEMMs place a warp GEMM's encoding inside the block's
/// iteration over warps and warp tiles. Its thread buffer holds the
/// outer encoding's registers times the inner one's (the Ys are the outer
/// Ys followed by the inner ones), computed as a type
/// ([`TileEncoding::RegisterCount`]): nothing to write. Encodings
/// [`embed_encoding`] refuses are a compile error naming the problem.
///
/// ```
/// use cktile_core::distribution::{catalogue, embed_encoding, Distribution, EmbedEncoding, Encoding};
/// use cktile_core::distribution::typed::{TileEncoding, make_static_tile_distribution};
/// use cktile_core::tile::StaticDistributedTensor;
/// cktile_core::tile_distribution_encoding! {
///     /// CK's MFMA 32x32x8 A operand: lane l holds row l % 32, K 4 * (l / 32) + 0..4.
///     struct WarpA { rs_lengths: [], hs_lengthss: [[32], [2, 4]], ps_to_rhss_major: [[2, 1]], ps_to_rhss_minor: [[0, 0]], ys_to_rhs_major: [2], ys_to_rhs_minor: [1] }
/// }
/// cktile_core::tile_distribution_encoding! {
///     /// CK's block GEMM A outer encoding: 2 warps along N holding copies (R),
///     /// 2 warp tiles by 2 warps along M, 1 warp tile along K.
///     struct BlockA { rs_lengths: [2], hs_lengthss: [[2, 2], [1]], ps_to_rhss_major: [[1, 0]], ps_to_rhss_minor: [[1, 0]], ys_to_rhs_major: [1, 2], ys_to_rhs_minor: [0, 0] }
/// }
/// type Block = EmbedEncoding<BlockA, WarpA>;
/// assert_eq!(Block::ENCODING, embed_encoding(&BlockA::ENCODING, &WarpA::ENCODING)?);
/// // 2 x 1 warp tiles of 4 registers each.
/// assert_eq!(StaticDistributedTensor::<u16, Block>::filled(0).thread_buffer().len(), 8);
/// let d = make_static_tile_distribution::<Block>();
/// // Warp 3 (M warp 1), lane 37, M tile 1, K tile 0, register 2.
/// let x = d.calculate_index([3, 37, 1, 0, 2]);
/// assert_eq!(x, [64 + 32 + 37 % 32, 4 * (37 / 32) + 2]);
/// assert_eq!(x.map(|v| v as i64)[..], Distribution::new(Block::ENCODING)?.calculate_index(&[3, 37, 1, 0, 2])?.as_slice()[..]);
/// # Ok::<(), cktile_core::Error>(())
/// ```
///
/// ```compile_fail
/// # use cktile_core::distribution::EmbedEncoding;
/// # cktile_core::tile_distribution_encoding! {
/// #     struct WarpA { rs_lengths: [], hs_lengthss: [[32], [2, 4]], ps_to_rhss_major: [[2, 1]], ps_to_rhss_minor: [[0, 0]], ys_to_rhs_major: [2], ys_to_rhs_minor: [1] }
/// # }
/// cktile_core::tile_distribution_encoding! {
///     /// One X: it cannot hold a two-X warp encoding.
///     struct Flat { rs_lengths: [], hs_lengthss: [[2, 64]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
/// }
/// let _ = cktile_core::distribution::typed::make_static_tile_distribution::<EmbedEncoding<Flat, WarpA>>();
/// ```
pub struct EmbedEncoding<Outer, Inner>(PhantomData<(Outer, Inner)>);

impl<O, I> Clone for EmbedEncoding<O, I> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<O, I> Copy for EmbedEncoding<O, I> {}

impl<O, I> Default for EmbedEncoding<O, I> {
    fn default() -> Self {
        EmbedEncoding(PhantomData)
    }
}

impl<O, I> core::fmt::Debug for EmbedEncoding<O, I> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("EmbedEncoding")
    }
}

/// The embedded shape of `O` and `I`.
type EmbeddedShape<O, I> = <<O as TileEncoding>::Shape as EmbedShape<<I as TileEncoding>::Shape>>::Output;

impl<O: EncodingSource, I: EncodingSource> EncodingSource for EmbedEncoding<O, I> {
    const SOURCE: Encoding = encoding_or_fail(embed_encoding(&O::SOURCE, &I::SOURCE));
}

impl<O: TileEncoding, I: TileEncoding> TileEncoding for EmbedEncoding<O, I>
where
    O::Shape: EmbedShape<I::Shape>,
    EmbeddedShape<O, I>: ShapeCounts + AdaptorShape<Self>,
    <EmbeddedShape<O, I> as AdaptorShape<Self>>::PsYsToXs: AdaptorChain + Default,
    <EmbeddedShape<O, I> as AdaptorShape<Self>>::YsToD: Chain + Default,
    O::RegisterCount: Mul<I::RegisterCount>,
    Prod<O::RegisterCount, I::RegisterCount>: crate::distribution::typed::RegisterLength,
{
    const ENCODING: Encoding =
        registers_or_fail(<Self as EncodingSource>::SOURCE, <Self::RegisterCount as Unsigned>::USIZE);
    type Shape = EmbeddedShape<O, I>;
    type PsYsToXs = <EmbeddedShape<O, I> as AdaptorShape<Self>>::PsYsToXs;
    type YsToD = <EmbeddedShape<O, I> as AdaptorShape<Self>>::YsToD;
    type RegisterCount = Prod<O::RegisterCount, I::RegisterCount>;
}
