//! The candidate families a search walks, each as the catalogue entry its
//! members are ([`Member`]s: typed entries that print as the entry's text),
//! so every answer is a catalogue entry the rest of cktile (and the command
//! line) can build.

use super::member::{Member, Shape};
use super::problem::Problem;
use crate::layouts::ck::UnmergeOrder;
use crate::layouts::registry;
use alloc::vec::Vec;

/// A family of layouts the search enumerates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LayoutFamily {
    /// The unswizzled, unpadded row-major tile (the reference).
    Naive,
    /// CK Tile's universal GEMM A block with MLdsLayer chosen by CK's rule.
    CkUniversal,
    /// CK Tile's xor -> unmerge -> merge block, every KPack and MLdsLayer.
    CkXorLds,
    /// The plain XOR preshuffle on KPack-wide vectors.
    CkXorPreshuffle,
    /// CuTe `Swizzle<B,M,S>` on the element index (the byte-address
    /// swizzles are the same maps with `M` raised by log2 of the element size).
    CuteSwizzle,
    /// Triton `swizzled_shared<vec, perPhase, maxPhase, order = [1, 0]>`.
    TritonSwizzled,
    /// Rows padded by `pad` elements.
    RowPadded,
    /// Every GF(2)-linear swizzle of the column's vector bits by the row bits.
    XorLinear,
}

impl LayoutFamily {
    /// Every family, in the order candidates of equal cost are preferred.
    ///
    /// ```
    /// assert_eq!(cktile::search::LayoutFamily::ALL.len(), 8);
    /// ```
    pub const ALL: [LayoutFamily; 8] = [
        LayoutFamily::Naive,
        LayoutFamily::CkUniversal,
        LayoutFamily::CkXorLds,
        LayoutFamily::CkXorPreshuffle,
        LayoutFamily::CuteSwizzle,
        LayoutFamily::TritonSwizzled,
        LayoutFamily::RowPadded,
        LayoutFamily::XorLinear,
    ];

    /// The catalogue entry its members are written with.
    ///
    /// ```
    /// assert_eq!(cktile::search::LayoutFamily::CuteSwizzle.entry(), "cute-swizzle");
    /// ```
    pub const fn entry(self) -> &'static str {
        let entry = match self {
            LayoutFamily::Naive | LayoutFamily::RowPadded => registry::ROW_PADDED,
            LayoutFamily::CkUniversal => registry::CK_UNIVERSAL_A,
            LayoutFamily::CkXorLds => registry::CK_XOR_LDS,
            LayoutFamily::CkXorPreshuffle => registry::CK_XOR_PRESHUFFLE,
            LayoutFamily::CuteSwizzle => registry::CUTE_SWIZZLE,
            LayoutFamily::TritonSwizzled => registry::TRITON_SWIZZLED,
            LayoutFamily::XorLinear => registry::XOR_LINEAR,
        };
        entry.name
    }

    /// What the family's parameters range over.
    ///
    /// ```
    /// assert!(cktile::search::LayoutFamily::RowPadded.range().contains("bank period"));
    /// ```
    pub const fn range(self) -> &'static str {
        match self {
            LayoutFamily::Naive => "the row-major tile itself",
            LayoutFamily::CkUniversal => {
                "one member: CK's MLdsLayer rule and default KPack for this element size and bank count"
            }
            LayoutFamily::CkXorLds => {
                "KPack = every power of two from the vector width to cols; MLdsLayer = every power of two dividing rows \
                 with (cols / KPack) * MLdsLayer a power of two; both unmerge orders where they differ (MLdsLayer > 1)"
            }
            LayoutFamily::CkXorPreshuffle => "KPack = every power of two from the vector width to cols",
            LayoutFamily::CuteSwizzle => {
                "every B >= 1, M >= log2(vector width), |S| >= B (both signs) with M + |S| + B <= log2(rows * cols); \
                 on byte addresses these are Swizzle<B, M + log2(element bytes), S>, and byte swizzles with a smaller \
                 M would split elements"
            }
            LayoutFamily::TritonSwizzled => {
                "vec = every power of two from the vector width to cols; perPhase = every power of two up to rows; \
                 maxPhase = every power of two up to cols / vec; order [1, 0]"
            }
            LayoutFamily::RowPadded => {
                "pad = every multiple of the vector width below one bank period (banks * 4 bytes); a pad one period \
                 larger maps every access to the same banks, so it can only cost more storage"
            }
            LayoutFamily::XorLinear => {
                "every masks matrix over the row bits; rows bits that never vary inside a phase only XOR every lane of \
                 that phase by one constant, which permutes banks and words alike, so one member per class is counted"
            }
        }
    }
}

/// Powers of two from `lo` to `hi` inclusive.
fn powers(lo: usize, hi: usize) -> impl Iterator<Item = usize> {
    core::iter::successors(Some(lo.max(1)), |&x| x.checked_mul(2)).take_while(move |&x| x <= hi)
}

/// `log2` rounded down (0 for 0 and 1).
pub(crate) fn floor_log2(x: usize) -> u32 {
    usize::BITS - 1 - x.max(1).leading_zeros()
}

/// The unswizzled, unpadded row-major tile: the [`LayoutFamily::Naive`] member.
pub(crate) const NAIVE: Shape = Shape::RowPadded { pad: 0 };

/// The members of `family` for `problem` with vector unit `unit`, on the
/// problem's tile with its element size (not yet checked: a builder may
/// reject some).
pub(crate) fn members(family: LayoutFamily, p: &Problem, unit: usize) -> Vec<Member> {
    let (rows, cols) = (p.rows, p.cols);
    let mut out = Vec::new();
    let mut push = |shape| out.push(Member::new(p, shape));
    match family {
        LayoutFamily::Naive => push(NAIVE),
        LayoutFamily::CkUniversal => {
            // CK's own rule, with the bank count CK assumes on the chip.
            push(Shape::CkUniversalA { banks: p.arch.ck_lds_banks().unwrap_or(32) })
        }
        LayoutFamily::CkXorLds => {
            for kpack in powers(unit, cols).filter(|k| cols % k == 0) {
                for mlds in powers(1, rows).filter(|l| rows % l == 0) {
                    if ((cols / kpack) * mlds).is_power_of_two() {
                        push(Shape::CkXorLds { kpack, mlds, form: UnmergeOrder::Fixed2025 });
                        if mlds > 1 {
                            push(Shape::CkXorLds { kpack, mlds, form: UnmergeOrder::Original2024 });
                        }
                    }
                }
            }
        }
        LayoutFamily::CkXorPreshuffle => {
            for kpack in powers(unit, cols).filter(|k| cols % k == 0) {
                push(Shape::CkXorPreshuffle { kpack });
            }
        }
        LayoutFamily::CuteSwizzle => {
            let n = rows.checked_mul(cols).map_or(0, floor_log2);
            let m0 = floor_log2(unit);
            for b in 1..=n {
                for mbase in m0..n {
                    for s in -(n as i32)..=n as i32 {
                        if s.unsigned_abs() >= b && mbase + s.unsigned_abs() + b <= n {
                            push(Shape::CuteSwizzle { b, mbase, s });
                        }
                    }
                }
            }
        }
        LayoutFamily::TritonSwizzled => {
            for vec in powers(unit, cols).filter(|v| cols % v == 0) {
                for per_phase in powers(1, rows) {
                    for max_phase in powers(1, cols / vec) {
                        push(Shape::TritonSwizzled { vec, per_phase, max_phase });
                    }
                }
            }
        }
        LayoutFamily::RowPadded => {
            let period = (p.bank_period_bytes() / p.element_bytes.max(1)).max(unit);
            for pad in (unit..period).step_by(unit) {
                push(Shape::RowPadded { pad });
            }
        }
        LayoutFamily::XorLinear => {}
    }
    out
}
