#!/usr/bin/env bash
# `npm run bench`: builds the wasm core, then runs the benchmarks, each of which rewrites its own section of
# BENCHMARKS.md (between its <!-- ...:start --> / <!-- ...:end --> markers):
#   bench/run.js     the writer, core + writer in process, CLI process, many processes, rotation (Node and Bun)
#   bench/plugin.js  the opencode plugin's hooks (when present)
# Pass --quick to bench/run.js for a short smoke run: `bash scripts/bench.sh --quick`.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x node_modules/.bin/bun ] || npm ci --no-audit --no-fund
bash scripts/build.sh
node bench/run.js "$@"
if [ -f bench/plugin.js ] && [ "${1:-}" != "--quick" ]; then
  node bench/plugin.js
fi
