// Red to green (plugin/capture/green.js) on the session memory (plugin/capture/memory.js) and the command identity
// (plugin/capture/command.js): failures noted, a passing gate resolving them once, the nudge's rules; then in
// the opencode plugin's handler and in hook mode as a child process, the way Claude Code runs it.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { commandKey, segments } from "../../plugin/capture/command.js";
import { boundedSet, fileStore, memoryStore } from "../../plugin/capture/memory.js";
import { NUDGE_AFTER, commitPass, noteFailure, openFailures, planPass } from "../../plugin/capture/green.js";
import { resolveOptions } from "../../plugin/capture/options.js";
import { createState } from "../../plugin/capture/state.js";
import { handleToolAfter } from "../../plugin/hosts/opencode.js";
import { record } from "../../plugin/recorder.js";
import { ROOT, RUNTIME, entries, gitRepo, tmpdir } from "./helpers.js";

const MIN = 60_000;
const recorded = (eid, fp) => ({ status: "recorded", code: "recorded", eid, fp });

test("command keys follow the table the core's fingerprint follows", () => {
  const table = JSON.parse(fs.readFileSync(path.join(ROOT, "tests/fixtures/commands.json"), "utf8"));
  assert.ok(table.length >= 10);
  for (const c of table) assert.equal(commandKey(c.command, c.workdir), c.key, c.command);
  assert.deepEqual(segments("cd a && CI=1 npx -y jest --ci | tee log"), ["cd a", "jest --ci", "tee log"]);
});

test("bounded maps drop the least recently set key past their size", () => {
  const m = new Map();
  for (const k of ["a", "b", "c"]) boundedSet(m, k, 1, 2);
  assert.deepEqual([...m.keys()], ["b", "c"]);
  boundedSet(m, "b", 2, 2);
  boundedSet(m, "d", 1, 2);
  assert.deepEqual([...m.keys()], ["b", "d"]);
});

for (const [name, make] of [
  ["memoryStore", () => memoryStore({ maxSessions: 2, maxEvents: 3 })],
  ["fileStore", () => fileStore({ dir: path.join(tmpdir("rec-mem-"), "sessions") })],
]) {
  test(`${name} keeps each session's events apart, oldest first`, () => {
    const s = make();
    assert.deepEqual(s.events("a"), []);
    s.append("a", { n: 1 });
    s.append("b", { n: 2 });
    s.append("a", { n: 3 });
    assert.deepEqual(s.events("a"), [{ n: 1 }, { n: 3 }]);
    assert.deepEqual(s.events("b"), [{ n: 2 }]);
  });
}

test("memoryStore forgets the oldest session and the oldest events past its bounds", () => {
  const s = memoryStore({ maxSessions: 2, maxEvents: 2 });
  for (const n of [1, 2, 3]) s.append("a", { n });
  s.append("b", { n: 1 });
  s.append("c", { n: 1 });
  assert.deepEqual(s.events("a"), []);
  assert.deepEqual(s.events("b"), [{ n: 1 }]);
  const t = memoryStore({ maxEvents: 2 });
  for (const n of [1, 2, 3]) t.append("a", { n });
  assert.deepEqual(t.events("a"), [{ n: 2 }, { n: 3 }]);
});

test("fileStore survives a torn line, removes expired sessions and never throws", () => {
  const dir = path.join(tmpdir("rec-mem-"), "sessions");
  let now = 1_000_000_000_000;
  const s = fileStore({ dir, now: () => now, ttlMs: 10 * MIN });
  s.append("old/one", { n: 1 });
  fs.appendFileSync(path.join(dir, "old_one.jsonl"), '{"torn":');
  fs.appendFileSync(path.join(dir, "old_one.jsonl"), "\n");
  s.append("old/one", { n: 2 });
  assert.deepEqual(s.events("old/one"), [{ n: 1 }, { n: 2 }]);
  const past = new Date(now - 20 * MIN);
  fs.utimesSync(path.join(dir, "old_one.jsonl"), past, past);
  s.append("new", { n: 1 }); // swept at the first session's file: not again within the hour
  assert.deepEqual(fs.readdirSync(dir).filter((n) => n.endsWith(".jsonl")).sort(), ["new.jsonl", "old_one.jsonl"]);
  now += 61 * MIN;
  s.append("newer", { n: 1 }); // a new session's file an hour later sweeps the expired ones
  assert.deepEqual(fs.readdirSync(dir).filter((n) => n.endsWith(".jsonl")).sort(), ["new.jsonl", "newer.jsonl"]);
  // A directory that cannot be made (a file stands where it would go): nothing kept, nothing thrown.
  const plain = path.join(path.dirname(dir), "plain-file");
  fs.writeFileSync(plain, "");
  const blocked = fileStore({ dir: path.join(plain, "sessions") });
  blocked.append("x", { n: 1 });
  assert.deepEqual(blocked.events("x"), []);
});

test("a passing gate with nothing open calls for nothing", () => {
  const m = memoryStore();
  assert.equal(planPass(m, "s", { command: "cargo test", now: 0 }), null);
  noteFailure(m, "s", { command: "cargo build", status: recorded("e1", "g1_a"), now: 0 });
  assert.equal(planPass(m, "s", { command: "cargo test", now: 0 }), null, "another command's failure");
  assert.equal(planPass(m, "other", { command: "cargo build", now: 0 }), null, "another session's failure");
  noteFailure(m, "s", { command: "npm test", status: { status: "skipped", eid: null }, now: 0 });
  assert.equal(planPass(m, "s", { command: "npm test", now: 0 }), null, "a failure that was not written");
});

test("red, red, red, green: one gate.passed naming the fingerprints, the first failure and the minutes", () => {
  const m = memoryStore();
  const t0 = Date.parse("2026-12-02T10:00:00Z");
  noteFailure(m, "s", { command: "cargo test", cwd: "/w", status: recorded("e1", "g1_a"), now: t0 });
  noteFailure(m, "s", { command: "RUST_BACKTRACE=1 cargo test", cwd: "/w", status: recorded("e2", "g1_a"), now: t0 + MIN });
  noteFailure(m, "s", { command: "cargo  test", cwd: "/w", status: recorded("e3", "g1_b"), now: t0 + 2 * MIN });
  const pass = planPass(m, "s", { command: "cargo test", cwd: "/w", now: t0 + 14 * MIN, call: "c9" });
  assert.deepEqual(pass.entry, {
    trigger: "gate.passed",
    command: "cargo test",
    resolves: ["g1_a", "g1_b"],
    failures: 3,
    first_eid: "e1",
    first_ts: "2026-12-02T10:00:00.000Z",
    minutes: 14,
    call: "c9",
  });
  assert.match(pass.nudge, /^\[recordings\] cargo test passes now after 3 failures in this session \(first 14 min ago\)\. .*record it.*e1/);
  commitPass(m, "s", pass);
  assert.equal(planPass(m, "s", { command: "cargo test", cwd: "/w", now: t0 + 15 * MIN }), null, "resolved: closed");
  // Regressed: the same failure again opens a new episode, and its nudge is not repeated.
  noteFailure(m, "s", { command: "cargo test", cwd: "/w", status: recorded("e4", "g1_a"), now: t0 + 20 * MIN });
  noteFailure(m, "s", { command: "cargo test", cwd: "/w", status: recorded("e5", "g1_a"), now: t0 + 21 * MIN });
  const again = planPass(m, "s", { command: "cargo test", cwd: "/w", now: t0 + 22 * MIN });
  assert.equal(again.entry.failures, 2);
  assert.equal(again.entry.first_eid, "e4");
  assert.equal(again.nudge, "", "g1_a was nudged once in this session already");
  assert.deepEqual(openFailures(m.events("s"), "cargo test").map((e) => e.eid), ["e4", "e5"]);
});

test("the nudge waits for enough failures and can be switched off", () => {
  const one = memoryStore();
  noteFailure(one, "s", { command: "npm test", status: recorded("e1", "g1_a"), now: 0 });
  const p = planPass(one, "s", { command: "npm test", now: MIN });
  assert.equal(p.entry.failures, 1, "one failure still gets its gate.passed");
  assert.equal(p.nudge, "", `the nudge waits for ${NUDGE_AFTER}`);
  const two = memoryStore();
  for (const eid of ["e1", "e2"]) noteFailure(two, "s", { command: "npm test", status: recorded(eid, "g1_a"), now: 0 });
  assert.equal(planPass(two, "s", { command: "npm test", now: MIN, nudges: false }).nudge, "");
  assert.notEqual(planPass(two, "s", { command: "npm test", now: MIN }).nudge, "");
  assert.equal(planPass(two, "s", { command: "npm test", now: MIN, nudgeAfter: 3 }).nudge, "");
});

test("nudge options: the plugin option over the environment, bad values named", () => {
  assert.equal(resolveOptions({}, {}).nudges, true);
  assert.equal(resolveOptions({}, {}).nudgeAfter, NUDGE_AFTER);
  assert.equal(resolveOptions({}, { AI_RECORDINGS_NUDGES: "0" }).nudges, false);
  assert.equal(resolveOptions({ nudges: true }, { AI_RECORDINGS_NUDGES: "0" }).nudges, true);
  assert.equal(resolveOptions({}, { AI_RECORDINGS_NUDGE_AFTER: "4" }).nudgeAfter, 4);
  const bad = resolveOptions({ nudges: "no", nudgeAfter: "lots" }, {});
  assert.equal(bad.nudges, true);
  assert.equal(bad.nudgeAfter, NUDGE_AFTER);
  assert.deepEqual(bad.warnings.filter((w) => /nudge/.test(w)).length, 2, bad.warnings.join("; "));
});

function repo() {
  const d = fs.realpathSync(tmpdir("rec-green-"));
  return { d, project: gitRepo(path.join(d, "project"), "https://example.com/acme/widget.git"), file: path.join(d, "rec.jsonl") };
}

const cargoFailure = (n) => `test a::one ... FAILED\nthread 'a::one' panicked at src/a.rs:${n}:5:\nfinished in 0.${n}s in /tmp/t${n}/x\n`;

test("opencode: ten red runs are one fingerprint, green writes gate.passed and nudges once", () => {
  const { project, file, d } = repo();
  const opts = resolveOptions({ file }, {});
  const state = createState();
  const memory = memoryStore();
  const env = { HOME: d, XDG_STATE_HOME: path.join(d, "state") };
  const write = (session, entry) => record(JSON.stringify(entry), { file, capture: "auto", cwd: project, session, env, statusFile: false });
  const deps = { state, memory, opts, write, cwd: project };
  let t = Date.parse("2026-12-02T10:00:00Z");
  for (let n = 1; n <= 10; n++) {
    const out = { output: cargoFailure(n), metadata: { exit: 101 } };
    assert.equal(handleToolAfter(deps, { tool: "bash", sessionID: "s1", callID: `c${n}`, args: { command: "cargo test" } }, out, (t += MIN)), "");
  }
  const bash = (callID, command, exit, output = "ok") => {
    const out = { output, metadata: { exit } };
    return { nudge: handleToolAfter(deps, { tool: "bash", sessionID: "s1", callID, args: { command } }, out, (t += MIN)), out };
  };
  assert.equal(bash("x1", "ls", 0).nudge, "", "not a gate");
  assert.equal(bash("x2", "npm test", 0).nudge, "", "a gate that never failed");
  const green = bash("g1", "cargo test", 0);
  assert.match(green.nudge, /cargo test passes now after 10 failures/);
  assert.ok(green.out.output.endsWith(`\n\n${green.nudge}`), "the line is in what the model reads");
  assert.equal(bash("g1", "cargo test", 0).nudge, "", "the same call reported twice");
  assert.equal(bash("g2", "cargo test", 0).nudge, "", "passing again: nothing open");
  const all = entries(file);
  const failed = all.filter((e) => e.trigger === "gate.failed");
  assert.equal(failed.length, 10);
  assert.equal(new Set(failed.map((e) => e.fp)).size, 1, "one fingerprint for the ten runs");
  assert.match(failed[0].fp, /^g1_[0-9a-f]{16}$/);
  assert.deepEqual(failed[0].failure, ["test a::one ... FAILED", "thread 'a::one' panicked at src/a.rs:1:5:"]);
  const passed = all.filter((e) => e.trigger === "gate.passed");
  assert.equal(passed.length, 1);
  assert.deepEqual(passed[0].resolves, [failed[0].fp]);
  assert.equal(passed[0].failures, 10);
  assert.equal(passed[0].first_eid, failed[0].eid);
  assert.equal(passed[0].minutes, 12, "from the first failure (minute 1) to green (minute 13)");
  assert.equal(passed[0].session, "s1");
});

test("opencode: a second failing test under the same command is its own fingerprint", () => {
  const { project, file, d } = repo();
  const opts = resolveOptions({ file }, {});
  const env = { HOME: d };
  const write = (session, entry) => record(JSON.stringify(entry), { file, capture: "auto", cwd: project, session, env, statusFile: false });
  const deps = { state: createState(), memory: memoryStore(), opts, write, cwd: project };
  const run = (callID, output) => handleToolAfter(deps, { tool: "bash", sessionID: "s", callID, args: { command: "cargo test" } }, { output, metadata: { exit: 101 } });
  run("a", "test a::one ... FAILED\n");
  run("b", "test a::two ... FAILED\n");
  const fps = entries(file).map((e) => e.fp);
  assert.equal(fps.length, 2);
  assert.notEqual(fps[0], fps[1]);
});

const HOOK = path.join(ROOT, "plugin/cli/hook-mode.js");

function hook(payload, env) {
  const r = spawnSync(RUNTIME, [HOOK, "claude-code"], { input: JSON.stringify(payload), env: { PATH: process.env.PATH, ...env } });
  return { code: r.status, stdout: r.stdout.toString() };
}

test("Claude Code hook mode: failures kept per session across processes, green answers once with the nudge", () => {
  const { project, file, d } = repo();
  const env = { HOME: d, XDG_STATE_HOME: path.join(d, "state"), AI_RECORDINGS_FILE: file, AI_RECORDINGS_HINTS: "0" };
  const base = { session_id: "s1", cwd: project, tool_name: "Bash", transcript_path: path.join(d, "none.jsonl") };
  for (const n of [1, 2, 3]) {
    const r = hook({ ...base, hook_event_name: "PostToolUseFailure", tool_use_id: `t${n}`, tool_input: { command: "npm test" }, error: `Exit code 1\n\n${cargoFailure(n)}` }, env);
    assert.deepEqual(r, { code: 0, stdout: "" });
  }
  const ok = (id, command = "npm test", extra = {}) => hook({ ...base, hook_event_name: "PostToolUse", tool_use_id: id, tool_input: { command }, tool_response: { stdout: "ok", stderr: "" } }, { ...env, ...extra });
  assert.deepEqual(ok("p0", "cargo test"), { code: 0, stdout: "" }, "another gate, never failed");
  const green = ok("p1");
  assert.equal(green.code, 0);
  const out = JSON.parse(green.stdout);
  assert.equal(out.hookSpecificOutput.hookEventName, "PostToolUse");
  assert.match(out.hookSpecificOutput.additionalContext, /npm test passes now after 3 failures/);
  assert.deepEqual(ok("p2"), { code: 0, stdout: "" }, "nothing open any more");
  const all = entries(file);
  assert.deepEqual(all.map((e) => e.trigger), ["gate.failed", "gate.failed", "gate.failed", "gate.passed"]);
  assert.equal(all[3].first_eid, all[0].eid);
  assert.equal(all[3].client, "claude-code");
});

test("Claude Code hook mode: nudges switched off still records the resolution", () => {
  const { project, file, d } = repo();
  const env = { HOME: d, XDG_STATE_HOME: path.join(d, "state"), AI_RECORDINGS_FILE: file, AI_RECORDINGS_HINTS: "0", AI_RECORDINGS_NUDGES: "0" };
  const base = { session_id: "s2", cwd: project, tool_name: "Bash", transcript_path: path.join(d, "none.jsonl"), tool_input: { command: "pytest" } };
  for (const n of [1, 2]) hook({ ...base, hook_event_name: "PostToolUseFailure", tool_use_id: `t${n}`, error: "Exit code 1\n\nE   assert 1 == 2" }, env);
  const green = hook({ ...base, hook_event_name: "PostToolUse", tool_use_id: "p", tool_response: { stdout: "", stderr: "" } }, env);
  assert.deepEqual(green, { code: 0, stdout: "" });
  assert.equal(entries(file).at(-1).trigger, "gate.passed");
});

test("boundedSet hands the dropped value to onDrop before it goes", () => {
  const m = new Map();
  const dropped = [];
  for (const k of ["a", "b", "c"]) boundedSet(m, k, k.toUpperCase(), 2, (v) => dropped.push(v));
  assert.deepEqual(dropped, ["A"]);
  assert.deepEqual([...m.keys()], ["b", "c"]);
});

test("the recall index's command keys and the gate classifier cut a command line alike", async () => {
  const { commandKeys } = await import("../../plugin/columns.js");
  const { isGate } = await import("../../plugin/capture/gate.js");
  for (const [line, keys] of [
    ["timeout 60 npx -y vitest run", ["vitest run"]],
    ["cd web && CI=1 python -m pytest -q tests", ["pytest tests"]],
    ["sudo env FOO=1 ./gradlew build | tee log", ["gradlew build", "tee log"]],
    ["uv run ruff check .", ["ruff check"]],
  ]) {
    assert.deepEqual(commandKeys(line), keys, line);
    assert.equal(isGate(line), true, line);
  }
});

test("the hints given to a session live in the same session memory, in both stores", async () => {
  const { seenIn } = await import("../../plugin/recall/hints.js");
  for (const store of [memoryStore(), fileStore({ dir: path.join(tmpdir("rec-seen-"), "sessions") })]) {
    const seen = seenIn(store);
    assert.deepEqual([...seen.given("s")], []);
    seen.add("s", ["e1", "e2"]);
    seen.add("s", ["e3"]);
    seen.add("t", ["e9"]);
    noteFailure(store, "s", { command: "npm test", status: recorded("f1", "g1_a"), now: 0 });
    assert.deepEqual([...seen.given("s")].sort(), ["e1", "e2", "e3"]);
    assert.deepEqual([...seen.given("t")], ["e9"]);
    assert.equal(openFailures(store.events("s"), "npm test").length, 1, "red to green reads its own events beside them");
  }
});
