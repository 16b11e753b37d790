//! The error type of the port: one [`Error`], whose [`ErrorKind`] says
//! which layer found the problem and wraps that layer's own enum. Every
//! layer's problem type is defined in this module's submodules (and
//! re-exported where its layer lives), so this module imports nothing
//! above it. Each layer's enum owns its message
//! ([`Display`](fmt::Display)) and its fixed `summary` (for `const`
//! panics).
//!
//! An error found in a text carries its [`Position`] there. The port reads
//! no text; the crates above it that do (`cktile-analysis`: the spec
//! language, the distributions' spellings) set it with [`Error::at`], and
//! their own error type, which wraps this one, keeps it.

use core::fmt;

mod adaptor;
mod descriptor;
mod encoding;
mod numbers;
mod parameter;
mod policy;

pub use adaptor::AdaptorProblem;
pub use descriptor::{DescriptorProblem, Side, VectorFault};
pub use encoding::{EncodingEntry, EncodingProblem, List};
pub use numbers::Numbers;
pub use parameter::{IDENT_RULE, NameProblem, ParameterProblem};
pub use policy::PolicyProblem;

/// A position in a text: 1-based line and column.
///
/// ```
/// let p = cktile_core::Position { line: 2, column: 7 };
/// assert_eq!(p.to_string(), "2:7");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Line, from 1.
    pub line: u32,
    /// Column (in characters), from 1.
    pub column: u32,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// A short piece of the input quoted in an error (at most 24 bytes, cut at a
/// character boundary), kept inline so [`Error`] stays `Copy`.
///
/// ```
/// let s = cktile_core::Snippet::new("mergee");
/// assert_eq!(s.as_str(), "mergee");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Snippet {
    bytes: [u8; 24],
    len: u8,
}

impl Snippet {
    /// Quotes `text`, cut to at most 24 bytes.
    ///
    /// ```
    /// assert_eq!(cktile_core::Snippet::new(&"x".repeat(40)).as_str().len(), 24);
    /// ```
    pub fn new(text: &str) -> Snippet {
        let mut end = text.len().min(24);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let mut bytes = [0u8; 24];
        bytes[..end].copy_from_slice(&text.as_bytes()[..end]);
        Snippet { bytes, len: end as u8 }
    }

    /// The quoted text.
    ///
    /// ```
    /// assert_eq!(cktile_core::Snippet::new("ab").as_str(), "ab");
    /// ```
    pub fn as_str(&self) -> &str {
        core::str::from_utf8(&self.bytes[..self.len as usize]).unwrap_or("")
    }
}

impl fmt::Debug for Snippet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Snippet {
    /// The quoted text as [`Visible`] writes it: a control character
    /// reaches no terminal raw, it is spelled out.
    ///
    /// ```
    /// assert_eq!(cktile_core::Snippet::new("a\x1b]0;x\x07").to_string(), "a\\u{1b}]0;x\\u{7}");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&Visible(self.as_str()), f)
    }
}

/// Whether `c` would act on a terminal, or reorder the text around it,
/// rather than show: the control characters (C0, DEL, C1, which include
/// tab and newline) and the bidirectional controls (U+061C, U+200E,
/// U+200F, U+202A to U+202E, U+2066 to U+2069).
///
/// ```
/// assert!(cktile_core::is_hidden('\x1b') && cktile_core::is_hidden('\u{9b}') && cktile_core::is_hidden('\u{202e}'));
/// assert!(!cktile_core::is_hidden('x') && !cktile_core::is_hidden('\u{d7}'));
/// ```
pub const fn is_hidden(c: char) -> bool {
    matches!(c, '\0'..='\x1f' | '\x7f'..='\u{9f}' | '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// User text as a message quotes it: every [`is_hidden`] character is
/// written as its Rust escape (`\u{1b}`), every other one as itself. Every
/// message that quotes a name, a value, a path or a spec goes through it
/// ([`Snippet`]'s `Display` does), so a control sequence in the input
/// cannot set a terminal's title or colours, or hide part of the message.
///
/// ```
/// use cktile_core::Visible;
/// assert_eq!(Visible("ck-\x1b]0;pwned\x07x").to_string(), "ck-\\u{1b}]0;pwned\\u{7}x");
/// assert_eq!(Visible("a\nb\u{202e}c").to_string(), "a\\u{a}b\\u{202e}c");
/// assert_eq!(Visible("fp16 \u{d7} 2").to_string(), "fp16 \u{d7} 2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Visible<'a>(pub &'a str);

impl fmt::Display for Visible<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        while let Some(at) = rest.find(is_hidden) {
            f.write_str(&rest[..at])?;
            let c = rest[at..].chars().next().unwrap_or('\0');
            write!(f, "{}", c.escape_unicode())?;
            rest = &rest[at + c.len_utf8()..];
        }
        f.write_str(rest)
    }
}

/// What went wrong, by the layer that found it. See [`Error`].
///
/// ```
/// use cktile_core::{DescriptorProblem, ErrorKind};
/// let e = cktile_core::Descriptor::packed(&[4, 8]).unwrap().try_calculate_offset(&[4, 0]).unwrap_err();
/// assert!(matches!(e.kind(), ErrorKind::Descriptor(DescriptorProblem::CoordinateOutOfRange { dim: 0, value: 4, length: 4 })));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A descriptor, its transforms and stages, or a coordinate given to it.
    Descriptor(DescriptorProblem),
    /// A parameter outside its valid range, missing, or in conflict.
    Parameter(ParameterProblem),
    /// A tensor adaptor's hidden-dimension wiring is inconsistent.
    Adaptor(AdaptorProblem),
    /// A tile distribution encoding is malformed.
    Encoding(EncodingProblem),
    /// A kernel author's own check failed ([`Error::policy`],
    /// [`Error::policy_value`]); the message is theirs.
    Policy(PolicyProblem),
}

impl ErrorKind {
    /// The layer's fixed sentence for the problem: see [`Error::summary`].
    ///
    /// ```
    /// use cktile_core::{DescriptorProblem, ErrorKind};
    /// let kind = ErrorKind::Descriptor(DescriptorProblem::TooManyStages { max: 8 });
    /// assert_eq!(kind.summary(), "cktile: a descriptor has at most MAX_STAGES (8) stages");
    /// ```
    pub const fn summary(&self) -> &'static str {
        match self {
            ErrorKind::Descriptor(problem) => problem.summary(),
            ErrorKind::Parameter(problem) => problem.summary(),
            ErrorKind::Adaptor(problem) => problem.summary(),
            ErrorKind::Encoding(problem) => problem.summary(),
            ErrorKind::Policy(problem) => problem.summary(),
        }
    }
}

/// A size as a policy problem's value: `i64::MAX` past it.
const fn saturating_i64(value: usize) -> i64 {
    if value > i64::MAX as usize { i64::MAX } else { value as i64 }
}

impl fmt::Display for ErrorKind {
    /// The layer's message.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Descriptor(problem) => write!(f, "{problem}"),
            ErrorKind::Parameter(problem) => write!(f, "{problem}"),
            ErrorKind::Adaptor(problem) => write!(f, "{problem}"),
            ErrorKind::Encoding(problem) => write!(f, "{problem}"),
            ErrorKind::Policy(problem) => write!(f, "{problem}"),
        }
    }
}

/// Everything that can go wrong in the port: an [`ErrorKind`] and, for an
/// error a reader of text found in one, where.
///
/// Every message names the offending value and what would be valid.
///
/// ```
/// use cktile_core::{Descriptor, DescriptorProblem, ErrorKind};
/// let e = Descriptor::naive(&[0, 4], &[4, 1]).unwrap_err();
/// assert!(matches!(e.kind(), ErrorKind::Descriptor(DescriptorProblem::Transform { .. })));
/// assert!(e.to_string().contains("is 0"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Error {
    kind: ErrorKind,
    // Set by the readers of texts above the port. Its bytes are also part
    // of the layout kernels carry in their `Result`s: without them (issue
    // 65 tried), 91 rows of scripts/target-icount.sh changed, the gfx942
    // GEMMs by +87 instructions and CompV3's LDS reads became 8 calls.
    at: Option<Position>,
}

impl Error {
    /// An error without a position.
    ///
    /// ```
    /// use cktile_core::{DescriptorProblem, Error, ErrorKind};
    /// let e = Error::new(ErrorKind::Descriptor(DescriptorProblem::TooManyStages { max: 8 }));
    /// assert_eq!((e.to_string().as_str(), e.position()), ("a descriptor has at most 8 stages", None));
    /// ```
    pub const fn new(kind: ErrorKind) -> Error {
        Error { kind, at: None }
    }

    /// A descriptor's error, without a position (`const`, unlike `From`).
    ///
    /// ```
    /// use cktile_core::{DescriptorProblem, Error};
    /// const E: Error = Error::descriptor(DescriptorProblem::TooManyStages { max: 8 });
    /// assert_eq!(E.to_string(), "a descriptor has at most 8 stages");
    /// ```
    pub const fn descriptor(problem: DescriptorProblem) -> Error {
        Error::new(ErrorKind::Descriptor(problem))
    }

    /// A transform's own refusal (a `cktile_transforms` error) as the
    /// port's: the descriptor error of the first item of a stage, as a
    /// descriptor's base reports its transform (`const`, unlike `From`).
    ///
    /// ```
    /// use cktile_core::{DescriptorProblem, Error, ErrorKind, Transform};
    /// let refusal = Transform::xor(8, 6).unwrap_err();
    /// let e = Error::transform(refusal);
    /// assert!(matches!(e.kind(), ErrorKind::Descriptor(DescriptorProblem::Transform { item: 0, .. })));
    /// assert_eq!(e.to_string(), refusal.to_string());
    /// ```
    #[inline]
    pub const fn transform(source: cktile_transforms::Error) -> Error {
        Error::descriptor(DescriptorProblem::Transform { item: 0, source })
    }

    /// An adaptor's error, without a position (`const`, unlike `From`).
    ///
    /// ```
    /// use cktile_core::Error;
    /// use cktile_core::adaptor::AdaptorProblem;
    /// let e = Error::adaptor(AdaptorProblem::IdTooLarge { id: 40, max: 32 });
    /// assert!(e.to_string().contains("40"), "{e}");
    /// ```
    pub const fn adaptor(problem: AdaptorProblem) -> Error {
        Error::new(ErrorKind::Adaptor(problem))
    }

    /// A parameter's error, without a position (`const`, unlike `From`).
    ///
    /// ```
    /// use cktile_core::{Error, ParameterProblem};
    /// let e = Error::parameter(ParameterProblem::invalid_usize("ck-xor-lds", "KPack", 0, "it must be positive"));
    /// assert!(e.to_string().contains("KPack"), "{e}");
    /// ```
    pub const fn parameter(problem: ParameterProblem) -> Error {
        Error::new(ErrorKind::Parameter(problem))
    }

    /// A kernel author's own error: a policy function in CK Tile's style
    /// ("MPerBlock must be a multiple of MWarp * MPerXdl") returns it in a
    /// `Result<_, cktile_core::Error>`, next to the errors of the descriptors it
    /// builds. [`Display`](fmt::Display) and [`summary`](Self::summary) are
    /// the message itself; a `const` built with
    /// [`typed`](crate::typed)'s builders stops the build with it.
    ///
    /// ```
    /// use cktile_core::Error;
    /// const fn block_m(m_per_block: usize) -> Result<usize, Error> {
    ///     if m_per_block % 64 != 0 {
    ///         return Err(Error::policy("MPerBlock must be a multiple of MWarp * MPerXdl (64)"));
    ///     }
    ///     Ok(m_per_block / 64)
    /// }
    /// assert_eq!(block_m(128), Ok(2));
    /// let e = block_m(96).unwrap_err();
    /// assert_eq!(e.to_string(), "MPerBlock must be a multiple of MWarp * MPerXdl (64)");
    /// assert_eq!(e.summary(), "MPerBlock must be a multiple of MWarp * MPerXdl (64)");
    /// ```
    pub const fn policy(message: &'static str) -> Error {
        Error::new(ErrorKind::Policy(PolicyProblem::new(message)))
    }

    /// A kernel author's own error naming the value it is about:
    /// [`Display`](fmt::Display) adds `(name = value)` to the message (and
    /// so does the compile error when a `const` policy check fails; see
    /// [`typed::static_failure`](crate::typed::static_failure)).
    ///
    /// ```
    /// use cktile_core::Error;
    /// const fn k_pack(k_per_block: usize, k_pack: usize) -> Result<usize, Error> {
    ///     if k_pack == 0 || k_per_block % k_pack != 0 {
    ///         return Err(Error::policy_value("KPack must divide KPerBlock", "KPack", k_pack as i64));
    ///     }
    ///     Ok(k_per_block / k_pack)
    /// }
    /// assert_eq!(k_pack(32, 8), Ok(4));
    /// assert_eq!(k_pack(32, 6).unwrap_err().to_string(), "KPack must divide KPerBlock (KPack = 6)");
    /// ```
    pub const fn policy_value(message: &'static str, name: &'static str, value: i64) -> Error {
        Error::new(ErrorKind::Policy(PolicyProblem::with_value(message, name, value)))
    }

    /// [`policy_value`](Self::policy_value) for a size: a `usize` past
    /// `i64::MAX` is named as `i64::MAX`.
    ///
    /// ```
    /// use cktile_core::Error;
    /// let e = Error::policy_size("the tile must fit", "elements", usize::MAX);
    /// assert_eq!(e.to_string(), format!("the tile must fit (elements = {})", i64::MAX));
    /// assert_eq!(Error::policy_size("m", "n", 7), Error::policy_value("m", "n", 7));
    /// ```
    pub const fn policy_size(message: &'static str, name: &'static str, value: usize) -> Error {
        Error::policy_value(message, name, saturating_i64(value))
    }

    /// [`policy_size`](Self::policy_size) with the least size that would
    /// do (a buffer too short, a stride below its row): `value` is below
    /// `minimum`. Each `usize` past `i64::MAX` is named as `i64::MAX`.
    ///
    /// ```
    /// use cktile_core::Error;
    /// let e = Error::policy_minimum("C's row stride must be at least its columns", "stride", 60, 64);
    /// assert_eq!(e.to_string(), "C's row stride must be at least its columns (stride = 60; at least 64)");
    /// ```
    pub const fn policy_minimum(message: &'static str, name: &'static str, value: usize, minimum: usize) -> Error {
        let problem = PolicyProblem::with_minimum(message, name, saturating_i64(value), saturating_i64(minimum));
        Error::new(ErrorKind::Policy(problem))
    }

    /// The same error at a position in a text (kept if it has one).
    ///
    /// ```
    /// use cktile_core::{DescriptorProblem, Error, Position};
    /// let e = Error::from(DescriptorProblem::TooManyStages { max: 8 }).at(Position { line: 1, column: 3 });
    /// assert_eq!(e.to_string(), "1:3: a descriptor has at most 8 stages");
    /// assert_eq!(e.at(Position { line: 9, column: 9 }).position(), Some(Position { line: 1, column: 3 }));
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
    /// use cktile_core::{DescriptorProblem, Error, ErrorKind};
    /// let e = Error::from(DescriptorProblem::TooManyStages { max: 8 });
    /// assert!(matches!(e.kind(), ErrorKind::Descriptor(DescriptorProblem::TooManyStages { .. })));
    /// ```
    pub const fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// Where in a text, for an error found while reading one.
    ///
    /// ```
    /// let e = cktile_core::Descriptor::packed(&[0]).unwrap_err();
    /// assert_eq!(e.position(), None);
    /// ```
    pub const fn position(&self) -> Option<Position> {
        self.at
    }

    /// A fixed sentence for `const` panics (which cannot format numbers),
    /// from the layer that found the problem; [`Display`](fmt::Display)
    /// gives the values.
    ///
    /// ```
    /// let e = cktile_core::Error::from(cktile_core::DescriptorProblem::TooManyStages { max: 8 });
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

/// `From` a layer's problem to [`ErrorKind`] and to [`Error`].
macro_rules! from_layer {
    ($($problem:ty => $variant:ident),* $(,)?) => {$(
        impl From<$problem> for ErrorKind {
            fn from(problem: $problem) -> ErrorKind {
                ErrorKind::$variant(problem)
            }
        }

        impl From<$problem> for Error {
            fn from(problem: $problem) -> Error {
                Error::new(ErrorKind::$variant(problem))
            }
        }
    )*};
}

from_layer! {
    DescriptorProblem => Descriptor,
    ParameterProblem => Parameter,
    AdaptorProblem => Adaptor,
    EncodingProblem => Encoding,
    PolicyProblem => Policy,
}

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

#[cfg(test)]
mod tests {
    use super::{Snippet, Visible, is_hidden};
    use proptest::prelude::*;

    proptest! {
        /// Any text, quoted, shows no character that acts on a terminal,
        /// and the text without such characters is quoted as itself.
        #[test]
        fn quoted_text_shows_no_control_character(text in any::<String>()) {
            let shown = Visible(&text).to_string();
            prop_assert!(!shown.contains(is_hidden), "{shown:?}");
            prop_assert!(!Snippet::new(&text).to_string().contains(is_hidden));
            if !text.contains(is_hidden) {
                prop_assert_eq!(shown, text);
            }
        }
    }

    #[test]
    fn every_hidden_character_is_spelled_out() {
        let all: String = ('\0'..='\u{2070}').filter(|&c| is_hidden(c)).collect();
        assert_eq!(all.chars().count(), 32 + 33 + 12);
        let shown = Visible(&all).to_string();
        let expected: String = all.chars().map(|c| format!("\\u{{{:x}}}", u32::from(c))).collect();
        assert_eq!(shown, expected);
    }
}
