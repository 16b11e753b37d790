#!/usr/bin/env bash
# Adds a transform kind to a scratch copy of the working tree the way the
# architecture chapter says ("Adding a transform"): its module in
# transforms/src/kinds/ (scripts/scratch-kind/reverse.rs, `reverse(len)`,
# low = len - 1 - up), its two lines in transforms/src/kinds/mod.rs (`pub
# mod`, `pub use`) and its row of `kind_list!` in transforms/src/list.rs,
# nothing else. Then runs,
# on that copy, the tests that draw every kind of the list without naming
# any: the transforms' `drawn_` laws (lowering = formulas, inverse, moves),
# and cktile's compiled programs, generated C++ (compiled with g++ and
# compared), interval analysis and properties on random chains, plus a
# check that the spec parser, printer, descriptor, program and code
# generator take the new kind (scripts/scratch-kind/scratch_kind.rs).
#
# It fails when adding a kind needs any other file, which is what the
# chapter claims. The copy builds into target/scratch-kind (the
# dependencies are shared with nothing else, so the first run builds them;
# set CARGO_TARGET_DIR to reuse a build). Needs g++ as `cargo test` does.
# Usage: scripts/scratch-kind.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

# The working tree as git sees it (tracked and untracked, not ignored).
(cd "$root" && git ls-files -z --cached --others --exclude-standard) |
  (cd "$root" && xargs -0 cp --parents -t "$scratch" 2>/dev/null || true)

kinds="$scratch/transforms/src/kinds"
cp "$root/scripts/scratch-kind/reverse.rs" "$kinds/reverse.rs"
list="$scratch/transforms/src/list.rs"
# A module and its struct, each after the last of its kind.
sed -i 's/^pub mod xor;$/pub mod xor;\npub mod reverse;/' "$kinds/mod.rs"
sed -i 's/^pub use xor::XorParams;$/pub use xor::XorParams;\npub use reverse::ReverseParams;/' "$kinds/mod.rs"
# The row goes after the list's last row (`Kind: module::KindParams,`).
last="$(grep -n -E '^ +[A-Za-z]+: [a-z_]+::[A-Za-z]+,$' "$list" | tail -n 1 | cut -d: -f1)"
sed -i "${last}a\\            Reverse: reverse::ReverseParams," "$list"
cp "$root/scripts/scratch-kind/scratch_kind.rs" "$scratch/tests/scratch_kind.rs"

# What changed against the tree: the new module, the three lines (two in
# kinds/mod.rs, the row in list.rs), the check.
changed="$(cd "$scratch" && diff -r -q "$root/transforms/src" transforms/src || true)"
echo "$changed"
added="$(
  diff "$root/transforms/src/kinds/mod.rs" "$kinds/mod.rs" | grep '^>'
  diff "$root/transforms/src/list.rs" "$list" | grep '^>'
)" || true
if [ "$(echo "$changed" | wc -l)" != 3 ] || [ "$(echo "$added" | wc -l)" != 3 ] ||
  [ "$(echo "$added" | grep -c -e '^> pub mod reverse;$' -e '^> pub use reverse::ReverseParams;$' -e '^> *Reverse: reverse::ReverseParams,$')" != 3 ]; then
  echo "scratch-kind: the edit of the list did not apply as planned" >&2
  exit 1
fi

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target/scratch-kind}"
cd "$scratch"
cargo test --locked -p cktile-transforms --test transforms drawn_
cargo test --locked -p cktile --test scratch_kind --test program --test bounds --test codegen_cuda --test properties
echo "scratch-kind: a new kind needed its module, its two lines in kinds/mod.rs and its row of the list, nothing else"
