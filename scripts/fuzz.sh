#!/usr/bin/env bash
# Runs every cargo-fuzz target (nightly only): `scripts/fuzz.sh [RUNS] [SEARCH_SECONDS]`.
# spec and bank run RUNS executions (default 10 million); search_plan, about a
# thousand times slower per input, runs for SEARCH_SECONDS (default 900).
# Each target starts from its committed corpus (fuzz/corpus/TARGET) and writes
# new inputs to target/fuzz-corpus/TARGET, logs to target/fuzz-logs/TARGET.log;
# a crash is saved under fuzz/artifacts/TARGET and fails the script.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
runs="${1:-10000000}"
search_seconds="${2:-900}"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
logs=../target/fuzz-logs
mkdir -p "$logs"
for target in spec bank search_plan; do
  work="../target/fuzz-corpus/$target"
  mkdir -p "$work"
  limit=(-runs="$runs")
  if [ "$target" = search_plan ]; then limit=(-max_total_time="$search_seconds"); fi
  echo "fuzzing $target (${limit[*]})"
  cargo +nightly fuzz run -O "$target" "$work" "corpus/$target" -- "${limit[@]}" -print_final_stats=1 \
    >"$logs/$target.log" 2>&1 || { tail -40 "$logs/$target.log"; exit 1; }
  grep -E "DONE|stat::number_of_executed_units|stat::average_exec_per_sec" "$logs/$target.log" | tail -3
done
