#!/usr/bin/env bash
# The guide's GEMM kernels on RDNA (examples/gemm_kernels.rs, the gemm_gfx11_*
# and gemm_gfx12_* entry points: the universal GEMM over the wave32 WMMAs)
# compiled for gfx1100 and gfx1201 (perf/kernels with its feature gfx11 or
# gfx12, with the nightly and the build of scripts/target-icount.sh: panic =
# "immediate-abort", the 256-thread launch bound from
# launch-bounds.gfx11.csv, launch-bounds.gfx12.csv). A proof that every kernel compiles for its GPU
# and issues the block GEMM's WMMAs: for each it prints the instructions,
# the WMMAs, the private segment and scratch instructions, calls, spills
# and flat accesses, and fails when a kernel issues another number of WMMAs
# than its block GEMM has (2 x 2 warp tiles x KPerBlock / 16 K steps x 2 a
# K tile, once per block GEMM in the source), calls out, spills, or
# accesses memory through a flat address. Scratch is
# printed, not gated: these kernels are not yet zero-cost (the performance
# chapter's "RDNA"). Usage: scripts/rdna-gemm.sh. Needs python3.
set -euo pipefail
cd "$(dirname "$0")/../perf/kernels"
NIGHTLY=${CKTILE_NIGHTLY:-$(sed -n 's/^NIGHTLY=\${CKTILE_NIGHTLY:-\(.*\)}$/\1/p' ../../scripts/target-icount.sh)}
rustup toolchain install "$NIGHTLY" --profile minimal >/dev/null 2>&1 || true
rustup component add rust-src --toolchain "$NIGHTLY" >/dev/null 2>&1
stamp=$(mktemp)
# The kernels crate alone is compiled for the RDNA CPU: a rustc wrapper, which cargo runs for this
# workspace's own crate and not for its dependencies, appends the CPU last (cargo puts RUSTFLAGS
# after its own arguments and after a profile's rustflags, so nothing else comes last). The
# dependencies (core, cktile-core, cktile-checks) keep scripts/target-icount.sh's gfx942 flags, so
# that build serves here too. rustc refuses a crate whose CPU differs from its dependencies'
# (calls between them would disagree on the ABI); the wrapper allows it, as no such call may
# exist: what the kernels use is generic or inlined, compiled into this crate for its CPU, and a
# call out of a kernel fails below. On 2026-11-28 both generations' asm was identical, line for
# line (the crate's hash aside), to a build of every crate for the RDNA CPU, in 33 s instead of
# 2 min.
wrapper=$(mktemp)
printf '#!/bin/sh\nexec "$@" "-Ctarget-cpu=$CKTILE_RDNA_CPU" -Cunsafe-allow-abi-mismatch=target-cpu\n' >"$wrapper"
chmod +x "$wrapper"
lib_time=$(stat -c %Y src/lib.rs)
trap 'rm -f "$stamp" "$wrapper"; touch -d "@$lib_time" src/lib.rs' EXIT
files=()
for g in gfx11:gfx1100 gfx12:gfx1201; do
  touch src/lib.rs # recompile the kernels, so their asm is written
  CKTILE_RDNA_CPU=${g#*:} RUSTC_WORKSPACE_WRAPPER="$wrapper" \
    RUSTFLAGS="-Ctarget-cpu=gfx942 -Zunstable-options -Cpanic=immediate-abort" \
    cargo "+$NIGHTLY" rustc --quiet --release -Zbuild-std=core --target amdgcn-amd-amdhsa --features "${g%%:*}" \
    -- --emit=asm -Cpasses=forceattrs "-Cllvm-args=-forceattrs-csv-path=$PWD/launch-bounds.${g%%:*}.csv"
  f=$(find target/amdgcn-amd-amdhsa/release -name 'cktile_kernels-*.s' -newer "$stamp" -printf '%T@ %p\n' | sort -n | tail -1 | cut -d' ' -f2-)
  [ -n "$f" ] || { echo "no new assembly for ${g%%:*}" >&2; exit 1; }
  files+=("$f")
  touch "$stamp"
done
python3 - "${files[@]}" <<'PY'
import sys
from icount import functions_gnu, is_instruction, stats_amdgcn
# The WMMAs each kernel's block GEMM issues a K tile: 2 x 2 warp tiles x
# (KPerBlock / 16) K steps x 2 instructions (a 32 x 32 warp tile, N / 16).
want = {"int8": 2 * 2 * 4 * 2, "fp8": 2 * 2 * 4 * 2}
bad = []
print("| kernel | instructions | WMMAs | private segment + scratch instructions | calls | spills | flat accesses |")
print("|---|---:|---:|---:|---:|---:|---:|")
for path in sys.argv[1:]:
    text = open(path).read()
    funcs, stats = functions_gnu(text, ";"), stats_amdgcn(text)
    for name in sorted(n for n in stats if n.startswith(("gemm_gfx11", "gemm_gfx12"))):
        s = stats[name]
        wmma = sum(1 for l in funcs[name] if is_instruction(l, ";") and l.split()[0].startswith("v_wmma"))
        expected = next((w for key, w in want.items() if key in name), 2 * 2 * 2 * 2)
        # An entry point's pointers are its arguments, in the global address space: a flat
        # access is one that lost it (C's stores did, through a `Result` around C's view).
        flat = sum(1 for l in funcs[name] if is_instruction(l, ";") and l.split()[0].startswith("flat_"))
        print(f"| {name} | {s['instructions']} | {wmma} | {s['scratch']} | {s['calls']} | {s['spills']} | {flat} |")
        if wmma == 0 or wmma % expected or s["calls"] or s["spills"] or flat:
            bad.append(f"{name}: {wmma} WMMAs (a multiple of {expected} expected), calls {s['calls']}, spills {s['spills']}, flat accesses {flat}")
    if not any(n.startswith(("gemm_gfx11", "gemm_gfx12")) for n in stats):
        bad.append(f"{path}: no RDNA GEMM kernel")
for b in bad:
    print("FAIL", b)
sys.exit(1 if bad else 0)
PY
