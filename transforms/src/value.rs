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
    #[inline(always)]
    fn get(self) -> usize {
        N
    }
}

impl Value for usize {
    const STATIC: Option<usize> = None;
    #[inline(always)]
    fn get(self) -> usize {
        self
    }
}

impl Value for UTerm {
    const STATIC: Option<usize> = Some(0);
    #[inline(always)]
    fn get(self) -> usize {
        0
    }
}

impl<U: Unsigned + Copy, B: Bit + Copy> Value for UInt<U, B> {
    const STATIC: Option<usize> = Some(<Self as Unsigned>::USIZE);
    #[inline(always)]
    fn get(self) -> usize {
        <Self as Unsigned>::USIZE
    }
}
