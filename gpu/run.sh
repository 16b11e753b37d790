#!/usr/bin/env bash
# Measures cktile's shared-memory cases on an NVIDIA GPU with Nsight Compute
# and writes docs/gpu-measurements.md (measured vs predicted, per case).
#
# Needs: an sm_90 GPU (H100/H200; stmatrix and the sm90 model), nvcc,
# cuobjdump and ncu (CUDA 12.x), python3, and cargo (or CKTILE=path/to/cktile).
# Profiling counters may need admin rights (ERR_NVGPUCTRPERM): run as root
# or with NVreg_RestrictProfilingToAdminUsers=0.
#
# Environment: CKTILE (a built cktile binary), CKTILE_GPU_OUT (work folder,
# default target/gpu), CKTILE_GPU_TABLE (default docs/gpu-measurements.md),
# CKTILE_GPU_ARCH (default sm_90), NCU (default ncu), NVCC (default nvcc).
set -euo pipefail
cd "$(dirname "$0")/.."

OUT="${CKTILE_GPU_OUT:-target/gpu}"
TABLE="${CKTILE_GPU_TABLE:-docs/gpu-measurements.md}"
ARCH="${CKTILE_GPU_ARCH:-sm_90}"
NCU="${NCU:-ncu}"
NVCC="${NVCC:-nvcc}"
mkdir -p "$OUT" "$(dirname "$TABLE")"

for tool in "$NVCC" "$NCU" python3; do
  command -v "$tool" >/dev/null || { echo "gpu/run.sh: \`$tool\` not found (see gpu/README.md)" >&2; exit 2; }
done

# 1. The cases, from cktile itself.
if [ -n "${CKTILE:-}" ]; then
  CK="$CKTILE"
else
  cargo build --release --quiet --bin cktile
  CK="${CARGO_TARGET_DIR:-target}/release/cktile"
fi
"$CK" gpu-cases >"$OUT/cases.txt"
"$CK" gpu-cases --json >"$OUT/cases.json"
python3 gpu/table.py coverage "$OUT/cases.json"

# 2. The harness, and a check of its SASS: each kernel issues exactly its 64
#    shared-memory instruction slots and nothing else touches shared memory.
"$NVCC" -std=c++17 -O2 -arch="$ARCH" -lineinfo -o "$OUT/harness" gpu/harness.cu
if command -v cuobjdump >/dev/null; then
  cuobjdump -sass "$OUT/harness" >"$OUT/harness.sass"
  python3 gpu/table.py sass "$OUT/harness.sass"
else
  echo "gpu/run.sh: cuobjdump not found; the SASS check is skipped" >&2
fi

# 3. A plain run first, so a fault shows here and not inside the profiler.
"$OUT/harness" "$OUT/cases.txt" >"$OUT/harness.log"
tail -n 1 "$OUT/harness.log"

# 4. The counters: the three the comparison needs (gpu/table.py), the
#    per-op parts that show where ncu files each instruction, and those of
#    the instruction counters this ncu knows (they explain op_misc).
METRICS="l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_misc.sum"
METRICS="$METRICS,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"
METRICS="$METRICS,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
METRICS="$METRICS,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
OPTIONAL="l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum
smsp__inst_executed_op_shared_ld.sum smsp__inst_executed_op_shared_st.sum smsp__inst_executed_op_ldsm.sum
smsp__inst_executed_op_shared_stsm.sum smsp__inst_executed_op_ldgsts.sum
smsp__inst_executed_op_global_ld_pred_off_all.sum smsp__inst_executed_op_shared_ld_pred_off_all.sum"
"$NCU" --query-metrics >"$OUT/ncu-metrics.txt" 2>&1 || true
for m in $OPTIONAL; do
  if grep -qw -- "${m%.*}" "$OUT/ncu-metrics.txt"; then METRICS="$METRICS,$m"; fi
done
echo "gpu/run.sh: collecting $METRICS"

# 5. Profile: one kernel launch per case, in case order; only cktile_* kernels.
#    --clock-control none leaves the GPU's clocks as they are (counts of
#    wavefronts and conflicts do not depend on clocks).
"$NCU" --clock-control none --csv --print-units base --metrics "$METRICS" --kernel-name regex:'^cktile_' \
  "$OUT/harness" "$OUT/cases.txt" >"$OUT/ncu.csv"

# 6. The table.
DEVICE=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1 || echo "unknown GPU")
SOURCE="Nsight Compute $("$NCU" --version | tail -n 1) on ${DEVICE} (driver), clocks as found (--clock-control none), $(date -u +%Y-%m-%d)"
python3 gpu/table.py table "$OUT/cases.json" "$OUT/ncu.csv" --out "$TABLE" --source "$SOURCE"
echo "gpu/run.sh: wrote $TABLE"
