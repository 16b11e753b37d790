//! [`Program`]: a descriptor compiled for many runtime offsets.
//!
//! [`Descriptor::calculate_offset`] walks the chain stage by stage, moving
//! every dimension's index through every stage, identity items included,
//! and runs each transform's general formula. A program is the same chain
//! compiled once into a flat list of specialised register operations, from
//! the steps of each transform's
//! [`lowering`](cktile_transforms::Transform::lowering) (the compiler never
//! looks at a transform's kind):
//!
//! - each index lives in one of a few registers; an output that is one of
//!   the item's inputs (a pass-through, a one-length merge or unmerge, a
//!   unit embed, the unchanged half of a `xor`) only renames a register,
//!   and an item without outputs or a test (`insert`, `replicate`) vanishes;
//! - an affine step (embed, unmerge, offset, slice, the pad family, freeze)
//!   is one fused multiply-add over its inputs, zero terms dropped;
//! - an affine operation whose only reader is another affine operation is
//!   folded into it, so a chain of embeds, unmerges and offsets costs one
//!   operation, and constants (a `freeze`) fold into their reader;
//! - a split, division or remainder by powers of two (a merge, a modulo, a
//!   xor's remainder, fused into its xor) takes shifts and masks
//!   ([`kinds::div_pow2`] and [`kinds::rem_pow2`], the truncating division
//!   of [`kinds`] for every value, negative ones included); where interval
//!   arithmetic over the top lengths proves a division's input never
//!   negative, a coordinate inside the lengths takes a plain shift and mask
//!   (the same values there) and the batched evaluation vectorises; by
//!   other numbers they divide ([`kinds::div`], [`kinds::rem`]); a swizzle
//!   runs [`kinds::swizzle::apply`]'s fields, a functor its map's
//!   [`kinds::functor::BitMoves`];
//! - a lowering's validity test becomes a range test, run only by the
//!   checked evaluations.
//!
//! So a program's offsets are the descriptor's, bit for bit, for every
//! coordinate (the tests hold the two equal on random chains of every
//! transform kind, inside and outside the lengths).
//!
//! Build one when a descriptor answers many coordinates (the bank analyzer
//! and the layout search do, once per layout); for one offset,
//! `calculate_offset` is cheaper. Evaluate many coordinates per call with
//! [`Program::offsets_if_valid`] (coordinates as arrays, answers as
//! options) or [`Program::offsets_columns`] (coordinates as one slice per
//! dimension, answers as offsets and validity bits, the faster), which run
//! each operation over [`LANES`] coordinates at a time; there a multiply
//! whose factors the same interval arithmetic bounds to `0..2^32` takes
//! the 32-bit multiply that vector units have. Static descriptors need
//! neither: their offsets fold at compile time
//! ([`StaticDescriptor`](cktile_core::StaticDescriptor)).
//!
//! The module's parts: this file holds the operations and the evaluation of
//! one coordinate, `compile` the compiler (specialising, folding, the
//! register ranges), `batch` the batched evaluations.
//!
//! ```
//! use cktile_analysis::Program;
//! let d = cktile_analysis::spec::parse(
//!     "naive((8,128,8),(8,64,1))
//!      | transform(xor((128,8)) on [1,0] -> [1,0], pass_through(8) on [2] -> [2])
//!      | transform(pass_through(128) on [1] -> [0], merge((8,8)) on [0,2] -> [1])",
//! )?;
//! let p = Program::of(&d);
//! assert_eq!(p.operations(), 3); // embed, xor, merge: the pass-throughs are gone
//! for (m, k) in [(0, 0), (3, 9), (127, 63)] {
//!     assert_eq!(p.calculate_offset(&[m, k]), d.calculate_offset(&[m, k]));
//! }
//! # Ok::<(), cktile_analysis::Error>(())
//! ```
//! use cktile_analysis::Program;
//!
//! [`kinds`]: cktile_transforms::kinds
//! [`kinds::div_pow2`]: cktile_transforms::kinds::div_pow2
//! [`kinds::div`]: cktile_transforms::kinds::div
//! [`kinds::rem`]: cktile_transforms::kinds::rem
//! [`kinds::rem_pow2`]: cktile_transforms::kinds::rem_pow2
//! [`kinds::swizzle::apply`]: cktile_transforms::kinds::swizzle::apply
//! [`kinds::functor::BitMoves`]: cktile_transforms::kinds::functor::BitMoves
//! [`kinds::functor::BitMoves`]: cktile_transforms::kinds::functor::BitMoves

#[cfg(doc)]
use cktile_core::Descriptor;
use cktile_core::{MAX_ITEMS, MAX_STAGES};
use cktile_transforms::kinds::{div, div_pow2, functor, rem, rem_pow2, swizzle};
use cktile_transforms::{Dims, Index, MAX_DIMS};

mod batch;
mod compile;
mod runs;
#[cfg(test)]
pub(crate) use runs::runs_by_brute_force;

/// The most operations a program may hold: two per item of a full
/// descriptor (a lowering has at most two steps, or one step and a test:
/// `cktile_transforms::lowering`'s budget).
pub const MAX_OPS: usize = 2 * MAX_STAGES * MAX_ITEMS;

/// How many coordinates [`Program::offsets_if_valid`] evaluates together:
/// each operation runs over this many lanes before the next one starts.
///
/// ```
/// assert!(cktile_analysis::program::LANES.is_power_of_two());
/// ```
pub const LANES: usize = 32;
const _: () = assert!(
    LANES < 64 && 64 % LANES == 0 && LANES.is_multiple_of(4),
    "a batch's valid lanes are the low or high bits of a u64, reduced four at a time"
);

/// Registers of a program: one stage's upper side and its lower side are
/// live at once, at most [`MAX_DIMS`] each.
const REGS: usize = 2 * MAX_DIMS;
const _: () = assert!(REGS.is_power_of_two() && REGS <= 16, "registers are tracked in a u16 mask");
const R: usize = REGS - 1;

/// One specialised operation on the register file (registers are taken
/// modulo [`REGS`]). Every input is read before any output is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Op {
    /// Removed by folding.
    Nop,
    /// `regs[out] = constant + sum(coef[j] * regs[ins[j]])`, wrapping.
    /// With `narrow`, every coefficient and, for a coordinate inside the
    /// top lengths, every input lies in `0..2^32`, so each product is a
    /// 32 x 32 -> 64-bit multiply (one vector instruction for two lanes on
    /// baseline x86-64, where a 64-bit one takes several).
    Affine { out: u8, n: u8, ins: [u8; MAX_DIMS], coef: [Index; MAX_DIMS], constant: Index, narrow: bool },
    /// A merge with power-of-two lengths: `t = regs[input]`,
    /// `regs[outs[i]] = rem_pow2(div_pow2(t, shift[i]), bits[i])` for
    /// `i >= 1`, `regs[outs[0]] = div_pow2(t, shift[0])`. With `unsigned`,
    /// the input is never negative for a coordinate inside the top lengths
    /// (padded or not), and such coordinates shift and mask without the
    /// sign correction.
    Split { input: u8, n: u8, outs: [u8; MAX_DIMS], shift: [u8; MAX_DIMS], bits: [u8; MAX_DIMS], unsigned: bool },
    /// A xor: `regs[out] = regs[b] ^ rem_pow2(regs[a], bits)` (`unsigned`:
    /// `regs[a]` is never negative for a coordinate inside the top lengths).
    Xor { a: u8, b: u8, out: u8, bits: u8, unsigned: bool },
    /// A modulo by a power of two: `regs[out] = rem_pow2(regs[a], bits)`
    /// (`unsigned` as for `Xor`).
    Mask { a: u8, out: u8, bits: u8, unsigned: bool },
    /// A swizzle: `regs[out] = swizzle::apply(regs[a], bits, base, shift)`,
    /// through its [`swizzle::Fields`], computed once.
    Swizzle { a: u8, out: u8, bits: u32, base: u32, shift: i32, fields: swizzle::Fields },
    /// A functor's bit permutation: `regs[out] = map.apply(regs[a])`,
    /// through its [`functor::BitMoves`], computed once.
    Permute { a: u8, out: u8, map: functor::BitPermute, moves: functor::BitMoves },
    /// A split by lengths that are not all powers of two: as `Split`, with
    /// truncating division and remainder by `lengths[i]`.
    SplitBy { input: u8, n: u8, outs: [u8; MAX_DIMS], lengths: [Index; MAX_DIMS] },
    /// `regs[out] = regs[a] / by`, truncating.
    Div { a: u8, out: u8, by: Index },
    /// `regs[out] = regs[a] % by`, truncating.
    Rem { a: u8, out: u8, by: Index },
    /// `regs[out] = regs[a] ^ regs[b]` (a xor whose remainder is not by a
    /// power of two).
    Bitxor { a: u8, b: u8, out: u8 },
    /// A validity test: the coordinate is valid only if
    /// `low <= regs[a] < high`.
    Check { a: u8, low: Index, high: Index },
}

/// A descriptor compiled to a flat list of specialised register operations
/// (see the [module](self) documentation). Built by
/// [`Program::of`] (and [`Program::of_adaptor`], [`Program::through`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Program {
    ops: [Op; MAX_OPS],
    n_ops: u8,
    /// An operation did not fit (only while compiling; a finished program
    /// never is).
    full: bool,
    /// Lengths of the top dimensions.
    top: Dims,
    /// The same as `u64`, `u64::MAX` past the top dimensions: `0 <= v <
    /// length` is `(v as u64) < limit` (lengths are positive).
    limits: [u64; MAX_DIMS],
    /// The register that holds the offset at the end.
    result: u8,
    /// One more than the highest register any operation uses.
    n_regs: u8,
}

/// [`div_pow2`] of a value that is not negative: a plain (logical) shift.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
const fn shr(a: Index, shift: u32) -> Index {
    ((a as u64).wrapping_shr(shift)) as Index
}

/// [`rem_pow2`] of a value that is not negative: its low `bits` bits.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
const fn low_bits(a: Index, bits: u32) -> Index {
    a & 1i64.wrapping_shl(bits).wrapping_sub(1)
}

const fn contains(regs: &[u8; MAX_DIMS], n: u8, r: u8) -> bool {
    let mut j = 0;
    while j < n as usize && j < MAX_DIMS {
        if regs[j] == r {
            return true;
        }
        j += 1;
    }
    false
}

impl Program {
    /// Number of operations left after compiling: identity and memory-free
    /// items removed, affine chains folded, one validity test per
    /// pad-family item counted.
    ///
    /// ```
    /// use cktile_analysis::Program;
    /// assert_eq!(Program::of(&cktile_core::Descriptor::packed(&[64, 64]).unwrap()).operations(), 1);
    /// // An offset below an embed folds into it.
    /// assert_eq!(Program::of(&cktile_core::Descriptor::naive_with_offset(&[4, 8], &[8, 1], 100).unwrap()).operations(), 1);
    /// ```
    pub const fn operations(&self) -> usize {
        self.n_ops as usize
    }

    /// Lengths of the top dimensions.
    ///
    /// ```
    /// use cktile_analysis::Program;
    /// let p = Program::of(&cktile_core::Descriptor::packed(&[4, 8]).unwrap());
    /// assert_eq!(p.lengths().as_slice(), &[4, 8]);
    /// ```
    pub const fn lengths(&self) -> Dims {
        self.top
    }

    /// Runs the operations on one register file. `in_range`: the top
    /// coordinate lies inside the lengths, so the divisions marked
    /// `unsigned` may skip the sign correction. With `checked`, stops at
    /// the first failed validity test and returns false.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    const fn run(&self, regs: &mut [Index; REGS], in_range: bool, checked: bool) -> bool {
        let mut ops = self.ops.split_at(self.n_ops as usize % (MAX_OPS + 1)).0;
        while let [op, rest @ ..] = ops {
            ops = rest;
            match op {
                Op::Affine { out, n, ins, coef, constant, .. } => {
                    let mut acc = *constant;
                    let mut j = 0;
                    while j < *n as usize && j < MAX_DIMS {
                        acc = acc.wrapping_add(regs[ins[j] as usize & R].wrapping_mul(coef[j]));
                        j += 1;
                    }
                    regs[*out as usize & R] = acc;
                }
                Op::Split { input, n, outs, shift, bits, unsigned } => {
                    let t = regs[*input as usize & R];
                    let plain = in_range && *unsigned;
                    let mut i = *n as usize;
                    while i > 1 && i <= MAX_DIMS {
                        i -= 1;
                        let (s, b) = (shift[i] as u32, bits[i] as u32);
                        regs[outs[i] as usize & R] =
                            if plain { low_bits(shr(t, s), b) } else { rem_pow2(div_pow2(t, s), b) };
                    }
                    let s = shift[0] as u32;
                    regs[outs[0] as usize & R] = if plain { shr(t, s) } else { div_pow2(t, s) };
                }
                Op::Xor { a, b, out, bits, unsigned } => {
                    let (x, bits) = (regs[*a as usize & R], *bits as u32);
                    let r = if in_range && *unsigned { low_bits(x, bits) } else { rem_pow2(x, bits) };
                    regs[*out as usize & R] = regs[*b as usize & R] ^ r;
                }
                Op::Mask { a, out, bits, unsigned } => {
                    let (x, bits) = (regs[*a as usize & R], *bits as u32);
                    regs[*out as usize & R] = if in_range && *unsigned { low_bits(x, bits) } else { rem_pow2(x, bits) };
                }
                Op::Swizzle { a, out, fields, .. } => {
                    regs[*out as usize & R] = fields.apply(regs[*a as usize & R]);
                }
                Op::Permute { a, out, moves, .. } => {
                    regs[*out as usize & R] = moves.apply(regs[*a as usize & R]);
                }
                Op::SplitBy { input, n, outs, lengths } => {
                    let mut t = regs[*input as usize & R];
                    let mut i = *n as usize;
                    while i > 1 && i <= MAX_DIMS {
                        i -= 1;
                        regs[outs[i] as usize & R] = rem(t, lengths[i]);
                        t = div(t, lengths[i]);
                    }
                    regs[outs[0] as usize & R] = t;
                }
                Op::Div { a, out, by } => regs[*out as usize & R] = div(regs[*a as usize & R], *by),
                Op::Rem { a, out, by } => regs[*out as usize & R] = rem(regs[*a as usize & R], *by),
                Op::Bitxor { a, b, out } => regs[*out as usize & R] = regs[*a as usize & R] ^ regs[*b as usize & R],
                Op::Check { a, low, high } => {
                    let v = regs[*a as usize & R];
                    if checked && !(v >= *low && v < *high) {
                        return false;
                    }
                }
                Op::Nop => {}
            }
        }
        true
    }

    /// The same value as [`Descriptor::calculate_offset`] (no range checks;
    /// missing trailing dimensions count as 0).
    ///
    /// ```
    /// use cktile_analysis::Program;
    /// let p = Program::of(&cktile_core::Descriptor::packed(&[4, 8]).unwrap());
    /// assert_eq!(p.calculate_offset(&[1, 2]), 10);
    /// ```
    #[inline]
    pub const fn calculate_offset(&self, top: &[Index]) -> Index {
        let (mut regs, mut in_range) = ([0; REGS], true);
        let mut i = 0;
        while i < top.len() && i < MAX_DIMS {
            regs[i] = top[i];
            // Entries past the top dimensions are ignored (a negative one
            // only costs the fast path); missing ones are 0.
            in_range = in_range & ((top[i] as u64) < self.limits[i]);
            i += 1;
        }
        self.run(&mut regs, in_range, false);
        regs[self.result as usize & R]
    }

    /// The same value as [`Descriptor::offset_if_valid`]: the offset when
    /// the coordinate has the right arity, lies inside the top lengths and
    /// maps to no padding; `None` otherwise.
    ///
    /// ```
    /// use cktile_analysis::Program;
    /// let d = cktile_analysis::spec::parse("naive((10),(1)) | transform(pad(10,2,3) on [0] -> [0])")?;
    /// let p = Program::of(&d);
    /// assert_eq!((p.offset_if_valid(&[1]), p.offset_if_valid(&[2]), p.offset_if_valid(&[15])), (None, Some(0), None));
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    #[inline]
    pub const fn offset_if_valid(&self, top: &[Index]) -> Option<Index> {
        if top.len() != self.top.len() {
            return None;
        }
        let mut regs = [0; REGS];
        let mut i = 0;
        while i < top.len() && i < MAX_DIMS {
            if top[i] as u64 >= self.limits[i] {
                return None;
            }
            regs[i] = top[i];
            i += 1;
        }
        if self.run(&mut regs, true, true) { Some(regs[self.result as usize & R]) } else { None }
    }
}
