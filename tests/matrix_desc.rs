//! `matrix_desc` against its anchors, written here from the sources and not
//! from cktile's output:
//!
//! - every CuTe GMMA / UMMA atom (`Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom`
//!   and sm100's `Layout_MN_SW128_32B_Atom`) for 8-, 16- and 32-bit types,
//!   tiled to real tile sizes with `tile_to_shape` (computed below in bytes
//!   from CUTLASS's definitions), is accepted with the LBO and SBO
//!   `make_gmma_desc` / `make_umma_desc` read off it;
//! - Triton's NVMMA layouts (the catalogue's `triton-nvmma`, Triton's
//!   swizzled encoding with `vec = 128 / bits`, `perPhase = 128 / width`,
//!   `maxPhase = width / 16`) are accepted K-major and MN-major;
//! - every readable verdict is recomputed by decoding each instruction's
//!   64-bit descriptor and running the PTX ISA's canonical map, written
//!   again below, over every element;
//! - every refusal is recomputed by brute force over every LBO and SBO that
//!   could matter, for every mode: none reads the layout.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cktile::matrix_desc::{
    Operand, OperandMajor, Readability, Request, SwizzleMode, Target, canonical_spec, fields::DescriptorFields, judge,
};
use cktile::{Descriptor, layouts, spec};

/// CuTe's `Swizzle<B,M,S>` on a byte address.
fn cute_swizzle((b, m, s): (u32, u32, u32), x: u64) -> u64 {
    let yyy = ((1u64 << b) - 1) << (m + s);
    x ^ ((x & yyy) >> s)
}

/// The byte of element (mn, k) in `tile_to_shape(atom, (MN, K))` of CuTe's
/// GMMA atom for `mode`, atoms ordered MN first (column-major), as CUTLASS
/// `mma_traits_sm90_gmma.hpp` / `mma_traits_sm100.hpp` define them in bits:
/// K-major `(8, W):(W, 1)`, MN-major `(W, 8):(1, W)` (sm100's 32B atom:
/// `(1024, 4):(1, 1024)` under `Swizzle<2,5,2>`).
fn cute_tiled(major: OperandMajor, mode: SwizzleMode, e: u64, mn_len: u64, mn: u64, k: u64) -> u64 {
    let (width, xor, k_rows) = match mode {
        SwizzleMode::None => (16, (0, 4, 3), 8),
        SwizzleMode::B32 => (32, (1, 4, 3), 8),
        SwizzleMode::B64 => (64, (2, 4, 3), 8),
        SwizzleMode::B128 => (128, (3, 4, 3), 8),
        SwizzleMode::B128Base32 => (128, (2, 5, 2), 4),
    };
    let (atom_mn, atom_k) = match major {
        OperandMajor::K => (8, width / e),
        OperandMajor::Mn => (width / e, k_rows),
    };
    let atom_bytes = atom_mn * atom_k * e;
    let atom = (mn / atom_mn) + (k / atom_k) * (mn_len / atom_mn);
    let (r, c) = (mn % atom_mn, k % atom_k);
    let inner = match major {
        OperandMajor::K => r * width + c * e,
        OperandMajor::Mn => r * e + c * width,
    };
    cute_swizzle(xor, atom * atom_bytes + inner)
}

/// LBO and SBO as `make_gmma_desc` / `make_umma_desc` read them off
/// `tile_to_shape(atom, (MN, K))` (bytes; the strides of its canonical
/// modes in 16-byte units, times 16).
fn cute_lbo_sbo(major: OperandMajor, mode: SwizzleMode, e: u64, mn_len: u64) -> (u64, u64) {
    let atom_bytes = |mn_el: u64, k_el: u64| mn_el * k_el * e;
    match (major, mode) {
        // ((8,n),2):((1,SBO),LBO): 8-row atoms of 128 bytes along MN, the
        // second 16-byte chunk of K after all of them.
        (OperandMajor::K, SwizzleMode::None) => (mn_len * 16, 128),
        // ((8,n),2):((W,SBO),1): LBO is written 1 (unused); SBO is one atom.
        (OperandMajor::K, s) => (16, atom_bytes(8, s.span() as u64 / e)),
        // ((1,n),(8,k)):((X,SBO),(1,LBO)): SBO between 16-byte MN chunks,
        // LBO between 8-row K groups (after every MN chunk).
        (OperandMajor::Mn, SwizzleMode::None) => (mn_len * e / 16 * 128, 128),
        // ((W,n),(G,k)):((1,LBO),(W,SBO)): LBO one atom, SBO one column of atoms.
        (OperandMajor::Mn, s) => {
            let a = atom_bytes(s.span() as u64 / e, s.k_group() as u64);
            (a, a * (mn_len * e / s.span() as u64))
        }
    }
}

/// The PTX ISA's canonical map, written again from its tables: where the
/// instruction whose descriptor is `f` reads element (mn, k).
fn ptx_address(f: &DescriptorFields, major: OperandMajor, e: u64, mn: u64, k: u64) -> u64 {
    let t = 16 / e;
    let w = f.swizzle.span() as u64;
    let pre = match (major, f.swizzle) {
        (OperandMajor::K, SwizzleMode::None) => (mn % 8) * 16 + (mn / 8) * f.sbo + (k / t) * f.lbo + (k % t) * e,
        (OperandMajor::K, _) => (mn % 8) * w + (mn / 8) * f.sbo + k * e,
        (OperandMajor::Mn, SwizzleMode::None) => (mn / t) * f.sbo + (k % 8) * 16 + (k / 8) * f.lbo + (mn % t) * e,
        (OperandMajor::Mn, s) => {
            let g = s.k_group() as u64;
            (mn * e) % w + (mn * e / w) * f.lbo + (k % g) * w + (k / g) * f.sbo
        }
    };
    let xor = match f.swizzle {
        SwizzleMode::None => (0, 4, 3),
        SwizzleMode::B32 => (1, 4, 3),
        SwizzleMode::B64 => (2, 4, 3),
        SwizzleMode::B128 => (3, 4, 3),
        SwizzleMode::B128Base32 => (2, 5, 2),
    };
    cute_swizzle(xor, f.start + pre)
}

/// Byte of (mn, k) in `d`, K the second dimension (`None`: a pad).
fn byte(d: &Descriptor, e: u64, k_dim: usize, mn: usize, k: usize) -> Option<u64> {
    let top = if k_dim == 1 { [mn as i64, k as i64] } else { [k as i64, mn as i64] };
    d.offset_if_valid(&top).map(|o| o as u64 * e)
}

/// Recomputes a readable verdict: every instruction's descriptor, decoded,
/// read through the PTX map, puts every element where the layout does.
fn assert_really_readable(d: &Descriptor, req: &Request<'_>) -> cktile::matrix_desc::Readable {
    let Readability::Readable(r) = judge(req).unwrap() else { panic!("refused") };
    let e = req.element_bytes as u64;
    let [mn_len, k_len] = r.tile;
    let [imn, ik] = r.instruction;
    assert_eq!((mn_len * k_len, ik * req.element_bytes), (r.elements, 32));
    let mut i = 0;
    for m0 in (0..mn_len).step_by(imn) {
        for k0 in (0..k_len).step_by(ik) {
            let f = DescriptorFields::decode(req.target, r.descriptor(i).unwrap()).unwrap();
            for m in m0..m0 + imn {
                for k in k0..k0 + ik {
                    let want = byte(d, e, req.k_dim, m, k).map(|b| b + req.base);
                    let got = ptx_address(&f, r.major, e, (m - m0) as u64, (k - k0) as u64);
                    assert_eq!(Some(got), want, "element ({m}, {k}) under {f:?}");
                }
            }
            i += 1;
        }
    }
    assert_eq!(i, r.starts.len());
    r
}

const TARGETS: [Target; 2] = [Target::Sm90, Target::Sm100];

#[test]
fn every_cute_atom_tiled_is_read_with_cutes_descriptor() {
    let mut checked = 0;
    for target in TARGETS {
        for e in [1usize, 2, 4] {
            for major in [OperandMajor::K, OperandMajor::Mn] {
                for &mode in target.swizzles() {
                    if major == OperandMajor::K && mode == SwizzleMode::B128Base32 {
                        continue;
                    }
                    let atom_mn = if major == OperandMajor::K { 8 } else { mode.span() / e };
                    let atom_k = if major == OperandMajor::K { mode.span() / e } else { mode.k_group() };
                    // Real tiles: M or N of 64, 128 and 256; K of 2 and 4 instructions' worth or 2 atoms.
                    for mn_len in [64usize, 128, 256] {
                        for k_len in [64 / e, 128 / e, 2 * atom_k.max(32 / e)] {
                            if mn_len % atom_mn != 0 || k_len % atom_k != 0 || k_len % (32 / e) != 0 {
                                continue;
                            }
                            let text = canonical_spec(major, mode, e, mn_len, k_len, 1).unwrap();
                            let d = spec::parse(&text).unwrap();
                            // The spec text is CuTe's tiled atom, element by element.
                            for m in 0..mn_len {
                                for k in 0..k_len {
                                    let cute = cute_tiled(major, mode, e as u64, mn_len as u64, m as u64, k as u64);
                                    assert_eq!(byte(&d, e as u64, 1, m, k), Some(cute), "{text} at ({m}, {k})");
                                }
                            }
                            let req = Request {
                                major: Some(major),
                                swizzle: Some(mode),
                                operand: Operand::B,
                                ..Request::new(&d, e, target)
                            };
                            if major == OperandMajor::Mn && !target.reads_mn_major(e) {
                                assert!(judge(&req).is_err(), "{target:?} MN-major {e}-byte");
                                continue;
                            }
                            let r = assert_really_readable(&d, &req);
                            let (lbo, sbo) = cute_lbo_sbo(major, mode, e as u64, mn_len as u64);
                            // DescriptorFields the hardware does not read for this tile are free.
                            assert_eq!((r.major, r.swizzle), (major, mode));
                            assert!(!r.lbo_used || r.lbo == lbo, "{text}: LBO {} vs CuTe's {lbo}", r.lbo);
                            assert!(!r.sbo_used || r.sbo == sbo, "{text}: SBO {} vs CuTe's {sbo}", r.sbo);
                            if major == OperandMajor::K && mode != SwizzleMode::None {
                                assert_eq!(r.lbo, 16, "CuTe writes LBO 1 (16 bytes) for swizzled K-major");
                            }
                            // Each instruction starts where CuTe's sub-tensor pointer does: the
                            // unswizzled offset of its first element.
                            let ik = 32 / e;
                            let ks = k_len / ik;
                            for (i, &s) in r.starts.iter().enumerate() {
                                let (m0, k0) = ((i / ks) * r.instruction[0], (i % ks) * ik);
                                let raw = cute_tiled(major, mode, e as u64, mn_len as u64, m0 as u64, k0 as u64);
                                let xor = mode.xor();
                                assert_eq!(s, cute_swizzle(xor, raw), "{text} instruction {i}");
                            }
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn the_descriptor_bits_are_cutes_for_the_classic_tiles() {
    // tile_to_shape(Layout_K_SW128_Atom<half_t>, (128, 64)): SBO 1024 (encoded 64), LBO 1,
    // layout_type 1, start 0: the value every Hopper GEMM with a 128B K-major A carries.
    let d = spec::parse(&canonical_spec(OperandMajor::K, SwizzleMode::B128, 2, 128, 64, 1).unwrap()).unwrap();
    let Readability::Readable(r) = judge(&Request::new(&d, 2, Target::Sm90)).unwrap() else { panic!() };
    assert_eq!(r.descriptor(0).unwrap(), (1 << 62) | (64 << 32) | (1 << 16));
    assert_eq!(r.starts, [0, 32, 64, 96, 8192, 8224, 8256, 8288]);
    // The same on sm100: version bit 46, SWIZZLE_128B = 2 at bit 61.
    let Readability::Readable(r) = judge(&Request::new(&d, 2, Target::Sm100)).unwrap() else { panic!() };
    assert_eq!(r.descriptor(0).unwrap(), (2 << 61) | (1 << 46) | (64 << 32) | (1 << 16));
    assert_eq!(r.starts.len(), 4, "one tcgen05.mma covers M = 128");
    // A base moves only the start field.
    let req = Request { base: 0x4400, ..Request::new(&d, 2, Target::Sm100) };
    let Readability::Readable(r) = judge(&req).unwrap() else { panic!() };
    assert_eq!(r.descriptor(1).unwrap() & 0x3FFF, (0x4400 + 32) >> 4);
}

#[test]
fn triton_nvmma_layouts_are_read() {
    for width in [32usize, 64, 128] {
        for bits in [8usize, 16, 32] {
            let e = bits / 8;
            for transposed in [false, true] {
                for rows in [64usize, 128] {
                    let text = format!("triton-nvmma:swizzle={width},bits={bits},transposed={transposed},rows={rows}");
                    let d = layouts::resolve(&text).unwrap();
                    // Untransposed, the contiguous dimension (1) is K; transposed, dimension 0
                    // is contiguous: read as MN-major with K the second dimension.
                    let major = if transposed { OperandMajor::Mn } else { OperandMajor::K };
                    for target in TARGETS {
                        let req = Request { major: Some(major), operand: Operand::B, ..Request::new(&d, e, target) };
                        if major == OperandMajor::Mn && !target.reads_mn_major(e) {
                            assert!(judge(&req).is_err());
                            continue;
                        }
                        if !(d.lengths().as_slice()[1] as usize).is_multiple_of(32 / e) {
                            continue;
                        }
                        let r = assert_really_readable(&d, &req);
                        let mode = SwizzleMode::ALL.into_iter().find(|s| s.span() == width && s.xor().1 == 4).unwrap();
                        assert_eq!(r.swizzle, mode, "{text}");
                    }
                }
            }
        }
    }
}

#[test]
fn cks_gemm_a_block_is_read_as_128b_k_major() {
    // CK Tile's fp16 A block with K = 64 is CuTe's Swizzle<3,3,3> over a row-major tile.
    let d = layouts::resolve("ck-universal-a:m=128,k=64").unwrap();
    let r = assert_really_readable(&d, &Request::new(&d, 2, Target::Sm90));
    assert_eq!((r.major, r.swizzle, r.sbo), (OperandMajor::K, SwizzleMode::B128, 1024));
}

/// Layouts no descriptor reads, with their element bytes.
const REFUSED: &[(&str, usize)] = &[
    ("packed((64,64))", 2),
    ("packed((16,64))", 2),
    ("packed((64,128))", 1),
    ("packed((32,32))", 4),
    ("row-padded:rows=64,cols=64,pad=8", 2),
    ("row-padded:rows=16,cols=64,pad=4", 2),
    ("cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=128", 2),
    ("cute-swizzle:b=3,mbase=3,s=4,rows=16,cols=64", 2),
    ("cute-swizzle:b=2,mbase=3,s=3,rows=16,cols=64", 2),
    ("cute-swizzle:b=3,mbase=2,s=3,rows=16,cols=64", 2),
    ("cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64,major=col", 1),
    ("ck-universal-a:m=64,k=32", 2),
    ("triton-swizzled:vec=4,perphase=1,maxphase=8,rows=16,cols=64", 2),
    ("triton-swizzled:vec=8,perphase=2,maxphase=4,rows=16,cols=64", 2),
    ("triton-swizzled:vec=8,perphase=1,maxphase=4,rows=16,cols=64", 2),
    ("triton-swizzled:vec=16,perphase=2,maxphase=4,rows=16,cols=128", 1),
    ("triton-swizzled:vec=4,perphase=1,maxphase=4,rows=16,cols=16", 4),
    ("naive((16,32),(1,16))", 4),
    ("naive((16,64),(72,1))", 2),
    ("naive((16,32),(32,1))", 1),
    ("cute-swizzle:b=1,mbase=3,s=3,rows=16,cols=64", 2),
    ("cute-swizzle:b=3,mbase=4,s=3,rows=16,cols=64", 2),
];

#[test]
fn twenty_non_canonical_layouts_are_refused_and_no_descriptor_reads_them() {
    for &(text, e) in REFUSED {
        let d = layouts::resolve(text).unwrap();
        for target in TARGETS {
            let req = Request { operand: Operand::B, ..Request::new(&d, e, target) };
            let Readability::Unreadable(u) = judge(&req).unwrap() else { panic!("{text} accepted on {target:?}") };
            assert!(!u.breaks.is_empty());
            for b in &u.breaks {
                // The break names the element's own byte.
                let [a, c] = b.coordinate;
                assert_eq!(b.actual, d.offset_if_valid(&[a as i64, c as i64]).map(|o| o as u64 * e as u64));
                assert_ne!(b.actual, b.expected, "{text}: {b:?}");
                assert!(b.rule.len() > 20);
            }
            brute_force_unreadable(&d, e, target, text);
            // The nearest canonical layout is one the instruction reads.
            if let Some((major, mode, near)) = &u.nearest {
                let n = spec::parse(near).unwrap();
                assert_eq!(n.lengths(), d.lengths(), "{near}");
                let r = assert_really_readable(&n, &Request { major: Some(*major), ..req.clone_with(&n) });
                assert_eq!(r.swizzle, *mode);
            }
        }
    }
    assert!(REFUSED.len() >= 20);
}

trait With<'a> {
    fn clone_with(&self, d: &'a Descriptor) -> Request<'a>;
}
impl<'a> With<'a> for Request<'_> {
    fn clone_with(&self, d: &'a Descriptor) -> Request<'a> {
        Request { layout: d, ..Request::new(d, self.element_bytes, self.target) }
    }
}

/// No (major, mode, LBO, SBO) reads the layout: each instruction's start
/// is forced (its first element is at `swizzle(start)`), LBO and SBO, shared
/// by the instructions, run over every multiple of 16 up to past the
/// layout's last byte, and every element of every instruction must be read
/// from its byte (fields that read the first instruction may break a later
/// one: a refusal is about the whole tile).
fn brute_force_unreadable(d: &Descriptor, e: usize, target: Target, text: &str) {
    let lengths = d.lengths();
    let (mn_len, k_len) = (lengths.as_slice()[0] as usize, lengths.as_slice()[1] as usize);
    let imn = mn_len.min(256);
    let ik = 32 / e;
    let last = (0..mn_len)
        .flat_map(|m| (0..k_len).map(move |k| (m, k)))
        .filter_map(|(m, k)| byte(d, e as u64, 1, m, k))
        .max()
        .unwrap();
    let majors: &[OperandMajor] =
        if target.reads_mn_major(e) { &[OperandMajor::K, OperandMajor::Mn] } else { &[OperandMajor::K] };
    for &major in majors {
        for &mode in target.swizzles() {
            if major == OperandMajor::K && mode == SwizzleMode::B128Base32 {
                continue;
            }
            // Each instruction's origin and forced start (`None`: its first element is a pad).
            let starts: Vec<Option<(usize, usize, u64)>> = (0..mn_len)
                .step_by(imn)
                .flat_map(|m0| (0..k_len).step_by(ik).map(move |k0| (m0, k0)))
                .map(|(m0, k0)| byte(d, e as u64, 1, m0, k0).map(|b| (m0, k0, cute_swizzle(mode.xor(), b))))
                .collect();
            if starts.iter().any(Option::is_none) {
                continue;
            }
            for lbo in (0..=last + 16).step_by(16) {
                for sbo in (0..=last + 16).step_by(16) {
                    let reads = starts.iter().flatten().all(|&(m0, k0, start)| {
                        let f = DescriptorFields { target, swizzle: mode, start, lbo, sbo, base_offset: 0 };
                        (0..imn.min(mn_len - m0)).all(|m| {
                            (0..ik.min(k_len - k0)).all(|k| {
                                Some(ptx_address(&f, major, e as u64, m as u64, k as u64))
                                    == byte(d, e as u64, 1, m0 + m, k0 + k)
                            })
                        })
                    });
                    assert!(!reads, "{text} is read on {target:?} by LBO {lbo}, SBO {sbo}, {mode:?}, {major:?}");
                }
            }
        }
    }
}

#[test]
fn requests_no_descriptor_can_serve_are_errors_naming_the_value() {
    let d = Descriptor::packed(&[64, 64]).unwrap();
    let cases: Vec<(Request<'_>, &str)> = vec![
        (Request::new(&d, 3, Target::Sm90), "element bytes"),
        (Request::new(&d, 8, Target::Sm90), "element bytes"),
        (Request { k_dim: 2, ..Request::new(&d, 2, Target::Sm90) }, "k dimension"),
        (Request { instruction_mn: Some(12), ..Request::new(&d, 2, Target::Sm90) }, "instruction M or N"),
        (Request { instruction_mn: Some(512), ..Request::new(&d, 2, Target::Sm90) }, "instruction M or N"),
        (Request { base: 8, ..Request::new(&d, 2, Target::Sm90) }, "base"),
        (Request { major: Some(OperandMajor::Mn), ..Request::new(&d, 1, Target::Sm90) }, "element bytes"),
        (Request { swizzle: Some(SwizzleMode::B128Base32), ..Request::new(&d, 2, Target::Sm90) }, "swizzle"),
    ];
    for (req, word) in cases {
        let e = judge(&req).unwrap_err().to_string();
        assert!(e.contains(word), "{e}");
    }
    let odd = Descriptor::packed(&[12, 64]).unwrap();
    assert!(judge(&Request::new(&odd, 2, Target::Sm90)).unwrap_err().to_string().contains("M or N"));
    let short = Descriptor::packed(&[64, 8]).unwrap();
    assert!(judge(&Request::new(&short, 2, Target::Sm90)).unwrap_err().to_string().contains("K"));
    let three = Descriptor::packed(&[8, 8, 8]).unwrap();
    assert!(judge(&Request::new(&three, 2, Target::Sm90)).is_err());
    let huge = Descriptor::packed(&[2048, 1024]).unwrap();
    assert!(judge(&Request::new(&huge, 2, Target::Sm90)).unwrap_err().to_string().contains("at most"));
}

#[test]
fn a_misaligned_base_breaks_the_swizzled_modes_only() {
    let d = spec::parse(&canonical_spec(OperandMajor::K, SwizzleMode::None, 2, 64, 32, 1).unwrap()).unwrap();
    let req = Request { base: 0x410, ..Request::new(&d, 2, Target::Sm90) };
    let r = assert_really_readable(&d, &req);
    assert_eq!(r.swizzle, SwizzleMode::None);
    let d = spec::parse(&canonical_spec(OperandMajor::K, SwizzleMode::B128, 2, 64, 64, 1).unwrap()).unwrap();
    let Readability::Unreadable(u) = judge(&Request { base: 0x200, ..Request::new(&d, 2, Target::Sm90) }).unwrap()
    else {
        panic!()
    };
    assert!(u.breaks[0].rule.contains("1024"), "{}", u.breaks[0].rule);
}

#[test]
fn descriptors_round_trip_through_their_bits() {
    for target in TARGETS {
        for &swizzle in target.swizzles() {
            for (start, lbo, sbo) in [(0u64, 16u64, 1024u64), (0x3FFF0, 0x3FFF0, 0x3FFF0), (1 << 10, 0, 16)] {
                let f = DescriptorFields { target, swizzle, start, lbo, sbo, base_offset: 0 };
                assert_eq!(DescriptorFields::decode(target, f.encode().unwrap()).unwrap(), f);
            }
        }
    }
    let f = DescriptorFields {
        target: Target::Sm90,
        swizzle: SwizzleMode::B64,
        start: 0,
        lbo: 0,
        sbo: 1 << 18,
        base_offset: 0,
    };
    assert!(f.encode().unwrap_err().to_string().contains("262144"));
    // Reserved bits are refused, not dropped.
    assert!(DescriptorFields::decode(Target::Sm90, 1 << 14).is_err());
    assert!(DescriptorFields::decode(Target::Sm100, (1 << 46) | (3 << 61)).is_err());
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    /// Recomputes any verdict: readable ones through the decoded
    /// descriptors and the PTX map; refusals by the break's own bytes and,
    /// for small tiles, by brute force over LBO and SBO.
    fn recheck(d: &Descriptor, e: usize, target: Target, what: &str) {
        let req = Request { operand: Operand::B, ..Request::new(d, e, target) };
        match judge(&req) {
            Ok(Readability::Readable(_)) => {
                assert_really_readable(d, &req);
            }
            Ok(Readability::Unreadable(u)) => {
                for b in &u.breaks {
                    let [a, c] = b.coordinate;
                    assert_eq!(b.actual, d.offset_if_valid(&[a as i64, c as i64]).map(|o| o as u64 * e as u64));
                }
                let lengths = d.lengths();
                let elements: i64 = lengths.as_slice().iter().product();
                if elements <= 1024 && lengths.as_slice()[0] <= 256 {
                    brute_force_unreadable(d, e, target, what);
                }
            }
            // Requests no descriptor serves (a shape, a rank) are errors, never panics.
            Err(err) => assert!(!err.to_string().is_empty()),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn any_catalogue_layout_gets_a_verdict_that_holds(
            m in cktile::strategy::catalogue(4096),
            e in prop::sample::select(vec![1usize, 2, 4]),
            sm100 in any::<bool>(),
        ) {
            let target = if sm100 { Target::Sm100 } else { Target::Sm90 };
            recheck(&m.descriptor, e, target, &m.text);
        }

        #[test]
        fn every_canonical_layout_is_read_in_its_own_mode(
            major_mn in any::<bool>(),
            mode in prop::sample::select(Vec::from(SwizzleMode::ALL)),
            e in prop::sample::select(vec![1usize, 2, 4]),
            mn_atoms in 1usize..5,
            k_atoms in 1usize..5,
            k_first in any::<bool>(),
            instruction_8s in 1usize..5,
        ) {
            let major = if major_mn { OperandMajor::Mn } else { OperandMajor::K };
            prop_assume!(!(major == OperandMajor::K && mode == SwizzleMode::B128Base32));
            let atom_mn = if major == OperandMajor::K { 8 } else { mode.span() / e };
            let atom_k = if major == OperandMajor::K { mode.span() / e } else { mode.k_group() };
            // K a whole number of instructions' 32 bytes, MN of the instruction's extent.
            let k_len = (atom_k * k_atoms).next_multiple_of(32 / e);
            // An MN-major instruction starts on an atom: it spans whole atoms of MN.
            let imn = if major == OperandMajor::Mn { atom_mn.max(8) } else { 8 } * instruction_8s;
            prop_assume!(imn <= 256);
            let mn_len = (atom_mn * mn_atoms).next_multiple_of(imn.max(atom_mn)).next_multiple_of(imn);
            prop_assume!(mn_len % atom_mn == 0 && k_len % atom_k == 0 && mn_len * k_len <= 1 << 16);
            let k_dim = usize::from(!k_first);
            let text = canonical_spec(major, mode, e, mn_len, k_len, k_dim).unwrap();
            let d = spec::parse(&text).unwrap();
            let target = if mode == SwizzleMode::B128Base32 || major == OperandMajor::Mn { Target::Sm100 } else { Target::Sm90 };
            let req = Request {
                major: Some(major),
                swizzle: Some(mode),
                k_dim,
                instruction_mn: Some(imn),
                ..Request::new(&d, e, target)
            };
            let r = assert_really_readable_dims(&d, &req);
            prop_assert_eq!((r.major, r.swizzle), (major, mode));
        }
    }

    /// [`assert_really_readable`] for either K dimension.
    fn assert_really_readable_dims(d: &Descriptor, req: &Request<'_>) -> cktile::matrix_desc::Readable {
        let Readability::Readable(r) = judge(req).unwrap() else { panic!("refused") };
        let e = req.element_bytes as u64;
        let [imn, ik] = r.instruction;
        let [_, steps] = r.grid();
        for (i, _) in r.starts.iter().enumerate() {
            let f = DescriptorFields::decode(req.target, r.descriptor(i).unwrap()).unwrap();
            let (m0, k0) = ((i / steps) * imn, (i % steps) * ik);
            for m in m0..m0 + imn {
                for k in k0..k0 + ik {
                    let want = byte(d, e, req.k_dim, m, k);
                    assert_eq!(Some(ptx_address(&f, r.major, e, (m - m0) as u64, (k - k0) as u64)), want);
                }
            }
        }
        r
    }
}

mod hostile {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn any_64_bits_decode_or_are_refused_and_decoded_fields_encode_back(bits in any::<u64>(), sm100 in any::<bool>()) {
            let target = if sm100 { Target::Sm100 } else { Target::Sm90 };
            if let Ok(f) = DescriptorFields::decode(target, bits) {
                prop_assert_eq!(f.encode().unwrap(), bits);
            }
        }

        #[test]
        fn the_ptx_map_never_panics(
            start in any::<u64>(), lbo in any::<u64>(), sbo in any::<u64>(), mn in any::<usize>(), k in any::<usize>(),
            e in any::<usize>(), base_offset in any::<u8>(),
        ) {
            for &swizzle in Target::Sm100.swizzles() {
                let f = DescriptorFields { target: Target::Sm100, swizzle, start, lbo, sbo, base_offset };
                for major in [OperandMajor::K, OperandMajor::Mn] {
                    let _ = f.address(major, e, mn, k);
                }
                let _ = f.encode();
            }
        }
    }
}

/// A refusal that only a later instruction breaks: CK's k-fold layout as
/// 4-byte elements on sm100, K-major without swizzle, is read by LBO 1024
/// and SBO 128 in its first instruction (K below 8) but not past it. The
/// verdict's break lies past the first instruction, and the brute force over
/// every instruction agrees (over the first instruction alone it did not: a
/// property-test draw in CI found it).
#[test]
fn a_refusal_that_only_a_later_instruction_breaks_holds() {
    for text in [
        "ck-kfold-mpair:m=16,k=32,ak1=4,m0=16,kthreadwrite=4,mperxdl=16",
        "ck-kfold-mpair:m=16,k=32,ak1=4,m0=16,kthreadwrite=4,mperxdl=16,dtype=fp8,banks=32",
    ] {
        let d = layouts::resolve(text).unwrap();
        let req = Request { operand: Operand::B, ..Request::new(&d, 4, Target::Sm100) };
        let Readability::Unreadable(u) = judge(&req).unwrap() else { panic!("{text} accepted") };
        let plain = u.breaks.iter().find(|b| b.major == OperandMajor::K && b.swizzle == SwizzleMode::None).unwrap();
        assert!(plain.coordinate[1] >= 8, "{text}: {plain:?}");
        brute_force_unreadable(&d, 4, Target::Sm100, text);
    }
}
