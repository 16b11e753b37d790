//! Direct-to-LDS planning: the design note's worked example, every catalogue
//! entry at every load width (simulated byte for byte), the refusals, and
//! the CLI.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::Descriptor;
use cktile::analyzer::arch;
use cktile::layouts::{self, CATALOG};
use cktile::plan::dma::{DmaRequest, plan, simulate, verify};
use proptest::prelude::*;

fn packed_strides(d: &Descriptor) -> Vec<i64> {
    let lengths = d.lengths();
    let mut strides = vec![1i64; lengths.len()];
    for k in (0..lengths.len().saturating_sub(1)).rev() {
        strides[k] = strides[k + 1] * lengths.as_slice()[k + 1];
    }
    strides
}

#[test]
fn the_design_notes_example_comes_out_exactly() {
    let tile = Descriptor::packed(&[16, 64]).unwrap();
    let req = DmaRequest {
        lds: &tile,
        element_bytes: 4,
        global_strides: vec![64, 1],
        arch: arch::GFX942,
        workgroup: 256,
        wave: 64,
        width: 4,
    };
    let p = plan(&req).unwrap();
    assert_eq!((p.subgroups, p.slice_bytes, p.loads_per_thread, p.lds_bytes), (4, 1024, 4, 4096));
    for g in 0..4 {
        assert_eq!(p.slice(g), (g as u64 * 1024)..(g as u64 + 1) * 1024);
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
/// chips: a plan that is made passes the simulation; a refusal is one of the
/// documented reasons; bijective tiles whose bytes split evenly always plan
/// at the element's own width, and padded tiles never do.
#[test]
fn every_catalogue_entry_at_every_width_simulates_to_its_image() {
    let mut planned = 0;
    for e in CATALOG {
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
                            assert!(e.bijective, "{}", e.example);
                            planned += 1;
                        }
                        Err(err) => {
                            let m = err.to_string();
                            let known = [
                                "padding",
                                "equal subgroup slices",
                                "multiple or a divisor",
                                "does not follow",
                                "aligned",
                                "one dword per lane",
                                "shared memory",
                                "16-byte slot",
                            ];
                            assert!(known.iter().any(|k| m.contains(k)), "{} w={width} eb={eb}: {m}", e.example);
                            let lds = d.element_space_size() as usize * eb;
                            if e.bijective && width == eb && width >= 4 && lds % (256 * width) == 0 {
                                panic!("{} w={width} eb={eb} should plan: {m}", e.example);
                            }
                            if !e.bijective && width >= 4 {
                                assert!(m.contains("padding"), "{}: {m}", e.example);
                            }
                        }
                    }
                }
            }
        }
    }
    // 68 plans at widths of 4 bytes and more (1- and 2-byte loads are refused: one dword per lane).
    assert!(planned >= 68, "only {planned} plans");
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
    // 2048 bytes cannot split into 4 slices of whole 16-byte-per-lane loads.
    assert!(err(DmaRequest { width: 16, arch: arch::GFX950, ..base.clone() }).contains("equal subgroup slices"));
    // Column-major global memory: two row neighbours are not consecutive.
    assert!(err(DmaRequest { global_strides: vec![1, 16], ..base.clone() }).contains("does not follow"));
    // An odd row pitch misaligns 4-byte loads of fp16.
    assert!(err(DmaRequest { global_strides: vec![65, 1], ..base.clone() }).contains("aligned"));
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
    assert!(
        text.contains("4 subgroups of 64 lanes; each fills 1024 contiguous LDS bytes with 4 loads of 4 bytes per lane")
    );
    assert!(
        text.contains("subgroup 3: LDS bytes [3072, 4096)\n  load 0: LDS bytes [3072, 3328) lane T gathers (12, T)")
    );
    let out = run(&["dma-plan", "ck-universal-a:m=128,k=64", "--global-strides", "4096,1", "--width", "4", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verified"], true);
    assert_eq!(v["gathers"].as_array().unwrap().len(), 4 * 16 * 64);
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
