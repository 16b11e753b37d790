//! The table of kinds' rows: each kind's struct declares its `ROW` (its
//! spec signature, its [`Family`], and how a call's argument values build
//! it) with what this module gives: [`Row`], [`sig`], the common
//! parameters [`LEN`] and [`PAIR`], and [`Given`], a call's argument values
//! read by position. The table itself, one dispatch over the list, is
//! `transform::table`.

use super::Transform;
use crate::Found;
use crate::signature::{Arg, Param, ParamShape, Signature};
use crate::{Dims, Error, Kind};

/// What a transform kind does to indices, as its row in the table of kinds
/// says ([`Kind::family`]).
///
/// ```
/// use cktile_transforms::{Family, Kind};
/// let permutations: Vec<_> = Kind::ALL.into_iter().filter(|k| k.family() == Family::Permutation).collect();
/// assert_eq!(permutations, [Kind::Xor, Kind::XorNoModulo, Kind::Swizzle, Kind::CyclicShift, Kind::Functor]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// `pass_through`: the index itself.
    Identity,
    /// The pads: a shifted index with a validity range.
    Pad,
    /// `embed`: a weighted sum of upper indices.
    Embed,
    /// `merge`: one index split row-major into several.
    Merge,
    /// `unmerge`: several indices combined row-major into one.
    Unmerge,
    /// A bijection inside the dimensions, against bank conflicts (`xor`,
    /// `xor_no_modulo`, `swizzle`, `cyclic_shift`), or of a dimension's
    /// order (`functor`).
    Permutation,
    /// Moving, fixing, adding or folding indices (`slice`, `freeze`,
    /// `insert`, `replicate`, `offset`, `modulo`).
    Index,
}

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
