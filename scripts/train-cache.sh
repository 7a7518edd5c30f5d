#!/usr/bin/env bash
# Trains V8's code caches for the `record` command's bundles with the Node given (default: `node` on PATH), into
# plugin/<name>.bundle.cache: hook mode's bundle on a passing Bash call (what most hook calls are: nothing
# written), then it and the hook-write bundle on two Claude Code gate failures (hook mode loads the latter to write
# each; the second finds the recall index made by the first and catches it up, as most hints do), then `record
# recall` (recall's own bundle) and `record TEXT` (the CLI bundle), all recorded into a scratch directory. Each run
# starts from the cache the one before wrote and writes it back with what it compiled besides, so a cache holds
# every path trained. A cache is only accepted by the V8 that wrote it, so the test scripts run this again before
# each Node line's suites.
set -euo pipefail
cd "$(dirname "$0")/.."
runtime="${1:-node}"
rm -f plugin/*.bundle.cache
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
# No warm hook helper: each hook process compiles its own code, which is what the caches are trained on.
run() {
  env -i PATH="$PATH" HOME="$scratch" XDG_STATE_HOME="$scratch/state" AI_RECORDINGS_FILE="$scratch/r.jsonl" \
    AI_RECORDINGS_HOOK_HELPER=0 AI_RECORDINGS_CODE_CACHE_OUT=plugin "$runtime" plugin/record.cjs "$@"
}
hook() { run hook claude-code; }
hook <<<"{\"session_id\":\"train\",\"cwd\":\"$PWD\",\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"npm test\"},\"tool_response\":{\"stdout\":\"ok\",\"stderr\":\"\"},\"tool_use_id\":\"t\"}"
failure() { sed -e "s#\${FIXTURE}#$PWD/tests/fixtures/hosts#g" -e "s#\${PROJECT}#$PWD#g" tests/fixtures/hosts/claude-code/post-tool-use-failure-gate.json; }
hook < <(failure)
hook < <(failure)
# (recall needs SQLite: Node 22.5 or later; an older Node says so and the run goes on)
run recall "the tests failed" >/dev/null 2>&1 || true
run "the integration tests need the database container up first" >/dev/null
grep -q '"gate.failed"' "$scratch/r.jsonl" || { echo "train-cache: the code-cache training run wrote no entry" >&2; exit 1; }
for f in plugin/cli.bundle.cache plugin/hook.bundle.cache plugin/hook-write.bundle.cache plugin/recall.bundle.cache; do
  [ -s "$f" ] || { echo "train-cache: the training runs wrote no $f" >&2; exit 1; }
done
