//! Whole-descriptor properties found by enumerating every top coordinate:
//! offsets, injectivity, surjectivity onto the element space, holes and
//! collisions. What `cktile offsets` and `cktile check` print.

use crate::error::{Error, ErrorKind};
use crate::{Descriptor, Index, Vector};
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
/// assert!(matches!(e.kind(), cktile::ErrorKind::TooLarge { size: 16777216, limit: 14913080 }));
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
        return Err(Error::new(ErrorKind::TooLarge { size, limit }));
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

/// Computes every coordinate's offset and validity.
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
    let mut out = Offsets { offsets: Vec::with_capacity(size as usize), valid: Vec::with_capacity(size as usize) };
    for n in 0..size {
        let c = coordinate(desc, n);
        out.offsets.push(desc.calculate_offset(&c));
        out.valid.push(desc.coordinate_has_valid_offset(&c));
    }
    Ok(out)
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
    /// No two valid coordinates share an offset.
    pub injective: bool,
    /// Every offset in `[0, element_space_size)` is reached by a valid coordinate.
    pub surjective: bool,
    /// Number of offsets in the element space that no valid coordinate reaches.
    pub hole_count: u64,
    /// The first few holes.
    pub holes: Vec<Index>,
    /// Number of valid coordinates that share their offset with an earlier one.
    pub collision_count: u64,
    /// The first few collisions.
    pub collisions: Vec<Collision>,
    /// Number of valid coordinates whose offset is outside the element space.
    pub outside_count: u64,
    /// The first few of them, with their offsets.
    pub outside: Vec<(Vec<Index>, Index)>,
    /// Safe vector length and stride of each top dimension.
    pub vectors: Vec<Vector>,
}

impl Report {
    /// Injective and surjective: every element is reached exactly once.
    ///
    /// ```
    /// let r = cktile::check::check(&cktile::Descriptor::packed(&[4, 8]).unwrap()).unwrap();
    /// assert!(r.is_bijective());
    /// ```
    pub fn is_bijective(&self) -> bool {
        self.injective && self.surjective
    }
}

/// Enumerates every coordinate and reports injectivity, surjectivity onto
/// `[0, element_space_size)`, holes, collisions and vector information.
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
    let mut reached: Vec<(Index, u64)> = Vec::with_capacity(size as usize);
    let mut outside = Vec::new();
    let mut outside_count = 0;
    for n in 0..size {
        let c = coordinate(desc, n);
        if !desc.coordinate_has_valid_offset(&c) {
            continue;
        }
        let off = desc.calculate_offset(&c);
        if (0..space).contains(&off) {
            reached.push((off, n));
        } else {
            outside_count += 1;
            if outside.len() < EXAMPLES {
                outside.push((c, off));
            }
        }
    }
    let valid_count = reached.len() as u64 + outside_count;
    reached.sort_unstable();
    let mut collisions = Vec::new();
    let mut collision_count = 0;
    let mut holes = Vec::new();
    let mut distinct: u64 = 0;
    let mut next: Index = 0; // the smallest offset not yet known to be reached
    for (i, &(off, n)) in reached.iter().enumerate() {
        if i > 0 && reached[i - 1].0 == off {
            collision_count += 1;
            if collisions.len() < EXAMPLES {
                let first = reached[..i].iter().rev().take_while(|r| r.0 == off).last().map_or(n, |r| r.1);
                collisions.push(Collision { offset: off, first: coordinate(desc, first), second: coordinate(desc, n) });
            }
            continue;
        }
        distinct += 1;
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
    let hole_count = space as u64 - distinct;
    let vectors = desc.top_vectors()[..desc.num_dims()].to_vec();
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
    })
}
