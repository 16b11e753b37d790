//! The reports of `cktile bank` (one instruction) and `cktile analyze` (a
//! tile under an access pattern).

use crate::analyzer::Counts;
use crate::analyzer::metrics::{Metric, MetricValue};
use crate::export::Peer;
use crate::json::AnswerJson;
use crate::reports::partitions::PartitionReport;
use crate::reports::{BankConflict, InstructionReport, PhaseReport, TileReport, WordAccess};
use crate::{Descriptor, Index};
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

#[derive(Clone, Debug, Serialize)]
struct WordJson<'a> {
    address: u64,
    lanes: &'a [u32],
}

#[derive(Clone, Debug, Serialize)]
struct ConflictJson<'a> {
    bank: u32,
    ways: usize,
    words: Vec<WordJson<'a>>,
}

#[derive(Clone, Debug, Serialize)]
struct PhaseJson<'a> {
    access: u32,
    active_lanes: u32,
    busiest_bank: u32,
    conflicts: Vec<ConflictJson<'a>>,
    cycles: u32,
    lanes: &'a [u32],
    phase: u32,
    ways: u32,
}

fn word(w: &WordAccess) -> WordJson<'_> {
    WordJson { address: w.address, lanes: &w.lanes }
}

fn conflict(b: &BankConflict) -> ConflictJson<'_> {
    ConflictJson { bank: b.bank, ways: b.words.len(), words: b.words.iter().map(word).collect() }
}

fn phase(p: &PhaseReport) -> PhaseJson<'_> {
    PhaseJson {
        access: p.access,
        active_lanes: p.active_lanes,
        busiest_bank: p.busiest_bank,
        conflicts: p.conflicts.iter().map(conflict).collect(),
        cycles: p.cycles,
        lanes: &p.lanes,
        phase: p.phase,
        ways: p.ways,
    }
}

/// `cktile bank`'s output (also the `worst` of `cktile analyze --json`): one
/// instruction's counts, rocprof-compute's metrics, and every phase in detail.
///
/// ```
/// use cktile::analyzer::{arch, Op};
/// use cktile::reports::analyze_instruction;
/// let r = analyze_instruction(&arch::GFX90A, Op::DsRead { bits: 32 }, &[Some(0), Some(128)])?;
/// let out = serde_json::to_string(&cktile::json::InstructionJson::new(&r)).unwrap();
/// assert!(out.contains(r#""max_ways":2"#));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct InstructionJson<'a> {
    arch: &'static str,
    assumption: Option<&'static str>,
    banks: u32,
    disputed: Option<&'static str>,
    metrics: Vec<Metric>,
    op: String,
    phase_detail: Vec<PhaseJson<'a>>,
    sources: Option<&'static str>,
    unread_lanes: &'a [u32],
    worst_phase: u32,
}

impl<'a> InstructionJson<'a> {
    /// The view of `r`.
    ///
    /// ```
    /// use cktile::analyzer::{arch, Op};
    /// use cktile::reports::analyze_instruction;
    /// let r = analyze_instruction(&arch::SM80, Op::LdShared { bits: 32 }, &[Some(0)])?;
    /// let _ = cktile::json::InstructionJson::new(&r);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn new(r: &'a InstructionReport) -> InstructionJson<'a> {
        InstructionJson {
            arch: r.arch.name(),
            assumption: r.provenance.assumption(),
            banks: r.banks,
            disputed: r.provenance.disputed(),
            metrics: r.metrics(),
            op: r.op.to_string(),
            phase_detail: r.phase_detail.iter().map(phase).collect(),
            sources: r.provenance.sources(),
            unread_lanes: &r.unread_lanes,
            worst_phase: r.counts.worst_phase,
        }
    }
}

/// One object: the report's metrics by their keys ([`Metric::key`]) with
/// its other fields, in key order.
impl Serialize for InstructionJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let fields = vec![
            ("arch", Field::Text(self.arch)),
            ("assumption", Field::MaybeText(self.assumption)),
            ("banks", Field::Count(u64::from(self.banks))),
            ("disputed", Field::MaybeText(self.disputed)),
            ("op", Field::Text(&self.op)),
            ("phase_detail", Field::Phases(&self.phase_detail)),
            ("sources", Field::MaybeText(self.sources)),
            ("unread_lanes", Field::Lanes(self.unread_lanes)),
            ("worst_phase", Field::Count(u64::from(self.worst_phase))),
        ];
        with_metrics(s, fields, &self.metrics)
    }
}

/// A value of a report's JSON object, written as itself.
#[derive(Serialize)]
#[serde(untagged)]
enum Field<'a> {
    Count(u64),
    Signed(i64),
    Rate(f64),
    Text(&'a str),
    MaybeText(Option<&'a str>),
    Lengths(&'a [Index]),
    Lanes(&'a [u32]),
    Phases(&'a [PhaseJson<'a>]),
    PerInstruction(&'a [CountsJson]),
    Instruction(&'a InstructionJson<'a>),
    Partitions(&'a PartitionJson),
    Answer(&'a AnswerJson),
}

impl From<MetricValue> for Field<'_> {
    fn from(v: MetricValue) -> Self {
        match v {
            MetricValue::Count(n) => Field::Count(n),
            MetricValue::Percent(pct) => Field::Rate(pct),
        }
    }
}

/// Writes `fields` and `metrics` (by their keys) as one object, in key
/// order.
fn with_metrics<S: Serializer>(
    s: S,
    mut fields: Vec<(&str, Field<'_>)>,
    metrics: &[Metric],
) -> Result<S::Ok, S::Error> {
    fields.extend(metrics.iter().map(|m| (m.key, Field::from(m.value))));
    fields.sort_by_key(|&(key, _)| key);
    let mut map = s.serialize_map(Some(fields.len()))?;
    for (key, value) in &fields {
        map.serialize_entry(key, value)?;
    }
    map.end()
}

#[derive(Clone, Debug, Serialize)]
struct CountsJson {
    conflict_cycles: u32,
    cycles: u32,
    max_ways: u32,
    phases: u32,
    worst_phase: u32,
}

fn counts(i: &Counts) -> CountsJson {
    CountsJson {
        conflict_cycles: i.conflict_cycles,
        cycles: i.cycles,
        max_ways: i.max_ways,
        phases: i.phases,
        worst_phase: i.worst_phase,
    }
}

/// `cktile analyze --json`: a tile's totals, each instruction's counts, and
/// the worst instruction in detail.
///
/// ```
/// use cktile::analyzer::{arch, Op, Pattern};
/// use cktile::reports::analyze_tile_report;
/// let d = cktile::Descriptor::packed(&[16, 64])?;
/// let read = Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } };
/// let r = analyze_tile_report(&d, 2, &arch::GFX942, read)?;
/// let out = serde_json::to_string(&cktile::json::TileJson::new(&d, &r)).unwrap();
/// assert!(out.starts_with(r#"{"arch":"gfx942","bank_conflict_rate_pct":"#));
/// assert!(out.contains(r#""pattern":"mfma16""#));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct TileJson<'a> {
    arch: &'static str,
    element_bytes: usize,
    element_space_size: Index,
    lengths: Vec<Index>,
    metrics: Vec<Metric>,
    op: String,
    pattern: Option<&'static str>,
    per_instruction: Vec<CountsJson>,
    /// The worst instruction in detail ([`TileReport::worst`]), viewed
    /// when serialized.
    worst: InstructionReport,
    worst_instruction: u32,
    partitions: Option<PartitionJson>,
    answer: Option<AnswerJson>,
    report: core::marker::PhantomData<&'a TileReport>,
}

/// gfx1250's partition check of a tile window
/// ([`partitions`](crate::reports::partitions)) as JSON: the key
/// `partitions` of `cktile analyze --json` on gfx1250.
///
/// ```
/// use cktile::analyzer::{arch, Op};
/// use cktile::reports::partitions::partitions;
/// use cktile::distribution::{catalogue, Distribution};
/// let d = Distribution::new(catalogue::by_name("block_raked_128x128x32_v8_w32")?)?;
/// let r = partitions(&cktile::Descriptor::packed(&[128, 32])?, 2, &arch::GFX1250, &d, Op::DsWrite { bits: 128 }, 0)?;
/// let out = serde_json::to_string(&cktile::json::PartitionJson::new(&r)).unwrap();
/// assert!(out.starts_with(r#"{"accesses":[{"pair_a":[0],"pair_b":[0],"shared":[0]}"#), "{out}");
/// assert!(out.ends_with(r#""base":0,"conflicted":4,"warps":4}"#), "{out}");
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PartitionJson {
    accesses: Vec<AccessPartitionsJson>,
    base: u64,
    conflicted: usize,
    warps: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
struct AccessPartitionsJson {
    pair_a: Vec<u64>,
    pair_b: Vec<u64>,
    shared: Vec<u64>,
}

impl PartitionJson {
    /// The view of `r`.
    pub fn new(r: &PartitionReport) -> PartitionJson {
        PartitionJson {
            accesses: r
                .accesses
                .iter()
                .map(|a| AccessPartitionsJson {
                    pair_a: a.pair_a.clone(),
                    pair_b: a.pair_b.clone(),
                    shared: a.shared.clone(),
                })
                .collect(),
            base: r.base,
            conflicted: r.conflicted(),
            warps: r.warps,
        }
    }
}

impl<'a> TileJson<'a> {
    /// The view of `r`, the report of `desc` under a pattern.
    ///
    /// ```
    /// use cktile::analyzer::{arch, Op, Pattern};
    /// use cktile::reports::analyze_tile_report;
    /// let d = cktile::Descriptor::packed(&[16, 64])?;
    /// let r = analyze_tile_report(&d, 2, &arch::GFX942, Pattern::Rows { op: Op::DsWrite { bits: 128 } })?;
    /// let _ = cktile::json::TileJson::new(&d, &r);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn new(desc: &Descriptor, r: &'a TileReport) -> TileJson<'a> {
        TileJson {
            arch: r.arch.name(),
            element_bytes: r.element_bytes,
            element_space_size: desc.element_space_size(),
            lengths: desc.lengths().as_slice().to_vec(),
            metrics: r.metrics(),
            op: r.op.to_string(),
            pattern: r.pattern.map(|p| p.name()),
            per_instruction: r.instructions.iter().map(counts).collect(),
            worst: r.worst(),
            worst_instruction: r.counts.worst_instruction,
            partitions: None,
            answer: None,
            report: core::marker::PhantomData,
        }
    }

    /// The same view with gfx1250's partition check of the window beside
    /// it, under the key `partitions`.
    ///
    /// ```
    /// use cktile::analyzer::{arch, Op};
    /// use cktile::reports::{analyze_distribution, partitions::partitions};
    /// use cktile::distribution::{catalogue, Distribution};
    /// let d = Distribution::new(catalogue::by_name("block_raked_128x128x32_v8_w32")?)?;
    /// let lds = cktile::Descriptor::packed(&[128, 32])?;
    /// let op = Op::DsWrite { bits: 128 };
    /// let r = analyze_distribution(&lds, 2, &arch::GFX1250, &d, op)?;
    /// let p = partitions(&lds, 2, &arch::GFX1250, &d, op, 0)?;
    /// let out = serde_json::to_string(&cktile::json::TileJson::new(&lds, &r).with_partitions(&p)).unwrap();
    /// assert!(out.contains(r#""partitions":{"accesses""#));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn with_partitions(mut self, p: &PartitionReport) -> TileJson<'a> {
        self.partitions = Some(PartitionJson::new(p));
        self
    }

    /// The same view with the analysed layout in a peer's terms
    /// (`cktile analyze --as`), under the key `answer`: its export, checked
    /// at every coordinate, or the peer's refusal.
    ///
    /// ```
    /// use cktile::analyzer::{arch, Op, Pattern};
    /// use cktile::reports::analyze_tile_report;
    /// use cktile::export::Peer;
    /// let d = cktile::Descriptor::packed(&[16, 64])?;
    /// let read = Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } };
    /// let r = analyze_tile_report(&d, 2, &arch::GFX942, read)?;
    /// let out = serde_json::to_string(&cktile::json::TileJson::new(&d, &r).with_answer(&d, Peer::Cute)).unwrap();
    /// assert!(out.contains(r#""answer":{"export":{"#) && out.contains(r#""text":"(16,64):(64,1)""#), "{out}");
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn with_answer(mut self, desc: &Descriptor, peer: Peer) -> TileJson<'a> {
        self.answer = Some(AnswerJson::new(Ok(*desc), peer));
        self
    }
}

/// One object: the report's metrics by their keys ([`Metric::key`]) with
/// its other fields, in key order.
impl Serialize for TileJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let worst = InstructionJson::new(&self.worst);
        let mut fields = vec![
            ("arch", Field::Text(self.arch)),
            ("element_bytes", Field::Count(self.element_bytes as u64)),
            ("element_space_size", Field::Signed(self.element_space_size)),
            ("lengths", Field::Lengths(&self.lengths)),
            ("op", Field::Text(&self.op)),
            ("pattern", Field::MaybeText(self.pattern)),
            ("per_instruction", Field::PerInstruction(&self.per_instruction)),
            ("worst", Field::Instruction(&worst)),
            ("worst_instruction", Field::Count(u64::from(self.worst_instruction))),
        ];
        if let Some(p) = &self.partitions {
            fields.push(("partitions", Field::Partitions(p)));
        }
        if let Some(a) = &self.answer {
            fields.push(("answer", Field::Answer(a)));
        }
        with_metrics(s, fields, &self.metrics)
    }
}
