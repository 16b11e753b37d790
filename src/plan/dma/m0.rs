//! From a plan to instructions: the `m0` each subgroup sets, each load's
//! immediate offset, and a run of those instructions by the hardware's rule.
//!
//! A direct-to-LDS load writes lane `T`'s slot at `m0 + offset + T * slot`
//! and reads lane `T`'s bytes at its own address plus the same `offset`
//! (LLVM's AMDGPU DMA documentation: the immediate is "applied to both
//! global and LDS address"; the 4- and 16-byte lane strides are the slots of
//! [`lane_slot_bytes`]). The immediate is 13 bits, signed, on gfx9's
//! `global_load_lds` (−4096 to 4095: LLVM's `getNumFlatOffsetBits`) and 12
//! bits, unsigned, on `buffer_load ... lds` (0 to 4095: CK's "max 0xFFF").
//!
//! Two ways to set `m0` ([`Scheme`]):
//! - [`Scheme::Ck`], as CK's `tile_window::async_load_raw` does: from its
//!   3-D LDS window (issues, warps, lanes), `m0 = size_per_buf +
//!   size_per_wave * warp` once, then `s_add_u32 m0` by `size_per_issue`
//!   between loads, immediate 0. The loads' bases must be affine in
//!   (subgroup, load).
//! - [`Scheme::Immediate`]: `m0` set once per window of loads and each
//!   load's distance from it in the immediate, a new `m0` only when the next
//!   base is out of reach: the fewest `m0` writes. The signed immediate of
//!   `global_load_lds` spans 8 KiB around one `m0`; the buffer form 4 KiB
//!   above it. `m0` is dword-aligned and stays between the window's first
//!   and last bases, as low as reaching the last allows, so offsets are negative only where that
//!   saves a write.
//!
//! ```
//! use cktile::analyzer::arch;
//! use cktile::plan::dma::{DmaRequest, Form, Scheme, address, plan, verify_addressing};
//! let tile = cktile::Descriptor::packed(&[64, 256])?;
//! let req = DmaRequest { lds: &tile, element_bytes: 2, global_strides: vec![256, 1], arch: arch::GFX950, workgroup: 256, wave: 64, width: 16 };
//! let p = plan(&req)?; // 4 subgroups, 8 loads of 1 KiB each
//! let ck = address(&p, &req.arch, Form::Buffer, Scheme::Ck, 0)?;
//! let imm = address(&p, &req.arch, Form::Global, Scheme::Immediate, 0)?;
//! // CK: one s_mov_b32 and 7 s_add_u32 per subgroup; the signed immediate: one s_mov_b32.
//! assert_eq!((ck.m0_writes(0), imm.m0_writes(0)), (8, 1));
//! // Subgroup 1 writes [8192, 16384): m0 = 8192 + 7 * 1024 - 4092 reaches its last load at +4092.
//! assert_eq!(imm.issue(1, 0).map(|i| (i.m0, i.offset)), Some((11268, -3076)));
//! verify_addressing(&req, &p, &imm)?;
//! # Ok::<(), cktile::Error>(())
//! ```

use super::{DmaPlan, DmaRequest, bad, blank_image, expected_image, lane_slot_bytes, named, same_image, wide};
use crate::Error;
use crate::analyzer::Arch;
use alloc::vec::Vec;

/// The forms' names, comma-separated (`cktile dma-plan --help`).
pub const FORM_NAMES: &str = "global, buffer";

/// The schemes' names, comma-separated (`cktile dma-plan --help`).
pub const SCHEME_NAMES: &str = "ck, immediate";

/// Which instruction family issues the loads.
///
/// ```
/// use cktile::plan::dma::Form;
/// assert_eq!(Form::Global.offset_range(), (-4096, 4095));
/// assert_eq!(Form::Buffer.mnemonic(16), "buffer_load_dwordx4 ... lds");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    /// `global_load_lds_*`: a 64-bit address per lane, a signed 13-bit immediate.
    Global,
    /// `buffer_load_* ... lds`: a buffer resource and a 32-bit unsigned
    /// offset per lane, an unsigned 12-bit immediate (CK's `async_load_raw`).
    Buffer,
}

impl Form {
    /// Both forms.
    pub const ALL: [Form; 2] = [Form::Global, Form::Buffer];

    /// The form's name in every command (`--form`).
    ///
    /// ```
    /// assert_eq!(cktile::plan::dma::Form::Buffer.name(), "buffer");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Form::Global => "global",
            Form::Buffer => "buffer",
        }
    }

    /// The form called `name`; the error lists the names.
    ///
    /// ```
    /// use cktile::plan::dma::Form;
    /// assert_eq!(Form::by_name("global")?, Form::Global);
    /// assert!(Form::by_name("flat").is_err());
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn by_name(name: &str) -> Result<Form, Error> {
        named(Form::ALL, Form::name, name, FORM_NAMES)
    }

    /// The immediate offsets the form encodes, both ends included: gfx9's
    /// 13-bit signed global offset, or the buffer's 12-bit unsigned one.
    ///
    /// ```
    /// assert_eq!(cktile::plan::dma::Form::Buffer.offset_range(), (0, 4095));
    /// ```
    pub const fn offset_range(self) -> (i64, i64) {
        match self {
            Form::Global => (-4096, 4095),
            Form::Buffer => (0, 4095),
        }
    }

    /// The instruction that loads `width` bytes per lane (`?` for a width
    /// no chip has).
    ///
    /// ```
    /// assert_eq!(cktile::plan::dma::Form::Global.mnemonic(12), "global_load_lds_dwordx3");
    /// ```
    pub const fn mnemonic(self, width: usize) -> &'static str {
        match (self, width) {
            (Form::Global, 1) => "global_load_lds_ubyte",
            (Form::Global, 2) => "global_load_lds_ushort",
            (Form::Global, 4) => "global_load_lds_dword",
            (Form::Global, 12) => "global_load_lds_dwordx3",
            (Form::Global, 16) => "global_load_lds_dwordx4",
            (Form::Buffer, 1) => "buffer_load_ubyte ... lds",
            (Form::Buffer, 2) => "buffer_load_ushort ... lds",
            (Form::Buffer, 4) => "buffer_load_dword ... lds",
            (Form::Buffer, 12) => "buffer_load_dwordx3 ... lds",
            (Form::Buffer, 16) => "buffer_load_dwordx4 ... lds",
            _ => "?",
        }
    }
}

/// How `m0` is set; the module docs describe both.
///
/// ```
/// use cktile::plan::dma::Scheme;
/// assert_eq!(Scheme::by_name("ck")?, Scheme::Ck);
/// assert_eq!(Scheme::Immediate.name(), "immediate");
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scheme {
    /// CK's `async_load_raw`: `m0` per wave once, `s_add_u32` per load, immediate 0.
    Ck,
    /// `m0` per reach of the immediate; each load's distance in its immediate.
    Immediate,
}

impl Scheme {
    /// Both schemes.
    pub const ALL: [Scheme; 2] = [Scheme::Ck, Scheme::Immediate];

    /// The scheme's name in every command (`--m0`).
    pub const fn name(self) -> &'static str {
        match self {
            Scheme::Ck => "ck",
            Scheme::Immediate => "immediate",
        }
    }

    /// The scheme called `name`; the error lists the names.
    ///
    /// ```
    /// assert!(cktile::plan::dma::Scheme::by_name("m1").unwrap_err().to_string().contains("ck, immediate"));
    /// ```
    pub fn by_name(name: &str) -> Result<Scheme, Error> {
        named(Scheme::ALL, Scheme::name, name, SCHEME_NAMES)
    }
}

/// The scalar instruction before a load that changes `m0`.
///
/// ```
/// use cktile::plan::dma::M0Write;
/// assert_eq!(M0Write::Add(1024).instruction(), Some("s_add_u32"));
/// assert_eq!(M0Write::Keep.instruction(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum M0Write {
    /// `m0` keeps its value.
    Keep,
    /// `s_mov_b32 m0, value`.
    Set(u32),
    /// `s_add_u32 m0, m0, value`.
    Add(u32),
}

impl M0Write {
    /// The instruction's mnemonic, if any.
    pub const fn instruction(self) -> Option<&'static str> {
        match self {
            M0Write::Keep => None,
            M0Write::Set(_) => Some("s_mov_b32"),
            M0Write::Add(_) => Some("s_add_u32"),
        }
    }
}

/// One load's addressing: what it writes to `m0` first, the value `m0` then
/// holds (an absolute LDS byte address), and its immediate offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Issue {
    /// The subgroup (wave).
    pub subgroup: usize,
    /// The load, counted within the subgroup.
    pub load: usize,
    /// The scalar write to `m0` before it.
    pub write: M0Write,
    /// `m0` when it issues.
    pub m0: u32,
    /// Its immediate offset, added to both the LDS and the global address.
    pub offset: i32,
}

/// The instructions of a plan: the form, the scheme, where the tile starts
/// in LDS, and every load's [`Issue`], subgroup-major, then load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Addressing {
    /// The instruction family.
    pub form: Form,
    /// How `m0` is set.
    pub scheme: Scheme,
    /// The tile's first LDS byte (CK's `size_per_buf`).
    pub lds_base: u32,
    /// Every load, subgroup-major, then load.
    pub issues: Vec<Issue>,
}

impl Addressing {
    /// Load `load` of subgroup `subgroup`, if the plan has it.
    ///
    /// ```
    /// # use cktile::plan::dma::{DmaRequest, Form, Scheme, address, plan};
    /// # let tile = cktile::Descriptor::packed(&[16, 64]).unwrap();
    /// # let req = DmaRequest { lds: &tile, element_bytes: 4, global_strides: vec![64, 1], arch: cktile::analyzer::arch::GFX942, workgroup: 256, wave: 64, width: 4 };
    /// let a = address(&plan(&req)?, &req.arch, Form::Buffer, Scheme::Ck, 512)?;
    /// assert_eq!(a.issue(2, 1).map(|i| i.m0), Some(512 + 2 * 1024 + 256));
    /// assert!(a.issue(4, 0).is_none());
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn issue(&self, subgroup: usize, load: usize) -> Option<&Issue> {
        // `address` lists the issues sorted; a list edited by hand is searched.
        match self.issues.binary_search_by_key(&(subgroup, load), |i| (i.subgroup, i.load)) {
            Ok(k) => self.issues.get(k),
            Err(_) => self.issues.iter().find(|i| i.subgroup == subgroup && i.load == load),
        }
    }

    /// How many scalar instructions write `m0` in subgroup `subgroup`.
    ///
    /// ```
    /// # use cktile::plan::dma::{DmaRequest, Form, Scheme, address, plan};
    /// # let tile = cktile::Descriptor::packed(&[16, 64]).unwrap();
    /// # let req = DmaRequest { lds: &tile, element_bytes: 4, global_strides: vec![64, 1], arch: cktile::analyzer::arch::GFX942, workgroup: 256, wave: 64, width: 4 };
    /// let a = address(&plan(&req)?, &req.arch, Form::Buffer, Scheme::Immediate, 0)?;
    /// assert_eq!(a.m0_writes(0), 1); // 4 loads at offsets 0, 256, 512, 768
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn m0_writes(&self, subgroup: usize) -> usize {
        self.issues.iter().filter(|i| i.subgroup == subgroup && i.write != M0Write::Keep).count()
    }

    /// The address operand lane `lane` passes in load `load` of subgroup
    /// `subgroup`, in bytes from the global tensor's base: its gather's
    /// byte minus the immediate (the instruction adds it back). For the
    /// buffer form this is the lane's `voffset`.
    ///
    /// ```
    /// # use cktile::plan::dma::{DmaRequest, Form, Scheme, address, plan};
    /// # let tile = cktile::Descriptor::packed(&[16, 64]).unwrap();
    /// # let req = DmaRequest { lds: &tile, element_bytes: 4, global_strides: vec![64, 1], arch: cktile::analyzer::arch::GFX942, workgroup: 256, wave: 64, width: 4 };
    /// let p = plan(&req)?;
    /// let a = address(&p, &req.arch, Form::Global, Scheme::Immediate, 0)?;
    /// // Load 3 of subgroup 0 reads row 3; its immediate carries 768 - m0.
    /// let imm = a.issue(0, 3).unwrap().offset as i64;
    /// assert_eq!(a.lane_operand(&p, 0, 5, 3), Some(4 * (3 * 64 + 5) - imm));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn lane_operand(&self, p: &DmaPlan, subgroup: usize, lane: usize, load: usize) -> Option<i64> {
        let offset = i64::from(self.issue(subgroup, load)?.offset);
        p.gather(subgroup, lane, load)?.global_byte.checked_sub(offset)
    }
}

/// The LDS byte address of load `load` of subgroup `subgroup`'s lane 0.
fn load_base(p: &DmaPlan, lds_base: u64, subgroup: usize, load: usize) -> Result<u64, Error> {
    p.chunk_base(subgroup, load)
        .and_then(|b| b.checked_add(lds_base))
        .ok_or_else(|| bad("load", wide(load), "the plan has no such load (a hand-built plan short of gathers)"))
}

/// `x` as the 32-bit value `m0` holds.
fn word(x: u64) -> Result<u32, Error> {
    u32::try_from(x).map_err(|_| bad("m0", i64::try_from(x).unwrap_or(i64::MAX), "m0 is a 32-bit register"))
}

/// The instructions of plan `p` for tile bytes starting at LDS byte
/// `lds_base` of `arch`, in `form` with `m0` set by `scheme`. Errors: a base
/// that is not dword-aligned or leaves no room for the tile in the chip's
/// LDS; CK's scheme on loads whose bases are not affine in (subgroup, load);
/// a buffer-form lane whose `voffset` leaves 32 bits.
///
/// ```
/// use cktile::analyzer::arch;
/// use cktile::plan::dma::{DmaRequest, Form, Scheme, address, plan};
/// let tile = cktile::Descriptor::packed(&[16, 64])?;
/// let req = DmaRequest { lds: &tile, element_bytes: 4, global_strides: vec![64, 1], arch: arch::GFX942, workgroup: 256, wave: 64, width: 4 };
/// let p = plan(&req)?;
/// let e = address(&p, &req.arch, Form::Global, Scheme::Ck, 63 * 1024).unwrap_err();
/// assert!(e.to_string().contains("64 KiB"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn address(p: &DmaPlan, arch: &Arch, form: Form, scheme: Scheme, lds_base: u64) -> Result<Addressing, Error> {
    if !lds_base.is_multiple_of(4) {
        return Err(bad(
            "LDS base",
            i64::try_from(lds_base).unwrap_or(i64::MAX),
            "it must be dword-aligned (a multiple of 4)",
        ));
    }
    if arch.check_fits(lds_base.saturating_add(p.lds_bytes)).is_err() {
        return Err(bad(
            "LDS base",
            i64::try_from(lds_base).unwrap_or(i64::MAX),
            "the tile's bytes from there must end within the chip's shared memory (64 KiB on gfx942, 160 KiB \
             on gfx950)",
        ));
    }
    let lds_base_word = word(lds_base)?;
    // Grown as loads are found: a hand-built plan may claim more than it holds.
    let mut issues = Vec::new();
    match scheme {
        Scheme::Ck => ck_issues(p, lds_base, &mut issues)?,
        Scheme::Immediate => {
            for g in 0..p.subgroups {
                immediate_issues(p, lds_base, form, g, &mut issues)?;
            }
        }
    }
    let a = Addressing { form, scheme, lds_base: lds_base_word, issues };
    if form == Form::Buffer {
        for (at, g) in p.indexed() {
            let operand = a.lane_operand(p, at.subgroup, at.lane, at.load);
            if operand.and_then(|o| u32::try_from(o).ok()).is_none() {
                return Err(bad(
                    "global byte",
                    g.global_byte,
                    "the buffer form passes each lane's address as a 32-bit unsigned voffset from the buffer's \
                     base: the global byte minus the load's immediate (which moves the global address as it \
                     moves the LDS one), and this one's leaves that range; use the global form, or m0 scheme ck \
                     (immediate 0)",
                ));
            }
        }
    }
    Ok(a)
}

/// CK's `async_load_raw`: `m0 = size_per_buf + size_per_wave * warp`, then
/// `m0 += size_per_issue` between loads, immediate 0.
fn ck_issues(p: &DmaPlan, lds_base: u64, issues: &mut Vec<Issue>) -> Result<(), Error> {
    let (s, l) = (p.subgroups, p.loads_per_thread);
    if s == 0 || l == 0 {
        return Ok(());
    }
    let first = load_base(p, lds_base, 0, 0)?;
    let step = |b: Result<u64, Error>| -> Result<u64, Error> {
        let b = b?;
        b.checked_sub(first).ok_or_else(|| {
            bad(
                "chunk base",
                i64::try_from(b).unwrap_or(i64::MAX),
                "it lies below the first load's, so m0 cannot step up to it",
            )
        })
    };
    let per_wave = if s > 1 { step(load_base(p, lds_base, 1, 0))? } else { 0 };
    let per_issue = if l > 1 { step(load_base(p, lds_base, 0, 1))? } else { 0 };
    for g in 0..s {
        for i in 0..l {
            let base = load_base(p, lds_base, g, i)?;
            let want = (g as u64).checked_mul(per_wave).and_then(|w| {
                let issue = (i as u64).checked_mul(per_issue)?;
                first.checked_add(w)?.checked_add(issue)
            });
            if want != Some(base) {
                return Err(bad(
                    "chunk base",
                    i64::try_from(base).unwrap_or(i64::MAX),
                    "CK's async_load_raw sets m0 = size_per_buf + size_per_wave * warp once and adds \
                     size_per_issue after each load, so the loads' LDS bases must be affine in (subgroup, load); \
                     this one is not (the immediate scheme sets m0 where it must)",
                ));
            }
            let write = if i == 0 { M0Write::Set(word(base)?) } else { M0Write::Add(word(per_issue)?) };
            issues.push(Issue { subgroup: g, load: i, write, m0: word(base)?, offset: 0 });
        }
    }
    Ok(())
}

/// Subgroup `g`'s loads in windows, one `m0` write each: from the first
/// load not yet issued, every following base within the immediate's whole
/// span (`hi - lo` bytes), which is the fewest writes for ascending bases.
/// `m0` is the lowest dword-aligned value that reaches the window's last
/// base, but not below its first, so it stays inside the tile and offsets are
/// non-negative unless the negative range saves a write.
fn immediate_issues(p: &DmaPlan, lds_base: u64, form: Form, g: usize, issues: &mut Vec<Issue>) -> Result<(), Error> {
    let (lo, hi) = form.offset_range();
    let l = p.loads_per_thread;
    let bases: Vec<i64> = (0..l)
        .map(|i| load_base(p, lds_base, g, i).map(|b| i64::try_from(b).unwrap_or(i64::MAX)))
        .collect::<Result<_, _>>()?;
    let mut i = 0;
    while i < l {
        let first = bases[i];
        let span = bases[i..].iter().take_while(|&&b| b >= first && b - first <= hi - lo).count().max(1);
        let window = &bases[i..i + span];
        let last = window.iter().copied().max().unwrap_or(first);
        // Bases are dword-aligned (chunks and the LDS base are), and so is m0.
        let m0 = first.max((last - hi + 3).div_euclid(4) * 4);
        let m0_word = word(u64::try_from(m0).unwrap_or(u64::MAX))?;
        for (k, &b) in window.iter().enumerate() {
            let write = if k == 0 { M0Write::Set(m0_word) } else { M0Write::Keep };
            let offset = i32::try_from(b - m0).unwrap_or(0);
            issues.push(Issue { subgroup: g, load: i + k, write, m0: m0_word, offset });
        }
        i += span;
    }
    Ok(())
}

/// Runs the instructions by the hardware's rule, with no reference to where
/// the plan meant each lane to write: per subgroup, `m0` as the scalar
/// writes leave it; per load, lane `T` writes `width` bytes at `m0 + offset +
/// T * slot` from global byte `operand + offset`. Returns the tile's LDS
/// image relative to `lds_base` (each byte the global byte it holds). Errors
/// name the first load that reads `m0` unset, records an `m0` its writes do
/// not leave, encodes an immediate the form lacks, or writes a byte twice or
/// outside the tile.
///
/// ```
/// use cktile::analyzer::arch;
/// use cktile::plan::dma::{DmaRequest, Form, M0Write, Scheme, address, execute, plan, simulate};
/// let tile = cktile::Descriptor::packed(&[16, 64])?;
/// let req = DmaRequest { lds: &tile, element_bytes: 4, global_strides: vec![64, 1], arch: arch::GFX942, workgroup: 256, wave: 64, width: 4 };
/// let p = plan(&req)?;
/// let mut a = address(&p, &req.arch, Form::Buffer, Scheme::Ck, 0)?;
/// assert_eq!(execute(&p, &a)?, simulate(&p)?);
/// a.issues[1].write = M0Write::Keep; // forget an s_add_u32
/// assert!(execute(&p, &a).unwrap_err().to_string().contains("m0"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn execute(p: &DmaPlan, a: &Addressing) -> Result<Vec<Option<i64>>, Error> {
    let mut image = blank_image(p)?;
    let (lo, hi) = a.form.offset_range();
    let slot = lane_slot_bytes(p.width) as i64;
    let mut m0: Option<u64> = None;
    let mut subgroup = usize::MAX;
    for issue in &a.issues {
        let load = wide(issue.load);
        if issue.subgroup != subgroup {
            (subgroup, m0) = (issue.subgroup, None);
        }
        m0 = match issue.write {
            M0Write::Set(v) => Some(u64::from(v)),
            M0Write::Add(v) => m0.and_then(|m| m.checked_add(u64::from(v))),
            M0Write::Keep => m0,
        };
        if m0 != Some(u64::from(issue.m0)) {
            return Err(bad("load", load, "m0 is unset there, or not the value the load records"));
        }
        let offset = i64::from(issue.offset);
        if offset < lo || offset > hi {
            return Err(bad(
                "immediate offset",
                offset,
                match a.form {
                    Form::Global => "global_load_lds encodes 13 bits, signed: -4096 to 4095",
                    Form::Buffer => "buffer_load ... lds encodes 12 bits, unsigned: 0 to 4095",
                },
            ));
        }
        let lanes = p.instruction(issue.subgroup, issue.load).ok_or_else(|| bad("load", load, "the plan lacks it"))?;
        let base = i64::from(issue.m0) + offset - i64::from(a.lds_base);
        for (t, g) in lanes.iter().enumerate() {
            let operand = g.global_byte.checked_sub(offset);
            if a.form == Form::Buffer && operand.and_then(|o| u32::try_from(o).ok()).is_none() {
                return Err(bad("global byte", g.global_byte, "its voffset leaves 32 bits unsigned"));
            }
            let read = operand.and_then(|o| o.checked_add(offset));
            let lds = base + wide(t) * slot;
            for b in 0..p.width {
                let at = usize::try_from(lds + wide(b)).ok();
                match at.and_then(|x| image.get_mut(x)) {
                    Some(cell @ None) => *cell = read.and_then(|r| r.checked_add(wide(b))),
                    Some(Some(_)) => return Err(bad("LDS byte", lds + wide(b), "two loads write it")),
                    None => return Err(bad("LDS byte", lds + wide(b), "it lies outside the tile")),
                }
            }
        }
    }
    Ok(image)
}

/// Executes the instructions ([`execute`]) and checks the LDS image equals
/// the descriptor's byte for byte; the error names the first byte that
/// differs.
///
/// ```
/// use cktile::analyzer::arch;
/// use cktile::plan::dma::{DmaRequest, Form, Order, Scheme, address, plan_ordered, verify_addressing};
/// let tile = cktile::layouts::resolve("cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64")?;
/// let req = DmaRequest { lds: &tile, element_bytes: 2, global_strides: vec![64, 1], arch: arch::GFX950, workgroup: 256, wave: 64, width: 16 };
/// let p = plan_ordered(&req, Order::IssueMajor)?;
/// verify_addressing(&req, &p, &address(&p, &req.arch, Form::Buffer, Scheme::Ck, 0)?)?;
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn verify_addressing(req: &DmaRequest<'_>, p: &DmaPlan, a: &Addressing) -> Result<(), Error> {
    same_image(&execute(p, a)?, &expected_image(req)?)
}
