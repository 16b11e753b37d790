//! What a malformed tile distribution encoding gets wrong
//! ([`EncodingProblem`]), with the entries and lists it names, and its
//! messages in CK's terms and (for the compact spelling's parser) in
//! cktile's own. Here, below the distributions, so the crate's one error
//! type can carry it.

use super::Numbers;
use cktile_transforms::Index;
use core::fmt;

/// One entry of an encoding, named by CK's template parameter and indices.
///
/// ```
/// use cktile_core::distribution::EncodingEntry;
/// assert_eq!(EncodingEntry::H(1, 0).to_string(), "HsLengthss[1][0]");
/// assert_eq!(EncodingEntry::P(0, 2).to_string(), "Ps2RHss{Major,Minor}[0][2]");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EncodingEntry {
    /// `RsLengths[i]`.
    R(u8),
    /// `HsLengthss[x][i]`.
    H(u8, u8),
    /// `Ps2RHssMajor[p][i]` and `Ps2RHssMinor[p][i]`.
    P(u8, u8),
    /// `Ys2RHsMajor[i]` and `Ys2RHsMinor[i]`.
    Y(u8),
}

impl EncodingEntry {
    /// The entry's name in CK's list `part` ("Major" or "Minor"; ignored for R and H).
    fn write(&self, f: &mut fmt::Formatter<'_>, part: &str) -> fmt::Result {
        match *self {
            EncodingEntry::R(i) => write!(f, "RsLengths[{i}]"),
            EncodingEntry::H(x, i) => write!(f, "HsLengthss[{x}][{i}]"),
            EncodingEntry::P(p, i) => write!(f, "Ps2RHss{part}[{p}][{i}]"),
            EncodingEntry::Y(i) => write!(f, "Ys2RHs{part}[{i}]"),
        }
    }
}

impl fmt::Display for EncodingEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, "{Major,Minor}")
    }
}

/// One of an encoding's lists, for counts.
///
/// ```
/// use cktile_core::distribution::List;
/// assert_eq!(List::Hs(2).to_string(), "HsLengthss[2]");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum List {
    /// `RsLengths`.
    Rs,
    /// `HsLengthss` (one entry per X dimension).
    Xs,
    /// `HsLengthss[x]`.
    Hs(u8),
    /// `Ps2RHssMajor` / `Ps2RHssMinor` (one entry per P dimension).
    Ps,
    /// `Ps2RHssMajor[p]` / `Ps2RHssMinor[p]`.
    P(u8),
    /// `Ys2RHsMajor` / `Ys2RHsMinor`.
    Ys,
    /// The P and Y dimensions together (the adaptor's top dimensions).
    Top,
}

impl fmt::Display for List {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            List::Rs => f.write_str("RsLengths"),
            List::Xs => f.write_str("HsLengthss"),
            List::Hs(x) => write!(f, "HsLengthss[{x}]"),
            List::Ps => f.write_str("Ps2RHssMajor"),
            List::P(p) => write!(f, "Ps2RHssMajor[{p}]"),
            List::Ys => f.write_str("Ys2RHsMajor"),
            List::Top => f.write_str("the P and Y dimensions together"),
        }
    }
}

/// What is wrong with an encoding, naming the entry. Carried by
/// [`ErrorKind::Encoding`](crate::ErrorKind::Encoding).
///
/// ```
/// use cktile_core::distribution::Encoding;
/// // Y 0 names H entry (2, 1), but X1 has only one H entry.
/// let e = Encoding::new(&[], &[&[16], &[4]], &[&[2, 1]], &[&[0, 0]], &[2], &[1]).unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "Ys2RHsMinor[0] is 1, but RH major 2 (HsLengthss[1]) has 1 entry, so its minors are 0..1"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EncodingProblem {
    /// A list has more entries than supported.
    TooMany {
        /// The list.
        list: List,
        /// Its number of entries.
        given: usize,
        /// The most supported.
        max: usize,
    },
    /// A list that needs entries has none.
    Empty {
        /// The list.
        list: List,
    },
    /// A major list and its minor list differ in length.
    CountMismatch {
        /// The major list.
        list: List,
        /// Its length.
        major: usize,
        /// The minor list's length.
        minor: usize,
    },
    /// An R or H length is 0.
    ZeroLength {
        /// The entry.
        entry: EncodingEntry,
    },
    /// A major names no R/H group, or a Y names R.
    MajorOutOfRange {
        /// The P or Y entry.
        entry: EncodingEntry,
        /// The major given.
        major: usize,
        /// The number of X dimensions (majors are 0..=ndim_x, Y majors 1..=ndim_x).
        ndim_x: usize,
    },
    /// A minor is past the entries of its R/H group.
    MinorOutOfRange {
        /// The P or Y entry.
        entry: EncodingEntry,
        /// Its major.
        major: usize,
        /// The minor given.
        minor: usize,
        /// The number of entries of that group.
        count: usize,
    },
    /// Two P/Y entries name the same R/H component.
    Shared {
        /// The first entry naming it.
        first: EncodingEntry,
        /// The second.
        second: EncodingEntry,
        /// The component's major.
        major: usize,
        /// Its minor.
        minor: usize,
    },
    /// An H component longer than 1 that no P or Y names: part of its X
    /// dimension would never be reached.
    Unowned {
        /// The H entry.
        entry: EncodingEntry,
        /// Its length.
        length: Index,
    },
    /// The ps_ys_to_xs adaptor would need more hidden dimensions than an
    /// [`Adaptor`](crate::adaptor::Adaptor) numbers.
    TooManyHidden {
        /// X + R + H + P dimensions.
        needed: usize,
        /// The most supported.
        max: usize,
    },
    /// An instruction wider than one element needs a Y that walks the
    /// fastest H component of the last X dimension (the vector dimension),
    /// and no Y does.
    NoVectorY {
        /// The instruction's width in elements.
        width: usize,
    },
    /// The vector Y's length is not a multiple of the instruction's width.
    VectorWidth {
        /// The vector Y.
        y: usize,
        /// Its length: the elements a thread holds contiguously along the last X.
        length: Index,
        /// The instruction's width in elements.
        width: usize,
    },
    /// A tile checked for coverage has a different number of dimensions
    /// than the distribution's X.
    TileArity {
        /// The tile's number of lengths.
        given: usize,
        /// The distribution's X dimensions.
        ndim_x: usize,
    },
    /// A length of a tile checked for coverage is not positive.
    TileLength {
        /// The dimension.
        dim: usize,
        /// Its length.
        length: Index,
    },
    /// More (P..., Y...) indices than are enumerated.
    TooManyIndices {
        /// The number of (P..., Y...) indices.
        count: u64,
        /// The most that are enumerated.
        limit: u64,
    },
}

/// These numbers and an entry's indices.
const fn with_entry(n: Numbers, entry: EncodingEntry) -> Numbers {
    match entry {
        EncodingEntry::R(i) => n.with("RsLengths entry", i as i64),
        EncodingEntry::H(x, i) => n.with("HsLengthss", x as i64).with("entry", i as i64),
        EncodingEntry::P(p, i) => n.with("Ps2RHss", p as i64).with("entry", i as i64),
        EncodingEntry::Y(i) => n.with("Ys2RHs entry", i as i64),
    }
}

impl EncodingProblem {
    /// The problem in one line without its entries and numbers: what a
    /// failed compile-time check of a typed encoding prints
    /// ([`Error::summary`](crate::Error::summary)).
    ///
    /// ```
    /// use cktile_core::distribution::{EncodingProblem, List};
    /// assert_eq!(EncodingProblem::Empty { list: List::Ys }.summary(), "cktile: a list of the encoding that needs entries has none");
    /// ```
    pub const fn summary(&self) -> &'static str {
        match self {
            EncodingProblem::TooMany { .. } => "cktile: a list of the encoding has more entries than supported",
            EncodingProblem::Empty { .. } => "cktile: a list of the encoding that needs entries has none",
            EncodingProblem::CountMismatch { .. } => "cktile: a major list and its minor list differ in length",
            EncodingProblem::ZeroLength { .. } => "cktile: an R or H length of the encoding is 0",
            EncodingProblem::MajorOutOfRange { .. } => "cktile: a P or Y major names no R/H group (or a Y names R)",
            EncodingProblem::MinorOutOfRange { .. } => "cktile: a P or Y minor is past the entries of its R/H group",
            EncodingProblem::Shared { .. } => "cktile: two P/Y entries name the same R/H component",
            EncodingProblem::Unowned { .. } => "cktile: an H component longer than 1 is named by no P or Y",
            EncodingProblem::TooManyHidden { .. } => "cktile: the encoding needs more hidden dimensions than supported",
            EncodingProblem::NoVectorY { .. } | EncodingProblem::VectorWidth { .. } => {
                "cktile: the distribution's vector dimension does not fit the instruction's width"
            }
            EncodingProblem::TooManyIndices { .. } => "cktile: the distribution has more indices than are enumerated",
            EncodingProblem::TileArity { .. } => "cktile: the tile and the distribution's X differ in dimensions",
            EncodingProblem::TileLength { .. } => "cktile: a tile length is not positive",
        }
    }

    /// The entries and numbers the problem names (see [`Numbers`]), for
    /// the message of a failed compile-time check.
    ///
    /// ```
    /// use cktile_core::distribution::{EncodingProblem, EncodingEntry};
    /// let shared = EncodingProblem::Shared { first: EncodingEntry::P(0, 1), second: EncodingEntry::Y(1), major: 1, minor: 0 };
    /// assert_eq!(shared.numbers().as_slice(), &[("Ps2RHss", 0), ("entry", 1), ("Ys2RHs entry", 1), ("major", 1), ("minor", 0)]);
    /// ```
    pub const fn numbers(&self) -> Numbers {
        let n = Numbers::EMPTY;
        match *self {
            EncodingProblem::TooMany { given, max, .. } => n.with("given", given as i64).with("max", max as i64),
            EncodingProblem::Empty { .. } => n,
            EncodingProblem::CountMismatch { major, minor, .. } => {
                n.with("major entries", major as i64).with("minor entries", minor as i64)
            }
            EncodingProblem::ZeroLength { entry } => with_entry(n, entry),
            EncodingProblem::MajorOutOfRange { entry, major, ndim_x } => {
                with_entry(n, entry).with("major", major as i64).with("X dimensions", ndim_x as i64)
            }
            EncodingProblem::MinorOutOfRange { entry, major, minor, count } => with_entry(n, entry)
                .with("major", major as i64)
                .with("minor", minor as i64)
                .with("entries", count as i64),
            EncodingProblem::Shared { first, second, major, minor } => {
                with_entry(with_entry(n, first), second).with("major", major as i64).with("minor", minor as i64)
            }
            EncodingProblem::Unowned { entry, length } => with_entry(n, entry).with("length", length),
            EncodingProblem::TooManyHidden { needed, max } => n.with("needed", needed as i64).with("max", max as i64),
            EncodingProblem::NoVectorY { width } => n.with("width", width as i64),
            EncodingProblem::VectorWidth { y, length, width } => {
                n.with("Y", y as i64).with("length", length).with("width", width as i64)
            }
            EncodingProblem::TooManyIndices { count, limit } => {
                n.with("indices", count as i64).with("limit", limit as i64)
            }
            EncodingProblem::TileArity { given, ndim_x } => {
                n.with("tile dimensions", given as i64).with("X dimensions", ndim_x as i64)
            }
            EncodingProblem::TileLength { dim, length } => n.with("dimension", dim as i64).with("length", length),
        }
    }
}

impl fmt::Display for EncodingProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            EncodingProblem::TooMany { list, given, max } => {
                write!(f, "{list} has {given} entries; at most {max} are supported")
            }
            EncodingProblem::Empty { list: List::Ys } => {
                f.write_str("Ys2RHsMajor is empty; cktile needs at least one Y dimension (the thread buffer's index)")
            }
            EncodingProblem::Empty { list } => write!(f, "{list} is empty; it needs at least one entry"),
            EncodingProblem::CountMismatch { list, major, minor } => {
                let minor_list = match list {
                    List::Ps => "Ps2RHssMinor".into(),
                    List::P(p) => indexed_name("Ps2RHssMinor", p),
                    _ => "Ys2RHsMinor".into(),
                };
                let s = if major == 1 { "y" } else { "ies" };
                write!(f, "{list} has {major} entr{s} but {} has {minor}; they must match", minor_list.as_str())
            }
            EncodingProblem::ZeroLength { entry } => write!(f, "{entry} is 0; lengths must be at least 1"),
            EncodingProblem::MajorOutOfRange { entry, major, ndim_x } => {
                entry.write(f, "Major")?;
                if matches!(entry, EncodingEntry::Y(_)) && major == 0 {
                    write!(f, " is 0 (R); a Y names an H component, majors 1..={ndim_x}")
                } else {
                    write!(f, " is {major}; majors are 0 (R) and 1..={ndim_x} (the H of X0..X{})", ndim_x - 1)
                }
            }
            EncodingProblem::MinorOutOfRange { entry, major, minor, count } => {
                entry.write(f, "Minor")?;
                let group = NameBuf::group(major);
                let s = if count == 1 { "y" } else { "ies" };
                write!(
                    f,
                    " is {minor}, but RH major {major} ({}) has {count} entr{s}, so its minors are 0..{count}",
                    group.as_str()
                )
            }
            EncodingProblem::Shared { first, second, major, minor } => write!(
                f,
                "{first} and {second} both name RH component ({major}, {minor}); each R or H component belongs to \
                 at most one P or Y"
            ),
            EncodingProblem::Unowned { entry, length } => write!(
                f,
                "{entry} (length {length}) is named by no P or Y, so part of its X dimension would never be \
                 reached; map it to a P or a Y"
            ),
            EncodingProblem::TooManyHidden { needed, max } => {
                write!(f, "the encoding needs {needed} hidden dimensions (X + R + H + P); at most {max} are supported")
            }
            EncodingProblem::NoVectorY { width } => write!(
                f,
                "the instruction moves {width} elements per lane, but no Y walks the fastest H component of the \
                 last X dimension, so a thread holds no contiguous vector; use a one-element instruction"
            ),
            EncodingProblem::VectorWidth { y, length, width } => write!(
                f,
                "the instruction moves {width} elements per lane, but the vector dimension Y{y} has length \
                 {length}; CK's tile window (get_vector_dim_y_scalar_per_vector) issues only widths that divide it"
            ),
            EncodingProblem::TooManyIndices { count, limit } => write!(
                f,
                "the distribution has {count} (P..., Y...) indices, more than the {limit} that are enumerated"
            ),
            EncodingProblem::TileArity { given, ndim_x } => write!(
                f,
                "the tile has {given} length(s) but the distribution has {ndim_x} X dimension(s); give one length per X"
            ),
            EncodingProblem::TileLength { dim, length } => {
                write!(f, "tile length {dim} is {length}; every length must be at least 1")
            }
        }
    }
}

/// A short name built without allocation (for messages).
struct NameBuf {
    bytes: [u8; 32],
    len: usize,
}

impl NameBuf {
    fn as_str(&self) -> &str {
        core::str::from_utf8(&self.bytes[..self.len]).unwrap_or("")
    }

    /// "RsLengths" for major 0, "HsLengthss[major-1]" otherwise.
    fn group(major: usize) -> NameBuf {
        if major == 0 { "RsLengths".into() } else { indexed_name("HsLengthss", (major - 1) as u8) }
    }
}

impl From<&str> for NameBuf {
    fn from(s: &str) -> NameBuf {
        let mut bytes = [0u8; 32];
        let len = s.len().min(32);
        bytes[..len].copy_from_slice(&s.as_bytes()[..len]);
        NameBuf { bytes, len }
    }
}

/// `name[index]`.
fn indexed_name(name: &str, index: u8) -> NameBuf {
    use core::fmt::Write;
    struct W(NameBuf);
    impl Write for W {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            let end = (self.0.len + s.len()).min(32);
            let n = end - self.0.len;
            self.0.bytes[self.0.len..end].copy_from_slice(&s.as_bytes()[..n]);
            self.0.len = end;
            Ok(())
        }
    }
    let mut w = W(NameBuf { bytes: [0; 32], len: 0 });
    let _ = write!(w, "{name}[{index}]");
    w.0
}
