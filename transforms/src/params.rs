//! [`Params`]: a read-only view of a [`Transform`]'s parameters, for tools
//! that turn a transform into something else (code generators, exporters).
//!
//! Declared from `transform.rs` (as a child module, so it reads the private
//! representation) and re-exported at the crate root. Adding it changed no
//! behaviour: it only copies the parameters out.

use super::Transform;
use crate::{Dims, Index};

/// The parameters of one transform, as the validating constructors stored
/// them. Lists keep their spec order; a swizzle's `len` is 0 until the
/// transform is bound to its dimension ([`Transform::bind`]).
///
/// ```
/// use cktile_transforms::{Params, Transform};
/// let p = Transform::pad(10, 2, 3).unwrap().params();
/// assert_eq!(p, Params::Pad { len: 10, left: 2, right: 3 });
/// let m = Transform::merge(&[4, 8]).unwrap().params();
/// assert!(matches!(m, Params::Merge { lengths } if lengths.as_slice() == [4, 8]));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Params {
    /// `pass_through(len)`.
    PassThrough {
        /// Length.
        len: Index,
    },
    /// `pad(len, left, right)`.
    Pad {
        /// Lower length.
        len: Index,
        /// Padding before.
        left: Index,
        /// Padding after.
        right: Index,
    },
    /// `left_pad(len, left)`.
    LeftPad {
        /// Lower length.
        len: Index,
        /// Padding before.
        left: Index,
    },
    /// `right_pad(len, right)`.
    RightPad {
        /// Lower length.
        len: Index,
        /// Padding after.
        right: Index,
    },
    /// `embed(lengths, coefficients)`.
    Embed {
        /// Upper lengths.
        lengths: Dims,
        /// One coefficient per upper dimension.
        coefficients: Dims,
    },
    /// `merge(lower_lengths)`.
    Merge {
        /// Lower lengths (row-major, the last fastest).
        lengths: Dims,
    },
    /// `unmerge(upper_lengths)`.
    Unmerge {
        /// Upper lengths (row-major, the last fastest).
        lengths: Dims,
    },
    /// `xor((l0, l1))`.
    Xor {
        /// Length of dimension 0.
        l0: Index,
        /// Length of dimension 1 (a power of two).
        l1: Index,
    },
    /// `slice(len, begin, end)`.
    Slice {
        /// Lower length.
        len: Index,
        /// First lower index.
        begin: Index,
        /// One past the last lower index.
        end: Index,
    },
    /// `freeze(index)`.
    Freeze {
        /// The fixed lower index.
        index: Index,
    },
    /// `insert(len)`.
    Insert {
        /// Upper length.
        len: Index,
    },
    /// `replicate(lengths)`.
    Replicate {
        /// Upper lengths.
        lengths: Dims,
    },
    /// `offset(len, off)`.
    Offset {
        /// Upper length.
        len: Index,
        /// Added to every index.
        offset: Index,
    },
    /// `modulo(modulus, len)`.
    Modulo {
        /// The modulus (lower length).
        modulus: Index,
        /// Upper length.
        len: Index,
    },
    /// `swizzle(bits, base, shift)` on a dimension of length `len`.
    Swizzle {
        /// CuTe's B.
        bits: u32,
        /// CuTe's M.
        base: u32,
        /// CuTe's S.
        shift: i32,
        /// The dimension's length (0 before binding).
        len: Index,
    },
    /// `cyclic_shift((l0, l1))`.
    CyclicShift {
        /// Length of dimension 0.
        l0: Index,
        /// Length of dimension 1, the rotation's modulus.
        l1: Index,
    },
}

impl Transform {
    /// The transform's parameters.
    ///
    /// ```
    /// use cktile_transforms::{Params, Transform};
    /// let s = Transform::swizzle_with_len(512, 3, 3, 3).unwrap();
    /// assert_eq!(s.params(), Params::Swizzle { bits: 3, base: 3, shift: 3, len: 512 });
    /// assert_eq!(Transform::xor(64, 8).unwrap().params(), Params::Xor { l0: 64, l1: 8 });
    /// ```
    pub const fn params(&self) -> Params {
        self.repr
    }
}
