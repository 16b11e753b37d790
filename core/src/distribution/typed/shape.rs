//! The structure of a typed encoding's adaptor, built from its counts.
//!
//! A [`TileEncoding`](crate::distribution::typed::TileEncoding)'s `ps_ys_to_xs` adaptor
//! has one transform per group of its encoding: a replicate of the R
//! components (when there are any), an unmerge per X into its H
//! components, a merge per P over the components it names; its top is the
//! Ps followed by the Ys. Every length and hidden id in it is a value read
//! off the encoding's constant by position (the `j`-th H of X `x`, the
//! `j`-th component of P `p`, the `y`-th Y: [`RhLength`], [`PRhLength`],
//! [`YRhLength`], ...), so the adaptor's type depends on the counts alone:
//! how many R components, how many H per X, how many components per P, how
//! many Ys. A [`Shape`] holds those counts as type-level integers, and
//! [`AdaptorShape`] turns them into the adaptor and `ys_to_d` types.
//!
//! [`tile_distribution_encoding!`](crate::tile_distribution_encoding)
//! counts its lists into a `Shape`; [`EmbedEncoding`](crate::distribution::embed::EmbedEncoding) adds two
//! encodings' shapes ([`EmbedShape`]: R, H and Y counts summed, P lists
//! concatenated), which is what lets an embedded encoding be a type. A
//! shape names 1 to 4 X dimensions and 0 to 4 Ps, with at most 8 R or H
//! components per group, 8 components per P and 8 Ys;
//! [`TileDistribution`](crate::distribution::typed::TileDistribution) checks at compile
//! time that the counts are the encoding's.
//!
//! ```
//! use cktile_core::distribution::typed::shape::{AdaptorShape, Shape, ShapeCounts};
//! use cktile_core::distribution::typed::TileEncoding;
//! use typenum::{U0, U1, U2};
//! cktile_core::tile_distribution_encoding! {
//!     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16], [4]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1, 2], ys_to_rhs_minor: [0, 0] }
//! }
//! // No R; X 0 has two H, X 1 one; one P over one component; two Ys.
//! let _: Shape<U0, (U2, U1), (U1,), U2> = <Rows as TileEncoding>::Shape::default();
//! assert_eq!(<Rows as TileEncoding>::Shape::COUNTS.ys, 2);
//! ```

use crate::distribution::typed::values::{
    PHidden, PRhHidden, PRhLength, RhHidden, RhLength, TopHidden, XLength, YRhLength,
};
use crate::typed::{HiddenAdaptor, Packed};
use cktile_transforms::typed::{Merge, Replicate, Unmerge};
use cktile_transforms::{MAX_DIMS, Number, Values};
use core::marker::PhantomData;
use core::ops::Add;
use typenum::{Bit, Sum, U0, UInt, Unsigned};

/// A family of types indexed by position: `At<I>` is its `I`-th member.
///
/// ```
/// use cktile_core::distribution::typed::shape::{Indexed, RhLengths};
/// cktile_core::tile_distribution_encoding! {
///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
/// }
/// // The second H of X 0 (major 1) has length 16.
/// assert_eq!(<<RhLengths<Rows, 1> as Indexed>::At<1> as cktile_core::Value>::STATIC, Some(16));
/// ```
pub trait Indexed {
    /// The member at position `I`.
    type At<const I: usize>;
}

/// The tuple of a family's first `N` members, `N` a type-level integer
/// (`typenum`'s `U0` to `U8`).
///
/// ```
/// use cktile_core::distribution::typed::shape::{RhLengths, TupleOf};
/// use cktile_core::distribution::typed::RhLength;
/// cktile_core::tile_distribution_encoding! {
///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
/// }
/// let _: (RhLength<Rows, 1, 0>, RhLength<Rows, 1, 1>) = <typenum::U2 as TupleOf<RhLengths<Rows, 1>>>::Tuple::default();
/// ```
#[diagnostic::on_unimplemented(
    message = "a typed encoding has at most 8 components in each R, H or P list and at most 8 Ys",
    label = "a list of `{Self}` entries"
)]
pub trait TupleOf<F: Indexed> {
    /// `(F::At<0>, ..., F::At<N - 1>)`.
    type Tuple;
}

macro_rules! tuple_of {
    ($($n:ident => ($($i:literal),*);)*) => {$(
        impl<F: Indexed> TupleOf<F> for typenum::$n {
            type Tuple = ($(F::At<$i>,)*);
        }
    )*};
}

tuple_of! {
    U0 => ();
    U1 => (0);
    U2 => (0, 1);
    U3 => (0, 1, 2);
    U4 => (0, 1, 2, 3);
    U5 => (0, 1, 2, 3, 4);
    U6 => (0, 1, 2, 3, 4, 5);
    U7 => (0, 1, 2, 3, 4, 5, 6);
    U8 => (0, 1, 2, 3, 4, 5, 6, 7);
}

/// Declares a [`Indexed`] of zero-sized position types over encoding `E`.
macro_rules! indexed {
    ($($(#[$meta:meta])* $name:ident<$($param:ident),*> => $member:ident<$($arg:tt),*>;)+) => {$(
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name<E, $(const $param: usize),*>(PhantomData<E>);

        impl<E, $(const $param: usize),*> Indexed for $name<E, $($param),*> {
            type At<const I: usize> = $member<E, $($arg),*>;
        }
    )+};
}

indexed! {
    /// The lengths of R/H group `MAJOR` (0: R, `x + 1`: the H of X `x`), by position.
    ///
    /// ```
    /// use cktile_core::distribution::typed::shape::{Indexed, RhLengths};
    /// use cktile_core::distribution::typed::RhLength;
    /// cktile_core::tile_distribution_encoding! {
    ///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
    /// }
    /// let _: RhLength<Rows, 1, 0> = <RhLengths<Rows, 1> as Indexed>::At::<0>::default();
    /// ```
    RhLengths<MAJOR> => RhLength<MAJOR, I>;
    /// The hidden ids of R/H group `MAJOR`, by position.
    ///
    /// ```
    /// use cktile_core::distribution::typed::shape::{Indexed, RhHiddens};
    /// use cktile_core::distribution::typed::RhHidden;
    /// cktile_core::tile_distribution_encoding! {
    ///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
    /// }
    /// let _: RhHidden<Rows, 1, 1> = <RhHiddens<Rows, 1> as Indexed>::At::<1>::default();
    /// ```
    RhHiddens<MAJOR> => RhHidden<MAJOR, I>;
    /// The lengths of the components P `P` merges, by position.
    ///
    /// ```
    /// use cktile_core::distribution::typed::shape::{Indexed, PRhLengths};
    /// use cktile_core::distribution::typed::PRhLength;
    /// cktile_core::tile_distribution_encoding! {
    ///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
    /// }
    /// let _: PRhLength<Rows, 0, 0> = <PRhLengths<Rows, 0> as Indexed>::At::<0>::default();
    /// ```
    PRhLengths<P> => PRhLength<P, I>;
    /// The hidden ids of the components P `P` merges, by position.
    ///
    /// ```
    /// use cktile_core::distribution::typed::shape::{Indexed, PRhHiddens};
    /// use cktile_core::distribution::typed::PRhHidden;
    /// cktile_core::tile_distribution_encoding! {
    ///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
    /// }
    /// let _: PRhHidden<Rows, 0, 0> = <PRhHiddens<Rows, 0> as Indexed>::At::<0>::default();
    /// ```
    PRhHiddens<P> => PRhHidden<P, I>;
    /// The lengths of the components the Ys name, by Y.
    ///
    /// ```
    /// use cktile_core::distribution::typed::shape::{Indexed, YLengths};
    /// use cktile_core::distribution::typed::YRhLength;
    /// cktile_core::tile_distribution_encoding! {
    ///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
    /// }
    /// let _: YRhLength<Rows, 0> = <YLengths<Rows> as Indexed>::At::<0>::default();
    /// ```
    YLengths<> => YRhLength<I>;
    /// The adaptor's top hidden ids: the Ps', then the Ys' components'.
    ///
    /// ```
    /// use cktile_core::distribution::typed::shape::{Indexed, TopHiddens};
    /// use cktile_core::distribution::typed::TopHidden;
    /// cktile_core::tile_distribution_encoding! {
    ///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
    /// }
    /// let _: TopHidden<Rows, 1> = <TopHiddens<Rows> as Indexed>::At::<1>::default();
    /// ```
    TopHiddens<> => TopHidden<I>;
}

/// The counts of an encoding's groups, as type-level integers: `R`
/// components, `H` (a tuple: the H count of each X), `P` (a tuple: the
/// component count of each P) and `Y` Ys. Zero-sized.
///
/// ```
/// use cktile_core::distribution::typed::shape::{Shape, ShapeCounts};
/// use typenum::{U1, U2, U3};
/// type S = Shape<U1, (U3, U2), (U1, U2), U2>;
/// assert_eq!((S::COUNTS.rs, S::COUNTS.xs, S::COUNTS.ps, S::COUNTS.ys), (1, 2, 2, 2));
/// assert_eq!((S::COUNTS.hs[0], S::COUNTS.hs[1], S::COUNTS.p_components[1]), (3, 2, 2));
/// ```
pub struct Shape<R, H, P, Y>(PhantomData<(R, H, P, Y)>);

impl<R, H, P, Y> Default for Shape<R, H, P, Y> {
    fn default() -> Self {
        Shape(PhantomData)
    }
}

/// A shape's counts as numbers, to check against an encoding.
///
/// ```
/// use cktile_core::distribution::typed::shape::EncodingCounts;
/// let c = EncodingCounts { rs: 0, hs: [1; cktile_core::MAX_DIMS], xs: 1, p_components: [1; cktile_core::MAX_DIMS], ps: 1, ys: 1 };
/// assert_eq!(c.xs, 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncodingCounts {
    /// R components.
    pub rs: usize,
    /// H components of each X (the first `xs` entries).
    pub hs: [usize; MAX_DIMS],
    /// X dimensions.
    pub xs: usize,
    /// Components of each P (the first `ps` entries).
    pub p_components: [usize; MAX_DIMS],
    /// Ps.
    pub ps: usize,
    /// Ys.
    pub ys: usize,
}

/// A tuple of type-level integers as numbers.
///
/// ```
/// use cktile_core::distribution::typed::shape::CountList;
/// use typenum::{U2, U3};
/// assert_eq!(<(U3, U2) as CountList>::LEN, 2);
/// assert_eq!(<(U3, U2) as CountList>::COUNTS[..2], [3, 2]);
/// ```
pub trait CountList {
    /// The tuple's length.
    const LEN: usize;
    /// Its entries, then zeros.
    const COUNTS: [usize; MAX_DIMS];
}

macro_rules! count_list {
    ($(($($t:ident),*);)*) => {$(
        impl<$($t: Unsigned),*> CountList for ($($t,)*) {
            const LEN: usize = <[usize]>::len(&[$($t::USIZE),*]);
            const COUNTS: [usize; MAX_DIMS] = {
                let given: &[usize] = &[$($t::USIZE),*];
                let mut out = [0; MAX_DIMS];
                let mut i = 0;
                while i < given.len() && i < MAX_DIMS {
                    out[i] = given[i];
                    i += 1;
                }
                out
            };
        }
    )*};
}

count_list! {
    ();
    (A);
    (A, B);
    (A, B, C);
    (A, B, C, D);
    (A, B, C, D, E);
    (A, B, C, D, E, F);
    (A, B, C, D, E, F, G);
    (A, B, C, D, E, F, G, H);
}

/// A [`Shape`]'s counts as numbers.
///
/// ```
/// use cktile_core::distribution::typed::shape::{Shape, ShapeCounts};
/// use typenum::{U0, U1, U2};
/// assert_eq!(Shape::<U0, (U2,), (U1,), U1>::COUNTS.hs[0], 2);
/// ```
pub trait ShapeCounts {
    /// The counts.
    const COUNTS: EncodingCounts;
}

impl<R: Unsigned, H: CountList, P: CountList, Y: Unsigned> ShapeCounts for Shape<R, H, P, Y> {
    const COUNTS: EncodingCounts =
        EncodingCounts { rs: R::USIZE, hs: H::COUNTS, xs: H::LEN, p_components: P::COUNTS, ps: P::LEN, ys: Y::USIZE };
}

/// The adaptor and `ys_to_d` types of encoding `E` with this shape: the
/// replicate (when R has components), an unmerge per X, a merge per P;
/// the Ys' lengths packed.
///
/// ```
/// use cktile_core::distribution::typed::shape::AdaptorShape;
/// use cktile_core::distribution::typed::TileEncoding;
/// use cktile_core::typed::TensorAdaptor;
/// cktile_core::tile_distribution_encoding! {
///     struct Rows { rs_lengths: [], hs_lengthss: [[4, 16]], ps_to_rhss_major: [[1]], ps_to_rhss_minor: [[1]], ys_to_rhs_major: [1], ys_to_rhs_minor: [0] }
/// }
/// type A = <<Rows as TileEncoding>::Shape as AdaptorShape<Rows>>::PsYsToXs;
/// // (lane 5, Y 2) -> X 2 * 16 + 5.
/// assert_eq!(TensorAdaptor::<A>::ADAPTOR.calculate_bottom_index(&[5, 2])?.as_slice(), &[37]);
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "a typed encoding has 1 to 4 X dimensions and at most 4 Ps",
    label = "the encoding's counts are `{Self}`"
)]
pub trait AdaptorShape<E> {
    /// The `ps_ys_to_xs` adaptor's chain.
    type PsYsToXs;
    /// The `ys_to_d` descriptor's chain.
    type YsToD;
}

/// One shape's two impls: without R components, and with them.
macro_rules! shape {
    ([$(($x:literal, $major:literal, $h:ident)),+] ($np:ident [$(($p:literal, $a:ident)),*])) => {
        impl<E, $($h,)+ $($a,)* Y> AdaptorShape<E> for Shape<U0, ($($h,)+), ($($a,)*), Y>
        where
            $($h: TupleOf<RhLengths<E, $major>> + TupleOf<RhHiddens<E, $major>>,)+
            $(<$h as TupleOf<RhLengths<E, $major>>>::Tuple: Values,)+
            $($a: TupleOf<PRhLengths<E, $p>> + TupleOf<PRhHiddens<E, $p>>,)*
            $(<$a as TupleOf<PRhLengths<E, $p>>>::Tuple: Values,)*
            typenum::$np: Add<Y>,
            Sum<typenum::$np, Y>: TupleOf<TopHiddens<E>>,
            Y: TupleOf<YLengths<E>>,
            <Y as TupleOf<YLengths<E>>>::Tuple: Values,
        {
            type PsYsToXs = HiddenAdaptor<
                ($(XLength<E, $x>,)+),
                (
                    $(Unmerge<<$h as TupleOf<RhLengths<E, $major>>>::Tuple>,)+
                    $(Merge<<$a as TupleOf<PRhLengths<E, $p>>>::Tuple>,)*
                ),
                ($((Number<$x>,),)+ $(<$a as TupleOf<PRhHiddens<E, $p>>>::Tuple,)*),
                ($(<$h as TupleOf<RhHiddens<E, $major>>>::Tuple,)+ $((PHidden<E, $p>,),)*),
                ($(Number<$x>,)+),
                <Sum<typenum::$np, Y> as TupleOf<TopHiddens<E>>>::Tuple,
            >;
            type YsToD = Packed<<Y as TupleOf<YLengths<E>>>::Tuple>;
        }

        impl<E, RU: Unsigned, RB: Bit, $($h,)+ $($a,)* Y> AdaptorShape<E> for Shape<UInt<RU, RB>, ($($h,)+), ($($a,)*), Y>
        where
            UInt<RU, RB>: TupleOf<RhLengths<E, 0>> + TupleOf<RhHiddens<E, 0>>,
            <UInt<RU, RB> as TupleOf<RhLengths<E, 0>>>::Tuple: Values,
            $($h: TupleOf<RhLengths<E, $major>> + TupleOf<RhHiddens<E, $major>>,)+
            $(<$h as TupleOf<RhLengths<E, $major>>>::Tuple: Values,)+
            $($a: TupleOf<PRhLengths<E, $p>> + TupleOf<PRhHiddens<E, $p>>,)*
            $(<$a as TupleOf<PRhLengths<E, $p>>>::Tuple: Values,)*
            typenum::$np: Add<Y>,
            Sum<typenum::$np, Y>: TupleOf<TopHiddens<E>>,
            Y: TupleOf<YLengths<E>>,
            <Y as TupleOf<YLengths<E>>>::Tuple: Values,
        {
            type PsYsToXs = HiddenAdaptor<
                ($(XLength<E, $x>,)+),
                (
                    Replicate<<UInt<RU, RB> as TupleOf<RhLengths<E, 0>>>::Tuple>,
                    $(Unmerge<<$h as TupleOf<RhLengths<E, $major>>>::Tuple>,)+
                    $(Merge<<$a as TupleOf<PRhLengths<E, $p>>>::Tuple>,)*
                ),
                ((), $((Number<$x>,),)+ $(<$a as TupleOf<PRhHiddens<E, $p>>>::Tuple,)*),
                (
                    <UInt<RU, RB> as TupleOf<RhHiddens<E, 0>>>::Tuple,
                    $(<$h as TupleOf<RhHiddens<E, $major>>>::Tuple,)+
                    $((PHidden<E, $p>,),)*
                ),
                ($(Number<$x>,)+),
                <Sum<typenum::$np, Y> as TupleOf<TopHiddens<E>>>::Tuple,
            >;
            type YsToD = Packed<<Y as TupleOf<YLengths<E>>>::Tuple>;
        }
    };
}

/// Every (X list, P list) pair's [`shape!`].
macro_rules! shapes {
    (xs: [$($xs:tt),+] ps: $ps:tt) => {
        $(shapes!(@x $xs $ps);)+
    };
    (@x $xs:tt [$($ps:tt),+]) => {
        $(shape!($xs $ps);)+
    };
}

shapes! {
    xs: [
        [(0, 1, H0)],
        [(0, 1, H0), (1, 2, H1)],
        [(0, 1, H0), (1, 2, H1), (2, 3, H2)],
        [(0, 1, H0), (1, 2, H1), (2, 3, H2), (3, 4, H3)]
    ]
    ps: [
        (U0 []),
        (U1 [(0, A0)]),
        (U2 [(0, A0), (1, A1)]),
        (U3 [(0, A0), (1, A1), (2, A2)]),
        (U4 [(0, A0), (1, A1), (2, A2), (3, A3)])
    ]
}

/// Tuples of type-level integers added entry by entry (the H counts of
/// an embedded encoding: outer and inner, X by X).
///
/// ```
/// use cktile_core::distribution::typed::shape::ZipAdd;
/// use typenum::{U1, U2, U3, U4};
/// let _: (U4, U3) = <(U3, U1) as ZipAdd<(U1, U2)>>::Output::default();
/// ```
#[diagnostic::on_unimplemented(
    message = "an embedded encoding's outer and inner encodings must have the same number of X dimensions (at most 4)",
    label = "the X dimensions of the outer encoding's H lists, `{Self}`, and the inner's, `{Rhs}`, differ in number"
)]
pub trait ZipAdd<Rhs> {
    /// The sums.
    type Output;
}

macro_rules! zip_add {
    ($(($($a:ident + $b:ident),+);)*) => {$(
        impl<$($a: Add<$b>, $b),+> ZipAdd<($($b,)+)> for ($($a,)+) {
            type Output = ($(Sum<$a, $b>,)+);
        }
    )*};
}

zip_add! {
    (A0 + B0);
    (A0 + B0, A1 + B1);
    (A0 + B0, A1 + B1, A2 + B2);
    (A0 + B0, A1 + B1, A2 + B2, A3 + B3);
}

/// Two tuples one after the other (the P lists of an embedded encoding).
///
/// ```
/// use cktile_core::distribution::typed::shape::Concat;
/// use typenum::{U1, U2, U3};
/// let _: (U1, U2, U3) = <(U1,) as Concat<(U2, U3)>>::Output::default();
/// ```
#[diagnostic::on_unimplemented(
    message = "a typed encoding has at most 4 Ps: an embedded encoding's outer and inner Ps together are more",
    label = "the outer encoding's P lists are `{Self}`, the inner's `{Rhs}`"
)]
pub trait Concat<Rhs> {
    /// `self`'s entries, then `Rhs`'s.
    type Output;
}

macro_rules! concat_impls {
    (lhs: [$($l:tt),+] rhs: $r:tt) => {
        $(concat_impls!(@l $l $r);)+
    };
    (@l $l:tt [$($r:tt),+]) => {
        $(concat_impls!(@impl $l $r);)+
    };
    (@impl ($($a:ident),*) ($($b:ident),*)) => {
        impl<$($a,)* $($b),*> Concat<($($b,)*)> for ($($a,)*) {
            type Output = ($($a,)* $($b,)*);
        }
    };
}

concat_impls! {
    lhs: [(), (A0), (A0, A1), (A0, A1, A2), (A0, A1, A2, A3)]
    rhs: [(), (B0), (B0, B1), (B0, B1, B2), (B0, B1, B2, B3)]
}

/// The shape of an inner encoding embedded in one of this shape
/// ([`embed_encoding`](crate::distribution::embed::embed_encoding)'s lists): R, each X's H and Y counts
/// summed, the inner Ps after the outer ones.
///
/// ```
/// use cktile_core::distribution::typed::shape::{EmbedShape, Shape};
/// use typenum::{U0, U1, U2, U3};
/// type Outer = Shape<U1, (U2, U1), (U2,), U2>;
/// type Inner = Shape<U0, (U1, U2), (U2,), U1>;
/// let _: Shape<U1, (U3, U3), (U2, U2), U3> = <Outer as EmbedShape<Inner>>::Output::default();
/// ```
pub trait EmbedShape<Inner> {
    /// The embedded encoding's shape.
    type Output;
}

impl<R1, H1, P1, Y1, R2, H2, P2, Y2> EmbedShape<Shape<R2, H2, P2, Y2>> for Shape<R1, H1, P1, Y1>
where
    R1: Add<R2>,
    H1: ZipAdd<H2>,
    P1: Concat<P2>,
    Y1: Add<Y2>,
{
    type Output = Shape<Sum<R1, R2>, <H1 as ZipAdd<H2>>::Output, <P1 as Concat<P2>>::Output, Sum<Y1, Y2>>;
}
