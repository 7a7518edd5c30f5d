// End-to-end: the plugin inside the real opencode (pinned opencode-ai), headless and offline, driven by the
// scripted mock LLM. Every assertion is on the lines that landed in the recordings file.
// Run: tests/e2e/run.sh [--test-name-pattern=...]. KEEP_E2E=1 keeps the sandboxes for inspection.

import { test } from "node:test";
import { entries } from "../js/helpers.js";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { E2E_ENV, makeSandbox, useMockLlm, runOpencode, warmUp, REPO } from "./harness.js";

const CLI = path.join(REPO, "plugin/record.cjs"); // the `record` command as installed (package.json "bin")
const ENV = E2E_ENV;
const e2e = useMockLlm();

/** A sandbox whose plugin writes to <root>/rec.jsonl (never the user's default file). */
function sandbox({ auto, file, files, config } = {}) {
  const dirs = makeSandbox({ mockUrl: e2e.mock.url, pluginOptions: {}, files, config });
  const target = file ? file(dirs) : path.join(dirs.root, "rec.jsonl");
  const opts = { file: target };
  if (auto) opts.auto = auto;
  const cfgPath = path.join(dirs.project, "opencode.json");
  const cfg = JSON.parse(fs.readFileSync(cfgPath, "utf8"));
  cfg.plugin = [[cfg.plugin[0][0], opts]];
  fs.writeFileSync(cfgPath, JSON.stringify(cfg, null, 2));
  e2e.sandboxes.push(dirs);
  return { dirs, file: target };
}

/** The script that plays `turns` in order (by the number of assistant messages so far), then says "done". */
const turns = (list) => ({ n }) => list[n] ?? { text: "done" };

function toolOutputs(run, tool) {
  return run.events.filter((e) => e.type === "tool_use" && (!tool || e.part?.tool === tool)).map((e) => e.part?.state?.output ?? e.part?.state?.error);
}

function assertStamped(line, run, capture) {
  assert.equal(line.session, run.sessionID, "session stamp is the run's session");
  assert.equal(line.model, "mock/m");
  assert.equal(line.capture, capture);
  assert.match(line.eid, /\S/);
  assert.match(line.ts, /^\d{4}-\d\d-\d\dT/);
  assert.equal(line.repo, "widget");
  assert.equal(line.origin, "https://example.com/acme/widget.git");
}

test("the model records with each input style, and `record` from its shell stamps the same session", async () => {
  const { dirs, file } = sandbox();
  const json = '{"finding":"the cache key ignores the locale","confidence":1.0,"sentiment":{"surprise":["mild"]}}';
  const loose = "category=bad judgement | finding: I trusted the subagent's summary without reading the diff {grade: F}";
  const plain = "The fix I made to the retry loop doubled the latency; reverted it. sentiment: guilt, relief";
  e2e.mock.script = turns([
    { tool: "record", args: { entry: json } },
    { tool: "record", args: { entry: loose } },
    { tool: "record", args: { entry: plain } },
    { tool: "bash", args: { command: `node ${CLI} "noted from the shell"`, description: "record from the shell" } },
  ]);
  const run = await runOpencode(dirs, "record what you learned", { env: ENV });
  assert.equal(run.code, 0, run.stderr.slice(-2000));
  const lines = entries(file);
  assert.equal(lines.length, 4, JSON.stringify(lines, null, 1));
  const [a, b, c, d] = lines;
  for (const l of [a, b, c]) {
    assertStamped(l, run, "agent");
    assert.equal(l.agent, "build");
    assert.equal(l.pwd, dirs.project);
  }
  // The supplied JSON members read back byte-identical (1.0 stays 1.0).
  const raw = fs.readFileSync(file, "utf8").split("\n")[0];
  assert.ok(raw.includes('"finding":"the cache key ignores the locale","confidence":1.0,"sentiment":{"surprise":["mild"]}'), raw);
  assert.equal(b.category, "bad judgement");
  assert.equal(b.raw, loose);
  assert.equal(c.raw, plain);
  assert.ok(c.sentiment, "plain text keeps its sentiment tail");
  // The shell's `record` got the session, model, agent and file through shell.env.
  assert.equal(d.capture, "cli");
  assert.equal(d.session, run.sessionID);
  assert.equal(d.model, "mock/m");
  assert.equal(d.agent, "build");
  assert.equal(d.note, "noted from the shell");
  // The tool answered with one line naming the eid and file.
  const outs = toolOutputs(run, "record");
  assert.deepEqual(outs, [a, b, c].map((l) => `recorded ${l.eid} → ${file}`));
  assert.equal(new Set(lines.map((l) => l.eid)).size, 4);
});

test("a failing gate is recorded once; a failing non-gate command and a passing gate are not", async () => {
  const pkg = { name: "widget", private: true, scripts: { test: "echo 'not ok 1 - adds two numbers'; exit 1", build: "echo built" } };
  const { dirs, file } = sandbox({ files: { "package.json": JSON.stringify(pkg) } });
  e2e.mock.script = turns([
    { tool: "bash", args: { command: "npm test", description: "Run the tests" } },
    { tool: "bash", args: { command: "ls no-such-dir", description: "List" } },
    { tool: "bash", args: { command: "npm run build", description: "Build" } },
  ]);
  const run = await runOpencode(dirs, "run the tests", { env: ENV });
  assert.equal(run.code, 0, run.stderr.slice(-2000));
  const lines = entries(file);
  assert.equal(lines.length, 1, JSON.stringify(lines, null, 1));
  const [g] = lines;
  assertStamped(g, run, "auto");
  assert.equal(g.trigger, "gate.failed");
  assert.equal(g.command, "npm test");
  assert.equal(g.exit, 1);
  assert.match(g.output_tail, /not ok 1 - adds two numbers/);
  assert.equal(typeof g.output_bytes, "number");
  assert.equal(g.agent, "build");
});

test("a subagent's completion is recorded with its brief, child session, result and duration", async () => {
  const { dirs, file } = sandbox();
  const brief = { description: "Count files", prompt: "Count the files in the project and report only the number.", subagent_type: "general" };
  // The root session offers the task tool; the subagent session does not (task is denied to subagents).
  // The subagent records something itself before answering.
  e2e.mock.script = ({ n, tools }) =>
    tools.includes("task")
      ? n === 0 ? { tool: "task", args: brief } : { text: "the subagent counted" }
      : n === 0 ? { tool: "record", args: { entry: "I was asked to count, I refactored instead. sentiment: guilt" } }
      : { text: "There are 3 files, and I also refactored the build." };
  const run = await runOpencode(dirs, "how many files?", { env: ENV });
  assert.equal(run.code, 0, run.stderr.slice(-2000));
  const lines = entries(file);
  assert.equal(lines.length, 2, JSON.stringify(lines, null, 1));
  const [mine, s] = lines;
  assert.equal(mine.capture, "agent");
  assert.equal(mine.session, s.child_session, "the subagent's own entry carries its session...");
  assert.equal(mine.parent_session, run.sessionID, "...and the root session it worked for");
  assert.equal(mine.agent, "general");
  assert.equal(mine.model, "mock/m");
  assertStamped(s, run, "auto");
  assert.equal(s.trigger, "subagent.completed");
  assert.equal(s.description, brief.description);
  assert.equal(s.prompt, brief.prompt);
  assert.equal(s.subagent_type, "general");
  assert.match(s.child_session, /^ses_/);
  assert.notEqual(s.child_session, run.sessionID);
  assert.equal(s.result, "There are 3 files, and I also refactored the build.");
  assert.equal(typeof s.duration_ms, "number");
  assert.equal(s.subagent_model, "mock/m");
});

test("a tool that throws and a rejected permission are each recorded once as tool.failed", async () => {
  // `opencode run` auto-rejects permission asks (without --auto): ask for bash so the call is rejected.
  const { dirs, file } = sandbox({ config: { permission: { bash: "ask" } } });
  e2e.mock.script = turns([
    { tool: "read", args: { filePath: "does/not/exist.txt" } },
    { tool: "bash", args: { command: "echo hi", description: "Say hi" } },
  ]);
  const run = await runOpencode(dirs, "read the file", { env: ENV });
  assert.equal(run.code, 0, run.stderr.slice(-2000));
  const lines = entries(file);
  const failed = lines.filter((l) => l.trigger === "tool.failed");
  assert.equal(lines.length, failed.length);
  assert.deepEqual(failed.map((l) => l.tool), ["read", "bash"], JSON.stringify(lines, null, 1));
  for (const l of failed) assertStamped(l, run, "auto");
  assert.match(failed[0].error, /not found/i);
  assert.match(failed[0].args, /does\/not\/exist\.txt/);
  assert.match(failed[1].args, /echo hi/);
  assert.equal(failed[1].permission_reply, "reject");
  assert.equal(new Set(failed.map((l) => l.call)).size, 2);
});

test("an API error that ends the session is recorded once as session.error", async () => {
  const { dirs, file } = sandbox();
  e2e.mock.script = () => ({ status: 400, message: "mock: unsupported parameter 'foo'" });
  const run = await runOpencode(dirs, "hello", { env: ENV });
  assert.equal(run.code, 1);
  const lines = entries(file);
  assert.equal(lines.length, 1, JSON.stringify(lines, null, 1));
  const [e] = lines;
  assertStamped(e, run, "auto");
  assert.equal(e.trigger, "session.error");
  assert.equal(typeof e.name, "string");
  assert.match(e.message, /unsupported parameter/);
});

test("a compaction is recorded once as session.compacted", async () => {
  const { dirs, file } = sandbox();
  // A 400 that reads as a context overflow makes opencode summarise (a request with no tools) and go on.
  let overflowed = false;
  e2e.mock.script = ({ tools }) => {
    if (!tools.length) return { text: "Summary: the user said hello." };
    if (!overflowed) {
      overflowed = true;
      return { status: 400, message: "mock: context length exceeded" };
    }
    return { text: "continuing" };
  };
  const run = await runOpencode(dirs, "hello", { env: ENV });
  const lines = entries(file);
  // opencode reports the overflow as a session.error before compacting (and `run` then exits 1).
  assert.deepEqual(lines.map((l) => l.trigger), ["session.error", "session.compacted"], JSON.stringify(lines, null, 1));
  assert.equal(lines[0].name, "ContextOverflowError");
  for (const l of lines) assertStamped(l, run, "auto");
});

test("two opencode runs record into one file at once", async () => {
  const pkg = { name: "widget", private: true, scripts: { test: "echo FAIL; exit 2" } };
  const { dirs, file } = sandbox({ files: { "package.json": JSON.stringify(pkg) } });
  // One project and one recordings file, but each run its own opencode database (XDG_DATA_HOME): two runs
  // sharing one SQLite database failed here with opencode's own "database is locked", even after a warm-up.
  const envs = [ENV, { ...ENV, XDG_DATA_HOME: path.join(dirs.root, "data-two") }];
  for (const env of envs) warmUp(dirs, env);
  e2e.mock.script = turns([
    { tool: "record", args: { entry: '{"step":1}' } },
    { tool: "bash", args: { command: "npm test", description: "tests" } },
    { tool: "record", args: { entry: "second entry, plain" } },
  ]);
  const runs = await Promise.all([runOpencode(dirs, "one", { env: envs[0] }), runOpencode(dirs, "two", { env: envs[1] })]);
  for (const r of runs) assert.equal(r.code, 0, r.stderr.slice(-2000));
  assert.notEqual(runs[0].sessionID, runs[1].sessionID);
  const lines = entries(file);
  assert.equal(lines.length, 6, JSON.stringify(lines, null, 1));
  for (const r of runs) {
    const mine = lines.filter((l) => l.session === r.sessionID);
    assert.deepEqual(mine.map((l) => l.trigger ?? l.capture).sort(), ["agent", "agent", "gate.failed"]);
    for (const l of mine) assertStamped(l, r, l.trigger ? "auto" : "agent");
  }
  assert.equal(new Set(lines.map((l) => l.eid)).size, 6);
});

test("an unwritable target: nothing recorded, the tool says why, the session completes normally", async () => {
  // The parent of the target is a regular file: unwritable even for root (chmod would not stop root).
  const { dirs, file } = sandbox({
    file: (d) => {
      fs.writeFileSync(path.join(d.root, "blocker"), "");
      return path.join(d.root, "blocker", "rec.jsonl");
    },
    files: { "package.json": JSON.stringify({ name: "w", scripts: { test: "exit 1" } }) },
  });
  e2e.mock.script = turns([
    { tool: "record", args: { entry: "this will not land" } },
    { tool: "bash", args: { command: "npm test", description: "tests" } },
  ]);
  const run = await runOpencode(dirs, "record", { env: ENV });
  assert.equal(run.code, 0, run.stderr.slice(-2000));
  const [out] = toolOutputs(run, "record");
  assert.match(out, /^not recorded: /);
  assert.ok(!out.includes("\n"));
  assert.ok(run.events.some((e) => e.type === "text" && /done/.test(e.part?.text ?? "")), "the session went on to its last turn");
  assert.ok(!fs.existsSync(file));
});

test("this repository's opencode.jsonc loads the plugin and the instructions", async () => {
  // The project is a stand-in for this checkout: its opencode.jsonc verbatim, plugin/ and instructions/ linked.
  const dirs = makeSandbox({ mockUrl: e2e.mock.url, pluginOptions: null, configDir: "global" });
  e2e.sandboxes.push(dirs);
  fs.copyFileSync(path.join(REPO, "opencode.jsonc"), path.join(dirs.project, "opencode.jsonc"));
  fs.symlinkSync(path.join(REPO, "plugin"), path.join(dirs.project, "plugin"));
  fs.symlinkSync(path.join(REPO, "instructions"), path.join(dirs.project, "instructions"));
  const file = path.join(dirs.root, "env-target.jsonl");
  let system = "";
  e2e.mock.script = (ctx) => {
    if (ctx.n === 0) system = ctx.system;
    return turns([{ tool: "record", args: { entry: "target from the environment" } }])(ctx);
  };
  const run = await runOpencode(dirs, "hi", { env: { ...ENV, AI_RECORDINGS_FILE: file } });
  assert.equal(run.code, 0, run.stderr.slice(-2000));
  assert.ok(system.includes("# Recordings: keep what you learn"), "instructions/recordings.md is in the system prompt");
  const lines = entries(file);
  assert.equal(lines.length, 1);
  assertStamped(lines[0], run, "agent");
  assert.equal(lines[0].note, "target from the environment");
});
