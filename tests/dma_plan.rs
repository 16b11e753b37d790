//! Direct-to-LDS planning: the design note's worked example, every catalogue
//! entry at every load width (simulated byte for byte), the refusals, and
//! the CLI.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::Descriptor;
use cktile::analyzer::arch;
use cktile::layouts::{self, CATALOGUE};
use cktile::plan::dma::{
    DmaPlan, DmaRequest, Form, M0Write, Order, Scheme, address, execute, expected_image, plan, plan_ordered, simulate,
    verify, verify_addressing,
};
use proptest::prelude::*;

fn packed_strides(d: &Descriptor) -> Vec<i64> {
    let lengths = d.lengths();
    let mut strides = vec![1i64; lengths.len()];
    for k in (0..lengths.len().saturating_sub(1)).rev() {
        strides[k] = strides[k + 1] * lengths.as_slice()[k + 1];
    }
    strides
}

/// The design note's request: a 16x64 i32 tile, 4 subgroups, dword loads on gfx942.
fn notes_request(tile: &Descriptor) -> DmaRequest<'_> {
    DmaRequest {
        lds: tile,
        element_bytes: 4,
        global_strides: vec![64, 1],
        arch: arch::GFX942,
        workgroup: 256,
        wave: 64,
        width: 4,
    }
}

#[test]
fn the_design_notes_example_comes_out_exactly() {
    let tile = Descriptor::packed(&[16, 64]).unwrap();
    let req = notes_request(&tile);
    let p = plan(&req).unwrap();
    assert_eq!((p.subgroups, p.slice_bytes, p.loads_per_thread, p.lds_bytes), (4, 1024, 4, 4096));
    for g in 0..4 {
        assert_eq!(p.slice(g), Some((g as u64 * 1024)..(g as u64 + 1) * 1024));
        for j in 0..4 {
            for t in 0..64 {
                let x = p.gather(g, t, j).unwrap();
                // Subgroup g owns rows 4g..4g+3; lane T loads row j of them, column T.
                assert_eq!(x.coordinate, vec![(4 * g + j) as i64, t as i64]);
                assert_eq!(x.lds_byte, (g * 1024 + j * 256 + t * 4) as u64);
                assert_eq!(x.global_byte, (((4 * g + j) * 64 + t) * 4) as i64);
            }
        }
    }
    verify(&req, &p).unwrap();
}

/// Every catalogue example, element sizes 1, 2 and 4, every width of both
/// chips, both orders: a plan that is made passes the simulation, and so do
/// its instructions in both forms and schemes where they are made; a refusal
/// is one of the documented reasons; bijective tiles whose bytes split
/// evenly always plan at the element's own width. A padded tile plans only
/// when its padding lies between chunks, which the byte-for-byte simulation
/// confirms.
#[test]
fn every_catalogue_entry_at_every_width_simulates_to_its_image() {
    let (mut planned, mut padded_plans) = (0, 0);
    for e in CATALOGUE {
        let d = layouts::resolve(e.example).unwrap();
        let strides = packed_strides(&d);
        for (chip, widths) in [(arch::GFX942, &[1usize, 2, 4][..]), (arch::GFX950, &[1, 2, 4, 12, 16][..])] {
            for eb in [1usize, 2, 4] {
                for &width in widths {
                    let req = DmaRequest {
                        lds: &d,
                        element_bytes: eb,
                        global_strides: strides.clone(),
                        arch: chip,
                        workgroup: 256,
                        wave: 64,
                        width,
                    };
                    match plan(&req) {
                        Ok(p) => {
                            verify(&req, &p).unwrap_or_else(|err| panic!("{} w={width} eb={eb}: {err}", e.example));
                            padded_plans += usize::from(!e.bijective);
                            planned += 1;
                            let q = plan_ordered(&req, Order::IssueMajor).unwrap();
                            verify(&req, &q).unwrap();
                            for pl in [&p, &q] {
                                instructions_hold(&req, pl, e.example);
                            }
                        }
                        Err(err) => {
                            let m = err.to_string();
                            let known = [
                                "padding",
                                "split equally among the subgroups",
                                "whole runs",
                                "multiple or a divisor",
                                "does not follow",
                                "aligned",
                                "one dword per lane",
                                "shared memory",
                                "16-byte slot",
                            ];
                            assert!(known.iter().any(|k| m.contains(k)), "{} w={width} eb={eb}: {m}", e.example);
                            let lds = d.element_space_size() as usize * eb;
                            if e.bijective && width == eb && width >= 4 && lds.is_multiple_of(256 * width) {
                                panic!("{} w={width} eb={eb} should plan: {m}", e.example);
                            }
                            assert!(
                                plan_ordered(&req, Order::IssueMajor).unwrap_err().to_string() == m,
                                "the order does not change whether a layout plans"
                            );
                        }
                    }
                }
            }
        }
    }
    // 68 plans at widths of 4 bytes and more (1- and 2-byte loads are refused: one dword per lane).
    assert!(planned >= 68, "only {planned} plans");
    assert!(padded_plans >= 1, "no padded catalogue entry plans");
}

/// The instructions of a plan, every form and scheme: where they are made,
/// run by the hardware's rule they give the layout's image; every immediate
/// fits its form; CK's scheme writes m0 once per load with immediate 0; the
/// immediate scheme writes it as few times as any covering of the loads'
/// bases by the immediate's span can (counted independently here), never
/// more than CK's. Refusals are CK's affinity rule or the buffer's 32-bit
/// voffset.
fn instructions_hold(req: &DmaRequest<'_>, p: &DmaPlan, what: &str) {
    for form in Form::ALL {
        let (lo, hi) = form.offset_range();
        let ck = address(p, &req.arch, form, Scheme::Ck, 0);
        let imm = address(p, &req.arch, form, Scheme::Immediate, 0);
        for a in [&ck, &imm] {
            match a {
                Ok(a) => verify_addressing(req, p, a).unwrap_or_else(|e| panic!("{what} {form:?}: {e}")),
                Err(e) => {
                    let m = e.to_string();
                    assert!(m.contains("affine") || m.contains("voffset"), "{what} {form:?}: {m}");
                }
            }
        }
        let Ok(imm) = imm else { continue };
        for g in 0..p.subgroups {
            let bases: Vec<i64> = (0..p.loads_per_thread).map(|i| p.chunk_base(g, i).unwrap() as i64).collect();
            // Fewest windows of span hi - lo covering the (ascending) bases.
            let (mut windows, mut start) = (0, None::<i64>);
            for &b in &bases {
                if start.is_none_or(|s| b - s > hi - lo) {
                    windows += 1;
                    start = Some(b);
                }
            }
            assert_eq!(imm.m0_writes(g), windows, "{what} {form:?} subgroup {g}");
            for (i, &base) in bases.iter().enumerate() {
                let issue = imm.issue(g, i).unwrap();
                assert!((lo..=hi).contains(&i64::from(issue.offset)), "{what}: {issue:?}");
                assert_eq!(issue.m0 % 4, 0, "{what}: {issue:?}");
                assert_eq!(i64::from(issue.m0) + i64::from(issue.offset), base, "{what}: {issue:?}");
            }
            if let Ok(ck) = &ck {
                assert_eq!(ck.m0_writes(g), p.loads_per_thread);
                assert!(ck.issues.iter().all(|i| i.offset == 0));
                assert!(imm.m0_writes(g) <= ck.m0_writes(g));
            }
        }
    }
}

#[test]
fn a_tampered_plan_fails_its_simulation() {
    let d = layouts::resolve("ck-universal-a:m=64,k=64").unwrap();
    let req = DmaRequest {
        lds: &d,
        element_bytes: 2,
        global_strides: vec![64, 1],
        arch: arch::GFX942,
        workgroup: 256,
        wave: 64,
        width: 4,
    };
    let mut p = plan(&req).unwrap();
    verify(&req, &p).unwrap();
    let a = p.gathers[5].global_byte;
    p.gathers[5].global_byte = p.gathers[6].global_byte;
    p.gathers[6].global_byte = a;
    let e = verify(&req, &p).unwrap_err();
    assert_eq!(e.to_string(), "dma-plan: LDS byte = 20; the simulated load does not put the layout's element there");
    // A gather moved to another LDS byte is caught by the instruction's rule.
    let mut p = plan(&req).unwrap();
    p.gathers[1].lds_byte += 4;
    assert!(simulate(&p).unwrap_err().to_string().contains("not where the instruction writes"));
}

#[test]
fn refusals_name_the_constraint() {
    let tile = Descriptor::packed(&[16, 64]).unwrap();
    let base = DmaRequest {
        lds: &tile,
        element_bytes: 2,
        global_strides: vec![64, 1],
        arch: arch::GFX942,
        workgroup: 256,
        wave: 64,
        width: 4,
    };
    let err = |req: DmaRequest<'_>| plan(&req).unwrap_err().to_string();
    assert_eq!(err(DmaRequest { width: 16, ..base.clone() }), "dma-plan: width = 16; gfx942 loads 1, 2 or 4 bytes");
    assert_eq!(
        err(DmaRequest { width: 3, arch: arch::GFX950, ..base.clone() }),
        "dma-plan: width = 3; gfx950 loads 1, 2, 4, 12 or 16 bytes"
    );
    assert!(err(DmaRequest { arch: arch::SM90, ..base.clone() }).contains("AMD instruction"));
    assert!(err(DmaRequest { arch: arch::GFX90A, ..base.clone() }).contains("gfx942 and gfx950 only"));
    assert_eq!(
        err(DmaRequest { wave: 32, ..base.clone() }),
        "dma-plan: wave = 32; it must be the chip's wave size, 64"
    );
    assert_eq!(
        err(DmaRequest { workgroup: 100, ..base.clone() }),
        "dma-plan: workgroup = 100; it must be a multiple of the wave size, at most 1024"
    );
    assert_eq!(
        err(DmaRequest { global_strides: vec![1], ..base.clone() }),
        "dma-plan: global strides = 1; give one stride per top dimension of the layout"
    );
    assert_eq!(
        err(DmaRequest { element_bytes: 8, width: 12, arch: arch::GFX950, ..base.clone() }),
        "dma-plan: width = 12; it must be a multiple or a divisor of the element size"
    );
    // 2048 bytes are 2 chunks of 64 lanes x 16 bytes: not one per subgroup.
    assert_eq!(
        err(DmaRequest { width: 16, arch: arch::GFX950, ..base.clone() }),
        "dma-plan: chunks = 2; the layout's stored bytes form this many runs of wave * slot bytes (one load each; \
         the slot is the width, or 16 bytes for a 12-byte load), and they must split equally among the subgroups \
         (workgroup / wave)"
    );
    // 16x16 fp16 is 512 bytes: half of one 64-lane 16-byte load.
    let half = Descriptor::packed(&[16, 16]).unwrap();
    assert!(
        err(DmaRequest { lds: &half, global_strides: vec![16, 1], width: 16, arch: arch::GFX950, ..base.clone() })
            .starts_with("dma-plan: LDS bytes = 512; the tile's stored bytes end inside")
    );
    // Column-major global memory: two row neighbours are not consecutive.
    assert!(err(DmaRequest { global_strides: vec![1, 16], ..base.clone() }).contains("does not follow"));
    // An odd row pitch misaligns 4-byte loads of fp16; the message names the width's own alignment
    // (each width: a row pitch that misaligns its loads).
    assert_eq!(
        err(DmaRequest { global_strides: vec![65, 1], ..base.clone() }),
        "dma-plan: global byte address = 130; a lane's 4-byte load must be 4-byte aligned"
    );
    for (spec, width, arch, pitch, want) in [
        ("packed((64,64))", 4, arch::GFX942, 65, "a lane's 4-byte load must be 4-byte aligned"),
        ("row-padded:rows=512,cols=6,pad=2", 12, arch::GFX950, 7, "a lane's 12-byte load must be 4-byte aligned"),
        ("packed((64,64))", 16, arch::GFX950, 68, "a lane's 16-byte load must be 16-byte aligned"),
    ] {
        let tile = layouts::resolve(spec).unwrap();
        let e = err(DmaRequest { lds: &tile, global_strides: vec![pitch, 1], width, arch, ..base.clone() });
        assert!(e.starts_with("dma-plan: global byte address = ") && e.ends_with(want), "width {width}: {e}");
    }
    let padded = layouts::resolve("ck-fmha-v:n=128,k=32").unwrap();
    assert!(err(DmaRequest { lds: &padded, global_strides: vec![32, 1], ..base.clone() }).contains("padding"));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random swizzled tiles inside a wider global tensor plan and simulate exactly.
    #[test]
    fn random_swizzles_in_wide_tensors(masks in proptest::collection::vec(0usize..8, 0..4), pitch in 1i64..5, width_log in 2u32..3) {
        let d = layouts::xor_linear::xor_linear(16, 64, 8, &masks).unwrap();
        let req = DmaRequest {
            lds: &d,
            element_bytes: 2,
            global_strides: vec![64 * pitch, 1],
            arch: arch::GFX942,
            workgroup: 128,
            wave: 64,
            width: 1 << width_log,
        };
        let p = plan(&req).unwrap();
        verify(&req, &p).unwrap();
        prop_assert_eq!(p.gathers.len(), 2048 / (1 << width_log));
    }
}

#[test]
fn cli_dma_plan() {
    let run = |args: &[&str]| std::process::Command::new(env!("CARGO_BIN_EXE_cktile")).args(args).output().unwrap();
    let out = run(&[
        "dma-plan",
        "packed((16,64))",
        "--global-strides",
        "64,1",
        "--workgroup",
        "256",
        "--wave",
        "64",
        "--width",
        "4",
        "--dtype",
        "i32",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(
        "4 subgroups of 64 lanes take the chunks wave-major; each writes 1024 LDS bytes with 4 loads of 4 bytes per lane"
    ));
    assert!(text.contains(
        "subgroup 3: LDS bytes [3072, 4096)\n  load 0: s_mov_b32 m0, 3072; global_load_lds_dword offset:0 -> \
         LDS bytes [3072, 3328), lane T gathers (12, T)\n  load 1: (m0 = 3072); global_load_lds_dword offset:256"
    ));
    // CK's async copy: padding between chunks, issue-major, m0 as async_load_raw sets it.
    let ck_async = ["--width", "4", "--order", "issue-major", "--form", "buffer", "--m0", "ck"];
    let with = |head: &[&str]| run(&[head, &ck_async[..]].concat());
    let out = with(&[
        "dma-plan",
        "row-padded:rows=32,cols=64,pad=4",
        "--global-strides",
        "64,1",
        "--dtype",
        "fp32",
        "--lds-base",
        "1024",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("(size_per_wave = 272), then s_add_u32 by size_per_issue = 1088 between loads, immediate 0"));
    assert!(text.contains(
        "subgroup 1:\n  load 0: s_mov_b32 m0, 1296; buffer_load_dword ... lds offset:0 -> LDS bytes [272, 528), \
         lane T gathers (1, T)\n  load 1: s_add_u32 m0, m0, 1088;"
    ));
    // CK's async fmha K layout (128 x 32 fp16): lane T of warp 0 loads row 4 (T / 16) of its issue's
    // 16 rows, elements 2 (T % 16) and 2 (T % 16) + 1, as CK's DRAM distribution says.
    let out = with(&[
        "dma-plan",
        "naive((8,4,4,16,2),(544,32,136,2,1)) | transform(merge((8,4,4)) on [0,1,2] -> [0], merge((16,2)) on [3,4] -> [1])",
        "--global-strides",
        "4096,1",
        "--dtype",
        "fp16",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(
        "  load 1: s_add_u32 m0, m0, 1088; buffer_load_dword ... lds offset:0 -> LDS bytes [1088, 1344), lane T \
         gathers (16 + 4(T / 16), 2(T % 16))\n"
    ));
    assert!(text.contains("subgroup 3:\n  load 0: s_mov_b32 m0, 816; buffer_load_dword ... lds offset:0 -> LDS bytes [816, 1072), lane T gathers (3 + 4(T / 16), 2(T % 16))"));
    for (flag, value, message) in [
        ("--m0", "m1", "--m0: unknown name `m1`; expected one of: ck, immediate"),
        ("--form", "flat", "expected one of: global, buffer"),
        ("--order", "diagonal", "expected one of: wave-major, issue-major"),
        ("--lds-base", "2", "LDS base = 2; it must be dword-aligned"),
        ("--lds-base", "65024", "LDS base = 65024; the tile's bytes from there must end within"),
    ] {
        let out = run(&[
            "dma-plan",
            "packed((16,64))",
            "--global-strides",
            "64,1",
            "--width",
            "4",
            "--dtype",
            "i32",
            flag,
            value,
        ]);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(message), "{flag} {value}: {err}");
    }
    let out = run(&["dma-plan", "ck-universal-a:m=128,k=64", "--global-strides", "4096,1", "--width", "4", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verified"], true);
    assert_eq!(v["gathers"].as_array().unwrap().len(), 4 * 16 * 64);
    // The instructions: global form, immediate scheme; each lane's operand is its byte minus the immediate.
    let a = &v["addressing"];
    assert_eq!((a["form"].as_str(), a["scheme"].as_str()), (Some("global"), Some("immediate")));
    assert_eq!(a["issues"].as_array().unwrap().len(), 4 * 16);
    assert_eq!(a["m0_writes_per_subgroup"], serde_json::json!([1, 1, 1, 1]));
    for g in v["gathers"].as_array().unwrap() {
        let issue = &a["issues"][g["subgroup"].as_u64().unwrap() as usize * 16 + g["load"].as_u64().unwrap() as usize];
        assert_eq!(
            g["operand"].as_i64().unwrap() + issue["offset"].as_i64().unwrap(),
            g["global_byte"].as_i64().unwrap()
        );
        let lds = issue["m0"].as_i64().unwrap() + issue["offset"].as_i64().unwrap() + 4 * g["lane"].as_i64().unwrap();
        assert_eq!(lds, g["lds_byte"].as_i64().unwrap());
    }
    let out = run(&[
        "dma-plan",
        "row-padded:rows=16,cols=64,pad=4",
        "--global-strides",
        "64,1",
        "--width",
        "4",
        "--dtype",
        "fp16",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("padded layout cannot be filled directly"));
}

/// gfx950's 12-byte load writes each lane's 12 bytes at a 16-byte stride
/// (CK's lds_padding.hpp: the 12 -> 16 byte slot of its padded 12-byte
/// types). A tile of 12-byte rows padded to 16 plans; the image is what the
/// slot rule says, written out by hand: LDS byte 16 r + c holds global byte
/// 12 r + c, and bytes 12-15 of each slot are never written.
#[test]
fn twelve_byte_loads_fill_sixteen_byte_slots() {
    for (spec, eb, rows) in [
        ("row-padded:rows=256,cols=12,pad=4", 1usize, 256i64),
        ("row-padded:rows=512,cols=6,pad=2", 2, 512),
        ("row-padded:rows=256,cols=3,pad=1", 4, 256),
    ] {
        let d = layouts::resolve(spec).unwrap();
        let cols = d.lengths().as_slice()[1];
        let req = DmaRequest {
            lds: &d,
            element_bytes: eb,
            global_strides: vec![cols, 1],
            arch: arch::GFX950,
            workgroup: 256,
            wave: 64,
            width: 12,
        };
        let p = plan(&req).unwrap_or_else(|e| panic!("{spec}: {e}"));
        verify(&req, &p).unwrap();
        // The footprint: whole 16-byte slots, the last one's gap included.
        assert_eq!(p.lds_bytes, rows as u64 * 16, "{spec}");
        for (slot, g) in p.indexed() {
            let k = (slot.subgroup * p.loads_per_thread + slot.load) * 64 + slot.lane;
            assert_eq!(g.lds_byte, 16 * k as u64, "{spec}: {slot:?}");
        }
        let image = simulate(&p).unwrap();
        for (b, got) in image.iter().enumerate() {
            let (r, c) = (b as i64 / 16, b as i64 % 16);
            let want = (c < 12).then_some(12 * r + c);
            assert_eq!(*got, want, "{spec}: LDS byte {b}");
        }
    }
    // A layout with data in the gaps is refused, naming the first such element.
    let packed = Descriptor::packed(&[64, 12]).unwrap();
    let req = DmaRequest {
        lds: &packed,
        element_bytes: 1,
        global_strides: vec![12, 1],
        arch: arch::GFX950,
        workgroup: 64,
        wave: 64,
        width: 12,
    };
    let e = plan(&req).unwrap_err().to_string();
    assert!(e.starts_with("dma-plan: LDS offset = 12; a tile element is stored there"), "{e}");
    assert!(e.contains("16-byte slot"), "{e}");
    // Padding where the load writes is refused as before.
    let gapped = layouts::resolve("row-padded:rows=64,cols=8,pad=8").unwrap();
    let req = DmaRequest { lds: &gapped, global_strides: vec![8, 1], ..req };
    assert!(plan(&req).unwrap_err().to_string().contains("LDS offset = 8; no tile element is stored there"));
}

/// CK's async fmha K copy (`BlockFmhaPipelineQXKSVSCustomPolicy` with
/// `AsyncCopyK`), rebuilt from its own descriptors: the LDS layout
/// `MakeKLdsStoreBlockDescriptor` pads each warp's row of `warpSize *
/// KVector` elements by `KPack`, and its DRAM distribution
/// (`MakeKDramTileDistribution`) says which element lane T of warp w loads
/// in issue i. Planned issue-major with dword loads, cktile gives every
/// (warp, issue, lane) exactly the element CK's distribution gives, and m0
/// as `async_load_raw` computes it from CK's (issues, warps, lanes) view:
/// `size_per_buf + size_per_wave * warp`, plus `size_per_issue` per load.
#[test]
fn ck_fmha_async_k_copy_is_reproduced() {
    use cktile::Item;
    use cktile::distribution::Distribution;
    use cktile::spelling::parse;
    use cktile_transforms::Transform;
    let (warp, warps) = (64usize, 4usize);
    for (n_per_block, k_per_block, eb, ibuf) in
        [(128usize, 32usize, 2usize, 0usize), (64, 64, 2, 1), (256, 32, 1, 1), (128, 128, 1, 0)]
    {
        let k_vector = 4 / eb; // GetAlignmentK with AsyncCopyK: one dword per lane
        let k_pack = 16 / eb; // GetSmemKPackK
        let lanes_per_k = k_per_block / k_vector;
        let lane_groups = warp / lanes_per_k;
        let issues = n_per_block / (lane_groups * warps);
        let row = warp * k_vector + k_pack;
        let single = issues * warps * row; // the buffer size CK reserves per K tile
        let what = format!("kN0={n_per_block} kK1={k_per_block} {eb}-byte IBuf={ibuf}");
        // CK offsets buffer IBuf by IBuf * single elements (outside the element
        // space, as make_naive_tensor_descriptor_with_offset does): the tile is
        // planned from offset 0 and that shift is the LDS base.
        let base_at = |offset: usize| {
            Descriptor::naive_with_offset(
                &[issues, lane_groups, warps, lanes_per_k, k_vector],
                &[warps * row, k_per_block, row, k_vector, 1],
                offset,
            )
            .unwrap()
        };
        let merge = |lengths: &[usize], lower: &[usize], upper: usize| {
            Item::new(Transform::merge(lengths).unwrap(), lower, &[upper]).unwrap()
        };
        let pass = |len: usize, lower: usize, upper: usize| {
            Item::new(Transform::pass_through(len).unwrap(), &[lower], &[upper]).unwrap()
        };
        // The tile view (N, K) and CK's (issues, warps, lanes) view of the same LDS.
        let tile = base_at(0)
            .transform(&[
                merge(&[issues, lane_groups, warps], &[0, 1, 2], 0),
                merge(&[lanes_per_k, k_vector], &[3, 4], 1),
            ])
            .unwrap();
        let issues_warps_lanes = base_at(ibuf * single)
            .transform(&[
                pass(issues, 0, 0),
                pass(warps, 2, 1),
                merge(&[lane_groups, lanes_per_k, k_vector], &[1, 3, 4], 2),
            ])
            .unwrap();
        let req = DmaRequest {
            lds: &tile,
            element_bytes: eb,
            global_strides: vec![4096, 1],
            arch: arch::GFX942,
            workgroup: warp * warps,
            wave: warp,
            width: 4,
        };
        let p = plan_ordered(&req, Order::IssueMajor).unwrap_or_else(|e| panic!("{what}: {e}"));
        verify(&req, &p).unwrap();
        assert_eq!(p.loads_per_thread, issues, "{what}");
        let dram = Distribution::new(
            parse(&format!(
                "tile_distribution_encoding<sequence<1>, tuple<sequence<{issues}, {lane_groups}, {warps}>, \
                 sequence<{lanes_per_k}, {k_vector}>>, tuple<sequence<1>, sequence<1, 2>>, \
                 tuple<sequence<2>, sequence<1, 0>>, sequence<1, 2>, sequence<0, 1>>"
            ))
            .unwrap(),
        )
        .unwrap();
        for w in 0..warps {
            for i in 0..issues {
                for t in 0..warp {
                    let ck = dram.calculate_index(&[w as i64, t as i64, i as i64, 0]).unwrap();
                    assert_eq!(
                        p.gather(w, t, i).unwrap().coordinate,
                        ck.as_slice(),
                        "{what}: warp {w} issue {i} lane {t}"
                    );
                }
            }
        }
        let offset = |x: [i64; 3]| issues_warps_lanes.calculate_offset(&x) as u64 * eb as u64;
        let size_per_buf = offset([0, 0, 0]);
        let size_per_wave = offset([0, 1, 0]) - size_per_buf;
        let size_per_issue = if issues > 1 { offset([1, 0, 0]) - size_per_buf } else { 0 };
        assert_eq!(size_per_buf, (ibuf * single * eb) as u64);
        let a = address(&p, &req.arch, Form::Buffer, Scheme::Ck, size_per_buf).unwrap();
        verify_addressing(&req, &p, &a).unwrap();
        for w in 0..warps {
            let init = size_per_buf + size_per_wave * w as u64;
            assert_eq!(a.issue(w, 0).unwrap().write, M0Write::Set(init as u32), "{what}: warp {w}");
            for i in 1..issues {
                let issue = a.issue(w, i).unwrap();
                assert_eq!(issue.write, M0Write::Add(size_per_issue as u32), "{what}");
                assert_eq!(u64::from(issue.m0), init + size_per_issue * i as u64, "{what}");
            }
        }
    }
}

/// The instruction-level run uses only m0, the immediates and the lane
/// rule, so a wrong m0 write, an immediate out of its form's range, or two
/// loads on one chunk are caught there, each named.
#[test]
fn executing_the_instructions_catches_wrong_addressing() {
    let tile = Descriptor::packed(&[16, 64]).unwrap();
    let req = notes_request(&tile);
    let p = plan(&req).unwrap();
    let good = address(&p, &req.arch, Form::Buffer, Scheme::Ck, 0).unwrap();
    assert_eq!(execute(&p, &good).unwrap(), simulate(&p).unwrap());
    let mut a = good.clone();
    a.issues[2].write = M0Write::Add(512);
    assert_eq!(
        verify_addressing(&req, &p, &a).unwrap_err().to_string(),
        "dma-plan: load = 2; m0 is unset there, or not the value the load records"
    );
    // Recording the wrong m0 consistently moves the data: the image check names the first byte off.
    let mut a = good.clone();
    a.issues[2].write = M0Write::Add(512);
    a.issues[2].m0 = 768;
    a.issues[3].m0 = 1024;
    let e = verify_addressing(&req, &p, &a).unwrap_err().to_string();
    assert!(e.contains("two loads write it") || e.contains("outside the tile"), "{e}");
    let mut a = good.clone();
    a.issues[1].offset = -4;
    a.issues[1].m0 += 4;
    a.issues[1].write = M0Write::Add(260);
    assert_eq!(
        execute(&p, &a).unwrap_err().to_string(),
        "dma-plan: immediate offset = -4; buffer_load ... lds encodes 12 bits, unsigned: 0 to 4095"
    );
    let mut a = address(&p, &req.arch, Form::Global, Scheme::Immediate, 0).unwrap();
    a.issues[0].offset = 4096;
    assert!(execute(&p, &a).unwrap_err().to_string().contains("13 bits, signed: -4096 to 4095"));
}

/// CK's scheme needs bases affine in (subgroup, load); a layout whose
/// padding between chunks varies is refused by it, naming the first base
/// off the line, and addressed by the immediate scheme with one m0.
/// The buffer form's 32-bit voffset refuses a tensor past 4 GiB.
#[test]
fn addressing_refusals_name_the_value() {
    // Rows of 64 fp32 at element offsets 0, 64, 144, 208: a 16-element gap after row 1 only.
    let d = Descriptor::naive(&[2, 2, 64], &[144, 64, 1]).unwrap();
    let req = DmaRequest {
        lds: &d,
        element_bytes: 4,
        global_strides: vec![128, 64, 1],
        arch: arch::GFX942,
        workgroup: 64,
        wave: 64,
        width: 4,
    };
    let p = plan(&req).unwrap();
    verify(&req, &p).unwrap();
    assert_eq!((0..4).map(|i| p.chunk_base(0, i).unwrap()).collect::<Vec<_>>(), [0, 256, 576, 832]);
    let e = address(&p, &req.arch, Form::Buffer, Scheme::Ck, 0).unwrap_err().to_string();
    assert!(e.starts_with("dma-plan: chunk base = 576; CK's async_load_raw sets m0"), "{e}");
    let a = address(&p, &req.arch, Form::Global, Scheme::Immediate, 0).unwrap();
    assert_eq!(a.issues.iter().map(|i| i.offset).collect::<Vec<_>>(), [0, 256, 576, 832]);
    verify_addressing(&req, &p, &a).unwrap();
    // The immediate moves the global address too: row 2 (global byte 512) at LDS distance 576
    // would need a voffset of -64, which a buffer load cannot take.
    let e = address(&p, &req.arch, Form::Buffer, Scheme::Immediate, 0).unwrap_err().to_string();
    assert!(e.starts_with("dma-plan: global byte = 512; the buffer form passes"), "{e}");
    // A row pitch of 2^30 fp32 elements puts row 1 at byte 2^32: past a buffer's voffset.
    let tile = Descriptor::packed(&[4, 64]).unwrap();
    let far = DmaRequest { lds: &tile, global_strides: vec![1 << 30, 1], ..req.clone() };
    let p = plan(&far).unwrap();
    let e = address(&p, &far.arch, Form::Buffer, Scheme::Ck, 0).unwrap_err().to_string();
    assert!(e.starts_with("dma-plan: global byte = 4294967296; the buffer form passes"), "{e}");
    verify_addressing(&far, &p, &address(&p, &far.arch, Form::Global, Scheme::Ck, 0).unwrap()).unwrap();
}

/// 1- and 2-byte loads: each lane writes a dword, its bytes then
/// zeros, so the planner takes the layouts with padding in the rest of every
/// dword, and the simulation of its plan gives the layout's image; a layout
/// with an element in the zeros is refused at that element.
#[test]
fn sub_dword_loads_fill_layouts_with_a_dword_per_lane() {
    for (spec, eb, width, arch) in [
        ("naive((16,64),(256,4))", 1usize, 1usize, arch::GFX942),
        ("naive((16,64),(256,4))", 1, 1, arch::GFX950),
        ("naive((16,64),(128,2))", 2, 2, arch::GFX942),
        ("naive((32,16),(64,4))", 1, 1, arch::GFX942),
        ("naive((8,32),(128,4))", 1, 1, arch::GFX942),
    ] {
        let d = layouts::resolve(spec).unwrap();
        let cols = d.lengths().as_slice()[1];
        let req = DmaRequest {
            lds: &d,
            element_bytes: eb,
            global_strides: vec![cols, 1],
            arch,
            workgroup: 256,
            wave: 64,
            width,
        };
        let p = plan(&req).unwrap_or_else(|e| panic!("{spec} width {width}: {e}"));
        verify(&req, &p).unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert_eq!(simulate(&p).unwrap(), expected_image(&req).unwrap(), "{spec}");
        // Lane T of every load writes at 4 * T from the load's base.
        for (slot, g) in p.indexed() {
            assert_eq!(g.lds_byte, p.chunk_base(slot.subgroup, slot.load).unwrap() + 4 * slot.lane as u64, "{spec}");
        }
    }
    for (spec, eb, width, offset) in
        [("packed((16,64))", 1usize, 1usize, 1), ("packed((16,64))", 2, 2, 1), ("naive((16,64),(128,2))", 1, 1, 2)]
    {
        let d = layouts::resolve(spec).unwrap();
        let req = DmaRequest {
            lds: &d,
            element_bytes: eb,
            global_strides: vec![64, 1],
            arch: arch::GFX942,
            workgroup: 256,
            wave: 64,
            width,
        };
        let e = plan(&req).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!(
                "dma-plan: LDS offset = {offset}; a tile element is stored there, but a {width}-byte"
            )),
            "{spec}: {e}"
        );
    }
}
