//! The host side of the GPU check (`gpu/gemm.sh`): for each line
//! `CONFIG M N K STRIDE` on stdin (CONFIG one of `k16`, `k8`, `64`, the
//! proof kernels' policies), the kernel-argument slots of the A and B DRAM
//! descriptors the `*_host` kernels take, or why the policy refuses the
//! shape. First, one `policy` line per configuration: the policy's numbers,
//! which `gpu/gemm.py` holds equal to its own reference's.
//!
//! Output lines: `policy CONFIG BLOCK M N K M_WARPS N_WARPS WARP_M WARP_K
//! M_ITERS N_ITERS K_ITERS`, then per input `args CONFIG M N K STRIDE A
//! s0..s15 B s0..s15` or `refused CONFIG M N K STRIDE: MESSAGE`.

use cktile_core::ops::gemm::GemmPolicy;
use cktile_kernels::entry::{Tile64K16, Tile128K8, Tile128K16};
use std::io::BufRead;
use std::process::ExitCode;

fn policy<P: GemmPolicy>(name: &str) -> String {
    format!(
        "policy {name} {} {} {} {} {} {} {} {} {} {} {}",
        P::BLOCK_SIZE,
        P::M_PER_BLOCK,
        P::N_PER_BLOCK,
        P::K_PER_BLOCK,
        P::M_WARPS,
        P::N_WARPS,
        P::WARP_M,
        P::WARP_K,
        P::M_ITERS,
        P::N_ITERS,
        P::K_ITERS
    )
}

fn args<P: GemmPolicy>(m: usize, n: usize, k: usize, stride: usize) -> Result<String, cktile_core::Error> {
    let a = P::make_a_dram_view::<u16>(&[], m, k, stride)?.descriptor().to_kernel_arg();
    let b = P::make_b_dram_view::<u16>(&[], n, k, stride)?.descriptor().to_kernel_arg();
    let slots = |s: &[u64]| s.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
    Ok(format!("A {} B {}", slots(a.slots()), slots(b.slots())))
}

fn main() -> ExitCode {
    println!("{}", policy::<Tile128K16>("k16"));
    println!("{}", policy::<Tile128K8>("k8"));
    println!("{}", policy::<Tile64K16>("64"));
    for (number, line) in std::io::stdin().lock().lines().enumerate() {
        let Ok(line) = line else {
            eprintln!("gemm_args: stdin is not UTF-8 text");
            return ExitCode::FAILURE;
        };
        let fields: Vec<&str> = line.split_whitespace().collect();
        let sizes: Option<Vec<usize>> = fields.get(1..).map(|f| f.iter().filter_map(|x| x.parse().ok()).collect());
        let (config, [m, n, k, stride]) = match (fields.first(), sizes.as_deref()) {
            (Some(c), Some(&[m, n, k, s])) if fields.len() == 5 => (*c, [m, n, k, s]),
            _ => {
                eprintln!("gemm_args: line {}: {line:?}: expected CONFIG M N K STRIDE", number + 1);
                return ExitCode::FAILURE;
            }
        };
        let result = match config {
            "k16" => args::<Tile128K16>(m, n, k, stride),
            "k8" => args::<Tile128K8>(m, n, k, stride),
            "64" => args::<Tile64K16>(m, n, k, stride),
            other => {
                eprintln!("gemm_args: line {}: configuration {other:?}: expected k16, k8 or 64", number + 1);
                return ExitCode::FAILURE;
            }
        };
        match result {
            Ok(slots) => println!("args {config} {m} {n} {k} {stride} {slots}"),
            Err(e) => println!("refused {config} {m} {n} {k} {stride}: {e}"),
        }
    }
    ExitCode::SUCCESS
}
