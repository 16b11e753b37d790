//! Every error variant of both crates, formatted: each message names the
//! offending value(s) it carries and the limit or form it breaks. Values are
//! chosen distinctive (e.g. 7331) so a message that drops one fails here.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::analyzer::Op;
use cktile::transforms::Error as T;
use cktile::{Error, ErrorKind as K, Side, Snippet};

/// `message` contains every one of `values`.
fn names(message: &str, values: &[&str]) {
    for v in values {
        assert!(message.contains(v), "`{message}` does not name `{v}`");
    }
}

#[test]
fn every_transform_error_names_its_values() {
    let cases: Vec<(T, Vec<&str>)> = vec![
        (T::ZeroLength { transform: "merge", parameter: "lengths", position: Some(3) }, vec!["merge", "lengths[3]"]),
        (T::ZeroLength { transform: "pad", parameter: "len", position: None }, vec!["pad", "len"]),
        (T::EmptyList { transform: "unmerge", parameter: "lengths" }, vec!["unmerge", "lengths"]),
        (T::TooManyDims { given: 7331, max: 8 }, vec!["7331", "8"]),
        (T::ListLengthMismatch { transform: "embed", first: 7331, second: 4242 }, vec!["embed", "7331", "4242"]),
        (T::ValueTooLarge { value: 9_999_999_999_999_999_999 }, vec!["9999999999999999999"]),
        (
            T::Overflow { transform: "merge", quantity: "the product of the lengths", value: 1 << 70 },
            vec!["merge", "product", "1180591620717411303424", "9223372036854775807"],
        ),
        (T::XorNotPowerOfTwo { l1: 7331 }, vec!["7331"]),
        (T::SliceRange { len: 7331, begin: 4242, end: 9001 }, vec!["7331", "4242", "9001"]),
        (T::SwizzleParameters { bits: 7, base: 11, shift: -3 }, vec!["7", "11", "-3"]),
        (T::SwizzleLength { len: 7331, block: 4096 }, vec!["7331", "4096"]),
        (T::LowerCount { transform: "xor", expected: 2, found: 7331 }, vec!["xor", "2", "7331"]),
        (T::LowerLengthMismatch { transform: "xor", dim: 1, expected: 4242, found: 7331 }, vec!["xor", "4242", "7331"]),
        (T::LowerOutOfRange { transform: "embed", largest: 7331, length: 4242 }, vec!["embed", "7331", "4242"]),
    ];
    for (e, values) in cases {
        names(&e.to_string(), &values);
    }
}

#[test]
fn every_cktile_error_names_its_values() {
    let t = T::XorNotPowerOfTwo { l1: 7331 };
    let cases: Vec<(K, Vec<&str>)> = vec![
        // A transform's error names the transform itself (spec errors add the line and column).
        (K::Transform { item: 5, source: t }, vec!["xor", "7331"]),
        (K::TooManyStages { max: 8 }, vec!["8"]),
        (K::TooManyItems { given: 7331, max: 8 }, vec!["7331", "8"]),
        (K::TooManyDims { given: 7331, max: 8 }, vec!["7331", "8"]),
        (
            K::IdCount { item: 3, transform: "merge", side: Side::Lower, expected: 2, found: 7331 },
            vec!["merge", "2", "7331"],
        ),
        (K::IdOutOfRange { item: 3, side: Side::Upper, id: 7331, count: 4 }, vec!["7331", "4"]),
        (K::IdRepeated { side: Side::Lower, id: 7331 }, vec!["7331"]),
        (K::IdMissing { side: Side::Upper, id: 7331 }, vec!["7331"]),
        (K::ListCount { transforms: 3, lower: 7331, upper: 4242 }, vec!["3", "7331", "4242"]),
        (K::LengthMismatch { function: "naive", first: 7331, second: 4242 }, vec!["naive", "7331", "4242"]),
        (
            K::Overflow { quantity: "the element space size", value: 1 << 64 },
            vec!["element space size", "18446744073709551616", "9223372036854775807"],
        ),
        (K::CoordinateArity { expected: 2, found: 7331 }, vec!["2", "7331"]),
        (K::NotTwoDimensional { dims: 7331 }, vec!["7331"]),
        (K::CoordinateOutOfRange { dim: 1, value: 7331, length: 4242 }, vec!["7331", "4242"]),
        (K::TooLarge { size: 73_310_000_000, limit: 16_777_216 }, vec!["73310000000", "16777216"]),
        (
            K::LayoutParameter {
                layout: "ck-xor-lds",
                parameter: "KPack",
                value: 7331,
                requirement: "it must divide K",
            },
            vec!["ck-xor-lds", "KPack", "7331", "it must divide K"],
        ),
        (K::MissingParameter { layout: "row-padded", parameter: "pad" }, vec!["row-padded", "pad"]),
        (K::Unsupported { op: Op::Stmatrix { matrices: 4, trans: false }, arch: "sm80" }, vec!["stmatrix.x4", "sm80"]),
        (K::TooManyLanes { given: 7331, wave: 64 }, vec!["7331", "64"]),
        (K::Misaligned { lane: 5, address: 7331, alignment: 16 }, vec!["5", "7331", "16"]),
        (K::OutsideTile { instruction: 3, lane: 5, coordinate: [7331, 4242] }, vec!["3", "5", "7331", "4242"]),
        (
            K::PatternOp {
                pattern: "mfma16",
                given: Some(Op::DsWrite { bits: 64 }),
                expected: "ds_read_b64 or ds_read_b128",
            },
            vec!["mfma16", "ds_write_b64", "ds_read_b64 or ds_read_b128"],
        ),
        (K::Syntax { expected: "`->`", found: Snippet::new("=>") }, vec!["`->`", "=>"]),
        (K::UnknownName { name: Snippet::new("mergee"), valid: "merge, unmerge" }, vec!["mergee", "merge, unmerge"]),
        (
            K::Arity { name: "pad", expected: "pad(len, left, right)", found: 7331 },
            vec!["pad", "pad(len, left, right)", "7331"],
        ),
        (
            K::NumberRange { number: Snippet::new("99999999999999999999"), range: "[0, 2^63)" },
            vec!["99999999999999999999", "[0, 2^63)"],
        ),
    ];
    for (kind, values) in cases {
        names(&Error::new(kind).to_string(), &values);
    }
}
