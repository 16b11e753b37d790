//! [`Program`]: a descriptor compiled for many runtime offsets.
//!
//! [`Descriptor::calculate_offset`] walks the chain stage by stage, moving
//! every dimension's index through every stage, identity items included.
//! A program is the same chain with the data movement resolved once: each
//! index lives in one of a few registers, identity items (pass-through, a
//! one-length merge or unmerge, a unit embed) only rename registers, and
//! `insert`/`replicate` items, which reach no memory, vanish. What remains
//! is one operation per transform that computes something, each reading and
//! writing registers directly. Every operation runs the transform's own
//! formula ([`Transform::lower_regs`]), so a program's offsets are the
//! descriptor's, bit for bit, for every coordinate.
//!
//! Build one when a descriptor answers many coordinates (the bank analyzer
//! and the layout search do, once per layout); for one offset,
//! `calculate_offset` is cheaper. Static descriptors need neither: their
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

use super::{Descriptor, MAX_ITEMS, MAX_STAGES};
use cktile_transforms::{Dims, Index, MAX_DIMS, Transform};

/// The most operations a program may hold: one per item of a full descriptor.
pub const MAX_OPS: usize = MAX_STAGES * MAX_ITEMS;

/// Registers of a program: one stage's upper side and its lower side are
/// live at once, at most [`MAX_DIMS`] each.
const REGS: usize = 2 * MAX_DIMS;
const _: () = assert!(REGS.is_power_of_two() && REGS <= 16, "registers are tracked in a u16 mask");

/// One operation: a transform reading registers `ins` and writing `outs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Op {
    transform: Transform,
    ins: [u8; MAX_DIMS],
    outs: [u8; MAX_DIMS],
}

const NOP: Op = Op {
    transform: match Transform::insert(1) {
        Ok(t) => t,
        Err(_) => panic!("insert(1) is valid"),
    },
    ins: [0; MAX_DIMS],
    outs: [0; MAX_DIMS],
};

/// A descriptor compiled to a straight list of register operations (see the
/// [module](self) documentation). Built by [`Descriptor::program`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Program {
    ops: [Op; MAX_OPS],
    n_ops: u8,
    /// Lengths of the top dimensions (for the range checks).
    top: Dims,
    /// The register that holds the offset at the end.
    result: u8,
    /// Whether any operation can map a coordinate to padding.
    has_padding: bool,
}

/// The lowest register in neither `a` nor `b` (there always is one: at most
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

impl Descriptor {
    /// Compiles the descriptor into a [`Program`] with the same offsets and
    /// validity.
    ///
    /// ```
    /// let d = cktile::Descriptor::naive(&[128, 64], &[72, 1]).unwrap();
    /// assert_eq!(d.program().calculate_offset(&[2, 5]), 149);
    /// ```
    pub const fn program(&self) -> Program {
        let stages = self.stages();
        let top = self.lengths();
        let mut p = Program { ops: [NOP; MAX_OPS], n_ops: 0, top, result: 0, has_padding: false };
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
                    let mut op = Op { transform: t, ins: [0; MAX_DIMS], outs: [0; MAX_DIMS] };
                    let mut j = 0;
                    while j < up.len() {
                        op.ins[j] = reg_of[up.get(j) % MAX_DIMS];
                        j += 1;
                    }
                    j = 0;
                    while j < low.len() {
                        let r = free_register(upper_live | lower_live);
                        op.outs[j] = r;
                        next[low.get(j) % MAX_DIMS] = r;
                        lower_live |= 1 << r;
                        j += 1;
                    }
                    if !t.is_always_valid() {
                        p.has_padding = true;
                    }
                    p.ops[p.n_ops as usize % MAX_OPS] = op;
                    p.n_ops += 1;
                }
                k += 1;
            }
            reg_of = next;
        }
        p.result = reg_of[0];
        p
    }
}

impl Program {
    /// Number of operations left after compiling (identity and
    /// memory-free items removed).
    ///
    /// ```
    /// assert_eq!(cktile::Descriptor::packed(&[64, 64]).unwrap().program().operations(), 1);
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

    /// The same value as [`Descriptor::calculate_offset`] (no range checks;
    /// missing trailing dimensions count as 0).
    ///
    /// ```
    /// let p = cktile::Descriptor::packed(&[4, 8]).unwrap().program();
    /// assert_eq!(p.calculate_offset(&[1, 2]), 10);
    /// ```
    #[inline]
    pub const fn calculate_offset(&self, top: &[Index]) -> Index {
        let mut regs = [0; REGS];
        let mut i = 0;
        while i < top.len() && i < MAX_DIMS {
            regs[i] = top[i];
            i += 1;
        }
        let mut k = 0;
        while k < self.n_ops as usize && k < MAX_OPS {
            let op = &self.ops[k];
            op.transform.lower_regs(&mut regs, &op.ins, &op.outs);
            k += 1;
        }
        regs[self.result as usize % REGS]
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
            if top[i] < 0 || top[i] >= self.top.get(i) {
                return None;
            }
            regs[i] = top[i];
            i += 1;
        }
        let mut k = 0;
        while k < self.n_ops as usize && k < MAX_OPS {
            let op = &self.ops[k];
            if self.has_padding && !op.transform.is_valid_upper_at(&regs, op.ins[0]) {
                return None;
            }
            op.transform.lower_regs(&mut regs, &op.ins, &op.outs);
            k += 1;
        }
        Some(regs[self.result as usize % REGS])
    }
}
