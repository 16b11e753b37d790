#!/usr/bin/env bash
# A Rust kernel on the GPU: cktile's typed descriptors compiled to
# PTX (gpu/kernel), run on an NVIDIA GPU, every offset compared with cktile's.
#
# Usage: gpu/kernel.sh [--build-only]
#
#  1. Build (where cargo is): the host test (gpu/kernel/tests/host.rs: every
#     kernel's per-thread work on x86_64 against the catalogue), the PTX
#     (nightly, -Zbuild-std=core, nvptx64-nvidia-cuda, -Ctarget-cpu=sm_90,
#     --emit=asm) and the expected offsets (`cktile offsets --json` of each
#     case of gpu/kernel/cases.txt), into the output folder:
#     kernels.ptx, cases.txt, expected/NAME.json, build.txt.
#     With CKTILE_GPU_KERNEL_PREBUILT set, nothing is built: that folder (made
#     by --build-only elsewhere) is copied in instead. Needed where there is
#     no cargo, e.g. on a GPU machine.
#  2. Check, without a GPU (gpu/kernel.py check): sm_90, PTX ISA <= 9.0, every
#     kernel an entry, nothing external, the twins and the all-static typed
#     kernels flat (no local memory, no call), the expected files' shapes.
#     --build-only stops here.
#  3. With a GPU (CuPy sees a device; python3 with cupy and numpy): ptxas
#     -arch=sm_90 -O3 -v to kernels.cubin and cuobjdump -sass (from PATH or
#     /usr/local/cuda/bin); every kernel launched from the PTX (the driver
#     compiles it) and from the cubin, one process each, every offset
#     compared (results-ptx.md, results-cubin.md);
#     the SASS of each typed kernel next to its twin (sass.md, sass/*.sass).
#
# Environment:
#   CKTILE_GPU_KERNEL_OUT       the output folder (default target/gpu-kernel)
#   CKTILE_GPU_KERNEL_PREBUILT  a folder written by --build-only, used instead
#                               of building
# Exit status: 0 when everything ran and matched; 1 on a difference or a
# failed step; 3 when no GPU was found (after steps 1 and 2).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT_DIR=${CKTILE_GPU_KERNEL_OUT:-target/gpu-kernel}
PREBUILT=${CKTILE_GPU_KERNEL_PREBUILT:-}
# The nightly that builds the PTX: scripts/target-icount.sh's pinned one (CKTILE_NIGHTLY overrides).
NIGHTLY=${CKTILE_NIGHTLY:-$(sed -n 's/^NIGHTLY=\${CKTILE_NIGHTLY:-\(.*\)}$/\1/p' scripts/target-icount.sh)}
build_only=0
case "${1:-}" in
  --build-only) build_only=1 ;;
  "") ;;
  *)
    echo "usage: gpu/kernel.sh [--build-only]" >&2
    exit 2
    ;;
esac
mkdir -p "$OUT_DIR"

# Say at once whether the kernels will run: without a GPU the build and the
# checks (steps 1 and 2, a few minutes) still run, and the script exits 3.
have_gpu=0
if [ "$build_only" = 0 ]; then
  if python3 gpu/kernel.py probe; then
    have_gpu=1
  else
    echo "gpu/kernel.sh: no GPU found: building and checking the kernels only (steps 1 and 2), then exit 3" >&2
  fi
fi

build() {
  if ! cargo "+$NIGHTLY" --version >/dev/null 2>&1; then
    echo "gpu/kernel.sh: building the PTX needs Rust $NIGHTLY with rust-src:" >&2
    echo "  rustup toolchain install $NIGHTLY --profile minimal --component rust-src" >&2
    exit 1
  fi
  local build_dir stamp ptx
  build_dir="$(pwd)/target/gpu-kernel-build"
  stamp=$(mktemp)
  # The kernels' per-thread work on the host first: a wrong expectation or
  # kernel fails here, before any GPU time is spent.
  (cd gpu/kernel && cargo test --quiet --target-dir "$build_dir" --test host)
  # -Zcross-crate-inline-threshold=always: the non-generic library functions a
  # device-built descriptor's validation calls are compiled into this module,
  # so the PTX is self-contained (the driver links no other module).
  touch gpu/kernel/src/lib.rs # always recompile, so the asm is written
  (cd gpu/kernel && RUSTFLAGS="-Ctarget-cpu=sm_90 -Zcross-crate-inline-threshold=always" \
    cargo "+$NIGHTLY" rustc --quiet --release -Zbuild-std=core --target nvptx64-nvidia-cuda \
    --target-dir "$build_dir" -- --emit=asm)
  ptx=$(find "$build_dir/nvptx64-nvidia-cuda/release" -name 'cktile_gpu_kernel-*.s' -newer "$stamp" \
    -printf '%T@ %p\n' | sort -n | tail -1 | cut -d' ' -f2-)
  rm -f "$stamp"
  if [ -z "$ptx" ]; then
    echo "gpu/kernel.sh: no new PTX under $build_dir" >&2
    exit 1
  fi
  cp "$ptx" "$OUT_DIR/kernels.ptx"
  cp gpu/kernel/cases.txt "$OUT_DIR/cases.txt"
  cargo build --quiet --bin cktile
  local ck="${CARGO_TARGET_DIR:-target}/debug/cktile" name spec
  rm -rf "$OUT_DIR/expected"
  mkdir -p "$OUT_DIR/expected"
  while IFS=$'\t' read -r name spec; do
    "$ck" offsets --json "$spec" >"$OUT_DIR/expected/$name.json"
  done < <(python3 gpu/kernel.py specs gpu/kernel/cases.txt)
  {
    echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- gpu/kernel perf/kernels src transforms 2>/dev/null || echo ' (with uncommitted changes)')"
    echo "rustc: $(rustc "+$NIGHTLY" -V)"
    echo "flags: -Ctarget-cpu=sm_90 -Zcross-crate-inline-threshold=always -Zbuild-std=core --emit=asm"
    echo "built: $(date -u +%Y-%m-%dT%H:%MZ)"
  } >"$OUT_DIR/build.txt"
  echo "gpu/kernel.sh: built $OUT_DIR/kernels.ptx and $(ls "$OUT_DIR/expected" | wc -l) expected files"
}

if [ -n "$PREBUILT" ]; then
  for f in kernels.ptx cases.txt expected build.txt; do
    if [ ! -e "$PREBUILT/$f" ]; then
      echo "gpu/kernel.sh: $PREBUILT/$f is missing (CKTILE_GPU_KERNEL_PREBUILT must be a folder written by gpu/kernel.sh --build-only)" >&2
      exit 1
    fi
  done
  if [ "$(cd "$PREBUILT" && pwd -P)" != "$(cd "$OUT_DIR" && pwd -P)" ]; then
    rm -rf "$OUT_DIR/expected"
    cp -r "$PREBUILT/kernels.ptx" "$PREBUILT/cases.txt" "$PREBUILT/expected" "$PREBUILT/build.txt" "$OUT_DIR/"
  fi
  if [ "$(cat "$OUT_DIR/cases.txt")" != "$(cat gpu/kernel/cases.txt)" ]; then
    echo "gpu/kernel.sh: note: $PREBUILT/cases.txt differs from gpu/kernel/cases.txt; the prebuilt one is used"
  fi
  echo "gpu/kernel.sh: prebuilt $PREBUILT ($(tr '\n' ';' <"$OUT_DIR/build.txt"))"
elif command -v cargo >/dev/null 2>&1; then
  build
else
  echo "gpu/kernel.sh: no cargo here: run gpu/kernel.sh --build-only where cargo is and point" >&2
  echo "  CKTILE_GPU_KERNEL_PREBUILT at the folder it wrote (CKTILE_GPU_KERNEL_OUT, default target/gpu-kernel)" >&2
  exit 1
fi

python3 gpu/kernel.py check "$OUT_DIR"
if [ "$build_only" = 1 ]; then
  exit 0
fi

if [ "$have_gpu" = 0 ]; then
  echo "gpu/kernel.sh: no GPU found: the kernels were built and checked but did not run" >&2
  exit 3
fi
PATH="$PATH:/usr/local/cuda/bin"
status=0
rm -rf "$OUT_DIR/kernels.cubin" "$OUT_DIR/kernels.sass" "$OUT_DIR/ptxas.log" "$OUT_DIR"/results*.md "$OUT_DIR/sass" "$OUT_DIR/sass.md"
if command -v ptxas >/dev/null 2>&1; then
  echo "gpu/kernel.sh: $(ptxas --version | tail -1)"
  if ptxas -arch=sm_90 -O3 -v "$OUT_DIR/kernels.ptx" -o "$OUT_DIR/kernels.cubin" 2>"$OUT_DIR/ptxas.log"; then
    cuobjdump -sass "$OUT_DIR/kernels.cubin" >"$OUT_DIR/kernels.sass" || status=1
  else
    echo "gpu/kernel.sh: ptxas refused the PTX:" >&2
    cat "$OUT_DIR/ptxas.log" >&2
    rm -f "$OUT_DIR/kernels.cubin"
    status=1
  fi
else
  echo "gpu/kernel.sh: no ptxas (PATH, /usr/local/cuda/bin): only the driver's compilation of the PTX runs" >&2
  status=1
fi
# One process a module: a launch that fails (a trap leaves the CUDA context
# unusable) cannot spoil the other module's launches.
python3 gpu/kernel.py run "$OUT_DIR" --module ptx || status=1
if [ -f "$OUT_DIR/kernels.cubin" ]; then
  python3 gpu/kernel.py run "$OUT_DIR" --module cubin || status=1
fi
if [ -f "$OUT_DIR/kernels.sass" ]; then
  python3 gpu/kernel.py sass "$OUT_DIR" || status=1
fi
echo "gpu/kernel.sh: outputs in $OUT_DIR (results-ptx.md, results-cubin.md, sass.md, sass/, kernels.cubin, ptxas.log)"
exit "$status"
