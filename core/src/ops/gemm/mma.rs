//! The NVIDIA warp instruction the universal GEMM issues on sm_80 and
//! later, written once from the PTX ISA: [`MmaSyncInstruction`],
//! `mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}` and its lane map
//! (which lane and register hold which element of A, B and the
//! accumulator), and [`WarpInstruction`], either vendor's instruction as
//! the block GEMM's emulation reads it.
//!
//! An NVIDIA warp is 32 lanes; the universal GEMM's policies count 64
//! (CDNA's waves, [`WAVE`](super::WAVE)). A policy warp of
//! [`MmaSync`](super::MmaSync) is therefore a pair of NVIDIA warps, each
//! computing 16 of the warp tile's 32 rows: lanes `32 h ..` of the policy
//! warp are NVIDIA warp `h`.
//!
//! ```
//! use cktile_core::ops::gemm::MmaSyncInstruction;
//! let i = MmaSyncInstruction;
//! // Lane 9 (group 2, thread 1), A register 5: row 2, K 8 + 2 + 1.
//! assert_eq!(i.a_element(9, 5), (2, 11));
//! assert_eq!(i.a_register(2, 11), (9, 5));
//! // D's register 3 of lane 9: row 8 + 2, column 2 + 1.
//! assert_eq!(i.c_element(9, 3), (10, 3));
//! ```

use super::mfma::MfmaInstruction;

/// `mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32`: a
/// 16 x 8 block of D from 16 x 16 of A and 16 x 8 of B, on one 32-lane
/// NVIDIA warp. A lane holds 8 elements of A (4 registers of two halves),
/// 4 of B and 4 accumulators.
///
/// Its lane map, from the PTX ISA (the `mma.m16n8k16` fragment figures),
/// with `g = lane / 4` (the group) and `t = lane % 4` (the thread in it),
/// counting elements (`r`; a 32-bit register holds elements `2 i`, `2 i +
/// 1`, the first in its low half):
///
/// - A: row `g + 8 * ((r / 2) % 2)`, K `2 t + r % 2 + 8 * (r / 4)`;
/// - B: column `g`, K `2 t + r % 2 + 8 * (r / 2)`;
/// - D: row `g + 8 * (r / 2)`, column `2 t + r % 2`.
///
/// ```
/// use cktile_core::ops::gemm::MmaSyncInstruction;
/// let i = MmaSyncInstruction;
/// assert_eq!((i.m(), i.n(), i.k()), (16, 8, 16));
/// // Lane 31 (g 7, t 3), B register 3: column 7, K 6 + 1 + 8.
/// assert_eq!(i.b_element(31, 3), (7, 15));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MmaSyncInstruction;

/// The lanes of an NVIDIA warp.
pub const WARP_32: usize = 32;

impl MmaSyncInstruction {
    /// A's and D's rows: 16.
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MmaSyncInstruction.m(), 16);
    /// ```
    pub const fn m(&self) -> usize {
        16
    }

    /// B's and D's columns: 8.
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MmaSyncInstruction.n(), 8);
    /// ```
    pub const fn n(&self) -> usize {
        8
    }

    /// K: 16.
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MmaSyncInstruction.k(), 16);
    /// ```
    pub const fn k(&self) -> usize {
        16
    }

    /// The (row, K) of A that lane `lane`'s element `reg` holds (`lane <
    /// 32`, `reg < 8`).
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MmaSyncInstruction.a_element(31, 7), (15, 15));
    /// ```
    pub const fn a_element(&self, lane: usize, reg: usize) -> (usize, usize) {
        (lane / 4 + 8 * ((reg / 2) % 2), 2 * (lane % 4) + reg % 2 + 8 * (reg / 4))
    }

    /// The (lane, element) holding A's (`row`, `k`): the inverse of
    /// [`a_element`](Self::a_element).
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MmaSyncInstruction.a_register(15, 15), (31, 7));
    /// ```
    pub const fn a_register(&self, row: usize, k: usize) -> (usize, usize) {
        (4 * (row % 8) + (k % 8) / 2, 4 * (k / 8) + 2 * (row / 8) + k % 2)
    }

    /// The (column, K) of B that lane `lane`'s element `reg` holds (`lane
    /// < 32`, `reg < 4`).
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MmaSyncInstruction.b_element(5, 2), (1, 10));
    /// ```
    pub const fn b_element(&self, lane: usize, reg: usize) -> (usize, usize) {
        (lane / 4, 2 * (lane % 4) + reg % 2 + 8 * (reg / 2))
    }

    /// The (lane, element) holding B's (`col`, `k`): the inverse of
    /// [`b_element`](Self::b_element).
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MmaSyncInstruction.b_register(1, 10), (5, 2));
    /// ```
    pub const fn b_register(&self, col: usize, k: usize) -> (usize, usize) {
        (4 * col + (k % 8) / 2, 2 * (k / 8) + k % 2)
    }

    /// The (row, column) of D that lane `lane`'s accumulator `reg` holds
    /// (`reg < 4`).
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MmaSyncInstruction.c_element(0, 2), (8, 0));
    /// ```
    pub const fn c_element(&self, lane: usize, reg: usize) -> (usize, usize) {
        (lane / 4 + 8 * (reg / 2), 2 * (lane % 4) + reg % 2)
    }

    /// The (lane, accumulator) holding D's (`row`, `col`): the inverse of
    /// [`c_element`](Self::c_element).
    ///
    /// ```
    /// assert_eq!(cktile_core::ops::gemm::MmaSyncInstruction.c_register(8, 0), (0, 2));
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
/// let mma = WarpInstruction::MmaSync(MmaSyncInstruction);
/// assert_eq!((mma.lanes(), mma.k(), mma.c_registers()), (32, 16, 4));
/// # Ok::<(), cktile_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WarpInstruction {
    /// A gfx942 MFMA (64 lanes).
    Mfma(MfmaInstruction),
    /// NVIDIA's `mma.sync.m16n8k16` (32 lanes).
    MmaSync(MmaSyncInstruction),
}

impl WarpInstruction {
    /// The lanes that issue it together: 64 (a CDNA wave) or 32 (an
    /// NVIDIA warp).
    ///
    /// ```
    /// use cktile_core::ops::gemm::{MmaSyncInstruction, WarpInstruction};
    /// assert_eq!(WarpInstruction::MmaSync(MmaSyncInstruction).lanes(), 32);
    /// ```
    pub const fn lanes(&self) -> usize {
        match self {
            WarpInstruction::Mfma(_) => super::WAVE,
            WarpInstruction::MmaSync(_) => WARP_32,
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
        }
    }

    /// The accumulators a lane holds.
    ///
    /// ```
    /// use cktile_core::ops::gemm::{MmaSyncInstruction, WarpInstruction};
    /// assert_eq!(WarpInstruction::MmaSync(MmaSyncInstruction).c_registers(), 4);
    /// ```
    pub const fn c_registers(&self) -> usize {
        match self {
            WarpInstruction::Mfma(i) => i.c_registers(),
            WarpInstruction::MmaSync(_) => 4,
        }
    }

    /// The (lane, register) holding A's (`row`, `k`).
    ///
    /// ```
    /// use cktile_core::ops::gemm::{MmaSyncInstruction, WarpInstruction};
    /// assert_eq!(WarpInstruction::MmaSync(MmaSyncInstruction).a_register(2, 11), (9, 5));
    /// ```
    pub const fn a_register(&self, row: usize, k: usize) -> (usize, usize) {
        match self {
            WarpInstruction::Mfma(i) => i.a_register(row, k),
            WarpInstruction::MmaSync(i) => i.a_register(row, k),
        }
    }

    /// The (lane, register) holding B's (`col`, `k`) (the MFMA's B is laid
    /// out as its A).
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
        }
    }

    /// The (row, column) of D that lane `lane`'s accumulator `reg` holds.
    ///
    /// ```
    /// use cktile_core::ops::gemm::{MmaSyncInstruction, WarpInstruction};
    /// assert_eq!(WarpInstruction::MmaSync(MmaSyncInstruction).c_element(9, 3), (10, 3));
    /// ```
    pub const fn c_element(&self, lane: usize, reg: usize) -> (usize, usize) {
        match self {
            WarpInstruction::Mfma(i) => i.c_element(lane, reg),
            WarpInstruction::MmaSync(i) => i.c_element(lane, reg),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// Every lane map a bijection onto its matrix, and its inverse the
    /// inverse; A's 32-bit registers hold pairs along K (what `.f16x2`
    /// packs), as do B's.
    #[test]
    fn the_lane_maps_are_inverse_bijections() {
        let i = MmaSyncInstruction;
        let (mut a, mut b, mut c) = ([0u8; 256], [0u8; 128], [0u8; 128]);
        for lane in 0..WARP_32 {
            for reg in 0..8 {
                let (row, k) = i.a_element(lane, reg);
                a[row * 16 + k] += 1;
                assert_eq!(i.a_register(row, k), (lane, reg));
                if reg % 2 == 1 {
                    assert_eq!(i.a_element(lane, reg - 1), (row, k - 1));
                }
            }
            for reg in 0..4 {
                let (col, k) = i.b_element(lane, reg);
                b[col * 16 + k] += 1;
                assert_eq!(i.b_register(col, k), (lane, reg));
                let (row, col) = i.c_element(lane, reg);
                c[row * 8 + col] += 1;
                assert_eq!(i.c_register(row, col), (lane, reg));
            }
        }
        assert!(a.iter().chain(&b).chain(&c).all(|&n| n == 1));
    }
}
