//! Sets `cfg(always_inline)` for the GPU targets (amdgcn, nvptx64) and for
//! optimised builds (`opt-level` 2, 3, "s" or "z": release, benchmarks,
//! the x86_64 proof kernels).
//!
//! The port's small functions are `#[inline(always)]` there: in a kernel a
//! call left behind is a cliff (registers spilled across it, no constant
//! folding through it), and the x86_64 proof kernels are held to their
//! twins. In the tests' builds (`opt-level` 0 or 1) they are `#[inline]`:
//! forcing them there tripled the compile time and bought no speed
//! (`tests/gemm_emulated.rs`: 94 s to build before, 33 s after, the same
//! 19 s to run).
fn main() {
    println!("cargo::rustc-check-cfg=cfg(always_inline)");
    println!("cargo::rerun-if-changed=build.rs");
    let var = |name| std::env::var(name).unwrap_or_default();
    let gpu = matches!(var("CARGO_CFG_TARGET_ARCH").as_str(), "amdgpu" | "nvptx64");
    let optimised = !matches!(var("OPT_LEVEL").as_str(), "0" | "1");
    if gpu || optimised {
        println!("cargo::rustc-cfg=always_inline");
    }
}
