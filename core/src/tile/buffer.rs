//! [`GlobalMemory`]: global memory as CK Tile's buffer view reads it. On
//! AMD GPUs CK reads global memory through buffer instructions
//! (`buffer_load_dword*`, `amd_buffer_addressing.hpp`): a load names a
//! buffer resource (the 128-bit `V#`: base address, size in bytes, and a
//! word of format bits that differs by generation), and the hardware
//! checks each 32-bit word of the load against the size, reading a word
//! past it as zero. CK makes an invalid access read zeros by moving its
//! offset past the buffer (`0x80000000`), so a load needs no compare and
//! branch, and neither does padding.
//!
//! A [`GlobalMemory`] is a slice and how it is read ([`GlobalAccess`]):
//! [`Plain`] loads (the slice's own, on every target), [`Vectors`] (plain
//! loads, and on nvptx one `ld.global.v4.b32` for a 16-byte vector whose
//! address allows it), or the buffer loads
//! of an AMD generation ([`BufferGfx9`], [`BufferGfx10`], [`BufferGfx11`]),
//! which on amdgcn compile to `buffer_load_dword*` through a resource made
//! from the slice, and elsewhere read what those instructions read (the
//! host runs a kernel's steps as the GPU does). A GEMM policy names its
//! access (`ops::gemm::GemmPolicy::Global`, `UniversalGemmPolicy`'s last
//! parameter, `Plain` by default): CK reads through gfx9's buffers for
//! CDNA's MFMAs and through gfx11's for RDNA's WMMAs.
//!
//! What a load reads is the same as over the slice: the vector when it
//! lies inside, nothing (the window's zeros) otherwise. A buffer resource
//! addresses at most 2 GiB; CK's kernels share the limit (their resource's
//! size is a 32-bit byte count, and their invalid offset is 2 GiB), and a
//! buffer [`GlobalMemory`] longer than that is refused by
//! [`GlobalMemory::new`], naming its size, rather than reading zeros past
//! it.
//!
//! The buffer loads' intrinsics and [`Vectors`]' aligned reads are the GPU
//! memory layer's: with `tile::gpu`, `tile::cells` and the block GEMM's
//! instructions, the library's only `unsafe` code (on amdgcn and nvptx
//! only). A buffer load's safety rests on the resource: it is made from
//! the slice itself, so no offset reads past the slice. An aligned read's
//! rests on its test: the vector lies inside the slice and its address is
//! a multiple of its size.
//!
//! ```
//! use cktile_core::tile::{BufferGfx9, GlobalMemory, TileMemory};
//! let data = [1u16, 2, 3, 4, 5];
//! let global = GlobalMemory::<u16, BufferGfx9>::new(&data)?;
//! assert_eq!(global.load::<2>(3), Some([4, 5]));
//! assert_eq!(global.load::<2>(4), None); // past the end: the window reads zeros
//! assert_eq!(global.load::<1>(-1), None);
//! # Ok::<(), cktile_core::Error>(())
//! ```
#![cfg_attr(any(target_arch = "amdgpu", target_arch = "nvptx64"), allow(unsafe_code))]

#[cfg(target_arch = "amdgpu")]
use super::memory::read_or_default;
use super::memory::{TileMemory, load_from};
#[cfg(any(test, target_arch = "nvptx64"))]
use super::{cells::whole_vector, memory::range};
use crate::{Error, Index};
use core::marker::PhantomData;

/// The most bytes a buffer resource addresses here: 2 GiB. An access that
/// does not lie inside reads from the invalid offset, 2 GiB, which no word
/// of a resource of at most this many bytes reaches.
///
/// ```
/// use cktile_core::tile::{BufferGfx9, GlobalMemory, buffer::MAX_BUFFER_BYTES};
/// assert_eq!(MAX_BUFFER_BYTES, 2 << 30);
/// let data = vec![0u32; 1024];
/// assert!(size_of_val(&data[..]) <= MAX_BUFFER_BYTES && GlobalMemory::<u32, BufferGfx9>::new(&data).is_ok());
/// ```
pub const MAX_BUFFER_BYTES: usize = 1 << 31;

/// The byte offset an access that does not lie inside its buffer reads
/// from (CK's `0x80000000`): past every resource this module makes, so the
/// hardware reads it as zeros.
#[cfg(any(test, target_arch = "amdgpu"))]
const INVALID_OFFSET: u32 = 1 << 31;

mod sealed {
    pub trait SealedAccess {}
    pub trait SealedElement {}
}

/// An element a [`GlobalMemory`] holds: a plain number, whose all-zero
/// bytes are a value and its `Default` (zero), which is what a buffer load
/// reads outside its buffer and what a window reads for padding. Sealed:
/// `u8`, `i8`, `u16`, `i16`, `u32`, `i32`, `u64`, `i64`, `f32` and `f64`
/// (the GEMMs' operands are their elements' bits, `u16` and `u8`).
///
/// ```
/// fn zero<T: cktile_core::tile::BufferElement>() -> T {
///     T::default()
/// }
/// assert_eq!(zero::<f32>().to_bits(), 0);
/// ```
pub trait BufferElement: sealed::SealedElement + Copy + Default + 'static {}

macro_rules! elements {
    ($($t:ty),+) => {$(
        impl sealed::SealedElement for $t {}
        impl BufferElement for $t {}
    )+};
}

elements!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

/// How a [`GlobalMemory`] is read: [`Plain`] loads, [`Vectors`] (aligned
/// vectors in one instruction on nvptx), or the buffer loads of one AMD
/// generation. Sealed: the generations' formats are CK Tile's
/// (`CK_TILE_BUFFER_RESOURCE_3RD_DWORD`), and a wrong one would make the
/// hardware read something else.
///
/// ```
/// use cktile_core::tile::{BufferGfx11, GlobalAccess, Plain};
/// assert_eq!(Plain::BUFFER_WORD3, None);
/// assert_eq!(BufferGfx11::BUFFER_WORD3, Some(0x3100_4000));
/// ```
pub trait GlobalAccess: sealed::SealedAccess + Copy + Default + core::fmt::Debug + 'static {
    /// The fourth word of this generation's buffer resources (its format
    /// and out-of-bounds bits), or `None` for plain loads.
    const BUFFER_WORD3: Option<u32>;
    /// Whether a vector of 4 or 16 bytes at an aligned address moves in
    /// one instruction on nvptx ([`Vectors`]).
    ///
    /// ```
    /// use cktile_core::tile::{GlobalAccess, Plain, Vectors};
    /// assert!(Vectors::ALIGNED_VECTORS && !Plain::ALIGNED_VECTORS);
    /// ```
    const ALIGNED_VECTORS: bool;
}

/// Plain loads: the slice's own (`global_load_dword*` on amdgcn,
/// `ld.global` on nvptx), each access compared with the slice's length.
///
/// ```
/// use cktile_core::tile::{GlobalMemory, Plain, TileMemory};
/// let g = GlobalMemory::<u8, Plain>::new(&[7, 8, 9])?;
/// assert_eq!(g.load::<3>(0), Some([7, 8, 9]));
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Plain;

/// Plain loads, and on nvptx a vector of 4 or 16 bytes whose address is a
/// multiple of its size in one instruction (`ld.global.b32`,
/// `ld.global.v4.b32`): a vector load on an NVIDIA GPU must be aligned,
/// which a slice of 2-byte elements does not promise, so [`Plain`] moves
/// each element alone there. The test is the address's, at run time: the
/// slice's base and the access's offset, each a multiple of the vector's
/// bytes (in a GEMM's K loop both are the same every iteration, and the
/// compiler tests them once, before the loop); a vector that fails it is
/// read element by element. Elsewhere it reads as [`Plain`] does (on
/// amdgcn the element loads of a vector already merge into one: the
/// hardware takes any alignment).
///
/// ```
/// use cktile_core::tile::{GlobalMemory, TileMemory, Vectors};
/// let data: Vec<u16> = (0..40).collect();
/// let g = GlobalMemory::<u16, Vectors>::new(&data)?;
/// assert_eq!(g.load::<8>(8), Some([8, 9, 10, 11, 12, 13, 14, 15]));
/// assert_eq!(g.load::<8>(3), Some([3, 4, 5, 6, 7, 8, 9, 10])); // unaligned: element by element
/// assert_eq!(g.load::<8>(33), None);
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Vectors;

/// gfx9's buffer loads (CDNA: gfx90a, gfx942, gfx950), resource word
/// `0x00020000` (CK Tile's for `__gfx9__`).
///
/// ```
/// use cktile_core::tile::{BufferGfx9, GlobalAccess};
/// assert_eq!(BufferGfx9::BUFFER_WORD3, Some(0x0002_0000));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BufferGfx9;

/// gfx10's buffer loads (gfx101x, gfx103x), resource word `0x31014000`
/// (CK Tile's for `__gfx101__` and `__gfx103__`).
///
/// ```
/// use cktile_core::tile::{BufferGfx10, GlobalAccess};
/// assert_eq!(BufferGfx10::BUFFER_WORD3, Some(0x3101_4000));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BufferGfx10;

/// gfx11's and gfx12's buffer loads (RDNA3, RDNA4), resource word
/// `0x31004000` (CK Tile's for `__gfx11__` and `__gfx12__`).
///
/// ```
/// use cktile_core::tile::{BufferGfx11, GlobalAccess};
/// assert_eq!(BufferGfx11::BUFFER_WORD3, Some(0x3100_4000));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BufferGfx11;

macro_rules! accesses {
    ($($t:ty => $word:expr, $vectors:expr;)+) => {$(
        impl sealed::SealedAccess for $t {}
        impl GlobalAccess for $t {
            const BUFFER_WORD3: Option<u32> = $word;
            const ALIGNED_VECTORS: bool = $vectors;
        }
    )+};
}

accesses! {
    Plain => None, false;
    Vectors => None, true;
    BufferGfx9 => Some(0x0002_0000), false;
    BufferGfx10 => Some(0x3101_4000), false;
    BufferGfx11 => Some(0x3100_4000), false;
}

/// Global memory: a slice of `T`, read as `A` says ([`Plain`], [`Vectors`],
/// or an AMD generation's buffer loads; see the [module](self)). `Copy`, as the
/// slice is.
///
/// ```
/// use cktile_core::tile::{BufferGfx9, GlobalMemory, TileMemory};
/// let data: Vec<f32> = (0..8).map(|i| i as f32).collect();
/// let global = GlobalMemory::<f32, BufferGfx9>::new(&data)?;
/// assert_eq!((global.len(), global.data()[7]), (8, 7.0));
/// assert_eq!(global.load::<4>(4), Some([4.0, 5.0, 6.0, 7.0]));
/// # Ok::<(), cktile_core::Error>(())
/// ```
pub struct GlobalMemory<'a, T, A: GlobalAccess = Plain> {
    /// The slice. On amdgcn, for buffer loads, as the wave's first lane
    /// holds it (every lane's own: `new` checks), which the compiler knows
    /// to be the same in every lane and keeps in scalar registers, as a
    /// resource must be (one it cannot prove uniform costs a loop over the
    /// lanes at every load).
    data: &'a [T],
    access: PhantomData<A>,
}

impl<T, A: GlobalAccess> Clone for GlobalMemory<'_, T, A> {
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, A: GlobalAccess> Copy for GlobalMemory<'_, T, A> {}

impl<T: core::fmt::Debug, A: GlobalAccess> core::fmt::Debug for GlobalMemory<'_, T, A> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GlobalMemory").field("access", &A::default()).field("data", &self.data).finish()
    }
}

impl<'a, T, A: GlobalAccess> GlobalMemory<'a, T, A> {
    /// `data`, read as `A` says. Errors: buffer loads of more than
    /// [`MAX_BUFFER_BYTES`] (2 GiB), which a buffer resource cannot
    /// address (the error names the size in bytes); and on amdgcn, buffer
    /// loads of a slice that is not the same in every lane of the wave (a
    /// resource is the wave's, CK's `p_src_wave`). [`Plain`] takes any
    /// slice.
    ///
    /// ```
    /// use cktile_core::tile::{BufferGfx9, GlobalMemory, Plain};
    /// let big = vec![(); 1 << 40]; // zero-sized elements: no bytes at all
    /// assert!(GlobalMemory::<(), BufferGfx9>::new(&big).is_ok());
    /// assert_eq!(GlobalMemory::<u8, Plain>::new(&[1, 2])?.len(), 2);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn new(data: &'a [T]) -> Result<GlobalMemory<'a, T, A>, Error> {
        if A::BUFFER_WORD3.is_some() {
            // A slice holds at most `isize::MAX` bytes: no wrap.
            let bytes = data.len().wrapping_mul(size_of::<T>());
            if bytes > MAX_BUFFER_BYTES {
                return Err(Error::policy_size(
                    "an AMD buffer resource addresses at most 2147483648 bytes (2 GiB): read a larger global memory with Plain loads",
                    "bytes",
                    bytes,
                ));
            }
        }
        #[cfg(target_arch = "amdgpu")]
        let data = if A::BUFFER_WORD3.is_some() { amdgpu::wave_slice(data)? } else { data };
        Ok(GlobalMemory { data, access: PhantomData })
    }

    /// The slice.
    ///
    /// ```
    /// use cktile_core::tile::{GlobalMemory, Plain};
    /// assert_eq!(GlobalMemory::<u8, Plain>::new(&[3])?.data(), &[3]);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn data(&self) -> &'a [T] {
        self.data
    }

    /// The number of elements.
    ///
    /// ```
    /// use cktile_core::tile::{BufferGfx11, GlobalMemory};
    /// assert_eq!(GlobalMemory::<u32, BufferGfx11>::new(&[1, 2, 3])?.len(), 3);
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether there are no elements.
    ///
    /// ```
    /// use cktile_core::tile::{GlobalMemory, Plain};
    /// assert!(GlobalMemory::<u8, Plain>::new(&[])?.is_empty());
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
}

impl<T: BufferElement, A: GlobalAccess> TileMemory for GlobalMemory<'_, T, A> {
    type Element = T;

    // True on every target for buffer loads, so the host's windows take the path amdgcn's
    // take (there `load_or_default` reads what the slice reads).
    const READS_ZEROS: bool = A::BUFFER_WORD3.is_some();

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn load_with<const N: usize>(&self, offset: Index, f: impl FnMut(usize, T)) -> bool {
        #[cfg(target_arch = "nvptx64")]
        let mut f = f;
        #[cfg(target_arch = "nvptx64")]
        if A::ALIGNED_VECTORS
            && let Some(start) = vector_start::<T, N>(self.data, offset)
        {
            // SAFETY: `vector_start`: the `N` elements from `start` lie inside the slice, take 4
            // or 16 bytes, and their address is a multiple of that.
            let v = unsafe { super::cells::read_vector::<T, N>(self.data.as_ptr().add(start).cast()) };
            let mut j = 0;
            while j < N {
                f(j, v[j]);
                j += 1;
            }
            return true;
        }
        load_from::<T, N>(self.data, offset, f)
    }

    /// With buffer loads: one load from the offset, or from the invalid
    /// one for padding and for a vector outside, which reads zeros (CK's
    /// `amd_buffer_load_invalid_element_return_zero`); `f` takes the loaded
    /// elements either way. Elsewhere, and on the host, the trait's test of
    /// the slice, which reads the same (`address` and the tests' model of
    /// the hardware hold them equal).
    #[cfg(target_arch = "amdgpu")]
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn load_or_default<const N: usize>(&self, offset: Option<Index>, f: impl FnMut(usize, T)) {
        match A::BUFFER_WORD3 {
            Some(word3) => amdgpu::load_each::<T, N>(self.data, word3, offset, f),
            None => read_or_default::<Self, N>(self, offset, f),
        }
    }

    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn elements(&self) -> Option<usize> {
        Some(self.data.len())
    }
}

/// Where a vector of `N` elements at `offset` of `data` moves in one aligned
/// load ([`Vectors`] on nvptx): its start, when it lies inside, is a whole
/// vector (4 or 16 bytes, shared memory's rule: `cells::whole_vector`), and
/// both the slice's base and the offset's bytes are multiples of its size,
/// so its address is. `None` otherwise: the vector moves element by
/// element.
#[cfg(any(test, target_arch = "nvptx64"))]
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
fn vector_start<T, const N: usize>(data: &[T], offset: Index) -> Option<usize> {
    if !whole_vector::<T, N>() {
        return None;
    }
    let bytes = size_of::<[T; N]>();
    let start = range(offset, N, data.len())?.start;
    // The offset's bytes from `offset` itself, which is `start` here: the range's start, taken
    // instead, can reach the test through a value LLVM carries from one loop iteration to the
    // next, where the test does not fold. Inside the slice they are below its byte length.
    let aligned = data.as_ptr().addr().is_multiple_of(bytes)
        && (offset as usize).wrapping_mul(size_of::<T>()).is_multiple_of(bytes);
    if aligned { Some(start) } else { None }
}

/// Where a buffer load of `n` elements of `size` bytes at element `offset`
/// (`None`: padding) reads, over a slice of `len` elements: its byte offset in the resource,
/// and whether the vector lies inside (every other access reads from
/// [`INVALID_OFFSET`], which the hardware reads as zeros). The resource
/// holds `min(len * size, MAX_BUFFER_BYTES)` bytes ([`records`]), so
/// `inside` is the slice's own test wherever [`GlobalMemory::new`] accepts
/// the slice. `size` is not zero.
///
/// One compare of the offset, as an unsigned number, with `len - n` (the
/// same for every access of a window), then a select of the offset: no
/// branch.
#[cfg(any(test, target_arch = "amdgpu"))]
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
const fn address(len: usize, size: usize, n: usize, offset: Option<Index>) -> (u32, bool) {
    let held = records(len, size) as usize / size;
    let (offset, inside) = match (offset, held.checked_sub(n)) {
        // A negative offset, as a `u64`, lies past every `last`.
        (Some(o), Some(last)) => (o, (o as u64) <= last as u64),
        _ => (0, false),
    };
    // Inside, `offset * size + n * size <= MAX_BUFFER_BYTES`: no wrap.
    if inside { ((offset as u64 as u32).wrapping_mul(size as u32), true) } else { (INVALID_OFFSET, false) }
}

/// The bytes a resource over `len` elements of `size` bytes addresses: all
/// of them, up to [`MAX_BUFFER_BYTES`].
#[cfg(any(test, target_arch = "amdgpu"))]
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
const fn records(len: usize, size: usize) -> u32 {
    let bytes = (len as u128) * (size as u128);
    if bytes > MAX_BUFFER_BYTES as u128 { MAX_BUFFER_BYTES as u32 } else { bytes as u32 }
}

/// The bytes of the next piece of a buffer load with `rest` bytes still to
/// read: 16, 8, 4, 2 or 1 (`buffer_load_dwordx4`, `_dwordx2`, `_dword`,
/// `_ushort`, `_ubyte`), the largest that fits, so every piece ends where
/// the vector ends or before.
#[cfg(any(test, target_arch = "amdgpu"))]
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
const fn piece(rest: usize) -> usize {
    match rest {
        16.. => 16,
        8.. => 8,
        4.. => 4,
        2 | 3 => 2,
        _ => 1,
    }
}

/// The loads on amdgcn: `llvm.amdgcn.raw.buffer.load.*`.
#[cfg(target_arch = "amdgpu")]
mod amdgpu {
    use super::{BufferElement, address, piece, records};
    use crate::{Error, Index};

    /// `data` as the wave's first lane holds it, when every lane of the
    /// wave holds the same slice (refused otherwise): the same value, which
    /// the compiler now knows to be uniform.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(super) fn wave_slice<T>(data: &[T]) -> Result<&[T], Error> {
        use core::arch::amdgpu::{ballot, readfirstlane_u64};
        let (base, len) = (data.as_ptr() as u64, data.len() as u64);
        let (first_base, first_len) = (readfirstlane_u64(base), readfirstlane_u64(len));
        if ballot(base != first_base || len != first_len) != 0 {
            return Err(Error::policy(
                "AMD buffer loads read one global memory per wave (CK's wave-wise buffer), and a lane's slice differs from its wave's first lane's: read per-lane memory with Plain loads",
            ));
        }
        // SAFETY: the first lane's base and length are this lane's own (tested above): the
        // same slice, of the same lifetime.
        Ok(unsafe { core::slice::from_raw_parts(first_base as usize as *const T, first_len as usize) })
    }

    /// The LLVM vector types a piece loads as: the element's own integer
    /// type, so the compiler sees the vector's elements (a piece loaded as
    /// 32-bit words and cut into 16-bit elements left the LDS stores after
    /// it element by element).
    macro_rules! vectors {
        ($($name:ident = [$t:ty; $n:literal];)+) => {$(
            #[repr(simd)]
            #[derive(Clone, Copy)]
            struct $name([$t; $n]);
        )+};
    }
    vectors! {
        I32x4 = [i32; 4];
        I32x2 = [i32; 2];
        I16x8 = [i16; 8];
        I16x4 = [i16; 4];
        I16x2 = [i16; 2];
        I8x4 = [i8; 4];
        I8x2 = [i8; 2];
        I64x2 = [i64; 2];
    }

    // A raw (stride 0) buffer load of the result's bytes from byte `voffset + soffset` of
    // the resource; `aux` 0 (no cache policy bits), as CK passes it. One declaration per
    // element size and piece.
    unsafe extern "llvm-intrinsic" {
        #[link_name = "llvm.amdgcn.raw.buffer.load.v4i32"]
        fn b32x4(resource: I32x4, voffset: i32, soffset: i32, aux: i32) -> I32x4;
        #[link_name = "llvm.amdgcn.raw.buffer.load.v2i32"]
        fn b32x2(resource: I32x4, voffset: i32, soffset: i32, aux: i32) -> I32x2;
        #[link_name = "llvm.amdgcn.raw.buffer.load.i32"]
        fn b32(resource: I32x4, voffset: i32, soffset: i32, aux: i32) -> i32;
        #[link_name = "llvm.amdgcn.raw.buffer.load.v8i16"]
        fn b16x8(resource: I32x4, voffset: i32, soffset: i32, aux: i32) -> I16x8;
        #[link_name = "llvm.amdgcn.raw.buffer.load.v4i16"]
        fn b16x4(resource: I32x4, voffset: i32, soffset: i32, aux: i32) -> I16x4;
        #[link_name = "llvm.amdgcn.raw.buffer.load.v2i16"]
        fn b16x2(resource: I32x4, voffset: i32, soffset: i32, aux: i32) -> I16x2;
        #[link_name = "llvm.amdgcn.raw.buffer.load.i16"]
        fn b16(resource: I32x4, voffset: i32, soffset: i32, aux: i32) -> i16;
        #[link_name = "llvm.amdgcn.raw.buffer.load.v4i8"]
        fn b8x4(resource: I32x4, voffset: i32, soffset: i32, aux: i32) -> I8x4;
        #[link_name = "llvm.amdgcn.raw.buffer.load.v2i8"]
        fn b8x2(resource: I32x4, voffset: i32, soffset: i32, aux: i32) -> I8x2;
        #[link_name = "llvm.amdgcn.raw.buffer.load.i8"]
        fn b8(resource: I32x4, voffset: i32, soffset: i32, aux: i32) -> i8;
        #[link_name = "llvm.amdgcn.raw.buffer.load.v2i64"]
        fn b64x2(resource: I32x4, voffset: i32, soffset: i32, aux: i32) -> I64x2;
        #[link_name = "llvm.amdgcn.raw.buffer.load.i64"]
        fn b64(resource: I32x4, voffset: i32, soffset: i32, aux: i32) -> i64;
    }

    /// Calls `f(j, element)` for the `N` elements of `data` from element
    /// `offset`, read through a buffer resource over `data` (the wave's:
    /// [`wave_slice`]) whose fourth word is `word3`: the elements where
    /// they lie inside `data` ([`address`]), zeros otherwise, read by the
    /// hardware from the invalid offset (no branch).
    ///
    /// Each piece's elements go to `f` straight from the loaded value, so
    /// no array holds the vector.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(super) fn load_each<T: BufferElement, const N: usize>(
        data: &[T],
        word3: u32,
        offset: Option<Index>,
        mut f: impl FnMut(usize, T),
    ) {
        let size = size_of::<T>();
        let (voffset, _) = address(data.len(), size, N, offset);
        let base = data.as_ptr() as u64;
        // The base address in bits 0..48, the stride (bits 48..62) 0: a raw buffer of
        // `records` bytes, all of them `data`'s. Each word read from the wave's first lane
        // (CK's `readfirstlane` of the resource): they are the same in every lane, and so
        // the compiler keeps them in scalar registers even where it computed them in vector
        // ones.
        let word = |w: u32| core::arch::amdgpu::readfirstlane_u32(w) as i32;
        let resource =
            I32x4([word(base as u32), word((base >> 32) as u32), word(records(data.len(), size)), word3 as i32]);
        // The elements of one loaded piece, from element `first` of the vector.
        macro_rules! hand_over {
            ($value:expr, $first:expr) => {{
                let value = $value;
                let from = (&raw const value).cast::<T>();
                for k in 0..size_of_val(&value) / size {
                    // SAFETY: `k` elements of `size` bytes lie inside `value`; its bytes are
                    // `data`'s bytes of these elements, or zeros, a value of every
                    // `BufferElement` (an unaligned read: a piece holds no `T` by type).
                    f($first + k, unsafe { from.add(k).read_unaligned() });
                }
            }};
        }
        let bytes = N * size;
        let mut at = 0;
        // A constant trip count after monomorphisation: one load a piece.
        while at < bytes {
            let n = piece(bytes - at);
            let (v, first) = (voffset.wrapping_add(at as u32) as i32, at / size);
            // Each load is `unsafe` as an `extern` call only: the resource covers `data`'s
            // bytes at most, and the hardware reads nothing past them, whatever `v`.
            macro_rules! piece {
                ($load:ident) => {
                    // SAFETY: as above.
                    hand_over!(unsafe { $load(resource, v, 0, 0) }, first)
                };
            }
            match (size, n) {
                (1, 4) => piece!(b8x4),
                (1, 2) => piece!(b8x2),
                (2, 16) => piece!(b16x8),
                (2, 8) => piece!(b16x4),
                (2, 4) => piece!(b16x2),
                (2, 2) => piece!(b16),
                (8, 16) => piece!(b64x2),
                (8, 8) => piece!(b64),
                (_, 16) => piece!(b32x4),
                (_, 8) => piece!(b32x2),
                (_, 4) => piece!(b32),
                (_, 2) => piece!(b16),
                _ => piece!(b8),
            }
            at += n;
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// A 16-byte-aligned block of `T`s.
    #[repr(C, align(16))]
    struct Block<T>([T; 48]);

    /// Every vector [`vector_start`] accepts lies inside the slice at an address that is a
    /// multiple of its size, 4 or 16 bytes; and over a slice whose base is a multiple of
    /// that size it accepts every such vector. Checked on real addresses: every sub-slice
    /// of an aligned block, every offset around it, every width.
    fn vector_start_matches_addresses<T: Copy + Default>() {
        let block = Block([T::default(); 48]);
        let size = size_of::<T>();
        let mut accepted = 0;
        for first in 0..block.0.len() {
            let data = &block.0[first..];
            macro_rules! widths {
                ($($n:literal)*) => {$(
                    let bytes = size_of::<[T; $n]>();
                    for offset in -2..data.len() as Index + 2 {
                        let inside = offset >= 0 && data.len().checked_sub($n).is_some_and(|last| offset as usize <= last);
                        let address = data.as_ptr().addr().wrapping_add((offset as usize).wrapping_mul(size));
                        let sized = bytes == 4 || bytes == 16;
                        let got = vector_start::<T, $n>(data, offset);
                        if let Some(start) = got {
                            assert!(inside && sized && address.is_multiple_of(bytes), "first {first}, offset {offset}, N {}", $n);
                            assert_eq!(start as Index, offset);
                            accepted += 1;
                        }
                        if data.as_ptr().addr().is_multiple_of(bytes) {
                            assert_eq!(got.is_some(), inside && sized && address.is_multiple_of(bytes), "first {first}, offset {offset}, N {}", $n);
                        }
                    }
                )*};
            }
            widths!(1 2 3 4 8 16);
        }
        assert!(accepted > 50, "{accepted}");
    }

    #[test]
    fn vector_start_matches_addresses_u8() {
        vector_start_matches_addresses::<u8>();
    }

    #[test]
    fn vector_start_matches_addresses_u16() {
        vector_start_matches_addresses::<u16>();
    }

    #[test]
    fn vector_start_matches_addresses_u32() {
        vector_start_matches_addresses::<u32>();
    }

    /// On the host `Vectors` reads what the slice reads, at every offset and width.
    #[test]
    fn vectors_read_what_the_slice_reads() -> Result<(), Error> {
        let data: Vec<u16> = (0..37).collect();
        let g = GlobalMemory::<u16, Vectors>::new(&data)?;
        for offset in -3..40 {
            assert_eq!(g.load::<8>(offset), (&data[..]).load::<8>(offset), "offset {offset}");
            assert_eq!(g.load::<2>(offset), (&data[..]).load::<2>(offset), "offset {offset}");
        }
        Ok(())
    }

    /// What the hardware reads for a raw buffer load of `bytes` bytes from
    /// byte `voffset` of a resource of `records` bytes over `memory`, as
    /// LLVM's AMDGPU usage notes state it ("Relaxed Buffer OOB Mode"): in
    /// pieces (as [`piece`] cuts them), each 32-bit word of a piece, and a
    /// short or byte piece whole, checked on its own, with saturating
    /// unsigned arithmetic; a word that does not end inside reads zeros.
    fn hardware(memory: &[u8], records: u32, voffset: u32, bytes: usize) -> Vec<u8> {
        let mut out = Vec::new();
        let mut at = 0;
        while at < bytes {
            let n = piece(bytes - at);
            let start = voffset.saturating_add(at as u32);
            let word = n.min(4);
            for w in (0..n).step_by(word) {
                let from = start.saturating_add(w as u32);
                if from.saturating_add(word as u32) <= records {
                    out.extend_from_slice(&memory[from as usize..from as usize + word]);
                } else {
                    out.extend(std::iter::repeat_n(0, word));
                }
            }
            at += n;
        }
        out
    }

    /// Every buffer load's address and inside test, read through the
    /// hardware's rule, gives what the slice gives: the vector when it lies
    /// inside, zeros (and no vector) otherwise; over every offset around
    /// both ends, element sizes 1 to 8, vectors 1 to 16 wide.
    #[test]
    fn buffer_loads_read_what_the_slice_reads() {
        let mut checked = 0;
        for size in [1usize, 2, 4, 8] {
            for len in [0usize, 1, 2, 3, 5, 8, 13, 16, 17, 33] {
                let memory: Vec<u8> = (0..len * size).map(|i| (i * 7 + 3) as u8).collect();
                let records = records(len, size);
                assert_eq!(records as usize, len * size);
                for n in 1..=16usize {
                    for offset in (-20..len as Index + 4).chain([Index::MIN, Index::MAX, Index::MAX - 3]) {
                        let (voffset, inside) = address(len, size, n, Some(offset));
                        let read = hardware(&memory, records, voffset, n * size);
                        let fits = offset >= 0 && offset as usize + n <= len;
                        assert_eq!(inside, fits, "size {size}, len {len}, n {n}, offset {offset}");
                        if inside {
                            let from = offset as usize * size;
                            assert_eq!(read, memory[from..from + n * size], "offset {offset}");
                        } else {
                            assert_eq!(voffset, INVALID_OFFSET);
                            assert!(read.iter().all(|&b| b == 0), "size {size}, len {len}, n {n}, offset {offset}");
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// The invalid offset is past every resource that [`GlobalMemory::new`]
    /// accepts, for every piece and word of a 64-byte vector after it.
    #[test]
    fn the_invalid_offset_reads_zeros_from_the_largest_buffer() {
        let most = records(usize::MAX, 1);
        assert_eq!(most as usize, MAX_BUFFER_BYTES);
        for at in (0..64u32).step_by(4) {
            assert!(INVALID_OFFSET.saturating_add(at).saturating_add(4) > most);
        }
        // A slice of exactly 2 GiB: its last element is inside, one past it is not.
        assert_eq!(
            address(MAX_BUFFER_BYTES / 2, 2, 1, Some((MAX_BUFFER_BYTES / 2 - 1) as Index)),
            ((MAX_BUFFER_BYTES - 2) as u32, true)
        );
        assert!(!address(MAX_BUFFER_BYTES / 2, 2, 1, Some((MAX_BUFFER_BYTES / 2) as Index)).1);
        // Padding reads from the invalid offset.
        assert_eq!(address(8, 2, 1, None), (INVALID_OFFSET, false));
    }

    /// Loads through every access read what the slice reads (on the host,
    /// the slice's own loads; `address` and the model above hold the GPU's
    /// to them), and the size limit names the bytes.
    #[test]
    fn global_memory_loads_and_limits() {
        let data: Vec<u16> = (0..40).collect();
        macro_rules! each {
            ($($a:ty),+) => {$(
                let g = GlobalMemory::<u16, $a>::new(&data).unwrap();
                for offset in -3..44 {
                    assert_eq!(g.load::<4>(offset), (&data[..]).load::<4>(offset), "{offset}");
                    assert_eq!(g.load::<1>(offset), (&data[..]).load::<1>(offset), "{offset}");
                }
                assert_eq!(g.elements(), Some(40));
            )+};
        }
        each!(Plain, BufferGfx9, BufferGfx10, BufferGfx11);
        // Zero-sized elements take no bytes; one byte past 2 GiB is refused, by its count.
        let big = vec![(); usize::MAX];
        assert!(GlobalMemory::<(), BufferGfx9>::new(&big).is_ok());
        let over = vec![0u8; MAX_BUFFER_BYTES + 1];
        let e = GlobalMemory::<u8, BufferGfx9>::new(&over).unwrap_err();
        assert_eq!(
            e.to_string(),
            "an AMD buffer resource addresses at most 2147483648 bytes (2 GiB): read a larger global memory with Plain loads (bytes = 2147483649)"
        );
        assert!(GlobalMemory::<u8, Plain>::new(&over).is_ok());
        assert!(GlobalMemory::<u8, BufferGfx9>::new(&over[..MAX_BUFFER_BYTES]).is_ok());
    }
}
