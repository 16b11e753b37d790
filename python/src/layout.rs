//! [`NativeLayout`]: one layout and everything asked of it, each answer
//! computed by the same library calls as the CLI subcommand named beside it.

use crate::reports::Tile;
use crate::{error, json, refuse};
use cktile::analyzer::{Arch, Op};
use cktile::codegen::{self, Lang, Options};
use cktile::json::{CheckJson, CoordinateJson, DmaPlanJson};
use cktile::plan::dma::{DmaRequest, Form, Order, Scheme, address, plan_ordered, verify, verify_addressing};
use cktile::render::svg::{banks, chain, grid};
use cktile::reports::accesses::{Accesses, Unresolved};
use cktile::{Index, check, layouts};
use numpy::{IntoPyArray, PyArrayDyn, PyArrayMethods};
use pyo3::prelude::*;
use rayon::prelude::*;
use std::sync::Arc;

/// A layout: a descriptor from spec text or a catalogue entry, with the
/// element type its text or the caller gives (`cktile.Layout` wraps it).
#[pyclass(frozen, module = "cktile._native")]
pub struct NativeLayout {
    /// The text it was built from (messages point into it).
    source: String,
    layout: Arc<layouts::Layout>,
}

/// The chip named `arch`, or a refusal naming the argument.
pub fn chip(arch: &str) -> PyResult<Arch> {
    Arch::by_name(arch).map_err(|e| refuse("arch", e))
}

/// The instruction named `op`, if any, or a refusal naming the argument.
fn instruction(op: Option<&str>) -> PyResult<Option<Op>> {
    op.map(Op::by_name).transpose().map_err(|e| refuse("op", e))
}

impl NativeLayout {
    /// The element size, or a refusal saying how to give one.
    fn element_bytes(&self) -> PyResult<usize> {
        self.layout.require_element_bytes().map_err(|e| refuse("dtype", e))
    }

    /// The accesses a pattern or a distribution with an instruction names
    /// (as `cktile analyze` resolves them), and the distribution's text.
    fn accesses(pattern: Option<&str>, distribution: Option<&str>, op: Option<&str>) -> PyResult<(Accesses, String)> {
        let op = instruction(op)?;
        let encoding = distribution.unwrap_or_default().to_string();
        match Accesses::resolve(pattern, distribution, op) {
            Ok(Some(a)) => Ok((a, encoding)),
            Ok(None) => Err(refuse("pattern", "give a pattern (e.g. pattern=\"mfma16\") or a distribution with op")),
            Err(Unresolved::Pattern(e)) => Err(refuse("pattern", e)),
            Err(Unresolved::Distribution(e)) => Err(error(&encoding, &e)),
            Err(Unresolved::NoOp(_)) => Err(refuse("op", "a distribution needs the instruction it issues (op=...)")),
        }
    }

    /// A failure of accesses over this layout: one with a position points
    /// into the distribution's text when there is one, else into the spec.
    fn access_error(&self, encoding: &str, e: &cktile::Error) -> PyErr {
        if e.position().is_some() && !encoding.is_empty() { error(encoding, e) } else { error(&self.source, e) }
    }
}

#[pymethods]
impl NativeLayout {
    /// Builds a layout from spec text or a catalogue entry (`name:k=v,...`),
    /// with `dtype` when the text names no element type.
    #[new]
    #[pyo3(signature = (text, dtype=None))]
    fn new(text: &str, dtype: Option<&str>) -> PyResult<NativeLayout> {
        if let Some(d) = dtype {
            layouts::dtype_bytes(d).map_err(|e| refuse("dtype", e))?;
        }
        let layout = layouts::resolve_typed(text, dtype).map_err(|e| error(text, &e))?;
        Ok(NativeLayout { source: text.to_string(), layout: Arc::new(layout) })
    }

    /// The text the layout was built from.
    #[getter]
    fn source(&self) -> &str {
        &self.source
    }

    /// The descriptor as spec text (one stage per line): pastes back into
    /// any command.
    #[getter]
    fn spec(&self) -> String {
        self.layout.descriptor.to_string()
    }

    /// The top lengths, one per dimension.
    #[getter]
    fn lengths(&self) -> Vec<Index> {
        self.layout.descriptor.lengths().as_slice().to_vec()
    }

    /// The element size in bytes, or `None` when nothing names one.
    #[getter]
    fn element_bytes_or_none(&self) -> Option<usize> {
        self.layout.element_bytes
    }

    /// The element space's size (CK's `get_element_space_size`).
    #[getter]
    fn element_space_size(&self) -> Index {
        self.layout.descriptor.element_space_size()
    }

    /// Every coordinate's offset and validity as numpy arrays of the
    /// layout's shape (`int64` and `bool`), as `cktile offsets` computes
    /// them ([`check::offsets`], batches through the compiled descriptor).
    #[allow(clippy::type_complexity)]
    fn offsets<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyArrayDyn<Index>>, Bound<'py, PyArrayDyn<bool>>)> {
        let desc = &self.layout.descriptor;
        let check::Offsets { offsets, valid } =
            py.detach(|| check::offsets(desc)).map_err(|e| error(&self.source, &e))?;
        let shape: Vec<usize> = desc.lengths().as_slice().iter().map(|&n| n as usize).collect();
        let offsets = offsets.into_pyarray(py).reshape(shape.clone())?;
        let valid = valid.into_pyarray(py).reshape(shape)?;
        Ok((offsets, valid))
    }

    /// One coordinate followed level by level (`cktile offsets --at ... --json`).
    fn trace_json(&self, coordinate: Vec<Index>) -> PyResult<String> {
        let t = check::trace(&self.layout.descriptor, &coordinate).map_err(|e| refuse("coordinate", e))?;
        json(&CoordinateJson::from(t))
    }

    /// `cktile check --json`.
    fn check_json(&self, py: Python<'_>) -> PyResult<String> {
        let desc = &self.layout.descriptor;
        let r = py.detach(|| check::check(desc)).map_err(|e| error(&self.source, &e))?;
        json(&CheckJson::new(&r))
    }

    /// `cktile matrix-desc`: whether `wgmma` (sm90) or `tcgen05.mma`
    /// (sm100) reads the layout through a shared-memory matrix descriptor.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (target, operand, major, swizzle, k_dim, instruction_mn, base))]
    fn matrix_desc_json(
        &self,
        py: Python<'_>,
        target: &str,
        operand: &str,
        major: Option<&str>,
        swizzle: Option<&str>,
        k_dim: usize,
        instruction_mn: Option<usize>,
        base: u64,
    ) -> PyResult<String> {
        use cktile::matrix_desc::{Operand, OperandMajor, Request, SwizzleMode, Target, judge};
        let req = Request {
            layout: &self.layout.descriptor,
            element_bytes: self.element_bytes()?,
            target: Target::by_name(target).map_err(|e| refuse("target", e))?,
            operand: Operand::by_name(operand).map_err(|e| refuse("operand", e))?,
            major: major.map(OperandMajor::by_name).transpose().map_err(|e| refuse("major", e))?,
            swizzle: swizzle.map(SwizzleMode::by_name).transpose().map_err(|e| refuse("swizzle", e))?,
            k_dim,
            instruction_mn,
            base,
        };
        let v = py.detach(|| judge(&req)).map_err(|e| error(&self.source, &e))?;
        json(&cktile::json::MatrixDescJson::new(&self.source, &v).map_err(|e| error(&self.source, &e))?)
    }

    /// `cktile tma`: whether one TMA copy writes the layout, and its
    /// tensor map.
    #[pyo3(signature = (global_strides, target, global_shape, swizzle, base))]
    fn tma_json(
        &self,
        py: Python<'_>,
        global_strides: Vec<i64>,
        target: &str,
        global_shape: Option<Vec<u64>>,
        swizzle: Option<&str>,
        base: u64,
    ) -> PyResult<String> {
        use cktile::tma::{TmaRequest, judge, tma_by_name};
        let req = TmaRequest {
            layout: &self.layout.descriptor,
            element_bytes: self.element_bytes()?,
            global_strides,
            global_shape,
            target: cktile::matrix_desc::Target::by_name(target).map_err(|e| refuse("target", e))?,
            swizzle: swizzle.map(tma_by_name).transpose().map_err(|e| refuse("swizzle", e))?,
            base,
        };
        let v = py.detach(|| judge(&req)).map_err(|e| error(&self.source, &e))?;
        json(&cktile::json::TmaJson::new(&self.source, &v))
    }

    /// `cktile analyze`: the accesses of a pattern, or of a tile window
    /// over a distribution issuing `op`, on `arch`, as a native report;
    /// with `answer_as` (`cktile analyze --as`), the layout in that peer's
    /// terms too (the JSON's `answer`).
    #[pyo3(signature = (arch, pattern=None, distribution=None, op=None, lds_base=None, answer_as=None))]
    #[allow(clippy::too_many_arguments)]
    fn analyze(
        &self,
        py: Python<'_>,
        arch: &str,
        pattern: Option<&str>,
        distribution: Option<&str>,
        op: Option<&str>,
        lds_base: Option<u64>,
        answer_as: Option<&str>,
    ) -> PyResult<Tile> {
        let peer = answer_as.map(cktile::export::Peer::by_name).transpose().map_err(|e| refuse("answer_as", e))?;
        let element_bytes = self.element_bytes()?;
        let arch = chip(arch)?;
        let (accesses, encoding) = Self::accesses(pattern, distribution, op)?;
        let desc = &self.layout.descriptor;
        let r = py.detach(|| accesses.analyze(desc, element_bytes, &arch, &mut |_, _| {}));
        let r = r.map_err(|e| self.access_error(&encoding, &e))?;
        let p = py.detach(|| accesses.partitions(desc, element_bytes, &arch, lds_base));
        let p = p.map_err(|e| refuse("lds_base", e))?;
        Ok(Tile::new(self.layout.clone(), r, p, peer))
    }

    /// `cktile dma-plan --json`: direct global-to-LDS loads that fill the
    /// layout and their instructions, simulated byte for byte before they
    /// are returned.
    #[pyo3(signature = (global_strides, width, arch="gfx942", workgroup=256, wave=64, order="wave-major", form="global", m0="immediate", lds_base=0))]
    #[allow(clippy::too_many_arguments)]
    fn dma_plan_json(
        &self,
        py: Python<'_>,
        global_strides: Vec<i64>,
        width: usize,
        arch: &str,
        workgroup: usize,
        wave: usize,
        order: &str,
        form: &str,
        m0: &str,
        lds_base: u64,
    ) -> PyResult<String> {
        let element_bytes = self.element_bytes()?;
        let req = DmaRequest {
            lds: &self.layout.descriptor,
            element_bytes,
            global_strides,
            arch: chip(arch)?,
            workgroup,
            wave,
            width,
        };
        let order = Order::by_name(order).map_err(|e| refuse("order", e))?;
        let form = Form::by_name(form).map_err(|e| refuse("form", e))?;
        let scheme = Scheme::by_name(m0).map_err(|e| refuse("m0", e))?;
        let p = py.detach(|| plan_ordered(&req, order)).map_err(|e| refuse("dma_plan", e))?;
        py.detach(|| verify(&req, &p))
            .map_err(|e| refuse("dma_plan", format!("internal: the plan failed its simulation: {e}")))?;
        let a = address(&p, &req.arch, form, scheme, lds_base).map_err(|e| refuse("dma_plan", e))?;
        py.detach(|| verify_addressing(&req, &p, &a))
            .map_err(|e| refuse("dma_plan", format!("internal: the instructions failed their simulation: {e}")))?;
        json(&DmaPlanJson::new(&self.source, &req.arch, element_bytes, &p, &a))
    }

    /// `cktile dma-plan --arch gfx1250 --json`: the one Tensor Data Mover
    /// load that fills the layout, replayed byte for byte.
    fn tdm_plan_json(&self, py: Python<'_>, global_strides: Vec<i64>) -> PyResult<String> {
        use cktile::plan::tdm::{plan, verify};
        let element_bytes = self.element_bytes()?;
        let (desc, arch) = (&self.layout.descriptor, cktile::analyzer::arch::GFX1250);
        let p = py.detach(|| plan(desc, element_bytes, &global_strides, &arch)).map_err(|e| error(&self.source, &e))?;
        py.detach(|| verify(desc, element_bytes, &p))
            .map_err(|e| refuse("tdm_plan", format!("internal: the plan failed its replay: {e}")))?;
        json(&cktile::json::TdmPlanJson::new(&arch, &p, &global_strides))
    }

    /// `cktile dma-plan --arch gfx1250 --path async --json`: every lane's
    /// asynchronous load, replayed byte for byte.
    #[pyo3(signature = (global_strides, width, workgroup=256))]
    fn async_plan_json(
        &self,
        py: Python<'_>,
        global_strides: Vec<i64>,
        width: usize,
        workgroup: usize,
    ) -> PyResult<String> {
        use cktile::plan::async_lds::{AsyncRequest, plan, verify};
        let element_bytes = self.element_bytes()?;
        let arch = cktile::analyzer::arch::GFX1250;
        let req = AsyncRequest { lds: &self.layout.descriptor, element_bytes, global_strides, arch, workgroup, width };
        let p = py.detach(|| plan(&req)).map_err(|e| error(&self.source, &e))?;
        py.detach(|| verify(&req, &p))
            .map_err(|e| refuse("async_plan", format!("internal: the plan failed its replay: {e}")))?;
        json(&cktile::json::AsyncPlanJson::new(&arch, element_bytes, &p))
    }

    /// `cktile export --as PEER --json`: the layout in Triton's or CuTe's
    /// own terms, checked at every coordinate, or refused.
    fn export_json(&self, py: Python<'_>, peer: &str) -> PyResult<String> {
        let desc = &self.layout.descriptor;
        let e = match peer {
            "triton" => py.detach(|| cktile::export::triton(desc)),
            "cute" => py.detach(|| cktile::export::cute(desc).map(cktile::export::Exported::Cute)),
            other => {
                return Err(refuse(
                    "peer",
                    format!("`{}` is not a peer cktile exports to; give triton or cute", cktile::Visible(other)),
                ));
            }
        }
        .map_err(|e| error(&self.source, &e))?;
        json(&cktile::json::ExportJson::new(desc, &e))
    }

    /// `cktile codegen`: CUDA or HIP offset functions.
    #[pyo3(signature = (lang, name=None))]
    fn codegen(&self, lang: &str, name: Option<&str>) -> PyResult<String> {
        let lang = Lang::by_name(lang).map_err(|e| refuse("lang", e))?;
        let options = Options::for_layout(&self.source, lang, name);
        codegen::check_name(&options.name).map_err(|e| refuse("name", e))?;
        let g = codegen::generate(&self.layout.descriptor, &options).map_err(|e| error(&self.source, &e))?;
        Ok(g.code)
    }

    /// `cktile render --view grid`: every coordinate's offset, coloured by bank.
    #[pyo3(signature = (title, arch="gfx942", op=None, rows=None, cols=None))]
    fn grid_svg(
        &self,
        title: &str,
        arch: &str,
        op: Option<&str>,
        rows: Option<usize>,
        cols: Option<usize>,
    ) -> PyResult<String> {
        let arch = chip(arch)?;
        let mut o = grid::GridOptions::for_chip(title, self.element_bytes()?, &arch, instruction(op)?);
        o.rows = rows;
        o.cols = cols;
        grid::grid(&self.layout.descriptor, &o).map_err(|e| error(&self.source, &e))
    }

    /// `cktile render --view banks`: one instruction's lanes against banks.
    #[pyo3(signature = (title, arch, pattern=None, distribution=None, op=None, instruction=None))]
    #[allow(clippy::too_many_arguments)]
    fn banks_svg(
        &self,
        py: Python<'_>,
        title: &str,
        arch: &str,
        pattern: Option<&str>,
        distribution: Option<&str>,
        op: Option<&str>,
        instruction: Option<usize>,
    ) -> PyResult<String> {
        let element_bytes = self.element_bytes()?;
        let arch = chip(arch)?;
        let (accesses, encoding) = Self::accesses(pattern, distribution, op)?;
        let desc = &self.layout.descriptor;
        let svg = py.detach(|| banks::accesses_heat_map(desc, element_bytes, &arch, &accesses, instruction, title));
        svg.map_err(|e| self.access_error(&encoding, &e))
    }

    /// `cktile render --view chain`: the stages from the top coordinate
    /// down to the offset.
    fn chain_svg(&self, title: &str) -> String {
        chain::chain(&self.layout.descriptor, title)
    }
}

/// `analyze` of many layouts under the same accesses, on every core with
/// the GIL released: the reports in the order of `layouts`, or the error of
/// the first layout that has one (the error `analyze` raises for it).
#[pyfunction]
#[pyo3(signature = (layouts, arch, pattern=None, distribution=None, op=None))]
pub fn analyze_many(
    py: Python<'_>,
    layouts: Vec<Bound<'_, NativeLayout>>,
    arch: &str,
    pattern: Option<&str>,
    distribution: Option<&str>,
    op: Option<&str>,
) -> PyResult<Vec<Tile>> {
    let arch = chip(arch)?;
    let (accesses, encoding) = NativeLayout::accesses(pattern, distribution, op)?;
    let layouts: Vec<&NativeLayout> = layouts.iter().map(Bound::get).collect();
    let element_bytes = layouts.iter().map(|l| l.element_bytes()).collect::<PyResult<Vec<usize>>>()?;
    let reports = py.detach(|| {
        layouts
            .par_iter()
            .zip(element_bytes.par_iter())
            .map(|(l, &eb)| {
                let d = &l.layout.descriptor;
                let r = accesses.analyze(d, eb, &arch, &mut |_, _| {})?;
                Ok((r, accesses.partitions(d, eb, &arch, None)?))
            })
            .collect::<Vec<Result<_, cktile::Error>>>()
    });
    layouts
        .iter()
        .zip(reports)
        .map(|(l, r)| {
            r.map(|(r, p)| Tile::new(l.layout.clone(), r, p, None)).map_err(|e| l.access_error(&encoding, &e))
        })
        .collect()
}
