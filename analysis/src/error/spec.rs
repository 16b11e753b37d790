//! The spec layer's problems: reading text (a spec, a catalogue entry's
//! parameters, a chip, instruction or pattern name). Errors found in a spec
//! text carry its [`Position`](crate::Position) on the [`Error`](crate::Error).

use cktile_core::Snippet;
use core::fmt;

/// What is wrong with a text cktile reads:
/// [`ErrorKind::Spec`](crate::ErrorKind::Spec).
///
/// ```
/// use cktile_analysis::{ErrorKind, SpecProblem};
/// let e = cktile_analysis::spec::parse("packed((4,8)) | transform(merge((4,8)) on [0,1] => [0])").unwrap_err();
/// assert!(matches!(e.kind(), ErrorKind::Spec(SpecProblem::Syntax { .. })));
/// assert_eq!(e.to_string(), format!("1:49: {}", e.kind()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SpecProblem {
    /// The spec text does not follow the grammar.
    Syntax {
        /// What the parser expected.
        expected: &'static str,
        /// What it found.
        found: Snippet,
    },
    /// A spec gives a transform or stage the wrong number of arguments.
    Arity {
        /// What the transform or stage takes (its name is the signature's).
        expected: cktile_transforms::Signature,
        /// How many arguments were given.
        found: usize,
    },
    /// A number in a spec does not fit the type it is used as.
    NumberRange {
        /// The number as written.
        number: Snippet,
        /// The range allowed there.
        range: &'static str,
    },
}

impl SpecProblem {
    /// A fixed sentence for `const` panics; [`Display`](fmt::Display) gives
    /// the values.
    ///
    /// ```
    /// use cktile_analysis::SpecProblem;
    /// use cktile_core::Snippet;
    /// let p = SpecProblem::Syntax { expected: "`->`", found: Snippet::new("=>") };
    /// assert_eq!(p.summary(), "cktile: spec syntax error");
    /// ```
    pub const fn summary(&self) -> &'static str {
        match self {
            SpecProblem::Syntax { .. } => "cktile: spec syntax error",
            SpecProblem::Arity { .. } => "cktile: wrong number of arguments in spec",
            SpecProblem::NumberRange { .. } => "cktile: number out of range in spec",
        }
    }
}

impl fmt::Display for SpecProblem {
    /// What was found and what was expected there.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SpecProblem::Syntax { expected, found } if found.as_str().is_empty() => {
                write!(f, "expected {expected}, found the end of the spec")
            }
            SpecProblem::Syntax { expected, found } => write!(f, "expected {expected}, found `{found}`"),
            SpecProblem::Arity { expected, found } => write!(
                f,
                "{} takes {}: {expected}, but {found} argument(s) were given",
                expected.name,
                expected.count_text()
            ),
            SpecProblem::NumberRange { number, range } => {
                write!(f, "number {number} is out of range; expected {range}")
            }
        }
    }
}
