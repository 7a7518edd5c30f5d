// End-to-end: recall inside the real opencode (pinned opencode-ai), offline, driven by the scripted mock LLM.
// A past lesson is recorded in the sandbox's repository first; then a failing gate in that repository must
// reach the model with the hint in its tool result, an unrelated failure must reach it unchanged, and the
// `recall` tool must answer with the lesson's eid. Run: tests/e2e/run.sh (it runs every tests/e2e/*.e2e.test.js).

import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { E2E_ENV, OPENCODE, REPO, makeSandbox, sandboxEnv, useMockLlm, runOpencode } from "./harness.js";
import { record } from "../../plugin/recorder.js";
import { teammateExports } from "../js/team-helpers.js";

const ENV = E2E_ENV;
const FAIL_JS = `console.log("running 3 tests");
console.error("Error: ENOENT: no such file or directory, open 'fixtures/widget-golden.json'");
process.exit(3);
`;
const LESSON = "lesson: npm test fails with ENOENT for fixtures/widget-golden.json on a fresh clone: the golden files are generated, run npm run fixtures first";

const e2e = useMockLlm();

/** A sandbox whose project fails `npm test` as FAIL_JS does, with the lesson recorded there by an earlier session
 *  (`local: false`: without it). */
function sandbox({ local = true } = {}) {
  const dirs = makeSandbox({
    mockUrl: e2e.mock.url,
    files: {
      "package.json": JSON.stringify({ name: "widget", version: "1.0.0", private: true, scripts: { test: "node fail.js" } }),
      "fail.js": FAIL_JS,
    },
  });
  e2e.sandboxes.push(dirs);
  const file = path.join(dirs.root, "rec.jsonl");
  const cfgPath = path.join(dirs.project, "opencode.json");
  const cfg = JSON.parse(fs.readFileSync(cfgPath, "utf8"));
  cfg.plugin = [[cfg.plugin[0][0], { file }]];
  fs.writeFileSync(cfgPath, JSON.stringify(cfg, null, 2));
  const env = { HOME: dirs.home, XDG_STATE_HOME: dirs.state, XDG_DATA_HOME: dirs.data };
  if (!local) return { dirs, file, eid: null };
  const past = record(LESSON, { file, env, cwd: dirs.project, session: "ses_earlier", capture: "agent" });
  assert.equal(past.status, "recorded");
  return { dirs, file, eid: past.eid };
}

/** The tool results (role "tool" messages) of the request the model received after the first tool call. */
function toolResultsSeen(captured) {
  return (captured?.messages ?? []).filter((m) => m.role === "tool").map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

function scriptCapturing(first, sink) {
  return ({ n, body }) => {
    if (n === 0) return first;
    if (n === 1) {
      sink.body = body;
      return { text: "done" };
    }
    return { text: "done" };
  };
}

test("a failing gate in a repository with a matching past entry: the next request carries the hint", async () => {
  const { dirs, eid } = sandbox();
  const seen = {};
  e2e.mock.script = scriptCapturing({ tool: "bash", args: { command: "npm test", description: "run the tests" } }, seen);
  const run = await runOpencode(dirs, "run the tests", { env: ENV });
  assert.equal(run.code, 0, run.stderr.slice(-2000));
  const [result] = toolResultsSeen(seen.body);
  assert.ok(result, "the model received the bash result");
  assert.ok(result.includes("ENOENT: no such file or directory"), "the output itself is there");
  const hint = result.slice(result.indexOf("[recordings] "));
  assert.ok(hint.startsWith("[recordings] Past entries from this repository that match this failure"), result);
  assert.ok(hint.includes(eid), hint);
  assert.ok(Buffer.byteLength(hint) <= 1024);
});

test("an unrelated failure reaches the model unchanged", async () => {
  const { dirs } = sandbox();
  const seen = {};
  const command = `node -e 'console.error("TypeError: widget.spin is not a function"); process.exit(1)'`;
  e2e.mock.script = scriptCapturing({ tool: "bash", args: { command, description: "spin" } }, seen);
  const run = await runOpencode(dirs, "spin the widget", { env: ENV });
  assert.equal(run.code, 0, run.stderr.slice(-2000));
  const [result] = toolResultsSeen(seen.body);
  assert.ok(result.includes("TypeError: widget.spin is not a function"), result);
  assert.ok(!result.includes("[recordings]"), result);
});

test("the recall tool is offered and returns the expected eid", async () => {
  const { dirs, eid } = sandbox();
  const seen = {};
  e2e.mock.script = scriptCapturing({ tool: "recall", args: { query: "ENOENT widget-golden.json", scope: "repo" } }, seen);
  const run = await runOpencode(dirs, "what do we know about the golden files?", { env: ENV });
  assert.equal(run.code, 0, run.stderr.slice(-2000));
  const offered = (seen.body?.tools ?? []).find((t) => t.function?.name === "recall");
  assert.ok(offered, "recall is among the tools");
  assert.match(offered.function.description, /after a failure/);
  assert.deepEqual(Object.keys(offered.function.parameters.properties).sort(), ["query", "scope"]);
  const [result] = toolResultsSeen(seen.body);
  assert.ok(result.startsWith(`${eid}  `), result);
  assert.ok(result.includes("npm test fails with ENOENT"), result);
});

test("team memory: a lesson only a teammate recorded and exported is in the hint, marked as theirs", async () => {
  const { dirs, file } = sandbox({ local: false });
  const mate = await teammateExports({
    origin: "git@example.com:acme/widget.git",
    // The same lesson the local case finds: this case is about where it comes from, not how it ranks.
    lesson: LESSON,
  });
  try {
    // `record sync` as the plugin's background pull runs it: opencode's own runtime (Bun) with bun:sqlite.
    const s = spawnSync(OPENCODE, [path.join(REPO, "plugin/cli/index.js"), "sync", "--from", mate.url, "--file", file, "--json"], {
      cwd: dirs.project,
      env: { ...sandboxEnv(dirs), BUN_BE_BUN: "1" },
      encoding: "utf8",
    });
    assert.equal(s.status, 0, s.stderr);
    assert.equal(JSON.parse(s.stdout).added, 1, s.stdout);
    const seen = {};
    e2e.mock.script = scriptCapturing({ tool: "bash", args: { command: "npm test", description: "run the tests" } }, seen);
    const run = await runOpencode(dirs, "run the tests", { env: ENV });
    assert.equal(run.code, 0, run.stderr.slice(-2000));
    const [result] = toolResultsSeen(seen.body);
    const hint = result.slice(result.indexOf("[recordings] "));
    assert.ok(hint.startsWith("[recordings] Past entries from this repository that match this failure"), result);
    const line = hint.split("\n").find((l) => l.startsWith(`${mate.eid}  `));
    assert.ok(line, hint);
    assert.match(line, /  team: \S+$/);
  } finally {
    mate.destroy();
  }
});
