//! Every public model of AMD's LDS banks, each as its source states it and
//! nothing more, beside cktile's own rule table.
//!
//! A [`Model`] answers one question: for an instruction on a chip, which
//! lanes the banks serve together (the phases), over how many 4-byte banks,
//! and whether lanes touching one word share an access (a broadcast). Where
//! its source is silent (a chip, an instruction, a partial wave, or lanes
//! sharing a word when the source never says what that costs) it refuses,
//! with an error naming the model, the chip and the instruction.
//!
//! The models and their sources:
//!
//! - **cktile**: the rule table ([`rules::rule`](crate::analyzer::rules::rule)), every
//!   row sourced, assumed or disputed.
//! - **rocKE**: AMD's LDS conflict predictor (ROCm/rocm-libraries PRs
//!   #11094/#11096/#11097, `rocke/analysis/lds/` profiles `gfx90a.py`, which
//!   gfx942 follows, and `gfx950.py`): phases as bit functions of the lane,
//!   a 128-byte bank period (256 for gfx950's `ds_read_b64`/`b128`), and a
//!   broadcast for lanes reading one word; `ds_*_b32/b64/b128` on gfx90a,
//!   gfx942 and gfx950 only.
//! - **rocRoller**: `LDSBankModel` (rocm-libraries
//!   `shared/rocroller/lib/source/LDSModel.cpp`): consecutive groups of 16,
//!   8, 4, 4 lanes per clock for b32, b64, b96, b128 (gfx950's reads 16,
//!   16, 4, 8), 64 banks only for gfx950's `ds_read_b64`/`b128`, every
//!   lane's dwords counted per bank with no broadcast, and every lane's
//!   address given (`divideIntoThreadGroups`).
//! - **Triton #9662**: consecutive lanes filling the chip's banks in one
//!   phase (`TargetInfo::getSharedMemoryBanks`: 64 on CDNA4, 32 before),
//!   reads on gfx90a, gfx942 and gfx950.
//! - **Triton #11365**: #9662, with `ds_read_b128`'s phases as XOR bases of
//!   the lane (MI300: gfx942; MI350: gfx950) and gfx1250's `ds_read_b96`/
//!   `b128` in sequential groups of 8 lanes on 64 banks (the GFX12 ISA).
//! - **IREE** (iree-org/iree PRs #24428/#24471): CDNA1-3 reads in
//!   consecutive phases on 32 banks (gfx90a, gfx942); CDNA4 (gfx950) on 64
//!   banks, reads of up to 8 bytes in consecutive phases and `ds_read_b128`
//!   in its 4 phases; silent on broadcasts.
//! - **amd-shark**: nod-ai/amd-shark-ai `docs/empirical-lds` (latency and
//!   counter measurements of reads on MI300X, MI350X, W7900, RX 9070 XT),
//!   with a broadcast.
//! - **HipKittens**: HazyResearch/HipKittens `analysis/paper_experiments/
//!   phases/` (two-lane `rocprofv3` probes on gfx950: `ds_read_b64`,
//!   `ds_read_b96`, `ds_read_b128`, `ds_write_b64`); two lanes at distinct
//!   words only, so silent on broadcasts.
//! - **MI450 blog**: AMD's ROCm blog "A Deep Dive into LDS Optimizations on
//!   AMD Instinct MI450 GPUs" (28 Aug 2026): gfx1250's `ds_load_b128` in
//!   groups of 16 lanes on 64 banks, and `ds_load_tr16_b128` meeting the
//!   banks as that plain load; silent on broadcasts and on every other
//!   width.
//!
//! [`answer`] counts one instruction's accesses under a model by brute
//! force: per phase, per bank, the distinct words (with a broadcast) or
//! every lane's words (without); the answer is the most a bank serves in
//! one phase, the conflict's *ways*.
//!
//! ```
//! use cktile::analyzer::{arch, Op};
//! use cktile::reports::{models::{answer, Model}};
//! // The issue's first gfx942 example: lane L at 16 (L % 4) + 128 (L / 4).
//! let a: Vec<Option<u64>> = (0..64).map(|l| Some(16 * (l % 4) + 128 * (l / 4))).collect();
//! let b128 = Op::DsRead { bits: 128 };
//! assert_eq!(answer(Model::Cktile, &arch::GFX942, b128, &a)?, 2);
//! assert_eq!(answer(Model::RocRoller, &arch::GFX942, b128, &a)?, 1);
//! // The second: every lane at byte 0.
//! let zero = vec![Some(0); 64];
//! assert_eq!(answer(Model::Rocke, &arch::GFX942, b128, &zero)?, 1);
//! assert_eq!(answer(Model::RocRoller, &arch::GFX942, b128, &zero)?, 4);
//! assert!(answer(Model::HipKittens, &arch::GFX942, b128, &zero).unwrap_err().to_string().contains("hipkittens"));
//! # Ok::<(), cktile::Error>(())
//! ```

use crate::analyzer::AnalyzerProblem;
use crate::analyzer::arch::{Arch, Chip};
use crate::analyzer::op::Op;
use crate::analyzer::rules::{Grouping, rule};
use crate::{Error, ParameterProblem, Snippet};
use alloc::vec::Vec;

/// A public model of AMD's LDS banks.
///
/// ```
/// use cktile::reports::models::Model;
/// assert_eq!(Model::by_name("rocroller")?, Model::RocRoller);
/// assert_eq!(Model::TritonXor.name(), "triton-11365");
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Model {
    /// cktile's rule table.
    Cktile,
    /// AMD's rocKE LDS predictor.
    Rocke,
    /// rocRoller's `LDSBankModel`.
    RocRoller,
    /// Triton PR #9662: consecutive phases filling the banks.
    TritonContiguous,
    /// Triton PR #11365: #9662 with XOR-base `ds_read_b128` phases.
    TritonXor,
    /// IREE PRs #24428/#24471.
    Iree,
    /// nod-ai/amd-shark-ai's measurements.
    AmdShark,
    /// HipKittens' gfx950 phase probes.
    HipKittens,
    /// AMD's MI450 (gfx1250) LDS blog.
    Mi450Blog,
}

/// Every model, cktile's first.
///
/// ```
/// assert_eq!(cktile::reports::models::MODELS.len(), 9);
/// ```
pub const MODELS: [Model; 9] = [
    Model::Cktile,
    Model::Rocke,
    Model::RocRoller,
    Model::TritonContiguous,
    Model::TritonXor,
    Model::Iree,
    Model::AmdShark,
    Model::HipKittens,
    Model::Mi450Blog,
];

/// The models' names, in [`MODELS`]' order.
const MODEL_NAME_LIST: [&str; MODELS.len()] = crate::names::names_of!(MODELS, |m| m.name());

/// The models' names, comma-separated, derived from [`MODELS`]: what
/// `--model` takes and its messages list.
///
/// ```
/// use cktile::reports::models::{MODELS, MODEL_NAMES};
/// assert!(MODEL_NAMES.starts_with("cktile, rocke, rocroller"));
/// assert_eq!(MODEL_NAMES.split(", ").count(), MODELS.len());
/// ```
pub const MODEL_NAMES: &str = crate::names::joined!(&MODEL_NAME_LIST);

/// What kind of evidence a model's answer rests on.
///
/// ```
/// use cktile::reports::models::{Evidence, Model};
/// assert_eq!(Model::AmdShark.evidence(), Evidence::Measurement);
/// assert_eq!(Evidence::Model.word(), "a tool's model");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Evidence {
    /// Measured on the hardware.
    Measurement,
    /// AMD's own predictor or documentation (rocKE, AMD's blog).
    Document,
    /// A compiler's or tool's model of the hardware, with no measurement
    /// behind it in the source.
    Model,
    /// cktile's rule table: its row's provenance (sourced, assumed,
    /// disputed) says.
    Table,
}

impl Evidence {
    /// In words.
    pub const fn word(self) -> &'static str {
        match self {
            Evidence::Measurement => "measurement",
            Evidence::Document => "AMD's predictor or document",
            Evidence::Model => "a tool's model",
            Evidence::Table => "cktile's table",
        }
    }
}

/// One model's rule for one (chip, instruction): the phases, the bank
/// count, the broadcast, and the source's words for it.
///
/// ```
/// use cktile::analyzer::{arch, Op};
/// use cktile::reports::{models::{model_rule, Model}};
/// let r = model_rule(Model::RocRoller, &arch::GFX942, Op::DsRead { bits: 32 })?;
/// assert_eq!((r.phases.len(), r.phases[0].len(), r.banks, r.broadcast), (4, 16, 32, Some(false)));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelRule {
    /// The lanes served together, phase by phase.
    pub phases: Vec<Vec<u8>>,
    /// 4-byte banks.
    pub banks: u32,
    /// `Some(true)`: lanes touching one word share an access; `Some(false)`:
    /// each lane's word is served on its own; `None`: the source does not
    /// say (the model refuses such accesses).
    pub broadcast: Option<bool>,
    /// What the source says of this rule.
    pub text: &'static str,
}

fn consecutive(wave: u32, per: u32) -> Vec<Vec<u8>> {
    (0..wave.div_ceil(per)).map(|p| (p * per..((p + 1) * per).min(wave)).map(|l| l as u8).collect()).collect()
}

/// Lanes grouped by a key, phases in the order of their first lane.
fn keyed(wave: u32, key: impl Fn(u32) -> u32) -> Vec<Vec<u8>> {
    let mut keys: Vec<u32> = Vec::new();
    let mut phases: Vec<Vec<u8>> = Vec::new();
    for l in 0..wave {
        let k = key(l);
        match keys.iter().position(|&x| x == k) {
            Some(i) => phases[i].push(l as u8),
            None => {
                keys.push(k);
                phases.push(alloc::vec![l as u8]);
            }
        }
    }
    phases
}

fn bit(l: u32, b: u32) -> u32 {
    (l >> b) & 1
}

/// gfx942's `ds_read_b128` phases: key (lane bit 5, bit 4 ^ bit 2, bit 3).
fn cdna3_b128() -> Vec<Vec<u8>> {
    keyed(64, |l| bit(l, 5) << 2 | (bit(l, 4) ^ bit(l, 2)) << 1 | bit(l, 3))
}

/// gfx950's `ds_read_b128` phases: key (lane bit 5, bit 4 ^ bit 3 ^ bit 2).
fn cdna4_b128() -> Vec<Vec<u8>> {
    keyed(64, |l| bit(l, 5) << 1 | (bit(l, 4) ^ bit(l, 3) ^ bit(l, 2)))
}

/// gfx1100's `ds_read_b128` phases: key (bit 4 ^ bit 2, bit 3).
fn rdna3_b128() -> Vec<Vec<u8>> {
    keyed(32, |l| (bit(l, 4) ^ bit(l, 2)) << 1 | bit(l, 3))
}

fn grouping_phases(g: &Grouping) -> Vec<Vec<u8>> {
    (0..g.phases()).map(|p| g.phase(p).to_vec()).collect()
}

const ROCKE: &str = "rocKE (rocm-libraries PRs #11094/#11096/#11097): phase keys of the gfx90a profile (b32: lane bit \
5; b64: bits 5, 4; b128 reads: 5, 4^2, 3; b128 writes: 5, 4, 3; 128-byte bank period), gfx942 following it; gfx950's \
profile: ds_read_b64 by bit 5 and ds_read_b128 by 5, 4^3^2 on a 256-byte period; lanes reading one word broadcast";
const ROCROLLER: &str = "rocRoller LDSModel.cpp: getThreadsPerClock (16, 8, 4, 4 consecutive lanes for b32, b64, \
b96, b128; gfx950 reads 16, 16, 4, 8), getNumLDSBanks (64 only for gfx950's ds_read_b64/b128), \
createBankToAddressCounts (every lane's dwords counted per bank: no broadcast)";
const TRITON_9662: &str = "Triton PR #9662: consecutive lanes filling the banks in one phase (lanes = banks x 4 / \
bytes), banks from TargetInfo::getSharedMemoryBanks (64 on CDNA4, 32 before); lanes reading one word broadcast";
const TRITON_11365: &str = "Triton PR #11365: ds_read_b128 phases as XOR bases of the lane (MI300: bit 5, 4^2, 3 on \
32 banks; MI350: bit 5, 4^3^2 on 64), gfx1250's ds_read_b96/b128 in sequential 8-lane groups on 64 banks (the GFX12 \
ISA); other reads as #9662";
const IREE: &str = "IREE PRs #24428/#24471: CDNA1-3 reads in consecutive phases on 32 banks (b32 2 x 32, b64 4 x 16, \
b128 8 x 8); CDNA4 (gfx950) on 64 banks, reads of up to 8 bytes in consecutive phases (b32 1 x 64, b64 2 x 32) and \
ds_read_b128 in 4 phases (bit 5, 4^3^2); broadcasts not stated";
const AMD_SHARK: &str = "nod-ai/amd-shark-ai docs/empirical-lds (reads measured by latency and SQ_LDS_BANK_CONFLICT: \
MI300X b32 2 x 32, b64 4 x 16, b128 8 XOR phases on 32 banks; MI350X b32 1 x 64, b64 2 x 32, b128 4 XOR phases on 64 \
banks; W7900 and RX 9070 XT 1 x 32, 2 x 16, b128 4 phases on 32 banks); a read of one word by many lanes is a \
broadcast";
const HIPKITTENS: &str = "HipKittens analysis/paper_experiments/phases (two-lane rocprofv3 probes on MI350X): \
ds_read_b64 2 x 32 on 64 banks, ds_read_b128 4 XOR phases on 64 banks, ds_read_b96 gfx942's 8 b128 phases on 32 \
banks, ds_write_b64 4 x 16 on 32 banks; two lanes at distinct words only: broadcasts not probed";
const MI450_BLOG: &str = "AMD's ROCm blog \"A Deep Dive into LDS Optimizations on AMD Instinct MI450 GPUs\" (28 Aug \
2026): gfx1250's ds_load_b128 serves the wave in groups of 16 lanes, each covering the 64 banks once (one port \
measured at 255.4 of 256 bytes a cycle); ds_load_tr meets the banks as the plain load of its width; broadcasts not \
stated";

/// The hardware chip an `Arch` models (gfx950-b32x64 is cktile's variant
/// of gfx950, not another chip).
fn hardware(arch: &Arch) -> Chip {
    match arch.chip() {
        Chip::Gfx950B32x64 => Chip::Gfx950,
        c => c,
    }
}

impl Model {
    /// The name `--model` takes.
    pub const fn name(self) -> &'static str {
        match self {
            Model::Cktile => "cktile",
            Model::Rocke => "rocke",
            Model::RocRoller => "rocroller",
            Model::TritonContiguous => "triton-9662",
            Model::TritonXor => "triton-11365",
            Model::Iree => "iree",
            Model::AmdShark => "amd-shark",
            Model::HipKittens => "hipkittens",
            Model::Mi450Blog => "mi450-blog",
        }
    }

    /// The model with this name.
    ///
    /// ```
    /// use cktile::reports::models::Model;
    /// let e = Model::by_name("nvidia").unwrap_err();
    /// assert!(e.to_string().contains("expected one of: cktile, rocke"));
    /// ```
    pub fn by_name(name: &str) -> Result<Model, Error> {
        MODELS.into_iter().find(|m| m.name() == name.trim()).ok_or_else(|| {
            Error::parameter(ParameterProblem::UnknownName { name: Snippet::new(name), valid: MODEL_NAMES })
        })
    }

    /// What the model's answers rest on.
    pub const fn evidence(self) -> Evidence {
        match self {
            Model::Cktile => Evidence::Table,
            Model::Rocke | Model::Mi450Blog => Evidence::Document,
            Model::RocRoller | Model::TritonContiguous | Model::TritonXor | Model::Iree => Evidence::Model,
            Model::AmdShark | Model::HipKittens => Evidence::Measurement,
        }
    }

    /// Its source, in words.
    ///
    /// ```
    /// assert!(cktile::reports::models::Model::RocRoller.source().contains("LDSModel.cpp"));
    /// ```
    pub const fn source(self) -> &'static str {
        match self {
            Model::Cktile => "cktile's rule table (cktile rules): each row sourced, assumed or disputed",
            Model::Rocke => ROCKE,
            Model::RocRoller => ROCROLLER,
            Model::TritonContiguous => TRITON_9662,
            Model::TritonXor => TRITON_11365,
            Model::Iree => IREE,
            Model::AmdShark => AMD_SHARK,
            Model::HipKittens => HIPKITTENS,
            Model::Mi450Blog => MI450_BLOG,
        }
    }

    /// The chips and instructions the model covers, for refusals.
    const fn covers(self) -> &'static str {
        match self {
            Model::Cktile => "every chip and instruction of cktile's table",
            Model::Rocke => "it covers ds_read/ds_write b32, b64, b128 on gfx90a, gfx942, gfx950",
            Model::RocRoller => "it covers ds_read/ds_write b32, b64, b96, b128 on gfx90a, gfx942, gfx950",
            Model::TritonContiguous => "it covers ds_read b32, b64, b128 on gfx90a, gfx942, gfx950",
            Model::TritonXor => {
                "it covers ds_read b32, b64 on gfx90a, gfx942, gfx950, ds_read_b128 on gfx942, gfx950, and \
                 ds_read_b96/b128 on gfx1250"
            }
            Model::Iree => "it covers ds_read b32, b64, b128 on gfx90a, gfx942, gfx950",
            Model::AmdShark => {
                "it covers ds_read b32, b64, b128 on gfx942, gfx950, gfx1100, gfx1201 (measured reads only)"
            }
            Model::HipKittens => "it covers ds_read_b64, ds_read_b96, ds_read_b128 and ds_write_b64 on gfx950",
            Model::Mi450Blog => "it covers ds_read_b128 (ds_load_b128) and ds_load_tr16_b128 on gfx1250",
        }
    }

    fn silent(self, arch: &Arch, op: Op, why: &'static str) -> Error {
        Error::analyzer(AnalyzerProblem::ModelSilent { model: self.name(), arch: arch.name(), op, why })
    }
}

/// `model`'s rule for `op` on `arch`, or an error naming the model, the
/// chip and the instruction where its source is silent.
///
/// ```
/// use cktile::analyzer::{arch, Op};
/// use cktile::reports::{models::{model_rule, Model}};
/// let e = model_rule(Model::Rocke, &arch::GFX1100, Op::DsRead { bits: 32 }).unwrap_err();
/// assert_eq!(e.to_string(), "the rocke model says nothing of ds_read_b32 on gfx1100: it covers ds_read/ds_write b32, b64, b128 on gfx90a, gfx942, gfx950");
/// ```
pub fn model_rule(model: Model, arch: &Arch, op: Op) -> Result<ModelRule, Error> {
    let silent = || model.silent(arch, op, model.covers());
    if !op.runs_on(arch) {
        return Err(Error::analyzer(AnalyzerProblem::Unsupported { op, arch: arch.name() }));
    }
    let chip = hardware(arch);
    let (read, bits) = match op {
        Op::DsRead { bits } => (true, bits),
        Op::DsWrite { bits } => (false, bits),
        // The blog's transposing load meets the banks as ds_load_b128.
        Op::DsLoadTr { element_bits: 16 } if model == Model::Mi450Blog => (true, 128),
        _ if model == Model::Cktile => (op.is_read(), 0),
        _ => return Err(silent()),
    };
    let cdna = matches!(chip, Chip::Gfx90a | Chip::Gfx942 | Chip::Gfx950);
    let gfx950 = chip == Chip::Gfx950;
    let ok = |phases: Vec<Vec<u8>>, banks: u32, broadcast: Option<bool>, text: &'static str| {
        Ok(ModelRule { phases, banks, broadcast, text })
    };
    match model {
        Model::Cktile => {
            let r = rule(arch, op);
            ok(grouping_phases(&r.grouping), r.banks, Some(op.shares_words()), r.provenance.text())
        }
        Model::Rocke => match (cdna, read, bits) {
            (true, true, 64) if gfx950 => ok(keyed(64, |l| bit(l, 5)), 64, Some(true), ROCKE),
            (true, true, 128) if gfx950 => ok(cdna4_b128(), 64, Some(true), ROCKE),
            (true, _, 32) => ok(keyed(64, |l| bit(l, 5)), 32, Some(true), ROCKE),
            (true, _, 64) => ok(keyed(64, |l| bit(l, 5) << 1 | bit(l, 4)), 32, Some(true), ROCKE),
            (true, true, 128) => ok(cdna3_b128(), 32, Some(true), ROCKE),
            (true, false, 128) => ok(keyed(64, |l| l >> 3), 32, Some(true), ROCKE),
            _ => Err(silent()),
        },
        Model::RocRoller => {
            if !cdna || !matches!(bits, 32 | 64 | 96 | 128) {
                return Err(silent());
            }
            let dwords = bits / 32;
            let per = match (gfx950 && read, dwords) {
                (true, 1 | 2) => 16,
                (true, 3) => 4,
                (true, _) => 8,
                (false, 1) => 16,
                (false, 2) => 8,
                (false, _) => 4,
            };
            let banks = if gfx950 && read && matches!(dwords, 2 | 4) { 64 } else { 32 };
            ok(consecutive(64, per), banks, Some(false), ROCROLLER)
        }
        Model::TritonContiguous | Model::TritonXor => {
            if model == Model::TritonXor && chip == Chip::Gfx1250 && read && matches!(bits, 96 | 128) {
                return ok(consecutive(32, 8), 64, Some(true), TRITON_11365);
            }
            if !cdna || !read || !matches!(bits, 32 | 64 | 128) {
                return Err(silent());
            }
            let banks = if gfx950 { 64 } else { 32 };
            if model == Model::TritonXor && bits == 128 {
                return match chip {
                    Chip::Gfx942 => ok(cdna3_b128(), 32, Some(true), TRITON_11365),
                    Chip::Gfx950 => ok(cdna4_b128(), 64, Some(true), TRITON_11365),
                    _ => Err(silent()),
                };
            }
            let text = if model == Model::TritonXor { TRITON_11365 } else { TRITON_9662 };
            ok(consecutive(64, banks * 32 / bits), banks, Some(true), text)
        }
        Model::Iree => match (chip, read, bits) {
            (Chip::Gfx950, true, 128) => ok(cdna4_b128(), 64, None, IREE),
            (Chip::Gfx950, true, 32 | 64) => ok(consecutive(64, 2048 / bits), 64, None, IREE),
            (Chip::Gfx90a | Chip::Gfx942, true, 32 | 64 | 128) => ok(consecutive(64, 1024 / bits), 32, None, IREE),
            _ => Err(silent()),
        },
        Model::AmdShark => match (chip, read, bits) {
            (Chip::Gfx942, true, 32) => ok(consecutive(64, 32), 32, Some(true), AMD_SHARK),
            (Chip::Gfx942, true, 64) => ok(consecutive(64, 16), 32, Some(true), AMD_SHARK),
            (Chip::Gfx942, true, 128) => ok(cdna3_b128(), 32, Some(true), AMD_SHARK),
            (Chip::Gfx950, true, 32) => ok(consecutive(64, 64), 64, Some(true), AMD_SHARK),
            (Chip::Gfx950, true, 64) => ok(consecutive(64, 32), 64, Some(true), AMD_SHARK),
            (Chip::Gfx950, true, 128) => ok(cdna4_b128(), 64, Some(true), AMD_SHARK),
            (Chip::Gfx1100 | Chip::Gfx1201, true, 32) => ok(consecutive(32, 32), 32, Some(true), AMD_SHARK),
            (Chip::Gfx1100 | Chip::Gfx1201, true, 64) => ok(consecutive(32, 16), 32, Some(true), AMD_SHARK),
            (Chip::Gfx1100, true, 128) => ok(rdna3_b128(), 32, Some(true), AMD_SHARK),
            (Chip::Gfx1201, true, 128) => ok(consecutive(32, 8), 32, Some(true), AMD_SHARK),
            _ => Err(silent()),
        },
        Model::HipKittens => match (chip, read, bits) {
            (Chip::Gfx950, true, 64) => ok(consecutive(64, 32), 64, None, HIPKITTENS),
            (Chip::Gfx950, true, 128) => ok(cdna4_b128(), 64, None, HIPKITTENS),
            (Chip::Gfx950, true, 96) => ok(cdna3_b128(), 32, None, HIPKITTENS),
            (Chip::Gfx950, false, 64) => ok(consecutive(64, 16), 32, None, HIPKITTENS),
            _ => Err(silent()),
        },
        Model::Mi450Blog => match (chip, read, bits) {
            (Chip::Gfx1250, true, 128) => ok(consecutive(32, 16), 64, None, MI450_BLOG),
            _ => Err(silent()),
        },
    }
}

/// `model`'s answer for one instruction: the most words (with a broadcast:
/// distinct words; without: lanes' words) one bank serves in one phase, 1
/// when conflict-free, 0 when no lane is active. `addresses[l]` is lane
/// `l`'s byte address, `None` for an inactive lane; the addresses are
/// checked as [`count`](crate::analyzer::count) checks them.
///
/// Refused where the model's source is silent: its rule ([`model_rule`]),
/// a partial wave for rocRoller (its model takes every lane's address), and
/// lanes of one phase sharing a word for the models whose sources never
/// say what that costs (IREE, HipKittens).
///
/// ```
/// use cktile::analyzer::{arch, Op};
/// use cktile::reports::{models::{answer, Model}};
/// // gfx950 ds_read_b32, lanes 0-31 at 4L and 32-63 at 4(L-32) + 256.
/// let a: Vec<Option<u64>> = (0..64).map(|l| Some(4 * (l % 32) + 256 * (l / 32))).collect();
/// let b32 = Op::DsRead { bits: 32 };
/// assert_eq!(answer(Model::AmdShark, &arch::GFX950, b32, &a)?, 2);
/// assert_eq!(answer(Model::Rocke, &arch::GFX950, b32, &a)?, 1);
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn answer(model: Model, arch: &Arch, op: Op, addresses: &[Option<u64>]) -> Result<u32, Error> {
    Ok(phase_ways(model, arch, op, addresses)?.into_iter().max().unwrap_or(0))
}

/// `model`'s bank-conflict cycles for one instruction, what rocprof's
/// `SQ_LDS_BANK_CONFLICT` counts per instruction: the passes beyond one per
/// phase, the sum over its phases of ways minus one. Refused as
/// [`answer`] is.
///
/// ```
/// use cktile::analyzer::{arch, Op};
/// use cktile::reports::{models::{conflict_cycles, Model}};
/// // MI300X's ds_read_b32 at stride 128: 62 measured (nod-ai), 2 phases of 32 lanes on one bank.
/// let a: Vec<Option<u64>> = (0..64).map(|l| Some(128 * l)).collect();
/// let b32 = Op::DsRead { bits: 32 };
/// assert_eq!(conflict_cycles(Model::AmdShark, &arch::GFX942, b32, &a)?, 62);
/// assert_eq!(conflict_cycles(Model::RocRoller, &arch::GFX942, b32, &a)?, 60);
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn conflict_cycles(model: Model, arch: &Arch, op: Op, addresses: &[Option<u64>]) -> Result<u32, Error> {
    Ok(phase_ways(model, arch, op, addresses)?.into_iter().map(|w| w.saturating_sub(1)).sum())
}

/// The ways of every phase of every access, in order: the one count
/// [`answer`] and [`conflict_cycles`] read.
fn phase_ways(model: Model, arch: &Arch, op: Op, addresses: &[Option<u64>]) -> Result<Vec<u32>, Error> {
    crate::analyzer::model::validate(arch, op, addresses)?;
    let r = model_rule(model, arch, op)?;
    if model == Model::RocRoller && (addresses.len() < arch.wave() as usize || addresses.iter().any(Option::is_none)) {
        return Err(model.silent(arch, op, "its model takes every lane's address (a full wave)"));
    }
    let bytes = op.access_bytes();
    let mut out = Vec::new();
    for access in 0..op.accesses() {
        for phase in &r.phases {
            // (bank, word) of every active lane's access in this phase.
            let mut words: Vec<(u64, u64)> = Vec::new();
            for &l in phase {
                let Some(Some(a)) = addresses.get(usize::from(l)) else { continue };
                let start = a + op.access_offset(access);
                for w in start / 4..(start + bytes).div_ceil(4) {
                    words.push((w % u64::from(r.banks), w));
                }
            }
            words.sort_unstable();
            let shared = words.windows(2).any(|p| p[0] == p[1]);
            if shared && r.broadcast.is_none() {
                return Err(model.silent(
                    arch,
                    op,
                    "lanes of one phase share a word, and its source does not say whether they broadcast",
                ));
            }
            if r.broadcast == Some(true) {
                words.dedup();
            }
            let mut worst = 0;
            let mut i = 0;
            while i < words.len() {
                let j = words[i..].iter().take_while(|w| w.0 == words[i].0).count();
                worst = worst.max(j as u32);
                i += j;
            }
            out.push(worst);
        }
    }
    Ok(out)
}

/// A model's answer on a whole tile under an access pattern: the worst
/// ways over its instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileAnswer {
    /// Instructions the pattern issues over the tile.
    pub instructions: usize,
    /// The most ways of any instruction.
    pub max_ways: u32,
    /// The first instruction with them.
    pub worst_instruction: usize,
}

/// `model`'s answer on every instruction `pattern` issues over the 2-D
/// tile `desc` (elements of `element_bytes`) on `arch`: the worst ways,
/// or the first refusal (naming the model, chip and instruction).
///
/// ```
/// use cktile::analyzer::{arch, Op, Pattern};
/// use cktile::reports::{models::{answer_tile, Model}};
/// let tile = cktile::Descriptor::packed(&[128, 64])?;
/// let p = Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } };
/// assert_eq!(answer_tile(Model::Cktile, &tile, 2, &arch::GFX942, p)?.max_ways, 4);
/// assert_eq!(answer_tile(Model::TritonContiguous, &tile, 2, &arch::GFX942, p)?.max_ways, 8);
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn answer_tile(
    model: Model,
    desc: &crate::Descriptor,
    element_bytes: usize,
    arch: &Arch,
    pattern: crate::analyzer::Pattern,
) -> Result<TileAnswer, Error> {
    pattern.check_arch(arch)?;
    let lengths = desc.lengths();
    if lengths.len() != 2 {
        return Err(Error::descriptor(crate::DescriptorProblem::NotTwoDimensional { dims: lengths.len() }));
    }
    let dim = |i: usize| usize::try_from(lengths.get(i)).unwrap_or(0);
    let wave = arch.wave() as usize;
    let n = pattern.instructions(dim(0), dim(1), element_bytes, wave)?;
    let mut out = TileAnswer { instructions: n, max_ways: 0, worst_instruction: 0 };
    for i in 0..n {
        let a = crate::analyzer::tile::lane_addresses(desc, element_bytes, arch, pattern, i)?;
        out.take(i, answer(model, arch, pattern.op(), &a[..wave.min(a.len())])?);
    }
    Ok(out)
}

impl TileAnswer {
    /// Counts instruction `i`'s ways.
    fn take(&mut self, i: usize, ways: u32) {
        if ways > self.max_ways {
            self.max_ways = ways;
            self.worst_instruction = i;
        }
    }
}

/// `model`'s answer on every instruction of the tile window of `op` over
/// the distribution `d` at the origin of `desc` (checked as
/// [`analyze_distribution`](crate::reports::analyze_distribution) checks it): the
/// worst ways over every warp's instructions, or the first refusal.
///
/// ```
/// use cktile::analyzer::{arch, Op};
/// use cktile::reports::{models::{answer_window, Model}};
/// use cktile::distribution::{catalogue, Distribution};
/// let a = Distribution::new(catalogue::mfma_a(16, 32)?)?;
/// let tile = cktile::Descriptor::packed(&[16, 32])?;
/// let read = Op::DsRead { bits: 128 };
/// assert_eq!(answer_window(Model::Cktile, &tile, 2, &arch::GFX942, &a, read)?.max_ways, 2);
/// assert_eq!(answer_window(Model::RocRoller, &tile, 2, &arch::GFX942, &a, read)?.max_ways, 2);
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn answer_window(
    model: Model,
    desc: &crate::Descriptor,
    element_bytes: usize,
    arch: &Arch,
    d: &crate::distribution::Distribution,
    op: Op,
) -> Result<TileAnswer, Error> {
    let (w, _) = crate::analyzer::window::fitted(desc, element_bytes, arch, d, op)?;
    w.check_contiguous(desc)?;
    let program = w.program_over(desc)?;
    let mut out = TileAnswer { instructions: w.instructions(), max_ways: 0, worst_instruction: 0 };
    for i in 0..w.instructions() {
        let lanes = (0..arch.wave() as usize)
            .map(|lane| w.address(&program, element_bytes, i, lane))
            .collect::<Result<Vec<_>, Error>>()?;
        out.take(i, answer(model, arch, op, &lanes)?);
    }
    Ok(out)
}
