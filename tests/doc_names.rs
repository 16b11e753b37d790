//! The guide names what exists: every repository path it quotes (`src/...`,
//! `scripts/...`, ...) is a file or folder of the repository, and every
//! item path it quotes (`cktile::ops::gemm::UniversalGemmPolicy`,
//! `cktile_transforms::lowering`) names a public module or item of the
//! crates.
//!
//! Items are resolved from the sources as the compiler would find them: a
//! module is a file (`a.rs` or `a/mod.rs`) or a module re-exported under
//! that name (`pub use crate::hardware::arch;`), and the last name is a
//! module, a public declaration in the module's file (`pub fn`, `pub
//! struct`, ..., `pub use` of that name) or, at a crate's root, an exported
//! macro. Paths that are not the repository's are written down in
//! `ELSEWHERE`, each with where it lives.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

/// Quoted paths that are not files of this repository: what scripts write
/// when they run, and other repositories' files the guide cites. Each is
/// (path, where it comes from).
const ELSEWHERE: &[(&str, &str)] = &[
    ("perf/results/machine.txt", "written by scripts/perf-report.sh"),
    ("perf/results/report.md", "written by scripts/perf-report.sh"),
    ("perf/.venv", "made by scripts/perf-report.sh"),
    ("docs/empirical-lds/", "nod-ai/amd-shark-ai, cited in banks.md"),
    ("analysis/paper_experiments/phases/", "HazyResearch/HipKittens, cited in banks.md and amd-models.md"),
    ("docs/amdgpu_kernel_optimization_guide.md", "nod-ai/amd-shark-ai, cited in banks.md"),
];

/// The top folders of the repository a quoted path may start with.
const TOP: &[&str] = &[
    "src",
    "core",
    "analysis",
    "tests",
    "scripts",
    "docs",
    "perf",
    "gpu",
    "python",
    "checks",
    "transforms",
    "fuzz",
    "wasm",
    "benches",
    ".ci",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The guide's chapters and the README.
fn pages() -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root().join("docs/src"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.push(root().join("README.md"));
    pages.sort();
    pages
}

/// The text of every inline code span of a page, with its line.
fn spans(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut parts = line.split('`');
        parts.next();
        while let (Some(code), Some(_)) = (parts.next(), parts.next()) {
            out.push((n + 1, code.trim().to_string()));
        }
    }
    out
}

/// Every inline code span of the pages, with its place (`page:line`).
fn quoted() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let name = page.strip_prefix(root()).unwrap().display().to_string();
        out.extend(spans(&text).into_iter().map(|(line, code)| (format!("{name}:{line}"), code)));
    }
    out
}

/// A quoted repository path: a top folder, then path characters only.
/// Placeholders (`fuzz/corpus/TARGET`) and patterns (`*`, `{a,b}`) are not paths.
fn repo_path(code: &str) -> Option<&str> {
    let top = code.split('/').next()?;
    if !TOP.contains(&top) || !code.contains('/') {
        return None;
    }
    let path_chars = code.chars().all(|c| c.is_ascii_alphanumeric() || "._-/".contains(c));
    let placeholder = code.split('/').any(|part| {
        let stem = part.split('.').next().unwrap_or("");
        stem.len() > 1 && stem.chars().all(|c| c.is_ascii_uppercase())
    });
    (path_chars && !placeholder).then_some(code)
}

/// Every `cktile::...` or `cktile_transforms::...` path in a code span.
fn item_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("cktile") {
        let before = rest[..at].chars().last();
        let tail = &rest[at..];
        let path: String = tail.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':').collect();
        let path = path.trim_end_matches(':').to_string();
        if before.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_')) && path.contains("::") {
            out.push(path.clone());
        }
        rest = &tail[path.len().max(1)..];
    }
    out
}

/// The source file of module `segments` under a crate's `src` folder.
fn module_file(src: &Path, segments: &[&str]) -> Option<PathBuf> {
    let mut file = src.join("lib.rs");
    let mut dir = src.to_path_buf();
    for s in segments {
        let text = std::fs::read_to_string(&file).ok()?;
        if let Some(f) = [dir.join(format!("{s}.rs")), dir.join(s).join("mod.rs")].into_iter().find(|f| f.exists()) {
            file = f;
            dir = dir.join(s);
        } else if let Some(target) = reexported_module(&text, s) {
            // `pub use crate::hardware::arch;` or `pub use cktile_transforms as transforms;`.
            let (src, path) = crate_of(&target, src)?;
            let path: Vec<&str> = path.iter().map(String::as_str).collect();
            file = module_file(&src, &path)?;
            dir = file.parent()?.to_path_buf();
            if !file.ends_with("mod.rs") && !file.ends_with("lib.rs") {
                dir = dir.join(file.file_stem()?);
            }
        } else {
            return None;
        }
    }
    Some(file)
}

/// The path a module file re-exports under `name` (`pub use PATH;` whose
/// last segment is `name`, or `pub use PATH as name;`).
fn reexported_module(text: &str, name: &str) -> Option<String> {
    text.lines().map(str::trim).find_map(|line| {
        let body = line.strip_prefix("pub use ")?.strip_suffix(';')?;
        match body.split_once(" as ") {
            Some((path, alias)) if alias.trim() == name => Some(path.trim().to_string()),
            None if body.rsplit("::").next() == Some(name) => Some(body.to_string()),
            _ => None,
        }
    })
}

/// A crate path's candidate `src` folders, each with its module segments:
/// `crate::` is the crate of `here`; `cktile::` is the tools crate, whose
/// root re-exports the port (`pub use cktile_core::*;`) and the
/// analysis' modules, and whose `analyzer` re-exports the analysis', so a
/// path it does not hold is looked for in `analysis/src` and `core/src`
/// too.
fn crates_of(path: &str, here: &Path) -> Vec<(PathBuf, Vec<String>)> {
    let mut segments = path.split("::").map(str::to_string);
    let Some(first) = segments.next() else { return Vec::new() };
    let rest: Vec<String> = segments.collect();
    let transforms = || (root().join("transforms/src"), rest[1..].to_vec());
    match first.as_str() {
        _ if rest.first().map(String::as_str) == Some("transforms") && first != "cktile_transforms" => {
            vec![transforms()]
        }
        "crate" => vec![(here.to_path_buf(), rest)],
        "cktile" => vec![
            (root().join("src"), rest.clone()),
            (root().join("analysis/src"), rest.clone()),
            (root().join("core/src"), rest),
        ],
        "cktile_core" => vec![(root().join("core/src"), rest)],
        "cktile_analysis" => vec![(root().join("analysis/src"), rest)],
        "cktile_transforms" => vec![(root().join("transforms/src"), rest)],
        // The cubecl crate (its own workspace, in cubecl/).
        "cktile_cubecl" => vec![(root().join("cubecl/src"), rest)],
        _ => Vec::new(),
    }
}

/// The first candidate of [`crates_of`] that holds the path's modules.
fn crate_of(path: &str, here: &Path) -> Option<(PathBuf, Vec<String>)> {
    let candidates = crates_of(path, here);
    let found = candidates.iter().find(|(src, rest)| {
        let rest: Vec<&str> = rest.iter().map(String::as_str).collect();
        module_file(src, &rest).is_some()
    });
    found.or(candidates.first()).cloned()
}

/// Whether a module's text declares or re-exports `name` publicly.
fn declares(text: &str, name: &str) -> bool {
    let word = |s: &str| {
        s.starts_with(name) && s[name.len()..].chars().next().is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'))
    };
    // Statements across lines, with comments (which may quote the name) left out.
    let joined: String = text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join(" ");
    text.lines().map(str::trim).any(|line| {
        [
            "pub fn ",
            "pub const fn ",
            "pub unsafe fn ",
            "pub struct ",
            "pub enum ",
            "pub trait ",
            "pub type ",
            "pub const ",
            "pub static ",
            "pub mod ",
        ]
        .iter()
        .any(|k| line.strip_prefix(k).is_some_and(word))
    }) || joined.split(';').any(|stmt| {
        // `pub use` opens the statement, after its attributes (`#[cfg(...)]`) if any.
        let stmt = stmt.trim();
        let Some(at) = stmt.find("pub use ").filter(|&k| k == 0 || stmt[..k].trim_end().ends_with(']')) else {
            return false;
        };
        stmt[at..].split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).any(|w| w == name)
    })
}

/// Whether a crate exports a macro `name` (`#[macro_export]` then `macro_rules! name`).
fn exports_macro(src: &Path, name: &str) -> bool {
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&p).unwrap();
                let lines: Vec<&str> = text.lines().map(str::trim).collect();
                if lines.windows(2).any(|w| w[0] == "#[macro_export]" && w[1] == format!("macro_rules! {name} {{")) {
                    return true;
                }
            }
        }
    }
    false
}

/// `Ok` when the item path names a public module or item (in one of the
/// crates it may live in).
fn resolve(path: &str) -> Result<(), String> {
    let candidates = crates_of(path, &root().join("src"));
    let mut why =
        String::from("not a path of cktile, cktile_core, cktile_analysis, cktile_transforms or cktile_cubecl");
    for (src, segments) in candidates {
        match resolve_in(&src, &segments) {
            Ok(()) => return Ok(()),
            Err(e) => why = e,
        }
    }
    Err(why)
}

/// `Ok` when module `segments` (then an item) is public under `src`.
fn resolve_in(src: &Path, segments: &[String]) -> Result<(), String> {
    let segments: Vec<&str> = segments.iter().map(String::as_str).collect();
    let Some((last, modules)) = segments.split_last() else { return Ok(()) };
    let file = module_file(src, modules).ok_or_else(|| format!("no module {}", modules.join("::")))?;
    if module_file(src, &segments).is_some() {
        return Ok(());
    }
    let text = std::fs::read_to_string(&file).unwrap();
    if declares(&text, last) || (modules.is_empty() && exports_macro(src, last)) {
        Ok(())
    } else {
        Err(format!("{} declares no public `{last}`", file.strip_prefix(root()).unwrap().display()))
    }
}

#[test]
fn every_quoted_path_exists() {
    let (mut checked, mut missing) = (0, Vec::new());
    for (place, code) in quoted() {
        let Some(path) = repo_path(&code) else { continue };
        if ELSEWHERE.iter().any(|(p, _)| *p == path) {
            continue;
        }
        checked += 1;
        if !root().join(path.trim_end_matches('/')).exists() {
            missing.push(format!("{place}: {path}"));
        }
    }
    assert!(
        missing.is_empty(),
        "quoted paths that do not exist (fix them, or add them to ELSEWHERE):\n{}",
        missing.join("\n")
    );
    // Taken once: 313 quoted paths (the bound leaves room for edits).
    assert!(checked > 250, "{checked}");
}

#[test]
fn every_quoted_item_exists() {
    let (mut checked, mut missing) = (0, Vec::new());
    for (place, code) in quoted() {
        for path in item_paths(&code) {
            checked += 1;
            if let Err(e) = resolve(&path) {
                missing.push(format!("{place}: {path}: {e}"));
            }
        }
    }
    assert!(missing.is_empty(), "quoted items that do not exist:\n{}", missing.join("\n"));
    // Taken once: 49 quoted item paths.
    assert!(checked > 40, "{checked}");
}

/// The checker itself, on paths that exist and paths that do not.
#[test]
fn the_checker_tells_real_names_from_wrong_ones() {
    for real in [
        "cktile::ops::gemm::UniversalGemmPolicy",
        "cktile::analyzer::arch",
        "cktile::analyzer::Op",
        "cktile::assert_bijective",
        "cktile::transforms::static_for",
        "cktile_transforms::lowering::Lowering",
        "cktile::Number",
        "cktile_core::ops::gemm::make_lds_block",
        "cktile_analysis::layouts::ck::xor_lds",
        "cktile_analysis::analyzer::window::repeat_over",
        "cktile::reports::analyze_tile_report",
        "cktile::analyzer::model::count",
        "cktile_cubecl::CkLayout",
        "cktile_cubecl::reads::Check",
    ] {
        assert_eq!(resolve(real), Ok(()), "{real}");
    }
    for wrong in [
        "cktile::ops::gemm::UniversalGemm",
        "cktile::nothing::here",
        "cktile::analyzer::arch::GFX9999",
        "cktile::assert_nothing",
        "cktile_analysis::analyzer::report",
        // Each module path names one crate: the tools' reports and lane
        // analyses are not in the analysis crate's or the port's modules.
        "cktile::analyzer::models",
        "cktile::analyzer::analyze_tile_report",
        "cktile::distribution::coverage",
        "cktile::distribution::parse",
        "cktile_core::search",
        "cktile_core::layouts",
        "cktile_core::analyzer::arch",
    ] {
        assert!(resolve(wrong).is_err(), "{wrong}");
    }
    assert_eq!(repo_path("core/src/tile/window.rs"), Some("core/src/tile/window.rs"));
    assert_eq!(repo_path("fuzz/corpus/TARGET"), None);
    assert_eq!(repo_path("fuzz/properties/TARGET.rs"), None);
    assert_eq!(repo_path("perf/*.md"), None);
    assert_eq!(item_paths("use cktile::tile::gpu::{a, b}; mycktile::x"), ["cktile::tile::gpu"]);
}
