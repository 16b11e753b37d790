//! The table of transform kinds: one row per kind, with its spec signature
//! (name and arguments) and how a call's argument values build it. Each
//! kind's struct declares its row (written with `kinds::row`); this is the
//! dispatch that reads them.
//!
//! [`Kind::name`], [`Kind::signature`], [`Transform::from_args`], the
//! transform's `Display`, the spec parser and the messages all read this
//! row. [`Transform::args`] below is its inverse: it gives a transform's
//! values in the row's order, and a test builds every kind back from them.
//! The row is an exhaustive `match`, so a new kind does not compile
//! until it has one.

use super::{Kind, Transform};
use crate::Error;
use crate::kinds::row::{Given, Row};
use crate::kinds::{each_kind, each_kind_type};
use crate::signature::{Arg, Args};

/// The row of `kind`.
pub(crate) const fn row(kind: Kind) -> Row {
    each_kind_type!(kind, K => K::ROW)
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
