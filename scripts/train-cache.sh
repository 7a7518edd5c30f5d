#!/usr/bin/env bash
# Trains V8's code cache for the CLI bundle, plugin/cli.bundle.cache, with the Node given (default: `node` on
# PATH): one Claude Code gate failure through hook mode, recorded into a scratch directory. A cache is only
# accepted by the V8 that wrote it, so the test scripts run this again before each Node line's suites.
set -euo pipefail
cd "$(dirname "$0")/.."
runtime="${1:-node}"
rm -f plugin/cli.bundle.cache
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
env -i PATH="$PATH" HOME="$scratch" XDG_STATE_HOME="$scratch/state" AI_RECORDINGS_FILE="$scratch/r.jsonl" \
  AI_RECORDINGS_CODE_CACHE_OUT=plugin/cli.bundle.cache \
  "$runtime" plugin/record.cjs hook claude-code < <(sed -e "s#\${FIXTURE}#$PWD/tests/fixtures/hosts#g" -e "s#\${PROJECT}#$PWD#g" \
    tests/fixtures/hosts/claude-code/post-tool-use-failure-gate.json)
grep -q '"gate.failed"' "$scratch/r.jsonl" || { echo "train-cache: the code-cache training run wrote no entry" >&2; exit 1; }
