//! What the kinds' structs are written with: the constructors' checks
//! (each names the transform and the parameter it refuses), the binding
//! checks, and small index-array builders. Crate-private.

use crate::dims::to_index;
use crate::{Dims, Error, Index, Indices, MAX_DIMS};

/// A length parameter: at least 1, and fitting an index.
#[inline]
pub(crate) const fn length(value: usize, transform: &'static str, parameter: &'static str) -> Result<Index, Error> {
    if value == 0 {
        return Err(Error::ZeroLength { transform, parameter, position: None });
    }
    to_index(value)
}

/// A list of lengths: not empty, no entry below 1, and a product that
/// fits an index.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) const fn lengths(dims: Dims, transform: &'static str, parameter: &'static str) -> Result<Dims, Error> {
    crate::tri!(non_negative(&dims, transform, parameter));
    if dims.is_empty() {
        return Err(Error::EmptyList { transform, parameter });
    }
    if let Some(position) = dims.first_zero() {
        return Err(Error::ZeroLength { transform, parameter, position: Some(position) });
    }
    if dims.product().is_none() {
        return Err(Error::Overflow { transform, quantity: "product of the lengths", value: dims.wide_product() });
    }
    Ok(dims)
}

/// `a + b`, or the overflow of the upper length.
#[inline]
pub(crate) const fn checked_sum(a: Index, b: Index, transform: &'static str) -> Result<Index, Error> {
    match a.checked_add(b) {
        Some(s) => Ok(s),
        None => Err(Error::Overflow { transform, quantity: "upper length", value: a as i128 + b as i128 }),
    }
}

/// Rejects negative entries (lengths, coefficients), naming the first.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) const fn non_negative(dims: &Dims, transform: &'static str, parameter: &'static str) -> Result<(), Error> {
    match dims.first_negative() {
        Some(position) => {
            Err(Error::Negative { transform, parameter, position: Some(position), value: dims.get(position) })
        }
        None => Ok(()),
    }
}

/// A lower dimension's length must be `expected`.
#[inline]
pub(crate) const fn expect_len(
    transform: &'static str,
    dim: usize,
    expected: Index,
    found: Index,
) -> Result<(), Error> {
    if expected == found { Ok(()) } else { Err(Error::LowerLengthMismatch { transform, dim, expected, found }) }
}

/// The largest lower index a transform reaches must lie inside the lower
/// dimension.
#[inline]
pub(crate) const fn fits(transform: &'static str, largest: Index, length: Index) -> Result<(), Error> {
    if largest < length { Ok(()) } else { Err(Error::LowerOutOfRange { transform, largest, length }) }
}

/// The list `(value)`.
#[inline]
pub(crate) const fn single(value: Index) -> Dims {
    Dims::splat(1, value)
}

/// The list `(a, b)`.
#[inline]
pub(crate) const fn two(a: Index, b: Index) -> Dims {
    // Two entries always fit (MAX_DIMS is 8): the error arm is never taken.
    match single(a).push(b) {
        Ok(d) => d,
        Err(_) => single(a),
    }
}

/// An index array holding `value` in slot 0.
#[inline]
pub(crate) const fn one(value: Index) -> Indices {
    let mut out = [0; MAX_DIMS];
    out[0] = value;
    out
}

/// Upper value `j` of a transform that reads `upper` at `up_ids`
/// (ids taken modulo [`MAX_DIMS`]).
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) const fn at<const N: usize>(upper: &[Index; N], ids: &[u8; MAX_DIMS], j: usize) -> Index {
    upper[ids[j % MAX_DIMS] as usize & (N - 1)]
}

/// Writes lower value `j` of a transform that writes `lower` at `low_ids`.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) const fn put<const N: usize>(lower: &mut [Index; N], ids: &[u8; MAX_DIMS], j: usize, value: Index) {
    lower[ids[j % MAX_DIMS] as usize & (N - 1)] = value;
}

// The `at`/`put` masks need a power of two.
const _: () = assert!(MAX_DIMS.is_power_of_two());

/// The behaviour of a permutation of two dimensions `(L0, L1)` in which
/// dimension 0 passes through and dimension 1 is `lower1(up0, up1, L1)`,
/// with the inverse `upper1(low0, low1, L1)` (`xor`, `cyclic_shift`):
/// everything but the formulas, the lowerings and the constructor, which
/// the kind's module writes.
macro_rules! pair_kind {
    (
        $params:ident, $kind:ident, $name:literal, $ctor:ident,
        lower1 = $lower1:path, upper1 = $upper1:path, upper_lowering = $upper_lowering:path,
        xor_linear = $xor_linear:expr, draws_over = $fits:expr
    ) => {
        impl $params {
            pub(crate) const ROW: $crate::kinds::row::Row = $crate::kinds::row::Row {
                family: $crate::Family::Permutation,
                signature: $crate::kinds::row::sig($name, const { &[$crate::kinds::row::PAIR] }),
                build: |a| {
                    let (l0, l1) = a.pair(0)?;
                    $crate::Transform::$ctor(l0, l1)
                },
            };
            pub(crate) const fn args(&self) -> $crate::Args {
                use $crate::kinds::kit::two;
                $crate::Args::new([$crate::Arg::List(two(self.l0, self.l1)), $crate::Args::Z, $crate::Args::Z], 1)
            }
            pub(crate) const fn num_lower(&self) -> usize {
                2
            }
            pub(crate) const fn num_upper(&self) -> usize {
                2
            }
            pub(crate) const fn upper_lengths(&self) -> $crate::Dims {
                $crate::kinds::kit::two(self.l0, self.l1)
            }
            pub(crate) const fn bind(&self, lower: &$crate::Dims) -> Result<$crate::Transform, $crate::Error> {
                use $crate::kinds::kit::expect_len;
                let name = Self::ROW.signature.name;
                $crate::tri!(expect_len(name, 0, self.l0, lower.get(0)));
                $crate::tri!(expect_len(name, 1, self.l1, lower.get(1)));
                Ok($crate::Transform::wrap($crate::Params::$kind(*self)))
            }
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            pub(crate) const fn lower_at<const U: usize, const L: usize>(
                &self,
                up: &[$crate::Index; U],
                up_ids: &[u8; $crate::MAX_DIMS],
                low: &mut [$crate::Index; L],
                low_ids: &[u8; $crate::MAX_DIMS],
            ) {
                use $crate::kinds::kit::{at, put};
                let (u0, u1) = (at(up, up_ids, 0), at(up, up_ids, 1));
                put(low, low_ids, 0, u0);
                put(low, low_ids, 1, $lower1(u0, u1, self.l1));
            }
            /// Not linear: a move recomputes.
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            pub(crate) const fn step_at<const U: usize, const L: usize>(
                &self,
                _: &[$crate::Index; U],
                _: &[u8; $crate::MAX_DIMS],
                _: &mut [$crate::Index; L],
                _: &[u8; $crate::MAX_DIMS],
            ) {
            }
            /// Whether every transform of the kind is linear ([`Kind::is_linear`](crate::Kind::is_linear)).
            pub(crate) const LINEAR: bool = false;
            pub(crate) const fn is_linear(&self) -> bool {
                Self::LINEAR
            }
            pub(crate) const fn is_xor_linear(&self) -> bool {
                $xor_linear
            }
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            pub(crate) const fn is_valid(&self, _up0: $crate::Index) -> bool {
                true
            }
            pub(crate) const fn calculate_upper(&self, low: &$crate::Indices) -> Option<$crate::Indices> {
                let mut up = [0; $crate::MAX_DIMS];
                up[0] = low[0];
                up[1] = $upper1(low[0], low[1], self.l1);
                Some(up)
            }
            pub(crate) const fn lowering(&self) -> $crate::lowering::Lowering {
                lowering(self.l1)
            }
            pub(crate) const fn upper_lowering(&self) -> Option<$crate::lowering::Lowering> {
                Some($upper_lowering(self.l1))
            }
            /// Vector lengths and strides pass through per dimension.
            pub(crate) const fn vector(_num_lower: usize, _num_upper: usize, _with: Option<i64>) -> $crate::VectorRule {
                $crate::VectorRule::Pass { dims: 2 }
            }
            pub(crate) const fn vector_with(&self) -> Option<i64> {
                None
            }
            /// The offered dimension as dimension 0, over another free
            /// dimension whose length the kind takes with that dimension 0;
            /// nothing when none is free.
            pub(crate) fn draw(d: &mut dyn $crate::kinds::Draw) -> Option<$crate::Transform> {
                let fits: fn(usize, $crate::Index) -> bool = $fits;
                let l0 = d.offered();
                let l1 = d.take(&|l| fits(l0, l))?;
                $crate::Transform::$ctor(l0, usize::try_from(l1).ok()?).ok()
            }
        }
    };
}
pub(crate) use pair_kind;

/// The common answers a kind's struct takes instead of writing them (as
/// CK Tile's transforms inherit `base_transform`'s):
/// `kind_defaults!(Freeze: one_lower, always_valid, no_vector, no_inverse, constant)`.
/// - `one_lower`, `one_upper`: one lower (upper) dimension;
/// - `always_valid`: every upper index is valid (no padding);
/// - `no_vector`: no vector information upward (CK's default, `-1`);
/// - `vector_without_length`: a vector rule that needs no length of the
///   kind's (`vector_with` is `None`);
/// - `no_inverse`: neither an inverse nor its lowering;
/// - `recomputed`: not linear, so a move recomputes (no step);
/// - `shifted`: linear, a move's lower step is its upper step (the kind
///   adds a constant: `pass_through`, the pads, `slice`, `offset`);
/// - `constant`: linear, a move's lower step is 0 (the lower index is a
///   constant: `freeze`, `indexing`).
macro_rules! kind_defaults {
    ($kind:ident: $($default:ident),+ $(,)?) => {
        $($crate::kinds::kit::kind_defaults!(@$default $kind);)+
    };
    (@one_lower $kind:ident) => {
        impl $kind {
            pub(crate) const fn num_lower(&self) -> usize {
                1
            }
        }
    };
    (@one_upper $kind:ident) => {
        impl $kind {
            pub(crate) const fn num_upper(&self) -> usize {
                1
            }
        }
    };
    (@always_valid $kind:ident) => {
        impl $kind {
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            pub(crate) const fn is_valid(&self, _up0: $crate::Index) -> bool {
                true
            }
        }
    };
    (@no_vector $kind:ident) => {
        impl $kind {
            pub(crate) const fn vector(_num_lower: usize, _num_upper: usize, _with: Option<i64>) -> $crate::VectorRule {
                $crate::VectorRule::Nothing
            }
        }
        $crate::kinds::kit::kind_defaults!(@vector_without_length $kind);
    };
    (@vector_without_length $kind:ident) => {
        impl $kind {
            pub(crate) const fn vector_with(&self) -> Option<i64> {
                None
            }
        }
    };
    (@no_inverse $kind:ident) => {
        impl $kind {
            pub(crate) const fn calculate_upper(&self, _low: &$crate::Indices) -> Option<$crate::Indices> {
                None
            }
            pub(crate) const fn upper_lowering(&self) -> Option<$crate::lowering::Lowering> {
                None
            }
        }
    };
    (@shifted $kind:ident) => {
        impl $kind {
            /// Whether every transform of the kind is linear ([`Kind::is_linear`](crate::Kind::is_linear)).
            pub(crate) const LINEAR: bool = true;
            pub(crate) const fn is_linear(&self) -> bool {
                Self::LINEAR
            }
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            pub(crate) const fn step_at<const U: usize, const L: usize>(
                &self,
                d_up: &[$crate::Index; U],
                up_ids: &[u8; $crate::MAX_DIMS],
                d_low: &mut [$crate::Index; L],
                low_ids: &[u8; $crate::MAX_DIMS],
            ) {
                use $crate::kinds::kit::{at, put};
                put(d_low, low_ids, 0, at(d_up, up_ids, 0));
            }
        }
    };
    (@constant $kind:ident) => {
        impl $kind {
            /// Whether every transform of the kind is linear ([`Kind::is_linear`](crate::Kind::is_linear)).
            pub(crate) const LINEAR: bool = true;
            pub(crate) const fn is_linear(&self) -> bool {
                Self::LINEAR
            }
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            pub(crate) const fn step_at<const U: usize, const L: usize>(
                &self,
                _: &[$crate::Index; U],
                _: &[u8; $crate::MAX_DIMS],
                d_low: &mut [$crate::Index; L],
                low_ids: &[u8; $crate::MAX_DIMS],
            ) {
                $crate::kinds::kit::put(d_low, low_ids, 0, 0);
            }
        }
    };
    (@recomputed $kind:ident) => {
        impl $kind {
            /// Whether every transform of the kind is linear ([`Kind::is_linear`](crate::Kind::is_linear)).
            pub(crate) const LINEAR: bool = false;
            pub(crate) const fn is_linear(&self) -> bool {
                Self::LINEAR
            }
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            pub(crate) const fn step_at<const U: usize, const L: usize>(
                &self,
                _: &[$crate::Index; U],
                _: &[u8; $crate::MAX_DIMS],
                _: &mut [$crate::Index; L],
                _: &[u8; $crate::MAX_DIMS],
            ) {
            }
        }
    };
}
pub(crate) use kind_defaults;
