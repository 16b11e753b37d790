//! The error type of `cktile-analysis`: one [`Error`], whose [`ErrorKind`]
//! is a problem of the port beneath ([`cktile_core::Error`], wrapped whole
//! as [`ErrorKind::Port`]) or of this crate's own layers: the spec
//! language ([`SpecProblem`]), the bank model ([`AnalyzerProblem`]) and
//! the distributions' compact spelling. An error found while reading a
//! text carries its [`Position`] there (the port's type, which its error
//! carries too, and keeps when it is wrapped).
//!
//! A `const fn` here that calls the port lifts its error with
//! [`Error::port`] (the crate's `port!` macro, `tri!` over the port's
//! result); elsewhere `?` does it through `From`.

use core::fmt;

mod analyzer;
#[cfg(feature = "alloc")]
mod compact;
mod spec;

pub use analyzer::AnalyzerProblem;
#[cfg(feature = "alloc")]
pub use compact::CompactProblem;
pub use spec::SpecProblem;

use cktile_core::adaptor::AdaptorProblem;
use cktile_core::distribution::EncodingProblem;
use cktile_core::{DescriptorProblem, ParameterProblem, PolicyProblem};

pub use cktile_core::Position;

/// What went wrong, by the layer that found it. See [`Error`].
///
/// ```
/// use cktile_analysis::{AnalyzerProblem, ErrorKind, analyzer::{arch, count, Op}};
/// use cktile_core::{DescriptorProblem, ErrorKind as PortKind};
/// let e = count(&arch::SM80, Op::DsRead { bits: 32 }, &[Some(0)]).unwrap_err();
/// assert!(matches!(e.kind(), ErrorKind::Analyzer(AnalyzerProblem::Unsupported { .. })));
/// let e = cktile_analysis::spec::parse("packed((0))").unwrap_err();
/// assert!(matches!(e.kind(), ErrorKind::Port(PortKind::Descriptor(DescriptorProblem::Transform { .. }))));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A problem of the port: a descriptor, an adaptor, an encoding, a
    /// parameter or a kernel author's policy ([`cktile_core::ErrorKind`]).
    Port(cktile_core::ErrorKind),
    /// A text that does not read: a spec, a catalogue entry's parameters.
    Spec(SpecProblem),
    /// A chip, an instruction, a lane's address or an access pattern.
    Analyzer(AnalyzerProblem),
    /// A tile distribution encoding written in cktile's spelling
    /// ([`parse_compact`](crate::spelling::parse_compact)) is malformed;
    /// the message names the entries as that spelling writes them
    /// (`hX[i]`, P and Y references).
    #[cfg(feature = "alloc")]
    CompactEncoding(EncodingProblem),
}

impl ErrorKind {
    /// The layer's fixed sentence for the problem: see [`Error::summary`].
    ///
    /// ```
    /// use cktile_analysis::{ErrorKind, SpecProblem};
    /// use cktile_core::Snippet;
    /// let kind = ErrorKind::Spec(SpecProblem::Syntax { expected: "`->`", found: Snippet::new("=>") });
    /// assert_eq!(kind.summary(), "cktile: spec syntax error");
    /// ```
    pub const fn summary(&self) -> &'static str {
        match self {
            ErrorKind::Port(kind) => kind.summary(),
            ErrorKind::Spec(problem) => problem.summary(),
            ErrorKind::Analyzer(problem) => problem.summary(),
            #[cfg(feature = "alloc")]
            ErrorKind::CompactEncoding(problem) => problem.summary(),
        }
    }

    /// The port's problem, when it is one.
    ///
    /// ```
    /// use cktile_core::{DescriptorProblem, ErrorKind as PortKind};
    /// let e = cktile_analysis::spec::parse("packed((0))").unwrap_err();
    /// assert!(matches!(e.kind().port(), Some(PortKind::Descriptor(_))));
    /// ```
    pub const fn port(&self) -> Option<&cktile_core::ErrorKind> {
        match self {
            ErrorKind::Port(kind) => Some(kind),
            _ => None,
        }
    }
}

impl fmt::Display for ErrorKind {
    /// The layer's message.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Port(kind) => write!(f, "{kind}"),
            ErrorKind::Spec(problem) => write!(f, "{problem}"),
            ErrorKind::Analyzer(problem) => write!(f, "{problem}"),
            #[cfg(feature = "alloc")]
            ErrorKind::CompactEncoding(problem) => write!(f, "{}", CompactProblem(*problem)),
        }
    }
}

/// Everything that can go wrong in the analysis and the tools above it:
/// an [`ErrorKind`] and, for errors in a spec text, where.
///
/// Every message names the offending value and what would be valid.
///
/// ```
/// use cktile_analysis::ErrorKind;
/// let e = cktile_analysis::spec::parse("naive((4),(1)) | bogus()").unwrap_err();
/// assert_eq!(e.position().map(|p| p.column), Some(18));
/// assert!(e.to_string().starts_with("1:18: "));
/// assert!(matches!(e.kind(), ErrorKind::Spec(_)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Error {
    kind: ErrorKind,
    at: Option<Position>,
}

impl Error {
    /// An error without a position.
    ///
    /// ```
    /// use cktile_analysis::{Error, ErrorKind};
    /// use cktile_core::{DescriptorProblem, ErrorKind as PortKind};
    /// let e = Error::new(ErrorKind::Port(PortKind::Descriptor(DescriptorProblem::TooManyStages { max: 8 })));
    /// assert_eq!(e.position(), None);
    /// ```
    pub const fn new(kind: ErrorKind) -> Error {
        Error { kind, at: None }
    }

    /// The port's error, with its position if it has one (`const`, unlike
    /// `From`).
    ///
    /// ```
    /// let port = cktile_core::Descriptor::packed(&[0]).unwrap_err();
    /// let e = cktile_analysis::Error::port(port);
    /// assert_eq!((e.to_string(), e.position()), (port.to_string(), None));
    /// ```
    pub const fn port(error: cktile_core::Error) -> Error {
        Error { kind: ErrorKind::Port(*error.kind()), at: error.position() }
    }

    /// A descriptor-layer error (`const`, unlike `From`).
    ///
    /// ```
    /// use cktile_analysis::Error;
    /// use cktile_core::DescriptorProblem;
    /// const E: Error = Error::descriptor(DescriptorProblem::TooManyStages { max: 8 });
    /// assert_eq!(E.to_string(), "a descriptor has at most 8 stages");
    /// ```
    pub const fn descriptor(problem: DescriptorProblem) -> Error {
        Error::port(cktile_core::Error::descriptor(problem))
    }

    /// A spec-layer error without a position (`const`, unlike `From`).
    ///
    /// ```
    /// use cktile_analysis::{Error, SpecProblem};
    /// use cktile_core::Snippet;
    /// let e = Error::spec(SpecProblem::Syntax { expected: "`->`", found: Snippet::new("=>") });
    /// assert_eq!((e.summary(), e.position()), ("cktile: spec syntax error", None));
    /// ```
    pub const fn spec(problem: SpecProblem) -> Error {
        Error::new(ErrorKind::Spec(problem))
    }

    /// A parameter-layer error (`const`, unlike `From`).
    ///
    /// ```
    /// use cktile_analysis::Error;
    /// use cktile_core::ParameterProblem;
    /// let e = Error::parameter(ParameterProblem::invalid_usize("ck-xor-lds", "KPack", 0, "it must be positive"));
    /// assert!(e.to_string().contains("KPack"), "{e}");
    /// ```
    pub const fn parameter(problem: ParameterProblem) -> Error {
        Error::port(cktile_core::Error::parameter(problem))
    }

    /// The same error at a position in a spec text (kept if it has one).
    ///
    /// ```
    /// use cktile_analysis::{Error, Position};
    /// use cktile_core::DescriptorProblem;
    /// let e = Error::from(DescriptorProblem::TooManyStages { max: 8 }).at(Position { line: 1, column: 3 });
    /// assert_eq!(e.to_string(), "1:3: a descriptor has at most 8 stages");
    /// ```
    pub const fn at(self, position: Position) -> Error {
        match self.at {
            Some(_) => self,
            None => Error { kind: self.kind, at: Some(position) },
        }
    }

    /// What went wrong.
    ///
    /// ```
    /// use cktile_analysis::{Error, ErrorKind};
    /// use cktile_core::{DescriptorProblem, ErrorKind as PortKind};
    /// let e = Error::from(DescriptorProblem::TooManyStages { max: 8 });
    /// assert!(matches!(e.kind(), ErrorKind::Port(PortKind::Descriptor(DescriptorProblem::TooManyStages { .. }))));
    /// ```
    pub const fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// Where in the spec text, for errors found while reading one.
    ///
    /// ```
    /// let e = cktile_analysis::spec::parse("naive((4),(1)) | bogus()").unwrap_err();
    /// assert_eq!(e.position().map(|p| p.column), Some(18));
    /// ```
    pub const fn position(&self) -> Option<Position> {
        self.at
    }

    /// A fixed sentence for `const` panics (which cannot format numbers),
    /// from the layer that found the problem; [`Display`](fmt::Display)
    /// gives the values.
    ///
    /// ```
    /// let e = cktile_analysis::Error::from(cktile_core::DescriptorProblem::TooManyStages { max: 8 });
    /// assert!(e.summary().starts_with("cktile: "));
    /// ```
    pub const fn summary(&self) -> &'static str {
        self.kind.summary()
    }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Error {
        Error::new(kind)
    }
}

impl From<cktile_core::Error> for Error {
    fn from(error: cktile_core::Error) -> Error {
        Error::port(error)
    }
}

impl From<cktile_core::ErrorKind> for Error {
    fn from(kind: cktile_core::ErrorKind) -> Error {
        Error::new(ErrorKind::Port(kind))
    }
}

impl From<SpecProblem> for Error {
    fn from(problem: SpecProblem) -> Error {
        Error::spec(problem)
    }
}

/// `From` a port layer's problem to [`Error`] (without a position).
macro_rules! from_port_layer {
    ($($problem:ty),* $(,)?) => {$(
        impl From<$problem> for Error {
            fn from(problem: $problem) -> Error {
                Error::port(cktile_core::Error::from(problem))
            }
        }
    )*};
}

from_port_layer!(DescriptorProblem, ParameterProblem, AdaptorProblem, EncodingProblem, PolicyProblem);

impl fmt::Display for Error {
    /// The position, if any, then the layer's message.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(at) = self.at {
            write!(f, "{at}: ")?;
        }
        write!(f, "{}", self.kind)
    }
}

impl core::error::Error for Error {}

/// Stops a `const` evaluation (a compile-time check) with `e`'s message:
/// a problem of the port with its numbers, as
/// [`cktile_core::typed::static_failure`] prints it, any other with its
/// fixed [`summary`](Error::summary).
///
/// ```should_panic
/// let e = cktile_analysis::spec::parse("packed((4)) |").unwrap_err();
/// cktile_analysis::static_failure(&e);
/// ```
pub const fn static_failure(e: &Error) -> ! {
    match e.kind() {
        ErrorKind::Port(kind) => cktile_core::typed::static_failure(&cktile_core::Error::new(*kind)),
        _ => panic!("{}", e.summary()),
    }
}

/// The port's result as this crate's (`const`, unlike `map_err`).
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) const fn lift<T: Copy>(result: Result<T, cktile_core::Error>) -> Result<T, Error> {
    match result {
        Ok(value) => Ok(value),
        Err(error) => Err(Error::port(error)),
    }
}

/// `tri!` for a call into the port from a `const fn` of this crate: the
/// value, or a return of the port's error lifted into [`Error`] ([`lift`]).
macro_rules! port {
    ($e:expr) => {
        cktile_transforms::tri!($crate::error::lift($e))
    };
}
pub(crate) use port;
