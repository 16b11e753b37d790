//! The universal GEMM policy against CK's formulas, for several
//! configurations: every encoding is the one CK's policy and block GEMM
//! compute (the catalogue's runtime builders, and the block GEMM's outer
//! encodings written out from CK's MIterPerWarp, NIterPerWarp and
//! KIterPerWarp), every thread buffer holds the product of its Y lengths,
//! the LDS blocks' offsets are CK's universal A block's closed form at every
//! (row, k), and the embedded block distributions read, thread by thread,
//! the elements the warp windows read moved over their warp tiles.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use crate::Index;
use crate::distribution::typed::TileEncoding;
use crate::distribution::{Distribution, Encoding, catalogue, embed_encoding};
use crate::tile::{Partition, SharedMemory, StaticDistributedTensor, load_tile};
use core::cell::Cell;
use typenum::Unsigned;

/// 128 x 128 x 32 on 256 threads, 2 x 2 warps of the 32x32x16 MFMA (the defaults).
type Default128 = UniversalGemmPolicy<256, 128, 128, 32>;
/// 256 x 256 x 64 on 256 threads, the defaults' warps.
type Large256 = UniversalGemmPolicy<256, 256, 256, 64>;
/// 64 x 64 x 32 on 128 threads, 2 x 1 warps of the 32x32x16 MFMA.
type Small64 = UniversalGemmPolicy<128, 64, 64, 32, BlockWarps<2, 1>>;
/// 64 x 64 x 32 on 128 threads, 1 x 2 warps of the 16x16x32 MFMA.
type Small64x16 = UniversalGemmPolicy<128, 64, 64, 32, BlockWarps<1, 2>, Mfma16x16x32>;
/// 256 x 128 x 64 on 256 threads, 4 x 1 warps of the 16x16x16 MFMA.
type Tall = UniversalGemmPolicy<256, 256, 128, 64, BlockWarps<4, 1>, Mfma16x16x16>;
/// 128 x 256 x 32 on 256 threads, 2 x 2 warps of the 32x32x8 MFMA.
type Wide = UniversalGemmPolicy<256, 128, 256, 32, BlockWarps<2, 2>, Mfma32x32x8>;

/// The product of an encoding's Y lengths.
fn y_product(e: Encoding) -> usize {
    Distribution::new(e).unwrap().y_lengths().as_slice().iter().product::<i64>() as usize
}

/// Encoding `E`'s thread buffer: the product of its Y lengths, as its
/// type-level count, as a tensor's buffer and as its size.
fn buffer_is_the_y_product<E: TileEncoding>(name: &str) {
    let n = y_product(E::ENCODING);
    assert_eq!(<E::RegisterCount as Unsigned>::USIZE, n, "{name}");
    assert_eq!(StaticDistributedTensor::<u16, E>::filled(0).thread_buffer().len(), n, "{name}");
    assert_eq!(size_of::<StaticDistributedTensor<u16, E>>(), 2 * n, "{name}");
}

/// CK's block GEMM outer encodings (`block_universal_gemm_as_bs_cr.hpp`),
/// from the policy's sizes.
fn ck_outers<P: GemmPolicy>() -> (Encoding, Encoding) {
    let (mw, nw) = (P::M_WARPS, P::N_WARPS);
    let m_iter = P::M_PER_BLOCK / (mw * P::WARP_M);
    let n_iter = P::N_PER_BLOCK / (nw * P::WARP_N);
    let k_iter = P::K_PER_BLOCK / P::WARP_K;
    let a = Encoding::new(&[nw], &[&[m_iter, mw], &[k_iter]], &[&[1, 0]], &[&[1, 0]], &[1, 2], &[0, 0]).unwrap();
    let b = Encoding::new(&[mw], &[&[n_iter, nw], &[k_iter]], &[&[0, 1]], &[&[0, 1]], &[1, 2], &[0, 0]).unwrap();
    (a, b)
}

fn encodings_are_cks<P: GemmPolicy>(name: &str) {
    let (block, m, n, k) = (P::BLOCK_SIZE, P::M_PER_BLOCK, P::N_PER_BLOCK, P::K_PER_BLOCK);
    assert_eq!(P::VECTOR, 16 / size_of::<BitsOf<P>>(), "{name}: 16 bytes a DRAM load");
    assert_eq!(P::ADram::ENCODING, catalogue::gemm_dram(block, m, k, P::VECTOR).unwrap(), "{name}");
    assert_eq!(P::BDram::ENCODING, catalogue::gemm_dram(block, n, k, P::VECTOR).unwrap(), "{name}");
    // CK's 16-bit families by name; an 8-bit warp GEMM has the shape of its K values a lane.
    let (a_warp, b_warp) = if size_of::<BitsOf<P>>() == 2 {
        (catalogue::mfma_a(P::WARP_M, P::WARP_K).unwrap(), catalogue::mfma_b(P::WARP_N, P::WARP_K).unwrap())
    } else {
        let per_lane = |rows: usize| catalogue::mfma_a_per_lane(rows, rows * P::WARP_K / WAVE).unwrap();
        (per_lane(P::WARP_M), per_lane(P::WARP_N))
    };
    assert_eq!(P::AWarp::ENCODING, a_warp, "{name}");
    assert_eq!(P::BWarp::ENCODING, b_warp, "{name}");
    let (a_outer, b_outer) = ck_outers::<P>();
    assert_eq!(P::ABlockOuter::ENCODING, a_outer, "{name}");
    assert_eq!(P::BBlockOuter::ENCODING, b_outer, "{name}");
    assert_eq!(P::ABlock::ENCODING, embed_encoding(&a_outer, &a_warp).unwrap(), "{name}");
    assert_eq!(P::BBlock::ENCODING, embed_encoding(&b_outer, &b_warp).unwrap(), "{name}");
    // The iterations, as the block GEMM's traits compute them.
    assert_eq!(
        (P::M_ITERS, P::N_ITERS, P::K_ITERS),
        (m / (P::M_WARPS * P::WARP_M), n / (P::N_WARPS * P::WARP_N), k / P::WARP_K),
        "{name}"
    );
    assert_eq!(P::M_WARPS * P::N_WARPS * WAVE, block, "{name}");
}

fn buffers_are_the_y_products<P: GemmPolicy>(name: &str) {
    buffer_is_the_y_product::<P::ADram>(name);
    buffer_is_the_y_product::<P::BDram>(name);
    buffer_is_the_y_product::<P::AWarp>(name);
    buffer_is_the_y_product::<P::BWarp>(name);
    buffer_is_the_y_product::<P::ABlockOuter>(name);
    buffer_is_the_y_product::<P::BBlockOuter>(name);
    buffer_is_the_y_product::<P::ABlock>(name);
    buffer_is_the_y_product::<P::BBlock>(name);
    // A thread's DRAM tile is its share of the block tile; its block GEMM operand,
    // the warp tiles it iterates times the K values a lane holds.
    let lane_k = P::WARP_M * P::WARP_K / WAVE;
    assert_eq!(y_product(P::ADram::ENCODING), P::M_PER_BLOCK * P::K_PER_BLOCK / P::BLOCK_SIZE, "{name}");
    assert_eq!(y_product(P::ABlock::ENCODING), P::M_ITERS * P::K_ITERS * lane_k, "{name}");
    assert_eq!(y_product(P::BBlock::ENCODING), P::N_ITERS * P::K_ITERS * lane_k, "{name}");
}

/// CK's universal A block in closed form (the 2025 unmerge order), with
/// `m' = m / L`, `l = m % L`, `K0 = K / KPack`:
/// `((l * K0 + k / KPack) ^ (m' % (K0 * L))) * KPack + m' * K * L + k % KPack`.
fn universal_a_offset(m: i64, k: i64, k_per_block: i64, kpack: i64, layer: i64) -> i64 {
    let (row, l, k0) = (m / layer, m % layer, k_per_block / kpack);
    ((l * k0 + k / kpack) ^ (row % (k0 * layer))) * kpack + row * k_per_block * layer + k % kpack
}

fn lds_blocks_are_universal_a<P: GemmPolicy>(name: &str) {
    let k = P::K_PER_BLOCK;
    for (d, rows) in [
        (P::make_a_lds_block().unwrap().descriptor(), P::M_PER_BLOCK),
        (P::make_b_lds_block().unwrap().descriptor(), P::N_PER_BLOCK),
    ] {
        let bytes = size_of::<BitsOf<P>>();
        // CK's GetSmemPackA: the warp GEMM's K values a lane, at most a 16-byte vector of them.
        let ck_pack = (P::WARP_M * P::WARP_K / WAVE).min(16 / bytes);
        assert_eq!(P::KPACK, ck_pack, "{name}: KPack");
        // CK's MLdsLayer: max(1, 32 * 4 / KPerBlock / bytes).
        let layer = (128 / k / bytes).max(1);
        assert_eq!(d.element_space_size() as usize, rows * k, "{name}");
        for r in 0..rows as i64 {
            for c in 0..k as i64 {
                let ck = universal_a_offset(r, c, k as i64, P::KPACK as i64, layer as i64);
                assert_eq!(d.calculate_offset(&[r, c]), ck, "{name} ({r}, {c})");
            }
        }
    }
}

/// Every thread's load through side `S`'s embedded block distribution `E`
/// is its warp window's loads moved over its warp tiles, in the block
/// distribution's Y order (row iteration, K iteration, register); and each
/// warp-window register holds the element of the MFMA lane map. LDS holds
/// each element's own (row, k).
fn block_reads_are_the_warp_reads<P: GemmPolicy, S: BlockGemmSide<P> + Default>(name: &str) {
    let (rows, k) = (S::ROWS, P::K_PER_BLOCK);
    let lds: Vec<Cell<u32>> = (0..rows * k).map(|_| Cell::new(u32::MAX)).collect();
    // Fill LDS through the block's descriptor: element (r, c) holds r * 4096 + c.
    let d = S::make_lds_block().unwrap().descriptor();
    for r in 0..rows {
        for c in 0..k {
            lds[d.calculate_offset(&[r as i64, c as i64]) as usize].set((r * 4096 + c) as u32);
        }
    }
    let global = vec![0u32; rows * k];
    let lane_k = P::WARP_K * S::WARP_ROWS / WAVE;
    for t in 0..P::BLOCK_SIZE {
        let path =
            OperandPath::<u32, P, S>::new(S::default(), &global, rows, k, k, 0, SharedMemory::new(&lds), t).unwrap();
        let p = P::partition_of_thread(t).unwrap();
        let whole = load_tile(&block_window::<u32, P, S>(SharedMemory::new(&lds), p).unwrap());
        let whole = whole.thread_buffer();
        assert_eq!(whole.len(), S::ITERS * P::K_ITERS * lane_k, "{name}");
        let (warp, lane) = ((t / WAVE) as crate::Index, t % WAVE);
        let warp_row = S::default().warp_row(warp) as usize * S::WARP_ROWS;
        for iter in 0..S::ITERS {
            for k_iter in 0..P::K_ITERS {
                let regs = path.read(iter, k_iter);
                let at = (iter * P::K_ITERS + k_iter) * lane_k;
                assert_eq!(&whole[at..at + lane_k], regs.thread_buffer(), "{name}: thread {t}, ({iter}, {k_iter})");
                for (j, &v) in regs.thread_buffer().iter().enumerate() {
                    let row = warp_row + iter * S::ROW_WARPS * S::WARP_ROWS + lane % S::WARP_ROWS;
                    let col = k_iter * P::WARP_K + lane_k * (lane / S::WARP_ROWS) + j;
                    assert_eq!(v, (row * 4096 + col) as u32, "{name}: thread {t}, ({iter}, {k_iter}), register {j}");
                }
            }
        }
    }
}

/// One window's accesses against its loads' fallback
/// (`TileWindowWithStaticDistribution::unreachable_fallback`): over an
/// `exact` block every access has one and already fits the memory; over a
/// short block none has one. Returns (accesses with a fallback, accesses
/// the memory refuses).
fn fallbacks<C: crate::typed::Chain, E: TileEncoding>(
    w: &crate::tile::TileWindowWithStaticDistribution<SharedMemory<'_, u16>, C, E>,
    exact: bool,
    what: &str,
) -> (usize, usize) {
    let (plan, len) = (w.plan(), w.view().buffer().len());
    let (mut applied, mut refused) = (0, 0);
    for a in 0..plan.accesses() {
        let o = w.access_offset(a).expect("an LDS block has no padding");
        let fits = o >= 0 && o as usize + plan.vector() <= len;
        refused += usize::from(!fits);
        match w.unreachable_fallback(a, plan.vector(), Some(len)) {
            Some(last) => {
                assert!(exact, "{what}, access {a}: a fallback over a short block");
                assert!(fits, "{what}, access {a}: offset {o} + {} leaves {len} elements", plan.vector());
                assert_eq!(last as usize, len - plan.vector());
                applied += 1;
            }
            None => assert!(!exact, "{what}, access {a}: no fallback over the exact block"),
        }
    }
    (applied, refused)
}

/// The loads' fallback never reads: for every thread of the block and
/// every access of side `S`'s LDS windows (the store window, and the warp
/// window moved over every warp tile the K loop reads), over an LDS block
/// of exactly its element space, the fallback applies (the compiler may
/// use it) and the access's own offset already lies inside the memory.
/// Over a block one element short, no fallback applies, and the vectors
/// that leave the block read zeros, as before.
fn lds_loads_never_fall_back<P: GemmPolicy, S: OperandSide<P> + Default>(name: &str) {
    use crate::distribution::typed::make_static_tile_distribution;
    use crate::tile::{make_tile_window_with_distribution, move_tile_window};
    let desc = S::make_lds_block().unwrap();
    let size = desc.element_space_size() as usize;
    // The block is a bijection onto its element space: its reach is the last element.
    let reach = crate::descriptor::bounds::offset_reach(&desc.descriptor());
    assert_eq!(reach, Some(size as Index - 1), "{name}: the LDS block's reach");
    let full: Vec<Cell<u16>> = (0..size).map(|i| Cell::new(i as u16)).collect();
    let (mut applied, mut refused) = (0, 0);
    for thread in 0..P::BLOCK_SIZE {
        let p = Partition::from_thread::<WAVE>(thread);
        let row = S::default().warp_row(p.warp) * S::WARP_ROWS as Index;
        for (cells, exact) in [(&full[..], true), (&full[..size - 1], false)] {
            let what = format!("{name}: thread {thread}, {} block", if exact { "exact" } else { "short" });
            let view = crate::typed::make_tensor_view(SharedMemory::new(cells), desc);
            let store = make_tile_window_with_distribution(
                view,
                S::Tile::default(),
                [0, 0],
                make_static_tile_distribution::<S::Dram>(),
                p,
            )
            .unwrap();
            let mut counts = vec![fallbacks(&store, exact, &format!("{what}, store"))];
            let warp = make_tile_window_with_distribution(
                view,
                S::WarpTile::default(),
                [row, 0],
                make_static_tile_distribution::<S::Warp>(),
                p,
            )
            .unwrap();
            for iter in 0..S::ITERS {
                for k_iter in 0..P::K_ITERS {
                    let mut w = warp;
                    move_tile_window(
                        &mut w,
                        [(iter * S::ROW_WARPS * S::WARP_ROWS) as Index, (k_iter * P::WARP_K) as Index],
                    );
                    counts.push(fallbacks(&w, exact, &format!("{what}, warp tile ({iter}, {k_iter})")));
                }
            }
            for (a, r) in counts {
                applied += a;
                refused += r;
            }
        }
    }
    assert!(applied > 0, "{name}: the fallback never applied");
    // Over the short block, the vector that ends at the block's last element is refused.
    assert!(refused > 0, "{name}: no access left the short block");
}

/// How many times the block's threads, each at the partition `partition`
/// gives it (`None`: the thread returns, as a kernel's does past its block
/// or on a refused window), write each element of side `S`'s LDS block
/// in the guide's kernel template (the path built with `with_partition`,
/// one DRAM tile loaded and stored).
fn lds_writes<P: GemmPolicy, S: OperandSide<P> + Default>(
    partition: impl Fn(usize) -> Option<Partition>,
) -> Vec<usize> {
    let (rows, k) = (S::ROWS, P::K_PER_BLOCK);
    // Every element of the operand distinct from the LDS's initial 0.
    let global: Vec<u32> = (1..=(rows * k) as u32).collect();
    let desc = *S::make_dram_view(&global, rows, k, k).unwrap().descriptor();
    let mut writes = vec![0usize; rows * k];
    for thread in 0..P::BLOCK_SIZE {
        let lds: Vec<Cell<u32>> = (0..rows * k).map(|_| Cell::new(0)).collect();
        let Some(p) = partition(thread) else { continue };
        let Ok(mut path) =
            OperandPath::<u32, P, S>::with_partition(S::default(), desc, &global, 0, SharedMemory::new(&lds), p)
        else {
            continue;
        };
        let tile = path.load();
        path.store(&tile);
        for (w, c) in writes.iter_mut().zip(&lds) {
            *w += usize::from(c.get() != 0);
        }
    }
    writes
}

/// The partition a policy gives (`GemmPolicy::partition_of_thread`, what
/// `get_policy_partition` reads on a GPU, 64-lane warps on nvptx too)
/// has the block's threads write every LDS element exactly once. The
/// guide's old template took the hardware's partition
/// (`get_partition_in_block(P::BLOCK_SIZE)`): 32-lane warps on nvptx,
/// under which the policy's 64-lane encodings leave half the block
/// unwritten (lanes 32..64 of no warp; warps past the encodings refused).
fn the_policy_partition_writes_the_whole_block<P: GemmPolicy, S: OperandSide<P> + Default>(name: &str) {
    let writes = lds_writes::<P, S>(P::partition_of_thread);
    assert!(writes.iter().all(|&w| w == 1), "{name}: an LDS element not written exactly once");
    let nvptx_hardware = lds_writes::<P, S>(|t| Partition::from_thread::<32>(t).in_block(P::BLOCK_SIZE, 32));
    let unwritten = nvptx_hardware.iter().filter(|&&w| w == 0).count();
    assert!(unwritten >= writes.len() / 2, "{name}: 32-lane warps leave {unwritten} elements unwritten");
}

/// C's encodings against CK's (`CWarpDstrEncoding`, the catalogue's
/// `mfma_c`; `c_block_outer_dstr_encoding` written out from the
/// iterations), their buffers the products of their Y lengths, and the
/// accumulator's lane map AMD's (the instruction's, written independently).
fn c_encodings_are_cks<P: GemmPolicy>(name: &str) {
    let (mw, nw) = (P::M_WARPS, P::N_WARPS);
    let outer =
        Encoding::new(&[], &[&[P::M_ITERS, mw], &[P::N_ITERS, nw]], &[&[1, 2]], &[&[1, 1]], &[1, 2], &[0, 0]).unwrap();
    // The accumulator does not depend on K: the catalogue's 16-bit family of the same M.
    let warp = catalogue::mfma_c(P::WARP_M, 256 / P::WARP_M).unwrap();
    assert_eq!(P::CWarp::ENCODING, warp, "{name}");
    assert_eq!(P::CBlockOuter::ENCODING, outer, "{name}");
    assert_eq!(P::CBlock::ENCODING, embed_encoding(&outer, &warp).unwrap(), "{name}");
    buffer_is_the_y_product::<P::CWarp>(name);
    buffer_is_the_y_product::<P::CBlock>(name);
    let w = <P::Warp as WarpGemm>::INSTRUCTION;
    assert_eq!(y_product(P::CBlock::ENCODING), P::M_ITERS * P::N_ITERS * w.c_registers(), "{name}");
    let d = Distribution::new(warp).unwrap();
    for lane in 0..WAVE {
        for reg in 0..w.c_registers() {
            let x = d.calculate_index(&[lane as i64, (reg / 4) as i64, (reg % 4) as i64]).unwrap();
            let (row, col) = w.c_element(lane, reg);
            assert_eq!(x.as_slice(), &[row as i64, col as i64], "{name}: lane {lane}, register {reg}");
        }
    }
}

/// The warp operands hold the rows the instruction reads, lane by lane;
/// along K, instruction `q` of a warp GEMM reads registers `4 q ..`, and
/// over its instructions every lane's K values are the warp tile's K,
/// each once per row (A and B share the encoding, so they pair the same K).
fn operands_follow_the_instruction<P: GemmPolicy>(name: &str) {
    let WarpInstruction::Mfma(w) = <P::Warp as WarpGemm>::INSTRUCTION else { panic!("{name}: not an MFMA") };
    let (kl, iters) = (<P::Warp as WarpGemm>::A_PER_LANE, <P::Warp as WarpGemm>::INSTRUCTIONS);
    assert_eq!(iters * w.k(), P::WARP_K, "{name}");
    for e in [P::AWarp::ENCODING, P::BWarp::ENCODING] {
        let d = Distribution::new(e).unwrap();
        let mut seen = vec![0u32; w.m() * P::WARP_K];
        for lane in 0..WAVE {
            for r in 0..kl {
                let x = d.calculate_index(&[lane as i64, r as i64]).unwrap();
                let (row, _) = w.a_element(lane, r % w.k_per_lane());
                assert_eq!(x.get(0) as usize, row, "{name}: lane {lane}, register {r}");
                seen[row * P::WARP_K + x.get(1) as usize] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n == 1), "{name}: a K value of a row read twice or never");
    }
}

/// Register `r` of a warp encoding as its Y index (row-major over its Y
/// lengths), after the outer encoding's Y indices `outer`.
fn ys(warp: Encoding, outer: &[usize], r: usize) -> Vec<Index> {
    let lengths = Distribution::new(warp).unwrap().y_lengths();
    let mut inner: Vec<Index> = Vec::new();
    let mut rest = r as Index;
    for &l in lengths.as_slice().iter().rev() {
        inner.push(rest % l);
        rest /= l;
    }
    assert_eq!(rest, 0, "register {r} past the warp encoding");
    outer.iter().map(|&x| x as Index).chain(inner.into_iter().rev()).collect()
}

/// The block GEMM's steps name the registers the block tensors' Y indices
/// place (`get` reads through the encoding's `ys_to_d`), and each
/// instruction's registers lie inside its warp tile's.
fn steps_are_the_y_slices<P: GemmPolicy>(name: &str) {
    let (a, b) = (Distribution::new(P::ABlock::ENCODING).unwrap(), Distribution::new(P::BBlock::ENCODING).unwrap());
    let c = Distribution::new(P::CBlock::ENCODING).unwrap();
    type W<P> = <P as GemmPolicy>::Warp;
    let (al, bl, cl) = (W::<P>::A_PER_LANE, W::<P>::B_PER_LANE, W::<P>::C_PER_LANE);
    let i = |x: usize| x as Index;
    let mut steps = 0;
    for_each_warp_gemm::<P>(|s| {
        for r in 0..al {
            assert_eq!(
                a.d_index(&ys(P::AWarp::ENCODING, &[s.m_iter, s.k_iter], r)).unwrap(),
                i(s.a + r),
                "{name}: {s:?}"
            );
        }
        for r in 0..bl {
            assert_eq!(
                b.d_index(&ys(P::BWarp::ENCODING, &[s.n_iter, s.k_iter], r)).unwrap(),
                i(s.b + r),
                "{name}: {s:?}"
            );
        }
        for r in 0..cl {
            assert_eq!(
                c.d_index(&ys(P::CWarp::ENCODING, &[s.m_iter, s.n_iter], r)).unwrap(),
                i(s.c + r),
                "{name}: {s:?}"
            );
        }
        let w = W::<P>::INSTRUCTION;
        let (a_regs, b_regs) = match w {
            WarpInstruction::Mfma(i) => (i.k_per_lane(), i.k_per_lane()),
            WarpInstruction::MmaSync(i) => (4 * i.pack(), 2 * i.pack()),
            WarpInstruction::Wmma(i) => (i.operand_registers(), i.operand_registers()),
        };
        for q in 0..W::<P>::INSTRUCTIONS {
            let (a0, b0, c0) = s.instruction::<W<P>>(q);
            assert!(a0 >= s.a && a0 + a_regs <= s.a + al, "{name}: {s:?}, instruction {q}'s A");
            assert!(b0 >= s.b && b0 + b_regs <= s.b + bl, "{name}: {s:?}, instruction {q}'s B");
            assert!(c0 >= s.c && c0 + w.c_registers() <= s.c + cl, "{name}: {s:?}, instruction {q}'s C");
        }
        steps += 1;
    });
    assert_eq!(steps, P::M_ITERS * P::N_ITERS * P::K_ITERS, "{name}");
}

/// A policy warp of two 32-lane warps (NVIDIA's `mma.sync`, RDNA's
/// WMMA): its encodings against the instruction's lane map, written
/// independently (`MmaSyncInstruction` from the PTX ISA, `WmmaInstruction`
/// from CK's WMMA traits, which its module holds to the catalogue). Lane
/// `l` is warp `l / 32`'s lane `l % 32`; A's rows and C's are that warp's
/// 16; B's register `b j + e` (`b` elements an instruction) and C's `c j +
/// e` are instruction `j`'s element `e`, `n` columns on per instruction.
/// Every element of each warp tile is held as often as the instruction
/// holds it: C's once, A's once per copy (gfx11's WMMA holds A and B once
/// per half-wave), B's that many times in each warp.
fn pair_encodings_follow_the_lane_map<P: GemmPolicy>(name: &str) {
    // A lane's element `r` of A, B or C, as the instruction says.
    type Element = Box<dyn Fn(usize, usize) -> (usize, usize)>;
    // The three maps, the registers an instruction of B and of C, the columns an instruction,
    // and the copies of A.
    type Maps = (Element, Element, Element, usize, usize, usize, usize);
    let (a_map, b_map, c_map, b_regs, c_regs, cols, copies): Maps = match <P::Warp as WarpGemm>::INSTRUCTION {
        WarpInstruction::MmaSync(i) => (
            Box::new(move |l, r| i.a_element(l, r)),
            Box::new(move |l, r| i.b_element(l, r)),
            Box::new(move |l, r| i.c_element(l, r)),
            2 * i.pack(),
            4,
            8,
            1,
        ),
        // A WMMA's B is laid out as its A.
        WarpInstruction::Wmma(i) => (
            Box::new(move |l, r| i.a_element(l, r)),
            Box::new(move |l, r| i.a_element(l, r)),
            Box::new(move |l, r| i.c_element(l, r)),
            i.operand_registers(),
            i.c_registers(),
            16,
            if i.rdna() == crate::distribution::catalogue::wmma::Rdna::Gfx11 { 2 } else { 1 },
        ),
        WarpInstruction::Mfma(_) => panic!("{name}: an MFMA's warp is one wave"),
    };
    let (al, bl, cl) =
        (<P::Warp as WarpGemm>::A_PER_LANE, <P::Warp as WarpGemm>::B_PER_LANE, <P::Warp as WarpGemm>::C_PER_LANE);
    let (wm, wn, wk) = (P::WARP_M, P::WARP_N, P::WARP_K);
    let at = |e: Encoding, lane: usize, r: usize| {
        let mut idx = vec![lane as Index];
        idx.extend(ys(e, &[], r));
        let x = Distribution::new(e).unwrap().calculate_index(&idx).unwrap();
        (x.get(0) as usize, x.get(1) as usize)
    };
    let (mut a_seen, mut b_seen, mut c_seen) = (vec![0; wm * wk], vec![0; wn * wk], vec![0; wm * wn]);
    for lane in 0..WAVE {
        let (h, l) = (lane / WARP_32, lane % WARP_32);
        for r in 0..al {
            let (row, k) = a_map(l, r);
            assert_eq!(at(P::AWarp::ENCODING, lane, r), (16 * h + row, k), "{name}: A, lane {lane}, register {r}");
            a_seen[(16 * h + row) * wk + k] += 1;
        }
        for r in 0..bl {
            let (col, k) = b_map(l, r % b_regs);
            let want = (cols * (r / b_regs) + col, k);
            assert_eq!(at(P::BWarp::ENCODING, lane, r), want, "{name}: B, lane {lane}, register {r}");
            b_seen[want.0 * wk + k] += 1;
        }
        for r in 0..cl {
            let (row, col) = c_map(l, r % c_regs);
            let want = (16 * h + row, cols * (r / c_regs) + col);
            assert_eq!(at(P::CWarp::ENCODING, lane, r), want, "{name}: C, lane {lane}, register {r}");
            c_seen[want.0 * wn + want.1] += 1;
        }
    }
    assert!(a_seen.iter().all(|&n| n == copies), "{name}: an A element not held once per copy");
    assert!(b_seen.iter().all(|&n| n == 2 * copies), "{name}: a B element not held once per copy of each warp");
    assert!(c_seen.iter().all(|&n| n == 1), "{name}: a C element held twice or never");
}

/// An `MmaSync` or `Wmma` policy (each policy warp two 32-lane warps):
/// CK's DRAM distributions, LDS blocks and outer
/// encodings around NVIDIA's warp encodings, every buffer the product of
/// its Y lengths, and the data path's properties the MFMA policies have.
fn mma_policy<P: GemmPolicy>(name: &str) {
    let (block, m, n, k) = (P::BLOCK_SIZE, P::M_PER_BLOCK, P::N_PER_BLOCK, P::K_PER_BLOCK);
    assert_eq!(P::VECTOR, 16 / size_of::<BitsOf<P>>(), "{name}: 16 bytes a DRAM load");
    assert_eq!(P::ADram::ENCODING, catalogue::gemm_dram(block, m, k, P::VECTOR).unwrap(), "{name}");
    assert_eq!(P::BDram::ENCODING, catalogue::gemm_dram(block, n, k, P::VECTOR).unwrap(), "{name}");
    let (a_outer, b_outer) = ck_outers::<P>();
    assert_eq!(P::ABlock::ENCODING, embed_encoding(&a_outer, &P::AWarp::ENCODING).unwrap(), "{name}");
    assert_eq!(P::BBlock::ENCODING, embed_encoding(&b_outer, &P::BWarp::ENCODING).unwrap(), "{name}");
    for e in [P::ADram::ENCODING, P::BDram::ENCODING, P::ABlock::ENCODING, P::BBlock::ENCODING, P::CBlock::ENCODING] {
        assert!(y_product(e) > 0, "{name}");
    }
    buffer_is_the_y_product::<P::ABlock>(name);
    buffer_is_the_y_product::<P::BBlock>(name);
    buffer_is_the_y_product::<P::CBlock>(name);
    type W<P> = <P as GemmPolicy>::Warp;
    assert_eq!(y_product(P::ABlock::ENCODING), P::M_ITERS * P::K_ITERS * W::<P>::A_PER_LANE, "{name}");
    assert_eq!(y_product(P::BBlock::ENCODING), P::N_ITERS * P::K_ITERS * W::<P>::B_PER_LANE, "{name}");
    assert_eq!(y_product(P::CBlock::ENCODING), P::M_ITERS * P::N_ITERS * W::<P>::C_PER_LANE, "{name}");
    pair_encodings_follow_the_lane_map::<P>(name);
    steps_are_the_y_slices::<P>(name);
    the_policy_partition_writes_the_whole_block::<P, OperandA>(name);
    the_policy_partition_writes_the_whole_block::<P, OperandB>(name);
    lds_loads_never_fall_back::<P, OperandA>(name);
    lds_loads_never_fall_back::<P, OperandB>(name);
    lds_blocks_are_universal_a::<P>(name);
}

#[test]
fn nvidia_policies_follow_the_ptx_isa() {
    mma_policy::<UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, MmaSync<32, 16, 16>>>("128x128x32, 32x16x16");
    mma_policy::<UniversalGemmPolicy<256, 128, 64, 64, BlockWarps<4, 1>, MmaSync<32, 8, 16, Bf16>>>(
        "128x64x64, 32x8x16 bf16",
    );
    mma_policy::<UniversalGemmPolicy<64, 64, 64, 32, BlockWarps<1, 1>, MmaSync<32, 32, 16>>>(
        "64x64x32 on 64, 32x32x16",
    );
    mma_policy::<UniversalGemmPolicy<256, 128, 128, 64, BlockWarps<2, 2>, MmaSync<32, 16, 32, Fp8>>>(
        "128x128x64, 32x16x32 fp8",
    );
    mma_policy::<UniversalGemmPolicy<128, 64, 128, 64, BlockWarps<1, 2>, MmaSync<32, 32, 32, Int8>>>(
        "64x128x64 on 128, 32x32x32 int8",
    );
    mma_policy::<UniversalGemmPolicy<64, 32, 64, 32, BlockWarps<1, 1>, MmaSync<32, 8, 32, Bf8>>>(
        "32x64x32 on 64, 32x8x32 bf8",
    );
}

#[test]
fn rdna_policies_follow_the_wmma_lane_map() {
    mma_policy::<UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, Wmma<32, 32, 16>>>(
        "128x128x32, gfx12 32x32x16",
    );
    mma_policy::<UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, Wmma<32, 32, 16, Fp16, Gfx11>>>(
        "128x128x32, gfx11 32x32x16",
    );
    mma_policy::<UniversalGemmPolicy<256, 128, 64, 64, BlockWarps<4, 1>, Wmma<32, 16, 16, Bf16, Gfx11>>>(
        "128x64x64, gfx11 32x16x16 bf16",
    );
    mma_policy::<UniversalGemmPolicy<64, 32, 64, 32, BlockWarps<1, 1>, Wmma<32, 64, 16, Fp8>>>(
        "32x64x32 on 64, gfx12 32x64x16 fp8",
    );
    mma_policy::<UniversalGemmPolicy<128, 64, 128, 64, BlockWarps<1, 2>, Wmma<32, 32, 16, Int8, Gfx11>>>(
        "64x128x64 on 128, gfx11 32x32x16 int8",
    );
    mma_policy::<UniversalGemmPolicy<256, 128, 128, 64, BlockWarps<2, 2>, Wmma<32, 16, 16, Bf8, Gfx12>>>(
        "128x128x64, gfx12 32x16x16 bf8",
    );
}

fn policy<P: GemmPolicy>(name: &str) {
    c_encodings_are_cks::<P>(name);
    operands_follow_the_instruction::<P>(name);
    steps_are_the_y_slices::<P>(name);
    the_policy_partition_writes_the_whole_block::<P, OperandA>(name);
    the_policy_partition_writes_the_whole_block::<P, OperandB>(name);
    lds_loads_never_fall_back::<P, OperandA>(name);
    lds_loads_never_fall_back::<P, OperandB>(name);
    encodings_are_cks::<P>(name);
    buffers_are_the_y_products::<P>(name);
    lds_blocks_are_universal_a::<P>(name);
    block_reads_are_the_warp_reads::<P, OperandA>(name);
    block_reads_are_the_warp_reads::<P, OperandB>(name);
}

#[test]
fn the_default_policy_is_cks() {
    policy::<Default128>("128x128x32 on 256");
}

#[test]
fn a_large_policy_is_cks() {
    policy::<Large256>("256x256x64 on 256");
}

#[test]
fn small_policies_are_cks() {
    policy::<Small64>("64x64x32 on 128, 2 x 1 warps");
    policy::<Small64x16>("64x64x32 on 128, 1 x 2 warps of 16x16x32");
}

/// The 8-bit policies: 16-element DRAM vectors (16 bytes), CK's 8-bit
/// MFMA shapes, one instruction (KPack 8) or the `IterateK` pair (KPack
/// 16).
#[test]
fn eight_bit_policies_are_cks() {
    policy::<UniversalGemmPolicy<256, 128, 128, 64, BlockWarps<2, 2>, Mfma<32, 32, 32, Fp8Fnuz>>>(
        "128x128x64 on 256, 32x32x32 fp8",
    );
    policy::<UniversalGemmPolicy<256, 256, 128, 128, BlockWarps<4, 1>, Mfma<16, 16, 64, Int8>>>(
        "256x128x128 on 256, 4 x 1 warps of 16x16x64 int8",
    );
    policy::<UniversalGemmPolicy<128, 64, 64, 32, BlockWarps<2, 1>, Mfma<32, 32, 16, Bf8Fnuz>>>(
        "64x64x32 on 128, 32x32x16 bf8",
    );
    policy::<UniversalGemmPolicy<128, 64, 64, 64, BlockWarps<1, 2>, Mfma<16, 16, 32, Int8>>>(
        "64x64x64 on 128, 16x16x32 int8",
    );
}

#[test]
fn rectangular_policies_are_cks() {
    policy::<Tall>("256x128x64 on 256, 4 x 1 warps of 16x16x16");
    policy::<Wide>("128x256x32 on 256, 32x32x8");
}

/// The policy's sizes, as CK's traits name them, for the default.
#[test]
fn the_default_policy_has_cks_sizes() {
    type P = Default128;
    assert_eq!((P::BLOCK_SIZE, P::M_PER_BLOCK, P::N_PER_BLOCK, P::K_PER_BLOCK), (256, 128, 128, 32));
    assert_eq!((P::M_WARPS, P::N_WARPS, P::WARP_M, P::WARP_N, P::WARP_K), (2, 2, 32, 32, 16));
    assert_eq!((P::M_ITERS, P::N_ITERS, P::K_ITERS, P::VECTOR), (2, 2, 2, 8));
    assert_eq!(<<P as GemmPolicy>::Warp as WarpGemm>::A_PER_LANE, 8);
    assert_eq!((P::KPACK, kpack(2, 4).unwrap(), kpack(1, 8).unwrap()), (8, 4, 8));
    // MLdsLayer through the derived numbers: 128 / KPerBlock / bytes, at least 1.
    use crate::Value;
    let fp16 =
        [<Layer<32, 2, 32, 16> as Value>::STATIC, <Layer<64, 2, 32, 16>>::STATIC, <Layer<128, 2, 32, 16>>::STATIC];
    let fp8 =
        [<Layer<32, 1, 32, 32> as Value>::STATIC, <Layer<64, 1, 32, 32>>::STATIC, <Layer<128, 1, 32, 32>>::STATIC];
    assert_eq!((fp16, fp8), ([Some(2), Some(1), Some(1)], [Some(4), Some(2), Some(1)]));
    assert!(kpack(2, 0).unwrap_err().to_string().contains("K values a lane = 0"));
}

/// `store_c_tile` (row slices) stores exactly what the tile layer's
/// `store_tile_with` (every element's offset tested) stores, over views
/// from `make_c_dram_view`: every thread of a block, blocks inside C,
/// overhanging it and past it, strides past the columns.
fn c_stores_agree<P: GemmPolicy>(rows: usize, cols: usize, gap: usize, origin: (Index, Index)) {
    let stride = cols + gap;
    let len = (rows - 1) * stride + cols;
    // Each accumulator a distinct bit pattern (an `f32` or an `i32`), all below the initial one.
    let unwritten = <AccOf<P> as Accumulator>::from_bits(0x7f00_0000);
    let (mut ours, mut tiles) = (vec![unwritten; len], vec![unwritten; len]);
    for t in 0..P::BLOCK_SIZE {
        let p = P::partition_of_thread(t).unwrap();
        let mut acc = CBlockTensor::<P>::filled(AccOf::<P>::default());
        for (r, x) in acc.thread_buffer_mut().iter_mut().enumerate() {
            *x = Accumulator::from_bits((t * 1000 + r) as u32);
        }
        let view = P::make_c_dram_view(&mut ours, rows, cols, stride).unwrap();
        store_c_tile::<AccOf<P>, P>(&mut c_window::<AccOf<P>, P>(view, origin, p).unwrap(), &acc, |x| x);
        let view = P::make_c_dram_view(&mut tiles, rows, cols, stride).unwrap();
        crate::tile::store_tile_with(&mut c_window::<AccOf<P>, P>(view, origin, p).unwrap(), &acc, |x| x);
    }
    assert_eq!(ours, tiles, "{rows} x {cols} (stride {stride}) at {origin:?}");
    let written = ours.iter().filter(|&&x| x != unwritten).count();
    let (m0, n0) = (origin.0 as usize, origin.1 as usize);
    let want = rows.saturating_sub(m0).min(P::M_PER_BLOCK) * cols.saturating_sub(n0).min(P::N_PER_BLOCK);
    assert_eq!(written, want, "{rows} x {cols} at {origin:?}");
}

#[test]
fn the_c_store_is_the_tile_store() {
    type Mma128 = UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, MmaSync<32, 16, 16>>;
    for (rows, cols, gap) in [(128, 128, 0), (200, 150, 3), (1, 1, 0), (100, 300, 7), (129, 127, 1)] {
        for origin in [(0, 0), (128, 0), (0, 128), (128, 256), (256, 0)] {
            c_stores_agree::<Default128>(rows, cols, gap, origin);
            c_stores_agree::<Mma128>(rows, cols, gap, origin);
            c_stores_agree::<Small64x16>(rows, cols, gap, origin);
            c_stores_agree::<UniversalGemmPolicy<256, 128, 128, 64, BlockWarps<2, 2>, Mfma<32, 32, 32, Int8>>>(
                rows, cols, gap, origin,
            );
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 24, ..Default::default() })]
    /// The same at random sizes and block origins.
    #[test]
    fn the_c_store_is_the_tile_store_anywhere(rows in 1usize..300, cols in 1usize..300, gap in 0usize..9, bm in 0i64..4, bn in 0i64..4) {
        c_stores_agree::<Tall>(rows, cols, gap, (bm * 256, bn * 128));
        c_stores_agree::<Default128>(rows, cols, gap, (bm * 128, bn * 128));
    }
}

/// A window over a linear chain (`Chain::LINEAR`: the DRAM views, K- or
/// rows-contiguous) computes each access's offset as its thread's offset
/// plus the step's; it is the chain's offset at the access's own index,
/// for every thread and access, inside the view, in its padding and past
/// it.
fn affine_offsets_agree<P: GemmPolicy, S: OperandSide<P> + core::fmt::Debug>(
    side: S,
    rows: usize,
    k: usize,
    gap: usize,
    origin: [Index; 2],
) {
    use crate::typed::Chain;
    use cktile_transforms::MAX_DIMS;
    assert!(<S::DramChain as Chain>::LINEAR);
    let stride = rows.max(k) + gap;
    let data = vec![0u16; rows.max(k) * stride];
    let view = S::make_dram_view(&data, rows, k, stride).unwrap();
    for t in 0..P::BLOCK_SIZE {
        let p = P::partition_of_thread(t).unwrap();
        let w = crate::tile::make_tile_window_with_distribution(
            view,
            S::Tile::default(),
            origin,
            crate::distribution::typed::make_static_tile_distribution::<S::Dram>(),
            p,
        )
        .unwrap();
        let chain = w.view().descriptor().chain();
        for a in 0..w.plan().accesses() {
            let mut top = [0; MAX_DIMS];
            top[..2].copy_from_slice(&w.access_top(a));
            let want = if chain.is_valid(&top) { Some(chain.offset(&top)) } else { None };
            assert_eq!(w.access_offset(a), want, "{side:?}, thread {t}, access {a}, at {origin:?}");
        }
    }
}

#[test]
fn affine_windows_offset_as_the_chain() {
    type Cc = UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, Mfma32x32x16, ColumnMajor, ColumnMajor>;
    for origin in [[0, 0], [128, 32], [0, 96], [256, 0], [-128, 0]] {
        affine_offsets_agree::<Default128, _>(OperandA, 200, 72, 3, origin);
        affine_offsets_agree::<Cc, _>(OperandA, 200, 72, 3, origin);
        affine_offsets_agree::<Cc, _>(OperandB, 130, 40, 0, origin);
        affine_offsets_agree::<Small64x16, _>(OperandB, 64, 32, 9, origin);
    }
}

/// A and B's bits for a policy of `E`: every bit pattern is a value of the
/// 16-bit and 8-bit types, and each element is a small pseudo-random one
/// (`seed` picks the sequence), so sums stay exact.
fn operand<E: MfmaElement>(len: usize, seed: u64) -> Vec<E::Bits> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            E::from_f32(((x % 7) as f32) - 3.0)
        })
        .collect()
}

/// Policy `P`'s GEMM over buffer loads (`Q`, the same policy but for its
/// last parameter) computes what it computes over plain loads, bit for
/// bit, with `m x n x k` and leading dimension `stride`: the windows'
/// buffer path (`TileMemory::READS_ZEROS`, which the host takes too) reads
/// padding and the tiles past the matrices as the slices' test does.
fn buffered_is_plain<P: GemmPolicy, Q: GemmPolicy<Warp = P::Warp>>(m: usize, n: usize, k: usize, stride: usize) {
    use crate::tile::GlobalAccess;
    assert!(<P::Global as GlobalAccess>::BUFFER_WORD3.is_none() && <Q::Global as GlobalAccess>::BUFFER_WORD3.is_some());
    let outer = |rows: usize, k_contiguous: bool| if k_contiguous { rows } else { k } * stride;
    let a = operand::<ElementOf<P>>(outer(m, <P::AStorage as OperandStorage>::K_CONTIGUOUS), 1);
    let b = operand::<ElementOf<P>>(outer(n, <P::BStorage as OperandStorage>::K_CONTIGUOUS), 2);
    let problem = GemmProblem { m, n, k, a_stride: stride, b_stride: stride, c_stride: n };
    let (mut plain, mut buffered) = (vec![AccOf::<P>::default(); m * n], vec![AccOf::<Q>::default(); m * n]);
    emulate_gemm::<P>(&a, &b, &mut plain, problem).unwrap();
    emulate_gemm::<Q>(&a, &b, &mut buffered, problem).unwrap();
    assert_eq!(plain, buffered, "{m} x {n} x {k}, stride {stride}");
    assert!(plain.iter().any(|&x| x != AccOf::<P>::default()), "{m} x {n} x {k}: all zero");
}

/// [`buffered_is_plain`] through CK's CShuffle epilogue, C in fp16 (its
/// vectors along C's rows, across C's last column at odd `n`), each C
/// starting at a value no store writes.
fn buffered_is_plain_shuffled<P: GemmPolicy<Warp = Mfma32x32x16>, Q: GemmPolicy<Warp = Mfma32x32x16>>(
    m: usize,
    n: usize,
    k: usize,
    stride: usize,
) {
    let a = operand::<Fp16>(m * stride, 3);
    let b = operand::<Fp16>(n * stride, 4);
    let problem = GemmProblem { m, n, k, a_stride: stride, b_stride: stride, c_stride: n };
    let run = |shuffled: &mut Vec<u16>, buffered: bool| {
        let mut lds = vec![0u16; CShuffle::<u16>::lds_elements::<P>()];
        let epilogue = CShuffle::new(SharedMemory::from_mut(&mut lds));
        if buffered {
            emulate_gemm_with::<Q, OneStage, Fp16, _>(&a, &b, shuffled, problem, epilogue).unwrap();
        } else {
            emulate_gemm_with::<P, OneStage, Fp16, _>(&a, &b, shuffled, problem, epilogue).unwrap();
        }
    };
    let (mut plain, mut buffered) = (vec![0x7e00u16; m * n], vec![0x7e00u16; m * n]);
    run(&mut plain, false);
    run(&mut buffered, true);
    assert_eq!(plain, buffered, "{m} x {n} x {k}, stride {stride}");
    assert!(!plain.contains(&0x7e00), "{m} x {n} x {k}: an element not written");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 12, ..Default::default() })]
    /// At random sizes (padded along every dimension), strides, layouts and
    /// element types.
    #[test]
    fn buffer_loads_compute_what_plain_loads_compute(m in 1usize..200, n in 1usize..200, k8 in 1usize..20, extra in 0usize..20) {
        use crate::tile::BufferGfx9;
        let k = 8 * k8;
        let stride = k.max(m).max(n) + extra;
        buffered_is_plain::<Default128, UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, Mfma32x32x16, RowMajor, ColumnMajor, BufferGfx9>>(m, n, k, stride);
        buffered_is_plain::<
            UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, Mfma32x32x16, ColumnMajor, RowMajor>,
            UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, Mfma32x32x16, ColumnMajor, RowMajor, BufferGfx9>,
        >(m, n, k, stride);
        let k16 = 16 * k8;
        let stride8 = k16.max(m).max(n) + extra;
        buffered_is_plain_shuffled::<Default128, UniversalGemmPolicy<256, 128, 128, 32, BlockWarps<2, 2>, Mfma32x32x16, RowMajor, ColumnMajor, BufferGfx9>>(m, n, k, stride);
        buffered_is_plain::<
            UniversalGemmPolicy<256, 128, 128, 64, BlockWarps<2, 2>, Mfma<32, 32, 32, Int8>>,
            UniversalGemmPolicy<256, 128, 128, 64, BlockWarps<2, 2>, Mfma<32, 32, 32, Int8>, RowMajor, ColumnMajor, BufferGfx9>,
        >(m, n, k16, stride8);
    }
}

/// CK's LDS block, spelled once ([`lds_chain`], [`make_lds_chain`]),
/// against CK's closed form with m' = m / L, l = m % L, K0 = K / KPack:
/// `((l * K0 + k / KPack) ^ (m' % (K0 * L))) * KPack + m' * K * L + k % KPack`,
/// from both builders, over MLdsLayer 1, 2, 4, K0 1 to 8 and KPack 1 to 16.
#[test]
fn the_lds_chain_is_cks_closed_form() {
    let mut tiles = 0;
    for ml in [1usize, 3, 7, 16, 23] {
        for (l, k0, pack) in [1usize, 2, 4]
            .into_iter()
            .flat_map(|l| [1usize, 2, 4, 8].into_iter().flat_map(move |k0| [1usize, 2, 4, 8, 16].map(|p| (l, k0, p))))
        {
            let (k, k0l) = (k0 * pack, k0 * l);
            let runtime = lds_chain(ml, k0l, pack, k * l, l, k0).unwrap();
            assert_eq!(make_lds_chain(ml, k0l, pack, k * l, l, k0).unwrap().descriptor(), runtime);
            let (m, k, pack, l, k0) = ((ml * l) as Index, k as Index, pack as Index, l as Index, k0 as Index);
            for (mi, ki) in (0..m).flat_map(|mi| (0..k).map(move |ki| (mi, ki))) {
                let (row, li) = (mi / l, mi % l);
                let ck = ((li * k0 + ki / pack) ^ (row % (k0 * l))) * pack + row * k * l + ki % pack;
                assert_eq!(runtime.calculate_offset(&[mi, ki]), ck, "({mi}, {ki}) in {m} x {k}, KPack {pack}, L {l}");
            }
            tiles += 1;
        }
    }
    assert_eq!(tiles, 5 * 3 * 4 * 5);
}
