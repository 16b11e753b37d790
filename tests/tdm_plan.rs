//! gfx1250's Tensor Data Mover plans (`cktile::plan::tdm`, `cktile dma-plan
//! --arch gfx1250`) against the stream rule restated here: element `n` of
//! the tile (row-major) at LDS byte `s + (s / I) * A`, `s = n * bytes`,
//! with `I` a power of two from 2 to 256 dwords and `A` 1 to 128 dwords
//! (Triton's `TDMUtility.cpp`), over every row-padded layout of a grid of
//! shapes, pads and element sizes: each is planned exactly when the rule
//! allows it, with that padding and those descriptor bits.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::analyzer::{ARCHS, arch};
use cktile::plan::tdm::{image, plan, verify};
use std::process::Command;

#[test]
fn row_padded_layouts_are_planned_exactly_when_the_stream_rule_allows() {
    let mut planned = 0;
    let mut refused = 0;
    for eb in [1u64, 2, 4, 8] {
        for rows in [1i64, 2, 3, 8, 16] {
            for cols in [1i64, 2, 4, 6, 8, 16, 24, 32, 64, 128, 256] {
                for pad in [0i64, 1, 2, 3, 4, 8, 16] {
                    let spec = format!("row-padded:rows={rows},cols={cols},pad={pad}");
                    let d = cktile::layouts::resolve(&spec).unwrap();
                    let got = plan(&d, eb as usize, &[cols + pad, 1], &arch::GFX1250);
                    let (interval, amount) = ((cols as u64) * eb, (pad as u64) * eb);
                    // The stream rule: no padding needed for one row or no pad; otherwise the
                    // interval is a row, the amount the pad.
                    let needs_pad = pad > 0 && rows > 1;
                    let ok = !needs_pad
                        || (interval % 4 == 0
                            && (interval / 4).is_power_of_two()
                            && (2..=256).contains(&(interval / 4))
                            && amount % 4 == 0
                            && (1..=128).contains(&(amount / 4)));
                    assert_eq!(got.is_ok(), ok, "{spec} x {eb} bytes: {got:?}");
                    let Ok(p) = got else {
                        refused += 1;
                        continue;
                    };
                    planned += 1;
                    assert_eq!(
                        p.padding.map(|q| (q.interval_bytes, q.amount_bytes)),
                        needs_pad.then_some((interval, amount))
                    );
                    // The descriptor bits, field by field.
                    let w = p.group1_dword0;
                    assert_eq!(1u64 << ((w >> 16) & 3), eb, "{spec}");
                    assert_eq!((w >> 20) & 1 == 1, needs_pad, "{spec}");
                    if needs_pad {
                        assert_eq!(2u64 << ((w >> 22) & 7), interval / 4, "{spec}");
                        assert_eq!(u64::from((w >> 25) & 0x7f) + 1, amount / 4, "{spec}");
                    }
                    // The replayed stream against the layout, by brute force.
                    verify(&d, eb as usize, &p).unwrap();
                    let img = image(&p);
                    for r in 0..rows {
                        for c in 0..cols {
                            let n = (r * cols + c) as u64;
                            let s = n * eb;
                            let at = if needs_pad { s + (s / interval) * amount } else { s };
                            assert_eq!(at, ((r * (cols + pad) + c) as u64) * eb, "{spec}: the layout itself");
                            assert_eq!(img[at as usize], Some(n), "{spec}: ({r}, {c})");
                        }
                    }
                }
            }
        }
    }
    assert!(planned > 300 && refused > 100, "{planned} planned, {refused} refused");
}

#[test]
fn what_the_tdm_cannot_load_is_refused_with_the_reason() {
    let swizzled = cktile::layouts::resolve("cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64").unwrap();
    let e = plan(&swizzled, 2, &[64, 1], &arch::GFX1250).unwrap_err().to_string();
    assert!(e.contains("element = 72") && e.contains("one stream"), "{e}");
    let packed = cktile::Descriptor::packed(&[64, 64]).unwrap();
    let e = plan(&packed, 2, &[1, 64], &arch::GFX1250).unwrap_err().to_string();
    assert!(e.contains("innermost global stride = 64"), "{e}");
    let e = plan(&packed, 2, &[64, 1], &arch::GFX942).unwrap_err().to_string();
    assert!(e.contains("does not run on gfx942") && e.contains("gfx1250"), "{e}");
    let big = cktile::Descriptor::packed(&[2, 70000]).unwrap();
    let e = plan(&big, 1, &[70000, 1], &arch::GFX1250).unwrap_err().to_string();
    assert!(e.contains("tile length = 70000"), "{e}");
    // 640 x 256 fp16 = 327680 bytes fit; one more row does not.
    let fits = cktile::Descriptor::packed(&[640, 256]).unwrap();
    assert_eq!(plan(&fits, 2, &[256, 1], &arch::GFX1250).unwrap().lds_bytes, 327680);
}

#[test]
fn the_largest_shared_memory_named_in_messages_is_the_largest_chip() {
    let largest = ARCHS.iter().map(|a| a.shared_bytes()).max().unwrap();
    assert_eq!(largest, 327680);
    assert_eq!(ARCHS.iter().find(|a| a.shared_bytes() == largest).unwrap().name(), "gfx1250");
}

#[test]
fn dma_plan_on_gfx1250_prints_the_tdm_plan() {
    let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_cktile")).arg("dma-plan").args(args).output().unwrap();
    let o = run(&[
        "row-padded:rows=64,cols=64,pad=4",
        "--global-strides",
        "4096,1",
        "--arch",
        "gfx1250",
        "--dtype",
        "fp16",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["padding"], serde_json::json!({"interval_bytes": 128, "amount_bytes": 8}));
    assert_eq!((v["lds_bytes"].as_u64(), v["group1_dword0"].as_u64()), (Some(8696), Some(0x0311_0000)));
    let o =
        run(&["packed((64,64))", "--global-strides", "64,1", "--arch", "gfx1250", "--dtype", "fp16", "--width", "16"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--width is global_load_lds's"));
    let o = run(&["packed((64,64))", "--global-strides", "64,1", "--dtype", "fp16"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--width: give the bytes each lane loads"));
}
