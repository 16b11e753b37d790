//! gfx1250's asynchronous global-to-LDS loads
//! (`global_load_async_to_lds_b8/b32/b64/b128`, waited on with
//! `s_wait_asynccnt`): which threads load which vectors of a tile, and
//! the bank conflicts of their LDS writes.
//!
//! Unlike gfx942's and gfx950's `global_load_lds`, whose lanes write
//! consecutive LDS bytes from one `m0` base (so a layout is honoured by
//! gathering on the global side, [`dma`](super::dma)), each lane of
//! gfx1250's async load gives its own LDS address in a VGPR beside its
//! global address (the instruction's operands: `global_load_async_to_lds_b128
//! vLDS, v[ADDR:ADDR+1], off`, as LLVM's assembler takes it). So any
//! layout loads, as long as each lane's `width` bytes are consecutive in
//! LDS and in global memory: the rule the AMD MI450 blog states for these
//! copies, which cannot reorder bytes within a lane. There is no 12-byte
//! form (CK Tile's `amd_buffer_addressing_builtins.hpp` notes the missing
//! `b96`).
//!
//! [`plan`] walks the tile's `width`-byte vectors in row-major order and
//! gives vector `c` to thread `c % workgroup` in its load `c / workgroup`
//! (lanes past the last vector sit out the final load), checks each
//! vector's contiguity and alignment, and counts each wave's LDS writes
//! under the rule table's `ds_write` of the same width (no source gives
//! the async writes' own grouping: an assumption the report states).
//! [`verify`] replays the loads on a synthetic global tensor and compares
//! the LDS image with the layout's, byte for byte.
//!
//! ```
//! use cktile::analyzer::arch;
//! use cktile::plan::async_lds::{AsyncRequest, plan, verify};
//! let tile = cktile::layouts::resolve("cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64")?;
//! let req = AsyncRequest { lds: &tile, element_bytes: 2, global_strides: vec![4096, 1], arch: arch::GFX1250, workgroup: 256, width: 16 };
//! let p = plan(&req)?;
//! assert_eq!((p.loads_per_thread, p.worst_ways), (2, 1));
//! verify(&req, &p)?;
//! # Ok::<(), cktile::Error>(())
//! ```

use crate::analyzer::arch::{Arch, Chip};
use crate::analyzer::{AnalyzerProblem, Op, count};
use crate::check;
use crate::descriptor::Descriptor;
use crate::{Error, ParameterProblem};
use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;

const NAME: &str = "dma-plan (global_load_async_to_lds)";

fn bad(parameter: &'static str, value: i64, requirement: &'static str) -> Error {
    Error::parameter(ParameterProblem::Invalid { context: NAME, parameter, value, requirement })
}

fn wide(x: u64) -> i64 {
    i64::try_from(x).unwrap_or(i64::MAX)
}

/// What to load: the LDS layout, its element size, the global tensor's
/// strides along the tile's dimensions (in elements, the last 1), the chip
/// (gfx1250), the threads of the workgroup and the bytes each lane loads.
#[derive(Clone, Debug)]
pub struct AsyncRequest<'a> {
    /// The LDS layout.
    pub lds: &'a Descriptor,
    /// Bytes per element.
    pub element_bytes: usize,
    /// The global tensor's stride along each tile dimension, in elements.
    pub global_strides: Vec<i64>,
    /// The chip: gfx1250.
    pub arch: Arch,
    /// Threads of the workgroup (a multiple of the 32-lane wave).
    pub workgroup: usize,
    /// Bytes per lane per load: 1, 4, 8 or 16.
    pub width: usize,
}

/// One lane's load: the vector it moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsyncLoad {
    /// The thread (wave `thread / 32`, lane `thread % 32`).
    pub thread: usize,
    /// Which of the thread's loads.
    pub load: usize,
    /// The tile coordinate of the vector's first element.
    pub coordinate: Vec<i64>,
    /// Its global byte offset (from the tile's origin).
    pub global_byte: i64,
    /// Its LDS byte address (the lane's VGPR).
    pub lds_byte: u64,
}

/// The loads that fill a layout, and their LDS writes' worst bank ways.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsyncPlan {
    /// Bytes per lane per load.
    pub width: usize,
    /// Threads of the workgroup.
    pub workgroup: usize,
    /// Loads each thread issues (the last may leave lanes out).
    pub loads_per_thread: usize,
    /// Every lane's load, in (load, thread) order.
    pub loads: Vec<AsyncLoad>,
    /// LDS bytes the tile spans (its last element's end).
    pub lds_bytes: u64,
    /// The worst bank ways of any wave's load, counted as `ds_write` of
    /// the same width ([`write_op`](AsyncPlan::write_op)).
    pub worst_ways: u32,
    /// The (load, wave) with them.
    pub worst: (usize, usize),
}

impl AsyncPlan {
    /// The instruction, e.g. `global_load_async_to_lds_b128`.
    pub fn mnemonic(&self) -> alloc::string::String {
        alloc::format!("global_load_async_to_lds_b{}", self.width * 8)
    }

    /// The `ds_write` whose bank rule counts the LDS writes.
    pub fn write_op(&self) -> Op {
        Op::DsWrite { bits: (self.width * 8) as u32 }
    }
}

/// The loads that fill `req.lds`, or why none can: another chip, a width
/// the instruction lacks, a workgroup not of whole waves, a global tensor
/// whose tile dimension is not contiguous, a vector padded or split in the
/// layout, an address misaligned or past the chip's LDS (the error names
/// the first element at fault).
///
/// ```
/// use cktile::analyzer::arch;
/// use cktile::plan::async_lds::{AsyncRequest, plan};
/// let tile = cktile::Descriptor::packed(&[8, 12])?;
/// let req = AsyncRequest { lds: &tile, element_bytes: 2, global_strides: vec![12, 1], arch: arch::GFX1250, workgroup: 32, width: 16 };
/// let e = plan(&req).unwrap_err();
/// assert!(e.to_string().contains("12"), "{e}");
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn plan(req: &AsyncRequest<'_>) -> Result<AsyncPlan, Error> {
    if req.arch.chip() != Chip::Gfx1250 {
        return Err(Error::analyzer(AnalyzerProblem::NotOnArch {
            what: "global_load_async_to_lds",
            arch: req.arch.name(),
            valid: "it is gfx1250's; plan global_load_lds on gfx942 or gfx950",
        }));
    }
    let (eb, width) = (req.element_bytes, req.width);
    if !matches!(width, 1 | 4 | 8 | 16) {
        return Err(bad(
            "width",
            wide(width as u64),
            "gfx1250's async loads move 1, 4, 8 or 16 bytes per lane (no b96)",
        ));
    }
    if !matches!(eb, 1 | 2 | 4 | 8) || width % eb != 0 {
        return Err(bad("element bytes", wide(eb as u64), "1, 2, 4 or 8, dividing the width"));
    }
    let wave = req.arch.wave() as usize;
    if req.workgroup == 0 || !req.workgroup.is_multiple_of(wave) || req.workgroup > 1024 {
        return Err(bad("workgroup", wide(req.workgroup as u64), "whole 32-lane waves, at most 1024 threads"));
    }
    let lengths: Vec<i64> = req.lds.lengths().as_slice().to_vec();
    if req.global_strides.len() != lengths.len() {
        return Err(bad(
            "global strides",
            wide(req.global_strides.len() as u64),
            "one global stride per tile dimension",
        ));
    }
    let vec = (width / eb) as i64;
    let last = *lengths.last().unwrap_or(&0);
    if vec > 1 && req.global_strides.last() != Some(&1) {
        return Err(bad(
            "innermost global stride",
            req.global_strides.last().copied().unwrap_or(0),
            "a lane's bytes are consecutive in global memory: the last dimension's stride must be 1",
        ));
    }
    if last % vec != 0 {
        return Err(bad("last tile length", last, "it must be a multiple of the elements one lane loads"));
    }
    let o = check::offsets(req.lds)?;
    let chunks = o.offsets.len() / vec as usize;
    let align = req.write_op_alignment().max(1);
    let mut loads = Vec::with_capacity(chunks);
    let mut lds_bytes = 0u64;
    for c in 0..chunks {
        let n = c * vec as usize;
        for j in 0..vec as usize {
            if !o.valid[n + j] {
                return Err(bad(
                    "element",
                    wide((n + j) as u64),
                    "an async load writes every element; this one is padding",
                ));
            }
            if o.offsets[n + j] != o.offsets[n] + j as i64 {
                return Err(bad(
                    "element",
                    wide((n + j) as u64),
                    "a lane's bytes are consecutive in LDS; this element (its row-major index) does not follow the \
                     one before it in the layout",
                ));
            }
        }
        let lds_byte = u64::try_from(o.offsets[n])
            .ok()
            .and_then(|x| x.checked_mul(eb as u64))
            .ok_or_else(|| bad("LDS offset", o.offsets[n], "it must not be negative, and its byte must fit 64 bits"))?;
        if lds_byte % align != 0 {
            return Err(bad(
                "element",
                wide(n as u64),
                "a lane's LDS address must be aligned as ds_write of its width",
            ));
        }
        lds_bytes = lds_bytes.max(lds_byte + width as u64);
        let coordinate = unflatten(n, &lengths);
        let mut global = 0i64;
        for (x, s) in coordinate.iter().zip(&req.global_strides) {
            global = x
                .checked_mul(*s)
                .and_then(|t| global.checked_add(t))
                .ok_or_else(|| bad("global stride", *s, "the tile's global offsets must fit 64 bits"))?;
        }
        let global_byte = global.checked_mul(eb as i64).ok_or_else(|| bad("global offset", global, "fits 64 bits"))?;
        loads.push(AsyncLoad { thread: c % req.workgroup, load: c / req.workgroup, coordinate, global_byte, lds_byte });
    }
    if lds_bytes > u64::from(req.arch.shared_bytes()) {
        return Err(bad("LDS bytes", wide(lds_bytes), "the tile must fit gfx1250's 327680 bytes of LDS"));
    }
    let loads_per_thread = chunks.div_ceil(req.workgroup);
    let mut plan =
        AsyncPlan { width, workgroup: req.workgroup, loads_per_thread, loads, lds_bytes, worst_ways: 0, worst: (0, 0) };
    let op = plan.write_op();
    for k in 0..loads_per_thread {
        for w in 0..req.workgroup / wave {
            let mut lanes = vec![None; wave];
            for (lane, slot) in lanes.iter_mut().enumerate() {
                let c = k * req.workgroup + w * wave + lane;
                *slot = plan.loads.get(c).map(|l| l.lds_byte);
            }
            let ways = count(&req.arch, op, &lanes)?.max_ways;
            if ways > plan.worst_ways {
                plan.worst_ways = ways;
                plan.worst = (k, w);
            }
        }
    }
    Ok(plan)
}

impl AsyncRequest<'_> {
    /// The alignment `ds_write` of the width needs.
    fn write_op_alignment(&self) -> u64 {
        Op::DsWrite { bits: (self.width * 8) as u32 }.alignment()
    }
}

/// Row-major index `n` over `lengths` as a coordinate.
fn unflatten(mut n: usize, lengths: &[i64]) -> Vec<i64> {
    let mut out = vec![0; lengths.len()];
    for (x, &l) in out.iter_mut().zip(lengths).rev() {
        let l = l.max(1) as usize;
        *x = (n % l) as i64;
        n /= l;
    }
    out
}

/// Replays the plan on a synthetic global tensor (each tile element's
/// global bytes holding its row-major index) and checks that the LDS image
/// the lanes write is the layout's, byte for byte, every element once.
pub fn verify(req: &AsyncRequest<'_>, p: &AsyncPlan) -> Result<(), Error> {
    let eb = req.element_bytes as i64;
    let o = check::offsets(req.lds)?;
    let lengths: Vec<i64> = req.lds.lengths().as_slice().to_vec();
    // The synthetic global tensor: byte -> (element, byte of it).
    let mut global: BTreeMap<i64, (usize, i64)> = BTreeMap::new();
    for n in 0..o.offsets.len() {
        let x = unflatten(n, &lengths);
        let g: i64 = x.iter().zip(&req.global_strides).map(|(a, s)| a * s).sum::<i64>() * eb;
        for b in 0..eb {
            if global.insert(g + b, (n, b)).is_some() {
                return Err(bad("global byte", g + b, "two tile elements share a global address: check the strides"));
            }
        }
    }
    let mut image = vec![None; usize::try_from(p.lds_bytes).unwrap_or(0)];
    for l in &p.loads {
        for b in 0..p.width as i64 {
            let Some(&src) = global.get(&(l.global_byte + b)) else {
                return Err(bad("global byte", l.global_byte + b, "a lane reads outside the tile"));
            };
            let at = usize::try_from(l.lds_byte + b as u64).unwrap_or(usize::MAX);
            match image.get_mut(at) {
                Some(slot @ None) => *slot = Some(src),
                _ => return Err(bad("LDS byte", wide(at as u64), "written twice, or past the plan's bytes")),
            }
        }
    }
    for (n, &off) in o.offsets.iter().enumerate() {
        for b in 0..eb {
            let at = usize::try_from(off * eb + b).unwrap_or(usize::MAX);
            if image.get(at).copied().flatten() != Some((n, b)) {
                return Err(bad("element", wide(n as u64), "the replayed loads do not put it where the layout does"));
            }
        }
    }
    Ok(())
}
