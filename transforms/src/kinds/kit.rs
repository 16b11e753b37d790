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
#[inline(always)]
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
#[inline(always)]
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
#[inline(always)]
pub(crate) const fn at(upper: &Indices, ids: &[u8; MAX_DIMS], j: usize) -> Index {
    upper[ids[j % MAX_DIMS] as usize & (MAX_DIMS - 1)]
}

/// Writes lower value `j` of a transform that writes `lower` at `low_ids`.
#[inline(always)]
pub(crate) const fn put(lower: &mut Indices, ids: &[u8; MAX_DIMS], j: usize, value: Index) {
    lower[ids[j % MAX_DIMS] as usize & (MAX_DIMS - 1)] = value;
}

// The `at`/`put` masks need a power of two.
const _: () = assert!(MAX_DIMS.is_power_of_two());
