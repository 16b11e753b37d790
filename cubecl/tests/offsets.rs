//! Every offset a cubecl kernel computes through a cktile layout is
//! cktile's own: random chains of every transform kind (cktile's
//! `random::chain`, ranks 1 to 4, padded ones included) and the named CK
//! blocks, each coordinate of a box one wider than the lengths, run on
//! wgpu (Mesa's lavapipe in CI) and compared with
//! `Descriptor::calculate_offset` and `offset_if_valid`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use cktile_analysis::random::chain::{ChainConfig, chain};
use cktile_core::Descriptor;
use cktile_core::ops::gemm::LdsChainOf;
use cktile_core::transforms::Kind;
use cktile_cubecl::{CkLayout, DescriptorLayout, IndexType, Typed};
use common::{XorBlock, buffer, client, read_u32, zeros};
use cubecl::client::Client;
use cubecl::prelude::*;
use cubecl::std::tensor::layout::{Layout, LayoutExpand};
use std::collections::BTreeMap;

/// Writes, for each coordinate of a box of extents `ext` (row-major by the
/// unit's position), the layout's checked offset and validity.
macro_rules! offsets_kernel {
    ($name:ident, $coords:ty, ($($e:ident),+), |$i:ident| $split:expr) => {
        #[cube(launch)]
        fn $name(offsets: &mut [u32], valid: &mut [u32], #[comptime] layout: DescriptorLayout<$coords>, #[comptime] ext: ($(offsets_kernel!(@u32 $e)),+,)) {
            let $i = ABSOLUTE_POS as u32;
            if ($i as usize) < offsets.len() {
                let ($($e),+,) = ext;
                let l = DescriptorLayout::<$coords>::comptime(layout);
                let (o, v) = l.to_source_pos_checked($split);
                offsets[$i as usize] = o as u32;
                valid[$i as usize] = if v { 1u32 } else { 0u32 };
            }
        }
    };
    (@u32 $e:ident) => { u32 };
}

offsets_kernel!(offsets1, u32, (_e0), |i| i);
offsets_kernel!(offsets2, (u32, u32), (_e0, e1), |i| (i / e1, i % e1));
offsets_kernel!(offsets3, (u32, u32, u32), (_e0, e1, e2), |i| (i / (e1 * e2), (i / e2) % e1, i % e2));
offsets_kernel!(offsets4, (u32, u32, u32, u32), (_e0, e1, e2, e3), |i| (
    i / (e1 * e2 * e3),
    (i / (e2 * e3)) % e1,
    (i / e3) % e2,
    i % e3
));

/// The coordinates of a box, row-major.
fn coordinates(ext: &[u32]) -> Vec<Vec<i64>> {
    let total: u32 = ext.iter().product();
    (0..total)
        .map(|mut i| {
            let mut c = vec![0i64; ext.len()];
            for d in (0..ext.len()).rev() {
                c[d] = i64::from(i % ext[d]);
                i /= ext[d];
            }
            c
        })
        .collect()
}

/// Runs the kernel of `desc`'s rank over the box one wider than its
/// lengths and compares every answer with cktile's; returns the index type
/// used, or `None` when the layout refused the descriptor (checked to be
/// exactly the descriptors whose values fit no 32-bit index).
fn check(client: &Client, desc: Descriptor, what: &str) -> Option<IndexType> {
    let lengths = desc.lengths();
    let ext: Vec<u32> = lengths.as_slice().iter().map(|&l| u32::try_from(l + 1).unwrap()).collect();
    let coords = coordinates(&ext);
    let n = coords.len();
    let (offsets, valid) = (zeros(client, n), zeros(client, n));
    let cubes = u32::try_from(n.div_ceil(64)).unwrap();
    let (count, dim) = (CubeCount::Static(cubes, 1, 1), CubeDim::new_1d(64));
    let (o, v) = (buffer(&offsets, n), buffer(&valid, n));
    let index = match ext.len() {
        1 => {
            let l = DescriptorLayout::<u32>::new(desc);
            let l = refused_exactly(l, &desc, what)?;
            offsets1::launch(client, count, dim, o, v, l, (ext[0],));
            l.index_type()
        }
        2 => {
            let l = refused_exactly(DescriptorLayout::<(u32, u32)>::new(desc), &desc, what)?;
            offsets2::launch(client, count, dim, o, v, l, (ext[0], ext[1]));
            l.index_type()
        }
        3 => {
            let l = refused_exactly(DescriptorLayout::<(u32, u32, u32)>::new(desc), &desc, what)?;
            offsets3::launch(client, count, dim, o, v, l, (ext[0], ext[1], ext[2]));
            l.index_type()
        }
        4 => {
            let l = refused_exactly(DescriptorLayout::<(u32, u32, u32, u32)>::new(desc), &desc, what)?;
            offsets4::launch(client, count, dim, o, v, l, (ext[0], ext[1], ext[2], ext[3]));
            l.index_type()
        }
        r => panic!("{what}: rank {r}"),
    };
    let (got, ok) = (read_u32(client, offsets), read_u32(client, valid));
    for (i, c) in coords.iter().enumerate() {
        let inside = c.iter().zip(lengths.as_slice()).all(|(&x, &l)| x < l);
        let expected_valid = desc.offset_if_valid(c).is_some();
        assert_eq!(ok[i] == 1, expected_valid, "{what}: {desc}: validity of {c:?}");
        if inside {
            // Inside the lengths every offset is CK's, padded ones too
            // (as the kernel's 32-bit value).
            let expected = desc.calculate_offset(c) as u32;
            assert_eq!(got[i], expected, "{what}: {desc}: offset of {c:?} ({index:?})");
        }
    }
    Some(index)
}

/// `l`, or `None` after checking that the refusal is the range one and
/// that the descriptor's values indeed fit no 32-bit index.
fn refused_exactly<C: cktile_cubecl::TopCoordinates>(
    l: Result<DescriptorLayout<C>, cktile_cubecl::Error>,
    desc: &Descriptor,
    what: &str,
) -> Option<DescriptorLayout<C>> {
    match l {
        Ok(l) => Some(l),
        Err(cktile_cubecl::Error::Range { low, high }) => {
            let (l2, h2) = cktile_core::descriptor::bounds::forward_range(desc);
            assert_eq!((low, high), (l2, h2), "{what}");
            assert!(
                low < i128::from(i32::MIN) || high > i128::from(u32::MAX) || (low < 0 && high > i128::from(i32::MAX))
            );
            None
        }
        Err(e) => panic!("{what}: {desc}: {e}"),
    }
}

#[test]
fn random_chains_of_every_kind_give_cktiles_offsets() {
    let client = client();
    let config = ChainConfig { max_elements: 512, ..ChainConfig::default() };
    let mut by_type: BTreeMap<String, u32> = BTreeMap::new();
    let mut kinds: BTreeMap<String, u32> = BTreeMap::new();
    for seed in 0..240u64 {
        let d = chain(seed, &config);
        let used = check(&client, d, &format!("seed {seed}"));
        *by_type.entry(format!("{used:?}")).or_default() += 1;
        for stage in d.stages() {
            for item in stage.items() {
                *kinds.entry(format!("{:?}", item.transform().kind())).or_default() += 1;
            }
        }
    }
    // Every kind of the list is drawn, and both index types are used.
    for k in Kind::ALL {
        assert!(kinds.get(&format!("{k:?}")).copied().unwrap_or(0) > 0, "{k:?} never drawn: {kinds:?}");
    }
    assert!(by_type.get("Some(U32)").copied().unwrap_or(0) > 100, "{by_type:?}");
    assert!(by_type.get("Some(I32)").copied().unwrap_or(0) > 10, "{by_type:?}");
}

#[test]
fn ck_blocks_give_cktiles_offsets() {
    let client = client();
    use cktile_analysis::layouts::ck;
    let blocks = [
        ("xor_preshuffle(32,64,8)", ck::xor_preshuffle(32, 64, 8)),
        ("universal_a(128,32,8,2,32,Fixed2025)", ck::universal_a(128, 32, 8, 2, 32, ck::UnmergeOrder::Fixed2025)),
        ("naive 64x64 padded by 8", Descriptor::naive(&[64, 64], &[72, 1]).map_err(Into::into)),
        ("the GEMM's typed LdsChainOf<128, 32>", Ok(common::descriptor::<Typed<LdsChainOf<128, 32>>>())),
    ];
    for (name, d) in blocks {
        assert_eq!(check(&client, d.unwrap(), name), Some(IndexType::U32), "{name}");
    }
    // The typed GEMM block is CK's universal A block, offset for offset.
    let (typed, universal) = (
        common::descriptor::<Typed<LdsChainOf<128, 32>>>(),
        ck::universal_a(128, 32, 8, 2, 32, ck::UnmergeOrder::Fixed2025).unwrap(),
    );
    for m in 0..128 {
        for k in 0..32 {
            assert_eq!(typed.calculate_offset(&[m, k]), universal.calculate_offset(&[m, k]), "({m}, {k})");
        }
    }
    // The typed layout and the host evaluation agree with the hand formula.
    let l = CkLayout::<XorBlock>::new();
    for (m, k) in [(0u32, 0u32), (3, 9), (31, 63), (17, 40)] {
        assert_eq!(l.to_source_pos((m, k)) as i64, common::xor_block_offset(i64::from(m), i64::from(k)));
    }
}
