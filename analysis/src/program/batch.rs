//! Batched evaluation of a [`Program`]: many coordinates per call, each
//! operation run over [`LANES`] of them before the next
//! ([`Program::offsets_if_valid`], [`Program::offsets_columns`] and the
//! analyzer's 2-D entry).

use super::{Index, LANES, MAX_DIMS, MAX_OPS, Op, Program, REGS, contains, low_bits, shr};
use cktile_transforms::kinds::{div, div_pow2, rem, rem_pow2};

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

/// Calls `$p.$method::<$lead..., NR>($args)` with `NR` the smallest
/// register file (4, 8 or [`REGS`] registers) that holds every register the
/// program uses: the batches' one choice of their register file's size.
macro_rules! on_register_file {
    ($p:ident . $method:ident $(:: < $($lead:ident),* >)? ( $($arg:expr),* )) => {
        if $p.n_regs as usize <= 4 {
            $p.$method::<$($($lead,)*)? 4>($($arg),*)
        } else if $p.n_regs as usize <= 8 {
            $p.$method::<$($($lead,)*)? 8>($($arg),*)
        } else {
            $p.$method::<$($($lead,)*)? REGS>($($arg),*)
        }
    };
}

/// `a * c`, wrapping.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
const fn mul_wrapping(a: Index, c: Index) -> Index {
    a.wrapping_mul(c)
}

/// `a * c` from the low 32 bits of each: equal to [`mul_wrapping`] when
/// both lie in `0..2^32` (the product then fits 64 bits).
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
const fn mul_narrow(a: Index, c: Index) -> Index {
    (a as u32 as u64).wrapping_mul(c as u32 as u64) as Index
}

impl Program {
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
    /// use cktile_analysis::Program;
    /// let d = cktile_analysis::spec::parse("naive((4,10),(16,1)) | transform(pass_through(4) on [0] -> [0], pad(10,2,3) on [1] -> [1])")?;
    /// let p = Program::of(&d);
    /// let coords = [[0, 0], [1, 2], [3, 11], [3, 12], [4, 5]];
    /// let mut out = [None; 5];
    /// assert_eq!(p.offsets_if_valid(&coords, &mut out), 5);
    /// assert_eq!(out, [None, Some(16), Some(57), None, None]);
    /// # Ok::<(), cktile_analysis::Error>(())
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
        on_register_file!(self.batches::<N>(coords, out));
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
    /// use cktile_analysis::Program;
    /// let d = cktile_analysis::spec::parse("naive((4,10),(16,1)) | transform(pass_through(4) on [0] -> [0], pad(10,2,3) on [1] -> [1])")?;
    /// let p = Program::of(&d);
    /// let (rows, cols) = ([0, 1, 3, 3, 4], [0, 2, 11, 12, 5]);
    /// let (mut out, mut valid) = ([0; 5], [0u64; 1]);
    /// assert_eq!(p.offsets_columns(&[&rows, &cols], &mut out, &mut valid), 5);
    /// assert_eq!(valid[0], 0b00110); // [1, 2] and [3, 11]
    /// assert_eq!((out[1], out[2]), (16, 57));
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    /// use cktile_analysis::Program;
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
        } else {
            on_register_file!(self.column_batches::<N>(columns, count, out, valid));
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
    ///
    /// ```
    /// use cktile_analysis::Program;
    /// use cktile_analysis::program::LANES;
    /// let p = Program::of(&cktile_core::Descriptor::naive(&[4, 8], &[10, 1])?);
    /// let (mut rows, mut cols, mut out) = ([0; LANES], [0; LANES], [0; LANES]);
    /// (rows[0], cols[0], rows[1], cols[1], rows[2], cols[2]) = (2, 3, 0, 7, 4, 0);
    /// let valid = p.offsets_2d(&rows, &cols, 3, &mut out);
    /// // Lanes 0 and 1 are inside the 4 x 8 tile; lane 2 (row 4) is not.
    /// assert_eq!((valid, out[0], out[1]), (0b011, 23, 7));
    /// # Ok::<(), cktile_analysis::Error>(())
    /// ```
    pub const fn offsets_2d(
        &self,
        rows: &[Index; LANES],
        cols: &[Index; LANES],
        n: usize,
        out: &mut [Index; LANES],
    ) -> u64 {
        if self.top.len() != 2 {
            return 0;
        }
        on_register_file!(self.chunk_2d(rows, cols, n, out))
    }

    /// [`offsets_2d`](Self::offsets_2d) on a register file of `NR`
    /// registers (as for [`batches`](Self::batches)). Lanes from `n` on run
    /// too (the operations are total) and are left out of the mask.
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
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
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
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
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
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
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
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
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
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
    #[cfg_attr(always_inline, inline(always))]
    #[cfg_attr(not(always_inline), inline)]
    const fn run_lanes<const NR: usize>(&self, regs: &mut [[Index; LANES]; NR], valid: &mut [u64; LANES]) {
        let m = NR - 1;
        let mut k = 0;
        while k < self.n_ops as usize && k < MAX_OPS {
            match &self.ops[k] {
                Op::Affine { out, n, ins, coef, constant, narrow } => {
                    affine_lanes(regs, *out, *n, ins, coef, *constant, *narrow)
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
                Op::Permute { a, out, moves, .. } => {
                    let (a, out) = (*a as usize & m, *out as usize & m);
                    each_lane!(|l| regs[out][l] = moves.apply(regs[a][l]));
                }
                Op::SplitBy { input, n, outs, lengths } => {
                    // The outputs are fresh registers: the input stays intact.
                    let input = *input as usize & m;
                    each_lane!(|l| {
                        let mut t = regs[input][l];
                        let mut i = *n as usize;
                        while i > 1 && i <= MAX_DIMS {
                            i -= 1;
                            regs[outs[i] as usize & m][l] = rem(t, lengths[i]);
                            t = div(t, lengths[i]);
                        }
                        regs[outs[0] as usize & m][l] = t;
                    });
                }
                Op::Div { a, out, by } => {
                    let (a, out) = (*a as usize & m, *out as usize & m);
                    each_lane!(|l| regs[out][l] = div(regs[a][l], *by));
                }
                Op::Rem { a, out, by } => {
                    let (a, out) = (*a as usize & m, *out as usize & m);
                    each_lane!(|l| regs[out][l] = rem(regs[a][l], *by));
                }
                Op::Bitxor { a, b, out } => {
                    let (a, b, out) = (*a as usize & m, *b as usize & m, *out as usize & m);
                    each_lane!(|l| regs[out][l] = regs[a][l] ^ regs[b][l]);
                }
                Op::Check { a, low, high } => {
                    let (a, low, high) = (*a as usize & m, *low, *high);
                    each_lane!(|l| valid[l] = valid[l] & (regs[a][l] >= low && regs[a][l] < high) as u64);
                }
                Op::Nop => {}
            }
            k += 1;
        }
    }
}

/// An `Affine` operation over every lane (registers taken modulo `NR`):
/// accumulated in the output register unless the output is an input,
/// power-of-two coefficients as shifts, and the narrow multiply where the
/// operation is marked so.
#[cfg_attr(always_inline, inline(always))]
#[cfg_attr(not(always_inline), inline)]
const fn affine_lanes<const NR: usize>(
    regs: &mut [[Index; LANES]; NR],
    out: u8,
    n: u8,
    ins: &[u8; MAX_DIMS],
    coef: &[Index; MAX_DIMS],
    constant: Index,
    narrow: bool,
) {
    let m = NR - 1;
    let mut acc = [constant; LANES];
    let in_place = !contains(ins, n, out);
    let o = out as usize & m;
    if in_place {
        each_lane!(|l| regs[o][l] = constant);
    }
    let mut j = 0;
    while j < n as usize && j < MAX_DIMS {
        let (src, c) = (ins[j] as usize & m, coef[j]);
        if in_place && c > 0 && c & (c - 1) == 0 {
            // A power-of-two coefficient: a shift (equal in wrapping arithmetic).
            let s = c.trailing_zeros();
            each_lane!(|l| regs[o][l] = regs[o][l].wrapping_add(regs[src][l].wrapping_shl(s)));
        } else if in_place {
            each_lane_mul!(narrow, |l, mul| regs[o][l] = regs[o][l].wrapping_add(mul(regs[src][l], c)));
        } else {
            each_lane_mul!(narrow, |l, mul| acc[l] = acc[l].wrapping_add(mul(regs[src][l], c)));
        }
        j += 1;
    }
    if !in_place {
        each_lane!(|l| regs[o][l] = acc[l]);
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::LANES;
    use crate::random::Rng;
    use crate::random::chain::{ChainConfig, chain};
    use cktile_core::Descriptor;
    use cktile_core::Index;

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
            let p = crate::Program::of(&d);
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
