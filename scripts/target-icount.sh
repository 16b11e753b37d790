#!/usr/bin/env bash
# Zero-cost proof of the typed descriptors: compiles the no_std
# proof kernels (perf/kernels: typed_* kernels and their hand-written hand_*
# twins) for amdgcn gfx942 and nvptx sm_90 (nightly, -Zbuild-std=core) and
# for x86_64 (stable, the default release profile), counts the instructions
# of every exported function and fails when a typed kernel exceeds its twin
# by more than 10% + 4 instructions, calls out, or uses scratch / local
# memory or spills (perf/kernels/icount.py). First, on the host, every typed
# kernel must compute its twin's offsets (perf/kernels' test, in its optimised and
# overflow-checked profile host-test), so the counts
# compare like with like.
#
# Usage: scripts/target-icount.sh [TARGET...]   (default: amdgcn nvptx x86_64)
# Writes the table to perf/kernels/results.md (also printed).
#
# The GPU targets build as a kernel author's crate should (the guide's
# "In a GPU kernel"): panic = "immediate-abort" for the whole build, core
# included (a panic, `.unwrap()`'s included, is a trap: no call, no
# scratch), and the entry points' 256-thread launch bound from
# launch-bounds.TARGET.csv through LLVM's forceattrs pass (Rust has no
# attribute for it; without it amdgcn caps a kernel at 128 VGPRs).
#
# The GPU targets build with a pinned nightly (CKTILE_NIGHTLY, default
# below): the counts are the compiler's as much as ours (nightly 2026-05-19
# put the GEMM paths in 312 bytes of scratch, 852 instructions against
# 357), so a new nightly is a deliberate change: CKTILE_NIGHTLY=nightly
# scripts/target-icount.sh tries the newest.
set -euo pipefail
NIGHTLY=${CKTILE_NIGHTLY:-nightly-2026-10-29}
cd "$(dirname "$0")/../perf/kernels"
TARGETS=${*:-"amdgcn nvptx x86_64"}
cargo test --quiet --profile host-test >/dev/null
args=()
stamp=$(mktemp)
# Each target build below touches src/lib.rs so that its asm is written; its
# own time comes back at the end, so the host-test build above stays fresh for
# the next cargo in that profile (gpu/gemm.sh's host test rebuilt it for 50 s
# in CI).
lib_time=$(stat -c %Y src/lib.rs)
trap 'rm -f "$stamp"; touch -d "@$lib_time" src/lib.rs' EXIT
# The asm of this build (newer toolchains write it under build/, older ones under deps/).
newest() {
  local f
  f=$(find "$1" -name 'cktile_kernels-*.s' -newer "$stamp" -printf '%T@ %p\n' | sort -n | tail -1 | cut -d' ' -f2-)
  if [ -z "$f" ]; then
    echo "no new assembly under $1" >&2
    exit 1
  fi
  echo "$f"
}
for t in $TARGETS; do
  touch src/lib.rs # always recompile the kernels, so their asm is written
  case $t in
    amdgcn | nvptx)
      rustup toolchain install "$NIGHTLY" --profile minimal >/dev/null 2>&1 || true
      rustup component add rust-src --toolchain "$NIGHTLY" >/dev/null 2>&1
      # nvptx: PTX ISA 8.4, the first with mma.sync's 8-bit floats (.e4m3, .e5m2).
      if [ "$t" = amdgcn ]; then triple=amdgcn-amd-amdhsa cpu=gfx942 features=; else triple=nvptx64-nvidia-cuda cpu=sm_90 features=-Ctarget-feature=+ptx84; fi
      # The asm is written before any final link (a linker for the target
      # may be missing; this crate is a library, so none is run).
      RUSTFLAGS="-Ctarget-cpu=$cpu $features -Zunstable-options -Cpanic=immediate-abort" \
        cargo "+$NIGHTLY" rustc --quiet --release -Zbuild-std=core --target "$triple" -- --emit=asm \
        -Cpasses=forceattrs "-Cllvm-args=-forceattrs-csv-path=$PWD/launch-bounds.$t.csv"
      args+=("$t=$(newest "target/$triple/release")")
      ;;
    x86_64)
      cargo rustc --quiet --release -- --emit=asm
      args+=("x86_64=$(newest target/release)")
      ;;
    *)
      echo "unknown target $t (amdgcn, nvptx, x86_64)" >&2
      exit 2
      ;;
  esac
done
python3 icount.py "${args[@]}" --markdown results.md
