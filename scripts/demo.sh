#!/usr/bin/env bash
# The main job, end to end: build, then record one entry of each input style (and one broken one)
# through the real `record` CLI into a throwaway git repo, and print what landed where.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
[ -x node_modules/.bin/bun ] && [ -x node_modules/.bin/esbuild ] || npm install --no-audit --no-fund
bash scripts/build.sh

demo=$(mktemp -d "${TMPDIR:-/tmp}/recordings-demo.XXXXXX")
git -C "$demo" init -q
git -C "$demo" remote add origin https://example.com/acme/widgets.git
git -C "$demo" -c user.name=demo -c user.email=demo@example.com commit -q --allow-empty -m "first"
export AI_RECORDINGS_FILE="$demo/recordings/ai_recordings.jsonl"
export XDG_STATE_HOME="$demo/state"
record() { (cd "$demo" && node "$root/plugin/record.cjs" --json --session demo-session "$@"); }

echo "# recording into $AI_RECORDINGS_FILE"
record -- '{"category": "tool lied", "finding": "npm test printed ok but ran 0 suites", "sentiment": {"irritation": 0.7}, "n": 1.0}'
record -- 'category=bad judgement | finding: trusted a stale cache | result: shipped a broken build {grade: F, confidence: high}'
record -- 'Reverted my own fix: it made the flake worse. sentiment: guilt, relief'
record -- 'The deploy log echoed DATABASE_URL=postgres://app:hunter2-prod-pass@db.internal:5432/app'
record -- '{"note": "unterminated'
echo
echo "# $AI_RECORDINGS_FILE"
cat "$AI_RECORDINGS_FILE"
echo
echo "# ${AI_RECORDINGS_FILE%.jsonl}.quarantine.jsonl"
cat "${AI_RECORDINGS_FILE%.jsonl}.quarantine.jsonl"
echo
echo "# the page of this history (record view): open it in a browser"
(cd "$demo" && node "$root/plugin/record.cjs" view)
