//! AMD's RDNA warp instruction for the universal GEMM, written once from
//! CK Tile's WMMA traits (`warp_gemm_attribute_wmma_impl_base_traits.hpp`,
//! the same numbers as the catalogue's
//! [`wmma`](crate::distribution::catalogue::wmma) encodings):
//! [`WmmaInstruction`], the wave32 `v_wmma_*_16x16x16_*` of gfx11 (RDNA3)
//! and gfx12 (RDNA4), and its lane map; and the generations as types
//! ([`Gfx11`], [`Gfx12`]: [`RdnaWmma`]) for the warp GEMM
//! [`Wmma`](super::Wmma).
//!
//! A WMMA multiplies a 16 x 16 block of A (M x K) by a 16 x 16 block of B
//! (K x N, held N x K) on one 32-lane wave, into a 16 x 16 accumulator,
//! 8 a lane (`f32`, or `i32` for int8). With `h = lane / 16` (the
//! half-wave) and `i = lane % 16`:
//!
//! - **gfx11**: lane `l` holds row `i` of A, all 16 K values (16
//!   registers), and both half-waves hold the same A; B likewise by
//!   column. Accumulator `r` of lane `l` is C(2 r + h, i).
//! - **gfx12**: lane `l` holds row `i` of A, K `8 h .. 8 h + 8` (8
//!   registers); B likewise by column. Accumulator `r` of lane `l` is
//!   C(8 h + r, i).
//!
//! The elements a lane holds are consecutive in its registers, the first
//! in the low bits: a 32-bit register packs two 16-bit or four 8-bit
//! values. gfx12 adds OCP's fp8 and bf8 (`v_wmma_f32_16x16x16_{fp8_fp8,
//! bf8_bf8}`); gfx11 has fp16, bf16 and int8 (`iu8`) only.
//!
//! ```
//! use cktile_core::ops::gemm::{Gfx11, RdnaWmma, WmmaInstruction};
//! let i = WmmaInstruction::of(Gfx11::RDNA).ok_or(cktile_core::Error::policy("gfx11"))?;
//! // Lane 21 (the second half-wave's lane 5), accumulator 3: row 2 * 3 + 1, column 5.
//! assert_eq!(i.c_element(21, 3), (7, 5));
//! // gfx11 reads A twice: lane 21 holds row 5 as lane 5 does.
//! assert_eq!(i.a_element(21, 9), i.a_element(5, 9));
//! # Ok::<(), cktile_core::Error>(())
//! ```

use crate::distribution::catalogue::wmma::Rdna;

/// The lanes of an RDNA wave the WMMAs run on (wave32).
const LANES: usize = 32;
/// A WMMA's M, N and K, and its half-wave's lanes.
const SIDE: usize = 16;

/// A wave32 `v_wmma_*_16x16x16_*` of gfx11 or gfx12 and its lane map (see
/// the [module](self)); gfx1250's longer K has no universal GEMM policy
/// here.
///
/// ```
/// use cktile_core::distribution::catalogue::wmma::Rdna;
/// use cktile_core::ops::gemm::WmmaInstruction;
/// let i = WmmaInstruction::of(Rdna::Gfx12).ok_or(cktile_core::Error::policy("gfx12"))?;
/// assert_eq!((i.k(), i.operand_registers(), i.c_registers()), (16, 8, 8));
/// // Lane 21, register 6: row 5, K 8 + 6; and back.
/// assert_eq!(i.a_element(21, 6), (5, 14));
/// assert_eq!(i.a_register(5, 14), (21, 6));
/// assert!(WmmaInstruction::of(Rdna::Gfx1250).is_none());
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WmmaInstruction {
    /// Whether A and B are held twice, once per half-wave (gfx11).
    copies: bool,
}

impl WmmaInstruction {
    /// The 16x16x16 WMMA of `rdna`; `None` for gfx1250.
    ///
    /// ```
    /// use cktile_core::distribution::catalogue::wmma::Rdna;
    /// use cktile_core::ops::gemm::WmmaInstruction;
    /// assert_eq!(WmmaInstruction::of(Rdna::Gfx11).map(|i| i.operand_registers()), Some(16));
    /// ```
    pub const fn of(rdna: Rdna) -> Option<WmmaInstruction> {
        match rdna {
            Rdna::Gfx11 => Some(WmmaInstruction { copies: true }),
            Rdna::Gfx12 => Some(WmmaInstruction { copies: false }),
            Rdna::Gfx1250 => None,
        }
    }

    /// [`of`](Self::of), checked when compiled.
    pub(crate) const fn of_generation(rdna: Rdna) -> WmmaInstruction {
        match Self::of(rdna) {
            Some(i) => i,
            None => panic!("the universal GEMM's WMMAs are gfx11's and gfx12's 16x16x16"),
        }
    }

    /// The generation: gfx11 or gfx12.
    ///
    /// ```
    /// use cktile_core::distribution::catalogue::wmma::Rdna;
    /// use cktile_core::ops::gemm::WmmaInstruction;
    /// assert_eq!(WmmaInstruction::of(Rdna::Gfx11).map(|i| i.rdna()), Some(Rdna::Gfx11));
    /// ```
    pub const fn rdna(&self) -> Rdna {
        if self.copies { Rdna::Gfx11 } else { Rdna::Gfx12 }
    }

    /// M, N and K: 16 each.
    ///
    /// ```
    /// use cktile_core::distribution::catalogue::wmma::Rdna;
    /// assert_eq!(cktile_core::ops::gemm::WmmaInstruction::of(Rdna::Gfx12).map(|i| i.k()), Some(16));
    /// ```
    pub const fn k(&self) -> usize {
        SIDE
    }

    /// The A (and B) elements a lane holds: 16 on gfx11 (the row's
    /// whole K), 8 on gfx12 (half of it).
    ///
    /// ```
    /// use cktile_core::distribution::catalogue::wmma::Rdna;
    /// assert_eq!(cktile_core::ops::gemm::WmmaInstruction::of(Rdna::Gfx12).map(|i| i.operand_registers()), Some(8));
    /// ```
    pub const fn operand_registers(&self) -> usize {
        if self.copies { SIDE } else { SIDE / 2 }
    }

    /// The accumulators a lane holds: 8.
    ///
    /// ```
    /// use cktile_core::distribution::catalogue::wmma::Rdna;
    /// assert_eq!(cktile_core::ops::gemm::WmmaInstruction::of(Rdna::Gfx11).map(|i| i.c_registers()), Some(8));
    /// ```
    pub const fn c_registers(&self) -> usize {
        SIDE * SIDE / LANES
    }

    /// The (row, K) of A that lane `lane`'s element `reg` holds (`lane <
    /// 32`, `reg <` [`operand_registers`](Self::operand_registers)); B's
    /// (column, K) likewise.
    ///
    /// ```
    /// use cktile_core::distribution::catalogue::wmma::Rdna;
    /// assert_eq!(cktile_core::ops::gemm::WmmaInstruction::of(Rdna::Gfx12).map(|i| i.a_element(31, 7)), Some((15, 15)));
    /// ```
    pub const fn a_element(&self, lane: usize, reg: usize) -> (usize, usize) {
        let k0 = if self.copies { 0 } else { SIDE / 2 * (lane / SIDE) };
        (lane % SIDE, k0 + reg)
    }

    /// The (lane, element) holding A's (`row`, `k`) (B's (column, K)
    /// likewise): the inverse of [`a_element`](Self::a_element), the first
    /// half-wave's copy on gfx11.
    ///
    /// ```
    /// use cktile_core::distribution::catalogue::wmma::Rdna;
    /// assert_eq!(cktile_core::ops::gemm::WmmaInstruction::of(Rdna::Gfx11).map(|i| i.a_register(15, 15)), Some((15, 15)));
    /// ```
    pub const fn a_register(&self, row: usize, k: usize) -> (usize, usize) {
        if self.copies { (row, k) } else { (row + SIDE * (k / (SIDE / 2)), k % (SIDE / 2)) }
    }

    /// The (lane, element) lane `lane`'s accumulators read A's (`row`,
    /// `k`) from: [`a_register`](Self::a_register), except that on gfx11
    /// each half-wave reads its own copy (so that a copy which differs
    /// shows in the emulated C).
    ///
    /// ```
    /// use cktile_core::distribution::catalogue::wmma::Rdna;
    /// assert_eq!(cktile_core::ops::gemm::WmmaInstruction::of(Rdna::Gfx11).map(|i| i.a_register_for(20, 3, 9)), Some((19, 9)));
    /// ```
    pub const fn a_register_for(&self, lane: usize, row: usize, k: usize) -> (usize, usize) {
        let (l, r) = self.a_register(row, k);
        if self.copies { (l + SIDE * (lane % LANES / SIDE), r) } else { (l, r) }
    }

    /// The (row, column) of C that lane `lane`'s accumulator `reg` holds
    /// (`reg < 8`).
    ///
    /// ```
    /// use cktile_core::distribution::catalogue::wmma::Rdna;
    /// assert_eq!(cktile_core::ops::gemm::WmmaInstruction::of(Rdna::Gfx12).map(|i| i.c_element(21, 3)), Some((11, 5)));
    /// ```
    pub const fn c_element(&self, lane: usize, reg: usize) -> (usize, usize) {
        let h = lane / SIDE;
        let row = if self.copies { 2 * reg + h } else { SIDE / 2 * h + reg };
        (row, lane % SIDE)
    }

    /// The (lane, accumulator) holding C's (`row`, `col`): the inverse of
    /// [`c_element`](Self::c_element).
    ///
    /// ```
    /// use cktile_core::distribution::catalogue::wmma::Rdna;
    /// assert_eq!(cktile_core::ops::gemm::WmmaInstruction::of(Rdna::Gfx11).map(|i| i.c_register(7, 5)), Some((21, 3)));
    /// ```
    pub const fn c_register(&self, row: usize, col: usize) -> (usize, usize) {
        if self.copies { (col + SIDE * (row % 2), row / 2) } else { (col + SIDE * (row / 8), row % 8) }
    }
}

/// An RDNA generation whose WMMA the universal GEMM issues, as a type
/// ([`Wmma`](super::Wmma)'s last parameter): [`Gfx11`] or [`Gfx12`].
///
/// ```
/// use cktile_core::distribution::catalogue::wmma::Rdna;
/// use cktile_core::ops::gemm::{Gfx12, RdnaWmma};
/// assert_eq!(Gfx12::RDNA, Rdna::Gfx12);
/// ```
pub trait RdnaWmma: sealed::Generation + Copy + Default + 'static {
    /// The generation.
    const RDNA: Rdna;
    /// Its 16x16x16 WMMA.
    const INSTRUCTION: WmmaInstruction = WmmaInstruction::of_generation(Self::RDNA);
}

/// Seals [`RdnaWmma`]: the generations are the two below.
mod sealed {
    pub trait Generation {}
    impl Generation for super::Gfx11 {}
    impl Generation for super::Gfx12 {}
}

/// RDNA3 (gfx1100, gfx1101, gfx1102, gfx1103 ...): CK's `gfx11_t`. Its
/// WMMA holds A and B once per half-wave, and takes fp16, bf16 and int8.
///
/// ```
/// use cktile_core::ops::gemm::{Gfx11, RdnaWmma};
/// assert_eq!(Gfx11::INSTRUCTION.operand_registers(), 16);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Gfx11;

impl RdnaWmma for Gfx11 {
    const RDNA: Rdna = Rdna::Gfx11;
}

/// RDNA4 (gfx1200, gfx1201): CK's `gfx120_t`. Its WMMA splits K over the
/// half-waves, and takes fp16, bf16, int8 and OCP's fp8 and bf8.
///
/// ```
/// use cktile_core::ops::gemm::{Gfx12, RdnaWmma};
/// assert_eq!(Gfx12::INSTRUCTION.operand_registers(), 8);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Gfx12;

impl RdnaWmma for Gfx12 {
    const RDNA: Rdna = Rdna::Gfx12;
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::distribution::catalogue::wmma::{wmma_a, wmma_b, wmma_c};
    use crate::distribution::{Distribution, Encoding};
    use alloc::vec;
    use alloc::vec::Vec;

    /// Every (P, Y) of a one-wave encoding (P = (lane), Y its registers in
    /// order), each with the X index it holds.
    fn lane_map(e: Encoding) -> Vec<(usize, usize, Vec<i64>)> {
        let d = Distribution::new(e).unwrap();
        let ys: Vec<usize> = d.y_lengths().as_slice().iter().map(|&n| n as usize).collect();
        let registers: usize = ys.iter().product();
        let mut out = Vec::new();
        for lane in 0..LANES {
            for reg in 0..registers {
                // Register `reg`'s Y index, the last Y fastest.
                let mut idx = vec![0i64; ys.len()];
                let mut rest = reg;
                for (v, &n) in idx.iter_mut().zip(&ys).rev() {
                    *v = (rest % n) as i64;
                    rest /= n;
                }
                idx.insert(0, lane as i64);
                out.push((lane, reg, d.calculate_index(&idx).unwrap().as_slice().to_vec()));
            }
        }
        out
    }

    /// The lane maps are the catalogue's (CK's traits, an independent
    /// path): each lane's registers hold the elements CK's encodings say,
    /// in order, for A, B and C on both generations.
    #[test]
    fn the_lane_maps_are_ck_s() {
        for rdna in [Rdna::Gfx11, Rdna::Gfx12] {
            let i = WmmaInstruction::of(rdna).unwrap();
            let (a, b, c) = (
                lane_map(wmma_a(rdna, 16).unwrap()),
                lane_map(wmma_b(rdna, 16).unwrap()),
                lane_map(wmma_c(rdna).unwrap()),
            );
            assert_eq!(a.len(), LANES * i.operand_registers(), "{rdna:?}");
            for (lane, reg, x) in &a {
                let (row, k) = i.a_element(*lane, *reg);
                assert_eq!(x.as_slice(), &[row as i64, k as i64], "{rdna:?} A lane {lane} reg {reg}");
            }
            for (lane, reg, x) in &b {
                let (col, k) = i.a_element(*lane, *reg);
                // The catalogue's B is X = (N, K) as A's.
                assert_eq!(x.as_slice(), &[col as i64, k as i64], "{rdna:?} B lane {lane} reg {reg}");
            }
            assert_eq!(c.len(), LANES * i.c_registers());
            for (lane, reg, x) in &c {
                let (row, col) = i.c_element(*lane, *reg);
                assert_eq!(x.as_slice(), &[row as i64, col as i64], "{rdna:?} C lane {lane} reg {reg}");
            }
        }
    }

    /// The inverses are inverses, C a bijection, and every A element held
    /// once per copy (twice on gfx11); each half-wave reads its own copy.
    #[test]
    fn the_inverses_are_inverses() {
        for rdna in [Rdna::Gfx11, Rdna::Gfx12] {
            let i = WmmaInstruction::of(rdna).unwrap();
            let (mut a, mut c) = ([0u8; 256], [0u8; 256]);
            for lane in 0..LANES {
                for reg in 0..i.operand_registers() {
                    let (row, k) = i.a_element(lane, reg);
                    a[row * 16 + k] += 1;
                    assert_eq!(i.a_element(i.a_register(row, k).0, i.a_register(row, k).1), (row, k));
                    let (l, r) = i.a_register_for(lane, row, k);
                    assert_eq!(i.a_element(l, r), (row, k));
                    assert_eq!(l / SIDE, if i.copies { lane / SIDE } else { k / 8 }, "{rdna:?}");
                }
                for reg in 0..i.c_registers() {
                    let (row, col) = i.c_element(lane, reg);
                    c[row * 16 + col] += 1;
                    assert_eq!(i.c_register(row, col), (lane, reg));
                }
            }
            let copies = if rdna == Rdna::Gfx11 { 2 } else { 1 };
            assert!(a.iter().all(|&n| n == copies), "{rdna:?}");
            assert!(c.iter().all(|&n| n == 1), "{rdna:?}");
        }
    }
}
