#!/usr/bin/env bash
# Builds the core to wasm and generates its JS bindings into plugin/wasm/ (not committed).
# --target web: the bindings plus an initSync() that plugin/core.js feeds with the .wasm bytes; this is
# the output that loads both in Node 20 ESM and in Bun (the nodejs and bundler targets fail in one of them).
# --experimental-reset-state-function: exports __wbg_reset_state(), so a trapped instance is recovered.
# --remove-name-section: the function names (a tenth of the file) only name frames in a trap's stack, which the
# plugin never shows; without them the package is smaller and V8 has less to read. A build without the flag keeps
# them for debugging.
# Then the `record` command (plugin/cli/index.js with hook mode, recall and the recording path, bindings included;
# not the read/doctor/mcp subcommands) is bundled into one CommonJS file, plugin/cli.bundle.cjs, hook mode's
# deciding part into a second, plugin/hook.bundle.cjs, what hook mode writes and hints with into a third,
# plugin/hook-write.bundle.cjs, recall alone into a fourth, plugin/recall.bundle.cjs, and training runs of hook mode
# and recall write V8's code cache for each, plugin/<name>.bundle.cache (none committed). The `record` bin loads
# them through plugin/record.cjs: see the two headers for why (Node 20 loads each ES module through its async
# loader, and compiling the bundle's functions is most of what a one-entry process does besides Node's own start).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --quiet --release --target wasm32-unknown-unknown -p recordings-core
.tools/bin/wasm-bindgen "${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release/recordings_core.wasm" \
  --out-dir plugin/wasm --target web --no-typescript --experimental-reset-state-function --remove-name-section
[ -x node_modules/.bin/esbuild ] || npm install --no-audit --no-fund
rm -f plugin/recorder.bundle.js plugin/*.bundle.cache # (recorder.bundle.js: an older build's output)
# import.meta has no CommonJS equivalent: the bundle's computes its url from __filename (the wasm sits beside it)
# when first read, as few paths read it.
# ASCII only, comments dropped: the launcher reads the bundle as UTF-8, and a file with any other byte takes
# V8 the slow decoding path (tests/js/cli.test.js holds the bundles to it).
bundle() {
  node_modules/.bin/esbuild "$1" --bundle --platform=node --format=cjs --log-level=warning \
    --charset=ascii --minify-whitespace \
    --banner:js='const __recordMeta = { get url() { return require("node:url").pathToFileURL(__filename).href; } };' \
    --define:import.meta=__recordMeta --outfile="$2"
}
bundle plugin/cli/index.js plugin/cli.bundle.cjs
# Hook mode's deciding part alone (plugin/cli/hook-entry.js), and what it loads to write or hint (hook-write.js).
bundle plugin/cli/hook-entry.js plugin/hook.bundle.cjs
bundle plugin/cli/hook-write.js plugin/hook-write.bundle.cjs
# Recall alone (plugin/cli/recall-entry.js): `record recall` loads nothing else.
bundle plugin/cli/recall-entry.js plugin/recall.bundle.cjs
bash scripts/train-cache.sh node
# The `record view` page's script and styles (uPlot included), each inlined into the page it writes and allowed
# there by its hash; built into plugin/view/dist/ (not committed) and shipped in the package.
node_modules/.bin/esbuild plugin/view/client/main.js --bundle --minify --format=iife --target=es2020 --platform=browser \
  --legal-comments=none --log-level=warning --outfile=plugin/view/dist/page.js
node_modules/.bin/esbuild plugin/view/client/style.css --bundle --minify --log-level=warning --outfile=plugin/view/dist/page.css
