#!/usr/bin/env bash
# Every test, from a fresh clone: installs what is missing (wasm target, wasm-bindgen CLI, npm packages),
# builds the wasm, then runs the Rust tests natively and under wasm on Node, the JS suites in Node and
# in Bun, and the end-to-end suite inside the real opencode.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s\n' "$*" >&2; }

step "install"
# npm install, not npm ci: opencode-ai lists optional binaries for other platforms that this registry does not
# serve, so the lock file cannot name them and npm ci refuses it as out of sync.
[ -x node_modules/.bin/bun ] && [ -x node_modules/.bin/esbuild ] && [ -x node_modules/.bin/opencode ] && [ -x node_modules/.bin/claude ] \
  && [ -x node_modules/.bin/codex ] && [ -d node_modules/@modelcontextprotocol/sdk ] && [ -d node_modules/pg-copy-streams ] || npm install --no-audit --no-fund
bash scripts/build.sh
# The export suites (tests/js/export*.test.js) start throwaway PostgreSQL clusters of their own.
bash scripts/postgres.sh >/dev/null

step "rust: format, lints, native tests"
cargo fmt --check -p recordings-core
cargo clippy --quiet -p recordings-core --all-targets -- -D warnings
cargo test --quiet -p recordings-core
step "rust: wasm32 on node (wasm-bindgen-test)"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER="$PWD/.tools/bin/wasm-bindgen-test-runner" \
  cargo test -p recordings-core --target wasm32-unknown-unknown

step "js: node"
node --test --test-concurrency=1 tests/js/
step "js: bun"
node_modules/.bin/bun test --timeout 120000 tests/js/
step "e2e: the plugin inside the real opencode"
bash tests/e2e/run.sh
step "e2e: real Claude Code and Codex with hook mode and the MCP server"
node --test --test-concurrency=1 tests/hosts/
