#!/usr/bin/env bash
# Takes headless Chromium screenshots of several chapters of the built book,
# to check the pages as a reader sees them (figures rendered, tables and code
# inside the page, text readable). Not run in CI.
#   scripts/screenshots.sh [OUT_DIR]   (default target/book-screenshots)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/book-screenshots}"
mkdir -p "$out"

if ! command -v chromium >/dev/null 2>&1; then
  apt-get update && apt-get install -y chromium fonts-dejavu-core
fi
[ -f docs/book/index.html ] || scripts/build-book.sh

port="${BOOK_PORT:-8765}"
python3 -m http.server "$port" --bind 127.0.0.1 --directory docs/book >/dev/null 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/')" 2>/dev/null && break
  sleep 0.1
done

shot() { # shot NAME PAGE [HEIGHT]
  local profile
  profile=$(mktemp -d)
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --hide-scrollbars --virtual-time-budget=3000 \
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
