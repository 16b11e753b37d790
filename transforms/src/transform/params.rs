//! [`Transform::params`]: a read-only view of a [`Transform`]'s
//! parameters, for tools that turn a transform into something else (code
//! generators, exporters). [`Params`] itself is declared from the list of
//! kinds with the kinds (`kinds::kind_rules!`): one variant per kind,
//! holding its struct.
//!
//! Declared from `transform.rs` (the representation it reads is
//! crate-private) and re-exported at the crate root.

use super::{Params, Transform};

impl Transform {
    /// The transform's parameters.
    ///
    /// ```
    /// use cktile_transforms::{kinds::{SwizzleParams, XorParams}, Params, Transform};
    /// let s = Transform::swizzle_with_len(512, 3, 3, 3).unwrap();
    /// assert_eq!(s.params(), Params::Swizzle(SwizzleParams { bits: 3, base: 3, shift: 3, len: 512 }));
    /// assert_eq!(Transform::xor(64, 8).unwrap().params(), Params::Xor(XorParams { l0: 64, l1: 8 }));
    /// ```
    pub const fn params(&self) -> Params {
        self.repr
    }
}
