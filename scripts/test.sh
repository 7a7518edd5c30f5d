#!/usr/bin/env bash
# Every test, from a fresh clone: installs what is missing (wasm target, wasm-bindgen CLI, Node 22 and 24, npm
# packages, Chromium), builds the wasm, then runs the Rust tests natively and under wasm on Node, the JS suites in
# Node 22, Node 24, the machine's Node and Bun, the `record view` page in headless Chromium, the package as packed
# and installed, and the end-to-end suites inside the real opencode, Claude Code and Codex.
set -euo pipefail
cd "$(dirname "$0")/.."
# Hook processes in the suites start warm hook helpers (README, "Hook mode's warm helper"). Those of a temporary
# install leave when its files go; those of this checkout would wait out their idle time, so they are stopped here.
trap 'pkill -f "$PWD/plugin/record.cjs hook --serve" || true' EXIT
# Each step says when it starts and how long the one before it took, so a slow step shows in CI's log.
last=$SECONDS
step() { printf '\n== %s   (+%ss, %ss in all)\n' "$*" "$((SECONDS - last))" "$SECONDS" >&2; last=$SECONDS; }

step "install"
# npm install, not npm ci: opencode-ai lists optional binaries for other platforms that this registry does not
# serve, so the lock file cannot name them and npm ci refuses it as out of sync.
[ -x node_modules/.bin/bun ] && [ -x node_modules/.bin/esbuild ] && [ -x node_modules/.bin/opencode ] && [ -x node_modules/.bin/claude ] \
  && [ -x node_modules/.bin/codex ] && [ -d node_modules/@modelcontextprotocol/sdk ] && [ -d node_modules/pg-copy-streams ] \
  && [ -d node_modules/jsonc-parser ] && [ -d node_modules/@rainbowatcher/toml-edit-js ] && [ -d node_modules/diff ] \
  && [ -d node_modules/uplot ] && [ -d node_modules/playwright-core ] \
  || npm install --no-audit --no-fund
bash scripts/build.sh
# The export suites (tests/js/export*.test.js) start throwaway PostgreSQL clusters of their own.
bash scripts/postgres.sh >/dev/null

step "rust: format, lints, native tests"
cargo fmt --check -p recordings-core
# The library is held to purity (crate/clippy.toml: no clock, file, environment or process); the tests may read
# their fixtures.
cargo clippy --quiet -p recordings-core --lib -- -D warnings
cargo clippy --quiet -p recordings-core --all-targets -- -D warnings -A clippy::disallowed-methods -A clippy::disallowed-types
cargo test --quiet -p recordings-core
step "rust: wasm32 on node (wasm-bindgen-test)"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER="$PWD/.tools/bin/wasm-bindgen-test-runner" \
  cargo test -p recordings-core --target wasm32-unknown-unknown

# The JS suites in each supported Node line (installed by setup.sh into .tools/), then the machine's own Node,
# whose code cache the build trained and the steps after this one use. Two files at a time: the suites share no
# state, and the machine has two cores.
for runtime in .tools/node22/node_modules/.bin/node .tools/node24/node_modules/.bin/node node; do
  step "js: node $("$runtime" --version)"
  bash scripts/train-cache.sh "$runtime" # V8 accepts only a cache its own version wrote
  "$runtime" --test --test-concurrency=2 tests/js/*.test.js
done
step "js: bun"
node_modules/.bin/bun test --timeout 120000 tests/js/
# The `record view` page in Debian's headless Chromium (installed when missing), offline, via playwright-core.
step "browser: the record view page in headless Chromium"
bash scripts/chromium.sh >/dev/null
node --test --test-concurrency=1 tests/browser/
step "package: packed from a clean clone, installed without Rust, used in Node 22, 24 and Bun"
node --test --test-concurrency=1 tests/package/
step "e2e: the plugin inside the real opencode"
bash tests/e2e/run.sh
step "e2e: the packed package loaded by name in the real opencode"
node --test --test-concurrency=1 tests/e2e/by-name.e2e.test.js
step "e2e: real Claude Code and Codex with hook mode and the MCP server"
node --test --test-concurrency=1 tests/hosts/
# Recall needs SQLite, which the machine's Node 20 lacks: its real-host run goes again under Node 22.
step "e2e: recall through the real Claude Code under Node 22"
.tools/node22/node_modules/.bin/node --test --test-concurrency=1 tests/hosts/recall.e2e.test.js
step "done"
