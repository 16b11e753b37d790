//! Every error variant of both crates, formatted: each message names the
//! offending value(s) it carries and the limit or form it breaks. Values are
//! chosen distinctive (e.g. 7331) so a message that drops one fails here.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::analyzer::AnalyzerProblem as A;
use cktile::analyzer::Op;
use cktile::transforms::Error as T;
use cktile::{DescriptorProblem as D, Error, ParameterProblem as P, Side, Snippet, SpecProblem as S, VectorFault as V};

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
            T::Negative { transform: "naive", parameter: "strides", position: Some(3), value: -7331 },
            vec!["naive", "strides[3]", "-7331", "non-negative"],
        ),
        (
            T::Negative { transform: "naive_with_offset", parameter: "offset", position: None, value: -7331 },
            vec!["naive_with_offset", "offset", "-7331"],
        ),
        (
            T::Overflow { transform: "merge", quantity: "the product of the lengths", value: 1 << 70 },
            vec!["merge", "product", "1180591620717411303424", "9223372036854775807"],
        ),
        (T::XorNotPowerOfTwo { l1: 7331 }, vec!["7331"]),
        (T::XorUnreduced { l0: 4242, l1: 7331 }, vec!["xor_no_modulo", "4242", "7331", "8192"]),
        (T::SliceRange { len: 7331, begin: 4242, end: 9001 }, vec!["7331", "4242", "9001"]),
        (T::SwizzleParameters { bits: 7, base: 11, shift: -3 }, vec!["7", "11", "-3"]),
        (T::SwizzleLength { len: 7331, block: 4096 }, vec!["7331", "4096"]),
        (T::FunctorTarget { bits: 5, position: 3, value: 7331 }, vec!["functor", "bit targets[3]", "7331", "0 to 4"]),
        (T::FunctorFlip { bits: 5, flip: 7331 }, vec!["functor", "flip 7331", "[0, 31]"]),
        (
            T::FunctorLength { len: 7331, map: cktile_transforms::kinds::functor::BitPermute::PERMUTE_BITS_5 },
            vec!["functor(7331,(2,3,4,0,1),0)", "index 7329 maps to 7332", "multiple of 32", "7329 and 7359"],
        ),
        (
            T::FunctorLength { len: i64::MAX, map: cktile_transforms::kinds::functor::BitPermute::SWAP_WARP },
            vec!["index 9223372036854775806 maps to 9223372036854775807", "largest such length is 9223372036854775806"],
        ),
        (T::LowerCount { transform: "xor", expected: 2, found: 7331 }, vec!["xor", "2", "7331"]),
        (
            T::ArgumentCount { kind: cktile_transforms::Kind::Slice, found: 7331 },
            vec!["slice(len, begin, end)", "3 arguments", "7331"],
        ),
        (
            T::Argument {
                kind: cktile_transforms::Kind::Offset,
                position: 1,
                found: cktile_transforms::Found::Int(-7331),
            },
            vec!["offset", "argument 2", "off", "-7331", "[0, 2^63)"],
        ),
        (
            T::Argument {
                kind: cktile_transforms::Kind::Offset,
                position: 1,
                found: cktile_transforms::Found::Missing,
            },
            vec!["offset", "argument 2", "off", "missing"],
        ),
        (
            T::Argument {
                kind: cktile_transforms::Kind::Offset,
                position: 7331,
                found: cktile_transforms::Found::List(4242),
            },
            vec!["offset", "argument 7332", "offset(len, off)"],
        ),
        (
            T::Argument {
                kind: cktile_transforms::Kind::Merge,
                position: 0,
                found: cktile_transforms::Found::List(4242),
            },
            vec!["merge", "argument 1", "(lower lengths)", "a list of 4242 values"],
        ),
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
    let cases: Vec<(Error, Vec<&str>)> = vec![
        // A transform's error names the transform itself (spec errors add the line and column).
        (D::Transform { item: 5, source: t }.into(), vec!["xor", "7331"]),
        (D::TooManyStages { max: 8 }.into(), vec!["8"]),
        (D::TooManyItems { given: 7331, max: 8 }.into(), vec!["7331", "8"]),
        (D::TooManyDims { given: 7331, max: 8 }.into(), vec!["7331", "8"]),
        (
            D::IdCount { item: 3, transform: "merge", side: Side::Lower, expected: 2, found: 7331 }.into(),
            vec!["merge", "2", "7331"],
        ),
        (D::IdOutOfRange { item: 3, side: Side::Upper, id: 7331, count: 4 }.into(), vec!["7331", "4"]),
        (D::IdRepeated { side: Side::Lower, id: 7331 }.into(), vec!["7331"]),
        (D::IdMissing { side: Side::Upper, id: 7331 }.into(), vec!["7331"]),
        (D::ListCount { transforms: 3, lower: 7331, upper: 4242 }.into(), vec!["3", "7331", "4242"]),
        (D::LengthMismatch { function: "naive", first: 7331, second: 4242 }.into(), vec!["naive", "7331", "4242"]),
        (
            D::Overflow { quantity: "the element space size", value: 1 << 64 }.into(),
            vec!["element space size", "18446744073709551616", "9223372036854775807"],
        ),
        (D::CoordinateArity { expected: 2, found: 7331 }.into(), vec!["2", "7331"]),
        (D::NotTwoDimensional { dims: 7331 }.into(), vec!["7331"]),
        (D::CoordinateOutOfRange { dim: 1, value: 7331, length: 4242 }.into(), vec!["7331", "4242"]),
        (D::TooLarge { size: 73_310_000_000, limit: 16_777_216 }.into(), vec!["73310000000", "16777216"]),
        (
            D::VectorGuarantee { function: "naive", length: 0, fault: V::Length, keeps: 7331 }.into(),
            vec!["naive", "length is 0", "at least 1", "7331"],
        ),
        (
            D::VectorGuarantee { function: "naive", length: 8, fault: V::NegativeStride { stride: -7331 }, keeps: 8 }
                .into(),
            vec!["naive", "-7331", "non-negative"],
        ),
        (
            D::VectorGuarantee {
                function: "packed",
                length: 4242,
                fault: V::LastLength { dim: 3, length: 7331 },
                keeps: 7331,
            }
            .into(),
            vec!["packed", "(3)", "7331", "4242", "a multiple of 4242"],
        ),
        (
            D::VectorGuarantee {
                function: "naive",
                length: 8,
                fault: V::Stride { dim: 2, stride: 7331, guaranteed: 4242 },
                keeps: 8,
            }
            .into(),
            vec!["naive", "(2)", "7331", "4242", "guarantee stride 7331"],
        ),
        (
            D::VectorGuarantee {
                function: "naive",
                length: 8,
                fault: V::LastLength { dim: 5, length: 7331 },
                keeps: 1,
            }
            .into(),
            vec!["naive", "(5)", "7331", "8", "a multiple of 8", "no power of two above 1 does"],
        ),
        (
            P::Invalid { context: "ck-xor-lds", parameter: "KPack", value: 7331, requirement: "it must divide K" }
                .into(),
            vec!["ck-xor-lds", "KPack", "7331", "it must divide K"],
        ),
        (P::Missing { layout: "row-padded", parameter: "pad" }.into(), vec!["row-padded", "pad"]),
        (
            A::Unsupported { op: Op::Stmatrix { matrices: 4, trans: false }, arch: "sm80" }.into(),
            vec!["stmatrix.x4", "sm80"],
        ),
        (A::TooManyLanes { given: 7331, wave: 64 }.into(), vec!["7331", "64"]),
        (A::Misaligned { lane: 5, address: 7331, alignment: 16 }.into(), vec!["5", "7331", "16"]),
        (A::OutsideTile { instruction: 3, lane: 5, coordinate: [7331, 4242] }.into(), vec!["3", "5", "7331", "4242"]),
        (
            A::PatternOp {
                pattern: "mfma16",
                given: Some(Op::DsWrite { bits: 64 }),
                expected: "ds_read_b64 or ds_read_b128",
            }
            .into(),
            vec!["mfma16", "ds_write_b64", "ds_read_b64 or ds_read_b128"],
        ),
        (S::Syntax { expected: "`->`", found: Snippet::new("=>") }.into(), vec!["`->`", "=>"]),
        (
            P::UnknownName { name: Snippet::new("mergee"), valid: "merge, unmerge" }.into(),
            vec!["mergee", "merge, unmerge"],
        ),
        (
            S::Arity { expected: cktile_transforms::Kind::Pad.signature(), found: 7331 }.into(),
            vec!["pad", "pad(len, left, right)", "7331"],
        ),
        (
            S::NumberRange { number: Snippet::new("99999999999999999999"), range: "[0, 2^63)" }.into(),
            vec!["99999999999999999999", "[0, 2^63)"],
        ),
    ];
    for (error, values) in cases {
        names(&error.to_string(), &values);
    }
}

/// A negative parameter (only a `Dims` list or a signed offset can hold one)
/// is refused as negative, naming the parameter and the value, never as a
/// huge unsigned number that "does not fit".
#[test]
fn negative_parameters_are_named_as_negative() {
    use cktile::{Descriptor, DescriptorProblem, Dims, ErrorKind, Transform, Vector};
    let d = |v: &[i64]| Dims::from_slice(v).unwrap();
    let message = |e: Error| e.to_string();
    let cases: Vec<(Error, &str)> = vec![
        (
            Descriptor::naive_dims(d(&[4, 8]), d(&[8, -3]), Vector::UNKNOWN).unwrap_err().into(),
            "naive: strides[1] is -3; it must be non-negative",
        ),
        (
            Descriptor::naive_dims(d(&[-4, 8]), d(&[8, 1]), Vector::UNKNOWN).unwrap_err().into(),
            "naive: lengths[0] is -4; it must be non-negative",
        ),
        (
            Descriptor::naive_with_offset_dims(d(&[4]), d(&[1]), -7).unwrap_err().into(),
            "naive_with_offset: offset is -7; it must be non-negative",
        ),
        (
            Descriptor::packed_dims(d(&[4, -8]), None).unwrap_err().into(),
            "packed: lengths[1] is -8; it must be non-negative",
        ),
        (
            Descriptor::aligned_dims(d(&[-4, 6]), 8).unwrap_err().into(),
            "aligned: lengths[0] is -4; it must be non-negative",
        ),
    ];
    for (e, expected) in cases {
        assert!(matches!(
            e.kind(),
            ErrorKind::Port(cktile_core::ErrorKind::Descriptor(DescriptorProblem::Transform {
                source: T::Negative { .. },
                ..
            }))
        ));
        assert_eq!(message(e), expected);
    }
    let transforms: Vec<(T, &str)> = vec![
        (
            Transform::embed_dims(d(&[4, 5]), d(&[2, -3])).unwrap_err(),
            "embed: coefficients[1] is -3; it must be non-negative",
        ),
        (Transform::embed_dims(d(&[-4]), d(&[1])).unwrap_err(), "embed: lengths[0] is -4; it must be non-negative"),
        (Transform::merge_dims(d(&[4, -2])).unwrap_err(), "merge: lower lengths[1] is -2; it must be non-negative"),
        (Transform::unmerge_dims(d(&[-1])).unwrap_err(), "unmerge: upper lengths[0] is -1; it must be non-negative"),
        (Transform::replicate_dims(d(&[-5])).unwrap_err(), "replicate: lengths[0] is -5; it must be non-negative"),
    ];
    for (e, expected) in transforms {
        assert_eq!(e.to_string(), expected);
        assert_eq!(e.summary(), "cktile: a parameter is negative; it must be non-negative");
    }
    // Spec texts and catalogue parameters refuse a negative number as out of range, naming the range.
    assert_eq!(
        message(cktile::spec::parse("naive((4,8),(8,-3))").unwrap_err()),
        "1:16: number -3 is out of range; expected an integer in [0, 2^63)"
    );
    assert_eq!(
        message(cktile::layouts::resolve("row-padded:rows=4,cols=4,pad=-1").unwrap_err()),
        "number -1 is out of range; expected an integer in [0, 2^63)"
    );
}
