//! Compile-cost generator: writes a crate that instantiates every catalogue
//! entry statically plus `N` random static compositions, or one with `P`
//! compile-time bank checks.
//!
//! `gencost compositions <N> <dir>`: every catalogue family as a `const`
//! descriptor with a `StaticDescriptor` offset function, and `N` random
//! chains, each twice: as a `const` [`Descriptor`] built by the `const fn`
//! API (with a compile-time offset) and through the typed API (CK Tile's
//! `make_*` calls with `Number` lengths) in a function that computes a
//! runtime offset, so `cargo build` generates its code.
//!
//! `gencost checks <P> <dir>`: the catalogue constants plus `P` compile-time
//! bank checks, one per (layout, pattern) pair: `assert_conflict_free!`
//! where the pair is conflict-free, otherwise a `const` evaluation of the
//! same `analyze_tile` (the work `assert_conflict_free!` does before it
//! decides).
//!
//! The chains are random but reproducible (a fixed seed); each is validated
//! with the runtime API before it is written.

use cktile::analyzer::{Pattern, analyze_tile, arch};
use cktile::{Descriptor, Item, Transform};
use std::fmt::Write as _;
use std::path::Path;

/// splitmix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One transform, with how each API spells it.
#[derive(Clone, Debug)]
enum T {
    PassThrough(usize),
    Merge(usize, usize),
    Unmerge(usize, usize),
    Xor(usize, usize),
    Pad(usize, usize, usize),
    Slice(usize, usize, usize),
    Swizzle(u32, u32, i32),
}

impl T {
    fn runtime(&self, len: usize) -> Option<Transform> {
        match *self {
            T::PassThrough(l) => Transform::pass_through(l),
            T::Merge(a, b) => Transform::merge(&[a, b]),
            T::Unmerge(a, b) => Transform::unmerge(&[a, b]),
            T::Xor(a, b) => Transform::xor(a, b),
            T::Pad(l, a, b) => Transform::pad(l, a, b),
            T::Slice(l, a, b) => Transform::slice(l, a, b),
            T::Swizzle(b, m, s) => Transform::swizzle_with_len(len, b, m, s),
        }
        .ok()
    }

    fn const_api(&self) -> String {
        match *self {
            T::PassThrough(l) => format!("Transform::pass_through({l})"),
            T::Merge(a, b) => format!("Transform::merge(&[{a}, {b}])"),
            T::Unmerge(a, b) => format!("Transform::unmerge(&[{a}, {b}])"),
            T::Xor(a, b) => format!("Transform::xor({a}, {b})"),
            T::Pad(l, a, b) => format!("Transform::pad({l}, {a}, {b})"),
            T::Slice(l, a, b) => format!("Transform::slice({l}, {a}, {b})"),
            T::Swizzle(b, m, s) => format!("Transform::swizzle({b}, {m}, {s})"),
        }
    }

    fn typed_api(&self) -> String {
        let n = |v: usize| format!("Number::<{v}>");
        match *self {
            T::PassThrough(l) => format!("make_pass_through_transform({})", n(l)),
            T::Merge(a, b) => format!("make_merge_transform(({}, {}))", n(a), n(b)),
            T::Unmerge(a, b) => format!("make_unmerge_transform(({}, {}))", n(a), n(b)),
            T::Xor(a, b) => format!("make_xor_transform(({}, {}))", n(a), n(b)),
            T::Pad(l, a, b) => format!("make_pad_transform({}, {}, {})", n(l), n(a), n(b)),
            T::Slice(l, a, b) => format!("make_slice_transform({}, {}, {})", n(l), n(a), n(b)),
            T::Swizzle(b, m, s) => format!("make_swizzle_transform::<{b}, {m}, {s}>()"),
        }
    }

    fn num_upper(&self) -> usize {
        match self {
            T::Unmerge(..) | T::Xor(..) => 2,
            _ => 1,
        }
    }
}

/// A stage: `(transform, lower ids, upper ids)` per item.
type StageSpec = Vec<(T, Vec<usize>, Vec<usize>)>;

/// A chain: a naive base (lengths, strides) and its stages.
struct Chain {
    lengths: Vec<usize>,
    strides: Vec<usize>,
    stages: Vec<StageSpec>,
}

fn random_stage(lens: &[usize], rng: &mut Rng) -> StageSpec {
    let mut free: Vec<usize> = (0..lens.len()).collect();
    let mut planned = Vec::new();
    let mut n_upper = 0;
    while !free.is_empty() {
        let a = free.remove(rng.below(free.len()));
        let la = lens[a];
        let pow2: Vec<usize> = free.iter().copied().filter(|&b| lens[b].is_power_of_two()).collect();
        let (t, lower) = match rng.below(7) {
            0 if !free.is_empty() && lens.len() > 1 => {
                let b = free.remove(rng.below(free.len()));
                (T::Merge(la, lens[b]), vec![a, b])
            }
            1 if n_upper + free.len() + 2 <= 4 && (2..la).any(|p| la % p == 0) => {
                let divs: Vec<usize> = (2..la).filter(|p| la % p == 0).collect();
                let p = divs[rng.below(divs.len())];
                (T::Unmerge(p, la / p), vec![a])
            }
            2 if !pow2.is_empty() => {
                let b = pow2[rng.below(pow2.len())];
                free.retain(|&d| d != b);
                (T::Xor(la, lens[b]), vec![a, b])
            }
            3 => (T::Pad(la, rng.below(3), rng.below(3)), vec![a]),
            4 => {
                let begin = rng.below(la);
                (T::Slice(la, begin, begin + 1 + rng.below(la - begin)), vec![a])
            }
            5 if la.is_power_of_two() && la >= 8 => {
                let bits = la.trailing_zeros();
                let b = 1 + rng.below((bits / 2) as usize) as u32;
                let m = rng.below((bits - 2 * b + 1) as usize) as u32;
                (T::Swizzle(b, m, b as i32), vec![a])
            }
            _ => (T::PassThrough(la), vec![a]),
        };
        n_upper += t.num_upper();
        planned.push((t, lower));
    }
    let mut ids: Vec<usize> = (0..n_upper).collect();
    for i in (1..ids.len()).rev() {
        ids.swap(i, rng.below(i + 1));
    }
    let mut next = 0;
    planned
        .into_iter()
        .map(|(t, lower)| {
            let upper = ids[next..next + t.num_upper()].to_vec();
            next += t.num_upper();
            (t, lower, upper)
        })
        .collect()
}

/// Builds a chain with the runtime API; `None` if any step is invalid.
fn build(chain: &Chain) -> Option<Descriptor> {
    let mut d = Descriptor::naive(&chain.lengths, &chain.strides).ok()?;
    for stage in &chain.stages {
        let lens = d.lengths();
        let mut items = Vec::new();
        for (t, lower, upper) in stage {
            let t = t.runtime(lens.get(lower[0]) as usize)?;
            items.push(Item::new(t, lower, upper).ok()?);
        }
        d = d.transform(&items).ok()?;
    }
    Some(d)
}

fn random_chain(rng: &mut Rng) -> (Chain, Descriptor) {
    loop {
        let pick = |rng: &mut Rng| [2, 4, 8, 16, 32, 64][rng.below(6)];
        let n = 2 + rng.below(2);
        let lengths: Vec<usize> = (0..n).map(|_| pick(rng)).collect();
        // Row-major strides with a random padding of the second-to-last one.
        let mut strides = vec![1; n];
        for i in (0..n - 1).rev() {
            strides[i] = strides[i + 1] * lengths[i + 1] + if i == n - 2 { rng.below(3) * 4 } else { 0 };
        }
        let mut chain = Chain { lengths, strides, stages: Vec::new() };
        let Some(mut d) = build(&chain) else { continue };
        for _ in 0..1 + rng.below(3) {
            let lens: Vec<usize> = d.lengths().as_slice().iter().map(|&l| l as usize).collect();
            let stage = random_stage(&lens, rng);
            chain.stages.push(stage);
            match build(&chain) {
                Some(next) => d = next,
                None => {
                    chain.stages.pop();
                }
            }
        }
        return (chain, d);
    }
}

fn ids(v: &[usize]) -> String {
    let inner: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    format!("ids![{}]", inner.join(", "))
}

fn tuple(parts: &[String]) -> String {
    if parts.len() == 1 { format!("({},)", parts[0]) } else { format!("({})", parts.join(", ")) }
}

fn write_chain(out: &mut String, i: usize, chain: &Chain, d: &Descriptor) {
    let list = |v: &[usize]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ");
    // The const-fn API.
    let _ = writeln!(out, "pub const C{i}: Descriptor = {{");
    let _ =
        writeln!(out, "    let d = ok!(Descriptor::naive(&[{}], &[{}]));", list(&chain.lengths), list(&chain.strides));
    for stage in &chain.stages {
        let items: Vec<String> =
            stage.iter().map(|(t, l, u)| format!("it!({}, &[{}], &[{}])", t.const_api(), list(l), list(u))).collect();
        let _ = writeln!(out, "    let d = ok!(d.transform(&[{}]));", items.join(", "));
    }
    let _ = writeln!(out, "    d\n}};");
    let top: Vec<String> = d.lengths().as_slice().iter().map(|l| (l - 1).to_string()).collect();
    let _ = writeln!(out, "pub const O{i}: i64 = C{i}.calculate_offset(&[{}]);", top.join(", "));
    // The typed API.
    let n = d.num_dims();
    let _ = writeln!(out, "#[inline(never)]\npub fn t{i}(top: [i64; {n}]) -> i64 {{");
    let num = |v: &[usize]| tuple(&v.iter().map(|x| format!("Number::<{x}>")).collect::<Vec<_>>());
    let _ = writeln!(
        out,
        "    let Ok(d) = make_naive_tensor_descriptor({}, {}) else {{ return -1 }};",
        num(&chain.lengths),
        num(&chain.strides)
    );
    for stage in &chain.stages {
        let ts: Vec<String> = stage.iter().map(|(t, _, _)| t.typed_api()).collect();
        let ls: Vec<String> = stage.iter().map(|(_, l, _)| ids(l)).collect();
        let us: Vec<String> = stage.iter().map(|(_, _, u)| ids(u)).collect();
        let _ = writeln!(
            out,
            "    let Ok(d) = transform_tensor_descriptor(d, {}, {}, {}) else {{ return -1 }};",
            tuple(&ts),
            tuple(&ls),
            tuple(&us)
        );
    }
    let _ = writeln!(out, "    d.calculate_offset(top)\n}}");
}

/// The catalogue, one `const` per family (the registry's examples).
const CATALOGUE: &[(&str, &str)] = &[
    ("CK_UNIVERSAL_A", "ck::universal_a(128, 32, 8, 2, 32, ck::UnmergeOrder::Fixed2025)"),
    ("CK_XOR_LDS", "ck::xor_lds(128, 32, 8, 2, ck::UnmergeOrder::Fixed2025)"),
    ("CK_XOR_PRESHUFFLE", "ck::xor_preshuffle(128, 64, 8)"),
    (
        "CK_KFOLD_MPAIR",
        "ck::kfold_mpair(&ck::KfoldParams { m: 128, k: 32, ak1: 8, m0: 32, k_thread_write: 4, m_per_xdl: 32, \
         element_bytes: 2, banks: 32 })",
    ),
    ("CK_V1_PADDED", "ck::v1_padded(128, 32, 8)"),
    ("CK_FMHA_V", "ck::fmha_v(128, 64, 8, 2, 1, ck::FmhaKTile::CK_DEFAULT)"),
    ("CUTE_SWIZZLE", "cute::swizzled_tile(3, 3, 3, 64, 64, cute::Major::Row)"),
    ("CUTE_GMMA", "cute::gmma_atom(cute::Gmma::Sw128, cute::Major::Row, 2)"),
    ("CUTE_TMA", "cute::tma_box(cute::Tma::B128, 64, 2)"),
    ("TRITON_SWIZZLED", "triton::swizzled_shared(8, 1, 8, true, 64, 64)"),
    ("TRITON_NVMMA", "triton::nvmma_shared(128, 16, false, 64)"),
    ("ROW_PADDED", "padding::row_padded(128, 64, 8)"),
    ("XOR_LINEAR", "xor_linear::xor_linear(128, 64, 8, &[1, 2, 4])"),
];

const HEADER: &str = "//! Generated by perf/src/bin/gencost.rs: compile-cost workload.
#![allow(dead_code, clippy::all)]
use cktile::prelude::*;
use cktile::layouts::{ck, cute, padding, triton, xor_linear};
use cktile::{Descriptor, Item, Transform};

macro_rules! ok {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(_) => panic!(\"invalid\"),
        }
    };
}
macro_rules! it {
    ($t:expr, $l:expr, $u:expr) => {
        ok!(Item::new(ok!($t), $l, $u))
    };
}
";

fn catalogue(out: &mut String) {
    for (name, call) in CATALOGUE {
        let ty = name.to_lowercase().replace('_', " ");
        let ty: String = ty.split(' ').map(|w| w[..1].to_uppercase() + &w[1..]).collect();
        let _ = writeln!(out, "pub const {name}: Descriptor = ok!({call});");
        let _ = writeln!(
            out,
            "pub struct {ty};\nimpl StaticDescriptor for {ty} {{ const DESCRIPTOR: Descriptor = {name}; }}"
        );
        let _ = writeln!(
            out,
            "#[inline(never)]\npub fn offset_{}(m: i64, k: i64) -> i64 {{ <{ty} as StaticDescriptor>::calculate_offset(&[m, k]) }}",
            name.to_lowercase()
        );
    }
}

fn write_crate(dir: &Path, name: &str, source: &str) -> std::io::Result<()> {
    std::fs::create_dir_all(dir.join("src"))?;
    // CKTILE_DIR measures another checkout (e.g. an older commit's).
    let cktile_dir = std::env::var("CKTILE_DIR").unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/..").into());
    let cktile = std::fs::canonicalize(cktile_dir)?;
    let manifest = format!(
        "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[workspace]\n\n\
         [dependencies]\ncktile = {{ path = \"{}\", default-features = false }}\n",
        cktile.display()
    );
    std::fs::write(dir.join("Cargo.toml"), manifest)?;
    std::fs::write(dir.join("src/lib.rs"), source)
}

fn compositions(n: usize) -> String {
    let mut out = String::from(HEADER);
    catalogue(&mut out);
    let mut rng = Rng(0x5EED_0000 + n as u64);
    for i in 0..n {
        let (chain, d) = random_chain(&mut rng);
        write_chain(&mut out, i, &chain, &d);
    }
    out
}

fn checks(pairs: usize) -> Result<String, String> {
    let mut out = String::from(HEADER);
    catalogue(&mut out);
    out.push_str("use cktile::analyzer::{arch, analyze_tile, Op, Pattern};\n");
    // 2-D fp16 tiles of the catalogue (the constants above) with the
    // patterns a kernel uses on them; the same values are built here to
    // learn which pairs are conflict-free.
    use cktile::layouts::{ck, cute, padding, triton, xor_linear};
    let e = |r: Result<Descriptor, cktile::Error>| r.map_err(|e| e.to_string());
    let layouts = [
        ("CK_UNIVERSAL_A", e(ck::universal_a(128, 32, 8, 2, 32, ck::UnmergeOrder::Fixed2025))?),
        ("CK_XOR_PRESHUFFLE", e(ck::xor_preshuffle(128, 64, 8))?),
        ("ROW_PADDED", e(padding::row_padded(128, 64, 8))?),
        ("CUTE_SWIZZLE", e(cute::swizzled_tile(3, 3, 3, 64, 64, cute::Major::Row))?),
        ("TRITON_SWIZZLED", e(triton::swizzled_shared(8, 1, 8, true, 64, 64))?),
        ("XOR_LINEAR", e(xor_linear::xor_linear(128, 64, 8, &[1, 2, 4]))?),
    ];
    use cktile::analyzer::Op;
    let patterns = [
        ("Pattern::Rows { op: Op::DsWrite { bits: 128 } }", Pattern::Rows { op: Op::DsWrite { bits: 128 } }),
        (
            "Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } }",
            Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } },
        ),
        (
            "Pattern::Mfma { mdim: 32, op: Op::DsRead { bits: 128 } }",
            Pattern::Mfma { mdim: 32, op: Op::DsRead { bits: 128 } },
        ),
        ("Pattern::Rows { op: Op::DsRead { bits: 64 } }", Pattern::Rows { op: Op::DsRead { bits: 64 } }),
    ];
    let mut emitted = 0;
    'outer: for (cname, d) in &layouts {
        for (code, p) in patterns {
            if emitted == pairs {
                break 'outer;
            }
            let free = matches!(analyze_tile(d, 2, &arch::GFX942, p), Ok(c) if c.conflict_cycles == 0);
            if free {
                let _ = writeln!(out, "cktile::assert_conflict_free!({cname}, 2, arch::GFX942, {code});");
            } else {
                let _ = writeln!(
                    out,
                    "const _: u32 = match analyze_tile(&{cname}, 2, &arch::GFX942, {code}) {{ Ok(c) => c.conflict_cycles, Err(_) => 0 }};"
                );
            }
            emitted += 1;
        }
    }
    if emitted < pairs {
        return Err(format!("only {emitted} (layout, pattern) pairs are defined"));
    }
    Ok(out)
}

fn run(args: &[String]) -> Result<(), String> {
    let (what, n, dir) = match args {
        [w, n, d] => (w.as_str(), n.parse::<usize>().map_err(|e| e.to_string())?, Path::new(d)),
        _ => return Err("usage: gencost compositions|checks <N> <dir>".into()),
    };
    let (name, source) = match what {
        "compositions" => (format!("cost_compositions_{n}"), compositions(n)),
        "checks" => (format!("cost_checks_{n}"), checks(n)?),
        _ => return Err(format!("unknown workload {what}")),
    };
    write_crate(dir, &name, &source).map_err(|e| e.to_string())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(e) = run(&args) {
        eprintln!("gencost: {e}");
        std::process::exit(2);
    }
}
