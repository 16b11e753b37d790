//! The formulas of each transform, one module per transform.
//!
//! Every function here is a `const fn` over plain integers, called by
//! [`Transform`](crate::Transform)'s methods. They are the single definition of
//! the semantics: compile-time evaluation, runtime evaluation, the static
//! typed forms and the runtime descriptors all go through them.
//!
//! Conventions (CK Tile's): merge and unmerge are row-major (the last
//! dimension is fastest); division truncates toward zero, as C's `/`.
//! Arithmetic wraps instead of panicking: for coordinates inside the lengths a
//! descriptor was validated with, no intermediate value can overflow, and for
//! coordinates outside them the result is unspecified but never a panic.
//! A dimension count past [`MAX_DIMS`](crate::MAX_DIMS) reads the whole
//! arrays (see `arity`), so these public helpers are total.

pub mod embed;
pub mod freeze;
pub mod merge;
pub mod modulo;
pub mod offset;
pub mod pad;
pub mod pass_through;
pub mod replicate;
pub mod slice;
pub mod swizzle;
pub mod unmerge;
pub mod xor;

/// The dimensions a formula reads: `n`, or [`MAX_DIMS`](crate::MAX_DIMS) when
/// `n` is larger (the index arrays hold no more). Every function here that
/// takes a dimension count is total: a count past the arrays reads all of
/// them rather than indexing out of bounds.
#[inline(always)]
pub(crate) const fn arity(n: usize) -> usize {
    if n > crate::MAX_DIMS { crate::MAX_DIMS } else { n }
}

/// Truncating division that returns 0 instead of panicking on a zero divisor
/// (validated transforms never have one).
#[inline(always)]
pub(crate) const fn div(a: i64, b: i64) -> i64 {
    match a.checked_div(b) {
        Some(q) => q,
        None => 0,
    }
}

/// Truncating remainder, 0 instead of panicking on a zero divisor.
#[inline(always)]
pub(crate) const fn rem(a: i64, b: i64) -> i64 {
    match a.checked_rem(b) {
        Some(r) => r,
        None => 0,
    }
}

/// Greatest common divisor of two positive values.
pub(crate) const fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a as i64
}
