#!/usr/bin/env bash
# Compile cost of static descriptors: generates crates with every catalogue
# entry plus N random static compositions (perf/src/bin/gencost.rs), and
# crates with P compile-time bank checks, then times `cargo check` and
# `cargo build` (debug) of the generated crate alone (its dependencies are
# built first) with /usr/bin/time -v: wall seconds and peak memory (the
# largest process, i.e. rustc).
#
# Usage: scripts/perf-compile.sh [RUNS]   (default 3 runs per measurement)
# PERF_SIZES (default "10 100 1000") and PERF_CHECKS (default "0 6 12 24")
# choose the workloads, CKTILE_DIR (default: this checkout) the cktile measured,
# PERF_GEN and PERF_OUT where the crates and the table go.
# Writes perf/results/compile.tsv: workload n command run seconds max_rss_kb
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}
SIZES=${PERF_SIZES:-"10 100 1000"}
CHECKS=${PERF_CHECKS:-"0 6 12 24"}
ROOT=$PWD/perf
GEN=${PERF_GEN:-$ROOT/gen}
OUT=${PERF_OUT:-$ROOT/results/compile.tsv}
mkdir -p "$GEN" "$ROOT/results"
export CARGO_TARGET_DIR=$GEN/target
# Every measurement compiles the generated crate from scratch: touching its
# source would otherwise let the incremental cache reuse all of the work.
export CARGO_INCREMENTAL=0
(cd "$ROOT" && CARGO_TARGET_DIR=$ROOT/target cargo build --release --quiet --bin gencost)

printf 'workload\tn\tcommand\trun\tseconds\tmax_rss_kb\n' >"$OUT"

measure() { # workload n dir
  local workload=$1 n=$2 dir=$3
  (cd "$dir" && cargo check --quiet 2>/dev/null && cargo build --quiet 2>/dev/null) # dependencies, once
  for cmd in check build; do
    for run in $(seq 1 "$RUNS"); do
      touch "$dir/src/lib.rs"
      local log
      log=$(mktemp)
      (cd "$dir" && /usr/bin/time -v cargo "$cmd" --quiet 2>"$log" >/dev/null) || { cat "$log"; exit 1; }
      local wall rss
      wall=$(grep 'Elapsed (wall clock)' "$log" | awk '{print $NF}' |
        awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }')
      rss=$(grep 'Maximum resident set size' "$log" | awk '{print $NF}')
      rm -f "$log"
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$workload" "$n" "$cmd" "$run" "$wall" "$rss" | tee -a "$OUT"
    done
  done
}

for n in $SIZES; do
  "$ROOT/target/release/gencost" compositions "$n" "$GEN/compositions_$n"
  measure compositions "$n" "$GEN/compositions_$n"
done
for p in $CHECKS; do
  "$ROOT/target/release/gencost" checks "$p" "$GEN/checks_$p"
  measure checks "$p" "$GEN/checks_$p"
done
