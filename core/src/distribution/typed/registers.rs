//! A typed encoding's thread-buffer size as a type: the product of its Y
//! lengths as a `typenum` unsigned integer, which sizes the
//! [`GenericArray`](generic_array::GenericArray) a thread's registers are
//! ([`Registers`](crate::distribution::typed::Registers)).
//!
//! Rust's stable compiler cannot size an array `[T; N]` by an expression
//! of const parameters (`[T; M / 64 * 8]` inside a generic impl), so a
//! generic encoding (CK's policies compute `M0 = MPerBlock / (M2 * M1)`)
//! cannot name its buffer as an array. It can name it as a type: each
//! const parameter becomes a type-level integer (`typenum::U<N>`, through
//! `typenum::Const<N>: ToUInt`), and the arithmetic of the lengths becomes
//! typenum's (`Prod`, `Quot`, ...). The expression is written as a type
//! built from the nodes here ([`Lit`], [`Add`], [`Sub`], [`Mul`], [`Div`],
//! [`Rem`]) and [`Evaluate`] computes it; an impl generic over the const
//! parameters states `Expr: Evaluate` once, and every concrete
//! instantiation resolves it.
//! [`tile_distribution_encoding!`](crate::tile_distribution_encoding)
//! writes the expression from the encoding's own lengths (the product of
//! the entries its Ys name), so no one writes a register count by hand.
//!
//! The arithmetic never fails at the type level: a division or remainder
//! by zero is 0 and a subtraction saturates at 0. A configuration that
//! makes one is refused by the encoding's own checks (its `requires:` or
//! [`Encoding::new`](crate::distribution::Encoding::new)), at compile time, with their
//! messages; and the type-level count is checked against the encoding's
//! Y lengths ([`registers_or_fail`](crate::distribution::typed::registers_or_fail)).
//! A const parameter must be one `typenum::Const` converts: up to 1024,
//! or a power of two or of ten.
//!
//! ```
//! use cktile_core::distribution::typed::registers::{Div, Evaluate, Lit, Mul};
//! use typenum::Unsigned;
//! // M0 * K1 = 128 / (64 / (32 / 8) * (256 / 64)) * 8: 16 registers.
//! type Regs<const BLOCK: usize, const M: usize, const K: usize, const K1: usize> =
//!     Mul<Div<Lit<M>, Mul<Div<Lit<64>, Div<Lit<K>, Lit<K1>>>, Div<Lit<BLOCK>, Lit<64>>>>, Lit<K1>>;
//! assert_eq!(<Regs<256, 128, 32, 8> as Evaluate>::Value::USIZE, 16);
//! assert_eq!(<Regs<256, 256, 64, 8> as Evaluate>::Value::USIZE, 64);
//! ```

use super::RegisterLength;
use core::marker::PhantomData;
use typenum::{Const, Diff, Max, Maximum, Prod, Quot, Sum, ToUInt, U, U1024, UInt, UTerm};

/// A type-level expression of unsigned integers, evaluated to a
/// `typenum` integer that sizes a thread buffer.
///
/// ```
/// use cktile_core::distribution::typed::registers::{Evaluate, Lit, Mul};
/// use typenum::Unsigned;
/// assert_eq!(<Mul<Lit<4>, Lit<8>> as Evaluate>::Value::USIZE, 32);
/// ```
#[diagnostic::on_unimplemented(
    message = "cktile: the thread buffer's size `{Self}` cannot be computed as a type",
    label = "a typed encoding's size is computed from its const parameters",
    note = "each const parameter must be one `typenum::Const` converts: at most 1024, or a power of two or of ten"
)]
pub trait Evaluate {
    /// The value, a type-level integer.
    type Value: RegisterLength;
}

/// The constant `N` (a const parameter or a literal).
///
/// ```
/// use cktile_core::distribution::typed::registers::{Evaluate, Lit};
/// use typenum::Unsigned;
/// assert_eq!(<Lit<48> as Evaluate>::Value::USIZE, 48);
/// ```
pub struct Lit<const N: usize>;

macro_rules! node {
    ($($(#[$meta:meta])* $name:ident;)+) => {$(
        $(#[$meta])*
        pub struct $name<A, B>(PhantomData<(A, B)>);
    )+};
}

node! {
    /// `A + B`.
    ///
    /// ```
    /// use cktile_core::distribution::typed::registers::{Add, Evaluate, Lit};
    /// use typenum::Unsigned;
    /// assert_eq!(<Add<Lit<3>, Lit<4>> as Evaluate>::Value::USIZE, 7);
    /// ```
    Add;
    /// `A - B`, 0 when `B > A` (saturating).
    ///
    /// ```
    /// use cktile_core::distribution::typed::registers::{Evaluate, Lit, Sub};
    /// use typenum::Unsigned;
    /// assert_eq!(<Sub<Lit<9>, Lit<4>> as Evaluate>::Value::USIZE, 5);
    /// assert_eq!(<Sub<Lit<4>, Lit<9>> as Evaluate>::Value::USIZE, 0);
    /// ```
    Sub;
    /// `A * B`.
    ///
    /// ```
    /// use cktile_core::distribution::typed::registers::{Evaluate, Lit, Mul};
    /// use typenum::Unsigned;
    /// assert_eq!(<Mul<Lit<3>, Lit<4>> as Evaluate>::Value::USIZE, 12);
    /// ```
    Mul;
    /// `A / B`, rounded down; 0 when `B` is 0.
    ///
    /// ```
    /// use cktile_core::distribution::typed::registers::{Div, Evaluate, Lit};
    /// use typenum::Unsigned;
    /// assert_eq!(<Div<Lit<9>, Lit<4>> as Evaluate>::Value::USIZE, 2);
    /// assert_eq!(<Div<Lit<9>, Lit<0>> as Evaluate>::Value::USIZE, 0);
    /// ```
    Div;
    /// `A % B`; 0 when `B` is 0.
    ///
    /// ```
    /// use cktile_core::distribution::typed::registers::{Evaluate, Lit, Rem};
    /// use typenum::Unsigned;
    /// assert_eq!(<Rem<Lit<9>, Lit<4>> as Evaluate>::Value::USIZE, 1);
    /// ```
    Rem;
}

/// `Self / R` rounded down, 0 when `R` is 0 (typenum's `Div` has no
/// impl for a zero divisor).
///
/// ```
/// use cktile_core::distribution::typed::registers::DivOrZero;
/// use typenum::{U0, U3, U7, Unsigned};
/// assert_eq!(<<U7 as DivOrZero<U3>>::Output as Unsigned>::USIZE, 2);
/// assert_eq!(<<U7 as DivOrZero<U0>>::Output as Unsigned>::USIZE, 0);
/// ```
pub trait DivOrZero<R> {
    /// The quotient.
    type Output;
}

impl<A> DivOrZero<UTerm> for A {
    type Output = UTerm;
}

impl<A: core::ops::Div<UInt<H, B>>, H, B> DivOrZero<UInt<H, B>> for A {
    type Output = Quot<A, UInt<H, B>>;
}

/// `Self % R`, 0 when `R` is 0.
///
/// ```
/// use cktile_core::distribution::typed::registers::RemOrZero;
/// use typenum::{U0, U3, U7, Unsigned};
/// assert_eq!(<<U7 as RemOrZero<U3>>::Output as Unsigned>::USIZE, 1);
/// assert_eq!(<<U7 as RemOrZero<U0>>::Output as Unsigned>::USIZE, 0);
/// ```
pub trait RemOrZero<R> {
    /// The remainder.
    type Output;
}

impl<A> RemOrZero<UTerm> for A {
    type Output = UTerm;
}

impl<A: core::ops::Rem<UInt<H, B>>, H, B> RemOrZero<UInt<H, B>> for A {
    type Output = typenum::Mod<A, UInt<H, B>>;
}

impl<const N: usize> Evaluate for Lit<N>
where
    Const<N>: ToUInt,
    U<N>: RegisterLength,
{
    type Value = U<N>;
}

impl<A: Evaluate, B: Evaluate> Evaluate for Add<A, B>
where
    A::Value: core::ops::Add<B::Value>,
    Sum<A::Value, B::Value>: RegisterLength,
{
    type Value = Sum<A::Value, B::Value>;
}

impl<A: Evaluate, B: Evaluate> Evaluate for Sub<A, B>
where
    A::Value: Max<B::Value>,
    Maximum<A::Value, B::Value>: core::ops::Sub<B::Value>,
    Diff<Maximum<A::Value, B::Value>, B::Value>: RegisterLength,
{
    type Value = Diff<Maximum<A::Value, B::Value>, B::Value>;
}

impl<A: Evaluate, B: Evaluate> Evaluate for Mul<A, B>
where
    A::Value: core::ops::Mul<B::Value>,
    Prod<A::Value, B::Value>: RegisterLength,
{
    type Value = Prod<A::Value, B::Value>;
}

impl<A: Evaluate, B: Evaluate> Evaluate for Div<A, B>
where
    A::Value: DivOrZero<B::Value>,
    <A::Value as DivOrZero<B::Value>>::Output: RegisterLength,
{
    type Value = <A::Value as DivOrZero<B::Value>>::Output;
}

impl<A: Evaluate, B: Evaluate> Evaluate for Rem<A, B>
where
    A::Value: RemOrZero<B::Value>,
    <A::Value as RemOrZero<B::Value>>::Output: RegisterLength,
{
    type Value = <A::Value as RemOrZero<B::Value>>::Output;
}

/// The type-level integer `HI * 2^20 + MID * 2^10 + LO` (each chunk below
/// 1024): how a concrete encoding names any thread-buffer size below 2^30
/// (`typenum::U<N>` alone covers up to 1024 and the powers of two and ten).
///
/// ```
/// use cktile_core::distribution::typed::registers::{FromChunks, chunk};
/// use typenum::Unsigned;
/// const N: usize = 1536;
/// assert_eq!(<FromChunks<{ chunk(N, 2) }, { chunk(N, 1) }, { chunk(N, 0) }>>::USIZE, 1536);
/// ```
pub type FromChunks<const HI: usize, const MID: usize, const LO: usize> =
    Sum<Prod<Sum<Prod<U<HI>, U1024>, U<MID>>, U1024>, U<LO>>;

/// Chunk `i` (10 bits, `i` = 0 the lowest) of `n`, for [`FromChunks`].
///
/// ```
/// assert_eq!(cktile_core::distribution::typed::registers::chunk(1536, 1), 1);
/// ```
pub const fn chunk(n: usize, i: u32) -> usize {
    match n.checked_shr(10 * i) {
        Some(v) => v & 1023,
        None => 0,
    }
}

/// The register-count expression of a generic
/// [`tile_distribution_encoding!`](crate::tile_distribution_encoding):
/// the product of the entries its Ys name, each entry's expression turned
/// into the [`Evaluate`] nodes. Not for use by hand.
#[doc(hidden)]
#[macro_export]
macro_rules! __cktile_registers {
    // The product of the Y lengths: LISTS is [[rs...] [hs 0...] [hs 1...] ...],
    // then the Ys' majors and minors.
    (@product $lists:tt [] []) => { $crate::distribution::typed::registers::Lit<1> };
    (@product $lists:tt [$a:tt $($ya:tt)*] [$i:tt $($yi:tt)*]) => {
        $crate::distribution::typed::registers::Mul<
            $crate::__cktile_registers!(@list $a $i $lists),
            $crate::__cktile_registers!(@product $lists [$($ya)*] [$($yi)*]),
        >
    };
    // Majors and minors of different lengths: Encoding::new names the problem.
    (@product $lists:tt $ya:tt $yi:tt) => { $crate::distribution::typed::registers::Lit<0> };
    // Entry MINOR of list MAJOR (0: R, x + 1: the H of X x); one past
    // the lists, or an entry past its list, counts 0 (Encoding::new names it).
    (@list 0 $i:tt [$l:tt $($rest:tt)*]) => { $crate::__cktile_registers!(@entry $i $l) };
    (@list 1 $i:tt [$skip:tt $($rest:tt)*]) => { $crate::__cktile_registers!(@list 0 $i [$($rest)*]) };
    (@list 2 $i:tt [$skip:tt $($rest:tt)*]) => { $crate::__cktile_registers!(@list 1 $i [$($rest)*]) };
    (@list 3 $i:tt [$skip:tt $($rest:tt)*]) => { $crate::__cktile_registers!(@list 2 $i [$($rest)*]) };
    (@list 4 $i:tt [$skip:tt $($rest:tt)*]) => { $crate::__cktile_registers!(@list 3 $i [$($rest)*]) };
    (@list 5 $i:tt [$skip:tt $($rest:tt)*]) => { $crate::__cktile_registers!(@list 4 $i [$($rest)*]) };
    (@list 6 $i:tt [$skip:tt $($rest:tt)*]) => { $crate::__cktile_registers!(@list 5 $i [$($rest)*]) };
    (@list 7 $i:tt [$skip:tt $($rest:tt)*]) => { $crate::__cktile_registers!(@list 6 $i [$($rest)*]) };
    (@list 8 $i:tt [$skip:tt $($rest:tt)*]) => { $crate::__cktile_registers!(@list 7 $i [$($rest)*]) };
    (@list $a:tt $i:tt $lists:tt) => { $crate::distribution::typed::registers::Lit<0> };
    (@entry $i:tt [$($tokens:tt)*]) => { $crate::__cktile_registers!(@item $i [] $($tokens)*) };
    (@entry $i:tt $other:tt) => { $crate::distribution::typed::registers::Lit<0> };
    // The entry's tokens: skip MINOR commas, then take the tokens up to the next.
    (@item 0 [$($cur:tt)*] , $($rest:tt)*) => { $crate::__cktile_registers!(@sum [] [] $($cur)*) };
    (@item 0 [$($cur:tt)*]) => { $crate::__cktile_registers!(@sum [] [] $($cur)*) };
    (@item 0 [$($cur:tt)*] $t:tt $($rest:tt)*) => { $crate::__cktile_registers!(@item 0 [$($cur)* $t] $($rest)*) };
    (@item 1 [] , $($rest:tt)*) => { $crate::__cktile_registers!(@item 0 [] $($rest)*) };
    (@item 2 [] , $($rest:tt)*) => { $crate::__cktile_registers!(@item 1 [] $($rest)*) };
    (@item 3 [] , $($rest:tt)*) => { $crate::__cktile_registers!(@item 2 [] $($rest)*) };
    (@item 4 [] , $($rest:tt)*) => { $crate::__cktile_registers!(@item 3 [] $($rest)*) };
    (@item 5 [] , $($rest:tt)*) => { $crate::__cktile_registers!(@item 4 [] $($rest)*) };
    (@item 6 [] , $($rest:tt)*) => { $crate::__cktile_registers!(@item 5 [] $($rest)*) };
    (@item 7 [] , $($rest:tt)*) => { $crate::__cktile_registers!(@item 6 [] $($rest)*) };
    (@item 8 [] , $($rest:tt)*) => { $crate::__cktile_registers!(@item 7 [] $($rest)*) };
    (@item $i:tt [] $skip:tt $($rest:tt)*) => { $crate::__cktile_registers!(@item $i [] $($rest)*) };
    (@item $i:tt []) => { $crate::distribution::typed::registers::Lit<0> };
    // An expression: terms joined by + and -, left to right.
    (@sum [] []) => { $crate::distribution::typed::registers::Lit<0> };
    (@sum [$($acc:tt)*] [$($cur:tt)+]) => {
        $crate::__cktile_registers!(@fold [$($acc)*] ($crate::__cktile_registers!(@term [] $($cur)+)))
    };
    (@sum [$($acc:tt)*] [$($cur:tt)+] + $($rest:tt)*) => {
        $crate::__cktile_registers!(@sum
            [Add ($crate::__cktile_registers!(@fold [$($acc)*] ($crate::__cktile_registers!(@term [] $($cur)+))))]
            [] $($rest)*)
    };
    (@sum [$($acc:tt)*] [$($cur:tt)+] - $($rest:tt)*) => {
        $crate::__cktile_registers!(@sum
            [Sub ($crate::__cktile_registers!(@fold [$($acc)*] ($crate::__cktile_registers!(@term [] $($cur)+))))]
            [] $($rest)*)
    };
    (@sum [$($acc:tt)*] [$($cur:tt)*] $t:tt $($rest:tt)*) => {
        $crate::__cktile_registers!(@sum [$($acc)*] [$($cur)* $t] $($rest)*)
    };
    // A term: factors joined by *, / and %, left to right.
    (@term [$($acc:tt)*] $f:tt * $($rest:tt)+) => {
        $crate::__cktile_registers!(@term [Mul ($crate::__cktile_registers!(@fold [$($acc)*] ($crate::__cktile_registers!(@factor $f))))] $($rest)+)
    };
    (@term [$($acc:tt)*] $f:tt / $($rest:tt)+) => {
        $crate::__cktile_registers!(@term [Div ($crate::__cktile_registers!(@fold [$($acc)*] ($crate::__cktile_registers!(@factor $f))))] $($rest)+)
    };
    (@term [$($acc:tt)*] $f:tt % $($rest:tt)+) => {
        $crate::__cktile_registers!(@term [Rem ($crate::__cktile_registers!(@fold [$($acc)*] ($crate::__cktile_registers!(@factor $f))))] $($rest)+)
    };
    (@term [$($acc:tt)*] $f:tt) => {
        $crate::__cktile_registers!(@fold [$($acc)*] ($crate::__cktile_registers!(@factor $f)))
    };
    (@term [$($acc:tt)*] $($other:tt)*) => { $crate::__cktile_registers!(@unsupported $($other)*) };
    (@factor ($($inner:tt)*)) => { $crate::__cktile_registers!(@sum [] [] $($inner)*) };
    (@factor $n:literal) => { $crate::distribution::typed::registers::Lit<$n> };
    (@factor $n:ident) => { $crate::distribution::typed::registers::Lit<$n> };
    (@factor $other:tt) => { $crate::__cktile_registers!(@unsupported $other) };
    (@unsupported $($other:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "cktile: a generic encoding's Y lengths are written with +, -, *, / and % over its const parameters, ",
            "integer literals and parentheses (so that its thread buffer's size can be computed as a type); found `",
            ::core::stringify!($($other)*), "`"
        ))
    };
    // The left operand so far (none, or an operation waiting for its right operand) with the next.
    (@fold [] ($($x:tt)*)) => { $($x)* };
    (@fold [$op:ident ($($prev:tt)*)] ($($x:tt)*)) => { $crate::distribution::typed::registers::$op<$($prev)*, $($x)*> };
}
