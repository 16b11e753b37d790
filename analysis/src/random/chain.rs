//! Random descriptor chains: a random base, then random stages whose items
//! are drawn from a list of transform kinds ([`Kind::ALL`] by default).
//!
//! Each kind is built by one arm of an exhaustive `match`, so a new kind in
//! `cktile-transforms` does not compile until this generator makes it. Every
//! chain is valid (built through the validating constructors) and small
//! enough to enumerate ([`ChainConfig::max_elements`]).

use super::Rng;
use alloc::vec;
use alloc::vec::Vec;
use cktile_core::Descriptor;
use cktile_core::Index;
use cktile_core::Item;
use cktile_core::MAX_DIMS;
use cktile_core::Transform;
use cktile_core::Vector;
use cktile_transforms::{Dims, Kind};

/// What [`chain`] generates.
///
/// ```
/// use cktile_analysis::random::chain::ChainConfig;
/// let c = ChainConfig::default();
/// assert_eq!(c.kinds.len(), cktile_core::transforms::Kind::ALL.len());
/// assert_eq!((c.min_stages, c.max_stages, c.max_rank, c.max_elements), (1, 3, 4, 2048));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainConfig {
    /// The transform kinds the stages draw from (each free dimension draws one).
    pub kinds: Vec<Kind>,
    /// Fewest stages after the base.
    pub min_stages: usize,
    /// Most stages after the base (at most `MAX_STAGES - 2`).
    pub max_stages: usize,
    /// Most top dimensions at any stage.
    pub max_rank: usize,
    /// Most top coordinates at any stage.
    pub max_elements: u64,
}

impl Default for ChainConfig {
    fn default() -> ChainConfig {
        ChainConfig { kinds: Kind::ALL.to_vec(), min_stages: 1, max_stages: 3, max_rank: 4, max_elements: 2048 }
    }
}

impl ChainConfig {
    /// The same configuration drawing only from `kinds`.
    ///
    /// ```
    /// use cktile_analysis::random::chain::ChainConfig;
    /// use cktile_core::transforms::Kind;
    /// assert_eq!(ChainConfig::default().with_kinds(&[Kind::Merge]).kinds, vec![Kind::Merge]);
    /// ```
    pub fn with_kinds(self, kinds: &[Kind]) -> ChainConfig {
        ChainConfig { kinds: kinds.to_vec(), ..self }
    }

    /// The same configuration with between `min` and `max` stages after the base.
    ///
    /// ```
    /// let c = cktile_analysis::random::chain::ChainConfig::default().with_stages(0, 5);
    /// assert_eq!((c.min_stages, c.max_stages), (0, 5));
    /// ```
    pub fn with_stages(self, min: usize, max: usize) -> ChainConfig {
        let max = max.min(cktile_core::MAX_STAGES - 2);
        ChainConfig { min_stages: min.min(max), max_stages: max, ..self }
    }

    /// The same configuration with at most `n` top coordinates.
    ///
    /// ```
    /// assert_eq!(cktile_analysis::random::chain::ChainConfig::default().with_max_elements(64).max_elements, 64);
    /// ```
    pub fn with_max_elements(self, n: u64) -> ChainConfig {
        ChainConfig { max_elements: n.max(1), ..self }
    }
}

/// How many times a stage is redrawn before the chain stops growing.
const STAGE_TRIES: usize = 16;

/// Lengths a base dimension draws from.
const BASE_LENGTHS: [usize; 7] = [1, 2, 3, 4, 6, 8, 16];

/// A random chain from `seed`: [`base`], then between `min_stages` and
/// `max_stages` stages of [`stage`]. The same seed gives the same chain.
///
/// ```
/// use cktile_analysis::random::chain::{chain, ChainConfig};
/// let config = ChainConfig::default();
/// let d = chain(42, &config);
/// assert_eq!(d, chain(42, &config));
/// assert!(d.element_size().unwrap() as u64 <= config.max_elements);
/// assert_eq!(cktile_analysis::spec::parse(&d.to_string()), Ok(d));
/// ```
pub fn chain(seed: u64, config: &ChainConfig) -> Descriptor {
    let mut rng = Rng::new(seed);
    let span = config.max_stages.saturating_sub(config.min_stages) as u64;
    let n = config.min_stages + rng.below(span + 1) as usize;
    let seeds: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
    from_seeds(rng.next_u64(), &seeds, config)
}

/// A chain from one seed for the base and one per stage: what the
/// `proptest` strategy shrinks (dropping a stage seed drops that stage).
///
/// ```
/// use cktile_analysis::random::chain::{from_seeds, ChainConfig};
/// let d = from_seeds(1, &[2, 3], &ChainConfig::default());
/// assert!(d.transform_stages().len() <= 2);
/// ```
pub fn from_seeds(base_seed: u64, stage_seeds: &[u64], config: &ChainConfig) -> Descriptor {
    let mut d = base(&mut Rng::new(base_seed), config);
    for &s in stage_seeds.iter().take(cktile_core::MAX_STAGES - 2) {
        let mut rng = Rng::new(s);
        if let Some(next) = (0..STAGE_TRIES).find_map(|_| stage(&d, &mut rng, config)) {
            d = next;
        }
    }
    d
}

/// A random base: `packed` (with or without a guaranteed vector length),
/// `naive` (compact with gaps, or any strides, possibly overlapping, with or
/// without a guaranteed vector), `aligned` or `naive_with_offset`, of one to
/// three dimensions.
///
/// ```
/// use cktile_analysis::random::{chain::{base, ChainConfig}, Rng};
/// let d = base(&mut Rng::new(3), &ChainConfig::default());
/// assert!(d.transform_stages().is_empty());
/// ```
pub fn base(rng: &mut Rng, config: &ChainConfig) -> Descriptor {
    for _ in 0..STAGE_TRIES {
        let rank = 1 + rng.index(config.max_rank.clamp(1, 3));
        let lengths: Vec<usize> = (0..rank).map(|_| *rng.pick(&BASE_LENGTHS).unwrap_or(&1)).collect();
        if lengths.iter().product::<usize>() as u64 > config.max_elements {
            continue;
        }
        let compact = |rng: &mut Rng| {
            let mut strides = vec![1usize; rank];
            for i in (0..rank - 1).rev() {
                strides[i] = strides[i + 1] * lengths[i + 1] + rng.index(3);
            }
            strides
        };
        let last = lengths[rank - 1];
        let built = match rng.below(6) {
            0 => Descriptor::packed(&lengths),
            1 => match Dims::from_usizes(&lengths) {
                Ok(l) => Descriptor::packed_dims(l, Some(kept_divisor(last, 1 + rng.below(8)))),
                Err(_) => continue,
            },
            2 => {
                let strides = compact(rng);
                Descriptor::naive_with_vector(&lengths, &strides, vector(rng, &lengths, &strides))
            }
            3 => {
                let strides: Vec<usize> = (0..rank).map(|_| rng.index(25)).collect();
                Descriptor::naive_with_vector(&lengths, &strides, vector(rng, &lengths, &strides))
            }
            4 => Descriptor::aligned(&lengths, *rng.pick(&[1, 2, 4, 8]).unwrap_or(&1)),
            _ => {
                let strides = compact(rng);
                Descriptor::naive_with_offset(&lengths, &strides, rng.index(101))
            }
        };
        if let Ok(d) = built {
            return d;
        }
    }
    FALLBACK
}

/// A random guaranteed vector that a naive base of `lengths` and `strides`
/// keeps ([`Descriptor::naive_with_vector`]'s rule), or none: a length
/// dividing the last length, at most 8; the last stride as the vector stride when the
/// length is above 1, any stride otherwise (one element promises none).
fn vector(rng: &mut Rng, lengths: &[usize], strides: &[usize]) -> Vector {
    let last = lengths.len().saturating_sub(1);
    let keeps = lengths.get(last).copied().unwrap_or(1);
    let length = (rng.below(2) == 0).then(|| kept_divisor(keeps, 1 + rng.below(8)));
    let stride = (rng.below(2) == 0).then(|| match length {
        Some(l) if l > 1 => strides.get(last).copied().unwrap_or(1) as Index,
        _ => 1 + rng.below(4) as Index,
    });
    Vector { length, stride }
}

/// The largest divisor of `keeps` (a positive length) that is at most `most`.
fn kept_divisor(keeps: usize, most: u64) -> Index {
    (1..=most).rev().find(|d| (keeps as u64).is_multiple_of(*d)).unwrap_or(1) as Index
}

/// The base when every draw fails (never, with the default lengths).
const FALLBACK: Descriptor = match Descriptor::packed(&[4]) {
    Ok(d) => d,
    Err(_) => panic!("packed((4)) is valid"),
};

/// One planned item: its transform and lower ids (upper ids come later).
type Planned = (Transform, Vec<usize>);

/// A random stage on `d`: every top dimension is consumed once, by a kind
/// drawn from `config.kinds`, and the new dimensions come in a random order.
/// `None` when the draw breaks a limit of `config` (then draw again).
///
/// ```
/// use cktile_analysis::random::{chain::{stage, ChainConfig}, Rng};
/// let d = cktile_core::Descriptor::packed(&[4, 8]).unwrap();
/// let mut rng = Rng::new(1);
/// let next = (0..16).find_map(|_| stage(&d, &mut rng, &ChainConfig::default())).unwrap();
/// assert_eq!(next.transform_stages().len(), 1);
/// ```
pub fn stage(d: &Descriptor, rng: &mut Rng, config: &ChainConfig) -> Option<Descriptor> {
    let lens = d.lengths();
    let lens = lens.as_slice();
    let mut free: Vec<usize> = (0..lens.len()).collect();
    rng.shuffle(&mut free);
    let mut planned: Vec<Planned> = Vec::new();
    while let Some(a) = free.pop() {
        let kind = rng.pick(&config.kinds).copied().unwrap_or(Kind::PassThrough);
        let drawn = item(kind, a, lens, &mut free, rng);
        if drawn.is_empty() {
            planned.push((Transform::pass_through(lens[a] as usize).ok()?, vec![a]));
        }
        planned.extend(drawn);
    }
    if planned.iter().all(|(t, _)| t.num_upper() == 0) {
        // Everything frozen: keep the last frozen dimension.
        let (t, lower) = planned.last_mut()?;
        *t = Transform::pass_through(lens[*lower.first()?] as usize).ok()?;
    }
    let n_upper: usize = planned.iter().map(|(t, _)| t.num_upper()).sum();
    if n_upper == 0 || n_upper > config.max_rank.min(MAX_DIMS) || planned.len() > cktile_core::MAX_ITEMS {
        return None;
    }
    let mut ids: Vec<usize> = (0..n_upper).collect();
    rng.shuffle(&mut ids);
    let mut next = 0;
    let mut items = Vec::with_capacity(planned.len());
    for (t, lower) in planned {
        items.push(Item::new(t, &lower, &ids[next..next + t.num_upper()]).ok()?);
        next += t.num_upper();
    }
    let out = d.transform(&items).ok()?;
    (out.element_size()? as u64 <= config.max_elements).then_some(out)
}

/// The items of one kind on dimension `a` (taking more dimensions from
/// `free` when the kind needs them); empty when the kind does not fit here.
/// The kind draws its own values ([`Transform::draw`]); a kind with no
/// lower dimension (`insert`, `replicate`) goes beside `a`, which stays as
/// it is.
fn item(kind: Kind, a: usize, lens: &[Index], free: &mut Vec<usize>, rng: &mut Rng) -> Vec<Planned> {
    let mut offer = Offer { a, lens, free, taken: vec![a], rng };
    let Some(t) = Transform::draw(kind, &mut offer) else { return Vec::new() };
    if t.num_lower() == 0 {
        return Transform::pass_through(lens[a] as usize)
            .ok()
            .map(|p| (p, vec![a]))
            .into_iter()
            .chain([(t, Vec::new())])
            .collect();
    }
    let taken = offer.taken;
    (taken.len() == t.num_lower()).then_some((t, taken)).into_iter().collect()
}

/// Dimension `a` offered to a kind, with the free dimensions it may take.
struct Offer<'a> {
    a: usize,
    lens: &'a [Index],
    free: &'a mut Vec<usize>,
    /// `a`, then the dimensions taken, in order: the transform's lower
    /// dimensions.
    taken: Vec<usize>,
    rng: &'a mut Rng,
}

impl cktile_transforms::kinds::Draw for Offer<'_> {
    fn length(&self) -> Index {
        self.lens[self.a]
    }

    fn below(&mut self, n: u64) -> u64 {
        self.rng.below(n)
    }

    fn take(&mut self, fits: &dyn Fn(Index) -> bool) -> Option<Index> {
        let fitting: Vec<usize> = self.free.iter().copied().filter(|&d| fits(self.lens[d])).collect();
        let &d = self.rng.pick(&fitting)?;
        self.free.retain(|&f| f != d);
        self.taken.push(d);
        Some(self.lens[d])
    }
}
