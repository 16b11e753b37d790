//! Code generation: a descriptor as self-contained CUDA or HIP C++.
//!
//! [`generate`] writes, for a [`Descriptor`]:
//!
//! - `NAME_offset(c0, ..)`: a `__device__ __forceinline__` function of
//!   straight-line integer code, every length, stride and parameter a
//!   literal: per stage (top first) and per transform, the transform's
//!   `calculate_lower` formula. Pass-throughs emit nothing, and so does
//!   anything that folds to an existing value;
//! - `NAME_is_valid(c0, ..)`, when the descriptor has a pad-family
//!   transform: CK Tile's `coordinate_has_valid_offset` (inside the lengths
//!   and not padding);
//! - `NAME_coordinate(offset, c0, ..)`, when the descriptor is a bijection
//!   onto its element space (checked with [`check`](crate::check)) and every
//!   transform has an inverse: the top coordinate of an offset, each
//!   transform's inverse formula from the bottom stage up;
//! - `NAME_rank`, `NAME_lengthD` and `NAME_element_space_size` constants.
//!
//! [`matrix_desc::constants`] writes a `wgmma` / `tcgen05.mma` shared-memory
//! matrix descriptor as C++ constants, [`tma::constants`] a tensor map's
//! `cuTensorMapEncodeTiled` arguments.
//!
//! A leading comment holds the spec the code came from, the catalogue entry
//! if any, the integer type and why it cannot overflow, and what each
//! function promises. The integer type is `std::int32_t` when every value the
//! code computes for coordinates inside the lengths fits it, else
//! `std::int64_t` ([`bounds::value_range`]).
//!
//! The code depends only on `<cstdint>` (and, for HIP under `hipcc`, on
//! `<hip/hip_runtime.h>`): defining `__device__` and `__forceinline__` away
//! makes it plain host C++, which is how the tests compile it with `g++` and
//! compare every coordinate with the Rust descriptor.
//!
//! ```
//! use cktile::codegen::{generate, Lang, Options};
//! let d = cktile::spec::parse("naive((4,8),(10,1))")?;
//! let g = generate(&d, &Options::new(Lang::Cuda, "tile"))?;
//! assert!(g.code.contains("__device__ __forceinline__ std::int32_t tile_offset(std::int32_t c0, std::int32_t c1)"));
//! assert!(g.code.contains("const std::int32_t x0_0 = c0 * 10 + c1;"));
//! assert!(!g.has_inverse()); // 32 of 38 elements are reached: no bijection
//! # Ok::<(), cktile::Error>(())
//! ```

pub use crate::descriptor::bounds;
mod code;
mod emit;
mod ident;
mod lang;
pub mod matrix_desc;
pub mod tma;

/// The one rule telling a catalogue entry from a spec (re-exported from the
/// catalogue, which owns it).
pub use crate::layouts::entry_text;
pub use bounds::{IndexType, ValueRange};
pub use ident::{IDENT_RULE, NameProblem, check_name, comment_text, default_name};
pub use lang::{LANG_NAMES, Lang};

use crate::Descriptor;
use crate::Error;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use emit::{Condition, coordinate_name};

/// What to generate: the language, the functions' name prefix, and the
/// catalogue entry the descriptor came from (for the comment).
///
/// ```
/// use cktile::codegen::{Lang, Options};
/// let o = Options::new(Lang::Hip, "gemm_a").with_entry("ck-universal-a:m=128,k=32");
/// assert_eq!(o.entry.as_deref(), Some("ck-universal-a:m=128,k=32"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// CUDA or HIP.
    pub lang: Lang,
    /// The prefix of every generated name (see [`check_name`]).
    pub name: String,
    /// The catalogue entry (with its parameters) the descriptor was built from.
    pub entry: Option<String>,
}

impl Options {
    /// Options for `lang` with the name prefix `name`.
    ///
    /// ```
    /// let o = cktile::codegen::Options::new(cktile::codegen::Lang::Cuda, "lds");
    /// assert_eq!((o.name.as_str(), o.entry), ("lds", None));
    /// ```
    pub fn new(lang: Lang, name: &str) -> Options {
        Options { lang, name: name.into(), entry: None }
    }

    /// The same options, naming the catalogue entry in the comment.
    ///
    /// ```
    /// let o = cktile::codegen::Options::new(cktile::codegen::Lang::Cuda, "t").with_entry("row-padded:rows=4,cols=4,pad=1");
    /// assert!(o.entry.is_some());
    /// ```
    pub fn with_entry(mut self, entry: &str) -> Options {
        self.entry = Some(entry.trim().into());
        self
    }

    /// Options for the layout written `text` (a spec or a catalogue entry):
    /// named `name`, else after the entry ([`default_name`]), and naming
    /// the entry in the comment when `text` is one ([`entry_text`]).
    ///
    /// ```
    /// use cktile::codegen::{Lang, Options};
    /// let o = Options::for_layout("row-padded:rows=4,cols=4,pad=1", Lang::Hip, None);
    /// assert_eq!((o.name.as_str(), o.entry.as_deref()), ("row_padded", Some("row-padded:rows=4,cols=4,pad=1")));
    /// let o = Options::for_layout("packed((4,8))", Lang::Cuda, Some("tile"));
    /// assert_eq!((o.name.as_str(), o.entry), ("tile", None));
    /// ```
    pub fn for_layout(text: &str, lang: Lang, name: Option<&str>) -> Options {
        let entry = entry_text(text);
        let name = match name {
            Some(n) => n.to_string(),
            None => default_name(entry.and_then(|e| e.split(':').next())),
        };
        let options = Options::new(lang, &name);
        match entry {
            Some(e) => options.with_entry(e),
            None => options,
        }
    }
}

/// Whether the inverse was generated, and if not, why.
///
/// ```
/// use cktile::codegen::{generate, InverseStatus, Lang, Options};
/// let d = cktile::spec::parse("packed((4,8)) | transform(modulo(4,8) on [0] -> [0], pass_through(8) on [1] -> [1])")?;
/// let g = generate(&d, &Options::new(Lang::Cuda, "m"))?;
/// assert_eq!(g.inverse, InverseStatus::NoInverse { transform: "modulo(4,8) on [0] -> [0]".into() });
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InverseStatus {
    /// `NAME_coordinate` is there.
    Emitted,
    /// A transform has no inverse (freeze, modulo, a broadcast, an overlapping embed).
    NoInverse {
        /// The transform with its ids, as the spec writes it.
        transform: String,
    },
    /// The descriptor is not a bijection onto `[0, element_space_size)`.
    NotBijective {
        /// Elements no valid coordinate reaches.
        holes: u64,
        /// Valid coordinates that share an offset with another.
        collisions: u64,
        /// Valid coordinates whose offset is outside the element space.
        outside: u64,
    },
    /// Too many coordinates to check bijectivity ([`check::ENUMERATION_LIMIT`](crate::check::ENUMERATION_LIMIT)).
    TooLarge {
        /// The number of coordinates.
        coordinates: u64,
    },
    /// The descriptor's own inverse has no answer for an offset of a
    /// bijection (never expected; reported rather than generating code that
    /// would disagree with it).
    Unverified {
        /// The first such offset.
        offset: i64,
    },
}

impl InverseStatus {
    /// Why there is no inverse, as the generated comment says it.
    ///
    /// ```
    /// use cktile::codegen::InverseStatus;
    /// let s = InverseStatus::NotBijective { holes: 6, collisions: 0, outside: 0 };
    /// assert_eq!(s.reason(), Some("the layout is not a bijection onto its element space (6 holes, 0 collisions, 0 offsets outside it)".into()));
    /// assert_eq!(InverseStatus::Emitted.reason(), None);
    /// ```
    pub fn reason(&self) -> Option<String> {
        Some(match self {
            InverseStatus::Emitted => return None,
            InverseStatus::NoInverse { transform } => format!("`{transform}` has no inverse"),
            InverseStatus::NotBijective { holes, collisions, outside } => format!(
                "the layout is not a bijection onto its element space ({holes} holes, {collisions} collisions, \
                 {outside} offsets outside it)"
            ),
            InverseStatus::TooLarge { coordinates } => {
                format!("{coordinates} coordinates are too many to check that the layout is a bijection")
            }
            InverseStatus::Unverified { offset } => {
                format!("the descriptor's inverse has no coordinate for offset {offset}")
            }
        })
    }
}

/// Generated code and what it contains.
///
/// ```
/// use cktile::codegen::{generate, IndexType, Lang, Options};
/// let g = generate(&cktile::Descriptor::naive(&[4, 4], &[1 << 30, 1])?, &Options::new(Lang::Cuda, "big"))?;
/// assert_eq!((g.index_type, g.has_validity, g.has_inverse()), (IndexType::I64, false, false));
/// assert!(g.code.contains("std::int64_t big_offset(std::int64_t c0, std::int64_t c1)"));
/// # Ok::<(), cktile::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The C++ source.
    pub code: String,
    /// The functions' name prefix.
    pub name: String,
    /// The integer type of coordinates, offsets and every intermediate value.
    pub index_type: IndexType,
    /// The range of values the code computes for coordinates inside the lengths.
    pub range: ValueRange,
    /// Whether `NAME_is_valid` is there (the descriptor has padding).
    pub has_validity: bool,
    /// Whether `NAME_coordinate` is there, or why not.
    pub inverse: InverseStatus,
}

impl Generated {
    /// Whether `NAME_coordinate` was generated.
    ///
    /// ```
    /// use cktile::codegen::{generate, Lang, Options};
    /// let g = generate(&cktile::Descriptor::packed(&[4, 8])?, &Options::new(Lang::Cuda, "p"))?;
    /// assert!(g.has_inverse() && g.code.contains("void p_coordinate(std::int32_t offset, std::int32_t& c0, std::int32_t& c1)"));
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn has_inverse(&self) -> bool {
        self.inverse == InverseStatus::Emitted
    }

    /// The names of the functions generated: `NAME_offset`, then
    /// `NAME_is_valid` and `NAME_coordinate` when they are there.
    ///
    /// ```
    /// use cktile::codegen::{generate_text, Lang};
    /// let g = generate_text("naive((4),(1)) | transform(pad(4,1,0) on [0] -> [0])", Lang::Cuda, Some("lds"))?;
    /// assert_eq!(g.functions(), ["lds_offset", "lds_is_valid", "lds_coordinate"]);
    /// assert!(g.functions().iter().all(|f| g.code.contains(&format!(" {f}("))));
    /// // Row padding: no validity (no pad transform) and no inverse (holes).
    /// let g = generate_text("row-padded:rows=4,cols=4,pad=1", Lang::Cuda, None)?;
    /// assert_eq!(g.functions(), ["row_padded_offset"]);
    /// # Ok::<(), cktile::Error>(())
    /// ```
    pub fn functions(&self) -> Vec<String> {
        let mut out = alloc::vec![format!("{}_offset", self.name)];
        if self.has_validity {
            out.push(format!("{}_is_valid", self.name));
        }
        if self.has_inverse() {
            out.push(format!("{}_coordinate", self.name));
        }
        out
    }
}

/// Reads a spec or catalogue entry and generates its code, named `name` or
/// after the entry ([`default_name`]).
///
/// ```
/// use cktile::codegen::{generate_text, Lang};
/// let g = generate_text("cute-swizzle:b=3,mbase=3,s=3,rows=8,cols=64", Lang::Cuda, None)?;
/// assert_eq!(g.name, "cute_swizzle");
/// assert!(g.code.contains("// Catalogue entry: cute-swizzle:b=3,mbase=3,s=3,rows=8,cols=64"));
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn generate_text(text: &str, lang: Lang, name: Option<&str>) -> Result<Generated, Error> {
    let desc = crate::layouts::resolve(text)?;
    generate(&desc, &Options::for_layout(text, lang, name))
}

/// Decides whether the inverse can be generated.
fn inverse_status(desc: &Descriptor) -> Result<InverseStatus, Error> {
    if let Some(item) = emit::first_without_inverse(desc) {
        return Ok(InverseStatus::NoInverse { transform: item.to_string() });
    }
    let report = match crate::check::check(desc) {
        Ok(r) => r,
        Err(e) => match e.kind() {
            crate::ErrorKind::Port(cktile_core::ErrorKind::Descriptor(crate::DescriptorProblem::TooLarge {
                size,
                ..
            })) => {
                return Ok(InverseStatus::TooLarge { coordinates: *size });
            }
            _ => return Err(e),
        },
    };
    if !report.is_bijective() || report.outside_count > 0 {
        return Ok(InverseStatus::NotBijective {
            holes: report.hole_count,
            collisions: report.collision_count,
            outside: report.outside_count,
        });
    }
    if let Some(offset) = (0..desc.element_space_size()).find(|&o| desc.calculate_top_index(o).is_none()) {
        return Ok(InverseStatus::Unverified { offset });
    }
    Ok(InverseStatus::Emitted)
}

/// `(void)x;` for every parameter the body does not read (no warnings
/// under `-Wall -Wextra`).
fn unused(params: &[String], used: &alloc::collections::BTreeSet<String>) -> String {
    params.iter().filter(|p| !used.contains(*p)).map(|p| format!("  (void){p};\n")).collect()
}

/// Generates the CUDA or HIP code of `desc` (see the [module docs](self)).
///
/// Errors: a name that is not a valid C++ identifier ([`check_name`]), and
/// a descriptor whose intermediate values do not fit 64 bits.
///
/// ```
/// use cktile::codegen::{generate, IndexType, Lang, Options};
/// let d = cktile::spec::parse("naive((10),(1)) | transform(pad(10,2,3) on [0] -> [0])")?;
/// let g = generate(&d, &Options::new(Lang::Hip, "padded"))?;
/// assert!(g.has_validity && g.code.contains("padded_is_valid(std::int32_t c0)"));
/// assert!(g.code.contains("c0 >= 2 && c0 < 12"));
/// assert_eq!((g.index_type, g.range.low), (IndexType::I32, -2));
/// assert!(generate(&d, &Options::new(Lang::Cuda, "2x")).is_err());
/// # Ok::<(), cktile::Error>(())
/// ```
pub fn generate(desc: &Descriptor, options: &Options) -> Result<Generated, Error> {
    check_name(&options.name)?;
    let range = bounds::value_range(desc)?;
    let unit = Unit::new(desc, options, range, inverse_status(desc)?);
    let mut out = unit.header();
    out.push_str(&unit.constants());
    out.push_str(&unit.offset_function());
    if unit.has_validity {
        out.push_str(&unit.validity_function());
    }
    if unit.inverse == InverseStatus::Emitted {
        out.push_str(&unit.inverse_function());
    }
    let Unit { ty, has_validity, inverse, .. } = unit;
    Ok(Generated { code: out, name: options.name.clone(), index_type: ty, range, has_validity, inverse })
}

/// What every part of one generated file shares: the descriptor, the
/// options, the integer type and the forward code.
struct Unit<'a> {
    desc: &'a Descriptor,
    options: &'a Options,
    range: ValueRange,
    ty: IndexType,
    /// The coordinate parameters' names.
    params: Vec<String>,
    inverse: InverseStatus,
    has_validity: bool,
    fwd: emit::Forward,
}

impl<'a> Unit<'a> {
    fn new(desc: &'a Descriptor, options: &'a Options, range: ValueRange, inverse: InverseStatus) -> Unit<'a> {
        let ty = range.index_type;
        Unit {
            desc,
            options,
            range,
            ty,
            params: (0..desc.lengths().len()).map(coordinate_name).collect(),
            inverse,
            has_validity: desc.stages().iter().any(|s| s.items().iter().any(|i| !i.transform().is_always_valid())),
            fwd: emit::forward(desc, ty),
        }
    }

    /// A literal of the file's integer type.
    fn lit(&self, v: i64) -> String {
        code::Code::new(self.ty).lit(v)
    }

    /// `T x0, T x1, ...`: the coordinate parameters with their type.
    fn signature(&self) -> String {
        let t = self.ty.c_name();
        self.params.iter().map(|p| format!("{t} {p}")).collect::<Vec<_>>().join(", ")
    }

    /// The leading comment (where the code came from, its integer type and
    /// functions) and the includes. Quoted text is normalised to plain
    /// one-line comments (no newline or trailing backslash can end a comment
    /// early or continue it).
    fn header(&self) -> String {
        let (desc, name, t) = (self.desc, &self.options.name, self.ty.c_name());
        let mut out = format!(
            "// {name}: generated by cktile {} (`cktile codegen --lang {}`); do not edit.\n\
             // {} for a CK Tile-style tensor descriptor.\n",
            env!("CARGO_PKG_VERSION"),
            self.options.lang.name(),
            self.options.lang.title()
        );
        if let Some(entry) = &self.options.entry {
            out.push_str(&format!("// Catalogue entry: {}\n", comment_text(entry)));
        }
        out.push_str("// Spec:\n");
        for line in desc.to_string().lines() {
            out.push_str(&format!("//   {}\n", comment_text(line)));
        }
        let lens: Vec<String> = desc.lengths().as_slice().iter().map(|l| l.to_string()).collect();
        out.push_str(&format!(
            "// Top lengths ({}); element space {} elements.\n",
            lens.join(", "),
            desc.element_space_size()
        ));
        out.push_str(&format!(
            "// Integer type: {t}. For coordinates inside the lengths every value this code\n\
             // computes (and every literal) lies in [{}, {}], which {t} holds{}.\n",
            self.range.low,
            self.range.high,
            if self.ty == IndexType::I64 { " (std::int32_t does not)" } else { "" }
        ));
        let plist = self.params.join(", ");
        out.push_str("// Functions:\n");
        out.push_str(&format!(
            "//   {name}_offset({plist}): the element offset (CK Tile's calculate_offset).\n\
             //     Coordinates must lie inside the lengths; outside them the result is\n\
             //     unspecified and may overflow.\n"
        ));
        if self.has_validity {
            out.push_str(&format!(
                "//   {name}_is_valid({plist}): inside the lengths and not padding\n\
                 //     (CK Tile's coordinate_has_valid_offset).\n"
            ));
        }
        match self.inverse.reason() {
            None => out.push_str(&format!(
                "//   {name}_coordinate(offset{}{plist}): the inverse, for offset in [0, {}):\n\
                 //     the layout is a bijection onto its element space.\n",
                if self.params.is_empty() { "" } else { ", " },
                desc.element_space_size()
            )),
            Some(why) => out.push_str(&format!("// No inverse: {why}.\n")),
        }
        out.push_str("#pragma once\n");
        if self.options.lang == Lang::Hip {
            out.push_str("#if defined(__HIPCC__)\n#include <hip/hip_runtime.h>\n#endif\n");
        }
        out.push_str("#include <cstdint>\n\n");
        out
    }

    /// The rank, the lengths and the element space as `constexpr`s.
    fn constants(&self) -> String {
        let (name, t) = (&self.options.name, self.ty.c_name());
        let lengths = self.desc.lengths();
        let mut out = format!("constexpr int {name}_rank = {};\n", lengths.len());
        for (d, &len) in lengths.as_slice().iter().enumerate() {
            out.push_str(&format!("constexpr {t} {name}_length{d} = {};\n", self.lit(len)));
        }
        out.push_str(&format!(
            "constexpr {t} {name}_element_space_size = {};\n\n",
            self.lit(self.desc.element_space_size())
        ));
        out
    }

    /// `NAME_offset`: CK Tile's `calculate_offset`.
    fn offset_function(&self) -> String {
        let (name, t, fwd) = (&self.options.name, self.ty.c_name(), &self.fwd);
        let (body, used) = fwd.code.render(&fwd.offset.deps(), "  ");
        format!(
            "__device__ __forceinline__ {t} {name}_offset({}) {{\n{}{body}  return {};\n}}\n",
            self.signature(),
            unused(&self.params, &used),
            fwd.code.expression(&fwd.offset)
        )
    }

    /// `NAME_is_valid`: inside the lengths and mapped to no padding.
    fn validity_function(&self) -> String {
        let (name, fwd) = (&self.options.name, &self.fwd);
        let mut out = format!("\n__device__ __forceinline__ bool {name}_is_valid({}) {{\n", self.signature());
        let checks: Vec<String> = self
            .desc
            .lengths()
            .as_slice()
            .iter()
            .zip(&self.params)
            .map(|(&len, p)| format!("{p} < 0 || {p} >= {}", self.lit(len)))
            .collect();
        if !checks.is_empty() {
            out.push_str(&format!("  if ({}) return false;\n", checks.join(" || ")));
        }
        let mut tests = Vec::new();
        let mut roots = Vec::new();
        for c in &fwd.conditions {
            match c {
                Condition::Always(true) => {}
                Condition::Always(false) => return out + "  return false;\n}\n",
                Condition::Test { text, deps } => {
                    tests.push(format!("({text})"));
                    roots.extend(deps.iter().cloned());
                }
            }
        }
        let (body, _) = fwd.code.render(&roots, "  ");
        out.push_str(&body);
        let all = if tests.is_empty() { "true".to_string() } else { tests.join("\n      && ") };
        out.push_str(&format!("  return {all};\n}}\n"));
        out
    }

    /// `NAME_coordinate`: the inverse, for a bijection onto the element space.
    fn inverse_function(&self) -> String {
        let (name, t) = (&self.options.name, self.ty.c_name());
        let inv = emit::inverse(self.desc, self.ty);
        let roots: Vec<String> = inv.top.iter().flat_map(|v| v.deps()).collect();
        let (body, used) = inv.code.render(&roots, "  ");
        let outs: Vec<String> = self.params.iter().map(|p| format!(", {t}& {p}")).collect();
        let mut out = format!("\n__device__ __forceinline__ void {name}_coordinate({t} offset{}) {{\n", outs.concat());
        out.push_str(&unused(&[String::from("offset")], &used));
        out.push_str(&body);
        for (p, v) in self.params.iter().zip(&inv.top) {
            out.push_str(&format!("  {p} = {};\n", inv.code.expression(v)));
        }
        out.push_str("}\n");
        out
    }
}
