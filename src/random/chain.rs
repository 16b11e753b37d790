//! Random descriptor chains: a random base, then random stages whose items
//! are drawn from a list of transform kinds ([`Kind::ALL`] by default).
//!
//! Each kind is built by one arm of an exhaustive `match`, so a new kind in
//! `cktile-transforms` does not compile until this generator makes it. Every
//! chain is valid (built through the validating constructors) and small
//! enough to enumerate ([`ChainConfig::max_elements`]).

use super::Rng;
use crate::{Descriptor, Index, Item, MAX_DIMS, Transform, Vector};
use alloc::vec;
use alloc::vec::Vec;
use cktile_transforms::{Dims, Kind};

/// What [`chain`] generates.
///
/// ```
/// use cktile::random::chain::ChainConfig;
/// let c = ChainConfig::default();
/// assert_eq!(c.kinds.len(), cktile::transforms::Kind::ALL.len());
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
    /// use cktile::random::chain::ChainConfig;
    /// use cktile::transforms::Kind;
    /// assert_eq!(ChainConfig::default().with_kinds(&[Kind::Merge]).kinds, vec![Kind::Merge]);
    /// ```
    pub fn with_kinds(self, kinds: &[Kind]) -> ChainConfig {
        ChainConfig { kinds: kinds.to_vec(), ..self }
    }

    /// The same configuration with between `min` and `max` stages after the base.
    ///
    /// ```
    /// let c = cktile::random::chain::ChainConfig::default().with_stages(0, 5);
    /// assert_eq!((c.min_stages, c.max_stages), (0, 5));
    /// ```
    pub fn with_stages(self, min: usize, max: usize) -> ChainConfig {
        let max = max.min(crate::MAX_STAGES - 2);
        ChainConfig { min_stages: min.min(max), max_stages: max, ..self }
    }

    /// The same configuration with at most `n` top coordinates.
    ///
    /// ```
    /// assert_eq!(cktile::random::chain::ChainConfig::default().with_max_elements(64).max_elements, 64);
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
/// use cktile::random::chain::{chain, ChainConfig};
/// let config = ChainConfig::default();
/// let d = chain(42, &config);
/// assert_eq!(d, chain(42, &config));
/// assert!(d.element_size().unwrap() as u64 <= config.max_elements);
/// assert_eq!(cktile::spec::parse(&d.to_string()), Ok(d));
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
/// use cktile::random::chain::{from_seeds, ChainConfig};
/// let d = from_seeds(1, &[2, 3], &ChainConfig::default());
/// assert!(d.transform_stages().len() <= 2);
/// ```
pub fn from_seeds(base_seed: u64, stage_seeds: &[u64], config: &ChainConfig) -> Descriptor {
    let mut d = base(&mut Rng::new(base_seed), config);
    for &s in stage_seeds.iter().take(crate::MAX_STAGES - 2) {
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
/// use cktile::random::{chain::{base, ChainConfig}, Rng};
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
        let vector = |rng: &mut Rng| Vector {
            length: (rng.below(2) == 0).then(|| 1 + rng.below(8) as Index),
            stride: (rng.below(2) == 0).then(|| 1 + rng.below(4) as Index),
        };
        let built = match rng.below(6) {
            0 => Descriptor::packed(&lengths),
            1 => match Dims::from_usizes(&lengths) {
                Ok(l) => Descriptor::packed_dims(l, Some(1 + rng.below(8) as Index)),
                Err(_) => continue,
            },
            2 => {
                let strides = compact(rng);
                Descriptor::naive_with_vector(&lengths, &strides, vector(rng))
            }
            3 => {
                let strides: Vec<usize> = (0..rank).map(|_| rng.index(25)).collect();
                Descriptor::naive_with_vector(&lengths, &strides, vector(rng))
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
/// use cktile::random::{chain::{stage, ChainConfig}, Rng};
/// let d = cktile::Descriptor::packed(&[4, 8]).unwrap();
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
    if n_upper == 0 || n_upper > config.max_rank.min(MAX_DIMS) || planned.len() > crate::MAX_ITEMS {
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
fn item(kind: Kind, a: usize, lens: &[Index], free: &mut Vec<usize>, rng: &mut Rng) -> Vec<Planned> {
    let la = lens[a] as usize;
    let one = |t: Result<Transform, cktile_transforms::Error>| on(t, vec![a]);
    match kind {
        Kind::PassThrough => one(Transform::pass_through(la)),
        Kind::Pad => one(Transform::pad(la, rng.index(3), rng.index(3))),
        Kind::LeftPad => one(Transform::left_pad(la, rng.index(3))),
        Kind::RightPad => one(Transform::right_pad(la, rng.index(3))),
        Kind::Embed => one(embed(la, rng)),
        Kind::Merge => merge(a, lens, free, rng),
        Kind::Unmerge => one(unmerge(la, rng)),
        Kind::Xor => xor(a, lens, free, rng),
        Kind::Slice => {
            let begin = rng.index(la);
            one(Transform::slice(la, begin, begin + 1 + rng.index(la - begin)))
        }
        Kind::Freeze => one(Transform::freeze(rng.index(la))),
        Kind::Insert => {
            let mut out: Vec<Planned> = one(Transform::pass_through(la));
            out.extend(on(Transform::insert(1 + rng.index(3)), Vec::new()));
            out
        }
        Kind::Replicate => {
            let mut out: Vec<Planned> = one(Transform::pass_through(la));
            out.extend(on(Transform::replicate(&[1 + rng.index(2), 2]), Vec::new()));
            out
        }
        Kind::Offset => {
            let off = rng.index(la);
            one(Transform::offset(1 + rng.index(la - off), off))
        }
        Kind::Modulo => one(Transform::modulo(la, 1 + rng.index(2 * la))),
        Kind::Swizzle => {
            let from = swizzles(la, rng);
            rng.pick(&from).map(|&t| (t, vec![a])).into_iter().collect()
        }
        Kind::CyclicShift => cyclic_shift(a, lens, free, rng),
    }
}

/// The transform on the dimensions `lower`, if it was built.
fn on(t: Result<Transform, cktile_transforms::Error>, lower: Vec<usize>) -> Vec<Planned> {
    t.ok().map(|t| (t, lower)).into_iter().collect()
}

/// An embed of a dimension of length `la` into two upper dimensions whose
/// largest offset stays inside it, or the identity embed.
fn embed(la: usize, rng: &mut Rng) -> Result<Transform, cktile_transforms::Error> {
    let (u0, u1) = (1 + rng.index(3), 1 + rng.index(3));
    let (c0, c1) = (rng.index(4), rng.index(4));
    if (u0 - 1) * c0 + (u1 - 1) * c1 < la {
        Transform::embed(&[u0, u1], &[c0, c1])
    } else {
        Transform::embed(&[la], &[1])
    }
}

/// A merge of dimension `a` with one or two dimensions taken from `free`;
/// nothing when no other dimension is free.
fn merge(a: usize, lens: &[Index], free: &mut Vec<usize>, rng: &mut Rng) -> Vec<Planned> {
    if free.is_empty() {
        return Vec::new();
    }
    let mut lower = vec![a, free.remove(rng.index(free.len()))];
    if !free.is_empty() && rng.below(3) == 0 {
        lower.push(free.remove(rng.index(free.len())));
    }
    let lengths: Vec<usize> = lower.iter().map(|&d| lens[d] as usize).collect();
    on(Transform::merge(&lengths), lower)
}

/// An unmerge of a length `la` into two factors (a random divisor), or
/// into itself when `la` has none.
fn unmerge(la: usize, rng: &mut Rng) -> Result<Transform, cktile_transforms::Error> {
    let divisors: Vec<usize> = (2..la).filter(|p| la % p == 0).collect();
    match rng.pick(&divisors) {
        Some(&p) => Transform::unmerge(&[p, la / p]),
        None => Transform::unmerge(&[la]),
    }
}

/// A xor of dimension `a` with a free dimension of power-of-two length
/// (taken from `free`); nothing when there is none.
fn xor(a: usize, lens: &[Index], free: &mut Vec<usize>, rng: &mut Rng) -> Vec<Planned> {
    let pow2: Vec<usize> = free.iter().copied().filter(|&b| (lens[b] as u64).is_power_of_two()).collect();
    let Some(&b) = rng.pick(&pow2) else { return Vec::new() };
    free.retain(|&d| d != b);
    on(Transform::xor(lens[a] as usize, lens[b] as usize), vec![a, b])
}

/// A cyclic shift of dimension `a`'s rows over another free dimension, of
/// any length; nothing when no other dimension is free.
fn cyclic_shift(a: usize, lens: &[Index], free: &mut Vec<usize>, rng: &mut Rng) -> Vec<Planned> {
    if free.is_empty() {
        return Vec::new();
    }
    let b = free.remove(rng.index(free.len()));
    on(Transform::cyclic_shift(lens[a] as usize, lens[b] as usize), vec![a, b])
}

/// The swizzles of a length `la` to draw from: those that move something
/// (B > 0), three times in four when the length allows one, else every
/// valid one.
fn swizzles(la: usize, rng: &mut Rng) -> Vec<Transform> {
    let mut options: Vec<Transform> = Vec::new();
    for b in 0..=2u32 {
        for m in 0..=2u32 {
            for s in -3i32..=3 {
                if let Ok(t) = Transform::swizzle_with_len(la, b, m, s) {
                    options.push(t);
                }
            }
        }
    }
    let moving: Vec<Transform> = options
        .iter()
        .copied()
        .filter(|t| matches!(t.params(), cktile_transforms::Params::Swizzle { bits, .. } if bits > 0))
        .collect();
    if moving.is_empty() || rng.below(4) == 0 { options } else { moving }
}
