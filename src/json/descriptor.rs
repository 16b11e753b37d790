//! The reports of `cktile offsets`, `check` and `catalogue`.

use crate::check::{Offsets, Report, Trace};
use crate::layouts::{self, Entry};
use crate::{Descriptor, Error, Index};
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::Serialize;

/// `cktile offsets --json`: the top lengths, the element space, and every
/// top coordinate's offset and validity in row-major order.
///
/// ```
/// let d = cktile::Descriptor::packed(&[2, 2])?;
/// let o = cktile::check::offsets(&d)?;
/// assert_eq!(
///     serde_json::to_string(&cktile::json::OffsetsJson::new(&d, &o)).unwrap(),
///     r#"{"element_space_size":4,"lengths":[2,2],"offsets":[0,1,2,3],"valid":[true,true,true,true]}"#
/// );
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct OffsetsJson<'a> {
    element_space_size: Index,
    lengths: Vec<Index>,
    offsets: &'a [Index],
    valid: &'a [bool],
}

impl<'a> OffsetsJson<'a> {
    /// The view of `o`, the offsets of `desc`.
    ///
    /// ```
    /// # let d = cktile::Descriptor::packed(&[2])?;
    /// let o = cktile::check::offsets(&d)?;
    /// let _ = cktile::json::OffsetsJson::new(&d, &o);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn new(desc: &Descriptor, o: &'a Offsets) -> OffsetsJson<'a> {
        OffsetsJson {
            element_space_size: desc.element_space_size(),
            lengths: desc.lengths().as_slice().to_vec(),
            offsets: &o.offsets,
            valid: &o.valid,
        }
    }
}

/// `cktile offsets --at COORD --json`: one coordinate's offset, validity,
/// and its index at every level from the top (level 0) down to the offset.
///
/// ```
/// let d = cktile::Descriptor::packed(&[4, 8])?;
/// let c = cktile::json::CoordinateJson::new(&d, &[3, 1])?;
/// assert_eq!(
///     serde_json::to_string(&c).unwrap(),
///     r#"{"coordinate":[3,1],"levels":[[3,1],[25]],"offset":25,"valid":true}"#
/// );
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct CoordinateJson {
    coordinate: Vec<Index>,
    levels: Vec<Vec<Index>>,
    offset: Index,
    valid: bool,
}

impl CoordinateJson {
    /// Follows `coordinate` through `desc`; an error when it has the wrong
    /// number of dimensions or lies outside the top lengths.
    ///
    /// ```
    /// let d = cktile::Descriptor::packed(&[4, 8])?;
    /// assert!(cktile::json::CoordinateJson::new(&d, &[4, 0]).is_err());
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn new(desc: &Descriptor, coordinate: &[Index]) -> Result<CoordinateJson, Error> {
        crate::check::trace(desc, coordinate).map(CoordinateJson::from)
    }

    /// The index at every level, from the top coordinate down to the offset.
    ///
    /// ```
    /// let d = cktile::Descriptor::packed(&[4, 8])?;
    /// assert_eq!(cktile::json::CoordinateJson::new(&d, &[1, 2])?.levels(), [vec![1, 2], vec![10]]);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn levels(&self) -> &[Vec<Index>] {
        &self.levels
    }

    /// The offset.
    ///
    /// ```
    /// let d = cktile::Descriptor::packed(&[4, 8])?;
    /// assert_eq!(cktile::json::CoordinateJson::new(&d, &[1, 2])?.offset(), 10);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn offset(&self) -> Index {
        self.offset
    }

    /// Whether the coordinate has a valid (non-padded) offset.
    ///
    /// ```
    /// let d = cktile::Descriptor::packed(&[4, 8])?;
    /// assert!(cktile::json::CoordinateJson::new(&d, &[1, 2])?.valid());
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn valid(&self) -> bool {
        self.valid
    }
}

/// The view of a [`Trace`].
///
/// ```
/// let d = cktile::Descriptor::packed(&[4, 8])?;
/// let c = cktile::json::CoordinateJson::from(cktile::check::trace(&d, &[1, 2])?);
/// assert_eq!(c.offset(), 10);
/// # Ok::<(), cktile::Error>(())
/// ```
impl From<Trace> for CoordinateJson {
    fn from(t: Trace) -> CoordinateJson {
        CoordinateJson { coordinate: t.coordinate, levels: t.levels, offset: t.offset, valid: t.valid }
    }
}

#[derive(Clone, Debug, Serialize)]
struct CollisionJson<'a> {
    first: &'a [Index],
    offset: Index,
    second: &'a [Index],
}

#[derive(Clone, Debug, Serialize)]
struct OutsideJson<'a> {
    coordinate: &'a [Index],
    offset: Index,
}

#[derive(Clone, Debug, Serialize)]
struct VectorJson {
    ck_claim_holds: bool,
    length: Option<i64>,
    stride: Option<i64>,
    unknown_because: Option<&'static str>,
    verified_length: i64,
}

/// `cktile check --json`: [`check`](crate::check::check)'s report.
///
/// ```
/// let r = cktile::check::check(&cktile::Descriptor::naive(&[2], &[2])?)?;
/// let out = serde_json::to_string(&cktile::json::CheckJson::new(&r)).unwrap();
/// assert!(out.starts_with(r#"{"bijective":false,"collision_count":0,"collisions":[],"element_size":2,"#));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct CheckJson<'a> {
    bijective: bool,
    collision_count: u64,
    collisions: Vec<CollisionJson<'a>>,
    element_size: u64,
    element_space_size: Index,
    hole_count: u64,
    holes: &'a [Index],
    injective: bool,
    lengths: &'a [Index],
    outside: Vec<OutsideJson<'a>>,
    outside_count: u64,
    surjective: bool,
    valid_count: u64,
    vectors: Vec<VectorJson>,
}

impl<'a> CheckJson<'a> {
    /// The view of `r`.
    ///
    /// ```
    /// let r = cktile::check::check(&cktile::Descriptor::packed(&[2])?)?;
    /// let _ = cktile::json::CheckJson::new(&r);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn new(r: &'a Report) -> CheckJson<'a> {
        CheckJson {
            bijective: r.is_bijective(),
            collision_count: r.collision_count,
            collisions: r
                .collisions
                .iter()
                .map(|c| CollisionJson { first: &c.first, offset: c.offset, second: &c.second })
                .collect(),
            element_size: r.element_size,
            element_space_size: r.element_space_size,
            hole_count: r.hole_count,
            holes: &r.holes,
            injective: r.injective,
            lengths: &r.lengths,
            outside: r.outside.iter().map(|(c, o)| OutsideJson { coordinate: c, offset: *o }).collect(),
            outside_count: r.outside_count,
            surjective: r.surjective,
            valid_count: r.valid_count,
            vectors: r
                .vectors
                .iter()
                .zip(&r.verified)
                .zip(&r.vector_unknown)
                .zip(&r.claim_breaks)
                .map(|(((v, &verified), why), claim_break)| VectorJson {
                    ck_claim_holds: claim_break.is_none(),
                    length: v.length,
                    stride: v.stride,
                    unknown_because: why.map(|w| w.explain()),
                    verified_length: verified,
                })
                .collect(),
        }
    }
}

#[derive(Clone, Debug, Serialize)]
struct ParamJson {
    default: Option<&'static str>,
    help: &'static str,
    name: &'static str,
}

/// One entry of `cktile catalogue --json`: the entry, its parameters, and its
/// example's footprint and spec.
///
/// ```
/// let e = cktile::layouts::CATALOGUE.iter().find(|e| e.name == "row-padded").unwrap();
/// let j = cktile::json::CatalogueEntryJson::new(e)?;
/// assert_eq!(j.example_element_size(), 128 * 64);
/// assert!(serde_json::to_string(&j).unwrap().starts_with(r#"{"bijective":false,"example":"row-padded:"#));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct CatalogueEntryJson {
    bijective: bool,
    example: &'static str,
    example_element_size: Index,
    example_element_space_size: Index,
    example_spec: String,
    name: &'static str,
    params: Vec<ParamJson>,
    source: &'static str,
    summary: &'static str,
}

impl CatalogueEntryJson {
    /// The view of `e`; builds its example (an error only if the catalogue's
    /// own example does not build).
    ///
    /// ```
    /// for e in cktile::layouts::CATALOGUE {
    ///     cktile::json::CatalogueEntryJson::new(e)?;
    /// }
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn new(e: &Entry) -> Result<CatalogueEntryJson, Error> {
        let example = layouts::resolve(e.example)?;
        Ok(CatalogueEntryJson {
            bijective: e.bijective,
            example: e.example,
            example_element_size: example.element_size().unwrap_or(0),
            example_element_space_size: example.element_space_size(),
            example_spec: example.to_string(),
            name: e.name,
            params: e.params.iter().map(|p| ParamJson { default: p.default, help: p.help, name: p.name }).collect(),
            source: e.source,
            summary: e.summary,
        })
    }

    /// The example's number of top coordinates (0 when it does not fit 64 bits).
    ///
    /// ```
    /// let e = &cktile::layouts::CATALOGUE[0];
    /// assert!(cktile::json::CatalogueEntryJson::new(e)?.example_element_size() > 0);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn example_element_size(&self) -> Index {
        self.example_element_size
    }

    /// The example's element space size.
    ///
    /// ```
    /// let e = &cktile::layouts::CATALOGUE[0];
    /// let j = cktile::json::CatalogueEntryJson::new(e)?;
    /// assert!(j.example_element_space_size() >= j.example_element_size());
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn example_element_space_size(&self) -> Index {
        self.example_element_space_size
    }

    /// The example's descriptor, printed as a spec.
    ///
    /// ```
    /// let e = cktile::layouts::CATALOGUE.iter().find(|e| e.name == "row-padded").unwrap();
    /// assert!(cktile::json::CatalogueEntryJson::new(e)?.example_spec().starts_with("naive("));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn example_spec(&self) -> &str {
        &self.example_spec
    }
}
