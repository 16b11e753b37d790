#!/usr/bin/env bash
# Runs every cargo-fuzz target (nightly only): `scripts/fuzz.sh [RUNS] [TARGET...]`.
# Each target runs RUNS executions (default 10 million): spec and bank under
# AddressSanitizer; search_plan, whose executions each run a whole layout
# search, without a sanitizer (cktile forbids unsafe code) to keep it near
# 2,500 executions per second on one core.
# Each target starts from its committed corpus (fuzz/corpus/TARGET) and writes
# new inputs to target/fuzz-corpus/TARGET, logs to target/fuzz-logs/TARGET.log;
# a crash is saved under fuzz/artifacts/TARGET and fails the script.
# `scripts/fuzz.sh minimise` folds the grown corpora back into fuzz/corpus
# (cargo fuzz cmin), keeping only inputs that add coverage.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
sanitizer() { if [ "$1" = search_plan ]; then echo none; else echo address; fi; }

if [ "${1:-}" = minimise ]; then
  for target in spec bank search_plan; do
    work="../target/fuzz-corpus/$target"
    mkdir -p "$work"
    cp -n "$work"/* "corpus/$target/" 2>/dev/null || true
    cargo +nightly fuzz cmin -O -s "$(sanitizer "$target")" "$target" "corpus/$target" >/dev/null 2>&1
    echo "$target: $(find "corpus/$target" -type f | wc -l) inputs, $(du -sk "corpus/$target" | cut -f1) KiB"
  done
  exit 0
fi

runs="${1:-10000000}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(spec bank search_plan)
logs=../target/fuzz-logs
mkdir -p "$logs"
for target in "${targets[@]}"; do
  work="../target/fuzz-corpus/$target"
  mkdir -p "$work"
  echo "fuzzing $target ($runs runs, sanitizer $(sanitizer "$target"))"
  cargo +nightly fuzz run -O -s "$(sanitizer "$target")" "$target" "$work" "corpus/$target" -- \
    -runs="$runs" -print_final_stats=1 >"$logs/$target.log" 2>&1 || { tail -40 "$logs/$target.log"; exit 1; }
  grep -E "DONE|stat::number_of_executed_units|stat::average_exec_per_sec" "$logs/$target.log" | tail -3
done
