//! The SVG pictures, read back: every document is well-formed XML, and the
//! numbers it draws (cells, offsets, banks, conflicting lanes, ways, chain
//! wiring) are exactly those of the descriptor and the analyzer.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::analyzer::model::access_words;
use cktile::analyzer::{Arch, Op, Pattern, arch};
use cktile::render::svg::banks::{heat_map, tile_heat_map, tile_instruction};
use cktile::render::svg::chain::chain;
use cktile::render::svg::grid::{GridOptions, grid};
use cktile::{Descriptor, layouts, spec};
use std::collections::{BTreeMap, BTreeSet};
use std::process::{Command, Output};

/// A minimal XML reader: enough of XML 1.0 to check that a document is
/// well-formed (one root, nested tags, quoted attributes, known entities)
/// and to list its elements with their attributes and text.
mod xml {
    use std::collections::BTreeMap;

    /// One element: name, attributes, text content (direct children only).
    #[derive(Debug, Clone)]
    pub struct Element {
        pub name: String,
        pub attrs: BTreeMap<String, String>,
        pub text: String,
    }

    impl Element {
        pub fn attr(&self, name: &str) -> Option<&str> {
            self.attrs.get(name).map(String::as_str)
        }
        pub fn has_class(&self, class: &str) -> bool {
            self.attr("class").is_some_and(|c| c.split_whitespace().any(|x| x == class))
        }
    }

    fn unescape(s: &str) -> Result<String, String> {
        let mut out = String::new();
        let mut rest = s;
        while let Some(i) = rest.find('&') {
            out.push_str(&rest[..i]);
            let end = rest[i..].find(';').ok_or_else(|| format!("unterminated entity in {s:?}"))?;
            let entity = &rest[i + 1..i + end];
            out.push(match entity {
                "amp" => '&',
                "lt" => '<',
                "gt" => '>',
                "quot" => '"',
                "apos" => '\'',
                _ => return Err(format!("unknown entity &{entity};")),
            });
            rest = &rest[i + end + 1..];
        }
        out.push_str(rest);
        if out.contains('<') && !s.contains("&lt;") {
            return Err(format!("raw < in {s:?}"));
        }
        Ok(out)
    }

    fn is_name(s: &str) -> bool {
        !s.is_empty()
            && s.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':' | '.'))
    }

    fn attributes(s: &str) -> Result<BTreeMap<String, String>, String> {
        let mut attrs = BTreeMap::new();
        let mut rest = s.trim();
        while !rest.is_empty() {
            let eq = rest.find('=').ok_or_else(|| format!("attribute without value: {rest:?}"))?;
            let name = rest[..eq].trim();
            if !is_name(name) {
                return Err(format!("bad attribute name {name:?}"));
            }
            let after = rest[eq + 1..].trim_start();
            let quote = after.chars().next().ok_or("missing attribute value")?;
            if quote != '"' && quote != '\'' {
                return Err(format!("unquoted attribute {name}"));
            }
            let close = after[1..].find(quote).ok_or("unterminated attribute value")?;
            let value = &after[1..1 + close];
            if value.contains('<') {
                return Err(format!("< in attribute {name}"));
            }
            if attrs.insert(name.to_string(), unescape(value)?).is_some() {
                return Err(format!("repeated attribute {name}"));
            }
            rest = after[close + 2..].trim_start();
        }
        Ok(attrs)
    }

    /// Parses a document into its elements in document order, or says why
    /// it is not well-formed.
    pub fn parse(doc: &str) -> Result<Vec<Element>, String> {
        let mut elements: Vec<Element> = Vec::new();
        let mut stack: Vec<(String, usize)> = Vec::new();
        let mut roots = 0;
        let mut rest = doc;
        while !rest.is_empty() {
            let Some(lt) = rest.find('<') else {
                if !rest.trim().is_empty() || !stack.is_empty() {
                    return Err("text after the root element or unclosed tags".into());
                }
                break;
            };
            let text = &rest[..lt];
            if stack.is_empty() {
                if !text.trim().is_empty() {
                    return Err(format!("text outside the root: {text:?}"));
                }
            } else {
                let t = unescape(text)?;
                let (_, idx) = stack.last().expect("open element");
                elements[*idx].text.push_str(&t);
            }
            rest = &rest[lt..];
            let gt = rest.find('>').ok_or("unterminated tag")?;
            let tag = &rest[1..gt];
            rest = &rest[gt + 1..];
            if let Some(name) = tag.strip_prefix('/') {
                let (open, _) = stack.pop().ok_or_else(|| format!("close tag </{name}> without an open tag"))?;
                if open != name.trim() {
                    return Err(format!("<{open}> closed by </{name}>"));
                }
                continue;
            }
            if tag.starts_with('?') || tag.starts_with('!') {
                return Err(format!("unexpected declaration <{tag}>"));
            }
            let self_closing = tag.ends_with('/');
            let body = tag.trim_end_matches('/');
            let (name, attrs) = match body.find(char::is_whitespace) {
                Some(i) => (&body[..i], &body[i..]),
                None => (body, ""),
            };
            if !is_name(name) {
                return Err(format!("bad element name {name:?}"));
            }
            if stack.is_empty() {
                roots += 1;
                if roots > 1 {
                    return Err("more than one root element".into());
                }
            }
            elements.push(Element { name: name.to_string(), attrs: attributes(attrs)?, text: String::new() });
            if !self_closing {
                stack.push((name.to_string(), elements.len() - 1));
            }
        }
        if !stack.is_empty() {
            return Err(format!("unclosed <{}>", stack[stack.len() - 1].0));
        }
        if roots != 1 {
            return Err("no root element".into());
        }
        Ok(elements)
    }
}

fn well_formed(svg: &str) -> Vec<xml::Element> {
    let elements = xml::parse(svg).unwrap_or_else(|e| panic!("not well-formed: {e}"));
    assert_eq!(elements[0].name, "svg");
    assert_eq!(elements[0].attr("xmlns"), Some("http://www.w3.org/2000/svg"));
    assert!(elements[0].attr("viewBox").is_some());
    assert!(elements.iter().any(|e| e.name == "title" && !e.text.is_empty()), "every picture has a title");
    elements
}

#[test]
fn the_xml_reader_rejects_what_is_not_well_formed() {
    for bad in [
        "<svg><g></svg>",
        "<svg a=1/>",
        "<svg a=\"1\" a=\"2\"/>",
        "<svg>&nbsp;</svg>",
        "<svg/><svg/>",
        "<svg><text>a < b</text></svg>",
        "text<svg/>",
    ] {
        assert!(xml::parse(bad).is_err(), "{bad}");
    }
    let ok = xml::parse("<svg x=\"1\"><text a='b &amp; c'>1 &lt; 2</text><g/></svg>").unwrap();
    assert_eq!((ok.len(), ok[1].attr("a"), ok[1].text.as_str()), (3, Some("b & c"), "1 < 2"));
}

/// Every grid cell against the descriptor: its position, offset, bank and
/// printed numbers.
fn check_grid(desc: &Descriptor, bytes: usize, banks: u32, rows: Option<usize>, cols: Option<usize>) -> usize {
    let mut o = GridOptions::new("test <grid> & co", bytes, banks);
    o.rows = rows;
    o.cols = cols;
    let svg = grid(desc, &o).unwrap();
    let elements = well_formed(&svg);
    let lengths = desc.lengths();
    let two_d = lengths.len() == 2;
    let (all_rows, all_cols) =
        if two_d { (lengths.get(0) as usize, lengths.get(1) as usize) } else { (1, lengths.get(0) as usize) };
    let (r, c) = (rows.unwrap_or(all_rows).min(all_rows), cols.unwrap_or(all_cols).min(all_cols));
    let cells: Vec<&xml::Element> = elements.iter().filter(|e| e.has_class("cell")).collect();
    let offsets: Vec<&xml::Element> = elements.iter().filter(|e| e.has_class("offset")).collect();
    let bank_texts: Vec<&xml::Element> = elements.iter().filter(|e| e.has_class("bank")).collect();
    assert_eq!((cells.len(), offsets.len(), bank_texts.len()), (r * c, r * c, r * c));
    for (i, cell) in cells.iter().enumerate() {
        let (row, col) = (i / c, i % c);
        assert_eq!(cell.attr("data-row"), Some(row.to_string().as_str()));
        assert_eq!(cell.attr("data-col"), Some(col.to_string().as_str()));
        let coord: Vec<i64> = if two_d { vec![row as i64, col as i64] } else { vec![col as i64] };
        let offset = desc.calculate_offset(&coord);
        assert_eq!(cell.attr("data-offset"), Some(offset.to_string().as_str()));
        if desc.coordinate_has_valid_offset(&coord) {
            let bank = (offset as u64 * bytes as u64 / 4) % banks as u64;
            assert_eq!(cell.attr("data-bank"), Some(bank.to_string().as_str()), "{coord:?}");
            assert_eq!(offsets[i].text, offset.to_string());
            assert_eq!(bank_texts[i].text, format!("b{bank}"));
        } else {
            assert_eq!(cell.attr("data-bank"), Some("pad"));
            assert_eq!(offsets[i].text, format!("[{offset}]"));
            assert_eq!(bank_texts[i].text, "pad");
        }
    }
    // The legend has one swatch per bank.
    assert_eq!(elements.iter().filter(|e| e.has_class("legend")).count(), banks as usize);
    r * c
}

#[test]
fn grid_cells_are_the_descriptors_offsets_and_banks() {
    let gemm = layouts::resolve("ck-universal-a:m=128,k=64").unwrap();
    assert_eq!(check_grid(&gemm, 2, 32, Some(16), None), 16 * 64);
    assert_eq!(check_grid(&gemm, 2, 64, Some(4), Some(20)), 4 * 20);
    let k32 = layouts::resolve("ck-xor-lds:m=128,k=32,kpack=8,mlds=2").unwrap();
    assert_eq!(check_grid(&k32, 2, 32, None, None), 128 * 32);
    let padded = layouts::resolve("row-padded:rows=8,cols=16,pad=4").unwrap();
    assert_eq!(check_grid(&padded, 4, 32, None, None), 128);
    let swizzle = layouts::resolve("cute-swizzle:b=3,mbase=3,s=3,rows=8,cols=64").unwrap();
    assert_eq!(check_grid(&swizzle, 8, 32, None, None), 512);
    // 1-D, with padding on both sides.
    let pad = spec::parse("naive((5),(1)) | transform(pad(5,2,3) on [0] -> [0])").unwrap();
    assert_eq!(check_grid(&pad, 4, 32, None, None), 10);
}

#[test]
fn grid_prints_exact_values_for_a_known_layout() {
    // CK Tile's GEMM A block, K=64: offset 64*m + 8*((k/8) ^ (m%8)) + k%8; (3, 9) is 209, bank 104 % 32 = 8.
    let gemm = layouts::resolve("ck-universal-a:m=128,k=64").unwrap();
    let svg = grid(&gemm, &GridOptions { rows: Some(4), ..GridOptions::new("g", 2, 32) }).unwrap();
    assert!(svg.contains("data-row=\"3\" data-col=\"9\" data-offset=\"209\" data-bank=\"8\""));
    assert!(svg.contains("showing rows 0-3 of 128, columns 0-63 of 64; element space 8192"));
}

#[test]
fn grid_refuses_three_dimensions_and_empty_elements() {
    let d = Descriptor::packed(&[2, 2, 2]).unwrap();
    let e = grid(&d, &GridOptions::new("t", 2, 32)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "grid view: top dimensions = 3; the grid draws descriptors with 1 or 2 top dimensions (merge the others)"
    );
    assert!(grid(&Descriptor::packed(&[2, 2]).unwrap(), &GridOptions::new("t", 0, 32)).is_err());
}

/// (phase, lane, bank) triples, and the ways of every (phase, bank), read
/// from a heat map.
type Marks = (BTreeSet<(u32, u32, u32)>, BTreeSet<(u32, u32, u32)>, BTreeMap<(u32, u32), u32>);

fn read_heat_map(svg: &str) -> Marks {
    let elements = well_formed(svg);
    let num = |e: &xml::Element, a: &str| e.attr(a).unwrap().parse::<u32>().unwrap();
    let triple = |e: &&xml::Element| (num(e, "data-phase"), num(e, "data-lane"), num(e, "data-bank"));
    let conflicts = elements.iter().filter(|e| e.has_class("conflict")).map(|e| triple(&e)).collect();
    let free = elements.iter().filter(|e| e.has_class("free")).map(|e| triple(&e)).collect();
    let ways = elements
        .iter()
        .filter(|e| e.has_class("ways"))
        .map(|e| ((num(e, "data-phase"), num(e, "data-bank")), num(e, "data-ways")))
        .collect();
    (conflicts, free, ways)
}

/// The marks a heat map must show, computed from the addresses alone
/// (conflicting lanes: the analyzer's; ways: distinct words per bank).
fn expected_marks(arch: &Arch, op: Op, addresses: &[Option<u64>]) -> Marks {
    let report = cktile::reports::analyze_instruction(arch, op, addresses).unwrap();
    let mut conflicts = BTreeSet::new();
    for p in &report.phase_detail {
        for b in &p.conflicts {
            for w in &b.words {
                for &lane in &w.lanes {
                    conflicts.insert((p.phase, lane, b.bank));
                }
            }
        }
    }
    let mut touched = BTreeSet::new();
    let mut ways = BTreeMap::new();
    for p in &report.phase_detail {
        if p.active_lanes == 0 {
            continue;
        }
        let mut words: BTreeMap<u32, BTreeSet<u64>> = BTreeMap::new();
        for &lane in &p.lanes {
            if let Some(a) = addresses.get(lane as usize).copied().flatten() {
                let (first, n) = access_words(op, a, p.access);
                for w in first..first + n {
                    let bank = (w % u64::from(report.banks)) as u32;
                    touched.insert((p.phase, lane, bank));
                    words.entry(bank).or_default().insert(w);
                }
            }
        }
        for bank in 0..report.banks {
            ways.insert((p.phase, bank), words.get(&bank).map_or(0, |s| s.len() as u32));
        }
    }
    let free = touched.difference(&conflicts).copied().collect();
    (conflicts, free, ways)
}

fn check_heat_map(desc: &Descriptor, bytes: usize, arch: &Arch, pattern: Pattern, instruction: Option<usize>) -> Marks {
    let pick = tile_instruction(desc, bytes, arch, pattern, instruction).unwrap();
    let svg = heat_map(&pick.report, "t");
    let marks = read_heat_map(&svg);
    assert_eq!(marks, expected_marks(arch, pattern.op(), &pick.addresses));
    // Conflicting lanes print their ids in their cells.
    for (_, lane, _) in &marks.0 {
        assert!(svg.contains(&format!("font-weight=\"bold\">{lane}</text>")));
    }
    marks
}

#[test]
fn heat_map_marks_the_analyzers_conflicting_lanes() {
    let naive = Descriptor::packed(&[128, 64]).unwrap();
    let mfma16 = Pattern::by_name("mfma16", None).unwrap();
    let (conflicts, free, ways) = check_heat_map(&naive, 2, &arch::GFX942, mfma16, None);
    // CK Tile docs' case: phase 0 = lanes 0-3 and 20-23, each group 4-way on 4 banks (16 bytes per lane).
    let phase0: BTreeSet<(u32, u32)> =
        conflicts.iter().filter(|(p, _, _)| *p == 0).map(|&(_, lane, bank)| (lane, bank)).collect();
    let mut expected = BTreeSet::new();
    for lane in 0..4 {
        for bank in 0..4 {
            expected.insert((lane, bank));
        }
    }
    for lane in 20..24 {
        for bank in 4..8 {
            expected.insert((lane, bank));
        }
    }
    assert_eq!(phase0, expected);
    assert!(free.is_empty());
    assert_eq!(ways[&(0, 0)], 4);
    assert_eq!(ways[&(0, 8)], 0);
    // Every phase of every instruction conflicts the same way: 8 phases x 8 lanes x 4 banks.
    assert_eq!(conflicts.len(), 8 * 8 * 4);

    // The XOR preshuffle: the same reads, no conflict, every lane in free banks.
    let xor = layouts::resolve("ck-universal-a:m=128,k=64").unwrap();
    let (conflicts, free, ways) = check_heat_map(&xor, 2, &arch::GFX942, mfma16, Some(5));
    assert!(conflicts.is_empty());
    assert_eq!(free.len(), 64 * 4);
    assert!(ways.values().all(|&w| w == 1));
}

#[test]
fn heat_map_covers_nvidia_and_other_instructions() {
    let naive = Descriptor::packed(&[16, 64]).unwrap();
    let ldmatrix = Pattern::by_name("ldmatrix", None).unwrap();
    let (conflicts, _, ways) = check_heat_map(&naive, 2, &arch::SM90, ldmatrix, None);
    // Each 8x8 matrix is 8 rows of 128 bytes: 8-way on its 4 banks.
    assert_eq!(ways[&(0, 0)], 8);
    assert_eq!(conflicts.len(), 4 * 8 * 4);
    let swizzled = layouts::resolve("cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64").unwrap();
    assert!(check_heat_map(&swizzled, 2, &arch::SM90, ldmatrix, Some(2)).0.is_empty());
    // Column reads of fp32 on sm80: every lane on one bank.
    let columns = Pattern::by_name("columns", Some(Op::LdShared { bits: 32 })).unwrap();
    let (conflicts, _, ways) = check_heat_map(&Descriptor::packed(&[32, 32]).unwrap(), 4, &arch::SM80, columns, None);
    assert_eq!((conflicts.len(), ways[&(0, 0)]), (32, 32));
    // gfx950: an assumed rule (sub-dword writes) is noted in the picture; a sourced one is not.
    let rows = Pattern::by_name("rows", Some(Op::DsWrite { bits: 16 })).unwrap();
    let d = Descriptor::packed(&[64, 64]).unwrap();
    check_heat_map(&d, 2, &arch::GFX950, rows, Some(1));
    let svg = tile_heat_map(&d, 2, &arch::GFX950, rows, Some(1), "w").unwrap();
    assert!(svg.contains("Note (assumption): bank count and phase grouping"));
    assert!(svg.contains("rows pattern, instruction 1 of 64"));
    let sourced = Pattern::by_name("rows", Some(Op::DsWrite { bits: 64 })).unwrap();
    let svg = tile_heat_map(&d, 2, &arch::GFX950, sourced, Some(1), "w").unwrap();
    assert!(!svg.contains("Note ("));
}

#[test]
fn heat_map_of_an_idle_phase_says_what_it_costs() {
    // One lane of a wave reads with ds_read_b32: the second phase is idle but costs a pass on AMD.
    let addrs = [Some(0)];
    let r = cktile::reports::analyze_instruction(&arch::GFX90A, Op::DsRead { bits: 32 }, &addrs).unwrap();
    let svg = heat_map(&r, "one lane");
    well_formed(&svg);
    assert!(svg.contains("phase 1: lanes 32-63: no active lane (still one pass on AMD)"));
    assert!(
        svg.contains("ds_read_b32 on gfx90a (AMD CDNA2 (MI200), 32 banks of 4 bytes): 2 cycles, 0 conflict cycles")
    );
}

#[test]
fn heat_map_refuses_an_instruction_past_the_tile() {
    let d = Descriptor::packed(&[128, 64]).unwrap();
    let e = tile_instruction(&d, 2, &arch::GFX942, Pattern::by_name("mfma16", None).unwrap(), Some(16)).unwrap_err();
    assert!(e.to_string().starts_with("banks view: instruction = 16; it must be below"), "{e}");
}

#[test]
fn chain_diagram_wires_every_transform_to_its_dimensions() {
    for text in [
        "ck-xor-lds:m=128,k=32,kpack=8,mlds=2",
        "ck-kfold-mpair:m=128,k=32,ak1=8,m0=32,kthreadwrite=4",
        "naive_with_offset((4,8),(8,1),100)",
        "packed((4,8)) | transform(pass_through(4) on [0] -> [0], insert(3) on [] -> [2], pass_through(8) on [1] -> [1])",
        "naive((4,8),(8,1)) | transform(freeze(1) on [0] -> [], pass_through(8) on [1] -> [0])",
    ] {
        let desc = layouts::resolve(text).unwrap();
        let svg = chain(&desc, text);
        let elements = well_formed(&svg);
        let stages = desc.stages();
        // Levels from the top: the top coordinate is level 0, the offset level n.
        let mut levels: Vec<Vec<i64>> = vec![stages[0].lower_lengths().as_slice().to_vec()];
        levels.extend(stages.iter().map(|s| s.upper_lengths().as_slice().to_vec()));
        levels.reverse();
        let dims: Vec<&xml::Element> = elements.iter().filter(|e| e.has_class("dim")).collect();
        let mut seen = BTreeMap::new();
        for d in &dims {
            let level: usize = d.attr("data-level").unwrap().parse().unwrap();
            let dim: usize = d.attr("data-dim").unwrap().parse().unwrap();
            seen.insert((level, dim), d.attr("data-len").unwrap().parse::<i64>().unwrap());
        }
        let mut expected = BTreeMap::new();
        for (k, lengths) in levels.iter().enumerate() {
            for (d, &len) in lengths.iter().enumerate() {
                expected.insert((k, d), len);
            }
        }
        assert_eq!(seen, expected, "{text}");
        assert_eq!(dims.len(), expected.len());
        // Transforms: one box per item, with its spec text; one wire per id.
        let boxes: Vec<&xml::Element> = elements.iter().filter(|e| e.has_class("transform")).collect();
        let items: Vec<_> = stages.iter().flat_map(|s| s.items().iter()).collect();
        assert_eq!(boxes.len(), items.len(), "{text}");
        let texts: BTreeSet<&str> = elements.iter().filter(|e| e.name == "text").map(|e| e.text.as_str()).collect();
        for (b, item) in boxes.iter().zip(&items) {
            assert_eq!(b.attr("data-kind"), Some(item.transform().kind().name()));
            assert!(texts.contains(item.transform().to_string().as_str()), "{text}: {item}");
        }
        let wires: usize = items.iter().map(|i| i.lower().len() + i.upper().len()).sum();
        assert_eq!(elements.iter().filter(|e| e.has_class("wire")).count(), wires, "{text}");
    }
}

#[test]
fn chain_diagram_labels_swapped_ports() {
    // The xor reads old dims [1,0]: its port u0 takes dim 1.
    let d = layouts::resolve("ck-xor-lds:m=128,k=32,kpack=8,mlds=2").unwrap();
    let svg = chain(&d, "xor");
    assert!(svg.contains(">xor((64,8))</text>"));
    assert!(svg.contains(">on [1,0] -&gt; [1,0]</text>"));
    assert!(svg.contains(">base: naive((8,64,8),(8,64,1),8,1)</text>"));
}

fn cktile(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cktile")).args(args).output().expect("the binary runs")
}

#[test]
fn cli_render_prints_the_librarys_pictures() {
    let gemm = "ck-universal-a:m=128,k=64";
    let o = cktile(&["render", gemm, "--view", "grid", "--rows", "8", "--cols", "16"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let desc = layouts::resolve(gemm).unwrap();
    let mut opts = GridOptions::new(gemm, 2, 32);
    opts.rows = Some(8);
    opts.cols = Some(16);
    assert_eq!(String::from_utf8_lossy(&o.stdout), grid(&desc, &opts).unwrap());

    let o = cktile(&[
        "render",
        "packed((128,64))",
        "--view",
        "banks",
        "--pattern",
        "mfma16",
        "--arch",
        "gfx942",
        "--dtype",
        "fp16",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let expected = tile_heat_map(
        &Descriptor::packed(&[128, 64]).unwrap(),
        2,
        &arch::GFX942,
        Pattern::by_name("mfma16", None).unwrap(),
        None,
        "packed((128,64))",
    )
    .unwrap();
    assert_eq!(String::from_utf8_lossy(&o.stdout), expected);

    let dir = std::env::temp_dir().join(format!("cktile-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("chain.svg");
    let p = path.to_str().unwrap();
    let o = cktile(&["render", gemm, "--view", "chain", "--title", "GEMM A", "-o", p]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).starts_with(&format!("wrote {p} (")));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), chain(&desc, "GEMM A"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn cli_render_reports_bad_requests_with_exit_code_2() {
    for (args, message) in [
        (
            &["render", "packed((4,8))", "--view", "pie"][..],
            "error: --view: `pie` is not a view; expected grid, banks or chain",
        ),
        (
            &["render", "packed((4,8))", "--view", "banks", "--dtype", "fp16"][..],
            "error: --view banks needs --pattern (e.g. --pattern mfma16)",
        ),
        (&["render", "packed((2,2,2))", "--dtype", "fp16"][..], "error: grid view: top dimensions = 3;"),
        (&["render", "packed((2,2))"][..], "error: `packed((2,2))` carries no element type"),
        (&["render", "packed((4,8))", "--arch", "gfx1030", "--dtype", "fp16"][..], "error: --arch: "),
    ] {
        let o = cktile(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.starts_with(message), "{args:?}: {err}");
    }
}

/// Every text of a picture fits inside it: its right edge, at the writer's
/// monospace estimate of 0.6 em per character, is within the width. Over
/// bank heat maps on every chip (32 and 64 banks, where the legend was once
/// clipped at "busiest bank's wa..."), several layouts and patterns, and the
/// grid and chain views.
#[test]
fn every_text_fits_inside_the_picture() {
    let fits = |svg: &str, what: &str| {
        let elements = well_formed(svg);
        let width: f64 = elements[0].attr("width").unwrap().parse().unwrap();
        for t in elements.iter().filter(|e| e.name == "text") {
            let x: f64 = t.attr("x").unwrap().parse().unwrap();
            let size: f64 = t.attr("font-size").unwrap().parse().unwrap();
            let w = t.text.chars().count() as f64 * size * 0.6;
            let right = match t.attr("text-anchor") {
                Some("middle") => x + w / 2.0,
                Some("end") => x,
                _ => x + w,
            };
            assert!(right <= width, "{what}: `{}` ends at {right:.0}, past the width {width}", t.text);
        }
    };
    let cases: &[(&str, Arch, &str)] = &[
        ("packed((128,64))", arch::GFX942, "mfma16"),
        ("packed((128,64))", arch::GFX950, "mfma16"),
        ("packed((128,64))", arch::GFX90A, "mfma32"),
        ("ck-universal-a:m=128,k=32", arch::GFX942, "mfma16"),
        ("packed((16,64))", arch::SM90, "ldmatrix"),
        ("packed((16,64))", arch::SM80, "ldmatrix"),
        ("cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64", arch::SM90, "ldmatrix"),
        ("packed((16,16))", arch::SM80, "mma_sync_a"),
    ];
    for (text, chip, pattern) in cases {
        let d = layouts::resolve(text).unwrap();
        let p = Pattern::by_name(pattern, None).unwrap();
        let svg = tile_heat_map(&d, 2, chip, p, None, text).unwrap();
        fits(&svg, &format!("{text} on {} ({pattern})", chip.name()));
        assert!(svg.contains("the phase costs its busiest bank&apos;s ways"));
        let g = grid(&d, &GridOptions::new(text, 2, chip.max_banks())).unwrap();
        fits(&g, &format!("{text} grid"));
        fits(&chain(&d, text), &format!("{text} chain"));
    }
}

/// `render --view distribution`: every cell of the owner grid names the
/// thread and register whose (P, Y) maps to it through the distribution's
/// adaptor, for one-P and two-P distributions; R copies are counted.
#[test]
fn owner_grid_cells_are_the_distributions_owners() {
    use cktile::distribution::{Distribution, MAX_ENUMERATED, catalogue};
    use cktile::render::svg::owners::owners;
    let cases = [
        catalogue::mfma_a(16, 16).unwrap(),
        catalogue::mfma_c_transposed(32, 8).unwrap(),
        catalogue::mfma_b_swizzled().unwrap(),
        catalogue::fmha_k_dram_async(256, 64, 32, 2).unwrap(),
    ];
    for e in cases {
        let d = Distribution::new(e).unwrap();
        let svg = owners(&d, &e.to_string(), None, None).unwrap();
        let cells: Vec<_> = well_formed(&svg).into_iter().filter(|el| el.has_class("cell")).collect();
        let x = d.x_lengths();
        assert_eq!(cells.len() as i64, x.get(0) * x.get(1));
        let p_len = d.p_lengths();
        let mut expected = std::collections::HashMap::new();
        d.for_each(MAX_ENUMERATED, |ps_ys, xs, dd| {
            let np = p_len.len();
            let p: Vec<String> = ps_ys[..np].iter().map(|v| v.to_string()).collect();
            expected.insert((xs[0], xs[1]), (p.join("."), ps_ys[np - 1], dd));
        })
        .unwrap();
        for c in &cells {
            let (r, col): (i64, i64) =
                (c.attr("data-row").unwrap().parse().unwrap(), c.attr("data-col").unwrap().parse().unwrap());
            let (p, lane, dd) = &expected[&(r, col)];
            assert_eq!(c.attr("data-p").unwrap(), p, "{e} ({r}, {col})");
            assert_eq!(c.attr("data-lane").unwrap(), lane.to_string());
            assert_eq!(c.attr("data-d").unwrap(), dd.to_string());
            assert_eq!(c.attr("data-copies"), Some("1"));
        }
    }
    // R replicates: 2 warps holding the same 64 elements (every cell held twice, the first warp shown).
    let e =
        cktile::distribution::Encoding::new(&[2], &[&[16], &[4, 4]], &[&[0], &[2, 1]], &[&[0], &[0, 0]], &[2], &[1])
            .unwrap();
    let svg = owners(&Distribution::new(e).unwrap(), "replicated", Some(4), Some(4)).unwrap();
    let cells: Vec<_> = well_formed(&svg).into_iter().filter(|el| el.has_class("cell")).collect();
    assert_eq!(cells.len(), 16);
    assert!(cells.iter().all(|c| c.attr("data-copies") == Some("2") && c.attr("data-p").unwrap().starts_with("0.")));
    assert!(svg.contains("held by up to 2 threads"));
    // Refusals: a 1-D X and too many cells.
    let one_d = cktile::distribution::Encoding::new(&[], &[&[64, 2]], &[&[1]], &[&[0]], &[1], &[1]).unwrap();
    assert!(owners(&Distribution::new(one_d).unwrap(), "t", None, None).is_err());
    let big = catalogue::gemm_dram(256, 512, 256, 8).unwrap();
    let e = owners(&Distribution::new(big).unwrap(), "t", None, None).unwrap_err().to_string();
    assert!(e.contains("65536"), "{e}");
}
