//! The kernel of the guide's chapter "cktile in cubecl": a 128 x 32 tile
//! staged through shared memory in CK's universal-GEMM A block layout (as
//! CK Tile lays it out for gfx942, 16-bit elements), written row by row and
//! read back column by column, every offset from `CkLayout`.
//!
//! The layout carries a bank check: the 16x16 MFMA's 128-bit operand reads
//! on gfx942, counted by cktile while this file compiles. The run itself
//! is on whatever wgpu finds (Mesa's lavapipe where there is no GPU), with
//! 32-bit values: offsets count elements, so they are the same for any
//! element type, and the check counts the fp16 block the real kernel holds.
//!
//! ```text
//! cd cubecl && cargo run --example lds_block
//! ```

use cktile_core::analyzer::{Op, Pattern, arch};
use cktile_core::layouts::ck::{UnmergeOrder, universal_a};
use cktile_core::{Descriptor, StaticDescriptor};
use cktile_cubecl::{Access, Check, CkLayout, Reads};
use cubecl::prelude::*;
use cubecl::std::tensor::layout::{Layout, LayoutExpand};

const M: u32 = 128;
const K: u32 = 32;
const UNITS: u32 = 256;

/// CK Tile's universal GEMM A block: 128 x 32, KPack 8, 2-byte elements,
/// 32 banks (CK's choice for gfx942: MLdsLayer 2).
struct ABlock;
impl StaticDescriptor for ABlock {
    const DESCRIPTOR: Descriptor = match universal_a(M as usize, K as usize, 8, 2, 32, UnmergeOrder::Fixed2025) {
        Ok(d) => d,
        Err(e) => panic!("{}", e.summary()),
    };
}

/// The shared memory the block takes, in elements.
const LDS: usize = ABlock::DESCRIPTOR.element_space_size() as usize;

/// gfx942's MFMA 16x16 operand reads, 128 bits a lane.
struct MfmaReads;
impl Reads for MfmaReads {
    const CHECK: Option<Check> = Some(Check {
        arch: &arch::GFX942,
        element_bytes: 2,
        access: Access::Pattern(Pattern::Mfma { mdim: 16, op: Op::DsRead { bits: 128 } }),
    });
}

/// The block's layout, checked.
type ALayout = CkLayout<ABlock, (u32, u32), MfmaReads>;

/// Stages `input` (row-major M x K) through shared memory in CK's layout
/// and writes it out column-major: `out[k * M + m] = input[m * K + k]`.
#[cube(launch)]
fn stage_through_lds(input: &[f32], out: &mut [f32]) {
    let layout = ALayout::new();
    let mut lds = Shared::<[f32]>::new_slice(LDS);
    for j in 0..M * K / UNITS {
        let i = UNIT_POS + j * UNITS;
        lds[layout.to_source_pos((i / K, i % K))] = input[i as usize];
    }
    sync_cube();
    for j in 0..M * K / UNITS {
        let i = UNIT_POS + j * UNITS;
        out[i as usize] = lds[layout.to_source_pos((i % M, i / M))];
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let client = cubecl::Device::default().client();
    let n = (M * K) as usize;
    let data: Vec<f32> = (0..n).map(|v| v as f32).collect();
    let input = client.create_from_slice(f32::as_bytes(&data));
    let out = client.empty(n * size_of::<f32>());
    // SAFETY: both handles hold `n` f32s, as created just above.
    #[allow(unsafe_code)]
    let (input_arg, out_arg) =
        unsafe { (BufferArg::from_raw_parts(input.clone(), n), BufferArg::from_raw_parts(out.clone(), n)) };
    stage_through_lds::launch(&client, CubeCount::Static(1, 1, 1), CubeDim::new_1d(UNITS), input_arg, out_arg);
    let got = f32::from_bytes(&client.read_one(out)?).to_vec();
    let wrong = (0..n).filter(|&i| got[i] != data[(i % M as usize) * K as usize + i / M as usize]).count();
    println!(
        "{M} x {K} through CK's A block ({LDS} elements of shared memory, index type {:?}): {} of {n} elements transposed right",
        ALayout::INDEX_TYPE,
        n - wrong
    );
    if wrong > 0 {
        return Err(format!("{wrong} of {n} elements wrong").into());
    }
    Ok(())
}
