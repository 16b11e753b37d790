//! The one list of transform kinds, [`kind_list!`], and what it declares
//! beneath everything else: [`Kind`], which kind a transform is (the
//! messages name one).
//!
//! The list is data: each kind's variant with its module in
//! [`kinds`](crate::kinds) and the parameters' struct there. This module
//! reads none of it but the variants' names; everything else the list
//! generates is generated where the kinds are in scope, by the rules that
//! ask for it: `Params` and the `match`es over kinds
//! (`kinds::kind_rules!`, through `each_kind!` and `each_kind_type!`), and
//! the typed forms' re-exports in [`typed`](crate::typed). Adding a kind is
//! its module in `kinds/`, its `pub mod` and `pub use` lines there, and its
//! row here, which `scripts/scratch-kind.sh` checks.

/// The one list of transform kinds, in the order the spec grammar lists
/// them: each [`Kind`] variant with its module of
/// [`kinds`](crate::kinds) and the parameters' struct there that holds all
/// of the kind's behaviour (its parameters, checks, formulas, lowering,
/// vector rule, table row and random draw).
///
/// `kind_list!([RULES] ARGS)` invokes the macro `RULES` with `ARGS`
/// followed by the rows, `Kind: module::KindParams,` each: the rules, not
/// the list, name what the rows stand for (the modules resolve where the
/// rules expand).
macro_rules! kind_list {
    ([$($rules:tt)*] $($args:tt)*) => {
        $($rules)*! { $($args)*
            PassThrough: pass_through::PassThroughParams,
            Pad: pad::PadParams,
            LeftPad: pad::LeftPadParams,
            RightPad: pad::RightPadParams,
            Embed: embed::EmbedParams,
            Merge: merge::MergeParams,
            Unmerge: unmerge::UnmergeParams,
            Xor: xor::XorParams,
            XorNoModulo: xor_no_modulo::XorNoModuloParams,
            Slice: slice::SliceParams,
            Freeze: freeze::FreezeParams,
            Insert: replicate::InsertParams,
            Replicate: replicate::ReplicateParams,
            Offset: offset::OffsetParams,
            Modulo: modulo::ModuloParams,
            Swizzle: swizzle::SwizzleParams,
            CyclicShift: cyclic_shift::CyclicShiftParams,
            Indexing: indexing::IndexingParams,
            Functor: functor::FunctorParams,
        }
    };
}
pub(crate) use kind_list;

/// The rule that declares [`Kind`] and [`Kind::ALL`] from the list's
/// variants (the rows' modules and structs are not read here).
macro_rules! declare_kind {
    ($($kind:ident: $module:ident::$name:ident,)*) => {
        /// Which transform a [`Transform`](crate::Transform) is: one
        /// variant per kind of the list of kinds, named as the kind's typed
        /// form. Its name, signature and family are its row's, in
        /// [`kinds`](crate::kinds).
        ///
        /// ```
        /// use cktile_transforms::{Kind, Transform};
        /// assert_eq!(Transform::merge(&[4, 8]).unwrap().kind(), Kind::Merge);
        /// assert_eq!(Kind::Merge.name(), "merge");
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Kind {
            $(
                #[doc = concat!("The kind whose parameters are [`", stringify!($name), "`](super::kinds::", stringify!($name), ").")]
                $kind,
            )*
        }

        impl Kind {
            /// Every kind, in the order the spec grammar lists them.
            ///
            /// ```
            /// use cktile_transforms::Kind;
            /// assert!(Kind::ALL.iter().all(|k| Kind::from_name(k.name()) == Some(*k)));
            /// ```
            pub const ALL: [Kind; [$(stringify!($kind)),*].len()] = [$(Kind::$kind),*];
        }
    };
}

kind_list!([declare_kind]);
