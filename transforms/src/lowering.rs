//! [`Lowering`]: a transform written as a few integer operations, the one
//! form every tool that turns a transform into something else reads.
//!
//! Each transform's meaning is its [`kinds`](crate::kinds) formula; next to
//! that formula, its module writes the same map once more as a short list of
//! [`Step`]s over numbered *slots* (its upper indices first, then one slot
//! per value a step makes), with, for the pad family, one validity
//! [`Check`]. The steps are the operations generated code and compiled
//! evaluators have: an affine sum, the row-major split of a merge, a
//! general truncating division and remainder, a xor, CuTe's swizzle, a
//! `functor`'s permutation of low bits.
//!
//! [`Transform::lowering`](crate::Transform::lowering) gives the forward
//! direction (upper to lower, what an offset needs) and
//! [`Transform::upper_lowering`](crate::Transform::upper_lowering) the
//! inverse, where one exists. cktile's C++ emitter, its interval analysis and its compiled
//! `Program` all consume these lists and never look at a transform's kind,
//! so adding a transform means writing its formula and its lowering, and
//! nothing downstream changes. [`Lowering::lower`] runs a lowering as
//! written; the tests hold it equal to the formulas for every kind, inside
//! and outside the lengths.
//!
//! A forward lowering keeps within what a compiled program holds per item:
//! at most two steps, or one step and a check, and no more step values than
//! the transform has lower indices (the tests check this for every kind).
//! The builder keeps lowerings short: a lone unit term, a split over one
//! length and a division by 1 are their input, with no step.
//!
//! ```
//! use cktile_transforms::{Transform, lowering::Step};
//! // xor((64, 8)): low0 = up0, low1 = up1 ^ (up0 % 8).
//! let l = Transform::xor(64, 8)?.lowering();
//! assert_eq!(l.steps(), &[Step::Rem { out: 2, a: 0, by: 8 }, Step::Xor { out: 3, a: 1, b: 2 }]);
//! assert_eq!(l.outputs(), &[0, 3]);
//! assert_eq!(&l.lower(&[13, 6])[..2], &[13, 6 ^ 5]);
//! # Ok::<(), cktile_transforms::Error>(())
//! ```

use crate::arith::bits::BitPermute;
use crate::arith::swizzle::Fields;
use crate::{Dims, Index, Indices, MAX_DIMS};

/// The most steps one lowering holds: an embed's inverse divides and takes
/// a remainder once per dimension.
pub const MAX_STEPS: usize = 2 * MAX_DIMS;

/// The most slots one lowering uses: its inputs, and the values its steps
/// make (a split makes one per dimension, every other step one).
pub const MAX_SLOTS: usize = MAX_DIMS + MAX_STEPS;

/// A slot: a transform's input index, or a value an earlier step made.
pub type Slot = u8;

/// One integer operation of a lowering. Every step writes slot `out` (a
/// split writes `out..out + n`), and reads only slots written before it.
/// The arithmetic is the formulas': wrapping products and sums, C's
/// truncating division and remainder (a zero divisor gives 0; no validated
/// transform has one).
///
/// ```
/// use cktile_transforms::lowering::Step;
/// let s = Step::Div { out: 1, a: 0, by: 8 };
/// assert_eq!(s.outputs(), 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// `out = constant + sum(coef[j] * slot ins[j])` over the first `n`
    /// terms.
    Affine {
        /// The slot written.
        out: Slot,
        /// How many terms.
        n: u8,
        /// The slots the terms read.
        ins: [Slot; MAX_DIMS],
        /// Their coefficients.
        coef: [Index; MAX_DIMS],
        /// The constant term.
        constant: Index,
    },
    /// The row-major split of slot `a` over `lengths` (a merge's forward
    /// direction, an unmerge's inverse): from the last dimension,
    /// `out + i = t % lengths[i]`, `t /= lengths[i]`; then `out = t`
    /// (not reduced by `lengths[0]`, as in CK Tile).
    Split {
        /// The first slot written (`lengths.len()` of them).
        out: Slot,
        /// The slot split.
        a: Slot,
        /// The lengths, the last fastest.
        lengths: Dims,
    },
    /// `out = a / by`, truncating.
    Div {
        /// The slot written.
        out: Slot,
        /// The dividend.
        a: Slot,
        /// The divisor (positive).
        by: Index,
    },
    /// `out = a % by`, truncating (negative for a negative `a`, as C).
    Rem {
        /// The slot written.
        out: Slot,
        /// The dividend.
        a: Slot,
        /// The divisor (positive).
        by: Index,
    },
    /// `out = a ^ b`.
    Xor {
        /// The slot written.
        out: Slot,
        /// One operand.
        a: Slot,
        /// The other.
        b: Slot,
    },
    /// `out = swizzle(a)`: CuTe's `Swizzle<bits, base, shift>`
    /// ([`kinds::swizzle::apply`](crate::kinds::swizzle::apply)).
    Swizzle {
        /// The slot written.
        out: Slot,
        /// The index swizzled.
        a: Slot,
        /// CuTe's B.
        bits: u32,
        /// CuTe's M.
        base: u32,
        /// CuTe's S.
        shift: i32,
    },
    /// `out = map.apply(a)`: a `functor`'s bit permutation and flip
    /// ([`BitPermute::apply`]).
    Permute {
        /// The slot written.
        out: Slot,
        /// The index mapped.
        a: Slot,
        /// The map.
        map: BitPermute,
    },
}

impl Step {
    /// How many slots the step writes.
    ///
    /// ```
    /// use cktile_transforms::{lowering::Step, Dims};
    /// let s = Step::Split { out: 1, a: 0, lengths: Dims::from_slice(&[2, 3, 4]).unwrap() };
    /// assert_eq!(s.outputs(), 3);
    /// ```
    pub const fn outputs(&self) -> usize {
        match self {
            Step::Split { lengths, .. } => lengths.len(),
            _ => 1,
        }
    }

    /// The first slot the step writes.
    ///
    /// ```
    /// assert_eq!(cktile_transforms::lowering::Step::Xor { out: 4, a: 0, b: 1 }.out(), 4);
    /// ```
    pub const fn out(&self) -> Slot {
        match *self {
            Step::Affine { out, .. }
            | Step::Split { out, .. }
            | Step::Div { out, .. }
            | Step::Rem { out, .. }
            | Step::Xor { out, .. }
            | Step::Swizzle { out, .. }
            | Step::Permute { out, .. } => out,
        }
    }
}

/// The pad family's validity: the upper index in slot `slot` maps to a real
/// (non-padded) position when `low <= value < high`.
///
/// ```
/// use cktile_transforms::{lowering::Check, Transform};
/// // pad(10, 2, 3): valid for 2..12.
/// assert_eq!(Transform::pad(10, 2, 3)?.lowering().check(), Some(Check { slot: 0, low: 2, high: 12 }));
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Check {
    /// The slot tested (always an input).
    pub slot: Slot,
    /// The first valid value.
    pub low: Index,
    /// One past the last valid value.
    pub high: Index,
}

impl Check {
    /// Whether `v` passes.
    ///
    /// ```
    /// let c = cktile_transforms::lowering::Check { slot: 0, low: 2, high: 12 };
    /// assert!(!c.holds(1) && c.holds(2) && c.holds(11) && !c.holds(12));
    /// ```
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    pub const fn holds(&self, v: Index) -> bool {
        v >= self.low && v < self.high
    }
}

/// A transform as steps over slots (see the [module](self) documentation).
///
/// ```
/// use cktile_transforms::Transform;
/// // embed((4, 8), (100, 1)): one affine step.
/// let l = Transform::embed(&[4, 8], &[100, 1])?.lowering();
/// assert_eq!((l.inputs(), l.steps().len(), l.outputs()), (2, 1, &[2][..]));
/// assert_eq!(l.lower(&[3, 5])[0], 305);
/// # Ok::<(), cktile_transforms::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lowering {
    inputs: u8,
    steps: [Step; MAX_STEPS],
    n_steps: u8,
    slots: u8,
    outputs: [Slot; MAX_DIMS],
    n_outputs: u8,
    check: Option<Check>,
}

const NO_STEP: Step = Step::Xor { out: 0, a: 0, b: 0 };

/// The index of `slot` in a value array (a slot past it wraps, never panics).
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
const fn at(slot: Slot) -> usize {
    slot as usize % MAX_SLOTS
}

impl Lowering {
    /// An empty lowering of a transform with `inputs` upper indices: no
    /// steps and no outputs yet. (More than [`MAX_DIMS`] inputs count as
    /// [`MAX_DIMS`].)
    ///
    /// ```
    /// let l = cktile_transforms::lowering::Lowering::new(2);
    /// assert_eq!((l.inputs(), l.steps().len(), l.outputs().len()), (2, 0, 0));
    /// ```
    pub const fn new(inputs: usize) -> Lowering {
        let inputs = if inputs > MAX_DIMS { MAX_DIMS } else { inputs } as u8;
        Lowering {
            inputs,
            steps: [NO_STEP; MAX_STEPS],
            n_steps: 0,
            slots: inputs,
            outputs: [0; MAX_DIMS],
            n_outputs: 0,
            check: None,
        }
    }

    /// How many upper indices (slots `0..inputs`) the lowering reads.
    ///
    /// ```
    /// assert_eq!(cktile_transforms::Transform::merge(&[4, 8])?.lowering().inputs(), 1);
    /// # Ok::<(), cktile_transforms::Error>(())
    /// ```
    pub const fn inputs(&self) -> usize {
        self.inputs as usize
    }

    /// The steps, in order.
    ///
    /// ```
    /// // A pass-through has none: its output is its input.
    /// let l = cktile_transforms::Transform::pass_through(8)?.lowering();
    /// assert!(l.steps().is_empty() && l.outputs() == [0]);
    /// # Ok::<(), cktile_transforms::Error>(())
    /// ```
    pub const fn steps(&self) -> &[Step] {
        self.steps.split_at(self.n_steps as usize % (MAX_STEPS + 1)).0
    }

    /// How many slots the inputs and steps use.
    ///
    /// ```
    /// // merge((4, 8)): the input, then the split's two values.
    /// assert_eq!(cktile_transforms::Transform::merge(&[4, 8])?.lowering().slots(), 3);
    /// # Ok::<(), cktile_transforms::Error>(())
    /// ```
    pub const fn slots(&self) -> usize {
        self.slots as usize
    }

    /// The slot holding each lower index (each upper index, for an
    /// [inverse](crate::Transform::upper_lowering)).
    ///
    /// ```
    /// let l = cktile_transforms::Transform::merge(&[4, 8])?.lowering();
    /// assert_eq!(l.outputs(), &[1, 2]);
    /// # Ok::<(), cktile_transforms::Error>(())
    /// ```
    pub const fn outputs(&self) -> &[Slot] {
        self.outputs.split_at(self.n_outputs as usize % (MAX_DIMS + 1)).0
    }

    /// The validity test, for the pad family.
    ///
    /// ```
    /// use cktile_transforms::Transform;
    /// assert_eq!(Transform::slice(10, 2, 5)?.lowering().check(), None);
    /// assert_eq!(Transform::right_pad(10, 3)?.lowering().check().map(|c| c.high), Some(10));
    /// # Ok::<(), cktile_transforms::Error>(())
    /// ```
    pub const fn check(&self) -> Option<Check> {
        self.check
    }

    /// Adds a step whose first slot is the next free one and returns that
    /// slot (the step's own `out` is overwritten). Past [`MAX_STEPS`] or
    /// [`MAX_SLOTS`] the step is dropped (no transform needs that many) and
    /// slot 0 comes back.
    const fn push(&mut self, step: Step) -> Slot {
        let out = self.slots;
        let n = step.outputs();
        if self.n_steps as usize >= MAX_STEPS || out as usize + n > MAX_SLOTS {
            return 0;
        }
        self.steps[self.n_steps as usize] = match step {
            Step::Affine { n, ins, coef, constant, .. } => Step::Affine { out, n, ins, coef, constant },
            Step::Split { a, lengths, .. } => Step::Split { out, a, lengths },
            Step::Div { a, by, .. } => Step::Div { out, a, by },
            Step::Rem { a, by, .. } => Step::Rem { out, a, by },
            Step::Xor { a, b, .. } => Step::Xor { out, a, b },
            Step::Swizzle { a, bits, base, shift, .. } => Step::Swizzle { out, a, bits, base, shift },
            Step::Permute { a, map, .. } => Step::Permute { out, a, map },
        };
        self.n_steps += 1;
        self.slots += n as u8;
        out
    }

    /// Appends `constant + sum(coef[j] * ins[j])`, terms with a zero
    /// coefficient dropped; returns its slot. A lone term with coefficient
    /// 1 and no constant is that term's slot: no step.
    ///
    /// ```
    /// use cktile_transforms::lowering::Lowering;
    /// let mut l = Lowering::new(2);
    /// let s = l.affine(&[0, 1], &[8, 1], 3);
    /// l.output(s);
    /// assert_eq!(l.lower(&[2, 5])[0], 24);
    /// ```
    pub const fn affine(&mut self, ins: &[Slot], coef: &[Index], constant: Index) -> Slot {
        let (mut kept_ins, mut kept_coef, mut k) = ([0; MAX_DIMS], [0; MAX_DIMS], 0);
        let mut j = 0;
        while j < ins.len() && j < coef.len() && k < MAX_DIMS {
            if coef[j] != 0 {
                kept_ins[k] = ins[j];
                kept_coef[k] = coef[j];
                k += 1;
            }
            j += 1;
        }
        if k == 1 && kept_coef[0] == 1 && constant == 0 {
            return kept_ins[0];
        }
        self.push(Step::Affine { out: 0, n: k as u8, ins: kept_ins, coef: kept_coef, constant })
    }

    /// Appends the row-major split of `a` over `lengths`; returns its first
    /// slot (its `lengths.len()` values are consecutive). A split over one
    /// length is `a` itself: no step.
    ///
    /// ```
    /// use cktile_transforms::{lowering::Lowering, Dims};
    /// let mut l = Lowering::new(1);
    /// let s = l.split(0, Dims::from_slice(&[2, 3, 4])?);
    /// l.outputs_from(s, 3);
    /// assert_eq!(&l.lower(&[23])[..3], &[1, 2, 3]);
    /// # Ok::<(), cktile_transforms::Error>(())
    /// ```
    pub const fn split(&mut self, a: Slot, lengths: Dims) -> Slot {
        if lengths.len() == 1 {
            return a;
        }
        self.push(Step::Split { out: 0, a, lengths })
    }

    /// Appends `a / by` (truncating); returns its slot (`a` itself for
    /// `by = 1`).
    ///
    /// ```
    /// let mut l = cktile_transforms::lowering::Lowering::new(1);
    /// let s = l.div(0, 8);
    /// l.output(s);
    /// assert_eq!(l.lower(&[-29])[0], -3);
    /// ```
    pub const fn div(&mut self, a: Slot, by: Index) -> Slot {
        if by == 1 {
            return a;
        }
        self.push(Step::Div { out: 0, a, by })
    }

    /// Appends `a % by` (truncating); returns its slot.
    ///
    /// ```
    /// let mut l = cktile_transforms::lowering::Lowering::new(1);
    /// let s = l.rem(0, 8);
    /// l.output(s);
    /// assert_eq!(l.lower(&[-29])[0], -5);
    /// ```
    pub const fn rem(&mut self, a: Slot, by: Index) -> Slot {
        self.push(Step::Rem { out: 0, a, by })
    }

    /// Appends `a ^ b`; returns its slot.
    ///
    /// ```
    /// let mut l = cktile_transforms::lowering::Lowering::new(2);
    /// let s = l.xor(0, 1);
    /// l.output(s);
    /// assert_eq!(l.lower(&[6, 3])[0], 5);
    /// ```
    pub const fn xor(&mut self, a: Slot, b: Slot) -> Slot {
        self.push(Step::Xor { out: 0, a, b })
    }

    /// Appends CuTe's swizzle of `a`; returns its slot.
    ///
    /// ```
    /// let mut l = cktile_transforms::lowering::Lowering::new(1);
    /// let s = l.swizzle(0, 3, 3, 3);
    /// l.output(s);
    /// assert_eq!(l.lower(&[64])[0], 72);
    /// ```
    pub const fn swizzle(&mut self, a: Slot, bits: u32, base: u32, shift: i32) -> Slot {
        self.push(Step::Swizzle { out: 0, a, bits, base, shift })
    }

    /// Appends a `functor`'s map of `a`; returns its slot.
    ///
    /// ```
    /// use cktile_transforms::{kinds::functor::BitPermute, lowering::Lowering};
    /// let mut l = Lowering::new(1);
    /// let s = l.permute(0, BitPermute::SWAP_WARP);
    /// l.output(s);
    /// assert_eq!(l.lower(&[6])[0], 7);
    /// ```
    pub const fn permute(&mut self, a: Slot, map: BitPermute) -> Slot {
        self.push(Step::Permute { out: 0, a, map })
    }

    /// Appends `slot` as the next output (ignored past [`MAX_DIMS`]).
    ///
    /// ```
    /// let mut l = cktile_transforms::lowering::Lowering::new(1);
    /// l.output(0);
    /// assert_eq!(l.outputs(), &[0]);
    /// ```
    pub const fn output(&mut self, slot: Slot) {
        if (self.n_outputs as usize) < MAX_DIMS {
            self.outputs[self.n_outputs as usize] = slot;
            self.n_outputs += 1;
        }
    }

    /// Appends `n` outputs, slots `first..first + n`.
    ///
    /// ```
    /// let mut l = cktile_transforms::lowering::Lowering::new(3);
    /// l.outputs_from(0, 3);
    /// assert_eq!(l.outputs(), &[0, 1, 2]);
    /// ```
    pub const fn outputs_from(&mut self, first: Slot, n: usize) {
        let mut i = 0;
        while i < n && i < MAX_DIMS {
            self.output(first.wrapping_add(i as u8));
            i += 1;
        }
    }

    /// Sets the validity test: `low <= slot < high`.
    ///
    /// ```
    /// let mut l = cktile_transforms::lowering::Lowering::new(1);
    /// l.set_check(0, 2, 12);
    /// assert!(l.is_valid(&[2]) && !l.is_valid(&[12]));
    /// ```
    pub const fn set_check(&mut self, slot: Slot, low: Index, high: Index) {
        self.check = Some(Check { slot, low, high });
    }

    /// Runs the steps on the upper indices `up` (missing ones count as 0)
    /// and returns every slot's value.
    ///
    /// ```
    /// let l = cktile_transforms::Transform::merge(&[4, 8])?.lowering();
    /// assert_eq!(&l.run(&[13])[..3], &[13, 1, 5]);
    /// # Ok::<(), cktile_transforms::Error>(())
    /// ```
    pub const fn run(&self, up: &[Index]) -> [Index; MAX_SLOTS] {
        let mut v = [0; MAX_SLOTS];
        let mut i = 0;
        while i < self.inputs as usize && i < up.len() {
            v[i] = up[i];
            i += 1;
        }
        let steps = self.steps();
        let mut k = 0;
        while k < steps.len() {
            match steps[k] {
                Step::Affine { out, n, ins, coef, constant } => {
                    let mut acc = constant;
                    let mut j = 0;
                    while j < n as usize && j < MAX_DIMS {
                        acc = acc.wrapping_add(v[at(ins[j])].wrapping_mul(coef[j]));
                        j += 1;
                    }
                    v[at(out)] = acc;
                }
                Step::Split { out, a, lengths } => {
                    let low = crate::arith::split(v[at(a)], &lengths.to_array(), lengths.len());
                    let mut j = 0;
                    while j < lengths.len() {
                        v[(out as usize + j) % MAX_SLOTS] = low[j];
                        j += 1;
                    }
                }
                Step::Div { out, a, by } => v[at(out)] = crate::arith::div(v[at(a)], by),
                Step::Rem { out, a, by } => v[at(out)] = crate::arith::rem(v[at(a)], by),
                Step::Xor { out, a, b } => v[at(out)] = v[at(a)] ^ v[at(b)],
                Step::Swizzle { out, a, bits, base, shift } => {
                    v[at(out)] = Fields::new(bits, base, shift).apply(v[at(a)])
                }
                Step::Permute { out, a, map } => v[at(out)] = map.apply(v[at(a)]),
            }
            k += 1;
        }
        v
    }

    /// Runs the steps and returns the outputs: for a forward lowering, the
    /// same as [`Transform::calculate_lower`](crate::Transform::calculate_lower).
    ///
    /// ```
    /// use cktile_transforms::Transform;
    /// let t = Transform::merge(&[4, 5])?;
    /// assert_eq!(&t.lowering().lower(&[7])[..2], &[1, 2]); // CK Tile's test
    /// # Ok::<(), cktile_transforms::Error>(())
    /// ```
    pub const fn lower(&self, up: &[Index]) -> Indices {
        let v = self.run(up);
        let mut out = [0; MAX_DIMS];
        let outs = self.outputs();
        let mut j = 0;
        while j < outs.len() && j < MAX_DIMS {
            out[j] = v[outs[j] as usize % MAX_SLOTS];
            j += 1;
        }
        out
    }

    /// Whether the upper indices `up` pass the validity test (true without
    /// one).
    ///
    /// ```
    /// let l = cktile_transforms::Transform::left_pad(10, 2)?.lowering();
    /// assert!(!l.is_valid(&[1]) && l.is_valid(&[2]) && l.is_valid(&[11]) && !l.is_valid(&[12]));
    /// # Ok::<(), cktile_transforms::Error>(())
    /// ```
    pub const fn is_valid(&self, up: &[Index]) -> bool {
        match self.check {
            Some(c) => {
                let i = c.slot as usize;
                c.holds(if i < up.len() { up[i] } else { 0 })
            }
            None => true,
        }
    }
}
