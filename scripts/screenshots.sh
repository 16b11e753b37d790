#!/usr/bin/env bash
# Takes headless Chromium screenshots of several chapters of the built book,
# to check the pages as a reader sees them (figures rendered, tables and code
# inside the page, text readable), and of the layout explorer running (its
# first shot is the explorer chapter's picture, docs/src/explorer/screenshot.png).
# Not run in CI.
#   scripts/screenshots.sh [OUT_DIR]   (default target/book-screenshots)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/book-screenshots}"
mkdir -p "$out"

if ! command -v chromium >/dev/null 2>&1; then
  apt-get update && apt-get install -y chromium fonts-dejavu-core
fi
[ -f docs/book/explorer/pkg/cktile_wasm_bg.wasm ] || scripts/build-book.sh

port="${BOOK_PORT:-8765}"
python3 -m http.server "$port" --bind 127.0.0.1 --directory docs/book >/dev/null 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/')" 2>/dev/null && break
  sleep 0.1
done

shot() { # shot NAME PAGE [HEIGHT [VIRTUAL_MS]]
  local profile
  profile=$(mktemp -d)
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --hide-scrollbars --virtual-time-budget="${4:-3000}" \
    --screenshot="$out/$1.png" --window-size="1280,${3:-2000}" "http://127.0.0.1:$port/$2" >/dev/null 2>&1
  rm -rf "$profile"
  echo "$out/$1.png"
}

shot getting-started getting-started.html
shot descriptors descriptors.html
shot transforms transforms.html 14000
shot composing composing.html
shot banks banks.html 13000
shot padding-vs-xor padding-vs-xor.html 8000
shot index-swapping index-swapping.html 7000
shot cute-triton cute-triton.html 10000
shot ck-to-cktile ck-to-cktile.html
shot cli cli.html
shot search search.html 9000
shot dma-plan dma-plan.html 6000
shot codegen codegen.html 6000
# The explorer (WebAssembly; state in the URL fragment): the naive 128x64 fp16
# tile under gfx942's mfma16 reads, the padded fp32 columns on sm80, a CK
# distribution on gfx950, and a spec with an error underlined.
shot explorer 'explorer.html#spec=packed%28%28128%2C64%29%29&dtype=fp16&arch=gfx942&pattern=mfma16&rows=8' 2300 10000
cp "$out/explorer.png" docs/src/explorer/screenshot.png
shot explorer-padded 'explorer.html#spec=row-padded%3Arows%3D32%2Ccols%3D32%2Cpad%3D1&dtype=fp32&arch=sm80&pattern=columns&op=ld.shared.b32&rows=8' 4000 10000
shot explorer-distribution 'explorer.html#spec=ck-universal-a%3Am%3D128%2Ck%3D32&arch=gfx950&op=ds_read_b128&distribution=mfma32x32x16_a&rows=8' 4000 10000
shot explorer-error 'explorer.html#spec=naive%28%284%2C8%29%2C%288%2C1%29%29%0A%7C+transform%28merge%28%284%2C9%29%29+on+%5B0%2C1%5D+-%3E+%5B0%5D%29&dtype=fp32&arch=gfx942' 1600 10000
