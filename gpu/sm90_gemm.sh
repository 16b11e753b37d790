#!/usr/bin/env bash
# The whole universal GEMM on an NVIDIA GPU: the sm_90 kernels of
# perf/kernels/src/gemm.rs (`typed_gemm_mma_*`: CK's universal GEMM policy
# over NVIDIA's warp GEMM, `MmaSync`, and their hand twins) and of
# examples/gemm_kernels.rs (`gemm_sm90_*`: fp16, bf16, E4M3, int8), run,
# checked against the host and timed against cuBLAS.
#
# Usage: gpu/sm90_gemm.sh [--build-only]
#
#  1. Build (where cargo is): the PTX, as scripts/target-icount.sh builds the
#     proof kernels (pinned nightly, sm_90, panic = "immediate-abort", the
#     launch bounds), into the output folder: gemm.ptx, build.txt. With
#     CKTILE_GPU_SM90_PREBUILT set, that folder (made by --build-only
#     elsewhere) is used instead.
#  2. Check, without a GPU (gpu/sm90_gemm.py check). --build-only stops here.
#  3. With a GPU (python3 with CuPy, numpy and torch; ptxas and ncu on PATH or
#     in /usr/local/cuda/bin): ptxas -O3 -v (ptxas.log: registers, spills);
#     every kernel on every check shape against the host (results.md); the
#     timing shapes with CUDA events, cuBLAS beside (events.txt), and under
#     Nsight Compute (ncu.csv), joined into timing.md.
#
# Environment:
#   CKTILE_GPU_SM90_OUT       the output folder (default target/gpu-sm90-gemm)
#   CKTILE_GPU_SM90_PREBUILT  a folder written by --build-only, used instead of building
#   CKTILE_NIGHTLY            the nightly building the PTX (default: scripts/target-icount.sh's)
# Exit status: 0 when everything ran and matched; 1 on a difference or a
# failed step; 3 when no GPU was found (after steps 1 and 2).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT_DIR=${CKTILE_GPU_SM90_OUT:-target/gpu-sm90-gemm}
PREBUILT=${CKTILE_GPU_SM90_PREBUILT:-}
NIGHTLY=${CKTILE_NIGHTLY:-$(sed -n 's/^NIGHTLY=\${CKTILE_NIGHTLY:-\(.*\)}$/\1/p' scripts/target-icount.sh)}
build_only=0
case "${1:-}" in
  --build-only) build_only=1 ;;
  "") ;;
  *)
    echo "usage: gpu/sm90_gemm.sh [--build-only]" >&2
    exit 2
    ;;
esac
mkdir -p "$OUT_DIR"

if [ -n "$PREBUILT" ]; then
  if [ ! -e "$PREBUILT/gemm.ptx" ]; then
    echo "gpu/sm90_gemm.sh: $PREBUILT/gemm.ptx is missing (run gpu/sm90_gemm.sh --build-only)" >&2
    exit 1
  fi
  if [ "$(cd "$PREBUILT" && pwd -P)" != "$(cd "$OUT_DIR" && pwd -P)" ]; then
    cp "$PREBUILT/gemm.ptx" "$PREBUILT/build.txt" "$OUT_DIR/"
  fi
elif command -v cargo >/dev/null 2>&1; then
  # perf/kernels' own target directory, shared with scripts/target-icount.sh.
  build_dir="$(pwd)/perf/kernels/target"
  rustup toolchain install "$NIGHTLY" --profile minimal >/dev/null 2>&1 || true
  rustup component add rust-src --toolchain "$NIGHTLY" >/dev/null 2>&1
  stamp=$(mktemp)
  (
    cd perf/kernels
    # Always recompile, so the asm is written; src/lib.rs gets its own time back after,
    # so the other profiles' builds stay fresh (as scripts/target-icount.sh does).
    lib_time=$(stat -c %Y src/lib.rs)
    trap 'touch -d "@$lib_time" src/lib.rs' EXIT
    touch src/lib.rs
    RUSTFLAGS="-Ctarget-cpu=sm_90 -Ctarget-feature=+ptx84 -Zunstable-options -Cpanic=immediate-abort" \
      cargo "+$NIGHTLY" rustc --quiet --release -Zbuild-std=core --target nvptx64-nvidia-cuda \
      --target-dir "$build_dir" -- --emit=asm \
      -Cpasses=forceattrs "-Cllvm-args=-forceattrs-csv-path=$PWD/launch-bounds.nvptx.csv"
  )
  ptx=$(find "$build_dir/nvptx64-nvidia-cuda/release" -name 'cktile_kernels-*.s' -newer "$stamp" \
    -printf '%T@ %p\n' | sort -n | tail -1 | cut -d' ' -f2-)
  rm -f "$stamp"
  if [ -z "$ptx" ]; then
    echo "gpu/sm90_gemm.sh: no new PTX under $build_dir" >&2
    exit 1
  fi
  cp "$ptx" "$OUT_DIR/gemm.ptx"
  {
    echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- perf/kernels core transforms 2>/dev/null || echo ' (with uncommitted changes)')"
    echo "rustc: $(rustc "+$NIGHTLY" -V)"
    echo "flags: -Ctarget-cpu=sm_90 -Ctarget-feature=+ptx84 -Cpanic=immediate-abort -Zbuild-std=core --emit=asm, launch-bounds.nvptx.csv"
    echo "built: $(date -u +%Y-%m-%dT%H:%MZ)"
  } >"$OUT_DIR/build.txt"
else
  echo "gpu/sm90_gemm.sh: no cargo here: run gpu/sm90_gemm.sh --build-only where cargo is and point" >&2
  echo "  CKTILE_GPU_SM90_PREBUILT at the folder it wrote" >&2
  exit 1
fi

python3 gpu/sm90_gemm.py check "$OUT_DIR"
if [ "$build_only" = 1 ]; then
  exit 0
fi
if ! python3 gpu/sm90_gemm.py probe; then
  echo "gpu/sm90_gemm.sh: no GPU found: the kernels were built and checked but did not run" >&2
  exit 3
fi

PATH="$PATH:/usr/local/cuda/bin"
status=0
ptxas -arch=sm_90 -O3 -v "$OUT_DIR/gemm.ptx" -o "$OUT_DIR/gemm.cubin" 2>"$OUT_DIR/ptxas.log" || status=1
grep -A2 "typed_gemm_mma" "$OUT_DIR/ptxas.log" || true
python3 gpu/sm90_gemm.py run "$OUT_DIR" || status=1
python3 gpu/sm90_gemm.py time "$OUT_DIR" || status=1
# Nsight Compute with the clocks as found (the card's settings are left alone), profiling the
# GEMMs alone: ours, and cuBLAS's (nvjet, xmma or cutlass kernels), not the script's elementwise ones.
ncu --clock-control none --csv --log-file "$OUT_DIR/ncu.csv" --print-units base --metrics gpu__time_duration.sum \
  --kernel-name 'regex:gemm|nvjet|xmma|cutlass' \
  python3 gpu/sm90_gemm.py time "$OUT_DIR" --warmup 0 --repeat 2 --warm-seconds 0 --events events-ncu.txt || status=1
python3 gpu/sm90_gemm.py report "$OUT_DIR" || status=1
echo "gpu/sm90_gemm.sh: outputs in $OUT_DIR (results.md, events.txt, ncu.csv, timing.md, ptxas.log)"
exit "$status"
