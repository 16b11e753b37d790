//! Layout properties as checks that read like the property: [`is_bijective`],
//! [`is_injective`], [`is_surjective`], [`round_trips`] (the inverse) and
//! [`offsets_equal`] (a closed form). Each returns the first counterexample
//! ([`Counterexample`]), whose text names the coordinates, the offset and,
//! for two coordinates that share an offset, the stage of the chain where
//! they first meet.
//!
//! Up to [`Checker::samples`] top coordinates, a check is exhaustive: it
//! enumerates every coordinate (through [`check`](super::check)). Above, it
//! draws that many coordinates (and offsets) from a seeded [`Rng`], so the
//! same checker gives the same answer every run. Sampled checks find holes
//! with the inverse ([`Descriptor::calculate_top_index`]) and collisions
//! both among the samples and through the inverse (a coordinate whose
//! offset inverts to another coordinate).
//!
//! Every check takes anything that is `AsRef<Descriptor>`: a runtime
//! [`Descriptor`], a typed [`TensorDescriptor`](crate::typed::TensorDescriptor),
//! or a static descriptor's constant.
//!
//! ```
//! use cktile::check::{is_bijective, is_injective};
//! let swizzled = cktile::layouts::resolve("cute-swizzle:b=3,mbase=3,s=3,rows=8,cols=64")?;
//! assert_eq!(is_bijective(&swizzled), Ok(()));
//! let overlapping = cktile::Descriptor::naive(&[4, 8], &[4, 1])?;
//! let e = is_injective(&overlapping).unwrap_err();
//! assert_eq!(
//!     e.to_string(),
//!     "not injective: coordinates [0, 4] and [1, 0] both have offset 4; \
//!      they first meet at level 1 ([4]), in the base `naive((4,8),(4,1))`"
//! );
//! # Ok::<(), cktile::Error>(())
//! ```

use super::{ENUMERATION_LIMIT, coordinate};
use crate::random::Rng;
use crate::{Coordinate, Descriptor, Index};
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// How many coordinates (and offsets) a [`Checker`] enumerates or draws by default.
///
/// ```
/// assert_eq!(cktile::check::property::DEFAULT_SAMPLES, 1 << 16);
/// ```
pub const DEFAULT_SAMPLES: u64 = 1 << 16;

/// Where two coordinates with the same offset first have the same index,
/// walking down the chain from the top.
///
/// ```
/// let d = cktile::Descriptor::naive(&[4, 8], &[4, 1]).unwrap();
/// let m = cktile::check::property::meet(&d, &[0, 4], &[1, 0]);
/// assert_eq!((m.level, m.index.clone(), m.stage.as_str()), (1, vec![4], "the base `naive((4,8),(4,1))`"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meet {
    /// The level, numbered as `cktile offsets --at` prints them: 0 is the
    /// top, the last is the offset.
    pub level: usize,
    /// The index both coordinates have there.
    pub index: Vec<Index>,
    /// The stage that maps them to it: `the base ...` or `transform(...)`, as spec text.
    pub stage: String,
}

/// The first counterexample to a property.
///
/// ```
/// use cktile::check::{is_surjective, Counterexample};
/// let padded = cktile::layouts::resolve("row-padded:rows=4,cols=4,pad=1")?;
/// let e = is_surjective(&padded).unwrap_err();
/// assert!(matches!(e, Counterexample::Hole { offset: 4, count: Some(3), .. }));
/// assert_eq!(e.to_string(), "not surjective: offset 4 of [0, 19) is a hole: no valid coordinate has it (3 holes)");
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Counterexample {
    /// Two valid coordinates share an offset.
    Collision {
        /// The first coordinate (row-major order).
        first: Vec<Index>,
        /// The other.
        second: Vec<Index>,
        /// Their offset.
        offset: Index,
        /// Where in the chain they first meet.
        meet: Meet,
    },
    /// An offset of the element space that no valid coordinate reaches.
    Hole {
        /// The (first found) hole.
        offset: Index,
        /// The element space size.
        element_space_size: Index,
        /// How many holes there are (`None` when sampled: the inverse found none).
        count: Option<u64>,
    },
    /// A valid coordinate whose offset is outside `[0, element_space_size)`.
    Outside {
        /// The coordinate.
        coordinate: Vec<Index>,
        /// Its offset.
        offset: Index,
        /// The element space size.
        element_space_size: Index,
    },
    /// The inverse does not give back a valid coordinate from its offset.
    RoundTrip {
        /// The coordinate.
        coordinate: Vec<Index>,
        /// Its offset.
        offset: Index,
        /// What [`Descriptor::calculate_top_index`] gives for the offset.
        back: Option<Vec<Index>>,
    },
    /// A sampled surjectivity check cannot look for holes: the inverse finds
    /// no coordinate for an offset that a valid coordinate has (a transform
    /// without an inverse, as freeze, modulo or a broadcast).
    NoInverse {
        /// The coordinate.
        coordinate: Vec<Index>,
        /// Its offset.
        offset: Index,
        /// The number of top coordinates (above the sample count).
        element_size: u64,
    },
    /// A valid coordinate's offset differs from the closed form.
    ClosedForm {
        /// The coordinate.
        coordinate: Vec<Index>,
        /// Its offset.
        offset: Index,
        /// What the closed form gives.
        expected: Index,
    },
}

impl fmt::Display for Counterexample {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Counterexample::Collision { first, second, offset, meet } => write!(
                f,
                "not injective: coordinates {first:?} and {second:?} both have offset {offset}; \
                 they first meet at level {} ({:?}), in {}",
                meet.level, meet.index, meet.stage
            ),
            Counterexample::Hole { offset, element_space_size, count: Some(n) } => write!(
                f,
                "not surjective: offset {offset} of [0, {element_space_size}) is a hole: no valid coordinate has it \
                 ({n} hole{})",
                if *n == 1 { "" } else { "s" }
            ),
            Counterexample::Hole { offset, element_space_size, count: None } => write!(
                f,
                "not surjective: offset {offset} of [0, {element_space_size}) is a hole: calculate_top_index finds \
                 no coordinate for it (sampled)"
            ),
            Counterexample::Outside { coordinate, offset, element_space_size } => write!(
                f,
                "coordinate {coordinate:?} has offset {offset}, outside the element space [0, {element_space_size})"
            ),
            Counterexample::RoundTrip { coordinate, offset, back: Some(back) } => write!(
                f,
                "the inverse does not round-trip: coordinate {coordinate:?} has offset {offset}, and \
                 calculate_top_index({offset}) gives {back:?}"
            ),
            Counterexample::RoundTrip { coordinate, offset, back: None } => write!(
                f,
                "the inverse does not round-trip: coordinate {coordinate:?} has offset {offset}, and \
                 calculate_top_index({offset}) finds no coordinate"
            ),
            Counterexample::NoInverse { coordinate, offset, element_size } => write!(
                f,
                "cannot look for holes by sampling: calculate_top_index({offset}) finds no coordinate, yet \
                 {coordinate:?} has that offset (a transform without an inverse); raise the sample count to \
                 {element_size} to enumerate"
            ),
            Counterexample::ClosedForm { coordinate, offset, expected } => {
                write!(f, "coordinate {coordinate:?} has offset {offset}; the closed form gives {expected}")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Counterexample {}

/// The checks, with their sample count and seed.
///
/// ```
/// use cktile::check::property::Checker;
/// let big = cktile::layouts::resolve("ck-universal-a:m=256,k=256,dtype=fp16")?;
/// // 65536 coordinates: enumerated by default, sampled with a smaller count.
/// let quick = Checker::new().samples(4096).seed(7);
/// assert!(!quick.is_exhaustive(&big));
/// assert_eq!(quick.is_bijective(&big), Ok(()));
/// assert_eq!(quick.round_trips(&big), Ok(()));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checker {
    samples: u64,
    seed: u64,
}

impl Default for Checker {
    fn default() -> Checker {
        Checker::new()
    }
}

/// Which coordinates a check visits.
enum Visit {
    /// Every coordinate, row-major.
    All(u64),
    /// This many drawn ones.
    Sampled(u64),
}

impl Checker {
    /// [`DEFAULT_SAMPLES`] samples, seed 0.
    ///
    /// ```
    /// assert_eq!(cktile::check::property::Checker::new().sample_count(), 1 << 16);
    /// ```
    pub const fn new() -> Checker {
        Checker { samples: DEFAULT_SAMPLES, seed: 0 }
    }

    /// Enumerates descriptors of at most `n` top coordinates (and at most
    /// [`ENUMERATION_LIMIT`]); draws `n` coordinates and `n` offsets above.
    ///
    /// ```
    /// let d = cktile::Descriptor::packed(&[64, 64]).unwrap();
    /// assert!(!cktile::check::property::Checker::new().samples(1000).is_exhaustive(&d));
    /// ```
    pub const fn samples(self, n: u64) -> Checker {
        Checker { samples: if n == 0 { 1 } else { n }, ..self }
    }

    /// The seed sampled checks draw from.
    ///
    /// ```
    /// let c = cktile::check::property::Checker::new().seed(3);
    /// assert_eq!(c, cktile::check::property::Checker::new().seed(3));
    /// ```
    pub const fn seed(self, seed: u64) -> Checker {
        Checker { seed, ..self }
    }

    /// The sample count.
    ///
    /// ```
    /// assert_eq!(cktile::check::property::Checker::new().samples(10).sample_count(), 10);
    /// ```
    pub const fn sample_count(&self) -> u64 {
        self.samples
    }

    /// Whether the checks enumerate every coordinate of `d`.
    ///
    /// ```
    /// let d = cktile::Descriptor::packed(&[4, 8]).unwrap();
    /// assert!(cktile::check::property::Checker::new().is_exhaustive(&d));
    /// ```
    pub fn is_exhaustive(&self, d: &impl AsRef<Descriptor>) -> bool {
        matches!(self.visit(d.as_ref()), Visit::All(_))
    }

    fn visit(&self, d: &Descriptor) -> Visit {
        match d.element_size() {
            Some(n) if (n as u64) <= self.samples && (n as u64) <= ENUMERATION_LIMIT => Visit::All(n as u64),
            _ => Visit::Sampled(self.samples),
        }
    }

    /// Calls `f` with each visited coordinate until it returns an `Err`.
    fn each_coordinate(
        &self,
        d: &Descriptor,
        mut f: impl FnMut(Vec<Index>) -> Result<(), Counterexample>,
    ) -> Result<(), Counterexample> {
        match self.visit(d) {
            Visit::All(n) => (0..n).try_for_each(|i| f(coordinate(d, i))),
            Visit::Sampled(n) => {
                let mut rng = Rng::new(self.seed);
                (0..n).try_for_each(|_| f(random_coordinate(d, &mut rng)))
            }
        }
    }

    /// No two valid coordinates share an offset.
    ///
    /// ```
    /// let d = cktile::layouts::resolve("ck-xor-lds:m=128,k=32,kpack=8,mlds=2")?;
    /// assert_eq!(cktile::check::property::Checker::new().is_injective(&d), Ok(()));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn is_injective(&self, d: &impl AsRef<Descriptor>) -> Result<(), Counterexample> {
        let d = d.as_ref();
        if let Some(report) = self.report(d) {
            return match report.collisions.first() {
                Some(c) => Err(collision(d, c.first.clone(), c.second.clone())),
                None => Ok(()),
            };
        }
        let mut seen: BTreeMap<Index, Vec<Index>> = BTreeMap::new();
        self.each_coordinate(d, |c| {
            let Some(offset) = d.offset_if_valid(&c) else { return Ok(()) };
            if let Some(other) = seen.get(&offset)
                && *other != c
            {
                return Err(collision(d, other.clone(), c));
            }
            if let Some(back) = d.calculate_top_index(offset) {
                let back = back.as_slice().to_vec();
                if back != c && d.coordinate_has_valid_offset(&back) {
                    return Err(collision(d, back, c));
                }
            }
            seen.insert(offset, c);
            Ok(())
        })
    }

    /// Every offset of `[0, element_space_size)` is reached by a valid
    /// coordinate (no holes).
    ///
    /// ```
    /// let d = cktile::layouts::resolve("triton-swizzled:vec=8,perphase=1,maxphase=8,order=10,rows=64,cols=64")?;
    /// assert_eq!(cktile::check::property::Checker::new().is_surjective(&d), Ok(()));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn is_surjective(&self, d: &impl AsRef<Descriptor>) -> Result<(), Counterexample> {
        let d = d.as_ref();
        let space = d.element_space_size();
        if let Some(report) = self.report(d) {
            return match report.holes.first() {
                Some(&offset) => {
                    Err(Counterexample::Hole { offset, element_space_size: space, count: Some(report.hole_count) })
                }
                None => Ok(()),
            };
        }
        // The inverse must work where an offset is known to be reached.
        let element_size = d.element_size().map_or(u64::MAX, |n| n as u64);
        let mut rng = Rng::new(self.seed);
        for _ in 0..self.samples.min(64) {
            let c = random_coordinate(d, &mut rng);
            if let Some(offset) = d.offset_if_valid(&c)
                && d.calculate_top_index(offset).is_none()
            {
                return Err(Counterexample::NoInverse { coordinate: c, offset, element_size });
            }
        }
        for _ in 0..self.samples {
            let offset = rng.below(space as u64) as Index;
            if d.calculate_top_index(offset).is_none() {
                return Err(Counterexample::Hole { offset, element_space_size: space, count: None });
            }
        }
        Ok(())
    }

    /// Injective, every valid offset inside the element space, and surjective:
    /// every element is reached exactly once.
    ///
    /// ```
    /// let d = cktile::layouts::resolve("ck-universal-a:m=128,k=32,kpack=8,dtype=fp16")?;
    /// assert_eq!(cktile::check::property::Checker::new().is_bijective(&d), Ok(()));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn is_bijective(&self, d: &impl AsRef<Descriptor>) -> Result<(), Counterexample> {
        let d = d.as_ref();
        self.is_injective(&d)?;
        let space = d.element_space_size();
        match self.report(d) {
            Some(report) => {
                if let Some((coordinate, offset)) = report.outside.first() {
                    return Err(Counterexample::Outside {
                        coordinate: coordinate.clone(),
                        offset: *offset,
                        element_space_size: space,
                    });
                }
            }
            None => self.each_coordinate(d, |c| match d.offset_if_valid(&c) {
                Some(offset) if !(0..space).contains(&offset) => {
                    Err(Counterexample::Outside { coordinate: c, offset, element_space_size: space })
                }
                _ => Ok(()),
            })?,
        }
        self.is_surjective(&d)
    }

    /// The inverse gives every valid coordinate back from its offset:
    /// `calculate_top_index(calculate_offset(c)) == c`.
    ///
    /// ```
    /// let d = cktile::layouts::resolve("cute-swizzle:b=3,mbase=3,s=3,rows=8,cols=64")?;
    /// assert_eq!(cktile::check::property::Checker::new().round_trips(&d), Ok(()));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn round_trips(&self, d: &impl AsRef<Descriptor>) -> Result<(), Counterexample> {
        let d = d.as_ref();
        self.each_coordinate(d, |c| {
            let Some(offset) = d.offset_if_valid(&c) else { return Ok(()) };
            let back = d.calculate_top_index(offset).map(|t| t.as_slice().to_vec());
            if back.as_ref() == Some(&c) {
                Ok(())
            } else {
                Err(Counterexample::RoundTrip { coordinate: c, offset, back })
            }
        })
    }

    /// Every valid coordinate's offset equals `closed_form(coordinate)`.
    ///
    /// ```
    /// let d = cktile::layouts::resolve("row-padded:rows=8,cols=16,pad=4")?;
    /// let checker = cktile::check::property::Checker::new();
    /// assert_eq!(checker.offsets_equal(&d, |c| c[0] * 20 + c[1]), Ok(()));
    /// let e = checker.offsets_equal(&d, |c| c[0] * 16 + c[1]).unwrap_err();
    /// assert_eq!(e.to_string(), "coordinate [1, 0] has offset 20; the closed form gives 16");
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn offsets_equal(
        &self,
        d: &impl AsRef<Descriptor>,
        closed_form: impl Fn(&[Index]) -> Index,
    ) -> Result<(), Counterexample> {
        let d = d.as_ref();
        self.each_coordinate(d, |c| match d.offset_if_valid(&c) {
            Some(offset) => {
                let expected = closed_form(&c);
                if offset == expected {
                    Ok(())
                } else {
                    Err(Counterexample::ClosedForm { coordinate: c, offset, expected })
                }
            }
            None => Ok(()),
        })
    }

    /// The enumeration report, when the checks are exhaustive.
    fn report(&self, d: &Descriptor) -> Option<super::Report> {
        match self.visit(d) {
            Visit::All(_) => super::check(d).ok(),
            Visit::Sampled(_) => None,
        }
    }
}

/// A coordinate inside the lengths, each index uniform.
fn random_coordinate(d: &Descriptor, rng: &mut Rng) -> Vec<Index> {
    d.lengths().as_slice().iter().map(|&len| rng.below(len as u64) as Index).collect()
}

/// The collision of `a` and `b` (ordered row-major), with where they meet.
fn collision(d: &Descriptor, a: Vec<Index>, b: Vec<Index>) -> Counterexample {
    let (first, second) = if a <= b { (a, b) } else { (b, a) };
    let meet = meet(d, &first, &second);
    Counterexample::Collision { offset: d.calculate_offset(&first), first, second, meet }
}

/// Where two top coordinates first have the same index, walking down the
/// chain (the offset's level when they only meet there, or never).
///
/// ```
/// let d = cktile::spec::parse("packed((16)) | transform(modulo(16,32) on [0] -> [0])")?;
/// let m = cktile::check::property::meet(&d, &[3], &[19]);
/// assert_eq!((m.level, m.index.clone()), (1, vec![3]));
/// assert_eq!(m.stage, "transform(modulo(16,32) on [0] -> [0])");
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn meet(d: &Descriptor, a: &[Index], b: &[Index]) -> Meet {
    let (ca, cb) = (Coordinate::new(d, a), Coordinate::new(d, b));
    let stages = d.stages();
    let n = stages.len();
    let width = |k: usize| if k == 0 { 1 } else { stages[k - 1].upper_lengths().len() };
    let k = (0..n).rev().find(|&k| ca.level(k)[..width(k)] == cb.level(k)[..width(k)]).unwrap_or(0);
    Meet { level: n - k, index: ca.level(k)[..width(k)].to_vec(), stage: stage_text(d, k) }
}

/// Stage `s` of `d` as spec text: `the base ...` for a base stage.
fn stage_text(d: &Descriptor, s: usize) -> String {
    let n_base = d.stages().len() - d.transform_stages().len();
    if s < n_base {
        return format!("the base `{}`", d.origin());
    }
    let items: Vec<String> = d.stages()[s].items().iter().map(|i| format!("{i}")).collect();
    format!("transform({})", items.join(", "))
}

/// [`Checker::is_injective`] with the default checker.
///
/// ```
/// let e = cktile::check::is_injective(&cktile::Descriptor::naive(&[2, 2], &[1, 1]).unwrap()).unwrap_err();
/// assert!(e.to_string().starts_with("not injective: coordinates [0, 1] and [1, 0] both have offset 1"));
/// ```
pub fn is_injective(d: &impl AsRef<Descriptor>) -> Result<(), Counterexample> {
    Checker::new().is_injective(d)
}

/// [`Checker::is_surjective`] with the default checker.
///
/// ```
/// assert!(cktile::check::is_surjective(&cktile::Descriptor::naive(&[2], &[2]).unwrap()).is_err());
/// ```
pub fn is_surjective(d: &impl AsRef<Descriptor>) -> Result<(), Counterexample> {
    Checker::new().is_surjective(d)
}

/// [`Checker::is_bijective`] with the default checker.
///
/// ```
/// assert_eq!(cktile::check::is_bijective(&cktile::Descriptor::packed(&[4, 8]).unwrap()), Ok(()));
/// ```
pub fn is_bijective(d: &impl AsRef<Descriptor>) -> Result<(), Counterexample> {
    Checker::new().is_bijective(d)
}

/// [`Checker::round_trips`] with the default checker.
///
/// ```
/// assert_eq!(cktile::check::round_trips(&cktile::Descriptor::packed(&[4, 8]).unwrap()), Ok(()));
/// ```
pub fn round_trips(d: &impl AsRef<Descriptor>) -> Result<(), Counterexample> {
    Checker::new().round_trips(d)
}

/// [`Checker::offsets_equal`] with the default checker.
///
/// ```
/// let d = cktile::Descriptor::packed(&[4, 8]).unwrap();
/// assert_eq!(cktile::check::offsets_equal(&d, |c| 8 * c[0] + c[1]), Ok(()));
/// ```
pub fn offsets_equal(
    d: &impl AsRef<Descriptor>,
    closed_form: impl Fn(&[Index]) -> Index,
) -> Result<(), Counterexample> {
    Checker::new().offsets_equal(d, closed_form)
}
