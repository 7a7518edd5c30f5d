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
# Recall needs SQLite: Bun ran its suites above; Node has it from 22.5 (under Node 20 they assert the message
# recall gives there and skip the rest, saying so). Run them under a newer Node where one is installed.
recall_node=""
for n in "${RECORDINGS_NODE22:-}" .tools/node22/node_modules/.bin/node "$(command -v node22 || true)" "$(command -v node24 || true)"; do
  [ -n "$n" ] && [ -x "$n" ] && "$n" -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=5)?0:1)' && { recall_node="$n"; break; }
done
if [ -n "$recall_node" ]; then
  step "js: recall suites under $("$recall_node" --version)"
  "$recall_node" --test --test-concurrency=1 tests/js/recall*.test.js
else
  step "js: recall suites under Node skipped: no Node >= 22.5 found (RECORDINGS_NODE22=/path/to/node to name one)"
fi
step "e2e: the plugin inside the real opencode"
bash tests/e2e/run.sh
step "e2e: real Claude Code and Codex with hook mode and the MCP server"
node --test --test-concurrency=1 tests/hosts/
if [ -n "$recall_node" ]; then
  step "e2e: recall through the real Claude Code under $("$recall_node" --version)"
  "$recall_node" --test --test-concurrency=1 tests/hosts/recall.e2e.test.js
fi
