//! The questions that do not start from one layout: one instruction's banks
//! (`cktile bank`), the layout search (`cktile search`), tile distributions
//! (`cktile distribution`, `cktile render --view distribution`), the
//! catalogue (`cktile catalogue`) and the names every argument accepts.

use crate::layout::{analyze_many, chip};
use crate::reports::Instruction;
use crate::{error, json, message, refuse};
use cktile::analyzer::model::validate_shared;
use cktile::analyzer::{ARCHS, Op};
use cktile::distribution::Distribution;
use cktile::export::Peer;
use cktile::json::{CatalogueEntryJson, DistributionJson, RuleJson, SearchJson};
use cktile::lanes::{Table, coverage::Coverage};
use cktile::reports::models::Model;
use cktile::search::{Access, DEFAULT_LISTED, Problem, Role, search, under_model};
use cktile::spelling::resolve;
use cktile::{layouts, render};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyList, PyTuple};

/// `cktile bank`: one instruction's conflicts, from one byte address per
/// lane (`None`: the lane is inactive), as a native report; `None` when the
/// addresses are not all `None` or exact integers in `0..2^64` (a list, a
/// tuple or a 1-D numpy integer array): Python then checks them one by one,
/// naming the one at fault, and calls again with what it read.
#[pyfunction]
fn bank(arch: &str, op: &str, addresses: &Bound<'_, PyAny>) -> PyResult<Option<Instruction>> {
    let Some(addresses) = lanes(addresses)? else { return Ok(None) };
    let arch = chip(arch)?;
    let op = Op::by_name(op).map_err(|e| refuse("op", e))?;
    validate_shared(&arch, op, &addresses).map_err(|e| refuse("addresses", e))?;
    Instruction::counted(&arch, op, addresses).map(Some).map_err(|e| refuse("addresses", e))
}

/// Reads one address per lane when every one is `None` or an exact `int`
/// in `0..2^64` (from a list or tuple), or the array is a 1-D numpy array
/// of a fixed-size integer type with no negative value; `None` otherwise.
fn lanes(addresses: &Bound<'_, PyAny>) -> PyResult<Option<Vec<Option<u64>>>> {
    fn items<'py>(items: impl Iterator<Item = Bound<'py, PyAny>>) -> Option<Vec<Option<u64>>> {
        items
            .map(|a| match () {
                _ if a.is_none() => Some(None),
                _ if a.is_exact_instance_of::<PyInt>() => a.extract::<u64>().ok().map(Some),
                _ => None,
            })
            .collect()
    }
    if let Ok(list) = addresses.cast_exact::<PyList>() {
        return Ok(items(list.iter()));
    }
    if let Ok(tuple) = addresses.cast_exact::<PyTuple>() {
        return Ok(items(tuple.iter()));
    }
    macro_rules! array_of {
        ($($t:ty),*) => {$(
            if let Ok(a) = addresses.cast::<PyArray1<$t>>() {
                let a = a.readonly();
                let a = a.as_array();
                return Ok(a.iter().map(|&v| u64::try_from(v).ok().map(Some)).collect());
            }
        )*};
    }
    array_of!(u64, i64, u32, i32, u16, i16, u8, i8);
    Ok(None)
}

/// `cktile search --json`: the layouts of a `rows x cols` tile that cost the
/// fewest bank passes over its writes and reads.
#[pyfunction]
#[pyo3(signature = (rows, cols, dtype, arch, writes, reads, max_padding_bytes=None, vector=None, model=None, answer_as=None))]
#[allow(clippy::too_many_arguments)]
fn search_json(
    py: Python<'_>,
    rows: usize,
    cols: usize,
    dtype: &str,
    arch: &str,
    writes: Vec<String>,
    reads: Vec<String>,
    max_padding_bytes: Option<u64>,
    vector: Option<usize>,
    model: Option<&str>,
    answer_as: Option<&str>,
) -> PyResult<String> {
    let element_bytes = layouts::dtype_bytes(dtype).map_err(|e| refuse("dtype", e))?;
    let model = model.map(Model::by_name).transpose().map_err(|e| refuse("model", e))?;
    let peer = answer_as.map(Peer::by_name).transpose().map_err(|e| refuse("answer_as", e))?;
    let mut problem = Problem::new(rows, cols, element_bytes, chip(arch)?);
    for (role, list, name) in [(Role::Write, &writes, "writes"), (Role::Read, &reads, "reads")] {
        for (i, text) in list.iter().enumerate() {
            let access = Access::parse(text).map_err(|e| refuse(&format!("{name}[{i}]"), e))?;
            problem = problem.access(role, access);
        }
    }
    if let Some(m) = max_padding_bytes {
        problem = problem.max_padding_bytes(m);
    }
    if let Some(v) = vector {
        problem = problem.vector(v);
    }
    let r = py.detach(|| search(&problem)).map_err(|e| refuse("search", e))?;
    let mut report = SearchJson::new(&r);
    if let Some(m) = model {
        // As `cktile search --model` judges them, at its default --top.
        let judged = py.detach(|| under_model(&r, m, DEFAULT_LISTED)).map_err(|e| refuse("model", e))?;
        report = report.with_model(m, &judged);
    }
    if let Some(p) = peer {
        report = report.with_answers(&r, p);
    }
    json(&report)
}

/// `cktile hopper-plan --json`: the canonical layouts of a Hopper or
/// Blackwell tile that TMA writes and the MMA reads, ranked.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (rows, cols, dtype, global_strides, target, operand, epilogue, accesses))]
fn hopper_plan_json(
    py: Python<'_>,
    rows: usize,
    cols: usize,
    dtype: &str,
    global_strides: Vec<i64>,
    target: &str,
    operand: &str,
    epilogue: bool,
    accesses: Vec<String>,
) -> PyResult<String> {
    use cktile::matrix_desc::{Operand, Target};
    use cktile::plan::hopper::{HopperRequest, plan};
    let element_bytes = layouts::dtype_bytes(dtype).map_err(|e| refuse("dtype", e))?;
    let [row, col] = global_strides[..] else {
        return Err(refuse(
            "global_strides",
            format!("{} strides; give two, for the rows and the columns", global_strides.len()),
        ));
    };
    let target = Target::by_name(target).map_err(|e| refuse("target", e))?;
    let mut req = HopperRequest::new(rows, cols, element_bytes, target, [row, col]);
    req.operand = Operand::by_name(operand).map_err(|e| refuse("operand", e))?;
    req.mma = !epilogue;
    for (i, text) in accesses.iter().enumerate() {
        let p = cktile::analyzer::Pattern::from_access(text).map_err(|e| refuse(&format!("accesses[{i}]"), e))?;
        req.accesses.push(p);
    }
    let candidates = py.detach(|| plan(&req)).map_err(|e| refuse("hopper_plan", e))?;
    json(&cktile::json::HopperPlanJson::new(&candidates))
}

/// A distribution from CK's C++ spelling, cktile's or a catalogue name.
fn distribution(text: &str) -> PyResult<Distribution> {
    resolve(text).and_then(|e| Ok(Distribution::new(e)?)).map_err(|e| error(text, &e))
}

/// As [`distribution`], a refusal naming the argument `name`.
fn distribution_named(name: &str, text: &str) -> PyResult<Distribution> {
    resolve(text).and_then(|e| Ok(Distribution::new(e)?)).map_err(|e| refuse(name, message(text, &e)))
}

/// `cktile distribution --json [--tile ...]`: the lengths, the coverage of
/// `tile` (X's own lengths when `None`) and every thread's coordinates.
#[pyfunction]
#[pyo3(signature = (text, tile=None))]
fn distribution_json(text: &str, tile: Option<Vec<i64>>) -> PyResult<String> {
    let d = distribution(text)?;
    let table = Table::new(&d).map_err(|e| error(text, &e))?;
    let coverage = Coverage::new(&d, tile.as_deref()).map_err(|e| refuse("tile", message("", &e)))?;
    json(&DistributionJson::new(&d, &table, &coverage))
}

/// `cktile render --view distribution`: the owner grid of a 2-D X.
#[pyfunction]
#[pyo3(signature = (text, title, rows=None, cols=None))]
fn distribution_svg(text: &str, title: &str, rows: Option<usize>, cols: Option<usize>) -> PyResult<String> {
    let d = distribution(text)?;
    render::svg::owners::owners(&d, title, rows, cols).map_err(|e| error(text, &e))
}

/// `cktile catalogue --json`: every layout entry with its parameters and example.
#[pyfunction]
fn catalogue_json() -> PyResult<String> {
    let entries = layouts::CATALOGUE.iter().map(|e| CatalogueEntryJson::new(e).map_err(|err| error(e.example, &err)));
    json(&entries.collect::<PyResult<Vec<_>>>()?)
}

/// `cktile rules --json`: the analyzer's rule table, for one chip or all.
#[pyfunction]
#[pyo3(signature = (arch=None))]
fn rules_json(arch: Option<&str>) -> PyResult<String> {
    let arch = arch.map(chip).transpose()?;
    let rows = render::rules::rows(arch.as_ref());
    json(&rows.iter().map(RuleJson::new).collect::<Vec<_>>())
}

/// The CuTe swizzles that realise an XOR-linear map of a linear index
/// ([`cktile::layouts::xor_linear::runs`]): bit `column_bits + j` of the
/// vector index (vectors of `2^vec_bits` elements) flips the vector bits set
/// in `masks[j]`. Each run is `(B, M, S)`, `Swizzle<B,M,S>`; the importers
/// write Triton's linear layouts with them.
#[pyfunction]
fn swizzle_runs(masks: Vec<usize>, column_bits: u32, vec_bits: u32) -> PyResult<Vec<(u32, u32, i32)>> {
    use cktile::layouts::xor_linear::{MAX_ROW_BITS, Run, runs};
    if masks.len() > MAX_ROW_BITS {
        return Err(refuse("masks", format!("{} masks; at most {MAX_ROW_BITS}", masks.len())));
    }
    let bound = column_bits.checked_add(vec_bits).filter(|&b| b < usize::BITS);
    if bound.is_none() || masks.iter().any(|&m| m >> column_bits.min(usize::BITS - 1) != 0) {
        return Err(refuse("masks", format!("each mask must be below 2^column_bits = 2^{column_bits}")));
    }
    let mut out = vec![Run { bits: 0, base: 0, shift: 0 }; masks.len() * column_bits as usize];
    let n = runs(&masks, column_bits, vec_bits, &mut out);
    Ok(out[..n.min(out.len())].iter().map(|r| (r.bits, r.base, r.shift)).collect())
}

/// `cktile equiv --json` of two layouts (spec text or catalogue entries).
#[pyfunction]
fn equiv_layouts_json(py: Python<'_>, a: &str, b: &str) -> PyResult<String> {
    let da = cktile::layouts::resolve(a).map_err(|e| refuse("a", message(a, &e)))?;
    let db = cktile::layouts::resolve(b).map_err(|e| refuse("b", message(b, &e)))?;
    let v = py.detach(|| cktile::check::equiv::equivalent(&da, &db));
    json(&cktile::json::EquivJson::layouts(&v))
}

/// `cktile equiv --json` of two distributions (either spelling, or catalogue names).
#[pyfunction]
fn equiv_distributions_json(py: Python<'_>, a: &str, b: &str) -> PyResult<String> {
    let (da, db) = (distribution_named("a", a)?, distribution_named("b", b)?);
    let v = py.detach(|| cktile::lanes::equiv::equivalent(&da, &db)).map_err(|e| refuse("a", e))?;
    json(&cktile::json::EquivJson::distributions(&v))
}

/// `cktile transpose-load --json`: whether CK's `load_tile_transpose`
/// accepts the distribution for the transposing read `op`, and the
/// registers it returns (`reverse`: the distribution to read with).
#[pyfunction]
#[pyo3(signature = (text, op, reverse=false))]
fn transpose_json(text: &str, op: &str, reverse: bool) -> PyResult<String> {
    use cktile::analyzer::op::Op;
    use cktile::distribution::catalogue::transpose::{TrElement, transpose};
    let elem = match Op::by_name(op) {
        Ok(Op::DsReadTr { element_bits }) => TrElement::from_bits(element_bits),
        Ok(_) => None,
        Err(e) => return Err(refuse("op", e)),
    }
    .ok_or_else(|| {
        refuse(
            "op",
            format!(
                "`{}` is not a transposing read; give ds_read_b64_tr_b16, ds_read_b64_tr_b8 or ds_read_b64_tr_b4",
                cktile::Visible(op)
            ),
        )
    })?;
    let d = distribution(text)?;
    let v = transpose(d.encoding(), elem, reverse).map_err(|e| error(text, &e.into()))?;
    json(&cktile::json::TransposeJson::new(&v, elem, reverse).map_err(|e| error(text, &e))?)
}

/// `cktile bank --model NAME`: a public model of AMD's LDS answering one
/// instruction (`cktile::reports::models`), as JSON; its refusal where its
/// source is silent.
#[pyfunction]
fn model_answer_json(model: &str, arch: &str, op: &str, addresses: Vec<Option<u64>>) -> PyResult<String> {
    let model = cktile::reports::models::Model::by_name(model).map_err(|e| refuse("model", e))?;
    let arch = chip(arch)?;
    let op = Op::by_name(op).map_err(|e| refuse("op", e))?;
    validate_shared(&arch, op, &addresses).map_err(|e| refuse("addresses", e))?;
    let answer = cktile::json::ModelAnswerJson::new(model, &arch, op, &addresses).map_err(|e| refuse("model", e))?;
    json(&answer)
}

/// `cktile rules --disagreements --json`: the corpus' access patterns on
/// which the public models of AMD's LDS disagree (one chip, or every AMD
/// chip).
#[pyfunction]
#[pyo3(signature = (arch=None))]
fn disagreements_json(arch: Option<&str>) -> PyResult<String> {
    let arch = arch.map(chip).transpose()?;
    let found = cktile::reports::disagreements::disagreements(arch.as_ref());
    json(&found.iter().map(cktile::json::DisagreementJson::new).collect::<Vec<_>>())
}

/// A picture's default title for a layout's text (`cktile render`'s).
#[pyfunction]
fn title_of(text: &str) -> String {
    render::svg::title_of(text)
}

/// The names the arguments accept, one per item: chips, patterns, element
/// types, catalogue entries, the distributions' name forms (a family's
/// members in braces, `mfma16x16x16_{a,b,c,c_transposed}`) and the
/// instructions.
#[pyfunction]
fn names() -> Vec<(&'static str, Vec<String>)> {
    let split = |list: &str| list.split(", ").map(str::to_string).collect::<Vec<_>>();
    vec![
        ("archs", ARCHS.iter().map(|a| a.name().to_string()).collect()),
        ("patterns", split(cktile::analyzer::pattern_name::PATTERN_NAMES)),
        ("dtypes", layouts::DTYPE_NAMES.iter().map(|(n, _)| n.to_string()).collect()),
        ("layouts", layouts::CATALOGUE.iter().map(|e| e.name.to_string()).collect()),
        (
            "distributions",
            cktile::distribution::catalogue::FAMILIES.iter().flat_map(|f| f.names).map(|n| n.to_string()).collect(),
        ),
        ("ops", cktile::analyzer::op::all_ops().map(|op| op.name().to_string()).collect()),
        ("models", cktile::reports::models::MODELS.iter().map(|m| m.name().to_string()).collect()),
    ]
}

/// Adds the functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bank, m)?)?;
    m.add_function(wrap_pyfunction!(analyze_many, m)?)?;
    m.add_function(wrap_pyfunction!(search_json, m)?)?;
    m.add_function(wrap_pyfunction!(hopper_plan_json, m)?)?;
    m.add_function(wrap_pyfunction!(distribution_json, m)?)?;
    m.add_function(wrap_pyfunction!(distribution_svg, m)?)?;
    m.add_function(wrap_pyfunction!(catalogue_json, m)?)?;
    m.add_function(wrap_pyfunction!(rules_json, m)?)?;
    m.add_function(wrap_pyfunction!(model_answer_json, m)?)?;
    m.add_function(wrap_pyfunction!(disagreements_json, m)?)?;
    m.add_function(wrap_pyfunction!(title_of, m)?)?;
    m.add_function(wrap_pyfunction!(swizzle_runs, m)?)?;
    m.add_function(wrap_pyfunction!(equiv_layouts_json, m)?)?;
    m.add_function(wrap_pyfunction!(equiv_distributions_json, m)?)?;
    m.add_function(wrap_pyfunction!(names, m)?)?;
    m.add_function(wrap_pyfunction!(transpose_json, m)?)?;
    Ok(())
}
