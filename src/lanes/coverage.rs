//! Coverage: whether a distribution holds every element of a tile, how many
//! times, and which elements it misses or reaches past the tile.
//!
//! A well-formed encoding maps its (P..., Y...) indices onto the box of its
//! X lengths, each element once per combination of the R components its Ps
//! name (every H component is named at most once and every one longer than
//! 1 is named: [`Encoding::new`] checks both). So
//! the coverage of a tile follows from the X lengths and the R components,
//! at any size; the tests recompute it by enumerating every index.
//!
//! The tile is what the distribution is meant to cover: a tile window's
//! lengths, or a pattern's `YPerTile x XPerTile`. Checked against its own X
//! lengths, a distribution is always complete, and the report says how
//! often, and through which lanes, each element is replicated.
//!
//! ```
//! use cktile::distribution::{Distribution, Encoding};
//! use cktile::lanes::coverage::Coverage;
//! // CK's raked pattern before the X2 fix: 64 lanes x 1 element along X,
//! // meant for a 128 x 128 tile.
//! let old = Encoding::new(&[1], &[&[4, 1, 32], &[64, 1]], &[&[1], &[1, 2]], &[&[0], &[1, 0]], &[1, 2], &[2, 1])?;
//! let c = Coverage::new(&Distribution::new(old)?, Some(&[128, 128]))?;
//! assert_eq!((c.missing(), c.first_missing()), (8192, Some(&[0, 64][..])));
//! assert!(!c.is_complete());
//! # Ok::<(), cktile::Error>(())
//! ```

use crate::distribution::{Distribution, Encoding, EncodingProblem};
use crate::{Error, ErrorKind};
use cktile_transforms::{Dims, Index};

/// One R component longer than 1 that some P names: the lanes (or warps)
/// that differ only in it hold the same elements.
///
/// ```
/// use cktile::distribution::{Distribution, catalogue::wmma::{self, Rdna}};
/// use cktile::lanes::coverage::Coverage;
/// let c = Coverage::new(&Distribution::new(wmma::wmma_a(Rdna::Gfx11, 16)?)?, None)?;
/// // R0 (length 2) is P0's outermost component: lanes l and l + 16.
/// let r = c.replicas()[0];
/// assert_eq!((r.r, r.length, r.p, r.stride), (0, 2, 0, 16));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Replica {
    /// The R component.
    pub r: usize,
    /// Its length: the number of copies it makes.
    pub length: Index,
    /// The P that names it.
    pub p: usize,
    /// Its step in that P's index: P indices that differ by a multiple of
    /// `stride` (below `stride * length`) hold the same elements.
    pub stride: Index,
}

/// At most this many replicas: one per R component.
const MAX_REPLICAS: usize = cktile_transforms::MAX_DIMS;

/// How a distribution covers a tile.
///
/// ```
/// use cktile::distribution::{Distribution, catalogue};
/// use cktile::lanes::coverage::Coverage;
/// let d = Distribution::new(catalogue::mfma_c(16, 16)?)?;
/// let c = Coverage::new(&d, None)?;
/// assert!(c.is_complete() && c.replication() == 1);
/// assert_eq!(c.elements(), 256);
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Coverage {
    tile: Dims,
    given: bool,
    x_lengths: Dims,
    elements: u128,
    missing: u128,
    first_missing: Option<Dims>,
    outside: u128,
    first_outside: Option<Dims>,
    replication: u128,
    replicas: [Replica; MAX_REPLICAS],
    n_replicas: usize,
}

/// The row-major first coordinate of `within` that lies outside `bound`:
/// zero everywhere but the last dimension where `within` is longer, there
/// `bound`'s length.
fn first_beyond(within: &Dims, bound: &Dims) -> Option<Dims> {
    let d = (0..within.len()).rev().find(|&d| within.get(d) > bound.get(d))?;
    let mut c = [0 as Index; cktile_transforms::MAX_DIMS];
    c[d] = bound.get(d);
    Dims::from_slice(&c[..within.len()]).ok()
}

/// The elements of the box `a` that are also in the box `b` (saturating at
/// `u128::MAX`, which eight lengths near `i64::MAX` would pass).
fn overlap(a: &Dims, b: &Dims) -> u128 {
    (0..a.len()).fold(1u128, |n, d| n.saturating_mul(a.get(d).min(b.get(d)).max(0) as u128))
}

/// The R components the Ps of `e` name, with their steps, and how many.
fn replicas(e: &Encoding) -> ([Replica; MAX_REPLICAS], usize) {
    let mut out = [Replica { r: 0, length: 1, p: 0, stride: 1 }; MAX_REPLICAS];
    let mut n = 0;
    for p in 0..e.ndim_p() {
        let (major, minor) = e.p_to_rh(p);
        for i in 0..major.len() {
            let r = minor.get(i) as usize;
            // A length-1 R component copies nothing.
            if major.get(i) != 0 || e.rh_length(0, r) < 2 {
                continue;
            }
            // The merge's later components are faster.
            let stride = (i + 1..major.len())
                .map(|j| e.rh_length(major.get(j) as usize, minor.get(j) as usize) as Index)
                .product();
            if n < MAX_REPLICAS {
                out[n] = Replica { r, length: e.rh_length(0, r) as Index, p, stride };
                n += 1;
            }
        }
    }
    (out, n)
}

impl Coverage {
    /// The coverage of `tile` (the distribution's own X lengths when
    /// `None`) by `d`. A tile needs one positive length per X dimension.
    ///
    /// ```
    /// use cktile::distribution::{Distribution, catalogue};
    /// use cktile::lanes::coverage::Coverage;
    /// let d = Distribution::new(catalogue::mfma_a(16, 16)?)?;
    /// let e = Coverage::new(&d, Some(&[16])).unwrap_err();
    /// assert_eq!(
    ///     e.to_string(),
    ///     "the tile has 1 length(s) but the distribution has 2 X dimension(s); give one length per X"
    /// );
    /// // Past the tile: X is 16 x 16, the tile 16 x 8.
    /// let c = Coverage::new(&d, Some(&[16, 8]))?;
    /// assert_eq!((c.outside(), c.first_outside()), (128, Some(&[0, 8][..])));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn new(d: &Distribution, tile: Option<&[Index]>) -> Result<Coverage, Error> {
        let x_lengths = d.x_lengths();
        let bad = |p| Error::new(ErrorKind::Port(cktile_core::ErrorKind::Encoding(p)));
        let tile_given = tile.is_some();
        let tile = match tile {
            None => x_lengths,
            Some(t) => {
                if t.len() != x_lengths.len() {
                    return Err(bad(EncodingProblem::TileArity { given: t.len(), ndim_x: x_lengths.len() }));
                }
                if let Some(dim) = t.iter().position(|&l| l < 1) {
                    return Err(bad(EncodingProblem::TileLength { dim, length: t[dim] }));
                }
                Dims::from_slice(t).map_err(cktile_core::Error::transform)?
            }
        };
        let elements = overlap(&tile, &tile);
        let x_elements = overlap(&x_lengths, &x_lengths);
        let held = overlap(&tile, &x_lengths);
        let (replicas, n_replicas) = replicas(d.encoding());
        let replication = replicas[..n_replicas].iter().map(|r| r.length as u128).product();
        Ok(Coverage {
            tile,
            given: tile_given,
            x_lengths,
            elements,
            missing: elements.saturating_sub(held),
            first_missing: first_beyond(&tile, &x_lengths),
            outside: x_elements.saturating_sub(held),
            first_outside: first_beyond(&x_lengths, &tile),
            replication,
            replicas,
            n_replicas,
        })
    }

    /// The tile's lengths.
    ///
    /// ```
    /// use cktile::distribution::{Distribution, catalogue};
    /// use cktile::lanes::coverage::Coverage;
    /// let d = Distribution::new(catalogue::mfma_c(32, 8)?)?;
    /// assert_eq!(Coverage::new(&d, None)?.tile(), &[32, 32]);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn tile(&self) -> &[Index] {
        self.tile.as_slice()
    }

    /// Whether a tile was given (else the tile is X itself).
    ///
    /// ```
    /// use cktile::distribution::{Distribution, catalogue};
    /// use cktile::lanes::coverage::Coverage;
    /// let d = Distribution::new(catalogue::mfma_c(32, 8)?)?;
    /// assert!(!Coverage::new(&d, None)?.is_of_given_tile());
    /// assert!(Coverage::new(&d, Some(&[32, 32]))?.is_of_given_tile());
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn is_of_given_tile(&self) -> bool {
        self.given
    }

    /// The distribution's X lengths.
    ///
    /// ```
    /// use cktile::distribution::{Distribution, catalogue};
    /// use cktile::lanes::coverage::Coverage;
    /// let d = Distribution::new(catalogue::mfma_c(32, 8)?)?;
    /// assert_eq!(Coverage::new(&d, Some(&[64, 32]))?.x_lengths(), &[32, 32]);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn x_lengths(&self) -> &[Index] {
        self.x_lengths.as_slice()
    }

    /// The tile's number of elements.
    ///
    /// ```
    /// use cktile::distribution::{Distribution, catalogue};
    /// use cktile::lanes::coverage::Coverage;
    /// let d = Distribution::new(catalogue::mfma_c(32, 8)?)?;
    /// assert_eq!(Coverage::new(&d, Some(&[64, 32]))?.elements(), 2048);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn elements(&self) -> u128 {
        self.elements
    }

    /// The tile's elements no thread holds.
    ///
    /// ```
    /// use cktile::distribution::{Distribution, catalogue};
    /// use cktile::lanes::coverage::Coverage;
    /// let d = Distribution::new(catalogue::mfma_c(32, 8)?)?;
    /// assert_eq!(Coverage::new(&d, Some(&[64, 32]))?.missing(), 1024);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn missing(&self) -> u128 {
        self.missing
    }

    /// The first missing element in row-major order.
    ///
    /// ```
    /// use cktile::distribution::{Distribution, catalogue};
    /// use cktile::lanes::coverage::Coverage;
    /// let d = Distribution::new(catalogue::mfma_c(32, 8)?)?;
    /// assert_eq!(Coverage::new(&d, Some(&[64, 32]))?.first_missing(), Some(&[32, 0][..]));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn first_missing(&self) -> Option<&[Index]> {
        self.first_missing.as_ref().map(Dims::as_slice)
    }

    /// The elements the distribution holds outside the tile (each counted once).
    ///
    /// ```
    /// use cktile::distribution::{Distribution, catalogue};
    /// use cktile::lanes::coverage::Coverage;
    /// let d = Distribution::new(catalogue::mfma_c(32, 8)?)?;
    /// assert_eq!(Coverage::new(&d, Some(&[32, 16]))?.outside(), 512);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn outside(&self) -> u128 {
        self.outside
    }

    /// The first element outside the tile, in row-major order.
    ///
    /// ```
    /// use cktile::distribution::{Distribution, catalogue};
    /// use cktile::lanes::coverage::Coverage;
    /// let d = Distribution::new(catalogue::mfma_c(32, 8)?)?;
    /// assert_eq!(Coverage::new(&d, Some(&[32, 16]))?.first_outside(), Some(&[0, 16][..]));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn first_outside(&self) -> Option<&[Index]> {
        self.first_outside.as_ref().map(Dims::as_slice)
    }

    /// How many (P..., Y...) indices hold each held element: the product of
    /// the lengths of the R components the Ps name.
    ///
    /// ```
    /// use cktile::distribution::{Distribution, catalogue::wmma::{self, Rdna}};
    /// use cktile::lanes::coverage::Coverage;
    /// let c = Coverage::new(&Distribution::new(wmma::wmma_b(Rdna::Gfx11, 16)?)?, None)?;
    /// assert_eq!(c.replication(), 2);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn replication(&self) -> u128 {
        self.replication
    }

    /// The R components that replicate, in P order.
    ///
    /// ```
    /// use cktile::distribution::{Distribution, catalogue};
    /// use cktile::lanes::coverage::Coverage;
    /// let c = Coverage::new(&Distribution::new(catalogue::mfma_a(32, 8)?)?, None)?;
    /// assert!(c.replicas().is_empty());
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn replicas(&self) -> &[Replica] {
        &self.replicas[..self.n_replicas]
    }

    /// Whether every element of the tile is held and none past it.
    ///
    /// ```
    /// use cktile::distribution::{Distribution, catalogue};
    /// use cktile::lanes::coverage::Coverage;
    /// let d = Distribution::new(catalogue::mfma_c(32, 8)?)?;
    /// assert!(Coverage::new(&d, None)?.is_complete());
    /// assert!(!Coverage::new(&d, Some(&[32, 64]))?.is_complete());
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn is_complete(&self) -> bool {
        self.missing == 0 && self.outside == 0
    }
}
