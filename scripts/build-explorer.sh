#!/usr/bin/env bash
# Builds the guide's layout explorer (docs/src/explorer.md): the cktile-wasm
# crate (wasm/) for wasm32-unknown-unknown, wasm-bindgen's JS glue, and
# wasm-opt -Oz when Debian's binaryen is installed, into docs/src/explorer/pkg/
# (mdBook copies it into the book). Installs what is missing, once: the
# rustup target, and wasm-bindgen-cli from crates.io at exactly the version
# of the wasm-bindgen crate in wasm/Cargo.lock. Lints the crate for wasm32
# and runs its native tests. Prints the module's size, raw and gzipped.
#   scripts/build-explorer.sh          (scripts/build-book.sh runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' wasm/Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $version" ]; then
  echo "build-explorer: installing wasm-bindgen-cli $version from crates.io"
  # Only the `wasm-bindgen` binary, without the TLS stack its test runner
  # downloads with (rustls and ring: minutes of compiling on 2 cores).
  # --locked first; a crates.io index that lacks one of its locked versions
  # (seen: webpki-roots 1.0.11) falls back to a fresh resolution.
  install=(cargo install wasm-bindgen-cli --version "$version" --no-default-features --bin wasm-bindgen)
  "${install[@]}" --locked || "${install[@]}"
fi

manifest=(--manifest-path wasm/Cargo.toml --target-dir target)
cargo clippy "${manifest[@]}" --target wasm32-unknown-unknown --all-targets -- -D warnings
cargo test "${manifest[@]}" --quiet
cargo build "${manifest[@]}" --release --target wasm32-unknown-unknown

pkg=docs/src/explorer/pkg
module=target/explorer/cktile_wasm.wasm
mkdir -p target/explorer
cp target/wasm32-unknown-unknown/release/cktile_wasm.wasm "$module"
if command -v wasm-opt >/dev/null 2>&1; then
  # Before wasm-bindgen, not after: Debian 12's binaryen (version 108) is
  # older than wasm-bindgen's externref table, and a module it rewrites after
  # wasm-bindgen fails to instantiate; rustc's output it handles (keeping
  # wasm-bindgen's custom sections). The features are those rustc's
  # wasm32-unknown-unknown target emits by default.
  wasm-opt -Oz --enable-bulk-memory --enable-sign-ext --enable-nontrapping-float-to-int --enable-mutable-globals \
    --enable-reference-types --enable-multivalue "$module" -o "$module.opt"
  mv "$module.opt" "$module"
else
  echo "build-explorer: wasm-opt not found (Debian: apt-get install binaryen); the module stays unoptimised"
fi
rm -rf "$pkg"
wasm-bindgen --target web --no-typescript --out-dir "$pkg" "$module"
wasm="$pkg/cktile_wasm_bg.wasm"
echo "build-explorer: $wasm is $(stat -c %s "$wasm") bytes, $(gzip -9 -c "$wasm" | wc -c) gzipped"
