//! The report of `cktile dma-plan`.

use crate::analyzer::Arch;
use crate::plan::dma::DmaPlan;
use serde::ser::{Serialize, SerializeSeq, Serializer};

/// Every gather of a plan with its subgroup, load and lane, written one by
/// one (a plan can hold a million gathers).
#[derive(Clone, Copy)]
struct Gathers<'a>(&'a DmaPlan);

#[derive(serde::Serialize)]
struct GatherJson<'a> {
    coordinate: &'a [i64],
    global_byte: i64,
    lane: usize,
    lds_byte: u64,
    load: usize,
    subgroup: usize,
}

impl Serialize for Gathers<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let p = self.0;
        let mut seq = s.serialize_seq(Some(p.gathers.len()))?;
        for (at, g) in p.indexed() {
            seq.serialize_element(&GatherJson {
                coordinate: &g.coordinate,
                global_byte: g.global_byte,
                lane: at.lane,
                lds_byte: g.lds_byte,
                load: at.load,
                subgroup: at.subgroup,
            })?;
        }
        seq.end()
    }
}

/// `cktile dma-plan --json`: the plan's shape and every gather, with the
/// (subgroup, load, lane) that issues it. Serialize it with
/// [`serde_json::to_writer`] to stream the gathers.
///
/// ```
/// use cktile::analyzer::arch;
/// use cktile::plan::dma::{DmaRequest, plan};
/// let d = cktile::Descriptor::packed(&[16, 64])?;
/// let req = DmaRequest { lds: &d, element_bytes: 4, global_strides: vec![64, 1], arch: arch::GFX942, workgroup: 256, wave: 64, width: 4 };
/// let p = plan(&req)?;
/// let out = serde_json::to_string(&cktile::json::DmaPlanJson::new("packed((16,64))", &arch::GFX942, 4, &p)).unwrap();
/// assert!(out.starts_with(r#"{"arch":"gfx942","element_bytes":4,"gathers":[{"coordinate":[0,0],"#));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, serde::Serialize)]
pub struct DmaPlanJson<'a> {
    arch: &'static str,
    element_bytes: usize,
    gathers: Gathers<'a>,
    lds_bytes: u64,
    loads_per_thread: usize,
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
    /// on `arch` with `element_bytes`-byte elements, which the caller has
    /// verified ([`verify`](crate::plan::dma::verify)).
    ///
    /// ```
    /// # use cktile::analyzer::arch;
    /// # use cktile::plan::dma::{DmaRequest, plan};
    /// # let d = cktile::Descriptor::packed(&[16, 64])?;
    /// # let req = DmaRequest { lds: &d, element_bytes: 4, global_strides: vec![64, 1], arch: arch::GFX942, workgroup: 256, wave: 64, width: 4 };
    /// let p = plan(&req)?;
    /// let _ = cktile::json::DmaPlanJson::new(" packed((16,64))\n", &arch::GFX942, 4, &p);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn new(spec: &'a str, arch: &Arch, element_bytes: usize, p: &'a DmaPlan) -> DmaPlanJson<'a> {
        DmaPlanJson {
            arch: arch.name(),
            element_bytes,
            gathers: Gathers(p),
            lds_bytes: p.lds_bytes,
            loads_per_thread: p.loads_per_thread,
            slice_bytes: p.slice_bytes,
            spec: spec.trim(),
            subgroups: p.subgroups,
            verified: true,
            wave: p.wave,
            width: p.width,
        }
    }
}
