#!/usr/bin/env bash
# `npm run bench`: builds the wasm core, then runs every benchmark. Each rewrites only its own section of
# BENCHMARKS.md (between its <!-- ...:start --> / <!-- ...:end --> markers), and each measures its
# baseline in the same run:
#   bench/run.js        core + writer in process, module load, .wasm size, CLI process, many processes, rotation
#   bench/plugin.js     the opencode plugin: record tool execute, hook overhead on a bash call
#   bench/redaction.js  redaction throughput through wasm vs the same rules as JS RegExp (Node and Bun)
#   bench/read.js       record read over a 100 MiB multi-segment fixture, resume from a cursor
#   bench/hosts.js      hook-mode process time vs a bare runtime start, MCP round trip
#   bench/export.js     record export into PostgreSQL vs a bare COPY; a rerun with nothing new
#   bench/recall.js     the recall index over 100,000 entries: build, size, recall in the plugin and as a process, hints
#   bench/package.js    tarball and installed size; hook start-up from the install in each Node line and Bun
#   bench/fingerprint.js  red to green: the failure fingerprint's cost on a capture, the passing-gate check
#   bench/view.js       record view over a 100,000-entry history; the page in Chromium
#   bench/team.js       record sync: pulling team rows, recall with team rows
# Pass --quick for a short smoke run of bench/run.js only.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x node_modules/.bin/bun ] || npm install --no-audit --no-fund
bash scripts/build.sh
node bench/run.js "$@"
[ "${1:-}" = "--quick" ] && exit 0
node bench/plugin.js
node bench/redaction.js
node bench/read.js
node bench/hosts.js
node bench/export.js
node bench/recall.js
node bench/package.js
node bench/fingerprint.js
node bench/view.js
.tools/node22/node_modules/.bin/node bench/team.js # node:sqlite
