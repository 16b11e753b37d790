//! Compiling a [`Descriptor`] (or an [`Adaptor`] with one bottom
//! dimension) into a [`Program`]: each item's lowering
//! steps specialised to register operations (or renamed away), affine
//! chains folded, and the ranges of the registers over the top lengths,
//! which mark the divisions and multiplies that may take their narrow
//! forms.

use super::{Dims, Index, MAX_DIMS, MAX_OPS, Op, Program, R, REGS, contains};
use crate::Error;
use cktile_core::adaptor::{Adaptor, AdaptorProblem, MAX_HIDDEN};
use cktile_core::{Descriptor, DescriptorProblem, Stage};
use cktile_transforms::Transform;
use cktile_transforms::kinds::{div_pow2, swizzle};
use cktile_transforms::lowering::{Lowering, MAX_SLOTS, Step};
use cktile_transforms::tri;

/// The lowest register not in `taken`, if any.
const fn free_register(taken: u16) -> Option<u8> {
    let mut r = 0;
    while r < REGS {
        if taken & (1 << r) == 0 {
            return Some(r as u8);
        }
        r += 1;
    }
    None
}

/// `log2(v)` when `v` is a power of two.
const fn log2_exact(v: Index) -> Option<u8> {
    if v > 0 && v & (v - 1) == 0 { Some(v.trailing_zeros() as u8) } else { None }
}

/// Whether `op` writes register `r`.
const fn writes(op: &Op, r: u8) -> bool {
    match op {
        Op::Affine { out, .. }
        | Op::Xor { out, .. }
        | Op::Mask { out, .. }
        | Op::Swizzle { out, .. }
        | Op::Permute { out, .. }
        | Op::Div { out, .. }
        | Op::Rem { out, .. }
        | Op::Bitxor { out, .. } => *out == r,
        Op::Split { n, outs, .. } | Op::SplitBy { n, outs, .. } => contains(outs, *n, r),
        Op::Nop | Op::Check { .. } => false,
    }
}

/// Whether `op` reads register `r`.
const fn reads(op: &Op, r: u8) -> bool {
    match op {
        Op::Affine { n, ins, .. } => contains(ins, *n, r),
        Op::Split { input, .. } | Op::SplitBy { input, .. } => *input == r,
        Op::Xor { a, b, .. } | Op::Bitxor { a, b, .. } => *a == r || *b == r,
        Op::Mask { a, .. }
        | Op::Swizzle { a, .. }
        | Op::Permute { a, .. }
        | Op::Check { a, .. }
        | Op::Div { a, .. }
        | Op::Rem { a, .. } => *a == r,
        Op::Nop => false,
    }
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

/// The operation of a split of register `input` over `lengths` into
/// `outs`: shifts and masks when every length after the first is a power
/// of two, divisions otherwise.
const fn split(input: u8, lengths: &Dims, outs: &[u8; MAX_DIMS]) -> Op {
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
                None => return Op::SplitBy { input, n: n as u8, outs: *outs, lengths: lengths.to_array() },
            }
            total += bits[i] as u32;
        }
    }
    Op::Split { input, n: n as u8, outs: *outs, shift, bits, unsigned: false }
}

/// How many steps of `l` read each slot.
const fn slot_reads(l: &Lowering) -> [u8; MAX_SLOTS] {
    let mut reads = [0u8; MAX_SLOTS];
    let steps = l.steps();
    let mut k = 0;
    while k < steps.len() {
        match steps[k] {
            Step::Affine { n, ins, .. } => {
                let mut j = 0;
                while j < n as usize && j < MAX_DIMS {
                    reads[ins[j] as usize % MAX_SLOTS] += 1;
                    j += 1;
                }
            }
            Step::Split { a, .. }
            | Step::Div { a, .. }
            | Step::Rem { a, .. }
            | Step::Swizzle { a, .. }
            | Step::Permute { a, .. } => reads[a as usize % MAX_SLOTS] += 1,
            Step::Xor { a, b, .. } => {
                reads[a as usize % MAX_SLOTS] += 1;
                reads[b as usize % MAX_SLOTS] += 1;
            }
        }
        k += 1;
    }
    reads
}

/// The output index of `slot` in `l`, if it is one.
const fn output_index(l: &Lowering, slot: u8) -> Option<usize> {
    let outs = l.outputs();
    let mut j = 0;
    while j < outs.len() {
        if outs[j] == slot {
            return Some(j);
        }
        j += 1;
    }
    None
}

/// An adaptor-layer error of the port, as this crate's.
const fn problem(problem: AdaptorProblem) -> Error {
    Error::port(cktile_core::Error::adaptor(problem))
}

impl Program {
    /// Compiles a descriptor into a [`Program`] with the same offsets and
    /// validity.
    ///
    /// ```
    /// use cktile_analysis::Program;
    /// let d = cktile_core::Descriptor::naive(&[128, 64], &[72, 1]).unwrap();
    /// assert_eq!(Program::of(&d).calculate_offset(&[2, 5]), 149);
    /// ```
    /// use cktile_analysis::Program;
    pub const fn of(desc: &Descriptor) -> Program {
        let mut p = Program::EMPTY;
        p.compile(desc);
        p
    }

    /// [`of`](Self::of) in place: compiles the descriptor into this
    /// program, whatever it held. Only `p`'s first operations and
    /// transforms are read, as many as the new program has, so a caller
    /// compiling many descriptors (the layout search, one per candidate)
    /// reuses one 20 KB program instead of copying a fresh one each time.
    /// (Entries past those are left as they were, so two programs compiled
    /// into different storage may differ as values while computing the
    /// same offsets: [`of`](Self::of) always starts from
    /// [`Program::EMPTY`].)
    ///
    /// ```
    /// use cktile_analysis::Program;
    /// use cktile_core::Descriptor;
    /// let d = Descriptor::naive(&[4, 8], &[10, 1])?;
    /// let mut p = Program::EMPTY;
    /// p.compile(&d);
    /// assert_eq!(p.offset_if_valid(&[2, 3]), Some(23));
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub const fn compile(&mut self, desc: &Descriptor) {
        let p = self;
        p.start(desc.lengths());
        // reg_of[i]: the register holding top index i.
        let mut reg_of = [0u8; MAX_DIMS];
        let mut i = 0;
        while i < MAX_DIMS {
            reg_of[i] = i as u8;
            i += 1;
        }
        let stages = desc.stages();
        let result = p.compile_stages(stages.as_slice(), reg_of);
        p.finish(result);
    }

    /// Compiles an adaptor with one bottom dimension (an offset: a
    /// descriptor read as an adaptor, or a distribution composed with a
    /// layout by [`Distribution::compose`](cktile_core::distribution::Distribution::compose))
    /// into a [`Program`] over its top dimensions: its
    /// [`calculate_offset`](Program::calculate_offset) is
    /// [`bottom_index_unchecked`](Adaptor::bottom_index_unchecked), and its
    /// [`offset_if_valid`](Program::offset_if_valid) also runs the validity
    /// tests of the pad-family transforms.
    ///
    /// The transforms compile from the last to the first, as
    /// `calculate_bottom_index` runs them, each from its lowering as a
    /// descriptor's items do. A hidden value takes a register from the
    /// transform that writes it to the one that reads it; one that nothing
    /// writes holds 0, as in [`hidden_index_unchecked`](Adaptor::hidden_index_unchecked).
    ///
    /// Refused: an adaptor with another number of bottom dimensions, and one
    /// that holds more hidden values at once than a program has registers
    /// (2 x [`MAX_DIMS`]; no distribution composed with a layout from the
    /// catalogue comes near).
    ///
    /// ```
    /// use cktile_analysis::Program;
    /// use cktile_core::distribution::{catalogue, Distribution};
    /// let a = Distribution::new(catalogue::mfma_a(32, 8)?)?;
    /// let lds = cktile_analysis::layouts::ck::xor_preshuffle(32, 8, 4)?;
    /// let lanes_to_lds = a.compose(&lds)?;
    /// let p = Program::of_adaptor(&lanes_to_lds)?;
    /// // Lane 37, register 2: the offset of the element it holds.
    /// assert_eq!(p.offset_if_valid(&[37, 2]), Some(lanes_to_lds.calculate_bottom_index(&[37, 2])?.get(0)));
    /// // A distribution alone has two bottom dimensions (X).
    /// assert!(Program::of_adaptor(&a.ps_ys_to_xs()).is_err());
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    /// use cktile_analysis::Program;
    pub const fn of_adaptor(adaptor: &Adaptor) -> Result<Program, Error> {
        let bottom = adaptor.bottom_ids();
        if bottom.len() != 1 {
            return Err(problem(AdaptorProblem::ProgramBottom { dims: bottom.len() }));
        }
        let mut p = Program::EMPTY;
        let (regs, _) = tri!(p.compile_adaptor(adaptor));
        if p.full {
            return Err(problem(AdaptorProblem::ProgramOperations { limit: MAX_OPS }));
        }
        p.finish(regs[0]);
        Ok(p)
    }

    /// The adaptor's bottom dimensions read through `layout`, compiled: the
    /// [`Program`] of `layout.adaptor()` chained with this
    /// adaptor, where the bottom is a window of `layout` at `origin` (one
    /// entry per dimension; the window's lengths are this adaptor's bottom
    /// lengths, and it must lie inside `layout`'s lengths). With a zero
    /// origin and equal lengths it computes what
    /// `Program::of_adaptor(&layout.adaptor().chain(adaptor)?)` does, but
    /// without an adaptor's limits on transforms and hidden dimensions
    /// (the layout's stages compile as the descriptor's own program does),
    /// so any layout a descriptor holds composes. It is how the analyzer
    /// reads a tile window's addresses: the distribution's `ps_ys_to_xs`
    /// through the LDS layout
    /// ([`WindowAccess::program_over`](crate::analyzer::window::WindowAccess::program_over)).
    ///
    /// Refused: `layout` with another number of dimensions than the
    /// bottom, a window that does not fit, and (as for
    /// [`of_adaptor`](Self::of_adaptor)) more live values than registers, or
    /// more operations than a program holds.
    ///
    /// ```
    /// use cktile_analysis::Program;
    /// use cktile_core::distribution::{catalogue, Distribution};
    /// let a = Distribution::new(catalogue::mfma_a(16, 16)?)?;
    /// let lds = cktile_core::Descriptor::packed(&[64, 32])?;
    /// // The 16 x 16 warp tile at rows 32.., columns 16.. of a 64 x 32 tile.
    /// let p = Program::through(&a.ps_ys_to_xs(), &lds, &[32, 16])?;
    /// let x = a.calculate_index(&[21, 3])?;
    /// assert_eq!(p.offset_if_valid(&[21, 3]), Some(lds.calculate_offset(&[32 + x.get(0), 16 + x.get(1)])));
    /// let e = Program::through(&a.ps_ys_to_xs(), &lds, &[56, 0]).unwrap_err();
    /// assert_eq!(e.to_string(), "the window does not fit the layout: along dimension 0 it covers [56, 72) of the layout's length 64");
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    /// use cktile_analysis::Program;
    pub const fn through(adaptor: &Adaptor, layout: &Descriptor, origin: &[Index]) -> Result<Program, Error> {
        let (lengths, bottom) = (layout.lengths(), adaptor.bottom_lengths());
        if lengths.len() != bottom.len() {
            return Err(problem(AdaptorProblem::ChainCount { top: lengths.len(), bottom: bottom.len() }));
        }
        if origin.len() != bottom.len() {
            return Err(Error::descriptor(DescriptorProblem::CoordinateArity {
                expected: bottom.len(),
                found: origin.len(),
            }));
        }
        let mut d = 0;
        while d < bottom.len() {
            let (at, length, layout) = (origin[d], bottom.get(d), lengths.get(d));
            match at.checked_add(length) {
                Some(end) if at >= 0 && end <= layout => {}
                _ => return Err(problem(AdaptorProblem::WindowOutside { dim: d, origin: at, length, layout })),
            }
            d += 1;
        }
        let mut p = Program::EMPTY;
        let (mut regs, mut live) = tri!(p.compile_adaptor(adaptor));
        // The window's origin: one affine operation per moved dimension,
        // folded into the layout's first one where it is affine too.
        d = 0;
        while d < origin.len() {
            if origin[d] != 0 {
                let Some(r) = free_register(live) else {
                    return Err(out_of_registers(adaptor.items().len()));
                };
                let mut ins = [0u8; MAX_DIMS];
                ins[0] = regs[d];
                let mut coef = [0 as Index; MAX_DIMS];
                coef[0] = 1;
                p.push(affine(r, 1, &ins, &coef, origin[d]));
                live = (live & !(1 << regs[d])) | (1 << r);
                regs[d] = r;
            }
            d += 1;
        }
        let stages = layout.stages();
        let result = p.compile_stages(stages.as_slice(), regs);
        if p.full {
            return Err(problem(AdaptorProblem::ProgramOperations { limit: MAX_OPS }));
        }
        p.finish(result);
        Ok(p)
    }
}

const fn out_of_registers(transform: usize) -> Error {
    problem(AdaptorProblem::ProgramRegisters { transform, registers: REGS })
}

impl Program {
    /// Compiles the stages of a descriptor (the last first) whose top
    /// indices are in registers `reg_of`, with no other register live.
    /// The register of the offset.
    const fn compile_stages(&mut self, stages: &[Stage], reg_of: [u8; MAX_DIMS]) -> u8 {
        let mut reg_of = reg_of;
        let mut s = stages.len();
        while s > 0 {
            s -= 1;
            let stage = &stages[s];
            // Registers of the upper side stay live for the whole stage.
            let mut upper = 0u16;
            let mut i = 0;
            while i < stage.upper_lengths().len() {
                upper |= 1 << reg_of[i];
                i += 1;
            }
            let (mut lower, mut next) = (0u16, [0u8; MAX_DIMS]);
            let items = stage.items();
            let mut k = 0;
            while k < items.len() {
                let (up, low) = (items[k].upper(), items[k].lower());
                let mut ins = [0u8; MAX_DIMS];
                let mut j = 0;
                while j < up.len() {
                    ins[j] = reg_of[up.get(j) % MAX_DIMS];
                    j += 1;
                }
                // A stage never runs out of registers: each side holds at
                // most MAX_DIMS values, and an item's lowering makes no more
                // step values than it has outputs (its budget).
                if let Some(outs) = self.compile_item(items[k].transform(), &ins, upper | lower) {
                    j = 0;
                    while j < low.len() {
                        next[low.get(j) % MAX_DIMS] = outs[j];
                        lower |= 1 << outs[j];
                        j += 1;
                    }
                }
                k += 1;
            }
            reg_of = next;
        }
        reg_of[0]
    }

    /// Starts the program of `adaptor` and compiles its transforms, the
    /// last first: the registers of its bottom dimensions, in order, and
    /// the mask of the registers live at the end (theirs).
    const fn compile_adaptor(&mut self, adaptor: &Adaptor) -> Result<([u8; MAX_DIMS], u16), Error> {
        self.start(adaptor.top_lengths());
        // reg_of[id]: the register holding hidden id `id`'s value, if any yet.
        let mut reg_of: [Option<u8>; MAX_HIDDEN] = [None; MAX_HIDDEN];
        let top = adaptor.top_ids();
        let mut live = 0u16;
        let mut d = 0;
        while d < top.len() {
            reg_of[top.get(d) % MAX_HIDDEN] = Some(d as u8);
            live |= 1 << d;
            d += 1;
        }
        let items = adaptor.items();
        let mut t = items.len();
        while t > 0 {
            t -= 1;
            let (up, low) = (items[t].upper(), items[t].lower());
            let (mut ins, mut read) = ([0u8; MAX_DIMS], 0u16);
            let mut j = 0;
            while j < up.len() {
                let r = tri!(self.value_of(&mut reg_of[up.get(j) % MAX_HIDDEN], &mut live, t));
                ins[j] = r;
                read |= 1 << r;
                j += 1;
            }
            let Some(outs) = self.compile_item(items[t].transform(), &ins, live) else {
                return Err(out_of_registers(t));
            };
            // Each hidden value is read once: the inputs' registers are free
            // again, unless an output took one over.
            live &= !read;
            j = 0;
            while j < low.len() {
                reg_of[low.get(j) % MAX_HIDDEN] = Some(outs[j]);
                live |= 1 << outs[j];
                j += 1;
            }
        }
        let bottom = adaptor.bottom_ids();
        let mut regs = [0u8; MAX_DIMS];
        d = 0;
        while d < bottom.len() {
            regs[d] = tri!(self.value_of(&mut reg_of[bottom.get(d) % MAX_HIDDEN], &mut live, 0));
            d += 1;
        }
        Ok((regs, live))
    }

    /// The register of a hidden value: `slot`'s, or (nothing wrote it) a
    /// fresh register set to 0, then live, as CK's zero-initialised hidden
    /// index. `transform` names the transform in the error when no
    /// register is free.
    const fn value_of(&mut self, slot: &mut Option<u8>, live: &mut u16, transform: usize) -> Result<u8, Error> {
        if let Some(r) = *slot {
            return Ok(r);
        }
        let Some(r) = free_register(*live) else {
            return Err(out_of_registers(transform));
        };
        self.push(affine(r, 0, &[0; MAX_DIMS], &[0; MAX_DIMS], 0));
        *live |= 1 << r;
        *slot = Some(r);
        Ok(r)
    }

    /// Empties the program for a descriptor of top lengths `top`.
    const fn start(&mut self, top: Dims) {
        self.n_ops = 0;
        self.full = false;
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

    /// Ends a compilation whose value is in register `result`: folds the
    /// affine chains, counts the registers and marks the narrow forms.
    const fn finish(&mut self, result: u8) {
        self.result = result;
        self.fold_affine();
        self.n_regs = self.register_count();
        self.mark_ranges();
    }

    /// Compiles one item of transform `transform` whose upper indices are
    /// in registers `ins`, while the registers `taken` hold values, from
    /// the transform's lowering: the validity test first; an output that is
    /// an input keeps its register; each step becomes an operation writing
    /// free registers (a value only the item reads is free again after
    /// it); a power-of-two remainder read only by the next step's xor is
    /// fused into it. An item without steps, outputs or a test emits
    /// nothing. The registers of its lower indices, in order, or `None`
    /// when no register is free for a step.
    const fn compile_item(
        &mut self,
        transform: &Transform,
        ins: &[u8; MAX_DIMS],
        taken: u16,
    ) -> Option<[u8; MAX_DIMS]> {
        let l = transform.lowering();
        // reg[slot]: the register holding the slot's value.
        let mut reg = [0u8; MAX_SLOTS];
        let mut j = 0;
        while j < l.inputs() && j < MAX_SLOTS && j < MAX_DIMS {
            reg[j] = ins[j];
            j += 1;
        }
        if let Some(c) = l.check() {
            self.push(Op::Check { a: reg[c.slot as usize % MAX_SLOTS], low: c.low, high: c.high });
        }
        let reads = slot_reads(&l);
        let mut taken = taken;
        let steps = l.steps();
        let mut k = 0;
        while k < steps.len() {
            let step = steps[k];
            // Fresh registers for the step's values.
            let mut outs = [0u8; MAX_DIMS];
            let mut i = 0;
            while i < step.outputs() && i < MAX_DIMS {
                let slot = step.out() as usize + i;
                let Some(r) = free_register(taken) else {
                    return None;
                };
                taken |= 1 << r;
                reg[slot % MAX_SLOTS] = r;
                outs[i] = r;
                i += 1;
            }
            let op = match step {
                Step::Affine { n, ins, coef, constant, .. } => {
                    let mut regs = [0u8; MAX_DIMS];
                    let mut j = 0;
                    while j < n as usize && j < MAX_DIMS {
                        regs[j] = reg[ins[j] as usize % MAX_SLOTS];
                        j += 1;
                    }
                    affine(outs[0], n as usize, &regs, &coef, constant)
                }
                Step::Split { a, lengths, .. } => split(reg[a as usize % MAX_SLOTS], &lengths, &outs),
                Step::Div { a, by, .. } => match log2_exact(by) {
                    Some(b) => {
                        let mut shift = [0u8; MAX_DIMS];
                        shift[0] = b;
                        Op::Split {
                            input: reg[a as usize % MAX_SLOTS],
                            n: 1,
                            outs,
                            shift,
                            bits: [0; MAX_DIMS],
                            unsigned: false,
                        }
                    }
                    None => Op::Div { a: reg[a as usize % MAX_SLOTS], out: outs[0], by },
                },
                Step::Rem { a, by, .. } => match log2_exact(by) {
                    Some(bits) => Op::Mask { a: reg[a as usize % MAX_SLOTS], out: outs[0], bits, unsigned: false },
                    None => Op::Rem { a: reg[a as usize % MAX_SLOTS], out: outs[0], by },
                },
                Step::Xor { a, b, .. } => {
                    self.xor_op(&l, &reads, reg[a as usize % MAX_SLOTS], (b, reg[b as usize % MAX_SLOTS]), outs[0])
                }
                Step::Swizzle { a, bits, base, shift, .. } => Op::Swizzle {
                    a: reg[a as usize % MAX_SLOTS],
                    out: outs[0],
                    bits,
                    base,
                    shift,
                    fields: swizzle::Fields::new(bits, base, shift),
                },
                Step::Permute { a, map, .. } => {
                    Op::Permute { a: reg[a as usize % MAX_SLOTS], out: outs[0], map, moves: map.moves() }
                }
            };
            self.push(op);
            k += 1;
        }
        let outs = l.outputs();
        let mut lower = [0u8; MAX_DIMS];
        j = 0;
        while j < outs.len() && j < MAX_DIMS {
            lower[j] = reg[outs[j] as usize % MAX_SLOTS];
            j += 1;
        }
        Some(lower)
    }

    /// The operation of a xor step `a ^ b` writing `out`, where `b` is
    /// (slot, register): when the operation just emitted is the
    /// power-of-two remainder that wrote `b`, and no other step or output
    /// reads `b`, the two fuse into one `Xor`.
    const fn xor_op(&mut self, l: &Lowering, reads: &[u8; MAX_SLOTS], a: u8, b: (u8, u8), out: u8) -> Op {
        let (slot, rb) = b;
        if self.n_ops > 0
            && reads[slot as usize % MAX_SLOTS] == 1
            && output_index(l, slot).is_none()
            && let Op::Mask { a: source, out: written, bits, .. } = self.ops[(self.n_ops - 1) as usize % MAX_OPS]
            && written == rb
        {
            self.n_ops -= 1;
            return Op::Xor { a: source, b: a, out, bits, unsigned: false };
        }
        Op::Bitxor { a, b: rb, out }
    }

    /// No operation: what [`Program::compile`] starts from.
    ///
    /// ```
    /// use cktile_analysis::Program;
    /// // Compiled into, it is any descriptor's program.
    /// let mut p = Program::EMPTY;
    /// p.compile(&cktile_core::Descriptor::packed(&[4, 8])?);
    /// assert_eq!(p, Program::of(&cktile_core::Descriptor::packed(&[4, 8])?));
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub const EMPTY: Program = Program {
        ops: [Op::Nop; MAX_OPS],
        n_ops: 0,
        full: false,
        top: Dims::EMPTY,
        limits: [u64::MAX; MAX_DIMS],
        result: 0,
        n_regs: 0,
    };

    /// Appends an operation; past [`MAX_OPS`] (which only a composed
    /// program can reach: a descriptor's lowerings fit by their budget)
    /// marks the program `full` instead.
    const fn push(&mut self, op: Op) {
        if (self.n_ops as usize) < MAX_OPS {
            self.ops[self.n_ops as usize] = op;
            self.n_ops += 1;
        } else {
            self.full = true;
        }
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
                Op::Permute { a, out, map, .. } => {
                    let (lo, hi) = range[*a as usize & R];
                    let (lo, hi) = map.range(lo, hi);
                    range[*out as usize & R] = if lo < ANY.0 || hi > ANY.1 { ANY } else { (lo, hi) };
                }
                Op::SplitBy { input, n, outs, lengths } => {
                    let (mut lo, mut hi) = range[*input as usize & R];
                    let mut i = *n as usize;
                    while i > 1 && i <= MAX_DIMS {
                        i -= 1;
                        range[outs[i] as usize & R] = rem_range(lo, lengths[i] as i128);
                        (lo, hi) = div_range((lo, hi), lengths[i] as i128);
                    }
                    range[outs[0] as usize & R] = (lo, hi);
                }
                Op::Div { a, out, by } => {
                    range[*out as usize & R] = div_range(range[*a as usize & R], *by as i128);
                }
                Op::Rem { a, out, by } => {
                    range[*out as usize & R] = rem_range(range[*a as usize & R].0, *by as i128);
                }
                Op::Bitxor { a, b, out } => {
                    let ((alo, ahi), (blo, bhi)) = (range[*a as usize & R], range[*b as usize & R]);
                    let widest = if ahi > bhi { ahi } else { bhi };
                    range[*out as usize & R] =
                        if alo >= 0 && blo >= 0 { (0, (1i128 << (128 - widest.leading_zeros())) - 1) } else { ANY };
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
            if let Some(i) = found
                && let Op::Affine { n: pn, ins: pins, .. } = self.ops[i]
                && self.value_used_once(i, j, r)
                && self.inputs_kept(i, j, &pins, pn)
                && cn as usize + pn as usize - 1 <= MAX_DIMS
            {
                return Some(i);
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

/// The range of `x % m` (truncating) for `x >= lo`: `0..m` when `lo >= 0`,
/// else `-(m - 1)..m`; any value for an `m` below 1 (no validated
/// transform has one).
const fn rem_range(lo: i128, m: i128) -> (i128, i128) {
    if m < 1 {
        return (Index::MIN as i128, Index::MAX as i128);
    }
    (if lo >= 0 { 0 } else { 1 - m }, m - 1)
}

/// The range of `x / m` (truncating, monotone for `m > 0`) for `x` in
/// `lo..=hi`; any value for an `m` below 1.
const fn div_range((lo, hi): (i128, i128), m: i128) -> (i128, i128) {
    if m < 1 {
        return (Index::MIN as i128, Index::MAX as i128);
    }
    (lo / m, hi / m)
}
