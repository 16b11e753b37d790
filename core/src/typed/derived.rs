//! [`derived_number!`](crate::derived_number): compile-time values computed
//! from a policy's const generics, for descriptors generic over tile sizes
//! on stable Rust.
//!
//! `Number::<{ M / 2 }>` needs `generic_const_exprs`, which stable Rust does
//! not have: a const generic can be passed on (`Number::<M>`) but not
//! computed with. An associated `const` can compute with it, though, and a
//! [`Value`](crate::Value) is a type with an associated `STATIC` constant.
//! `derived_number!` declares a zero-sized type, generic over the policy's
//! const parameters, whose value is an expression of them; it is a
//! compile-time parameter exactly as `Number<N>` is (zero-sized, folded into
//! the offset arithmetic, checked by the compile-time validation), and
//! compiler messages name it with its arguments (`MPerLayer<128, 32>`).

/// Declares a zero-sized compile-time [`Value`](crate::Value) computed from
/// const generic parameters: CK Tile's `number<MPerBlock / MLdsLayer>{}`
/// inside a policy templated on the tile sizes.
///
/// ```
/// use cktile_core::prelude::*;
///
/// cktile_core::derived_number! {
///     /// Half a tile side.
///     pub struct Half<const N: usize> = N / 2;
/// }
///
/// fn half_tile<const N: usize>() -> Result<TensorDescriptor<cktile_core::typed::Packed<(Half<N>, Number<N>)>>, Error> {
///     make_naive_tensor_descriptor_packed((Half::<N>, Number::<N>))
/// }
/// let d = half_tile::<64>()?;
/// assert_eq!(d.lengths().as_slice(), &[32, 64]);
/// assert_eq!(d.calculate_offset([1, 2]), 66);
/// assert_eq!(core::mem::size_of_val(&d), 0);
/// assert_eq!(<Half<64> as cktile_core::Value>::STATIC, Some(32));
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[macro_export]
macro_rules! derived_number {
    ($(
        $(#[$meta:meta])*
        $vis:vis struct $name:ident<$(const $param:ident: usize),+ $(,)?> = $value:expr;
    )+) => {$(
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        $vis struct $name<$(const $param: usize),+>;

        impl<$(const $param: usize),+> $crate::transforms::Value for $name<$($param),+> {
            const STATIC: ::core::option::Option<usize> = ::core::option::Option::Some($value);
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn get(self) -> usize {
                const { $value }
            }
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn from_runtime(_: usize) -> Self {
                $name
            }
        }
    )+};
}
