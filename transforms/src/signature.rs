//! The spec form of a call: what each argument takes ([`Param`], [`ParamShape`]),
//! the whole argument list ([`Signature`]), and the values a call passes
//! ([`Arg`], [`Args`]).
//!
//! Every transform kind's signature is its row in the table of kinds
//! (`transform/table.rs`); the spec parser, [`Transform`](crate::Transform)'s
//! `Display`, [`Transform::from_args`](crate::Transform::from_args) and the
//! messages read it from there. The base descriptors of the main crate
//! (`naive`, `packed`, ...) describe themselves with the same types.

use crate::dims::Bare;
use crate::{Dims, Found, Index};
use core::fmt;

/// What one argument takes.
///
/// ```
/// use cktile_transforms::{Kind, ParamShape};
/// let swizzle = Kind::Swizzle.signature();
/// assert_eq!(swizzle.params[0].shape, ParamShape::Int { min: 0, max: 62, range: "an integer in [0, 62]" });
/// assert_eq!(Kind::Merge.signature().params[0].shape, ParamShape::List);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamShape {
    /// One integer in `[min, max]`; `range` says so in words, for messages.
    Int {
        /// The smallest value allowed.
        min: i64,
        /// The largest value allowed.
        max: i64,
        /// The range in words ("an integer in [0, 62]").
        range: &'static str,
    },
    /// A list of lengths, written `(a, b, ...)` (one value may be written
    /// bare in a spec).
    List,
    /// Exactly two lengths, written `(L0, L1)`.
    Pair,
}

/// The range text of an index argument.
///
/// ```
/// use cktile_transforms::{Kind, ParamShape, INDEX_RANGE};
/// assert!(matches!(Kind::Pad.signature().params[0].shape, ParamShape::Int { range: INDEX_RANGE, .. }));
/// ```
pub const INDEX_RANGE: &str = "an integer in [0, 2^63)";

/// One argument: its name, as the signature prints it, and its shape.
///
/// ```
/// use cktile_transforms::Param;
/// assert_eq!(Param::list("lengths").to_string(), "(lengths)");
/// assert_eq!(Param::index("len").to_string(), "len");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Param {
    /// The argument's name (a pair's two names, `L0, L1`).
    pub name: &'static str,
    /// What it takes.
    pub shape: ParamShape,
}

impl Param {
    /// A non-negative integer that fits the index type.
    ///
    /// ```
    /// # use cktile_transforms::{Param, ParamShape, INDEX_RANGE};
    /// assert_eq!(Param::index("len").shape, ParamShape::Int { min: 0, max: i64::MAX, range: INDEX_RANGE });
    /// ```
    pub const fn index(name: &'static str) -> Param {
        Param { name, shape: ParamShape::Int { min: 0, max: Index::MAX, range: INDEX_RANGE } }
    }

    /// An integer in `[min, max]`, described by `range`.
    ///
    /// ```
    /// # use cktile_transforms::{Param, ParamShape};
    /// let p = Param::int("S", -62, 62, "an integer in [-62, 62]");
    /// assert_eq!(p.shape, ParamShape::Int { min: -62, max: 62, range: "an integer in [-62, 62]" });
    /// ```
    pub const fn int(name: &'static str, min: i64, max: i64, range: &'static str) -> Param {
        Param { name, shape: ParamShape::Int { min, max, range } }
    }

    /// A list of lengths.
    ///
    /// ```
    /// # use cktile_transforms::{Param, ParamShape};
    /// assert_eq!(Param::list("lengths").shape, ParamShape::List);
    /// ```
    pub const fn list(name: &'static str) -> Param {
        Param { name, shape: ParamShape::List }
    }

    /// Two lengths; `names` is how the signature prints them (`"L0, L1"`).
    ///
    /// ```
    /// # use cktile_transforms::Param;
    /// assert_eq!(Param::pair("L0, L1").to_string(), "(L0, L1)");
    /// ```
    pub const fn pair(names: &'static str) -> Param {
        Param { name: names, shape: ParamShape::Pair }
    }

    /// What the argument should be, in words, for messages.
    ///
    /// ```
    /// # use cktile_transforms::Param;
    /// assert_eq!(Param::pair("L0, L1").expects(), "a pair of lengths");
    /// assert_eq!(Param::list("lengths").expects(), "a list of lengths");
    /// assert_eq!(Param::index("len").expects(), "an integer in [0, 2^63)");
    /// ```
    pub const fn expects(&self) -> &'static str {
        match self.shape {
            ParamShape::Int { range, .. } => range,
            ParamShape::List => "a list of lengths",
            ParamShape::Pair => "a pair of lengths",
        }
    }
}

/// `len`, `(lengths)` or `(L0, L1)`.
impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.shape {
            ParamShape::Int { .. } => f.write_str(self.name),
            ParamShape::List | ParamShape::Pair => write!(f, "({})", self.name),
        }
    }
}

/// A call's argument list: its required parameters, then optional ones
/// that are given all together or not at all.
///
/// ```
/// use cktile_transforms::{Kind, Param, Signature};
/// let pad = Kind::Pad.signature();
/// assert_eq!(pad.to_string(), "pad(len, left, right)");
/// assert_eq!(pad.count_text().to_string(), "3 arguments");
/// const NAIVE: Signature = Signature {
///     name: "naive",
///     params: &[Param::list("lengths"), Param::list("strides")],
///     optional: &[Param::int("vector length", -1, i64::MAX, "-1 or a length")],
/// };
/// assert_eq!(NAIVE.to_string(), "naive((lengths), (strides)[, vector length])");
/// assert!(NAIVE.takes(2) && NAIVE.takes(3) && !NAIVE.takes(1));
/// assert_eq!(NAIVE.count_text().to_string(), "2 or 3 arguments");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Signature {
    /// The call's name.
    pub name: &'static str,
    /// The arguments every call gives.
    pub params: &'static [Param],
    /// Arguments given all together after `params`, or not at all.
    pub optional: &'static [Param],
}

impl Signature {
    /// Whether a call may give `count` arguments.
    ///
    /// ```
    /// assert!(cktile_transforms::Kind::Xor.signature().takes(1));
    /// ```
    pub const fn takes(&self, count: usize) -> bool {
        count == self.params.len() || (!self.optional.is_empty() && count == self.params.len() + self.optional.len())
    }

    /// The parameter at `position` (the optional ones follow the required).
    ///
    /// ```
    /// use cktile_transforms::Kind;
    /// assert_eq!(Kind::Slice.signature().param(2).map(|p| p.name), Some("end"));
    /// assert_eq!(Kind::Slice.signature().param(3), None);
    /// ```
    pub const fn param(&self, position: usize) -> Option<Param> {
        if position < self.params.len() {
            Some(self.params[position])
        } else if position - self.params.len() < self.optional.len() {
            Some(self.optional[position - self.params.len()])
        } else {
            None
        }
    }

    /// How many arguments it takes, in words: `1 argument`, `3 arguments`,
    /// `2 or 4 arguments`.
    ///
    /// ```
    /// assert_eq!(cktile_transforms::Kind::Merge.signature().count_text().to_string(), "1 argument");
    /// ```
    pub fn count_text(&self) -> CountText {
        CountText(*self)
    }
}

/// [`Signature::count_text`]'s words.
///
/// ```
/// assert_eq!(cktile_transforms::Kind::Offset.signature().count_text().to_string(), "2 arguments");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountText(Signature);

impl fmt::Display for CountText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (n, more) = (self.0.params.len(), self.0.optional.len());
        if more > 0 {
            write!(f, "{n} or {} arguments", n + more)
        } else if n == 1 {
            f.write_str("1 argument")
        } else {
            write!(f, "{n} arguments")
        }
    }
}

/// `name(p1, p2[, o1, o2])`.
impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}(", self.name)?;
        for (i, p) in self.params.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{p}")?;
        }
        if !self.optional.is_empty() {
            f.write_str("[")?;
            for p in self.optional {
                write!(f, ", {p}")?;
            }
            f.write_str("]")?;
        }
        f.write_str(")")
    }
}

/// One argument's value: an integer, or a list (a pair is a list of two).
///
/// ```
/// use cktile_transforms::{Arg, Dims, Kind, Transform};
/// let args = [Arg::Int(10), Arg::Int(2), Arg::Int(3)];
/// assert_eq!(Transform::from_args(Kind::Pad, &args)?, Transform::pad(10, 2, 3)?);
/// let merge = [Arg::List(Dims::from_slice(&[4, 8])?)];
/// assert_eq!(Transform::from_args(Kind::Merge, &merge)?, Transform::merge(&[4, 8])?);
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arg {
    /// One integer.
    Int(i64),
    /// A list of values.
    List(Dims),
}

/// `7`, or a list in parentheses: `(4,8)`.
///
/// ```
/// use cktile_transforms::{Arg, Dims};
/// assert_eq!(Arg::List(Dims::from_slice(&[4])?).to_string(), "(4)");
/// assert_eq!(Arg::Int(-3).to_string(), "-3");
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
impl fmt::Display for Arg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arg::Int(v) => write!(f, "{v}"),
            Arg::List(d) => write!(f, "({})", Bare(*d)),
        }
    }
}

// `Found` itself is a message's word, in `error`; what an argument is, here.
impl Found {
    /// What `arg` is (its kind of value, as an error names it).
    ///
    /// ```
    /// # use cktile_transforms::{Arg, Found};
    /// assert_eq!(Found::of(Some(&Arg::Int(7))), Found::Int(7));
    /// ```
    pub const fn of(arg: Option<&Arg>) -> Found {
        match arg {
            None => Found::Missing,
            Some(Arg::Int(v)) => Found::Int(*v),
            Some(Arg::List(d)) => Found::List(d.len()),
        }
    }
}

/// A call's argument values, at most [`Args::MAX`] of them
/// ([`Transform::args`](crate::Transform::args)).
///
/// ```
/// use cktile_transforms::{Arg, Transform};
/// let args = Transform::slice(16, 4, 12)?.args();
/// assert_eq!(args.as_slice(), [Arg::Int(16), Arg::Int(4), Arg::Int(12)]);
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Args {
    values: [Arg; Args::MAX],
    len: usize,
}

impl Args {
    /// The most arguments a transform takes.
    pub const MAX: usize = 3;

    /// The filler past a transform's last argument.
    pub(crate) const Z: Arg = Arg::Int(0);

    /// The first `len` of `values` (all of them when `len` is larger).
    pub(crate) const fn new(values: [Arg; Args::MAX], len: usize) -> Args {
        Args { values, len: if len < Args::MAX { len } else { Args::MAX } }
    }

    /// The values, in the signature's order.
    ///
    /// ```
    /// let x = cktile_transforms::Transform::xor(64, 8)?;
    /// assert_eq!(x.args().as_slice().len(), 1);
    /// # Ok::<(), cktile_transforms::Error>(())
    /// ```
    pub fn as_slice(&self) -> &[Arg] {
        &self.values[..self.len]
    }
}
