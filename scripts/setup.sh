#!/usr/bin/env bash
# Installs what the build needs, idempotently: the wasm32 target and the wasm-bindgen CLI at exactly the
# version Cargo.lock pins for the wasm-bindgen crate (a mismatch fails with "schema versions must exactly
# match"). The CLI is built from the crate registry into .tools/, since GitHub downloads (wasm-pack's
# default) are unreachable here. Takes ~2-3 min the first time, ~0.1 s afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi

want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
have=$(.tools/bin/wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  echo "setup: building wasm-bindgen-cli $want into .tools/ (one-time, about two minutes)" >&2
  # --locked is left off on purpose: a transitive dependency's locked version is missing from this registry.
  # --debug: an unoptimised build compiles in well under half the time, and its output is byte-identical; it
  # runs once per build (about half a second) and as the wasm tests' runner.
  cargo install wasm-bindgen-cli --version "$want" --root .tools --force --debug >&2
fi

# The supported Node lines, for the test scripts: the node@22 and node@24 npm packages ship the binaries.
# Installed into .tools/node22 and .tools/node24 (never globally), pinned; each is ~100 MB and installs in seconds
# from a warm npm cache.
for line in 22.23.3 24.21.0; do
  dir=".tools/node${line%%.*}"
  if [ "$("$dir/node_modules/.bin/node" --version 2>/dev/null)" != "v$line" ]; then
    echo "setup: installing node@$line into $dir" >&2
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-audit --no-fund --no-save --loglevel=error "node@$line" >&2
  fi
done
