//! The error type of the transforms crate.

use crate::Kind;
use core::fmt;

/// Why a transform's parameters are invalid.
///
/// Every variant names the offending value and what would be valid. The type
/// is `Copy` and built by `const fn`s, so the same checks reject a bad
/// transform at compile time (as a `const` evaluation error) and at run time
/// (as an `Err`).
///
/// ```
/// use cktile_transforms::{Error, Transform};
/// let err = Transform::xor(8, 6).unwrap_err();
/// assert_eq!(err, Error::XorNotPowerOfTwo { l1: 6 });
/// assert!(err.to_string().contains("power of two"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Error {
    /// A length parameter is zero.
    ZeroLength {
        /// The transform (or descriptor function) that got it.
        transform: &'static str,
        /// Which parameter.
        parameter: &'static str,
        /// Its position within a list parameter (`None` for a scalar).
        position: Option<usize>,
    },
    /// A list parameter has no entries.
    EmptyList {
        /// The transform that got it.
        transform: &'static str,
        /// Which parameter.
        parameter: &'static str,
    },
    /// A list parameter has more entries than [`MAX_DIMS`](crate::MAX_DIMS).
    TooManyDims {
        /// How many were given.
        given: usize,
        /// The most that are allowed.
        max: usize,
    },
    /// Two lists that must have the same number of entries do not.
    ListLengthMismatch {
        /// The transform that got them.
        transform: &'static str,
        /// The first list's length.
        first: usize,
        /// The second list's length.
        second: usize,
    },
    /// A value does not fit the signed 64-bit index type.
    ValueTooLarge {
        /// The value that was given.
        value: u64,
    },
    /// A parameter is negative (only a [`Dims`](crate::Dims) list or a
    /// signed index can hold one; `usize` parameters cannot).
    ///
    /// ```
    /// use cktile_transforms::{Dims, Error, Transform};
    /// let e = Transform::embed_dims(Dims::from_slice(&[4]).unwrap(), Dims::from_slice(&[-3]).unwrap()).unwrap_err();
    /// assert_eq!(e, Error::Negative { transform: "embed", parameter: "coefficients", position: Some(0), value: -3 });
    /// assert_eq!(e.to_string(), "embed: coefficients[0] is -3; it must be non-negative");
    /// ```
    Negative {
        /// The transform (or descriptor function) that got it.
        transform: &'static str,
        /// Which parameter.
        parameter: &'static str,
        /// Its position within a list parameter (`None` for a scalar).
        position: Option<usize>,
        /// The value that was given.
        value: i64,
    },
    /// A product or sum of parameters overflows the 64-bit index type.
    Overflow {
        /// The transform that overflowed.
        transform: &'static str,
        /// What was being computed.
        quantity: &'static str,
        /// Its value, computed in 128 bits (saturated at `i128::MAX` /
        /// `i128::MIN` when even that overflows).
        value: i128,
    },
    /// The xor transform's second length (the modulus) is not a power of two,
    /// so `up1 ^ (up0 % L1)` would leave `[0, L1)`.
    XorNotPowerOfTwo {
        /// The rejected `L1`.
        l1: i64,
    },
    /// `xor_no_modulo((L0, L1))` (CK's `ApplyModulo = false`) needs `L1` a
    /// multiple of the smallest power of two `>= L0`, or `up1 ^ up0` leaves
    /// `[0, L1)`.
    XorUnreduced {
        /// The rejected `L0`.
        l0: i64,
        /// The rejected `L1`.
        l1: i64,
    },
    /// A slice's range is not `begin < end <= len`.
    SliceRange {
        /// The sliced dimension's length.
        len: i64,
        /// First index kept.
        begin: i64,
        /// One past the last index kept.
        end: i64,
    },
    /// A swizzle's parameters break CuTe's rule `|S| >= B`, or its bit fields
    /// do not fit in 62 bits.
    SwizzleParameters {
        /// Number of bits in the mask (B).
        bits: u32,
        /// Number of least-significant bits kept constant (M).
        base: u32,
        /// Distance the mask is shifted (S).
        shift: i32,
    },
    /// A swizzle is applied to a dimension whose length is not a multiple of
    /// the block it permutes, so it would map indices outside the dimension.
    SwizzleLength {
        /// The dimension's length.
        len: i64,
        /// The block the swizzle permutes within.
        block: i64,
    },
    /// A `functor`'s bit targets are not a permutation of `0..bits`: the
    /// entry at `position` is out of range or repeats an earlier one.
    ///
    /// ```
    /// use cktile_transforms::{Error, Transform};
    /// let e = Transform::functor(64, &[0, 5], 0).unwrap_err();
    /// assert_eq!(e, Error::FunctorTarget { bits: 2, position: 1, value: 5 });
    /// assert_eq!(e.to_string(), "functor: bit targets[1] is 5; the 2 targets must be 0 to 1, each once (a permutation of the 2 low bits)");
    /// ```
    FunctorTarget {
        /// How many bits the list moves (its length).
        bits: u8,
        /// The entry's position.
        position: u8,
        /// Its value.
        value: i64,
    },
    /// A `functor`'s flip has a bit at or above the bits it permutes.
    FunctorFlip {
        /// How many bits the map moves.
        bits: u8,
        /// The flip given.
        flip: i64,
    },
    /// A `functor`'s map sends an index of `[0, len)` past `len` (only the
    /// last, partial block of `2^bits` can).
    FunctorLength {
        /// The length.
        len: i64,
        /// The map.
        map: crate::arith::bits::BitPermute,
    },
    /// A call ([`Transform::from_args`](crate::Transform::from_args)) gives
    /// the wrong number of arguments.
    ArgumentCount {
        /// The transform called.
        kind: Kind,
        /// How many arguments it gave.
        found: usize,
    },
    /// An argument of a call does not have its parameter's shape (an
    /// integer in range, a list, a pair), or is missing.
    ///
    /// ```
    /// use cktile_transforms::{Arg, Kind, Transform};
    /// let e = Transform::from_args(Kind::Xor, &[Arg::Int(8)]).unwrap_err();
    /// assert_eq!(e.to_string(), "xor's argument 1, (L0, L1), is 8; expected a pair of lengths");
    /// ```
    Argument {
        /// The transform called.
        kind: Kind,
        /// The argument's position (0 for the first).
        position: usize,
        /// What was given there.
        found: Found,
    },
    /// A transform is applied to the wrong number of lower dimensions.
    LowerCount {
        /// The transform.
        transform: &'static str,
        /// How many lower dimensions it takes.
        expected: usize,
        /// How many it was given.
        found: usize,
    },
    /// A transform's lower length does not equal the length of the dimension
    /// it is applied to.
    LowerLengthMismatch {
        /// The transform.
        transform: &'static str,
        /// Which of its lower dimensions.
        dim: usize,
        /// The length the transform implies.
        expected: i64,
        /// The length of the dimension it is applied to.
        found: i64,
    },
    /// A transform would read past the end of the dimension it is applied to.
    LowerOutOfRange {
        /// The transform.
        transform: &'static str,
        /// The largest lower index it produces.
        largest: i64,
        /// The length of the dimension it is applied to.
        length: i64,
    },
}

impl Error {
    /// A fixed sentence for the error, usable in `const` panics (which cannot
    /// format numbers); [`Display`](fmt::Display) adds the values.
    ///
    /// ```
    /// use cktile_transforms::Transform;
    /// let e = Transform::merge(&[4, 0]).unwrap_err();
    /// assert_eq!(e.summary(), "cktile: a transform length is zero; every length must be at least 1");
    /// ```
    pub const fn summary(&self) -> &'static str {
        match self {
            Error::ZeroLength { .. } => "cktile: a transform length is zero; every length must be at least 1",
            Error::EmptyList { .. } => "cktile: a transform got an empty list; it needs at least one length",
            Error::TooManyDims { .. } => "cktile: a list has more than MAX_DIMS (8) entries",
            Error::ListLengthMismatch { .. } => {
                "cktile: embed lengths and coefficients must have the same number of entries"
            }
            Error::ValueTooLarge { .. } => "cktile: a parameter does not fit the signed 64-bit index type",
            Error::Negative { .. } => "cktile: a parameter is negative; it must be non-negative",
            Error::Overflow { .. } => "cktile: the transform's lengths overflow the signed 64-bit index type",
            Error::XorNotPowerOfTwo { .. } => {
                "cktile: xor((L0, L1)) needs L1 to be a power of two, or up1 ^ (up0 % L1) leaves [0, L1)"
            }
            Error::XorUnreduced { .. } => {
                "cktile: xor_no_modulo((L0, L1)) needs L1 a multiple of the smallest power of two >= L0, or up1 ^ up0 leaves [0, L1)"
            }
            Error::SliceRange { .. } => "cktile: slice(len, begin, end) needs begin < end <= len",
            Error::SwizzleParameters { .. } => {
                "cktile: swizzle(B, M, S) needs |S| >= B and all bit fields below bit 62"
            }
            Error::SwizzleLength { .. } => {
                "cktile: a swizzle's dimension length must be a multiple of the block it permutes"
            }
            Error::FunctorTarget { .. } => {
                "cktile: functor's bit targets must be a permutation of 0..n (each low bit's new position, once each)"
            }
            Error::FunctorFlip { .. } => "cktile: functor's flip must be below 2^n, n the number of bits it permutes",
            Error::FunctorLength { .. } => {
                "cktile: functor's map sends an index past the length; the length's last partial block must map into itself"
            }
            Error::ArgumentCount { .. } => "cktile: a transform call gives the wrong number of arguments",
            Error::Argument { .. } => "cktile: a transform argument has the wrong form or is out of range",
            Error::LowerCount { .. } => "cktile: a transform is applied to the wrong number of dimensions",
            Error::LowerLengthMismatch { .. } => {
                "cktile: a transform's lengths do not match the lengths of the dimensions it is applied to"
            }
            Error::LowerOutOfRange { .. } => "cktile: a transform reads past the end of the dimension it is applied to",
        }
    }
}

// The transforms the messages below name, from `Kind::name` at compile time
// (as the constructors' `NAME`s in the kinds' modules).
const XOR: &str = Kind::Xor.name();
const XOR_NO_MODULO: &str = Kind::XorNoModulo.name();
const SLICE: &str = Kind::Slice.name();
const SWIZZLE: &str = Kind::Swizzle.name();
const FUNCTOR: &str = Kind::Functor.name();

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Error::ZeroLength { transform, parameter, position: Some(position) } => {
                write!(f, "{transform}: {parameter}[{position}] is 0; every length must be at least 1")
            }
            Error::ZeroLength { transform, parameter, position: None } => {
                write!(f, "{transform}: {parameter} is 0; it must be at least 1")
            }
            Error::EmptyList { transform, parameter } => {
                write!(f, "{transform}: {parameter} is empty; give at least one length")
            }
            Error::TooManyDims { given, max } => {
                write!(f, "a list has {given} entries; at most {max} are supported")
            }
            Error::ListLengthMismatch { transform, first, second } => {
                write!(f, "{transform}: {first} lengths but {second} coefficients; give one coefficient per length")
            }
            Error::ValueTooLarge { value } => {
                write!(f, "value {value} does not fit a signed 64-bit index; the largest is {}", i64::MAX)
            }
            Error::Negative { transform, parameter, position: Some(position), value } => {
                write!(f, "{transform}: {parameter}[{position}] is {value}; it must be non-negative")
            }
            Error::Negative { transform, parameter, position: None, value } => {
                write!(f, "{transform}: {parameter} is {value}; it must be non-negative")
            }
            Error::Overflow { transform, quantity, value } => {
                write!(
                    f,
                    "{transform}: the {quantity} is {}, past the largest signed 64-bit index {}; use smaller lengths",
                    Wide(value),
                    i64::MAX
                )
            }
            Error::XorNotPowerOfTwo { l1 } => write!(
                f,
                "{XOR}: L1 = {l1} is not a power of two; up1 ^ (up0 % L1) stays in [0, L1) only for L1 = 1, 2, 4, 8, ..."
            ),
            Error::XorUnreduced { l0, l1 } => write!(
                f,
                "{XOR_NO_MODULO}: (L0, L1) = ({l0}, {l1}); up1 ^ up0 stays in [0, L1) only when L1 is a multiple of {}, the smallest power of two >= L0 (for a power-of-two L1: L0 <= L1); xor((L0, L1)) takes up0 % L1 instead",
                crate::arith::pow2_at_least(l0)
            ),
            Error::SliceRange { len, begin, end } => {
                write!(f, "{SLICE}: begin {begin}, end {end} on length {len}; need begin < end <= len")
            }
            Error::SwizzleParameters { bits, base, shift } => write!(
                f,
                "{SWIZZLE}({bits}, {base}, {shift}): need |S| >= B (|{shift}| >= {bits}) and base + |shift| + bits <= 62"
            ),
            Error::SwizzleLength { len, block } => write!(
                f,
                "{SWIZZLE} on a dimension of length {len}: the length must be a multiple of {block}, the block the swizzle permutes"
            ),
            Error::FunctorTarget { bits, position, value } => write!(
                f,
                "{FUNCTOR}: bit targets[{position}] is {value}; the {bits} targets must be 0 to {}, each once (a permutation of the {bits} low bits)",
                bits.saturating_sub(1)
            ),
            Error::FunctorFlip { bits, flip } => write!(
                f,
                "{FUNCTOR}: flip {flip} is not in [0, {}]: it may flip only the {bits} bits the map permutes",
                (1i64 << (bits % 64)) - 1
            ),
            Error::FunctorLength { len, map } => {
                write!(f, "{FUNCTOR}({len},{map}): ")?;
                if let Some((up, low)) = map.escape(len) {
                    write!(f, "index {up} maps to {low}, outside [0, {len}); ")?;
                }
                let block = map.block();
                write!(
                    f,
                    "the map keeps each block of {block} indices, so the length must be a multiple of {block} or end a block the map keeps to itself: "
                )?;
                match map.nearest_kept(len) {
                    (Some(b), Some(a)) => write!(f, "the nearest such lengths are {b} and {a}"),
                    (None, Some(a)) => write!(f, "the smallest such length is {a}"),
                    (Some(b), None) => write!(f, "the largest such length is {b}"),
                    (None, None) => write!(f, "no length is"),
                }
            }
            Error::ArgumentCount { kind, found } => {
                let signature = kind.signature();
                let (name, count) = (signature.name, signature.count_text());
                write!(f, "{name} takes {count}: {signature}, but {found} argument(s) were given")
            }
            Error::Argument { kind, position, found } => {
                let signature = kind.signature();
                let (name, number) = (signature.name, position.saturating_add(1));
                match (signature.param(position), found) {
                    (Some(p), Found::Missing) => write!(f, "{name}'s argument {number}, {p}, is missing"),
                    (Some(p), found) => {
                        write!(f, "{name}'s argument {number}, {p}, is {found}; expected {}", p.expects())
                    }
                    (None, _) => write!(f, "{name} takes no argument {number}; it takes {signature}"),
                }
            }
            Error::LowerCount { transform, expected, found } => {
                write!(f, "{transform} takes {expected} lower dimension(s) but is applied to {found}")
            }
            Error::LowerLengthMismatch { transform, dim, expected, found } => write!(
                f,
                "{transform}: lower dimension {dim} should have length {expected} but the dimension it is applied to has length {found}"
            ),
            Error::LowerOutOfRange { transform, largest, length } => write!(
                f,
                "{transform}: produces lower index {largest} but the dimension it is applied to has length {length}"
            ),
        }
    }
}

impl core::error::Error for Error {}

/// A value computed in 128 bits for an overflow message; it prints "at least"
/// (or "at most") when even 128 bits saturated.
///
/// ```
/// use cktile_transforms::Wide;
/// assert_eq!(Wide(1 << 64).to_string(), "18446744073709551616");
/// assert!(Wide(i128::MAX).to_string().starts_with("at least "));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wide(pub i128);

impl fmt::Display for Wide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            i128::MAX => write!(f, "at least {}", self.0),
            i128::MIN => write!(f, "at most {}", self.0),
            v => write!(f, "{v}"),
        }
    }
}

/// What a call gave for an argument, as an error names it: the value of
/// an integer, the size of a list.
///
/// ```
/// use cktile_transforms::{Arg, Dims, Found};
/// assert_eq!(Found::of(Some(&Arg::Int(-3))).to_string(), "-3");
/// assert_eq!(Found::of(Some(&Arg::List(Dims::from_slice(&[4, 8, 2])?))).to_string(), "a list of 3 values");
/// assert_eq!(Found::of(None), Found::Missing);
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Found {
    /// Nothing.
    Missing,
    /// An integer.
    Int(i64),
    /// A list of this many values.
    List(usize),
}

/// `-3`, `a list of 3 values`, `nothing`.
impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Found::Missing => f.write_str("nothing"),
            Found::Int(v) => write!(f, "{v}"),
            Found::List(1) => f.write_str("a list of 1 value"),
            Found::List(n) => write!(f, "a list of {n} values"),
        }
    }
}
