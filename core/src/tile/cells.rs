//! [`Cells`]: the cells a [`SharedMemory`](super::SharedMemory) holds, and
//! what is known of their base's alignment, which nvptx's vector accesses
//! rest on.
//!
//! On nvptx a shared-memory access moves a vector in one instruction only
//! at an address that is a multiple of the vector's size, and LLVM merges
//! element accesses only where it can prove that. So the workgroup memory
//! is declared 16-byte aligned (`tile::gpu::workgroup_memory`), its cells
//! say so ([`Cells::aligned_unchecked`]), a split keeps the promise where
//! it still holds ([`Cells::split_at`]), and an access of 4 or 16 bytes at
//! an offset that is a multiple of its size ([`Cells::vector_at`]) reads or
//! writes through a pointer to a type of that alignment:
//! `ld.shared.b32` / `ld.shared.v4.b32` and the stores' twins. The test is
//! on the offset, an integer whose low bits the compiler knows in a kernel
//! (from the thread id and the LDS chain's constants), so it folds there.
//!
//! The promise and the accesses that rely on it live here together, with
//! `tile::gpu` and the block GEMM's instructions the library's only
//! `unsafe` code (on the GPU targets only; the host's tests make the
//! promise by testing the address, [`Cells::checked`]).
#![cfg_attr(any(target_arch = "amdgpu", target_arch = "nvptx64"), allow(unsafe_code))]

use core::cell::Cell;

/// The alignment, in bytes, of the workgroup memory's base, and the
/// largest vector a shared-memory access moves in one instruction on
/// nvptx (16 bytes: a `v4.b32`).
pub(crate) const VECTOR_ALIGN: usize = 16;

/// Shared-memory cells, and whether their first cell's address is a
/// multiple of [`VECTOR_ALIGN`] bytes (the invariant the vector accesses
/// rely on; only this module sets it).
pub(crate) struct Cells<'a, T> {
    cells: &'a [Cell<T>],
    /// The promise. Its 254 invalid values are also the largest niche of
    /// a `SharedMemory` and of whatever holds one, so an enum around it (a
    /// kernel's `Result` of its pipeline) keeps its tag here rather than in
    /// the cells' pointer. With the tag in the pointer (its null niche),
    /// the error path writes the pointer's bytes as an integer, LLVM
    /// carries the pointer through an integer, and its accesses lose the
    /// shared address space (generic `st.b16` on nvptx, 16 of them in a
    /// pipeline built with `let Ok(..) else` per window). A field of its
    /// own for the niche made a `SharedMemory` 8 bytes longer.
    aligned: bool,
}

impl<T> Clone for Cells<'_, T> {
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Cells<'_, T> {}

impl<'a, T> Cells<'a, T> {
    /// `cells`, of a base not known to be aligned.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) const fn any(cells: &'a [Cell<T>]) -> Cells<'a, T> {
        Cells { cells, aligned: false }
    }

    /// `cells`, aligned where their address says so (a run-time test the
    /// compiler cannot fold for the shared address space: the host's
    /// tests use it).
    #[cfg(test)]
    pub(crate) fn checked(cells: &'a [Cell<T>]) -> Cells<'a, T> {
        Cells { cells, aligned: cells.as_ptr().addr().is_multiple_of(VECTOR_ALIGN) }
    }

    /// `cells`, whose first cell's address is a multiple of
    /// [`VECTOR_ALIGN`] bytes.
    ///
    /// # Safety
    ///
    /// It is (the workgroup memory's base, declared so).
    #[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) const unsafe fn aligned_unchecked(cells: &'a [Cell<T>]) -> Cells<'a, T> {
        Cells { cells, aligned: true }
    }

    /// The cells.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) const fn get(&self) -> &'a [Cell<T>] {
        self.cells
    }

    /// Whether the first cell's address is a multiple of [`VECTOR_ALIGN`].
    #[cfg(test)]
    pub(crate) const fn is_aligned(&self) -> bool {
        self.aligned
    }

    /// The first `mid` cells (at most all) and the rest. The rest keeps
    /// the promise when the first `mid` take a multiple of
    /// [`VECTOR_ALIGN`] bytes (B's LDS block after A's).
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) fn split_at(self, mid: usize) -> (Cells<'a, T>, Cells<'a, T>) {
        let mid = mid.min(self.cells.len());
        // `mid` cells lie in the slice: their byte count does not wrap.
        let rest_aligned = self.aligned && mid.wrapping_mul(core::mem::size_of::<T>()).is_multiple_of(VECTOR_ALIGN);
        (
            Cells { cells: &self.cells[..mid], aligned: self.aligned },
            Cells { cells: &self.cells[mid..], aligned: rest_aligned },
        )
    }

    /// Whether the `N` cells from `start` move as one aligned vector on
    /// nvptx: they lie inside, are a [`whole_vector`], and their address
    /// is a multiple of its size, which with an aligned base is `start`'s
    /// bytes being one.
    #[cfg(any(test, target_arch = "nvptx64"))]
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) const fn vector_at<const N: usize>(&self, start: usize) -> bool {
        let (size, bytes) = (core::mem::size_of::<T>(), core::mem::size_of::<[T; N]>());
        // Inside the cells, `start * size` is below the slice's byte length: no wrap.
        self.aligned
            && whole_vector::<T, N>()
            && start <= self.cells.len()
            && N <= self.cells.len() - start
            && start.wrapping_mul(size).is_multiple_of(bytes)
    }
}

/// Whether `N` elements of `T` take 4 or 16 bytes, the vectors one aligned
/// instruction moves on nvptx (a `b32` or a `v4.b32`; an 8-byte array
/// loads as one 64-bit integer, split by shifts, more instructions than
/// its elements): shared memory's and [`Vectors`](super::Vectors)' rule.
#[cfg(any(test, target_arch = "nvptx64"))]
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) const fn whole_vector<T, const N: usize>() -> bool {
    let bytes = core::mem::size_of::<[T; N]>();
    bytes == 4 || bytes == VECTOR_ALIGN
}

/// A 16-byte alignment as a type (`#[repr(align)]` takes no const
/// parameter): the workgroup memory's base and a 16-byte vector.
#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
#[repr(C, align(16))]
pub(crate) struct Align16<V>(pub(crate) V);
#[cfg(any(target_arch = "amdgpu", target_arch = "nvptx64"))]
const _: () = assert!(core::mem::align_of::<Align16<u8>>() == VECTOR_ALIGN);

/// A 4-byte vector's alignment.
#[cfg(target_arch = "nvptx64")]
#[repr(C, align(4))]
struct Align4<V>(V);

/// The `N` elements at `v` in one load of their size's alignment (one
/// `ld.b32` or `ld.v4.b32` on nvptx): the vectors of shared memory here,
/// and of a [`GlobalMemory`](super::GlobalMemory) of
/// [`Vectors`](super::Vectors).
///
/// # Safety
///
/// `v` is valid for reads of `[T; N]`, which take 4 or 16 bytes, and its
/// address is a multiple of that size.
#[cfg(target_arch = "nvptx64")]
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(crate) unsafe fn read_vector<T: Copy, const N: usize>(v: *const [T; N]) -> [T; N] {
    // SAFETY: the caller's: each wrapper has exactly the array's size where it is chosen, and
    // the address is a multiple of it.
    unsafe {
        if core::mem::size_of::<[T; N]>() == VECTOR_ALIGN {
            (*v.cast::<Align16<[T; N]>>()).0
        } else {
            (*v.cast::<Align4<[T; N]>>()).0
        }
    }
}

#[cfg(target_arch = "nvptx64")]
impl<T: Copy> Cells<'_, T> {
    /// The `N` elements from `start` in one aligned load, where
    /// [`vector_at`](Self::vector_at); `None` otherwise.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) fn load_vector<const N: usize>(&self, start: usize) -> Option<[T; N]> {
        if !self.vector_at::<N>(start) {
            return None;
        }
        let v = self.cells.as_ptr().wrapping_add(start).cast::<[T; N]>();
        // SAFETY: `vector_at`: the `N` cells from `start` lie inside, they are 4 or 16 bytes,
        // and their address is a multiple of that (the base is aligned to `VECTOR_ALIGN` bytes,
        // this type's invariant, which each of those divides); a `Cell<T>` has `T`'s layout.
        Some(unsafe { read_vector(v) })
    }

    /// Writes `f(j)` for `j` in `0..N` from `start` in one aligned store,
    /// where [`vector_at`](Self::vector_at); returns whether it did (`f`
    /// is not called otherwise).
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) fn store_vector<const N: usize>(&self, start: usize, mut f: impl FnMut(usize) -> T) -> bool {
        if !self.vector_at::<N>(start) {
            return false;
        }
        // Built by a plain loop: `array::from_fn`'s larger body tips LLVM's inliner against
        // the store visits around it.
        let mut values = [f(0); N];
        let mut j = 1;
        while j < N {
            values[j] = f(j);
            j += 1;
        }
        let v = self.cells.as_ptr().wrapping_add(start).cast::<[T; N]>().cast_mut();
        // SAFETY: as `load_vector`'s; the cells are `UnsafeCell`s, written through a shared
        // reference as `Cell::set` writes them.
        unsafe {
            if core::mem::size_of::<[T; N]>() == VECTOR_ALIGN {
                *v.cast::<Align16<[T; N]>>() = Align16(values);
            } else {
                *v.cast::<Align4<[T; N]>>() = Align4(values);
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 16-byte-aligned block of `T`s: the workgroup memory's base on the GPU.
    #[repr(C, align(16))]
    struct Block<T>([T; 48]);

    /// Every vector [`Cells::vector_at`] accepts lies inside the cells at an address that
    /// is a multiple of its size, which is 4 or 16 bytes; and of cells that carry the
    /// promise it accepts every such vector. Checked on real addresses, over every split
    /// of an aligned block (the rest keeps or drops the promise), every start and every
    /// width.
    fn vector_at_matches_addresses<T: Copy + Default>() {
        let mut block = Block([T::default(); 48]);
        let whole = Cells::checked(Cell::from_mut(&mut block.0[..]).as_slice_of_cells());
        assert!(whole.is_aligned());
        let mut accepted = 0;
        for mid in 0..=whole.get().len() + 1 {
            let (head, rest) = whole.split_at(mid);
            for cells in [head, rest, Cells::any(rest.get())] {
                macro_rules! widths {
                    ($($n:literal)*) => {$(
                        for start in 0..cells.get().len() + 2 {
                            let bytes = core::mem::size_of::<[T; $n]>();
                            let address = cells.get().as_ptr().addr() + start * core::mem::size_of::<T>();
                            let inside = cells.get().len().checked_sub($n).is_some_and(|last| start <= last);
                            let fits = inside && (bytes == 4 || bytes == 16) && address.is_multiple_of(bytes);
                            let accepts = cells.vector_at::<$n>(start);
                            assert_eq!(accepts, fits && cells.is_aligned(), "mid {mid}, start {start}, N {}", $n);
                            accepted += usize::from(accepts);
                        }
                    )*};
                }
                widths!(1 2 3 4 8 16);
            }
        }
        assert!(accepted > 100, "{accepted}");
    }

    #[test]
    fn vector_at_matches_addresses_u8() {
        vector_at_matches_addresses::<u8>();
    }

    #[test]
    fn vector_at_matches_addresses_u16() {
        vector_at_matches_addresses::<u16>();
    }

    #[test]
    fn vector_at_matches_addresses_u32() {
        vector_at_matches_addresses::<u32>();
    }

    /// A split keeps the promise exactly where the rest's base stays aligned, and
    /// `checked` promises exactly where the address is aligned.
    #[test]
    fn split_keeps_alignment_where_it_holds() {
        let mut block = Block([0u16; 48]);
        let cells = Cell::from_mut(&mut block.0[..]).as_slice_of_cells();
        let whole = Cells::checked(cells);
        for mid in 0..=60 {
            let (head, rest) = whole.split_at(mid);
            assert!(head.is_aligned());
            assert_eq!(rest.is_aligned(), mid.min(48).is_multiple_of(8), "mid {mid}");
            assert_eq!(rest.is_aligned(), rest.get().as_ptr().addr().is_multiple_of(VECTOR_ALIGN), "mid {mid}");
            assert_eq!(Cells::checked(rest.get()).is_aligned(), rest.is_aligned(), "mid {mid}");
        }
        assert!(!Cells::any(cells).is_aligned());
        assert!(!Cells::checked(&cells[1..]).is_aligned());
    }
}
