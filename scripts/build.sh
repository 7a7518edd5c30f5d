#!/usr/bin/env bash
# Builds the core to wasm and generates its JS bindings into plugin/wasm/ (not committed).
# --target web: the bindings plus an initSync() that plugin/core.js feeds with the .wasm bytes; this is
# the output that loads both in Node 20 ESM and in Bun (see ../shared/TOOLCHAIN.md).
# --experimental-reset-state-function: exports __wbg_reset_state(), so a trapped instance is recovered.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --quiet --release --target wasm32-unknown-unknown -p recordings-core
.tools/bin/wasm-bindgen target/wasm32-unknown-unknown/release/recordings_core.wasm \
  --out-dir plugin/wasm --target web --no-typescript --experimental-reset-state-function
