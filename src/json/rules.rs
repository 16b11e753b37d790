//! The rule table of `cktile rules --json`, and a public model's answer for
//! `cktile bank --model`.

use crate::Error;
use crate::analyzer::{Arch, Op};
use crate::render::rules::RuleRow;
use crate::reports::models::{Model, answer, model_rule};
use crate::reports::probe::Findings;
use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;

/// One row of `cktile rules --json`: a (chip, instruction) pair with its
/// bank count, its phases (lanes as ranges, phases separated by ` | `), its
/// provenance (`sourced`, `assumption` or `disputed`) and the sources, the
/// assumption or the dispute behind it. The command prints one array of
/// these, in [`rows`](crate::render::rules::rows) order.
///
/// ```
/// use cktile::analyzer::arch;
/// use cktile::json::RuleJson;
/// use cktile::render::rules::rows;
/// let rows = rows(Some(&arch::GFX942));
/// let b64 = rows.iter().find(|r| r.op == "ds_read_b64").unwrap();
/// let json = serde_json::to_string(&RuleJson::new(b64))?;
/// assert!(json.starts_with(
///     r#"{"arch":"gfx942","banks":32,"op":"ds_read_b64","phases":"0-15 | 16-31 | 32-47 | 48-63","provenance":"sourced","source":"#
/// ));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct RuleJson<'a> {
    arch: &'static str,
    banks: u32,
    op: &'static str,
    phases: &'a str,
    provenance: &'static str,
    source: &'static str,
}

impl<'a> RuleJson<'a> {
    /// The view of one row of the table.
    ///
    /// ```
    /// let rows = cktile::render::rules::rows(None);
    /// let all: Vec<_> = rows.iter().map(cktile::json::RuleJson::new).collect();
    /// assert_eq!(all.len(), rows.len());
    /// ```
    pub fn new(row: &'a RuleRow) -> RuleJson<'a> {
        RuleJson {
            arch: row.arch,
            banks: row.banks,
            op: row.op,
            phases: &row.phases,
            provenance: row.kind,
            source: row.text,
        }
    }
}

/// One instruction of [`FindingsJson`].
#[derive(Clone, Debug, Serialize)]
struct OpFindingJson {
    banks: Option<u32>,
    banks_agree: Option<bool>,
    cktile_banks: u32,
    cktile_phases: Vec<Vec<u8>>,
    op: &'static str,
    phases: Vec<Vec<u8>>,
    phases_agree: Option<bool>,
    problem: Option<String>,
}

/// One stride of [`FindingsJson`].
#[derive(Clone, Debug, Serialize)]
struct StrideFindingJson {
    agrees: bool,
    cktile: u64,
    measured: u64,
    models: Vec<ModelCyclesJson>,
    op: &'static str,
    stride: u64,
    supports: Vec<&'static str>,
}

/// One model's count in [`StrideFindingJson`]: its conflict cycles, `None`
/// where its source is silent.
#[derive(Clone, Debug, Serialize)]
struct ModelCyclesJson {
    cycles: Option<u32>,
    model: &'static str,
}

/// `cktile rules --ingest FILE --json`: the probe run (`arch`, `device`,
/// `date`), whether everything agrees with cktile (`all_agree`), per
/// instruction the measured `banks` and `phases` (lane lists) beside
/// cktile's, with `problem` when the phases could not be derived, and per
/// stride the measured cycles beside the analyzer's count, each public
/// model's (`models`) and the models it `supports`.
///
/// ```
/// use cktile::reports::probe::{ingest, parse};
/// let f = ingest(&parse("chip gfx942\nstride ds_read_b32 - - 8 2\n")?)?;
/// let json = serde_json::to_string(&cktile::json::FindingsJson::new(&f)).unwrap();
/// assert!(json.starts_with(r#"{"all_agree":true,"arch":"gfx942","date":"","device":"","ops":[],"patterns":[],"strides":[{"agrees":true,"cktile":2,"measured":2,"models":[{"cycles":2,"model":"cktile"},{"cycles":2,"model":"rocke"},{"cycles":0,"model":"rocroller"},"#));
/// assert!(json.ends_with(r#""op":"ds_read_b32","stride":8,"supports":["cktile","rocke","triton-9662","triton-11365","iree","amd-shark"]}]}"#));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct FindingsJson {
    all_agree: bool,
    arch: &'static str,
    date: String,
    device: String,
    ops: Vec<OpFindingJson>,
    patterns: Vec<PatternFindingJson>,
    strides: Vec<StrideFindingJson>,
}

/// One measured disagreement of [`FindingsJson`].
#[derive(Clone, Debug, Serialize)]
struct PatternFindingJson {
    agrees: bool,
    index: usize,
    measured: u64,
    models: Vec<ModelCyclesJson>,
    op: &'static str,
    pattern: String,
    supports: Vec<&'static str>,
}

impl FindingsJson {
    /// The view of `f`.
    ///
    /// ```
    /// use cktile::reports::probe::{ingest, parse};
    /// let f = ingest(&parse("chip gfx90a\n")?)?;
    /// let _ = cktile::json::FindingsJson::new(&f);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn new(f: &Findings) -> FindingsJson {
        FindingsJson {
            all_agree: f.all_agree(),
            arch: f.arch.name(),
            date: f.date.clone(),
            device: f.device.clone(),
            ops: f
                .ops
                .iter()
                .map(|o| OpFindingJson {
                    banks: o.banks,
                    banks_agree: o.banks_agree(),
                    cktile_banks: o.cktile.banks,
                    cktile_phases: o.cktile_phases(),
                    op: Op::name(&o.op),
                    phases: o.phases.clone(),
                    phases_agree: o.phases_agree(),
                    problem: o.problem.as_ref().map(crate::render::rules::phase_problem),
                })
                .collect(),
            patterns: f
                .patterns
                .iter()
                .map(|p| PatternFindingJson {
                    agrees: p.agrees(),
                    index: p.index,
                    measured: p.measured,
                    models: p.models.iter().map(|(m, c)| ModelCyclesJson { cycles: *c, model: m.name() }).collect(),
                    op: Op::name(&p.op),
                    pattern: p.description.clone(),
                    supports: p.supports().iter().map(|m| m.name()).collect(),
                })
                .collect(),
            strides: f
                .strides
                .iter()
                .map(|s| StrideFindingJson {
                    agrees: s.agrees(),
                    cktile: s.cktile,
                    measured: s.measured,
                    models: s.models.iter().map(|(m, c)| ModelCyclesJson { cycles: *c, model: m.name() }).collect(),
                    op: Op::name(&s.op),
                    stride: s.stride,
                    supports: s.supports().iter().map(|m| m.name()).collect(),
                })
                .collect(),
        }
    }
}

/// `cktile bank --model NAME` (or a request with `"model"`) for a model
/// other than cktile's: the model's answer on one instruction, with what it
/// rests on.
///
/// ```
/// use cktile::analyzer::{arch, Op};
/// use cktile::reports::models::Model;
/// let a: Vec<Option<u64>> = (0..64).map(|l| Some(16 * (l % 4) + 128 * (l / 4))).collect();
/// let j = cktile::json::ModelAnswerJson::new(Model::RocRoller, &arch::GFX942, Op::DsRead { bits: 128 }, &a)?;
/// let v = serde_json::to_value(&j).unwrap();
/// assert_eq!((v["model"].as_str(), v["max_ways"].as_u64()), (Some("rocroller"), Some(1)));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct ModelAnswerJson {
    arch: &'static str,
    banks: u32,
    broadcast: Option<bool>,
    evidence: &'static str,
    max_ways: u32,
    model: &'static str,
    op: &'static str,
    phases: Vec<Vec<u8>>,
    source: &'static str,
}

impl ModelAnswerJson {
    /// The model's answer on `addresses` (one per lane, `None` inactive), or
    /// its refusal.
    pub fn new(model: Model, arch: &Arch, op: Op, addresses: &[Option<u64>]) -> Result<ModelAnswerJson, Error> {
        let max_ways = answer(model, arch, op, addresses)?;
        let r = model_rule(model, arch, op)?;
        Ok(ModelAnswerJson {
            arch: arch.name(),
            banks: r.banks,
            broadcast: r.broadcast,
            evidence: model.evidence().word(),
            max_ways,
            model: model.name(),
            op: op.name(),
            phases: r.phases,
            source: r.text,
        })
    }
}

/// One model's answer in [`DisagreementJson`]: ways, or the refusal.
#[derive(Clone, Debug, Serialize)]
struct ModelWaysJson<'a> {
    model: &'static str,
    refusal: Option<&'a str>,
    ways: Option<u32>,
}

/// One row of `cktile rules --disagreements --json`: the chip, the
/// instruction, the access pattern (its words and every lane's address) and
/// each model's answer, in [`MODELS`](crate::reports::models::MODELS) order.
///
/// ```
/// use cktile::analyzer::{arch, Op};
/// use cktile::reports::disagreements::disagreements_on;
/// let d = disagreements_on(&arch::GFX942, Op::DsRead { bits: 128 });
/// let v = serde_json::to_value(cktile::json::DisagreementJson::new(&d[0])).unwrap();
/// assert_eq!((v["arch"].as_str(), v["pattern"].as_str()), (Some("gfx942"), Some("every lane at byte 0")));
/// assert_eq!(v["answers"][2]["ways"].as_u64(), Some(4)); // rocroller
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct DisagreementJson<'a> {
    addresses: &'a [Option<u64>],
    answers: Vec<ModelWaysJson<'a>>,
    arch: &'static str,
    op: &'static str,
    pattern: &'a str,
}

impl<'a> DisagreementJson<'a> {
    /// The view of one disagreement.
    pub fn new(d: &'a crate::reports::disagreements::Disagreement) -> DisagreementJson<'a> {
        DisagreementJson {
            addresses: &d.case.addresses,
            answers: d
                .answers
                .iter()
                .map(|(m, a)| ModelWaysJson {
                    model: m.name(),
                    refusal: a.as_ref().err().map(String::as_str),
                    ways: a.as_ref().ok().copied(),
                })
                .collect(),
            arch: d.arch,
            op: d.op.name(),
            pattern: &d.case.description,
        }
    }
}
