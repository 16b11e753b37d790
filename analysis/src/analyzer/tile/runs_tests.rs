//! Tests of `Program::runs_along_last` (the vector proof, in
//! `descriptor::program::runs`) against brute force on the catalogue's and
//! random layouts, and of the analyzer's vector walk with and without it.
//! Here, above the descriptors, because they draw the catalogue's layouts
//! and the analyzer's lanes.

use crate::analyzer::memo::LaneAddresses;
use crate::analyzer::pattern::LaneChunk;
use crate::analyzer::tile::{chunk_walk, runs_cover};
use crate::layouts::{ck, cute, triton, xor_linear};
use crate::program::LANES;
use crate::program::runs_by_brute_force;
use crate::random::Rng;
use crate::random::chain::{ChainConfig, chain};
use cktile_core::Descriptor;
use cktile_core::Index;
use std::vec::Vec;

/// The layouts a kernel's checks meet: CK's xor preshuffles and universal
/// blocks, CuTe's and Triton's swizzles, xor-linear layouts with random
/// masks, packed and padded tiles.
fn known(rng: &mut Rng) -> Vec<Descriptor> {
    let mut out = Vec::new();
    for (m, k) in [(64, 32), (128, 32), (128, 64), (32, 128)] {
        for kpack in [2, 4, 8, 16] {
            out.extend(ck::xor_preshuffle(m, k, kpack).ok());
            for order in [ck::UnmergeOrder::Original2024, ck::UnmergeOrder::Fixed2025] {
                out.extend(ck::universal_a(m, k, kpack, 2, 32, order).ok());
            }
        }
        out.extend(Descriptor::packed(&[m, k]).ok());
        out.extend(Descriptor::naive(&[m, k], &[k + 8, 1]).ok());
    }
    for (bits, base, shift) in [(3, 3, 3), (2, 4, 3), (3, 2, 3), (1, 3, 3), (3, 3, 4), (2, 1, 2)] {
        for major in [cute::Major::Row, cute::Major::Column] {
            out.extend(cute::swizzled_tile(bits, base, shift, 16, 64, major).ok());
        }
    }
    for (vec, per, max) in [(8, 1, 8), (4, 2, 4), (1, 1, 8), (2, 1, 4)] {
        for row_major in [true, false] {
            out.extend(triton::swizzled_shared(vec, per, max, row_major, 64, 64).ok());
        }
    }
    for _ in 0..60 {
        let vec = 1 << rng.below(4);
        let masks: Vec<usize> = (0..1 + rng.below(3)).map(|_| rng.below((64 / vec) as u64) as usize).collect();
        out.extend(xor_linear::xor_linear(8, 64, vec, &masks).ok());
    }
    out
}

/// The proof never claims what running the elements denies: on random
/// chains of every transform kind and on the known layouts, for every
/// width, `runs_along_last` implies that every aligned vector inside the
/// last length is contiguous. And it proves the known layouts' vectors
/// where they are (it is not `false` everywhere).
#[test]
fn runs_along_last_never_claims_a_break_away() {
    let mut rng = Rng::new(49);
    let config = ChainConfig::default().with_stages(1, 4);
    let (mut proved, mut checked) = (0, 0);
    let mut layouts = known(&mut rng);
    let known_count = layouts.len();
    layouts.extend((0..3000u64).map(|seed| chain(seed, &config)).filter(|d| d.num_dims() == 2));
    for (n, d) in layouts.iter().enumerate() {
        let p = crate::Program::of(d);
        for width in [1, 2, 4, 8, 16, 32] {
            if p.runs_along_last(width) {
                checked += 1;
                proved += usize::from(n < known_count);
                assert!(runs_by_brute_force(&p, width), "{d}: width {width} proved contiguous, but breaks");
            }
        }
    }
    assert!(proved >= 100 && checked >= 300, "only {proved} known layouts and {checked} in all proved");
}

/// The analyzer's vector check with the proof (`chunk_walk` with `runs`)
/// gives the same addresses, refusals and breaks as without it (every
/// element run), on random chunks of lanes, aligned or not, inside,
/// at the edges of and outside the lengths, over the layouts above.
#[test]
fn chunk_walk_with_the_proof_is_chunk_walk_without() {
    let mut rng = Rng::new(50);
    let config = ChainConfig::default().with_stages(1, 4);
    let mut layouts = known(&mut rng);
    layouts.extend((0..1500u64).map(|seed| chain(seed, &config)).filter(|d| d.num_dims() == 2));
    let mut covered = 0;
    for d in &layouts {
        let p = crate::Program::of(d);
        let (r, c) = (d.lengths().get(0), d.lengths().get(1));
        for vec in [2usize, 4, 8, 16] {
            let runs = p.runs_along_last(vec);
            for _ in 0..6 {
                let n = 1 + rng.below(LANES as u64) as usize;
                let mut chunk = LaneChunk::EMPTY;
                let aligned = rng.below(4) != 0;
                for l in 0..n {
                    chunk.rows[l] = rng.below(r as u64 + 2) as Index - 1;
                    let col = rng.below(c as u64 + 2) as Index - 1;
                    chunk.cols[l] = if aligned { col - col.rem_euclid(vec as Index) } else { col };
                    if rng.below(8) != 0 {
                        chunk.active |= 1 << l;
                    }
                }
                let (first, i, bytes) = (rng.below(2) as usize * LANES, 3, 1 + rng.below(4) as usize);
                let walk = |runs: bool| {
                    let (mut out, mut breaks) = (LaneAddresses::new(64), [0; LANES]);
                    let e = chunk_walk(&p, bytes, i, first, &chunk, n, vec, runs, &mut out, &mut breaks);
                    (e, out.at, out.active, breaks)
                };
                let (with, without) = (walk(runs), walk(false));
                assert_eq!(with, without, "{d}, {vec} elements, lanes {chunk:?}");
                let mut offsets = [0; LANES];
                let valid = p.offsets_2d(&chunk.rows, &chunk.cols, n, &mut offsets);
                covered += usize::from(runs && runs_cover(&p, &chunk, vec, &offsets, chunk.active & valid));
            }
        }
    }
    assert!(covered >= 200, "the proof covered only {covered} chunks");
}
