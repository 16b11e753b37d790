//! The `search_plan` target's properties, shared by the fuzz target and by
//! `tests/fuzz_corpus.rs` (which replays the committed corpus on stable).
//!
//! Layout search and direct-to-LDS planning on structured random inputs: no
//! panic; the search's best respects the proved bound and the conflict-free
//! minimum, its front and optimal set are consistent, and its costs are the
//! analyzer's; every plan that is made passes its byte-for-byte simulation,
//! in both orders, and so do its instructions in every form and m0 scheme.
//!
//! Tiles are kept to at most 256 bytes, with at most 2^9 GF(2)-linear
//! swizzle matrices (row bits x column-vector bits <= 9, as many as the CK
//! Tile docs' 128x64 tile has classes), so that one execution (a whole search
//! plus a plan) stays near a millisecond: the xor-linear family grows as
//! 2^(row bits x column bits), and a 16x16 tile of bytes read one byte per
//! lane takes seconds. Full-size searches are covered by `tests/search.rs`.

use arbitrary::{Arbitrary, Unstructured};
use cktile::analyzer::{Arch, Pattern, analyze_tile, arch};
use cktile::plan::dma::{DmaRequest, Form, Order, Scheme, address, plan, plan_ordered, verify, verify_addressing};
use cktile::search::{Problem, SearchReport, search};

const ARCHS: [Arch; 5] = [arch::GFX90A, arch::GFX942, arch::GFX950, arch::SM80, arch::SM90];
const ACCESSES: [&str; 16] = [
    "ds_write_b128:row",
    "ds_write_b64:column",
    "ds_read_b32:column",
    "ds_read_b128:row",
    "mfma16x16x16:a",
    "mfma32x32x8:ds_read_b64",
    "st.shared.b128:row",
    "st.shared.b32:column",
    "ld.shared.b64:column",
    "ld.shared.b16:row",
    "ldmatrix.x4",
    "ldmatrix.x2.trans",
    "stmatrix.x4",
    "mma_sync_a",
    "ld.shared.b8:column",
    "ds_write_b32:row",
];
const LAYOUTS: [&str; 8] = [
    "packed((16,64))",
    "ck-universal-a:m=32,k=64",
    "ck-xor-lds:m=32,k=32,kpack=8,mlds=2",
    "cute-swizzle:b=3,mbase=3,s=3,rows=32,cols=64",
    "triton-swizzled:vec=8,perphase=2,maxphase=4,rows=32,cols=64",
    "row-padded:rows=16,cols=64,pad=8",
    "xor-linear:rows=16,cols=64,vec=8,masks=3.5.6",
    "ck-kfold-mpair:m=64,k=32,ak1=8,m0=32,kthreadwrite=4",
];
/// The largest tile searched, in bytes.
const MAX_TILE_BYTES: usize = 256;
/// The most row bits x column-vector bits searched (the xor-linear family has
/// 2^this many matrices).
const MAX_LINEAR_BITS: u32 = 9;

/// One fuzz input, decoded from bytes as libFuzzer's `fuzz_target!` does.
#[derive(Debug, Arbitrary)]
pub struct Input {
    rows_log: u8,
    cols_log: u8,
    element_bytes_log: u8,
    arch: u8,
    writes: Vec<u8>,
    reads: Vec<u8>,
    max_padding: Option<u16>,
    vector_log: Option<u8>,
    layout: u8,
    strides: (i16, i16),
    workgroup: u16,
    wave: u8,
    width: u8,
}

/// The report's own consistency, and its costs recounted by the analyzer.
fn check_report(p: &Problem, r: &SearchReport) {
    let best = r.best();
    let bound: u64 = r.vector_bound.iter().sum();
    assert!(best.cycles >= bound && bound >= r.minimum_cycles(), "{p:?}");
    assert!(r.naive.cycles >= best.cycles, "{p:?}: the row-major tile beats the best");
    assert_eq!(r.pattern_best.len(), r.minimum.len());
    for (k, &pb) in r.pattern_best.iter().enumerate() {
        assert!(pb >= r.minimum[k] && pb <= best.costs[k].cycles, "{p:?}: pattern {k}");
    }
    // The front: cycles rise while extra bytes fall, and it starts at the best.
    assert_eq!(r.front.first().map(|c| (c.cycles, c.extra_bytes)), Some((best.cycles, best.extra_bytes)));
    for w in r.front.windows(2) {
        assert!(w[0].cycles <= w[1].cycles && w[0].extra_bytes > w[1].extra_bytes, "{p:?}: front");
    }
    assert!(r.optimal.iter().all(|c| (c.cycles, c.extra_bytes) == (best.cycles, best.extra_bytes)));
    for c in r.front.iter().chain(r.optimal.iter().take(4)) {
        assert_eq!(c.cycles, c.costs.iter().map(|k| k.cycles).sum::<u64>(), "{}", c.entry);
        let d = c.descriptor().unwrap_or_else(|e| panic!("{}: {e}", c.entry));
        let space = u64::try_from(d.element_space_size()).unwrap_or(u64::MAX);
        let tile = (p.rows * p.cols) as u64;
        assert_eq!(c.extra_bytes, space.saturating_sub(tile) * p.element_bytes as u64, "{}", c.entry);
        for (k, (_, pat)) in p.patterns().enumerate() {
            let t = analyze_tile(&d, p.element_bytes, &p.arch, pat).unwrap_or_else(|e| panic!("{}: {e}", c.entry));
            assert_eq!(u64::from(t.cycles), c.costs[k].cycles, "{}", c.entry);
        }
        if let Some(max) = p.max_padding_bytes {
            assert!(c.extra_bytes <= max, "{}", c.entry);
        }
    }
}

/// Decodes `data` the way `fuzz_target!(|x: Input| ..)` does and checks it;
/// returns whether a search ran to a report.
pub fn check_bytes(data: &[u8]) -> bool {
    match Input::arbitrary_take_rest(Unstructured::new(data)) {
        Ok(x) => check(x),
        Err(_) => false,
    }
}

/// Checks one input; returns whether a search ran to a report.
pub fn check(x: Input) -> bool {
    let eb = 1usize << (x.element_bytes_log % 4);
    let rows = 1usize << (x.rows_log % 6);
    let cols = 1usize << (x.cols_log % 7);
    let a = ARCHS[x.arch as usize % ARCHS.len()];
    let mut p = Problem::new(rows, cols, eb, a);
    for &w in x.writes.iter().take(2) {
        if let Ok(pat) = Pattern::from_access(ACCESSES[w as usize % ACCESSES.len()]) {
            p = p.write(pat);
        }
    }
    for &r in x.reads.iter().take(2) {
        if let Ok(pat) = Pattern::from_access(ACCESSES[r as usize % ACCESSES.len()]) {
            p = p.read(pat);
        }
    }
    if let Some(m) = x.max_padding {
        p = p.max_padding_bytes(u64::from(m));
    }
    if let Some(v) = x.vector_log {
        p = p.vector(1 << (v % 6));
    }
    // Halve the rows until the tile and its xor-linear family are small
    // (the vector width depends on the columns and patterns, not the rows).
    let column_bits = p.vector_elements().map_or(0, |unit| (p.cols / unit).trailing_zeros());
    while p.rows > 1 && (p.rows * cols * eb > MAX_TILE_BYTES || p.rows.trailing_zeros() * column_bits > MAX_LINEAR_BITS)
    {
        p.rows /= 2;
    }
    let found = search(&p).ok();
    if let Some(r) = &found {
        check_report(&p, r);
    }
    // Plan a direct-to-LDS load into a catalogue layout, or into the layout
    // the search just chose.
    let pick = x.layout as usize % (LAYOUTS.len() + 1);
    let d = match LAYOUTS.get(pick) {
        Some(entry) => cktile::layouts::resolve(entry),
        None => match &found {
            Some(r) => r.best().descriptor(),
            None => return false,
        },
    };
    let Ok(d) = d else { return found.is_some() };
    let req = DmaRequest {
        lds: &d,
        element_bytes: eb,
        global_strides: vec![i64::from(x.strides.0), i64::from(x.strides.1)],
        arch: a,
        workgroup: usize::from(x.workgroup % 1100),
        wave: usize::from(x.wave),
        width: usize::from(x.width % 20),
    };
    if let Ok(pl) = plan(&req) {
        verify(&req, &pl).unwrap_or_else(|e| panic!("{req:?}: {e}"));
    }
    // Both orders, and the instructions of every form and m0 scheme at a
    // derived LDS base: where made, they run to the layout's image.
    let lds_base = u64::from(x.strides.0.unsigned_abs()) * 4;
    for order in Order::ALL {
        let Ok(pl) = plan_ordered(&req, order) else { continue };
        verify(&req, &pl).unwrap_or_else(|e| panic!("{req:?} {order:?}: {e}"));
        for (form, scheme) in Form::ALL.into_iter().flat_map(|f| Scheme::ALL.map(|s| (f, s))) {
            if let Ok(a) = address(&pl, &req.arch, form, scheme, lds_base) {
                verify_addressing(&req, &pl, &a).unwrap_or_else(|e| panic!("{req:?} {order:?} {a:?}: {e}"));
            }
        }
    }
    found.is_some()
}
