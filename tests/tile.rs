//! Tile windows and their access plans against independent evaluations.
//!
//! - Every access plan (every catalogue warp-GEMM and GEMM DRAM
//!   distribution, and CK's block GEMM operands: warp operands embedded in
//!   an outer encoding with an R; under views that guarantee 1 to 16 contiguous elements
//!   along either X dimension) is recomputed by brute force from the runtime
//!   [`Distribution`]: its vectors cover every Y index once, land where
//!   `ys_to_d` puts them, start where `ps_ys_to_xs` puts them, and really are
//!   contiguous along X for every thread (the plan's vector claim).
//! - `load_tile` and `store_tile` through typed windows equal a reference
//!   written from CK's semantics on the runtime [`Descriptor`] and
//!   [`Distribution`]: the vector at each access's first element, read when
//!   that element is not padding and the vector lies in the buffer, zeros
//!   otherwise; over random padded views, origins and every thread.
//! - Windows at hostile origins (the ends of the index range) and moved by
//!   steps that wrap never panic and load and store what the reference says.
//! - The typed chains' compile-time top vectors are CK's rule.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::distribution::typed::TileEncoding;
use cktile::distribution::{Distribution, Encoding, catalogue};
use cktile::prelude::*;
use cktile::random::Rng;
use cktile::tile::plan::AccessPlan;
use cktile::tile::*;
use cktile::transforms::{MAX_DIMS, Vector};
use cktile::typed::Chain;
use cktile::{Index, Number as N};
use std::collections::BTreeSet;

/// The row-major index of `ys` over `lengths`.
fn row_major(ys: &[Index], lengths: &[Index]) -> usize {
    ys.iter().zip(lengths).fold(0, |d, (&y, &l)| d * l as usize + y as usize)
}

/// Every Y index of `lengths`, row-major.
fn all_ys(lengths: &[Index]) -> Vec<Vec<Index>> {
    let mut out = vec![vec![]];
    for &l in lengths {
        out = out.into_iter().flat_map(|p| (0..l).map(move |y| [p.clone(), vec![y]].concat())).collect();
    }
    out
}

/// Every P index of a distribution.
fn all_ps(d: &Distribution) -> Vec<Vec<Index>> {
    all_ys(d.p_lengths().as_slice())
}

fn encodings() -> Vec<(String, Encoding)> {
    let mut out = Vec::new();
    for (m, k) in [(16, 16), (16, 32), (32, 8), (32, 16)] {
        for (op, e) in [
            ("a", catalogue::mfma_a(m, k)),
            ("b", catalogue::mfma_b(m, k)),
            ("c", catalogue::mfma_c(m, k)),
            ("c_transposed", catalogue::mfma_c_transposed(m, k)),
        ] {
            out.push((format!("mfma{m}x{m}x{k}_{op}"), e.unwrap()));
        }
    }
    for (block, mn, k, k1) in [(256, 128, 32, 8), (256, 128, 64, 8), (128, 64, 32, 4), (64, 32, 32, 8)] {
        out.push((format!("gemm_dram({block},{mn},{k},{k1})"), catalogue::gemm_dram(block, mn, k, k1).unwrap()));
    }
    // CK's block GEMM A and B operands: the block's outer encoding (the other
    // operand's warps hold copies: an R) embedded with the warp operand.
    let a_outer = Encoding::new(&[2], &[&[2, 2], &[2]], &[&[1, 0]], &[&[1, 0]], &[1, 2], &[0, 0]).unwrap();
    let b_outer = Encoding::new(&[2], &[&[2, 2], &[2]], &[&[0, 1]], &[&[0, 1]], &[1, 2], &[0, 0]).unwrap();
    for (name, outer) in [("a", a_outer), ("b", b_outer)] {
        for (m, k) in [(32, 16), (16, 32)] {
            let e = cktile::distribution::embed_encoding(&outer, &catalogue::mfma_a(m, k).unwrap()).unwrap();
            out.push((format!("block_{name}(mfma{m}x{m}x{k})"), e));
        }
    }
    out
}

#[test]
fn access_plans_recomputed_by_brute_force() {
    let mut plans = 0;
    for (name, e) in encodings() {
        let d = Distribution::new(e).unwrap();
        let y_lengths = d.y_lengths().as_slice().to_vec();
        let ndim_p = d.p_lengths().len();
        for x_dim in 0..2 {
            for len in [None, Some(1), Some(2), Some(4), Some(8), Some(16)] {
                let mut top = [Vector::UNKNOWN; MAX_DIMS];
                if let Some(l) = len {
                    top[x_dim] = Vector::new(l, 1);
                }
                let p = AccessPlan::new(&e, &top, 2).unwrap();
                plans += 1;
                let ctx = format!("{name} vector {len:?} on X{x_dim}");
                let (v, vd) = (p.vector(), p.vector_dim_y());
                assert_eq!(p.accesses() * v, p.thread_buffer_size(), "{ctx}");
                assert_eq!(p.thread_buffer_size(), y_lengths.iter().product::<Index>() as usize, "{ctx}");
                assert!(v <= len.unwrap_or(1) as usize, "{ctx}: a vector longer than the view guarantees");
                let mut seen = BTreeSet::new();
                for a in 0..p.accesses() {
                    let start = p.ys_start(a)[..y_lengths.len()].to_vec();
                    for j in 0..v {
                        let mut ys = start.clone();
                        if let Some(vd) = vd {
                            ys[vd] += j as Index;
                        }
                        assert!(seen.insert(ys.clone()), "{ctx}: Y index {ys:?} accessed twice");
                        assert_eq!(
                            p.d_start(a) + j * p.d_stride(),
                            row_major(&ys, &y_lengths),
                            "{ctx}: register of {ys:?}"
                        );
                    }
                    // The access starts where ps_ys_to_xs puts (P = 0, Y) ...
                    let at_p0 = d.calculate_index(&[vec![0; ndim_p], start.clone()].concat()).unwrap();
                    assert_eq!(&p.x_delta(a)[..2], at_p0.as_slice(), "{ctx}: access {a}");
                    // ... and for every thread, the vector's elements are consecutive along X `x_dim`.
                    for ps in all_ps(&d) {
                        let x0 = d.calculate_index(&[ps.clone(), start.clone()].concat()).unwrap();
                        for j in 1..v {
                            let mut ys = start.clone();
                            ys[vd.unwrap()] += j as Index;
                            let xj = d.calculate_index(&[ps.clone(), ys].concat()).unwrap();
                            let mut want = x0.as_slice().to_vec();
                            want[x_dim] += j as Index;
                            assert_eq!(xj.as_slice(), &want[..], "{ctx}: thread {ps:?}, element {j} of access {a}");
                        }
                    }
                }
                assert_eq!(seen.len(), p.thread_buffer_size(), "{ctx}: every Y index once");
            }
        }
    }
    assert_eq!(plans, 24 * 12);
}

#[test]
fn vector_widths_follow_cks_rule_on_the_gemm_paths() {
    // The DRAM distribution's Y1 walks K's 8: gcd(guaranteed, 8).
    let dram = catalogue::gemm_dram(256, 128, 32, 8).unwrap();
    for (guaranteed, want) in [(8, 8), (16, 8), (4, 4), (2, 2), (1, 1), (6, 2), (12, 4)] {
        let mut top = [Vector::UNKNOWN; MAX_DIMS];
        top[1] = Vector::new(guaranteed, 1);
        assert_eq!(AccessPlan::new(&dram, &top, 2).unwrap().vector(), want, "guaranteed {guaranteed}");
    }
    // A stride other than 1 vectorises nothing.
    let mut top = [Vector::UNKNOWN; MAX_DIMS];
    top[1] = Vector::new(8, 2);
    assert_eq!(AccessPlan::new(&dram, &top, 2).unwrap().vector(), 1);
}

#[test]
fn plans_refuse_what_windows_cannot_do() {
    let top = [Vector::UNKNOWN; MAX_DIMS];
    let e = AccessPlan::new(&catalogue::mfma_a(32, 8).unwrap(), &top, 3).unwrap_err();
    assert!(e.to_string().contains("X dimensions"), "{e}");
    let three_ps = Encoding::new(&[], &[&[2, 2, 2, 4]], &[&[1], &[1], &[1]], &[&[0], &[1], &[2]], &[1], &[3]).unwrap();
    let err = AccessPlan::new(&three_ps, &top, 1).unwrap_err();
    assert!(err.to_string().contains("P dimensions = 3"), "{err}");
    // 256 accesses of one element: over the limit, named.
    let big = Encoding::new(&[], &[&[64, 256]], &[&[1]], &[&[0]], &[1], &[1]).unwrap();
    let err = AccessPlan::new(&big, &top, 1).unwrap_err();
    assert!(err.to_string().contains("accesses = 256"), "{err}");
    // With 8 contiguous elements it is 32 accesses: accepted.
    let mut eight = [Vector::UNKNOWN; MAX_DIMS];
    eight[0] = Vector::new(8, 1);
    assert_eq!(AccessPlan::new(&big, &eight, 1).unwrap().accesses(), 32);
    // One access of 2^21 elements: within the accesses, over the thread buffer's bound.
    let huge = Encoding::new(&[], &[&[64, 1 << 21]], &[&[1]], &[&[0]], &[1], &[1]).unwrap();
    let mut all = [Vector::UNKNOWN; MAX_DIMS];
    all[0] = Vector::new(1 << 21, 1);
    let err = AccessPlan::new(&huge, &all, 1).unwrap_err();
    assert!(err.to_string().contains("elements per thread = 2097152"), "{err}");
}

cktile::tile_distribution_encoding! {
    /// CK's GEMM DRAM distribution, 256 threads, 128 x 32, K1 = 8.
    struct Dram { rs_lengths: [1], hs_lengthss: [[2, 4, 16], [4, 8]], ps_to_rhss_major: [[1], [1, 2]], ps_to_rhss_minor: [[1], [2, 0]], ys_to_rhs_major: [1, 2], ys_to_rhs_minor: [0, 1] }
}
cktile::tile_distribution_encoding! {
    /// MFMA 32x32x8 A.
    struct WarpA { rs_lengths: [], hs_lengthss: [[32], [2, 4]], ps_to_rhss_major: [[2, 1]], ps_to_rhss_minor: [[0, 0]], ys_to_rhs_major: [2], ys_to_rhs_minor: [1] }
}
cktile::tile_distribution_encoding! {
    /// MFMA 32x32x8 C (a 2-D Y walk with a stride of 8 rows).
    struct WarpC { rs_lengths: [], hs_lengthss: [[4, 2, 4], [32]], ps_to_rhss_major: [[1, 2]], ps_to_rhss_minor: [[1, 0]], ys_to_rhs_major: [1, 1], ys_to_rhs_minor: [0, 2] }
}

/// The chain of a runtime view: `rows x cols` (row stride `stride`),
/// `vector` guaranteed along rows, right-padded to multiples of `tile`.
type PaddedChain = cktile::typed::Transformed<
    cktile::typed::NaiveVector<(usize, usize), (usize, N<1>), usize, N<1>>,
    (cktile::transforms::typed::RightPad<usize, usize>, cktile::transforms::typed::RightPad<usize, usize>),
    ((N<0>,), (N<1>,)),
    ((N<0>,), (N<1>,)),
>;

/// A runtime view over `u32`s.
type View<'a> = cktile::typed::TensorView<&'a [u32], PaddedChain>;

/// Lane `lane`'s window of the 32x32x8 MFMA A distribution at `origin` of `view`.
fn warp_a_window<B>(
    view: cktile::typed::TensorView<B, PaddedChain>,
    origin: [Index; 2],
    lane: Index,
) -> TileWindowWithStaticDistribution<B, PaddedChain, WarpA> {
    let d = make_static_tile_distribution::<WarpA>();
    make_tile_window_with_distribution(view, (N::<32>, N::<8>), origin, d, Partition::lane(lane)).unwrap()
}

/// The reference load of thread `ps` through a window at `origin` of a view
/// whose runtime descriptor is `desc` over `data`: CK's semantics, element
/// by element, from the runtime distribution.
fn reference_load(
    desc: &cktile::Descriptor,
    data: &[u32],
    d: &Distribution,
    plan: &AccessPlan,
    origin: [Index; 2],
    ps: &[Index],
) -> Vec<u32> {
    let y_lengths = d.y_lengths().as_slice().to_vec();
    let mut out = vec![0; plan.thread_buffer_size()];
    for ys in all_ys(&y_lengths) {
        // The vector this element belongs to starts at the vector Y rounded down.
        let (mut start, mut j) = (ys.clone(), 0);
        if let Some(vd) = plan.vector_dim_y() {
            j = ys[vd] as usize % plan.vector();
            start[vd] -= j as Index;
        }
        let x = d.calculate_index(&[ps.to_vec(), start].concat()).unwrap();
        let mut top = [0; MAX_DIMS];
        // A window's coordinates wrap (as typed coordinates do).
        top[0] = origin[0].wrapping_add(x.get(0));
        top[1] = origin[1].wrapping_add(x.get(1));
        let value = if desc.coordinate_has_valid_offset_assuming_top_index_is_valid(&top) {
            let offset = desc.calculate_offset(&top[..2]);
            let end = offset + plan.vector() as Index;
            if offset >= 0 && end <= data.len() as Index { data[(offset + j as Index) as usize] } else { 0 }
        } else {
            0
        };
        out[row_major(&ys, &y_lengths)] = value;
    }
    out
}

fn check_loads<E: TileEncoding>(view: View<'_>, data: &[u32], origin: [Index; 2]) -> usize {
    let dist = make_static_tile_distribution::<E>();
    let runtime = Distribution::new(E::ENCODING).unwrap();
    let lengths = runtime.x_lengths();
    let desc = view.descriptor().descriptor();
    let mut checked = 0;
    for ps in all_ps(&runtime) {
        let partition = if ps.len() == 2 { Partition { warp: ps[0], lane: ps[1] } } else { Partition::lane(ps[0]) };
        let w = make_tile_window_with_distribution(
            view,
            (lengths.get(0) as usize, lengths.get(1) as usize),
            origin,
            dist,
            partition,
        )
        .unwrap();
        let got = load_tile(&w);
        assert_eq!(
            got.thread_buffer(),
            &reference_load(&desc, data, &runtime, w.plan(), origin, &ps)[..],
            "thread {ps:?} at {origin:?}"
        );
        checked += 1;
    }
    checked
}

fn random_view<'a>(rng: &mut Rng, data: &'a [u32]) -> Option<(View<'a>, [Index; 2])> {
    let rows = 1 + rng.index(70);
    let cols = 1 + rng.index(70);
    let stride = cols + rng.index(9);
    let vector = *rng.pick(&[1usize, 2, 4, 8])?;
    // A view keeps its guarantee (the builder refuses one it does not): K and the row stride multiples of it.
    let (cols, stride) = (cols.next_multiple_of(vector), stride.next_multiple_of(vector));
    let tile = (1 + rng.index(40), 1 + rng.index(40));
    let d = make_naive_tensor_descriptor_with_vector((rows, cols), (stride, N::<1>), vector, N::<1>).ok()?;
    let view =
        pad_tensor_view(make_tensor_view(&data[..rows * stride], d), tile, (DoPad::<true>, DoPad::<true>)).ok()?;
    let origin = [rng.index(rows + 8) as Index - 4, rng.index(cols + 8) as Index - 4];
    Some((view, origin))
}

#[test]
fn loads_equal_cks_semantics_on_random_padded_views() {
    let data: Vec<u32> = (1..=80 * 80).collect();
    let mut rng = Rng::new(33);
    let mut checked = 0;
    for _ in 0..60 {
        let Some((view, origin)) = random_view(&mut rng, &data) else { continue };
        checked += check_loads::<Dram>(view, &data, origin);
        checked += check_loads::<WarpA>(view, &data, origin);
        checked += check_loads::<WarpC>(view, &data, origin);
    }
    assert!(checked > 60 * 300, "{checked} thread loads checked");
}

/// Windows at hostile origins (the ends of the index range, and places a
/// move wraps back into the tensor) never panic, in overflow-checked builds
/// too: their loads are the reference's (zeros where the wrapped coordinate
/// is padding or outside), and their stores write nothing a load would not
/// read.
#[test]
fn hostile_origins_and_moves_are_ck_semantics_without_panics() {
    let data: Vec<u32> = (1..=40 * 48).collect();
    let d = make_naive_tensor_descriptor_with_vector((40usize, 40usize), (48usize, N::<1>), 8usize, N::<1>).unwrap();
    let view =
        pad_tensor_view(make_tensor_view(&data[..], d), (32usize, 32usize), (DoPad::<true>, DoPad::<true>)).unwrap();
    let extremes = [Index::MIN, Index::MIN + 1, -(1 << 62), -129, -1, 0, 5, 1 << 40, Index::MAX - 64, Index::MAX];
    let mut rng = Rng::new(99);
    let (mut checked, mut real, mut stored) = (0, 0, 0);
    for _ in 0..40 {
        let origin = [*rng.pick(&extremes).unwrap(), *rng.pick(&extremes).unwrap()];
        // A step that wraps the origin back to a small one half the time.
        let back = |o: Index, r: &mut Rng| if r.index(2) == 0 { (r.index(30) as Index).wrapping_sub(o) } else { o };
        let step = [back(origin[0], &mut rng), back(origin[1], &mut rng)];
        let moved = [origin[0].wrapping_add(step[0]), origin[1].wrapping_add(step[1])];
        for at in [origin, moved] {
            checked += check_loads::<WarpA>(view, &data, at);
        }
        // The same through move_tile_window, thread by thread.
        let runtime = Distribution::new(WarpA::ENCODING).unwrap();
        for lane in [0, 17, 63] {
            let mut w = warp_a_window(view, origin, lane);
            move_tile_window(&mut w, step);
            assert_eq!(w.window_origin(), moved);
            let want = reference_load(&view.descriptor().descriptor(), &data, &runtime, w.plan(), moved, &[lane]);
            assert_eq!(load_tile(&w).thread_buffer(), &want[..], "lane {lane} moved from {origin:?} by {step:?}");
            real += want.iter().filter(|&&v| v != 0).count();
        }
        // Stores at the hostile origin write exactly the elements a load there reads.
        let mut buffer = vec![0u32; 40 * 48];
        let memory = SharedMemory::from_mut(&mut buffer[..]);
        let store_view = make_tensor_view(memory, *view.descriptor());
        for lane in 0..64 {
            let mut w = warp_a_window(store_view, origin, lane);
            let mut t = make_static_distributed_tensor::<u32, WarpA>();
            t.thread_buffer_mut().fill(1);
            store_tile(&mut w, &t);
        }
        let read: usize = (0..64)
            .map(|lane| {
                load_tile(&warp_a_window(view, origin, lane)).thread_buffer().iter().filter(|&&v| v != 0).count()
            })
            .sum();
        assert_eq!(buffer.iter().filter(|&&v| v == 1).count(), read, "stores at {origin:?}");
        stored += read;
    }
    assert!(checked >= 40 * 2 * 64, "{checked}");
    // Not only zeros: moves wrapped back into the tensor read data, and stores at small origins wrote.
    assert!(real > 0 && stored > 0, "{real} elements read, {stored} stored");
}

#[test]
fn stores_write_exactly_the_valid_vectors() {
    // Every thread of WarpC stores its element tags through a padded view;
    // the buffer then holds each tag at the reference's place, and nothing
    // elsewhere.
    let mut rng = Rng::new(7);
    for _ in 0..30 {
        let (rows, cols) = (1 + rng.index(40), 1 + rng.index(40));
        let stride = cols + rng.index(4);
        let mut buffer = vec![0u32; rows * stride];
        let d = make_naive_tensor_descriptor_with_vector((rows, cols), (stride, N::<1>), N::<1>, N::<1>).unwrap();
        let desc = transform_tensor_descriptor(
            d,
            (make_right_pad_transform(rows, 32usize), make_right_pad_transform(cols, 32usize)),
            (ids![0], ids![1]),
            (ids![0], ids![1]),
        )
        .unwrap();
        let origin = [rng.index(rows + 4) as Index - 2, rng.index(cols + 4) as Index - 2];
        let runtime = Distribution::new(WarpC::ENCODING).unwrap();
        let mut want = vec![0u32; rows * stride];
        let memory = SharedMemory::from_mut(&mut buffer[..]);
        for lane in 0..64 {
            let mut w = make_tile_window_with_distribution(
                make_tensor_view(memory, desc),
                (N::<32>, N::<32>),
                origin,
                make_static_tile_distribution::<WarpC>(),
                Partition::lane(lane),
            )
            .unwrap();
            let mut t = make_static_distributed_tensor::<u32, WarpC>();
            for (i, r) in t.thread_buffer_mut().iter_mut().enumerate() {
                *r = (lane as u32 + 1) * 1000 + i as u32;
            }
            store_tile(&mut w, &t);
            let rt = desc.descriptor();
            for (i, ys) in all_ys(runtime.y_lengths().as_slice()).into_iter().enumerate() {
                let x = runtime.calculate_index(&[vec![lane], ys].concat()).unwrap();
                let top = [origin[0] + x.get(0), origin[1] + x.get(1)];
                let mut full = [0; MAX_DIMS];
                full[..2].copy_from_slice(&top);
                if rt.coordinate_has_valid_offset_assuming_top_index_is_valid(&full) {
                    let o = rt.calculate_offset(&top);
                    if o >= 0 && (o as usize) < want.len() {
                        want[o as usize] = (lane as u32 + 1) * 1000 + i as u32;
                    }
                }
            }
        }
        assert_eq!(buffer, want, "{rows}x{cols} stride {stride} at {origin:?}");
    }
}

#[test]
fn typed_top_vectors_are_cks_rule() {
    fn vectors<C: Chain>(_: &TensorDescriptor<C>) -> [Vector; MAX_DIMS] {
        C::TOP_VECTORS
    }
    // All static: the runtime descriptor's rule, exactly.
    let lds =
        make_naive_tensor_descriptor_with_vector((N::<8>, N::<64>, N::<8>), (N::<8>, N::<64>, N::<1>), N::<8>, N::<1>)
            .unwrap();
    let lds = transform_tensor_descriptor(
        lds,
        (make_xor_transform((N::<64>, N::<8>)), make_pass_through_transform(N::<8>)),
        (ids![1, 0], ids![2]),
        (ids![1, 0], ids![2]),
    )
    .unwrap();
    let lds = transform_tensor_descriptor(
        lds,
        (make_merge_transform((N::<8>, N::<64>)), make_pass_through_transform(N::<8>)),
        (ids![0, 1], ids![2]),
        (ids![0], ids![1]),
    )
    .unwrap();
    assert_eq!(vectors(&lds), lds.descriptor().top_vectors());
    assert_eq!(vectors(&lds)[1], Vector::new(8, 1));
    // Packed: stride 1 on the last dimension, no length (CK's packed guarantees none).
    let p = make_naive_tensor_descriptor_packed((4usize, 8usize)).unwrap();
    assert_eq!(vectors(&p)[..2], [Vector::UNKNOWN, Vector { length: None, stride: Some(1) }]);
    // An unmerge of the guaranteed dimension: its static last length keeps a gcd, a runtime one does not.
    let base = make_naive_tensor_descriptor_with_vector((4usize, 24usize), (24usize, N::<1>), N::<12>, N::<1>).unwrap();
    let split_static = transform_tensor_descriptor(
        base,
        (make_pass_through_transform(4usize), make_unmerge_transform((3usize, N::<8>))),
        (ids![0], ids![1]),
        (ids![0], ids![1, 2]),
    )
    .unwrap();
    assert_eq!(vectors(&split_static)[2], Vector::new(4, 1));
    let split_runtime = transform_tensor_descriptor(
        base,
        (make_pass_through_transform(4usize), make_unmerge_transform((3usize, 8usize))),
        (ids![0], ids![1]),
        (ids![0], ids![1, 2]),
    )
    .unwrap();
    assert_eq!(vectors(&split_runtime)[2], Vector { length: None, stride: Some(1) });
    // The runtime descriptor knows the runtime length, CK's compile-time rule does not.
    assert_eq!(split_runtime.descriptor().top_vectors()[2], Vector::new(4, 1));
}

#[test]
fn the_lanes_a_window_check_names_share_a_bank_by_brute_force() {
    use cktile::analyzer::window::{WindowAccess, analyze_window, window_conflict};
    use cktile::analyzer::{Op, arch, rules::rule};
    // CK's xor A block (128 x 32 fp16) and row-major tiles, read by catalogue warp distributions.
    let xor =
        cktile::layouts::ck::universal_a(128, 32, 8, 2, 32, cktile::layouts::ck::UnmergeOrder::Fixed2025).unwrap();
    let cases = [
        (xor, catalogue::mfma_a(32, 8).unwrap(), Op::DsRead { bits: 64 }),
        (xor, catalogue::mfma_a(32, 16).unwrap(), Op::DsRead { bits: 128 }),
        (cktile::Descriptor::packed(&[16, 32]).unwrap(), catalogue::mfma_a(16, 32).unwrap(), Op::DsRead { bits: 128 }),
        (cktile::Descriptor::packed(&[32, 16]).unwrap(), catalogue::mfma_a(32, 16).unwrap(), Op::DsRead { bits: 128 }),
        (cktile::Descriptor::packed(&[16, 16]).unwrap(), catalogue::mfma_a(16, 16).unwrap(), Op::DsRead { bits: 64 }),
    ];
    let mut conflicting = Vec::new();
    for (i, (desc, e, op)) in cases.into_iter().enumerate() {
        let d = Distribution::new(e).unwrap();
        let counts = analyze_window(&desc, 2, &arch::GFX942, &d, op).unwrap();
        let named =
            window_conflict(&desc, 2, &arch::GFX942, &d, op, counts.worst_instruction, counts.worst_phase).unwrap();
        let Some((bank, a, b)) = named else {
            assert_eq!(counts.conflict_cycles, 0, "{op:?}: conflicts but no lanes named");
            continue;
        };
        conflicting.push(i);
        assert!(counts.conflict_cycles > 0);
        // Brute force: both lanes are in the worst phase, each touches a word of `bank`, and the words differ.
        let r = rule(&arch::GFX942, op);
        let phase_lanes = r.grouping.phase(counts.worst_phase as usize % r.grouping.phases());
        assert!(phase_lanes.contains(&(a as u8)) && phase_lanes.contains(&(b as u8)), "lanes {a}, {b}");
        let w = WindowAccess::new(&d, op, 2, 64).unwrap();
        let words = |lane: u32| -> Vec<u64> {
            let x = w.coordinate(counts.worst_instruction as usize, lane as usize).unwrap();
            let byte = desc.calculate_offset(&x) as u64 * 2;
            (byte / 4..(byte + op.access_bytes()).div_ceil(4)).collect()
        };
        let in_bank =
            |ws: Vec<u64>| ws.into_iter().filter(|w| w % u64::from(r.banks) == u64::from(bank)).collect::<Vec<_>>();
        let (wa, wb) = (in_bank(words(a)), in_bank(words(b)));
        assert!(!wa.is_empty() && !wb.is_empty() && wa != wb, "lanes {a} {wa:?} and {b} {wb:?}, bank {bank}");
    }
    // Only the xor block under 32x32x16's 128-bit reads (the GEMM path's) is conflict-free.
    assert_eq!(conflicting, [0, 2, 3, 4]);
    // The GEMM path's finding, exactly: lanes 0 and 9 share bank 0.
    let d = Distribution::new(catalogue::mfma_a(32, 8).unwrap()).unwrap();
    let op = Op::DsRead { bits: 64 };
    let c = analyze_window(&xor, 2, &arch::GFX942, &d, op).unwrap();
    assert_eq!(
        window_conflict(&xor, 2, &arch::GFX942, &d, op, c.worst_instruction, c.worst_phase).unwrap(),
        Some((0, 0, 9))
    );
}
