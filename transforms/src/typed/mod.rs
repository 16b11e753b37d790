//! The static (type-level) forms of the transforms: their trait,
//! [`TypedTransform`], and every kind's typed form, re-exported from the
//! kind's module in [`kinds`](crate::kinds) where it sits beside the runtime
//! parameters and the formulas both evaluate with.
//!
//! Each struct holds its parameters as [`Value`]s: zero-sized [`Number`]s
//! (or typenum integers) for compile-time values, `usize` for runtime ones.
//! Its numbers of lower and upper dimensions are type-level integers, and
//! [`TypedTransform::STATIC`] is the [`Transform`] itself when every parameter
//! is static, computed by the same `const fn` constructor the runtime path
//! uses. The `make_*_transform` functions mirror CK Tile's.
//!
//! ```
//! use cktile_transforms::typed::{make_merge_transform, TypedTransform};
//! use cktile_transforms::{Number, Transform};
//! let m = make_merge_transform((Number::<4>, Number::<8>));
//! // All static: the transform is a compile-time constant.
//! const M: Option<Result<Transform, cktile_transforms::Error>> =
//!     <cktile_transforms::typed::Merge<(Number<4>, Number<8>)> as TypedTransform>::STATIC;
//! assert_eq!(M, Some(Transform::merge(&[4, 8])));
//! assert_eq!(m.to_transform(), Transform::merge(&[4, 8]));
//! ```
//!
//! [`Number`]: crate::Number
//! [`Value`]: crate::Value

pub(crate) mod forms;

use crate::{Count, Dims, Error, Indices, Kind, MAX_DIMS, Transform, VectorRule};
use typenum::Unsigned;

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
    #[inline(always)]
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
    #[inline(always)]
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

// Every kind's typed form and its `make_*` builder, from the kind's module.
crate::kinds::kind_list!(@with typed_forms ());
