//! The NVIDIA warp instruction the universal GEMM issues on sm_80 and
//! later, written once from the PTX ISA: [`MmaSyncInstruction`],
//! `mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}` and its 8-bit
//! sibling `m16n8k32` (`.e4m3`, `.e5m2`, `.s8`), and its lane map (which
//! lane and register hold which element of A, B and the accumulator), and
//! [`WarpInstruction`], either vendor's instruction as the block GEMM's
//! emulation reads it.
//!
//! An NVIDIA warp is 32 lanes; the universal GEMM's policies count 64
//! (CDNA's waves, [`WAVE`](super::WAVE)). A policy warp of
//! [`MmaSync`](super::MmaSync) is therefore a pair of NVIDIA warps, each
//! computing 16 of the warp tile's 32 rows: lanes `32 h ..` of the policy
//! warp are NVIDIA warp `h`.
//!
//! ```
//! use cktile_core::ops::gemm::MmaSyncInstruction;
//! let i = MmaSyncInstruction::M16N8K16;
//! // Lane 9 (group 2, thread 1), A register 5: row 2, K 8 + 2 + 1.
//! assert_eq!(i.a_element(9, 5), (2, 11));
//! assert_eq!(i.a_register(2, 11), (9, 5));
//! // D's register 3 of lane 9: row 8 + 2, column 2 + 1.
//! assert_eq!(i.c_element(9, 3), (10, 3));
//! ```

use super::mfma::MfmaInstruction;
use super::wmma::WmmaInstruction;

/// `mma.sync.aligned.m16n8k{16,32}.row.col`: a 16 x 8 block of D from 16
/// x K of A and K x 8 of B, on one 32-lane NVIDIA warp, each 32-bit
/// operand register packing `p` elements (`p` = 2: the 16-bit
/// `m16n8k16.f32.{f16,bf16}`, K = 16; `p` = 4: the 8-bit
/// `m16n8k32.{f32.e4m3,f32.e5m2,s32.s8}`, K = 32). A lane holds `4 p`
/// elements of A, `2 p` of B and 4 accumulators.
///
/// Its lane map, from the PTX ISA (the `mma.m16n8k16` and `mma.m16n8k32`
/// fragment figures), with `g = lane / 4` (the group) and `t = lane % 4`
/// (the thread in it), counting elements (`r`; a 32-bit register holds
/// elements `p i .. p i + p`, the first in its low bits):
///
/// - A: row `g + 8 * ((r / p) % 2)`, K `p t + r % p + 4 p * (r / (2 p))`;
/// - B: column `g`, K `p t + r % p + 4 p * (r / p)`;
/// - D: row `g + 8 * (r / 2)`, column `2 t + r % 2`.
///
/// ```
/// use cktile_core::ops::gemm::MmaSyncInstruction;
/// let i = MmaSyncInstruction::M16N8K16;
/// assert_eq!((i.m(), i.n(), i.k()), (16, 8, 16));
/// // Lane 31 (g 7, t 3), B register 3: column 7, K 6 + 1 + 8.
/// assert_eq!(i.b_element(31, 3), (7, 15));
/// // The 8-bit instruction: lane 31, A element 13 is row 7 + 8, K 12 + 1 + 16.
/// assert_eq!(MmaSyncInstruction::M16N8K32.a_element(31, 13), (15, 29));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MmaSyncInstruction {
    /// Elements a 32-bit register packs: 2 or 4.
    pack: usize,
}

/// The lanes of an NVIDIA warp.
pub const WARP_32: usize = 32;

impl MmaSyncInstruction {
    /// `mma.sync.aligned.m16n8k16`, over 16-bit elements.
    pub const M16N8K16: MmaSyncInstruction = MmaSyncInstruction { pack: 2 };
    /// `mma.sync.aligned.m16n8k32`, over 8-bit elements.
    pub const M16N8K32: MmaSyncInstruction = MmaSyncInstruction { pack: 4 };

    /// The instruction over elements of `bytes` bytes (2 or 1); `None`
    /// for any other.
    ///
    /// ```
    /// use cktile_core::ops::gemm::MmaSyncInstruction;
    /// assert_eq!(MmaSyncInstruction::of_element(1), Some(MmaSyncInstruction::M16N8K32));
    /// assert_eq!(MmaSyncInstruction::of_element(4), None);
    /// ```
    pub const fn of_element(bytes: usize) -> Option<MmaSyncInstruction> {
        match bytes {
            1 | 2 => Some(MmaSyncInstruction { pack: 4 / bytes }),
            _ => None,
        }
    }

    /// [`of_element`](Self::of_element), checked when compiled.
    pub(crate) const fn of_bytes(bytes: usize) -> MmaSyncInstruction {
        match Self::of_element(bytes) {
            Some(i) => i,
            None => panic!("mma.sync multiplies 1- or 2-byte elements"),
        }
    }

    /// The elements a 32-bit operand register packs: 2 or 4.
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MmaSyncInstruction::M16N8K32.pack(), 4);
    /// ```
    pub const fn pack(&self) -> usize {
        self.pack
    }

    /// A's and D's rows: 16.
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MmaSyncInstruction::M16N8K16.m(), 16);
    /// ```
    pub const fn m(&self) -> usize {
        16
    }

    /// B's and D's columns: 8.
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MmaSyncInstruction::M16N8K16.n(), 8);
    /// ```
    pub const fn n(&self) -> usize {
        8
    }

    /// K: `8 p` (16 or 32).
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MmaSyncInstruction::M16N8K32.k(), 32);
    /// ```
    pub const fn k(&self) -> usize {
        8 * self.pack
    }

    /// The (row, K) of A that lane `lane`'s element `reg` holds (`lane <
    /// 32`, `reg < 4 p`).
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MmaSyncInstruction::M16N8K16.a_element(31, 7), (15, 15));
    /// ```
    pub const fn a_element(&self, lane: usize, reg: usize) -> (usize, usize) {
        let p = self.pack;
        (lane / 4 + 8 * ((reg / p) % 2), p * (lane % 4) + reg % p + 4 * p * (reg / (2 * p)))
    }

    /// The (lane, element) holding A's (`row`, `k`): the inverse of
    /// [`a_element`](Self::a_element).
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MmaSyncInstruction::M16N8K16.a_register(15, 15), (31, 7));
    /// ```
    pub const fn a_register(&self, row: usize, k: usize) -> (usize, usize) {
        let p = self.pack;
        (4 * (row % 8) + (k % (4 * p)) / p, 2 * p * (k / (4 * p)) + p * (row / 8) + k % p)
    }

    /// The (column, K) of B that lane `lane`'s element `reg` holds (`lane
    /// < 32`, `reg < 2 p`).
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MmaSyncInstruction::M16N8K16.b_element(5, 2), (1, 10));
    /// ```
    pub const fn b_element(&self, lane: usize, reg: usize) -> (usize, usize) {
        let p = self.pack;
        (lane / 4, p * (lane % 4) + reg % p + 4 * p * (reg / p))
    }

    /// The (lane, element) holding B's (`col`, `k`): the inverse of
    /// [`b_element`](Self::b_element).
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MmaSyncInstruction::M16N8K16.b_register(1, 10), (5, 2));
    /// ```
    pub const fn b_register(&self, col: usize, k: usize) -> (usize, usize) {
        let p = self.pack;
        (4 * col + (k % (4 * p)) / p, p * (k / (4 * p)) + k % p)
    }

    /// The (row, column) of D that lane `lane`'s accumulator `reg` holds
    /// (`reg < 4`).
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MmaSyncInstruction::M16N8K16.c_element(0, 2), (8, 0));
    /// ```
    pub const fn c_element(&self, lane: usize, reg: usize) -> (usize, usize) {
        (lane / 4 + 8 * (reg / 2), 2 * (lane % 4) + reg % 2)
    }

    /// The (lane, accumulator) holding D's (`row`, `col`): the inverse of
    /// [`c_element`](Self::c_element).
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MmaSyncInstruction::M16N8K16.c_register(8, 0), (0, 2));
    /// ```
    pub const fn c_register(&self, row: usize, col: usize) -> (usize, usize) {
        (4 * (row % 8) + col / 2, 2 * (row / 8) + col % 2)
    }
}

/// The matrix instruction a warp GEMM issues, either vendor's, as the
/// block GEMM's emulation reads it
/// ([`emulate_block_gemm`](super::emulate_block_gemm)): its lanes, its
/// K, and where its operands and accumulators lie.
///
/// ```
/// use cktile_core::ops::gemm::{MfmaInstruction, MmaSyncInstruction, WarpInstruction};
/// let mfma = WarpInstruction::Mfma(MfmaInstruction::of(32).ok_or(cktile_core::Error::policy("32"))?);
/// assert_eq!((mfma.lanes(), mfma.k(), mfma.c_registers()), (64, 8, 16));
/// let mma = WarpInstruction::MmaSync(MmaSyncInstruction::M16N8K16);
/// assert_eq!((mma.lanes(), mma.k(), mma.c_registers()), (32, 16, 4));
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WarpInstruction {
    /// A gfx942 MFMA (64 lanes).
    Mfma(MfmaInstruction),
    /// NVIDIA's `mma.sync.m16n8k16` or `m16n8k32` (32 lanes).
    MmaSync(MmaSyncInstruction),
    /// An RDNA wave32 WMMA, gfx11's or gfx12's 16x16x16 (32 lanes).
    Wmma(WmmaInstruction),
}

impl WarpInstruction {
    /// The lanes that issue it together: 64 (a CDNA wave) or 32 (an
    /// NVIDIA warp, an RDNA wave32).
    ///
    /// ```
    /// use cktile_core::ops::gemm::{MmaSyncInstruction, WarpInstruction};
    /// assert_eq!(WarpInstruction::MmaSync(MmaSyncInstruction::M16N8K16).lanes(), 32);
    /// ```
    pub const fn lanes(&self) -> usize {
        match self {
            WarpInstruction::Mfma(_) => super::WAVE,
            WarpInstruction::MmaSync(_) | WarpInstruction::Wmma(_) => WARP_32,
        }
    }

    /// Its K: the products each accumulator sums.
    ///
    /// ```
    /// use cktile_core::ops::gemm::{MfmaInstruction, WarpInstruction};
    /// assert_eq!(MfmaInstruction::of(16).map(|i| WarpInstruction::Mfma(i).k()), Some(16));
    /// ```
    pub const fn k(&self) -> usize {
        match self {
            WarpInstruction::Mfma(i) => i.k(),
            WarpInstruction::MmaSync(i) => i.k(),
            WarpInstruction::Wmma(i) => i.k(),
        }
    }

    /// The accumulators a lane holds.
    ///
    /// ```
    /// use cktile_core::ops::gemm::{MmaSyncInstruction, WarpInstruction};
    /// assert_eq!(WarpInstruction::MmaSync(MmaSyncInstruction::M16N8K16).c_registers(), 4);
    /// ```
    pub const fn c_registers(&self) -> usize {
        match self {
            WarpInstruction::Mfma(i) => i.c_registers(),
            WarpInstruction::MmaSync(_) => 4,
            WarpInstruction::Wmma(i) => i.c_registers(),
        }
    }

    /// The (lane, register) holding A's (`row`, `k`).
    ///
    /// ```
    /// use cktile_core::ops::gemm::{MmaSyncInstruction, WarpInstruction};
    /// assert_eq!(WarpInstruction::MmaSync(MmaSyncInstruction::M16N8K16).a_register(2, 11), (9, 5));
    /// ```
    pub const fn a_register(&self, row: usize, k: usize) -> (usize, usize) {
        match self {
            WarpInstruction::Mfma(i) => i.a_register(row, k),
            WarpInstruction::MmaSync(i) => i.a_register(row, k),
            WarpInstruction::Wmma(i) => i.a_register(row, k),
        }
    }

    /// The (lane, register) lane `lane` of the instruction's lanes reads
    /// A's (`row`, `k`) from: [`a_register`](Self::a_register), except
    /// that gfx11's WMMA, which holds A and B once per half-wave, reads the
    /// lane's own half-wave's copy ([`WmmaInstruction::a_register_for`]).
    ///
    /// ```
    /// use cktile_core::ops::gemm::{Gfx11, RdnaWmma, WarpInstruction};
    /// assert_eq!(WarpInstruction::Wmma(Gfx11::INSTRUCTION).a_register_for(20, 3, 9), (19, 9));
    /// ```
    pub const fn a_register_for(&self, lane: usize, row: usize, k: usize) -> (usize, usize) {
        match self {
            WarpInstruction::Wmma(i) => i.a_register_for(lane, row, k),
            _ => self.a_register(row, k),
        }
    }

    /// The (lane, register) lane `lane` reads B's (`col`, `k`) from: as
    /// [`a_register_for`](Self::a_register_for), for B.
    ///
    /// ```
    /// use cktile_core::ops::gemm::{Gfx12, RdnaWmma, WarpInstruction};
    /// // gfx12's WMMA holds B's column 3, K 9 in lane 16 + 3, register 1.
    /// assert_eq!(WarpInstruction::Wmma(Gfx12::INSTRUCTION).b_register_for(0, 3, 9), (19, 1));
    /// ```
    pub const fn b_register_for(&self, lane: usize, col: usize, k: usize) -> (usize, usize) {
        match self {
            // A WMMA's B is laid out as its A.
            WarpInstruction::Wmma(i) => i.a_register_for(lane, col, k),
            _ => self.b_register(col, k),
        }
    }

    /// The (lane, register) holding B's (`col`, `k`) (the MFMA's and the
    /// WMMA's B are laid out as their A).
    ///
    /// ```
    /// use cktile_core::ops::gemm::{MfmaInstruction, WarpInstruction};
    /// let i = MfmaInstruction::of(32).ok_or(cktile_core::Error::policy("32"))?;
    /// assert_eq!(WarpInstruction::Mfma(i).b_register(31, 7), (63, 3));
    /// # Ok::<(), cktile_core::Error>(())
    /// ```
    pub const fn b_register(&self, col: usize, k: usize) -> (usize, usize) {
        match self {
            WarpInstruction::Mfma(i) => i.a_register(col, k),
            WarpInstruction::MmaSync(i) => i.b_register(col, k),
            WarpInstruction::Wmma(i) => i.a_register(col, k),
        }
    }

    /// The (row, column) of D that lane `lane`'s accumulator `reg` holds.
    ///
    /// ```
    /// use cktile_core::ops::gemm::{MmaSyncInstruction, WarpInstruction};
    /// assert_eq!(WarpInstruction::MmaSync(MmaSyncInstruction::M16N8K16).c_element(9, 3), (10, 3));
    /// ```
    pub const fn c_element(&self, lane: usize, reg: usize) -> (usize, usize) {
        match self {
            WarpInstruction::Mfma(i) => i.c_element(lane, reg),
            WarpInstruction::MmaSync(i) => i.c_element(lane, reg),
            WarpInstruction::Wmma(i) => i.c_element(lane, reg),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// Every lane map a bijection onto its matrix, and its inverse the
    /// inverse; A's 32-bit registers hold runs along K (what `.f16x2` and
    /// the 8-bit packs hold), as do B's.
    #[test]
    fn the_lane_maps_are_inverse_bijections() {
        for i in [MmaSyncInstruction::M16N8K16, MmaSyncInstruction::M16N8K32] {
            let (p, k) = (i.pack(), i.k());
            let (mut a, mut b, mut c) = (vec![0u8; 16 * k], vec![0u8; 8 * k], [0u8; 128]);
            for lane in 0..WARP_32 {
                for reg in 0..4 * p {
                    let (row, kk) = i.a_element(lane, reg);
                    a[row * k + kk] += 1;
                    assert_eq!(i.a_register(row, kk), (lane, reg));
                    if reg % p != 0 {
                        assert_eq!(i.a_element(lane, reg - 1), (row, kk - 1));
                    }
                }
                for reg in 0..2 * p {
                    let (col, kk) = i.b_element(lane, reg);
                    b[col * k + kk] += 1;
                    assert_eq!(i.b_register(col, kk), (lane, reg));
                    if reg % p != 0 {
                        assert_eq!(i.b_element(lane, reg - 1), (col, kk - 1));
                    }
                }
                for reg in 0..4 {
                    let (row, col) = i.c_element(lane, reg);
                    c[row * 8 + col] += 1;
                    assert_eq!(i.c_register(row, col), (lane, reg));
                }
            }
            assert!(a.iter().chain(&b).chain(&c).all(|&n| n == 1));
        }
    }

    /// The 8-bit fragments as the PTX ISA tabulates them for
    /// `mma.m16n8k32` (written out here from its figures, independently of
    /// the general formula): A's `a_i` at row `g` for `i` in 0..4 and
    /// 8..12, `g + 8` otherwise, column `4 t + i % 4`, plus 16 from `i` 8;
    /// B's `b_i` at K `4 t + i % 4`, plus 16 from `i` 4.
    #[test]
    fn the_8_bit_fragments_are_the_ptx_isa_s() {
        let i = MmaSyncInstruction::M16N8K32;
        for lane in 0..WARP_32 {
            let (g, t) = (lane / 4, lane % 4);
            for r in 0..16 {
                let row = if r < 4 || (8..12).contains(&r) { g } else { g + 8 };
                let col = 4 * t + (r & 3) + if r >= 8 { 16 } else { 0 };
                assert_eq!(i.a_element(lane, r), (row, col), "lane {lane}, a{r}");
            }
            for r in 0..8 {
                let k = 4 * t + (r & 3) + if r >= 4 { 16 } else { 0 };
                assert_eq!(i.b_element(lane, r), (g, k), "lane {lane}, b{r}");
            }
        }
    }
}
