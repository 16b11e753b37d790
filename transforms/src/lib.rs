//! Coordinate transforms with CK Tile semantics.
//!
//! A coordinate transform maps an *upper* index (the side a user sees) to a
//! *lower* index (the side closer to memory). Composed into descriptors by the
//! `cktile` crate, they describe tensor layouts, shared-memory (LDS) layouts
//! above all.
//!
//! This crate holds the one definition of every transform's semantics:
//!
//! - [`Transform`] is the transform as plain data: its kind's struct of
//!   parameters inside [`Params`]. All of its methods are `const fn`, so
//!   the same code computes offsets at compile time (inside `const` items
//!   and associated consts) and at run time.
//! - [`kinds`] has one module per kind holding all of its behaviour: its
//!   formulas (forward, incremental update, validity, inverse, vector
//!   propagation), its lowering into [`lowering`]'s steps, its runtime
//!   parameters (`XorParams`) and their checks, its row (name and
//!   signature) and its typed form; and what the one list of kinds
//!   (written once, in the crate's `list` module, which also declares
//!   [`Kind`]) stands for, which every dispatch over kinds is generated
//!   from.
//! - [`typed`] gathers the typed (type-level) forms: structs whose
//!   parameters are compile-time [`Number`]s or typenum integers, or runtime
//!   `usize` values, mixed freely as in CK Tile. Each turns into a
//!   [`Transform`] and evaluates with its kind's formulas, so the static and
//!   runtime forms cannot drift apart.
//!
//! ```
//! use cktile_transforms::{Transform, MAX_DIMS};
//!
//! // CK Tile's own unit test: merge [2, 3, 4] maps 23 to (1, 2, 3).
//! let merge = Transform::merge(&[2, 3, 4]).unwrap();
//! let mut up = [0i64; MAX_DIMS];
//! up[0] = 23;
//! assert_eq!(&merge.calculate_lower(&up)[..3], &[1, 2, 3]);
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![deny(rustdoc::broken_intra_doc_links)]

/// `?` for a `const fn` (where `?` is not allowed): the value of an `Ok`,
/// or an early `return` of the `Err`, unconverted. Used by this crate's and
/// `cktile`'s `const` constructors, and usable in your own.
///
/// ```
/// use cktile_transforms::{tri, Error, Index, Transform};
/// // The length of a merge of `lengths`, refused as `Transform::merge` refuses.
/// const fn merged(lengths: &[usize]) -> Result<Index, Error> {
///     let merge = tri!(Transform::merge(lengths));
///     Ok(merge.upper_lengths().get(0))
/// }
/// const N: Result<Index, Error> = merged(&[4, 8]);
/// assert_eq!(N, Ok(32));
/// assert!(merged(&[4, 0]).is_err());
/// ```
#[macro_export]
macro_rules! tri {
    ($e:expr) => {
        match $e {
            ::core::result::Result::Ok(v) => v,
            ::core::result::Result::Err(e) => return ::core::result::Result::Err(e),
        }
    };
}

mod arith;
mod count;
mod dims;
mod error;
pub mod kinds;
mod list;
pub mod lowering;
mod signature;
mod transform;
pub mod typed;
mod value;
mod values;
mod vector;

pub use count::Count;
pub use dims::Dims;
pub use error::{Error, Found, Wide};
pub use kinds::any::{Params, Transform};
pub use kinds::row::Family;
pub use list::Kind;
pub use signature::{Arg, Args, CountText, INDEX_RANGE, Param, ParamShape, Signature};
pub use value::{Number, Value};
pub use values::Values;
pub use vector::{Vector, VectorRule};

/// The index type of every coordinate and offset: signed, as CK Tile's
/// `index_t`, because a padded position may map to a negative offset.
///
/// ```
/// let padded: cktile_transforms::Index = cktile_transforms::kinds::pad::lower(0, 2);
/// assert_eq!(padded, -2); // signed: a left-padded position lies before the data
/// ```
pub type Index = i64;

/// The most entries a list parameter, or a descriptor's top dimensions,
/// may have (at the crate's root, beneath every module, as [`Index`]).
///
/// ```
/// assert!(cktile_transforms::Dims::from_slice(&[1; cktile_transforms::MAX_DIMS + 1]).is_err());
/// ```
pub const MAX_DIMS: usize = 8;

/// A full set of upper or lower index values of one transform (only the first
/// `num_upper()` / `num_lower()` entries are meaningful).
///
/// ```
/// let mut up: cktile_transforms::Indices = [0; cktile_transforms::MAX_DIMS];
/// up[0] = 13;
/// let low = cktile_transforms::Transform::merge(&[4, 8]).unwrap().calculate_lower(&up);
/// assert_eq!(&low[..2], &[1, 5]);
/// ```
pub type Indices = [Index; MAX_DIMS];

/// The crate's README, compiled with the doctests so its example stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct TransformsReadmeDoctests;
