//! What tile windows read and write: [`TileMemory`] (vectors of elements
//! at an offset) and [`TileMemoryMut`], for slices, arrays, `Vec`s and
//! [`SharedMemory`] (a slice of [`Cell`]s); global memory read through
//! AMD's buffer loads is [`GlobalMemory`](super::GlobalMemory)
//! (`tile::buffer`).
//!
//! [`SharedMemory`] is shared memory as a kernel sees it: several windows
//! over one LDS block (the block's store window and the warps' read
//! windows) hold it at once, and each writes through a shared reference.
//! On a GPU the kernel makes its global slices from its pointers
//! (`core::slice::from_raw_parts`, the kernel's one `unsafe` line) and its
//! LDS from the launch-sized workgroup memory (`tile::gpu::workgroup_memory`,
//! on amdgcn and nvptx: with `tile::cells` and `tile::buffer`, the
//! library's only `unsafe` code outside the block GEMM's instructions).
//!
//! On nvptx a [`SharedMemory`] over the workgroup memory moves each
//! vector of 4 or 16 bytes whose address allows it in one instruction
//! (`tile::cells`); everything else moves element by element, and the
//! compiler merges what it can.
//!
//! Every access is bounds-checked against the memory's length: a vector
//! that leaves it reads as absent (the window loads zeros) and is not
//! written. This is CK Tile's out-of-bounds rule for AMD buffer loads, which
//! the hardware checks for free (a [`GlobalMemory`](super::GlobalMemory)
//! of buffer loads does, on amdgcn); for LDS, for plain global loads, and
//! on NVIDIA, cktile's check is one compare per access that CK's C++ does
//! not make (Rust's slices need it).
//!
//! ```
//! use cktile_core::tile::{TileMemory, TileMemoryMut};
//! use core::cell::Cell;
//! let data = [1u16, 2, 3, 4, 5];
//! assert_eq!((&data[..]).load::<2>(3), Some([4, 5]));
//! assert_eq!((&data[..]).load::<2>(4), None); // past the end
//! let lds = [const { Cell::new(0u16) }; 4];
//! let mut shared = cktile_core::tile::SharedMemory::new(&lds);
//! assert!(shared.store(1, [7, 8]));
//! assert_eq!(shared.load::<4>(0), Some([0, 7, 8, 0]));
//! ```

use super::cells::Cells;
use crate::Index;
use core::cell::Cell;
use core::ops::Range;

/// Memory a tile window loads vectors from.
///
/// An implementation gives [`load_with`](Self::load_with): it hands the
/// caller each element of the vector, in order, so a window writes them
/// straight into its registers with no array in between.
///
/// ```
/// use cktile_core::tile::TileMemory;
/// let data = vec![0.5f32; 8];
/// assert_eq!(data.load::<4>(4), Some([0.5; 4]));
/// assert_eq!(data.load::<1>(-1), None);
/// ```
pub trait TileMemory {
    /// The element type.
    type Element: Copy;
    /// Calls `f(j, element)` for the `N` elements from `offset`, when all
    /// of them lie inside the memory; returns whether it did (nothing is
    /// called otherwise).
    ///
    /// ```
    /// use cktile_core::tile::TileMemory;
    /// let data = [1u8, 2, 3, 4];
    /// let mut sum = 0;
    /// assert!((&data[..]).load_with::<2>(1, |j, x| sum += (j as u8 + 1) * x));
    /// assert_eq!(sum, 2 + 2 * 3);
    /// assert!(!(&data[..]).load_with::<2>(3, |_, _| unreachable!()));
    /// ```
    fn load_with<const N: usize>(&self, offset: Index, f: impl FnMut(usize, Self::Element)) -> bool;

    /// Whether [`load_or_default`](Self::load_or_default) reads zeros by
    /// itself, with no test the compiler sees (AMD's buffer loads on
    /// amdgcn, and the same memory on the host, which reads the same): the
    /// windows then read every access through it. `false` by default: the
    /// windows test [`load_with`](Self::load_with)'s answer.
    ///
    /// ```
    /// use cktile_core::tile::TileMemory;
    /// assert!(!<&[u8] as TileMemory>::READS_ZEROS);
    /// ```
    const READS_ZEROS: bool = false;

    /// The number of elements, when the memory knows it (`None` by
    /// default). A window over a view whose chain is a compile-time
    /// constant compares it with the largest offset the chain reaches: a
    /// memory that holds them all lets the compiler drop its loads' bounds
    /// checks (see [`window`](super::window)). It changes no value read,
    /// when it is the length [`load_with`](Self::load_with) checks against:
    /// a larger one can make a load the memory refuses read another of its
    /// vectors instead of zeros (every access stays checked).
    ///
    /// ```
    /// use cktile_core::tile::TileMemory;
    /// assert_eq!([1u8, 2, 3].elements(), Some(3));
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn elements(&self) -> Option<usize> {
        None
    }

    /// Calls `f(j, element)` for the `N` elements from `offset` when
    /// `offset` is `Some` and they all lie inside the memory, and
    /// `f(j, Default::default())` for each `j` otherwise: what a window
    /// reads at an access (padding, `None`, and a vector outside read as
    /// zeros). The default calls [`load_with`](Self::load_with); AMD's
    /// buffer loads ([`GlobalMemory`](super::GlobalMemory)) read zeros
    /// themselves, with no branch.
    ///
    /// ```
    /// use cktile_core::tile::TileMemory;
    /// let data = [1u8, 2, 3];
    /// let mut got = [9; 2];
    /// (&data[..]).load_or_default::<2>(Some(1), |j, x| got[j] = x);
    /// assert_eq!(got, [2, 3]);
    /// (&data[..]).load_or_default::<2>(Some(2), |j, x| got[j] = x);
    /// assert_eq!(got, [0, 0]);
    /// (&data[..]).load_or_default::<1>(None, |j, x| got[j] = x + 5);
    /// assert_eq!(got, [5, 0]);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn load_or_default<const N: usize>(&self, offset: Option<Index>, f: impl FnMut(usize, Self::Element))
    where
        Self::Element: Default,
    {
        read_or_default::<Self, N>(self, offset, f);
    }

    /// The `N` elements from `offset`, or `None` when any of them lies
    /// outside the memory.
    ///
    /// ```
    /// use cktile_core::tile::TileMemory;
    /// assert_eq!([1u8, 2, 3].load::<2>(1), Some([2, 3]));
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn load<const N: usize>(&self, offset: Index) -> Option<[Self::Element; N]> {
        let mut out: Option<[Self::Element; N]> = None;
        self.load_with::<N>(offset, |j, x| {
            let v = out.get_or_insert([x; N]);
            v[j] = x;
        });
        out
    }
}

/// [`TileMemory::load_or_default`]'s answer from
/// [`TileMemory::load_with`]'s: the vector where `offset` is `Some` and it
/// lies inside `memory`, defaults otherwise.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(super) fn read_or_default<M: TileMemory + ?Sized, const N: usize>(
    memory: &M,
    offset: Option<Index>,
    mut f: impl FnMut(usize, M::Element),
) where
    M::Element: Default,
{
    if !offset.is_some_and(|o| memory.load_with::<N>(o, &mut f)) {
        for j in 0..N {
            f(j, M::Element::default());
        }
    }
}

/// Memory a tile window also stores vectors into.
///
/// ```
/// use cktile_core::tile::{TileMemory, TileMemoryMut};
/// let mut data = [0u8; 4];
/// assert!(data.store(2, [1, 2]));
/// assert!(!data.store(3, [1, 2])); // would leave the memory: nothing written
/// assert_eq!(data, [0, 0, 1, 2]);
/// ```
pub trait TileMemoryMut: TileMemory {
    /// Writes `f(j)` at `offset + j` for `j` in `0..N` when all of them lie
    /// inside the memory; returns whether it wrote (`f` is not called
    /// otherwise).
    ///
    /// ```
    /// use cktile_core::tile::TileMemoryMut;
    /// let mut data = [0u8; 4];
    /// assert!(data.store_with::<3>(1, |j| 10 * j as u8));
    /// assert_eq!(data, [0, 0, 10, 20]);
    /// ```
    fn store_with<const N: usize>(&mut self, offset: Index, f: impl FnMut(usize) -> Self::Element) -> bool;

    /// Writes `values` from `offset` when all of them lie inside the
    /// memory; returns whether it wrote.
    ///
    /// ```
    /// use cktile_core::tile::TileMemoryMut;
    /// let mut data = vec![0u16; 3];
    /// assert!(data.store(0, [7, 8]));
    /// assert_eq!(data, [7, 8, 0]);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn store<const N: usize>(&mut self, offset: Index, values: [Self::Element; N]) -> bool {
        self.store_with::<N>(offset, |j| values[j])
    }
}

/// The positions `[offset, offset + n)` when they lie inside `len`, as a
/// slice (global memory) tests them: [`one_compare`] on nvptx,
/// [`two_sided`] elsewhere.
///
/// On sm_90 one compare per access is two instructions fewer than two
/// (128 fewer in the whole GEMM's epilogue, 1,597 to 1,467), and no kernel
/// of the gate grows. On gfx942 the whole GEMM grows from 1,624 to 2,009
/// with it (2,328 with the stores' test alone; `scripts/target-icount.sh`),
/// so amdgcn keeps the two-sided test.
///
/// Callers branch on this range, then index the slice with it: a slice's
/// `get` would return an `Option` of a reference, and LLVM cannot fold
/// that reference's null test once the pointer has changed address space
/// (a second compare and branch for every global load on nvptx).
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(super) fn range(offset: Index, n: usize, len: usize) -> Option<Range<usize>> {
    if cfg!(target_arch = "nvptx64") { one_compare(offset, n, len) } else { two_sided(offset, n, len) }
}

/// [`range`] in one unsigned compare of the offset: `len - n` is the same
/// for every access of a window (computed once), and a negative offset,
/// seen as a `u64`, lies past it.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
fn one_compare(offset: Index, n: usize, len: usize) -> Option<Range<usize>> {
    // At most `Index::MAX`, so that no negative offset passes (a slice of
    // zero-sized elements can be longer).
    let last = len.checked_sub(n)?.min(Index::MAX as usize);
    let start = offset as u64;
    if start <= last as u64 {
        // `start <= last`: the cast keeps the value, and `start + n <= len`.
        let start = start as usize;
        Some(start..start + n)
    } else {
        None
    }
}

/// [`range`] as two tests: the offset not negative, then its end inside
/// `len`. [`SharedMemory`] always tests this way: a window's LDS-reach
/// fallback (`unreachable_fallback` in [`window`](super::window)) puts a
/// vector of the memory on both sides of the end test, which LLVM then
/// drops; with [`one_compare`] it keeps the test, and sm_90's LDS-reading
/// kernels grow by up to 51 instructions.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
fn two_sided(offset: Index, n: usize, len: usize) -> Option<Range<usize>> {
    let start = usize::try_from(offset).ok()?;
    let end = start.checked_add(n)?;
    if end <= len { Some(start..end) } else { None }
}

/// `s[r]` as an array reference (`r` from [`range`], of length `N`: the
/// length test folds away).
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
fn vector<T, const N: usize>(s: &[T], r: Range<usize>) -> Option<&[T; N]> {
    s[r].try_into().ok()
}

// The loops below walk `&[T; N]` (N constant steps, unrolled) and hand
// each element over by itself: nothing the window moves passes through an
// array value, which would leave registers.

#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
pub(super) fn load_from<T: Copy, const N: usize>(s: &[T], offset: Index, mut f: impl FnMut(usize, T)) -> bool {
    let Some(r) = range(offset, N, s.len()) else {
        return false;
    };
    let Some(v) = vector::<T, N>(s, r) else {
        return false;
    };
    for (j, &x) in v.iter().enumerate() {
        f(j, x);
    }
    true
}

#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
fn store_into<T: Copy, const N: usize>(s: &mut [T], offset: Index, mut f: impl FnMut(usize) -> T) -> bool {
    let Some(r) = range(offset, N, s.len()) else {
        return false;
    };
    let Ok(dst) = <&mut [T; N]>::try_from(&mut s[r]) else {
        return false;
    };
    for (j, d) in dst.iter_mut().enumerate() {
        *d = f(j);
    }
    true
}

macro_rules! slice_memory {
    ($([$($g:tt)*] $t:ty, $mut:tt;)*) => {$(
        impl<$($g)*> TileMemory for $t {
            type Element = T;
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn load_with<const N: usize>(&self, offset: Index, f: impl FnMut(usize, T)) -> bool {
                load_from::<T, N>(&self[..], offset, f)
            }
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn elements(&self) -> Option<usize> {
                Some(self[..].len())
            }
        }
        slice_memory!(@mut $mut [$($g)*] $t);
    )*};
    (@mut yes [$($g:tt)*] $t:ty) => {
        impl<$($g)*> TileMemoryMut for $t {
            #[cfg_attr(always_inline, inline(always))]
            #[cfg_attr(not(always_inline), inline)]
            fn store_with<const N: usize>(&mut self, offset: Index, f: impl FnMut(usize) -> T) -> bool {
                store_into::<T, N>(&mut self[..], offset, f)
            }
        }
    };
    (@mut no [$($g:tt)*] $t:ty) => {};
}

slice_memory! {
    ['a, T: Copy] &'a [T], no;
    ['a, T: Copy] &'a mut [T], yes;
    [T: Copy, const M: usize] [T; M], yes;
}

#[cfg(feature = "alloc")]
slice_memory! {
    [T: Copy] alloc::vec::Vec<T>, yes;
}

/// Shared memory (LDS) as windows see it: a slice of [`Cell`]s, which every
/// window over it reads and writes through a shared reference. `Copy`, so
/// a block's store window and its warps' read windows each hold one.
///
/// ```
/// use cktile_core::tile::{SharedMemory, TileMemory, TileMemoryMut};
/// let mut lds = [0u32; 8];
/// let shared = SharedMemory::from_mut(&mut lds);
/// let (mut a, b) = (shared, shared);
/// assert!(a.store(4, [1, 2, 3, 4]));
/// assert_eq!(b.load::<2>(5), Some([2, 3]));
/// assert_eq!(shared.len(), 8);
/// ```
pub struct SharedMemory<'a, T> {
    /// The cells, and whether their base is aligned (`tile::cells`; its
    /// flag is also the niche an enum around a shared memory keeps its tag
    /// in).
    cells: Cells<'a, T>,
}

impl<T: Copy + core::fmt::Debug> core::fmt::Debug for SharedMemory<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.cells.get().iter().map(Cell::get)).finish()
    }
}

impl<T> Clone for SharedMemory<'_, T> {
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for SharedMemory<'_, T> {}

impl<'a, T> SharedMemory<'a, T> {
    /// Shared memory over `cells`.
    ///
    /// ```
    /// use core::cell::Cell;
    /// let cells = [const { Cell::new(1u8) }; 4];
    /// assert_eq!(cktile_core::tile::SharedMemory::new(&cells).len(), 4);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn new(cells: &'a [Cell<T>]) -> SharedMemory<'a, T> {
        SharedMemory::of(Cells::any(cells))
    }

    /// Shared memory over `cells`, with what they say of their alignment
    /// (the workgroup memory's).
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub(crate) const fn of(cells: Cells<'a, T>) -> SharedMemory<'a, T> {
        SharedMemory { cells }
    }

    /// Shared memory over a mutable slice (borrowed for as long as the
    /// shared memory lives).
    ///
    /// ```
    /// let mut data = [0u8; 3];
    /// let s = cktile_core::tile::SharedMemory::from_mut(&mut data[..]);
    /// assert_eq!(s.len(), 3);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn from_mut(data: &'a mut [T]) -> SharedMemory<'a, T> {
        SharedMemory::new(Cell::from_mut(data).as_slice_of_cells())
    }

    /// The number of elements.
    ///
    /// ```
    /// assert!(cktile_core::tile::SharedMemory::<u8>::new(&[]).is_empty());
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn len(&self) -> usize {
        self.cells.get().len()
    }

    /// Whether there are no elements.
    ///
    /// ```
    /// assert!(!cktile_core::tile::SharedMemory::from_mut(&mut [1u8][..]).is_empty());
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn is_empty(&self) -> bool {
        self.cells.get().is_empty()
    }

    /// The first `mid` elements and the rest, as two shared memories (a
    /// block's LDS split between two operands' blocks, as CK's GEMM
    /// pipeline places B's LDS block after A's). A `mid` past the end
    /// gives all of it and an empty rest; a window over a memory shorter
    /// than its block reads zeros past the end and writes nothing there,
    /// as over any memory.
    ///
    /// It never panics, and it returns no `Option`: an optional reference
    /// into workgroup memory is told apart by comparing the pointer with
    /// null, which the compiler cannot fold for the shared address space
    /// (slices' `split_at` left that compare and a trap in every GEMM
    /// kernel on amdgcn and nvptx).
    ///
    /// Over the workgroup memory, the rest keeps its 16-byte-aligned base
    /// (which nvptx's vector accesses rest on) when the first `mid`
    /// elements take a multiple of 16 bytes.
    ///
    /// ```
    /// let mut data = [1u8, 2, 3, 4, 5];
    /// let (a, b) = cktile_core::tile::SharedMemory::from_mut(&mut data[..]).split_at(2);
    /// assert_eq!((a.len(), b.len()), (2, 3));
    /// assert_eq!(b.cells()[0].get(), 3);
    /// let (all, rest) = a.split_at(9);
    /// assert_eq!((all.len(), rest.len()), (2, 0));
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub fn split_at(self, mid: usize) -> (SharedMemory<'a, T>, SharedMemory<'a, T>) {
        let (head, rest) = self.cells.split_at(mid);
        (SharedMemory { cells: head }, SharedMemory { cells: rest })
    }

    /// The cells.
    ///
    /// ```
    /// let mut data = [5u8; 2];
    /// assert_eq!(cktile_core::tile::SharedMemory::from_mut(&mut data[..]).cells()[1].get(), 5);
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn cells(&self) -> &'a [Cell<T>] {
        self.cells.get()
    }
}

impl<T: Copy> TileMemory for SharedMemory<'_, T> {
    type Element = T;
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn elements(&self) -> Option<usize> {
        Some(self.len())
    }
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn load_with<const N: usize>(&self, offset: Index, mut f: impl FnMut(usize, T)) -> bool {
        let Some(r) = two_sided(offset, N, self.len()) else {
            return false;
        };
        // The offset itself (`r.start` here): the range's start can reach the alignment test
        // through a value LLVM carries across a loop's iterations (CompV3's), where it does not fold.
        #[cfg(target_arch = "nvptx64")]
        if let Some(v) = self.cells.load_vector::<N>(offset as usize) {
            for (j, &x) in v.iter().enumerate() {
                f(j, x);
            }
            return true;
        }
        let Some(cells) = vector::<Cell<T>, N>(self.cells(), r) else {
            return false;
        };
        for (j, cell) in cells.iter().enumerate() {
            f(j, cell.get());
        }
        true
    }
}

impl<T: Copy> TileMemoryMut for SharedMemory<'_, T> {
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    fn store_with<const N: usize>(&mut self, offset: Index, mut f: impl FnMut(usize) -> T) -> bool {
        let Some(r) = two_sided(offset, N, self.len()) else {
            return false;
        };
        // The offset itself (`r.start` here): the range's start can reach the alignment test
        // through a value LLVM carries across a loop's iterations (CompV3's), where it does not fold.
        #[cfg(target_arch = "nvptx64")]
        if self.cells.store_vector::<N>(offset as usize, &mut f) {
            return true;
        }
        let Some(cells) = vector::<Cell<T>, N>(self.cells(), r) else {
            return false;
        };
        for (j, cell) in cells.iter().enumerate() {
            cell.set(f(j));
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-compare test (nvptx's global memory) and the two-sided test
    /// (everything else) accept the same accesses, at the extremes of every argument and
    /// around each length's end.
    #[test]
    fn both_range_tests_agree() {
        let lens = [0, 1, 2, 7, 8, 9, 64, 1 << 20, usize::MAX / 2, usize::MAX - 1, usize::MAX];
        let mut offsets = vec![Index::MIN, Index::MIN + 1, -9, -8, -1, 0, 1, Index::MAX - 8, Index::MAX];
        for &len in &lens {
            for d in -10..=10 {
                offsets.push(Index::try_from(len).unwrap_or(Index::MAX).saturating_add(d));
            }
        }
        let mut accepted = 0;
        for &len in &lens {
            for n in [0, 1, 2, 4, 8, 16] {
                for &offset in &offsets {
                    let one = one_compare(offset, n, len);
                    assert_eq!(one, two_sided(offset, n, len), "offset {offset}, n {n}, len {len}");
                    if let Some(r) = one {
                        // Exactly the positions inside the memory.
                        assert_eq!((r.start as i128, r.end), (offset as i128, r.start + n));
                        assert!(r.end <= len);
                        accepted += 1;
                    }
                }
            }
        }
        assert!(accepted > 100, "{accepted}");
    }
}
