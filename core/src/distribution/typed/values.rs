//! The numbers of a typed encoding as compile-time values: [`EncodingSource`]
//! (where they are read from) and the zero-sized [`Value`]s made of them
//! ([`RhLength`], [`PHidden`], ...), of which
//! [`tile_distribution_encoding!`](crate::tile_distribution_encoding)'s
//! adaptor types ([`shape`](crate::distribution::typed::shape)) are built. Beneath both the
//! shapes and the typed distributions ([`typed`](crate::distribution::typed), which
//! re-exports them).

use crate::Value;
use crate::distribution::Encoding;
use core::fmt;
use core::marker::PhantomData;

/// Where the value types of a typed encoding's adaptor ([`RhLength`],
/// [`PHidden`], ...) read its encoding: the same constant as
/// [`TileEncoding::ENCODING`](crate::distribution::typed::TileEncoding::ENCODING), in a trait of its own so that an encoding
/// built from others ([`EmbedEncoding`](crate::distribution::EmbedEncoding)) has it without first being
/// a whole [`TileEncoding`](crate::distribution::typed::TileEncoding) (whose adaptor type is made of those values).
/// [`tile_distribution_encoding!`](crate::tile_distribution_encoding)
/// implements both.
///
/// ```
/// use cktile_core::distribution::typed::{EncodingSource, TileEncoding};
/// cktile_core::tile_distribution_encoding! {
///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
/// }
/// assert_eq!(<Rows as EncodingSource>::SOURCE, <Rows as TileEncoding>::ENCODING);
/// ```
pub trait EncodingSource {
    /// The encoding, validated (a compile error when it is malformed).
    const SOURCE: Encoding;
}

/// Declares a zero-sized compile-time [`Value`](crate::Value) read off a
/// typed encoding's constant: what the types
/// [`tile_distribution_encoding!`](crate::tile_distribution_encoding)
/// declares are made of. Reading the lengths and ids from
/// [`TileEncoding::ENCODING`](crate::distribution::typed::TileEncoding::ENCODING) (an associated constant, which stable Rust
/// lets a generic impl compute) rather than spelling them as
/// `Number<{ .. }>` (which it does not) is what lets an encoding be generic
/// over a policy's const parameters.
macro_rules! encoding_value {
    ($($(#[$meta:meta])* $name:ident<$($param:ident),+> = |$e:ident| $value:expr;)+) => {$(
        $(#[$meta])*
        pub struct $name<E, $(const $param: usize),+>(PhantomData<E>);

        impl<E, $(const $param: usize),+> Clone for $name<E, $($param),+> {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<E, $(const $param: usize),+> Copy for $name<E, $($param),+> {}
        impl<E, $(const $param: usize),+> Default for $name<E, $($param),+> {
            fn default() -> Self {
                $name(PhantomData)
            }
        }
        impl<E, $(const $param: usize),+> PartialEq for $name<E, $($param),+> {
            fn eq(&self, _: &Self) -> bool {
                true
            }
        }
        impl<E, $(const $param: usize),+> Eq for $name<E, $($param),+> {}
        impl<E, $(const $param: usize),+> core::hash::Hash for $name<E, $($param),+> {
            fn hash<H: core::hash::Hasher>(&self, _: &mut H) {}
        }
        impl<E, $(const $param: usize),+> fmt::Debug for $name<E, $($param),+> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(stringify!($name))
            }
        }
        impl<E: EncodingSource, $(const $param: usize),+> Value for $name<E, $($param),+> {
            const STATIC: Option<usize> = Some({
                let $e = &E::SOURCE;
                $value
            });
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn get(self) -> usize {
                const {
                    let $e = &E::SOURCE;
                    $value
                }
            }
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn from_runtime(_: usize) -> Self {
                $name(PhantomData)
            }
        }
    )+};
}

encoding_value! {
    /// The length of R/H component `(MAJOR, MINOR)` of encoding `E`
    /// ([`Encoding::rh_length`]).
    ///
    /// ```
    /// use cktile_core::distribution::typed::RhLength;
    /// cktile_core::tile_distribution_encoding! {
    ///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
    /// }
    /// assert_eq!(<RhLength<Rows, 1, 1> as cktile_core::Value>::STATIC, Some(16));
    /// ```
    RhLength<MAJOR, MINOR> = |e| e.rh_length(MAJOR, MINOR);
    /// The hidden id of R/H component `(MAJOR, MINOR)` of encoding `E`
    /// ([`Encoding::rh_hidden`]).
    ///
    /// ```
    /// use cktile_core::distribution::typed::RhHidden;
    /// cktile_core::tile_distribution_encoding! {
    ///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
    /// }
    /// assert_eq!(<RhHidden<Rows, 1, 1> as cktile_core::Value>::STATIC, Some(2));
    /// ```
    RhHidden<MAJOR, MINOR> = |e| e.rh_hidden(MAJOR, MINOR);
    /// The hidden id of P dimension `P` of encoding `E` ([`Encoding::p_hidden`]).
    ///
    /// ```
    /// use cktile_core::distribution::typed::PHidden;
    /// cktile_core::tile_distribution_encoding! {
    ///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
    /// }
    /// assert_eq!(<PHidden<Rows, 0> as cktile_core::Value>::STATIC, Some(3));
    /// ```
    PHidden<P> = |e| e.p_hidden(P);
    /// The length of the `J`-th component P `P` of encoding `E` merges (0
    /// past its list).
    ///
    /// ```
    /// use cktile_core::distribution::typed::PRhLength;
    /// cktile_core::tile_distribution_encoding! {
    ///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
    /// }
    /// assert_eq!(<PRhLength<Rows, 0, 0> as cktile_core::Value>::STATIC, Some(16));
    /// ```
    PRhLength<P, J> = |e| {
        let (major, minor) = e.p_to_rh(P);
        if J < major.len() { e.rh_length(major.get(J) as usize, minor.get(J) as usize) } else { 0 }
    };
    /// The hidden id of the `J`-th component P `P` of encoding `E` merges.
    ///
    /// ```
    /// use cktile_core::distribution::typed::PRhHidden;
    /// cktile_core::tile_distribution_encoding! {
    ///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
    /// }
    /// assert_eq!(<PRhHidden<Rows, 0, 0> as cktile_core::Value>::STATIC, Some(2));
    /// ```
    PRhHidden<P, J> = |e| {
        let (major, minor) = e.p_to_rh(P);
        if J < major.len() { e.rh_hidden(major.get(J) as usize, minor.get(J) as usize) } else { 0 }
    };
    /// The length of the component Y `Y` of encoding `E` names (0 past the Ys).
    ///
    /// ```
    /// use cktile_core::distribution::typed::YRhLength;
    /// cktile_core::tile_distribution_encoding! {
    ///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
    /// }
    /// assert_eq!(<YRhLength<Rows, 0> as cktile_core::Value>::STATIC, Some(4));
    /// ```
    YRhLength<Y> = |e| {
        let (major, minor) = e.y_to_rh();
        if Y < major.len() { e.rh_length(major.get(Y) as usize, minor.get(Y) as usize) } else { 0 }
    };
    /// The hidden id of top dimension `I` of encoding `E`'s adaptor: P `I`'s
    /// for the first `ndim_p`, then the component of Y `I - ndim_p`.
    ///
    /// ```
    /// use cktile_core::distribution::typed::TopHidden;
    /// cktile_core::tile_distribution_encoding! {
    ///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
    /// }
    /// // The P is hidden 3, Y 0 names H (1, 0): hidden 1.
    /// assert_eq!((<TopHidden<Rows, 0> as cktile_core::Value>::STATIC, <TopHidden<Rows, 1> as cktile_core::Value>::STATIC), (Some(3), Some(1)));
    /// ```
    TopHidden<I> = |e| {
        if I < e.ndim_p() {
            e.p_hidden(I)
        } else {
            let (major, minor) = e.y_to_rh();
            let y = I - e.ndim_p();
            if y < major.len() { e.rh_hidden(major.get(y) as usize, minor.get(y) as usize) } else { 0 }
        }
    };
    /// The length of X dimension `X` of encoding `E`: the product of its H
    /// lengths (saturating; a valid encoding's fits).
    ///
    /// ```
    /// use cktile_core::distribution::typed::XLength;
    /// cktile_core::tile_distribution_encoding! {
    ///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
    /// }
    /// assert_eq!(<XLength<Rows, 0> as cktile_core::Value>::STATIC, Some(64));
    /// ```
    XLength<X> = |e| {
        let hs = e.hs_lengths(X);
        let mut n: usize = 1;
        let mut i = 0;
        while i < hs.len() {
            n = n.saturating_mul(hs.get(i) as usize);
            i += 1;
        }
        n
    };
}
