//! The report of `cktile search`.

use crate::export::Peer;
use crate::json::AnswerJson;
use crate::reports::models::Model;
use crate::search::{Candidate, Judged, Role, SearchReport};
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
struct CandidateJson<'a> {
    cycles: u64,
    entry: &'a str,
    extra_bytes: u64,
    family: &'static str,
    label: String,
    max_ways: Vec<u32>,
    per_pattern_cycles: Vec<u64>,
    spec: String,
    transforms: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    answer: Option<AnswerJson>,
}

fn candidate(c: &Candidate, element_bytes: usize) -> CandidateJson<'_> {
    CandidateJson {
        cycles: c.cycles,
        entry: &c.entry,
        extra_bytes: c.extra_bytes,
        family: c.family.entry(),
        label: c.label(element_bytes),
        max_ways: c.costs.iter().map(|k| k.max_ways).collect(),
        per_pattern_cycles: c.costs.iter().map(|k| k.cycles).collect(),
        spec: c.descriptor().map(|d| d.to_string()).unwrap_or_default(),
        transforms: c.transforms,
        answer: None,
    }
}

#[derive(Clone, Debug, Serialize)]
struct PatternJson {
    access: String,
    role: &'static str,
}

#[derive(Clone, Debug, Serialize)]
struct FamilyJson<'a> {
    family: &'static str,
    members: u64,
    note: &'a str,
    valid: u64,
}

#[derive(Clone, Debug, Serialize)]
struct StuckJson<'a> {
    cycles: u32,
    instruction: u32,
    lanes: &'a [u32],
    pattern: usize,
    phase: u32,
    row: usize,
}

/// `cktile search --json`: the problem, the best layouts, the Pareto front,
/// the families searched and, when nothing is conflict-free, the phases
/// that prove the bound.
///
/// ```
/// use cktile::analyzer::{arch, Pattern};
/// use cktile::search::{Problem, search};
/// let p = Problem::new(16, 64, 2, arch::GFX942).read(Pattern::from_access("mfma16x16x16:a")?);
/// let r = search(&p)?;
/// let out = serde_json::to_string(&cktile::json::SearchJson::new(&r)).unwrap();
/// assert!(out.starts_with(r#"{"arch":"gfx942","best":{"cycles":"#));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct SearchJson<'a> {
    arch: &'static str,
    best: CandidateJson<'a>,
    cols: usize,
    conflict_free: bool,
    element_bytes: usize,
    evaluated: u64,
    families: Vec<FamilyJson<'a>>,
    front: Vec<CandidateJson<'a>>,
    lower_bound_cycles: u64,
    minimum_cycles: u64,
    minimum_per_pattern: &'a [u64],
    naive: CandidateJson<'a>,
    optimal: Vec<CandidateJson<'a>>,
    pattern_best: &'a [u64],
    patterns: Vec<PatternJson>,
    rows: usize,
    stuck_phases: Vec<StuckJson<'a>>,
    vector_elements: usize,
    xor_linear_optimal_classes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    model: Option<ModelJson>,
}

/// The listed layouts under a public model (`search --model`).
#[derive(Clone, Debug, Serialize)]
struct ModelJson {
    evidence: &'static str,
    layouts: Vec<JudgedJson>,
    name: &'static str,
    source: &'static str,
}

#[derive(Clone, Debug, Serialize)]
struct JudgedJson {
    accesses: Vec<JudgedAccessJson>,
    cycles: u64,
    entry: String,
}

#[derive(Clone, Debug, Serialize)]
struct JudgedAccessJson {
    access: String,
    max_ways: Option<u32>,
    refusal: Option<String>,
}

impl<'a> SearchJson<'a> {
    /// The view of `r`.
    ///
    /// ```
    /// use cktile::analyzer::{arch, Pattern};
    /// let p = cktile::search::Problem::new(8, 8, 4, arch::SM80).read(Pattern::from_access("ld.shared.b32:column")?);
    /// let r = cktile::search::search(&p)?;
    /// let _ = cktile::json::SearchJson::new(&r);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn new(r: &'a SearchReport) -> SearchJson<'a> {
        let p = &r.problem;
        let eb = p.element_bytes;
        SearchJson {
            arch: p.arch.name(),
            best: candidate(r.best(), eb),
            cols: p.cols,
            conflict_free: r.conflict_free(),
            element_bytes: eb,
            evaluated: r.evaluated,
            families: r
                .families
                .iter()
                .map(|f| FamilyJson { family: f.family.entry(), members: f.members, note: &f.note, valid: f.valid })
                .collect(),
            front: r.front.iter().map(|c| candidate(c, eb)).collect(),
            lower_bound_cycles: r.best().cycles,
            minimum_cycles: r.minimum_cycles(),
            minimum_per_pattern: &r.minimum,
            naive: candidate(&r.naive, eb),
            optimal: r.optimal.iter().map(|c| candidate(c, eb)).collect(),
            pattern_best: &r.pattern_best,
            patterns: p
                .accesses()
                .into_iter()
                .map(|(role, pat)| PatternJson {
                    access: pat.name(),
                    role: if role == Role::Write { "write" } else { "read" },
                })
                .collect(),
            rows: p.rows,
            stuck_phases: r
                .stuck
                .iter()
                .map(|s| StuckJson {
                    cycles: s.cycles,
                    instruction: s.instruction,
                    lanes: &s.lanes,
                    pattern: s.pattern,
                    phase: s.phase,
                    row: s.row,
                })
                .collect(),
            vector_elements: r.vector,
            xor_linear_optimal_classes: r.xor_linear_optimal_classes,
            model: None,
        }
    }

    /// The same view with every layout it lists (the best, the equally
    /// good ones, the Pareto front and the naive layout) also in `peer`'s
    /// terms, under the key `answer`: `{"peer", "export"}` with
    /// [`ExportJson`](crate::json::ExportJson)'s fields, or `{"peer", "refused"}` with the peer's
    /// refusal (`cktile search --as`).
    ///
    /// ```
    /// use cktile::analyzer::{arch, Pattern};
    /// use cktile::export::Peer;
    /// let p = cktile::search::Problem::new(64, 64, 2, arch::GFX942).read(Pattern::from_access("mfma16x16x16:a")?);
    /// let r = cktile::search::search(&p)?;
    /// let out = serde_json::to_string(&cktile::json::SearchJson::new(&r).with_answers(&r, Peer::Triton)).unwrap();
    /// assert!(out.contains(r#""answer":{"export":{"interval_padding_pairs":"#), "{out}");
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn with_answers(mut self, r: &SearchReport, peer: Peer) -> SearchJson<'a> {
        self.best.answer = Some(AnswerJson::new(r.best().descriptor(), peer));
        self.naive.answer = Some(AnswerJson::new(r.naive.descriptor(), peer));
        for (j, c) in self.optimal.iter_mut().zip(&r.optimal) {
            j.answer = Some(AnswerJson::new(c.descriptor(), peer));
        }
        for (j, c) in self.front.iter_mut().zip(&r.front) {
            j.answer = Some(AnswerJson::new(c.descriptor(), peer));
        }
        self
    }

    /// The same view with the listed layouts judged under a public model
    /// ([`under_model`](crate::search::under_model)), under the key `model`.
    ///
    /// ```
    /// use cktile::analyzer::{arch, Pattern};
    /// use cktile::reports::models::Model;
    /// use cktile::search::{Problem, search, under_model};
    /// let p = Problem::new(128, 64, 2, arch::GFX942).read(Pattern::from_access("mfma16x16x16:a")?);
    /// let r = search(&p)?;
    /// let j = cktile::json::SearchJson::new(&r).with_model(Model::RocRoller, &under_model(&r, Model::RocRoller, 1)?);
    /// assert!(serde_json::to_string(&j).unwrap().contains(r#""model":{"evidence":"a tool's model","layouts":[{"accesses":[{"access":"mfma16x16x16""#));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn with_model(mut self, model: Model, judged: &[Judged]) -> SearchJson<'a> {
        self.model = Some(ModelJson {
            evidence: model.evidence().word(),
            layouts: judged
                .iter()
                .map(|j| JudgedJson {
                    accesses: j
                        .answers
                        .iter()
                        .map(|(access, a)| JudgedAccessJson {
                            access: access.clone(),
                            max_ways: a.as_ref().ok().copied(),
                            refusal: a.as_ref().err().map(|e| e.to_string()),
                        })
                        .collect(),
                    cycles: j.cycles,
                    entry: j.entry.clone(),
                })
                .collect(),
            name: model.name(),
            source: model.source(),
        });
        self
    }
}
