//! The accesses a request names, resolved once for every caller (`cktile
//! analyze`, `cktile render --view banks`, the guide's explorer): a ready
//! [`Pattern`] by its name, or a CK tile window over a
//! [distribution](crate::distribution) issuing one instruction
//! ([`window`](crate::analyzer::window)). [`Accesses::resolve`] reads the names and
//! the distribution's text, saying which input a refusal belongs to
//! ([`Unresolved`]); [`Accesses::analyze`] reports a tile under them.
//!
//! ```
//! use cktile::reports::accesses::Accesses;
//! use cktile::analyzer::{arch, Op};
//! let lds = cktile::Descriptor::packed(&[128, 32])?;
//! let read = Accesses::resolve(None, Some("mfma16x16x32_a"), Some(Op::DsRead { bits: 128 }))
//!     ?
//!     .ok_or("no accesses")?;
//! assert_eq!(read.analyze(&lds, 2, &arch::GFX942, &mut |_, _| {})?.counts.instructions, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::banks::analyze_distribution;
use super::banks::{TileReport, analyze_tile_report_with_progress};
use super::partitions::{PartitionReport, partitions};
use crate::analyzer::AnalyzerProblem;
use crate::analyzer::arch::{Arch, Chip};
use crate::analyzer::op::Op;
use crate::analyzer::pattern::Pattern;
use crate::distribution::Distribution;
use crate::spelling;
use crate::{Descriptor, Error, ErrorKind, Item, ParameterProblem, Transform};
use alloc::boxed::Box;
use core::fmt;

/// How a tile is accessed: a ready pattern, or a CK tile window over a
/// distribution issuing one instruction.
///
/// ```
/// use cktile::reports::accesses::Accesses;
/// use cktile::analyzer::{Op, Pattern};
/// let a = Accesses::resolve(Some("mfma16"), None, None)?;
/// assert!(matches!(a, Some(Accesses::Pattern(Pattern::Mfma { mdim: 16, .. }))));
/// assert!(Accesses::resolve(None, None, Some(Op::DsRead { bits: 32 }))?.is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Accesses {
    /// A ready pattern.
    Pattern(Pattern),
    /// A CK tile window over a distribution.
    Window {
        /// The distribution.
        distribution: Box<Distribution>,
        /// The instruction each access issues.
        op: Op,
    },
}

/// Why the inputs name no accesses, by the input at fault.
///
/// ```
/// use cktile::reports::accesses::{Accesses, Unresolved};
/// assert!(matches!(Accesses::resolve(Some("mfma99"), None, None), Err(Unresolved::Pattern(_))));
/// let e = Accesses::resolve(None, Some("tile_distribution_encoding<"), None).unwrap_err();
/// assert!(matches!(e, Unresolved::Distribution(ref e) if e.position().is_some()));
/// assert!(matches!(Accesses::resolve(None, Some("mfma16x16x16_a"), None), Err(Unresolved::NoOp(_))));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Unresolved {
    /// The pattern's name, or the instruction given with it, is refused.
    Pattern(Error),
    /// The distribution's text does not parse, or does not make a
    /// distribution (a position points into the text).
    Distribution(Error),
    /// A distribution without the instruction its accesses issue; the
    /// distribution itself, for a caller that still shows it.
    NoOp(Box<Distribution>),
}

impl fmt::Display for Unresolved {
    /// The pattern's or the distribution's error, or for a missing
    /// instruction "a distribution needs the instruction it issues".
    ///
    /// ```
    /// use cktile::reports::accesses::Accesses;
    /// let e = Accesses::resolve(None, Some("mfma16x16x16_a"), None).unwrap_err();
    /// assert_eq!(e.to_string(), "a distribution needs the instruction it issues");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unresolved::Pattern(e) | Unresolved::Distribution(e) => write!(f, "{e}"),
            Unresolved::NoOp(_) => f.write_str("a distribution needs the instruction it issues"),
        }
    }
}

impl core::error::Error for Unresolved {}

impl Accesses {
    /// The accesses a pattern's name, a distribution's text (CK's or
    /// cktile's spelling, or a catalogue name) and an instruction name: the
    /// distribution's window when one is given (it needs `op`), else the
    /// pattern ([`Pattern::by_name`], `op` choosing its instruction), else
    /// `None`, for the caller to say what is missing.
    ///
    /// ```
    /// use cktile::reports::accesses::Accesses;
    /// use cktile::analyzer::Op;
    /// let op = Some(Op::DsRead { bits: 64 });
    /// // The distribution wins over the pattern.
    /// let a = Accesses::resolve(Some("rows"), Some("mfma32x32x8_a"), op)?;
    /// assert!(matches!(a, Some(Accesses::Window { op: Op::DsRead { bits: 64 }, .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resolve(
        pattern: Option<&str>,
        distribution: Option<&str>,
        op: Option<Op>,
    ) -> Result<Option<Accesses>, Unresolved> {
        match (pattern, distribution) {
            (_, Some(text)) => {
                let distribution = spelling::resolve(text)
                    .and_then(|e| Ok(Distribution::new(e)?))
                    .map_err(Unresolved::Distribution)?;
                match op {
                    Some(op) => Ok(Some(Accesses::Window { distribution: Box::new(distribution), op })),
                    None => Err(Unresolved::NoOp(Box::new(distribution))),
                }
            }
            (Some(name), None) => {
                Pattern::by_name(name, op).map(|p| Some(Accesses::Pattern(p))).map_err(Unresolved::Pattern)
            }
            (None, None) => Ok(None),
        }
    }

    /// Every instruction of the accesses over the 2-D `desc` with elements
    /// of `element_bytes` on `arch`, reported as `cktile analyze` prints it:
    /// a pattern as [`analyze_tile_report_with_progress`] (telling
    /// `progress(done, total)` as it goes), a window as
    /// [`analyze_distribution`] (which reports no progress). An error with a
    /// position points into the distribution's text; any other concerns the
    /// layout or the accesses as a whole.
    ///
    /// ```
    /// use cktile::reports::accesses::Accesses;
    /// use cktile::analyzer::{arch, Op, Pattern};
    /// let naive = cktile::Descriptor::packed(&[128, 64])?;
    /// let read = Accesses::Pattern(Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } });
    /// assert_eq!(read.analyze(&naive, 2, &arch::GFX942, &mut |_, _| {})?.counts.conflict_cycles, 384);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn analyze(
        &self,
        desc: &Descriptor,
        element_bytes: usize,
        arch: &Arch,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<TileReport, Error> {
        let report = |d: &Descriptor, progress: &mut dyn FnMut(u64, u64)| match self {
            Accesses::Pattern(pattern) => analyze_tile_report_with_progress(d, element_bytes, arch, *pattern, progress),
            Accesses::Window { distribution, op } => analyze_distribution(d, element_bytes, arch, distribution, *op),
        };
        let first = report(desc, progress);
        // A transposing instruction over a transposed view: say so, and how to give the stored layout.
        match first {
            Err(e)
                if self.transposes()
                    && matches!(e.kind(), ErrorKind::Analyzer(AnalyzerProblem::VectorNotContiguous { .. })) =>
            {
                let lengths = desc.lengths();
                match transposed(desc) {
                    Some(t) if report(&t, &mut |_, _| {}).is_ok() => {
                        Err(Error::analyzer(AnalyzerProblem::TransposedView {
                            op: self.op(),
                            rows: lengths.get(0),
                            cols: lengths.get(1),
                        }))
                    }
                    _ => Err(e),
                }
            }
            other => other,
        }
    }

    /// The instruction the accesses issue.
    fn op(&self) -> Op {
        match self {
            Accesses::Pattern(p) => p.op(),
            Accesses::Window { op, .. } => *op,
        }
    }

    /// Whether that instruction transposes in registers.
    fn transposes(&self) -> bool {
        matches!(
            self.op(),
            Op::Ldmatrix { trans: true, .. }
                | Op::Stmatrix { trans: true, .. }
                | Op::DsReadTr { .. }
                | Op::DsLoadTr { .. }
        )
    }

    /// gfx1250's partition check of a window over `desc`, the layout at
    /// LDS byte `base` (0 when `None`;
    /// [`partitions`]): `None` for a pattern
    /// (it has no warps) or on another chip (no public source gives its
    /// partitions); what `cktile analyze` prints beside a window's bank
    /// report. A `base` given where no check runs is refused, naming why.
    ///
    /// ```
    /// use cktile::reports::accesses::Accesses;
    /// use cktile::analyzer::{arch, Op};
    /// let lds = cktile::Descriptor::packed(&[128, 32])?;
    /// let w = Accesses::resolve(None, Some("block_raked_128x128x32_v8_w32"), Some(Op::DsWrite { bits: 128 }))?
    ///     .ok_or("no accesses")?;
    /// assert_eq!(w.partitions(&lds, 2, &arch::GFX1250, None)?.map(|p| p.conflicted()), Some(4));
    /// assert!(w.partitions(&lds, 2, &arch::GFX950, None)?.is_none());
    /// assert!(w.partitions(&lds, 2, &arch::GFX950, Some(0)).unwrap_err().to_string().contains("gfx1250"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn partitions(
        &self,
        desc: &Descriptor,
        element_bytes: usize,
        arch: &Arch,
        base: Option<u64>,
    ) -> Result<Option<PartitionReport>, Error> {
        let misplaced = |value: u64, requirement: &'static str| {
            Err(Error::parameter(ParameterProblem::InvalidUnsigned {
                context: "partition check",
                parameter: "LDS base",
                value,
                requirement,
            }))
        };
        match (self, base) {
            (Accesses::Window { distribution, op }, _) if arch.chip() == Chip::Gfx1250 => {
                partitions(desc, element_bytes, arch, distribution, *op, base.unwrap_or(0)).map(Some)
            }
            (_, None) => Ok(None),
            (Accesses::Window { .. }, Some(b)) => misplaced(
                b,
                "the partition check runs on gfx1250 only, the one chip a public source gives LDS partitions for",
            ),
            (Accesses::Pattern(_), Some(b)) => misplaced(
                b,
                "the partition check compares warps, so it runs on a distribution's window on gfx1250, not a pattern",
            ),
        }
    }
}

/// The 2-D `desc` with its dimensions swapped (`None` for another rank):
/// the stored layout of a transposed view.
fn transposed(desc: &Descriptor) -> Option<Descriptor> {
    let l = desc.lengths();
    if l.len() != 2 {
        return None;
    }
    let (rows, cols) = (usize::try_from(l.get(0)).ok()?, usize::try_from(l.get(1)).ok()?);
    let a = Item::new(Transform::pass_through(cols).ok()?, &[1], &[0]).ok()?;
    let b = Item::new(Transform::pass_through(rows).ok()?, &[0], &[1]).ok()?;
    desc.transform(&[a, b]).ok()
}
