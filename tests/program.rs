//! The fast runtime paths agree with the descriptor: a compiled
//! [`Program`](cktile::Program) gives its offsets and validity for every
//! coordinate, one at a time and in batches
//! ([`Program::offsets_if_valid`](cktile::Program::offsets_if_valid)), and
//! an incremental move gives the fresh coordinate, on random chains of
//! every transform kind, the catalogue's examples, descriptors that reach
//! each of the program's specialised operations, and coordinates outside
//! the lengths.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::random::chain::ChainConfig;
use cktile::transforms::Kind;
use cktile::{Coordinate, Descriptor, Index, Program, spec, strategy};
use proptest::prelude::*;

/// The base of `d` alone, then with each of its stages in turn (`d` last).
fn prefixes(d: &Descriptor) -> Vec<Descriptor> {
    let mut prefix = spec::parse(&d.origin().to_string()).unwrap();
    let mut out = vec![prefix];
    for stage in d.transform_stages() {
        prefix = prefix.transform(stage.items()).unwrap();
        out.push(prefix);
    }
    assert_eq!(out.last(), Some(d));
    out
}

/// Every coordinate in range plus a margin of one outside each side.
fn coordinates(d: &Descriptor) -> Vec<Vec<Index>> {
    let lens = d.lengths();
    let mut out = vec![vec![]];
    for &l in lens.as_slice() {
        out = out.into_iter().flat_map(|c| (-1..=l).map(move |v| [c.clone(), vec![v]].concat())).collect();
        if out.len() > 20_000 {
            return out;
        }
    }
    out
}

/// Moving a coordinate one step along each dimension (both ways) gives the
/// fresh coordinate of the target, level by level.
fn assert_moves(d: &Descriptor) {
    let lens = d.lengths();
    for c in coordinates(d).into_iter().filter(|c| d.check_coordinate(c).is_ok()).take(3000) {
        for dim in 0..lens.len() {
            for delta in [-1, 1] {
                let mut target = c.clone();
                target[dim] += delta;
                if d.check_coordinate(&target).is_err() {
                    continue;
                }
                let mut step = vec![0; lens.len()];
                step[dim] = delta;
                let mut moved = Coordinate::new(d, &c);
                let diff = moved.move_by(d, &step);
                let fresh = Coordinate::new(d, &target);
                assert_eq!(moved, fresh, "{d}: {c:?} + {step:?}");
                assert_eq!(diff, fresh.offset().wrapping_sub(Coordinate::new(d, &c).offset()));
            }
        }
    }
}

/// `p.offsets_if_valid` on coordinates of arity `N` (the first `N` entries
/// of each, zero-padded), from a buffer prefilled with a value no answer has;
/// held equal to `p.offsets_columns` on the same coordinates as columns.
fn batch_of<const N: usize>(p: &Program, coords: &[Vec<Index>]) -> Vec<Option<Index>> {
    let arrays: Vec<[Index; N]> =
        coords.iter().map(|c| std::array::from_fn(|i| c.get(i).copied().unwrap_or(0))).collect();
    let mut out = vec![Some(Index::MIN); arrays.len()];
    assert_eq!(p.offsets_if_valid(&arrays, &mut out), arrays.len());
    assert_eq!(columns_of(p, &arrays), out, "offsets_columns against offsets_if_valid");
    out
}

/// `p.offsets_columns` on `arrays` as `N` columns, read back as options.
/// The validity words start all set, with one word more than needed: the
/// bits past the count in the last word written must be cleared and the
/// extra word left alone.
fn columns_of<const N: usize>(p: &Program, arrays: &[[Index; N]]) -> Vec<Option<Index>> {
    let columns: Vec<Vec<Index>> = (0..N).map(|d| arrays.iter().map(|a| a[d]).collect()).collect();
    let columns: [&[Index]; N] = std::array::from_fn(|d| columns[d].as_slice());
    let n = arrays.len();
    let (mut out, mut valid) = (vec![Index::MIN; n], vec![u64::MAX; n.div_ceil(64) + 1]);
    assert_eq!(p.offsets_columns(&columns, &mut out, &mut valid), n);
    assert_eq!(valid[n.div_ceil(64)], u64::MAX, "a word past the count was written");
    if !n.is_multiple_of(64) {
        assert_eq!(valid[n / 64] >> (n % 64), 0, "bits past the count {n} are set");
    }
    // A shorter column, output or validity slice bounds the count.
    if n > 1 {
        let short: [&[Index]; N] = std::array::from_fn(|d| if d == 0 { &columns[d][..n - 1] } else { columns[d] });
        assert_eq!(p.offsets_columns(&short, &mut out.clone(), &mut valid.clone()), if N == 0 { n } else { n - 1 });
        assert_eq!(p.offsets_columns(&columns, &mut out.clone()[..n - 1], &mut valid.clone()), n - 1);
    }
    assert_eq!(p.offsets_columns(&columns, &mut out.clone(), &mut valid.clone()[..n / 64]), (n / 64 * 64).min(n));
    (0..n).map(|i| (valid[i / 64] >> (i % 64) & 1 == 1).then_some(out[i])).collect()
}

/// The batched answers for coordinates of arity `n` (1 to 8).
fn batch(p: &Program, n: usize, coords: &[Vec<Index>]) -> Vec<Option<Index>> {
    match n {
        1 => batch_of::<1>(p, coords),
        2 => batch_of::<2>(p, coords),
        3 => batch_of::<3>(p, coords),
        4 => batch_of::<4>(p, coords),
        5 => batch_of::<5>(p, coords),
        6 => batch_of::<6>(p, coords),
        7 => batch_of::<7>(p, coords),
        8 => batch_of::<8>(p, coords),
        _ => panic!("no descriptor has {n} top dimensions"),
    }
}

fn assert_same(d: &Descriptor) {
    assert_moves(d);
    let p = Program::of(d);
    let coords = coordinates(d);
    let mut want = Vec::with_capacity(coords.len());
    for c in &coords {
        let valid = d.coordinate_has_valid_offset(c);
        assert_eq!(p.calculate_offset(c), d.calculate_offset(c), "{d} at {c:?}");
        assert_eq!(d.offset_if_valid(c), valid.then(|| d.calculate_offset(c)), "{d} at {c:?}");
        assert_eq!(p.offset_if_valid(c), valid.then(|| d.calculate_offset(c)), "{d} at {c:?}");
        want.push(d.offset_if_valid(c));
    }
    // In batches: the same answers, in order, whatever the batch boundaries.
    let n = d.num_dims();
    let got = batch(&p, n, &coords);
    for ((c, g), w) in coords.iter().zip(&got).zip(&want) {
        assert_eq!(g, w, "{d} in a batch at {c:?}");
    }
    // A coordinate of another arity is refused, as one at a time.
    if n < 8 {
        assert!(batch(&p, n + 1, &coords).iter().all(Option::is_none), "{d}: arity {}", n + 1);
    }
    if n > 1 {
        assert!(batch(&p, n - 1, &coords).iter().all(Option::is_none), "{d}: arity {}", n - 1);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The suite's random chains: every transform kind, one to five stages;
    /// every prefix of a chain (its base alone included) is checked too.
        #[test]
    fn program_matches_descriptor_on_random_chains(d in strategy::chain(ChainConfig::default().with_stages(1, 5))) {
        for prefix in prefixes(&d) {
            assert_same(&prefix);
        }
    }
}

#[test]
fn program_matches_descriptor_on_the_catalogue() {
    for e in cktile::layouts::CATALOGUE {
        let d = cktile::layouts::resolve(e.example).unwrap();
        assert_same(&d);
    }
}

#[test]
fn identities_compile_away() {
    let d = cktile::spec::parse(
        "packed((8192)) | transform(swizzle(3,3,3) on [0] -> [0]) | transform(unmerge((128,64)) on [0] -> [0,1])",
    )
    .unwrap();
    // packed((8192)) is a one-length unmerge: only the swizzle and the 2-D unmerge remain.
    assert_eq!(Program::of(&d).operations(), 2);
    assert_eq!(Program::of(&Descriptor::naive(&[4], &[1]).unwrap()).operations(), 0);
}

/// Each of the program's specialised operations, and each fold, on a
/// descriptor that reaches it: the program agrees with the descriptor at
/// every coordinate (inside and one outside the lengths), and the folds
/// leave the expected number of operations.
#[test]
fn specialised_operations_agree() {
    let cases = [
        // Power-of-two merge (shifts and masks), xor, embed.
        (
            "naive((8,128,8),(8,64,1)) | transform(xor((128,8)) on [1,0] -> [1,0], pass_through(8) on [2] -> [2]) | transform(pass_through(128) on [1] -> [0], merge((8,8)) on [0,2] -> [1])",
            3,
        ),
        // A merge with other lengths runs its general formula.
        ("packed((3,5,7)) | transform(merge((3,5,7)) on [0,1,2] -> [0])", 2),
        // Power-of-two modulo (a mask) and another modulo.
        ("packed((8,6)) | transform(modulo(8,20) on [0] -> [0], modulo(6,13) on [1] -> [1])", 3),
        // Pad: a validity test and an affine step folded into the embed.
        ("naive((4,10),(16,1)) | transform(pass_through(4) on [0] -> [0], pad(10,2,3) on [1] -> [1])", 2),
        // Left and right pads below a slice, on an offset base: the slice
        // stays (the left pad's test reads it), the pads' steps fold into
        // the embed; the offset does not, as the embed's result reuses the
        // register of one of its inputs.
        (
            "naive_with_offset((6,7),(7,1),5) | transform(left_pad(6,1) on [0] -> [0], right_pad(7,2) on [1] -> [1]) | transform(slice(7,2,5) on [0] -> [0], pass_through(9) on [1] -> [1])",
            5,
        ),
        // A frozen dimension is a constant folded into its reader.
        ("packed((4,8)) | transform(freeze(3) on [0] -> [], pass_through(8) on [1] -> [0])", 1),
        // Unmerge below an unmerge: one fused affine operation.
        (
            "packed((64)) | transform(unmerge((4,16)) on [0] -> [0,1]) | transform(unmerge((2,2)) on [0] -> [0,2], pass_through(16) on [1] -> [1])",
            1,
        ),
        // Swizzle below an unmerge.
        ("packed((8192)) | transform(swizzle(3,3,3) on [0] -> [0]) | transform(unmerge((128,64)) on [0] -> [0,1])", 2),
        // Insert and replicate vanish.
        (
            "packed((4)) | transform(pass_through(4) on [0] -> [0], insert(3) on [] -> [1]) | transform(pass_through(4) on [0] -> [0], pass_through(3) on [1] -> [1], replicate((2)) on [] -> [2])",
            0,
        ),
    ];
    for (text, ops) in cases {
        let d = spec::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_same(&d);
        assert_eq!(Program::of(&d).operations(), ops, "{text}");
    }
}

/// Negative values reach the divisions (a pad's left side maps below
/// zero, then a power-of-two merge divides it): the calculate path keeps C's truncating
/// division there, and the checked paths refuse the padded positions.
#[test]
fn divisions_of_negative_values_truncate() {
    let d =
        spec::parse("packed((4,4)) | transform(merge((4,4)) on [0,1] -> [0]) | transform(pad(16,5,3) on [0] -> [0])")
            .unwrap();
    assert_same(&d);
    assert_eq!(Program::of(&d).calculate_offset(&[0]), d.calculate_offset(&[0]));
    assert_eq!(Program::of(&d).offset_if_valid(&[0]), None);
}

/// Large values through the batches' multiplies: coefficients and inputs
/// just inside and just outside `0..2^32` (the narrow 32 x 32 -> 64-bit
/// multiply holds only inside) and padded inputs that go negative, each
/// at the corners of its lengths, in batches and one at a time.
#[test]
fn batches_multiply_large_values_exactly() {
    let specs = [
        // inputs up to 2^20, coefficients up to 2^32 - 1: the narrow multiply
        "naive((1048576,3),(4294967295,1))",
        // a coefficient of 2^32 and one of 2^32 + 3: the full one
        "naive((5,7),(4294967296,4294967299))",
        // an input up to 2^33 - 1 (a merge's output feeding an embed)
        "naive((8589934592),(3))",
        "packed((65536,131072)) | transform(merge((65536,131072)) on [0,1] -> [0])",
        // an input of 2^32 - 1 exactly, times 3
        "naive((4294967296,2),(3,1))",
        // a padded input (negative before the check) under a large stride
        "naive((3,70000),(4294967295,1)) | transform(pass_through(3) on [0] -> [0], pad(70000,5,2) on [1] -> [1])",
    ];
    for spec in specs {
        let d = spec::parse(spec).unwrap();
        let lens = d.lengths();
        // The corners of the lengths and one past each.
        let mut coords = vec![vec![]];
        for &l in lens.as_slice() {
            let picks = [0, 1, l / 2, l - 2, l - 1, l, -1];
            coords = coords.into_iter().flat_map(|c| picks.map(|v| [c.clone(), vec![v]].concat())).collect();
        }
        let want: Vec<Option<Index>> = coords.iter().map(|c| d.offset_if_valid(c)).collect();
        assert!(want.iter().any(Option::is_some), "{spec}: no valid corner");
        let p = Program::of(&d);
        for (c, w) in coords.iter().zip(&want) {
            assert_eq!(p.offset_if_valid(c), *w, "{spec} at {c:?}");
        }
        assert_eq!(batch(&p, lens.len(), &coords), want, "{spec} in batches");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Chains of the kinds the program specialises (merge, unmerge, xor,
    /// modulo, pads, embed, freeze, offset, slice, swizzle), drawn more
    /// often than in the default mix, so that folds and power-of-two
    /// divisions meet each other.
    #[test]
    fn program_matches_descriptor_on_specialised_chains(d in strategy::chain(
        ChainConfig::default()
            .with_kinds(&[Kind::Merge, Kind::Unmerge, Kind::Xor, Kind::Modulo, Kind::Pad, Kind::LeftPad, Kind::RightPad, Kind::Embed, Kind::Freeze, Kind::Offset, Kind::Slice, Kind::Swizzle])
            .with_stages(1, 5),
    )) {
        for prefix in prefixes(&d) {
            assert_same(&prefix);
        }
    }
}

/// `check::offsets`, the batches behind `cktile offsets` and Python's
/// `Layout.offsets()`, against the descriptor asked coordinate by
/// coordinate, in row-major order.
fn assert_enumerated(d: &Descriptor) {
    let Ok(o) = cktile::check::offsets(d) else { return };
    let size = d.element_size().unwrap() as u64;
    assert_eq!(o.offsets.len() as u64, size);
    for n in 0..size {
        let c = cktile::check::coordinate(d, n);
        let at = n as usize;
        assert_eq!(
            (o.offsets[at], o.valid[at]),
            (d.calculate_offset(&c), d.coordinate_has_valid_offset(&c)),
            "{d}: {c:?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    /// The enumeration equals the descriptor on random chains of every kind
    /// (padding included), one to five stages.
    #[test]
    fn enumerated_offsets_match_the_descriptor(d in strategy::chain(ChainConfig::default().with_stages(1, 5))) {
        if d.element_size().is_some_and(|s| s <= 1 << 16) {
            assert_enumerated(&d);
        }
    }
}

#[test]
fn enumerated_offsets_match_on_the_catalogue() {
    for e in cktile::layouts::CATALOGUE {
        assert_enumerated(&cktile::layouts::resolve(e.example).unwrap());
    }
    // A batch boundary inside a run of equal rows, and a padded column.
    assert_enumerated(
        &spec::parse("naive((100,37),(64,1)) | transform(pass_through(100) on [0] -> [0], pad(37,2,1) on [1] -> [1])")
            .unwrap(),
    );
}
