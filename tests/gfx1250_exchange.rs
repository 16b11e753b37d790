//! gfx1250's transposing loads across lanes (`cktile_analysis::analyzer::exchange`)
//! against AMD's MI450 blog restated here independently: the exchange as
//! the XOR of the bases of Triton's instruction tile, (lane, register) ->
//! (element, source lane), which the blog tabulates; and the catalogue's
//! transposed B reads (`wmma_b_tr`) delivering exactly CK's WMMA B
//! registers through it, element by element.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::analyzer::Op;
use cktile::analyzer::exchange::{EXCHANGE_ELEMENTS, EXCHANGE_LANES, Source, destination, source};
use cktile::distribution::Distribution;
use cktile::distribution::catalogue::{
    self,
    wmma::{self, Rdna},
};
use std::collections::HashSet;

/// The blog's bases: each lane bit and register bit to (element offset, source lane).
fn by_bases(element_bits: u32, lane: u32, register: u32) -> (u32, u32) {
    let lane_bases: [(u32, u32); 5] = if element_bits == 16 {
        [(1, 0), (2, 0), (4, 0), (0, 8), (0, 16)]
    } else {
        [(1, 0), (2, 0), (4, 0), (0, 4), (0, 16)]
    };
    let register_bases: [(u32, u32); 3] =
        if element_bits == 16 { [(0, 1), (0, 2), (0, 4)] } else { [(0, 1), (0, 2), (0, 8)] };
    let mut out = (0, 0);
    for (b, (o, a)) in lane_bases.iter().enumerate() {
        if lane >> b & 1 == 1 {
            out = (out.0 ^ o, out.1 ^ a);
        }
    }
    for (b, (o, a)) in register_bases.iter().enumerate() {
        if register >> b & 1 == 1 {
            out = (out.0 ^ o, out.1 ^ a);
        }
    }
    out
}

#[test]
fn the_exchange_is_the_blogs_and_a_bijection() {
    for bits in [8, 16] {
        let op = Op::DsLoadTr { element_bits: bits };
        let mut seen = HashSet::new();
        for lane in 0..EXCHANGE_LANES {
            for e in 0..EXCHANGE_ELEMENTS {
                let s = source(op, lane, e).unwrap();
                let (element, from) = by_bases(bits, lane, e);
                assert_eq!(s, Source { lane: from, element }, "{op} lane {lane} element {e}");
                assert!(seen.insert((s.lane, s.element)), "{op}: two destinations read one element");
                assert_eq!(destination(op, s.lane, s.element).unwrap(), Source { lane, element: e });
            }
        }
        assert_eq!(seen.len(), (EXCHANGE_LANES * EXCHANGE_ELEMENTS) as usize);
    }
    // The blog's examples: tr16 lane 8 gets column 0 of lanes 8-15; tr8 lanes 0-7 draw on 0-3 and 8-11.
    let tr16 = Op::DsLoadTr { element_bits: 16 };
    let from: Vec<u32> = (0..8).map(|e| source(tr16, 8, e).unwrap().lane).collect();
    assert_eq!(from, (8..16).collect::<Vec<_>>());
    let tr8 = Op::DsLoadTr { element_bits: 8 };
    let from: HashSet<u32> = (0..8).flat_map(|d| (0..8).map(move |e| source(tr8, d, e).unwrap().lane)).collect();
    assert_eq!(from, [0, 1, 2, 3, 8, 9, 10, 11].into_iter().collect());
}

#[test]
fn instructions_without_a_public_exchange_are_refused_by_name() {
    for op in [Op::DsLoadTr { element_bits: 4 }, Op::DsLoadTr { element_bits: 6 }, Op::DsRead { bits: 128 }] {
        let e = source(op, 0, 0).unwrap_err().to_string();
        assert!(e.contains(&op.to_string()) && e.contains("MI450"), "{e}");
        assert!(destination(op, 0, 0).is_err());
    }
    let tr16 = Op::DsLoadTr { element_bits: 16 };
    assert!(source(tr16, 0, 8).unwrap_err().to_string().contains("element"));
    assert!(destination(tr16, u32::MAX, 0).unwrap_err().to_string().contains(&u32::MAX.to_string()));
}

/// Reading with `wmma_b_tr(K)` and exchanging gives `wmma_b(Gfx1250, K)`'s
/// registers: every source lane, instruction and element.
#[test]
fn the_transposed_b_reads_deliver_cks_wmma_b_registers() {
    for (k, bits, name) in [(32, 16, "wmma16x16x32_gfx1250_b_tr16"), (64, 8, "wmma16x16x64_gfx1250_b_tr8")] {
        let op = Op::DsLoadTr { element_bits: bits };
        let read = Distribution::new(wmma::wmma_b_tr(k).unwrap()).unwrap();
        assert_eq!(catalogue::by_name(name).unwrap(), wmma::wmma_b_tr(k).unwrap());
        let b = Distribution::new(wmma::wmma_b(Rdna::Gfx1250, k).unwrap()).unwrap();
        let mut covered = HashSet::new();
        for lane in 0..EXCHANGE_LANES {
            for p in 0..(k / 16) as u32 {
                for e in 0..EXCHANGE_ELEMENTS {
                    let x = read.calculate_index(&[i64::from(lane), i64::from(p), i64::from(e)]).unwrap();
                    let (kk, n) = (x.get(0), x.get(1));
                    let d = destination(op, lane, e).unwrap();
                    let r = 8 * p + d.element;
                    let y = b.calculate_index(&[i64::from(d.lane), 0, i64::from(r / 8), i64::from(r % 8)]).unwrap();
                    assert_eq!((y.get(1), y.get(0)), (kk, n), "{name}: lane {lane}, instruction {p}, element {e}");
                    assert!(covered.insert((kk, n)));
                }
            }
            // Each lane's 8 elements are consecutive N at one K: one contiguous read.
            for p in 0..(k as i64 / 16) {
                let first = read.calculate_index(&[i64::from(lane), p, 0]).unwrap();
                let last = read.calculate_index(&[i64::from(lane), p, 7]).unwrap();
                assert_eq!((last.get(0), last.get(1)), (first.get(0), first.get(1) + 7));
            }
        }
        assert_eq!(covered.len(), k * 16, "{name} covers the K x 16 tile");
    }
    assert!(catalogue::by_name("wmma16x16x16_gfx12_b_tr16").is_err());
    assert!(catalogue::by_name("wmma16x16x64_gfx1250_b_tr16").is_err());
}
