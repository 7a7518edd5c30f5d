#!/usr/bin/env bash
# Builds the core to wasm and generates its JS bindings into plugin/wasm/ (not committed).
# --target web: the bindings plus an initSync() that plugin/core.js feeds with the .wasm bytes; this is
# the output that loads both in Node 20 ESM and in Bun (see ../shared/TOOLCHAIN.md).
# --experimental-reset-state-function: exports __wbg_reset_state(), so a trapped instance is recovered.
# Then the recording path (plugin/recorder.js and what it imports, bindings included) is bundled into one
# module, plugin/recorder.bundle.js (not committed), which the `record` CLI and hook mode load: Node 20 loads
# each ES module through its async loader, ~1 ms apiece here, and a one-entry process pays that for every file.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --quiet --release --target wasm32-unknown-unknown -p recordings-core
.tools/bin/wasm-bindgen target/wasm32-unknown-unknown/release/recordings_core.wasm \
  --out-dir plugin/wasm --target web --no-typescript --experimental-reset-state-function
[ -x node_modules/.bin/esbuild ] || npm install --no-audit --no-fund
node_modules/.bin/esbuild plugin/recorder.js --bundle --platform=node --format=esm --log-level=warning \
  --outfile=plugin/recorder.bundle.js
