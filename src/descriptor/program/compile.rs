//! Compiling a [`Descriptor`] into a [`Program`]: each item specialised to
//! a register operation (or renamed away), affine chains folded, and the
//! ranges of the registers over the top lengths, which mark the divisions
//! and multiplies that may take their narrow forms.

use super::{Dims, Index, MAX_DIMS, MAX_OPS, MAX_TRANSFORMS, Op, Params, Program, R, REGS, Transform, contains};
use crate::{Descriptor, Item};
use cktile_transforms::kinds::{div_pow2, swizzle};

const NOP_TRANSFORM: Transform = match Transform::insert(1) {
    Ok(t) => t,
    Err(_) => panic!("insert(1) is valid"),
};

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
        p.start(self.lengths());
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
            let mut live = Live { upper: 0, lower: 0 };
            i = 0;
            while i < stage.upper_lengths().len() {
                live.upper |= 1 << reg_of[i];
                i += 1;
            }
            let mut next = [0u8; MAX_DIMS];
            let items = stage.items();
            let mut k = 0;
            while k < items.len() {
                p.compile_item(&items[k], &reg_of, &mut live, &mut next);
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

/// The registers live while one stage compiles: its upper side's (read by
/// its items) and the lower side's written so far.
struct Live {
    upper: u16,
    lower: u16,
}

impl Program {
    /// Empties the program for a descriptor of top lengths `top`.
    const fn start(&mut self, top: Dims) {
        self.n_ops = 0;
        self.n_transforms = 0;
        self.result = 0;
        self.n_regs = 0;
        self.top = top;
        self.limits = [u64::MAX; MAX_DIMS];
        let mut d = 0;
        while d < top.len() {
            self.limits[d] = top.get(d) as u64;
            d += 1;
        }
    }

    /// Compiles one item of a stage whose upper indices are in the
    /// registers `reg_of`: an identity renames its register, an item that
    /// reaches memory or has padding becomes its operations (a validity
    /// test first, for padding), its lower indices in fresh registers
    /// recorded in `next`; an item with neither vanishes.
    const fn compile_item(&mut self, item: &Item, reg_of: &[u8; MAX_DIMS], live: &mut Live, next: &mut [u8; MAX_DIMS]) {
        let t = *item.transform();
        let (up, low) = (item.upper(), item.lower());
        if t.is_identity() {
            let r = reg_of[up.get(0) % MAX_DIMS];
            next[low.get(0) % MAX_DIMS] = r;
            live.lower |= 1 << r;
            return;
        }
        if t.num_lower() == 0 && t.is_always_valid() {
            return;
        }
        let mut ins = [0u8; MAX_DIMS];
        let mut j = 0;
        while j < up.len() {
            ins[j] = reg_of[up.get(j) % MAX_DIMS];
            j += 1;
        }
        if !t.is_always_valid() {
            let id = self.add_transform(t);
            self.push(Op::Check { t: id, a: ins[0] });
        }
        let xor = matches!(t.params(), Params::Xor { .. });
        let mut outs = [0u8; MAX_DIMS];
        j = 0;
        while j < low.len() {
            // A xor keeps its first index: the register is renamed.
            let r = if xor && j == 0 { ins[0] } else { free_register(live.upper | live.lower) };
            outs[j] = r;
            next[low.get(j) % MAX_DIMS] = r;
            live.lower |= 1 << r;
            j += 1;
        }
        let op = match specialise(&t, &ins, &outs) {
            Some(op) => op,
            None => {
                let id = self.add_transform(t);
                Op::Generic { t: id, n_in: up.len() as u8, n_out: low.len() as u8, ins, outs }
            }
        };
        self.push(op);
    }

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
