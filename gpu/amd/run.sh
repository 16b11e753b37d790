#!/usr/bin/env bash
# cktile's AMD LDS probe: measures, on this machine's AMD GPU, the bank count
# and the phase groups of every single-address ds_read/ds_write width cktile
# models (and gfx950's transposing reads), plus nod-ai's stride patterns and
# every access pattern on which the public models of AMD's LDS disagree, and
# sets them beside cktile's rule table and every model (cktile rules --ingest).
#
# Needs: ROCm's hipcc, rocprofv3 and rocminfo; python3; cargo (or CKTILE=path
# to a cktile binary). Writes target/amd-probe/probe.txt; prints the comparison.
# Exit code: cktile rules --ingest's (0 all agree, 1 some disagree).
set -euo pipefail
cd "$(dirname "$0")/../.."
for tool in hipcc rocprofv3 rocminfo python3; do
  command -v "$tool" >/dev/null 2>&1 || { echo "gpu/amd/run.sh: $tool is not installed (ROCm 6.2 or later)" >&2; exit 2; }
done
out=target/amd-probe
mkdir -p "$out"
chip=$(rocminfo | awk '/Name:[[:space:]]+gfx[0-9a-f]+/ {print $2; exit}')
device=$(rocminfo | awk -F: '/Marketing Name/ {gsub(/^[ \t]+/, "", $2); print $2; exit}')
[ -n "$chip" ] || { echo "gpu/amd/run.sh: rocminfo names no gfx agent" >&2; exit 2; }
case "$chip" in gfx11*|gfx12*) wave=32 ;; *) wave=64 ;; esac
cktile=${CKTILE:-}
if [ -z "$cktile" ]; then
  cargo build --release --quiet --bin cktile
  cktile=target/release/cktile
fi
# cktile's chip names: gfx1100 stands for RDNA3, gfx1201 for RDNA4.
case "$chip" in gfx110*) name=gfx1100 ;; gfx120*) name=gfx1201 ;; *) name=$chip ;; esac
echo "gpu/amd/run.sh: $device ($chip, wave $wave), cktile's $name rules"
hipcc -O2 --offload-arch="$chip" gpu/amd/lds_probe.hip -o "$out/lds_probe"

# One pass: cases -> lds_probe under rocprofv3 -> probe lines.
pass() {
  local name=$1
  shift
  python3 gpu/amd/probe.py cases --chip "$chip" --wave "$wave" --pass "$name" "$@" > "$out/$name-cases.txt"
  rm -rf "$out/$name-counters"
  grep -v '^#' "$out/$name-cases.txt" | rocprofv3 --pmc SQ_LDS_BANK_CONFLICT SQ_INSTS_LDS --output-format csv \
    -d "$out/$name-counters" -- "$out/lds_probe" > "$out/$name-manifest.txt"
  python3 gpu/amd/probe.py collect --cases "$out/$name-cases.txt" --manifest "$out/$name-manifest.txt" \
    --counters "$out/$name-counters" > "$out/$name.txt"
}
pass banks
pass pairs --banks "$out/banks.txt"
# Every access pattern on which the public models disagree, from this cktile.
"$cktile" rules --disagreements --arch "$name" --json > "$out/disagreements.json"
: > "$out/disagreements.txt"
if [ "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$out/disagreements.json")" != 0 ]; then
  pass disagreements --disagreements "$out/disagreements.json"
fi
{
  echo "# cktile AMD LDS probe (gpu/amd/run.sh)"
  echo "chip $name"
  echo "device $device ($chip)"
  echo "date $(date -u +%Y-%m-%d)"
  cat "$out/banks.txt" "$out/pairs.txt" "$out/disagreements.txt"
} > "$out/probe.txt"
echo "gpu/amd/run.sh: wrote $out/probe.txt"
"$cktile" rules --ingest "$out/probe.txt"
