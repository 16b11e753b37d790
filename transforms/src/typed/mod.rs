//! The static (type-level) forms of the transforms: their trait,
//! [`TypedTransform`], and every kind's typed form, re-exported from
//! [`kinds`](crate::kinds): each kind's form from the kind's module, where
//! it sits beside the runtime parameters and the formulas both evaluate
//! with, and the trait from beside them (the kinds implement it).
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
//! [`Transform`]: crate::Transform

pub use crate::kinds::forms::TypedTransform;

// Every kind's typed form and its `make_*` builder, from the kind's module.
crate::list::kind_list!([crate::kinds::kind_rules] @typed_forms ());
