#!/usr/bin/env bash
# Every measurement of docs/src/performance.md, then perf/results/report.md
# with the tables (min / median / max over repeated runs).
#
# Usage: scripts/perf-report.sh
#   PERF_BASELINE=<commit>  also measure an older commit (instruction counts,
#                           analyzer, search, compile cost) for before/after
#   PERF_BASELINE_PROGRAM=1 the older commit has Descriptor::program: measure
#                           its `program` variant too (one offset per call)
#   PERF_QUICK=1            skip the compile-cost crates (the slow part)
#   PERF_RUNS=N             timed runs per workload (default 15)
#
# Needs: cargo, valgrind (instruction counts; skipped if absent), python3
# (a virtual environment in perf/.venv gets pycute from nvidia-cutlass and
# triton from PyPI; the comparison is skipped if they do not install).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
RES=$ROOT/perf/results
RUNS=${PERF_RUNS:-15}
mkdir -p "$RES"

# ---------------------------------------------------------------- machine
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "cpu: $(lscpu | sed -n 's/^Model name: *//p') ($(nproc) cores available)"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "memory: $(free -g | awk '/^Mem:/ {print $2 " GiB"}')"
  echo "rustc: $(rustc --version)"
} >"$RES/machine.txt"
cat "$RES/machine.txt"

# ---------------------------------------------------------------- tools
(cd perf && cargo build --release --quiet)
ICOUNT=$ROOT/perf/target/release/icount

# ---------------------------------------------------------------- instruction counts
CASES="gemm_k64:8192 gemm_k32_mlds2:4096 swizzle_333:8192 padded:8192"
icount() { # binary args... -> instructions
  local out
  out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$out" "$@" 2>&1 | sed -n 's/.*refs: *//p' | tr -d ,
  rm -f "$out"
}
per_offset() { # build binary case n variants...
  local build=$1 bin=$2 case=$3 n=$4
  shift 4
  for v in "$@"; do
    local a b
    a=$(icount "$bin" offsets "$case" "$v" 2)
    b=$(icount "$bin" offsets "$case" "$v" 4)
    printf '%s\t%s\t%s\t%s\n' "$build" "$case" "$v" $(((b - a) / 2 / n))
  done
}
workloads() { # build binary
  printf '%s\t%s\t%s\n' "$1" "analyze 3 layouts x 2 patterns (1 call)" $(($(icount "$2" analyze 2) - $(icount "$2" analyze 1)))
  # One search each, less the start-up (the 256x128 search takes minutes under valgrind: timed only).
  local none
  none=$(icount "$2" none)
  printf '%s\t%s\t%s\n' "$1" "search 128x64 fp16 gfx942 (1 call)" $(($(icount "$2" search 1 gfx942-128x64) - none))
  printf '%s\t%s\t%s\n' "$1" "search 128x64 bf16 gfx950 (1 call)" $(($(icount "$2" search 1 gfx950-128x64) - none))
}

BASE=""
if [ -n "${PERF_BASELINE:-}" ]; then
  BASE=$ROOT/perf/baseline-src
  rm -rf "$BASE" && mkdir -p "$BASE"
  git archive "$PERF_BASELINE" | tar -x -C "$BASE"
  mkdir -p "$BASE/perf" && cp -r perf/Cargo.toml perf/Cargo.lock perf/src "$BASE/perf/"
  # An older cktile may lack the `parallel` feature: the baseline is built without it.
  sed -i '/^parallel = \["cktile\/parallel"\]/d; /^default = /s/, "parallel"\]/]/' "$BASE/perf/Cargo.toml"
  BASE_FEATURES=${PERF_BASELINE_PROGRAM:+--features program}
  (cd "$BASE/perf" && cargo build --release --quiet --no-default-features $BASE_FEATURES --bin icount --bin timing)
fi

if command -v valgrind >/dev/null; then
  printf 'build\tcase\tvariant\tinstructions\n' >"$RES/icount.tsv"
  printf 'build\tworkload\tinstructions\n' >"$RES/icount-workloads.tsv"
  for c in $CASES; do
    if [ -n "$BASE" ]; then
      per_offset before "$BASE/perf/target/release/icount" "${c%:*}" "${c#*:}" hand runtime ${PERF_BASELINE_PROGRAM:+program} move >>"$RES/icount.tsv"
    fi
    per_offset after "$ICOUNT" "${c%:*}" "${c#*:}" hand runtime program batch columns move >>"$RES/icount.tsv"
  done
  if [ -n "$BASE" ]; then workloads before "$BASE/perf/target/release/icount" >>"$RES/icount-workloads.tsv"; fi
  workloads after "$ICOUNT" >>"$RES/icount-workloads.tsv"
  cat "$RES/icount.tsv" "$RES/icount-workloads.tsv"
else
  echo "valgrind not found: no instruction counts" >&2
fi

# ---------------------------------------------------------------- timings
cargo bench --quiet --bench offsets
cargo bench --quiet --bench analyzer
"$ROOT/perf/target/release/timing" "$RUNS" | tee "$RES/timing.jsonl"
if [ -n "$BASE" ]; then
  "$BASE/perf/target/release/timing" "$RUNS" | sed 's/"tool": "cktile/"tool": "cktile (before)/' | tee "$RES/timing-baseline.jsonl"
else
  rm -f "$RES/timing-baseline.jsonl"
fi

# ---------------------------------------------------------------- alternatives (same run)
VENV=$ROOT/perf/.venv
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV" && "$VENV/bin/pip" install --quiet nvidia-cutlass triton ||
    echo "pip install of nvidia-cutlass / triton failed: no comparison" >&2
fi
if [ -x "$VENV/bin/python" ]; then
  "$VENV/bin/python" perf/python/compare.py "$RUNS" | tee "$RES/python.jsonl" || true
fi

# ---------------------------------------------------------------- compile cost
if [ -z "${PERF_QUICK:-}" ]; then
  scripts/perf-compile.sh 3
  if [ -n "$BASE" ]; then
    CKTILE_DIR=$BASE PERF_SIZES="10 100" PERF_CHECKS="6 12" PERF_GEN=$ROOT/perf/gen-baseline \
      PERF_OUT=$RES/compile-baseline.tsv scripts/perf-compile.sh 2
  fi
fi

echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$RES/machine.txt"
python3 perf/python/summarize.py "$RES" target/criterion >"$RES/report.md"
echo "wrote $RES/report.md"
