//! gfx1250's async global-to-LDS plan (`cktile::plan::async_lds`) against
//! its rule restated here: vector c of the tile (row-major, `width` bytes)
//! goes to thread c % workgroup in load c / workgroup, at the layout's LDS
//! byte and the global strides' byte; each wave's LDS writes counted by
//! brute force as gfx1250's ds_write of the width (b128: two 16-lane
//! phases on 64 banks; narrower: one 32-lane phase), distinct words per
//! bank; and every refusal named.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::analyzer::arch;
use cktile::plan::async_lds::{AsyncRequest, plan, verify};
use std::collections::{HashMap, HashSet};
use std::process::Command;

fn brute_ways(addrs: &[Option<u64>], width: u64) -> u32 {
    let per = if width == 16 { 16 } else { 32 };
    let mut worst = 0;
    for phase in addrs.chunks(per) {
        let mut banks: HashMap<u64, HashSet<u64>> = HashMap::new();
        for a in phase.iter().flatten() {
            for w in a / 4..(a + width).div_ceil(4) {
                banks.entry(w % 64).or_default().insert(w);
            }
        }
        worst = worst.max(banks.values().map(HashSet::len).max().unwrap_or(0) as u32);
    }
    worst
}

#[test]
fn every_plan_is_the_rule_by_brute_force() {
    let layouts = [
        ("cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64", 64, 64),
        ("row-padded:rows=64,cols=64,pad=8", 64, 64),
        ("row-padded:rows=32,cols=64,pad=0", 32, 64),
        ("ck-universal-a:m=64,k=32", 64, 32),
        ("ck-xor-preshuffle:m=64,k=64,kpack=8", 64, 64),
    ];
    let mut ways_seen = HashSet::new();
    for (entry, rows, cols) in layouts {
        let desc = cktile::layouts::resolve(entry).unwrap();
        for width in [4usize, 8, 16] {
            for workgroup in [32usize, 128, 256] {
                let req = AsyncRequest {
                    lds: &desc,
                    element_bytes: 2,
                    global_strides: vec![4096, 1],
                    arch: arch::GFX1250,
                    workgroup,
                    width,
                };
                let p = plan(&req).unwrap_or_else(|e| panic!("{entry} width {width}: {e}"));
                verify(&req, &p).unwrap();
                let vec = width as i64 / 2;
                let chunks = (rows * cols / vec) as usize;
                assert_eq!((p.loads.len(), p.loads_per_thread), (chunks, chunks.div_ceil(workgroup)));
                for (c, l) in p.loads.iter().enumerate() {
                    let (r, k) = ((c as i64 * vec) / cols, (c as i64 * vec) % cols);
                    assert_eq!(
                        (l.thread, l.load, l.coordinate.as_slice()),
                        (c % workgroup, c / workgroup, &[r, k][..])
                    );
                    assert_eq!(l.lds_byte, 2 * desc.calculate_offset(&[r, k]) as u64);
                    assert_eq!(l.global_byte, 2 * (4096 * r + k));
                }
                let mut worst = 0;
                for load in 0..p.loads_per_thread {
                    for wave in 0..workgroup / 32 {
                        let addrs: Vec<Option<u64>> = (0..32)
                            .map(|lane| p.loads.get(load * workgroup + wave * 32 + lane).map(|l| l.lds_byte))
                            .collect();
                        worst = worst.max(brute_ways(&addrs, width as u64));
                    }
                }
                assert_eq!(p.worst_ways, worst, "{entry} width {width} workgroup {workgroup}");
                ways_seen.insert(worst);
            }
        }
    }
    // Conflict-free plans and conflicting ones both occur.
    assert!(ways_seen.contains(&1) && ways_seen.iter().any(|&w| w > 1), "{ways_seen:?}");
}

#[test]
fn what_an_async_load_cannot_do_is_refused_by_name() {
    let swizzled = cktile::layouts::resolve("cute-swizzle:b=3,mbase=0,s=3,rows=64,cols=64").unwrap();
    let packed = cktile::Descriptor::packed(&[64, 64]).unwrap();
    let req = |lds, width, strides: Vec<i64>, a, workgroup| AsyncRequest {
        lds,
        element_bytes: 2,
        global_strides: strides,
        arch: a,
        workgroup,
        width,
    };
    let cases = [
        (req(&swizzled, 16, vec![64, 1], arch::GFX1250, 256), "consecutive in LDS"),
        (req(&packed, 12, vec![64, 1], arch::GFX1250, 256), "no b96"),
        (req(&packed, 16, vec![64, 2], arch::GFX1250, 256), "stride must be 1"),
        (req(&packed, 16, vec![64, 1], arch::GFX950, 256), "gfx1250"),
        (req(&packed, 16, vec![64, 1], arch::GFX1250, 48), "whole 32-lane waves"),
        (req(&packed, 16, vec![1], arch::GFX1250, 256), "one global stride per tile dimension"),
    ];
    for (r, says) in cases {
        let e = plan(&r).unwrap_err().to_string();
        assert!(e.contains(says), "{e}");
    }
    // Overlapping global strides: the replay refuses two elements at one address.
    let r = req(&packed, 16, vec![8, 1], arch::GFX1250, 256);
    let p = plan(&r).unwrap();
    assert!(verify(&r, &p).unwrap_err().to_string().contains("share a global address"));
}

#[test]
fn the_cli_prints_the_library_plan() {
    let o = Command::new(env!("CARGO_BIN_EXE_cktile"))
        .args(["dma-plan", "row-padded:rows=64,cols=64,pad=8", "--global-strides", "4096,1", "--arch", "gfx1250"])
        .args(["--path", "async", "--width", "16", "--dtype", "fp16", "--json"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let desc = cktile::layouts::resolve("row-padded:rows=64,cols=64,pad=8").unwrap();
    let req = AsyncRequest {
        lds: &desc,
        element_bytes: 2,
        global_strides: vec![4096, 1],
        arch: arch::GFX1250,
        workgroup: 256,
        width: 16,
    };
    let p = plan(&req).unwrap();
    assert_eq!(v["instruction"], "global_load_async_to_lds_b128");
    assert_eq!(
        (v["worst_ways"].as_u64(), v["loads"].as_array().unwrap().len()),
        (Some(u64::from(p.worst_ways)), p.loads.len())
    );
    assert_eq!(v["loads"][300]["lds_byte"].as_u64(), Some(p.loads[300].lds_byte));
    for (args, says) in [
        (vec!["--path", "async"], "--width: give the bytes"),
        (vec!["--path", "dma"], "--path: `dma` is not a gfx1250 path"),
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_cktile"))
            .args(["dma-plan", "row-padded:rows=64,cols=64,pad=8", "--global-strides", "4096,1", "--arch", "gfx1250"])
            .args(["--dtype", "fp16"])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains(says), "{}", String::from_utf8_lossy(&o.stderr));
    }
}
