//! The rule table: for each (chip, instruction), how many 4-byte banks
//! resolve its conflicts, which lanes the banks serve together (the
//! *phases*), and where that comes from.
//!
//! Every grouping and bank count cktile uses is one arm of [`rule`], with its
//! source beside it. The sources (the banks chapter of the guide lists them
//! with links):
//!
//! - **nod-ai**: nod-ai/amd-shark-ai `docs/empirical-lds/` (latency and
//!   `SQ_LDS_BANK_CONFLICT` measurements on MI300X, MI350X, W7900 and
//!   RX 9070 XT) and `docs/amdgpu_kernel_optimization_guide.md` (kuhar).
//! - **rocKE**: ROCm/rocm-libraries, the LDS conflict predictor of
//!   `hip-kernel-provider/rocke` (profiles `gfx90a.py`, which gfx942
//!   follows, and `gfx950.py`): phases as bit functions of the lane, banks
//!   as the byte-address period.
//! - **rocRoller**: ROCm/rocm-libraries `shared/rocroller/lib/source/LDSModel.cpp`
//!   (`getNumLDSBanks`: 64 banks only for gfx950's `ds_read_b64`/`b128`).
//! - **HipKittens**: HazyResearch/HipKittens `analysis/paper_experiments/phases/`
//!   (two-lane `rocprofv3` probes on gfx950: `ds_read_b64`, `ds_read_b96`,
//!   `ds_read_b128`, `ds_write_b64`).
//! - **CK docs**: CK Tile's LDS bank-conflict documentation (gfx942
//!   `ds_read_b128` and `ds_write_b128`).
//! - **GFX12 ISA**: AMD's RDNA4 instruction set document, as Triton PR
//!   #11365 quotes it for gfx1250: `ds_read_b96`/`b128` serve their lanes in
//!   sequential groups of 8.
//! - **MI450 blog**: AMD's ROCm blog "A Deep Dive into LDS Optimizations on
//!   AMD Instinct MI450 GPUs" (28 Aug 2026, gfx1250): `ds_load_b128` serves
//!   the wave in groups of 16 lanes, each group covering the 64 banks once,
//!   with one LDS port's measured 255.4 of 256 bytes a cycle behind it;
//!   `ds_load_tr*` meets the banks as the plain load of its width, its
//!   cross-lane exchange coming after.
//! - **CK arch**: CK Tile's `core/arch/arch.hpp` (`get_n_lds_banks`: 64 on
//!   gfx950 and gfx125; `get_lds_size(gfx125_t)`: 320 KiB) and Triton's
//!   `TargetInfo::getSharedMemoryBanks` (64 on CDNA4 and GFX1250): the
//!   compilers' bank counts, not measurements.
//! - **CUDA**: the CUDA programming guide's 32 banks of 4 bytes, 64-bit
//!   accesses in half-warps and 128-bit in quarter-warps (the model Triton's
//!   `bank_conflicts` uses), and one 8-row matrix per `ldmatrix` pass.
//!
//! Where no source gives a rule, the table says what cktile assumes
//! ([`Provenance::Assumption`]); where sources disagree, which one it
//! follows and why ([`Provenance::Disputed`]). Reports print both.

use super::arch::{Arch, Chip};
use super::op::Op;

/// The most lanes of a wave.
///
/// ```
/// use cktile_analysis::analyzer::{rules::MAX_LANES, ARCHS};
/// assert!(ARCHS.iter().all(|a| a.wave() as usize <= MAX_LANES));
/// ```
pub const MAX_LANES: usize = 64;

/// The phases of one access of an instruction: `phases()` groups of
/// `lanes_per_phase()` lanes.
///
/// ```
/// use cktile_analysis::analyzer::{arch, rules::rule, Op};
/// let g = rule(&arch::GFX942, Op::DsRead { bits: 128 }).grouping;
/// assert_eq!((g.phases(), g.lanes_per_phase()), (8, 8));
/// assert_eq!(g.phase(0), &[0, 1, 2, 3, 20, 21, 22, 23]);
/// assert_eq!(g.phase(usize::MAX), &[] as &[u8]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grouping {
    phases: usize,
    lanes_per_phase: usize,
    lanes: [u8; MAX_LANES],
}

impl Grouping {
    /// No phase: the grouping of an instruction the chip does not have.
    pub const NONE: Grouping = Grouping { phases: 0, lanes_per_phase: 0, lanes: [0; MAX_LANES] };

    /// Number of phases of one access.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{arch, rules::rule, Op};
    /// assert_eq!(rule(&arch::GFX950, Op::DsRead { bits: 128 }).grouping.phases(), 4);
    /// ```
    pub const fn phases(&self) -> usize {
        self.phases
    }

    /// Lanes per phase.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{arch, rules::rule, Op};
    /// assert_eq!(rule(&arch::GFX1201, Op::DsRead { bits: 64 }).grouping.lanes_per_phase(), 16);
    /// ```
    pub const fn lanes_per_phase(&self) -> usize {
        self.lanes_per_phase
    }

    /// The lanes of phase `p`, in the hardware's order (empty past the last phase).
    ///
    /// ```
    /// use cktile_analysis::analyzer::{arch, rules::rule, Op};
    /// assert_eq!(rule(&arch::SM90, Op::LdShared { bits: 64 }).grouping.phase(1)[0], 16);
    /// ```
    pub const fn phase(&self, p: usize) -> &[u8] {
        if p >= self.phases {
            return &[];
        }
        let start = p * self.lanes_per_phase;
        let end = start + self.lanes_per_phase;
        if end > MAX_LANES { &[] } else { self.lanes.split_at(end).0.split_at(start).1 }
    }
}

/// Where a rule comes from.
///
/// ```
/// use cktile_analysis::analyzer::{arch, rules::{rule, Provenance}, Op};
/// assert!(matches!(rule(&arch::GFX942, Op::DsRead { bits: 128 }).provenance, Provenance::Sourced(_)));
/// assert!(rule(&arch::GFX950, Op::DsRead { bits: 32 }).provenance.disputed().is_some());
/// assert!(rule(&arch::GFX950, Op::DsReadTr { element_bits: 16 }).provenance.assumption().is_some());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Provenance {
    /// Measured or documented: the sources.
    Sourced(&'static str),
    /// No source gives it: what cktile assumes, and why.
    Assumption(&'static str),
    /// The sources disagree: which one cktile follows, why, and the
    /// alternative.
    Disputed(&'static str),
}

impl Provenance {
    /// The text, whatever the kind.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{arch, rules::rule, Op};
    /// assert!(rule(&arch::GFX942, Op::DsWrite { bits: 128 }).provenance.text().contains("CK docs"));
    /// ```
    pub const fn text(&self) -> &'static str {
        match self {
            Provenance::Sourced(t) | Provenance::Assumption(t) | Provenance::Disputed(t) => t,
        }
    }

    /// `"sourced"`, `"assumption"` or `"disputed"`.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{arch, rules::rule, Op};
    /// assert_eq!(rule(&arch::GFX950, Op::DsRead { bits: 32 }).provenance.kind(), "disputed");
    /// ```
    pub const fn kind(&self) -> &'static str {
        match self {
            Provenance::Sourced(_) => "sourced",
            Provenance::Assumption(_) => "assumption",
            Provenance::Disputed(_) => "disputed",
        }
    }

    /// The sources, when the rule has them.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{arch, rules::rule, Op};
    /// assert!(rule(&arch::GFX942, Op::DsRead { bits: 64 }).provenance.sources().is_some_and(|s| s.contains("rocKE")));
    /// ```
    pub const fn sources(&self) -> Option<&'static str> {
        match self {
            Provenance::Sourced(t) => Some(t),
            _ => None,
        }
    }

    /// The assumption, when no source gives the rule.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{arch, rules::rule, Op};
    /// assert!(rule(&arch::GFX942, Op::DsWrite { bits: 64 }).provenance.assumption().is_none());
    /// ```
    pub const fn assumption(&self) -> Option<&'static str> {
        match self {
            Provenance::Assumption(t) => Some(t),
            _ => None,
        }
    }

    /// What a report must print beside numbers from this rule: the word
    /// `assumption` or `disputed` and the text; `None` for a sourced rule.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{arch, rules::rule, Op};
    /// let (kind, _) = rule(&arch::GFX950, Op::DsRead { bits: 32 }).provenance.caveat().unwrap();
    /// assert_eq!(kind, "disputed");
    /// assert!(rule(&arch::GFX950, Op::DsRead { bits: 64 }).provenance.caveat().is_none());
    /// ```
    pub const fn caveat(&self) -> Option<(&'static str, &'static str)> {
        match self {
            Provenance::Sourced(_) => None,
            Provenance::Assumption(t) | Provenance::Disputed(t) => Some((self.kind(), t)),
        }
    }

    /// Why the rule is disputed, when sources disagree.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{arch, rules::rule, Op};
    /// assert!(rule(&arch::GFX950_B32X64, Op::DsRead { bits: 32 }).provenance.disputed().is_some());
    /// ```
    pub const fn disputed(&self) -> Option<&'static str> {
        match self {
            Provenance::Disputed(t) => Some(t),
            _ => None,
        }
    }
}

/// How one instruction meets the banks on one chip.
///
/// ```
/// use cktile_analysis::analyzer::{arch, rules::rule, Op};
/// // gfx950 resolves ds_read_b128 over 64 banks, its writes over 32.
/// assert_eq!(rule(&arch::GFX950, Op::DsRead { bits: 128 }).banks, 64);
/// assert_eq!(rule(&arch::GFX950, Op::DsWrite { bits: 128 }).banks, 32);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// 4-byte banks: a word at byte address `a` lives in bank `(a / 4) % banks`.
    pub banks: u32,
    /// The lanes served together, for each of the instruction's accesses
    /// (read2/write2 serve their first access in every phase, then their
    /// second in the same phases).
    pub grouping: Grouping,
    /// Where the rule comes from.
    pub provenance: Provenance,
}

impl Rule {
    /// The rule of an instruction the chip does not have: no phase.
    pub const NONE: Rule = Rule { banks: 32, grouping: Grouping::NONE, provenance: Provenance::Sourced("") };

    /// Bytes the banks deliver in one pass: `banks * 4`.
    ///
    /// ```
    /// use cktile_analysis::analyzer::{arch, rules::rule, Op};
    /// assert_eq!(rule(&arch::GFX950, Op::DsRead { bits: 64 }).bytes_per_cycle(), 256);
    /// ```
    pub const fn bytes_per_cycle(&self) -> u64 {
        self.banks as u64 * 4
    }
}

/// `phases` groups of `per` consecutive lanes.
const fn consecutive(phases: usize, per: usize) -> Grouping {
    let mut lanes = [0u8; MAX_LANES];
    let mut i = 0;
    while i < phases * per && i < MAX_LANES {
        lanes[i] = i as u8;
        i += 1;
    }
    Grouping { phases, lanes_per_phase: per, lanes }
}

/// Phases made of runs of four lanes: `runs[p]` lists the first lane of each run of phase `p`.
const fn runs_of_four<const P: usize, const R: usize>(runs: [[u8; R]; P]) -> Grouping {
    let mut lanes = [0u8; MAX_LANES];
    let mut p = 0;
    let mut n = 0;
    while p < P {
        let mut r = 0;
        while r < R {
            let mut j = 0;
            while j < 4 && n < MAX_LANES {
                lanes[n] = runs[p][r] + j;
                n += 1;
                j += 1;
            }
            r += 1;
        }
        p += 1;
    }
    Grouping { phases: P, lanes_per_phase: 4 * R, lanes }
}

/// gfx90a / gfx942 `ds_read_b128` (CK docs, nod-ai measured on MI300X,
/// rocKE phase key (lane bit 5, bit 4 ^ bit 2, bit 3), kuhar's guide, Triton
/// PR #11365); gfx950 `ds_read_b96` (HipKittens measured).
const CDNA3_READ_B128: Grouping =
    runs_of_four([[0, 20], [32, 52], [4, 16], [36, 48], [8, 28], [40, 60], [12, 24], [44, 56]]);

/// gfx950 `ds_read_b128` (nod-ai, HipKittens measured; rocKE phase key
/// (lane bit 5, bit 4 ^ bit 3 ^ bit 2); Triton PR #11365; IREE PR #24428).
const CDNA4_READ_B128: Grouping = runs_of_four([[0, 12, 20, 24], [32, 44, 52, 56], [4, 8, 16, 28], [36, 40, 48, 60]]);

/// gfx1100 `ds_read_b128` (nod-ai measured on a W7900): CDNA3's first half-wave.
const RDNA3_READ_B128: Grouping = runs_of_four([[0, 20], [4, 16], [8, 28], [12, 24]]);

// A row cites only measurements made on its own chip (tests/amd_rules.rs
// holds every row to that): gfx90a's rows give the documented models alone,
// gfx942's add nod-ai's MI300X measurements.
const GFX90A_B32: &str = "rocKE gfx90a profile (read and write: phase = lane bit 5, 128-byte bank period), kuhar's \
guide (b32 reads and writes: 32 adjacent lanes)";
const GFX942_B32: &str = "nod-ai (measured on MI300X: ds_read_b32 in T0-T31, T32-T63), rocKE gfx90a profile (which \
gfx942 follows; read and write: phase = lane bit 5, 128-byte bank period), kuhar's guide (b32 reads and writes: 32 \
adjacent lanes)";
const GFX90A_B64: &str = "rocKE gfx90a profile (read and write: phase = lane bits 5, 4), kuhar's guide";
const GFX942_B64: &str = "nod-ai (measured on MI300X: ds_read_b64 in 4 x 16 lanes), rocKE gfx90a profile (which \
gfx942 follows; read and write: phase = lane bits 5, 4), kuhar's guide";
const GFX90A_READ128: &str = "CK docs, rocKE gfx90a profile (phase = lane bit 5, bit 4 ^ bit 2, bit 3), kuhar's \
guide, Triton PR #11365";
const GFX942_READ128: &str = "CK docs, nod-ai (measured on MI300X), rocKE gfx90a profile (which gfx942 follows; \
phase = lane bit 5, bit 4 ^ bit 2, bit 3), kuhar's guide, Triton PR #11365";
const CDNA3_WRITE128: &str =
    "CK docs, rocKE gfx90a profile (phase = lane bits 5, 4, 3), kuhar's guide (T0-T7, ..., T56-T63)";
const CDNA3_READ2_B64: &str = "kuhar's guide (MI300: the first b64 of every lane in the 4 x 16-lane phases of \
ds_read_b64, then the second in the same phases)";
const GFX90A_READ2_B64: &str = "no source gives gfx90a's ds_read2_b64 grouping (kuhar's guide states it for MI300, \
gfx942); cktile assumes the same: the first b64 of every lane in ds_read_b64's 4 x 16-lane phases, then the second";
const CDNA4_READ_B64: &str = "nod-ai and HipKittens (measured on MI350X: 2 x 32 lanes, first conflict at bank 64), \
rocKE gfx950 profile (phase = lane bit 5, 256-byte bank period), rocRoller getNumLDSBanks, Triton PR #9662";
const CDNA4_READ128: &str = "nod-ai and HipKittens (measured on MI350X: 4 x 16 lanes, first conflict at bank 64), \
rocKE gfx950 profile (phase = lane bit 5, bit 4 ^ bit 3 ^ bit 2), rocRoller, Triton PR #11365, IREE PR #24428";
const CDNA4_READ_B96: &str = "HipKittens (measured on MI350X: gfx942's ds_read_b128 phases, first conflict at bank \
32); rocRoller: gfx950's b96 read retains gfx942's throughput";
const CDNA4_WRITE_B64: &str = "HipKittens (measured on MI350X: ds_write_b64 in 4 x 16 lanes), rocKE gfx950 profile \
(writes follow gfx90a: phase = lane bits 5, 4, 128-byte bank period), rocRoller getNumLDSBanks (32 banks but for \
ds_read_b64/b128)";
const CDNA4_WRITES: &str = "rocKE gfx950 profile (writes follow gfx90a: phase = lane bit 5 for b32, bits 5, 4 for b64, \
bits 5, 4, 3 for b128, 128-byte bank period), rocRoller getNumLDSBanks (32 banks but for ds_read_b64/b128)";
const CDNA4_READ_B32: &str = "AMD's rocKE gfx950 profile and rocRoller's getNumLDSBanks both serve \
ds_read_b32 as on gfx90a (lanes 0-31, then 32-63, on 32 banks); nod-ai reports one 64-lane phase from latency \
alone, without a bank-count sweep. cktile follows AMD's two models; the model variant gfx950-b32x64 follows nod-ai. \
The two differ on lanes 0, 1 at bytes 0, 128 (a conflict only on 32 banks) and lanes 0, 32 at bytes 0, 256 (a \
conflict only in one 64-lane phase)";
const CDNA4_READ_B32_WIDE: &str = "nod-ai's latency measurement on MI350X (one 64-lane phase on 64 \
banks), the model variant gfx950-b32x64; AMD's rocKE and rocRoller (the default gfx950) serve it in 2 x 32 lanes \
on 32 banks";
const RDNA3_READS: &str = "nod-ai (measured on a W7900: ds_read_b32 in T0-T31, ds_read_b64 in 2 x 16, ds_read_b128 \
in {0-3, 20-23} {4-7, 16-19} {8-11, 28-31} {12-15, 24-27}; 128-byte bank period)";
const RDNA4_READ_B96: &str = "GFX12 ISA document (quoted in Triton PR #11365: ds_read_b96 and ds_read_b128 serve \
their lanes in sequential groups of 8), 128-byte bank period as nod-ai measured for gfx1201's other reads";
// gfx1250: the compilers' constants give the bank count; AMD's MI450 blog
// gives ds_load_b128's 16-lane groups (and its port bandwidth), which the
// GFX12 ISA's 8-lane groups, as Triton #11365 quotes them, contradict; the
// rest is assumed.
const GFX1250_READ_B128: &str = "AMD's MI450 blog (rocm.blogs.amd.com, 28 Aug 2026) says ds_load_b128 \
serves the wave in groups of 16 lanes, each covering the 64 banks once, and measures one LDS port streaming \
ds_load_b128 at 255.4 of 256 bytes a cycle (two cycles for the wave's 512 bytes); Triton PR #11365 quotes the GFX12 \
ISA's sequential 8-lane groups for gfx1250 (the grouping measured on RDNA4's 32 banks, and four cycles a wave). \
cktile follows the blog, written for this chip with a measurement behind it; the model triton-11365 keeps the 8-lane \
groups. 64 banks: CK Tile get_n_lds_banks(gfx125_t), Triton getSharedMemoryBanks (GFX1250)";
const GFX1250_READ_B96: &str = "no source gives gfx1250's ds_read_b96 grouping for its 64 banks; cktile assumes \
ds_load_b128's 16-lane groups (AMD's MI450 blog), as gfx942 and gfx950 serve b96 in their b128 phases; Triton PR \
#11365 quotes the GFX12 ISA's 8-lane groups (RDNA4's 32 banks)";
const GFX1250_READ_NARROW: &str = "no source gives gfx1250's ds_read_b32/b64 groupings; cktile assumes one phase of \
the 32-lane wave (32 lanes of 4 or 8 bytes fit the 256 bytes 64 banks deliver), on the 64 banks of CK Tile's and \
Triton's gfx1250 constants";
const GFX1250_WRITES: &str = "no source gives gfx1250's write groupings; cktile assumes the reads' (one phase of 32 \
lanes for b32/b64; the MI450 blog's 16-lane groups of ds_load_b128 for b96/b128), on the 64 banks of CK Tile's and \
Triton's gfx1250 constants";
const GFX1250_LOAD_TR16: &str = "AMD's MI450 blog: ds_load_tr meets the banks as the plain load of its width (the \
lanes' own 16-byte reads; the exchange across each 8-lane group comes after), and ds_load_b128 serves the wave in \
groups of 16 lanes on 64 banks";
const GFX1250_LOAD_TR: &str = "AMD's MI450 blog: ds_load_tr meets the banks as the plain load of its width (the \
lanes' own reads; the exchange across lanes comes after); no source gives the plain b64/b96 groupings, so cktile \
assumes ds_read_b64's one 32-lane phase for tr4_b64/tr8_b64 and ds_read_b96's 16-lane groups for tr6_b96, on 64 \
banks";
const RDNA4_READS: &str = "nod-ai (measured on an RX 9070 XT: ds_read_b32 in T0-T31, ds_read_b64 in 2 x 16, \
ds_read_b128 in 4 x 8 consecutive lanes; 128-byte bank period)";
// The measurements were made on an H100 (sm90): sm80's rows cite the
// documents alone, and its cp.async row is an assumption.
const SM80_WORDS: &str = "CUDA programming guide: 32 banks of 4 bytes; 64-bit accesses in half-warps, 128-bit in \
quarter-warps (the model of Triton's bank_conflicts)";
const SM90_WORDS: &str = "CUDA programming guide: 32 banks of 4 bytes; 64-bit accesses in half-warps, 128-bit in \
quarter-warps (the model of Triton's bank_conflicts); Nsight Compute on an H100 agrees on every measured case \
(docs/gpu-measurements.md)";
const SM90_CP_ASYNC: &str = "measured on an H100 (docs/gpu-measurements.md): LDGSTS writes in st.shared's phases of \
the same width, but lanes writing one word are not merged, and reading the source from L1's banks costs as much \
again (model::count_copy; analyze assumes a conflict-free source); ncu counts nothing for the 16-byte \
cp.async.cg (LDGSTS.BYPASS)";
const SM80_CP_ASYNC: &str = "no sm80 measurement gives cp.async's grouping; cktile assumes what was measured on an \
sm90 (docs/gpu-measurements.md): LDGSTS writes in st.shared's phases of the same width, lanes writing one word not \
merged, and the source read from L1's banks costing as much again (analyze assumes a conflict-free source)";
const SM80_MATRIX: &str = "PTX ISA: each 8x8 matrix's eight 16-byte rows come from 8 lanes; one matrix per pass";
const SM90_MATRIX: &str = "PTX ISA: each 8x8 matrix's eight 16-byte rows come from 8 lanes; one matrix per pass; \
Nsight Compute on an H100 agrees on every measured case (docs/gpu-measurements.md)";

const SUB_DWORD: &str = "no source gives the sub-dword groupings (rocRoller's model leaves them out); cktile \
assumes the chip's b32 grouping and bank count, with lanes touching one dword sharing one access";
const B96_CDNA3: &str = "no source gives gfx90a/gfx942's b96 groupings; cktile assumes reads as gfx942's \
ds_read_b128 (what HipKittens measured for gfx950's ds_read_b96, which rocRoller says keeps gfx942's throughput) \
and writes as ds_write_b128, on 32 banks";
const B96_WRITE: &str = "no source gives ds_write_b96's grouping; cktile assumes ds_write_b128's, on 32 banks";
const B96_RDNA: &str = "no source gives RDNA3's b96 grouping; cktile assumes the chip's b128 one";
const TWO_ADDRESS: &str = "no source gives this read2/write2 grouping; cktile applies kuhar's ds_read2_b64 rule: \
each access is served as the chip's single-address instruction of its width (its phases and banks), the first \
accesses of all lanes, then the second";
const TRANSPOSE: &str = "no public source gives the grouping of gfx950's transposing reads (Triton PR #6065 \
doubts any); cktile assumes gfx950's ds_read_b64 (2 x 32 lanes on 64 banks)";
const RDNA_WRITES: &str = "no source gives RDNA's write groupings; cktile assumes consecutive lanes filling 32 \
banks (1 x 32 for b32, 2 x 16 for b64, 4 x 8 for b128), as the writes of CDNA";

const fn sourced(banks: u32, grouping: Grouping, text: &'static str) -> Rule {
    Rule { banks, grouping, provenance: Provenance::Sourced(text) }
}

const fn assumed(banks: u32, grouping: Grouping, text: &'static str) -> Rule {
    Rule { banks, grouping, provenance: Provenance::Assumption(text) }
}

/// The rule of a single-address AMD instruction of `bits` (32, 64, 96,
/// 128) on `chip`: the table's AMD rows.
const fn amd_single(chip: Chip, read: bool, bits: u32) -> Rule {
    use Chip::*;
    match (chip, read, bits) {
        // CDNA2/CDNA3, and gfx950's writes: rocKE's gfx950 profile falls back to
        // gfx90a for everything but ds_read_b64/b128.
        (Gfx90a, _, 32) => sourced(32, consecutive(2, 32), GFX90A_B32),
        (Gfx942, _, 32) => sourced(32, consecutive(2, 32), GFX942_B32),
        (Gfx90a, _, 64) => sourced(32, consecutive(4, 16), GFX90A_B64),
        (Gfx942, _, 64) => sourced(32, consecutive(4, 16), GFX942_B64),
        (Gfx90a, true, 128) => sourced(32, CDNA3_READ_B128, GFX90A_READ128),
        (Gfx942, true, 128) => sourced(32, CDNA3_READ_B128, GFX942_READ128),
        (Gfx90a | Gfx942, false, 128) => sourced(32, consecutive(8, 8), CDNA3_WRITE128),
        (Gfx90a | Gfx942, true, 96) => assumed(32, CDNA3_READ_B128, B96_CDNA3),
        (Gfx90a | Gfx942, false, 96) => assumed(32, consecutive(8, 8), B96_CDNA3),
        // CDNA4.
        (Gfx950 | Gfx950B32x64, true, 64) => sourced(64, consecutive(2, 32), CDNA4_READ_B64),
        (Gfx950 | Gfx950B32x64, true, 128) => sourced(64, CDNA4_READ_B128, CDNA4_READ128),
        (Gfx950 | Gfx950B32x64, true, 96) => sourced(32, CDNA3_READ_B128, CDNA4_READ_B96),
        (Gfx950, true, 32) => {
            Rule { banks: 32, grouping: consecutive(2, 32), provenance: Provenance::Disputed(CDNA4_READ_B32) }
        }
        (Gfx950B32x64, true, 32) => {
            Rule { banks: 64, grouping: consecutive(1, 64), provenance: Provenance::Disputed(CDNA4_READ_B32_WIDE) }
        }
        (Gfx950 | Gfx950B32x64, false, 32) => sourced(32, consecutive(2, 32), CDNA4_WRITES),
        (Gfx950 | Gfx950B32x64, false, 64) => sourced(32, consecutive(4, 16), CDNA4_WRITE_B64),
        (Gfx950 | Gfx950B32x64, false, 128) => sourced(32, consecutive(8, 8), CDNA4_WRITES),
        (Gfx950 | Gfx950B32x64, false, 96) => assumed(32, consecutive(8, 8), B96_WRITE),
        // RDNA3 and RDNA4 (wave32): reads measured, writes assumed.
        (Gfx1100, true, 32) => sourced(32, consecutive(1, 32), RDNA3_READS),
        (Gfx1100, true, 64) => sourced(32, consecutive(2, 16), RDNA3_READS),
        (Gfx1100, true, 128) => sourced(32, RDNA3_READ_B128, RDNA3_READS),
        (Gfx1100, true, 96) => assumed(32, RDNA3_READ_B128, B96_RDNA),
        (Gfx1201, true, 32) => sourced(32, consecutive(1, 32), RDNA4_READS),
        (Gfx1201, true, 64) => sourced(32, consecutive(2, 16), RDNA4_READS),
        (Gfx1201, true, 128) => sourced(32, consecutive(4, 8), RDNA4_READS),
        (Gfx1201, true, 96) => sourced(32, consecutive(4, 8), RDNA4_READ_B96),
        (Gfx1100 | Gfx1201, false, 32) => assumed(32, consecutive(1, 32), RDNA_WRITES),
        (Gfx1100 | Gfx1201, false, 64) => assumed(32, consecutive(2, 16), RDNA_WRITES),
        (Gfx1100 | Gfx1201, false, 96 | 128) => assumed(32, consecutive(4, 8), RDNA_WRITES),
        // gfx1250 (wave32, 64 banks).
        (Gfx1250, true, 128) => {
            Rule { banks: 64, grouping: consecutive(2, 16), provenance: Provenance::Disputed(GFX1250_READ_B128) }
        }
        (Gfx1250, true, 96) => assumed(64, consecutive(2, 16), GFX1250_READ_B96),
        (Gfx1250, true, 32 | 64) => assumed(64, consecutive(1, 32), GFX1250_READ_NARROW),
        (Gfx1250, false, 32 | 64) => assumed(64, consecutive(1, 32), GFX1250_WRITES),
        (Gfx1250, false, 96 | 128) => assumed(64, consecutive(2, 16), GFX1250_WRITES),
        _ => Rule::NONE,
    }
}

/// NVIDIA's word accesses: one phase of 32 lanes up to 32 bits, half-warps
/// for 64 bits, quarter-warps for 128.
const fn nvidia_words(bits: u32) -> Grouping {
    match bits {
        128 => consecutive(4, 8),
        64 => consecutive(2, 16),
        _ => consecutive(1, 32),
    }
}

/// The shared-memory accesses of a chip that no source gives a bank rule
/// for, so cktile counts none: each as (chip, access, what holds instead).
/// `cktile rules` lists them after the chip's counted instructions, so that
/// the table says so rather than inventing a number.
///
/// ```
/// use cktile_analysis::analyzer::{arch::Chip, rules::UNCOUNTED};
/// assert!(UNCOUNTED.iter().any(|(c, access, _)| *c == Chip::Sm90 && access.starts_with("wgmma")));
/// ```
pub const UNCOUNTED: &[(Chip, &str, &str)] = &[
    (
        Chip::Sm90,
        "wgmma.mma_async (shared-memory operand read)",
        "not counted: NVIDIA documents no bank rule for wgmma's reads through a matrix descriptor; what holds is \
         whether the layout is one of the PTX ISA's canonical layouts (cktile matrix-desc)",
    ),
    (
        Chip::Sm90,
        "cp.async.bulk.tensor (TMA write)",
        "not counted: NVIDIA documents no bank rule for TMA's shared-memory writes; what holds is whether one box \
         (or a few) writes the tile exactly (cktile tma)",
    ),
    (
        Chip::Gfx1250,
        "LDS partitions (between warps)",
        "not counted in the banks: AMD's MI450 blog gives 64 KiB partitions that the two SIMD pairs (even and odd \
         warps) serialize on when both reach one in the same cycle, a matter of timing no count can give; what \
         holds is whether an access's pairs reach one partition (cktile analyze --distribution on gfx1250)",
    ),
];

/// The rule of `op` on `arch`: its bank count, phases and provenance (an
/// instruction the chip does not have gets no phases; see [`Op::runs_on`]).
///
/// ```
/// use cktile_analysis::analyzer::{arch, rules::rule, Op};
/// let r = rule(&arch::GFX950, Op::DsWrite { bits: 64 });
/// assert_eq!((r.banks, r.grouping.phases(), r.grouping.lanes_per_phase()), (32, 4, 16));
/// assert!(rule(&arch::GFX942, Op::DsWrite2 { bits: 32, offsets: [0, 1], st64: false }).provenance.assumption().is_some());
/// assert_eq!(rule(&arch::GFX942, Op::Ldmatrix { matrices: 1, trans: false }).grouping.phases(), 0);
/// ```
pub const fn rule(arch: &Arch, op: Op) -> Rule {
    if !op.runs_on(arch) {
        return Rule::NONE;
    }
    let chip = arch.chip();
    match op {
        Op::DsRead { bits: 8 | 16 } | Op::DsWrite { bits: 8 | 16 } => {
            let base = amd_single(chip, op.is_read(), 32);
            assumed(base.banks, base.grouping, SUB_DWORD)
        }
        Op::DsRead { bits } => amd_single(chip, true, bits),
        Op::DsWrite { bits } => amd_single(chip, false, bits),
        Op::DsRead2 { bits, .. } | Op::DsWrite2 { bits, .. } => {
            let base = amd_single(chip, op.is_read(), bits);
            match (chip, op) {
                (Chip::Gfx942, Op::DsRead2 { bits: 64, .. }) => sourced(base.banks, base.grouping, CDNA3_READ2_B64),
                (Chip::Gfx90a, Op::DsRead2 { bits: 64, .. }) => assumed(base.banks, base.grouping, GFX90A_READ2_B64),
                _ => assumed(base.banks, base.grouping, TWO_ADDRESS),
            }
        }
        Op::DsReadTr { .. } => {
            let base = amd_single(chip, true, 64);
            assumed(base.banks, base.grouping, TRANSPOSE)
        }
        Op::DsLoadTr { element_bits } => {
            let base = amd_single(chip, true, op.access_bytes() as u32 * 8);
            if element_bits == 16 {
                sourced(base.banks, base.grouping, GFX1250_LOAD_TR16)
            } else {
                assumed(base.banks, base.grouping, GFX1250_LOAD_TR)
            }
        }
        Op::LdShared { bits } | Op::StShared { bits } => {
            sourced(32, nvidia_words(bits), if matches!(chip, Chip::Sm90) { SM90_WORDS } else { SM80_WORDS })
        }
        Op::CpAsync { bits } if matches!(chip, Chip::Sm90) => sourced(32, nvidia_words(bits), SM90_CP_ASYNC),
        Op::CpAsync { bits } => assumed(32, nvidia_words(bits), SM80_CP_ASYNC),
        Op::Ldmatrix { matrices, .. } | Op::Stmatrix { matrices, .. } => {
            let text = if matches!(chip, Chip::Sm90) { SM90_MATRIX } else { SM80_MATRIX };
            sourced(32, consecutive(matrices as usize, 8), text)
        }
    }
}
