//! What the kinds' typed forms are written with: their trait,
//! [`TypedTransform`] (public, re-exported in [`typed`](crate::typed)), and,
//! crate-private, the three shapes most kinds take (`scalar_transform!`:
//! named scalar parameters; `list_transform!`: one list of lengths;
//! `pair_transform!`: a permutation of two dimensions), the helpers their
//! formulas call, and the names every typed form needs. A kind's module
//! invokes one of them in its `typed` submodule, or writes its typed form
//! by hand (`embed`, `swizzle`).

pub(crate) use super::Transform;
use crate::{Count, Dims};
pub(crate) use crate::{Error, Index, Indices, Kind, MAX_DIMS, Value, Values, VectorRule};
pub(crate) use typenum::{U0, U1, U2, Unsigned};

/// A transform whose parameters are [`Value`](crate::Value)s, with its dimension counts at
/// the type level.
///
/// ```
/// use cktile_transforms::typed::{make_xor_transform, TypedTransform};
/// use cktile_transforms::Number;
/// let x = make_xor_transform((Number::<64>, 8usize)); // mixed static / runtime
/// assert_eq!(x.to_transform().unwrap().upper_lengths().as_slice(), &[64, 8]);
/// ```
pub trait TypedTransform: Copy {
    /// Number of lower dimensions.
    type NumLower: Count;
    /// Number of upper dimensions.
    type NumUpper: Count;
    /// Which transform this is, known from the type whatever its
    /// parameters (the structural checks of a stage name it).
    ///
    /// ```
    /// use cktile_transforms::typed::{Merge, TypedTransform};
    /// use cktile_transforms::Kind;
    /// assert_eq!(<Merge<(usize, usize)> as TypedTransform>::KIND, Kind::Merge);
    /// ```
    const KIND: Kind;
    /// The transform, when all parameters are static.
    const STATIC: Option<Result<Transform, Error>>;
    /// How the transform carries safe vector lengths to its upper
    /// dimensions, as CK Tile knows it from the compile-time parameters:
    /// the transform's own rule when all are static, its kind's rule with
    /// the runtime ones unknown otherwise (an unmerge whose last length is
    /// static keeps it, as in CK).
    ///
    /// ```
    /// use cktile_transforms::typed::{Unmerge, TypedTransform};
    /// use cktile_transforms::{Number, VectorRule};
    /// assert_eq!(<Unmerge<(usize, Number<8>)> as TypedTransform>::VECTOR_RULE, VectorRule::Gcd { upper: 1, with: Some(8) });
    /// assert_eq!(<Unmerge<(Number<8>, usize)> as TypedTransform>::VECTOR_RULE, VectorRule::Gcd { upper: 1, with: None });
    /// ```
    const VECTOR_RULE: VectorRule = match Self::STATIC {
        Some(Ok(t)) => t.vector_rule(),
        _ => VectorRule::of_kind(
            Self::KIND,
            <Self::NumLower as Unsigned>::USIZE,
            <Self::NumUpper as Unsigned>::USIZE,
            None,
        ),
    };
    /// The transform (validated).
    fn to_transform(self) -> Result<Transform, Error>;
    /// Checks the transform against the lengths of the lower dimensions it
    /// is applied to (the first `NumLower` entries of `lower_lengths`):
    /// [`to_transform`](Self::to_transform) then [`Transform::bind`], the
    /// runtime descriptor's checks, keeping nothing. Inlined, with the
    /// transform's kind known from the type, it folds to the few compares
    /// the kind needs.
    ///
    /// ```
    /// use cktile_transforms::typed::{make_merge_transform, TypedTransform};
    /// use cktile_transforms::Number;
    /// let m = make_merge_transform((Number::<4>, 8usize));
    /// assert!(m.check_lower_lengths(&[4, 8, 0, 0, 0, 0, 0, 0]).is_ok());
    /// assert!(m.check_lower_lengths(&[4, 16, 0, 0, 0, 0, 0, 0]).is_err());
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn check_lower_lengths(self, lower_lengths: &Indices) -> Result<(), Error> {
        let t = self.to_transform()?;
        let n = <Self::NumLower as Unsigned>::USIZE;
        let lengths = Dims::from_slice(lower_lengths.split_at(if n < MAX_DIMS { n } else { MAX_DIMS }).0)?;
        t.bind(&lengths).map(|_| ())
    }
    /// Whether [`check_lower_lengths`](Self::check_lower_lengths) accepts:
    /// the same verdict as a `bool`, which a kernel that builds a descriptor
    /// from runtime values computes without branches (the scalar kinds
    /// write it as a few compares; the others ask
    /// [`check_lower_lengths`](Self::check_lower_lengths)). A test holds
    /// the two equal on every kind.
    ///
    /// ```
    /// use cktile_transforms::typed::{make_right_pad_transform, TypedTransform};
    /// let p = make_right_pad_transform(100usize, 28usize);
    /// assert!(p.accepts(&[100, 0, 0, 0, 0, 0, 0, 0]));
    /// assert!(!p.accepts(&[99, 0, 0, 0, 0, 0, 0, 0]));
    /// assert!(!make_right_pad_transform(100usize, usize::MAX).accepts(&[100, 0, 0, 0, 0, 0, 0, 0]));
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn accepts(self, lower_lengths: &Indices) -> bool {
        self.check_lower_lengths(lower_lengths).is_ok()
    }
    /// The lower index for the upper index `up` (its first `NumUpper`
    /// entries; the first `NumLower` entries of the result are meaningful),
    /// by the formulas of [`kinds`](crate::kinds), the same ones
    /// [`Transform::calculate_lower`] uses. Compile-time parameters fold
    /// into the arithmetic. Only for a transform whose
    /// [`to_transform`](Self::to_transform) succeeded.
    ///
    /// ```
    /// use cktile_transforms::typed::{make_xor_transform, TypedTransform};
    /// use cktile_transforms::Number;
    /// let x = make_xor_transform((64usize, Number::<8>));
    /// assert_eq!(x.lower(&[3, 1, 0, 0, 0, 0, 0, 0])[..2], [3, 1 ^ 3]);
    /// ```
    fn lower(&self, up: &Indices) -> Indices;
    /// Whether the upper index maps to a real (non-padded) lower index
    /// ([`Transform::is_valid_upper`]).
    ///
    /// ```
    /// use cktile_transforms::typed::{make_pad_transform, TypedTransform};
    /// use cktile_transforms::Number;
    /// let p = make_pad_transform(Number::<10>, Number::<2>, 3usize);
    /// assert!(!p.is_valid(&[1, 0, 0, 0, 0, 0, 0, 0]) && p.is_valid(&[2, 0, 0, 0, 0, 0, 0, 0]));
    /// ```
    fn is_valid(&self, up: &Indices) -> bool;
    /// The upper lengths, given the lengths of the lower dimensions it is
    /// applied to ([`Transform::upper_lengths`] after [`Transform::bind`]).
    ///
    /// ```
    /// use cktile_transforms::typed::{make_merge_transform, TypedTransform};
    /// use cktile_transforms::Number;
    /// let m = make_merge_transform((Number::<4>, 8usize));
    /// assert_eq!(m.upper_lengths(&[4, 8, 0, 0, 0, 0, 0, 0])[0], 32);
    /// ```
    fn upper_lengths(&self, lower_lengths: &Indices) -> Indices;
    /// How many of the transform's parameters are runtime values (the
    /// slots [`write_runtime`](Self::write_runtime) fills).
    ///
    /// ```
    /// use cktile_transforms::typed::{Pad, TypedTransform};
    /// use cktile_transforms::Number;
    /// assert_eq!(<Pad<usize, Number<2>, usize> as TypedTransform>::RUNTIME, 2);
    /// ```
    const RUNTIME: usize;
    /// Writes the runtime parameters, in order, to `out[at..at + RUNTIME]`
    /// ([`Value::write_runtime`](crate::Value::write_runtime)); compile-time ones write nothing.
    ///
    /// ```
    /// use cktile_transforms::typed::{make_pad_transform, TypedTransform};
    /// use cktile_transforms::Number;
    /// let mut out = [0u64; 2];
    /// make_pad_transform(10usize, Number::<2>, 3usize).write_runtime(&mut out, 0);
    /// assert_eq!(out, [10, 3]);
    /// ```
    fn write_runtime(&self, out: &mut [u64], at: usize);
    /// Reads back what [`write_runtime`](Self::write_runtime) wrote from
    /// `slots[at..]`.
    ///
    /// ```
    /// use cktile_transforms::typed::{make_pad_transform, Pad, TypedTransform};
    /// use cktile_transforms::Number;
    /// let p = <Pad<usize, Number<2>, usize> as TypedTransform>::read_runtime(&[10, 3], 0);
    /// assert_eq!(p, make_pad_transform(10usize, Number::<2>, 3usize));
    /// ```
    fn read_runtime(slots: &[u64], at: usize) -> Self;
}

/// A parameter as an index (validated to fit when the transform was built).
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) fn ix<V: Value>(v: V) -> Index {
    v.get() as Index
}

/// Whether a length parameter is one the runtime constructors take (1 to
/// `i64::MAX`) and is the lower length it binds to: one compare each, for
/// [`TypedTransform::accepts`].
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) fn length_is<V: Value>(len: V, lower: Index) -> bool {
    // A value past i64::MAX wraps to a negative index.
    let len = len.get() as Index;
    (len >= 1) & (len == lower)
}

/// Whether parameters and every partial sum of them fit an index (the
/// pads' checks: each parameter, then `len + left`, then `+ right`; with
/// no negative term, the whole sum fitting is the same verdict).
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) fn sum_fits(values: &[usize]) -> bool {
    let (mut sum, mut overflow) = (0u64, false);
    for &v in values {
        let (s, o) = sum.overflowing_add(v as u64);
        sum = s;
        overflow |= o;
    }
    !overflow & (sum <= Index::MAX as u64)
}

/// An index array holding `value` in slot 0.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) const fn one(value: Index) -> Indices {
    let mut out = [0; MAX_DIMS];
    out[0] = value;
    out
}

/// The number of entries of a [`Values`] tuple.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) fn len_of<Ls: Values>() -> usize {
    <Ls::Len as Unsigned>::USIZE
}

macro_rules! scalar_transform {
    (
        $(#[$doc:meta])*
        $name:ident, $make:ident, $ctor:ident, $low:ty, $up:ty; $($field:ident : $ty:ident),+;
        |$s:ident, $u:ident, $l:ident| lower = $lower:expr, valid = $valid:expr, lengths = $lengths:expr
        $(, accepts = $accepts:expr)?
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name<$($ty: Value),+> {
            $(
                #[doc = concat!("The `", stringify!($field), "` parameter.")]
                pub $field: $ty,
            )+
        }

        impl<$($ty: Value),+> TypedTransform for $name<$($ty),+> {
            type NumLower = $low;
            type NumUpper = $up;
            const KIND: Kind = Kind::$name;
            const STATIC: Option<Result<Transform, Error>> = match ($($ty::STATIC,)+) {
                ($(Some($field),)+) => Some(Transform::$ctor($($field),+)),
                #[allow(unreachable_patterns)]
                _ => None,
            };
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn to_transform(self) -> Result<Transform, Error> {
                Transform::$ctor($(self.$field.get()),+)
            }
            $(
                #[cfg_attr(always_inline, inline(always))]
                #[cfg_attr(not(always_inline), inline)]
                fn accepts(self, $l: &Indices) -> bool {
                    let $s = self;
                    $accepts
                }
            )?
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            #[allow(unused_variables)]
            fn lower(&self, $u: &Indices) -> Indices {
                let $s = *self;
                $lower
            }
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            #[allow(unused_variables)]
            fn is_valid(&self, $u: &Indices) -> bool {
                let $s = *self;
                $valid
            }
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            #[allow(unused_variables)]
            fn upper_lengths(&self, $l: &Indices) -> Indices {
                let $s = *self;
                $lengths
            }
            const RUNTIME: usize = 0 $(+ $ty::RUNTIME)+;
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn write_runtime(&self, out: &mut [u64], at: usize) {
                let mut at = at;
                $(
                    self.$field.write_runtime(out, at);
                    at += $ty::RUNTIME;
                )+
                let _ = at;
            }
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn read_runtime(slots: &[u64], at: usize) -> Self {
                let mut at = at;
                let out = $name { $($field: {
                    let value = $ty::read_runtime(slots, at);
                    at += $ty::RUNTIME;
                    value
                }),+ };
                let _ = at;
                out
            }
        }

        #[doc = concat!("CK Tile's `", stringify!($make), "`: builds a [`", stringify!($name), "`].")]
        ///
        /// ```
        /// use cktile_transforms::typed::*;
        /// use cktile_transforms::Number;
        #[doc = concat!("let t = ", stringify!($make), "(", scalar_transform!(@example $($field),+), ");")]
        /// assert!(t.to_transform().is_ok());
        /// ```
        pub const fn $make<$($ty: Value),+>($($field: $ty),+) -> $name<$($ty),+> {
            $name { $($field),+ }
        }
    };
    (@example len) => { "Number::<8>" };
    (@example len, left, right) => { "Number::<10>, Number::<2>, 3usize" };
    (@example len, left) => { "Number::<10>, Number::<2>" };
    (@example len, right) => { "Number::<10>, Number::<2>" };
    (@example len, begin, end) => { "Number::<10>, Number::<2>, Number::<5>" };
    (@example index) => { "Number::<3>" };
    (@example len, off) => { "Number::<16>, 4usize" };
    (@example modulus, len) => { "Number::<8>, Number::<32>" };
    (@example len, index) => { "Number::<16>, 5usize" };
}

macro_rules! list_transform {
    (
        $(#[$doc:meta])* $name:ident, $make:ident, $ctor:ident, $low:ty, $up:ty, $example:literal;
        |$t:ident, $u:ident, $l:ident| lower = $lower:expr, lengths = $lengths:expr
        $(, accepts = $accepts:expr)?
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name<Ls: Values> {
            /// The lengths.
            pub lengths: Ls,
        }

        impl<Ls: Values> TypedTransform for $name<Ls> {
            type NumLower = $low;
            type NumUpper = $up;
            const KIND: Kind = Kind::$name;
            const STATIC: Option<Result<Transform, Error>> = match Ls::STATIC {
                Some(Ok(d)) => Some(Transform::$ctor(d)),
                Some(Err(e)) => Some(Err(e)),
                None => None,
            };
            const VECTOR_RULE: VectorRule = match Self::STATIC {
                Some(Ok(t)) => t.vector_rule(),
                _ => VectorRule::of_kind(
                    Kind::$name,
                    <$low as Unsigned>::USIZE,
                    <$up as Unsigned>::USIZE,
                    Ls::LAST,
                ),
            };
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn to_transform(self) -> Result<Transform, Error> {
                match self.lengths.dims() {
                    Ok(d) => Transform::$ctor(d),
                    Err(e) => Err(e),
                }
            }
            $(
                #[cfg_attr(always_inline, inline(always))]
                #[cfg_attr(not(always_inline), inline)]
                fn accepts(self, $l: &Indices) -> bool {
                    let $t = self;
                    $accepts
                }
            )?
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            #[allow(unused_variables)]
            fn lower(&self, $u: &Indices) -> Indices {
                let $t = *self;
                $lower
            }
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn is_valid(&self, _: &Indices) -> bool {
                true
            }
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            #[allow(unused_variables)]
            fn upper_lengths(&self, $l: &Indices) -> Indices {
                let $t = *self;
                $lengths
            }
            const RUNTIME: usize = Ls::RUNTIME;
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn write_runtime(&self, out: &mut [u64], at: usize) {
                self.lengths.write_runtime(out, at);
            }
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn read_runtime(slots: &[u64], at: usize) -> Self {
                $name { lengths: Ls::read_runtime(slots, at) }
            }
        }

        #[doc = concat!("CK Tile's `", stringify!($make), "`: builds a [`", stringify!($name), "`].")]
        ///
        /// ```
        /// use cktile_transforms::typed::*;
        /// use cktile_transforms::Number;
        #[doc = concat!("let t = ", stringify!($make), "(", $example, ");")]
        /// assert!(t.to_transform().is_ok());
        /// ```
        pub const fn $make<Ls: Values>(lengths: Ls) -> $name<Ls> {
            $name { lengths }
        }
    };
}

/// A transform of two dimensions that keeps the first and replaces the
/// second with `lower1(up0, up1, L1)` (`xor`, `cyclic_shift`): its typed
/// form, with the lengths `(L0, L1)` it reads, and CK's `make_*` builder.
macro_rules! pair_transform {
    (
        $(#[$doc:meta])*
        $name:ident, $ctor:ident, $lower1:path;
        $(#[$make_doc:meta])*
        $make:ident;
        |$l0:ident, $l1:ident| accepts = $accepts:expr
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name<L0: Value, L1: Value> {
            /// `(L0, L1)`.
            pub lengths: (L0, L1),
        }

        impl<L0: Value, L1: Value> TypedTransform for $name<L0, L1> {
            type NumLower = U2;
            type NumUpper = U2;
            const KIND: Kind = Kind::$name;
            const STATIC: Option<Result<Transform, Error>> = match (L0::STATIC, L1::STATIC) {
                (Some(a), Some(b)) => Some(Transform::$ctor(a, b)),
                _ => None,
            };
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn to_transform(self) -> Result<Transform, Error> {
                Transform::$ctor(self.lengths.0.get(), self.lengths.1.get())
            }
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn accepts(self, lower_lengths: &Indices) -> bool {
                // Lengths of 1 to i64::MAX, each the lower length it reads, and the kind's own rule.
                let ($l0, $l1) = (self.lengths.0.get() as u64, self.lengths.1.get() as u64);
                length_is(self.lengths.0, lower_lengths[0]) & length_is(self.lengths.1, lower_lengths[1]) & $accepts
            }
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn lower(&self, up: &Indices) -> Indices {
                let mut low = one(up[0]);
                low[1] = $lower1(up[0], up[1], ix(self.lengths.1));
                low
            }
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn is_valid(&self, _: &Indices) -> bool {
                true
            }
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn upper_lengths(&self, _: &Indices) -> Indices {
                let mut out = one(ix(self.lengths.0));
                out[1] = ix(self.lengths.1);
                out
            }
            const RUNTIME: usize = <(L0, L1) as Values>::RUNTIME;
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn write_runtime(&self, out: &mut [u64], at: usize) {
                self.lengths.write_runtime(out, at);
            }
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn read_runtime(slots: &[u64], at: usize) -> Self {
                $name { lengths: <(L0, L1) as Values>::read_runtime(slots, at) }
            }
        }

        $(#[$make_doc])*
        pub const fn $make<L0: Value, L1: Value>(lengths: (L0, L1)) -> $name<L0, L1> {
            $name { lengths }
        }
    };
}

pub(crate) use {list_transform, pair_transform, scalar_transform};
