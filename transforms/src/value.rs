//! [`Value`]: a length, stride or parameter known at compile time or at run time.

use typenum::{Bit, UInt, UTerm, Unsigned};

/// A transform or descriptor parameter: a compile-time constant
/// ([`Number`], or a typenum integer such as `typenum::U8`) or a runtime
/// `usize`. CK Tile mixes `number<N>` and `index_t` the same way.
///
/// ```
/// use cktile_transforms::{Number, Value};
/// assert_eq!(<Number<8> as Value>::STATIC, Some(8));
/// assert_eq!(<usize as Value>::STATIC, None);
/// assert_eq!(<typenum::U16 as Value>::STATIC, Some(16));
/// assert_eq!(7usize.get(), 7);
/// ```
pub trait Value: Copy {
    /// The value, when it is known at compile time.
    const STATIC: Option<usize>;
    /// The value.
    fn get(self) -> usize;
    /// The value whose [`get`](Value::get) is `value`, for a runtime
    /// value; a compile-time value is its type and ignores `value`. With
    /// [`read_runtime`](Value::read_runtime), how a value written out by
    /// [`write_runtime`](Value::write_runtime) (a kernel argument) is read
    /// back.
    ///
    /// ```
    /// use cktile_transforms::{Number, Value};
    /// assert_eq!(<usize as Value>::from_runtime(7), 7);
    /// assert_eq!(<Number<4> as Value>::from_runtime(7).get(), 4);
    /// ```
    fn from_runtime(value: usize) -> Self;
    /// How many runtime values this is: 0 for a compile-time value, 1 for
    /// a runtime one (the number of slots
    /// [`write_runtime`](Value::write_runtime) fills).
    ///
    /// ```
    /// use cktile_transforms::{Number, Value};
    /// assert_eq!((<Number<4> as Value>::RUNTIME, <usize as Value>::RUNTIME), (0, 1));
    /// ```
    const RUNTIME: usize = if Self::STATIC.is_some() { 0 } else { 1 };
    /// Writes the runtime value, if this is one, to `out[at]` (as a
    /// `u64`); a compile-time value writes nothing. A slot past the end of
    /// `out` is not written (the callers size `out` for their values).
    ///
    /// ```
    /// use cktile_transforms::{Number, Value};
    /// let mut out = [0u64; 2];
    /// 9usize.write_runtime(&mut out, 1);
    /// Number::<4>.write_runtime(&mut out, 0);
    /// assert_eq!(out, [0, 9]);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn write_runtime(self, out: &mut [u64], at: usize) {
        if Self::RUNTIME == 1
            && let Some(slot) = out.get_mut(at)
        {
            *slot = self.get() as u64;
        }
    }
    /// Reads back what [`write_runtime`](Value::write_runtime) wrote at
    /// `slots[at]`; a compile-time value reads nothing (a slot past the end
    /// reads as 0). Inlined, with `at` a constant, it is one load.
    ///
    /// ```
    /// use cktile_transforms::{Number, Value};
    /// assert_eq!(<usize as Value>::read_runtime(&[0, 9], 1), 9);
    /// assert_eq!(<Number<4> as Value>::read_runtime(&[0, 9], 1), Number::<4>);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn read_runtime(slots: &[u64], at: usize) -> Self {
        let value = if Self::RUNTIME == 1 { slots.get(at).map_or(0, |&slot| slot as usize) } else { 0 };
        Self::from_runtime(value)
    }
}

/// A compile-time parameter: CK Tile's `number<N>`. Zero-sized.
///
/// ```
/// use cktile_transforms::{Number, Value};
/// let eight = Number::<8>;
/// assert_eq!(eight.get(), 8);
/// assert_eq!(core::mem::size_of::<Number<8>>(), 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Number<const N: usize>;

impl<const N: usize> Value for Number<N> {
    const STATIC: Option<usize> = Some(N);
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn get(self) -> usize {
        N
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn from_runtime(_: usize) -> Self {
        Number
    }
}

impl Value for usize {
    const STATIC: Option<usize> = None;
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn get(self) -> usize {
        self
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn from_runtime(value: usize) -> Self {
        value
    }
}

impl Value for UTerm {
    const STATIC: Option<usize> = Some(0);
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn get(self) -> usize {
        0
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn from_runtime(_: usize) -> Self {
        UTerm
    }
}

impl<U: Unsigned + Copy, B: Bit + Copy> Value for UInt<U, B> {
    const STATIC: Option<usize> = Some(<Self as Unsigned>::USIZE);
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn get(self) -> usize {
        <Self as Unsigned>::USIZE
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn from_runtime(_: usize) -> Self {
        UInt::new()
    }
}
