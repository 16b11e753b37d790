//! Issue 34: the public API is total. Every public constructor and function
//! below is called with hostile values (0, 1, `usize::MAX`, `i64::MIN`,
//! `i64::MAX`, -1, mismatched and empty lists, inverted ranges, huge lengths
//! and strides, coordinates outside the lengths, wrong arity) and must return
//! an error or a bounded answer, never panic. Each call runs under
//! `catch_unwind`, so one panic is reported by name and the rest still run;
//! the test fails at the end with the list of calls that panicked.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::panic::{AssertUnwindSafe, catch_unwind};

use cktile::adaptor::MAX_HIDDEN;
use cktile::analyzer::{Op, Pattern, arch, model, tile};
use cktile::distribution::catalogue::{self, VLayout};
use cktile::distribution::{Distribution, Encoding};
use cktile::plan::dma::{
    DmaPlan, DmaRequest, Form, Gather, Order, Scheme, address, execute, plan, plan_ordered, simulate, verify,
};
use cktile::reports;
use cktile::{Coordinate, Descriptor, Item, check, codegen, layouts, spec};
use cktile_transforms::{Dims, MAX_DIMS, Transform, Vector};

const BIG: usize = usize::MAX;
const HOSTILE_USIZE: [usize; 6] = [0, 1, 2, usize::MAX, usize::MAX / 2, 1 << 40];
const HOSTILE_I64: [i64; 7] = [0, 1, -1, i64::MIN, i64::MAX, i64::MIN + 1, i64::MAX - 1];

struct Probe {
    calls: usize,
    panics: Vec<String>,
}

impl Probe {
    fn call<R>(&mut self, name: &str, f: impl FnOnce() -> R) {
        self.calls += 1;
        if std::env::var_os("HOSTILE_TRACE").is_some() {
            eprintln!("call: {name}");
        }
        let start = std::time::Instant::now();
        let caught = catch_unwind(AssertUnwindSafe(|| drop(f())));
        if start.elapsed().as_millis() > 200 {
            eprintln!("slow: {name} took {:?}", start.elapsed());
        }
        if let Err(payload) = caught {
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            self.panics.push(format!("{name}: {msg}"));
        }
    }
}

fn indices(values: &[i64]) -> [i64; MAX_DIMS] {
    let mut a = [0; MAX_DIMS];
    for (slot, v) in a.iter_mut().zip(values) {
        *slot = *v;
    }
    a
}

/// Every transform constructor with hostile parameters; the ones that build
/// are returned for the method probes.
fn transforms(p: &mut Probe) -> Vec<Transform> {
    let mut built = Vec::new();
    let mut keep = |r: Result<Transform, _>| {
        if let Ok(t) = r {
            built.push(t);
        }
    };
    for &a in &HOSTILE_USIZE {
        p.call("Transform::pass_through", || keep(Transform::pass_through(a)));
    }
    let mut built2 = Vec::new();
    let mut keep2 = |r: Result<Transform, cktile_transforms::Error>| {
        if let Ok(t) = r {
            built2.push(t);
        }
    };
    for &a in &HOSTILE_USIZE {
        p.call("Transform::freeze", || keep2(Transform::freeze(a)));
        p.call("Transform::insert", || keep2(Transform::insert(a)));
        for &b in &HOSTILE_USIZE {
            p.call("Transform::left_pad", || keep2(Transform::left_pad(a, b)));
            p.call("Transform::right_pad", || keep2(Transform::right_pad(a, b)));
            p.call("Transform::xor", || keep2(Transform::xor(a, b)));
            p.call("Transform::offset", || keep2(Transform::offset(a, b)));
            p.call("Transform::modulo", || keep2(Transform::modulo(a, b)));
            for &c in &HOSTILE_USIZE {
                p.call("Transform::pad", || keep2(Transform::pad(a, b, c)));
                p.call("Transform::slice", || keep2(Transform::slice(a, b, c)));
            }
        }
    }
    let lists: [&[usize]; 9] =
        [&[], &[0], &[1], &[BIG], &[BIG, BIG], &[1 << 32, 1 << 32], &[2, 0, 3], &[1, 1, 1, 1, 1, 1, 1, 1, 1], &[4, 8]];
    for l in lists {
        p.call("Transform::merge", || keep2(Transform::merge(l)));
        p.call("Transform::unmerge", || keep2(Transform::unmerge(l)));
        p.call("Transform::replicate", || keep2(Transform::replicate(l)));
        for c in lists {
            p.call("Transform::embed", || keep2(Transform::embed(l, c)));
        }
    }
    for bits in [0u32, 1, 3, 31, 32, 63, 64, u32::MAX] {
        for base in [0u32, 1, 3, 32, 63, 64, u32::MAX] {
            for shift in [0i32, 1, -1, 3, 64, -64, i32::MIN, i32::MAX] {
                p.call("Transform::swizzle", || keep2(Transform::swizzle(bits, base, shift)));
                for &len in &[0usize, 8, BIG] {
                    p.call("Transform::swizzle_with_len", || {
                        keep2(Transform::swizzle_with_len(len, bits, base, shift))
                    });
                }
            }
        }
    }
    built.extend(built2);
    built
}

fn transform_methods(p: &mut Probe, ts: &[Transform]) {
    let ups: Vec<[i64; MAX_DIMS]> = HOSTILE_I64.iter().map(|&v| [v; MAX_DIMS]).collect();
    let lower_lists: Vec<Dims> = [&[][..], &[0], &[1], &[i64::MAX], &[i64::MAX, i64::MAX], &[4, 8], &[-1, -1]]
        .iter()
        .filter_map(|l| Dims::from_slice(l).ok())
        .collect();
    for t in ts {
        p.call("Transform::kind/num_lower/num_upper/upper_lengths", || {
            (t.kind(), t.num_lower(), t.num_upper(), t.upper_lengths(), t.is_linear(), t.is_always_valid())
        });
        p.call("Transform::vector_rule", || t.vector_rule());
        p.call("Transform::upper_vectors", || t.upper_vectors(&[Vector::new(i64::MAX, i64::MIN); MAX_DIMS]));
        for up in &ups {
            p.call("Transform::calculate_lower", || t.calculate_lower(up));
            p.call("Transform::calculate_upper", || t.calculate_upper(up));
            p.call("Transform::is_valid_upper", || t.is_valid_upper(up));
            p.call("Transform::update_lower", || t.update_lower(up, up, up));
        }
        for l in &lower_lists {
            p.call("Transform::bind", || t.bind(l));
        }
    }
    for &v in &HOSTILE_I64 {
        p.call("Vector::new", || Vector::new(v, v));
        p.call("Dims::splat", || Dims::splat(9, v));
    }
    p.call("Dims::from_usizes", || Dims::from_usizes(&[BIG; 9]));
    p.call("Dims::from_usizes", || Dims::from_usizes(&[BIG, BIG]));
    p.call("Dims::product", || Dims::from_slice(&[i64::MAX, i64::MAX]).map(|d| (d.product(), d.wide_product())));
    p.call("Dims::get out of range", || Dims::from_slice(&[1]).map(|d| d.get(100)));
}

fn descriptors(p: &mut Probe) -> Vec<Descriptor> {
    let mut out = Vec::new();
    let lists: [&[usize]; 8] = [&[], &[0], &[1], &[BIG], &[BIG, BIG], &[1 << 40, 1 << 40], &[1; 9], &[4, 8]];
    for l in lists {
        for s in lists {
            p.call("Descriptor::naive", || {
                if let Ok(d) = Descriptor::naive(l, s) {
                    out.push(d);
                }
            });
            for &o in &HOSTILE_USIZE {
                p.call("Descriptor::naive_with_offset", || {
                    if let Ok(d) = Descriptor::naive_with_offset(l, s, o) {
                        out.push(d);
                    }
                });
            }
        }
        p.call("Descriptor::packed", || {
            if let Ok(d) = Descriptor::packed(l) {
                out.push(d);
            }
        });
        for &a in &HOSTILE_USIZE {
            p.call("Descriptor::aligned", || {
                if let Ok(d) = Descriptor::aligned(l, a) {
                    out.push(d);
                }
            });
        }
    }
    // Transform stages with hostile items: wrong ids, wrong arity, lengths that do not match.
    let base = Descriptor::naive(&[4, 8], &[8, 1]).unwrap();
    let ids: [&[usize]; 6] = [&[], &[0], &[1], &[0, 1], &[BIG], &[0, 0]];
    let ts = [
        Transform::pass_through(4),
        Transform::pass_through(BIG >> 2),
        Transform::merge(&[4, 8]),
        Transform::unmerge(&[4, 8]),
        Transform::xor(4, 8),
        Transform::pad(8, 1 << 60, 1 << 60),
        Transform::embed(&[2, 2], &[1 << 61, 1 << 61]),
        Transform::freeze(3),
        Transform::replicate(&[1 << 40]),
    ];
    for t in ts.iter().flatten() {
        for lo in ids {
            for up in ids {
                p.call("Item::new + Descriptor::transform", || {
                    let item = Item::new(*t, lo, up)?;
                    let d = base.transform(&[item])?;
                    out.push(d);
                    Ok::<(), cktile::Error>(())
                });
            }
        }
    }
    p.call("Descriptor::transform empty items", || base.transform(&[]));
    out
}

fn descriptor_methods(p: &mut Probe, ds: &[Descriptor]) {
    let tops: Vec<Vec<i64>> = vec![
        vec![],
        vec![0],
        vec![-1, -1],
        vec![i64::MIN, i64::MIN],
        vec![i64::MAX, i64::MAX],
        vec![i64::MAX; 12],
        vec![1, 2, 3, 4, 5, 6, 7, 8, 9],
    ];
    for d in ds {
        p.call("Descriptor::lengths/num_dims/element_size", || {
            (d.lengths(), d.num_dims(), d.element_size(), d.element_space_size(), d.stages().len())
        });
        p.call("Descriptor::top_vectors", || d.top_vectors());
        p.call("Program::of", || cktile::Program::of(d));
        for t in &tops {
            p.call("Descriptor::calculate_offset", || d.calculate_offset(t));
            p.call("Descriptor::try_calculate_offset", || d.try_calculate_offset(t));
            p.call("Descriptor::offset_if_valid", || d.offset_if_valid(t));
            p.call("Descriptor::check_coordinate", || d.check_coordinate(t));
            p.call("Descriptor::coordinate_has_valid_offset", || d.coordinate_has_valid_offset(t));
            p.call("Program::calculate_offset", || cktile::Program::of(d).calculate_offset(t));
            p.call("cktile::Program::offset_if_valid", || cktile::Program::of(d).offset_if_valid(t));
            p.call("check::trace", || check::trace(d, t));
            let full = indices(t);
            p.call("Descriptor::calculate_offset_indices", || d.calculate_offset_indices(&full));
        }
        for &o in &HOSTILE_I64 {
            p.call("Descriptor::calculate_top_index", || d.calculate_top_index(o));
        }
        for n in [0u64, 1, u64::MAX, 1 << 63] {
            p.call("check::coordinate", || check::coordinate(d, n));
        }
        p.call("check::enumerable_size", || check::enumerable_size(d));
        p.call("check::enumeration_limit", || check::enumeration_limit(d));
        // Only enumerate what the library allows (bounded by 2^24 coordinates).
        p.call("check::offsets/check/verified_vector_lengths/claim_break", || {
            let offs = check::offsets(d)?;
            let _ = check::check(d)?;
            let _ = check::verified_vector_lengths(d, &offs);
            for dim in [0, 1, 7, 8, BIG] {
                for claim in [Vector::new(0, 0), Vector::new(i64::MAX, i64::MAX), Vector::new(-1, i64::MIN)] {
                    let _ = check::claim_break(d, &offs, dim, claim);
                }
            }
            Ok::<(), cktile::Error>(())
        });
        p.call("codegen::generate", || codegen::generate(d, &codegen::Options::new(codegen::Lang::Cuda, "f")));
        p.call("codegen::generate bad name", || {
            codegen::generate(d, &codegen::Options::new(codegen::Lang::Hip, "not a name; */"))
        });
    }
}

fn spec_parse(p: &mut Probe) {
    let deep_open = "(".repeat(100_000);
    let deep_nest = format!("naive({}1{},(1))", "(".repeat(10_000), ")".repeat(10_000));
    let mega = "naive((4,8),(8,1)) | ".repeat(50_000);
    let texts: Vec<String> = vec![
        String::new(),
        " ".into(),
        "naive".into(),
        "naive(".into(),
        "naive((),())".into(),
        "naive((99999999999999999999999999999),(1))".into(),
        "naive((18446744073709551615),(18446744073709551615))".into(),
        "naive((9223372036854775807,2),(1,1))".into(),
        "naive((-1),(1))".into(),
        "packed((1,1,1,1,1,1,1,1,1))".into(),
        "naive((4,8),(8,1)) | transform(merge((4,8)) on [0,1,2,3,4,5,6,7,8,9] -> [0])".into(),
        "naive((4,8),(8,1)) | transform(pass_through(4) on [18446744073709551615] -> [0])".into(),
        "naive((4,8),(8,1)) | transform(slice(4,3,1) on [0] -> [0], pass_through(8) on [1] -> [1])".into(),
        "naive((4,8),(8,1)) | transform(swizzle(4294967295,4294967295,-2147483648) on [0] -> [0])".into(),
        deep_open,
        deep_nest,
        mega,
        "\u{0}\u{ffff}\u{1F600}".repeat(1000),
        "x".repeat(1 << 20),
    ];
    for t in &texts {
        p.call("spec::parse", || spec::parse(t));
        p.call("layouts::resolve", || layouts::resolve(t));
        p.call("codegen::generate_text", || codegen::generate_text(t, codegen::Lang::Cuda, None));
        p.call("distribution::spelling::text::parse", || cktile::spelling::parse(t));
    }
}

fn layout_builders(p: &mut Probe) {
    let nums = ["0", "1", "-1", "18446744073709551615", "9223372036854775807", "99999999999999999999999", "4096"];
    for e in layouts::CATALOGUE.iter() {
        for n in nums {
            let params = e.param_names().split(',').map(|k| format!("{}={n}", k.trim())).collect::<Vec<_>>().join(",");
            p.call(&format!("layouts::{}::build", e.name), || {
                let _ = e.build(&params);
                let _ = e.build_typed(&params, Some("f16"));
                let _ = e.build_typed(&params, Some("nonsense"));
            });
            p.call("layouts::resolve entry", || layouts::resolve(&format!("{}({params})", e.name)));
        }
        p.call("layouts::build empty", || e.build(""));
        p.call("layouts::build garbage", || e.build(",,,=,=="));
    }
    for &a in &HOSTILE_USIZE {
        for &b in &HOSTILE_USIZE {
            p.call("layouts::ck::xor_lds", || layouts::ck::xor_lds(a, b, a, b, layouts::ck::UnmergeOrder::Fixed2025));
            p.call("layouts::ck::v1_padded", || layouts::ck::v1_padded(a, b, a));
            p.call("layouts::ck::xor_preshuffle", || layouts::ck::xor_preshuffle(a, b, a));
            p.call("layouts::ck::mlds_layer", || layouts::ck::mlds_layer(a, b, a));
            p.call("layouts::ck::default_kpack", || layouts::ck::default_kpack(a));
            p.call("layouts::padding::row_padded", || layouts::padding::row_padded(a, b, a));
            p.call("ops::gemm::kpack", || cktile::ops::gemm::kpack(a, b));
            p.call("ops::gemm::ShuffleTile::new", || {
                let t = cktile::ops::gemm::ShuffleTile::new((a, b), (b, a), (a, a), b)?;
                Ok::<_, cktile::Error>((
                    t.accesses(),
                    t.access_origin(a),
                    t.lds_elements(),
                    t.store_pattern(a).factors(),
                ))
            });
        }
    }
}

fn analyzer(p: &mut Probe, ds: &[Descriptor]) {
    let ops = [
        Op::DsRead { bits: 0 },
        Op::DsRead { bits: 128 },
        Op::DsRead { bits: u32::MAX },
        Op::DsWrite { bits: 7 },
        Op::DsRead2 { bits: 64, offsets: [255, 255], st64: true },
        Op::DsReadTr { element_bits: 0 },
        Op::LdShared { bits: 1 << 31 },
        Op::StShared { bits: 128 },
        Op::Ldmatrix { matrices: 0, trans: true },
        Op::Ldmatrix { matrices: u32::MAX, trans: false },
        Op::Stmatrix { matrices: 4, trans: true },
    ];
    let addr_sets: Vec<Vec<Option<u64>>> = vec![
        vec![],
        vec![None; 64],
        vec![Some(u64::MAX); 64],
        (0..64).map(|i| Some(u64::MAX - i)).collect(),
        vec![Some(0); 1000],
        (0..32).map(|i| Some(i * 3)).collect(),
    ];
    let archs = [arch::GFX90A, arch::GFX942, arch::GFX950, arch::SM80, arch::SM90];
    for a in &archs {
        for op in ops {
            p.call("Op::check/accesses/bytes", || (op.check(), op.accesses(), op.access_bytes(), op.alignment()));
            for addrs in &addr_sets {
                p.call("analyzer::count", || model::count(a, op, addrs));
                p.call("analyzer::model::validate", || model::validate(a, op, addrs));
                p.call("reports::analyze_instruction", || reports::analyze_instruction(a, op, addrs));
                p.call("analyzer::model::count_copy", || model::count_copy(a, 128, addrs, addrs));
            }
        }
        let patterns = [
            Pattern::Rows { op: Op::DsRead { bits: 0 } },
            Pattern::Rows { op: Op::DsWrite { bits: 128 } },
            Pattern::Columns { op: Op::DsRead { bits: 64 } },
            Pattern::Mfma { mdim: 0, op: Op::DsRead { bits: 128 } },
            Pattern::Mfma { mdim: u32::MAX, op: Op::DsRead { bits: 128 } },
            Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } },
            Pattern::Ldmatrix { op: Op::Ldmatrix { matrices: 4, trans: false } },
            Pattern::MmaSyncA,
        ];
        for d in ds.iter().take(40) {
            for eb in [0usize, 1, 2, 3, BIG, 1 << 40] {
                for c in [[0i64, 0], [-1, -1], [i64::MAX, i64::MAX], [i64::MIN, 0]] {
                    p.call("analyzer::tile::coordinate_address", || tile::coordinate_address(d, eb, 0, 0, c));
                    p.call("analyzer::tile::coordinate_address(i,lane=MAX)", || {
                        tile::coordinate_address(d, eb, BIG, BIG, c)
                    });
                }
                for pat in patterns {
                    p.call("analyzer::tile::lane_addresses", || tile::lane_addresses(d, eb, a, pat, 0));
                    p.call("analyzer::tile::lane_addresses(i=MAX)", || tile::lane_addresses(d, eb, a, pat, BIG));
                    if d.element_size().is_some_and(|s| s <= 1 << 16) {
                        p.call("analyzer::analyze_tile", || tile::analyze_tile(d, eb, a, pat));
                        p.call("reports::analyze_tile_report", || reports::analyze_tile_report(d, eb, a, pat));
                    }
                }
                p.call("reports::analyze_with", || {
                    reports::analyze_with(d, eb, a, Op::DsRead { bits: 128 }, 4, |i, l| {
                        Some([(i as i64).wrapping_mul(i64::MAX), l as i64 - 1])
                    })
                });
                p.call("reports::analyze_with(0 instr)", || {
                    reports::analyze_with(d, eb, a, Op::DsRead { bits: 128 }, 0, |_, _| None)
                });
            }
        }
    }
}

fn distributions(p: &mut Probe) {
    let rs: [&[usize]; 4] = [&[], &[0], &[BIG], &[1; 9]];
    let hs: [&[&[usize]]; 5] = [&[], &[&[]], &[&[BIG, BIG]], &[&[4, 16], &[4, 16]], &[&[0]]];
    let ps: [&[&[usize]]; 4] = [&[], &[&[1]], &[&[BIG]], &[&[1, 2], &[1]]];
    let ys: [&[usize]; 4] = [&[], &[1], &[BIG], &[1, 1, 1]];
    for r in rs {
        for h in hs {
            for pm in ps {
                for pn in ps {
                    for y in ys {
                        for yn in ys {
                            p.call("Encoding::new + Distribution::new", || {
                                let e = Encoding::new(r, h, pm, pn, y, yn)?;
                                let d = Distribution::new(e)?;
                                let _ = d.d_length();
                                let _ = d.index_count();
                                let _ = d.calculate_index(&[i64::MAX, i64::MIN, -1]);
                                let _ = d.d_index(&[i64::MIN; 10]);
                                let _ = d.thread_origin(&[]);
                                let _ = d.rs_index(&[i64::MAX]);
                                let _ = d.for_each(1 << 10, |_, _, _| {});
                                Ok::<(), cktile::Error>(())
                            });
                        }
                    }
                }
            }
        }
    }
    for &a in &HOSTILE_USIZE {
        for &b in &HOSTILE_USIZE {
            p.call("catalogue::mfma_a", || catalogue::mfma_a(a, b));
            p.call("catalogue::mfma_a_per_lane", || catalogue::mfma_a_per_lane(a, b));
            p.call("catalogue::mfma_b", || catalogue::mfma_b(a, b));
            p.call("catalogue::mfma_c", || catalogue::mfma_c(a, b));
            p.call("catalogue::mfma_c_transposed", || catalogue::mfma_c_transposed(a, b));
            p.call("catalogue::gemm_dram", || catalogue::gemm_dram(a, b, a, b));
            p.call("catalogue::fmha_q_load_once", || catalogue::fmha_q_load_once(a, b, a, b, a));
            p.call("catalogue::fmha_k_dram_async", || catalogue::fmha_k_dram_async(a, b, a, b));
            for v in [VLayout::RowMajor, VLayout::ColumnMajor] {
                p.call("catalogue::fmha_v_dram", || catalogue::fmha_v_dram(a, b, a, b, v));
            }
            p.call("catalogue::fmha_v_shuffled", || catalogue::fmha_v_shuffled(a, b, a, b));
            p.call("catalogue::fmha_lse_d_dram", || catalogue::fmha_lse_d_dram(a, b, a));
        }
    }
    p.call("catalogue::by_name", || catalogue::by_name(""));
    p.call("catalogue::by_name", || catalogue::by_name(&"(".repeat(10_000)));
    let encs: Vec<Encoding> =
        [catalogue::mfma_a(32, 8), catalogue::mfma_c(16, 16), catalogue::gemm_dram(256, 128, 32, 8)]
            .into_iter()
            .flatten()
            .collect();
    for o in &encs {
        for i in &encs {
            p.call("distribution::embed", || cktile::distribution::embed_encoding(o, i));
        }
    }
}

fn search(p: &mut Probe) {
    use cktile::search::Problem;
    for (r, c, eb) in [(0, 0, 0), (0, 64, 2), (64, 0, 2), (64, 64, 0), (BIG, BIG, BIG), (1 << 40, 1, 2), (1, 1, 1)] {
        p.call("search::Problem::validate", || {
            let prob = Problem::new(r, c, eb, arch::GFX942).read(Pattern::Rows { op: Op::DsRead { bits: 128 } });
            prob.validate()?;
            prob.vector_elements()
        });
        p.call("search::Problem::vector/padding", || {
            let prob = Problem::new(r, c, eb, arch::GFX942).vector(BIG).max_padding_bytes(u64::MAX);
            let _ = prob.bank_period_bytes();
            prob.validate()
        });
        // A search only on a problem that validation rejects, or on a tiny one.
        p.call("search::search", || {
            let prob = Problem::new(r, c, eb, arch::GFX942).read(Pattern::Rows { op: Op::DsRead { bits: 0 } });
            cktile::search::search(&prob).map(|_| ())
        });
    }
}

fn dma(p: &mut Probe) {
    let tiles: Vec<Descriptor> = [
        Descriptor::packed(&[64, 64]),
        Descriptor::packed(&[1]),
        Descriptor::naive(&[4, 4], &[1 << 40, 1]),
        Descriptor::naive(&[4, 4], &[0, 0]),
    ]
    .into_iter()
    .flatten()
    .collect();
    for tile in &tiles {
        for eb in [0usize, 1, 3, BIG] {
            for strides in [vec![], vec![64, 1], vec![i64::MAX, i64::MIN], vec![-1, -1, -1]] {
                for (wg, wave, width) in [(0, 0, 0), (256, 64, 4), (BIG, BIG, BIG), (1, 64, 3), (256, 0, 16)] {
                    let req = DmaRequest {
                        lds: tile,
                        element_bytes: eb,
                        global_strides: strides.clone(),
                        arch: arch::GFX942,
                        workgroup: wg,
                        wave,
                        width,
                    };
                    p.call("plan::dma::plan/verify/expected_image", || {
                        let _ = cktile::plan::dma::expected_image(&req);
                        let pl = plan(&req)?;
                        let _ = simulate(&pl);
                        verify(&req, &pl)
                    });
                    p.call("plan::dma::plan_ordered/address/verify_addressing", || {
                        let pl = plan_ordered(&req, Order::IssueMajor)?;
                        let a = address(&pl, &req.arch, Form::Buffer, Scheme::Ck, 0)?;
                        cktile::plan::dma::verify_addressing(&req, &pl, &a)
                    });
                }
            }
        }
    }
    let gathers = vec![
        Gather { lds_byte: u64::MAX, global_byte: i64::MIN, coordinate: vec![] },
        Gather { lds_byte: 0, global_byte: -1, coordinate: vec![i64::MAX; 3] },
    ];
    for (subgroups, wave, width, lds, slice, loads) in [
        (0, 0, 0, 0, 0, 0),
        (1, 1, 1, u64::MAX, u64::MAX, 1),
        (BIG, BIG, BIG, u64::MAX, 1, BIG),
        (2, 64, 4, 4096, 2048, 8),
        (1, 2, 4, 8, 8, 1),
    ] {
        let pl = DmaPlan {
            subgroups,
            wave,
            width,
            lds_bytes: lds,
            slice_bytes: slice,
            order: Order::IssueMajor,
            loads_per_thread: loads,
            gathers: gathers.clone(),
        };
        p.call("plan::dma::simulate hand-built", || simulate(&pl));
        for form in Form::ALL {
            for scheme in Scheme::ALL {
                for base in [0, 4, u64::MAX] {
                    p.call("plan::dma::address/execute hand-built", || {
                        let a = address(&pl, &arch::GFX950, form, scheme, base);
                        a.map(|a| (execute(&pl, &a), a.m0_writes(0), a.lane_operand(&pl, 0, 0, 0)))
                    });
                }
            }
        }
        p.call("DmaPlan::gather/instruction/slice", || {
            let _ = pl.gather(BIG, BIG, BIG);
            let _ = pl.gather(0, 0, 0);
            let _ = pl.instruction(BIG, 0);
            let _ = pl.slice(BIG);
            let _ = pl.slice(0);
            let _ = pl.chunk_base(BIG, BIG);
            pl.indexed().count()
        });
    }
}

fn more(p: &mut Probe, ds: &[Descriptor]) {
    use cktile::adaptor::Adaptor;
    use cktile::analyzer::window::{PatternAccess, WindowAccess, analyze_window, repeat_over, window_conflict};
    use cktile::check::{Checker, property};
    use cktile::layouts::cute::Major;
    use cktile::layouts::xor_linear::xor_linear;
    use cktile::layouts::{cute, triton};

    // Adaptors: hostile bottom lengths, ids and top coordinates.
    let ids: [&[usize]; 4] = [&[], &[0], &[0, 1], &[BIG]];
    let bottoms = [Dims::from_slice(&[4, 8]), Dims::from_slice(&[i64::MAX, i64::MAX]), Dims::from_slice(&[])];
    let items = [
        Item::new(Transform::merge(&[4, 8]).unwrap(), &[0, 1], &[0]),
        Item::new(Transform::unmerge(&[4, 8]).unwrap(), &[0], &[0, 1]),
        Item::new(Transform::pass_through(BIG >> 1).unwrap(), &[0], &[0]),
    ];
    for b in bottoms.iter().flatten() {
        for it in items.iter().flatten() {
            for lo in ids {
                for up in ids {
                    p.call("Adaptor::new + methods", || {
                        let a = Adaptor::new(*b, &[*it], lo, up)?;
                        let _ = (a.top_lengths(), a.bottom_lengths(), a.num_hidden(), a.hidden_length(BIG));
                        let _ = a.top_vectors(&[Vector::new(i64::MAX, -1); MAX_DIMS]);
                        for t in [&[][..], &[i64::MIN, i64::MAX], &[-1; 12]] {
                            let _ = a.calculate_bottom_index(t);
                            let _ = a.bottom_index_unchecked(t);
                            let _ = a.hidden_index_unchecked(t);
                        }
                        let _ = a.chain(&a);
                        a.transform(&[*it]).map(|_| ())
                    });
                }
            }
            p.call("Adaptor::single_stage", || Adaptor::single_stage(*b, &[*it]));
        }
    }

    // The walk of every descriptor's adaptor with hostile hidden values.
    for d in ds.iter().take(60) {
        let a = d.adaptor();
        for v in HOSTILE_I64 {
            p.call("Adaptor::lower_item/move_item/upper_item/vector_item", || {
                for t in (0..a.items().len()).chain([BIG]) {
                    let (mut hidden, mut diff) = ([v; MAX_HIDDEN], [v; MAX_HIDDEN]);
                    let _ = a.lower_item(t, &mut hidden);
                    a.move_item(t, &mut hidden, &mut diff);
                    let _ = a.upper_item(t, &mut hidden);
                    a.vector_item(t, &mut [Vector::new(v, v); MAX_HIDDEN]);
                }
                let mut c = Coordinate::new(d, &[v; 12]);
                let _ = (c.move_by(d, &[v; 12]), c.top(), c.level(BIG), c.has_valid_offset(d));
                (d.stages().len(), d.stage_items(BIG))
            });
        }
        p.call("check::Checker", || {
            let c = Checker::new().samples(u64::MAX).seed(u64::MAX);
            let _ = c.sample_count();
            let c = Checker::new().samples(64).seed(0);
            let _ = (c.is_exhaustive(d), c.is_injective(d), c.is_surjective(d), c.round_trips(d));
            let _ = c.offsets_equal(d, |x| x.iter().fold(0i64, |a, &b| a.wrapping_add(b)));
            let z = Checker::new().samples(0);
            (z.is_bijective(d), z.round_trips(d))
        });
        p.call("check::property::meet", || {
            property::meet(d, &[i64::MIN, i64::MAX], &[-1; 12]);
            property::meet(d, &[], &[])
        });
    }

    // Layout builders taking swizzle bits, vectors and masks.
    for &a in &HOSTILE_USIZE {
        for &b in &HOSTILE_USIZE {
            for (bits, base, shift) in [(0u32, 0u32, 0i32), (3, 3, 3), (u32::MAX, u32::MAX, i32::MIN), (63, 1, -64)] {
                for m in [Major::Row, Major::Column] {
                    p.call("layouts::cute::swizzled_tile", || cute::swizzled_tile(bits, base, shift, a, b, m));
                }
            }
            for rm in [true, false] {
                p.call("layouts::triton::swizzled_shared", || triton::swizzled_shared(a, b, a, rm, b, a));
                p.call("layouts::triton::nvmma_shared", || triton::nvmma_shared(a, b, rm, a));
            }
            for masks in [&[][..], &[0], &[BIG], &[BIG; 70], &[1, 2, 4]] {
                p.call("layouts::xor_linear::xor_linear", || xor_linear(a, b, a, masks));
            }
        }
    }
    // The run finder at hostile bit counts (it looped over 2^64 shifts at column_bits = u32::MAX).
    for masks in [&[][..], &[0], &[BIG], &[BIG; 70], &[1, 2, 4]] {
        for (column_bits, vec_bits) in
            [(0u32, 0u32), (u32::MAX, u32::MAX), (64, 3), (61, 3), (3, u32::MAX), (u32::MAX, 0)]
        {
            for len in [0usize, 4] {
                let mut out = vec![cktile::layouts::xor_linear::Run { bits: 0, base: 0, shift: 0 }; len];
                p.call("layouts::xor_linear::runs", || {
                    cktile::layouts::xor_linear::runs(masks, column_bits, vec_bits, &mut out)
                });
            }
        }
    }

    // Window and pattern accesses over catalogue distributions.
    let encs: Vec<Encoding> =
        [catalogue::mfma_a(32, 8), catalogue::gemm_dram(256, 128, 32, 8)].into_iter().flatten().collect();
    let small = Descriptor::packed(&[128, 32]).unwrap();
    for e in &encs {
        for (r, c) in [(0usize, 0usize), (BIG, BIG), (1, 1), (256, 64)] {
            p.call("analyzer::window::repeat_over", || repeat_over(e, r, c));
        }
        let Ok(d) = Distribution::new(*e) else { continue };
        for op in [Op::DsRead { bits: 0 }, Op::DsRead { bits: 128 }, Op::DsWrite { bits: u32::MAX }] {
            for eb in [0usize, 1, 2, BIG] {
                for wave in [0usize, 1, 64, BIG] {
                    p.call("analyzer::window::WindowAccess::new", || {
                        let w = WindowAccess::new(&d, op, eb, wave)?;
                        let _ = (w.instructions(), w.width(), w.coordinate(BIG, BIG), w.check_size(&arch::GFX942));
                        w.check_contiguous(&small)
                    });
                }
                for desc in ds.iter().take(20).chain([&small]) {
                    p.call("analyzer::window::analyze_window", || analyze_window(desc, eb, &arch::GFX942, &d, op));
                    p.call("analyzer::window::window_conflict", || {
                        window_conflict(desc, eb, &arch::GFX942, &d, op, u32::MAX, u32::MAX)
                    });
                }
            }
        }
    }
    for pat in [Pattern::Rows { op: Op::DsRead { bits: 128 } }, Pattern::Mfma { mdim: 0, op: Op::DsRead { bits: 0 } }] {
        for (r, c, eb, wave) in [(0, 0, 0, 0), (BIG, BIG, BIG, BIG), (64, 64, 2, 64), (1, 1, 1, 1)] {
            p.call("analyzer::window::PatternAccess::new", || {
                let a = PatternAccess::new(pat, r, c, eb, wave)?;
                let _ = (a.instructions(), a.coordinate(BIG, BIG), a.pattern());
                a.check_contiguous(&small)
            });
        }
        for desc in ds.iter().take(20) {
            p.call("analyzer::window::PatternAccess::over", || PatternAccess::over(desc, pat, BIG, &arch::SM90));
        }
    }
    for t in ["", "(", "x=1", &"9".repeat(5000)] {
        p.call("distribution::spelling::resolve", || cktile::spelling::resolve(t));
        p.call("analyzer::Arch::by_name", || cktile::analyzer::Arch::by_name(t));
        p.call("analyzer::Op::by_name", || Op::by_name(t));
        p.call("layouts::dtype_bytes", || layouts::dtype_bytes(t));
        p.call("codegen::Options::for_layout", || codegen::Options::for_layout(t, codegen::Lang::Hip, Some(t)));
    }
}

#[test]
fn public_api_is_total() {
    // The default hook would print a backtrace per caught panic; the list at
    // the end names them instead.
    std::panic::set_hook(Box::new(|_| {}));
    let mut p = Probe { calls: 0, panics: Vec::new() };
    let ts = transforms(&mut p);
    transform_methods(&mut p, &ts);
    let ds = descriptors(&mut p);
    descriptor_methods(&mut p, &ds);
    spec_parse(&mut p);
    layout_builders(&mut p);
    analyzer(&mut p, &ds);
    distributions(&mut p);
    search(&mut p);
    dma(&mut p);
    more(&mut p, &ds);
    eprintln!("{} calls, {} panicked", p.calls, p.panics.len());
    drop(std::panic::take_hook());
    p.panics.sort();
    p.panics.dedup();
    assert!(p.panics.is_empty(), "calls that panicked:\n{}", p.panics.join("\n"));
}
