//! How a search's tile is accessed: a ready [`Pattern`] or a CK tile window
//! over a [tile distribution](crate::distribution), each written as one
//! `--read` / `--write` argument ([`Access::parse`]).
//!
//! A distribution access is `DIST:OP`: `DIST` a catalogue name
//! (`mfma16x16x32_a`) or CK's `tile_distribution_encoding<...>` spelling,
//! `OP` the instruction each lane issues. The distribution is repeated over
//! the tile as CK's block GEMM iterates warp tiles
//! ([`repeat_over`]) and counted
//! through [`WindowAccess`], as `cktile analyze --distribution` counts it.
//!
//! ```
//! use cktile::analyzer::Pattern;
//! use cktile::search::Access;
//! assert_eq!(Access::parse("mfma16x16x16:a")?, Access::Pattern(Pattern::from_access("mfma16x16x16:a")?));
//! let a = Access::parse("mfma16x16x32_a:ds_read_b128")?;
//! assert_eq!(a.name(), "mfma16x16x32_a:ds_read_b128");
//! # Ok::<(), cktile::Error>(())
//! ```

use crate::analyzer::window::{PatternAccess, WindowAccess, repeat_over};
use crate::analyzer::{Arch, Op, Pattern};
use crate::distribution::{Distribution, Encoding};
use crate::spelling::resolve;
use crate::{Error, ErrorKind, ParameterProblem, Snippet};
use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;

/// The forms [`Access::parse`] takes, for messages.
///
/// ```
/// assert!(cktile::search::access::ALL_ACCESS_FORMS.contains("DIST:OP"));
/// ```
pub const ALL_ACCESS_FORMS: &str = "a ready pattern (OP:row, OP:column, mfma16x16x16[:a|:b][:OP], \
mfma32x32x8[:a|:b][:OP], ldmatrix.x1|x2|x4[.trans], stmatrix.x1|x2|x4[.trans], mma_sync_a) or DIST:OP \
(DIST a catalogue distribution such as mfma16x16x32_a, or CK's tile_distribution_encoding<...>)";

/// One way the tile is accessed.
///
/// ```
/// use cktile::analyzer::{Op, Pattern};
/// use cktile::distribution::catalogue;
/// use cktile::search::Access;
/// use cktile::search::DistributionAccess;
/// let a = Access::Distribution(Box::new(DistributionAccess {
///     name: "mfma32x32x8_a".into(),
///     encoding: catalogue::mfma_a(32, 8)?,
///     op: Op::DsRead { bits: 64 },
/// }));
/// assert_eq!(Access::parse("mfma32x32x8_a:ds_read_b64")?, a);
/// assert_eq!(a.op(), Op::DsRead { bits: 64 });
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Access {
    /// A ready pattern.
    Pattern(Pattern),
    /// A tile window over a distribution, repeated over the tile.
    Distribution(Box<DistributionAccess>),
}

/// A tile window over a distribution: the `DIST:OP` form of an [`Access`].
///
/// ```
/// use cktile::search::{Access, DistributionAccess};
/// let Access::Distribution(d) = Access::parse("mfma32x32x8_a:ds_read_b64")? else { unreachable!() };
/// assert_eq!((d.name.as_str(), d.encoding.ndim_x()), ("mfma32x32x8_a", 2));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DistributionAccess {
    /// The distribution as it was written (a catalogue name or CK's spelling).
    pub name: String,
    /// Its encoding.
    pub encoding: Encoding,
    /// The instruction each lane issues.
    pub op: Op,
}

impl From<Pattern> for Access {
    fn from(p: Pattern) -> Access {
        Access::Pattern(p)
    }
}

/// An access laid over a tile: the instructions and each lane's coordinate.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Tiled {
    Pattern(PatternAccess),
    Window(WindowAccess),
}

impl Tiled {
    pub fn instructions(&self) -> usize {
        match self {
            Tiled::Pattern(p) => p.instructions(),
            Tiled::Window(w) => w.instructions(),
        }
    }

    pub fn coordinate(&self, i: usize, lane: usize) -> Option<[i64; 2]> {
        match self {
            Tiled::Pattern(p) => p.coordinate(i, lane),
            Tiled::Window(w) => w.coordinate(i, lane),
        }
    }
}

impl Access {
    /// An access as `cktile search` takes it: a ready pattern
    /// ([`Pattern::from_access`]) or `DIST:OP` (see the
    /// [module documentation](self)).
    ///
    /// ```
    /// use cktile::search::Access;
    /// let ck = "ck_tile::tile_distribution_encoding<ck_tile::sequence<>, ck_tile::tuple<ck_tile::sequence<16>, \
    ///           ck_tile::sequence<4, 8>>, ck_tile::tuple<ck_tile::sequence<2, 1>>, \
    ///           ck_tile::tuple<ck_tile::sequence<0, 0>>, ck_tile::sequence<2>, ck_tile::sequence<1>>:ds_read_b128";
    /// assert_eq!(Access::parse(ck)?, Access::parse("mfma16x16x32_a:ds_read_b128")?.renamed(ck.rsplit_once(':').unwrap().0));
    /// assert!(Access::parse("mfma16x16x32_a").unwrap_err().to_string().contains("DIST:OP"));
    /// assert!(Access::parse("mfma8x8x8_a:ds_read_b64").unwrap_err().to_string().contains("mfma16x16x16"));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn parse(text: &str) -> Result<Access, Error> {
        let pattern_error = match Pattern::from_access(text) {
            Ok(p) => return Ok(Access::Pattern(p)),
            Err(e) => e,
        };
        let text = text.trim();
        // A pattern's own complaint (a wrong instruction for it) is kept; an unknown
        // name lists every form, distributions included.
        let unknown = || match pattern_error.kind() {
            ErrorKind::Port(cktile_core::ErrorKind::Parameter(ParameterProblem::UnknownName { .. })) => {
                Error::parameter(ParameterProblem::UnknownName { name: Snippet::new(text), valid: ALL_ACCESS_FORMS })
            }
            _ => pattern_error,
        };
        match text.rsplit_once(':') {
            Some((dist, op)) => match Op::by_name(op.trim()) {
                Ok(op) => {
                    let encoding = resolve(dist)?;
                    Ok(Access::Distribution(Box::new(DistributionAccess { name: dist.trim().into(), encoding, op })))
                }
                Err(op_error) if dist.contains('<') => Err(op_error),
                Err(_) => Err(unknown()),
            },
            None => Err(unknown()),
        }
    }

    /// The same access with another distribution name (a pattern is unchanged).
    ///
    /// ```
    /// use cktile::search::Access;
    /// assert_eq!(Access::parse("mfma32x32x8_a:ds_read_b64")?.renamed("A").name(), "A:ds_read_b64");
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn renamed(self, new_name: &str) -> Access {
        match self {
            Access::Distribution(d) => {
                Access::Distribution(Box::new(DistributionAccess { name: new_name.trim().into(), ..*d }))
            }
            p => p,
        }
    }

    /// The instruction it issues.
    ///
    /// ```
    /// use cktile::analyzer::Op;
    /// assert_eq!(cktile::search::Access::parse("ds_write_b64:row")?.op(), Op::DsWrite { bits: 64 });
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn op(&self) -> Op {
        match self {
            Access::Pattern(p) => p.op(),
            Access::Distribution(d) => d.op,
        }
    }

    /// The access as [`Access::parse`] reads it.
    ///
    /// ```
    /// use cktile::search::Access;
    /// for text in ["ds_write_b128:row", "mfma32x32x8:ds_read_b64", "mfma16x16x32_a:ds_read_b128"] {
    ///     assert_eq!(Access::parse(text)?.name(), text);
    /// }
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn name(&self) -> String {
        match self {
            Access::Pattern(p) => p.access_name(),
            Access::Distribution(d) => format!("{}:{}", d.name, d.op),
        }
    }

    /// For a tile window over a distribution, the window's rows and columns
    /// (the distribution's X lengths): a search repeats it over the whole
    /// tile ([`repeat_over`]), where `cktile analyze --distribution` counts
    /// the one window at the tile's origin. `None` for a ready pattern.
    ///
    /// ```
    /// use cktile::search::Access;
    /// assert_eq!(Access::parse("mfma16x16x32_a:ds_read_b128")?.window(), Some((16, 32)));
    /// assert_eq!(Access::parse("ds_write_b128:row")?.window(), None);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn window(&self) -> Option<(usize, usize)> {
        match self {
            Access::Pattern(_) => None,
            Access::Distribution(d) => {
                let length = |x: usize| d.encoding.hs_lengths(x).product().map_or(0, |n| n.max(0) as usize);
                Some((length(0), length(1)))
            }
        }
    }

    /// A short name for messages about the access.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Access::Pattern(p) => p.name(),
            Access::Distribution(_) => "distribution",
        }
    }

    /// Refuses an access of one vendor's matrix instructions on the other's chip.
    pub(crate) fn check_arch(&self, arch: &Arch) -> Result<(), Error> {
        match self {
            Access::Pattern(p) => p.check_arch(arch),
            Access::Distribution(_) => Ok(()),
        }
    }

    /// The access over a `rows x cols` tile, or why it does not fit.
    pub(crate) fn tiled(&self, rows: usize, cols: usize, element_bytes: usize, wave: usize) -> Result<Tiled, Error> {
        match self {
            Access::Pattern(p) => Ok(Tiled::Pattern(PatternAccess::new(*p, rows, cols, element_bytes, wave)?)),
            Access::Distribution(a) => {
                let d = Distribution::new(repeat_over(&a.encoding, rows, cols)?)?;
                Ok(Tiled::Window(WindowAccess::new(&d, a.op, element_bytes, wave)?))
            }
        }
    }
}
