//! Thread buffers built without a loop: [`RegisterLength`], the
//! `typenum` lengths of the [`GenericArray`]s a thread's registers are,
//! each able to build its array element by element in straight-line code.
//!
//! `GenericArray::generate` fills an array in a loop. LLVM unrolls it only
//! below its size threshold, and a loop it leaves rolled indexes the array
//! at run time, so the array stays in memory: on amdgcn a 64-register C
//! tile (CK's 128 x 128 block GEMM accumulators) went to scratch memory
//! that way. [`RegisterLength::generate_from`] builds a long array by
//! halving its length, as `typenum` writes it (a length is its half twice,
//! plus one element when odd), joining the halves with [`Concat`], down
//! to halves of at most 32 elements, which the loop builds and LLVM
//! unrolls: every element is written at a constant index, and the
//! compiler keeps them in registers.
//!
//! ```
//! use cktile_core::distribution::typed::RegisterLength;
//! let squares = <typenum::U5 as RegisterLength>::generate_from(0, &mut |i| i * i);
//! assert_eq!(squares.as_slice(), &[0, 1, 4, 9, 16]);
//! ```

use generic_array::sequence::{Concat, GenericSequence};
use generic_array::{ArrayLength, GenericArray};
use typenum::{B0, B1, Sum, U1, UInt, UTerm, Unsigned};

/// A thread buffer's length (a `typenum` unsigned integer) whose arrays
/// the library builds in straight-line code ([module](self)). Every
/// length is one; a bound on it is met by every concrete length.
///
/// ```
/// use cktile_core::distribution::typed::RegisterLength;
/// let a = <typenum::U64 as RegisterLength>::generate_from(10, &mut |i| i as u32);
/// assert_eq!((a[0], a[63]), (10, 73));
/// ```
pub trait RegisterLength: ArrayLength {
    /// The array whose element `i` is `f(offset + i)`, `f` called in
    /// order of `i`.
    ///
    /// ```
    /// use cktile_core::distribution::typed::RegisterLength;
    /// let mut calls = Vec::new();
    /// let a = <typenum::U3 as RegisterLength>::generate_from(0, &mut |i| { calls.push(i); 2 * i });
    /// assert_eq!((a.as_slice(), calls), (&[0, 2, 4][..], vec![0, 1, 2]));
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn generate_from<T, F: FnMut(usize) -> T>(offset: usize, f: &mut F) -> GenericArray<T, Self> {
        Self::generate_in_halves(offset, f, LEAF_BYTES)
    }

    /// [`generate_from`](Self::generate_from) with `GenericArray::generate`'s
    /// loop building the halves of at most `leaf_bytes` bytes (0: every
    /// element by itself); the same array for every `leaf_bytes`.
    ///
    /// ```
    /// use cktile_core::distribution::typed::RegisterLength;
    /// let a = <typenum::U9 as RegisterLength>::generate_in_halves(0, &mut |i| i as u8, 0);
    /// let b = <typenum::U9 as RegisterLength>::generate_in_halves(0, &mut |i| i as u8, 4);
    /// assert_eq!(a, b);
    /// ```
    fn generate_in_halves<T, F: FnMut(usize) -> T>(
        offset: usize,
        f: &mut F,
        leaf_bytes: usize,
    ) -> GenericArray<T, Self>;
}

/// The largest array (in bytes) built by `GenericArray::generate`'s loop;
/// a larger one is its halves joined. On amdgcn, none: every array is
/// built element by element (a loop LLVM unrolls late leaves its array in
/// scratch memory, and joined halves cost nothing there). Elsewhere 64
/// bytes, which LLVM unrolls (32 16-bit registers, 16 32-bit ones): nvptx
/// joins small halves as packed 64-bit words, shifted in and out, so
/// halving all the way down costs it dozens of instructions a kernel.
const LEAF_BYTES: usize = if cfg!(target_arch = "amdgpu") { 0 } else { 64 };

/// Whether `n` elements of `T` are built by the loop (see [`LEAF_BYTES`]).
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
const fn leaf<T>(n: usize, leaf_bytes: usize) -> bool {
    n.saturating_mul(size_of::<T>()) <= leaf_bytes
}

/// Elements `offset ..` of two arrays of length `H`, joined.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
fn halves<H, T, F: FnMut(usize) -> T>(offset: usize, f: &mut F, leaf_bytes: usize) -> GenericArray<T, Sum<H, H>>
where
    H: RegisterLength + core::ops::Add<H>,
    Sum<H, H>: ArrayLength,
{
    let low = H::generate_in_halves(offset, f, leaf_bytes);
    low.concat(H::generate_in_halves(offset + H::USIZE, f, leaf_bytes))
}

impl RegisterLength for UTerm {
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn generate_in_halves<T, F: FnMut(usize) -> T>(_: usize, _: &mut F, _: usize) -> GenericArray<T, UTerm> {
        GenericArray::from_array([])
    }
}

impl<H> RegisterLength for UInt<H, B0>
where
    H: RegisterLength + core::ops::Add<H, Output = UInt<H, B0>>,
    UInt<H, B0>: ArrayLength,
{
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn generate_in_halves<T, F: FnMut(usize) -> T>(
        offset: usize,
        f: &mut F,
        leaf_bytes: usize,
    ) -> GenericArray<T, Self> {
        if leaf::<T>(Self::USIZE, leaf_bytes) {
            return GenericArray::generate(|i| f(offset + i));
        }
        halves::<H, T, F>(offset, f, leaf_bytes)
    }
}

impl<H> RegisterLength for UInt<H, B1>
where
    H: RegisterLength + core::ops::Add<H>,
    Sum<H, H>: ArrayLength + core::ops::Add<U1, Output = UInt<H, B1>>,
    UInt<H, B1>: ArrayLength,
{
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn generate_in_halves<T, F: FnMut(usize) -> T>(
        offset: usize,
        f: &mut F,
        leaf_bytes: usize,
    ) -> GenericArray<T, Self> {
        if leaf::<T>(Self::USIZE, leaf_bytes) {
            return GenericArray::generate(|i| f(offset + i));
        }
        let both = halves::<H, T, F>(offset, f, leaf_bytes);
        both.concat(GenericArray::<T, U1>::from_array([f(offset + 2 * H::USIZE)]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts<N: RegisterLength>() {
        let want: Vec<u16> = (7..7 + N::USIZE as u16).collect();
        assert_eq!(N::generate_from(7, &mut |i| i as u16).as_slice(), want);
        for leaf_bytes in [0, 2, 6, 64, 4096] {
            let mut order = Vec::new();
            let a = N::generate_in_halves(7, &mut |i| (order.push(i), i as u16).1, leaf_bytes);
            assert_eq!(a.as_slice(), want, "leaves of {leaf_bytes} bytes");
            assert_eq!(order.iter().map(|&i| i as u16).collect::<Vec<_>>(), want, "called in order");
        }
    }

    #[test]
    fn every_length_counts_in_order() {
        use typenum::*;
        counts::<U0>();
        counts::<U1>();
        counts::<U2>();
        counts::<U3>();
        counts::<U7>();
        counts::<U16>();
        counts::<U31>();
        counts::<U64>();
        counts::<U100>();
        counts::<U255>();
        // Eight halvings; each length here is built for five leaf sizes
        // known only at run time, so every level is inlined both ways (U1024
        // was a third of the crate's test build: 218,000 lines of LLVM IR).
        counts::<U256>();
    }
}
