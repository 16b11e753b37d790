//! The report of `cktile dma-plan`.

use crate::analyzer::Arch;
use crate::plan::dma::{Addressing, DmaPlan, M0Write};
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
