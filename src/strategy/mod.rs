//! proptest strategies for layouts (the `proptest` feature): coordinates of
//! a descriptor, inside its lengths or outside them ([`coordinate`],
//! [`coordinate_outside`], [`any_coordinate`]), offsets of its element space
//! ([`offset`]), members of a catalogue family ([`member`], in
//! [`catalogue()`]), and random chains of every transform kind ([`chain`],
//! what cktile's own test suite draws from).
//!
//! Pair them with the checks of [`check`](crate::check), one line per property:
//!
//! ```
//! use cktile::{check, layouts, strategy};
//! use proptest::prelude::*;
//!
//! proptest!(|(d in strategy::chain(Default::default()))| {
//!     // Every generated chain prints as spec text that reads back as itself.
//!     prop_assert_eq!(cktile::spec::parse(&d.to_string()), Ok(d));
//! });
//! let a = layouts::resolve("ck-universal-a:m=128,k=32,kpack=8,dtype=fp16")?;
//! proptest!(|(c in strategy::coordinate(&a))| {
//!     let offset = a.calculate_offset(&c);
//!     prop_assert_eq!(a.calculate_top_index(offset).map(|t| t.as_slice().to_vec()), Some(c));
//! });
//! check::is_bijective(&a)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod catalogue;

pub use catalogue::{CatalogueMember, catalogue, member};

use crate::random::chain::{ChainConfig, from_seeds};
use crate::typed::{Chain, TensorDescriptor};
use crate::{Descriptor, Index};
use generic_array::GenericArray;
use generic_array::sequence::GenericSequence;
use proptest::collection::vec;
use proptest::prelude::*;
use std::vec::Vec;

/// A top coordinate inside the lengths of `d` (each index uniform in
/// `[0, length)`; shrinks toward the origin).
///
/// ```
/// use proptest::prelude::*;
/// let d = cktile::Descriptor::packed(&[4, 8]).unwrap();
/// proptest!(|(c in cktile::strategy::coordinate(&d))| {
///     prop_assert!(d.check_coordinate(&c).is_ok());
/// });
/// ```
pub fn coordinate<D: AsRef<Descriptor> + ?Sized>(d: &D) -> impl Strategy<Value = Vec<Index>> + use<D> {
    let ranges: Vec<core::ops::Range<Index>> = d.as_ref().lengths().as_slice().iter().map(|&l| 0..l).collect();
    ranges
}

/// A top coordinate of a typed descriptor, as the array its methods take.
///
/// ```
/// use cktile::prelude::*;
/// use proptest::prelude::*;
/// let d = make_naive_tensor_descriptor_packed((Number::<4>, Number::<8>)).unwrap();
/// proptest!(|(c in cktile::strategy::typed_coordinate(&d))| {
///     prop_assert_eq!(d.calculate_offset(c), 8 * c[0] + c[1]);
/// });
/// ```
pub fn typed_coordinate<C: Chain>(
    d: &TensorDescriptor<C>,
) -> impl Strategy<Value = GenericArray<Index, C::NumTop>> + use<C> {
    coordinate(&d.descriptor()).prop_map(|c| GenericArray::generate(|i| c.get(i).copied().unwrap_or(0)))
}

/// A top coordinate with every index in `[-length, 2 * length)`: inside the
/// lengths about a third of the time per dimension, for validity tests.
///
/// ```
/// use proptest::prelude::*;
/// let d = cktile::Descriptor::packed(&[4, 8]).unwrap();
/// proptest!(|(c in cktile::strategy::any_coordinate(&d))| {
///     prop_assert_eq!(d.coordinate_has_valid_offset(&c), d.check_coordinate(&c).is_ok());
/// });
/// ```
pub fn any_coordinate<D: AsRef<Descriptor> + ?Sized>(d: &D) -> impl Strategy<Value = Vec<Index>> + use<D> {
    let ranges: Vec<core::ops::Range<Index>> =
        d.as_ref().lengths().as_slice().iter().map(|&l| l.saturating_neg()..l.saturating_mul(2)).collect();
    ranges
}

/// A top coordinate with at least one index outside its length (below 0 or
/// at least the length), the others anywhere in `[-length, 2 * length)`.
///
/// ```
/// use proptest::prelude::*;
/// let d = cktile::Descriptor::packed(&[4, 8]).unwrap();
/// proptest!(|(c in cktile::strategy::coordinate_outside(&d))| {
///     prop_assert!(!d.coordinate_has_valid_offset(&c));
/// });
/// ```
pub fn coordinate_outside<D: AsRef<Descriptor> + ?Sized>(d: &D) -> impl Strategy<Value = Vec<Index>> + use<D> {
    let lengths: Vec<Index> = d.as_ref().lengths().as_slice().to_vec();
    let n = lengths.len().max(1);
    (any_coordinate(d), 0..n, any::<bool>(), 0..Index::MAX).prop_map(move |(mut c, dim, below, how_far)| {
        if let (Some(slot), Some(&len)) = (c.get_mut(dim), lengths.get(dim)) {
            let far = how_far % len.max(1);
            *slot = if below { -1 - far } else { len.saturating_add(far) };
        }
        c
    })
}

/// An offset of the element space of `d`: `[0, element_space_size)`.
///
/// ```
/// use proptest::prelude::*;
/// let d = cktile::layouts::resolve("cute-swizzle:b=3,mbase=3,s=3,rows=8,cols=64").unwrap();
/// proptest!(|(o in cktile::strategy::offset(&d))| {
///     let c = d.calculate_top_index(o).unwrap();
///     prop_assert_eq!(d.calculate_offset(c.as_slice()), o);
/// });
/// ```
pub fn offset<D: AsRef<Descriptor> + ?Sized>(d: &D) -> impl Strategy<Value = Index> + use<D> {
    0..d.as_ref().element_space_size().max(1)
}

/// A random chain of the kinds `config` names ([`Kind::ALL`](crate::transforms::Kind::ALL)
/// by default): a base, then stages whose every item is a drawn kind (see
/// [`random::chain`](crate::random::chain)). Shrinking drops stages. A
/// `min_stages` above `max_stages` is taken as `max_stages`, and
/// `max_stages` is capped as [`ChainConfig::with_stages`] caps it.
///
/// ```
/// use cktile::random::chain::ChainConfig;
/// use cktile::transforms::Kind;
/// use proptest::prelude::*;
/// let merges = ChainConfig::default().with_kinds(&[Kind::Merge, Kind::Unmerge]);
/// let chains = cktile::strategy::chain(merges);
/// // A chain and a coordinate of it: the compiled program agrees with the descriptor.
/// proptest!(|((d, c) in chains.prop_flat_map(|d| (Just(d), cktile::strategy::coordinate(&d))))| {
///     prop_assert_eq!(cktile::Program::of(&d).calculate_offset(&c), d.calculate_offset(&c));
/// });
/// ```
pub fn chain(config: ChainConfig) -> impl Strategy<Value = Descriptor> {
    // The fields are public: a minimum above the maximum, or a maximum past
    // what a chain holds, is taken as `with_stages` takes it (never a panic).
    let config = config.clone().with_stages(config.min_stages, config.max_stages);
    let stages = config.min_stages..=config.max_stages;
    (any::<u64>(), vec(any::<u64>(), stages)).prop_map(move |(base, stages)| from_seeds(base, &stages, &config))
}
