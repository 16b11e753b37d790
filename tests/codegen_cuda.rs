//! Generated CUDA / HIP code, compiled as host C++ and compared with the
//! Rust descriptor on every coordinate.
//!
//! For every catalogue entry (its example and a few more parameterizations),
//! a list of edge-case specs (every transform kind, padding below merges and
//! xors, negative intermediate values, 64-bit element spaces, rank 0) and a
//! seeded set of the suite's random chains (`cktile::random::chain`, every
//! transform kind), the test generates the code in both languages, writes
//! each to a header, and compiles one driver with
//! `g++ -std=c++17 -O1 -Wall -Wextra -Werror` with `__device__` defined away
//! and `__forceinline__` defined as `inline`. The driver prints, for every
//! top coordinate in row-major order, the offset (and the validity when
//! `NAME_is_valid` exists), and for every offset of the element space the
//! coordinate `NAME_coordinate` gives (when it exists). Every printed value
//! must equal the descriptor's `calculate_offset`,
//! `coordinate_has_valid_offset` and `calculate_top_index`.
//!
//! Without `g++` the test fails (CI has it): a skipped round trip would
//! prove nothing.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::codegen::{self, Generated, IndexType, InverseStatus, Lang, Options};
use cktile::random::chain::{ChainConfig, chain as random_chain};
use cktile::transforms::Kind;
use cktile::{Descriptor, layouts};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One descriptor under test.
struct Case {
    /// What it is (the spec or entry text).
    label: String,
    desc: Descriptor,
    /// The catalogue entry text, if any.
    entry: Option<String>,
}

fn case_from_text(text: &str) -> Case {
    let desc = layouts::resolve(text).unwrap_or_else(|e| panic!("`{text}` does not build: {e}"));
    Case { label: text.to_string(), desc, entry: codegen::entry_text(text).map(str::to_string) }
}

/// Layouts beyond the catalogue's examples (other forms and majors, and
/// hand-written edge cases: every transform kind, padding feeding divisions,
/// xors and swizzles, 64-bit spaces, rank 0), one per line; gpu/codegen.py
/// runs the same list on an NVIDIA GPU.
const SPECS: &str = include_str!("data/codegen_specs.txt");

fn listed_specs() -> impl Iterator<Item = &'static str> {
    SPECS.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'))
}

fn all_cases() -> Vec<Case> {
    let mut cases: Vec<Case> = layouts::CATALOGUE.iter().map(|e| case_from_text(e.example)).collect();
    cases.extend(listed_specs().map(case_from_text));
    // The suite's random chains (every transform kind), from fixed seeds so
    // that a failure names a reproducible case.
    let config = ChainConfig::default().with_max_elements(4096);
    for random in 0..60u64 {
        let seed = 0x9E37_79B9_7F4A_7C15u64.wrapping_add(random);
        let desc = random_chain(seed, &config);
        // Every random descriptor must also round-trip through its spec text.
        let text = desc.to_string();
        assert_eq!(cktile::spec::parse(&text).as_ref(), Ok(&desc), "{text}");
        cases.push(Case { label: format!("random {random} (seed {seed:#x}): {text}"), desc, entry: None });
    }
    cases
}

/// The C++ loop nest of a driver: `body` runs once per coordinate `i0, i1, ..`.
fn loops(out: &mut String, lengths: &[i64], ty: &str, body: &str) {
    for (d, len) in lengths.iter().enumerate() {
        let _ = writeln!(out, "  for ({ty} i{d} = 0; i{d} < {len}; ++i{d})");
    }
    let _ = writeln!(out, "  {{ {body} }}");
}

/// The driver part of one generated header: prints `case K LANG`, then one
/// line per coordinate (offset, and validity), then one line per offset (the
/// coordinate) when the inverse exists.
fn driver_part(k: usize, lang: Lang, g: &Generated, desc: &Descriptor) -> String {
    let ty = g.index_type.c_name();
    let name = &g.name;
    let n = desc.num_dims();
    let args: Vec<String> = (0..n).map(|d| format!("i{d}")).collect();
    let args = args.join(", ");
    let mut f = String::new();
    let _ = writeln!(f, "static void run_{k}_{}() {{", lang.name());
    let _ = writeln!(f, "  std::printf(\"case {k} {}\\n\");", lang.name());
    let body = if g.has_validity {
        format!("std::printf(\"%lld %d\\n\", (long long){name}_offset({args}), (int){name}_is_valid({args}));")
    } else {
        format!("std::printf(\"%lld\\n\", (long long){name}_offset({args}));")
    };
    loops(&mut f, desc.lengths().as_slice(), ty, &body);
    if g.has_inverse() {
        let outs: Vec<String> = (0..n).map(|d| format!("o{d}")).collect();
        let decl = if n > 0 {
            format!("{ty} {} ;", outs.iter().map(|o| format!("{o} = -1")).collect::<Vec<_>>().join(", "))
        } else {
            String::new()
        };
        let call = format!("{name}_coordinate(off{});", outs.iter().map(|o| format!(", {o}")).collect::<String>());
        let fmt: Vec<&str> = (0..n).map(|_| "%lld").collect();
        let vals: String = outs.iter().map(|o| format!(", (long long){o}")).collect();
        let _ = writeln!(
            f,
            "  for ({ty} off = 0; off < {name}_element_space_size; ++off) {{ {decl} {call} std::printf(\"inv {}\\n\"{vals}); }}",
            fmt.join(" ")
        );
    }
    let _ = writeln!(f, "}}");
    f
}

/// Finds g++ or fails with a clear message.
fn gxx() -> String {
    let cxx = std::env::var("CKTILE_CXX").unwrap_or_else(|_| "g++".into());
    match Command::new(&cxx).arg("--version").output() {
        Ok(o) if o.status.success() => cxx,
        _ => panic!(
            "`{cxx}` was not found: the codegen round-trip test compiles the generated CUDA/HIP code as host C++ \
             with g++ (install it, e.g. `apt-get install g++`, or point CKTILE_CXX at a C++17 compiler)"
        ),
    }
}

fn scratch_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("codegen_cuda");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// Compiles `main.cpp` in `dir` and runs it, returning stdout.
fn compile_and_run(dir: &Path) -> String {
    let cxx = gxx();
    let exe = dir.join("driver");
    let o = Command::new(&cxx)
        .args(["-std=c++17", "-O1", "-Wall", "-Wextra", "-Werror", "-D__device__=", "-D__forceinline__=inline"])
        .arg("-o")
        .arg(&exe)
        .arg(dir.join("main.cpp"))
        .output()
        .expect("the compiler runs");
    assert!(o.status.success(), "{cxx} failed on the generated code:\n{}", String::from_utf8_lossy(&o.stderr));
    let run = Command::new(&exe).output().expect("the driver runs");
    assert!(run.status.success(), "the driver failed: {}", String::from_utf8_lossy(&run.stderr));
    String::from_utf8(run.stdout).expect("ASCII output")
}

/// What the driver must print for one case, computed by the Rust descriptor.
fn expected_lines(g: &Generated, desc: &Descriptor) -> Vec<String> {
    let o = cktile::check::offsets(desc).expect("enumerable");
    let mut out: Vec<String> = o
        .offsets
        .iter()
        .zip(&o.valid)
        .map(|(off, v)| if g.has_validity { format!("{off} {}", i32::from(*v)) } else { off.to_string() })
        .collect();
    if g.has_inverse() {
        for off in 0..desc.element_space_size() {
            let top = desc.calculate_top_index(off).expect("a bijection has every offset's coordinate");
            let vals: Vec<String> = top.as_slice().iter().map(|v| v.to_string()).collect();
            out.push(format!("inv {}", vals.join(" ")).trim_end().to_string());
        }
    }
    out
}

#[test]
fn generated_code_matches_the_descriptor_on_every_coordinate() {
    let cases = all_cases();
    let dir = scratch_dir();
    let mut main = String::from("#include <cstdio>\n");
    let mut runs = String::new();
    let mut generated: Vec<(Generated, Generated)> = Vec::new();
    for (k, case) in cases.iter().enumerate() {
        let mut pair = Vec::new();
        for lang in [Lang::Cuda, Lang::Hip] {
            let mut options = Options::new(lang, &format!("case{k}_{}", lang.name()));
            if let Some(e) = &case.entry {
                options = options.with_entry(e);
            }
            let g = codegen::generate(&case.desc, &options).unwrap_or_else(|e| panic!("{}: {e}", case.label));
            let header = format!("case{k}_{}.h", lang.name());
            std::fs::write(dir.join(&header), &g.code).expect("write header");
            let _ = writeln!(main, "#include \"{header}\"");
            main.push_str(&driver_part(k, lang, &g, &case.desc));
            let _ = writeln!(runs, "  run_{k}_{}();", lang.name());
            pair.push(g);
        }
        let hip = pair.pop().expect("two languages");
        let cuda = pair.pop().expect("two languages");
        generated.push((cuda, hip));
    }
    let _ = writeln!(main, "int main() {{\n{runs}  return 0;\n}}");
    std::fs::write(dir.join("main.cpp"), &main).expect("write driver");
    let stdout = compile_and_run(&dir);

    // Split the output by case and compare line by line.
    let mut sections: Vec<(String, Vec<&str>)> = Vec::new();
    for line in stdout.lines() {
        if let Some(head) = line.strip_prefix("case ") {
            sections.push((head.to_string(), Vec::new()));
        } else if let Some(last) = sections.last_mut() {
            last.1.push(line);
        }
    }
    assert_eq!(sections.len(), 2 * cases.len(), "one section per case and language");
    let mut checked_coordinates = 0usize;
    let mut checked_offsets = 0usize;
    for (k, case) in cases.iter().enumerate() {
        for (li, lang) in [Lang::Cuda, Lang::Hip].iter().enumerate() {
            let (head, lines) = &sections[2 * k + li];
            assert_eq!(head, &format!("{k} {}", lang.name()));
            let g = if li == 0 { &generated[k].0 } else { &generated[k].1 };
            let expected = expected_lines(g, &case.desc);
            assert_eq!(
                lines.len(),
                expected.len(),
                "{}: {} lines printed, {} expected",
                case.label,
                lines.len(),
                expected.len()
            );
            let n_coords = case.desc.element_size().expect("small") as usize;
            for (i, (got, want)) in lines.iter().zip(&expected).enumerate() {
                let what = if i < n_coords {
                    format!("coordinate {:?}", cktile::check::coordinate(&case.desc, i as u64))
                } else {
                    format!("offset {}", i - n_coords)
                };
                assert_eq!(got.trim_end(), want, "{} ({}): {what}\n{}", case.label, lang.name(), g.code);
            }
            checked_coordinates += n_coords;
            checked_offsets += expected.len() - n_coords;
        }
    }
    // The test must exercise what it claims to.
    assert!(checked_coordinates > 100_000 && checked_offsets > 50_000, "{checked_coordinates} {checked_offsets}");
    let kinds: BTreeSet<&str> =
        cases.iter().flat_map(|c| c.desc.adaptor().items().iter().map(|i| i.transform().kind().name())).collect();
    for kind in Kind::ALL {
        assert!(kinds.contains(kind.name()), "no case uses {}", kind.name());
    }
    let count = |f: &dyn Fn(&Generated) -> bool| generated.iter().filter(|(g, _)| f(g)).count();
    assert!(count(&|g| g.has_inverse()) >= 30, "too few inverses exercised");
    assert!(count(&|g| g.has_validity) >= 10, "too few validity functions exercised");
    assert!(count(&|g| g.index_type == IndexType::I64) >= 3, "too few 64-bit cases");
    assert!(count(&|g| g.range.low < 0) >= 5, "too few cases with negative values");
    // Every catalogue example that is a bijection gets its inverse.
    for (e, (g, _)) in layouts::CATALOGUE.iter().zip(&generated) {
        assert_eq!(g.has_inverse(), e.bijective, "{}: {:?}", e.name, g.inverse);
    }
}

#[test]
fn cuda_and_hip_differ_only_in_the_header() {
    let d = layouts::resolve("ck-universal-a:m=128,k=32").unwrap();
    let cuda = codegen::generate(&d, &Options::new(Lang::Cuda, "a")).unwrap().code;
    let hip = codegen::generate(&d, &Options::new(Lang::Hip, "a")).unwrap().code;
    let body = |s: &str| s.split_once("#include <cstdint>").map(|(_, b)| b.to_string()).unwrap();
    assert_eq!(body(&cuda), body(&hip));
    assert!(hip.contains("#if defined(__HIPCC__)\n#include <hip/hip_runtime.h>\n#endif\n"));
    assert!(!cuda.contains("hip_runtime"));
    assert!(cuda.contains("(`cktile codegen --lang cuda`)") && hip.contains("(`cktile codegen --lang hip`)"));
}

#[test]
fn the_code_is_straight_line_with_the_shapes_folded_in() {
    let g = codegen::generate_text("ck-xor-preshuffle:m=128,k=64,kpack=8", Lang::Cuda, Some("x")).unwrap();
    let offset_fn: String = g
        .code
        .split("std::int32_t x_offset(")
        .nth(1)
        .unwrap()
        .split("\n}\n")
        .next()
        .unwrap()
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    for banned in ["for", "while", "if", "?", "[", "goto"] {
        assert!(!offset_fn.contains(banned), "`{banned}` in\n{offset_fn}");
    }
    // No parameter or length variable survives: only literals.
    assert!(!offset_fn.contains("length"));
    assert!(g.code.contains("// Catalogue entry: ck-xor-preshuffle:m=128,k=64,kpack=8"));
    assert!(g.code.contains("// Spec:\n//   "));
    assert!(g.code.contains("// Integer type: std::int32_t."));
}

#[test]
fn errors_name_the_value_and_what_is_valid() {
    let d = Descriptor::packed(&[4, 8]).unwrap();
    let e = codegen::generate(&d, &Options::new(Lang::Cuda, "my-layout")).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "`my-layout` cannot name the generated functions: it contains '-', which is not an ASCII letter, digit \
             or `_`; expected {}",
            codegen::IDENT_RULE
        )
    );
    let e = Lang::by_name("metal").unwrap_err();
    assert_eq!(e.to_string(), "unknown name `metal`; expected one of: cuda, hip");
    // The reason an inverse is missing is spelled out in the code.
    let g =
        codegen::generate(&layouts::resolve("row-padded:rows=4,cols=4,pad=1").unwrap(), &Options::new(Lang::Cuda, "r"))
            .unwrap();
    assert_eq!(g.inverse, InverseStatus::NotBijective { holes: 3, collisions: 0, outside: 0 });
    assert!(g.code.contains("// No inverse: the layout is not a bijection onto its element space (3 holes"));
}

/// Text quoted in comments cannot break the header: a multi-line entry read
/// from a file, entries passed to `Options::with_entry` holding newlines,
/// carriage returns, `*/`, `/*`, trailing backslashes, control and
/// non-ASCII characters (fixed ones and a seeded random set), and a spec
/// whose file has comments: every header compiles with
/// `g++ -Wall -Wextra -Werror`, every line of its leading comment is one `//`
/// line, and the functions give the descriptor's offsets.
#[test]
fn quoted_text_in_comments_always_compiles() {
    let d = layouts::resolve("row-padded:rows=4,cols=4,pad=1").unwrap();
    let mut entries: Vec<String> = vec![
        "row-padded:\n  rows=4,\n  cols=4,\n  pad=1\n".into(),
        "x\n#error injected\nint y = ;".into(),
        "ends with a backslash \\".into(),
        "backslash then spaces \\   \n#error continued".into(),
        "a */ b /* c".into(),
        "tab\tcr\rvt\x0bff\x0cnul\0bell\x07 é ü 中".into(),
        "??/".into(),
        "".into(),
    ];
    let alphabet: Vec<char> = "ab=,:\n\r\t\\/*#\"'?é\0\x0b\x0c ".chars().collect();
    let mut rng = cktile::random::Rng::new(0x5eed);
    for _ in 0..40 {
        let len = rng.index(30);
        entries.push((0..len).map(|_| rng.pick(&alphabet).copied().unwrap_or('a')).collect());
    }
    let dir = scratch_dir().join("comments");
    std::fs::create_dir_all(&dir).unwrap();
    let mut main = String::from("#include <cstdio>\n");
    for (k, entry) in entries.iter().enumerate() {
        let name = format!("c{k}");
        let g = codegen::generate(&d, &Options::new(Lang::Cuda, &name).with_entry(entry)).unwrap();
        let header = g.code.split("#pragma once").next().unwrap();
        for line in header.lines() {
            assert!(line.starts_with("// "), "{entry:?}: comment line {line:?}");
            assert!(line.chars().all(|c| c.is_ascii_graphic() || c == ' '), "{entry:?}: {line:?}");
            assert!(!line.trim_end().ends_with('\\'), "{entry:?}: {line:?}");
        }
        std::fs::write(dir.join(format!("{name}.cuh")), &g.code).unwrap();
        main.push_str(&format!("#include \"{name}.cuh\"\n"));
    }
    // The multi-line entry through the text path (as `cktile codegen @file` reads it).
    let from_file = codegen::generate_text("row-padded:\n  rows=4,\n  cols=4,\n  pad=1\n", Lang::Hip, None).unwrap();
    assert!(from_file.code.contains("// Catalogue entry: row-padded: rows=4, cols=4, pad=1\n"));
    std::fs::write(dir.join("from_file.cuh"), &from_file.code).unwrap();
    main.push_str("#include \"from_file.cuh\"\n");
    let spec = codegen::generate_text(
        "# a comment with */ and \\\nnaive((4,4),(5,1)) # trailing /* comment\n",
        Lang::Cuda,
        Some("spec_text"),
    )
    .unwrap();
    std::fs::write(dir.join("spec_text.cuh"), &spec.code).unwrap();
    main.push_str("#include \"spec_text.cuh\"\nint main() {\n");
    for k in 0..entries.len() {
        main.push_str(&format!("  std::printf(\"%d\\n\", (int)c{k}_offset(3, 2));\n"));
    }
    main.push_str("  std::printf(\"%d\\n%d\\n\", (int)row_padded_offset(3, 2), (int)spec_text_offset(3, 2));\n}\n");
    std::fs::write(dir.join("main.cpp"), main).unwrap();
    let out = compile_and_run(&dir);
    let want = d.calculate_offset(&[3, 2]).to_string();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), entries.len() + 2);
    assert!(lines.iter().all(|l| *l == want), "{out}");
}

/// `cktile matrix-desc --cxx`'s constants compile as C++17, and the
/// descriptor a kernel forms from them (the constant, OR the start address
/// of each instruction shifted right by 4) is the library's, bit for bit.
#[test]
fn matrix_descriptor_constants_compile_and_give_the_librarys_descriptors() {
    use cktile::matrix_desc::{Readability, Request, Target, judge};
    let cases = [
        ("triton-nvmma:swizzle=128,bits=16,rows=128", 2, Target::Sm90),
        ("ck-universal-a:m=128,k=64", 2, Target::Sm100),
        ("triton-nvmma:swizzle=32,bits=8,rows=64", 1, Target::Sm90),
        ("triton-nvmma:swizzle=64,bits=32,transposed=true,rows=64", 4, Target::Sm100),
    ];
    let dir = scratch_dir().join("matrix_desc");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let mut code = String::from("#include <cstdint>\n#include <cstdio>\n");
    let mut main = String::from("int main() {\n");
    let mut want = String::new();
    for (i, (text, e, target)) in cases.iter().enumerate() {
        let d = cktile::layouts::resolve(text).unwrap();
        let req = Request { operand: cktile::matrix_desc::Operand::B, ..Request::new(&d, *e, *target) };
        let Readability::Readable(r) = judge(&req).unwrap() else { panic!("{text} refused") };
        let name = format!("kDesc{i}");
        code += &cktile::codegen::matrix_desc::constants(&r, &name).unwrap();
        code.push('\n');
        main += &format!(
            "  for (auto s : {name}Starts) std::printf(\"%llx\\n\", (unsigned long long)({name} | ((s >> 4) & 0x3FFF)));\n"
        );
        for j in 0..r.starts.len() {
            want += &format!("{:x}\n", r.descriptor(j).unwrap());
        }
    }
    main += "  return 0;\n}\n";
    std::fs::write(dir.join("main.cpp"), code + &main).expect("main.cpp");
    assert_eq!(compile_and_run(&dir), want);
}

/// `cktile tma --cxx`'s constants compile as C++17 and hold the map's
/// fields, innermost first, and every copy's origin and offset.
#[test]
fn tensor_map_constants_compile_and_hold_the_maps_fields() {
    use cktile::tma::{TmaRequest, TmaVerdict, judge};
    let split = "packed(16384) | transform(swizzle(3,3,3) on [0] -> [0]) | transform(unmerge((2,16,8,64)) on [0] -> \
                 [0,1,2,3]) | transform(merge((16,8)) on [1,2] -> [0], merge((2,64)) on [0,3] -> [1])";
    let dir = scratch_dir().join("tma");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let mut code = String::from("#include <cstdint>\n#include <cstdio>\n");
    let mut main = String::from("int main() {\n");
    let mut want = String::new();
    for (i, text) in ["triton-nvmma:swizzle=64,bits=16,rows=64", split].iter().enumerate() {
        let d = cktile::layouts::resolve(text).unwrap();
        let req = TmaRequest::new(&d, 2, vec![4096, 1], cktile::matrix_desc::Target::Sm90);
        let TmaVerdict::Writes(m) = judge(&req).unwrap() else { panic!("{text} refused") };
        let name = format!("kMap{i}");
        code += &cktile::codegen::tma::constants(&m, &name).unwrap();
        code.push('\n');
        for array in ["GlobalDim", "GlobalStrides", "BoxDim", "ElementStrides", "CopyOffset"] {
            main += &format!("  for (auto x : {name}{array}) std::printf(\"%llu \", (unsigned long long)x);\n");
        }
        main += &format!("  for (auto& o : {name}CopyOrigin) for (auto x : o) std::printf(\"%u \", x);\n");
        main += "  std::printf(\"\\n\");\n";
        let mut line = String::new();
        for x in m.global_dim.iter().chain(&m.global_strides_bytes) {
            line += &format!("{x} ");
        }
        for x in m.box_dim.iter().chain(&m.element_strides) {
            line += &format!("{x} ");
        }
        for (_, offset) in &m.copies {
            line += &format!("{offset} ");
        }
        for (origin, _) in &m.copies {
            for &d in &m.dims {
                line += &format!("{} ", origin[d]);
            }
        }
        want += &line;
        want.push('\n');
    }
    main += "  return 0;\n}\n";
    std::fs::write(dir.join("main.cpp"), code + &main).expect("main.cpp");
    assert_eq!(compile_and_run(&dir), want);
}
