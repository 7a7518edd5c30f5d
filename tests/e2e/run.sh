#!/usr/bin/env bash
# End-to-end tests of the opencode plugin inside the real opencode (offline, mock LLM on 127.0.0.1).
# Needs `npm install` (the pinned opencode-ai dev dependency) and the built wasm (plugin/wasm/).
# About 40 s on two cores. KEEP_E2E=1 keeps each sandbox under $TMPDIR for inspection.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec node --test --test-concurrency=1 "$@" tests/e2e/opencode.e2e.test.js tests/e2e/recall.e2e.test.js tests/e2e/green.e2e.test.js
