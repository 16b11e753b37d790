//! A transposing instruction over a transposed view: `analyze` says so and
//! gives the text that turns the view back into the stored layout; that
//! text, pasted, analyses exactly as the stored layout does.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::analyzer::{Op, Pattern, arch};
use cktile::reports::accesses::Accesses;
use std::process::Command;

fn swap(rows: usize, cols: usize) -> String {
    format!(" | transform(pass_through({cols}) on [1] -> [0], pass_through({rows}) on [0] -> [1])")
}

#[test]
fn transposed_views_are_named_with_the_stored_layout() {
    let trans = Accesses::Pattern(Pattern::Ldmatrix { op: Op::Ldmatrix { matrices: 4, trans: true } });
    for (stored, rows, cols) in [
        ("packed((64,32))", 64, 32),
        ("cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64", 64, 64),
        ("ck-xor-preshuffle:m=32,k=64,kpack=8", 32, 64),
    ] {
        // The view: the stored layout with its dimensions swapped (cols x rows).
        let view_text = format!("{}{}", cktile::layouts::resolve(stored).unwrap(), swap(rows, cols));
        let view = cktile::spec::parse(&view_text).unwrap();
        let e = trans.analyze(&view, 2, &arch::SM90, &mut |_, _| {}).unwrap_err().to_string();
        let hint = swap(cols, rows);
        assert!(e.contains(hint.trim_start()), "{stored}: {e}");
        // Pasted back: the stored layout's own report.
        let back = cktile::spec::parse(&format!("{view_text}{hint}")).unwrap();
        let direct = cktile::layouts::resolve(stored).unwrap();
        let a = trans.analyze(&back, 2, &arch::SM90, &mut |_, _| {}).unwrap();
        let b = trans.analyze(&direct, 2, &arch::SM90, &mut |_, _| {}).unwrap();
        assert_eq!(a.counts, b.counts, "{stored}");
        // Without .trans the old refusal stands: the instruction does not transpose.
        let plain = Accesses::Pattern(Pattern::Ldmatrix { op: Op::Ldmatrix { matrices: 4, trans: false } });
        let e = plain.analyze(&view, 2, &arch::SM90, &mut |_, _| {}).unwrap_err().to_string();
        assert!(e.contains("contiguous for 1 element(s) only"), "{e}");
    }
    // Neither orientation contiguous (an element-level swizzle): the contiguity refusal stands.
    let scrambled = cktile::layouts::resolve("cute-swizzle:b=3,mbase=0,s=3,rows=64,cols=64").unwrap();
    let e = trans.analyze(&scrambled, 2, &arch::SM90, &mut |_, _| {}).unwrap_err().to_string();
    assert!(e.contains("contiguous for"), "{e}");
}

#[test]
fn the_cli_hint_pastes_back() {
    let view = "packed((32,64)) | transform(pass_through(64) on [1] -> [0], pass_through(32) on [0] -> [1])";
    let run = |spec: &str| {
        Command::new(env!("CARGO_BIN_EXE_cktile"))
            .args([
                "analyze",
                spec,
                "--dtype",
                "fp16",
                "--arch",
                "sm90",
                "--pattern",
                "ldmatrix",
                "--op",
                "ldmatrix.x4.trans",
            ])
            .output()
            .unwrap()
    };
    let o = run(view);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    let hint = err.split('`').nth(1).unwrap();
    assert!(run(&format!("{view} {hint}")).status.success());
}
