//! The compile-time bijectivity check of a static descriptor:
//! [`assert_bijective!`](crate::assert_bijective) fails the build with the
//! first collision (both coordinates and their offset), the first valid
//! coordinate outside the element space, or the first hole.
//!
//! It enumerates every top coordinate during constant evaluation, marking
//! offsets in a bitmap as large as the element space, so it suits tiles
//! (thousands of elements); the tools crate's `check` checks larger
//! descriptors at run time.

use super::Descriptor;
use crate::{Index, MAX_DIMS};

/// The row-major coordinate number `n` of `d` (last dimension fastest).
const fn coordinate(d: &Descriptor, mut n: u64) -> [Index; MAX_DIMS] {
    let lengths = d.lengths();
    let mut out = [0; MAX_DIMS];
    let mut i = lengths.len();
    while i > 0 {
        i -= 1;
        let len = lengths.get(i) as u64;
        out[i] = (n % len) as Index;
        n /= len;
    }
    out
}

/// The first coordinate number whose valid offset is `offset`.
const fn first_with(d: &Descriptor, offset: Index, size: u64) -> u64 {
    let rank = d.num_dims();
    let mut n = 0;
    while n < size {
        let c = coordinate(d, n);
        if let Some(o) = d.offset_if_valid_inside(c.split_at(rank).0)
            && o == offset
        {
            return n;
        }
        n += 1;
    }
    size
}

/// For [`assert_bijective!`](crate::assert_bijective): panics (a compile
/// error in a `const` item) unless every valid coordinate of `d` has its own
/// offset in `[0, element_space_size)` and every offset there is reached.
/// `WORDS` is the bitmap's size in 64-bit words, at least
/// `element_space_size / 64` rounded up (the macro computes it).
///
/// ```
/// use cktile_core::descriptor::bijective::require_bijective;
/// use cktile_core::{Descriptor, Item, Transform};
/// // An 8 x 64 tile whose 8-element vector j of row i sits at slot j ^ i.
/// const TILE: Descriptor = {
///     let Ok(d) = Descriptor::packed(&[8, 8, 8]) else { panic!() };
///     let Ok(xor) = Transform::xor(8, 8) else { panic!() };
///     let Ok(pt) = Transform::pass_through(8) else { panic!() };
///     let Ok(a) = Item::new(xor, &[0, 1], &[0, 1]) else { panic!() };
///     let Ok(b) = Item::new(pt, &[2], &[2]) else { panic!() };
///     let Ok(d) = d.transform(&[a, b]) else { panic!() };
///     let Ok(rows) = Transform::pass_through(8) else { panic!() };
///     let Ok(merge) = Transform::merge(&[8, 8]) else { panic!() };
///     let Ok(r) = Item::new(rows, &[0], &[0]) else { panic!() };
///     let Ok(m) = Item::new(merge, &[1, 2], &[1]) else { panic!() };
///     let Ok(d) = d.transform(&[r, m]) else { panic!() };
///     d
/// };
/// const _: () = require_bijective::<8>(&TILE);
/// ```
pub const fn require_bijective<const WORDS: usize>(d: &Descriptor) {
    let space = d.element_space_size();
    if space as u64 > WORDS as u64 * 64 {
        panic!("cktile: assert_bijective!'s bitmap is smaller than the element space");
    }
    let size = match d.element_size() {
        Some(n) => n as u64,
        None => panic!("cktile: the descriptor has more than 2^63 coordinates"),
    };
    let rank = d.num_dims();
    let mut seen = [0u64; WORDS];
    let mut n = 0;
    while n < size {
        let c = coordinate(d, n);
        let top = c.split_at(rank).0;
        // Inside the lengths by construction: no range check.
        if let Some(offset) = d.offset_if_valid_inside(top) {
            if offset < 0 || offset >= space {
                const_panic::concat_panic!(
                    "\ncktile: the layout is not a bijection: coordinate ",
                    top,
                    " has offset ",
                    offset,
                    ", outside the element space [0, ",
                    space,
                    ")"
                );
            }
            let (word, bit) = (offset as usize / 64, offset as u32 % 64);
            if seen[word] & (1 << bit) != 0 {
                let first = coordinate(d, first_with(d, offset, n));
                const_panic::concat_panic!(
                    "\ncktile: the layout is not a bijection: coordinates ",
                    first.split_at(rank).0,
                    " and ",
                    top,
                    " both have offset ",
                    offset
                );
            }
            seen[word] |= 1 << bit;
        }
        n += 1;
    }
    let mut offset = 0;
    while offset < space {
        if seen[offset as usize / 64] & (1 << (offset as u32 % 64)) == 0 {
            const_panic::concat_panic!(
                "\ncktile: the layout is not a bijection: offset ",
                offset,
                " of [0, ",
                space,
                ") is a hole: no valid coordinate has it"
            );
        }
        offset += 1;
    }
}

/// Fails the build unless a static descriptor is a bijection onto its
/// element space: `assert_bijective!(DESCRIPTOR)`, where `DESCRIPTOR` is a
/// constant [`Descriptor`] (a `const` item, `StaticDescriptor::DESCRIPTOR`
/// or a typed descriptor's `TensorDescriptor::<C>::DESCRIPTOR`). The error
/// names the first two coordinates that share an offset, or the first hole.
///
/// It expands to a non-generic `const _: () = ...;` item, so `cargo check`
/// reports it too.
///
/// ```
/// use cktile_core::{Descriptor, Item, Transform};
/// // CK Tile's GEMM A LDS tile, M=128, K=64, KPack=8: a packed (8, 128, 8)
/// // block whose K0 index is XORed with the row, merged back to (m, k).
/// const GEMM_A: Descriptor = {
///     let Ok(d) = Descriptor::naive(&[8, 128, 8], &[8, 64, 1]) else { panic!() };
///     let Ok(xor) = Transform::xor(128, 8) else { panic!() };
///     let Ok(pt) = Transform::pass_through(8) else { panic!() };
///     let Ok(a) = Item::new(xor, &[1, 0], &[1, 0]) else { panic!() };
///     let Ok(b) = Item::new(pt, &[2], &[2]) else { panic!() };
///     let Ok(d) = d.transform(&[a, b]) else { panic!() };
///     let Ok(m) = Transform::merge(&[8, 8]) else { panic!() };
///     let Ok(pm) = Transform::pass_through(128) else { panic!() };
///     let Ok(c) = Item::new(pm, &[1], &[0]) else { panic!() };
///     let Ok(e) = Item::new(m, &[0, 2], &[1]) else { panic!() };
///     let Ok(d) = d.transform(&[c, e]) else { panic!() };
///     d
/// };
/// cktile_core::assert_bijective!(GEMM_A);
/// ```
#[macro_export]
macro_rules! assert_bijective {
    ($desc:expr $(,)?) => {
        const _: () = $crate::descriptor::bijective::require_bijective::<
            { ($desc.element_space_size() as usize).div_ceil(64) },
        >(&$desc);
    };
}
