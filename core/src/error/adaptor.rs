//! What breaks a tensor adaptor's hidden-dimension wiring
//! ([`AdaptorProblem`]), with the messages. Here, below the adaptors, so the
//! crate's one error type can carry it; `cktile_core::adaptor` re-exports it. The
//! adaptor's capacity limits are the adaptor's
//! ([`MAX_TRANSFORMS`](crate::adaptor::MAX_TRANSFORMS),
//! [`MAX_HIDDEN`](crate::adaptor::MAX_HIDDEN)); a problem carries the limit
//! it broke.

use super::Numbers;
use cktile_transforms::Index;
use core::fmt;

/// What is wrong with an adaptor's hidden-dimension wiring. Carried by
/// [`ErrorKind::Adaptor`](crate::ErrorKind::Adaptor).
///
/// ```
/// use cktile_core::adaptor::{Adaptor, AdaptorProblem};
/// use cktile_core::transforms::{Dims, Transform};
/// use cktile_core::{ErrorKind, Item};
/// // The merge reads hidden dimension 5, which nothing produces.
/// let merge = Item::new(Transform::merge(&[4, 8])?, &[1, 5], &[3])?;
/// let split = Item::new(Transform::unmerge(&[4, 8])?, &[0], &[1, 2])?;
/// let e = Adaptor::new(Dims::from_slice(&[32])?, &[split, merge], &[0], &[3]).unwrap_err();
/// assert!(matches!(e.kind(), ErrorKind::Adaptor(AdaptorProblem::NotYetProduced { transform: 1, id: 5 })));
/// assert_eq!(
///     e.to_string(),
///     "adaptor transform 1 reads hidden dimension 5, which is neither a bottom dimension nor produced by an earlier transform"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AdaptorProblem {
    /// More transforms than the adaptor holds
    /// ([`MAX_TRANSFORMS`](crate::adaptor::MAX_TRANSFORMS)).
    TooManyTransforms {
        /// How many were given.
        given: usize,
        /// The most an adaptor holds.
        max: usize,
    },
    /// A hidden id at or past the adaptor's
    /// ([`MAX_HIDDEN`](crate::adaptor::MAX_HIDDEN)).
    IdTooLarge {
        /// The id.
        id: usize,
        /// The ids must be below it.
        max: usize,
    },
    /// The bottom ids and the bottom lengths differ in number.
    BottomCount {
        /// Number of bottom ids.
        ids: usize,
        /// Number of bottom lengths.
        lengths: usize,
    },
    /// A bottom id is listed twice.
    BottomRepeated {
        /// The id.
        id: usize,
    },
    /// A transform reads a hidden dimension nothing has produced yet.
    NotYetProduced {
        /// The transform.
        transform: usize,
        /// The hidden id.
        id: usize,
    },
    /// A transform produces a hidden dimension that already exists.
    ProducedTwice {
        /// The transform.
        transform: usize,
        /// The hidden id.
        id: usize,
    },
    /// Two transforms read (and so would both write, going down) the same
    /// hidden dimension.
    ReadTwice {
        /// The first transform reading it.
        first: usize,
        /// The second.
        second: usize,
        /// The hidden id.
        id: usize,
    },
    /// A top id names a hidden dimension nothing produces.
    TopUnknown {
        /// The hidden id.
        id: usize,
    },
    /// A top id is listed twice.
    TopRepeated {
        /// The hidden id.
        id: usize,
    },
    /// A top dimension is also read by a transform, which would overwrite it.
    TopRead {
        /// The hidden id.
        id: usize,
        /// The transform that reads it.
        transform: usize,
    },
    /// A bottom dimension is neither a top dimension nor read by any
    /// transform, so no top index reaches it.
    BottomUnreached {
        /// Its position among the bottom dimensions.
        position: usize,
        /// Its hidden id.
        id: usize,
    },
    /// `chain`: the first adaptor's top and the second's bottom differ in number.
    ChainCount {
        /// Top dimensions of the first.
        top: usize,
        /// Bottom dimensions of the second.
        bottom: usize,
    },
    /// `chain`: a top length of the first differs from the matching bottom
    /// length of the second.
    ChainLength {
        /// The dimension.
        dim: usize,
        /// Its length as the first adaptor's top.
        top: Index,
        /// Its length as the second adaptor's bottom.
        bottom: Index,
    },
    /// `Program::of_adaptor` (the analysis crate's): the adaptor has other
    /// than one bottom dimension, and a program computes one value (an
    /// offset).
    ProgramBottom {
        /// Its bottom dimensions.
        dims: usize,
    },
    /// `Program::of_adaptor`: going down, more hidden values are live at
    /// once than a program has registers.
    ProgramRegisters {
        /// The transform being compiled when the registers ran out.
        transform: usize,
        /// How many registers a program has.
        registers: usize,
    },
    /// `Program::of_adaptor`: the compiled operations do not fit a
    /// program.
    ProgramOperations {
        /// How many operations a program holds.
        limit: usize,
    },
    /// `program_through`: the window (the adaptor's bottom lengths at an
    /// origin) does not lie inside the layout along a dimension.
    WindowOutside {
        /// The dimension.
        dim: usize,
        /// The window's origin there.
        origin: Index,
        /// The window's length there.
        length: Index,
        /// The layout's length there.
        layout: Index,
    },
}

impl AdaptorProblem {
    /// The problem in one line without its numbers: what a failed
    /// compile-time check of a typed adaptor prints first
    /// ([`Error::summary`](crate::Error::summary)).
    ///
    /// ```
    /// use cktile_core::adaptor::AdaptorProblem;
    /// assert_eq!(AdaptorProblem::TopRepeated { id: 3 }.summary(), "cktile: an adaptor's top id is listed twice");
    /// ```
    pub const fn summary(&self) -> &'static str {
        match self {
            AdaptorProblem::TooManyTransforms { .. } => "cktile: an adaptor has at most MAX_TRANSFORMS (32) transforms",
            AdaptorProblem::IdTooLarge { .. } => "cktile: an adaptor's hidden ids must be below MAX_HIDDEN (32)",
            AdaptorProblem::BottomCount { .. } => "cktile: an adaptor needs one bottom length per bottom id",
            AdaptorProblem::BottomRepeated { .. } => "cktile: an adaptor's bottom id is listed twice",
            AdaptorProblem::NotYetProduced { .. } => {
                "cktile: an adaptor transform reads a hidden dimension that is neither a bottom dimension nor \
                 produced by an earlier transform"
            }
            AdaptorProblem::ProducedTwice { .. } => {
                "cktile: an adaptor transform produces a hidden dimension that already exists"
            }
            AdaptorProblem::ReadTwice { .. } => "cktile: two adaptor transforms read the same hidden dimension",
            AdaptorProblem::TopUnknown { .. } => {
                "cktile: an adaptor's top id names a hidden dimension that nothing produces"
            }
            AdaptorProblem::TopRepeated { .. } => "cktile: an adaptor's top id is listed twice",
            AdaptorProblem::TopRead { .. } => "cktile: an adaptor's top dimension is also read by a transform",
            AdaptorProblem::BottomUnreached { .. } => {
                "cktile: an adaptor's bottom dimension is reached from no top dimension"
            }
            AdaptorProblem::ChainCount { .. } => {
                "cktile: chained adaptors differ in the number of dimensions they share"
            }
            AdaptorProblem::ChainLength { .. } => {
                "cktile: chained adaptors differ in the length of a dimension they share"
            }
            AdaptorProblem::ProgramBottom { .. } => {
                "cktile: only an adaptor with one bottom dimension compiles to a program"
            }
            AdaptorProblem::ProgramRegisters { .. } => {
                "cktile: the adaptor holds more hidden values at once than a program has registers"
            }
            AdaptorProblem::ProgramOperations { .. } => {
                "cktile: the compiled adaptor needs more operations than a program holds"
            }
            AdaptorProblem::WindowOutside { .. } => "cktile: the window does not fit the layout",
        }
    }

    /// The ids and numbers the problem names, each with what it is, for
    /// messages that cannot format (a failed compile-time check prints
    /// them after [`summary`](Self::summary)).
    ///
    /// ```
    /// use cktile_core::adaptor::AdaptorProblem;
    /// let n = AdaptorProblem::NotYetProduced { transform: 1, id: 5 }.numbers();
    /// assert_eq!(n.as_slice(), &[("transform", 1), ("hidden id", 5)]);
    /// ```
    pub const fn numbers(&self) -> Numbers {
        let n = Numbers::EMPTY;
        match *self {
            AdaptorProblem::TooManyTransforms { given, .. } => n.with("transforms", given as i64),
            AdaptorProblem::IdTooLarge { id, .. } => n.with("hidden id", id as i64),
            AdaptorProblem::BottomCount { ids, lengths } => {
                n.with("bottom ids", ids as i64).with("bottom lengths", lengths as i64)
            }
            AdaptorProblem::BottomRepeated { id } => n.with("bottom id", id as i64),
            AdaptorProblem::NotYetProduced { transform, id } | AdaptorProblem::ProducedTwice { transform, id } => {
                n.with("transform", transform as i64).with("hidden id", id as i64)
            }
            AdaptorProblem::ReadTwice { first, second, id } => n
                .with("first transform", first as i64)
                .with("second transform", second as i64)
                .with("hidden id", id as i64),
            AdaptorProblem::TopUnknown { id } | AdaptorProblem::TopRepeated { id } => n.with("top id", id as i64),
            AdaptorProblem::TopRead { id, transform } => {
                n.with("hidden id", id as i64).with("transform", transform as i64)
            }
            AdaptorProblem::BottomUnreached { position, id } => {
                n.with("bottom dimension", position as i64).with("hidden id", id as i64)
            }
            AdaptorProblem::ChainCount { top, bottom } => {
                n.with("top dimensions", top as i64).with("bottom dimensions", bottom as i64)
            }
            AdaptorProblem::ChainLength { dim, top, bottom } => {
                n.with("dimension", dim as i64).with("top length", top).with("bottom length", bottom)
            }
            AdaptorProblem::ProgramBottom { dims } => n.with("bottom dimensions", dims as i64),
            AdaptorProblem::ProgramRegisters { transform, registers } => {
                n.with("transform", transform as i64).with("registers", registers as i64)
            }
            AdaptorProblem::ProgramOperations { limit } => n.with("operations", limit as i64),
            AdaptorProblem::WindowOutside { dim, origin, length, layout } => n
                .with("dimension", dim as i64)
                .with("origin", origin)
                .with("window length", length)
                .with("layout length", layout),
        }
    }
}

impl fmt::Display for AdaptorProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            AdaptorProblem::TooManyTransforms { given, max } => {
                write!(f, "the adaptor has {given} transforms; at most {max} are supported")
            }
            AdaptorProblem::IdTooLarge { id, max } => {
                write!(f, "hidden id {id} is too large; hidden ids must be below {max}")
            }
            AdaptorProblem::BottomCount { ids, lengths } => {
                write!(f, "{ids} bottom id(s) but {lengths} bottom length(s); give one length per bottom dimension")
            }
            AdaptorProblem::BottomRepeated { id } => write!(f, "bottom id {id} is listed more than once"),
            AdaptorProblem::NotYetProduced { transform, id } => write!(
                f,
                "adaptor transform {transform} reads hidden dimension {id}, which is neither a bottom dimension \
                 nor produced by an earlier transform"
            ),
            AdaptorProblem::ProducedTwice { transform, id } => write!(
                f,
                "adaptor transform {transform} produces hidden dimension {id}, which already exists (a bottom \
                 dimension or an earlier transform's output)"
            ),
            AdaptorProblem::ReadTwice { first, second, id } => write!(
                f,
                "adaptor transforms {first} and {second} both read hidden dimension {id}; each hidden dimension \
                 is read by at most one transform"
            ),
            AdaptorProblem::TopUnknown { id } => {
                write!(
                    f,
                    "top id {id} names a hidden dimension that no transform produces and that is not a bottom one"
                )
            }
            AdaptorProblem::TopRepeated { id } => write!(f, "top id {id} is listed more than once"),
            AdaptorProblem::TopRead { id, transform } => write!(
                f,
                "top dimension (hidden id {id}) is also read by adaptor transform {transform}; a top dimension \
                 must be an output only"
            ),
            AdaptorProblem::BottomUnreached { position, id } => write!(
                f,
                "bottom dimension {position} (hidden id {id}) is read by no transform and is not a top dimension, \
                 so no top index reaches it"
            ),
            AdaptorProblem::ChainCount { top, bottom } => write!(
                f,
                "cannot chain: the first adaptor has {top} top dimension(s), the second {bottom} bottom dimension(s)"
            ),
            AdaptorProblem::ChainLength { dim, top, bottom } => write!(
                f,
                "cannot chain: dimension {dim} has length {top} as the first adaptor's top and {bottom} as the \
                 second's bottom"
            ),
            AdaptorProblem::ProgramBottom { dims } => write!(
                f,
                "the adaptor has {dims} bottom dimension(s); a program computes one value, so only an adaptor \
                 with exactly one bottom dimension (an offset) compiles to one"
            ),
            AdaptorProblem::ProgramRegisters { transform, registers } => write!(
                f,
                "compiling adaptor transform {transform} needs more than the program's {registers} registers: \
                 too many hidden values are live at once"
            ),
            AdaptorProblem::ProgramOperations { limit } => {
                write!(f, "the compiled adaptor needs more than the {limit} operations a program holds")
            }
            AdaptorProblem::WindowOutside { dim, origin, length, layout } => write!(
                f,
                "the window does not fit the layout: along dimension {dim} it covers [{origin}, {}) of the \
                 layout's length {layout}",
                origin.saturating_add(length)
            ),
        }
    }
}
