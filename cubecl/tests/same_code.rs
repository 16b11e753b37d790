//! A kernel that reads CK's XOR-preshuffled block through `CkLayout`
//! compiles to the same index arithmetic as the same kernel over a
//! hand-written cubecl layout of the block: in the WGSL cubecl compiled
//! (taken from its own compilation log), the index each kernel loads at is
//! the same expression of the unit's position, operation for operation
//! (up to the order of commutative operands and the values' names). Their
//! outputs agree too, and with cktile's offsets.
//!
//! Its own test binary: cubecl reads its logging configuration once per
//! process, before the first client.

#![allow(clippy::unwrap_used, clippy::expect_used)]
// cubecl's derive writes the hand layout's kernel-side struct undocumented.
#![allow(missing_docs)]

mod common;

use cktile_cubecl::CkLayout;
use common::{XorBlock, buffer, read_f32};
use cubecl::config::compilation::CompilationLogLevel;
use cubecl::config::{CubeClRuntimeConfig, RuntimeConfig};
use cubecl::prelude::*;
use cubecl::std::tensor::layout::{Coords1d, Coords2d, Layout, LayoutExpand};
use std::collections::{HashMap, HashSet};

/// The block by hand, as a cubecl user writes a swizzled layout.
#[derive(CubeType, Clone, Copy, Default)]
pub struct HandXor {}

#[cube]
impl HandXor {
    /// The layout.
    pub fn new() -> HandXor {
        HandXor {}
    }
}

#[cube]
impl Layout for HandXor {
    type Coordinates = Coords2d;
    type SourceCoordinates = Coords1d;

    fn to_source_pos(&self, pos: Self::Coordinates) -> usize {
        let (m, k) = pos;
        (m * 64 + ((k / 8) ^ (m % 8)) * 8 + k % 8) as usize
    }

    fn to_source_pos_checked(&self, pos: Self::Coordinates) -> (usize, bool) {
        (self.to_source_pos(pos), self.is_in_bounds(pos))
    }

    fn shape(&self) -> Self::Coordinates {
        (32u32, 64u32)
    }

    fn is_in_bounds(&self, pos: Self::Coordinates) -> bool {
        let (m, k) = pos;
        m < 32 && k < 64
    }
}

/// Unit `i` reads element `(i / 64, i % 64)` of the block.
#[cube(launch)]
fn through_cktile(input: &[f32], out: &mut [f32]) {
    let layout = CkLayout::<XorBlock>::new();
    let i = ABSOLUTE_POS as u32;
    out[i as usize] = input[layout.to_source_pos((i / 64, i % 64))];
}

/// The same kernel over the hand-written layout.
#[cube(launch)]
fn through_hand(input: &[f32], out: &mut [f32]) {
    let layout = HandXor::new();
    let i = ABSOLUTE_POS as u32;
    out[i as usize] = input[layout.to_source_pos((i / 64, i % 64))];
}

/// The WGSL body of the kernel named `name` in the log (from its entry
/// point to its closing brace).
fn kernel_body<'a>(log: &'a str, name: &str) -> &'a str {
    let start = log.find(&format!("fn {name}_")).unwrap_or_else(|| panic!("{name} not in the log:\n{log}"));
    let end = log[start..].find("\n}\n").map_or(log.len(), |e| start + e);
    &log[start..end]
}

/// A variable's number: cubecl names a value `v12`, or `m_v12` after the
/// Rust variable that held it.
fn number(token: &str) -> Option<&str> {
    let v = token.rfind('v')?;
    let digits = &token[v + 1..];
    ((v == 0 || token[..v].ends_with('_')) && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
        .then_some(digits)
}

/// The expression a value stands for, every `let` it reads substituted,
/// with the operands of `+`, `*`, `^`, `&` and `|` sorted: two kernels
/// compute a value with the same operations when these are equal. Adds the
/// values computed by a binary operation to `ops`.
fn expression(lets: &HashMap<String, String>, token: &str, ops: &mut HashSet<String>) -> String {
    let Some(n) = number(token) else {
        return token.to_string();
    };
    let Some(rhs) = lets.get(n) else {
        return format!("v{n}");
    };
    let parts: Vec<&str> = rhs.split(' ').collect();
    match parts.as_slice() {
        [a, op, b] => {
            ops.insert(n.to_string());
            let (mut x, mut y) = (expression(lets, a, ops), expression(lets, b, ops));
            if ["+", "*", "^", "&", "|"].contains(op) && x > y {
                std::mem::swap(&mut x, &mut y);
            }
            format!("({x} {op} {y})")
        }
        [one] => match one.strip_prefix("u32(").and_then(|r| r.strip_suffix(')')) {
            // A cast to u32 of a u32 value, or a literal.
            Some(inner) if number(inner).is_some() => expression(lets, inner, ops),
            _ => one.to_string(),
        },
        _ => rhs.clone(),
    }
}

/// The index the kernel named `name` loads its input at, as an
/// [`expression`], and how many distinct binary operations compute it.
fn load_index(log: &str, name: &str) -> (String, usize) {
    let body = kernel_body(log, name);
    let mut lets = HashMap::new();
    let mut load = None;
    for line in body.lines() {
        let Some(rest) = line.strip_prefix("let ") else { continue };
        let Some((lhs, rhs)) = rest.trim_end_matches(';').split_once(" = ") else { continue };
        if let Some(n) = number(lhs) {
            lets.insert(n.to_string(), rhs.to_string());
        }
        // The load: `&(*input)[index]`, the first indexing of the body.
        if load.is_none()
            && let Some(index) =
                rhs.strip_prefix("&(*").and_then(|r| r.split_once(")[")).map(|(_, i)| i.trim_end_matches(']'))
        {
            load = Some(index.to_string());
        }
    }
    let load = load.unwrap_or_else(|| panic!("no load in {name}:\n{body}"));
    let mut ops = HashSet::new();
    (expression(&lets, &load, &mut ops), ops.len())
}

/// The guide's chapter "cktile in cubecl" quotes the kernel's index
/// computation: its lines, less their `//` comments, are consecutive lines
/// of the compiled body.
fn chapter_shows(body: &str) {
    let chapter = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/src/cubecl.md")).unwrap();
    let after = chapter.split("as cubecl compiled it").nth(1).expect("the chapter's WGSL excerpt");
    let block = after.split("```text\n").nth(1).and_then(|b| b.split("```").next()).unwrap();
    let quoted: Vec<&str> = block.lines().map(|l| l.split("//").next().unwrap_or("").trim_end()).collect();
    let lines: Vec<&str> = body.lines().collect();
    let first = lines.iter().position(|l| *l == quoted[0]).unwrap_or_else(|| panic!("{} not in\n{body}", quoted[0]));
    assert_eq!(&lines[first..first + quoted.len()], &quoted[..], "the chapter's excerpt is not the compiled kernel's");
}

#[test]
fn the_cktile_layout_compiles_to_the_hand_written_arithmetic() {
    let dir = std::env::temp_dir().join(format!("cktile-cubecl-same-code-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log_path = dir.join("compilation.log");
    let mut config = CubeClRuntimeConfig::default();
    config.compilation.logger.level = CompilationLogLevel::Full;
    config.compilation.logger.file = Some(log_path.clone());
    config.compilation.logger.append = false;
    CubeClRuntimeConfig::set(config);

    let client = common::client();
    let n = 32 * 64;
    let data: Vec<f32> = (0..n).map(|v| v as f32).collect();
    let input = client.create_from_slice(f32::as_bytes(&data));
    let (a, b) = (client.empty(n * 4), client.empty(n * 4));
    let (count, dim) = (CubeCount::Static(n as u32 / 64, 1, 1), CubeDim::new_1d(64));
    through_cktile::launch(&client, count.clone(), dim, buffer(&input, n), buffer(&a, n));
    through_hand::launch(&client, count, dim, buffer(&input, n), buffer(&b, n));
    let (a, b) = (read_f32(&client, a), read_f32(&client, b));
    assert_eq!(a, b);
    for (i, v) in a.iter().enumerate() {
        let (m, k) = (i as i64 / 64, i as i64 % 64);
        assert_eq!(*v as i64, common::xor_block_offset(m, k), "element ({m}, {k})");
    }
    drop(client.sync());

    // The log is written by a logging thread: wait for both kernels.
    let mut log = String::new();
    for _ in 0..100 {
        log = std::fs::read_to_string(&log_path).unwrap_or_default();
        if log.contains("fn through_cktile") && log.contains("fn through_hand") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    if let Ok(out) = std::env::var("CKTILE_CUBECL_WGSL") {
        std::fs::write(format!("{out}/through_cktile.wgsl"), kernel_body(&log, "through_cktile")).unwrap();
        std::fs::write(format!("{out}/through_hand.wgsl"), kernel_body(&log, "through_hand")).unwrap();
    }
    let (ours, our_ops) = load_index(&log, "through_cktile");
    let (theirs, their_ops) = load_index(&log, "through_hand");
    assert_eq!(ours, theirs, "the two kernels load at differently computed indices");
    // From the unit's position (7 operations: the block, grid and lane
    // terms), then (m, k) = (i / 64, i % 64) and the block's own 8:
    // 64 * m, k / 8, m % 8, the xor, * 8, k % 8 and two sums.
    assert_eq!((our_ops, their_ops), (17, 17), "{ours}");
    for op in [" ^ ", " / ", " % ", " * ", " + "] {
        assert!(ours.contains(op), "{op} in {ours}");
    }
    chapter_shows(kernel_body(&log, "through_cktile"));
    std::fs::remove_dir_all(&dir).ok();
}
