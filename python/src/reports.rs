//! Native reports: [`Instruction`] (`cktile bank`, and the worst instruction
//! of a tile) and [`Tile`] (`cktile analyze`). Python reads their fields
//! straight from the library's report, per-instruction and per-lane data
//! as numpy arrays, and gets JSON only from `to_json()`: the text
//! `cktile ... --json` prints, written once and kept.
//!
//! An instruction's counts come from [`cktile::analyzer::count`], which is
//! all `cktile.bank(...).max_ways` needs; the detail behind them (phase by
//! phase, bank by bank, lane by lane) is [`analyze_instruction`]'s report,
//! built the first time something asks for it. Both are the library's own
//! calls on the same addresses, so the fields agree with the JSON.

use crate::{Error, json};
use cktile::analyzer::metrics::MetricValue;
use cktile::analyzer::{Arch, Counts, Op};
use cktile::export::Peer;
use cktile::json::{InstructionJson, TileJson};
use cktile::layouts;
use cktile::reports::partitions::PartitionReport;
use cktile::reports::{InstructionReport, TileReport, analyze_instruction};
use numpy::IntoPyArray;
use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::{Arc, OnceLock};

/// A metric's value as Python reads it from the JSON: an `int` or a `float`.
fn metric_value(py: Python<'_>, v: MetricValue) -> PyResult<Py<PyAny>> {
    Ok(match v {
        MetricValue::Count(n) => n.into_pyobject(py)?.into_any().unbind(),
        MetricValue::Percent(p) => p.into_pyobject(py)?.into_any().unbind(),
    })
}

/// The answer for a key that is not a native field: Python then reads it
/// from the JSON.
fn not_native(name: &str) -> PyErr {
    PyKeyError::new_err(name.to_string())
}

/// Where an instruction's detail comes from.
enum Detail {
    /// One instruction from its lanes' addresses: [`analyze_instruction`]'s
    /// report, built when first asked for (into [`Instruction::report`]).
    Lazy(Vec<Option<u64>>),
    /// The worst instruction of a tile report: [`TileReport::worst`], built
    /// when first asked for (into [`Instruction::report`]).
    Worst(Arc<TileState>),
}

/// One instruction's bank conflicts: `cktile bank --json`, or a tile
/// report's `worst`.
#[pyclass(frozen, module = "cktile._native")]
pub struct Instruction {
    /// The counts, and the fields that follow from them alone (the phase
    /// and lane details left empty).
    summary: InstructionReport,
    detail: Detail,
    /// The detail, once built.
    report: OnceLock<InstructionReport>,
    json: OnceLock<String>,
}

impl Instruction {
    /// One instruction counted from its addresses (already validated by
    /// the caller with [`validate_shared`](cktile::analyzer::model::validate_shared)).
    pub fn counted(arch: &Arch, op: Op, addresses: Vec<Option<u64>>) -> Result<Instruction, cktile::Error> {
        let counts = cktile::analyzer::count(arch, op, &addresses)?;
        Ok(Instruction {
            summary: InstructionReport::from_counts(arch, op, counts),
            detail: Detail::Lazy(addresses),
            report: OnceLock::new(),
            json: OnceLock::new(),
        })
    }

    /// The worst instruction of a tile report (its detail built when
    /// first asked for, from the lanes its count kept).
    fn worst(state: &Arc<TileState>) -> Instruction {
        let r = &state.report;
        let counts = r.instructions.get(r.counts.worst_instruction as usize).copied().unwrap_or_default();
        Instruction {
            summary: InstructionReport::from_counts(&r.arch, r.op, counts),
            detail: Detail::Worst(state.clone()),
            report: OnceLock::new(),
            json: OnceLock::new(),
        }
    }

    /// The whole report, phase by phase.
    fn detail(&self) -> PyResult<&InstructionReport> {
        match &self.detail {
            Detail::Worst(state) => Ok(self.report.get_or_init(|| state.report.worst())),
            Detail::Lazy(addresses) => {
                if let Some(r) = self.report.get() {
                    return Ok(r);
                }
                let s = &self.summary;
                let r = analyze_instruction(&s.arch, s.op, addresses)
                    .map_err(|e| Error::new_err(format!("internal: the counted instruction failed its report: {e}")))?;
                Ok(self.report.get_or_init(|| r))
            }
        }
    }
}

#[pymethods]
impl Instruction {
    /// The report's field `name` (a key of its JSON) when it is read
    /// natively: the metrics, `arch`, `op`, `banks`, `worst_phase`;
    /// `KeyError` for the others (the phase and lane details), which
    /// Python reads from [`to_json`](Self::to_json).
    fn get(&self, py: Python<'_>, name: &str) -> PyResult<Py<PyAny>> {
        let s = &self.summary;
        Ok(match name {
            "arch" => s.arch.name().into_pyobject(py)?.into_any().unbind(),
            "op" => s.op.to_string().into_pyobject(py)?.into_any().unbind(),
            "banks" => s.banks.into_pyobject(py)?.into_any().unbind(),
            "worst_phase" => s.counts.worst_phase.into_pyobject(py)?.into_any().unbind(),
            _ => match s.metrics().into_iter().find(|m| m.key == name) {
                Some(m) => metric_value(py, m.value)?,
                None => return Err(not_native(name)),
            },
        })
    }

    /// Per-lane data as numpy arrays: for an instruction given by its
    /// addresses, `addresses` (`uint64`, 0 where inactive) and `active`
    /// (`bool`); for a tile's worst instruction, none.
    fn arrays<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        if let Detail::Lazy(addresses) = &self.detail {
            let a: Vec<u64> = addresses.iter().map(|a| a.unwrap_or(0)).collect();
            let active: Vec<bool> = addresses.iter().map(Option::is_some).collect();
            out.set_item("addresses", a.into_pyarray(py))?;
            out.set_item("active", active.into_pyarray(py))?;
        }
        Ok(out)
    }

    /// `cktile bank --json` (for a tile's worst instruction, its `worst`
    /// object).
    fn to_json(&self) -> PyResult<&str> {
        if let Some(text) = self.json.get() {
            return Ok(text);
        }
        let text = json(&InstructionJson::new(self.detail()?))?;
        Ok(self.json.get_or_init(|| text))
    }
}

/// A tile report with the layout it was made over (its JSON names the
/// layout's lengths and element space).
pub struct TileState {
    pub layout: Arc<layouts::Layout>,
    pub report: TileReport,
    /// gfx1250's partition check of a window (`partitions` in the JSON).
    pub partitions: Option<PartitionReport>,
    /// The peer the layout is answered in (`answer` in the JSON:
    /// `cktile analyze --as`).
    pub peer: Option<Peer>,
}

/// Every instruction of a tile: `cktile analyze --json`.
#[pyclass(frozen, module = "cktile._native")]
pub struct Tile {
    state: Arc<TileState>,
    json: OnceLock<String>,
}

impl Tile {
    /// The report `report` of `layout`, with its partition check where one
    /// ran, and the layout in `peer`'s terms where one is asked for.
    pub fn new(
        layout: Arc<layouts::Layout>,
        report: TileReport,
        partitions: Option<PartitionReport>,
        peer: Option<Peer>,
    ) -> Tile {
        Tile { state: Arc::new(TileState { layout, report, partitions, peer }), json: OnceLock::new() }
    }
}

#[pymethods]
impl Tile {
    /// The report's field `name` (a key of its JSON) when it is read
    /// natively: the metrics, `arch`, `op`, `pattern`, `element_bytes`,
    /// `element_space_size`, `lengths`, `worst_instruction` and `worst` (an
    /// [`Instruction`]); `KeyError` for `per_instruction`, which Python
    /// reads from [`to_json`](Self::to_json) ([`arrays`](Self::arrays) has
    /// it as numpy arrays).
    fn get(&self, py: Python<'_>, name: &str) -> PyResult<Py<PyAny>> {
        let r = &self.state.report;
        let desc = &self.state.layout.descriptor;
        Ok(match name {
            "arch" => r.arch.name().into_pyobject(py)?.into_any().unbind(),
            "op" => r.op.to_string().into_pyobject(py)?.into_any().unbind(),
            "pattern" => r.pattern.map(|p| p.name()).into_pyobject(py)?.into_any().unbind(),
            "element_bytes" => r.element_bytes.into_pyobject(py)?.into_any().unbind(),
            "element_space_size" => desc.element_space_size().into_pyobject(py)?.into_any().unbind(),
            "lengths" => desc.lengths().as_slice().to_vec().into_pyobject(py)?.into_any().unbind(),
            "worst_instruction" => r.counts.worst_instruction.into_pyobject(py)?.into_any().unbind(),
            "worst" => Py::new(py, Instruction::worst(&self.state))?.into_any(),
            _ => match r.metrics().into_iter().find(|m| m.key == name) {
                Some(m) => metric_value(py, m.value)?,
                None => return Err(not_native(name)),
            },
        })
    }

    /// Each instruction's counts as numpy `uint32` arrays, in issue order:
    /// `phases`, `cycles`, `conflict_cycles`, `max_ways`, `worst_phase` (the
    /// JSON's `per_instruction`) and `active_lanes`.
    fn arrays<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let counts = &self.state.report.instructions;
        let column = |f: fn(&Counts) -> u32| counts.iter().map(f).collect::<Vec<u32>>();
        let out = PyDict::new(py);
        out.set_item("phases", column(|c| c.phases).into_pyarray(py))?;
        out.set_item("cycles", column(|c| c.cycles).into_pyarray(py))?;
        out.set_item("conflict_cycles", column(|c| c.conflict_cycles).into_pyarray(py))?;
        out.set_item("max_ways", column(|c| c.max_ways).into_pyarray(py))?;
        out.set_item("worst_phase", column(|c| c.worst_phase).into_pyarray(py))?;
        out.set_item("active_lanes", column(|c| c.active_lanes).into_pyarray(py))?;
        Ok(out)
    }

    /// `cktile analyze --json`.
    fn to_json(&self) -> PyResult<&str> {
        if let Some(text) = self.json.get() {
            return Ok(text);
        }
        let desc = &self.state.layout.descriptor;
        let mut tile = TileJson::new(desc, &self.state.report);
        if let Some(p) = &self.state.partitions {
            tile = tile.with_partitions(p);
        }
        if let Some(peer) = self.state.peer {
            tile = tile.with_answer(desc, peer);
        }
        let text = json(&tile)?;
        Ok(self.json.get_or_init(|| text))
    }
}
