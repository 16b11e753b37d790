//! Whole-descriptor properties found by enumerating every top coordinate:
//! offsets, injectivity, surjectivity onto the element space, holes and
//! collisions, and one coordinate's path through the levels ([`trace`]).
//! What `cktile offsets` and `cktile check` print.
//!
//! [`property`] turns them into checks with a first counterexample
//! (`is_bijective`, `is_injective`, `is_surjective`, `round_trips`,
//! `offsets_equal`), exhaustive on small descriptors and sampled above a
//! count the caller sets; they are re-exported here. [`equiv`] decides
//! whether two descriptors are the same map (`cktile equiv`).

pub mod equiv;
pub mod property;
pub use property::{Checker, Counterexample, is_bijective, is_injective, is_surjective, offsets_equal, round_trips};

use crate::descriptor::vector::VectorUnknown;
use crate::{Descriptor, Index, Program, Vector};
use crate::{DescriptorProblem, Error};
use alloc::vec::Vec;

/// The most coordinates enumerated (2^24): larger tiles are refused rather
/// than allocating gigabytes.
///
/// ```
/// let big = cktile::Descriptor::packed(&[1 << 12, 1 << 13]).unwrap();
/// assert!(big.element_size().unwrap() as u64 > cktile::check::ENUMERATION_LIMIT);
/// assert!(cktile::check::check(&big).is_err());
/// ```
pub const ENUMERATION_LIMIT: u64 = 1 << 24;

/// How many example holes and collisions a [`Report`] keeps.
///
/// ```
/// // 60 holes, only the first EXAMPLES are listed.
/// let d = cktile::Descriptor::naive(&[4, 4], &[16, 1]).unwrap();
/// let r = cktile::check::check(&d).unwrap();
/// assert_eq!((r.hole_count, r.holes.len()), (36, cktile::check::EXAMPLES));
/// ```
pub const EXAMPLES: usize = 8;

/// The top coordinate with row-major number `n` (last dimension fastest).
///
/// ```
/// let d = cktile::Descriptor::packed(&[4, 8]).unwrap();
/// assert_eq!(cktile::check::coordinate(&d, 13), vec![1, 5]);
/// ```
pub fn coordinate(desc: &Descriptor, n: u64) -> Vec<Index> {
    let lengths = desc.lengths();
    let mut rest = n;
    let mut out = alloc::vec![0; lengths.len()];
    for (slot, &len) in out.iter_mut().zip(lengths.as_slice()).rev() {
        let len = len as u64;
        *slot = (rest % len) as Index;
        rest /= len;
    }
    out
}

/// The most coordinate-transform steps an enumeration takes (2^27): a
/// descriptor of `t` transforms is enumerated up to `2^27 / t` coordinates
/// (and never past [`ENUMERATION_LIMIT`]), so that `cktile offsets`, `check`
/// and `codegen` finish within seconds whatever the chain.
///
/// ```
/// // 2^24 coordinates through one transform: enumerated.
/// assert!(cktile::check::enumerable_size(&cktile::Descriptor::packed(&[1 << 12, 1 << 12])?).is_ok());
/// // Through 9 transforms: at most 2^27 / 9 coordinates.
/// let chain = cktile::spec::parse(&format!("packed((4096,4096)){}", " | transform(pass_through(4096) on [0] -> [0], pass_through(4096) on [1] -> [1])".repeat(4)))?;
/// let e = cktile::check::enumerable_size(&chain).unwrap_err();
/// assert!(matches!(e.kind(), cktile::ErrorKind::Port(cktile_core::ErrorKind::Descriptor(cktile::DescriptorProblem::TooLarge { size: 16777216, limit: 14913080 }))));
/// # Ok::<(), cktile::Error>(())
/// ```
pub const ENUMERATION_WORK_LIMIT: u64 = 1 << 27;

/// The transforms one coordinate goes through (at least 1).
fn steps(desc: &Descriptor) -> u64 {
    desc.stages().iter().map(|s| s.items().len() as u64).sum::<u64>().max(1)
}

/// The most coordinates of `desc` that are enumerated: [`ENUMERATION_LIMIT`],
/// or fewer for a long chain ([`ENUMERATION_WORK_LIMIT`]).
///
/// ```
/// assert_eq!(cktile::check::enumeration_limit(&cktile::Descriptor::packed(&[4])?), 1 << 24);
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn enumeration_limit(desc: &Descriptor) -> u64 {
    (ENUMERATION_WORK_LIMIT / steps(desc)).min(ENUMERATION_LIMIT)
}

/// The number of top coordinates, refused above [`enumeration_limit`].
///
/// ```
/// let big = cktile::Descriptor::packed(&[1 << 20, 1 << 20]).unwrap();
/// assert!(cktile::check::enumerable_size(&big).is_err());
/// ```
pub fn enumerable_size(desc: &Descriptor) -> Result<u64, Error> {
    let size = desc.element_size().map_or(u64::MAX, |s| s as u64);
    let limit = enumeration_limit(desc);
    if size > limit {
        return Err(Error::descriptor(DescriptorProblem::TooLarge { size, limit }));
    }
    Ok(size)
}

/// Every coordinate's offset and validity, in row-major order.
///
/// ```
/// let o = cktile::check::offsets(&cktile::Descriptor::naive(&[2, 2], &[3, 1]).unwrap()).unwrap();
/// assert_eq!((o.offsets, o.valid), (vec![0, 1, 3, 4], vec![true; 4]));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offsets {
    /// Offset of each coordinate (may be negative at padded positions).
    pub offsets: Vec<Index>,
    /// `coordinate_has_valid_offset` of each coordinate.
    pub valid: Vec<bool>,
}

/// Computes every coordinate's offset and validity: what `cktile offsets`
/// prints and Python's `Layout.offsets()` returns. The compiled program
/// gives them a batch of coordinates at a time; a padded coordinate, which
/// the program leaves out, takes the descriptor's own offset
/// (`tests/check_report.rs` holds the answer equal to asking the
/// descriptor coordinate by coordinate).
///
/// ```
/// let d = cktile::spec::parse("naive((3),(1)) | transform(pad(3,1,0) on [0] -> [0])")?;
/// let o = cktile::check::offsets(&d)?;
/// assert_eq!(o.offsets, vec![-1, 0, 1, 2]);
/// assert_eq!(o.valid, vec![false, true, true, true]);
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn offsets(desc: &Descriptor) -> Result<Offsets, Error> {
    let size = enumerable_size(desc)?;
    padded_offsets_fit(desc)?;
    let size = size as usize;
    let mut out = Offsets { offsets: alloc::vec![0; size], valid: alloc::vec![false; size] };
    let lengths = desc.lengths();
    let lengths = lengths.as_slice();
    let (o, v) = (&mut out.offsets[..], &mut out.valid[..]);
    let batched = match lengths.len() {
        1 => columns::<1>(desc, lengths, o, v),
        2 => columns::<2>(desc, lengths, o, v),
        3 => columns::<3>(desc, lengths, o, v),
        4 => columns::<4>(desc, lengths, o, v),
        5 => columns::<5>(desc, lengths, o, v),
        6 => columns::<6>(desc, lengths, o, v),
        7 => columns::<7>(desc, lengths, o, v),
        8 => columns::<8>(desc, lengths, o, v),
        _ => false,
    };
    if !batched {
        for (n, (o, v)) in (0u64..).zip(o.iter_mut().zip(v.iter_mut())) {
            (*o, *v) = one_offset(desc, n);
        }
    }
    Ok(out)
}

/// Coordinate `n`'s offset and validity, from the descriptor itself: what
/// [`offsets`] gives every coordinate the compiled program leaves out.
fn one_offset(desc: &Descriptor, n: u64) -> (Index, bool) {
    let c = coordinate(desc, n);
    (desc.calculate_offset(&c), desc.coordinate_has_valid_offset(&c))
}

/// Coordinates per batch of [`columns`] (a multiple of 64: whole words of
/// validity bits).
const BATCH: usize = 2048;

/// [`offsets`] of a rank-`N` descriptor through its compiled program
/// ([`Program::offsets_columns`](crate::Program::offsets_columns)), a batch
/// of row-major coordinates per call, built as columns one run of equal
/// indices at a time. A coordinate the program calls valid takes the
/// program's offset (equal to the descriptor's for every valid coordinate:
/// `tests/program.rs`); one it leaves out (padding) takes the descriptor's
/// own ([`one_offset`]). `false`, with nothing written, when the lengths
/// are not `N` positive ones.
fn columns<const N: usize>(desc: &Descriptor, lengths: &[Index], offsets: &mut [Index], valid: &mut [bool]) -> bool {
    if lengths.len() != N || lengths.iter().any(|&n| n <= 0) {
        return false;
    }
    let program = Program::of(desc);
    // Row-major: index `d` of coordinate `i` is `(i / stride[d]) % lengths[d]`,
    // the last index fastest (the product fits: the size was enumerable).
    let mut stride = [1 as Index; N];
    for d in (0..N - 1).rev() {
        stride[d] = stride[d + 1].saturating_mul(lengths[d + 1]);
    }
    let mut cols = alloc::vec![[0 as Index; BATCH]; N];
    let mut bits = [0u64; BATCH / 64];
    for (chunk, (out, ok)) in offsets.chunks_mut(BATCH).zip(valid.chunks_mut(BATCH)).enumerate() {
        let start = (chunk * BATCH) as Index;
        for (d, col) in cols.iter_mut().enumerate() {
            if d == N - 1 {
                // The last index counts up and wraps.
                let mut v = start % lengths[d];
                for c in &mut col[..out.len()] {
                    *c = v;
                    v += 1;
                    if v == lengths[d] {
                        v = 0;
                    }
                }
                continue;
            }
            let (mut i, mut at) = (0, start);
            while i < out.len() {
                let run = ((stride[d] - at % stride[d]) as usize).min(out.len() - i);
                col[i..i + run].fill((at / stride[d]) % lengths[d]);
                i += run;
                at += run as Index;
            }
        }
        let refs: [&[Index]; N] = core::array::from_fn(|d| &cols[d][..out.len()]);
        let n = program.offsets_columns(&refs, out, &mut bits);
        if n == out.len() && n.is_multiple_of(64) && bits[..n / 64].iter().all(|&w| w == u64::MAX) {
            ok.fill(true);
            continue;
        }
        for (i, (o, v)) in out.iter_mut().zip(ok.iter_mut()).enumerate() {
            if i < n && bits[i / 64] >> (i % 64) & 1 == 1 {
                *v = true;
            } else {
                (*o, *v) = one_offset(desc, start as u64 + i as u64);
            }
        }
    }
    true
}

/// Refuses a descriptor some of whose padded coordinates may have an
/// offset (or an intermediate index) outside 64 bits: CK's arithmetic would
/// wrap there, and a wrapped offset printed as the offset would be a wrong
/// answer. Valid coordinates never do (the element space fits), so only
/// descriptors with padding can be refused; the range is
/// [`bounds::value_range`](crate::descriptor::bounds::value_range)'s.
///
/// ```
/// let d = cktile::spec::parse("naive((2),(4611686018427387904)) | transform(pad(2,3,0) on [0] -> [0])")?;
/// assert!(cktile::check::offsets(&d).unwrap_err().to_string().contains("padded coordinates included"));
/// assert_eq!(cktile::check::trace(&d, &[4])?.offset, 1 << 62);
/// # Ok::<(), cktile::Error>(())
/// ```
fn padded_offsets_fit(desc: &Descriptor) -> Result<(), Error> {
    crate::descriptor::bounds::value_range(desc)?;
    Ok(())
}

/// One top coordinate followed through a descriptor: its index at every
/// level, from the top coordinate down to the offset, the offset and its
/// validity. What `cktile offsets --at` prints.
///
/// ```
/// let d = cktile::Descriptor::packed(&[4, 8])?;
/// let t = cktile::check::trace(&d, &[1, 2])?;
/// assert_eq!((t.levels.clone(), t.offset, t.valid), (vec![vec![1, 2], vec![10]], 10, true));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// The top coordinate.
    pub coordinate: Vec<Index>,
    /// Its index at every level: the top coordinate first, the offset last.
    pub levels: Vec<Vec<Index>>,
    /// The offset.
    pub offset: Index,
    /// Whether the coordinate has a valid (non-padded) offset.
    pub valid: bool,
}

/// Follows `coordinate` through `desc`; an error when it has the wrong
/// number of dimensions or lies outside the top lengths.
///
/// ```
/// let d = cktile::spec::parse("naive((3),(1)) | transform(pad(3,1,0) on [0] -> [0])")?;
/// let t = cktile::check::trace(&d, &[0])?;
/// assert_eq!((t.levels.clone(), t.offset, t.valid), (vec![vec![0], vec![-1], vec![-1]], -1, false));
/// assert!(cktile::check::trace(&d, &[4]).is_err());
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn trace(desc: &Descriptor, coordinate: &[Index]) -> Result<Trace, Error> {
    let offset = desc.try_calculate_offset(coordinate)?;
    let valid = desc.coordinate_has_valid_offset(coordinate);
    if !valid {
        padded_offsets_fit(desc)?;
    }
    let c = crate::Coordinate::new(desc, coordinate);
    let stages = desc.stages();
    let levels = (0..=stages.len())
        .rev()
        .map(|k| {
            let n = match k.checked_sub(1).and_then(|s| stages.get(s)) {
                Some(stage) => stage.upper_lengths().len(),
                None => 1,
            };
            c.level(k).as_slice().iter().take(n).copied().collect()
        })
        .collect();
    Ok(Trace { coordinate: coordinate.to_vec(), levels, offset, valid })
}

/// Two coordinates with the same offset.
///
/// ```
/// let d = cktile::spec::parse("packed((16)) | transform(embed((3,4),(2,1)) on [0] -> [0,1])").unwrap();
/// let c = &cktile::check::check(&d).unwrap().collisions[0];
/// assert_eq!((c.offset, c.first.clone(), c.second.clone()), (2, vec![0, 2], vec![1, 0]));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collision {
    /// The shared offset.
    pub offset: Index,
    /// The first coordinate (row-major order) with it.
    pub first: Vec<Index>,
    /// A later coordinate with it.
    pub second: Vec<Index>,
}

/// What [`check`] finds.
///
/// ```
/// let r = cktile::check::check(&cktile::Descriptor::naive(&[4, 8], &[10, 1]).unwrap()).unwrap();
/// assert!(r.injective && !r.surjective);
/// assert_eq!((r.element_space_size, r.hole_count, r.holes.clone()), (38, 6, vec![8, 9, 18, 19, 28, 29]));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Top lengths.
    pub lengths: Vec<Index>,
    /// Number of top coordinates.
    pub element_size: u64,
    /// Number of valid (non-padded) coordinates.
    pub valid_count: u64,
    /// CK's element space size.
    pub element_space_size: Index,
    /// No two valid coordinates share an offset, wherever the offsets lie
    /// (inside the element space or not).
    pub injective: bool,
    /// Every offset in `[0, element_space_size)` is reached by a valid coordinate.
    pub surjective: bool,
    /// Number of offsets in the element space that no valid coordinate reaches.
    pub hole_count: u64,
    /// The first few holes.
    pub holes: Vec<Index>,
    /// Number of valid coordinates that share their offset with an earlier
    /// one, counted over every offset produced (outside the element space too).
    pub collision_count: u64,
    /// The first few collisions.
    pub collisions: Vec<Collision>,
    /// Number of valid coordinates whose offset is outside the element space.
    pub outside_count: u64,
    /// The first few of them, with their offsets.
    pub outside: Vec<(Vec<Index>, Index)>,
    /// CK's guarantee: the safe vector length and stride of each top
    /// dimension as CK Tile's rule propagates them ([`Descriptor::top_vectors`]).
    pub vectors: Vec<Vector>,
    /// Why CK's rule knows no length, for each dimension where it knows none.
    pub vector_unknown: Vec<Option<VectorUnknown>>,
    /// The verified contiguity of each top dimension
    /// ([`verified_vector_lengths`]): what the computed offsets give.
    pub verified: Vec<Index>,
    /// For each top dimension, where CK's claim ([`vectors`](Self::vectors))
    /// fails on the computed offsets ([`claim_break`]); `None` when it
    /// holds or CK's rule claims no length.
    pub claim_breaks: Vec<Option<ClaimBreak>>,
}

impl Report {
    /// Injective, surjective and no offset outside the element space: every
    /// element is reached exactly once and nothing else is.
    ///
    /// ```
    /// let r = cktile::check::check(&cktile::Descriptor::packed(&[4, 8]).unwrap()).unwrap();
    /// assert!(r.is_bijective());
    /// // Offsets 1 and 2 in a 2-element space: injective, one hole (0), one outside.
    /// let d = cktile::spec::parse("naive_with_offset((2),(1),1)")?;
    /// let r = cktile::check::check(&d)?;
    /// assert!(r.injective && !r.is_bijective());
    /// assert_eq!((r.hole_count, r.outside_count, r.outside.clone()), (1, 1, vec![(vec![1], 2)]));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn is_bijective(&self) -> bool {
        self.injective && self.surjective && self.outside_count == 0
    }
}

/// Enumerates every coordinate and reports injectivity, surjectivity onto
/// `[0, element_space_size)`, holes, collisions and vector information.
///
/// Collisions are counted over every offset a valid coordinate produces,
/// including offsets outside the element space (listed in
/// [`Report::outside`]); holes are the offsets inside the element space that
/// no valid coordinate reaches.
///
/// ```
/// // Three coordinates, all at offset 100, past a 1-element space.
/// let d = cktile::spec::parse("naive_with_offset((3),(0),100)")?;
/// let r = cktile::check::check(&d)?;
/// assert!(!r.injective && !r.surjective && !r.is_bijective());
/// assert_eq!((r.collision_count, r.outside_count, r.hole_count), (2, 3, 1));
/// # Ok::<(), cktile::Error>(())
/// ```
///
/// ```
/// let d = cktile::Descriptor::naive(&[4, 8], &[10, 1]).unwrap();
/// let r = cktile::check::check(&d).unwrap();
/// assert!(r.injective && !r.surjective);
/// assert_eq!((r.hole_count, r.holes[0]), (6, 8)); // 38 elements, 32 reached
/// ```
pub fn check(desc: &Descriptor) -> Result<Report, Error> {
    let size = enumerable_size(desc)?;
    let space = desc.element_space_size();
    // Every valid coordinate's offset, wherever it lies: collisions are
    // counted over all of them, holes only inside the element space.
    let mut reached: Vec<(Index, u64)> = Vec::with_capacity(size as usize);
    let mut outside = Vec::new();
    let mut outside_count = 0;
    let all = offsets(desc)?;
    for (n, (&off, &valid)) in (0u64..).zip(all.offsets.iter().zip(&all.valid)) {
        if !valid {
            continue;
        }
        if !(0..space).contains(&off) {
            outside_count += 1;
            if outside.len() < EXAMPLES {
                outside.push((coordinate(desc, n), off));
            }
        }
        reached.push((off, n));
    }
    let valid_count = reached.len() as u64;
    reached.sort_unstable();
    let mut collisions = Vec::new();
    let mut collision_count = 0;
    let mut holes = Vec::new();
    let mut distinct_inside: u64 = 0;
    let mut next: Index = 0; // the smallest in-space offset not yet known to be reached
    for (i, &(off, n)) in reached.iter().enumerate() {
        if i > 0 && reached[i - 1].0 == off {
            collision_count += 1;
            if collisions.len() < EXAMPLES {
                let first = reached[..i].iter().rev().take_while(|r| r.0 == off).last().map_or(n, |r| r.1);
                collisions.push(Collision { offset: off, first: coordinate(desc, first), second: coordinate(desc, n) });
            }
            continue;
        }
        if !(0..space).contains(&off) {
            continue;
        }
        distinct_inside += 1;
        while next < off && holes.len() < EXAMPLES {
            holes.push(next);
            next += 1;
        }
        next = off + 1;
    }
    while next < space && holes.len() < EXAMPLES {
        holes.push(next);
        next += 1;
    }
    let hole_count = (space.max(0) as u64).saturating_sub(distinct_inside);
    let vectors = desc.top_vectors()[..desc.num_dims()].to_vec();
    let vector_unknown = (0..desc.num_dims()).map(|d| desc.vector_unknown(d)).collect();
    let verified = verified_vector_lengths(desc, &all);
    let claim_breaks = vectors.iter().enumerate().map(|(d, &v)| claim_break(desc, &all, d, v)).collect();
    Ok(Report {
        lengths: desc.lengths().as_slice().to_vec(),
        element_size: size,
        valid_count,
        element_space_size: space,
        injective: collision_count == 0,
        surjective: hole_count == 0,
        hole_count,
        holes,
        collision_count,
        collisions,
        outside_count,
        outside,
        vectors,
        vector_unknown,
        verified,
        claim_breaks,
    })
}

/// Two neighbours along a dimension, inside one aligned run of CK's claimed
/// vector length, whose offsets are not the claimed stride apart (or one
/// of which is padding): the witness that the claim is false.
///
/// ```
/// // Stride 2 claimed to be contiguous (a base refuses that guarantee; a claim may still say it).
/// let d = cktile::spec::parse("naive((4),(2))")?;
/// let b = cktile::check::claim_break(&d, &cktile::check::offsets(&d)?, 0, cktile::Vector::new(4, 1)).unwrap();
/// assert_eq!((b.first, b.second, b.offsets), (vec![0], vec![1], (Some(0), Some(2))));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimBreak {
    /// The earlier coordinate.
    pub first: Vec<Index>,
    /// The next coordinate along the dimension.
    pub second: Vec<Index>,
    /// Their offsets (`None`: the coordinate is padding).
    pub offsets: (Option<Index>, Option<Index>),
}

/// Whether CK's vector claim `claim` for dimension `dim` (a length `L` and
/// a stride `S`, as [`Descriptor::top_vectors`] gives them) holds on the
/// computed `offsets` of `desc`: every aligned run `[k*L, (k+1)*L)` along
/// `dim` (the other coordinates fixed; a last run cut by the dimension's end
/// counts for the coordinates it has) is padding throughout (CK masks the
/// whole vector) or valid throughout with each offset `S` past its
/// predecessor's (with an unknown stride, the same distance as the run's
/// first step). The first pair that
/// breaks it, in row-major order; `None` when it holds, when CK claims no
/// length, or when `dim` is not a dimension.
///
/// ```
/// // CK's claim of 6 on a packed 6: true (its verified power-of-two length is 2).
/// let d = cktile::spec::parse("packed((6),6)")?;
/// let o = cktile::check::offsets(&d)?;
/// assert_eq!(cktile::check::claim_break(&d, &o, 0, d.top_vectors()[0]), None);
/// assert_eq!(cktile::check::verified_vector_lengths(&d, &o), vec![2]);
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn claim_break(desc: &Descriptor, offsets: &Offsets, dim: usize, claim: Vector) -> Option<ClaimBreak> {
    let lengths = desc.lengths();
    let lengths = lengths.as_slice();
    let len = usize::try_from(*lengths.get(dim)?).ok()?;
    let run = usize::try_from(claim.length?).ok().filter(|&l| l > 1)?;
    let step: usize = lengths[dim + 1..].iter().map(|&l| l as usize).product();
    let at = |n: usize| valid_offset(offsets, n);
    let witness = |n: usize| {
        Some(ClaimBreak {
            first: coordinate(desc, (n - step) as u64),
            second: coordinate(desc, n as u64),
            offsets: (at(n - step), at(n)),
        })
    };
    for n in 0..offsets.offsets.len() {
        let i = (n / step) % len;
        if i.is_multiple_of(run) {
            continue;
        }
        let expected = match (at(n - step), at(n), claim.stride) {
            // A run of padding only: CK masks the whole vector.
            (None, None, _) => continue,
            (Some(prev), Some(here), Some(s)) => (prev, here, s),
            // No stride claimed: the run's first step sets it.
            (Some(prev), Some(here), None) => {
                let start = n - (i % run) * step;
                match (at(start), at(start + step)) {
                    (Some(a), Some(b)) => (prev, here, b.wrapping_sub(a)),
                    _ => return witness(n),
                }
            }
            // Padding and data in one vector.
            _ => return witness(n),
        };
        let (prev, here, s) = expected;
        if prev.checked_add(s) != Some(here) {
            return witness(n);
        }
    }
    None
}

/// For each top dimension, the largest power-of-two vector length `L`
/// (dividing the dimension's length) for which every aligned run of `L`
/// coordinates along that dimension, `[k*L, (k+1)*L)` with the other
/// coordinates fixed, is valid and maps to consecutive offsets: what the
/// offsets actually give, found by enumeration (compare CK's rule,
/// [`Descriptor::top_vectors`]). At least 1.
///
/// ```
/// let d = cktile::spec::parse("packed((2,16),16) | transform(xor((2,16)) on [0,1] -> [0,1])")?;
/// let o = cktile::check::offsets(&d)?;
/// // CK's rule passes the base's 16 through the xor; row 1 is 17 16 19 18 ...
/// assert_eq!(d.top_vectors()[1].length, Some(16));
/// assert_eq!(cktile::check::verified_vector_lengths(&d, &o), vec![1, 1]);
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn verified_vector_lengths(desc: &Descriptor, offsets: &Offsets) -> Vec<Index> {
    let lengths = desc.lengths();
    let lengths = lengths.as_slice();
    let mut out = Vec::with_capacity(lengths.len());
    for d in 0..lengths.len() {
        // Row-major distance between neighbours along `d`.
        let step: usize = lengths[d + 1..].iter().map(|&l| l as usize).product();
        let len = lengths[d] as usize;
        // Every `L` that works divides `len` and each position where a run
        // breaks (where the coordinate does not continue its predecessor).
        let mut g = len;
        for n in 0..offsets.offsets.len() {
            let i = (n / step) % len;
            if i == 0 {
                continue;
            }
            let (prev, here) = (valid_offset(offsets, n - step), valid_offset(offsets, n));
            let continues = matches!((prev, here), (Some(a), Some(b)) if a.checked_add(1) == Some(b));
            if !continues {
                g = gcd(g, i);
                if g == 1 {
                    break;
                }
            }
        }
        // A run starting at an invalid coordinate is no vector either.
        if g > 1
            && (0..offsets.offsets.len()).any(|n| (n / step).is_multiple_of(len) && valid_offset(offsets, n).is_none())
        {
            g = 1;
        }
        out.push(1 << g.trailing_zeros());
    }
    out
}

/// Coordinate `n`'s offset when it is valid; `None` for padding, or past the
/// end of an `Offsets` built by hand shorter than its descriptor.
fn valid_offset(offsets: &Offsets, n: usize) -> Option<Index> {
    offsets.valid.get(n).copied().unwrap_or(false).then(|| offsets.offsets.get(n).copied()).flatten()
}

fn gcd(mut a: usize, mut b: usize) -> usize {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}
