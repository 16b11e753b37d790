//! Proof kernels of the typed tensor coordinates and views:
//! `make_tensor_coordinate`, `move_tensor_coordinate` and
//! `coordinate_has_valid_offset` in the loops CK Tile kernels run, next to
//! their hand-written twins. A K loop over the GEMM A LDS block (all static,
//! and with a runtime MPerBlock), and a K loop over CK's padded global A view
//! (runtime M, K, stride and pads, a runtime trip count) that asks each
//! coordinate's validity, as a tile window's loads do; and the same K loop
//! reading a typed tensor view (`pad_tensor_view` over a slice).
//!
//! The LDS loops read the tile at each offset (as a warp GEMM's loads do),
//! so the count compares the loops, not how LLVM happens to vectorise a sum
//! of four offsets on x86_64. The loops with a runtime trip count are
//! `while` loops in both kernels: written `for _ in 0..iters`, LLVM's nvptx
//! pipeline keeps a dead copy of the range's counter in the typed kernel
//! (the performance chapter has the counts).

use crate::builders::*;
use cktile_core::Index;
use cktile_core::prelude::*;

/// The row a thread walks in the 128 x 32 A tile.
#[inline(always)]
fn row(tid: u32) -> Index {
    (tid & 127) as Index
}

/// The A tile in LDS (128 x 32 elements).
pub type Tile = [Index; 4096];

/// The element of the tile at an offset (masked into the tile, as the
/// offsets of a valid coordinate are, so no bounds check is compiled).
#[inline(always)]
fn read(lds: &Tile, offset: Index) -> Index {
    lds[offset as usize & 4095]
}

/// The A LDS offset of `(m, k)` by hand (MLdsLayer 2, K=32, KPack=8).
#[inline(always)]
fn a_lds_offset(m: Index, k: Index) -> Index {
    let (mp, l) = (m / 2, m % 2);
    ((l * 4 + k / 8) ^ (mp % 8)) * 8 + mp * 64 + k % 8
}

/// A thread's K loop over its row of the all-static A LDS block: a
/// coordinate at `(m, 0)` moved by one KPack (8) four times; the sum of the
/// offsets it visits.
#[unsafe(no_mangle)]
pub extern "C" fn typed_a_lds_kloop(lds: &Tile, tid: u32) -> Index {
    match make_a_lds() {
        Ok(d) => {
            let mut c = make_tensor_coordinate(&d, [row(tid), 0]);
            let mut sum = 0;
            for _ in 0..4 {
                sum += read(lds, c.offset());
                move_tensor_coordinate(&d, &mut c, [0, 8]);
            }
            sum
        }
        Err(_) => -1,
    }
}

/// Twin of [`typed_a_lds_kloop`]: the offset formula at k = 0, 8, 16, 24.
#[unsafe(no_mangle)]
pub extern "C" fn hand_a_lds_kloop(lds: &Tile, tid: u32) -> Index {
    let m = row(tid);
    let mut sum = 0;
    for i in 0..4 {
        sum += read(lds, a_lds_offset(m, 8 * i));
    }
    sum
}

/// [`typed_a_lds_kloop`] over the block with a runtime MPerBlock
/// (descriptor built outside).
#[unsafe(no_mangle)]
pub extern "C" fn typed_a_lds_kloop_rt(d: &ALdsRt, lds: &Tile, tid: u32) -> Index {
    let mut c = make_tensor_coordinate(d, [row(tid), 0]);
    let mut sum = 0;
    for _ in 0..4 {
        sum += read(lds, c.offset());
        move_tensor_coordinate(d, &mut c, [0, 8]);
    }
    sum
}

/// Twin of [`typed_a_lds_kloop_rt`] (M does not enter the formula).
#[unsafe(no_mangle)]
pub extern "C" fn hand_a_lds_kloop_rt(m_per_block: usize, lds: &Tile, tid: u32) -> Index {
    let _ = m_per_block;
    hand_a_lds_kloop(lds, tid)
}

/// The global (m, k) a thread starts at: 8 threads a row, 8 elements each.
#[inline(always)]
fn global_start(tid: u32, row0: Index) -> (Index, Index) {
    (row0 + (tid >> 3) as Index, ((tid & 7) * 8) as Index)
}

/// A K loop over CK's padded global A view ([`GlobalA`]: runtime M, K,
/// stride and right pads): `iters` moves of KPerBlock (64) along K, each
/// coordinate's offset summed when it is valid (inside the padded lengths
/// and not in the padding), as a tile window loads a K tile per iteration.
#[unsafe(no_mangle)]
pub extern "C" fn typed_global_a_kloop(d: &GlobalA, tid: u32, row0: Index, iters: u32) -> Index {
    let (m, k) = global_start(tid, row0);
    let mut c = make_tensor_coordinate(d, [m, k]);
    let mut sum = 0;
    let mut i = 0;
    while i < iters {
        if coordinate_has_valid_offset(d, &c) {
            sum += c.offset();
        }
        move_tensor_coordinate(d, &mut c, [0, 64]);
        i += 1;
    }
    sum
}

/// Twin of [`typed_global_a_kloop`].
#[unsafe(no_mangle)]
pub extern "C" fn hand_global_a_kloop(
    (m_len, k_len, stride, pad_m, pad_k): (usize, usize, usize, usize, usize),
    tid: u32,
    row0: Index,
    iters: u32,
) -> Index {
    let (m, mut k) = global_start(tid, row0);
    let (ml, kl) = (m_len as Index, k_len as Index);
    let mut sum = 0;
    let mut i = 0;
    while i < iters {
        let inside = m >= 0 && k >= 0 && m < ml + pad_m as Index && k < kl + pad_k as Index;
        if inside && m < ml && k < kl {
            sum += m * stride as Index + k;
        }
        k += 64;
        i += 1;
    }
    sum
}

/// One move on the padded global A view: a coordinate made at the thread's
/// start, moved by `(dm, dk)` (runtime steps), and its offset when valid,
/// -1 otherwise.
#[unsafe(no_mangle)]
pub extern "C" fn typed_global_a_move(d: &GlobalA, tid: u32, row0: Index, dm: Index, dk: Index) -> Index {
    let (m, k) = global_start(tid, row0);
    let mut c = make_tensor_coordinate(d, [m, k]);
    move_tensor_coordinate(d, &mut c, [dm, dk]);
    if coordinate_has_valid_offset(d, &c) { c.offset() } else { -1 }
}

/// Twin of [`typed_global_a_move`].
#[unsafe(no_mangle)]
pub extern "C" fn hand_global_a_move(
    (m_len, k_len, stride, pad_m, pad_k): (usize, usize, usize, usize, usize),
    tid: u32,
    row0: Index,
    dm: Index,
    dk: Index,
) -> Index {
    let (m, k) = global_start(tid, row0);
    let (m, k) = (m + dm, k + dk);
    let (ml, kl) = (m_len as Index, k_len as Index);
    let inside = m >= 0 && k >= 0 && m < ml + pad_m as Index && k < kl + pad_k as Index;
    if inside && m < ml && k < kl { m * stride as Index + k } else { -1 }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every coordinate kernel computes its twin's value: every thread of
    /// the tiles, several runtime shapes, starts, trip counts and steps.
    #[test]
    fn typed_coordinate_kernels_equal_their_twins() {
        // A tile whose elements are distinct (a wrong offset reads a wrong value).
        let mut lds = [0; 4096];
        for (i, x) in lds.iter_mut().enumerate() {
            *x = (i as Index) * 7919 % 65521;
        }
        for tid in 0..1024 {
            assert_eq!(typed_a_lds_kloop(&lds, tid), hand_a_lds_kloop(&lds, tid), "a_lds_kloop {tid}");
        }
        for m_per_block in [128, 256] {
            let d = make_a_lds_rt(m_per_block).unwrap();
            for tid in 0..1024 {
                let want = hand_a_lds_kloop_rt(m_per_block, &lds, tid);
                assert_eq!(typed_a_lds_kloop_rt(&d, &lds, tid), want, "rt {tid}");
            }
        }
        for shape in [(100, 60, 72, 28, 4), (256, 300, 300, 0, 20), (1, 1, 1, 127, 63)] {
            let d = make_global_a(shape.0, shape.1, shape.2, shape.3, shape.4).unwrap();
            for row0 in [-8, 0, 64, 120] {
                for tid in 0..512 {
                    for iters in [0, 1, 3, 7] {
                        let want = hand_global_a_kloop(shape, tid, row0, iters);
                        assert_eq!(typed_global_a_kloop(&d, tid, row0, iters), want, "kloop {shape:?} {row0} {tid}");
                    }
                    for (dm, dk) in [(0, 0), (0, 64), (16, -8), (-300, 0), (1, 1000)] {
                        let want = hand_global_a_move(shape, tid, row0, dm, dk);
                        assert_eq!(typed_global_a_move(&d, tid, row0, dm, dk), want, "move {shape:?} {tid}");
                    }
                }
            }
        }
        // The sums are not all zero (the kernels do visit valid offsets).
        let d = make_global_a(100, 60, 72, 28, 4).unwrap();
        assert_eq!(typed_global_a_kloop(&d, 9, 0, 2), 72 + 8);
    }
}

/// The chain of [`GlobalA`], as `pad_tensor_view` builds it over
/// `naive((M, K), (stride, 1))` (right pads on both dimensions).
pub type GlobalAChain = cktile_core::typed::Transformed<
    cktile_core::typed::Naive<(usize, usize), (usize, cktile_core::Number<1>)>,
    (cktile_core::transforms::typed::RightPad<usize, usize>, cktile_core::transforms::typed::RightPad<usize, usize>),
    ((cktile_core::Number<0>,), (cktile_core::Number<1>,)),
    ((cktile_core::Number<0>,), (cktile_core::Number<1>,)),
>;

/// CK's padded global A view over a buffer of elements.
pub type GlobalAView<'a> = TensorView<&'a [Index], GlobalAChain>;

/// The padded global A view of `data`, `pad_tensor_view` to tiles of 64 x 64.
#[inline(always)]
pub fn make_global_a_view(data: &[Index], m: usize, k: usize, stride: usize) -> Result<GlobalAView<'_>, Error> {
    let d = make_naive_tensor_descriptor((m, k), (stride, cktile_core::Number::<1>))?;
    pad_tensor_view(
        make_tensor_view(data, d),
        (cktile_core::Number::<64>, cktile_core::Number::<64>),
        (DoPad::<true>, DoPad::<true>),
    )
}

/// [`typed_global_a_kloop`] reading the view's elements: `get` is `None`
/// (counted as 0) where the coordinate is not valid or leaves the buffer.
#[unsafe(no_mangle)]
pub extern "C" fn typed_global_a_view_kloop(a: &GlobalAView, tid: u32, row0: Index, iters: u32) -> Index {
    let (m, k) = global_start(tid, row0);
    let mut c = make_tensor_coordinate(a.descriptor(), [m, k]);
    let mut sum = 0;
    let mut i = 0;
    while i < iters {
        sum += a.get(&c).unwrap_or(0);
        move_tensor_coordinate(a.descriptor(), &mut c, [0, 64]);
        i += 1;
    }
    sum
}

/// Twin of [`typed_global_a_view_kloop`]: the bounds checks by hand, the
/// read through `get` (a negative offset is a huge index: `None`).
#[unsafe(no_mangle)]
pub extern "C" fn hand_global_a_view_kloop(
    data: &[Index],
    (m_len, k_len, stride): (usize, usize, usize),
    tid: u32,
    row0: Index,
    iters: u32,
) -> Index {
    let (m, mut k) = global_start(tid, row0);
    let (ml, kl) = (m_len as Index, k_len as Index);
    let (mp, kp) = (m_len.div_ceil(64) as Index * 64, k_len.div_ceil(64) as Index * 64);
    let mut sum = 0;
    let mut i = 0;
    while i < iters {
        if m >= 0 && k >= 0 && m < mp && k < kp && m < ml && k < kl {
            sum += data.get((m * stride as Index + k) as usize).copied().unwrap_or(0);
        }
        k += 64;
        i += 1;
    }
    sum
}

/// [`typed_global_a_view_kloop`] with the view built in the kernel
/// (`pad_tensor_view` computing the pads), reported, not compared.
#[unsafe(no_mangle)]
pub extern "C" fn typed_global_a_view_kloop_build(
    data: &[Index],
    (m_len, k_len, stride): (usize, usize, usize),
    tid: u32,
    row0: Index,
    iters: u32,
) -> Index {
    match make_global_a_view(data, m_len, k_len, stride) {
        Ok(a) => typed_global_a_view_kloop(&a, tid, row0, iters),
        Err(_) => -1,
    }
}

#[cfg(test)]
mod view_tests {
    extern crate std;
    use super::*;

    /// The view kernels read their twin's elements: buffers that cover the
    /// element space and buffers that stop short of it.
    #[test]
    fn typed_view_kernels_equal_their_twins() {
        for (m, k, stride) in [(100, 60, 72), (130, 200, 256), (1, 1, 1)] {
            let space = (m - 1) * stride + k;
            for len in [space, space / 2] {
                let data: std::vec::Vec<Index> = (0..len as Index).map(|i| 3 * i + 1).collect();
                let a = make_global_a_view(&data, m, k, stride).unwrap();
                for row0 in [-8, 0, 64, 120] {
                    for tid in 0..512 {
                        for iters in [0, 1, 4] {
                            let want = hand_global_a_view_kloop(&data, (m, k, stride), tid, row0, iters);
                            assert_eq!(typed_global_a_view_kloop(&a, tid, row0, iters), want, "{m} {k} {tid}");
                            let built = typed_global_a_view_kloop_build(&data, (m, k, stride), tid, row0, iters);
                            assert_eq!(built, want);
                        }
                    }
                }
            }
        }
        // Not vacuous: thread 9 of rows 0.. reads (1, 8) and (1, 72) is K padding.
        let data: std::vec::Vec<Index> = (0..7200).collect();
        let a = make_global_a_view(&data, 100, 60, 72).unwrap();
        assert_eq!(typed_global_a_view_kloop(&a, 9, 0, 2), 80);
    }
}
