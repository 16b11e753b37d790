//! Hopper and Blackwell tile plans: of the layouts a tensor-core
//! instruction reads through a descriptor (the PTX ISA's canonical layouts,
//! every major-ness and swizzle mode), the ones TMA writes from the given
//! global tensor, ranked by the bank conflicts of the other shared-memory
//! accesses the kernel makes (an epilogue's `stmatrix`, an `ldmatrix` read).
//!
//! Every candidate is judged by the same code as `cktile matrix-desc` and
//! `cktile tma` ([`matrix_desc::judge()`], [`tma::judge()`]), and its accesses
//! are counted by the bank analyzer on sm90's model (Blackwell's shared
//! memory has the same 32 banks of 4 bytes). An epilogue tile, which no MMA
//! reads, asks for TMA alone ([`HopperRequest::mma`] off).

use crate::analyzer::{Pattern, arch};
use crate::matrix_desc::{self, OperandMajor, Readability, Readable, Request, SwizzleMode, Target, canonical_spec};
use crate::reports::analyze_tile_report;
use crate::tma::{self, TensorMap, TmaRequest, TmaVerdict};
use crate::{Error, ParameterProblem};
use alloc::string::String;
use alloc::vec::Vec;

/// What to plan: an MN x K tile (K the second dimension; for an epilogue
/// tile, its columns) of `element_bytes`-byte elements.
///
/// ```
/// use cktile::plan::hopper::HopperRequest;
/// use cktile::matrix_desc::Target;
/// let r = HopperRequest::new(128, 64, 2, Target::Sm90, [4096, 1]);
/// assert!(r.mma && r.accesses.is_empty());
/// ```
#[derive(Clone, Debug)]
pub struct HopperRequest {
    /// Rows: M or N.
    pub mn: usize,
    /// Columns: K.
    pub k: usize,
    /// Bytes per element: 1, 2 or 4.
    pub element_bytes: usize,
    /// The chip.
    pub target: Target,
    /// The operand (its instruction extent) when an MMA reads the tile.
    pub operand: matrix_desc::Operand,
    /// The global tensor's stride along the tile's rows and columns, in elements.
    pub global_strides: [i64; 2],
    /// Whether `wgmma` / `tcgen05.mma` must read the tile (an operand);
    /// off for an epilogue tile that only TMA stores.
    pub mma: bool,
    /// Shared-memory accesses whose conflicts rank the candidates.
    pub accesses: Vec<Pattern>,
}

impl HopperRequest {
    /// Operand A, read by the MMA, no other access.
    pub fn new(mn: usize, k: usize, element_bytes: usize, target: Target, global_strides: [i64; 2]) -> HopperRequest {
        HopperRequest {
            mn,
            k,
            element_bytes,
            target,
            operand: matrix_desc::Operand::A,
            global_strides,
            mma: true,
            accesses: Vec::new(),
        }
    }
}

/// One access's count on a layout: its conflict cycles and worst ways, or
/// why it cannot be issued there.
pub type AccessCount = (Pattern, Result<(u32, u32), Error>);

/// One layout that works, with what each check found.
#[derive(Clone, Debug)]
pub struct HopperCandidate {
    /// Its major-ness (for an epilogue tile, K-major is row-major).
    pub major: OperandMajor,
    /// Its swizzle mode.
    pub swizzle: SwizzleMode,
    /// The layout, as spec text.
    pub spec: String,
    /// The descriptor the MMA reads it with (`None` when the request has no MMA).
    pub mma: Option<Readable>,
    /// The tensor map that writes it.
    pub tma: TensorMap,
    /// Each access's conflict cycles (passes beyond one per phase) and worst
    /// ways, or why it cannot be issued on this layout (an `stmatrix` needs
    /// 16-byte rows contiguous, which an MN-major layout does not keep).
    pub accesses: Vec<AccessCount>,
    /// The accesses this layout cannot serve (ranked after every layout
    /// that serves them all).
    pub unserved: usize,
    /// The conflict cycles of the accesses it serves, together.
    pub conflict_cycles: u64,
}

fn bad(parameter: &'static str, value: i64, requirement: &'static str) -> Error {
    Error::parameter(ParameterProblem::Invalid { context: "hopper-plan", parameter, value, requirement })
}

/// The canonical layouts of the tile that TMA writes (and the MMA reads):
/// those that serve every access first, then fewest conflict cycles, fewest
/// TMA copies and the widest swizzle. Errors: an element size no canonical
/// layout has; an access that cannot be issued on a layout is that
/// layout's [`HopperCandidate::unserved`]. An empty list says no canonical
/// layout works with this global tensor (a transposed global tensor needs
/// the other major-ness, which the MMA may not read).
///
/// ```
/// use cktile::analyzer::Pattern;
/// use cktile::matrix_desc::{SwizzleMode, Target};
/// use cktile::plan::hopper::{plan, HopperRequest};
/// // An fp16 epilogue tile, 64 x 64, stored by stmatrix.x4 and written out by TMA.
/// let mut req = HopperRequest::new(64, 64, 2, Target::Sm90, [4096, 1]);
/// req.mma = false;
/// req.accesses.push(Pattern::from_access("stmatrix.x4")?);
/// let best = &plan(&req)?[0];
/// assert_eq!((best.swizzle, best.conflict_cycles), (SwizzleMode::B128, 0));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn plan(req: &HopperRequest) -> Result<Vec<HopperCandidate>, Error> {
    // An access of the other vendor's (an MFMA read) is refused for the plan, not per layout.
    for p in &req.accesses {
        p.check_arch(&arch::SM90)?;
    }
    if !matches!(req.element_bytes, 1 | 2 | 4) {
        return Err(bad("element bytes", req.element_bytes as i64, "it must be 1, 2 or 4"));
    }
    let elements = req.mn.checked_mul(req.k).filter(|&n| n > 0 && n <= matrix_desc::MAX_ELEMENTS);
    if elements.is_none() {
        let n = i64::try_from(req.mn.saturating_mul(req.k)).unwrap_or(i64::MAX);
        return Err(bad("tile elements", n, "a tile of 1 to 2^20 elements"));
    }
    let mut out = Vec::new();
    for major in OperandMajor::ALL {
        for &swizzle in req.target.swizzles() {
            let Ok(text) = canonical_spec(major, swizzle, req.element_bytes, req.mn, req.k, 1) else {
                continue; // the tile is not a whole number of this mode's atoms
            };
            let desc = crate::spec::parse(&text)?;
            let mma = if req.mma {
                let r = Request {
                    operand: req.operand,
                    major: Some(major),
                    swizzle: Some(swizzle),
                    ..Request::new(&desc, req.element_bytes, req.target)
                };
                match matrix_desc::judge(&r) {
                    Ok(Readability::Readable(r)) => Some(r),
                    // The target cannot read this major-ness or mode: not a candidate.
                    _ => continue,
                }
            } else {
                None
            };
            let t = TmaRequest {
                swizzle: Some(swizzle.tma()),
                ..TmaRequest::new(&desc, req.element_bytes, req.global_strides.to_vec(), req.target)
            };
            let TmaVerdict::Writes(map) = tma::judge(&t)? else { continue };
            let mut accesses = Vec::with_capacity(req.accesses.len());
            let (mut conflict_cycles, mut unserved) = (0u64, 0);
            for &p in &req.accesses {
                let r = analyze_tile_report(&desc, req.element_bytes, &arch::SM90, p);
                let r = r.map(|r| (r.counts.conflict_cycles, r.counts.max_ways));
                match &r {
                    Ok((cycles, _)) => conflict_cycles += u64::from(*cycles),
                    Err(_) => unserved += 1,
                }
                accesses.push((p, r));
            }
            out.push(HopperCandidate {
                major,
                swizzle,
                spec: text,
                mma,
                tma: map,
                accesses,
                unserved,
                conflict_cycles,
            });
        }
    }
    out.sort_by_key(|c| {
        (c.conflict_cycles, c.tma.copies.len(), core::cmp::Reverse(c.swizzle.span()), c.major == OperandMajor::Mn)
    });
    Ok(out)
}
