//! Whether a program's vectors along its last dimension are contiguous,
//! decided once for the whole program from its operations
//! ([`Program::runs_along_last`]): the closed form the analyzer's vector
//! checks use in place of running the program at every element of every
//! lane's vector (`analyzer::tile::chunk_walk`).
//!
//! Each register is followed symbolically over the `width` elements of an
//! aligned vector, `k` in `0..width` along the last dimension, as
//! `r(k) = r(0) + a * k` with a known power of two dividing `r(0)`
//! ([`Lin`]). Affine operations carry that form exactly (wrapping
//! arithmetic is a ring); a shift, mask or xor carries it only where the
//! bits that `k` moves stay apart from the ones the operation cuts or
//! flips, and every other case (a division by other numbers, a swizzle, a
//! validity test that `k` reaches, ...) gives up. So the answer is `true`
//! only when it is proved, and the analyzer then runs the elements
//! themselves for the vectors the proof does not cover (unaligned, running
//! past the last dimension, or an offset too near `i64::MAX`), and for every
//! vector when it is `false`.

use super::{Op, Program, R, REGS};
use cktile_transforms::Index;

/// A register over the `width` elements of a vector: `r(k) = r(0) + a * k`,
/// `r(0)` a multiple of `2^tz` (`tz` at most 63; 63 for a constant 0). `a
/// = 0`: the same value for every element.
#[derive(Clone, Copy)]
struct Lin {
    a: Index,
    tz: u32,
}

const GIVE_UP: Option<Lin> = None;

/// A value that does not move with `k`, a multiple of `2^tz`.
const fn constant(tz: u32) -> Option<Lin> {
    Some(Lin { a: 0, tz: if tz > 63 { 63 } else { tz } })
}

const fn tz_of(v: Index) -> u32 {
    if v == 0 { 63 } else { v.trailing_zeros() }
}

impl Lin {
    /// `a` a positive power of two and the span `a * width` (`2^lg`) too,
    /// with `r(0)` a multiple of it: the vector's values fill one aligned
    /// block of `2^lg`, `k` moving bits `log2(a)..lg` only.
    const fn aligned(&self, width_log: u32) -> Option<(u32, u32)> {
        if self.a <= 0 || !(self.a as u64).is_power_of_two() {
            return None;
        }
        let la = self.a.trailing_zeros();
        let lg = la + width_log;
        if lg >= 62 || self.tz < lg {
            return None;
        }
        Some((la, lg))
    }
}

/// Output `s, b` of a shift-and-mask (`masked`: by `b` bits) of `t`, over
/// coordinates inside the lengths where, with `unsigned`, `t` is never
/// negative.
const fn shifted(t: Lin, s: u32, b: u32, masked: bool, unsigned: bool, width_log: u32) -> Option<Lin> {
    if s >= 63 || (masked && b >= 63) {
        return if t.a == 0 { constant(0) } else { GIVE_UP };
    }
    let tz_shift = t.tz.saturating_sub(s);
    let tz_out = if masked && b < tz_shift { b } else { tz_shift };
    if t.a == 0 {
        // Truncating division of a multiple of 2^tz by 2^s (s <= tz) is exact;
        // the truncating remainder of a multiple of 2^m by 2^b is a multiple of 2^min(m, b).
        return constant(tz_out);
    }
    if !unsigned {
        return GIVE_UP;
    }
    let Some((la, lg)) = t.aligned(width_log) else { return GIVE_UP };
    if s >= lg {
        // The aligned block lies inside one block of 2^s.
        return constant(tz_out);
    }
    if s > la {
        return GIVE_UP;
    }
    // Every value a multiple of 2^s: the shift divides exactly.
    let a = t.a >> s;
    if !masked || lg - s <= b {
        // The block (of 2^(lg - s)) lies inside one block of 2^b.
        return Some(Lin { a, tz: tz_out });
    }
    if la - s >= b {
        // a * k a multiple of 2^b: the mask keeps r(0)'s bits alone.
        return constant(tz_out);
    }
    GIVE_UP
}

impl Program {
    /// Whether, for every coordinate inside the top lengths whose last
    /// index `c` is a multiple of `width` (a power of two) with `c + width`
    /// at most the last length, the `width` elements `c..c + width` along
    /// the last dimension are all valid when the first is, and their
    /// offsets follow one another (`offset(c + k) = offset(c) + k` in
    /// wrapping arithmetic: exact where `offset(c) + width - 1` does not
    /// overflow). `false` when the operations do not prove it (each register
    /// followed symbolically over the vector: affine steps carry the form,
    /// a shift, mask or xor only where it leaves the vector's bits alone),
    /// which says nothing either way.
    ///
    /// ```
    /// use cktile_analysis::Program;
    /// let d = cktile_analysis::layouts::ck::xor_preshuffle(64, 64, 8)?;
    /// assert!(Program::of(&d).runs_along_last(8));
    /// // The xor moves the 8-element chunks, not the elements inside them: 16 do not follow.
    /// assert!(!Program::of(&d).runs_along_last(16));
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub const fn runs_along_last(&self, width: usize) -> bool {
        let dims = self.top.len();
        if dims == 0 || width == 0 || !width.is_power_of_two() || width > 1 << 20 {
            return false;
        }
        let width_log = width.trailing_zeros();
        let mut regs = [constant(63); REGS];
        let mut i = 0;
        while i < dims && i < REGS {
            regs[i] = if i + 1 == dims { Some(Lin { a: 1, tz: width_log }) } else { constant(0) };
            i += 1;
        }
        let mut ops = self.ops.split_at(self.n_ops as usize % (super::MAX_OPS + 1)).0;
        while let [op, rest @ ..] = ops {
            ops = rest;
            match op {
                Op::Nop => {}
                Op::Affine { out, n, ins, coef, constant: c, .. } => {
                    let (mut a, mut tz) = (0 as Index, tz_of(*c));
                    let mut j = 0;
                    while j < *n as usize && j < ins.len() {
                        if coef[j] != 0 {
                            let Some(v) = regs[ins[j] as usize & R] else { return false };
                            let Some(t) = coef[j].checked_mul(v.a) else { return false };
                            let Some(sum) = a.checked_add(t) else { return false };
                            a = sum;
                            let term = tz_of(coef[j]) + v.tz;
                            if term < tz {
                                tz = term;
                            }
                        }
                        j += 1;
                    }
                    regs[*out as usize & R] = Some(Lin { a, tz: if tz > 63 { 63 } else { tz } });
                }
                Op::Split { input, n, outs, shift, bits, unsigned } => {
                    let Some(t) = regs[*input as usize & R] else { return false };
                    // Every output is computed from `t` before any is written.
                    let mut out = [GIVE_UP; REGS];
                    let mut i = 0;
                    while i < *n as usize && i < outs.len() {
                        out[i] = shifted(t, shift[i] as u32, bits[i] as u32, i > 0, *unsigned, width_log);
                        if out[i].is_none() {
                            return false;
                        }
                        i += 1;
                    }
                    // Written as `run` writes them: the last output first, outs[0] last.
                    let mut i = *n as usize;
                    while i > 0 {
                        i -= 1;
                        if i < outs.len() {
                            regs[outs[i] as usize & R] = out[i];
                        }
                    }
                }
                Op::Mask { a, out, bits, unsigned } => {
                    let Some(t) = regs[*a as usize & R] else { return false };
                    let v = shifted(t, 0, *bits as u32, true, *unsigned, width_log);
                    if v.is_none() {
                        return false;
                    }
                    regs[*out as usize & R] = v;
                }
                Op::Xor { a, b, out, bits, .. } => {
                    let (Some(x), Some(y)) = (regs[*a as usize & R], regs[*b as usize & R]) else { return false };
                    if x.a != 0 {
                        return false;
                    }
                    // The remainder of a multiple of 2^tz by 2^bits (truncating or not).
                    let bits = *bits as u32;
                    let tz_r = if bits >= 63 {
                        0
                    } else if x.tz < bits {
                        x.tz
                    } else {
                        bits
                    };
                    let tz = if y.tz < tz_r { y.tz } else { tz_r };
                    if y.a == 0 {
                        regs[*out as usize & R] = constant(tz);
                    } else {
                        // The xor flips no bit that k moves, nor any below them.
                        let Some((_, lg)) = y.aligned(width_log) else { return false };
                        if tz_r < lg {
                            return false;
                        }
                        regs[*out as usize & R] = Some(Lin { a: y.a, tz });
                    }
                }
                Op::Check { a, .. } => match regs[*a as usize & R] {
                    Some(v) if v.a == 0 => {}
                    _ => return false,
                },
                Op::Swizzle { a, out, .. }
                | Op::Permute { a, out, .. }
                | Op::Div { a, out, .. }
                | Op::Rem { a, out, .. } => match regs[*a as usize & R] {
                    Some(v) if v.a == 0 => regs[*out as usize & R] = constant(0),
                    _ => return false,
                },
                Op::Bitxor { a, b, out } => match (regs[*a as usize & R], regs[*b as usize & R]) {
                    (Some(x), Some(y)) if x.a == 0 && y.a == 0 => regs[*out as usize & R] = constant(0),
                    _ => return false,
                },
                Op::SplitBy { input, n, outs, .. } => {
                    match regs[*input as usize & R] {
                        Some(v) if v.a == 0 => {}
                        _ => return false,
                    }
                    let mut i = 0;
                    while i < *n as usize && i < outs.len() {
                        regs[outs[i] as usize & R] = constant(0);
                        i += 1;
                    }
                }
            }
        }
        matches!(regs[self.result as usize & R], Some(Lin { a: 1, .. }))
    }
}

/// The answer `runs_along_last` gives, checked by running the elements:
/// every aligned vector of every row of a 2-D program.
#[cfg(test)]
pub(crate) fn runs_by_brute_force(p: &Program, width: usize) -> bool {
    let l = p.lengths();
    if l.len() != 2 {
        return false;
    }
    let (rows, cols) = (l.get(0), l.get(1));
    let w = width as Index;
    let mut c = 0;
    while c + w <= cols {
        for r in 0..rows {
            if let Some(first) = p.offset_if_valid(&[r, c]) {
                for k in 1..w {
                    match (p.offset_if_valid(&[r, c + k]), first.checked_add(k)) {
                        (Some(o), Some(want)) if o == want => {}
                        _ => return false,
                    }
                }
            }
        }
        c += w;
    }
    true
}
