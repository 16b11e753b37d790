//! Measurements from cktile's AMD LDS probe (`gpu/amd/`), read and turned
//! into rules: the bank count and the phase groups of each instruction, as
//! measured on the user's chip, and where they disagree with cktile's own
//! [`rule`] table (`cktile rules --ingest`).
//!
//! The probe writes one line per measurement (blank lines and `#` comments
//! are ignored):
//!
//! ```text
//! chip gfx942
//! device AMD Instinct MI300X
//! date 2026-11-25
//! pair ds_read_b128 0 1 256 1
//! stride ds_read_b32 - - 8 2
//! ```
//!
//! - `pair OP A B OFFSET EXTRA`: only lanes `A` and `B` active, `A` at LDS
//!   byte 0 and `B` at `OFFSET`; `EXTRA` is the bank-conflict cycles one
//!   instruction cost (rocprofv3's `SQ_LDS_BANK_CONFLICT` over the
//!   instructions issued). Lanes 0 and 1 at 128 and at 256 bytes give the
//!   bank count: the smallest offset that conflicts, over 4. Every pair at
//!   `banks * 4` bytes (the same bank, another word) gives the phases: two
//!   lanes conflict exactly when they are served in the same phase.
//! - `stride OP - - STRIDE EXTRA`: every lane active, lane `t` at
//!   `t * STRIDE`, as nod-ai's MI300X measurements; compared with the
//!   analyzer's count under cktile's rule.
//!
//! ```
//! use cktile::reports::probe::{ingest, parse};
//! let text = "chip gfx90a\ndate 2026-01-01\npair ds_read_b32 0 1 128 1\npair ds_read_b32 0 1 256 1\n\
//!             stride ds_read_b32 - - 8 2\n";
//! let run = parse(text)?;
//! let found = ingest(&run)?;
//! assert_eq!(found.ops[0].banks, Some(32));
//! assert!(found.strides[0].agrees());
//! # Ok::<(), cktile::Error>(())
//! ```

use super::disagreements::disagreements_on;
use super::models::{MODELS, Model, conflict_cycles};
use crate::analyzer::rules::{Rule, rule};
use crate::analyzer::{Arch, Op};
use crate::{Error, Position, Snippet, SpecProblem};
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

/// The most lines a probe file may have: far more than a full run's
/// (about 2,100 pairs per instruction, 14 instructions).
pub const MAX_LINES: usize = 100_000;

/// One measurement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measurement {
    /// Two lanes, the second `offset` bytes after the first.
    Pair {
        /// The first lane (at byte 0).
        a: usize,
        /// The second lane.
        b: usize,
        /// Its byte address.
        offset: u64,
    },
    /// Every lane, lane `t` at `t * stride` bytes.
    Stride {
        /// The stride in bytes.
        stride: u64,
    },
    /// Pattern `index` of `cktile rules --disagreements --arch CHIP --op OP
    /// --json` (the same cktile's), the addresses the models disagree on.
    Pattern {
        /// Its position in that list.
        index: usize,
    },
}

/// One line of a probe file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// The instruction.
    pub op: Op,
    /// What was measured.
    pub measurement: Measurement,
    /// The bank-conflict cycles per instruction.
    pub extra: u64,
    /// The line it came from (from 1).
    pub line: usize,
}

/// A probe file: the chip, the device, the date and the measurements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeRun {
    /// The chip (an [`Arch`] name).
    pub arch: Arch,
    /// The device as the probe saw it (`rocminfo`'s marketing name).
    pub device: String,
    /// The date of the run.
    pub date: String,
    /// The measurements, in file order.
    pub rows: Vec<Row>,
}

fn syntax(line: usize, expected: &'static str, found: &str) -> Error {
    let line = u32::try_from(line).unwrap_or(u32::MAX);
    Error::spec(SpecProblem::Syntax { expected, found: Snippet::new(found) }).at(Position { line, column: 1 })
}

/// A lane number below the chip's wave.
fn lane(token: &str, wave: usize, line: usize) -> Result<usize, Error> {
    match token.parse::<usize>() {
        Ok(l) if l < wave => Ok(l),
        _ => Err(syntax(line, "a lane number below the chip's wave size", token)),
    }
}

/// Reads a probe file. Errors name the line and what it should hold.
///
/// ```
/// use cktile::reports::probe::parse;
/// let e = parse("chip gfx942\npair ds_read_b32 0 70 128 1\n").unwrap_err();
/// assert_eq!(e.to_string(), "2:1: expected a lane number below the chip's wave size, found `70`");
/// assert!(parse("pair ds_read_b32 0 1 128 1\n").unwrap_err().to_string().contains("`chip`"));
/// ```
pub fn parse(text: &str) -> Result<ProbeRun, Error> {
    let mut arch: Option<Arch> = None;
    let (mut device, mut date) = (String::new(), String::new());
    let mut rows = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        if n > MAX_LINES {
            return Err(syntax(n, "at most 100000 lines", raw));
        }
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match key {
            "chip" => arch = Some(Arch::by_name(rest).map_err(|e| e.at(Position { line: n as u32, column: 6 }))?),
            "device" => device = rest.to_string(),
            "date" => date = rest.to_string(),
            "pair" | "stride" | "pattern" => {
                let Some(a) = arch else {
                    return Err(syntax(n, "a `chip` line before the measurements", line));
                };
                let t: Vec<&str> = rest.split_whitespace().collect();
                let [op, la, lb, offset, extra] = t.as_slice() else {
                    return Err(syntax(n, "OP A B OFFSET EXTRA (five fields after the kind)", rest));
                };
                let op = Op::by_name(op).map_err(|e| e.at(Position { line: n as u32, column: 1 }))?;
                let number = |s: &str| s.parse::<u64>().map_err(|_| syntax(n, "a whole number of bytes or cycles", s));
                let wave = a.wave() as usize;
                let measurement = if key == "pair" {
                    let (la, lb) = (lane(la, wave, n)?, lane(lb, wave, n)?);
                    if la == lb {
                        return Err(syntax(n, "two different lanes", rest));
                    }
                    Measurement::Pair { a: la, b: lb, offset: number(offset)? }
                } else {
                    if (*la, *lb) != ("-", "-") {
                        return Err(syntax(
                            n,
                            "`- -` for the lanes of a stride or pattern (its lanes are its own)",
                            rest,
                        ));
                    }
                    match key {
                        "stride" => Measurement::Stride { stride: number(offset)? },
                        _ => Measurement::Pattern {
                            index: offset.parse::<usize>().map_err(|_| syntax(n, "a pattern's index", offset))?,
                        },
                    }
                };
                rows.push(Row { op, measurement, extra: number(extra)?, line: n });
            }
            _ => return Err(syntax(n, "a line starting with chip, device, date, pair, stride or pattern", key)),
        }
    }
    let Some(arch) = arch else {
        return Err(syntax(text.lines().count().max(1), "a `chip` line", ""));
    };
    Ok(ProbeRun { arch, device, date, rows })
}

/// Why a run's pairs give no phases.
///
/// ```
/// use cktile::reports::probe::{ingest, parse, PhaseProblem};
/// let pairs: String = (2..40).map(|b| format!("pair ds_read_b32 0 {b} 128 0\n")).collect();
/// let run = parse(&format!("chip gfx942\npair ds_read_b32 0 1 128 1\n{pairs}"))?;
/// assert_eq!(ingest(&run)?.ops[0].problem, Some(PhaseProblem::Unpaired((40..64).collect())));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PhaseProblem {
    /// These lanes were never paired at `banks * 4` bytes.
    Unpaired(Vec<u8>),
    /// Lanes `a` and `b` did not conflict (at `line`), yet chains of
    /// conflicts join them: the conflicts do not split the lanes into phases
    /// (noise, or hardware the phase model does not fit).
    NotPartition {
        /// One lane.
        a: u8,
        /// The other.
        b: u8,
        /// The line of their measurement.
        line: usize,
    },
}

/// What the probe found for one instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpFinding {
    /// The instruction.
    pub op: Op,
    /// The bank count measured (`None`: no lane 0/1 pair at 128 or 256
    /// bytes conflicted, or none was measured).
    pub banks: Option<u32>,
    /// The phases measured: lanes that conflict at `banks * 4` bytes, each
    /// phase sorted, phases by their first lane (empty without `banks`, or
    /// when no pair but lanes 0 and 1 was measured at that offset).
    pub phases: Vec<Vec<u8>>,
    /// Why the phases could not be derived, if they could not.
    pub problem: Option<PhaseProblem>,
    /// cktile's rule for the instruction on the chip.
    pub cktile: Rule,
}

impl OpFinding {
    /// cktile's phases, in the same form as [`phases`](Self::phases).
    ///
    /// ```
    /// use cktile::reports::probe::{ingest, parse};
    /// let run = parse("chip gfx942\npair ds_read_b128 0 1 256 1\n")?;
    /// let f = &ingest(&run)?.ops[0];
    /// assert_eq!(f.cktile_phases()[0], vec![0, 1, 2, 3, 20, 21, 22, 23]);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn cktile_phases(&self) -> Vec<Vec<u8>> {
        let g = self.cktile.grouping;
        let mut phases: Vec<Vec<u8>> = (0..g.phases())
            .map(|p| {
                let mut lanes = g.phase(p).to_vec();
                lanes.sort_unstable();
                lanes
            })
            .collect();
        phases.sort();
        phases
    }

    /// Whether the measured bank count is cktile's (`None` when none was measured).
    ///
    /// ```
    /// use cktile::reports::probe::{ingest, parse};
    /// let run = parse("chip gfx950\npair ds_read_b32 0 1 128 0\npair ds_read_b32 0 1 256 1\n")?;
    /// // Measured 64 banks; cktile follows the sources that give ds_read_b32 32.
    /// assert_eq!(ingest(&run)?.ops[0].banks_agree(), Some(false));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn banks_agree(&self) -> Option<bool> {
        self.banks.map(|b| b == self.cktile.banks)
    }

    /// Whether the measured phases are cktile's (`None` when none were derived).
    ///
    /// ```
    /// use cktile::reports::probe::{ingest, parse};
    /// let run = parse("chip gfx942\npair ds_read_b32 0 1 128 1\n")?;
    /// // Lanes 2..63 were never paired: no phases.
    /// assert_eq!(ingest(&run)?.ops[0].phases_agree(), None);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn phases_agree(&self) -> Option<bool> {
        (!self.phases.is_empty()).then(|| self.phases == self.cktile_phases())
    }

    /// Whether nothing measured disagrees: neither the banks nor the phases
    /// differ from cktile's, and the phases, if measured, form a partition.
    ///
    /// ```
    /// use cktile::reports::probe::{ingest, parse};
    /// let run = parse("chip gfx942\npair ds_read_b32 0 1 128 1\n")?;
    /// assert!(ingest(&run)?.ops[0].agrees());
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn agrees(&self) -> bool {
        self.banks_agree() != Some(false) && self.phases_agree() != Some(false) && self.problem.is_none()
    }
}

/// A stride measurement beside the analyzer's count for it, and every
/// public model's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrideFinding {
    /// The instruction.
    pub op: Op,
    /// The stride in bytes.
    pub stride: u64,
    /// The cycles measured.
    pub measured: u64,
    /// The analyzer's bank-conflict cycles for the same addresses.
    pub cktile: u64,
    /// Each public model's bank-conflict cycles for them
    /// ([`models::conflict_cycles`](super::models::conflict_cycles)),
    /// `None` where its source is silent, in [`MODELS`]
    /// order.
    pub models: Vec<(Model, Option<u32>)>,
}

impl StrideFinding {
    /// Whether the analyzer counts what was measured.
    ///
    /// ```
    /// use cktile::reports::probe::{ingest, parse};
    /// let run = parse("chip gfx942\nstride ds_read_b128 - - 64 24\n")?;
    /// assert!(ingest(&run)?.strides[0].agrees());
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn agrees(&self) -> bool {
        self.measured == self.cktile
    }

    /// The models the measurement supports: those that count what was
    /// measured.
    ///
    /// ```
    /// use cktile::reports::{models::Model, probe::{ingest, parse}};
    /// // MI300X, ds_read_b32 at stride 128: 62 cycles, two phases of 32 lanes; rocRoller's 16-lane clocks give 60.
    /// let f = ingest(&parse("chip gfx942\nstride ds_read_b32 - - 128 62\n")?)?;
    /// let s = &f.strides[0];
    /// assert!(s.supports().contains(&Model::AmdShark) && !s.supports().contains(&Model::RocRoller));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn supports(&self) -> Vec<Model> {
        self.models.iter().filter(|(_, c)| c.map(u64::from) == Some(self.measured)).map(|(m, _)| *m).collect()
    }
}

/// A measured disagreement: one of `cktile rules --disagreements`'
/// patterns, measured, beside every model's count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternFinding {
    /// The instruction.
    pub op: Op,
    /// The pattern's index in `cktile rules --disagreements --arch CHIP
    /// --op OP --json`.
    pub index: usize,
    /// The pattern, in words.
    pub description: String,
    /// The cycles measured.
    pub measured: u64,
    /// Each model's bank-conflict cycles, `None` where its source is
    /// silent, in [`MODELS`] order.
    pub models: Vec<(Model, Option<u32>)>,
}

impl PatternFinding {
    /// The models the measurement supports.
    pub fn supports(&self) -> Vec<Model> {
        self.models.iter().filter(|(_, c)| c.map(u64::from) == Some(self.measured)).map(|(m, _)| *m).collect()
    }

    /// Whether cktile counts what was measured.
    pub fn agrees(&self) -> bool {
        self.supports().contains(&Model::Cktile)
    }
}

/// Everything a probe file says, beside cktile's table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Findings {
    /// The run's chip, device and date.
    pub arch: Arch,
    /// The device.
    pub device: String,
    /// The date.
    pub date: String,
    /// Per instruction, in the order first measured.
    pub ops: Vec<OpFinding>,
    /// Every stride measurement.
    pub strides: Vec<StrideFinding>,
    /// Every measured disagreement.
    pub patterns: Vec<PatternFinding>,
}

impl Findings {
    /// Whether everything measured agrees with cktile.
    ///
    /// ```
    /// use cktile::reports::probe::{ingest, parse};
    /// assert!(ingest(&parse("chip gfx942\nstride ds_read_b32 - - 16 6\n")?)?.all_agree());
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn all_agree(&self) -> bool {
        self.ops.iter().all(OpFinding::agrees)
            && self.strides.iter().all(StrideFinding::agrees)
            && self.patterns.iter().all(PatternFinding::agrees)
    }
}

/// The phases the pairs at `banks * 4` bytes give, or why they give none.
fn phases(rows: &[&Row], banks: u32, wave: usize) -> Result<Vec<Vec<u8>>, PhaseProblem> {
    let period = u64::from(banks) * 4;
    let mut parent: Vec<usize> = (0..wave).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    let mut paired = vec![false; wave];
    let mut apart = Vec::new();
    for r in rows {
        if let Measurement::Pair { a, b, offset } = r.measurement {
            if offset != period {
                continue;
            }
            paired[a] = true;
            paired[b] = true;
            if r.extra > 0 {
                let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
                parent[ra] = rb;
            } else {
                apart.push((a, b, r.line));
            }
        }
    }
    let unpaired: Vec<u8> = (0..wave).filter(|&l| !paired[l]).map(|l| l as u8).collect();
    // Only the bank count's pair (or none) at the period: the phases were not measured.
    if unpaired.len() + 2 >= wave {
        return Ok(Vec::new());
    }
    if !unpaired.is_empty() {
        return Err(PhaseProblem::Unpaired(unpaired));
    }
    for (a, b, line) in apart {
        if root(&mut parent, a) == root(&mut parent, b) {
            return Err(PhaseProblem::NotPartition { a: a as u8, b: b as u8, line });
        }
    }
    let mut groups: Vec<Vec<u8>> = Vec::new();
    let mut index_of = vec![usize::MAX; wave];
    for l in 0..wave {
        let r = root(&mut parent, l);
        if index_of[r] == usize::MAX {
            index_of[r] = groups.len();
            groups.push(Vec::new());
        }
        groups[index_of[r]].push(l as u8);
    }
    groups.sort();
    Ok(groups)
}

/// What `run` says about each instruction, and each stride beside the
/// analyzer's count. An error only if the analyzer cannot count a stride
/// (an instruction the chip does not have).
///
/// ```
/// use cktile::reports::probe::{ingest, parse};
/// let e = ingest(&parse("chip sm90\nstride ds_read_b32 - - 4 0\n")?).unwrap_err();
/// assert!(e.to_string().contains("ds_read_b32"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn ingest(run: &ProbeRun) -> Result<Findings, Error> {
    let wave = run.arch.wave() as usize;
    let mut order: Vec<Op> = Vec::new();
    for r in &run.rows {
        if matches!(r.measurement, Measurement::Pair { .. }) && !order.contains(&r.op) {
            order.push(r.op);
        }
    }
    let mut ops = Vec::new();
    for op in order {
        let rows: Vec<&Row> = run.rows.iter().filter(|r| r.op == op).collect();
        // The smallest offset at which lanes 0 and 1 share a bank.
        let banks = rows
            .iter()
            .filter_map(|r| match r.measurement {
                Measurement::Pair { a: 0, b: 1, offset } if r.extra > 0 && (offset == 128 || offset == 256) => {
                    Some(offset)
                }
                _ => None,
            })
            .min()
            .map(|o| (o / 4) as u32);
        let (phases, problem) = match banks {
            Some(b) => match phases(&rows, b, wave) {
                Ok(p) => (p, None),
                Err(why) => (Vec::new(), Some(why)),
            },
            None => (Vec::new(), None),
        };
        ops.push(OpFinding { op, banks, phases, problem, cktile: rule(&run.arch, op) });
    }
    let mut strides = Vec::new();
    for r in &run.rows {
        if let Measurement::Stride { stride } = r.measurement {
            let addresses: Vec<Option<u64>> = (0..wave as u64).map(|t| t.checked_mul(stride)).collect();
            let report = super::banks::analyze_instruction(&run.arch, r.op, &addresses)?;
            let models = MODELS.iter().map(|&m| (m, conflict_cycles(m, &run.arch, r.op, &addresses).ok())).collect();
            strides.push(StrideFinding {
                op: r.op,
                stride,
                measured: r.extra,
                cktile: u64::from(report.counts.conflict_cycles),
                models,
            });
        }
    }
    let mut patterns = Vec::new();
    for r in &run.rows {
        if let Measurement::Pattern { index } = r.measurement {
            let found = disagreements_on(&run.arch, r.op);
            let Some(d) = found.get(index) else {
                return Err(syntax(
                    r.line,
                    "the index of one of this cktile's `rules --disagreements` patterns for the chip and instruction \
                     (make the probe's cases with the cktile that reads them)",
                    &index.to_string(),
                ));
            };
            let models =
                MODELS.iter().map(|&m| (m, conflict_cycles(m, &run.arch, r.op, &d.case.addresses).ok())).collect();
            patterns.push(PatternFinding {
                op: r.op,
                index,
                description: d.case.description.clone(),
                measured: r.extra,
                models,
            });
        }
    }
    Ok(Findings { arch: run.arch, device: run.device.clone(), date: run.date.clone(), ops, strides, patterns })
}
