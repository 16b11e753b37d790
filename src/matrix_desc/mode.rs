//! The vocabulary of shared-memory matrix descriptors: which instruction
//! reads ([`Target`]), which operand ([`Operand`]), which dimension is
//! contiguous ([`OperandMajor`]) and how the rows are swizzled ([`SwizzleMode`]), with
//! the names every command takes and the codes the descriptor stores.

use crate::layouts::cute::Tma;
use crate::{Error, ParameterProblem, Snippet};

/// The instruction that reads the descriptor.
///
/// ```
/// use cktile::matrix_desc::Target;
/// assert_eq!(Target::by_name("sm100")?.instruction(), "tcgen05.mma");
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// Hopper `wgmma.mma_async` (the PTX ISA's matrix descriptor).
    Sm90,
    /// Blackwell `tcgen05.mma` (the PTX ISA's shared memory descriptor:
    /// version 1, the leading-dimension mode bit, a 3-bit swizzle field and
    /// the 128-byte swizzle with 32-byte atoms).
    Sm100,
}

/// [`Target`]'s names, for messages and help.
pub const TARGET_NAMES: &str = "sm90 (wgmma.mma_async), sm100 (tcgen05.mma)";

impl Target {
    /// Both targets.
    pub const ALL: [Target; 2] = [Target::Sm90, Target::Sm100];

    /// The name every command takes (`sm90`, `sm100`).
    ///
    /// ```
    /// assert_eq!(cktile::matrix_desc::Target::Sm90.name(), "sm90");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Target::Sm90 => "sm90",
            Target::Sm100 => "sm100",
        }
    }

    /// The PTX instruction.
    ///
    /// ```
    /// assert_eq!(cktile::matrix_desc::Target::Sm90.instruction(), "wgmma.mma_async");
    /// ```
    pub const fn instruction(self) -> &'static str {
        match self {
            Target::Sm90 => "wgmma.mma_async",
            Target::Sm100 => "tcgen05.mma",
        }
    }

    /// The target called `name`; the error lists the names.
    ///
    /// ```
    /// assert!(cktile::matrix_desc::Target::by_name("sm80").is_err());
    /// ```
    pub fn by_name(name: &str) -> Result<Target, Error> {
        named(&Target::ALL, Target::name, name, TARGET_NAMES)
    }

    /// The swizzle modes the target's descriptor can name, widest first.
    ///
    /// ```
    /// use cktile::matrix_desc::{SwizzleMode, Target};
    /// assert!(!Target::Sm90.swizzles().contains(&SwizzleMode::B128Base32));
    /// assert_eq!(Target::Sm100.swizzles().len(), 5);
    /// ```
    pub const fn swizzles(self) -> &'static [SwizzleMode] {
        match self {
            Target::Sm90 => &[SwizzleMode::B128, SwizzleMode::B64, SwizzleMode::B32, SwizzleMode::None],
            Target::Sm100 => {
                &[SwizzleMode::B128, SwizzleMode::B128Base32, SwizzleMode::B64, SwizzleMode::B32, SwizzleMode::None]
            }
        }
    }

    /// Whether the target reads an MN-major operand of `element_bytes`-byte
    /// elements. `wgmma` transposes only 16-bit types (PTX ISA: `imm-trans`
    /// is valid for `.f16`/`.bf16` only); `tcgen05.mma` also E4M3, E5M2,
    /// INT8 and TF32 (CUTLASS `InstrDescriptor::a_major_`), so every 1-, 2-
    /// and 4-byte type cktile models.
    ///
    /// ```
    /// use cktile::matrix_desc::Target;
    /// assert!(!Target::Sm90.reads_mn_major(1) && Target::Sm90.reads_mn_major(2) && Target::Sm100.reads_mn_major(4));
    /// ```
    pub const fn reads_mn_major(self, element_bytes: usize) -> bool {
        match self {
            Target::Sm90 => element_bytes == 2,
            Target::Sm100 => matches!(element_bytes, 1 | 2 | 4),
        }
    }
}

/// Which of the instruction's operands the tile is: it sets the default
/// instruction extent along M or N.
///
/// ```
/// use cktile::matrix_desc::{Operand, Target};
/// assert_eq!(Operand::A.instruction_mn(Target::Sm90, 128), 64);
/// assert_eq!(Operand::B.instruction_mn(Target::Sm90, 128), 128);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// Matrix A (M x K).
    A,
    /// Matrix B (N x K).
    B,
}

/// [`Operand`]'s names, for messages and help.
pub const OPERAND_NAMES: &str = "a, b";

impl Operand {
    /// Both operands.
    pub const ALL: [Operand; 2] = [Operand::A, Operand::B];

    /// `a` or `b`.
    ///
    /// ```
    /// assert_eq!(cktile::matrix_desc::Operand::B.name(), "b");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Operand::A => "a",
            Operand::B => "b",
        }
    }

    /// The operand called `name`.
    ///
    /// ```
    /// assert_eq!(cktile::matrix_desc::Operand::by_name("a")?, cktile::matrix_desc::Operand::A);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn by_name(name: &str) -> Result<Operand, Error> {
        named(&Operand::ALL, Operand::name, name, OPERAND_NAMES)
    }

    /// The M or N one instruction reads by default, for a tile `tile_mn`
    /// long: A is M = 64 on `wgmma` and M = 128 on `tcgen05.mma` (one CTA);
    /// B is the whole tile, up to N = 256. Capped at the tile.
    ///
    /// ```
    /// use cktile::matrix_desc::{Operand, Target};
    /// assert_eq!(Operand::A.instruction_mn(Target::Sm100, 256), 128);
    /// assert_eq!(Operand::B.instruction_mn(Target::Sm100, 512), 256);
    /// ```
    pub const fn instruction_mn(self, target: Target, tile_mn: usize) -> usize {
        let most = match (self, target) {
            (Operand::A, Target::Sm90) => 64,
            (Operand::A, Target::Sm100) => 128,
            (Operand::B, _) => 256,
        };
        if tile_mn < most { tile_mn } else { most }
    }
}

/// Which dimension of the operand is contiguous in 16-byte units.
///
/// ```
/// assert_eq!(cktile::matrix_desc::OperandMajor::by_name("mn")?.name(), "mn");
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OperandMajor {
    /// K-major: each row of M (or N) holds consecutive K elements
    /// (`imm-trans` 0; A "non-transposed" in BLAS terms).
    K,
    /// MN-major: consecutive M (or N) elements of one K are contiguous
    /// (`imm-trans` 1).
    Mn,
}

/// [`OperandMajor`]'s names, for messages and help.
pub const MAJOR_NAMES: &str = "k, mn";

impl OperandMajor {
    /// Both, K first (the order [`judge`](super::judge()) tries them).
    pub const ALL: [OperandMajor; 2] = [OperandMajor::K, OperandMajor::Mn];

    /// `k` or `mn`.
    ///
    /// ```
    /// assert_eq!(cktile::matrix_desc::OperandMajor::K.name(), "k");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            OperandMajor::K => "k",
            OperandMajor::Mn => "mn",
        }
    }

    /// The major-ness called `name`.
    ///
    /// ```
    /// assert!(cktile::matrix_desc::OperandMajor::by_name("row").is_err());
    /// ```
    pub fn by_name(name: &str) -> Result<OperandMajor, Error> {
        named(&OperandMajor::ALL, OperandMajor::name, name, MAJOR_NAMES)
    }
}

/// A descriptor's swizzle mode: CuTe's `Swizzle<B,M,S>` on byte addresses.
///
/// ```
/// use cktile::matrix_desc::SwizzleMode;
/// assert_eq!((SwizzleMode::B64.span(), SwizzleMode::B64.xor(), SwizzleMode::B64.repeat()), (64, (2, 4, 3), 512));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SwizzleMode {
    /// No swizzle (CuTe's INTERLEAVE): 8 x 16-byte core matrices.
    None,
    /// 32-byte swizzle, `Swizzle<1,4,3>`.
    B32,
    /// 64-byte swizzle, `Swizzle<2,4,3>`.
    B64,
    /// 128-byte swizzle, `Swizzle<3,4,3>`.
    B128,
    /// sm100's 128-byte swizzle with 32-byte atoms, `Swizzle<2,5,2>`,
    /// MN-major only.
    B128Base32,
}

/// [`SwizzleMode`]'s names, for messages and help.
pub const SWIZZLE_NAMES: &str = "none, 32b, 64b, 128b, 128b-base32b";

impl SwizzleMode {
    /// Every mode.
    pub const ALL: [SwizzleMode; 5] =
        [SwizzleMode::None, SwizzleMode::B32, SwizzleMode::B64, SwizzleMode::B128, SwizzleMode::B128Base32];

    /// The name every command takes.
    ///
    /// ```
    /// assert_eq!(cktile::matrix_desc::SwizzleMode::B128Base32.name(), "128b-base32b");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            SwizzleMode::None => "none",
            SwizzleMode::B32 => "32b",
            SwizzleMode::B64 => "64b",
            SwizzleMode::B128 => "128b",
            SwizzleMode::B128Base32 => "128b-base32b",
        }
    }

    /// The mode called `name`.
    ///
    /// ```
    /// assert_eq!(cktile::matrix_desc::SwizzleMode::by_name("64b")?, cktile::matrix_desc::SwizzleMode::B64);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn by_name(name: &str) -> Result<SwizzleMode, Error> {
        named(&SwizzleMode::ALL, SwizzleMode::name, name, SWIZZLE_NAMES)
    }

    /// The bytes of one swizzled row (the contiguous extent of one atom):
    /// 16 without a swizzle.
    ///
    /// ```
    /// assert_eq!(cktile::matrix_desc::SwizzleMode::None.span(), 16);
    /// ```
    pub const fn span(self) -> usize {
        match self {
            SwizzleMode::None => 16,
            SwizzleMode::B32 => 32,
            SwizzleMode::B64 => 64,
            SwizzleMode::B128 | SwizzleMode::B128Base32 => 128,
        }
    }

    /// The TMA swizzle mode that writes this mode's pattern (the same byte
    /// swizzle: TMA fills what the descriptor reads).
    ///
    /// ```
    /// use cktile::matrix_desc::SwizzleMode;
    /// use cktile::layouts::cute::Tma;
    /// assert_eq!(SwizzleMode::B128Base32.tma(), Tma::B128Atom32);
    /// ```
    pub const fn tma(self) -> Tma {
        match self {
            SwizzleMode::None => Tma::None,
            SwizzleMode::B32 => Tma::B32,
            SwizzleMode::B64 => Tma::B64,
            SwizzleMode::B128 => Tma::B128,
            SwizzleMode::B128Base32 => Tma::B128Atom32,
        }
    }

    /// The swizzle as CuTe's `(B, M, S)` on byte addresses: bits
    /// `[M, M+B)` XOR bits `[M+S, M+S+B)` (the TMA mode's, [`tma`](Self::tma)).
    ///
    /// ```
    /// assert_eq!(cktile::matrix_desc::SwizzleMode::B128Base32.xor(), (2, 5, 2));
    /// ```
    pub const fn xor(self) -> (u32, u32, u32) {
        let (b, m, s) = self.tma().swizzle();
        (b, m, s.unsigned_abs())
    }

    /// The swizzle applied to a byte address (an involution).
    ///
    /// ```
    /// use cktile::matrix_desc::SwizzleMode;
    /// assert_eq!(SwizzleMode::B128.apply(128), 144); // row 1, chunk 0 -> chunk 1
    /// assert_eq!(SwizzleMode::B128.apply(SwizzleMode::B128.apply(1234)), 1234);
    /// ```
    pub const fn apply(self, byte: u64) -> u64 {
        tma_apply(self.tma(), byte)
    }

    /// The bytes after which the swizzle pattern repeats: the alignment a
    /// tile's base needs for a base offset of 0 (PTX ISA: 1024, 512 and 256
    /// bytes for the 128-, 64- and 32-byte swizzles; the 32-byte-atom mode's
    /// XOR reads bits 7 and 8, so 512), and 16 bytes without a swizzle.
    ///
    /// ```
    /// assert_eq!(cktile::matrix_desc::SwizzleMode::B128.repeat(), 1024);
    /// ```
    pub const fn repeat(self) -> u64 {
        match self {
            SwizzleMode::None => 16,
            _ => self.tma().alignment() as u64,
        }
    }

    /// The K elements of one MN-major atom row group: 8, or 4 for the
    /// 32-byte-atom mode (CuTe's `SwizzleAtomKSize`).
    ///
    /// ```
    /// assert_eq!(cktile::matrix_desc::SwizzleMode::B128Base32.k_group(), 4);
    /// ```
    pub const fn k_group(self) -> usize {
        match self {
            SwizzleMode::B128Base32 => 4,
            _ => 8,
        }
    }

    /// The descriptor's code for the mode on `target`, `None` where the
    /// target has no such mode: sm90's 2-bit field (INTERLEAVE 0, 128B 1,
    /// 64B 2, 32B 3) and sm100's 3-bit one (none 0, 128B-base-32B 1, 128B 2,
    /// 64B 4, 32B 6).
    ///
    /// ```
    /// use cktile::matrix_desc::{SwizzleMode, Target};
    /// assert_eq!((SwizzleMode::B32.code(Target::Sm90), SwizzleMode::B32.code(Target::Sm100)), (Some(3), Some(6)));
    /// assert_eq!(SwizzleMode::B128Base32.code(Target::Sm90), None);
    /// ```
    pub const fn code(self, target: Target) -> Option<u64> {
        match (target, self) {
            (Target::Sm90, SwizzleMode::None) => Some(0),
            (Target::Sm90, SwizzleMode::B128) => Some(1),
            (Target::Sm90, SwizzleMode::B64) => Some(2),
            (Target::Sm90, SwizzleMode::B32) => Some(3),
            (Target::Sm90, SwizzleMode::B128Base32) => None,
            (Target::Sm100, SwizzleMode::None) => Some(0),
            (Target::Sm100, SwizzleMode::B128Base32) => Some(1),
            (Target::Sm100, SwizzleMode::B128) => Some(2),
            (Target::Sm100, SwizzleMode::B64) => Some(4),
            (Target::Sm100, SwizzleMode::B32) => Some(6),
        }
    }

    /// The mode whose code on `target` is `code`.
    ///
    /// ```
    /// use cktile::matrix_desc::{SwizzleMode, Target};
    /// assert_eq!(SwizzleMode::from_code(Target::Sm100, 2), Some(SwizzleMode::B128));
    /// assert_eq!(SwizzleMode::from_code(Target::Sm100, 3), None);
    /// ```
    pub fn from_code(target: Target, code: u64) -> Option<SwizzleMode> {
        SwizzleMode::ALL.into_iter().find(|s| s.code(target) == Some(code))
    }

    /// The mode's name in the PTX ISA.
    ///
    /// ```
    /// assert_eq!(cktile::matrix_desc::SwizzleMode::B128.ptx_name(), "128-Byte swizzle");
    /// ```
    pub const fn ptx_name(self) -> &'static str {
        match self {
            SwizzleMode::None => "no swizzle",
            SwizzleMode::B32 => "32-Byte swizzle",
            SwizzleMode::B64 => "64-Byte swizzle",
            SwizzleMode::B128 => "128-Byte swizzle",
            SwizzleMode::B128Base32 => "128-Byte swizzle with 32-Byte atomicity",
        }
    }
}

/// The one of `all` whose name is `text`; the error lists `valid` (the
/// lookup every name list of the Hopper modules shares).
pub(crate) fn named<T: Copy>(
    all: &[T],
    name: fn(T) -> &'static str,
    text: &str,
    valid: &'static str,
) -> Result<T, Error> {
    all.iter()
        .copied()
        .find(|&t| name(t) == text)
        .ok_or_else(|| Error::parameter(ParameterProblem::UnknownName { name: Snippet::new(text), valid }))
}

/// A TMA mode's byte swizzle applied to `byte` (an involution): bits
/// `[M, M+B)` XOR bits `[M+S, M+S+B)`.
///
/// ```
/// use cktile::layouts::cute::Tma;
/// assert_eq!(cktile::matrix_desc::mode::tma_apply(Tma::B64, 128), 144);
/// assert_eq!(cktile::matrix_desc::mode::tma_apply(Tma::None, 128), 128);
/// ```
pub const fn tma_apply(mode: Tma, byte: u64) -> u64 {
    let (b, m, s) = mode.swizzle();
    let mask = ((1u64 << b) - 1) << m;
    byte ^ ((byte >> s.unsigned_abs()) & mask)
}
