//! [`Encoding`]: CK Tile's `tile_distribution_encoding<R, H, P2RH major,
//! P2RH minor, Y2RH major, Y2RH minor>` as validated data, and
//! [`EncodingProblem`], what a malformed one gets wrong.
//!
//! The six lists, in CK's names:
//!
//! - `RsLengths`: the replicated dimensions R (lanes or warps that hold the
//!   same data);
//! - `HsLengthss`: for each tensor dimension X, the lengths of its hidden
//!   components H, slowest first (`X_i = unmerge(HsLengthss[i])`);
//! - `Ps2RHssMajor`, `Ps2RHssMinor`: for each partition dimension P (the
//!   lane, or the warp then the lane), the R/H components it merges, slowest
//!   first; major 0 is R, major `i + 1` is the H of X_i, the minor indexes
//!   within it;
//! - `Ys2RHsMajor`, `Ys2RHsMinor`: for each per-thread dimension Y, the one H
//!   component it walks (a Y never names R).

use crate::descriptor::tri;
use crate::error::{DescriptorProblem, Error, ErrorKind};
pub use crate::error::{EncodingEntry, EncodingProblem, List, Numbers};
use cktile_transforms::{Dims, Index, MAX_DIMS};

const fn bad(problem: EncodingProblem) -> Error {
    Error::new(ErrorKind::Encoding(problem))
}

/// A list of at most [`MAX_DIMS`] entries as [`Dims`], or which list is too long.
const fn list(values: &[usize], which: List) -> Result<Dims, Error> {
    if values.len() > MAX_DIMS {
        return Err(bad(EncodingProblem::TooMany { list: which, given: values.len(), max: MAX_DIMS }));
    }
    match Dims::from_usizes(values) {
        Ok(d) => Ok(d),
        Err(source) => Err(Error::descriptor(DescriptorProblem::Transform { item: 0, source })),
    }
}

/// A list's `(major, minor)` pair `i`, refused when the two lists differ
/// in length.
const fn same_count(major: usize, minor: usize, which: List) -> Result<(), Error> {
    if major != minor {
        return Err(bad(EncodingProblem::CountMismatch { list: which, major, minor }));
    }
    Ok(())
}

/// CK Tile's `tile_distribution_encoding`, validated: see the
/// [module documentation](self) for the six lists.
///
/// Build one with [`Encoding::new`], read one from CK's C++ spelling with
/// the analysis crate's `spelling::parse` (its `Display` prints that
/// spelling back), or take one from the
/// [`catalogue`](crate::distribution::catalogue).
///
/// ```
/// use cktile_core::distribution::Encoding;
/// // CK's warp-GEMM A operand for 32x32x8 fp16 MFMA: X = (M, K),
/// // M = 32 lanes, K = 2 lane groups x 4 registers; the lane merges (K lane, M lane).
/// let a = Encoding::new(&[], &[&[32], &[2, 4]], &[&[2, 1]], &[&[0, 0]], &[2], &[1])?;
/// assert_eq!((a.ndim_x(), a.ndim_p(), a.ndim_y(), a.ndim_r()), (2, 1, 1, 0));
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Encoding {
    rs: Dims,
    hs: [Dims; MAX_DIMS],
    n_x: u8,
    ps_major: [Dims; MAX_DIMS],
    ps_minor: [Dims; MAX_DIMS],
    n_p: u8,
    ys_major: Dims,
    ys_minor: Dims,
}

impl Encoding {
    /// An encoding from CK's six lists, in CK's order, checked: every list
    /// within capacity ([`MAX_DIMS`] entries; at most [`MAX_DIMS`] P and Y
    /// dimensions together), major and minor lists of equal lengths, every
    /// length at least 1, every X with at least one H entry, every P with at
    /// least one entry, at least one Y, every (major, minor) naming an
    /// existing R/H component (and a Y never naming R), no component named
    /// twice, and every H component longer than 1 named by some P or Y.
    ///
    /// ```
    /// use cktile_core::distribution::Encoding;
    /// let e = Encoding::new(&[], &[&[16], &[4, 4]], &[&[2, 1]], &[&[0, 0]], &[2, 1], &[1, 0]).unwrap_err();
    /// assert_eq!(
    ///     e.to_string(),
    ///     "Ps2RHss{Major,Minor}[0][1] and Ys2RHs{Major,Minor}[1] both name RH component (1, 0); each R or H \
    ///      component belongs to at most one P or Y"
    /// );
    /// ```
    pub const fn new(
        rs: &[usize],
        hs: &[&[usize]],
        ps_major: &[&[usize]],
        ps_minor: &[&[usize]],
        ys_major: &[usize],
        ys_minor: &[usize],
    ) -> Result<Encoding, Error> {
        let mut enc = Encoding {
            rs: tri!(list(rs, List::Rs)),
            hs: [Dims::EMPTY; MAX_DIMS],
            n_x: 0,
            ps_major: [Dims::EMPTY; MAX_DIMS],
            ps_minor: [Dims::EMPTY; MAX_DIMS],
            n_p: 0,
            ys_major: Dims::EMPTY,
            ys_minor: Dims::EMPTY,
        };
        if hs.is_empty() {
            return Err(bad(EncodingProblem::Empty { list: List::Xs }));
        }
        if hs.len() > MAX_DIMS {
            return Err(bad(EncodingProblem::TooMany { list: List::Xs, given: hs.len(), max: MAX_DIMS }));
        }
        let mut x = 0;
        while x < hs.len() {
            enc.hs[x] = tri!(list(hs[x], List::Hs(x as u8)));
            x += 1;
        }
        enc.n_x = hs.len() as u8;
        tri!(same_count(ps_major.len(), ps_minor.len(), List::Ps));
        if ps_major.len() > MAX_DIMS {
            return Err(bad(EncodingProblem::TooMany { list: List::Ps, given: ps_major.len(), max: MAX_DIMS }));
        }
        let mut p = 0;
        while p < ps_major.len() {
            tri!(same_count(ps_major[p].len(), ps_minor[p].len(), List::P(p as u8)));
            enc.ps_major[p] = tri!(list(ps_major[p], List::P(p as u8)));
            enc.ps_minor[p] = tri!(list(ps_minor[p], List::P(p as u8)));
            p += 1;
        }
        enc.n_p = ps_major.len() as u8;
        tri!(same_count(ys_major.len(), ys_minor.len(), List::Ys));
        enc.ys_major = tri!(list(ys_major, List::Ys));
        enc.ys_minor = tri!(list(ys_minor, List::Ys));
        tri!(enc.validate());
        Ok(enc)
    }

    /// The semantic checks of [`new`](Self::new), once the lists are stored.
    const fn validate(&self) -> Result<(), Error> {
        let mut i = 0;
        while i < self.rs.len() {
            if self.rs.get(i) == 0 {
                return Err(bad(EncodingProblem::ZeroLength { entry: EncodingEntry::R(i as u8) }));
            }
            i += 1;
        }
        let mut x = 0;
        while x < self.ndim_x() {
            if self.hs[x].is_empty() {
                return Err(bad(EncodingProblem::Empty { list: List::Hs(x as u8) }));
            }
            let mut i = 0;
            while i < self.hs[x].len() {
                if self.hs[x].get(i) == 0 {
                    return Err(bad(EncodingProblem::ZeroLength { entry: EncodingEntry::H(x as u8, i as u8) }));
                }
                i += 1;
            }
            x += 1;
        }
        let mut p = 0;
        while p < self.ndim_p() {
            if self.ps_major[p].is_empty() {
                return Err(bad(EncodingProblem::Empty { list: List::P(p as u8) }));
            }
            p += 1;
        }
        if self.ys_major.is_empty() {
            return Err(bad(EncodingProblem::Empty { list: List::Ys }));
        }
        let top = self.ndim_p() + self.ndim_y();
        if top > MAX_DIMS {
            return Err(bad(EncodingProblem::TooMany { list: List::Top, given: top, max: MAX_DIMS }));
        }
        // owner[major][minor]: the P/Y entry naming each R/H component.
        let mut owner = [[None::<EncodingEntry>; MAX_DIMS]; MAX_DIMS + 1];
        let mut p = 0;
        while p < self.ndim_p() {
            let mut i = 0;
            while i < self.ps_major[p].len() {
                let entry = EncodingEntry::P(p as u8, i as u8);
                tri!(self.claim(&mut owner, entry, self.ps_major[p].get(i), self.ps_minor[p].get(i)));
                i += 1;
            }
            p += 1;
        }
        let mut i = 0;
        while i < self.ndim_y() {
            tri!(self.claim(&mut owner, EncodingEntry::Y(i as u8), self.ys_major.get(i), self.ys_minor.get(i)));
            i += 1;
        }
        let mut x = 0;
        while x < self.ndim_x() {
            let mut i = 0;
            while i < self.hs[x].len() {
                let length = self.hs[x].get(i);
                if length > 1 && owner[x + 1][i].is_none() {
                    return Err(bad(EncodingProblem::Unowned { entry: EncodingEntry::H(x as u8, i as u8), length }));
                }
                i += 1;
            }
            x += 1;
        }
        let needed = self.p_hidden(self.ndim_p());
        if needed > crate::adaptor::MAX_HIDDEN {
            return Err(bad(EncodingProblem::TooManyHidden { needed, max: crate::adaptor::MAX_HIDDEN }));
        }
        Ok(())
    }

    /// Records that `entry` (a P or Y entry) names R/H component
    /// `(major, minor)`, refusing a component that does not exist (or an R
    /// one for a Y) and one already named.
    const fn claim(
        &self,
        owner: &mut [[Option<EncodingEntry>; MAX_DIMS]; MAX_DIMS + 1],
        entry: EncodingEntry,
        major: Index,
        minor: Index,
    ) -> Result<(), Error> {
        let ndim_x = self.ndim_x();
        let is_y = matches!(entry, EncodingEntry::Y(_));
        if major < 0 || major as usize > ndim_x || (is_y && major == 0) {
            return Err(bad(EncodingProblem::MajorOutOfRange { entry, major: major as usize, ndim_x }));
        }
        let major = major as usize;
        let count = self.rh_lengths(major).len();
        if minor < 0 || minor as usize >= count {
            return Err(bad(EncodingProblem::MinorOutOfRange { entry, major, minor: minor as usize, count }));
        }
        let minor = minor as usize;
        if let Some(first) = owner[major][minor] {
            return Err(bad(EncodingProblem::Shared { first, second: entry, major, minor }));
        }
        owner[major][minor] = Some(entry);
        Ok(())
    }

    /// The hidden id of R/H component `(major, minor)` in the
    /// distribution's `ps_ys_to_xs` adaptor, numbered as CK numbers them:
    /// the X dimensions first (`0..ndim_x`), then the R components, then
    /// each X's H components in order, then one per P.
    ///
    /// ```
    /// // distribution(r(1), h((2, 4, 16), (4, 8)), ...): X 0, 1; R 2; H0 3, 4, 5; H1 6, 7; P 8, 9.
    /// let e = cktile_core::distribution::catalogue::gemm_dram(256, 128, 32, 8)?;
    /// assert_eq!((e.rh_hidden(0, 0), e.rh_hidden(1, 2), e.rh_hidden(2, 0), e.p_hidden(1)), (2, 5, 6, 9));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn rh_hidden(&self, major: usize, minor: usize) -> usize {
        let mut id = self.ndim_x();
        if major > 0 {
            id += self.ndim_r();
            let mut x = 0;
            while x + 1 < major && x < MAX_DIMS {
                id += self.hs[x].len();
                x += 1;
            }
        }
        id + minor
    }

    /// The hidden id of P dimension `p` in the `ps_ys_to_xs` adaptor (see
    /// [`rh_hidden`](Self::rh_hidden)); `p_hidden(ndim_p())` is the number
    /// of hidden dimensions.
    ///
    /// ```
    /// let e = cktile_core::distribution::catalogue::mfma_a(32, 8)?;
    /// assert_eq!((e.p_hidden(0), e.p_hidden(1)), (5, 6));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn p_hidden(&self, p: usize) -> usize {
        self.rh_hidden(self.ndim_x() + 1, 0) + p
    }

    /// The length of R/H component `(major, minor)` (0 when there is none).
    ///
    /// ```
    /// let e = cktile_core::distribution::catalogue::mfma_a(32, 8)?;
    /// assert_eq!((e.rh_length(1, 0), e.rh_length(2, 1), e.rh_length(2, 5)), (32, 4, 0));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn rh_length(&self, major: usize, minor: usize) -> usize {
        let lengths = self.rh_lengths(major);
        if minor < lengths.len() { lengths.get(minor) as usize } else { 0 }
    }

    /// Number of X (tensor) dimensions: `HsLengthss::size()`.
    ///
    /// ```
    /// let a = cktile_core::distribution::catalogue::mfma_a(32, 8)?;
    /// assert_eq!(a.ndim_x(), 2);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn ndim_x(&self) -> usize {
        self.n_x as usize
    }

    /// Number of P (partition) dimensions.
    ///
    /// ```
    /// let a = cktile_core::distribution::catalogue::mfma_a(32, 8)?;
    /// assert_eq!(a.ndim_p(), 1);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn ndim_p(&self) -> usize {
        self.n_p as usize
    }

    /// Number of Y (per-thread) dimensions.
    ///
    /// ```
    /// let c = cktile_core::distribution::catalogue::mfma_c(32, 8)?;
    /// assert_eq!(c.ndim_y(), 2);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn ndim_y(&self) -> usize {
        self.ys_major.len()
    }

    /// Number of R (replicated) dimensions.
    ///
    /// ```
    /// let a = cktile_core::distribution::catalogue::mfma_a(32, 8)?;
    /// assert_eq!(a.ndim_r(), 0);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn ndim_r(&self) -> usize {
        self.rs.len()
    }

    /// `RsLengths`.
    ///
    /// ```
    /// let e = cktile_core::distribution::Encoding::new(&[2], &[&[4]], &[&[0, 1]], &[&[0, 0]], &[], &[]);
    /// assert!(e.is_err()); // no Y
    /// let e = cktile_core::distribution::Encoding::new(&[2], &[&[4, 2]], &[&[0, 1]], &[&[0, 0]], &[1], &[1])?;
    /// assert_eq!(e.rs_lengths().as_slice(), &[2]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn rs_lengths(&self) -> Dims {
        self.rs
    }

    /// `HsLengthss[x]` (empty past the X dimensions).
    ///
    /// ```
    /// let a = cktile_core::distribution::catalogue::mfma_a(32, 8)?;
    /// assert_eq!(a.hs_lengths(1).as_slice(), &[2, 4]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn hs_lengths(&self, x: usize) -> Dims {
        if x < MAX_DIMS { self.hs[x] } else { Dims::EMPTY }
    }

    /// The lengths of R/H group `major` (0: `RsLengths`, `i + 1`: `HsLengthss[i]`).
    ///
    /// ```
    /// let a = cktile_core::distribution::catalogue::mfma_a(32, 8)?;
    /// assert_eq!(a.rh_lengths(2).as_slice(), &[2, 4]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn rh_lengths(&self, major: usize) -> Dims {
        if major == 0 { self.rs } else { self.hs_lengths(major - 1) }
    }

    /// `(Ps2RHssMajor[p], Ps2RHssMinor[p])` (empty past the P dimensions).
    ///
    /// ```
    /// let a = cktile_core::distribution::catalogue::mfma_a(32, 8)?;
    /// let (major, minor) = a.p_to_rh(0);
    /// assert_eq!((major.as_slice(), minor.as_slice()), (&[2, 1][..], &[0, 0][..]));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn p_to_rh(&self, p: usize) -> (Dims, Dims) {
        if p < MAX_DIMS { (self.ps_major[p], self.ps_minor[p]) } else { (Dims::EMPTY, Dims::EMPTY) }
    }

    /// `(Ys2RHsMajor, Ys2RHsMinor)`.
    ///
    /// ```
    /// let c = cktile_core::distribution::catalogue::mfma_c(32, 8)?;
    /// let (major, minor) = c.y_to_rh();
    /// assert_eq!((major.as_slice(), minor.as_slice()), (&[1, 1][..], &[0, 2][..]));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn y_to_rh(&self) -> (Dims, Dims) {
        (self.ys_major, self.ys_minor)
    }

    /// The number of Y indices, the product of the Y lengths: the elements
    /// of a thread's buffer (CK's `thread_buffer_size`), saturating at
    /// `usize::MAX`.
    ///
    /// ```
    /// use cktile_core::distribution::Encoding;
    /// // CK's GEMM A DRAM distribution (256 threads, 128 x 32, KPack 8): Y = (2, 8).
    /// let e = Encoding::new(&[], &[&[2, 4, 16], &[4, 8]], &[&[1], &[1, 2]], &[&[1], &[2, 0]], &[1, 2], &[0, 1])?;
    /// assert_eq!(e.y_elements(), 16);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn y_elements(&self) -> usize {
        let mut n: usize = 1;
        let mut i = 0;
        while i < self.ys_major.len() {
            n = n.saturating_mul(self.rh_length(self.ys_major.get(i) as usize, self.ys_minor.get(i) as usize));
            i += 1;
        }
        n
    }
}
