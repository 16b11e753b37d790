//! The table of transform kinds: one row per kind, with its spec signature
//! (name and arguments) and how a call's argument values build it.
//!
//! [`Kind::name`], [`Kind::signature`], [`Transform::from_args`], the
//! transform's `Display`, the spec parser and the messages all read this
//! row. [`Transform::args`] below is its inverse: it gives a transform's
//! values in the row's order, and a test builds every kind back from them.
//! The row is an exhaustive `match`, so a new kind does not compile
//! until it has one.

use super::{Family, Kind, Repr, Transform, two};
use crate::signature::{Arg, Args, Found, Param, Shape, Signature};
use crate::{Dims, Error};

/// One kind's row.
#[derive(Clone, Copy)]
pub(super) struct Row {
    /// The spec name and arguments.
    pub(super) signature: Signature,
    /// What the kind does, for grouping.
    pub(super) family: Family,
    /// Builds the transform from argument values that match `signature`
    /// in number (each value's shape is checked as it is read).
    pub(super) build: fn(&Given<'_>) -> Result<Transform, Error>,
}

const fn sig(name: &'static str, params: &'static [Param]) -> Signature {
    Signature { name, params, optional: &[] }
}

const LEN: Param = Param::index("len");
const PAIR: Param = Param::pair("L0, L1");
/// CuTe's `B` and `M`, and its `S`: the ranges whose bit fields fit 62 bits.
const BITS: &str = "an integer in [0, 62]";
const SHIFT: &str = "an integer in [-62, 62]";

/// The row of `kind`.
pub(super) const fn row(kind: Kind) -> Row {
    match kind {
        Kind::PassThrough => Row {
            family: Family::Identity,
            signature: sig("pass_through", const { &[LEN] }),
            build: |a| Transform::pass_through(a.index(0)?),
        },
        Kind::Pad => Row {
            family: Family::Pad,

            signature: sig("pad", const { &[LEN, Param::index("left"), Param::index("right")] }),
            build: |a| Transform::pad(a.index(0)?, a.index(1)?, a.index(2)?),
        },
        Kind::LeftPad => Row {
            family: Family::Pad,

            signature: sig("left_pad", const { &[LEN, Param::index("left")] }),
            build: |a| Transform::left_pad(a.index(0)?, a.index(1)?),
        },
        Kind::RightPad => Row {
            family: Family::Pad,

            signature: sig("right_pad", const { &[LEN, Param::index("right")] }),
            build: |a| Transform::right_pad(a.index(0)?, a.index(1)?),
        },
        Kind::Embed => Row {
            family: Family::Embed,

            signature: sig("embed", const { &[Param::list("lengths"), Param::list("coefficients")] }),
            build: |a| Transform::embed_dims(a.list(0)?, a.list(1)?),
        },
        Kind::Merge => Row {
            family: Family::Merge,

            signature: sig("merge", const { &[Param::list("lower lengths")] }),
            build: |a| Transform::merge_dims(a.list(0)?),
        },
        Kind::Unmerge => Row {
            family: Family::Unmerge,

            signature: sig("unmerge", const { &[Param::list("upper lengths")] }),
            build: |a| Transform::unmerge_dims(a.list(0)?),
        },
        Kind::Xor => Row {
            family: Family::Permutation,

            signature: sig("xor", const { &[PAIR] }),
            build: |a| {
                let (l0, l1) = a.pair(0)?;
                Transform::xor(l0, l1)
            },
        },
        Kind::Slice => Row {
            family: Family::Index,

            signature: sig("slice", const { &[LEN, Param::index("begin"), Param::index("end")] }),
            build: |a| Transform::slice(a.index(0)?, a.index(1)?, a.index(2)?),
        },
        Kind::Freeze => Row {
            family: Family::Index,

            signature: sig("freeze", const { &[Param::index("index")] }),
            build: |a| Transform::freeze(a.index(0)?),
        },
        Kind::Insert => Row {
            family: Family::Index,
            signature: sig("insert", const { &[LEN] }),
            build: |a| Transform::insert(a.index(0)?),
        },
        Kind::Replicate => Row {
            family: Family::Index,

            signature: sig("replicate", const { &[Param::list("lengths")] }),
            build: |a| Transform::replicate_dims(a.list(0)?),
        },
        Kind::Offset => Row {
            family: Family::Index,

            signature: sig("offset", const { &[LEN, Param::index("off")] }),
            build: |a| Transform::offset(a.index(0)?, a.index(1)?),
        },
        Kind::Modulo => Row {
            family: Family::Index,

            signature: sig("modulo", const { &[Param::index("modulus"), LEN] }),
            build: |a| Transform::modulo(a.index(0)?, a.index(1)?),
        },
        Kind::Swizzle => Row {
            family: Family::Permutation,

            signature: sig(
                "swizzle",
                const { &[Param::int("B", 0, 62, BITS), Param::int("M", 0, 62, BITS), Param::int("S", -62, 62, SHIFT)] },
            ),
            // The ranges bound each value, so the narrowing casts are exact.
            build: |a| Transform::swizzle(a.int(0)? as u32, a.int(1)? as u32, a.int(2)? as i32),
        },
        Kind::CyclicShift => Row {
            family: Family::Permutation,

            signature: sig("cyclic_shift", const { &[PAIR] }),
            build: |a| {
                let (l0, l1) = a.pair(0)?;
                Transform::cyclic_shift(l0, l1)
            },
        },
    }
}

/// A call's argument values, read by position as its signature says.
pub(super) struct Given<'a> {
    pub(super) kind: Kind,
    pub(super) signature: Signature,
    pub(super) args: &'a [Arg],
}

impl Given<'_> {
    fn wrong(&self, position: usize) -> Error {
        Error::Argument { kind: self.kind, position, found: Found::of(self.args.get(position)) }
    }

    /// An integer argument inside its range.
    fn int(&self, position: usize) -> Result<i64, Error> {
        match (self.args.get(position), self.signature.param(position)) {
            (Some(Arg::Int(v)), Some(Param { shape: Shape::Int { min, max, .. }, .. })) if (min..=max).contains(v) => {
                Ok(*v)
            }
            _ => Err(self.wrong(position)),
        }
    }

    /// A non-negative integer argument as a `usize`.
    fn index(&self, position: usize) -> Result<usize, Error> {
        to_usize(self.int(position)?)
    }

    /// A list argument.
    fn list(&self, position: usize) -> Result<Dims, Error> {
        match self.args.get(position) {
            Some(Arg::List(d)) => Ok(*d),
            _ => Err(self.wrong(position)),
        }
    }

    /// A pair argument: two non-negative values (a negative one is named
    /// by its own name, `L0` or `L1`).
    fn pair(&self, position: usize) -> Result<(usize, usize), Error> {
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
        const Z: Arg = Arg::Int(0);
        let (values, len) = match self.repr {
            Repr::PassThrough { len } | Repr::Insert { len } => ([Arg::Int(len), Z, Z], 1),
            Repr::Freeze { index } => ([Arg::Int(index), Z, Z], 1),
            Repr::Pad { len, left, right } => ([Arg::Int(len), Arg::Int(left), Arg::Int(right)], 3),
            Repr::LeftPad { len, left: p } | Repr::RightPad { len, right: p } => ([Arg::Int(len), Arg::Int(p), Z], 2),
            Repr::Embed { lengths, coefficients } => ([Arg::List(lengths), Arg::List(coefficients), Z], 2),
            Repr::Merge { lengths } | Repr::Unmerge { lengths } | Repr::Replicate { lengths } => {
                ([Arg::List(lengths), Z, Z], 1)
            }
            Repr::Xor { l0, l1 } | Repr::CyclicShift { l0, l1 } => ([Arg::List(two(l0, l1)), Z, Z], 1),
            Repr::Slice { len, begin, end } => ([Arg::Int(len), Arg::Int(begin), Arg::Int(end)], 3),
            Repr::Offset { len, offset } => ([Arg::Int(len), Arg::Int(offset), Z], 2),
            Repr::Modulo { modulus, len } => ([Arg::Int(modulus), Arg::Int(len), Z], 2),
            Repr::Swizzle { bits, base, shift, .. } => {
                ([Arg::Int(bits as i64), Arg::Int(base as i64), Arg::Int(shift as i64)], 3)
            }
        };
        Args::new(values, len)
    }
}
