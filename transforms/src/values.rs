//! [`Values`]: a tuple of [`Value`]s, the list parameters of transforms and
//! descriptors, with its length as a type-level number.

use crate::Count;
use crate::{Dims, Error, Index, Indices, MAX_DIMS, Value};

/// A tuple of up to eight [`Value`]s: `(Number<4>, 8usize)`. Its length is
/// the type-level number [`Len`](Values::Len), so descriptors built from it
/// know their dimension count at compile time.
///
/// ```
/// use cktile_transforms::{Number, Values};
/// type L = (Number<4>, Number<8>);
/// assert_eq!(L::STATIC.map(|d| d.map(|d| d.product())), Some(Ok(Some(32))));
/// assert_eq!((Number::<4>, 8usize).dims().unwrap().as_slice(), &[4, 8]);
/// assert_eq!(<(Number<4>, usize) as Values>::STATIC, None);
/// ```
pub trait Values: Copy {
    /// Number of entries, as a typenum integer.
    type Len: Count;
    /// The entries, when all are known at compile time (an `Err` if one does
    /// not fit the index type).
    const STATIC: Option<Result<Dims, Error>>;
    /// The last entry, when it is known at compile time (whatever the
    /// others are) and fits an index; `None` for an empty list.
    ///
    /// ```
    /// use cktile_transforms::{Number, Values};
    /// assert_eq!(<(usize, Number<8>) as Values>::LAST, Some(8));
    /// assert_eq!(<(Number<8>, usize) as Values>::LAST, None);
    /// ```
    const LAST: Option<i64>;
    /// The entries.
    fn dims(self) -> Result<Dims, Error>;
    /// The entries as an index array (the rest 0), unchecked: for values
    /// already validated by [`dims`](Values::dims) (a typed descriptor's
    /// construction), so compile-time entries fold into the arithmetic.
    ///
    /// ```
    /// use cktile_transforms::{Number, Values};
    /// assert_eq!((Number::<4>, 8usize).indices(), [4, 8, 0, 0, 0, 0, 0, 0]);
    /// ```
    fn indices(self) -> Indices;
    /// How many entries are runtime values (the slots
    /// [`write_runtime`](Values::write_runtime) fills).
    ///
    /// ```
    /// use cktile_transforms::{Number, Values};
    /// assert_eq!(<(Number<4>, usize, usize) as Values>::RUNTIME, 2);
    /// ```
    const RUNTIME: usize;
    /// Writes the runtime entries, in order, to `out[at..at + RUNTIME]`
    /// ([`Value::write_runtime`]); compile-time entries write nothing.
    ///
    /// ```
    /// use cktile_transforms::{Number, Values};
    /// let mut out = [0u64; 3];
    /// (5usize, Number::<4>, 6usize).write_runtime(&mut out, 1);
    /// assert_eq!(out, [0, 5, 6]);
    /// ```
    fn write_runtime(&self, out: &mut [u64], at: usize);
    /// Reads back what [`write_runtime`](Values::write_runtime) wrote from
    /// `slots[at..]`.
    ///
    /// ```
    /// use cktile_transforms::{Number, Values};
    /// let v = <(usize, Number<4>, usize) as Values>::read_runtime(&[0, 5, 6], 1);
    /// assert_eq!(v, (5, Number::<4>, 6));
    /// ```
    fn read_runtime(slots: &[u64], at: usize) -> Self;
}

macro_rules! impl_values {
    ($len:ty; $($name:ident . $idx:tt),+) => {
        impl<$($name: Value),+> Values for ($($name,)+) {
            type Len = $len;
            const STATIC: Option<Result<Dims, Error>> = {
                let all = [$($name::STATIC),+];
                let mut out = [0usize; { [$($idx),+].len() }];
                let mut i = 0;
                let mut known = true;
                while i < all.len() {
                    match all[i] {
                        Some(v) => out[i] = v,
                        None => known = false,
                    }
                    i += 1;
                }
                if known { Some(Dims::from_usizes(&out)) } else { None }
            };
            const LAST: Option<i64> = {
                let all = [$($name::STATIC),+];
                match all[all.len() - 1] {
                    Some(v) if v <= i64::MAX as usize => Some(v as i64),
                    _ => None,
                }
            };
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn dims(self) -> Result<Dims, Error> {
                Dims::from_usizes(&[$(self.$idx.get()),+])
            }
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn indices(self) -> Indices {
                let mut out = [0; MAX_DIMS];
                $(out[$idx] = self.$idx.get() as Index;)+
                out
            }
            const RUNTIME: usize = 0 $(+ $name::RUNTIME)+;
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn write_runtime(&self, out: &mut [u64], at: usize) {
                let mut at = at;
                $(
                    self.$idx.write_runtime(out, at);
                    at += $name::RUNTIME;
                )+
                let _ = at;
            }
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn read_runtime(slots: &[u64], at: usize) -> Self {
                let mut at = at;
                let out = ($({
                    let value = $name::read_runtime(slots, at);
                    at += $name::RUNTIME;
                    value
                },)+);
                let _ = at;
                out
            }
        }
    };
}

impl_values!(typenum::U1; A.0);
impl_values!(typenum::U2; A.0, B.1);
impl_values!(typenum::U3; A.0, B.1, C.2);
impl_values!(typenum::U4; A.0, B.1, C.2, D.3);
impl_values!(typenum::U5; A.0, B.1, C.2, D.3, E.4);
impl_values!(typenum::U6; A.0, B.1, C.2, D.3, E.4, F.5);
impl_values!(typenum::U7; A.0, B.1, C.2, D.3, E.4, F.5, G.6);
impl_values!(typenum::U8; A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7);

impl Values for () {
    type Len = typenum::U0;
    const STATIC: Option<Result<Dims, Error>> = Some(Ok(Dims::EMPTY));
    const LAST: Option<i64> = None;
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn dims(self) -> Result<Dims, Error> {
        Ok(Dims::EMPTY)
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn indices(self) -> Indices {
        [0; MAX_DIMS]
    }
    const RUNTIME: usize = 0;
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn write_runtime(&self, _: &mut [u64], _: usize) {}
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn read_runtime(_: &[u64], _: usize) -> Self {}
}
