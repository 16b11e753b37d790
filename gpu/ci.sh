#!/usr/bin/env bash
# CI for the GPU harness on a machine without a GPU (called from .ci/run):
#  1. the case list comes from the CLI: at least 40 cases, every layout
#     family and every NVIDIA instruction covered;
#  2. the harness source builds as host C++ (the -DCKTILE_HOST_DRYRUN mode)
#     and its dry run parses the case file, validates every address, and
#     re-counts every case with an independent host emulation of the sm90
#     rules, which must equal cktile's predictions;
#  3. gpu/table.py joins synthetic Nsight Compute CSVs (from the dry run,
#     ncu's per-metric layout; from the predictions, its raw layout) with the
#     predictions, and reports a perturbed counter as a disagreement;
#  4. a malformed case file is rejected;
#  5. where nvcc exists, the real harness builds for sm_90 (and its SASS is
#     checked where cuobjdump exists too).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=target/gpu-ci
# The pinned nightly the GPU-kernel builds use (scripts/target-icount.sh's; .ci/run installs it with rust-src
# before this script runs). Checked by name: a plain `nightly` without rust-src skipped these checks before.
NIGHTLY=${CKTILE_NIGHTLY:-$(sed -n 's/^NIGHTLY=\${CKTILE_NIGHTLY:-\(.*\)}$/\1/p' scripts/target-icount.sh)}
mkdir -p "$OUT"
passed=0

cargo build --quiet --bin cktile
CK="${CARGO_TARGET_DIR:-target}/debug/cktile"
"$CK" gpu-cases >"$OUT/cases.txt"
"$CK" gpu-cases --json >"$OUT/cases.json"
python3 gpu/table.py coverage "$OUT/cases.json" --min 40
passed=$((passed + 1))

g++ -std=c++17 -O1 -Wall -Wextra -Werror -DCKTILE_HOST_DRYRUN -x c++ gpu/harness.cu -o "$OUT/harness-dryrun"
"$OUT/harness-dryrun" "$OUT/cases.txt" --emit-ncu-csv "$OUT/ncu-dryrun.csv" >"$OUT/dryrun.log"
tail -n 1 "$OUT/dryrun.log"
passed=$((passed + 1))

python3 gpu/table.py table "$OUT/cases.json" "$OUT/ncu-dryrun.csv" --out "$OUT/table-dryrun.md" \
  --require-agreement --source "synthetic: harness dry run"
python3 gpu/table.py synthesize "$OUT/cases.json" --layout raw >"$OUT/ncu-raw.csv"
python3 gpu/table.py table "$OUT/cases.json" "$OUT/ncu-raw.csv" --out "$OUT/table-raw.md" --require-agreement
python3 gpu/table.py synthesize "$OUT/cases.json" --layout details --perturb 9 >"$OUT/ncu-perturbed.csv"
if python3 gpu/table.py table "$OUT/cases.json" "$OUT/ncu-perturbed.csv" --out "$OUT/table-perturbed.md" \
  --require-agreement 2>/dev/null; then
  echo "gpu/ci.sh: a perturbed counter was not reported as a disagreement" >&2
  exit 1
fi
grep -q "Disagreements: 9 (" "$OUT/table-perturbed.md"
passed=$((passed + 1))

printf 'cktile-gpu-cases 2\ncases 1\ncase 0 ld.shared.b32 1 64 1 1 0 bad\na 2%s\nend\n' "$(printf ' -%.0s' $(seq 31))" \
  >"$OUT/misaligned.txt"
if "$OUT/harness-dryrun" "$OUT/misaligned.txt" >/dev/null 2>"$OUT/misaligned.err"; then
  echo "gpu/ci.sh: a misaligned address was accepted" >&2
  exit 1
fi
grep -q "misaligned address 2" "$OUT/misaligned.err"
passed=$((passed + 1))

if command -v nvcc >/dev/null; then
  nvcc -std=c++17 -O2 -arch=sm_90 -o "$OUT/harness" gpu/harness.cu
  if command -v cuobjdump >/dev/null; then
    cuobjdump -sass "$OUT/harness" >"$OUT/harness.sass"
    python3 gpu/table.py sass "$OUT/harness.sass"
  fi
  passed=$((passed + 1))
else
  echo "gpu/ci.sh: nvcc not found; the real harness build is skipped (the dry run above covers the host code)"
fi
echo "gpu harness checks: $passed passed, 0 failed"

# A Rust kernel on the GPU, without one: gpu/kernel.sh --build-only
# (the host test of gpu/kernel against the catalogue, the PTX, the expected
# offsets from the CLI, and gpu/kernel.py check: sm_90, every entry present,
# self-contained, twins and all-static typed kernels flat), then the run
# path of gpu/kernel.py against a CuPy stand-in, which must pass and must
# report a wrong offset. Needs nightly's rust-src (scripts/target-icount.sh
# installs it in .ci/run).
if rustup component list --toolchain "$NIGHTLY" --installed 2>/dev/null | grep -q '^rust-src'; then
  export PYTHONDONTWRITEBYTECODE=1
  CKTILE_GPU_KERNEL_OUT="$OUT/kernel" gpu/kernel.sh --build-only
  PYTHONPATH=gpu/kernel/tests/fake_cupy python3 gpu/kernel.py run "$OUT/kernel" | tail -n 1
  if FAKE_CUPY_WRONG=typed_a_lds_rt PYTHONPATH=gpu/kernel/tests/fake_cupy \
    python3 gpu/kernel.py run "$OUT/kernel" >"$OUT/kernel-wrong.log"; then
    echo "gpu/ci.sh: a wrong offset from the Rust kernel was not reported" >&2
    exit 1
  fi
  grep -q "typed_a_lds_rt   4095/4096 offsets match, 0 unwritten, 1 wrong" "$OUT/kernel-wrong.log"
  echo "gpu kernel checks: the Rust kernel's PTX built and checked, its run path tested without a GPU"
else
  echo "gpu/ci.sh: no $NIGHTLY rust-src; the Rust kernel's PTX (gpu/kernel.sh --build-only) is skipped"
fi

# CK's GEMM data path on the GPU, without one:
# gpu/gemm.sh --build-only (perf/kernels' host test, the PTX with the probe
# kernels, the host descriptors' arguments, gpu/gemm.py check), then
# gpu/gemm.py's run, time and report against a numpy CuPy stand-in, which
# must pass and must report a planted wrong register.
if rustup component list --toolchain "$NIGHTLY" --installed 2>/dev/null | grep -q '^rust-src'; then
  CKTILE_GPU_GEMM_OUT="$OUT/gemm" gpu/gemm.sh --build-only
  python3 -m venv "$OUT/numpy" && "$OUT/numpy/bin/pip" install --quiet numpy==2.4.6
  PYTHONPATH=gpu/gemm_fake "$OUT/numpy/bin/python" gpu/gemm.py run "$OUT/gemm" --seed 1 | tail -n 1
  PYTHONPATH=gpu/gemm_fake "$OUT/numpy/bin/python" gpu/gemm.py time "$OUT/gemm" --seed 1 --repeat 2 >/dev/null
  "$OUT/numpy/bin/python" gpu/gemm.py report "$OUT/gemm" | grep -q '| `typed_kernel_k8_u64` | `hand_kernel_k8_u64` |'
  if FAKE_CUPY_WRONG=probe_typed_k8_u64 PYTHONPATH=gpu/gemm_fake \
    "$OUT/numpy/bin/python" gpu/gemm.py run "$OUT/gemm" --seed 1 >"$OUT/gemm-wrong.log"; then
    echo "gpu/ci.sh: a wrong register from the GEMM probe was not reported" >&2
    exit 1
  fi
  grep -Eq "probe_typed_k8_u64 +1 wrong, 0 unwritten" "$OUT/gemm-wrong.log"
  echo "gpu gemm checks: the GEMM data path's PTX built and checked, its run, time and report paths tested without a GPU"
  # The whole GEMM on sm_90: its PTX holds every kernel gpu/sm90_gemm.py runs
  # (the example's entry points among them), each with mma.sync, no local
  # memory and no call.
  CKTILE_GPU_SM90_OUT="$OUT/sm90-gemm" gpu/sm90_gemm.sh --build-only
  # ... and no GEMM entry point that it would skip: one renamed must fail the check.
  mkdir -p "$OUT/sm90-renamed"
  sed 's/\.visible \.entry gemm_sm90_int8(/.visible .entry gemm_sm90_int16(/' "$OUT/sm90-gemm/gemm.ptx" >"$OUT/sm90-renamed/gemm.ptx"
  if python3 gpu/sm90_gemm.py check "$OUT/sm90-renamed" 2>"$OUT/sm90-renamed.err"; then
    echo "gpu/ci.sh: a GEMM entry point gpu/sm90_gemm.py does not run was not reported" >&2
    exit 1
  fi
  grep -q "gemm_sm90_int16: an entry point of the PTX that this script does not run" "$OUT/sm90-renamed.err"
  # Its run path without a GPU (gpu/sm90_gemm_fake: C from the operands as the script decodes
  # them, the launch checked), on the shapes up to 4 M multiply-adds; one wrong element reported.
  PYTHONPATH=gpu/sm90_gemm_fake "$OUT/numpy/bin/python" gpu/sm90_gemm.py run "$OUT/sm90-gemm" --max-mnk 4000000 | tail -n 1
  if FAKE_CUPY_WRONG=gemm_sm90_fp8 PYTHONPATH=gpu/sm90_gemm_fake \
    "$OUT/numpy/bin/python" gpu/sm90_gemm.py run "$OUT/sm90-gemm" --max-mnk 4000000 >"$OUT/sm90-wrong.log" 2>&1; then
    echo "gpu/ci.sh: a wrong element from the sm_90 GEMM was not reported" >&2
    exit 1
  fi
  grep -q "| gemm_sm90_fp8 | 200 x 150 x 80 (80) | normal | 30000 | 1 | 0 |" "$OUT/sm90-wrong.log"
  echo "gpu sm90 gemm checks: every GEMM entry point listed, the run path tested without a GPU"
else
  echo "gpu/ci.sh: no $NIGHTLY rust-src; the GEMM data path's PTX (gpu/gemm.sh --build-only) is skipped"
fi

# The generated CUDA code (gpu/codegen.sh): headers, expected values and the
# driver built from the CLI, the driver run as host C++ and compared exactly
# as on a GPU, and a wrong expected value reported.
CKTILE="$CK" CKTILE_GPU_CODEGEN_OUT="$OUT/codegen" gpu/codegen.sh --build-only
python3 - "$OUT/codegen/g0.json" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))
e["offsets"][1] += 1
json.dump(e, open(sys.argv[1], "w"))
PY
if python3 gpu/codegen.py emulate "$OUT/codegen" >"$OUT/codegen-wrong.log"; then
  echo "gpu/ci.sh: a wrong offset from the generated code was not reported" >&2
  exit 1
fi
grep -Eq "^g0 +[0-9]+ WRONG" "$OUT/codegen-wrong.log"
echo "gpu codegen checks: the generated CUDA of every listed layout built and compared without a GPU"
