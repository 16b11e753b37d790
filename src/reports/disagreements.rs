//! Where the public models of AMD's LDS disagree: a corpus of access
//! patterns for every (chip, instruction), each answered by every
//! [`Model`], and the patterns on which two models that answer give
//! different answers.
//!
//! The corpus ([`corpus`]), per instruction of `B` bytes on a chip of `W`
//! lanes:
//!
//! - every lane on one address (a broadcast);
//! - rows of `g` lanes at twice their width apart: lane `L` at
//!   `B * (L % g) + 2gB * (L / g)`, `g` = 2, 4, ... up to half the wave;
//! - strides: lane `L` at `L * s` for `s` = `B`, `2B`, ... up to 1024
//!   bytes, and `128 + B`, `256 + B` (padded rows);
//! - blocks: lane `L` at `B * (L % g) + R * (L / g)`, `g` lanes of a row,
//!   rows `R` = 64 to 1024 bytes apart;
//! - XOR swizzles: row `L / g`, vector `(L % g) ^ (row % g)`, rows `g * B`,
//!   128 or 256 bytes apart;
//! - shared words: `g` = 2, 4, 8 consecutive lanes on one address;
//! - partial waves: the first `n` lanes only, at strides `B`, 128 and 256;
//! - two-lane probes: lane 0 at 0 and lane `k` at 128, 256 or 1024 bytes
//!   (HipKittens' and the `amd_probe` method);
//! - the catalogue's GEMM layouts (`ck-universal-a`, `cute-swizzle`,
//!   `row-padded`, `packed`) under their natural reads and writes: the
//!   `rows` pattern with the instruction, and on wave64 chips the `mfma16`
//!   and `mfma32` operand reads with `ds_read_b64`/`b128`.
//!
//! ```
//! use cktile::analyzer::{arch, Op};
//! use cktile::reports::disagreements::disagreements_on;
//! let found = disagreements_on(&arch::GFX942, Op::DsRead { bits: 128 });
//! // The issue's two examples are among them.
//! assert!(found.iter().any(|d| d.case.description == "lane L at byte 16*(L%4) + 128*(L/4)"));
//! assert!(found.iter().any(|d| d.case.description == "every lane at byte 0"));
//! ```

use super::models::{MODELS, Model, answer};
use crate::Error;
use crate::analyzer::arch::{self, Arch};
use crate::analyzer::op::Op;
use crate::analyzer::pattern::Pattern;
use crate::analyzer::tile::lane_addresses;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// The chips the models are compared on: each AMD chip once (cktile's
/// gfx950-b32x64 variant is nod-ai's `ds_read_b32` rule, which the
/// amd-shark model already carries).
pub const CHIPS: [Arch; 6] = [arch::GFX90A, arch::GFX942, arch::GFX950, arch::GFX1100, arch::GFX1201, arch::GFX1250];

/// The instructions compared: the single-address reads and writes the
/// models describe.
pub const OPS: [Op; 8] = [
    Op::DsRead { bits: 32 },
    Op::DsRead { bits: 64 },
    Op::DsRead { bits: 96 },
    Op::DsRead { bits: 128 },
    Op::DsWrite { bits: 32 },
    Op::DsWrite { bits: 64 },
    Op::DsWrite { bits: 96 },
    Op::DsWrite { bits: 128 },
];

/// One access pattern of the corpus: what it is, and every lane's byte
/// address (`None`: inactive).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The pattern, in words that name its formula or its catalogue entry.
    pub description: String,
    /// Lane `l`'s byte address.
    pub addresses: Vec<Option<u64>>,
}

/// Every model's answer on one case: ways (1 = conflict-free), or the
/// refusal's message where the model's source is silent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The chip's name.
    pub arch: &'static str,
    /// The instruction.
    pub op: Op,
    /// The access pattern.
    pub case: Case,
    /// Each model's answer, in [`MODELS`] order.
    pub answers: Vec<(Model, Result<u32, String>)>,
}

impl Disagreement {
    /// The answers alone, `None` for a refusal: the key patterns are
    /// grouped by.
    pub fn signature(&self) -> Vec<Option<u32>> {
        self.answers.iter().map(|(_, a)| a.as_ref().ok().copied()).collect()
    }

    /// cktile's own answer.
    pub fn cktile(&self) -> Option<u32> {
        self.answers.iter().find(|(m, _)| *m == Model::Cktile).and_then(|(_, a)| a.as_ref().ok().copied())
    }
}

fn case(description: String, addresses: Vec<Option<u64>>) -> Case {
    Case { description, addresses }
}

fn all(wave: u64, f: impl Fn(u64) -> u64) -> Vec<Option<u64>> {
    (0..wave).map(|l| Some(f(l))).collect()
}

/// The catalogue's GEMM layouts and their natural accesses on `arch` with
/// `op`: (entry, pattern).
fn catalogue(arch: &Arch, op: Op) -> Vec<(String, Pattern)> {
    let banks = if arch.max_banks() == 64 { 64 } else { 32 };
    let entries = [
        format!("ck-universal-a:m=128,k=64,dtype=fp16,banks={banks}"),
        String::from("cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64,dtype=fp16"),
        String::from("row-padded:rows=64,cols=64,pad=8,dtype=fp16"),
        String::from("row-padded:rows=64,cols=64,pad=0,dtype=fp16"),
    ];
    let mut out = Vec::new();
    for e in entries {
        out.push((e.clone(), Pattern::Rows { op }));
        out.push((e.clone(), Pattern::Columns { op }));
        if arch.wave() == 64 && matches!(op, Op::DsRead { bits: 64 | 128 }) {
            out.push((e.clone(), Pattern::Mfma { mdim: 16, op }));
            out.push((e, Pattern::Mfma { mdim: 32, op }));
        }
    }
    out
}

fn pattern_name(p: Pattern) -> &'static str {
    match p {
        Pattern::Rows { .. } => "rows",
        Pattern::Columns { .. } => "columns",
        Pattern::Mfma { mdim: 16, .. } => "mfma16",
        Pattern::Mfma { .. } => "mfma32",
        _ => "custom",
    }
}

/// The access patterns the models are compared on, for `op` on `arch`
/// (see the module docs); patterns the instruction cannot make (a
/// misaligned address) are left out, and each address list appears once.
///
/// ```
/// use cktile::analyzer::{arch, Op};
/// use cktile::reports::disagreements::corpus;
/// let c = corpus(&arch::GFX942, Op::DsRead { bits: 128 });
/// assert!(c.iter().any(|c| c.description == "every lane at byte 0"));
/// assert!(c.iter().all(|c| c.addresses.len() == 64));
/// ```
pub fn corpus(arch: &Arch, op: Op) -> Vec<Case> {
    let wave = u64::from(arch.wave());
    let b = op.access_bytes();
    let mut out: Vec<Case> = Vec::new();
    out.push(case(String::from("every lane at byte 0"), all(wave, |_| 0)));
    // Rows of g lanes whose pitch is twice their width: the issue's two
    // gfx942/gfx950 cases are of this family.
    let mut g = 2;
    while g < wave {
        out.push(case(
            format!("lane L at byte {b}*(L%{g}) + {}*(L/{g})", 2 * g * b),
            all(wave, |l| b * (l % g) + 2 * g * b * (l / g)),
        ));
        g *= 2;
    }
    let mut strides: Vec<u64> = (0..12).map(|k| b << k).filter(|&s| s <= 1024).collect();
    strides.extend([128 + b, 256 + b]);
    for s in strides {
        out.push(case(format!("lane L at byte {s}*L"), all(wave, |l| s * l)));
    }
    for g in [2u64, 4, 8, 16] {
        for r in [64u64, 128, 256, 512, 1024] {
            if g * b <= r && g < wave {
                out.push(case(
                    format!("lane L at byte {b}*(L%{g}) + {r}*(L/{g})"),
                    all(wave, |l| b * (l % g) + r * (l / g)),
                ));
            }
        }
    }
    for g in [4u64, 8] {
        for r in [g * b, 128, 256] {
            if g * b <= r {
                out.push(case(
                    format!("lane L at byte {r}*(L/{g}) + {b}*((L%{g}) ^ ((L/{g})%{g}))"),
                    all(wave, |l| r * (l / g) + b * ((l % g) ^ ((l / g) % g))),
                ));
            }
        }
    }
    for g in [2u64, 4, 8] {
        out.push(case(
            format!("lanes in groups of {g} on one address: lane L at byte {b}*(L/{g})"),
            all(wave, |l| b * (l / g)),
        ));
    }
    for n in [1u64, 2, 4, 8, 16, 32] {
        if n < wave {
            for s in [b, 128, 256] {
                let a = (0..wave).map(|l| (l < n).then_some(s * l)).collect();
                out.push(case(format!("lanes 0-{} only, lane L at byte {s}*L", n - 1), a));
            }
        }
    }
    for d in [128u64, 256, 1024] {
        for k in 1..wave {
            let a = (0..wave)
                .map(|l| {
                    if l == 0 {
                        Some(0)
                    } else if l == k {
                        Some(d)
                    } else {
                        None
                    }
                })
                .collect();
            out.push(case(format!("lanes 0 and {k} only, at bytes 0 and {d}"), a));
        }
    }
    for (entry, p) in catalogue(arch, op) {
        let Ok(desc) = crate::layouts::resolve(&entry) else { continue };
        let lengths = desc.lengths();
        if lengths.len() != 2 {
            continue;
        }
        let (Ok(rows), Ok(cols)) = (usize::try_from(lengths.get(0)), usize::try_from(lengths.get(1))) else { continue };
        let Ok(n) = p.instructions(rows, cols, 2, arch.wave() as usize) else { continue };
        for i in 0..n {
            let Ok(a) = lane_addresses(&desc, 2, arch, p, i) else { break };
            let a = a[..arch.wave() as usize].to_vec();
            out.push(case(format!("{entry} under `{}`, instruction {i}", pattern_name(p)), a));
        }
    }
    // Each address list once (the first description wins), and only what
    // the instruction can make.
    let mut seen: Vec<Vec<Option<u64>>> = Vec::new();
    out.retain(|c| {
        let ok = crate::analyzer::model::validate(arch, op, &c.addresses).is_ok() && !seen.contains(&c.addresses);
        if ok {
            seen.push(c.addresses.clone());
        }
        ok
    });
    out
}

/// Every model's answer on `case`.
///
/// ```
/// use cktile::analyzer::{arch, Op};
/// use cktile::reports::{disagreements::{answers, corpus}};
/// let op = Op::DsRead { bits: 128 };
/// let c = &corpus(&arch::GFX942, op)[0];
/// let a = answers(&arch::GFX942, op, c);
/// assert_eq!(a[0].1, Ok(1)); // cktile: a broadcast
/// ```
pub fn answers(arch: &Arch, op: Op, case: &Case) -> Vec<(Model, Result<u32, String>)> {
    MODELS
        .iter()
        .map(|&m| (m, answer(m, arch, op, &case.addresses).map_err(|e: Error| alloc::string::ToString::to_string(&e))))
        .collect()
}

/// The corpus' patterns on which two models that answer disagree, for
/// `op` on `arch`.
pub fn disagreements_on(arch: &Arch, op: Op) -> Vec<Disagreement> {
    corpus(arch, op)
        .into_iter()
        .filter_map(|case| {
            let answers = answers(arch, op, &case);
            let mut given: Vec<u32> = answers.iter().filter_map(|(_, a)| a.as_ref().ok().copied()).collect();
            given.sort_unstable();
            given.dedup();
            (given.len() > 1).then_some(Disagreement { arch: arch.name(), op, case, answers })
        })
        .collect()
}

/// Every disagreement on every chip of [`CHIPS`] (or only `only`) and
/// instruction of [`OPS`], chips then instructions in those lists' order.
///
/// ```
/// use cktile::analyzer::arch;
/// use cktile::reports::disagreements::disagreements;
/// let d = disagreements(Some(&arch::GFX1201));
/// assert!(d.iter().all(|d| d.arch == "gfx1201"));
/// ```
pub fn disagreements(only: Option<&Arch>) -> Vec<Disagreement> {
    let mut out = Vec::new();
    // gfx950-b32x64 is gfx950 to the models.
    let wanted = |a: &Arch| only.is_none_or(|o| o.chip() == a.chip() || (o.is_gfx950() && a.is_gfx950()));
    for a in CHIPS.iter().filter(|a| wanted(a)) {
        for op in OPS {
            out.extend(disagreements_on(a, op));
        }
    }
    out
}
