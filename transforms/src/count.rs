//! [`Count`]: type-level dimension counts that add without where-clauses.
//!
//! A descriptor's number of top dimensions is the sum of its last stage's
//! upper-dimension counts. Adding typenum integers generically needs an
//! `Add` bound at every use, and those bounds do not compose over tuples of
//! transforms. `Count` closes the set instead: it is implemented for
//! `U0..=U9` (typenum's types, so they size `GenericArray`s), and its
//! [`Plus`](Count::Plus) is again a `Count`. Sums above
//! [`MAX_DIMS`](crate::MAX_DIMS) stay at `U9`; a descriptor with that many
//! dimensions is rejected anyway.

use crate::Index;
use generic_array::ArrayLength;
use typenum::{U0, U1, U2, U3, U4, U5, U6, U7, U8, U9, Unsigned};

/// A type-level dimension count (`typenum::U0` to `U9`).
///
/// ```
/// use cktile_transforms::Count;
/// use typenum::{U2, U3, U5, Unsigned};
/// type S = <U2 as Count>::Plus<U3>;
/// assert_eq!(<S as Unsigned>::USIZE, 5);
/// typenum::assert_type_eq!(S, U5);
/// typenum::assert_type_eq!(<U5 as Count>::Coordinate, [i64; 5]);
/// ```
pub trait Count: ArrayLength + Unsigned {
    /// A coordinate with this many entries, `[Index; N]`: the array type a
    /// typed descriptor's methods take, named in compiler messages in place
    /// of the typenum integer. An index array, so code generic over the
    /// count reads and writes its entries.
    type Coordinate: Copy + Default + core::fmt::Debug + Eq + core::hash::Hash + AsRef<[Index]> + AsMut<[Index]>;
    /// This count plus one (saturating at 9).
    type Succ: Count;
    /// This count plus `R` (saturating at 9).
    type Plus<R: Count>: Count;
}

impl Count for U0 {
    type Coordinate = [Index; 0];
    type Succ = U1;
    type Plus<R: Count> = R;
}

macro_rules! counts {
    ($($n:ident = $prev:ident + 1 => $succ:ident),+) => {
        $(
            impl Count for $n {
                type Coordinate = [Index; <$n as Unsigned>::USIZE];
                type Succ = $succ;
                type Plus<R: Count> = <$prev as Count>::Plus<R::Succ>;
            }
        )+
    };
}

counts!(
    U1 = U0 + 1 => U2,
    U2 = U1 + 1 => U3,
    U3 = U2 + 1 => U4,
    U4 = U3 + 1 => U5,
    U5 = U4 + 1 => U6,
    U6 = U5 + 1 => U7,
    U7 = U6 + 1 => U8,
    U8 = U7 + 1 => U9,
    U9 = U8 + 1 => U9
);
