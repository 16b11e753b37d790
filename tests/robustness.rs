//! The spec reader on hostile input: random bytes, random token soup and
//! near-valid specs (a character deleted, inserted or replaced, a number
//! swapped for a huge one) must never panic; what parses must round-trip
//! through `Display` and evaluate without panicking; every error must carry
//! its position. Then the exact text of the errors for specific bad specs.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::check;
use cktile::spec::parse;
use cktile::{Coordinate, Descriptor, DescriptorProblem, ErrorKind, Index};
use proptest::prelude::*;

/// Valid specs covering every base and every transform.
const VALID: &[&str] = &[
    "naive((8,64,8),(8,64,1),8,1)
     | transform(xor((64,8)) on [1,0] -> [1,0], pass_through(8) on [2] -> [2])
     | transform(unmerge((2,4)) on [0] -> [0,2], pass_through(64) on [1] -> [1], pass_through(8) on [2] -> [3])
     | transform(merge((64,2)) on [1,0] -> [0], merge((4,8)) on [2,3] -> [1])",
    "naive_with_offset((4,8),(8,1),100) | transform(pad(4,1,2) on [0] -> [0], slice(8,2,6) on [1] -> [1])",
    "packed((4,8),4) | transform(left_pad(4,2) on [0] -> [1], right_pad(8,3) on [1] -> [0])",
    "aligned((4,6),8) | transform(embed((2,2),(2,1)) on [0] -> [0,1], offset(6,0) on [1] -> [2])",
    "packed((16)) | transform(modulo(16,64) on [0] -> [0])",
    "packed((4,4)) | transform(freeze(1) on [0] -> [], pass_through(4) on [1] -> [0], insert(3) on [] -> [1], replicate((2,2)) on [] -> [2,3])",
    "packed((64)) # a comment\n| transform(swizzle(2,1,-3) on [0] -> [0])",
    "naive((5),(1)) | transform(pad(5,2,3) on [0] -> [0])",
    "naive((4,8),(100,1),-1,1) | transform(merge((4,8)) on [0,1] -> [0]) | transform(unmerge((2,16)) on [0] -> [1,0])",
];

const HUGE: &[&str] = &[
    "0",
    "1",
    "-1",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
];

/// Exercises a parsed descriptor: display round trip, offsets at the
/// corners, moves, validity, inverse, vectors and (when small) the check.
fn exercise(text: &str, d: &Descriptor) {
    let shown = d.to_string();
    let again = parse(&shown).unwrap_or_else(|e| panic!("{text:?}\nprinted as {shown:?}\nwhich fails: {e}"));
    assert_eq!(&again, d, "{text:?} -> {shown:?}");
    assert_eq!(again.to_string(), shown);
    let lens = d.lengths();
    let zero = vec![0; lens.len()];
    let last: Vec<Index> = lens.as_slice().iter().map(|&l| l - 1).collect();
    for c in [&zero, &last] {
        let off = d.calculate_offset(c);
        let _ = d.coordinate_has_valid_offset(c);
        let mut coord = Coordinate::new(d, c);
        assert_eq!(coord.offset(), off);
        let step: Vec<Index> = zero.iter().zip(c).map(|(z, x)| z - x).collect();
        coord.move_by(d, &step);
        assert_eq!(coord.offset(), d.calculate_offset(&zero), "{text:?}");
        let _ = d.calculate_top_index(off);
    }
    let _ = d.top_vectors();
    let _ = d.element_size();
    if d.element_size().is_some_and(|n| n <= 4096) {
        let report = check::check(d).unwrap();
        assert_eq!(report.element_size, d.element_size().unwrap() as u64);
    }
}

fn parse_checked(text: &str) {
    match parse(text) {
        Ok(d) => exercise(text, &d),
        Err(e) => {
            assert!(e.position().is_some(), "{text:?}: error without a position: {e}");
            let shown = e.to_string();
            let at = e.position().unwrap().to_string();
            assert!(shown.starts_with(&format!("{at}: ")), "{shown}");
        }
    }
}

fn mutate(seed: &str, op: u8, at: usize, ch: char) -> String {
    let mut chars: Vec<char> = seed.chars().collect();
    let at = at % (chars.len() + 1);
    match op % 3 {
        0 if at < chars.len() => {
            chars.remove(at);
        }
        1 => chars.insert(at, ch),
        _ if at < chars.len() => chars[at] = ch,
        _ => chars.push(ch),
    }
    chars.into_iter().collect()
}

/// Replaces the `n`-th number of `seed` by `with`.
fn swap_number(seed: &str, n: usize, with: &str) -> String {
    let mut spans = vec![];
    let bytes = seed.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            spans.push((start, i));
        } else {
            i += 1;
        }
    }
    let (s, e) = spans[n % spans.len()];
    format!("{}{}{}", &seed[..s], with, &seed[e..])
}

#[test]
fn seeds_are_valid() {
    for text in VALID {
        let d = parse(text).unwrap_or_else(|e| panic!("{text}\n{e}"));
        exercise(text, &d);
    }
}

fn spec_char() -> impl Strategy<Value = char> {
    prop::sample::select("()[],|->0123456789 \n#_abcdefghijklmnopqrstuvwxyz-éΩ\t".chars().collect::<Vec<_>>())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        parse_checked(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn token_soup_never_panics(text in "[()\\[\\],|>0-9 \\n#a-z_-]{0,120}") {
        parse_checked(&text);
    }

    #[test]
    fn spec_shaped_soup_never_panics(
        parts in prop::collection::vec(
            prop::sample::select(vec![
                "naive", "packed", "aligned", "naive_with_offset", "transform", "merge", "unmerge", "xor", "pad",
                "left_pad", "right_pad", "embed", "slice", "freeze", "insert", "replicate", "offset", "modulo",
                "swizzle", "pass_through", "on", "->", "(", ")", "[", "]", ",", "|", "0", "1", "2", "3", "4", "8",
                "-1", "-3", "64", "9223372036854775808", " ", "\n", "# c\n",
            ]),
            0..48,
        ),
    ) {
        parse_checked(&parts.concat());
    }

    #[test]
    fn near_valid_specs_never_panic(
        seed in 0usize..VALID.len(),
        edits in prop::collection::vec((any::<u8>(), any::<usize>(), spec_char()), 1..4),
    ) {
        let mut text = VALID[seed].to_string();
        for (op, at, ch) in edits {
            text = mutate(&text, op, at, ch);
        }
        parse_checked(&text);
    }

    #[test]
    fn huge_numbers_never_panic(
        seed in 0usize..VALID.len(),
        swaps in prop::collection::vec((any::<usize>(), prop::sample::select(HUGE.to_vec())), 1..4),
    ) {
        let mut text = VALID[seed].to_string();
        for (n, with) in swaps {
            text = swap_number(&text, n, with);
        }
        parse_checked(&text);
    }
}

// ---------------------------------------------------------------------------
// Exact error messages.
// ---------------------------------------------------------------------------

fn error(text: &str) -> String {
    match parse(text) {
        Ok(d) => panic!("{text:?} parsed as {d}"),
        Err(e) => {
            assert!(e.position().is_some(), "{e}");
            e.to_string()
        }
    }
}

#[test]
fn unknown_names() {
    assert_eq!(
        error("packed((4,8)) | transform(mergee((4,8)) on [0,1] -> [0])"),
        "1:27: unknown name `mergee`; expected one of: pass_through, pad, left_pad, right_pad, embed, merge, \
         unmerge, xor, xor_no_modulo, slice, freeze, insert, replicate, offset, modulo, swizzle, cyclic_shift, indexing, \
         functor"
    );
    assert_eq!(
        error("bogus((4))"),
        "1:1: unknown name `bogus`; expected one of: naive, naive_with_offset, packed, aligned"
    );
}

#[test]
fn wrong_arity() {
    assert_eq!(
        error("packed((4,8)) | transform(pad(4,1) on [0] -> [0], pass_through(8) on [1] -> [1])"),
        "1:27: pad takes 3 arguments: pad(len, left, right), but 2 argument(s) were given"
    );
    assert_eq!(
        error("naive((4,8))"),
        "1:1: naive takes 2 or 4 arguments: naive((lengths), (strides)[, vector length, vector stride]), \
         but 1 argument(s) were given"
    );
    assert_eq!(
        error("packed((4)) | transform(pass_through() on [0] -> [0])"),
        "1:25: pass_through takes 1 argument: pass_through(len), but 0 argument(s) were given"
    );
    assert_eq!(
        error("packed((4,8)) | transform(xor((4,8,2)) on [0,1] -> [0,1])"),
        "1:31: expected a pair (L0, L1), found `a tuple of another size`"
    );
}

#[test]
fn ids_out_of_range() {
    assert_eq!(
        error("packed((4,8)) | transform(merge((4,8)) on [0,2] -> [0])"),
        "1:27: transform 0: lower id 2 is out of range; there are 2 old top dimensions (ids 0..2)"
    );
    assert_eq!(
        error("packed((4,8)) | transform(pass_through(4) on [0] -> [0], pass_through(8) on [1] -> [5])"),
        "1:58: transform 1: upper id 5 is out of range; there are 2 new top dimensions (ids 0..2)"
    );
}

/// Ids above 255 must be reported as written. (Fails at the time of writing:
/// `Ids::from_slice` saturates them to 255, so the message names id 255.)
#[test]
fn ids_above_255_are_named_as_written() {
    assert_eq!(
        error("packed((4)) | transform(pass_through(4) on [256] -> [0])"),
        "1:25: transform 0: lower id 256 is out of range; there are 1 old top dimensions (ids 0..1)"
    );
    assert_eq!(
        error("packed((4)) | transform(pass_through(4) on [0] -> [1000])"),
        "1:25: transform 0: upper id 1000 is out of range; there are 1 new top dimensions (ids 0..1)"
    );
}

#[test]
fn ids_not_a_permutation() {
    assert_eq!(
        error("packed((4,8)) | transform(pass_through(4) on [0] -> [0], pass_through(8) on [0] -> [1])"),
        "1:17: lower ids are not a permutation: 0 appears more than once"
    );
    assert_eq!(
        error("packed((4,8)) | transform(pass_through(4) on [0] -> [1], pass_through(8) on [1] -> [1])"),
        "1:17: upper ids are not a permutation: 1 appears more than once"
    );
    assert_eq!(
        error("packed((4,8)) | transform(pass_through(4) on [0] -> [0])"),
        "1:17: lower ids are not a permutation: old top dimension 1 is not named (each must appear exactly once)"
    );
    assert_eq!(
        error("packed((4,8)) | transform(merge((4,8)) on [0] -> [0])"),
        "1:27: transform 0 (merge) has 2 lower dimension(s) but its lower id list has 1"
    );
}

#[test]
fn lengths_that_do_not_fit() {
    assert_eq!(
        error("packed((24)) | transform(unmerge((2,3,5)) on [0] -> [0,1,2])"),
        "1:26: unmerge: lower dimension 0 should have length 30 but the dimension it is applied to has length 24"
    );
    assert_eq!(
        error("packed((4,8)) | transform(merge((4,9)) on [0,1] -> [0])"),
        "1:27: merge: lower dimension 1 should have length 9 but the dimension it is applied to has length 8"
    );
    assert_eq!(
        error("packed((4,8)) | transform(merge((8,4)) on [0,1] -> [0])"),
        "1:27: merge: lower dimension 0 should have length 8 but the dimension it is applied to has length 4"
    );
    assert_eq!(
        error("packed((12)) | transform(embed((3,4),(5,1)) on [0] -> [0,1])"),
        "1:26: embed: produces lower index 13 but the dimension it is applied to has length 12"
    );
    assert!(parse("packed((12)) | transform(embed((3,4),(4,1)) on [0] -> [0,1])").is_ok());
}

#[test]
fn zero_lengths() {
    assert_eq!(
        error("packed((4)) | transform(pad(0,1,1) on [0] -> [0])"),
        "1:25: pad: len is 0; it must be at least 1"
    );
    assert_eq!(error("naive((4,0),(1,1))"), "1:1: naive: lengths[1] is 0; every length must be at least 1");
    assert_eq!(error("packed((4,0))"), "1:1: packed: lengths[1] is 0; every length must be at least 1");
    assert_eq!(
        error("packed((4)) | transform(unmerge((2,0)) on [0] -> [0,1])"),
        "1:25: unmerge: upper lengths[1] is 0; every length must be at least 1"
    );
}

#[test]
fn xor_not_a_power_of_two() {
    assert_eq!(
        error("packed((4,6)) | transform(xor((4,6)) on [0,1] -> [0,1])"),
        "1:27: xor: L1 = 6 is not a power of two; up1 ^ (up0 % L1) stays in [0, L1) only for L1 = 1, 2, 4, 8, ..."
    );
}

#[test]
fn swizzle_errors() {
    assert_eq!(
        error("packed((64)) | transform(swizzle(3,3,2) on [0] -> [0])"),
        "1:26: swizzle(3, 3, 2): need |S| >= B (|2| >= 3) and base + |shift| + bits <= 62"
    );
    assert_eq!(
        error("packed((96)) | transform(swizzle(3,3,3) on [0] -> [0])"),
        "1:26: swizzle on a dimension of length 96: the length must be a multiple of 64, the block the swizzle permutes"
    );
    assert_eq!(
        error("packed((64)) | transform(swizzle(63,0,63) on [0] -> [0])"),
        "1:34: number 63 is out of range; expected an integer in [0, 62]"
    );
}

#[test]
fn overflow_and_number_range() {
    assert_eq!(
        error("naive((4294967296,4294967296),(4294967296,1))"),
        "1:1: the element space size is 18446744073709551616, past the largest signed 64-bit index 9223372036854775807; use smaller lengths"
    );
    assert_eq!(
        // 3037000499 * 3037000500 + 3037000499 + 1 = 3037000500^2, just past 2^63.
        error("naive((3037000500,3037000500),(3037000500,1))"),
        "1:1: the element space size is 9223372037000250000, past the largest signed 64-bit index 9223372036854775807; use smaller lengths"
    );
    let e = error("packed((4294967296,4294967296))");
    assert_eq!(
        e,
        "1:1: the element space size is 18446744073709551616, past the largest signed 64-bit index 9223372036854775807; use smaller lengths"
    );
    assert_eq!(
        error("packed((9223372036854775808))"),
        "1:9: number 9223372036854775808 is out of range; expected an integer in [0, 2^63)"
    );
    assert_eq!(error("packed((-4))"), "1:9: number -4 is out of range; expected an integer in [0, 2^63)");
    assert_eq!(
        error("packed((4)) | transform(pad(4,9223372036854775807,1) on [0] -> [0])"),
        "1:25: pad: the upper length is 9223372036854775811, past the largest signed 64-bit index 9223372036854775807; use smaller lengths"
    );
    // The largest element space that fits is accepted.
    let d = parse("naive((9223372036854775807),(1))").unwrap();
    assert_eq!(d.element_space_size(), i64::MAX);
    assert_eq!(d.calculate_offset(&[i64::MAX - 1]), i64::MAX - 1);
}

#[test]
fn stage_order() {
    assert_eq!(
        error("transform(pass_through(4) on [0] -> [0])"),
        "1:1: expected a base descriptor before the first transform stage, found `transform`"
    );
    assert_eq!(
        error("packed((4)) | packed((4))"),
        "1:15: expected `transform` (only the first stage is a base descriptor), found `packed`"
    );
}

#[test]
fn syntax_errors() {
    assert_eq!(error("packed((4)) extra"), "1:13: expected `|` or the end of the spec, found `extra`");
    assert_eq!(error("packed((4)))"), "1:12: expected `|` or the end of the spec, found `)`");
    assert_eq!(error("packed((4,8"), "1:12: expected `,` or `)`, found the end of the spec");
    assert_eq!(error("packed((4,8)"), "1:13: expected `,` or `)`, found the end of the spec");
    assert_eq!(
        error(""),
        "1:1: expected a base descriptor (naive, naive_with_offset, packed or aligned), found the end of the spec"
    );
    assert_eq!(
        error("  # only a comment\n"),
        "2:1: expected a base descriptor (naive, naive_with_offset, packed or aligned), found the end of the spec"
    );
    assert_eq!(error("packed((4)) @"), "1:13: expected a name, a number or one of ( ) [ ] , | ->, found `@`");
    assert_eq!(error("packed((-))"), "1:9: expected a number after `-`, found `-`");
    assert_eq!(error("packed((4)) | transform(pass_through(4) [0] -> [0])"), "1:41: expected `on`, found `[`");
    assert_eq!(error("packed((4)) | transform(pass_through(4) on [0] [0])"), "1:48: expected `->`, found `[`");
    assert_eq!(error("packed((4)) | transform()"), "1:25: expected a transform name, found `)`");
    assert_eq!(error("packed((4)) |"), "1:14: expected `transform`, found the end of the spec");
}

#[test]
fn positions_across_lines_and_comments() {
    let text = "# GEMM tile\npacked((4,8))   # the base\n| transform(merge((4,9)) on [0,1] -> [0])  # wrong\n";
    assert_eq!(
        error(text),
        "3:13: merge: lower dimension 1 should have length 9 but the dimension it is applied to has length 8"
    );
    let text = "packed((4,8))\n  # comment line\n  | transform(pass_through(4) on [0] -> [0],\n              pass_through(8) on [1] -> [3])";
    assert_eq!(error(text), "4:15: transform 1: upper id 3 is out of range; there are 2 new top dimensions (ids 0..2)");
    let e = parse(text).unwrap_err();
    assert_eq!(e.position().map(|p| (p.line, p.column)), Some((4, 15)));
    assert!(matches!(
        e.kind(),
        ErrorKind::Port(cktile_core::ErrorKind::Descriptor(DescriptorProblem::IdOutOfRange {
            item: 1,
            id: 3,
            count: 2,
            ..
        }))
    ));
}

#[test]
fn too_many_stages() {
    let mut text = "packed((4))".to_string();
    for _ in 0..7 {
        text.push_str(" | transform(pass_through(4) on [0] -> [0])");
    }
    assert_eq!(parse(&text).unwrap().stages().len(), 8);
    text.push_str(" | transform(pass_through(4) on [0] -> [0])");
    let e = parse(&text).unwrap_err();
    assert!(matches!(
        e.kind(),
        ErrorKind::Port(cktile_core::ErrorKind::Descriptor(DescriptorProblem::TooManyStages { max: 8 }))
    ));
    assert!(e.to_string().ends_with("a descriptor has at most 8 stages"), "{e}");
    assert!(e.position().is_some());
}
