//! Labelled numbers for messages that cannot be formatted: the values a
//! failed compile-time check names. The bottom of the crate, so that every
//! layer's problems can carry them.

/// Labelled numbers for messages that cannot format (a failed
/// compile-time check): at most six, the first [`len`](Self::len) of
/// [`pairs`](Self::pairs).
///
/// ```
/// use cktile_core::distribution::{EncodingProblem, EncodingEntry};
/// let n = EncodingProblem::MinorOutOfRange { entry: EncodingEntry::Y(0), major: 2, minor: 1, count: 1 }.numbers();
/// assert_eq!(n.as_slice(), &[("Ys2RHs entry", 0), ("major", 2), ("minor", 1), ("entries", 1)]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Numbers {
    /// The labelled numbers.
    pub pairs: [(&'static str, i64); 6],
    /// How many are used.
    pub len: usize,
}

impl Numbers {
    /// None yet.
    ///
    /// ```
    /// assert!(cktile_core::distribution::encoding::Numbers::EMPTY.as_slice().is_empty());
    /// ```
    pub const EMPTY: Numbers = Numbers { pairs: [("", 0); 6], len: 0 };

    /// These numbers and one more (dropped past six).
    ///
    /// ```
    /// use cktile_core::distribution::encoding::Numbers;
    /// assert_eq!(Numbers::EMPTY.with("x", 3).as_slice(), &[("x", 3)]);
    /// ```
    pub const fn with(mut self, label: &'static str, value: i64) -> Numbers {
        if self.len < self.pairs.len() {
            self.pairs[self.len] = (label, value);
            self.len += 1;
        }
        self
    }

    /// The numbers used.
    ///
    /// ```
    /// use cktile_core::distribution::encoding::Numbers;
    /// assert_eq!(Numbers::EMPTY.with("a", 1).with("b", 2).as_slice().len(), 2);
    /// ```
    pub const fn as_slice(&self) -> &[(&'static str, i64)] {
        self.pairs.split_at(self.len).0
    }
}
