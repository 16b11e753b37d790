//! Members of the catalogue's families: every parameter drawn from its
//! [`Domain`] (the one description of its values, in the catalogue itself),
//! kept when the entry's builder accepts the combination and the tile is
//! small enough to enumerate.

use crate::Descriptor;
use crate::layouts::{CATALOGUE, Domain, Entry};
use core::fmt;
use proptest::prelude::*;
use proptest::strategy::{BoxedStrategy, Union};
use std::format;
use std::string::{String, ToString};
use std::vec::Vec;

/// One member of a catalogue family: its entry text (what
/// [`layouts::resolve`](crate::layouts::resolve) and the command line read)
/// and its descriptor. Prints as the text, so a failing case reads as a
/// `cktile` command argument.
///
/// ```
/// let m = cktile::strategy::CatalogueMember::new("row-padded:rows=4,cols=4,pad=1").unwrap();
/// assert_eq!(format!("{m:?}"), "row-padded:rows=4,cols=4,pad=1");
/// assert_eq!(m.descriptor.element_space_size(), 19);
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct CatalogueMember {
    /// `name:key=value,...`.
    pub text: String,
    /// What it builds.
    pub descriptor: Descriptor,
}

impl CatalogueMember {
    /// Builds a member from its entry text.
    ///
    /// ```
    /// assert!(cktile::strategy::CatalogueMember::new("row-padded:rows=4").is_err());
    /// ```
    pub fn new(text: &str) -> Result<CatalogueMember, crate::Error> {
        Ok(CatalogueMember { text: text.to_string(), descriptor: crate::layouts::build_entry(text)? })
    }
}

impl fmt::Debug for CatalogueMember {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl AsRef<Descriptor> for CatalogueMember {
    fn as_ref(&self) -> &Descriptor {
        &self.descriptor
    }
}

/// Powers of two from `min` to `max`.
fn powers(min: u64, max: u64) -> BoxedStrategy<String> {
    let (lo, hi) = (min.max(1).ilog2(), max.max(1).ilog2());
    (lo..=hi).prop_map(|e| (1u64 << e).to_string()).boxed()
}

/// The values of one domain; `bits` caps [`Domain::Bits`] (log2 of the tile).
fn values(domain: Domain, bits: i64) -> BoxedStrategy<String> {
    match domain {
        Domain::Extent => powers(1, Domain::MAX_EXTENT),
        Domain::Powers { min, max } => powers(min, max),
        Domain::Range { min, max } => (min..=max).prop_map(|v| v.to_string()).boxed(),
        Domain::Bits { min, max } => (min.max(-bits)..=max.min(bits)).prop_map(|v| v.to_string()).boxed(),
        Domain::Words(words) => proptest::sample::select(words).prop_map(str::to_string).boxed(),
        Domain::Masks => proptest::collection::vec(0u64..8, 0..=4)
            .prop_map(|m| m.iter().map(u64::to_string).collect::<Vec<_>>().join("."))
            .boxed(),
    }
}

/// Members of `entry` with at most `max_elements` top coordinates: the
/// extents are drawn first, then every other parameter from its domain
/// (bit counts no larger than log2 of the tile), and combinations the
/// builder rejects are drawn again.
///
/// ```
/// use cktile::layouts::CATALOGUE;
/// use proptest::prelude::*;
/// let swizzles = CATALOGUE.iter().find(|e| e.name == "cute-swizzle").unwrap();
/// proptest!(|(m in cktile::strategy::member(swizzles, 1 << 12))| {
///     // Every CuTe swizzle of a tile is a bijection of it.
///     prop_assert_eq!(cktile::check::is_bijective(&m), Ok(()), "{:?}", m);
/// });
/// ```
pub fn member(entry: &'static Entry, max_elements: u64) -> impl Strategy<Value = CatalogueMember> {
    let extents: Vec<BoxedStrategy<String>> = entry
        .params
        .iter()
        .map(|p| if p.domain == Domain::Extent { values(p.domain, 0) } else { Just(String::new()).boxed() })
        .collect();
    extents
        .prop_flat_map(move |drawn| {
            let size: u64 = drawn.iter().filter_map(|v| v.parse::<u64>().ok()).product();
            let bits = size.max(1).ilog2() as i64;
            let all: Vec<BoxedStrategy<String>> = entry
                .params
                .iter()
                .zip(drawn)
                .map(|(p, v)| if p.domain == Domain::Extent { Just(v).boxed() } else { values(p.domain, bits) })
                .collect();
            all
        })
        .prop_filter_map("the builder rejects these parameters, or the tile is too large", move |vals| {
            let pairs: Vec<String> = entry.params.iter().zip(&vals).map(|(p, v)| format!("{}={v}", p.name)).collect();
            let member = CatalogueMember::new(&format!("{}:{}", entry.name, pairs.join(","))).ok()?;
            let size = member.descriptor.element_size().map_or(u64::MAX, |n| n as u64);
            (size <= max_elements).then_some(member)
        })
}

/// A member of any catalogue entry (each entry equally likely), at most
/// `max_elements` top coordinates.
///
/// ```
/// use proptest::prelude::*;
/// proptest!(|(m in cktile::strategy::catalogue(1 << 12))| {
///     let entry = cktile::layouts::CATALOGUE.iter().find(|e| m.text.starts_with(&format!("{}:", e.name))).unwrap();
///     // Bijective entries are bijections; the others (padding) are injective.
///     if entry.bijective {
///         prop_assert_eq!(cktile::check::is_bijective(&m), Ok(()), "{:?}", m);
///     } else {
///         prop_assert_eq!(cktile::check::is_injective(&m), Ok(()), "{:?}", m);
///     }
/// });
/// ```
pub fn catalogue(max_elements: u64) -> impl Strategy<Value = CatalogueMember> {
    Union::new(CATALOGUE.iter().map(move |e| member(e, max_elements).boxed()))
}
