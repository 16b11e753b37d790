#!/usr/bin/env bash
# Builds the guide in docs/ offline from a fresh clone: installs mdBook from
# crates.io if it is missing, builds the layout explorer's WebAssembly
# (scripts/build-explorer.sh: it installs the wasm32 target and
# wasm-bindgen-cli if missing), builds the book into docs/book, then fails
# if any internal link or image of the built HTML is broken.
# The chapters' command outputs and pictures are committed, and `cargo test`
# checks them (tests/guide_outputs.rs); their Rust examples are doctests.
set -euo pipefail
cd "$(dirname "$0")/.."

MDBOOK_VERSION=0.5.4
if ! command -v mdbook >/dev/null 2>&1 || [ "$(mdbook --version)" != "mdbook v$MDBOOK_VERSION" ]; then
  if [ -x "$HOME/.cargo/bin/mdbook" ] && [ "$("$HOME/.cargo/bin/mdbook" --version)" = "mdbook v$MDBOOK_VERSION" ]; then
    export PATH="$HOME/.cargo/bin:$PATH"
  else
    echo "build-book: installing mdbook $MDBOOK_VERSION from crates.io"
    cargo install mdbook --locked --version "$MDBOOK_VERSION" --no-default-features --features search
    export PATH="$HOME/.cargo/bin:$PATH"
  fi
fi

scripts/build-explorer.sh
rm -rf docs/book
mdbook build docs
python3 scripts/check-links.py docs/book
echo "build-book: docs/book/index.html; the layout explorer needs a web server:"
echo "  python3 -m http.server -d docs/book 8000, then open http://localhost:8000/explorer.html"
