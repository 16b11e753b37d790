#!/usr/bin/env bash
# The guide's layout explorer in a real browser: installs what is missing
# (Debian's chromium and chromium-driver with apt-get; selenium from PyPI in
# a venv under target/), builds the book if it has no explorer yet, then runs
# scripts/explorer-test.py: headless Chromium against docs/book served on
# 127.0.0.1, its numbers compared with `cktile analyze --json`.
#   scripts/explorer-test.sh            (.ci/run runs it after build-book.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

SELENIUM_VERSION=4.51.0
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver fonts-dejavu-core
fi
# python3 -m venv needs ensurepip (Debian packages it as python3-venv).
if ! python3 -c "import ensurepip" 2>/dev/null; then
  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y python3-venv
fi
venv=target/explorer-venv
if ! "$venv/bin/python" -c "import selenium, sys; sys.exit(selenium.__version__ != '$SELENIUM_VERSION')" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "selenium==$SELENIUM_VERSION"
fi
[ -f docs/book/explorer/pkg/cktile_wasm_bg.wasm ] || scripts/build-book.sh
# The command line in the dev profile, whose build .ci/run's tests made
# (a release build took a minute of CI; the checks take the same time
# against either).
cargo build --quiet --bin cktile
# Bounded: a hung browser or server must not hang CI.
timeout 600 "$venv/bin/python" scripts/explorer-test.py "${CARGO_TARGET_DIR:-target}/debug/cktile" docs/book
