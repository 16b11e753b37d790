//! Direct global-to-LDS loads on AMD (`global_load_lds` and `buffer_load
//! ... lds`, gfx942 and gfx950).
//!
//! One instruction of a subgroup (a wave of `wave` lanes) writes one
//! *slot* of LDS per lane from a wave-uniform base (`m0` plus the
//! instruction's immediate offset): lane `T` writes `width` bytes at
//! `base + T * slot`, reading them from its own global address
//! ([`lane_slot_bytes`]; LLVM's AMDGPU DMA documentation: 4 bytes per lane
//! up to dword loads, 16 for wider ones). For 4- and 16-byte loads the slot
//! is the width, so the wave fills `wave * width` consecutive bytes, one
//! *chunk*. gfx950's 12-byte load (`dwordx3`) writes at a 16-byte stride,
//! leaving the last 4 bytes of every slot unwritten: the layout must hold
//! padding exactly there, as CK's padded 12-byte types do (`lds_padding.hpp`).
//! A 1- or 2-byte load still writes one dword per lane, its bytes at
//! `base + 4 * T` and zeros after them (ROCm/rocm-libraries PR #5084): its
//! slot is 4 bytes, and the layout must hold padding in the rest of every
//! dword (one byte in every 4 for 1-byte loads, as `naive((16,64),(256,4))`
//! of int8 holds it), where the zeros land. A packed layout is refused at
//! its first element there.
//!
//! The LDS side is therefore fixed up to the chunks' bases, and a layout is
//! honoured by choosing what each lane reads: for LDS byte `a`, the element
//! stored there is the tile coordinate `x` whose offset is `a / element_bytes`
//! (the descriptor's inverse), read from global element `sum(x[i] * stride[i])`.
//!
//! - [`plan`] cuts the layout's LDS image into chunks (padding may lie
//!   between them, as in CK's async copies, never inside one), hands them to
//!   the subgroups in an [`Order`], and gives every (subgroup, lane, load)
//!   its gather. [`verify`] simulates the loads on a synthetic global tensor
//!   and compares the LDS image byte by byte with the one the descriptor
//!   prescribes.
//! - [`address`] turns a plan into instructions: which `m0` each subgroup
//!   sets, the immediate offset of each load (13 bits signed for
//!   `global_load_lds`, 12 bits unsigned for `buffer_load ... lds`), as CK's
//!   `async_load_raw` computes them or folded into the immediate.
//!   [`execute`] runs those instructions by the hardware's address rule.
//!
//! ```
//! use cktile::analyzer::arch;
//! use cktile::plan::dma::{DmaRequest, plan, verify};
//! // The design note's example: a 16x64 i32 tile, workgroup 256, subgroups of 64, 4-byte loads.
//! let tile = cktile::Descriptor::packed(&[16, 64])?;
//! let req = DmaRequest { lds: &tile, element_bytes: 4, global_strides: vec![64, 1], arch: arch::GFX942, workgroup: 256, wave: 64, width: 4 };
//! let p = plan(&req)?;
//! assert_eq!((p.subgroups, p.slice_bytes, p.loads_per_thread), (4, 1024, 4));
//! // Lane T of subgroup 1 loads row 4 + j, column T, for j = 0..3.
//! assert_eq!(p.gather(1, 5, 2).map(|g| g.coordinate.clone()), Some(vec![6, 5]));
//! verify(&req, &p)?;
//! # Ok::<(), cktile::Error>(())
//! ```

use crate::analyzer::AnalyzerProblem;
use crate::analyzer::Arch;
use crate::analyzer::arch::Vendor;
use crate::check;
use crate::descriptor::Descriptor;
use crate::{Error, ParameterProblem, Snippet};
use alloc::vec;
use alloc::vec::Vec;
use core::ops::Range;

mod chunks;
mod m0;

pub use chunks::{ORDER_NAMES, Order};
pub use m0::{Addressing, FORM_NAMES, Form, Issue, M0Write, SCHEME_NAMES, Scheme, address, execute, verify_addressing};

const NAME: &str = "dma-plan";

fn bad(parameter: &'static str, value: i64, requirement: &'static str) -> Error {
    Error::parameter(ParameterProblem::Invalid { context: NAME, parameter, value, requirement })
}

fn wide(x: usize) -> i64 {
    i64::try_from(x).unwrap_or(i64::MAX)
}

/// What to plan: the tile's LDS layout and how the global tensor holds it.
///
/// ```
/// use cktile::plan::dma::DmaRequest;
/// let tile = cktile::Descriptor::packed(&[64, 64]).unwrap();
/// let req = DmaRequest {
///     lds: &tile,
///     element_bytes: 2,
///     global_strides: vec![4096, 1],
///     arch: cktile::analyzer::arch::GFX950,
///     workgroup: 256,
///     wave: 64,
///     width: 16,
/// };
/// assert_eq!(req.supported_widths(), Ok(&[1, 2, 4, 12, 16][..]));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DmaRequest<'a> {
    /// The tile's LDS layout (top dimensions = the tile's).
    pub lds: &'a Descriptor,
    /// Bytes per element.
    pub element_bytes: usize,
    /// The global tensor's stride (in elements) along each top dimension.
    pub global_strides: Vec<i64>,
    /// The chip: gfx942 or gfx950.
    pub arch: Arch,
    /// Threads per workgroup.
    pub workgroup: usize,
    /// Lanes per subgroup (the wave size).
    pub wave: usize,
    /// Bytes each lane loads per instruction.
    pub width: usize,
}

/// The LDS bytes one lane's slot takes in one `global_load_lds` of `width`
/// bytes: the width, a dword at least (a 1- or 2-byte load writes a whole
/// dword), and 16 for gfx950's 12-byte load, whose lanes write 16 bytes
/// apart (CK's `lds_padding.hpp` pads its 12-byte types to 16 in LDS for
/// this reason).
///
/// ```
/// use cktile::plan::dma::lane_slot_bytes;
/// assert_eq!([1, 2, 4, 12, 16].map(lane_slot_bytes), [4, 4, 4, 16, 16]);
/// ```
pub const fn lane_slot_bytes(width: usize) -> usize {
    match width {
        12 => 16,
        w if w < 4 => 4,
        w => w,
    }
}

/// The widths `global_load_lds` takes on `arch`, in bytes, or `None` where
/// it is not modelled (the chip's row says, [`Arch::lds_load_widths`]).
const fn load_widths(arch: &Arch) -> Option<&'static [usize]> {
    match arch.lds_load_widths() {
        [] => None,
        widths => Some(widths),
    }
}

/// The names of the chips of [`ARCHS`](crate::analyzer::ARCHS) that
/// `global_load_lds` is modelled on, in that list's order.
const DMA_ARCH_LIST: [&str; crate::names::count_where!(crate::analyzer::ARCHS, |a| load_widths(a).is_some())] =
    crate::names::names_of!(crate::analyzer::ARCHS, |a| a.name(), if load_widths(a).is_some());

/// The chips a plan can be made for (those with `global_load_lds` in the
/// model), comma-separated, derived from [`ARCHS`](crate::analyzer::ARCHS)
/// and the widths [`DmaRequest::supported_widths`] gives: `cktile dma-plan
/// --help` lists them.
///
/// ```
/// assert_eq!(cktile::plan::dma::DMA_ARCH_NAMES, "gfx942, gfx950, gfx950-b32x64");
/// ```
pub const DMA_ARCH_NAMES: &str = crate::names::joined!(&DMA_ARCH_LIST);

impl DmaRequest<'_> {
    /// The load widths the chip's `global_load_lds` takes.
    ///
    /// ```
    /// # use cktile::plan::dma::DmaRequest;
    /// # let tile = cktile::Descriptor::packed(&[4]).unwrap();
    /// let req = DmaRequest { lds: &tile, element_bytes: 4, global_strides: vec![1], arch: cktile::analyzer::arch::SM90, workgroup: 64, wave: 32, width: 4 };
    /// assert!(req.supported_widths().unwrap_err().to_string().contains("AMD"));
    /// ```
    pub fn supported_widths(&self) -> Result<&'static [usize], Error> {
        // The instruction loads 1, 2 or 4 bytes on gfx942, also 12 and 16 on
        // gfx950 (LLVM PR #92962, CK PR #2576); the 1- and 2-byte forms are
        // refused by `plan` (see the module docs).
        match (self.arch.vendor(), load_widths(&self.arch)) {
            (_, Some(widths)) => Ok(widths),
            (Vendor::Amd, None) => Err(Error::analyzer(AnalyzerProblem::NotOnArch {
                what: "dma-plan (global_load_lds)",
                arch: self.arch.name(),
                valid: "global_load_lds is modelled on gfx942 and gfx950 only",
            })),
            _ => Err(Error::analyzer(AnalyzerProblem::NotOnArch {
                what: "dma-plan (global_load_lds)",
                arch: self.arch.name(),
                valid: "global_load_lds is an AMD instruction (gfx942, gfx950); NVIDIA has cp.async and TMA",
            })),
        }
    }

    /// The byte alignment a lane's global address needs (the global tensor's
    /// base is taken as 16-byte aligned): the width, or 4 for 12-byte loads.
    fn global_alignment(&self) -> i64 {
        if self.width == 12 { 4 } else { wide(self.width) }
    }
}

/// What a `width`-byte load's global address must satisfy, in words that
/// name that width ([`DmaRequest::global_alignment`]: the width, 4 bytes
/// for a 12-byte load).
const fn alignment_requirement(width: usize) -> &'static str {
    match width {
        1 => "a lane's 1-byte load has no alignment to keep (this cannot fail)",
        2 => "a lane's 2-byte load must be 2-byte aligned",
        4 => "a lane's 4-byte load must be 4-byte aligned",
        8 => "a lane's 8-byte load must be 8-byte aligned",
        12 => "a lane's 12-byte load must be 4-byte aligned",
        16 => "a lane's 16-byte load must be 16-byte aligned",
        _ => "a lane's load must be aligned to its width",
    }
}

/// One lane's load in one instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gather {
    /// The first LDS byte it writes (`width` bytes from there).
    pub lds_byte: u64,
    /// The first global byte it reads (relative to the tensor's base).
    pub global_byte: i64,
    /// The tile coordinate of the element holding its first byte.
    pub coordinate: Vec<i64>,
}

/// Who issues a gather: lane `lane` of subgroup `subgroup`, in its
/// `load`-th instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Issuer {
    /// The subgroup (wave) of the workgroup.
    pub subgroup: usize,
    /// The instruction, counted within the subgroup.
    pub load: usize,
    /// The lane within the subgroup.
    pub lane: usize,
}

/// A complete plan: how many subgroups, the order they take the chunks in,
/// and every gather.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DmaPlan {
    /// Subgroups in the workgroup.
    pub subgroups: usize,
    /// Lanes per subgroup.
    pub wave: usize,
    /// Bytes per lane per instruction.
    pub width: usize,
    /// LDS bytes of the tile: its element space, or up to the end of the
    /// last chunk where that lies further (a 12-byte load's last gap).
    pub lds_bytes: u64,
    /// The bytes each subgroup's loads span (`loads * wave * slot`):
    /// contiguous in a wave-major plan whose chunks abut ([`DmaPlan::slice`]).
    pub slice_bytes: u64,
    /// Which chunk each (subgroup, load) fills.
    pub order: Order,
    /// Instructions each lane issues.
    pub loads_per_thread: usize,
    /// Every gather, subgroup-major, then load, then lane.
    pub gathers: Vec<Gather>,
}

impl DmaPlan {
    /// Lane `lane` of subgroup `subgroup` in its `load`-th instruction.
    ///
    /// ```
    /// use cktile::plan::dma::{DmaRequest, plan};
    /// let tile = cktile::Descriptor::packed(&[4, 64]).unwrap();
    /// let req = DmaRequest { lds: &tile, element_bytes: 4, global_strides: vec![64, 1], arch: cktile::analyzer::arch::GFX942, workgroup: 64, wave: 64, width: 4 };
    /// let p = plan(&req)?;
    /// assert_eq!(p.gather(0, 63, 3).map(|g| g.lds_byte), Some(3 * 256 + 63 * 4));
    /// assert!(p.gather(1, 0, 0).is_none());
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn gather(&self, subgroup: usize, lane: usize, load: usize) -> Option<&Gather> {
        self.instruction(subgroup, load)?.get(lane)
    }

    /// The gathers of subgroup `subgroup`'s `load`-th instruction, one per
    /// lane (`None` past the plan).
    ///
    /// ```
    /// use cktile::plan::dma::{DmaRequest, plan};
    /// let tile = cktile::Descriptor::packed(&[4, 64]).unwrap();
    /// let req = DmaRequest { lds: &tile, element_bytes: 4, global_strides: vec![64, 1], arch: cktile::analyzer::arch::GFX942, workgroup: 64, wave: 64, width: 4 };
    /// let p = plan(&req)?;
    /// let lanes = p.instruction(0, 1).unwrap();
    /// assert_eq!((lanes.len(), lanes[2].coordinate.clone()), (64, vec![1, 2]));
    /// assert!(p.instruction(0, 4).is_none());
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn instruction(&self, subgroup: usize, load: usize) -> Option<&[Gather]> {
        if subgroup >= self.subgroups || load >= self.loads_per_thread {
            return None;
        }
        let start = subgroup.checked_mul(self.loads_per_thread)?.checked_add(load)?.checked_mul(self.wave)?;
        self.gathers.get(start..start.checked_add(self.wave)?)
    }

    /// Every gather with the [`Issuer`] that issues it, in the order of
    /// [`gathers`](DmaPlan::gathers): subgroup-major, then load, then lane.
    ///
    /// ```
    /// use cktile::plan::dma::{DmaRequest, Issuer, plan};
    /// let tile = cktile::Descriptor::packed(&[4, 64]).unwrap();
    /// let req = DmaRequest { lds: &tile, element_bytes: 4, global_strides: vec![64, 1], arch: cktile::analyzer::arch::GFX942, workgroup: 64, wave: 64, width: 4 };
    /// let p = plan(&req)?;
    /// let (slot, g) = p.indexed().nth(64 + 5).unwrap();
    /// assert_eq!(slot, Issuer { subgroup: 0, load: 1, lane: 5 });
    /// assert_eq!(g.coordinate, vec![1, 5]);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn indexed(&self) -> impl Iterator<Item = (Issuer, &Gather)> {
        // `max(1)`: a plan built by hand with no lanes or loads is not divided by.
        let (wave, loads) = (self.wave.max(1), self.loads_per_thread.max(1));
        self.gathers.iter().enumerate().map(move |(k, g)| {
            let rest = k / wave;
            (Issuer { subgroup: rest / loads, load: rest % loads, lane: k % wave }, g)
        })
    }

    /// The first LDS byte load `load` of subgroup `subgroup` writes (its
    /// lane 0's), relative to the tile: the chunk's base.
    ///
    /// ```
    /// use cktile::plan::dma::{DmaRequest, Order, plan_ordered};
    /// let tile = cktile::Descriptor::packed(&[16, 64]).unwrap();
    /// let req = DmaRequest { lds: &tile, element_bytes: 4, global_strides: vec![64, 1], arch: cktile::analyzer::arch::GFX942, workgroup: 256, wave: 64, width: 4 };
    /// // Issue-major: the 4 subgroups' first loads fill the first 4 chunks of 256 bytes.
    /// assert_eq!(plan_ordered(&req, Order::IssueMajor)?.chunk_base(3, 0), Some(768));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn chunk_base(&self, subgroup: usize, load: usize) -> Option<u64> {
        Some(self.instruction(subgroup, load)?.first()?.lds_byte)
    }

    /// The LDS bytes subgroup `subgroup` fills, when they are one range: its
    /// loads' chunks abut, each starting where the previous one ends (a
    /// wave-major plan without padding between chunks). `None` otherwise, or
    /// past the plan.
    ///
    /// ```
    /// use cktile::plan::dma::{DmaRequest, Order, plan, plan_ordered};
    /// let tile = cktile::Descriptor::packed(&[16, 64]).unwrap();
    /// let req = DmaRequest { lds: &tile, element_bytes: 4, global_strides: vec![64, 1], arch: cktile::analyzer::arch::GFX942, workgroup: 256, wave: 64, width: 4 };
    /// assert_eq!(plan(&req)?.slice(2), Some(2048..3072));
    /// assert_eq!(plan_ordered(&req, Order::IssueMajor)?.slice(2), None);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn slice(&self, subgroup: usize) -> Option<Range<u64>> {
        let chunk = (self.wave as u64).checked_mul(lane_slot_bytes(self.width) as u64)?;
        let start = self.chunk_base(subgroup, 0)?;
        let abut = (1..self.loads_per_thread).all(|i| {
            let want = (i as u64).checked_mul(chunk).and_then(|d| start.checked_add(d));
            self.chunk_base(subgroup, i) == want
        });
        let len = (self.loads_per_thread as u64).checked_mul(chunk)?;
        abut.then(|| start..start.saturating_add(len))
    }
}

/// The tile coordinate stored at each LDS element offset (`None`: a hole).
fn inverse(req: &DmaRequest<'_>) -> Result<Vec<Option<Vec<i64>>>, Error> {
    let d = req.lds;
    let o = check::offsets(d)?;
    let space = usize::try_from(d.element_space_size())
        .map_err(|_| bad("element space", d.element_space_size(), "it must be at least 0"))?;
    let mut at: Vec<Option<u64>> = vec![None; space];
    for (n, (&off, &valid)) in o.offsets.iter().zip(&o.valid).enumerate() {
        if !valid {
            continue;
        }
        let slot = usize::try_from(off).ok().and_then(|k| at.get_mut(k));
        match slot {
            Some(s @ None) => *s = Some(n as u64),
            Some(Some(_)) => {
                return Err(bad("LDS offset", off, "two tile elements share it; the layout must be injective"));
            }
            None => return Err(bad("LDS offset", off, "a tile element lies outside the element space")),
        }
    }
    Ok(at.into_iter().map(|n| n.map(|n| check::coordinate(d, n))).collect())
}

/// The global element index of tile coordinate `x`.
fn global_element(req: &DmaRequest<'_>, x: &[i64]) -> Result<i64, Error> {
    x.iter().zip(&req.global_strides).try_fold(0i64, |acc, (&c, &s)| {
        c.checked_mul(s)
            .and_then(|t| acc.checked_add(t))
            .ok_or_else(|| bad("global strides", s, "the global offset overflows i64"))
    })
}

/// Plans the loads, wave-major ([`plan_ordered`] with
/// [`Order::WaveMajor`]). Errors name the constraint that fails: the chip
/// and width, the wave and workgroup, the element size against the width,
/// the chunks against the subgroups, padding inside a chunk, or a load whose
/// bytes are not consecutive (or not aligned) in global memory.
///
/// ```
/// use cktile::analyzer::arch;
/// use cktile::plan::dma::{DmaRequest, plan};
/// // 36-element rows: a 64-lane dword load (64 elements) would cover a row's padding.
/// let padded = cktile::layouts::resolve("row-padded:rows=16,cols=32,pad=4")?;
/// let req = DmaRequest { lds: &padded, element_bytes: 4, global_strides: vec![32, 1], arch: arch::GFX942, workgroup: 256, wave: 64, width: 4 };
/// assert!(plan(&req).unwrap_err().to_string().contains("padding"));
/// // 68-element rows: each row's 64 elements are one load's chunk, the padding between chunks.
/// let between = cktile::layouts::resolve("row-padded:rows=16,cols=64,pad=4")?;
/// let req = DmaRequest { lds: &between, global_strides: vec![64, 1], ..req };
/// assert_eq!(plan(&req)?.chunk_base(1, 0), Some(4 * 272));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn plan(req: &DmaRequest<'_>) -> Result<DmaPlan, Error> {
    plan_ordered(req, Order::WaveMajor)
}

/// Plans the loads with the chunks handed out in `order`; [`plan`] has the
/// errors.
///
/// ```
/// use cktile::analyzer::arch;
/// use cktile::plan::dma::{DmaRequest, Order, plan_ordered};
/// let tile = cktile::Descriptor::packed(&[16, 64])?;
/// let req = DmaRequest { lds: &tile, element_bytes: 4, global_strides: vec![64, 1], arch: arch::GFX942, workgroup: 256, wave: 64, width: 4 };
/// let p = plan_ordered(&req, Order::IssueMajor)?;
/// // Subgroup 1's load 2 fills chunk 2 * 4 + 1 = 9: row 9.
/// assert_eq!(p.gather(1, 7, 2).map(|g| g.coordinate.clone()), Some(vec![9, 7]));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn plan_ordered(req: &DmaRequest<'_>, order: Order) -> Result<DmaPlan, Error> {
    check_request(req)?;
    let (w, eb) = (req.width, req.element_bytes);
    let space = req.lds.element_space_size();
    // The chip's LDS bounds the plan (at most 160 KiB), and with it the
    // memory and time of planning and verifying (about 100 bytes per LDS byte).
    let bytes = u64::try_from(space).unwrap_or(u64::MAX).saturating_mul(eb as u64);
    req.arch.check_fits(bytes)?;
    let at = inverse(req)?;
    let stored: Vec<bool> = at.iter().map(Option::is_some).collect();
    let starts = chunks::chunk_starts(&stored, eb, w, req.wave)?;
    let subgroups = req.workgroup / req.wave;
    let slot = lane_slot_bytes(w);
    let per_load = (req.wave * slot) as u64;
    if starts.len() % subgroups != 0 {
        return Err(bad(
            "chunks",
            wide(starts.len()),
            "the layout's stored bytes form this many runs of wave * slot bytes (one load each; the slot is \
             the width, or 16 bytes for a 12-byte load), and they must split equally among the subgroups \
             (workgroup / wave)",
        ));
    }
    let loads_per_thread = starts.len() / subgroups;
    let end = starts.last().map_or(0, |&b| b + per_load);
    let lds_bytes = end.max((at.len() as u64) * eb as u64);
    let mut gathers = Vec::with_capacity(subgroups * loads_per_thread * req.wave);
    for g in 0..subgroups {
        for i in 0..loads_per_thread {
            let base = starts[order.chunk(g, i, subgroups, loads_per_thread)];
            for lane in 0..req.wave {
                gathers.push(gather(req, &at, base + (lane * slot) as u64)?);
            }
        }
    }
    let slice_bytes = loads_per_thread as u64 * per_load;
    Ok(DmaPlan { subgroups, wave: req.wave, width: w, lds_bytes, slice_bytes, order, loads_per_thread, gathers })
}

/// The LDS bytes the loads span for a tile whose element space takes
/// `bytes`: those bytes, rounded up to a whole 16-byte slot for a 12-byte
/// load (its last slot's gap may lie past the element space).
fn footprint(req: &DmaRequest<'_>, bytes: u64) -> u64 {
    let slot = lane_slot_bytes(req.width) as u64;
    if slot == req.width as u64 { bytes } else { bytes.div_ceil(slot).saturating_mul(slot) }
}

/// The request's own parameters: a width the chip loads (whole dwords), the
/// chip's wave, a workgroup of whole waves, an element size that divides or
/// is divided by the width, one global stride per dimension.
fn check_request(req: &DmaRequest<'_>) -> Result<(), Error> {
    let widths = req.supported_widths()?;
    let w = req.width;
    if !widths.contains(&w) {
        return Err(bad(
            "width",
            wide(w),
            if widths.len() == 3 { "gfx942 loads 1, 2 or 4 bytes" } else { "gfx950 loads 1, 2, 4, 12 or 16 bytes" },
        ));
    }
    if req.wave != req.arch.wave() as usize {
        return Err(bad("wave", wide(req.wave), "it must be the chip's wave size, 64"));
    }
    if req.workgroup == 0 || !req.workgroup.is_multiple_of(req.wave) || req.workgroup > 1024 {
        return Err(bad("workgroup", wide(req.workgroup), "it must be a multiple of the wave size, at most 1024"));
    }
    let eb = req.element_bytes;
    if !matches!(eb, 1 | 2 | 4 | 8) {
        return Err(bad("element bytes", wide(eb), "it must be 1, 2, 4 or 8"));
    }
    if (w >= eb && !w.is_multiple_of(eb)) || (w < eb && !eb.is_multiple_of(w)) {
        return Err(bad("width", wide(w), "it must be a multiple or a divisor of the element size"));
    }
    let dims = req.lds.lengths().len();
    if req.global_strides.len() != dims {
        return Err(bad(
            "global strides",
            wide(req.global_strides.len()),
            "give one stride per top dimension of the layout",
        ));
    }
    Ok(())
}

/// The load of the lane whose `w` bytes land at `lds_byte`: the global
/// byte it reads, aligned to the width, every further element of a wide
/// load following the first in global memory.
fn gather(req: &DmaRequest<'_>, at: &[Option<Vec<i64>>], lds_byte: u64) -> Result<Gather, Error> {
    let (w, eb) = (req.width, req.element_bytes);
    let first = (lds_byte / eb as u64) as usize;
    let within = wide((lds_byte % eb as u64) as usize);
    let Some(Some(x)) = at.get(first) else {
        return Err(bad("LDS offset", wide(first), "no tile element is stored there"));
    };
    let element = global_element(req, x)?;
    let global_byte = element
        .checked_mul(wide(eb))
        .and_then(|b| b.checked_add(within))
        .ok_or_else(|| bad("global element index", element, "its byte address (index * element size) overflows i64"))?;
    if global_byte % req.global_alignment() != 0 {
        return Err(bad("global byte address", global_byte, alignment_requirement(w)));
    }
    for k in 1..(w / eb).max(1) {
        let next = at.get(first + k).and_then(Option::as_ref);
        let follows = match next {
            Some(y) => global_element(req, y)? == element + wide(k),
            None => false,
        };
        if !follows {
            return Err(bad(
                "LDS offset",
                wide(first + k),
                "its element does not follow the previous one in global memory, so one lane's load \
                 cannot fetch both; use a narrower width",
            ));
        }
    }
    Ok(Gather { lds_byte, global_byte, coordinate: x.clone() })
}

/// An unwritten LDS image of the plan's bytes. A plan of [`plan`] fits its
/// chip's LDS; a plan built by hand is held to the largest any modelled chip
/// has, so the image stays bounded.
fn blank_image(p: &DmaPlan) -> Result<Vec<Option<i64>>, Error> {
    let largest = crate::analyzer::ARCHS.iter().map(|a| a.shared_bytes() as u64).max().unwrap_or(0);
    if p.lds_bytes > largest {
        return Err(bad(
            "LDS bytes",
            i64::try_from(p.lds_bytes).unwrap_or(i64::MAX),
            "it must fit a modelled chip's shared memory: at most 327680 bytes (gfx1250's, the largest)",
        ));
    }
    Ok(vec![None; usize::try_from(p.lds_bytes).unwrap_or(usize::MAX)])
}

/// The value of `all` whose name is `text`, or an error listing `valid`.
fn named<T: Copy, const N: usize>(
    all: [T; N],
    name: fn(T) -> &'static str,
    text: &str,
    valid: &'static str,
) -> Result<T, Error> {
    all.into_iter()
        .find(|&t| name(t) == text)
        .ok_or_else(|| Error::parameter(ParameterProblem::UnknownName { name: Snippet::new(text), valid }))
}

/// Runs the plan on a synthetic global tensor whose every byte holds its own
/// address: the LDS image, each byte the global byte it came from (`None`:
/// never written). A byte written twice is an error.
///
/// ```
/// use cktile::plan::dma::{DmaRequest, plan, simulate};
/// let tile = cktile::Descriptor::packed(&[4, 64]).unwrap();
/// let req = DmaRequest { lds: &tile, element_bytes: 4, global_strides: vec![1000, 1], arch: cktile::analyzer::arch::GFX942, workgroup: 64, wave: 64, width: 4 };
/// let image = simulate(&plan(&req)?)?;
/// // LDS byte 261 is byte 1 of element (1, 1), global element 1001.
/// assert_eq!(image[256 + 5], Some(4 * 1001 + 1));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn simulate(p: &DmaPlan) -> Result<Vec<Option<i64>>, Error> {
    let mut image = blank_image(p)?;
    let slot = lane_slot_bytes(p.width);
    for (at, gather) in p.indexed() {
        let base = usize::try_from(gather.lds_byte).unwrap_or(usize::MAX);
        // The instruction's rule: lane T writes its slot (one dword at least;
        // 16 bytes for a 12-byte load) from the wave's dword-aligned base.
        let lane0 = p.chunk_base(at.subgroup, at.load);
        let rule = lane0.filter(|b| b % 4 == 0).and_then(|b| b.checked_add(at.lane.checked_mul(slot)? as u64));
        if rule != Some(gather.lds_byte) {
            return Err(bad("LDS byte", wide(base), "a gather is not where the instruction writes"));
        }
        for b in 0..p.width {
            match base.checked_add(b).and_then(|k| image.get_mut(k)) {
                Some(slot @ None) => {
                    let byte = gather.global_byte.checked_add(wide(b));
                    *slot = Some(byte.ok_or_else(|| bad("global byte", gather.global_byte, "it overflows i64"))?);
                }
                Some(Some(_)) => return Err(bad("LDS byte", wide(base.saturating_add(b)), "two loads write it")),
                None => {
                    return Err(bad("LDS byte", wide(base.saturating_add(b)), "it lies past the tile's LDS bytes"));
                }
            }
        }
    }
    Ok(image)
}

/// The LDS image the descriptor prescribes, computed forward from every tile
/// coordinate: LDS byte `offset(x) * element_bytes + b` holds global byte
/// `global(x) * element_bytes + b`. For a 12-byte load it spans whole
/// 16-byte slots.
///
/// ```
/// use cktile::plan::dma::{DmaRequest, expected_image};
/// let tile = cktile::Descriptor::naive(&[2, 2], &[1, 2]).unwrap(); // column-major
/// let req = DmaRequest { lds: &tile, element_bytes: 1, global_strides: vec![2, 1], arch: cktile::analyzer::arch::GFX942, workgroup: 64, wave: 64, width: 1 };
/// assert_eq!(expected_image(&req)?, vec![Some(0), Some(2), Some(1), Some(3)]);
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn expected_image(req: &DmaRequest<'_>) -> Result<Vec<Option<i64>>, Error> {
    let d = req.lds;
    let eb = req.element_bytes;
    if !matches!(eb, 1 | 2 | 4 | 8) {
        return Err(bad("element bytes", wide(eb), "it must be 1, 2, 4 or 8"));
    }
    // The image is LDS: held to the largest shared memory any modelled chip
    // has, as `simulate` holds a plan, so a hostile descriptor cannot ask for
    // an unbounded allocation.
    let largest = crate::analyzer::ARCHS.iter().map(|a| a.shared_bytes() as u64).max().unwrap_or(0);
    let space = u64::try_from(d.element_space_size()).unwrap_or(0);
    let bytes = space.checked_mul(eb as u64).filter(|&b| b <= largest).ok_or_else(|| {
        bad(
            "LDS bytes",
            i64::try_from(space.saturating_mul(eb as u64)).unwrap_or(i64::MAX),
            "the tile's element space times the element size must fit a modelled chip's shared memory: \
             at most 327680 bytes (gfx1250's, the largest)",
        )
    })?;
    let mut image = vec![None; usize::try_from(footprint(req, bytes)).unwrap_or(0)];
    let o = check::offsets(d)?;
    for (n, (&off, &valid)) in o.offsets.iter().zip(&o.valid).enumerate() {
        if valid {
            let x = check::coordinate(d, n as u64);
            let g = global_element(req, &x)?;
            for b in 0..eb {
                if let Some(slot) = usize::try_from(off).ok().and_then(|k| image.get_mut(k * eb + b)) {
                    *slot = Some(g * wide(eb) + wide(b));
                }
            }
        }
    }
    Ok(image)
}

/// Simulates the plan and checks the LDS image equals the descriptor's, byte
/// for byte; the error names the first LDS byte that differs.
///
/// ```
/// use cktile::plan::dma::{DmaRequest, plan, verify};
/// let swizzled = cktile::layouts::resolve("cute-swizzle:b=3,mbase=2,s=3,rows=32,cols=32")?;
/// let req = DmaRequest { lds: &swizzled, element_bytes: 4, global_strides: vec![32, 1], arch: cktile::analyzer::arch::GFX942, workgroup: 256, wave: 64, width: 4 };
/// verify(&req, &plan(&req)?)?;
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn verify(req: &DmaRequest<'_>, p: &DmaPlan) -> Result<(), Error> {
    same_image(&simulate(p)?, &expected_image(req)?)
}

/// Compares two LDS images byte for byte, a byte past either's end being
/// unwritten (a 12-byte load's last gap may lie past the element space).
fn same_image(got: &[Option<i64>], want: &[Option<i64>]) -> Result<(), Error> {
    let at = |image: &[Option<i64>], k: usize| image.get(k).copied().flatten();
    match (0..got.len().max(want.len())).find(|&k| at(got, k) != at(want, k)) {
        Some(k) => Err(bad("LDS byte", wide(k), "the simulated load does not put the layout's element there")),
        None => Ok(()),
    }
}
