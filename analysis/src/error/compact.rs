//! The compact spelling's words for an encoding problem: how
//! [`ErrorKind::CompactEncoding`](crate::ErrorKind::CompactEncoding) prints.

use cktile_core::distribution::{EncodingEntry, EncodingProblem, List};
use core::fmt;

/// An R/H component as cktile's spelling writes it: `r[i]` or `hX[i]`.
struct Component {
    major: usize,
    minor: usize,
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.major {
            0 => write!(f, "r[{}]", self.minor),
            m => write!(f, "h{}[{}]", m - 1, self.minor),
        }
    }
}

/// A P or Y reference (or an R/H length) as cktile's spelling writes it.
struct Place(EncodingEntry);

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            EncodingEntry::R(i) => write!(f, "r's length {i}"),
            EncodingEntry::H(x, i) => write!(f, "h{x}'s length {i}"),
            EncodingEntry::P(p, i) => write!(f, "P{p}'s reference {i}"),
            EncodingEntry::Y(i) => write!(f, "y's reference {i}"),
        }
    }
}

/// A list as cktile's spelling writes it.
struct ListName(List);

impl fmt::Display for ListName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            List::Rs => f.write_str("r(...)"),
            List::Xs => f.write_str("h(...)"),
            List::Hs(x) => write!(f, "h{x}"),
            List::Ps => f.write_str("p(...)"),
            List::P(p) => write!(f, "P{p}"),
            List::Ys => f.write_str("y(...)"),
            List::Top => f.write_str("p(...) and y(...) together"),
        }
    }
}

/// An encoding problem in cktile's spelling's own terms (`hX[i]`, `r[i]`,
/// P and Y references), for errors of [`parse_compact`](crate::spelling::parse_compact): what
/// [`ErrorKind::CompactEncoding`](crate::ErrorKind::CompactEncoding) prints.
/// Problems the spelling cannot make are printed in CK's terms.
///
/// ```
/// use cktile_core::distribution::{EncodingProblem, EncodingEntry};
/// use cktile_analysis::CompactProblem;
/// let p = EncodingProblem::MinorOutOfRange { entry: EncodingEntry::P(0, 1), major: 1, minor: 3, count: 1 };
/// assert_eq!(CompactProblem(p).to_string(), "P0's reference 1 names h0[3], but h0 has 1 entry (h0[0])");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct CompactProblem(pub EncodingProblem);

impl fmt::Display for CompactProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            EncodingProblem::TooMany { list, given, max } => {
                write!(f, "{} has {given} entries; at most {max} are supported", ListName(list))
            }
            EncodingProblem::Empty { list: List::Ys } => {
                f.write_str("y() is empty; cktile needs at least one Y dimension (the thread buffer's index)")
            }
            EncodingProblem::Empty { list } => {
                write!(f, "{} is empty; it needs at least one entry", ListName(list))
            }
            EncodingProblem::ZeroLength { entry } => write!(f, "{} is 0; lengths must be at least 1", Place(entry)),
            EncodingProblem::MajorOutOfRange { entry, major: 0, .. } => {
                write!(f, "{} names an r component; a Y takes an h component", Place(entry))
            }
            EncodingProblem::MajorOutOfRange { entry, major, ndim_x } => write!(
                f,
                "{} names h{}, but h(...) has {ndim_x} list(s), h0..h{}",
                Place(entry),
                major - 1,
                ndim_x.saturating_sub(1)
            ),
            EncodingProblem::MinorOutOfRange { entry, major, minor, count } => {
                let group = Component { major, minor: 0 };
                let name = if major == 0 { "r".into() } else { alloc::format!("h{}", major - 1) };
                let s = if count == 1 { "y" } else { "ies" };
                write!(f, "{} names {}, but {name} has {count} entr{s}", Place(entry), Component { major, minor })?;
                match count {
                    0 => Ok(()),
                    1 => write!(f, " ({group})"),
                    _ => write!(f, " ({group}..{})", Component { major, minor: count - 1 }),
                }
            }
            EncodingProblem::Shared { first, second, major, minor } => write!(
                f,
                "{} and {} both name {}; each r or h component belongs to at most one P or Y",
                Place(first),
                Place(second),
                Component { major, minor }
            ),
            EncodingProblem::Unowned { entry: EncodingEntry::H(x, i), length } => write!(
                f,
                "{} (length {length}) is named by no P or Y, so part of X{x} would never be reached; add it to p(...) \
                 or y(...)",
                Component { major: x as usize + 1, minor: i as usize }
            ),
            other => write!(f, "{other}"),
        }
    }
}
