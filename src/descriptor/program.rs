//! [`Program`]: a descriptor compiled for many runtime offsets.
//!
//! [`Descriptor::calculate_offset`] walks the chain stage by stage, moving
//! every dimension's index through every stage, identity items included,
//! and runs each transform's general formula. A program is the same chain
//! compiled once into a flat list of specialised register operations:
//!
//! - each index lives in one of a few registers; identity items
//!   (pass-through, a one-length merge or unmerge, a unit embed) and the
//!   unchanged half of a `xor` only rename registers, and `insert` and
//!   `replicate` items, which reach no memory, vanish;
//! - every affine transform (embed, unmerge, offset, slice, the pad family's
//!   formula, freeze) becomes one fused multiply-add over its inputs, its
//!   coefficients read off the transform's own formula
//!   ([`Transform::calculate_lower`] at zero and at each unit vector, exact
//!   in the wrapping arithmetic the formulas use), zero terms dropped;
//! - an affine operation whose only reader is another affine operation is
//!   folded into it, so a chain of embeds, unmerges and offsets costs one
//!   operation, and constants (a `freeze`) fold into their reader;
//! - a `merge` whose lengths are powers of two, a `xor`, and a `modulo` by a
//!   power of two divide with shifts and masks
//!   ([`kinds::div_pow2`] and [`kinds::rem_pow2`], the truncating division of
//!   [`kinds`] for every value, negative ones included); where interval
//!   arithmetic over the top lengths proves a division's input never
//!   negative, a coordinate inside the lengths takes a plain shift and mask
//!   (the same values there) and the batched evaluation vectorises; a
//!   swizzle runs [`kinds::swizzle::apply`] directly;
//! - a pad-family item adds a validity test, run only by the checked
//!   evaluations;
//! - any other transform (a merge with other lengths, a modulo by another
//!   number) runs its own formula, [`Transform::lower_regs`].
//!
//! So a program's offsets are the descriptor's, bit for bit, for every
//! coordinate (the tests hold the two equal on random chains of every
//! transform kind, inside and outside the lengths).
//!
//! Build one when a descriptor answers many coordinates (the bank analyzer
//! and the layout search do, once per layout); for one offset,
//! `calculate_offset` is cheaper. Evaluate many coordinates per call with
//! [`Program::offsets_if_valid`], which runs each operation over
//! [`LANES`] coordinates at a time. Static descriptors need neither: their
//! offsets fold at compile time ([`StaticDescriptor`](crate::StaticDescriptor)).
//!
//! ```
//! let d = cktile::spec::parse(
//!     "naive((8,128,8),(8,64,1))
//!      | transform(xor((128,8)) on [1,0] -> [1,0], pass_through(8) on [2] -> [2])
//!      | transform(pass_through(128) on [1] -> [0], merge((8,8)) on [0,2] -> [1])",
//! )?;
//! let p = d.program();
//! assert_eq!(p.operations(), 3); // embed, xor, merge: the pass-throughs are gone
//! for (m, k) in [(0, 0), (3, 9), (127, 63)] {
//!     assert_eq!(p.calculate_offset(&[m, k]), d.calculate_offset(&[m, k]));
//! }
//! # Ok::<(), cktile::Error>(())
//! ```
//!
//! [`kinds`]: cktile_transforms::kinds
//! [`kinds::div_pow2`]: cktile_transforms::kinds::div_pow2
//! [`kinds::rem_pow2`]: cktile_transforms::kinds::rem_pow2
//! [`kinds::swizzle::apply`]: cktile_transforms::kinds::swizzle::apply

use super::{Descriptor, MAX_ITEMS, MAX_STAGES};
use cktile_transforms::kinds::{div_pow2, rem_pow2, swizzle};
use cktile_transforms::{Dims, Index, MAX_DIMS, Params, Transform};

/// The most operations a program may hold: one per item of a full
/// descriptor, and a validity test per pad-family item.
pub const MAX_OPS: usize = 2 * MAX_STAGES * MAX_ITEMS;

/// Transforms a program keeps for their own formula or validity test: at
/// most one per item (a pad-family item is affine, so it never needs both).
const MAX_TRANSFORMS: usize = MAX_STAGES * MAX_ITEMS;

/// How many coordinates [`Program::offsets_if_valid`] evaluates together:
/// each operation runs over this many lanes before the next one starts.
///
/// ```
/// assert!(cktile::descriptor::program::LANES.is_power_of_two());
/// ```
pub const LANES: usize = 32;
const _: () = assert!(LANES < 64 && 64 % LANES == 0 && LANES % 4 == 0, "a batch's valid lanes are the low or high bits of a u64, reduced four at a time");

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
    /// The validity test of pad-family transform `t` on `regs[a]`.
    Check { t: u8, a: u8 },
    /// Transform `t`'s own formula, [`Transform::lower_regs`].
    Generic { t: u8, n_in: u8, n_out: u8, ins: [u8; MAX_DIMS], outs: [u8; MAX_DIMS] },
}

const NOP_TRANSFORM: Transform = match Transform::insert(1) {
    Ok(t) => t,
    Err(_) => panic!("insert(1) is valid"),
};

/// A descriptor compiled to a flat list of specialised register operations
/// (see the [module](self) documentation). Built by [`Descriptor::program`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Program {
    ops: [Op; MAX_OPS],
    n_ops: u8,
    /// The transforms `Check` and `Generic` operations name.
    transforms: [Transform; MAX_TRANSFORMS],
    n_transforms: u8,
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

/// The lowest register not in `taken` (there always is one: at most
/// [`MAX_DIMS`] registers are live on each side of a stage).
const fn free_register(taken: u16) -> u8 {
    let mut r = 0;
    while r < REGS {
        if taken & (1 << r) == 0 {
            return r as u8;
        }
        r += 1;
    }
    0
}

/// `log2(v)` when `v` is a power of two.
const fn log2_exact(v: Index) -> Option<u8> {
    if v > 0 && v & (v - 1) == 0 { Some(v.trailing_zeros() as u8) } else { None }
}

/// [`div_pow2`] of a value that is not negative: a plain (logical) shift.
#[inline(always)]
const fn shr(a: Index, shift: u32) -> Index {
    ((a as u64).wrapping_shr(shift)) as Index
}

/// [`rem_pow2`] of a value that is not negative: its low `bits` bits.
#[inline(always)]
const fn low_bits(a: Index, bits: u32) -> Index {
    a & 1i64.wrapping_shl(bits).wrapping_sub(1)
}

/// Runs `$body` for every lane `$l` in `0..LANES` (a `while` loop: the
/// lane loops run in `const fn`s).
macro_rules! each_lane {
    (|$l:ident| $body:expr) => {{
        let mut $l = 0;
        while $l < LANES {
            $body;
            $l += 1;
        }
    }};
}

/// [`each_lane!`] with `$rem` and `$div` standing for [`rem_pow2`] and
/// [`div_pow2`], or for their plain bit forms [`low_bits`] and [`shr`] when
/// the operation's values are not negative (`$unsigned`): the choice is
/// made once, outside the lane loop.
macro_rules! each_lane_pow2 {
    ($unsigned:expr, |$l:ident, $rem:ident, $div:ident| $body:expr) => {
        if $unsigned {
            #[allow(unused_variables)]
            let ($rem, $div) = (low_bits, shr);
            each_lane!(|$l| $body)
        } else {
            #[allow(unused_variables)]
            let ($rem, $div) = (rem_pow2, div_pow2);
            each_lane!(|$l| $body)
        }
    };
}

/// [`each_lane!`] with `$mul` standing for the wrapping 64-bit multiply
/// [`mul_wrapping`], or for [`mul_narrow`] when the factors lie in
/// `0..2^32` (`$narrow`), where the two agree: the choice is made once,
/// outside the lane loop.
macro_rules! each_lane_mul {
    ($narrow:expr, |$l:ident, $mul:ident| $body:expr) => {
        if $narrow {
            let $mul = mul_narrow;
            each_lane!(|$l| $body)
        } else {
            let $mul = mul_wrapping;
            each_lane!(|$l| $body)
        }
    };
}

/// `a * c`, wrapping.
#[inline(always)]
const fn mul_wrapping(a: Index, c: Index) -> Index {
    a.wrapping_mul(c)
}

/// `a * c` from the low 32 bits of each: equal to [`mul_wrapping`] when
/// both lie in `0..2^32` (the product then fits 64 bits).
#[inline(always)]
const fn mul_narrow(a: Index, c: Index) -> Index {
    (a as u32 as u64).wrapping_mul(c as u32 as u64) as Index
}

/// Whether `op` writes register `r`.
const fn writes(op: &Op, r: u8) -> bool {
    match op {
        Op::Affine { out, .. } | Op::Xor { out, .. } | Op::Mask { out, .. } | Op::Swizzle { out, .. } => *out == r,
        Op::Split { n, outs, .. } => contains(outs, *n, r),
        Op::Generic { n_out, outs, .. } => contains(outs, *n_out, r),
        Op::Nop | Op::Check { .. } => false,
    }
}

/// Whether `op` reads register `r`.
const fn reads(op: &Op, r: u8) -> bool {
    match op {
        Op::Affine { n, ins, .. } => contains(ins, *n, r),
        Op::Generic { n_in, ins, .. } => contains(ins, *n_in, r),
        Op::Split { input, .. } => *input == r,
        Op::Xor { a, b, .. } => *a == r || *b == r,
        Op::Mask { a, .. } | Op::Swizzle { a, .. } | Op::Check { a, .. } => *a == r,
        Op::Nop => false,
    }
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

/// The affine form of a linear transform with one lower dimension:
/// `(constant, coefficients)`, read off its own formula at zero and at each
/// unit vector (exact: the formulas are affine in wrapping arithmetic).
const fn affine_form(t: &Transform) -> (Index, [Index; MAX_DIMS]) {
    let constant = t.calculate_lower(&[0; MAX_DIMS])[0];
    let mut coef = [0; MAX_DIMS];
    let mut j = 0;
    while j < t.num_upper() && j < MAX_DIMS {
        let mut unit = [0; MAX_DIMS];
        unit[j] = 1;
        coef[j] = t.calculate_lower(&unit)[0].wrapping_sub(constant);
        j += 1;
    }
    (constant, coef)
}

/// An affine operation from terms, zero coefficients dropped.
const fn affine(out: u8, n: usize, ins: &[u8; MAX_DIMS], coef: &[Index; MAX_DIMS], constant: Index) -> Op {
    let (mut kept_ins, mut kept_coef, mut k) = ([0u8; MAX_DIMS], [0; MAX_DIMS], 0);
    let mut j = 0;
    while j < n && j < MAX_DIMS {
        if coef[j] != 0 {
            kept_ins[k] = ins[j];
            kept_coef[k] = coef[j];
            k += 1;
        }
        j += 1;
    }
    Op::Affine { out, n: k as u8, ins: kept_ins, coef: kept_coef, constant, narrow: false }
}

/// The operation for transform `t` reading `ins` and writing `outs`, or
/// `None` when `t` needs its general formula.
const fn specialise(t: &Transform, ins: &[u8; MAX_DIMS], outs: &[u8; MAX_DIMS]) -> Option<Op> {
    match t.params() {
        Params::Merge { lengths } => {
            let n = lengths.len();
            let (mut shift, mut bits) = ([0u8; MAX_DIMS], [0u8; MAX_DIMS]);
            let mut total: u32 = 0;
            let mut i = n;
            while i > 0 && i <= MAX_DIMS {
                i -= 1;
                shift[i] = total as u8;
                if i > 0 {
                    match log2_exact(lengths.get(i)) {
                        Some(b) => bits[i] = b,
                        None => return None,
                    }
                    total += bits[i] as u32;
                }
            }
            Some(Op::Split { input: ins[0], n: n as u8, outs: *outs, shift, bits, unsigned: false })
        }
        Params::Xor { l1, .. } => match log2_exact(l1) {
            Some(bits) => Some(Op::Xor { a: ins[0], b: ins[1], out: outs[1], bits, unsigned: false }),
            None => None,
        },
        Params::Modulo { modulus, .. } => match log2_exact(modulus) {
            Some(bits) => Some(Op::Mask { a: ins[0], out: outs[0], bits, unsigned: false }),
            None => None,
        },
        Params::Swizzle { bits, base, shift, .. } => Some(Op::Swizzle {
            a: ins[0],
            out: outs[0],
            bits,
            base,
            shift,
            fields: swizzle::Fields::new(bits, base, shift),
        }),
        _ => {
            if t.is_linear() && t.num_lower() == 1 {
                let (constant, coef) = affine_form(t);
                Some(affine(outs[0], t.num_upper(), ins, &coef, constant))
            } else {
                None
            }
        }
    }
}

impl Descriptor {
    /// Compiles the descriptor into a [`Program`] with the same offsets and
    /// validity.
    ///
    /// ```
    /// let d = cktile::Descriptor::naive(&[128, 64], &[72, 1]).unwrap();
    /// assert_eq!(d.program().calculate_offset(&[2, 5]), 149);
    /// ```
    pub const fn program(&self) -> Program {
        let mut p = Program::EMPTY;
        self.compile_into(&mut p);
        p
    }

    /// [`program`](Self::program) in place: compiles the descriptor into
    /// `p`, whatever program it held. Only `p`'s first operations and
    /// transforms are read, as many as the new program has, so a caller
    /// compiling many descriptors (the layout search, one per candidate)
    /// reuses one 20 KB program instead of copying a fresh one each time.
    /// (Entries past those are left as they were, so two programs compiled
    /// into different storage may differ as values while computing the
    /// same offsets: [`program`](Self::program) always starts from
    /// [`Program::EMPTY`].)
    pub(crate) const fn compile_into(&self, p: &mut Program) {
        let stages = self.stages();
        let top = self.lengths();
        p.n_ops = 0;
        p.n_transforms = 0;
        p.result = 0;
        p.n_regs = 0;
        p.top = top;
        p.limits = [u64::MAX; MAX_DIMS];
        let mut d = 0;
        while d < top.len() {
            p.limits[d] = top.get(d) as u64;
            d += 1;
        }
        // reg_of[i]: the register holding index i of the current level.
        let mut reg_of = [0u8; MAX_DIMS];
        let mut i = 0;
        while i < MAX_DIMS {
            reg_of[i] = i as u8;
            i += 1;
        }
        let mut s = stages.len();
        while s > 0 {
            s -= 1;
            let stage = &stages[s];
            // Registers of the upper side stay live for the whole stage.
            let mut upper_live: u16 = 0;
            i = 0;
            while i < stage.upper_lengths().len() {
                upper_live |= 1 << reg_of[i];
                i += 1;
            }
            let mut lower_live: u16 = 0;
            let mut next = [0u8; MAX_DIMS];
            let items = stage.items();
            let mut k = 0;
            while k < items.len() {
                let item = &items[k];
                let t = *item.transform();
                let (up, low) = (item.upper(), item.lower());
                if t.is_identity() {
                    let r = reg_of[up.get(0) % MAX_DIMS];
                    next[low.get(0) % MAX_DIMS] = r;
                    lower_live |= 1 << r;
                } else if t.num_lower() > 0 || !t.is_always_valid() {
                    let mut ins = [0u8; MAX_DIMS];
                    let mut j = 0;
                    while j < up.len() {
                        ins[j] = reg_of[up.get(j) % MAX_DIMS];
                        j += 1;
                    }
                    if !t.is_always_valid() {
                        let id = p.add_transform(t);
                        p.push(Op::Check { t: id, a: ins[0] });
                    }
                    let xor = matches!(t.params(), Params::Xor { .. });
                    let mut outs = [0u8; MAX_DIMS];
                    j = 0;
                    while j < low.len() {
                        // A xor keeps its first index: the register is renamed.
                        let r = if xor && j == 0 { ins[0] } else { free_register(upper_live | lower_live) };
                        outs[j] = r;
                        next[low.get(j) % MAX_DIMS] = r;
                        lower_live |= 1 << r;
                        j += 1;
                    }
                    let op = match specialise(&t, &ins, &outs) {
                        Some(op) => op,
                        None => {
                            let id = p.add_transform(t);
                            Op::Generic { t: id, n_in: up.len() as u8, n_out: low.len() as u8, ins, outs }
                        }
                    };
                    p.push(op);
                }
                k += 1;
            }
            reg_of = next;
        }
        p.result = reg_of[0];
        p.fold_affine();
        p.n_regs = p.register_count();
        p.mark_ranges();
    }
}

impl Program {
    /// No operation: what [`Descriptor::compile_into`] starts from.
    pub(crate) const EMPTY: Program = Program {
        ops: [Op::Nop; MAX_OPS],
        n_ops: 0,
        transforms: [NOP_TRANSFORM; MAX_TRANSFORMS],
        n_transforms: 0,
        top: Dims::EMPTY,
        limits: [u64::MAX; MAX_DIMS],
        result: 0,
        n_regs: 0,
    };

    const fn push(&mut self, op: Op) {
        self.ops[self.n_ops as usize % MAX_OPS] = op;
        self.n_ops += 1;
    }

    const fn add_transform(&mut self, t: Transform) -> u8 {
        let id = self.n_transforms;
        self.transforms[id as usize % MAX_TRANSFORMS] = t;
        self.n_transforms += 1;
        id
    }

    /// Marks the divisions whose input is never negative, and the affine
    /// operations whose factors lie in `0..2^32`, for a coordinate inside
    /// the top lengths, from the range of every register over them
    /// (interval arithmetic, in `i128` so that no bound wraps; a range
    /// that leaves `i64`, and every output of a general formula, is
    /// unknown). The ranges hold for padded coordinates too (validity
    /// tests narrow nothing), so every evaluation of an in-range
    /// coordinate may use the marks.
    const fn mark_ranges(&mut self) {
        const ANY: (i128, i128) = (Index::MIN as i128, Index::MAX as i128);
        let mut range = [ANY; REGS];
        let mut d = 0;
        while d < self.top.len() {
            range[d] = (0, self.top.get(d) as i128 - 1);
            d += 1;
        }
        let mut k = 0;
        while k < self.n_ops as usize && k < MAX_OPS {
            match &mut self.ops[k] {
                Op::Affine { out, n, ins, coef, constant, narrow } => {
                    let (mut lo, mut hi) = (*constant as i128, *constant as i128);
                    *narrow = true;
                    let mut j = 0;
                    while j < *n as usize && j < MAX_DIMS {
                        let (c, (xlo, xhi)) = (coef[j] as i128, range[ins[j] as usize & R]);
                        *narrow = *narrow && c >= 0 && c <= u32::MAX as i128 && xlo >= 0 && xhi <= u32::MAX as i128;
                        let (a, b) = if c >= 0 { (xlo, xhi) } else { (xhi, xlo) };
                        (lo, hi) = match (lo.checked_add(c.saturating_mul(a)), hi.checked_add(c.saturating_mul(b))) {
                            (Some(l), Some(h)) => (l, h),
                            _ => ANY,
                        };
                        j += 1;
                    }
                    range[*out as usize & R] = if lo < ANY.0 || hi > ANY.1 { ANY } else { (lo, hi) };
                }
                Op::Split { input, n, outs, shift, bits, unsigned } => {
                    let (lo, hi) = range[*input as usize & R];
                    *unsigned = lo >= 0;
                    let mut i = 1;
                    while i < *n as usize && i < MAX_DIMS {
                        let top = (1i128 << bits[i]) - 1;
                        range[outs[i] as usize & R] = (if *unsigned { 0 } else { -top }, top);
                        i += 1;
                    }
                    // Truncating division by a positive number keeps the order.
                    let s = shift[0] as u32;
                    range[outs[0] as usize & R] = (div_pow2(lo as Index, s) as i128, div_pow2(hi as Index, s) as i128);
                }
                Op::Xor { a, b, out, bits, unsigned } => {
                    *unsigned = range[*a as usize & R].0 >= 0;
                    let (blo, bhi) = range[*b as usize & R];
                    // Both sides non-negative: the xor stays below the next power of two.
                    let widest = if bhi > (1i128 << *bits) - 1 { bhi } else { (1i128 << *bits) - 1 };
                    range[*out as usize & R] =
                        if *unsigned && blo >= 0 { (0, (1i128 << (128 - widest.leading_zeros())) - 1) } else { ANY };
                }
                Op::Mask { a, out, bits, unsigned } => {
                    *unsigned = range[*a as usize & R].0 >= 0;
                    let top = (1i128 << *bits) - 1;
                    range[*out as usize & R] = (if *unsigned { 0 } else { -top }, top);
                }
                Op::Swizzle { a, out, bits, base, shift, .. } => {
                    let (lo, hi) = range[*a as usize & R];
                    // Only bits below the block or below the input's top bit change.
                    let width = 128 - hi.leading_zeros();
                    let block = swizzle::block_bits(*bits, *base, *shift);
                    let width = if block > width { block } else { width };
                    range[*out as usize & R] = if lo >= 0 && width < 63 { (0, (1i128 << width) - 1) } else { ANY };
                }
                Op::Generic { n_out, outs, .. } => {
                    let mut j = 0;
                    while j < *n_out as usize && j < MAX_DIMS {
                        range[outs[j] as usize & R] = ANY;
                        j += 1;
                    }
                }
                Op::Check { .. } | Op::Nop => {}
            }
            k += 1;
        }
    }

    /// One more than the highest register the top dimensions, the
    /// operations and the result use.
    const fn register_count(&self) -> u8 {
        let mut highest = self.result as usize;
        if self.top.len() > highest + 1 {
            highest = self.top.len() - 1;
        }
        let mut r = 0;
        while r < REGS {
            let mut k = 0;
            while k < self.n_ops as usize && k < MAX_OPS {
                if (reads(&self.ops[k], r as u8) || writes(&self.ops[k], r as u8)) && r > highest {
                    highest = r;
                }
                k += 1;
            }
            r += 1;
        }
        (highest + 1) as u8
    }

    /// Folds each affine operation whose value only another affine
    /// operation reads into that reader, then drops the folded ones.
    const fn fold_affine(&mut self) {
        let n = self.n_ops as usize;
        let mut j = 0;
        while j < n && j < MAX_OPS {
            while let Some(i) = self.foldable_into(j) {
                self.fold(i, j);
            }
            j += 1;
        }
        let mut kept = 0;
        j = 0;
        while j < n && j < MAX_OPS {
            if !matches!(self.ops[j], Op::Nop) {
                self.ops[kept] = self.ops[j];
                kept += 1;
            }
            j += 1;
        }
        self.n_ops = kept as u8;
    }

    /// An affine operation `i < j` that can fold into affine operation `j`:
    /// `j` reads its output register `r`, nothing else reads that value
    /// (no operation between them, none after `j` before `r` is written
    /// again, and `r` is not the result), its inputs still hold the same
    /// values at `j`, and the folded operation has at most [`MAX_DIMS`]
    /// terms.
    const fn foldable_into(&self, j: usize) -> Option<usize> {
        let Op::Affine { n: cn, ins: cins, .. } = self.ops[j % MAX_OPS] else {
            return None;
        };
        let mut q = 0;
        while q < cn as usize && q < MAX_DIMS {
            let r = cins[q];
            // The operation that wrote r last before j.
            let mut i = j;
            let mut found = None;
            while i > 0 {
                i -= 1;
                if writes(&self.ops[i], r) {
                    found = Some(i);
                    break;
                }
            }
            if let Some(i) = found {
                if let Op::Affine { n: pn, ins: pins, .. } = self.ops[i] {
                    if self.value_used_once(i, j, r)
                        && self.inputs_kept(i, j, &pins, pn)
                        && cn as usize + pn as usize - 1 <= MAX_DIMS
                    {
                        return Some(i);
                    }
                }
            }
            q += 1;
        }
        None
    }

    /// Whether operation `j` is the only reader of the value operation `i`
    /// writes to register `r`.
    const fn value_used_once(&self, i: usize, j: usize, r: u8) -> bool {
        let mut k = i + 1;
        while k < j && k < MAX_OPS {
            if reads(&self.ops[k], r) {
                return false;
            }
            k += 1;
        }
        if writes(&self.ops[j % MAX_OPS], r) {
            return true;
        }
        k = j + 1;
        while k < self.n_ops as usize && k < MAX_OPS {
            if reads(&self.ops[k], r) {
                return false;
            }
            if writes(&self.ops[k], r) {
                return true;
            }
            k += 1;
        }
        self.result != r
    }

    /// Whether registers `ins[..n]`, read by operation `i`, hold the same
    /// values when operation `j` runs (`i` itself included: it may write
    /// one of its inputs).
    const fn inputs_kept(&self, i: usize, j: usize, ins: &[u8; MAX_DIMS], n: u8) -> bool {
        let mut k = i;
        while k < j && k < MAX_OPS {
            let mut q = 0;
            while q < n as usize && q < MAX_DIMS {
                if writes(&self.ops[k], ins[q]) {
                    return false;
                }
                q += 1;
            }
            k += 1;
        }
        true
    }

    /// Substitutes affine operation `i` into affine operation `j` and
    /// removes `i`.
    const fn fold(&mut self, i: usize, j: usize) {
        let (
            Op::Affine { out: r, n: pn, ins: pins, coef: pcoef, constant: pc, .. },
            Op::Affine { out, n: cn, ins: cins, coef: ccoef, constant: cc, .. },
        ) = (self.ops[i % MAX_OPS], self.ops[j % MAX_OPS])
        else {
            return;
        };
        let (mut ins, mut coef, mut n) = ([0u8; MAX_DIMS], [0; MAX_DIMS], 0);
        let mut constant = cc;
        let mut q = 0;
        while q < cn as usize && q < MAX_DIMS {
            if cins[q] == r {
                // c * (pc + sum(p_k * x_k)).
                let c = ccoef[q];
                constant = constant.wrapping_add(c.wrapping_mul(pc));
                let mut k = 0;
                while k < pn as usize && k < MAX_DIMS {
                    add_term(&mut ins, &mut coef, &mut n, pins[k], c.wrapping_mul(pcoef[k]));
                    k += 1;
                }
            } else {
                add_term(&mut ins, &mut coef, &mut n, cins[q], ccoef[q]);
            }
            q += 1;
        }
        self.ops[j % MAX_OPS] = affine(out, n, &ins, &coef, constant);
        self.ops[i % MAX_OPS] = Op::Nop;
    }
}

/// Adds `c * regs[r]` to a list of terms, merging a register already there
/// (the caller bounds the count at [`MAX_DIMS`]).
const fn add_term(ins: &mut [u8; MAX_DIMS], coef: &mut [Index; MAX_DIMS], n: &mut usize, r: u8, c: Index) {
    let mut k = 0;
    while k < *n && k < MAX_DIMS {
        if ins[k] == r {
            coef[k] = coef[k].wrapping_add(c);
            return;
        }
        k += 1;
    }
    if *n < MAX_DIMS {
        ins[*n] = r;
        coef[*n] = c;
        *n += 1;
    }
}

impl Program {
    /// Number of operations left after compiling: identity and memory-free
    /// items removed, affine chains folded, one validity test per
    /// pad-family item counted.
    ///
    /// ```
    /// assert_eq!(cktile::Descriptor::packed(&[64, 64]).unwrap().program().operations(), 1);
    /// // An offset below an embed folds into it.
    /// assert_eq!(cktile::Descriptor::naive_with_offset(&[4, 8], &[8, 1], 100).unwrap().program().operations(), 1);
    /// ```
    pub const fn operations(&self) -> usize {
        self.n_ops as usize
    }

    /// Lengths of the top dimensions.
    ///
    /// ```
    /// let p = cktile::Descriptor::packed(&[4, 8]).unwrap().program();
    /// assert_eq!(p.lengths().as_slice(), &[4, 8]);
    /// ```
    pub const fn lengths(&self) -> Dims {
        self.top
    }

    /// Runs the operations on one register file. `in_range`: the top
    /// coordinate lies inside the lengths, so the divisions marked
    /// `unsigned` may skip the sign correction. With `checked`, stops at
    /// the first failed validity test and returns false.
    #[inline(always)]
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
                Op::Check { t, a } => {
                    if checked && !self.transforms[*t as usize % MAX_TRANSFORMS].is_valid_upper_at(regs, *a) {
                        return false;
                    }
                }
                Op::Generic { t, ins, outs, .. } => {
                    self.transforms[*t as usize % MAX_TRANSFORMS].lower_regs(regs, ins, outs)
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
    /// let p = cktile::Descriptor::packed(&[4, 8]).unwrap().program();
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
    /// let d = cktile::spec::parse("naive((10),(1)) | transform(pad(10,2,3) on [0] -> [0])")?;
    /// let p = d.program();
    /// assert_eq!((p.offset_if_valid(&[1]), p.offset_if_valid(&[2]), p.offset_if_valid(&[15])), (None, Some(0), None));
    /// # Ok::<(), cktile::Error>(())
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

    /// [`offset_if_valid`](Self::offset_if_valid) for many coordinates in
    /// one call: writes the answer for `coords[i]` to `out[i]`, for every
    /// `i` below the shorter of the two lengths, and returns that count.
    /// The coordinates go through the program [`LANES`] at a time, each
    /// operation over all of them before the next, so the dispatch is paid
    /// once per batch and the arithmetic runs in straight loops the
    /// compiler can vectorise. A coordinate of the wrong arity (`N` differs
    /// from the number of top dimensions), outside the top lengths or on
    /// padding gives `None`, as for one coordinate.
    ///
    /// The bank analyzer asks this for every lane of one instruction
    /// (`[row, column]` pairs of a 2-D tile); a search asks it for every
    /// element of a tile.
    ///
    /// ```
    /// let d = cktile::spec::parse("naive((4,10),(16,1)) | transform(pass_through(4) on [0] -> [0], pad(10,2,3) on [1] -> [1])")?;
    /// let p = d.program();
    /// let coords = [[0, 0], [1, 2], [3, 11], [3, 12], [4, 5]];
    /// let mut out = [None; 5];
    /// assert_eq!(p.offsets_if_valid(&coords, &mut out), 5);
    /// assert_eq!(out, [None, Some(16), Some(57), None, None]);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub const fn offsets_if_valid<const N: usize>(&self, coords: &[[Index; N]], out: &mut [Option<Index>]) -> usize {
        let count = if coords.len() < out.len() { coords.len() } else { out.len() };
        let (coords, out) = (coords.split_at(count).0, out.split_at_mut(count).0);
        if N != self.top.len() {
            let mut i = 0;
            while i < count {
                out[i] = None;
                i += 1;
            }
            return count;
        }
        // The smallest register file that holds every register the program
        // uses (the top dimensions are registers 0..N).
        if self.n_regs as usize <= 4 {
            self.batches::<N, 4>(coords, out);
        } else if self.n_regs as usize <= 8 {
            self.batches::<N, 8>(coords, out);
        } else {
            self.batches::<N, REGS>(coords, out);
        }
        count
    }

    /// [`offsets_if_valid`](Self::offsets_if_valid) for many coordinates
    /// given as columns, the fastest way to ask a program for many offsets:
    /// coordinate `i` is `[columns[0][i], ..., columns[N - 1][i]]`. Writes
    /// its offset to `out[i]` and its validity to bit `i % 64` of
    /// `valid[i / 64]` (set: inside the top lengths and on no padding;
    /// clear: `out[i]` means nothing), for every `i` below the shortest of
    /// the columns, `out` and `64 * valid.len()`, and returns that count.
    /// The bits of `valid` past the count in its last written word are
    /// cleared; later words are left as they were. With the wrong number
    /// of columns (`N` differs from the number of top dimensions) no
    /// coordinate is valid.
    ///
    /// Unlike `offsets_if_valid`, the coordinates go into the program's
    /// registers as whole columns and the offsets come out as plain
    /// integers, with no per-coordinate transposition or `Option` to build.
    ///
    /// ```
    /// let d = cktile::spec::parse("naive((4,10),(16,1)) | transform(pass_through(4) on [0] -> [0], pad(10,2,3) on [1] -> [1])")?;
    /// let p = d.program();
    /// let (rows, cols) = ([0, 1, 3, 3, 4], [0, 2, 11, 12, 5]);
    /// let (mut out, mut valid) = ([0; 5], [0u64; 1]);
    /// assert_eq!(p.offsets_columns(&[&rows, &cols], &mut out, &mut valid), 5);
    /// assert_eq!(valid[0], 0b00110); // [1, 2] and [3, 11]
    /// assert_eq!((out[1], out[2]), (16, 57));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub const fn offsets_columns<const N: usize>(
        &self,
        columns: &[&[Index]; N],
        out: &mut [Index],
        valid: &mut [u64],
    ) -> usize {
        let mut count = out.len();
        let bits = valid.len().saturating_mul(64);
        if bits < count {
            count = bits;
        }
        let mut d = 0;
        while d < N {
            if columns[d].len() < count {
                count = columns[d].len();
            }
            d += 1;
        }
        if N != self.top.len() {
            let mut w = 0;
            while w < count.div_ceil(64) {
                valid[w] = 0;
                w += 1;
            }
        } else if self.n_regs as usize <= 4 {
            self.column_batches::<N, 4>(columns, count, out, valid);
        } else if self.n_regs as usize <= 8 {
            self.column_batches::<N, 8>(columns, count, out, valid);
        } else {
            self.column_batches::<N, REGS>(columns, count, out, valid);
        }
        count
    }

    /// [`offsets_if_valid`](Self::offsets_if_valid) for up to [`LANES`]
    /// coordinates of a 2-D program, given as two columns: lane `l < n` is
    /// `[rows[l], cols[l]]`. Writes each lane's offset to `out[l]` and
    /// returns the valid lanes as the bits of a mask (lane `l` is bit `l`);
    /// an entry of `out` whose bit is clear means nothing. A program that
    /// is not 2-D has no valid lane. The bank analyzer and the search ask
    /// this for each instruction's lanes, in the layout their lane
    /// coordinates are made in.
    #[inline]
    pub(crate) const fn offsets_2d(
        &self,
        rows: &[Index; LANES],
        cols: &[Index; LANES],
        n: usize,
        out: &mut [Index; LANES],
    ) -> u64 {
        if self.top.len() != 2 {
            return 0;
        }
        if self.n_regs as usize <= 4 {
            self.chunk_2d::<4>(rows, cols, n, out)
        } else if self.n_regs as usize <= 8 {
            self.chunk_2d::<8>(rows, cols, n, out)
        } else {
            self.chunk_2d::<REGS>(rows, cols, n, out)
        }
    }

    /// [`offsets_2d`](Self::offsets_2d) on a register file of `NR`
    /// registers (as for [`batches`](Self::batches)). Lanes from `n` on run
    /// too (the operations are total) and are left out of the mask.
    #[inline(always)]
    const fn chunk_2d<const NR: usize>(
        &self,
        rows: &[Index; LANES],
        cols: &[Index; LANES],
        n: usize,
        out: &mut [Index; LANES],
    ) -> u64 {
        let mut regs = [[0 as Index; LANES]; NR];
        regs[0] = *rows;
        regs[1] = *cols;
        let mask = self.run_chunk::<NR>(&mut regs, 2, n);
        *out = regs[self.result as usize & (NR - 1)];
        mask
    }

    /// Runs one chunk whose top coordinates are in the first `dims`
    /// registers of `regs`: range checks, then every operation over all
    /// [`LANES`] lanes (lanes from `n` on run too, the operations being
    /// total). Returns the valid lanes below `n` as the bits of a mask; the
    /// offsets are in the result register.
    #[inline(always)]
    const fn run_chunk<const NR: usize>(&self, regs: &mut [[Index; LANES]; NR], dims: usize, n: usize) -> u64 {
        let mut valid = self.in_range::<NR>(regs, dims);
        self.run_lanes(regs, &mut valid);
        // Reduced in four independent strands, which the compiler vectorises.
        let (mut strands, mut l) = ([1u64; 4], 0);
        while l + 4 <= LANES {
            strands[0] &= valid[l];
            strands[1] &= valid[l + 1];
            strands[2] &= valid[l + 2];
            strands[3] &= valid[l + 3];
            l += 4;
        }
        let all = strands[0] & strands[1] & strands[2] & strands[3];
        // LANES < 64, so the shift cannot overflow.
        let below_n = (1u64 << if n < LANES { n } else { LANES }) - 1;
        if all == 1 {
            // Every lane valid (the usual case): no bit to gather.
            return below_n;
        }
        let mut mask = 0u64;
        let mut l = 0;
        while l < LANES {
            mask |= valid[l] << l;
            l += 1;
        }
        mask & below_n
    }

    /// [`offsets_columns`](Self::offsets_columns) on coordinates of the
    /// right arity, `count` of them, on a register file of `NR` registers.
    #[inline(always)]
    const fn column_batches<const N: usize, const NR: usize>(
        &self,
        columns: &[&[Index]; N],
        count: usize,
        out: &mut [Index],
        valid: &mut [u64],
    ) {
        let result = self.result as usize & (NR - 1);
        let mut regs = [[0 as Index; LANES]; NR];
        let mut start = 0;
        while start < count {
            let len = if count - start < LANES { count - start } else { LANES };
            // Whole chunks move as arrays (straight copies), the short last one lane by lane.
            let mut d = 0;
            while d < N && d < NR {
                let column = columns[d].split_at(start).1.split_at(len).0;
                if let Some(whole) = column.first_chunk::<LANES>() {
                    regs[d] = *whole;
                } else {
                    let mut l = 0;
                    while l < column.len() && l < LANES {
                        regs[d][l] = column[l];
                        l += 1;
                    }
                }
                d += 1;
            }
            let mask = self.run_chunk::<NR>(&mut regs, N, len);
            let dst = out.split_at_mut(start).1.split_at_mut(len).0;
            if let Some(whole) = dst.first_chunk_mut::<LANES>() {
                *whole = regs[result];
            } else {
                let mut l = 0;
                while l < dst.len() && l < LANES {
                    dst[l] = regs[result][l];
                    l += 1;
                }
            }
            // LANES divides 64: a chunk fills the low or the high half of a word.
            let word = &mut valid[start / 64];
            *word = if start % 64 == 0 { mask } else { *word | (mask << (start % 64)) };
            start += len;
        }
    }

    /// [`offsets_if_valid`](Self::offsets_if_valid) on coordinates of the
    /// right arity and an output of the same length, [`LANES`] at a time,
    /// on a register file of `NR` registers (`NR` a power of two, at least
    /// the program's register count). The coordinates go straight into the
    /// top registers and the answers straight out of the result register.
    /// The register file lives across batches: every operation writes its
    /// outputs before a later one reads them, so a batch never reads what
    /// the one before left, and lanes past a short last batch are left out.
    #[inline(always)]
    const fn batches<const N: usize, const NR: usize>(&self, coords: &[[Index; N]], out: &mut [Option<Index>]) {
        let result = self.result as usize & (NR - 1);
        let mut regs = [[0 as Index; LANES]; NR];
        let mut start = 0;
        while start < coords.len() && start < out.len() {
            let len = if coords.len() - start < LANES { coords.len() - start } else { LANES };
            let chunk = coords.split_at(start).1.split_at(len).0;
            let mut l = 0;
            while l < chunk.len() && l < LANES {
                let mut d = 0;
                while d < N && d < NR {
                    regs[d][l] = chunk[l][d];
                    d += 1;
                }
                l += 1;
            }
            let mask = self.run_chunk::<NR>(&mut regs, N, len);
            let dst = out.split_at_mut(start).1.split_at_mut(len).0;
            l = 0;
            if mask.count_ones() as usize == len {
                // Every lane valid (the usual case): no test per lane.
                while l < dst.len() && l < LANES {
                    dst[l] = Some(regs[result][l]);
                    l += 1;
                }
            } else {
                while l < dst.len() && l < LANES {
                    dst[l] = if (mask >> l) & 1 == 1 { Some(regs[result][l]) } else { None };
                    l += 1;
                }
            }
            start += len;
        }
    }

    /// Which lanes' top registers (the first `dims`) lie inside the top
    /// lengths: 1 for such a lane, 0 otherwise. `0 <= v < length` is
    /// tested as the sign bits of `v` (clear) and `v - length` (set), both
    /// below `2^63` for a length that is positive, so the test runs as
    /// straight 64-bit arithmetic the compiler vectorises.
    #[inline(always)]
    const fn in_range<const NR: usize>(&self, regs: &[[Index; LANES]; NR], dims: usize) -> [u64; LANES] {
        let mut valid = [1u64; LANES];
        let mut d = 0;
        while d < dims && d < NR && d < MAX_DIMS {
            let length = self.limits[d] as Index;
            each_lane!(|l| {
                let v = regs[d][l];
                valid[l] = valid[l] & ((!v & v.wrapping_sub(length)) as u64 >> 63);
            });
            d += 1;
        }
        valid
    }

    /// Runs the operations over [`LANES`] register files at once (register
    /// `r` of every lane is `regs[r]`; registers are taken modulo `NR`),
    /// clearing `valid[l]` where a validity test fails.
    #[inline(always)]
    const fn run_lanes<const NR: usize>(&self, regs: &mut [[Index; LANES]; NR], valid: &mut [u64; LANES]) {
        let m = NR - 1;
        let mut k = 0;
        while k < self.n_ops as usize && k < MAX_OPS {
            match &self.ops[k] {
                Op::Affine { out, n, ins, coef, constant, narrow } => {
                    // Accumulated in place unless the output is an input.
                    let mut acc = [*constant; LANES];
                    let in_place = !contains(ins, *n, *out);
                    let o = *out as usize & m;
                    if in_place {
                        each_lane!(|l| regs[o][l] = *constant);
                    }
                    let mut j = 0;
                    while j < *n as usize && j < MAX_DIMS {
                        let (src, c) = (ins[j] as usize & m, coef[j]);
                        if in_place && c > 0 && c & (c - 1) == 0 {
                            // A power-of-two coefficient: a shift (equal in wrapping arithmetic).
                            let s = c.trailing_zeros();
                            each_lane!(|l| regs[o][l] = regs[o][l].wrapping_add(regs[src][l].wrapping_shl(s)));
                        } else if in_place {
                            each_lane_mul!(*narrow, |l, mul| regs[o][l] = regs[o][l].wrapping_add(mul(regs[src][l], c)));
                        } else {
                            each_lane_mul!(*narrow, |l, mul| acc[l] = acc[l].wrapping_add(mul(regs[src][l], c)));
                        }
                        j += 1;
                    }
                    if !in_place {
                        each_lane!(|l| regs[o][l] = acc[l]);
                    }
                }
                Op::Split { input, n, outs, shift, bits, unsigned } => {
                    // The outputs are fresh registers: the input stays intact until the last.
                    let input = *input as usize & m;
                    let mut i = *n as usize;
                    while i > 1 && i <= MAX_DIMS {
                        i -= 1;
                        let (s, b, out) = (shift[i] as u32, bits[i] as u32, outs[i] as usize & m);
                        each_lane_pow2!(*unsigned, |l, rem, div| regs[out][l] = rem(div(regs[input][l], s), b));
                    }
                    let (s, out) = (shift[0] as u32, outs[0] as usize & m);
                    each_lane_pow2!(*unsigned, |l, rem, div| regs[out][l] = div(regs[input][l], s));
                }
                Op::Xor { a, b, out, bits, unsigned } => {
                    let (a, b, out, bits) = (*a as usize & m, *b as usize & m, *out as usize & m, *bits as u32);
                    each_lane_pow2!(*unsigned, |l, rem, div| regs[out][l] = regs[b][l] ^ rem(regs[a][l], bits));
                }
                Op::Mask { a, out, bits, unsigned } => {
                    let (a, out, bits) = (*a as usize & m, *out as usize & m, *bits as u32);
                    each_lane_pow2!(*unsigned, |l, rem, div| regs[out][l] = rem(regs[a][l], bits));
                }
                Op::Swizzle { a, out, fields, .. } => {
                    let (a, out) = (*a as usize & m, *out as usize & m);
                    each_lane!(|l| regs[out][l] = fields.apply(regs[a][l]));
                }
                Op::Check { t, a } => {
                    let (t, a) = (&self.transforms[*t as usize % MAX_TRANSFORMS], *a as usize & m);
                    each_lane!(|l| valid[l] = valid[l] & t.is_valid_upper_at(&[regs[a][l]], 0) as u64);
                }
                Op::Generic { t, n_in, n_out, ins, outs } => {
                    let t = &self.transforms[*t as usize % MAX_TRANSFORMS];
                    each_lane!(|l| {
                        // One lane's registers, through the transform's formula.
                        let mut one = [0; REGS];
                        let mut j = 0;
                        while j < *n_in as usize && j < MAX_DIMS {
                            one[ins[j] as usize & R] = regs[ins[j] as usize & m][l];
                            j += 1;
                        }
                        t.lower_regs(&mut one, ins, outs);
                        j = 0;
                        while j < *n_out as usize && j < MAX_DIMS {
                            regs[outs[j] as usize & m][l] = one[outs[j] as usize & R];
                            j += 1;
                        }
                    });
                }
                Op::Nop => {}
            }
            k += 1;
        }
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::LANES;
    use crate::random::Rng;
    use crate::random::chain::{ChainConfig, chain};
    use crate::{Descriptor, Index};

    /// `offsets_2d` (the analyzer's and the search's entry) answers every
    /// lane below `n` as `offset_if_valid` does, with the coordinates'
    /// columns reused across calls as the analyzer reuses them, on random
    /// 2-D chains of every kind and coordinates inside, at the edges of and
    /// outside the lengths.
    #[test]
    fn offsets_2d_agrees_with_one_coordinate_at_a_time() {
        let config = ChainConfig::default().with_stages(1, 4);
        let (mut rng, mut tested) = (Rng::new(2024), 0);
        let (mut rows, mut cols, mut out) = ([0; LANES], [0; LANES], [0; LANES]);
        for seed in 0..3000u64 {
            let d: Descriptor = chain(seed, &config);
            if d.num_dims() != 2 {
                continue;
            }
            tested += 1;
            let p = d.program();
            let (r, c) = (d.lengths().get(0), d.lengths().get(1));
            for _ in 0..4 {
                let n = 1 + rng.below(LANES as u64) as usize;
                for l in 0..n {
                    // Mostly inside, sometimes one past either end.
                    rows[l] = rng.below(r as u64 + 2) as Index - 1;
                    cols[l] = rng.below(c as u64 + 2) as Index - 1;
                }
                let mask = p.offsets_2d(&rows, &cols, n, &mut out);
                assert_eq!(mask >> n, 0, "{d}: a lane past {n} is marked valid");
                for l in 0..n {
                    let want = d.offset_if_valid(&[rows[l], cols[l]]);
                    let got = ((mask >> l) & 1 == 1).then_some(out[l]);
                    assert_eq!(got, want, "{d} at [{}, {}] (lane {l} of {n})", rows[l], cols[l]);
                }
            }
        }
        assert!(tested >= 300, "only {tested} 2-D chains drawn");
    }
}
