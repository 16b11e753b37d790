//! Arithmetic at the edges: lengths of 0, 1, 2^31, 2^32 and usize::MAX / 2,
//! element spaces past 2^63, huge offsets and pads, huge coordinates, and the
//! size limits of the enumerating tools. Every case is an exact value or an
//! exact error, never a panic or a wrapped number.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::analyzer::{Pattern, arch};
use cktile::plan::dma::{DmaRequest, plan};
use cktile::search::{Problem, search};
use cktile::{Descriptor, check, spec};

/// The message for an element space of `value` (computed in 128 bits).
fn space(value: i128) -> String {
    format!("the element space size is {value}, past the largest signed 64-bit index {}; use smaller lengths", i64::MAX)
}

fn err<E: std::fmt::Display>(r: Result<Descriptor, E>) -> String {
    r.map(|d| format!("Ok({d})")).unwrap_or_else(|e| e.to_string())
}

#[test]
fn lengths_zero_and_one() {
    assert_eq!(err(Descriptor::packed(&[0])), "packed: lengths[0] is 0; every length must be at least 1");
    let one = Descriptor::packed(&[1]).unwrap();
    assert_eq!((one.element_space_size(), one.element_size(), one.calculate_offset(&[0])), (1, Some(1), 0));
    let e = spec::parse("packed((4,0))").unwrap_err().to_string();
    assert!(e.contains("lengths[1] is 0"), "{e}");
}

#[test]
fn lengths_at_2_to_the_31_and_32() {
    let d = Descriptor::packed(&[1 << 31, 2]).unwrap();
    assert_eq!(d.element_space_size(), 1 << 32);
    assert_eq!(d.try_calculate_offset(&[(1 << 31) - 1, 1]), Ok((1 << 32) - 1));
    assert_eq!(
        d.try_calculate_offset(&[1 << 31, 0]).unwrap_err().to_string(),
        "coordinate dimension 0 is 2147483648; it must be in [0, 2147483648)"
    );
    let d = Descriptor::packed(&[1 << 32, 1 << 30]).unwrap();
    assert_eq!(d.element_space_size(), 1 << 62);
    assert_eq!(d.calculate_offset(&[(1 << 32) - 1, (1 << 30) - 1]), (1 << 62) - 1);
    assert_eq!(err(Descriptor::packed(&[1 << 32, 1 << 31])), space(1 << 63));
    assert_eq!(err(Descriptor::packed(&[1 << 32, 1 << 32])), space(1 << 64));
}

#[test]
fn element_spaces_past_2_to_the_63() {
    let d = Descriptor::packed(&[usize::MAX / 2]).unwrap();
    assert_eq!(d.element_space_size(), i64::MAX);
    // (2^63 - 2) * 2 + 1
    assert_eq!(err(Descriptor::naive(&[usize::MAX / 2], &[2])), space((1 << 64) - 3));
    // (2^62 - 1) + 2^62 + 1
    assert_eq!(err(Descriptor::naive(&[1 << 62, 2], &[1, 1 << 62])), space(1 << 63));
    // strides (2^40, 1): (2^31 - 1) * 2^40 + 2 + 1
    assert_eq!(err(Descriptor::aligned(&[1 << 31, 3], 1 << 40)), space((1 << 71) - (1 << 40) + 3));
    // Eight lengths of 2^63 - 1: even 128 bits saturate.
    assert_eq!(err(Descriptor::packed(&[usize::MAX / 2; 8])), space(i128::MAX).replace("is 1701", "is at least 1701"));
    assert_eq!(err(spec::parse("packed((4294967296,4294967296))")), format!("1:1: {}", space(1 << 64)));
    assert_eq!(
        err(spec::parse("packed((99999999999999999999))")),
        "1:9: number 99999999999999999999 is out of range; expected an integer in [0, 2^63)"
    );
    assert_eq!(
        err(spec::parse("naive_with_offset((2,4),(4,1),9223372036854775807)")),
        "1:1: the offset plus element space is 9223372036854775815, past the largest signed 64-bit index \
         9223372036854775807; use smaller lengths"
    );
    assert_eq!(
        err(spec::parse("naive((5),(1)) | transform(pad(5,9223372036854775807,0) on [0] -> [0])")),
        "1:28: pad: the upper length is 9223372036854775812, past the largest signed 64-bit index \
         9223372036854775807; use smaller lengths"
    );
}

#[test]
fn negative_offsets_of_padding_are_exact() {
    let d = spec::parse("naive((3),(1)) | transform(pad(3,1073741824,0) on [0] -> [0])").unwrap();
    assert_eq!(d.lengths().as_slice(), [1073741827]);
    assert_eq!(d.calculate_offset(&[0]), -1073741824);
    assert!(!d.coordinate_has_valid_offset(&[0]));
    assert_eq!(d.calculate_offset(&[1073741826]), 2);
    assert!(d.coordinate_has_valid_offset(&[1073741826]));
}

#[test]
fn enumerating_tools_refuse_what_they_cannot_hold() {
    let big = Descriptor::packed(&[1 << 20, 1 << 20]).unwrap();
    assert_eq!(
        check::offsets(&big).unwrap_err().to_string(),
        "the descriptor has 1099511627776 coordinates, more than the 16777216 that cktile enumerates for it; check a \
         slice of it instead (wrap it in a slice transform) or a smaller tile"
    );
    let p = Problem::new(1 << 30, 64, 2, arch::GFX942).read(Pattern::from_access("ds_read_b128:row").unwrap());
    assert_eq!(
        search(&p).unwrap_err().to_string(),
        "search: rows * cols = 68719476736; the search counts every access of the tile: at most 2^20 elements"
    );
    let p = Problem::new(usize::MAX / 2, 4, 2, arch::GFX942).read(Pattern::from_access("ds_read_b32:row").unwrap());
    assert!(search(&p).unwrap_err().to_string().contains("rows * cols"));
    let huge = Descriptor::packed(&[4096, 4096]).unwrap();
    let req = DmaRequest {
        lds: &huge,
        element_bytes: 8,
        global_strides: vec![4096, 1],
        arch: arch::GFX942,
        workgroup: 256,
        wave: 64,
        width: 4,
    };
    // The LDS capacity (64 KB on gfx942) bounds every plan.
    assert!(plan(&req).unwrap_err().to_string().contains("more than the 65536 bytes of shared memory"));
    let req = DmaRequest { global_strides: vec![i64::MAX, 1], width: 4, element_bytes: 4, ..req };
    let small = Descriptor::packed(&[16, 64]).unwrap();
    let e = plan(&DmaRequest { lds: &small, ..req.clone() }).unwrap_err().to_string();
    assert_eq!(
        e,
        "dma-plan: global element index = 9223372036854775807; its byte address (index * element size) overflows i64"
    );
    // Row 2's element index 2^61 fits; its byte address 2^61 * 4 does not.
    let req = DmaRequest { lds: &small, global_strides: vec![1 << 60, 1], ..req };
    assert_eq!(
        plan(&req).unwrap_err().to_string(),
        "dma-plan: global element index = 2305843009213693952; its byte address (index * element size) overflows i64"
    );
}

#[test]
fn analyzer_addresses_do_not_wrap() {
    // An offset near 2^62 of 8-byte elements is past u64 once scaled by 8.
    let d = Descriptor::naive(&[2, 64], &[1 << 61, 1]).unwrap();
    let e = cktile::analyzer::tile::coordinate_address(&d, 8, 0, 1, [1, 0]).unwrap_err().to_string();
    assert_eq!(
        e,
        "instruction 0, lane 1: coordinate [1, 0] is at element offset 2305843009213693952, whose byte address \
         2305843009213693952 x 8 = 18446744073709551616 does not fit 64 bits; use smaller strides"
    );
}

/// Issue 34, class 7: a message says what went wrong. Each access is
/// checked at both edges: aligned but ending at 2^64 is an overflow, not a
/// misalignment; misaligned near the top is a misalignment; read2's second
/// access overflowing is named with its bytes; a tile whose byte addresses
/// do not fit is not "outside the tile".
#[test]
fn overflow_messages_name_the_overflow() {
    use cktile::analyzer::{Op, model::validate};
    let read = |op: Op, a: u64| validate(&arch::GFX942, op, &[Some(a)]).map_err(|e| e.to_string());
    let b128 = Op::DsRead { bits: 128 };
    assert_eq!(
        read(b128, u64::MAX - 15),
        Err("lane 0: the 16-byte access at address 18446744073709551600 ends at 18446744073709551616 (exclusive), \
             which does not fit 64 bits; give addresses whose accesses end below 2^64"
            .to_string())
    );
    assert_eq!(read(b128, u64::MAX - 31), Ok(()));
    assert_eq!(
        read(b128, u64::MAX - 7),
        Err(format!("lane 0: address {} is not a multiple of 16, the access's alignment", u64::MAX - 7))
    );
    let read2 = Op::DsRead2 { bits: 64, offsets: [0, 255], st64: false };
    let e = read(read2, u64::MAX - 1023).unwrap_err();
    assert!(e.contains("the 2048-byte access at address 18446744073709550592 ends at"), "{e}");
    // Brute force over the last 4 KiB of the address space: refused exactly
    // when the access is misaligned or its end does not fit, with that message.
    for op in [b128, Op::DsRead { bits: 64 }, Op::DsWrite { bits: 32 }, read2] {
        for a in (u64::MAX - 4096)..=u64::MAX {
            let ends: Vec<u128> = (0..op.accesses())
                .map(|i| a as u128 + op.access_offset(i) as u128 + op.access_bytes() as u128)
                .collect();
            let aligned = (0..op.accesses())
                .all(|i| (a as u128 + op.access_offset(i) as u128).is_multiple_of(op.alignment() as u128));
            let fits = ends.iter().all(|&e| e <= u64::MAX as u128);
            match read(op, a) {
                Ok(()) => assert!(aligned && fits, "{op:?} at {a}"),
                Err(e) if e.contains("is not a multiple") => assert!(!aligned, "{op:?} at {a}: {e}"),
                Err(e) => assert!(aligned && !fits && e.contains("does not fit 64 bits"), "{op:?} at {a}: {e}"),
            }
        }
    }
    // analyze: 2^57 rows of fp32 put row 32 at byte 2^64.
    let d = spec::parse("naive((64,64),(144115188075855872,1))").unwrap();
    let e = cktile::reports::analyze_tile_report(&d, 4, &arch::GFX942, Pattern::Rows { op: Op::DsWrite { bits: 128 } })
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("instruction 8, lane 0: coordinate [32, 0] is at element offset 4611686018427387904"), "{e}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]

    /// `check::offsets` (what `cktile offsets` prints) gives every
    /// coordinate's exact offset, padded ones included, or refuses the
    /// descriptor naming the overflow, and refuses only when some exact
    /// term or offset leaves the signed 64-bit range: never a wrapped value
    /// printed as an offset. Two padded dimensions with strides up to 2^62.
    #[test]
    fn padded_offsets_are_exact_or_refused(
        n in proptest::array::uniform2(1i64..4),
        stride_bits in proptest::array::uniform2(0u32..63),
        pads in proptest::array::uniform4(0i64..4),
    ) {
        let s = [1i64 << stride_bits[0], 1i64 << stride_bits[1]];
        let text = format!(
            "naive(({},{}),({},{})) | transform(pad({},{},{}) on [0] -> [0], pad({},{},{}) on [1] -> [1])",
            n[0], n[1], s[0], s[1], n[0], pads[0], pads[1], n[1], pads[2], pads[3]
        );
        let Ok(d) = spec::parse(&text) else {
            // The valid coordinates' element space overflows: refused when built.
            let space = (n[0] as i128 - 1) * s[0] as i128 + (n[1] as i128 - 1) * s[1] as i128 + 1;
            proptest::prop_assert!(space > i64::MAX as i128, "{text}");
            return Ok(());
        };
        let (u0, u1) = (n[0] + pads[0] + pads[1], n[1] + pads[2] + pads[3]);
        let exact = |a: i64, b: i64| {
            let (t0, t1) = ((a - pads[0]) as i128 * s[0] as i128, (b - pads[2]) as i128 * s[1] as i128);
            (t0, t1, t0 + t1)
        };
        let fits = |v: i128| v.abs() <= i64::MAX as i128;
        let all_fit = (0..u0).all(|a| (0..u1).all(|b| { let (t0, t1, o) = exact(a, b); fits(t0) && fits(t1) && fits(o) }));
        match check::offsets(&d) {
            Ok(o) => {
                proptest::prop_assert!(all_fit, "{text}: printed offsets though some do not fit");
                for a in 0..u0 {
                    for b in 0..u1 {
                        proptest::prop_assert_eq!(o.offsets[(a * u1 + b) as usize] as i128, exact(a, b).2, "{} at [{}, {}]", text, a, b);
                    }
                }
            }
            Err(e) => {
                proptest::prop_assert!(!all_fit, "{text}: refused though every offset fits: {e}");
                proptest::prop_assert!(e.to_string().contains("padded coordinates included"), "{e}");
            }
        }
    }
}

/// Issue 34, class 5: public functions given values no constructor makes
/// answer with an error or a bounded answer, never a panic: a DMA plan
/// claiming more LDS than any chip has, and an `Offsets` whose lists are
/// shorter than the descriptor.
#[test]
fn hostile_plans_and_offsets_are_refused_not_panicked_on() {
    use cktile::plan::dma::simulate;
    let tile = Descriptor::packed(&[4, 64]).unwrap();
    let req = DmaRequest {
        lds: &tile,
        element_bytes: 4,
        global_strides: vec![64, 1],
        arch: arch::GFX942,
        workgroup: 64,
        wave: 64,
        width: 4,
    };
    let mut p = plan(&req).unwrap();
    let largest = cktile::analyzer::ARCHS.iter().map(|a| a.shared_bytes() as u64).max().unwrap();
    for huge in [largest + 1, 1 << 40, u64::MAX] {
        p.lds_bytes = huge;
        let e = simulate(&p).unwrap_err().to_string();
        assert!(e.contains(&format!("at most {largest} bytes")), "{e}");
    }
    let d = Descriptor::packed(&[4, 8]).unwrap();
    let full = check::offsets(&d).unwrap();
    for (offsets, valid) in [(32, 0), (0, 32), (5, 32), (32, 7), (0, 0)] {
        let o = check::Offsets { offsets: full.offsets[..offsets].to_vec(), valid: full.valid[..valid].to_vec() };
        let lengths = check::verified_vector_lengths(&d, &o);
        assert_eq!(lengths.len(), 2);
        for dim in 0..2 {
            let _ = check::claim_break(&d, &o, dim, cktile::Vector::new(4, 1));
        }
    }
}
