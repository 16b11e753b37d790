//! The layers the architecture chapter draws, held: every `crate::` path in
//! the library's sources names a module of its own layer or of one below
//! it. The library is three crates over the transforms: the port,
//! `cktile-core` (`core/src/`, `no_std`), the analysis,
//! `cktile-analysis` (`analysis/src/`, `no_std`), and the tools, `cktile`
//! (`src/`, the command line aside), which re-exports both and reaches
//! them by the same `crate::` paths. Each crate's layers are all below the
//! next one's; the port depends on neither (`the_port_depends_on_no_tool`)
//! and holds no analyzer, spec language or registry
//! (`the_port_holds_the_port_only`). The order is written once,
//! here, and the chapter's drawing follows it.
//!
//! Imports that still run upward are listed by name in `KNOWN_UPWARD`, each
//! with why it is there: the test fails on any new one, and on a listed one
//! that has gone, so the list only shrinks. Modules of one layer import
//! each other one way only, and so do the files of one module: a circle
//! fails unless `KNOWN_CIRCLES` or `KNOWN_FILE_CIRCLES` writes it down
//! (none is left), under the same rule.
//!
//! Inside the analyzer the files form a line too (`ANALYZER_LINE`): chips
//! and instructions, the bank model, access patterns, tiles, windows,
//! reports, and the front ends over them.
//!
//! And the tools that turn transforms into something else (the C++
//! emitter, the interval analysis, the `Program` compiler and executors)
//! read only the transforms' lowerings: their code reads no transform's
//! parameters, kind or formulas (`LOWERING_CONSUMERS`), so a new transform
//! never touches them.
//!
//! A transform kind is named only in its own module of
//! `transforms/src/kinds/` and the list (`transforms/src/list.rs`;
//! `KIND_USERS` names the few
//! files outside that may), the grammars are the
//! kinds' rows, and the architecture chapter draws the layers as `LAYERS`
//! holds them.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The library's crates, lowest first: each one's folder of sources.
const TRANSFORMS: &str = "transforms/src";
const PORT: &str = "core/src";
const ANALYSIS: &str = "analysis/src";
const CHECKS: &str = "checks/src";
const TOOLS: &str = "src";
/// Every crate of the workspace, lowest first, with its name.
const CRATES: &[(&str, &str)] = &[
    (TRANSFORMS, "cktile-transforms"),
    (PORT, "cktile-core"),
    (ANALYSIS, "cktile-analysis"),
    (CHECKS, "cktile-checks"),
    (TOOLS, "cktile"),
];

/// The layers, lowest first, with the top-level modules of each (a module
/// as its crate's folder and its name): the port's layers, the
/// analysis', then the tools'. The analyzer has a half in each of the
/// last two: the bank model in the analysis (what `assert_conflict_free!`
/// runs), the reports and front ends in the tools.
const LAYERS: &[(&str, &[&str])] = &[
    // The transforms crate: the list of kinds (and `Kind`, which the
    // messages name), its values and messages, the compiled form's steps,
    // the kinds (each one's formulas, lowering, row and typed form, and the
    // types that hold any kind: `Params`, `Transform`, `TypedTransform`),
    // and the dispatch over the list (`Transform`'s and `Kind`'s methods,
    // the table of rows, the typed re-exports).
    ("the list of kinds", &["transforms/src/list"]),
    (
        "transform values",
        &[
            "transforms/src/count",
            "transforms/src/dims",
            "transforms/src/value",
            "transforms/src/values",
            "transforms/src/error",
            "transforms/src/signature",
            // A dimension's safe vector and the vector rules the kinds state.
            "transforms/src/vector",
            // The integer arithmetic formulas and steps share (division,
            // the row-major split, swizzle fields, bit permutations).
            "transforms/src/arith",
        ],
    ),
    ("lowering steps", &["transforms/src/lowering"]),
    ("transform kinds", &["transforms/src/kinds"]),
    ("dispatch over the kinds", &["transforms/src/transform", "transforms/src/typed"]),
    // The port: the name lists, the messages (the error type, which makes
    // no value it does not hold), the chains, the distributions, the
    // windows and CK's operators (the universal GEMM's policy and data
    // paths, with its constants: KPack, MLdsLayer).
    ("vocabulary", &["core/src/names"]),
    ("messages", &["core/src/error"]),
    ("descriptors and adaptors", &["core/src/stage", "core/src/adaptor", "core/src/descriptor", "core/src/typed"]),
    ("distributions", &["core/src/distribution"]),
    ("windows", &["core/src/tile"]),
    ("operators", &["core/src/ops"]),
    // The analysis: the hardware vocabulary (chips, instructions) that its
    // messages quote, the messages, comments in texts, compiled offset
    // programs and random chains, the spec language and the encodings'
    // parsers, the layout catalogue, and the bank model.
    ("hardware vocabulary", &["analysis/src/hardware"]),
    ("analysis messages", &["analysis/src/error"]),
    ("text", &["analysis/src/comments"]),
    ("programs and random chains", &["analysis/src/program", "analysis/src/random"]),
    ("the spec language", &["analysis/src/spec", "analysis/src/spelling"]),
    ("layouts", &["analysis/src/layouts"]),
    ("bank model", &["analysis/src/analyzer"]),
    // Build-level checks over the port (compile-fail snapshots, the probes'
    // data paths), beside the tools, which do not use them.
    ("build checks", &["checks/src/gemm"]),
    // The tools: whole-layout checks, the analyses of distributions and
    // the proptest strategies first.
    ("checks and analyses", &["src/check", "src/lanes", "src/strategy"]),
    ("analyzer reports", &["src/reports", "src/matrix_desc", "src/tma"]),
    ("search and planning", &["src/search", "src/plan"]),
    ("output", &["src/render", "src/codegen", "src/export"]),
    ("json", &["src/json"]),
];

/// Upward imports not yet removed: (importing module, imported module).
/// None are left. The transforms crate's four, written down when this
/// test first read it (2026-11-27, issue 65), went with issue 65: the list
/// of kinds sits beneath everything (`transforms/src/list`, with `Kind`),
/// the types that hold any kind (`Params`, `Transform`, `TypedTransform`)
/// and the kinds' rows sit with the kinds, the vector rules beneath them,
/// and the list's dispatch above them. The list stays so that one added on
/// purpose is written down with its reason.
const KNOWN_UPWARD: &[(&str, &str)] = &[];

/// Circles between modules of one layer not yet removed, each as its
/// modules in order. None are left (the adaptor sits beneath the
/// descriptor); the list stays so that one added on purpose is written
/// down with its reason.
const KNOWN_CIRCLES: &[&[&str]] = &[];

/// The analyzer's files, lowest first; files in one tier may use each other
/// (a chip's rules name instructions, an instruction's checks name chips).
const ANALYZER_LINE: &[(&str, &[&str])] = &[
    // The chips and instructions themselves live below, in `hardware`.
    ("chips and instructions by name, and their checks", &["lookup"]),
    ("what each chip does with each instruction", &["rules", "exchange"]),
    ("the bank model", &["model", "metrics"]),
    ("counting memo", &["memo"]),
    ("access patterns", &["pattern", "pattern_name"]),
    ("tiles", &["tile"]),
    ("windows", &["window"]),
    ("bank reports", &["banks"]),
    ("the public models of AMD's LDS, and where they disagree", &["models", "disagreements"]),
    ("front ends", &["accesses", "partitions", "probe", "gpu_cases"]),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file of a crate's sources belongs to, as the
/// folder and its name (`core/src/descriptor`; `None` for `lib.rs` and the
/// command line).
fn module_of(src: &str, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(root().join(src)).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.trim_end_matches(".rs");
    (name != "lib" && name != "bin").then(|| format!("{src}/{name}"))
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The `crate::NAME` paths in a file's code: comments and docs left out (a
/// doc may link any module; only code depends on one), and the unit tests
/// at the end of a file (from `#[cfg(test)]` on) as well.
fn crate_paths(text: &str) -> BTreeSet<String> {
    // Whole code, so that a grouped import broken over lines reads as one.
    let code = code_lines(text).collect::<Vec<_>>().join("\n");
    let mut names = BTreeSet::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("crate::") {
        // `$crate::` in an exported macro is the same crate.
        let tail = &rest[at + "crate::".len()..];
        match tail.strip_prefix('{') {
            // `crate::{a::X, b}`: each path of the group names its module.
            Some(group) => names.extend(group_heads(group).into_iter().filter(|n| n != "self")),
            None => {
                names.insert(ident(tail));
            }
        }
        rest = tail;
    }
    names
}

/// The first name of each path of a grouped import, `group` the text
/// after its `{`: the names that start the group's top-level entries, up
/// to the brace that closes it.
fn group_heads(group: &str) -> Vec<String> {
    let (mut heads, mut depth, mut at_start) = (Vec::new(), 0usize, true);
    for (i, ch) in group.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => at_start = true,
            c if at_start && !c.is_whitespace() => {
                heads.push(ident(&group[i..]));
                at_start = false;
            }
            _ => {}
        }
    }
    heads
}

/// The identifier a text starts with.
fn ident(text: &str) -> String {
    text.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect()
}

/// Every `pub use MODULE::...::{A, B as C};` of a source text, statements
/// across lines included: (MODULE, exported name) per item.
fn pub_uses(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for stmt in text.replace('\n', " ").split(';') {
        // An attribute (`#[cfg(...)]`) may precede the statement.
        let stmt = stmt.trim();
        let Some(at) = stmt.find("pub use ").filter(|&k| k == 0 || stmt[..k].trim_end().ends_with(']')) else {
            continue;
        };
        let body = &stmt[at + "pub use ".len()..];
        let module = ident(body);
        let items = body.rsplit("::").next().unwrap_or("");
        for item in items.trim_matches(|c| c == '{' || c == '}' || c == ' ').split(',') {
            let item = item.trim().rsplit(" as ").next().unwrap_or("").trim();
            if !item.is_empty() {
                out.push((module.clone(), item.to_string()));
            }
        }
    }
    out
}

/// Names a crate's root re-exports or defines (`pub use module::...`,
/// `#[macro_export]` macros), mapped to the module they come from (as
/// [`module_of`] names it); the tools' root has the port's too, which it
/// re-exports whole.
fn root_names(src: &str) -> BTreeMap<String, String> {
    let mut map = if src == TOOLS {
        let mut below = root_names(PORT);
        below.extend(root_names(ANALYSIS));
        below
    } else {
        BTreeMap::new()
    };
    let lib = std::fs::read_to_string(root().join(src).join("lib.rs")).unwrap();
    for (module, item) in pub_uses(&lib) {
        // `crate::`/`self::`/`super::` re-export root names (the prelude),
        // and `cktile_core::*` the port's.
        if !matches!(module.as_str(), "crate" | "self" | "super" | "cktile_core" | "cktile_analysis") {
            map.insert(item, format!("{src}/{module}"));
        }
    }
    let mut files = Vec::new();
    rust_files(&root().join(src), &mut files);
    for file in files {
        let Some(module) = module_of(src, &file) else { continue };
        let text = std::fs::read_to_string(&file).unwrap();
        let mut exported = false;
        for line in text.lines() {
            let line = line.trim();
            if line == "#[macro_export]" {
                exported = true;
            } else if let Some(rest) = line.strip_prefix("macro_rules! ").filter(|_| exported) {
                let name = ident(rest);
                map.insert(name, module.clone());
                exported = false;
            }
        }
    }
    map
}

/// Each module's layer (its place in `LAYERS`, lowest first).
fn layer_ranks() -> BTreeMap<&'static str, usize> {
    LAYERS.iter().enumerate().flat_map(|(k, (_, modules))| modules.iter().map(move |m| (*m, k))).collect()
}

/// Every import between placed modules of both crates, as (importing
/// module, imported module, file), and the modules in no layer. In the
/// tools, `crate::NAME` is the tools' module NAME or else the port's (the
/// root re-exports it); a root name resolves to its module; an external
/// crate re-exported at the root is below everything, and left out.
fn module_imports() -> (BTreeSet<(String, String, String)>, BTreeSet<String>) {
    let rank = layer_ranks();
    let (mut imports, mut unplaced) = (BTreeSet::new(), BTreeSet::new());
    for (src, _) in CRATES {
        let roots = root_names(src);
        let mut files = Vec::new();
        rust_files(&root().join(src), &mut files);
        for file in &files {
            let Some(module) = module_of(src, file) else { continue };
            if !rank.contains_key(module.as_str()) {
                unplaced.insert(module);
                continue;
            }
            for name in crate_paths(&std::fs::read_to_string(file).unwrap()) {
                let below = |crate_src: &str| (*src == TOOLS).then(|| format!("{crate_src}/{name}"));
                let target = [Some(format!("{src}/{name}")), below(ANALYSIS), below(PORT)]
                    .into_iter()
                    .flatten()
                    .find(|m| rank.contains_key(m.as_str()))
                    .or_else(|| roots.get(&name).cloned());
                if let Some(target) = target.filter(|t| rank.contains_key(t.as_str())) {
                    let place = file.strip_prefix(root()).unwrap().display().to_string();
                    imports.insert((module.clone(), target, place));
                }
            }
        }
    }
    (imports, unplaced)
}

#[test]
fn no_module_imports_one_above_its_layer() {
    let rank = layer_ranks();
    let (imports, unplaced) = module_imports();
    let upward: BTreeSet<(String, String, String)> =
        imports.into_iter().filter(|(a, b, _)| rank[b.as_str()] > rank[a.as_str()]).collect();
    assert!(unplaced.is_empty(), "modules in no layer (add them to LAYERS): {unplaced:?}");
    let pairs: BTreeSet<(String, String)> = upward.iter().map(|(a, b, _)| (a.clone(), b.clone())).collect();
    let known: BTreeSet<(String, String)> = KNOWN_UPWARD.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    let new: Vec<_> = upward.iter().filter(|(a, b, _)| !known.contains(&(a.clone(), b.clone()))).collect();
    assert!(new.is_empty(), "imports that run up the layers (module, imported module, file): {new:#?}");
    let gone: Vec<_> = known.difference(&pairs).collect();
    assert!(gone.is_empty(), "listed upward imports that no longer exist; remove them from KNOWN_UPWARD: {gone:?}");
}

/// The circles of a graph of imports: each node's, the nodes it reaches
/// that reach it back, in order, with it.
fn circles_of(edges: &BTreeMap<String, BTreeSet<String>>) -> BTreeSet<Vec<String>> {
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.to_string()];
        while let Some(m) = stack.pop() {
            for n in edges.get(&m).into_iter().flatten() {
                if seen.insert(n.clone()) {
                    stack.push(n.clone());
                }
            }
        }
        seen
    };
    let mut circles = BTreeSet::new();
    for m in edges.keys() {
        let mut circle: Vec<String> = reach(m).into_iter().filter(|n| reach(n).contains(m)).collect();
        if !circle.is_empty() {
            circle.push(m.clone());
            circle.sort();
            circle.dedup();
            circles.insert(circle);
        }
    }
    circles
}

/// Modules of one layer import each other only one way: the imports
/// between them (module to module, any file) form no circle, save the
/// ones `KNOWN_CIRCLES` writes down.
#[test]
fn no_circle_between_modules_of_one_layer() {
    let rank = layer_ranks();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, target, _) in module_imports().0 {
        if target != module && rank[target.as_str()] == rank[module.as_str()] {
            edges.entry(module).or_default().insert(target);
        }
    }
    let known = KNOWN_CIRCLES.iter().map(|c| c.iter().map(|m| m.to_string()).collect()).collect();
    same_circles(&circles_of(&edges), &known, "modules of one layer", "KNOWN_CIRCLES");
}

/// Fails on a circle `found` that `known` does not write down (`what`
/// import each other), and on one `known` (the list `list`) that is gone.
fn same_circles<T: Ord + std::fmt::Debug>(found: &BTreeSet<T>, known: &BTreeSet<T>, what: &str, list: &str) {
    let new: Vec<_> = found.difference(known).collect();
    assert!(new.is_empty(), "{what} that import each other (write the circle down in {list}, or break it): {new:#?}");
    let gone: Vec<_> = known.difference(found).collect();
    assert!(gone.is_empty(), "circles in {list} that no longer exist; remove them: {gone:?}");
}

/// The files that consume transforms only through their lowerings.
const LOWERING_CONSUMERS: &[&str] = &[
    "src/codegen/emit.rs",
    "core/src/descriptor/bounds.rs",
    "analysis/src/program/mod.rs",
    "analysis/src/program/compile.rs",
    "analysis/src/program/batch.rs",
    // cktile-cubecl's kernel expansion (its own workspace; the file is read
    // here all the same).
    "cubecl/src/emit.rs",
];

/// What reading a transform other than through its lowering looks like in
/// code: its parameters or kind (the only ways to match on a kind outside
/// the transforms crate), its formulas, or the per-kind facts derived from
/// them.
fn names_a_kind(line: &str) -> Option<&'static str> {
    const WORDS: [&str; 10] = [
        "Params",
        "Kind",
        ".kind()",
        ".params()",
        ".calculate_lower(",
        ".calculate_upper(",
        ".is_linear(",
        ".is_identity(",
        ".is_always_valid(",
        ".is_valid_upper",
    ];
    WORDS.into_iter().find(|w| line.contains(w))
}

#[test]
fn lowering_consumers_read_transforms_only_through_lowerings() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for file in LOWERING_CONSUMERS {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        for (n, line) in code_lines(&text).enumerate() {
            if let Some(word) = names_a_kind(line) {
                panic!("{file} names a transform kind ({word}) in: {line}  (code line {n})");
            }
        }
    }
    // The check reads what a kind-specific arm looks like.
    assert_eq!(names_a_kind("            Params::Merge { lengths } => {"), Some("Params"));
    assert_eq!(names_a_kind("        if t.is_identity() {"), Some(".is_identity("));
    assert_eq!(names_a_kind("        let l = item.transform().lowering();"), None);
}

/// The code lines of a file: comments and docs left out, and the unit tests
/// from `#[cfg(test)]` on.
fn code_lines(text: &str) -> impl Iterator<Item = &str> {
    let lines: Vec<&str> = text.lines().collect();
    // The code ends at the first inline test module (`#[cfg(test)]`, or a
    // `cfg(all(test, ...))` one, then `mod tests {`); a test module kept in
    // its own file (`mod tests;`) ends nothing.
    let test_cfg = |l: &str| ["#[cfg(test)]", "#[cfg(all(test,"].iter().any(|c| l.trim_start().starts_with(c));
    let end = (0..lines.len())
        .find(|&i| {
            test_cfg(lines[i])
                && lines.get(i + 1).is_some_and(|next| next.trim_start().starts_with("mod ") && next.contains('{'))
        })
        .unwrap_or(lines.len());
    lines.into_iter().take(end).filter(|l| !l.trim_start().starts_with("//"))
}

/// The analyzer files a file of either half (`analysis/src/analyzer`, the
/// tools' `src/reports`) reaches through `super::`, `crate::analyzer::` or
/// `crate::reports::`, a name re-exported by either `mod.rs` resolving to
/// its file.
fn analyzer_uses(text: &str, files: &BTreeSet<String>, reexports: &BTreeMap<String, String>) -> BTreeSet<String> {
    let mut uses = module_uses(text, "analyzer", true, files, reexports);
    uses.extend(module_uses(text, "reports", false, files, reexports));
    uses
}

/// The files of module `module` (`files`: its files' stems and its
/// sub-modules' names) a file of it reaches through `crate::MODULE::` or,
/// when `sibling` (a file directly in the module's folder), `super::`; a
/// name `mod.rs` re-exports (`reexports`: name to file) resolves to its
/// file.
fn module_uses(
    text: &str,
    module: &str,
    sibling: bool,
    files: &BTreeSet<String>,
    reexports: &BTreeMap<String, String>,
) -> BTreeSet<String> {
    let own = format!("crate::{module}::");
    let prefixes: Vec<&str> = if sibling { vec!["super::", own.as_str()] } else { vec![own.as_str()] };
    let mut out = BTreeSet::new();
    for line in code_lines(text) {
        for prefix in &prefixes {
            let mut rest = line;
            while let Some(at) = rest.find(prefix) {
                let tail = &rest[at + prefix.len()..];
                let names: Vec<&str> = match tail.strip_prefix('{') {
                    Some(group) => group.split('}').next().unwrap_or("").split(',').collect(),
                    None => vec![tail],
                };
                for name in names {
                    let name = ident(name.trim());
                    if files.contains(&name) {
                        out.insert(name);
                    } else if let Some(file) = reexports.get(&name).filter(|f| files.contains(*f)) {
                        // (A name re-exported from outside the module is below it.)
                        out.insert(file.clone());
                    }
                }
                rest = tail;
            }
        }
    }
    out
}

/// File-level circles inside one module not yet removed, each as (module's
/// folder, its files in order).
const KNOWN_FILE_CIRCLES: &[(&str, &[&str])] = &[];

/// Every folder of a crate's sources, at any depth (the command line's aside).
fn module_dirs(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() && p.file_name().is_some_and(|n| n != "bin") {
            out.push(p.clone());
            module_dirs(&p, out);
        }
    }
}

/// Inside each module of either crate, at every depth (a module's rooms
/// too: `distribution/catalogue`), its files (and sub-modules) import each
/// other one way only: no circle between them, save those
/// `KNOWN_FILE_CIRCLES` writes down.
#[test]
fn no_circle_between_files_of_one_module() {
    let mut circles = BTreeSet::new();
    let mut dirs = Vec::new();
    for (src, _) in CRATES {
        module_dirs(&root().join(src), &mut dirs);
    }
    let mut rooms = 0;
    for dir in dirs {
        let src = CRATES.iter().map(|(s, _)| *s).find(|s| dir.starts_with(root().join(s))).unwrap();
        // The module's path, `distribution::catalogue` for `core/src/distribution/catalogue`.
        let rel = dir.strip_prefix(root().join(src)).unwrap();
        let module: Vec<&str> = rel.components().map(|c| c.as_os_str().to_str().unwrap()).collect();
        rooms += usize::from(module.len() > 1);
        let module = module.join("::");
        // Nodes: the folder's files (`a.rs`) and sub-modules (`sub/`), each with its text.
        let mut nodes: BTreeMap<String, (bool, String)> = BTreeMap::new();
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_str().unwrap().to_string();
            if let Some(stem) = name.strip_suffix(".rs").filter(|s| *s != "mod") {
                nodes.insert(stem.to_string(), (true, std::fs::read_to_string(&p).unwrap()));
            } else if p.is_dir() {
                let mut files = Vec::new();
                rust_files(&p, &mut files);
                let text: Vec<String> = files.iter().map(|f| std::fs::read_to_string(f).unwrap()).collect();
                nodes.insert(name, (false, text.join("\n")));
            }
        }
        let names: BTreeSet<String> = nodes.keys().cloned().collect();
        let mod_rs = std::fs::read_to_string(dir.join("mod.rs")).unwrap_or_default();
        let reexports: BTreeMap<String, String> =
            pub_uses(&code_lines(&mod_rs).collect::<Vec<_>>().join("\n")).into_iter().map(|(f, i)| (i, f)).collect();
        let edges: BTreeMap<String, BTreeSet<String>> = nodes
            .iter()
            .map(|(n, (sibling, text))| {
                let mut used = module_uses(text, &module, *sibling, &names, &reexports);
                used.remove(n);
                (n.clone(), used)
            })
            .collect();
        for circle in circles_of(&edges) {
            circles.insert((dir.strip_prefix(root()).unwrap().display().to_string(), circle));
        }
    }
    assert!(rooms >= 3, "the rooms of the distribution module are read ({rooms} nested folders)");
    let known =
        KNOWN_FILE_CIRCLES.iter().map(|(m, c)| (m.to_string(), c.iter().map(|f| f.to_string()).collect())).collect();
    same_circles(&circles, &known, "files of one module", "KNOWN_FILE_CIRCLES");
}

#[test]
fn the_analyzers_files_form_a_line() {
    // Both halves: the bank model's files in the analysis, the reports' in the tools.
    let dirs = [root().join(ANALYSIS).join("analyzer"), root().join(TOOLS).join("reports")];
    let rank: BTreeMap<&str, usize> =
        ANALYZER_LINE.iter().enumerate().flat_map(|(k, (_, files))| files.iter().map(move |f| (*f, k))).collect();
    let mut files = BTreeMap::new();
    let mut reexports: BTreeMap<String, String> = BTreeMap::new();
    for dir in &dirs {
        for entry in std::fs::read_dir(dir).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            if let Some(stem) = name.strip_suffix(".rs").filter(|s| *s != "mod") {
                assert!(files.insert(stem.to_string(), dir.join(&name)).is_none(), "analyzer/{name} is in both crates");
            }
        }
        // `pub use FILE::{A, B}` in mod.rs: the names each file exports at `analyzer::`.
        let mod_rs = std::fs::read_to_string(dir.join("mod.rs")).unwrap();
        let code = code_lines(&mod_rs).collect::<Vec<_>>().join("\n");
        reexports.extend(pub_uses(&code).into_iter().map(|(f, i)| (i, f)));
    }
    let placed: BTreeSet<String> = rank.keys().map(|s| s.to_string()).collect();
    let found: BTreeSet<String> = files.keys().cloned().collect();
    assert_eq!(found, placed, "every analyzer file is in ANALYZER_LINE once");
    let tools_files = std::fs::read_dir(&dirs[1]).unwrap().count() - 1;
    let mut upward = Vec::new();
    for (file, path) in &files {
        let text = std::fs::read_to_string(path).unwrap();
        for used in analyzer_uses(&text, &found, &reexports) {
            if used != *file && rank[used.as_str()] > rank[file.as_str()] {
                upward.push((file.clone(), used));
            }
        }
    }
    assert!(upward.is_empty(), "analyzer files that use a file above them (file, used): {upward:?}");
    assert_eq!(reexports.get("analyze_tile").map(String::as_str), Some("tile"), "mod.rs's re-exports are read");
    assert_eq!(reexports.get("analyze_with").map(String::as_str), Some("banks"), "behind #[cfg] too");
    // The port's half holds no report: every file of the tools' half sits
    // above every file of the port's.
    let top_of_port = files.iter().filter(|(_, p)| p.starts_with(&dirs[0])).map(|(f, _)| rank[f.as_str()]).max();
    let bottom_of_tools = files.iter().filter(|(_, p)| p.starts_with(&dirs[1])).map(|(f, _)| rank[f.as_str()]).min();
    assert!(top_of_port < bottom_of_tools, "the port's analyzer files are all below the tools'");
    assert_eq!(tools_files, 7, "banks, models, disagreements, accesses, partitions, probe and gpu_cases");
}

/// The checker itself: a path in code counts, one in a comment, a doc or the
/// inline unit tests does not (code after a test module kept in its own
/// file still counts), and root re-exports resolve to their modules.
#[test]
fn the_checker_reads_paths_as_the_compiler_would() {
    let text = "use crate::analyzer::Op;\n// crate::json is only mentioned\n/// [`x`](crate::render::plan)\n\
                let a = $crate::typed::X;\n#[cfg(test)]\nmod separate;\nuse crate::json::Y;\n\
                #[cfg(test)]\nmod tests { use crate::search::Report; }";
    let got: Vec<String> = crate_paths(text).into_iter().collect();
    assert_eq!(got, ["analyzer", "json", "typed"]);
    // A grouped import, broken over lines as rustfmt breaks it, names each of its modules.
    let grouped =
        "use crate::{\n    self,\n    render::{plan, Picture},\n    // crate::strategy\n    search::Report, Error,\n};";
    let got: Vec<String> = crate_paths(grouped).into_iter().collect();
    assert_eq!(got, ["Error", "render", "search"]);
    let roots = root_names(TOOLS);
    assert_eq!(roots.get("Descriptor").map(String::as_str), Some("core/src/descriptor"));
    assert_eq!(roots.get("tile_distribution_encoding").map(String::as_str), Some("core/src/distribution"));
    assert_eq!(roots.get("assert_conflict_free").map(String::as_str), Some("analysis/src/analyzer"));
    // Every module is placed exactly once.
    let mut seen = BTreeSet::new();
    for (_, modules) in LAYERS {
        for m in *modules {
            assert!(seen.insert(*m), "{m} is in two layers");
        }
    }
}

/// Text of `file` (relative to the crate root) from `from` to the next
/// `to`, without doc-comment markers, its whitespace collapsed.
fn grammar_block(file: &str, from: &str, to: &str) -> String {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
    let text = text.replace("//!", " ");
    let start = text.find(from).unwrap_or_else(|| panic!("{file}: no `{from}`")) + from.len();
    let end = start + text[start..].find(to).unwrap_or_else(|| panic!("{file}: no `{to}` after `{from}`"));
    let words: Vec<&str> = text[start..end].split_whitespace().collect();
    words.join(" ").trim_end_matches(['|', '\'', ' ']).to_string()
}

/// One row per transform kind: the grammars the guide and the spec module
/// print are the kinds' and the bases' signatures, in the table's order,
/// and the transforms chapter's table names every kind by its signature.
#[test]
fn the_grammars_are_the_signature_rows() {
    use cktile_transforms::Kind;
    let join = |items: Vec<String>| items.join(" | ");
    let kinds = join(Kind::ALL.iter().map(|k| k.signature().to_string()).collect());
    let bases = join(cktile::spec::BASES.iter().map(|b| b.to_string()).collect());
    for (file, after_xform) in [("analysis/src/spec/mod.rs", "IDS"), ("docs/src/cli.md", "TUPLE")] {
        assert_eq!(grammar_block(file, "XFORM :=", after_xform), kinds, "{file}'s transforms");
        assert_eq!(grammar_block(file, "STAGE :=", "transform"), bases, "{file}'s bases");
    }
    let chapter =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/transforms.md")).unwrap();
    for kind in Kind::ALL {
        assert!(chapter.contains(&format!("| `{}` |", kind.signature())), "transforms.md's table lacks {kind:?}");
    }
}

/// One analyzer engine: every lane address the analyzer computes (counts,
/// reports, contiguity checks, at compile time and at run time) comes from
/// a compiled `Program`, never from a descriptor evaluated stage by stage.
#[test]
fn the_analyzer_reads_addresses_through_programs() {
    let mut files = Vec::new();
    for (src, module) in [(ANALYSIS, "analyzer"), (TOOLS, "reports")] {
        rust_files(&root().join(src).join(module), &mut files);
    }
    let mut reads = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for line in code_lines(&text) {
            for call in [".offset_if_valid(", ".calculate_offset(", ".offset_of("] {
                let mut rest = line;
                while let Some(at) = rest.find(call) {
                    let receiver: String =
                        rest[..at].chars().rev().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                    let receiver: String = receiver.chars().rev().collect();
                    assert_eq!(
                        receiver,
                        "program",
                        "{}: `{receiver}{call}` reads an address off the descriptor",
                        file.display()
                    );
                    reads += 1;
                    rest = &rest[at + call.len()..];
                }
            }
        }
    }
    assert!(reads >= 3, "the check found the analyzer's address reads ({reads})");
}

/// The bank model's counting entry points: what counts an instruction's
/// phases (or a tile's instructions) from addresses.
const COUNTING: &[&str] = &[
    "count_in(",
    "count_validated(",
    "count_copy(",
    "count_kept(",
    "phase_table(",
    "conflicting_lanes(",
    "count_lanes(",
    "analyze_tile(",
    "analyze_window(",
    "CountMemo",
];

/// Whether `line` calls the model's `count` (free, or through a path), not
/// an iterator's `.count()`, a metric's `Metric::count` or the counting
/// layer's `tally.count`.
fn calls_count(line: &str) -> bool {
    let mut rest = line;
    while let Some(at) = rest.find("count(") {
        let before = &rest[..at];
        let after = &rest[at + "count(".len()..];
        let word_before = before.chars().last().is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        let method = before.ends_with('.');
        let allowed = word_before
            || (method && (after.starts_with(')') || before.ends_with("tally.")))
            || before.ends_with("Metric::");
        if !allowed {
            return true;
        }
        rest = after;
    }
    false
}

/// One analyzer engine: a report never recounts. The reports
/// (`analyzer/report.rs`) and what renders them (`src/json`, `src/render`,
/// the CLI) read counts the counting layer made: a tile's through
/// `tile::Tally` (the tile counter's and the compile-time checks' own
/// layer), one instruction's detail through `count_kept_validated`, the one
/// count that keeps its phase tables, called in one place. None of them
/// calls the bank model's or the tile counters' entry points.
#[test]
fn reports_read_counts_and_never_recount() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![root.join("reports/banks.rs")];
    for dir in ["json", "render", "bin/cktile"] {
        rust_files(&root.join(dir), &mut files);
    }
    let mut detail = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for line in code_lines(&text) {
            for call in COUNTING {
                assert!(!line.contains(call), "{}: `{}` counts again: {line}", file.display(), call);
            }
            assert!(!calls_count(line), "{}: counts again: {line}", file.display());
            detail += line.matches("count_kept_validated(").count();
        }
    }
    assert_eq!(detail, 1, "one place builds an instruction's detail from its count");
    let report = std::fs::read_to_string(root.join("reports/banks.rs")).unwrap();
    assert!(code_lines(&report).any(|l| l.contains("Tally::new(")), "the reports count through the counting layer");
    assert!(calls_count("let c = count(&arch, op, &a)?;") && calls_count("cktile::analyzer::count(a, b, c)"));
    assert!(!calls_count("v.iter().count() + Metric::count(x) + tally.count(i, &a, &mut per)?"));
}

/// Typed descriptors and typed adaptors share one core: their wrappers
/// (`TensorDescriptor` in `descriptor/typed/mod.rs`, `TensorAdaptor` in
/// `adaptor/typed.rs`) validate and build their runtime object only
/// through `stage/built.rs`, and write none of it themselves.
#[test]
fn typed_descriptors_and_adaptors_share_one_core() {
    let dir = root().join(PORT);
    let core = std::fs::read_to_string(dir.join("stage/built.rs")).unwrap();
    for own in ["pub trait Built", "const CHECK", "const IS_STATIC", "fn validate", "fn runtime", "fn refusal"] {
        assert!(code_lines(&core).any(|l| l.contains(own)), "stage/built.rs holds `{own}`");
    }
    for (file, wrapper) in [("descriptor/typed/mod.rs", "TensorDescriptor"), ("adaptor/typed.rs", "TensorAdaptor")] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        for line in code_lines(&text) {
            for written in
                ["const CHECK", "const IS_STATIC", "fn refusal", "unreachable!(", ".accepts()", "RefusedOnDevice"]
            {
                assert!(!line.contains(written), "{file} writes `{written}` again: {line}");
            }
        }
        for used in ["Core::validate(chain)", "Core::runtime(&self.chain)"] {
            assert!(text.contains(used), "{wrapper} ({file}) goes through `{used}`");
        }
    }
    // Both chains are `Built`, the one contract.
    let chain = std::fs::read_to_string(dir.join("descriptor/typed/chain.rs")).unwrap();
    assert!(chain.contains("pub trait Chain: Built<Runtime = Descriptor>"));
    let adaptor = std::fs::read_to_string(dir.join("adaptor/typed.rs")).unwrap();
    assert!(adaptor.contains("pub trait AdaptorChain: Built<Runtime = Adaptor>"));
}

/// The adaptor sits beneath the descriptor, at run time and in the typed
/// forms, as CK Tile's `tensor_descriptor` is built on its
/// `tensor_adaptor`. Each sits with its typed form (`adaptor/typed.rs`,
/// `descriptor/typed/`); what both share, runtime and typed, is in
/// `stage/`, which imports neither; no file of the adaptor imports the
/// descriptor.
#[test]
fn the_adaptor_sits_beneath_the_descriptor() {
    let port = root().join(PORT);
    let files_of = |module: &str| {
        let mut files = Vec::new();
        rust_files(&port.join(module), &mut files);
        files.into_iter().map(|f| (f.display().to_string(), std::fs::read_to_string(&f).unwrap())).collect::<Vec<_>>()
    };
    let names_module = |text: &str, module: &str| crate_paths(text).contains(module);
    for (file, text) in files_of("stage") {
        for above in ["adaptor", "descriptor", "typed"] {
            assert!(!names_module(&text, above), "{file} imports {above}");
        }
    }
    let adaptor = files_of("adaptor");
    assert!(adaptor.iter().any(|(f, _)| f.ends_with("adaptor/typed.rs")), "the typed adaptor sits with the adaptor");
    for (file, text) in adaptor {
        assert!(!names_module(&text, "descriptor"), "{file} imports the descriptor");
        assert!(!names_module(&text, "typed"), "{file} imports the typed API above it");
    }
    let descriptor = files_of("descriptor");
    assert!(
        descriptor.iter().any(|(f, _)| f.ends_with("descriptor/typed/mod.rs")),
        "the typed descriptor sits with it"
    );
    for (file, text) in descriptor {
        assert!(!names_module(&text, "typed"), "{file} imports the typed API above it");
    }
    // The check reads an import, and not a mention in a doc.
    assert!(names_module("use crate::descriptor::tri;", "descriptor"));
    assert!(!names_module("/// see [`Descriptor`](crate::descriptor::Descriptor)", "descriptor"));
}

/// Names that more than one public item of the library may carry, each
/// with one meaning: one error type per crate, and each catalogue family's
/// row and name form, which every family module declares alike.
const SHARED_NAMES: &[(&str, &str)] = &[
    ("Error", "each crate's one error type"),
    ("ErrorKind", "what went wrong in each crate's error type; the analysis' wraps the port's"),
    ("FAMILY", "a catalogue family's row, one per family module"),
    ("NAME_FORM", "the form of a catalogue family's names, one per family module"),
    // cktile-checks (read since 2026-11-27): its GEMM probes' names.
    ("Operand", "a GEMM's operand, A or B: the probes' choice at run time, and wgmma's in matrix_desc"),
    ("OperandPath", "the port's operand path, and cktile-checks' alias of it fixed to the probes' policy"),
];

/// One name, one meaning: no two public types, traits or module-level
/// constants of the workspace's crates share a name, save those of
/// `SHARED_NAMES` (the command line's private argument structs aside).
#[test]
fn no_two_public_items_share_a_name() {
    let mut places: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (src, _) in CRATES {
        let mut files = Vec::new();
        rust_files(&root().join(src), &mut files);
        for file in files.iter().filter(|f| !f.components().any(|c| c.as_os_str() == "bin")) {
            let text = std::fs::read_to_string(file).unwrap();
            for line in code_lines(&text) {
                let item = line.trim_start();
                let at_top = item.len() == line.len();
                let kinds: &[&str] = if at_top {
                    &["struct", "enum", "trait", "type", "const", "static"]
                } else {
                    &["struct", "enum", "trait"]
                };
                for kind in kinds {
                    if let Some(rest) = item.strip_prefix(&format!("pub {kind} ")) {
                        let name = ident(rest);
                        // `pub const fn` and `pub unsafe trait` name no constant.
                        if !name.is_empty() && name != "fn" {
                            let place = file.strip_prefix(root()).unwrap().display().to_string();
                            places.entry(name).or_default().push(place);
                        }
                    }
                }
            }
        }
    }
    let shared: Vec<String> = places
        .iter()
        .filter(|(name, at)| at.len() > 1 && !SHARED_NAMES.iter().any(|(s, _)| s == name))
        .map(|(name, at)| format!("{name}: {}", at.join(", ")))
        .collect();
    assert!(
        shared.is_empty(),
        "public items that share a name (rename one, or write it in SHARED_NAMES):\n{}",
        shared.join("\n")
    );
    assert!(places.len() > 300, "the scan reads the items ({} names)", places.len());
    for (name, _) in SHARED_NAMES {
        assert!(
            places.get(*name).is_some_and(|at| at.len() > 1),
            "{name} is shared no more: drop it from SHARED_NAMES"
        );
    }
}

/// The list of kinds: each `Kind` variant with the module of
/// `transforms/src/kinds/` that holds it, read from `kind_list!`'s rows
/// (`Xor: xor::XorParams,`) in `transforms/src/list.rs`.
fn kind_list() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("transforms/src/list.rs")).unwrap();
    let rows: Vec<(String, String)> = text
        .lines()
        .filter_map(|line| {
            let (kind, path) = line.trim().strip_suffix(',')?.split_once(": ")?;
            let (module, name) = path.split_once("::")?;
            let is_ident = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            let params = format!("{kind}Params");
            (is_ident(kind) && is_ident(module) && name == params).then(|| (kind.to_string(), module.to_string()))
        })
        .collect();
    rows
}

/// Outside the kinds' own modules, the files whose code names one
/// transform kind by its variant (`Kind::Merge`, `Params::Merge`), each for
/// what it does with that kind: a new kind does not touch them.
const KIND_USERS: &[(&str, &str)] = &[
    ("transforms/src/error.rs", "the xor, slice, swizzle and functor errors' messages name their own kinds"),
    ("src/search/mod.rs", "the search counts the items that are not pass_through"),
    ("analysis/src/random/chain.rs", "an empty list of kinds draws pass_through"),
];

/// Whether a code line names one kind by its variant.
fn names_a_variant(line: &str, variants: &[String]) -> bool {
    ["Kind::", "Params::", "Repr::"].iter().any(|prefix| {
        line.match_indices(prefix).any(|(at, _)| {
            let before = line[..at].chars().next_back();
            let word = ident(&line[at + prefix.len()..]);
            !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') && variants.contains(&word)
        })
    })
}

/// What adding a transform touches, held. A kind is its module in
/// `transforms/src/kinds/` (its runtime parameters, formulas and typed
/// form side by side) and its line in `kind_list!` there: every kind
/// module names only its own kinds' variants and holds its typed form, and
/// outside the kinds' modules the library's code names a kind only in the
/// files of `KIND_USERS`; every other consumer
/// (`Transform`'s methods, the table, the parser, `Display`, the messages,
/// the palette, the random chains, the emitter, the interval analysis, the
/// compiled programs) dispatches over the list or reads the row or the
/// lowering. `scripts/scratch-kind.sh` adds a kind that way and runs it.
#[test]
fn a_kind_is_named_only_where_a_new_kind_is_written() {
    let list = kind_list();
    let variants: Vec<String> = cktile_transforms::Kind::ALL.iter().map(|k| format!("{k:?}")).collect();
    assert_eq!(list.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>(), variants, "kind_list! is Kind::ALL");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in [
        "core/src",
        "analysis/src",
        "src",
        "transforms/src",
        "checks/src",
        "python/src",
        "wasm/src",
        "perf/kernels/src",
    ] {
        if root.join(dir).is_dir() {
            rust_files(&root.join(dir), &mut files);
        }
    }
    let mut naming = BTreeSet::new();
    for file in &files {
        let rel = file.strip_prefix(root).unwrap().to_str().unwrap().to_string();
        let text = std::fs::read_to_string(file).unwrap();
        if let Some(module) = rel.strip_prefix("transforms/src/kinds/").and_then(|m| m.strip_suffix(".rs")) {
            if module == "mod" {
                continue;
            }
            let own: Vec<String> = list.iter().filter(|(_, m)| m == module).map(|(k, _)| k.clone()).collect();
            if !own.is_empty() {
                assert!(text.contains("\npub mod typed {"), "{rel} holds no typed form beside its parameters");
            }
            let others: Vec<String> = variants.iter().filter(|v| !own.contains(v)).cloned().collect();
            for line in code_lines(&text) {
                assert!(!names_a_variant(line, &others), "{rel} names another module's kind in: {line}");
            }
            continue;
        }
        if code_lines(&text).any(|line| names_a_variant(line, &variants)) {
            naming.insert(rel);
        }
    }
    let expected: BTreeSet<String> = KIND_USERS.iter().map(|(f, _)| f.to_string()).collect();
    assert_eq!(naming, expected, "the files that name a transform kind by its variant");
    // The check reads what naming a kind looks like, and what does not.
    let v = &variants;
    assert!(names_a_variant("            Repr::Merge { lengths } => {", v));
    assert!(names_a_variant("    Kind::Pad | Kind::LeftPad => 1,", v));
    assert!(!names_a_variant("    let all = Kind::ALL;", v));
    assert!(!names_a_variant("    MyKind::Merge => 1,", v));
}

/// The layers as the architecture chapter draws them, top first: the
/// command line, then `LAYERS` from the highest (the transforms crate's
/// last), each row with its crate.
fn drawing() -> String {
    let crate_of = |m: &str| CRATES.iter().find(|(s, _)| m.starts_with(&format!("{s}/"))).unwrap().1;
    let mut rows: Vec<[String; 3]> = vec![["cktile".into(), "command line".into(), "bin/cktile".into()]];
    for (name, modules) in LAYERS.iter().rev() {
        // The crate's column names the folder: each module by its own name.
        let names: Vec<&str> = modules.iter().map(|m| m.rsplit('/').next().unwrap()).collect();
        rows.push([crate_of(modules[0]).into(), name.to_string(), names.join(", ")]);
    }
    let widths: Vec<usize> = (0..3).map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap() + 2).collect();
    let rule = |l: char, m: char, r: char| {
        let cells: Vec<String> = widths.iter().map(|w| "─".repeat(*w)).collect();
        format!("{l}{}{r}\n", cells.join(&m.to_string()))
    };
    let mut out = rule('┌', '┬', '┐');
    for (i, row) in rows.iter().enumerate() {
        if i > 0 {
            // A heavier rule where the crate changes.
            out += &if row[0] != rows[i - 1][0] {
                rule('╞', '╪', '╡').replace('─', "═")
            } else {
                rule('├', '┼', '┤')
            };
        }
        let cells: Vec<String> = row.iter().zip(&widths).map(|(t, w)| format!(" {t:<a$} ", a = w - 2)).collect();
        out += &format!("│{}│\n", cells.join("│"));
    }
    out + &rule('└', '┴', '┘')
}

/// The architecture chapter draws the layers as this test holds them:
/// its drawing is the one `LAYERS` gives, row for row.
#[test]
fn the_chapter_draws_the_layers_as_they_are() {
    let chapter =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/architecture.md")).unwrap();
    let drawn = drawing();
    assert!(
        chapter.contains(&format!("```text\n{drawn}```\n")),
        "docs/src/architecture.md should draw the layers as tests/layering.rs holds them:\n{drawn}"
    );
}

/// The `[dependencies]` of a manifest (relative to the repository root):
/// each dependency's name as the manifest writes it.
fn dependencies(manifest: &str) -> BTreeSet<String> {
    let text = std::fs::read_to_string(root().join(manifest)).unwrap();
    let mut names = BTreeSet::new();
    let mut inside = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == "[dependencies]";
        } else if inside && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.']).next().unwrap().trim();
            names.insert(name.to_string());
        }
    }
    names
}

/// The port stands alone: its layers are all below the analysis' and the
/// tools' (so no import from them can be written down as allowed), its
/// manifest names no crate above it, and its code no `cktile::` or
/// `cktile_analysis::` path. The proof kernels depend on the port and the
/// compile-time checks, which add the analysis (its bank model); none on
/// the tools.
#[test]
fn the_port_depends_on_no_tool() {
    let in_port = |m: &str| m.starts_with(&format!("{PORT}/"));
    let last_port = LAYERS.iter().rposition(|(_, ms)| ms.iter().all(|m| in_port(m))).unwrap();
    let first_above =
        LAYERS.iter().position(|(_, ms)| ms.iter().all(|m| m.starts_with(&format!("{ANALYSIS}/")))).unwrap();
    let first_tool = LAYERS.iter().position(|(_, ms)| ms.iter().all(|m| m.starts_with(&format!("{TOOLS}/")))).unwrap();
    let last_analysis =
        LAYERS.iter().rposition(|(_, ms)| ms.iter().all(|m| m.starts_with(&format!("{ANALYSIS}/")))).unwrap();
    assert!(last_port < first_above, "every layer of the port is below every layer of the analysis");
    assert!(last_analysis < first_tool, "every layer of the analysis is below every layer of the tools");
    assert!(LAYERS.iter().all(|(_, ms)| ms.iter().all(|m| in_port(m)) || ms.iter().all(|m| !in_port(m))));
    let port: BTreeSet<String> =
        ["cktile-transforms", "typenum", "generic-array", "const_panic"].map(String::from).into();
    assert_eq!(dependencies("core/Cargo.toml"), port, "the port's dependencies");
    let analysis: BTreeSet<String> =
        ["cktile-core", "cktile-transforms", "typenum", "generic-array", "const_panic"].map(String::from).into();
    assert_eq!(dependencies("analysis/Cargo.toml"), analysis, "the analysis' dependencies");
    let mut files = Vec::new();
    rust_files(&root().join(PORT), &mut files);
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        // Docs too: the port's doctests build without the crates above it.
        for line in text.lines() {
            for above in ["cktile::", "cktile_analysis::"] {
                let named = line.match_indices(above).any(|(at, _)| {
                    line[..at].chars().next_back().is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'))
                });
                assert!(!named, "{} names a crate above the port: {line}", file.display());
            }
        }
    }
    for kernels in ["perf/kernels/Cargo.toml", "gpu/kernel/Cargo.toml", "checks/Cargo.toml"] {
        let deps = dependencies(kernels);
        assert!(
            deps.contains("cktile-core") && !deps.contains("cktile"),
            "{kernels} depends on the port (and the analysis) alone: {deps:?}"
        );
    }
    let tools = dependencies("Cargo.toml");
    assert_eq!(tools.iter().filter(|d| d.starts_with("cktile")).count(), 3, "the tools' three: {tools:?}");
}

/// The port holds the port only: none of its modules is the analyzer, the
/// hardware tables, the spec language, the layout catalogue, compiled
/// programs, random chains or a text parser; those are the analysis'.
#[test]
fn the_port_holds_the_port_only() {
    let lib = std::fs::read_to_string(root().join(PORT).join("lib.rs")).unwrap();
    let modules: BTreeSet<String> = code_lines(&lib)
        .filter_map(|l| l.trim().strip_prefix("pub mod ")?.strip_suffix(';').map(String::from))
        .collect();
    let expected: BTreeSet<String> =
        ["adaptor", "descriptor", "distribution", "error", "names", "ops", "stage", "tile", "typed"]
            .map(String::from)
            .into();
    assert_eq!(modules, expected, "the port's modules");
    for gone in ["analyzer", "hardware", "layouts", "spec", "random", "comments", "descriptor/program"] {
        assert!(!root().join(PORT).join(gone).exists(), "core/src/{gone} is the analysis'");
        assert!(!root().join(PORT).join(format!("{gone}.rs")).exists(), "core/src/{gone}.rs is the analysis'");
    }
    let mut files = Vec::new();
    rust_files(&root().join(PORT), &mut files);
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for line in code_lines(&text) {
            assert!(!line.contains("fn parse"), "{} parses text: {line}", file.display());
        }
    }
}

/// Each `cktile::` module path names one crate's module: the tools' own
/// modules have names no module of the port or the analysis has (the
/// tools' reports are `cktile::reports`, not a part of
/// `cktile::analyzer`), and no module of the tools glob re-exports a
/// lower crate's module into itself; only the root re-exports the port
/// whole.
#[test]
fn each_module_path_names_one_crate() {
    let modules_of = |dir: &str| -> BTreeSet<String> {
        let lib = std::fs::read_to_string(root().join(dir).join("lib.rs")).unwrap();
        code_lines(&lib)
            .filter_map(|l| l.trim().strip_prefix("pub mod ")?.strip_suffix(';').map(String::from))
            .collect()
    };
    let tools = modules_of(TOOLS);
    assert!(tools.contains("reports") && tools.contains("lanes"), "the tools' modules are read: {tools:?}");
    for (lower, name) in [(PORT, "the port"), (ANALYSIS, "the analysis")] {
        let theirs = modules_of(lower);
        assert!(theirs.contains("descriptor") || theirs.contains("analyzer"), "{name}'s modules are read");
        let shared: Vec<_> = tools.intersection(&theirs).collect();
        assert!(shared.is_empty(), "the tools' modules {shared:?} merge into {name}'s modules of the same name");
    }
    let mut files = Vec::new();
    rust_files(&root().join(TOOLS), &mut files);
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for line in code_lines(&text) {
            let line = line.trim();
            let glob = line.starts_with("pub use cktile_") && line.ends_with("::*;");
            let root_of_port = file.ends_with("src/lib.rs") && line == "pub use cktile_core::*;";
            assert!(!glob || root_of_port, "{}: `{line}` merges a lower crate's module into this one", file.display());
        }
    }
}
