//! The transform kinds, one module per kind (two for the one-sided pads
//! and `insert`, which share `pad` and `replicate`), what the one list of
//! kinds (`kind_list!`, in the crate's `list` module, beneath everything)
//! stands for here (`kind_rules!`, which every dispatch over kinds is
//! generated from), and the types that hold any kind:
//! [`Params`](crate::Params) (one variant per kind, from the list) and
//! [`Transform`], which each kind's constructor, binding
//! and draw make, and the typed forms' trait,
//! [`TypedTransform`](crate::typed::TypedTransform), which each kind's typed
//! form implements. Their methods that dispatch over the list are above,
//! in the crate's `transform` module.
//!
//! A kind's module holds all of its behaviour, as a transform's struct does
//! in CK Tile's `coordinate_transform.hpp`:
//!
//! - its formulas, as `const fn`s over plain integers: the single
//!   definition of its semantics, which compile-time evaluation, runtime
//!   evaluation, the typed forms and the runtime descriptors all go
//!   through;
//! - its lowering into the compiled form's steps;
//! - its runtime parameters, `<Kind>Params` (re-exported here:
//!   [`PadParams`], [`MergeParams`], ...), with the validating constructor
//!   on [`Transform`] and the methods
//!   [`Transform`]'s methods call through the list (its
//!   row, dimension counts, binding, evaluators, vector rule, random draw);
//! - its typed form for kernel code, in its `typed` submodule: the struct
//!   named as the kind (`pad::typed::Pad`) and CK Tile's `make_*_transform`,
//!   re-exported in [`typed`](crate::typed).
//!
//! So one name means one thing: [`Kind::Xor`](crate::Kind::Xor) is which
//! kind a transform is, [`XorParams`] the runtime parameters that
//! [`Params::Xor`](crate::Params::Xor) holds, and
//! [`typed::Xor`](crate::typed::Xor) the typed form.
//! [`Draw`] is what a kind draws a random example of itself from;
//! `kit` holds the constructors' shared checks, `row` what a kind's row is
//! written with, and `forms` what its typed form is written with.
//!
//! Conventions (CK Tile's): merge and unmerge are row-major (the last
//! dimension is fastest); division truncates toward zero, as C's `/`.
//! Arithmetic wraps instead of panicking: for coordinates inside the lengths a
//! descriptor was validated with, no intermediate value can overflow, and for
//! coordinates outside them the result is unspecified but never a panic.
//! A dimension count past [`MAX_DIMS`](crate::MAX_DIMS) reads the whole
//! arrays (see `arity`), so these public helpers are total.

pub mod cyclic_shift;
pub mod draw;
pub mod embed;
pub(crate) mod forms;
pub mod freeze;
pub mod functor;
pub mod indexing;
pub(crate) mod kit;
pub mod merge;
pub mod modulo;
pub mod offset;
pub mod pad;
pub mod pass_through;
pub mod replicate;
pub(crate) mod row;
pub mod slice;
pub mod swizzle;
pub mod unmerge;
pub mod xor;
pub mod xor_no_modulo;

pub(crate) use crate::arith::arity;
pub use crate::arith::{div, div_pow2, rem, rem_pow2};
pub use cyclic_shift::CyclicShiftParams;
pub use draw::Draw;
pub use embed::EmbedParams;
pub use freeze::FreezeParams;
pub use functor::FunctorParams;
pub use indexing::IndexingParams;
pub use merge::MergeParams;
pub use modulo::ModuloParams;
pub use offset::OffsetParams;
pub use pad::{LeftPadParams, PadParams, RightPadParams};
pub use pass_through::PassThroughParams;
pub use replicate::{InsertParams, ReplicateParams};
pub use slice::SliceParams;
pub use swizzle::SwizzleParams;
pub use unmerge::UnmergeParams;
pub use xor::XorParams;
pub use xor_no_modulo::XorNoModuloParams;

/// What the rows of the list of kinds ([`kind_list!`](crate::list)) stand
/// for, here where the kinds' modules are in scope: the rules the list is
/// handed to (`kind_list!([kind_rules] @rule (args))`).
macro_rules! kind_rules {
    // A `match` over a `Params` value, the same body in every arm.
    (@params ($on:expr, $k:ident => $body:expr) $($kind:ident: $module:ident::$name:ident,)*) => {
        match $on {
            $($crate::Params::$kind($k) => $body,)*
        }
    };
    // A `match` over a `Kind`, the kind's parameters' struct named `$t` in every arm.
    (@kinds ($on:expr, $t:ident => $body:expr) $($kind:ident: $module:ident::$name:ident,)*) => {
        match $on {
            $($crate::Kind::$kind => {
                type $t = $crate::kinds::$module::$name;
                $body
            })*
        }
    };
    // Every kind's typed form, re-exported in `typed` from the kind's
    // module. A module that holds several kinds (`pad`, `replicate`) comes
    // once per kind: its second glob names the same items again.
    (@typed_forms () $($kind:ident: $module:ident::$name:ident,)*) => {
        $(
            #[allow(unused_imports)]
            pub use $crate::kinds::$module::typed::*;
        )*
    };
    // `Params`: one variant per kind, holding its struct.
    (@declare () $($kind:ident: $module:ident::$name:ident,)*) => {
        /// The parameters of one transform, as the validating constructors
        /// stored them: its kind's struct (see [`kinds`](crate::kinds)).
        /// Lists keep their spec order; a swizzle's `len` is 0 until the
        /// transform is bound to its dimension
        /// ([`Transform::bind`](crate::Transform::bind)).
        ///
        /// ```
        /// use cktile_transforms::{kinds::{MergeParams, PadParams}, Params, Transform};
        /// let p = Transform::pad(10, 2, 3).unwrap().params();
        /// assert_eq!(p, Params::Pad(PadParams { len: 10, left: 2, right: 3 }));
        /// let m = Transform::merge(&[4, 8]).unwrap().params();
        /// assert!(matches!(m, Params::Merge(MergeParams { lengths }) if lengths.as_slice() == [4, 8]));
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Params {
            $(
                #[doc = concat!("[`", stringify!($name), "`](crate::kinds::", stringify!($name), ")")]
                $kind($crate::kinds::$module::$name),
            )*
        }

        impl Params {
            /// The kind of these parameters.
            ///
            /// ```
            /// use cktile_transforms::{Kind, Transform};
            /// assert_eq!(Transform::xor(64, 8).unwrap().params().kind(), Kind::Xor);
            /// ```
            #[inline]
            pub const fn kind(&self) -> $crate::Kind {
                match self {
                    $(Params::$kind(_) => $crate::Kind::$kind,)*
                }
            }
        }
    };
}
pub(crate) use kind_rules;

/// `match` over a [`Params`](crate::Params) value with one arm per kind,
/// the same body in each: `each_kind!(&self.repr, k => k.num_lower())`
/// binds `k` to the kind's parameters.
macro_rules! each_kind {
    ($on:expr, $k:ident => $body:expr) => {
        $crate::list::kind_list!([$crate::kinds::kind_rules] @params ($on, $k => $body))
    };
}
pub(crate) use each_kind;

/// `match` over a [`Kind`](crate::Kind) with one arm per kind, the same
/// body in each: `each_kind_type!(kind, K => K::ROW)` names the kind's
/// struct `K`.
macro_rules! each_kind_type {
    ($on:expr, $t:ident => $body:expr) => {
        $crate::list::kind_list!([$crate::kinds::kind_rules] @kinds ($on, $t => $body))
    };
}
pub(crate) use each_kind_type;

/// The two types that hold any kind, declared here, beside the kinds'
/// modules, since both hold the kinds' structs and each kind's
/// constructor, binding and draw make one: [`Params`](crate::Params), from
/// the list, and [`Transform`](crate::Transform), validated `Params`. Both
/// are re-exported at the crate root; their methods that dispatch over the
/// list are above, in the crate's `transform` module.
pub(crate) mod any {
    crate::list::kind_list!([kind_rules] @declare ());

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
        /// The validated parameters (read by the dispatch in `transform`).
        pub(crate) repr: Params,
    }

    impl Transform {
        /// A transform of validated parameters (the kinds' constructors'
        /// last step).
        #[cfg_attr(always_inline, inline(always))]
        #[cfg_attr(not(always_inline), inline)]
        pub(crate) const fn wrap(repr: Params) -> Transform {
            Transform { repr }
        }
    }
}
pub(crate) use any::Transform;

#[cfg(test)]
mod tests {
    use super::{div, div_pow2, rem, rem_pow2};

    /// The shift forms equal the divisions for every shift a length can
    /// have, at the edges of the 64-bit range and around every multiple.
    #[test]
    fn pow2_forms_equal_the_divisions() {
        for shift in 0..=62u32 {
            let d = 1i64 << shift;
            let edges = [i64::MIN, i64::MIN + 1, i64::MAX, i64::MAX - 1, 0, 1, -1];
            let near = [d, -d, d.wrapping_mul(3), d.wrapping_mul(-3), d.wrapping_mul(5) / 2]
                .into_iter()
                .flat_map(|base| (-2..=2).map(move |e| base.wrapping_add(e)));
            for a in edges.into_iter().chain(near) {
                assert_eq!(div_pow2(a, shift), div(a, d), "{a} / 2^{shift}");
                assert_eq!(rem_pow2(a, shift), rem(a, d), "{a} % 2^{shift}");
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn pow2_forms_equal_the_divisions_anywhere(a in proptest::num::i64::ANY, shift in 0u32..=62) {
            proptest::prop_assert_eq!(div_pow2(a, shift), div(a, 1i64 << shift));
            proptest::prop_assert_eq!(rem_pow2(a, shift), rem(a, 1i64 << shift));
        }
    }
}
