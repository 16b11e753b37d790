#!/usr/bin/env bash
# CK's GEMM data path on an NVIDIA GPU: the proof
# kernels of perf/kernels/src/entry.rs (three configurations, the typed forms
# and their hand-written twins), run, checked register by register and timed.
#
# Usage: gpu/gemm.sh [--build-only]
#
#  1. Build (where cargo is): perf/kernels' host test (every body equal to its
#     twins, the probes' records giving the accumulators), the PTX with the
#     probe kernels (feature `probe`) built as scripts/target-icount.sh builds
#     the proof kernels (pinned nightly, sm_90, panic = "immediate-abort",
#     the launch bounds), and the host descriptors' kernel arguments of every
#     shape (examples/gemm_args.rs). Into the output folder: gemm.ptx,
#     args.txt, build.txt. With CKTILE_GPU_GEMM_PREBUILT set, that folder
#     (made by --build-only elsewhere) is copied in instead.
#  2. Check, without a GPU (gpu/gemm.py check): sm_90, PTX ISA <= 9.0, every
#     kernel an entry with no local memory and no call, the policies' numbers
#     equal the reference's, every shape's arguments. --build-only stops here.
#  3. With a GPU (python3 with CuPy and numpy; ptxas, cuobjdump and ncu on PATH
#     or in /usr/local/cuda/bin): ptxas -O3 -v to gemm.cubin and its SASS;
#     every kernel on every check shape from the PTX and from the cubin, every
#     operand register and accumulator against the reference (results-*.md);
#     then the timing shape with CUDA events (events.txt) and under Nsight
#     Compute (ncu.csv), joined into timing.md.
#
# Environment:
#   CKTILE_GPU_GEMM_OUT       the output folder (default target/gpu-gemm)
#   CKTILE_GPU_GEMM_PREBUILT  a folder written by --build-only, used instead of building
#   CKTILE_NIGHTLY            the nightly building the PTX (default: scripts/target-icount.sh's)
# Exit status: 0 when everything ran and matched; 1 on a difference or a
# failed step; 3 when no GPU was found (after steps 1 and 2).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT_DIR=${CKTILE_GPU_GEMM_OUT:-target/gpu-gemm}
PREBUILT=${CKTILE_GPU_GEMM_PREBUILT:-}
NIGHTLY=${CKTILE_NIGHTLY:-$(sed -n 's/^NIGHTLY=\${CKTILE_NIGHTLY:-\(.*\)}$/\1/p' scripts/target-icount.sh)}
build_only=0
case "${1:-}" in
  --build-only) build_only=1 ;;
  "") ;;
  *)
    echo "usage: gpu/gemm.sh [--build-only]" >&2
    exit 2
    ;;
esac
mkdir -p "$OUT_DIR"
FILES="gemm.ptx args.txt build.txt"

have_gpu=0
if [ "$build_only" = 0 ]; then
  if python3 gpu/gemm.py probe; then
    have_gpu=1
  else
    echo "gpu/gemm.sh: no GPU found: building and checking only (steps 1 and 2), then exit 3" >&2
  fi
fi

build() {
  local build_dir stamp ptx
  # perf/kernels' own target directory, which scripts/target-icount.sh fills: the
  # dependencies built for the same target and flags are reused (only the kernels
  # crate is built again, with feature `probe`).
  build_dir="$(pwd)/perf/kernels/target"
  rustup toolchain install "$NIGHTLY" --profile minimal >/dev/null 2>&1 || true
  rustup component add rust-src --toolchain "$NIGHTLY" >/dev/null 2>&1
  stamp=$(mktemp)
  (
    cd perf/kernels
    # The bodies on the host first: a wrong kernel fails here, before any GPU time is spent.
    # (The build of scripts/target-icount.sh's own host test, reused: profile host-test.)
    cargo test --quiet --profile host-test --target-dir "$build_dir" entry
    # Always recompile, so the asm is written; src/lib.rs gets its own time back after,
    # so the other profiles' builds stay fresh (as scripts/target-icount.sh does).
    lib_time=$(stat -c %Y src/lib.rs)
    trap 'touch -d "@$lib_time" src/lib.rs' EXIT
    touch src/lib.rs
    RUSTFLAGS="-Ctarget-cpu=sm_90 -Ctarget-feature=+ptx84 -Zunstable-options -Cpanic=immediate-abort" \
      cargo "+$NIGHTLY" rustc --quiet --release -Zbuild-std=core --target nvptx64-nvidia-cuda \
      --features probe --target-dir "$build_dir" -- --emit=asm \
      -Cpasses=forceattrs "-Cllvm-args=-forceattrs-csv-path=$PWD/launch-bounds.nvptx.csv"
  )
  ptx=$(find "$build_dir/nvptx64-nvidia-cuda/release" -name 'cktile_kernels-*.s' -newer "$stamp" \
    -printf '%T@ %p\n' | sort -n | tail -1 | cut -d' ' -f2-)
  rm -f "$stamp"
  if [ -z "$ptx" ]; then
    echo "gpu/gemm.sh: no new PTX under $build_dir" >&2
    exit 1
  fi
  cp "$ptx" "$OUT_DIR/gemm.ptx"
  python3 gpu/gemm.py shapes |
    (cd perf/kernels && cargo run --quiet --release --target-dir "$build_dir" --features host --example gemm_args) \
      >"$OUT_DIR/args.txt"
  {
    echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- perf/kernels src transforms 2>/dev/null || echo ' (with uncommitted changes)')"
    echo "rustc: $(rustc "+$NIGHTLY" -V)"
    echo "flags: -Ctarget-cpu=sm_90 -Ctarget-feature=+ptx84 -Cpanic=immediate-abort -Zbuild-std=core --features probe --emit=asm, launch-bounds.nvptx.csv"
    echo "built: $(date -u +%Y-%m-%dT%H:%MZ)"
  } >"$OUT_DIR/build.txt"
  echo "gpu/gemm.sh: built $OUT_DIR/gemm.ptx and $OUT_DIR/args.txt"
}

if [ -n "$PREBUILT" ]; then
  for f in $FILES; do
    if [ ! -e "$PREBUILT/$f" ]; then
      echo "gpu/gemm.sh: $PREBUILT/$f is missing (CKTILE_GPU_GEMM_PREBUILT must be a folder written by gpu/gemm.sh --build-only)" >&2
      exit 1
    fi
  done
  if [ "$(cd "$PREBUILT" && pwd -P)" != "$(cd "$OUT_DIR" && pwd -P)" ]; then
    for f in $FILES; do cp "$PREBUILT/$f" "$OUT_DIR/"; done
  fi
  echo "gpu/gemm.sh: prebuilt $PREBUILT ($(tr '\n' ';' <"$OUT_DIR/build.txt"))"
elif command -v cargo >/dev/null 2>&1; then
  build
else
  echo "gpu/gemm.sh: no cargo here: run gpu/gemm.sh --build-only where cargo is and point" >&2
  echo "  CKTILE_GPU_GEMM_PREBUILT at the folder it wrote (CKTILE_GPU_GEMM_OUT, default target/gpu-gemm)" >&2
  exit 1
fi

python3 gpu/gemm.py check "$OUT_DIR"
if [ "$build_only" = 1 ]; then
  exit 0
fi
if [ "$have_gpu" = 0 ]; then
  echo "gpu/gemm.sh: no GPU found: the kernels were built and checked but did not run" >&2
  exit 3
fi

PATH="$PATH:/usr/local/cuda/bin"
status=0
rm -f "$OUT_DIR"/gemm.cubin "$OUT_DIR"/gemm.sass "$OUT_DIR"/ptxas.log "$OUT_DIR"/results-*.md \
  "$OUT_DIR"/events*.txt "$OUT_DIR"/ncu.csv "$OUT_DIR"/timing.md
echo "gpu/gemm.sh: $(ptxas --version | tail -1)"
if ptxas -arch=sm_90 -O3 -v "$OUT_DIR/gemm.ptx" -o "$OUT_DIR/gemm.cubin" 2>"$OUT_DIR/ptxas.log"; then
  cuobjdump -sass "$OUT_DIR/gemm.cubin" >"$OUT_DIR/gemm.sass" || status=1
else
  echo "gpu/gemm.sh: ptxas refused the PTX:" >&2
  cat "$OUT_DIR/ptxas.log" >&2
  rm -f "$OUT_DIR/gemm.cubin"
  status=1
fi
# One process a module: a trap leaves the CUDA context unusable.
python3 gpu/gemm.py run "$OUT_DIR" --module ptx || status=1
if [ -f "$OUT_DIR/gemm.cubin" ]; then
  python3 gpu/gemm.py run "$OUT_DIR" --module cubin || status=1
fi
python3 gpu/gemm.py time "$OUT_DIR" || status=1
# Nsight Compute with the clocks as found (the card's settings are left alone).
ncu --clock-control none --csv --log-file "$OUT_DIR/ncu.csv" -k 'regex:^(typed|hand)_kernel_' \
  --print-units base --metrics gpu__time_duration.sum,smsp__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum \
  python3 gpu/gemm.py time "$OUT_DIR" --warmup 1 --repeat 3 --warm-seconds 0 --events events-ncu.txt || status=1
python3 gpu/gemm.py report "$OUT_DIR" || status=1
echo "gpu/gemm.sh: outputs in $OUT_DIR (results-ptx.md, results-cubin.md, events.txt, ncu.csv, timing.md, gemm.sass, ptxas.log)"
exit "$status"
