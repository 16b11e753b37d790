#!/usr/bin/env bash
# cktile-cubecl (cubecl/, a workspace of its own: cubecl and its wgpu
# runtime are about 500 crates): formatting, lints, docs, the tests (every
# offset of random chains and CK blocks computed by kernels; the XOR
# block's index arithmetic against a hand-written cubecl layout's, in the
# compiled WGSL) and, as doctests, the guide's chapter (docs/src/cubecl.md:
# its kernel runs, its refusal fails to compile), on wgpu.
# Where there is no GPU, wgpu runs on Mesa's software Vulkan driver,
# lavapipe (Debian's mesa-vulkan-drivers, installed here when missing).
#   scripts/cubecl-test.sh            (.ci/run runs it; 3 min 22 s from an empty target directory on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/../cubecl"

if ! ls /usr/share/vulkan/icd.d/lvp_icd.*.json >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y mesa-vulkan-drivers
fi
# The Vulkan loader looks for a runtime directory; a root shell in CI has none.
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
  XDG_RUNTIME_DIR=$(mktemp -d)
  export XDG_RUNTIME_DIR
fi

cargo fmt -- --check
cargo clippy --locked --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps
cargo test --locked
