//! The table of transform kinds: one row per kind, with its spec signature
//! (name and arguments) and how a call's argument values build it.
//!
//! [`Kind::name`], [`Kind::signature`], [`Transform::from_args`], the
//! transform's `Display`, the spec parser and the messages all read this
//! row. [`Transform::args`] below is its inverse: it gives a transform's
//! values in the row's order, and a test builds every kind back from them.
//! The row is an exhaustive `match`, so a new kind does not compile
//! until it has one.

use super::{Family, Kind, Transform};
use crate::kinds::{each_kind, each_kind_type};
use crate::signature::{Arg, Args, Found, Param, ParamShape, Signature};
use crate::{Dims, Error};

/// One kind's row, which the kind's struct declares as its `ROW`.
#[derive(Clone, Copy)]
pub(crate) struct Row {
    /// The spec name and arguments.
    pub(crate) signature: Signature,
    /// What the kind does, for grouping.
    pub(crate) family: Family,
    /// Builds the transform from argument values that match `signature`
    /// in number (each value's shape is checked as it is read).
    pub(crate) build: fn(&Given<'_>) -> Result<Transform, Error>,
}

/// A signature without optional arguments.
pub(crate) const fn sig(name: &'static str, params: &'static [Param]) -> Signature {
    Signature { name, params, optional: &[] }
}

/// The common `len` argument.
pub(crate) const LEN: Param = Param::index("len");
/// The `(L0, L1)` pair of the two-dimensional permutations.
pub(crate) const PAIR: Param = Param::pair("L0, L1");

/// The row of `kind`.
pub(crate) const fn row(kind: Kind) -> Row {
    each_kind_type!(kind, K => K::ROW)
}

/// A call's argument values, read by position as its signature says.
pub(crate) struct Given<'a> {
    pub(crate) kind: Kind,
    pub(crate) signature: Signature,
    pub(crate) args: &'a [Arg],
}

impl Given<'_> {
    fn wrong(&self, position: usize) -> Error {
        Error::Argument { kind: self.kind, position, found: Found::of(self.args.get(position)) }
    }

    /// An integer argument inside its range.
    pub(crate) fn int(&self, position: usize) -> Result<i64, Error> {
        match (self.args.get(position), self.signature.param(position)) {
            (Some(Arg::Int(v)), Some(Param { shape: ParamShape::Int { min, max, .. }, .. }))
                if (min..=max).contains(v) =>
            {
                Ok(*v)
            }
            _ => Err(self.wrong(position)),
        }
    }

    /// A non-negative integer argument as a `usize`.
    pub(crate) fn index(&self, position: usize) -> Result<usize, Error> {
        to_usize(self.int(position)?)
    }

    /// A list argument.
    pub(crate) fn list(&self, position: usize) -> Result<Dims, Error> {
        match self.args.get(position) {
            Some(Arg::List(d)) => Ok(*d),
            _ => Err(self.wrong(position)),
        }
    }

    /// A pair argument: two non-negative values (a negative one is named
    /// by its own name, `L0` or `L1`).
    pub(crate) fn pair(&self, position: usize) -> Result<(usize, usize), Error> {
        let d = self.list(position)?;
        let [a, b] = d.as_slice() else { return Err(self.wrong(position)) };
        let names = self.signature.param(position).map_or("", |p| p.name);
        let value = |v: i64, which: usize| -> Result<usize, Error> {
            if v < 0 {
                let parameter = names.split(", ").nth(which).unwrap_or(names);
                return Err(Error::Negative { transform: self.signature.name, parameter, position: None, value: v });
            }
            to_usize(v)
        };
        Ok((value(*a, 0)?, value(*b, 1)?))
    }
}

/// A non-negative value as a `usize` (on a 32-bit target, one past
/// `usize::MAX` is named as too large).
fn to_usize(v: i64) -> Result<usize, Error> {
    usize::try_from(v).map_err(|_| Error::ValueTooLarge { value: v as u64 })
}

impl Transform {
    /// Builds a transform of `kind` from argument values in its
    /// [signature](Kind::signature)'s order: the spec form as data.
    ///
    /// Each value must have its parameter's shape (an integer in range, a
    /// list, a pair); the kind's constructor then checks the values as
    /// always.
    ///
    /// ```
    /// use cktile_transforms::{Arg, Dims, Error, Kind, Transform};
    /// let pair = Arg::List(Dims::from_slice(&[64, 8])?);
    /// assert_eq!(Transform::from_args(Kind::Xor, &[pair])?, Transform::xor(64, 8)?);
    /// let e = Transform::from_args(Kind::Pad, &[Arg::Int(10)]).unwrap_err();
    /// assert_eq!(e.to_string(), "pad takes 3 arguments: pad(len, left, right), but 1 argument(s) were given");
    /// let e = Transform::from_args(Kind::Swizzle, &[Arg::Int(3), Arg::Int(70), Arg::Int(3)]).unwrap_err();
    /// assert_eq!(e.to_string(), "swizzle's argument 2, M, is 70; expected an integer in [0, 62]");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn from_args(kind: Kind, args: &[Arg]) -> Result<Transform, Error> {
        let Row { signature, build, .. } = row(kind);
        if !signature.takes(args.len()) {
            return Err(Error::ArgumentCount { kind, found: args.len() });
        }
        build(&Given { kind, signature, args })
    }

    /// The transform's argument values, in its [signature](Kind::signature)'s
    /// order: [`from_args`](Transform::from_args) builds it back from them,
    /// and `Display` prints them. A swizzle's bound length is not an argument.
    ///
    /// ```
    /// use cktile_transforms::{Arg, Transform};
    /// let s = Transform::swizzle_with_len(512, 3, 3, -3)?;
    /// assert_eq!(s.args().as_slice(), [Arg::Int(3), Arg::Int(3), Arg::Int(-3)]);
    /// let m = Transform::merge(&[4, 8])?;
    /// assert_eq!(Transform::from_args(m.kind(), m.args().as_slice())?, m);
    /// # Ok::<(), cktile_transforms::Error>(())
    /// ```
    pub const fn args(&self) -> Args {
        each_kind!(&self.repr, k => k.args())
    }
}
