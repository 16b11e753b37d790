//! [`Transform`]: one coordinate transform as plain data, with every
//! operation a descriptor needs as a `const fn`.

use crate::dims::to_index;
use crate::kinds::{
    cyclic_shift, embed, freeze, merge, modulo, offset, pad, pass_through, replicate, slice, swizzle, unmerge, xor,
};
use crate::lowering::Lowering;
use crate::signature::Signature;
use crate::{Dims, Error, Index, Indices, MAX_DIMS, Vector, VectorRule};
use core::fmt;

// The read-only parameter view lives in its own file; as a child module it
// reads the private representation.
#[path = "params.rs"]
mod params;
pub use params::Params;

/// Which transform a [`Transform`] is.
///
/// ```
/// use cktile_transforms::{Kind, Transform};
/// assert_eq!(Transform::merge(&[4, 8]).unwrap().kind(), Kind::Merge);
/// assert_eq!(Kind::Merge.name(), "merge");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `pass_through(len)`
    PassThrough,
    /// `pad(len, left, right)`
    Pad,
    /// `left_pad(len, left)`
    LeftPad,
    /// `right_pad(len, right)`
    RightPad,
    /// `embed(lengths, coefficients)`
    Embed,
    /// `merge(lower_lengths)`
    Merge,
    /// `unmerge(upper_lengths)`
    Unmerge,
    /// `xor((L0, L1))`
    Xor,
    /// `slice(len, begin, end)`
    Slice,
    /// `freeze(index)`
    Freeze,
    /// `insert(len)`
    Insert,
    /// `replicate(lengths)`
    Replicate,
    /// `offset(len, off)`
    Offset,
    /// `modulo(modulus, len)`
    Modulo,
    /// `swizzle(B, M, S)`
    Swizzle,
    /// `cyclic_shift((L0, L1))`
    CyclicShift,
}

impl Kind {
    /// Every kind, in the order the spec grammar lists them.
    ///
    /// ```
    /// use cktile_transforms::Kind;
    /// assert!(Kind::ALL.iter().all(|k| Kind::from_name(k.name()) == Some(*k)));
    /// ```
    pub const ALL: [Kind; 16] = [
        Kind::PassThrough,
        Kind::Pad,
        Kind::LeftPad,
        Kind::RightPad,
        Kind::Embed,
        Kind::Merge,
        Kind::Unmerge,
        Kind::Xor,
        Kind::Slice,
        Kind::Freeze,
        Kind::Insert,
        Kind::Replicate,
        Kind::Offset,
        Kind::Modulo,
        Kind::Swizzle,
        Kind::CyclicShift,
    ];

    /// The name used in specs and CK Tile's `make_<name>_transform`.
    ///
    /// ```
    /// assert_eq!(cktile_transforms::Kind::PassThrough.name(), "pass_through");
    /// ```
    #[inline]
    pub const fn name(self) -> &'static str {
        table::row(self).signature.name
    }

    /// The kind's spec signature: its name and its arguments, from the
    /// table of kinds that the parser, `Display` and
    /// [`Transform::from_args`] read.
    ///
    /// ```
    /// use cktile_transforms::Kind;
    /// assert_eq!(Kind::Embed.signature().to_string(), "embed((lengths), (coefficients))");
    /// assert_eq!(Kind::Xor.signature().to_string(), "xor((L0, L1))");
    /// ```
    pub const fn signature(self) -> Signature {
        table::row(self).signature
    }

    /// What the kind does, for grouping (the pictures' colours): from the
    /// table of kinds.
    ///
    /// ```
    /// use cktile_transforms::{Family, Kind};
    /// assert_eq!(Kind::CyclicShift.family(), Family::Permutation);
    /// assert_eq!(Kind::LeftPad.family(), Family::Pad);
    /// ```
    pub const fn family(self) -> Family {
        table::row(self).family
    }

    /// The kind with this spec name.
    ///
    /// ```
    /// use cktile_transforms::Kind;
    /// assert_eq!(Kind::from_name("xor"), Some(Kind::Xor));
    /// assert_eq!(Kind::from_name("mergee"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// What a transform kind does to indices, as its row in the table of kinds
/// says ([`Kind::family`]).
///
/// ```
/// use cktile_transforms::{Family, Kind};
/// let permutations: Vec<_> = Kind::ALL.into_iter().filter(|k| k.family() == Family::Permutation).collect();
/// assert_eq!(permutations, [Kind::Xor, Kind::Swizzle, Kind::CyclicShift]);
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
    /// `swizzle`, `cyclic_shift`).
    Permutation,
    /// Moving, fixing, adding or folding indices (`slice`, `freeze`,
    /// `insert`, `replicate`, `offset`, `modulo`).
    Index,
}

/// The transform's data is its public parameter list ([`Params`]); the field
/// of [`Transform`] stays private, so only the validating constructors make one.
use params::Params as Repr;

/// One coordinate transform: CK Tile's transform objects as plain data.
///
/// Built only through the validating constructors, so every `Transform` has
/// non-zero lengths, a power-of-two xor modulus, a consistent slice and
/// parameters whose products fit 64 bits. All methods are `const fn`.
///
/// ```
/// use cktile_transforms::{Transform, MAX_DIMS};
/// // The GEMM LDS xor: low1 = up1 ^ (up0 % 8).
/// let x = Transform::xor(128, 8).unwrap();
/// let mut up = [0; MAX_DIMS];
/// up[0] = 3; // row
/// up[1] = 1; // 8-element chunk
/// assert_eq!(&x.calculate_lower(&up)[..2], &[3, 1 ^ 3]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Transform {
    repr: Repr,
}

// The constructors name themselves in errors through
// `const NAME: &str = Kind::X.name()`: a compile-time constant, so their code
// is a string literal's (handing the checks a `Kind` to name at run time
// grew the amdgcn kernels that build descriptors at run time).

#[inline]
const fn length(value: usize, transform: &'static str, parameter: &'static str) -> Result<Index, Error> {
    if value == 0 {
        return Err(Error::ZeroLength { transform, parameter, position: None });
    }
    to_index(value)
}

#[inline(always)]
const fn lengths(dims: Dims, transform: &'static str, parameter: &'static str) -> Result<Dims, Error> {
    tri!(non_negative(&dims, transform, parameter));
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

#[inline]
const fn checked_sum(a: Index, b: Index, transform: &'static str) -> Result<Index, Error> {
    match a.checked_add(b) {
        Some(s) => Ok(s),
        None => Err(Error::Overflow { transform, quantity: "upper length", value: a as i128 + b as i128 }),
    }
}

#[inline]
const fn wrap(repr: Repr) -> Result<Transform, Error> {
    Ok(Transform { repr })
}

#[inline]
const fn single(value: Index) -> Dims {
    Dims::splat(1, value)
}

/// The list `(a, b)`.
#[inline]
const fn two(a: Index, b: Index) -> Dims {
    // Two entries always fit (MAX_DIMS is 8): the error arm is never taken.
    match single(a).push(b) {
        Ok(d) => d,
        Err(_) => single(a),
    }
}

/// Rejects negative entries (lengths, coefficients), naming the first.
#[inline(always)]
const fn non_negative(dims: &Dims, transform: &'static str, parameter: &'static str) -> Result<(), Error> {
    match dims.first_negative() {
        Some(position) => {
            Err(Error::Negative { transform, parameter, position: Some(position), value: dims.get(position) })
        }
        None => Ok(()),
    }
}

/// An index array holding `value` in slot 0.
#[inline]
const fn one(value: Index) -> Indices {
    let mut out = [0; MAX_DIMS];
    out[0] = value;
    out
}

impl Transform {
    /// `pass_through(len)`: `low = up`.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::pass_through(8).unwrap().upper_lengths().as_slice(), &[8]);
    /// ```
    #[inline]
    pub const fn pass_through(len: usize) -> Result<Transform, Error> {
        const NAME: &str = Kind::PassThrough.name();
        wrap(Repr::PassThrough { len: tri!(length(len, NAME, "len")) })
    }

    /// `pad(len, left, right)`: upper length `len + left + right`, `low = up - left`.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::pad(10, 2, 3).unwrap().upper_lengths().as_slice(), &[15]);
    /// ```
    #[inline]
    pub const fn pad(len: usize, left: usize, right: usize) -> Result<Transform, Error> {
        const NAME: &str = Kind::Pad.name();
        let len = tri!(length(len, NAME, "len"));
        let (left, right) = (tri!(to_index(left)), tri!(to_index(right)));
        tri!(checked_sum(tri!(checked_sum(len, left, NAME)), right, NAME));
        wrap(Repr::Pad { len, left, right })
    }

    /// `left_pad(len, left)`: upper length `len + left`, `low = up - left`.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::left_pad(4, 1).unwrap().upper_lengths().as_slice(), &[5]);
    /// ```
    #[inline]
    pub const fn left_pad(len: usize, left: usize) -> Result<Transform, Error> {
        const NAME: &str = Kind::LeftPad.name();
        let len = tri!(length(len, NAME, "len"));
        let left = tri!(to_index(left));
        tri!(checked_sum(len, left, NAME));
        wrap(Repr::LeftPad { len, left })
    }

    /// `right_pad(len, right)`: upper length `len + right`, `low = up`.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::right_pad(4, 1).unwrap().upper_lengths().as_slice(), &[5]);
    /// ```
    #[inline]
    pub const fn right_pad(len: usize, right: usize) -> Result<Transform, Error> {
        const NAME: &str = Kind::RightPad.name();
        let len = tri!(length(len, NAME, "len"));
        let right = tri!(to_index(right));
        tri!(checked_sum(len, right, NAME));
        wrap(Repr::RightPad { len, right })
    }

    /// `embed(lengths, coefficients)`: `low = sum(up[i] * coef[i])`.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert!(Transform::embed(&[4, 5], &[2]).is_err());
    /// assert_eq!(Transform::embed(&[4, 5], &[2, 3]).unwrap().num_upper(), 2);
    /// ```
    #[inline]
    pub const fn embed(lengths: &[usize], coefficients: &[usize]) -> Result<Transform, Error> {
        Transform::embed_dims(tri!(Dims::from_usizes(lengths)), tri!(Dims::from_usizes(coefficients)))
    }

    /// [`embed`](Self::embed) from [`Dims`] (coefficients must not be negative).
    ///
    /// ```
    /// # use cktile_transforms::{Dims, Transform};
    /// let d = |v: &[i64]| Dims::from_slice(v).unwrap();
    /// assert!(Transform::embed_dims(d(&[4, 5]), d(&[2, -3])).is_err());
    /// ```
    #[inline(always)]
    pub const fn embed_dims(lengths_: Dims, coefficients: Dims) -> Result<Transform, Error> {
        const NAME: &str = Kind::Embed.name();
        let lengths = tri!(lengths(lengths_, NAME, "lengths"));
        tri!(non_negative(&coefficients, NAME, "coefficients"));
        if coefficients.len() != lengths.len() {
            return Err(Error::ListLengthMismatch {
                transform: NAME,
                first: lengths.len(),
                second: coefficients.len(),
            });
        }
        let (l, c) = (lengths.to_array(), coefficients.to_array());
        // Lengths of at least 1 and coefficients of at least 0 here: `None` is an overflow.
        if embed::non_negative_largest(&l, &c, lengths.len()).is_none() {
            let value = embed::wide_largest(&l, &c, lengths.len());
            return Err(Error::Overflow { transform: NAME, quantity: "largest lower index", value });
        }
        wrap(Repr::Embed { lengths, coefficients })
    }

    /// `merge(lower_lengths)`: row-major merge of N lower dimensions into one.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::merge(&[4, 8]).unwrap().upper_lengths().as_slice(), &[32]);
    /// ```
    #[inline]
    pub const fn merge(lower_lengths: &[usize]) -> Result<Transform, Error> {
        Transform::merge_dims(tri!(Dims::from_usizes(lower_lengths)))
    }

    /// [`merge`](Self::merge) from [`Dims`].
    ///
    /// ```
    /// # use cktile_transforms::{Dims, Transform};
    /// assert!(Transform::merge_dims(Dims::from_slice(&[4, -1]).unwrap()).is_err());
    /// ```
    #[inline]
    pub const fn merge_dims(lower_lengths: Dims) -> Result<Transform, Error> {
        const NAME: &str = Kind::Merge.name();
        wrap(Repr::Merge { lengths: tri!(lengths(lower_lengths, NAME, "lower lengths")) })
    }

    /// `unmerge(upper_lengths)`: row-major split of one lower dimension into N.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::unmerge(&[4, 2]).unwrap().upper_lengths().as_slice(), &[4, 2]);
    /// ```
    #[inline]
    pub const fn unmerge(upper_lengths: &[usize]) -> Result<Transform, Error> {
        Transform::unmerge_dims(tri!(Dims::from_usizes(upper_lengths)))
    }

    /// [`unmerge`](Self::unmerge) from [`Dims`].
    ///
    /// ```
    /// # use cktile_transforms::{Dims, Transform};
    /// assert!(Transform::unmerge_dims(Dims::from_slice(&[4, -1]).unwrap()).is_err());
    /// ```
    #[inline]
    pub const fn unmerge_dims(upper_lengths: Dims) -> Result<Transform, Error> {
        const NAME: &str = Kind::Unmerge.name();
        wrap(Repr::Unmerge { lengths: tri!(lengths(upper_lengths, NAME, "upper lengths")) })
    }

    /// `xor((l0, l1))`: `low1 = up1 ^ (up0 % l1)`; `l1` must be a power of two.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert!(Transform::xor(64, 8).is_ok());
    /// assert!(Transform::xor(64, 12).is_err());
    /// ```
    #[inline]
    pub const fn xor(l0: usize, l1: usize) -> Result<Transform, Error> {
        const NAME: &str = Kind::Xor.name();
        let l0 = tri!(length(l0, NAME, "L0"));
        let l1 = tri!(length(l1, NAME, "L1"));
        if !(l1 as u64).is_power_of_two() {
            return Err(Error::XorNotPowerOfTwo { l1 });
        }
        wrap(Repr::Xor { l0, l1 })
    }

    /// `cyclic_shift((l0, l1))`: CK Tile's `cyclic_shift_t`,
    /// `low1 = (up1 + up0) % l1` (row `up0` rotated by `up0` places); any
    /// lengths of at least 1 whose sum fits an index.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::cyclic_shift(4, 6).unwrap().to_string(), "cyclic_shift((4,6))");
    /// assert!(Transform::cyclic_shift(4, 0).is_err());
    /// ```
    #[inline]
    pub const fn cyclic_shift(l0: usize, l1: usize) -> Result<Transform, Error> {
        const NAME: &str = Kind::CyclicShift.name();
        let l0 = tri!(length(l0, NAME, "L0"));
        let l1 = tri!(length(l1, NAME, "L1"));
        // up0 + up1 for indices inside the lengths.
        tri!(checked_sum(l0, l1, NAME));
        wrap(Repr::CyclicShift { l0, l1 })
    }

    /// `slice(len, begin, end)`: the upper dimension is `[begin, end)` of the lower.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::slice(10, 2, 5).unwrap().upper_lengths().as_slice(), &[3]);
    /// assert!(Transform::slice(10, 5, 5).is_err());
    /// ```
    #[inline]
    pub const fn slice(len: usize, begin: usize, end: usize) -> Result<Transform, Error> {
        const NAME: &str = Kind::Slice.name();
        let len = tri!(length(len, NAME, "len"));
        let (begin, end) = (tri!(to_index(begin)), tri!(to_index(end)));
        if begin >= end || end > len {
            return Err(Error::SliceRange { len, begin, end });
        }
        wrap(Repr::Slice { len, begin, end })
    }

    /// `freeze(index)`: drops a lower dimension, fixing it at `index`.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::freeze(3).unwrap().num_upper(), 0);
    /// ```
    #[inline]
    pub const fn freeze(index: usize) -> Result<Transform, Error> {
        wrap(Repr::Freeze { index: tri!(to_index(index)) })
    }

    /// `insert(len)`: a new upper dimension that does not reach memory.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::insert(4).unwrap().num_lower(), 0);
    /// ```
    #[inline]
    pub const fn insert(len: usize) -> Result<Transform, Error> {
        const NAME: &str = Kind::Insert.name();
        wrap(Repr::Insert { len: tri!(length(len, NAME, "len")) })
    }

    /// `replicate(lengths)`: broadcast upper dimensions with no lower dimension.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::replicate(&[2, 3]).unwrap().num_upper(), 2);
    /// ```
    #[inline]
    pub const fn replicate(upper_lengths: &[usize]) -> Result<Transform, Error> {
        Transform::replicate_dims(tri!(Dims::from_usizes(upper_lengths)))
    }

    /// [`replicate`](Self::replicate) from [`Dims`].
    ///
    /// ```
    /// # use cktile_transforms::{Dims, Transform};
    /// assert!(Transform::replicate_dims(Dims::from_slice(&[4, -1]).unwrap()).is_err());
    /// ```
    #[inline]
    pub const fn replicate_dims(upper_lengths: Dims) -> Result<Transform, Error> {
        const NAME: &str = Kind::Replicate.name();
        wrap(Repr::Replicate { lengths: tri!(lengths(upper_lengths, NAME, "lengths")) })
    }

    /// `offset(len, off)`: `low = up + off`.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::offset(16, 4).unwrap().upper_lengths().as_slice(), &[16]);
    /// ```
    #[inline]
    pub const fn offset(len: usize, off: usize) -> Result<Transform, Error> {
        const NAME: &str = Kind::Offset.name();
        let len = tri!(length(len, NAME, "len"));
        let offset = tri!(to_index(off));
        tri!(checked_sum(len, offset, NAME));
        wrap(Repr::Offset { len, offset })
    }

    /// `modulo(modulus, len)`: `low = up % modulus`, upper length `len`.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::modulo(8, 32).unwrap().upper_lengths().as_slice(), &[32]);
    /// ```
    #[inline]
    pub const fn modulo(modulus: usize, len: usize) -> Result<Transform, Error> {
        const NAME: &str = Kind::Modulo.name();
        let modulus = tri!(length(modulus, NAME, "modulus"));
        let len = tri!(length(len, NAME, "len"));
        wrap(Repr::Modulo { modulus, len })
    }

    /// `swizzle(bits, base, shift)`: CuTe's `Swizzle<B, M, S>`. Its length is
    /// that of the dimension it is applied to (see [`bind`](Self::bind)).
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert!(Transform::swizzle(3, 3, 3).is_ok());
    /// assert!(Transform::swizzle(3, 3, 2).is_err()); // |S| < B
    /// ```
    #[inline]
    pub const fn swizzle(bits: u32, base: u32, shift: i32) -> Result<Transform, Error> {
        let reach = base as u64 + shift.unsigned_abs() as u64 + bits as u64;
        if (shift.unsigned_abs()) < bits || reach > 62 {
            return Err(Error::SwizzleParameters { bits, base, shift });
        }
        wrap(Repr::Swizzle { bits, base, shift, len: 0 })
    }

    /// A swizzle with its length already known (checked as [`bind`](Self::bind) would).
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert!(Transform::swizzle_with_len(512, 3, 3, 3).is_ok());
    /// assert!(Transform::swizzle_with_len(100, 3, 3, 3).is_err());
    /// ```
    #[inline]
    pub const fn swizzle_with_len(len: usize, bits: u32, base: u32, shift: i32) -> Result<Transform, Error> {
        const NAME: &str = Kind::Swizzle.name();
        let len = tri!(length(len, NAME, "len"));
        let t = tri!(Transform::swizzle(bits, base, shift));
        t.bind(&single(len))
    }

    /// Which transform this is.
    ///
    /// ```
    /// # use cktile_transforms::{Kind, Transform};
    /// assert_eq!(Transform::insert(2).unwrap().kind(), Kind::Insert);
    /// ```
    #[inline]
    pub const fn kind(&self) -> Kind {
        match self.repr {
            Repr::PassThrough { .. } => Kind::PassThrough,
            Repr::Pad { .. } => Kind::Pad,
            Repr::LeftPad { .. } => Kind::LeftPad,
            Repr::RightPad { .. } => Kind::RightPad,
            Repr::Embed { .. } => Kind::Embed,
            Repr::Merge { .. } => Kind::Merge,
            Repr::Unmerge { .. } => Kind::Unmerge,
            Repr::Xor { .. } => Kind::Xor,
            Repr::Slice { .. } => Kind::Slice,
            Repr::Freeze { .. } => Kind::Freeze,
            Repr::Insert { .. } => Kind::Insert,
            Repr::Replicate { .. } => Kind::Replicate,
            Repr::Offset { .. } => Kind::Offset,
            Repr::Modulo { .. } => Kind::Modulo,
            Repr::Swizzle { .. } => Kind::Swizzle,
            Repr::CyclicShift { .. } => Kind::CyclicShift,
        }
    }

    /// Number of lower dimensions (CK's `get_num_of_lower_dimension`).
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::merge(&[2, 3, 4]).unwrap().num_lower(), 3);
    /// ```
    #[inline]
    pub const fn num_lower(&self) -> usize {
        match &self.repr {
            Repr::Merge { lengths } => lengths.len(),
            Repr::Xor { .. } | Repr::CyclicShift { .. } => 2,
            Repr::Insert { .. } | Repr::Replicate { .. } => 0,
            // Every kind is listed, so a new one is placed here on purpose.
            Repr::PassThrough { .. }
            | Repr::Pad { .. }
            | Repr::LeftPad { .. }
            | Repr::RightPad { .. }
            | Repr::Embed { .. }
            | Repr::Unmerge { .. }
            | Repr::Slice { .. }
            | Repr::Freeze { .. }
            | Repr::Offset { .. }
            | Repr::Modulo { .. }
            | Repr::Swizzle { .. } => 1,
        }
    }

    /// Number of upper dimensions (CK's `get_num_of_upper_dimension`).
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::unmerge(&[2, 3, 4]).unwrap().num_upper(), 3);
    /// ```
    #[inline]
    pub const fn num_upper(&self) -> usize {
        match &self.repr {
            Repr::Embed { lengths, .. } | Repr::Unmerge { lengths } | Repr::Replicate { lengths } => lengths.len(),
            Repr::Xor { .. } | Repr::CyclicShift { .. } => 2,
            Repr::Freeze { .. } => 0,
            Repr::PassThrough { .. }
            | Repr::Pad { .. }
            | Repr::LeftPad { .. }
            | Repr::RightPad { .. }
            | Repr::Merge { .. }
            | Repr::Slice { .. }
            | Repr::Insert { .. }
            | Repr::Offset { .. }
            | Repr::Modulo { .. }
            | Repr::Swizzle { .. } => 1,
        }
    }

    /// Lengths of the upper dimensions.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert_eq!(Transform::xor(64, 8).unwrap().upper_lengths().as_slice(), &[64, 8]);
    /// ```
    #[inline]
    pub const fn upper_lengths(&self) -> Dims {
        match self.repr {
            Repr::PassThrough { len }
            | Repr::Insert { len }
            | Repr::Offset { len, .. }
            | Repr::Modulo { len, .. }
            | Repr::Swizzle { len, .. } => single(len),
            Repr::Pad { len, left, right } => single(pad::upper_length(len, left, right)),
            Repr::LeftPad { len, left } => single(pad::upper_length(len, left, 0)),
            Repr::RightPad { len, right } => single(pad::upper_length(len, 0, right)),
            Repr::Embed { lengths, .. } | Repr::Unmerge { lengths } | Repr::Replicate { lengths } => lengths,
            // The product is checked at construction.
            Repr::Merge { lengths } => single(merge::upper_length(&lengths.to_array(), lengths.len())),
            Repr::Xor { l0, l1 } | Repr::CyclicShift { l0, l1 } => two(l0, l1),
            Repr::Slice { begin, end, .. } => single(slice::upper_length(begin, end)),
            Repr::Freeze { .. } => Dims::EMPTY,
        }
    }

    /// Checks the transform against the lengths of the dimensions it is
    /// applied to, and completes it (a swizzle takes its length from there).
    ///
    /// Lengths must match exactly (`merge((4,8))` on dimensions of lengths 4
    /// and 8; `unmerge` on a dimension of the product length), except where a
    /// transform reads a sub-range (`embed`, `offset`, `freeze`), which must fit.
    ///
    /// ```
    /// # use cktile_transforms::{Dims, Transform};
    /// let m = Transform::merge(&[4, 8]).unwrap();
    /// assert!(m.bind(&Dims::from_slice(&[4, 8]).unwrap()).is_ok());
    /// assert!(m.bind(&Dims::from_slice(&[4, 16]).unwrap()).is_err());
    /// ```
    // Not inlined: inlined into every runtime builder (`Stage::new`,
    // `Adaptor::transform`, the typed chains), its match over every kind
    // drove LLVM's AMDGPU backend (nightly-2026-10-29, gfx942) into "Cannot
    // scavenge register in FI elimination" once a 16th kind was added.
    // Builders call it once per item, and the proof kernels
    // (`scripts/target-icount.sh`) stay at their twins' counts.
    #[inline(never)]
    pub const fn bind(self, lower_lengths: &Dims) -> Result<Transform, Error> {
        let name = self.kind().name();
        if lower_lengths.len() != self.num_lower() {
            return Err(Error::LowerCount { transform: name, expected: self.num_lower(), found: lower_lengths.len() });
        }
        let found = lower_lengths.get(0);
        let checked = match self.repr {
            Repr::PassThrough { len }
            | Repr::Pad { len, .. }
            | Repr::LeftPad { len, .. }
            | Repr::RightPad { len, .. }
            | Repr::Slice { len, .. }
            | Repr::Modulo { modulus: len, .. } => expect_len(name, 0, len, found),
            Repr::Unmerge { lengths } => match lengths.product() {
                Some(p) => expect_len(name, 0, p, found),
                None => Err(Error::Overflow {
                    transform: name,
                    quantity: "product of the lengths",
                    value: lengths.wide_product(),
                }),
            },
            Repr::Merge { lengths } => {
                crate::dims::each_slot!(lengths.len(), |i| {
                    tri!(expect_len(name, i, lengths.get(i), lower_lengths.get(i)));
                });
                Ok(())
            }
            Repr::Xor { l0, l1 } | Repr::CyclicShift { l0, l1 } => {
                tri!(expect_len(name, 0, l0, lower_lengths.get(0)));
                expect_len(name, 1, l1, lower_lengths.get(1))
            }
            Repr::Embed { lengths, coefficients } => {
                let largest = embed::wide_largest(&lengths.to_array(), &coefficients.to_array(), lengths.len());
                if largest > Index::MAX as i128 {
                    Err(Error::Overflow { transform: name, quantity: "largest lower index", value: largest })
                } else {
                    fits(name, largest as Index, found)
                }
            }
            Repr::Offset { len, offset } => fits(name, len + offset - 1, found),
            Repr::Freeze { index } => fits(name, index, found),
            Repr::Insert { .. } | Repr::Replicate { .. } => Ok(()),
            Repr::Swizzle { bits, base, shift, .. } => {
                let block = 1i64 << swizzle::block_bits(bits, base, shift);
                if found % block != 0 {
                    return Err(Error::SwizzleLength { len: found, block });
                }
                return Ok(Transform { repr: Repr::Swizzle { bits, base, shift, len: found } });
            }
        };
        match checked {
            Ok(()) => Ok(self),
            Err(e) => Err(e),
        }
    }

    /// The lower index for an upper index (CK's `calculate_lower_index`).
    ///
    /// ```
    /// # use cktile_transforms::{Transform, MAX_DIMS};
    /// // CK Tile's test: merge [4, 5] maps 7 to (1, 2).
    /// let mut up = [0; MAX_DIMS];
    /// up[0] = 7;
    /// assert_eq!(&Transform::merge(&[4, 5]).unwrap().calculate_lower(&up)[..2], &[1, 2]);
    /// ```
    #[inline(always)]
    pub const fn calculate_lower(&self, up: &Indices) -> Indices {
        match &self.repr {
            Repr::PassThrough { .. } | Repr::RightPad { .. } => one(pass_through::lower(up[0])),
            Repr::Pad { left, .. } | Repr::LeftPad { left, .. } => one(pad::lower(up[0], *left)),
            Repr::Embed { coefficients, lengths } => one(embed::lower(up, &coefficients.to_array(), lengths.len())),
            Repr::Merge { lengths } => merge::lower(up[0], &lengths.to_array(), lengths.len()),
            Repr::Unmerge { lengths } => one(unmerge::lower(up, &lengths.to_array(), lengths.len())),
            Repr::Xor { l1, .. } => {
                let mut low = [0; MAX_DIMS];
                low[0] = up[0];
                low[1] = xor::lower1(up[0], up[1], *l1);
                low
            }
            Repr::CyclicShift { l1, .. } => {
                let mut low = one(up[0]);
                low[1] = cyclic_shift::lower1(up[0], up[1], *l1);
                low
            }
            Repr::Slice { begin, .. } => one(slice::lower(up[0], *begin)),
            Repr::Freeze { index } => one(freeze::lower(*index)),
            Repr::Insert { .. } | Repr::Replicate { .. } => [0; MAX_DIMS],
            Repr::Offset { offset, .. } => one(offset::lower(up[0], *offset)),
            Repr::Modulo { modulus, .. } => one(modulo::lower(up[0], *modulus)),
            Repr::Swizzle { bits, base, shift, .. } => one(swizzle::apply(up[0], *bits, *base, *shift)),
        }
    }

    /// Whether the lower index moves by a fixed linear function of the upper
    /// step (so a coordinate move adds `calculate_lower(step)` instead of
    /// recomputing). Merge, xor, modulo, swizzle and cyclic shift are not
    /// linear.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert!(Transform::unmerge(&[4, 8]).unwrap().is_linear());
    /// assert!(!Transform::merge(&[4, 8]).unwrap().is_linear());
    /// ```
    #[inline]
    pub const fn is_linear(&self) -> bool {
        match self.repr {
            Repr::Merge { .. }
            | Repr::Xor { .. }
            | Repr::Modulo { .. }
            | Repr::Swizzle { .. }
            | Repr::CyclicShift { .. } => false,
            Repr::PassThrough { .. }
            | Repr::Pad { .. }
            | Repr::LeftPad { .. }
            | Repr::RightPad { .. }
            | Repr::Embed { .. }
            | Repr::Unmerge { .. }
            | Repr::Slice { .. }
            | Repr::Freeze { .. }
            | Repr::Insert { .. }
            | Repr::Replicate { .. }
            | Repr::Offset { .. } => true,
        }
    }

    /// Whether the transform is linear over GF(2) on its indices' bits,
    /// given that every length it touches is a power of two: each lower
    /// index bit is then an XOR of upper index bits, with no carries and no
    /// constants. Pass-through, merge, unmerge, xor, swizzle, insert and
    /// replicate always are. An embed is when its coefficients are 0 or
    /// powers of two whose bit fields do not overlap (the sum is then an
    /// OR). A modulo is when its modulus is a power of two (it keeps low
    /// bits). Pads, slices, offsets and freezes are only when they add
    /// nothing. `cktile equiv` proves two such chains equal by their bases.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert!(Transform::swizzle(3, 3, 3).unwrap().is_xor_linear());
    /// assert!(Transform::embed(&[4, 8], &[8, 1]).unwrap().is_xor_linear());
    /// assert!(!Transform::embed(&[4, 8], &[4, 1]).unwrap().is_xor_linear()); // fields overlap: carries
    /// assert!(!Transform::offset(8, 1).unwrap().is_xor_linear());
    /// ```
    pub const fn is_xor_linear(&self) -> bool {
        match self.params() {
            Params::PassThrough { .. }
            | Params::Merge { .. }
            | Params::Unmerge { .. }
            | Params::Xor { .. }
            | Params::Swizzle { .. }
            | Params::Insert { .. }
            | Params::Replicate { .. } => true,
            // A rotation carries: (up1 + up0) % l1 is not a xor of bits.
            Params::CyclicShift { .. } => false,
            Params::Pad { left, right, .. } => left == 0 && right == 0,
            Params::LeftPad { left, .. } => left == 0,
            Params::RightPad { right, .. } => right == 0,
            Params::Slice { begin, .. } => begin == 0,
            Params::Freeze { index } => index == 0,
            Params::Offset { offset, .. } => offset == 0,
            Params::Modulo { modulus, .. } => modulus > 0 && modulus & (modulus - 1) == 0,
            Params::Embed { lengths, coefficients } => disjoint_bit_fields(&lengths, &coefficients),
        }
    }

    /// Incremental update for a coordinate move (CK's `update_lower_index`).
    ///
    /// `up_new` is the upper index after the move and `diff_up` the step that
    /// led there; `low` is the lower index before the move. Returns the new
    /// lower index and the lower step. Linear transforms add the transformed
    /// step (pad and offset move by the step itself, embed by the weighted
    /// step, freeze not at all); the others recompute from `up_new`. The
    /// result always equals `calculate_lower(up_new)`, including for modulo,
    /// where CK Tile counts the step twice.
    ///
    /// ```
    /// # use cktile_transforms::{Transform, MAX_DIMS};
    /// let t = Transform::modulo(8, 32).unwrap();
    /// let (mut up, mut low, mut step) = ([0; MAX_DIMS], [0; MAX_DIMS], [0; MAX_DIMS]);
    /// up[0] = 6; low[0] = 6; step[0] = 5;
    /// up[0] += step[0];
    /// let (new_low, diff) = t.update_lower(&step, &low, &up);
    /// assert_eq!((new_low[0], diff[0]), (3, -3)); // 11 % 8; CK would give (11 + 5) % 8 = 0
    /// ```
    #[inline(always)]
    pub const fn update_lower(&self, diff_up: &Indices, low: &Indices, up_new: &Indices) -> (Indices, Indices) {
        let n = self.num_lower();
        let mut new_low = [0; MAX_DIMS];
        let mut diff_low = [0; MAX_DIMS];
        if self.is_linear() {
            // The affine part cancels in a difference: the step maps through
            // the same formula minus its value at zero.
            let at_step = self.calculate_lower(diff_up);
            let at_zero = self.calculate_lower(&[0; MAX_DIMS]);
            let mut i = 0;
            while i < n {
                diff_low[i] = at_step[i].wrapping_sub(at_zero[i]);
                new_low[i] = low[i].wrapping_add(diff_low[i]);
                i += 1;
            }
        } else {
            new_low = self.calculate_lower(up_new);
            let mut i = 0;
            while i < n {
                diff_low[i] = new_low[i].wrapping_sub(low[i]);
                i += 1;
            }
        }
        (new_low, diff_low)
    }

    /// True when every upper index in range maps to a valid lower index, so
    /// [`is_valid_upper`](Self::is_valid_upper) need not be asked (CK's
    /// `is_valid_upper_index_always_mapped_to_valid_lower_index`). Only the pad
    /// family can produce invalid positions. Read off the
    /// [`lowering`](Self::lowering): true when it has no check.
    ///
    /// ```
    /// # use cktile_transforms::Transform;
    /// assert!(!Transform::pad(10, 2, 3).unwrap().is_always_valid());
    /// assert!(Transform::slice(10, 2, 3).unwrap().is_always_valid());
    /// ```
    #[inline]
    pub const fn is_always_valid(&self) -> bool {
        self.lowering().check().is_none()
    }

    /// Whether an upper index maps to a real (non-padded) lower index.
    ///
    /// ```
    /// # use cktile_transforms::{Transform, MAX_DIMS};
    /// let p = Transform::pad(10, 2, 3).unwrap();
    /// let at = |i| { let mut up = [0; MAX_DIMS]; up[0] = i; p.is_valid_upper(&up) };
    /// assert!(!at(1) && at(2) && at(11) && !at(12));
    /// ```
    #[inline(always)]
    pub const fn is_valid_upper(&self, up: &Indices) -> bool {
        match self.repr {
            Repr::Pad { len, left, .. } | Repr::LeftPad { len, left } => pad::is_valid(up[0], len, left),
            Repr::RightPad { len, .. } => pad::is_valid(up[0], len, 0),
            _ => true,
        }
    }

    /// The upper index for a lower index, for transforms that have an inverse
    /// (`None` for freeze, modulo, insert/replicate of more than one point,
    /// and an embed whose coefficients overlap, see [`kinds::embed`](crate::kinds::embed)).
    /// `inverse(forward(x)) == x` for every `x` in range; for pad,
    /// slice and offset, lower indices outside the upper range have no preimage
    /// and come back out of range.
    ///
    /// ```
    /// # use cktile_transforms::{Transform, MAX_DIMS};
    /// let x = Transform::xor(128, 8).unwrap();
    /// let mut up = [0; MAX_DIMS];
    /// up[0] = 9;
    /// up[1] = 5;
    /// assert_eq!(x.calculate_upper(&x.calculate_lower(&up)), Some(up));
    /// assert_eq!(Transform::modulo(8, 32).unwrap().calculate_upper(&up), None);
    /// ```
    #[inline]
    pub const fn calculate_upper(&self, low: &Indices) -> Option<Indices> {
        Some(match &self.repr {
            Repr::PassThrough { .. } | Repr::RightPad { .. } => one(low[0]),
            Repr::Pad { left, .. } | Repr::LeftPad { left, .. } => one(pad::upper(low[0], *left)),
            Repr::Embed { lengths, coefficients } => {
                let (l, c) = (lengths.to_array(), coefficients.to_array());
                match embed::radix_order(&l, &c, lengths.len()) {
                    Some(order) => embed::upper(low[0], &l, &c, &order, lengths.len()),
                    None => return None,
                }
            }
            Repr::Merge { lengths } => one(merge::upper(low, &lengths.to_array(), lengths.len())),
            Repr::Unmerge { lengths } => unmerge::upper(low[0], &lengths.to_array(), lengths.len()),
            Repr::Xor { l1, .. } => {
                // An involution: the same formula inverts it.
                let mut up = [0; MAX_DIMS];
                up[0] = low[0];
                up[1] = xor::lower1(low[0], low[1], *l1);
                up
            }
            Repr::CyclicShift { l1, .. } => {
                let mut up = one(low[0]);
                up[1] = cyclic_shift::upper1(low[0], low[1], *l1);
                up
            }
            Repr::Slice { begin, .. } => one(low[0].wrapping_sub(*begin)),
            Repr::Offset { offset, .. } => one(low[0].wrapping_sub(*offset)),
            Repr::Swizzle { bits, base, shift, .. } => one(swizzle::apply(low[0], *bits, *base, *shift)),
            Repr::Insert { len } => {
                if *len == 1 {
                    [0; MAX_DIMS]
                } else {
                    return None;
                }
            }
            Repr::Replicate { lengths } => {
                if replicate::is_single_point(&lengths.to_array(), lengths.len()) {
                    [0; MAX_DIMS]
                } else {
                    return None;
                }
            }
            Repr::Freeze { .. } | Repr::Modulo { .. } => return None,
        })
    }

    /// The transform as a few integer operations, upper to lower: the form
    /// cktile's C++ emitter, interval analysis and compiled programs read
    /// (see [`lowering`](crate::lowering)). Running it gives
    /// [`calculate_lower`](Self::calculate_lower) for every input, and its
    /// check gives [`is_valid_upper`](Self::is_valid_upper).
    ///
    /// ```
    /// # use cktile_transforms::{Transform, MAX_DIMS};
    /// let t = Transform::merge(&[4, 8]).unwrap();
    /// let mut up = [0; MAX_DIMS];
    /// up[0] = 29;
    /// assert_eq!(t.lowering().lower(&up), t.calculate_lower(&up));
    /// ```
    pub const fn lowering(&self) -> Lowering {
        match self.repr {
            Repr::PassThrough { .. } => pass_through::lowering(),
            Repr::Pad { len, left, .. } | Repr::LeftPad { len, left } => pad::lowering(len, left),
            Repr::RightPad { len, .. } => pad::lowering(len, 0),
            Repr::Embed { coefficients, .. } => embed::lowering(coefficients),
            Repr::Merge { lengths } => merge::lowering(lengths),
            Repr::Unmerge { lengths } => unmerge::lowering(lengths),
            Repr::Xor { l1, .. } => xor::lowering(l1),
            Repr::CyclicShift { l1, .. } => cyclic_shift::lowering(l1),
            Repr::Slice { begin, .. } => slice::lowering(begin),
            Repr::Freeze { index } => freeze::lowering(index),
            Repr::Insert { .. } => replicate::lowering(1),
            Repr::Replicate { lengths } => replicate::lowering(lengths.len()),
            Repr::Offset { offset, .. } => offset::lowering(offset),
            Repr::Modulo { modulus, .. } => modulo::lowering(modulus),
            Repr::Swizzle { bits, base, shift, .. } => swizzle::lowering(bits, base, shift),
        }
    }

    /// The inverse as integer operations, lower to upper, where
    /// [`calculate_upper`](Self::calculate_upper) has one (and gives the
    /// same values); `None` where it has none.
    ///
    /// ```
    /// # use cktile_transforms::{Transform, MAX_DIMS};
    /// let t = Transform::embed(&[4, 8], &[100, 1]).unwrap();
    /// let mut low = [0; MAX_DIMS];
    /// low[0] = 305;
    /// assert_eq!(t.upper_lowering().map(|l| l.lower(&low)), t.calculate_upper(&low));
    /// assert!(Transform::modulo(8, 32).unwrap().upper_lowering().is_none());
    /// ```
    pub const fn upper_lowering(&self) -> Option<Lowering> {
        Some(match self.repr {
            Repr::PassThrough { .. } | Repr::RightPad { .. } => pass_through::lowering(),
            Repr::Pad { left, .. } | Repr::LeftPad { left, .. } => pad::upper_lowering(left),
            Repr::Embed { lengths, coefficients } => return embed::upper_lowering(lengths, coefficients),
            Repr::Merge { lengths } => unmerge::lowering(lengths),
            Repr::Unmerge { lengths } => merge::lowering(lengths),
            Repr::Xor { l1, .. } => xor::lowering(l1),
            Repr::CyclicShift { l1, .. } => cyclic_shift::upper_lowering(l1),
            Repr::Slice { begin, .. } => offset::lowering(begin.wrapping_neg()),
            Repr::Offset { offset, .. } => offset::lowering(offset.wrapping_neg()),
            Repr::Swizzle { bits, base, shift, .. } => swizzle::lowering(bits, base, shift),
            Repr::Insert { len: 1 } => replicate::upper_lowering(1),
            Repr::Replicate { lengths } if replicate::is_single_point(&lengths.to_array(), lengths.len()) => {
                replicate::upper_lowering(lengths.len())
            }
            Repr::Insert { .. } | Repr::Replicate { .. } | Repr::Freeze { .. } | Repr::Modulo { .. } => return None,
        })
    }

    /// Safe vector length and stride of each upper dimension, from those of the
    /// lower dimensions (CK's `calculate_upper_dimension_safe_vector_length_strides`,
    /// with its per-transform rules: pass_through, left/right pad and xor pass
    /// through; merge takes its last lower dimension's; unmerge gives its last
    /// upper dimension `gcd(lower length, last length)` and the lower stride;
    /// pad, embed, slice, offset and modulo give nothing; swizzle keeps runs of
    /// `2^M`).
    ///
    /// ```
    /// # use cktile_transforms::{Transform, Vector, MAX_DIMS};
    /// let mut low = [Vector::UNKNOWN; MAX_DIMS];
    /// low[0] = Vector::new(24, 1);
    /// let up = Transform::unmerge(&[4, 8]).unwrap().upper_vectors(&low);
    /// assert_eq!((up[0], up[1]), (Vector::UNKNOWN, Vector::new(8, 1)));
    /// ```
    #[inline]
    pub const fn upper_vectors(&self, low: &[Vector; MAX_DIMS]) -> [Vector; MAX_DIMS] {
        self.vector_rule().upper(low)
    }

    /// The rule by which [`upper_vectors`](Self::upper_vectors) carries
    /// vectors through this transform: its kind's rule
    /// ([`VectorRule::of_kind`]) with its lengths known.
    ///
    /// ```
    /// use cktile_transforms::{Transform, VectorRule};
    /// assert_eq!(Transform::unmerge(&[4, 8]).unwrap().vector_rule(), VectorRule::Gcd { upper: 1, with: Some(8) });
    /// assert_eq!(Transform::swizzle(3, 3, 3).unwrap().vector_rule(), VectorRule::Gcd { upper: 0, with: Some(8) });
    /// ```
    #[inline]
    pub const fn vector_rule(&self) -> VectorRule {
        let with = match &self.repr {
            Repr::Unmerge { lengths } => Some(lengths.get(lengths.len().saturating_sub(1))),
            Repr::Swizzle { base, .. } => Some(1i64 << *base),
            _ => None,
        };
        VectorRule::of_kind(self.kind(), self.num_lower(), self.num_upper(), with)
    }
}

#[inline]
const fn expect_len(transform: &'static str, dim: usize, expected: Index, found: Index) -> Result<(), Error> {
    if expected == found { Ok(()) } else { Err(Error::LowerLengthMismatch { transform, dim, expected, found }) }
}

#[inline]
const fn fits(transform: &'static str, largest: Index, length: Index) -> Result<(), Error> {
    if largest < length { Ok(()) } else { Err(Error::LowerOutOfRange { transform, largest, length }) }
}

/// Writes the transform in spec syntax, e.g. `merge((4,8))` or `xor((64,8))`:
/// the kind's name and [`Transform::args`], lists in parentheses.
///
/// ```
/// # use cktile_transforms::Transform;
/// assert_eq!(Transform::pad(10, 2, 3).unwrap().to_string(), "pad(10,2,3)");
/// assert_eq!(Transform::xor(64, 8).unwrap().to_string(), "xor((64,8))");
/// assert_eq!(Transform::swizzle(3, 3, 3).unwrap().to_string(), "swizzle(3,3,3)");
/// assert_eq!(Transform::embed(&[4], &[2]).unwrap().to_string(), "embed((4),(2))");
/// ```
impl fmt::Display for Transform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}(", self.kind().name())?;
        for (i, arg) in self.args().as_slice().iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{arg}")?;
        }
        f.write_str(")")
    }
}

// The table of kinds: each kind's signature and builder, and the argument
// values of a transform.
mod table;

// The runtime hot paths: the formulas on index positions and register files.
// A child module, so it reads the private representation.
mod fast;

/// Whether `sum(up[i] * coefficients[i])` is an OR of disjoint bit fields:
/// every coefficient 0 or a power of two, every length with a coefficient
/// a power of two, and the fields `[log2 c, log2 c + log2 len)` apart.
const fn disjoint_bit_fields(lengths: &Dims, coefficients: &Dims) -> bool {
    let mut taken: u128 = 0;
    let mut i = 0;
    while i < lengths.len() {
        let (len, c) = (lengths.get(i), coefficients.get(i));
        if len > 1 && c != 0 {
            if c < 0 || c & (c - 1) != 0 || len & (len - 1) != 0 {
                return false;
            }
            let field = ((len - 1) as u128) << c.trailing_zeros();
            if taken & field != 0 {
                return false;
            }
            taken |= field;
        }
        i += 1;
    }
    true
}
