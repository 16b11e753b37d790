#!/usr/bin/env bash
# Runs every cargo-fuzz target (nightly only): `scripts/fuzz.sh [RUNS] [TARGET...]`.
# Each target is built optimised with debug assertions and overflow checks
# (-O -a), and runs RUNS executions (default 10 million): spec, bank and texts under
# AddressSanitizer; search_plan, whose executions each run a whole layout
# search, without a sanitizer (cktile forbids unsafe code) to keep it near
# 1,400 executions per second per process. JOBS=N (default 1) splits each
# target's runs over N processes sharing one corpus.
# Each target starts from its committed corpus (fuzz/corpus/TARGET) and writes
# new inputs to target/fuzz-corpus/TARGET, logs to
# target/fuzz-logs/TARGET-K.log (process K); a crash is saved under
# fuzz/artifacts/TARGET and fails the script.
# `scripts/fuzz.sh minimise` folds the grown corpora back into fuzz/corpus
# (cargo fuzz cmin), keeping only inputs that add coverage.
# The nightly is scripts/target-icount.sh's pinned one (CKTILE_NIGHTLY).
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
NIGHTLY=${CKTILE_NIGHTLY:-nightly-2026-10-29}
rustup toolchain install "$NIGHTLY" --profile minimal >/dev/null 2>&1 || true
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
# FUZZ_SANITIZER=address (or none) gives every target the same one, so all
# share one build (CI's smoke run does: a second build costs more there than
# the slower executions).
sanitizer() {
  if [ -n "${FUZZ_SANITIZER:-}" ]; then echo "$FUZZ_SANITIZER"; elif [ "$1" = search_plan ]; then echo none; else echo address; fi
}

if [ "${1:-}" = minimise ]; then
  for target in spec bank search_plan texts; do
    work="../target/fuzz-corpus/$target"
    mkdir -p "$work"
    cp -n "$work"/* "corpus/$target/" 2>/dev/null || true
    cargo "+$NIGHTLY" fuzz cmin -O -a -s "$(sanitizer "$target")" "$target" "corpus/$target" >/dev/null 2>&1
    echo "$target: $(find "corpus/$target" -type f | wc -l) inputs, $(cat "corpus/$target"/* | wc -c) bytes"
  done
  exit 0
fi

runs="${1:-10000000}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(spec bank search_plan texts)
jobs="${JOBS:-1}"
logs=../target/fuzz-logs
mkdir -p "$logs"
for target in "${targets[@]}"; do
  work="../target/fuzz-corpus/$target"
  mkdir -p "$work"
  sanitizer=$(sanitizer "$target")
  echo "fuzzing $target ($runs runs in $jobs process(es), sanitizer $sanitizer)"
  cargo "+$NIGHTLY" fuzz build -O -a -s "$sanitizer" "$target" >"$logs/$target.build.log" 2>&1 ||
    { tail -40 "$logs/$target.build.log"; exit 1; }
  # JOBS processes share the corpus directory (libFuzzer reloads it every
  # second) and split the runs between them.
  rm -f "$logs/$target"-*.log
  pids=()
  for k in $(seq 1 "$jobs"); do
    share=$((runs / jobs + (k <= runs % jobs ? 1 : 0)))
    cargo "+$NIGHTLY" fuzz run -O -a -s "$sanitizer" "$target" "$work" "corpus/$target" -- \
      -runs="$share" -print_final_stats=1 >"$logs/$target-$k.log" 2>&1 &
    pids+=($!)
  done
  status=0
  for k in "${!pids[@]}"; do
    wait "${pids[$k]}" || { status=1; tail -40 "$logs/$target-$((k + 1)).log"; }
  done
  [ $status -eq 0 ] || exit 1
  total=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logs/$target"-*.log | awk '{ n += $1 } END { print n }')
  echo "$target: $total executions; final coverage per process:"
  grep -h -E "^#[0-9]+\s+DONE" "$logs/$target"-*.log
done
