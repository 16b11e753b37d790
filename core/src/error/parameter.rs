//! The parameter layer's problems: the parameters of catalogue entries,
//! layout builders, planners and generated code (a value outside its valid
//! range, a parameter left out, element types, names).

use super::Snippet;
use core::fmt;

/// What a name must be, for messages.
///
/// ```
/// assert!(cktile_core::error::IDENT_RULE.starts_with("a C++ identifier"));
/// ```
pub const IDENT_RULE: &str = "a C++ identifier for --name: ASCII letters, digits and `_`, starting with a letter, \
not ending with `_` and without `__` (names with `__`, or starting with `_`, are reserved), not a C++ keyword, \
at most 64 characters";

/// Which rule of [`IDENT_RULE`] a name breaks.
///
/// ```
/// use cktile_core::error::NameProblem;
/// assert_eq!(NameProblem::DoubleUnderscore.to_string(), "identifiers containing `__` are reserved in C++");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NameProblem {
    /// Nothing was given.
    Empty,
    /// A character that is not an ASCII letter, digit or `_`.
    Character(char),
    /// It starts with a digit.
    LeadingDigit(char),
    /// It starts with `_` (reserved at global scope; `_` + capital everywhere).
    LeadingUnderscore,
    /// It contains `__`.
    DoubleUnderscore,
    /// It ends with `_`, which with the `_offset` suffix makes a `__`.
    TrailingUnderscore,
    /// A C++ keyword or alternative token.
    Keyword,
    /// Longer than 64 characters.
    TooLong(usize),
}

impl fmt::Display for NameProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameProblem::Empty => f.write_str("it is empty"),
            NameProblem::Character(c) => write!(f, "it contains {c:?}, which is not an ASCII letter, digit or `_`"),
            NameProblem::LeadingDigit(c) => write!(f, "it starts with `{c}`, not a letter"),
            NameProblem::LeadingUnderscore => {
                f.write_str("names starting with `_` are reserved at global scope in C and C++")
            }
            NameProblem::DoubleUnderscore => f.write_str("identifiers containing `__` are reserved in C++"),
            NameProblem::TrailingUnderscore => {
                f.write_str("it ends with `_`, so NAME_offset would contain `__`, which C++ reserves")
            }
            NameProblem::Keyword => f.write_str("it is a C++ keyword"),
            NameProblem::TooLong(n) => write!(f, "it has {n} characters; at most 64 are allowed"),
        }
    }
}

/// What is wrong with a parameter of a catalogue entry, a layout builder, a
/// planner or generated code: [`ErrorKind::Parameter`](crate::ErrorKind::Parameter).
///
/// ```
/// use cktile_core::{ErrorKind, ParameterProblem};
/// // CK's MLdsLayer on an LDS of 48 banks.
/// let e = cktile_core::ops::gemm::mlds_layer(32, 2, 48).unwrap_err();
/// let requirement = "it must be 32 (gfx90a, gfx942) or 64 (gfx950)";
/// let problem = ParameterProblem::Invalid { context: "ck-universal-a", parameter: "banks", value: 48, requirement };
/// assert_eq!(*e.kind(), ErrorKind::Parameter(problem));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParameterProblem {
    /// A parameter's value is outside its valid range.
    Invalid {
        /// What takes the parameter: a catalogue entry, a builder, a planner.
        context: &'static str,
        /// The parameter.
        parameter: &'static str,
        /// Its value.
        value: i64,
        /// What it must satisfy.
        requirement: &'static str,
    },
    /// [`Invalid`](Self::Invalid) for a value above `i64::MAX` (a `usize` or
    /// `u64` the caller gave, named as given rather than wrapped to a
    /// negative `i64`). A second variant, not a wider field: `Invalid`'s
    /// layout is what GPU kernels that build descriptors keep in registers
    /// ([`ParameterProblem::invalid_usize`] picks the variant).
    InvalidUnsigned {
        /// What takes the parameter.
        context: &'static str,
        /// The parameter.
        parameter: &'static str,
        /// Its value, above `i64::MAX`.
        value: u64,
        /// What it must satisfy.
        requirement: &'static str,
    },
    /// A catalogue entry needs a parameter that was not given.
    Missing {
        /// The entry.
        layout: &'static str,
        /// The parameter.
        parameter: &'static str,
    },
    /// A catalogue entry names its element type and a different one was asked for.
    ElementTypeConflict {
        /// The entry.
        layout: &'static str,
        /// The entry's element type, as written (`dtype=fp8`, `bits=16`).
        entry: Snippet,
        /// Its size in bytes.
        entry_bytes: usize,
        /// The element type asked for, as written.
        given: Snippet,
        /// Its size in bytes.
        given_bytes: usize,
    },
    /// A layout is used where its element size matters, and nothing names it.
    MissingElementType {
        /// The layout as written (cut short).
        layout: Snippet,
    },
    /// A name that is none of those a list holds: a catalogue entry, a
    /// transform, a chip, an instruction, a distribution.
    UnknownName {
        /// The name (cut short).
        name: Snippet,
        /// The names that exist (or their forms).
        valid: &'static str,
    },
    /// A name for generated code that C or C++ would not accept or reserves.
    InvalidName {
        /// The name (cut short).
        name: Snippet,
        /// The rule it breaks.
        problem: NameProblem,
    },
}

impl ParameterProblem {
    /// The problem of a `usize` parameter: [`Invalid`](Self::Invalid), or
    /// [`InvalidUnsigned`](Self::InvalidUnsigned) above `i64::MAX`, so the
    /// message names the value as given.
    ///
    /// ```
    /// use cktile_core::ParameterProblem;
    /// let p = ParameterProblem::invalid_usize("pattern", "element bytes", usize::MAX, "it must be 1 to 8");
    /// assert_eq!(p.to_string(), "pattern: element bytes = 18446744073709551615; it must be 1 to 8");
    /// assert!(matches!(ParameterProblem::invalid_usize("c", "p", 3, "r"), ParameterProblem::Invalid { value: 3, .. }));
    /// ```
    pub const fn invalid_usize(
        context: &'static str,
        parameter: &'static str,
        value: usize,
        requirement: &'static str,
    ) -> ParameterProblem {
        if value as u64 <= i64::MAX as u64 {
            ParameterProblem::Invalid { context, parameter, value: value as i64, requirement }
        } else {
            ParameterProblem::InvalidUnsigned { context, parameter, value: value as u64, requirement }
        }
    }

    /// The same out-of-range problem under another `context` and
    /// `parameter` name (a shared builder's error in the words of the entry
    /// that called it); other problems are returned as they are.
    ///
    /// ```
    /// use cktile_core::ParameterProblem;
    /// let p = ParameterProblem::invalid_usize("ck-xor-lds", "M", 7, "it must be a multiple of MLdsLayer");
    /// assert_eq!(p.renamed("ck-universal-a", "m").to_string(), "ck-universal-a: m = 7; it must be a multiple of MLdsLayer");
    /// ```
    pub const fn renamed(self, context: &'static str, parameter: &'static str) -> ParameterProblem {
        match self {
            ParameterProblem::Invalid { value, requirement, .. } => {
                ParameterProblem::Invalid { context, parameter, value, requirement }
            }
            ParameterProblem::InvalidUnsigned { value, requirement, .. } => {
                ParameterProblem::InvalidUnsigned { context, parameter, value, requirement }
            }
            other => other,
        }
    }

    /// The parameter an out-of-range problem names (`None` for the others).
    ///
    /// ```
    /// use cktile_core::ParameterProblem;
    /// assert_eq!(ParameterProblem::invalid_usize("c", "rows", usize::MAX, "r").parameter(), Some("rows"));
    /// ```
    pub const fn parameter(&self) -> Option<&'static str> {
        match *self {
            ParameterProblem::Invalid { parameter, .. } | ParameterProblem::InvalidUnsigned { parameter, .. } => {
                Some(parameter)
            }
            _ => None,
        }
    }

    /// A fixed sentence for `const` panics; [`Display`](fmt::Display) gives
    /// the values.
    ///
    /// ```
    /// use cktile_core::ParameterProblem;
    /// let p = ParameterProblem::Missing { layout: "row-padded", parameter: "pad" };
    /// assert_eq!(p.summary(), "cktile: a catalogue entry needs a parameter that was not given");
    /// ```
    pub const fn summary(&self) -> &'static str {
        match self {
            ParameterProblem::Invalid { .. } | ParameterProblem::InvalidUnsigned { .. } => {
                "cktile: a layout parameter is outside its valid range"
            }
            ParameterProblem::Missing { .. } => "cktile: a catalogue entry needs a parameter that was not given",
            ParameterProblem::ElementTypeConflict { .. } => {
                "cktile: a catalogue entry's element type differs from the one asked for"
            }
            ParameterProblem::MissingElementType { .. } => {
                "cktile: the layout carries no element type and none was given"
            }
            ParameterProblem::UnknownName { .. } => "cktile: unknown name",
            ParameterProblem::InvalidName { .. } => "cktile: the name cannot prefix generated C++ functions",
        }
    }
}

impl fmt::Display for ParameterProblem {
    /// The parameter, its value and what would be valid.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ParameterProblem::Invalid { context, parameter, value, requirement } => {
                write!(f, "{context}: {parameter} = {value}; {requirement}")
            }
            ParameterProblem::InvalidUnsigned { context, parameter, value, requirement } => {
                write!(f, "{context}: {parameter} = {value}; {requirement}")
            }
            ParameterProblem::Missing { layout, parameter } => {
                write!(f, "{layout} needs the parameter `{parameter}` (write {layout}:{parameter}=VALUE,...)")
            }
            ParameterProblem::ElementTypeConflict { layout, entry, entry_bytes, given, given_bytes } => write!(
                f,
                "{layout} is written with {} ({entry_bytes}-byte elements) but the element type asked for is {} \
                 ({given_bytes}-byte elements); drop one or make them agree",
                entry, given
            ),
            ParameterProblem::MissingElementType { layout } => write!(
                f,
                "`{}` carries no element type, and the element size decides the byte addresses; name one \
                 (fp8/int8, fp16/bf16, fp32/tf32, fp64 or a byte count) as dtype=... in a catalogue entry, or \
                 with the dtype argument (`--dtype` on the command line, `dtype=` in Python)",
                layout
            ),
            ParameterProblem::UnknownName { name, valid } => {
                write!(f, "unknown name `{name}`; expected one of: {valid}")
            }
            ParameterProblem::InvalidName { problem: NameProblem::Empty, .. } => {
                write!(f, "the name of the generated functions is empty; expected {IDENT_RULE}")
            }
            ParameterProblem::InvalidName { name, problem } => {
                write!(f, "`{name}` cannot name the generated functions: {problem}; expected {IDENT_RULE}")
            }
        }
    }
}
