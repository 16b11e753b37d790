//! CK's guaranteed last-dimension vector (`make_naive_tensor_descriptor`'s
//! `GuaranteedLastDimensionVectorLength/Stride`) is refused when the base's
//! lengths and strides do not keep it, on every path that takes one: the
//! typed builder, `Descriptor::naive_with_vector` / `packed_dims` and the
//! spec text. The verdict is recomputed by brute force over every aligned
//! vector of the base, and the paths agree value for value.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::prelude::*;
use cktile::{Descriptor, DescriptorProblem, Error, ErrorKind, Vector, VectorFault};
use cktile_transforms::Dims;
use proptest::prelude::*;

/// The refusal's fault, or `None` when `result` is no vector refusal.
fn fault<T, E: Copy + Into<Error>>(result: &Result<T, E>) -> Option<VectorFault> {
    let error: Error = (*result.as_ref().err()?).into();
    match error.kind().port() {
        Some(cktile_core::ErrorKind::Descriptor(DescriptorProblem::VectorGuarantee { fault, .. })) => Some(*fault),
        _ => None,
    }
}

/// `message` contains every one of `values`.
fn names(message: &str, values: &[&str]) {
    for v in values {
        assert!(message.contains(v), "`{message}` does not name `{v}`");
    }
}

/// The GEMM view: K = 70 with 8 elements guaranteed along K. The
/// vector at k = 64 would read k = 70 and 71, two elements of the stride
/// gap (or of the next row). Refused on the typed path (runtime and
/// static values), the runtime one and the spec text, naming 70 and 8.
#[test]
fn k_70_with_a_vector_of_8_is_refused_on_every_path() {
    let (rows, k, stride) = (128usize, 70usize, 72usize);
    let typed = make_naive_tensor_descriptor_with_vector((rows, k), (stride, Number::<1>), Number::<8>, Number::<1>);
    let runtime = Descriptor::naive_with_vector(&[rows, k], &[stride, 1], Vector::new(8, 1));
    let spec = cktile::spec::parse("naive((128,70),(72,1),8,1)");
    let want = VectorFault::LastLength { dim: 1, length: 70 };
    assert_eq!((fault(&typed), fault(&runtime), fault(&spec)), (Some(want), Some(want), Some(want)));
    assert_eq!(typed.unwrap_err(), runtime.unwrap_err());
    let message = runtime.unwrap_err().to_string();
    assert_eq!(
        message,
        "naive: the last dimension (1) has length 70, not a multiple of the guaranteed vector length 8: the vector at \
         index 64 would read 2 element(s) past the end of its row; make it a multiple of 8, or guarantee a vector \
         length that divides 70 (the largest power of two that does is 2)"
    );
    names(&spec.unwrap_err().to_string(), &["1:1: naive", "70", "8", "a multiple of 8"]);
    // With every value static, `TensorDescriptor::DESCRIPTOR`'s compile-time build refuses it too.
    type Static = cktile::typed::NaiveVector<(Number<128>, Number<70>), (Number<72>, Number<1>), Number<8>, Number<1>>;
    assert_eq!(fault(<Static as cktile::typed::Built>::STATIC.as_ref().unwrap()), Some(want));
    // A K that is a multiple of 8 is accepted on every path, and reads 8-wide.
    let ok = make_naive_tensor_descriptor_with_vector((rows, 72usize), (stride, Number::<1>), Number::<8>, Number::<1>);
    assert_eq!(ok.unwrap().descriptor().top_vectors()[1], Vector::new(8, 1));
    assert!(Descriptor::naive_with_vector(&[rows, 72], &[stride, 1], Vector::new(8, 1)).is_ok());
    assert!(cktile::spec::parse("naive((128,72),(72,1),8,1)").is_ok());
}

/// The message counts the elements the last vector reads past its row,
/// also when the vector is longer than the whole row.
#[test]
fn the_last_length_message_counts_the_elements_past_the_row() {
    let e = Descriptor::naive_with_vector(&[4, 3], &[8, 1], Vector::new(8, 1)).unwrap_err().to_string();
    assert!(e.contains("the vector at index 0 would read 5 element(s) past the end of its row"), "{e}");
    let e = Descriptor::naive_with_vector(&[4, 12], &[16, 1], Vector::new(8, 1)).unwrap_err().to_string();
    assert!(e.contains("the vector at index 8 would read 4 element(s) past the end of its row"), "{e}");
    assert!(e.contains("(the largest power of two that does is 4)"), "{e}");
}

/// A row stride that is not a multiple of the vector length (K a multiple
/// of it): accepted on every path, as CK accepts it. The guarantee is that
/// a vector's elements are contiguous; the vectors of row 1 start at
/// offset 70, and each still holds 8 consecutive elements of its row
/// (checked element by element on the built descriptor).
#[test]
fn a_stride_that_is_no_multiple_of_the_vector_is_accepted() {
    let (rows, k, stride) = (4usize, 64usize, 70usize);
    let typed =
        make_naive_tensor_descriptor_with_vector((rows, k), (stride, Number::<1>), Number::<8>, Number::<1>).unwrap();
    let runtime = Descriptor::naive_with_vector(&[rows, k], &[stride, 1], Vector::new(8, 1)).unwrap();
    let spec = cktile::spec::parse("naive((4,64),(70,1),8,1)").unwrap();
    assert_eq!(typed.descriptor(), runtime);
    assert_eq!(spec, runtime);
    assert_eq!(runtime.top_vectors()[1], Vector::new(8, 1));
    for r in 0..rows as i64 {
        for j in (0..k as i64).step_by(8) {
            let first = runtime.try_calculate_offset(&[r, j]).unwrap();
            assert_eq!(first, 70 * r + j);
            for t in 0..8 {
                assert_eq!(runtime.try_calculate_offset(&[r, j + t]).unwrap(), first + t);
            }
        }
    }
    // A middle dimension likewise.
    assert!(Descriptor::naive_with_vector(&[2, 3, 8], &[48, 12, 1], Vector::new(8, 1)).is_ok());
}

/// The guaranteed stride is the distance between a vector's elements in
/// memory: it must be the last dimension's stride (stride 2 claimed
/// contiguous reads other elements), unless one element is guaranteed.
#[test]
fn the_guaranteed_stride_is_the_last_stride() {
    let e = cktile::spec::parse("naive((4),(2),4,1)");
    assert_eq!(fault(&e), Some(VectorFault::Stride { dim: 0, stride: 2, guaranteed: 1 }));
    names(&e.unwrap_err().to_string(), &["guaranteed vector stride is 1", "has stride 2", "guarantee stride 2"]);
    assert!(cktile::spec::parse("naive((4),(2),4,2)").is_ok());
    // No stride guaranteed (-1): the length alone is checked.
    assert!(cktile::spec::parse("naive((4),(2),4,-1)").is_ok());
    // A length of 1 (or none) promises no second element: any stride.
    assert!(cktile::spec::parse("naive((4),(2),1,1)").is_ok());
    assert!(cktile::spec::parse("naive((4),(2),-1,1)").is_ok());
    let typed = make_naive_tensor_descriptor_with_vector((4usize,), (2usize,), Number::<4>, Number::<1>);
    assert_eq!(fault(&typed), Some(VectorFault::Stride { dim: 0, stride: 2, guaranteed: 1 }));
}

/// A vector of 0 elements is no vector: refused (CK's rule would turn it
/// into a length, gcd(0, L) = L, under an unmerge), as is a negative one
/// or a negative stride given as a `Vector`.
#[test]
fn a_vector_length_below_one_and_a_negative_stride_are_refused() {
    for text in ["naive((4,8),(8,1),0,1)", "packed((4,8),0)"] {
        let e = cktile::spec::parse(text);
        assert_eq!(fault(&e), Some(VectorFault::Length), "{text}");
        names(&e.unwrap_err().to_string(), &["vector length is 0", "at least 1", "these lengths keep is 8"]);
    }
    let typed = make_naive_tensor_descriptor_with_vector((4usize, 8usize), (8usize, Number::<1>), 0usize, Number::<1>);
    assert_eq!(fault(&typed), Some(VectorFault::Length));
    let l = Dims::from_slice(&[4, 8]).unwrap();
    let s = Dims::from_slice(&[8, 1]).unwrap();
    assert_eq!(fault(&Descriptor::naive_dims(l, s, Vector::new(-3, 1))), Some(VectorFault::Length));
    let negative = Descriptor::naive_dims(l, s, Vector { length: None, stride: Some(-3) });
    assert_eq!(fault(&negative), Some(VectorFault::NegativeStride { stride: -3 }));
    names(&negative.unwrap_err().to_string(), &["-3", "non-negative"]);
    assert_eq!(fault(&Descriptor::packed_dims(l, Some(-8))), Some(VectorFault::Length));
}

/// `packed`'s guarantee: its last length must be a multiple of it (its other
/// strides are multiples of the last length, its vector stride is 1).
#[test]
fn a_packed_guarantee_must_divide_the_last_length() {
    let e = cktile::spec::parse("packed((4,70),8)");
    assert_eq!(fault(&e), Some(VectorFault::LastLength { dim: 1, length: 70 }));
    names(
        &e.unwrap_err().to_string(),
        &["packed", "70", "8", "a multiple of 8", "the largest power of two that does is 2"],
    );
    assert!(cktile::spec::parse("packed((3,72),8)").is_ok());
    assert!(cktile::spec::parse("packed((6),6)").is_ok());
}

/// A compile-time failure names the values (the build stops with them).
#[test]
fn the_numbers_of_a_refusal_are_labelled() {
    let e = Descriptor::naive_with_vector(&[4, 60], &[70, 1], Vector::new(8, 1)).unwrap_err();
    let cktile_core::ErrorKind::Descriptor(p) = e.kind() else { unreachable!() };
    assert_eq!(p.numbers().as_slice(), &[("vector length", 8), ("dimension", 1), ("length", 60)]);
    assert_eq!(e.summary(), "cktile: the last dimension's length is not a multiple of the guaranteed vector length");
    let e = Descriptor::naive_with_vector(&[4, 64], &[70, 2], Vector::new(8, 1)).unwrap_err();
    let cktile_core::ErrorKind::Descriptor(p) = e.kind() else { unreachable!() };
    assert_eq!(p.numbers().as_slice(), &[("vector length", 8), ("vector stride", 1), ("dimension", 1), ("stride", 2)]);
}

/// The offset of `index` in a naive base.
fn offset(index: &[i64], strides: &[i64]) -> i64 {
    index.iter().zip(strides).map(|(i, s)| i * s).sum()
}

/// Every index of `lengths`, row-major.
fn indices(lengths: &[i64]) -> Vec<Vec<i64>> {
    let mut out = vec![vec![]];
    for &l in lengths {
        out = out.into_iter().flat_map(|p| (0..l).map(move |i| [p.clone(), vec![i]].concat())).collect();
    }
    out
}

/// The guarantee by its definition, vector by vector: every aligned vector
/// `[j*V, (j+1)*V)` along the last dimension, at every other index, has
/// its `V` elements inside the row and `S` apart in memory (when `S` is
/// given), wherever it starts (CK's meaning: no alignment). A length
/// below 1 or a negative stride is no guarantee; a length of 1 or none
/// promises nothing more.
fn brute_holds(lengths: &[i64], strides: &[i64], vector: Vector) -> bool {
    if vector.length.is_some_and(|v| v < 1) || vector.stride.is_some_and(|s| s < 0) {
        return false;
    }
    let Some(v) = vector.length.filter(|&v| v > 1) else { return true };
    let last = lengths.len() - 1;
    indices(lengths).iter().filter(|i| i[last] % v == 0).all(|start| {
        let first = offset(start, strides);
        (0..v).all(|t| {
            let mut x = start.clone();
            x[last] += t;
            x[last] < lengths[last] && vector.stride.is_none_or(|s| offset(&x, strides) == first + t * s)
        })
    })
}

/// The typed builder's verdict for the same values: its error, or `None`.
fn typed(lengths: &[usize], strides: &[usize], length: usize, stride: usize) -> Result<(), Error> {
    match (lengths, strides) {
        ([l0], [s0]) => {
            make_naive_tensor_descriptor_with_vector((*l0,), (*s0,), length, stride).map(|_| ()).map_err(Error::from)
        }
        ([l0, l1], [s0, s1]) => make_naive_tensor_descriptor_with_vector((*l0, *l1), (*s0, *s1), length, stride)
            .map(|_| ())
            .map_err(Error::from),
        ([l0, l1, l2], [s0, s1, s2]) => {
            make_naive_tensor_descriptor_with_vector((*l0, *l1, *l2), (*s0, *s1, *s2), length, stride)
                .map(|_| ())
                .map_err(Error::from)
        }
        _ => unreachable!(),
    }
}

/// A base of one to three dimensions, lengths 1 to 12 (small, so every
/// rule is met and broken often), strides 0 to 24, and a guaranteed
/// vector: a length (often 2, 4 or 8; sometimes 0, 1, 3, 6 or none) and a
/// stride (often the last stride; sometimes another, or none).
fn base() -> impl Strategy<Value = (Vec<usize>, Vec<usize>, Vector)> {
    let length = prop_oneof![
        3 => prop_oneof![Just(2i64), Just(4), Just(8)].prop_map(Some),
        1 => prop_oneof![Just(0i64), Just(1), Just(3), Just(6)].prop_map(Some),
        1 => Just(None),
    ];
    let pick = prop_oneof![2 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8)];
    let other = prop_oneof![3 => Just(None), 1 => (0i64..4).prop_map(Some), 1 => Just(Some(-1i64))];
    let dims = (1usize..=3).prop_flat_map(|rank| {
        let lengths = proptest::collection::vec(prop_oneof![1usize..=12, Just(8), Just(16)], rank);
        let strides = proptest::collection::vec(prop_oneof![0usize..=24, Just(8), Just(16), Just(64)], rank);
        (lengths, strides)
    });
    (dims, length, pick, other, 0usize..4).prop_map(|((lengths, mut strides), length, pick, other, last_stride)| {
        // Mostly the last stride 1, as CK's views have it.
        let last = strides.len() - 1;
        strides[last] = [2, 0, 1, 1][last_stride];
        let stride = match pick {
            0 => Some(strides[last] as i64),
            1 => other,
            _ => None,
        };
        (lengths, strides, Vector { length, stride })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Accepted exactly when every aligned vector lies in its row, at the
    /// guaranteed stride (recomputed by brute force), on the
    /// runtime path, the spec text and (with a length and stride given)
    /// the typed builder, which agree error for error; `packed` likewise
    /// with its own strides.
    #[test]
    fn accepted_iff_every_aligned_vector_lies_in_its_row((lengths, strides, vector) in base()) {
        let (l, s): (Vec<i64>, Vec<i64>) =
            (lengths.iter().map(|&x| x as i64).collect(), strides.iter().map(|&x| x as i64).collect());
        let holds = brute_holds(&l, &s, vector);
        let runtime = Descriptor::naive_dims(Dims::from_slice(&l).unwrap(), Dims::from_slice(&s).unwrap(), vector);
        prop_assert_eq!(runtime.is_ok(), holds, "{:?} {:?} {:?}: {:?}", lengths, strides, vector, runtime);
        if !holds {
            prop_assert!(fault(&runtime).is_some(), "{:?}", runtime);
        }
        // The spec text writes a missing value as -1 (and cannot write another negative one).
        if vector.stride.is_none_or(|x| x >= 0) {
            let list = |v: &[usize]| v.iter().map(usize::to_string).collect::<Vec<_>>().join(",");
            let text = format!(
                "naive(({}),({}),{},{})",
                list(&lengths),
                list(&strides),
                vector.length.unwrap_or(-1),
                vector.stride.unwrap_or(-1)
            );
            let parsed = cktile::spec::parse(&text);
            prop_assert_eq!(parsed.as_ref().map_err(|e| *e.kind()), runtime.as_ref().map_err(|e| ErrorKind::Port(*e.kind())), "{}", text);
            if let Ok(d) = parsed {
                prop_assert_eq!(&cktile::spec::parse(&d.to_string()).unwrap(), &d);
            }
        }
        if let (Some(v), Some(w)) = (vector.length, vector.stride)
            && v >= 0 && w >= 0 {
                let t = typed(&lengths, &strides, v as usize, w as usize);
                prop_assert_eq!(t, runtime.map(|_| ()).map_err(Error::from), "{:?} {:?} {:?}", lengths, strides, vector);
            }
        // Packed: strides (product of the later lengths, ..., 1) and vector stride 1.
        let mut packed = vec![1i64; l.len()];
        for d in (0..l.len() - 1).rev() {
            packed[d] = packed[d + 1] * l[d + 1];
        }
        let p = Descriptor::packed_dims(Dims::from_slice(&l).unwrap(), vector.length);
        let packed_holds = brute_holds(&l, &packed, Vector { length: vector.length, stride: Some(1) });
        prop_assert_eq!(p.is_ok(), packed_holds, "packed {:?} {:?}: {:?}", lengths, vector.length, p);
    }
}

/// The strategy reaches every verdict: accepted with a vector above 1,
/// and each fault.
#[test]
fn the_strategy_reaches_every_fault() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut seen = [0u32; 5];
    for _ in 0..3000 {
        let (lengths, strides, vector) = base().new_tree(&mut runner).unwrap().current();
        let l = Dims::from_usizes(&lengths).unwrap();
        let s = Dims::from_usizes(&strides).unwrap();
        let slot = match fault(&Descriptor::naive_dims(l, s, vector)) {
            None if vector.length.is_some_and(|v| v > 1) => 0,
            None => continue,
            Some(VectorFault::Length) => 1,
            Some(VectorFault::NegativeStride { .. }) => 2,
            Some(VectorFault::LastLength { .. }) => 3,
            Some(VectorFault::Stride { .. }) => 4,
            Some(f) => panic!("{f:?}"),
        };
        seen[slot] += 1;
    }
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
}

/// CK's own layouts keep their guarantees: the catalogue's CK entries and
/// the chains of its GEMM A block and v1 padding, built from their bases.
#[test]
fn cks_layouts_keep_their_guarantees() {
    for e in cktile::layouts::CATALOGUE {
        let d = cktile::layouts::resolve(e.example).unwrap_or_else(|err| panic!("{}: {err}", e.example));
        assert!(d.num_dims() > 0);
    }
    for (m, k, kpack, l) in [(128, 64, 8, 1), (128, 32, 8, 2), (64, 16, 4, 4)] {
        let order = cktile::layouts::ck::UnmergeOrder::Fixed2025;
        assert!(cktile::layouts::ck::xor_lds(m, k, kpack, l, order).is_ok(), "{m} {k} {kpack} {l}");
    }
    for (m, k, kpack) in [(128, 32, 8), (32, 16, 8), (7, 12, 4)] {
        assert!(cktile::layouts::ck::v1_padded(m, k, kpack).is_ok(), "{m} {k} {kpack}");
    }
}

/// The typed check named the same fault as the build for a static and
/// for a mixed chain, and a static valid one has its compile-time
/// descriptor.
#[test]
fn static_and_runtime_typed_values_agree() {
    let stat = make_naive_tensor_descriptor_with_vector(
        (Number::<4>, Number::<64>),
        (Number::<72>, Number::<1>),
        Number::<8>,
        Number::<1>,
    )
    .unwrap();
    let mixed =
        make_naive_tensor_descriptor_with_vector((4usize, Number::<64>), (72usize, Number::<1>), 8usize, 1usize)
            .unwrap();
    assert_eq!(stat.descriptor(), mixed.descriptor());
    for (rows, k, stride) in [(4usize, 60usize, 72usize), (4, 64, 68), (1, 64, 68), (4, 64, 0)] {
        let a = make_naive_tensor_descriptor_with_vector((rows, k), (stride, Number::<1>), Number::<8>, Number::<1>);
        let b = make_naive_tensor_descriptor_with_vector((rows, k), (stride, 1usize), 8usize, 1usize);
        let c = Descriptor::naive_with_vector(&[rows, k], &[stride, 1], Vector::new(8, 1));
        assert_eq!(a.map(|_| ()), c.map(|_| ()), "{rows} {k} {stride}");
        assert_eq!(b.map(|_| ()), c.map(|_| ()), "{rows} {k} {stride}");
    }
}

/// The random chains' bases still draw guarantees above 1, on naive and
/// packed bases, now that they draw only the ones their shapes keep
/// (before, a draw the shape did not keep was built as it came).
#[test]
fn random_bases_draw_kept_guarantees_above_one() {
    let config = cktile::random::chain::ChainConfig::default();
    let (mut naive, mut packed) = (0, 0);
    for seed in 0..2000 {
        let d = cktile::random::chain::base(&mut cktile::random::Rng::new(seed), &config);
        match *d.origin() {
            cktile::Origin::Naive { vector: Vector { length: Some(v), .. }, .. } if v > 1 => naive += 1,
            cktile::Origin::Packed { vector_length: Some(v), .. } if v > 1 => packed += 1,
            _ => {}
        }
    }
    assert!(naive > 20 && packed > 20, "{naive} naive, {packed} packed");
}
