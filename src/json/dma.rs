//! The report of `cktile dma-plan`.

use crate::analyzer::Arch;
use crate::plan::async_lds::AsyncPlan;
use crate::plan::dma::{Addressing, DmaPlan, M0Write};
use crate::plan::tdm::TdmPlan;
use serde::ser::{Serialize, SerializeSeq, Serializer};

/// Every gather of a plan with its subgroup, load and lane, written one by
/// one (a plan can hold a million gathers).
#[derive(Clone, Copy)]
struct Gathers<'a>(&'a DmaPlan, &'a Addressing);

#[derive(serde::Serialize)]
struct GatherJson<'a> {
    coordinate: &'a [i64],
    global_byte: i64,
    lane: usize,
    lds_byte: u64,
    load: usize,
    operand: Option<i64>,
    subgroup: usize,
}

impl Serialize for Gathers<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (p, a) = (self.0, self.1);
        let mut seq = s.serialize_seq(Some(p.gathers.len()))?;
        for (at, g) in p.indexed() {
            seq.serialize_element(&GatherJson {
                coordinate: &g.coordinate,
                global_byte: g.global_byte,
                lane: at.lane,
                lds_byte: g.lds_byte,
                load: at.load,
                operand: a.lane_operand(p, at.subgroup, at.lane, at.load),
                subgroup: at.subgroup,
            })?;
        }
        seq.end()
    }
}

/// One load's addressing.
#[derive(Clone, Copy, Debug, serde::Serialize)]
struct IssueJson {
    load: usize,
    m0: u32,
    /// `s_mov_b32`, `s_add_u32`, or null when `m0` is kept.
    m0_instruction: Option<&'static str>,
    /// The value moved or added.
    m0_operand: Option<u32>,
    offset: i32,
    subgroup: usize,
}

/// The instructions: form, `m0` scheme, immediates.
#[derive(Clone, Debug, serde::Serialize)]
struct AddressingJson {
    form: &'static str,
    instruction: &'static str,
    issues: alloc::vec::Vec<IssueJson>,
    lds_base: u32,
    m0_writes_per_subgroup: alloc::vec::Vec<usize>,
    offset_range: [i64; 2],
    scheme: &'static str,
}

impl AddressingJson {
    fn new(p: &DmaPlan, a: &Addressing) -> AddressingJson {
        let issues = a
            .issues
            .iter()
            .map(|i| IssueJson {
                load: i.load,
                m0: i.m0,
                m0_instruction: i.write.instruction(),
                m0_operand: match i.write {
                    M0Write::Set(v) | M0Write::Add(v) => Some(v),
                    M0Write::Keep => None,
                },
                offset: i.offset,
                subgroup: i.subgroup,
            })
            .collect();
        let (lo, hi) = a.form.offset_range();
        AddressingJson {
            form: a.form.name(),
            instruction: a.form.mnemonic(p.width),
            issues,
            lds_base: a.lds_base,
            m0_writes_per_subgroup: (0..p.subgroups).map(|g| a.m0_writes(g)).collect(),
            offset_range: [lo, hi],
            scheme: a.scheme.name(),
        }
    }
}

/// `cktile dma-plan --json`: the plan's shape, its instructions (`m0` and
/// immediates) and every gather, with the (subgroup, load, lane) that issues
/// it and the address operand the lane passes (`operand`: the global byte
/// minus the load's immediate). Serialize it with [`serde_json::to_writer`]
/// to stream the gathers.
///
/// ```
/// use cktile::analyzer::arch;
/// use cktile::plan::dma::{DmaRequest, Form, Scheme, address, plan};
/// let d = cktile::Descriptor::packed(&[16, 64])?;
/// let req = DmaRequest { lds: &d, element_bytes: 4, global_strides: vec![64, 1], arch: arch::GFX942, workgroup: 256, wave: 64, width: 4 };
/// let p = plan(&req)?;
/// let a = address(&p, &req.arch, Form::Global, Scheme::Immediate, 0)?;
/// let out = serde_json::to_string(&cktile::json::DmaPlanJson::new("packed((16,64))", &arch::GFX942, 4, &p, &a)).unwrap();
/// assert!(out.starts_with(r#"{"addressing":{"form":"global","instruction":"global_load_lds_dword","issues":[{"load":0,"m0":0,"#));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, serde::Serialize)]
pub struct DmaPlanJson<'a> {
    addressing: AddressingJson,
    arch: &'static str,
    element_bytes: usize,
    gathers: Gathers<'a>,
    lds_bytes: u64,
    loads_per_thread: usize,
    order: &'static str,
    slice_bytes: u64,
    spec: &'a str,
    subgroups: usize,
    verified: bool,
    wave: usize,
    width: usize,
}

impl core::fmt::Debug for Gathers<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} gathers", self.0.gathers.len())
    }
}

impl<'a> DmaPlanJson<'a> {
    /// The view of `p`, a plan for the layout written as `spec` (trimmed)
    /// on `arch` with `element_bytes`-byte elements, and of its instructions
    /// `a`, both of which the caller has verified
    /// ([`verify`](crate::plan::dma::verify),
    /// [`verify_addressing`](crate::plan::dma::verify_addressing)).
    ///
    /// ```
    /// # use cktile::analyzer::arch;
    /// # use cktile::plan::dma::{DmaRequest, Form, Scheme, address, plan};
    /// # let d = cktile::Descriptor::packed(&[16, 64])?;
    /// # let req = DmaRequest { lds: &d, element_bytes: 4, global_strides: vec![64, 1], arch: arch::GFX942, workgroup: 256, wave: 64, width: 4 };
    /// let p = plan(&req)?;
    /// let a = address(&p, &req.arch, Form::Buffer, Scheme::Ck, 0)?;
    /// let _ = cktile::json::DmaPlanJson::new(" packed((16,64))\n", &arch::GFX942, 4, &p, &a);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn new(spec: &'a str, arch: &Arch, element_bytes: usize, p: &'a DmaPlan, a: &'a Addressing) -> DmaPlanJson<'a> {
        DmaPlanJson {
            addressing: AddressingJson::new(p, a),
            arch: arch.name(),
            element_bytes,
            gathers: Gathers(p, a),
            lds_bytes: p.lds_bytes,
            loads_per_thread: p.loads_per_thread,
            order: p.order.name(),
            slice_bytes: p.slice_bytes,
            spec: spec.trim(),
            subgroups: p.subgroups,
            verified: true,
            wave: p.wave,
            width: p.width,
        }
    }
}

/// gfx1250's Tensor Data Mover plan (`cktile dma-plan --arch gfx1250
/// --json`): the tile, its padding and the descriptor's group 1 dword 0.
///
/// ```
/// use cktile::analyzer::arch;
/// let tile = cktile::layouts::resolve("row-padded:rows=64,cols=64,pad=4")?;
/// let p = cktile::plan::tdm::plan(&tile, 2, &[4096, 1], &arch::GFX1250)?;
/// let out = serde_json::to_string(&cktile::json::TdmPlanJson::new(&arch::GFX1250, &p, &[4096, 1])).unwrap();
/// assert!(out.contains(r#""padding":{"amount_bytes":8,"interval_bytes":128}"#), "{out}");
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, serde::Serialize)]
pub struct TdmPlanJson<'a> {
    arch: &'static str,
    element_bytes: usize,
    elements: u64,
    global_strides: &'a [i64],
    group1_dword0: u32,
    instruction: &'static str,
    lds_bytes: u64,
    padding: Option<TdmPaddingJson>,
    shape: &'a [i64],
}

#[derive(Clone, Debug, serde::Serialize)]
struct TdmPaddingJson {
    amount_bytes: u64,
    interval_bytes: u64,
}

impl<'a> TdmPlanJson<'a> {
    /// The view of `p`, planned on `arch` for a global tensor of `global_strides`.
    pub fn new(arch: &Arch, p: &'a TdmPlan, global_strides: &'a [i64]) -> TdmPlanJson<'a> {
        TdmPlanJson {
            arch: arch.name(),
            element_bytes: p.element_bytes,
            elements: p.elements,
            global_strides,
            group1_dword0: p.group1_dword0,
            instruction: "tensor_load_to_lds",
            lds_bytes: p.lds_bytes,
            padding: p
                .padding
                .map(|q| TdmPaddingJson { amount_bytes: q.amount_bytes, interval_bytes: q.interval_bytes }),
            shape: &p.shape,
        }
    }
}

/// gfx1250's asynchronous load plan (`cktile dma-plan --arch gfx1250
/// --path async --json`): every lane's load and the LDS writes' worst ways.
///
/// ```
/// use cktile::analyzer::arch;
/// use cktile::plan::async_lds::{AsyncRequest, plan};
/// let tile = cktile::layouts::resolve("row-padded:rows=64,cols=64,pad=8")?;
/// let req = AsyncRequest { lds: &tile, element_bytes: 2, global_strides: vec![4096, 1], arch: arch::GFX1250, workgroup: 256, width: 16 };
/// let p = plan(&req)?;
/// let out = serde_json::to_string(&cktile::json::AsyncPlanJson::new(&arch::GFX1250, 2, &p)).unwrap();
/// assert!(out.contains(r#""instruction":"global_load_async_to_lds_b128""#), "{out}");
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, serde::Serialize)]
pub struct AsyncPlanJson {
    arch: &'static str,
    counted_as: &'static str,
    element_bytes: usize,
    instruction: alloc::string::String,
    lds_bytes: u64,
    loads: alloc::vec::Vec<AsyncLoadJson>,
    loads_per_thread: usize,
    workgroup: usize,
    worst_load: usize,
    worst_wave: usize,
    worst_ways: u32,
}

#[derive(Clone, Debug, serde::Serialize)]
struct AsyncLoadJson {
    coordinate: alloc::vec::Vec<i64>,
    global_byte: i64,
    lds_byte: u64,
    load: usize,
    thread: usize,
}

impl AsyncPlanJson {
    /// The view of `p`, planned on `arch` for elements of `element_bytes`.
    pub fn new(arch: &Arch, element_bytes: usize, p: &AsyncPlan) -> AsyncPlanJson {
        let loads = p
            .loads
            .iter()
            .map(|l| AsyncLoadJson {
                coordinate: l.coordinate.clone(),
                global_byte: l.global_byte,
                lds_byte: l.lds_byte,
                load: l.load,
                thread: l.thread,
            })
            .collect();
        AsyncPlanJson {
            arch: arch.name(),
            counted_as: p.write_op().name(),
            element_bytes,
            instruction: p.mnemonic(),
            lds_bytes: p.lds_bytes,
            loads,
            loads_per_thread: p.loads_per_thread,
            workgroup: p.workgroup,
            worst_load: p.worst.0,
            worst_wave: p.worst.1,
            worst_ways: p.worst_ways,
        }
    }
}
