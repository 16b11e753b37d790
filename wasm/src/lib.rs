//! cktile in the browser: the guide's layout explorer (`docs/src/explorer.md`)
//! calls these functions through wasm-bindgen.
//!
//! Every function takes and returns text: requests and answers are JSON, the
//! pictures SVG. The work is the library's own (`cktile::layouts`,
//! `cktile::distribution`, `cktile::check`, `cktile::analyzer`,
//! `cktile::render::svg`) with the same calls `cktile analyze`, `cktile check`
//! and `cktile render` make (the pattern or distribution and instruction
//! resolved and analysed by `cktile::reports::accesses::Accesses`, as the
//! CLI's are), so the page's numbers are the CLI's numbers; the
//! report is `cktile::json::TileJson`, the object `cktile analyze --json`
//! prints. A bad input comes back as a problem naming the field it belongs
//! to and, for a spec or distribution, the line and column the parser
//! stopped at, for the editor to underline.

use cktile::analyzer::op::OP_NAMES;
use cktile::analyzer::pattern_name::PATTERN_NAMES;
use cktile::analyzer::{ARCHS, Arch, Op};
use cktile::distribution::{self, Distribution};
use cktile::json::{CatalogueEntryJson, CheckJson, DistributionJson, OffsetsJson, TileJson};
use cktile::lanes::{Table, coverage::Coverage};
use cktile::render::svg::{banks, chain, grid, owners, title_of};
use cktile::reports::accesses::{Accesses, Unresolved};
use cktile::{Error, check, layouts, spelling};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use wasm_bindgen::prelude::wasm_bindgen;

/// What the explorer asks for: the fields of its form (an empty string is
/// the same as an absent field).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Request {
    /// A spec or a catalogue entry (`cktile::layouts::resolve_typed`).
    pub spec: String,
    /// The element type (`fp16`, ...), needed when the spec does not give one.
    pub dtype: String,
    /// The chip (`cktile::analyzer::ARCHS`).
    pub arch: String,
    /// The access pattern (`rows`, `mfma16`, ...): analyse under it.
    pub pattern: String,
    /// The instruction (`ds_read_b128`, ...); a pattern's default when empty.
    pub op: String,
    /// A tile distribution (CK's C++ spelling or a catalogue name): analyse
    /// its accesses instead of a pattern's (needs `op`).
    pub distribution: String,
    /// Which instruction the heat map draws (`None`: the worst).
    pub instruction: Option<usize>,
    /// Show only the first this many rows of the grid (`None`: all).
    pub rows: Option<usize>,
    /// Show only the first this many columns of the grid (`None`: all).
    pub cols: Option<usize>,
}

/// A bad input: which field, the message, and where in the field's text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// The request field it belongs to (`spec`, `distribution`, `arch`, ...).
    pub field: &'static str,
    /// The library's message.
    pub message: String,
    /// The line (from 1) the parser stopped at, when it points into text.
    pub line: Option<u32>,
    /// The column (in characters, from 1).
    pub column: Option<u32>,
}

impl Problem {
    fn new(field: &'static str, e: &Error) -> Problem {
        let at = e.position();
        Problem { field, message: e.to_string(), line: at.map(|p| p.line), column: at.map(|p| p.column) }
    }

    fn plain(field: &'static str, message: String) -> Problem {
        Problem { field, message, line: None, column: None }
    }
}

/// `None` for an empty (or blank) form field.
fn given(s: &str) -> Option<&str> {
    let t = s.trim();
    (!t.is_empty()).then_some(t)
}

/// The lists the explorer's selectors and presets offer: the catalogue
/// (with each entry's example), the chips, the instructions, the patterns
/// and the distribution catalogue's names, as JSON.
///
/// ```
/// let v: serde_json::Value = serde_json::from_str(&cktile_wasm::catalogue()).unwrap();
/// assert_eq!(v["layouts"].as_array().unwrap().len(), cktile::layouts::CATALOGUE.len());
/// assert_eq!(v["archs"][1]["name"], "gfx942");
/// let row_padded = v["layouts"].as_array().unwrap().iter().find(|e| e["name"] == "row-padded").unwrap();
/// assert_eq!(row_padded["typed"], false);
/// assert!(v["ops"].as_array().unwrap().iter().any(|o| o == "ds_read_b128"));
/// assert!(v["distributions"].as_array().unwrap().iter().any(|d| d == "mfma32x32x8_a"));
/// assert_eq!(v["patterns"], serde_json::json!(["rows", "columns", "mfma16", "mfma32", "ldmatrix", "mma_sync_a"]));
/// ```
#[wasm_bindgen]
pub fn catalogue() -> String {
    // Each entry as `cktile catalogue --json` prints it, with `typed`: whether
    // its example names its element type (else the explorer supplies one).
    let layouts: Vec<Value> = layouts::CATALOGUE
        .iter()
        .filter_map(|e| {
            let mut v = serde_json::to_value(CatalogueEntryJson::new(e).ok()?).ok()?;
            let typed = layouts::resolve_typed(e.example, None).is_ok_and(|l| l.require_element_bytes().is_ok());
            v.as_object_mut()?.insert("typed".into(), json!(typed));
            Some(v)
        })
        .collect();
    let archs: Vec<Value> = ARCHS
        .iter()
        .map(
            |a| json!({"name": a.name(), "description": a.description(), "wave": a.wave(), "max_banks": a.max_banks()}),
        )
        .collect();
    json!({
        "layouts": layouts,
        "archs": archs,
        "ops": op_names(),
        "patterns": PATTERN_NAMES.split(", ").collect::<Vec<_>>(),
        "distributions": expand_braces(distribution::catalogue::NAMES),
    })
    .to_string()
}

/// The instruction names of [`OP_NAMES`] (its prose dropped): the ones
/// [`Op::by_name`] accepts.
fn op_names() -> Vec<&'static str> {
    OP_NAMES.split(", ").filter_map(|n| n.split_whitespace().next()).filter(|n| Op::by_name(n).is_ok()).collect()
}

/// `mfma16x16x16_{a,b}` as its names `mfma16x16x16_a`, `mfma16x16x16_b`.
fn expand_braces(names: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = names;
    while !rest.is_empty() {
        // A name ends at ", " outside braces.
        let mut depth = 0usize;
        let mut end = rest.len();
        for (i, c) in rest.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth = depth.saturating_sub(1),
                ',' if depth == 0 => {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        let name = rest[..end].trim();
        rest = rest[end..].trim_start_matches(',').trim_start();
        match (name.find('{'), name.find('}')) {
            (Some(open), Some(close)) if open < close => {
                for alt in name[open + 1..close].split(',') {
                    out.push(format!("{}{}{}", &name[..open], alt.trim(), &name[close + 1..]));
                }
            }
            _ if !name.is_empty() => out.push(name.to_string()),
            _ => {}
        }
    }
    out
}

/// Every top coordinate's offset of `spec` (a spec or catalogue entry): the
/// JSON of `cktile offsets --json`, or `{"problems": [...]}`.
///
/// ```
/// let v: serde_json::Value = serde_json::from_str(&cktile_wasm::offsets("packed((2,3))")).unwrap();
/// assert_eq!(v["offsets"], serde_json::json!([0, 1, 2, 3, 4, 5]));
/// let v: serde_json::Value = serde_json::from_str(&cktile_wasm::offsets("packed((2,3)")).unwrap();
/// assert_eq!(v["problems"][0]["line"], 1);
/// ```
#[wasm_bindgen]
pub fn offsets(spec: &str) -> String {
    let answer = layouts::resolve(spec)
        .and_then(|desc| check::offsets(&desc).map(|o| (desc, o)))
        .map_err(|e| Problem::new("spec", &e))
        .and_then(|(desc, o)| {
            serde_json::to_value(OffsetsJson::new(&desc, &o)).map_err(|e| Problem::plain("spec", e.to_string()))
        });
    match answer {
        Ok(v) => v.to_string(),
        Err(p) => json!({ "problems": [p] }).to_string(),
    }
}

/// A tile distribution (CK's C++ `tile_distribution_encoding<...>` or a
/// catalogue name such as `mfma32x32x8_a`): the JSON of
/// `cktile distribution --json` (its lengths and every thread's
/// coordinates), or `{"problems": [...]}` with the line and column the
/// parser stopped at.
///
/// ```
/// let v: serde_json::Value = serde_json::from_str(&cktile_wasm::distribution("mfma16x16x16_c")).unwrap();
/// assert!(v["x_lengths"].is_array());
/// assert_eq!(v["coverage"]["summary"], "Coverage: every element of X (16,16) is held once");
/// let v: serde_json::Value = serde_json::from_str(&cktile_wasm::distribution("tile_distribution_encoding<sequence<>,")).unwrap();
/// assert_eq!((v["problems"][0]["field"].as_str(), v["problems"][0]["line"].as_u64()), (Some("distribution"), Some(1)));
/// ```
#[wasm_bindgen]
pub fn distribution(text: &str) -> String {
    let answer = spelling::resolve(text)
        .and_then(|e| Ok(Distribution::new(e)?))
        .and_then(|d| Table::new(&d).map(|t| (d, t)))
        .and_then(|(d, t)| Coverage::new(&d, None).map(|c| (d, t, c)))
        .map_err(|e| Problem::new("distribution", &e))
        .and_then(|(d, t, c)| {
            serde_json::to_value(DistributionJson::new(&d, &t, &c))
                .map_err(|e| Problem::plain("distribution", e.to_string()))
        });
    match answer {
        Ok(v) => v.to_string(),
        Err(p) => json!({ "problems": [p] }).to_string(),
    }
}

/// Everything the explorer shows for `request` (a [`Request`] as JSON), as
/// JSON: `spec` (the descriptor printed as a spec), `lengths`,
/// `element_space_size`, `element_bytes`, `check` (`cktile check --json`),
/// `analysis` (`cktile analyze --json`, when a pattern or distribution is
/// given), `svg` (`grid`, `chain`, `banks` for a pattern or a
/// distribution, `owners` for a distribution) and `problems` (empty when all went well). A part that
/// cannot be computed is absent and its reason is among the problems.
///
/// ```
/// let request = r#"{"spec": "packed((128,64))", "dtype": "fp16", "arch": "gfx942", "pattern": "mfma16"}"#;
/// let v: serde_json::Value = serde_json::from_str(&cktile_wasm::explore(request)).unwrap();
/// assert_eq!(v["problems"], serde_json::json!([]));
/// assert_eq!((v["analysis"]["max_ways"].as_u64(), v["analysis"]["instructions"].as_u64()), (Some(4), Some(16)));
/// assert!(v["svg"]["banks"].as_str().unwrap().contains("4-way"));
/// let bad = r#"{"spec": "packed((128,64)", "arch": "gfx942"}"#;
/// let v: serde_json::Value = serde_json::from_str(&cktile_wasm::explore(bad)).unwrap();
/// assert_eq!((v["problems"][0]["field"].as_str(), v["problems"][0]["line"].as_u64()), (Some("spec"), Some(1)));
/// ```
#[wasm_bindgen]
pub fn explore(request: &str) -> String {
    let out = match serde_json::from_str::<Request>(request) {
        Ok(r) => explore_request(&r),
        Err(e) => json!({ "problems": [Problem::plain("request", e.to_string())] }),
    };
    out.to_string()
}

/// [`explore`] on a parsed request.
///
/// ```
/// use cktile_wasm::{explore_request, Request};
/// let r = Request { spec: "row-padded:rows=32,cols=32,pad=1".into(), dtype: "fp32".into(), arch: "sm80".into(),
///                   pattern: "columns".into(), op: "ld.shared.b32".into(), ..Request::default() };
/// let v = explore_request(&r);
/// assert_eq!(v["analysis"]["max_ways"], 1);
/// assert_eq!(v["check"]["injective"], true);
/// ```
pub fn explore_request(r: &Request) -> Value {
    let mut out = Map::new();
    let mut problems = Vec::new();
    let finish = |mut out: Map<String, Value>, problems: Vec<Problem>| {
        out.insert("problems".into(), json!(problems));
        Value::Object(out)
    };

    // As `cktile analyze`: the element type is checked on its own first.
    if let Some(Err(e)) = given(&r.dtype).map(layouts::dtype_bytes) {
        problems.push(Problem::new("dtype", &e));
        return finish(out, problems);
    }
    let layout = match layouts::resolve_typed(&r.spec, given(&r.dtype)) {
        Ok(l) => l,
        Err(e) => {
            problems.push(Problem::new("spec", &e));
            return finish(out, problems);
        }
    };
    let desc = &layout.descriptor;
    out.insert("spec".into(), json!(desc.to_string()));
    out.insert("lengths".into(), json!(desc.lengths().as_slice()));
    out.insert("element_space_size".into(), json!(desc.element_space_size()));
    let title = title_of(&r.spec);
    let element_bytes = match layout.require_element_bytes() {
        Ok(b) => {
            out.insert("element_bytes".into(), json!(b));
            Some(b)
        }
        Err(e) => {
            problems.push(Problem::plain("dtype", e.to_string()));
            None
        }
    };
    match check::check(desc) {
        Ok(report) => {
            out.insert("check".into(), json!(CheckJson::new(&report)));
        }
        Err(e) => problems.push(Problem::new("spec", &e)),
    }
    let mut svg = Map::new();
    svg.insert("chain".into(), json!(chain::chain(desc, &title)));

    let arch = Arch::by_name(r.arch.trim()).map_err(|e| problems.push(Problem::new("arch", &e))).ok();
    let op = given(&r.op).map(Op::by_name).transpose().map_err(|e| problems.push(Problem::new("op", &e))).ok();
    if let (Some(arch), Some(op), Some(bytes)) = (arch, op, element_bytes) {
        let mut o = grid::GridOptions::for_chip(&title, bytes, &arch, op);
        o.rows = r.rows;
        o.cols = r.cols;
        match grid::grid(desc, &o) {
            Ok(g) => {
                svg.insert("grid".into(), json!(g));
            }
            Err(e) => problems.push(Problem::new("spec", &e)),
        }
        analyse(r, desc, bytes, &arch, op, &title, &mut out, &mut svg, &mut problems);
    }
    out.insert("svg".into(), Value::Object(svg));
    finish(out, problems)
}

/// The bank analysis of `r` (its distribution, else its pattern) into
/// `out["analysis"]` and its picture into `svg`, as `cktile analyze` and
/// `cktile render --view banks|distribution` compute them.
#[allow(clippy::too_many_arguments)]
fn analyse(
    r: &Request,
    desc: &cktile::Descriptor,
    element_bytes: usize,
    arch: &Arch,
    op: Option<Op>,
    title: &str,
    out: &mut Map<String, Value>,
    svg: &mut Map<String, Value>,
    problems: &mut Vec<Problem>,
) {
    let accesses = match Accesses::resolve(given(&r.pattern), given(&r.distribution), op) {
        Ok(Some(accesses)) => accesses,
        Ok(None) => return,
        Err(e) => {
            let problem = match &e {
                Unresolved::Pattern(inner) => Problem::new("pattern", inner),
                Unresolved::Distribution(inner) => Problem::new("distribution", inner),
                Unresolved::NoOp(d) => {
                    // The distribution is still drawn.
                    draw_owners(d, &r.distribution, svg, problems);
                    Problem::plain("op", e.to_string())
                }
            };
            return problems.push(problem);
        }
    };
    if let Accesses::Window { distribution, .. } = &accesses {
        draw_owners(distribution, &r.distribution, svg, problems);
    }
    match accesses.analyze(desc, element_bytes, arch, &mut |_, _| {}) {
        Ok(report) => {
            out.insert("analysis".into(), json!(TileJson::new(desc, &report)));
        }
        Err(e) => {
            let field = match accesses {
                Accesses::Pattern(_) => "pattern",
                Accesses::Window { .. } if e.position().is_some() => "distribution",
                Accesses::Window { .. } => "spec",
            };
            return problems.push(Problem::new(field, &e));
        }
    }
    match banks::accesses_heat_map(desc, element_bytes, arch, &accesses, r.instruction, title) {
        Ok(s) => {
            svg.insert("banks".into(), json!(s));
        }
        Err(e) => problems.push(Problem::new("instruction", &e)),
    }
}

/// The owner grid of the distribution whose text is `text` into
/// `svg["owners"]`, as `cktile render --view distribution` draws it.
fn draw_owners(d: &Distribution, text: &str, svg: &mut Map<String, Value>, problems: &mut Vec<Problem>) {
    match owners::owners(d, &title_of(text.trim()), None, None) {
        Ok(s) => {
            svg.insert("owners".into(), json!(s));
        }
        Err(e) => problems.push(Problem::new("distribution", &e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn braces_expand_to_every_distribution_name_the_catalogue_resolves() {
        let names = expand_braces(distribution::catalogue::NAMES);
        // Four MFMA families of 4, 2 swizzled, 4 GEMM DRAM, four WMMA families of 4 (gfx11 and gfx12 at
        // K = 16, gfx1250 at K = 32 and 64) and gfx1250's 2 transposing-load B reads, 4 raked patterns,
        // 3 transposed-B GEMM reads.
        assert_eq!(names.len(), 4 * 4 + 2 + 4 + 4 * 4 + 2 + 4 + 3);
        for n in &names {
            assert!(distribution::catalogue::by_name(n).is_ok(), "{n}");
        }
    }

    #[test]
    fn every_catalogue_example_explores_without_problems() {
        for e in layouts::CATALOGUE {
            let r = Request {
                spec: e.example.into(),
                dtype: match layouts::resolve_typed(e.example, None).map(|l| l.require_element_bytes().is_ok()) {
                    Ok(true) => String::new(),
                    _ => "fp16".into(),
                },
                arch: "gfx942".into(),
                pattern: "rows".into(),
                op: "ds_read_b64".into(),
                ..Request::default()
            };
            let v = explore_request(&r);
            assert_eq!(v["problems"], json!([]), "{}", e.name);
            assert!(v["svg"]["grid"].as_str().is_some_and(|s| s.starts_with("<svg")), "{}", e.name);
            assert!(v["analysis"]["cycles"].as_u64().is_some_and(|c| c > 0), "{}", e.name);
        }
    }

    #[test]
    fn a_bad_element_type_is_the_dtype_fields_and_a_bad_entry_the_specs() {
        let r =
            Request { spec: "packed((4,8))".into(), dtype: "fp12".into(), arch: "sm80".into(), ..Request::default() };
        let v = explore_request(&r);
        assert_eq!(v["problems"][0]["field"], "dtype");
        assert!(v["problems"][0]["message"].as_str().is_some_and(|m| m.contains("fp12")));
        let r = Request {
            spec: "row-padded:rows=0".into(),
            dtype: "fp16".into(),
            arch: "sm80".into(),
            ..Request::default()
        };
        let v = explore_request(&r);
        assert_eq!(v["problems"][0]["field"], "spec");
        assert!(v["spec"].is_null());
    }

    #[test]
    fn a_bad_distribution_points_into_its_own_text() {
        let r = Request {
            spec: "packed((128,32))".into(),
            dtype: "fp16".into(),
            arch: "gfx942".into(),
            op: "ds_read_b128".into(),
            distribution: "tile_distribution_encoding<sequence<>, tuple<sequence<8, 16>".into(),
            ..Request::default()
        };
        let v = explore_request(&r);
        assert_eq!(v["problems"][0]["field"], "distribution");
        assert_eq!(v["problems"][0]["line"], 1);
        assert!(v["analysis"].is_null());
        assert!(v["svg"]["grid"].is_string());
    }
}
