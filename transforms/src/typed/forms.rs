//! What the kinds' typed forms are written with (crate-private): the
//! three shapes most kinds take (`scalar_transform!`: named scalar
//! parameters; `list_transform!`: one list of lengths; `pair_transform!`: a
//! permutation of two dimensions), the helpers their formulas call, and
//! the names every typed form needs. A kind's module invokes one of them
//! in its `typed` submodule, or writes its typed form by hand (`embed`,
//! `swizzle`).

pub(crate) use super::TypedTransform;
pub(crate) use crate::{Error, Index, Indices, Kind, MAX_DIMS, Transform, Value, Values, VectorRule};
pub(crate) use typenum::{U0, U1, U2, Unsigned};

/// A parameter as an index (validated to fit when the transform was built).
#[inline(always)]
pub(crate) fn ix<V: Value>(v: V) -> Index {
    v.get() as Index
}

/// Whether a length parameter is one the runtime constructors take (1 to
/// `i64::MAX`) and is the lower length it binds to: one compare each, for
/// [`TypedTransform::accepts`].
#[inline(always)]
pub(crate) fn length_is<V: Value>(len: V, lower: Index) -> bool {
    // A value past i64::MAX wraps to a negative index.
    let len = len.get() as Index;
    (len >= 1) & (len == lower)
}

/// Whether parameters and every partial sum of them fit an index (the
/// pads' checks: each parameter, then `len + left`, then `+ right`; with
/// no negative term, the whole sum fitting is the same verdict).
#[inline(always)]
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
#[inline(always)]
pub(crate) const fn one(value: Index) -> Indices {
    let mut out = [0; MAX_DIMS];
    out[0] = value;
    out
}

/// The number of entries of a [`Values`] tuple.
#[inline(always)]
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
            #[inline(always)]
            fn to_transform(self) -> Result<Transform, Error> {
                Transform::$ctor($(self.$field.get()),+)
            }
            $(
                #[inline(always)]
                fn accepts(self, $l: &Indices) -> bool {
                    let $s = self;
                    $accepts
                }
            )?
            #[inline(always)]
            #[allow(unused_variables)]
            fn lower(&self, $u: &Indices) -> Indices {
                let $s = *self;
                $lower
            }
            #[inline(always)]
            #[allow(unused_variables)]
            fn is_valid(&self, $u: &Indices) -> bool {
                let $s = *self;
                $valid
            }
            #[inline(always)]
            #[allow(unused_variables)]
            fn upper_lengths(&self, $l: &Indices) -> Indices {
                let $s = *self;
                $lengths
            }
            const RUNTIME: usize = 0 $(+ $ty::RUNTIME)+;
            #[inline(always)]
            fn write_runtime(&self, out: &mut [u64], at: usize) {
                let mut at = at;
                $(
                    self.$field.write_runtime(out, at);
                    at += $ty::RUNTIME;
                )+
                let _ = at;
            }
            #[inline(always)]
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
            #[inline(always)]
            fn to_transform(self) -> Result<Transform, Error> {
                match self.lengths.dims() {
                    Ok(d) => Transform::$ctor(d),
                    Err(e) => Err(e),
                }
            }
            $(
                #[inline(always)]
                fn accepts(self, $l: &Indices) -> bool {
                    let $t = self;
                    $accepts
                }
            )?
            #[inline(always)]
            #[allow(unused_variables)]
            fn lower(&self, $u: &Indices) -> Indices {
                let $t = *self;
                $lower
            }
            #[inline(always)]
            fn is_valid(&self, _: &Indices) -> bool {
                true
            }
            #[inline(always)]
            #[allow(unused_variables)]
            fn upper_lengths(&self, $l: &Indices) -> Indices {
                let $t = *self;
                $lengths
            }
            const RUNTIME: usize = Ls::RUNTIME;
            #[inline(always)]
            fn write_runtime(&self, out: &mut [u64], at: usize) {
                self.lengths.write_runtime(out, at);
            }
            #[inline(always)]
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
            #[inline(always)]
            fn to_transform(self) -> Result<Transform, Error> {
                Transform::$ctor(self.lengths.0.get(), self.lengths.1.get())
            }
            #[inline(always)]
            fn accepts(self, lower_lengths: &Indices) -> bool {
                // Lengths of 1 to i64::MAX, each the lower length it reads, and the kind's own rule.
                let ($l0, $l1) = (self.lengths.0.get() as u64, self.lengths.1.get() as u64);
                length_is(self.lengths.0, lower_lengths[0]) & length_is(self.lengths.1, lower_lengths[1]) & $accepts
            }
            #[inline(always)]
            fn lower(&self, up: &Indices) -> Indices {
                let mut low = one(up[0]);
                low[1] = $lower1(up[0], up[1], ix(self.lengths.1));
                low
            }
            #[inline(always)]
            fn is_valid(&self, _: &Indices) -> bool {
                true
            }
            #[inline(always)]
            fn upper_lengths(&self, _: &Indices) -> Indices {
                let mut out = one(ix(self.lengths.0));
                out[1] = ix(self.lengths.1);
                out
            }
            const RUNTIME: usize = <(L0, L1) as Values>::RUNTIME;
            #[inline(always)]
            fn write_runtime(&self, out: &mut [u64], at: usize) {
                self.lengths.write_runtime(out, at);
            }
            #[inline(always)]
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
