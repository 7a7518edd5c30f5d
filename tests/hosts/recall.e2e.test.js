// Recall through the real Claude Code and Codex, offline: a lesson recorded earlier in the project's repository;
// then in a scripted session `npm test` fails (the harness's gate: exit 3, "not ok 2 - widget spins"), hook mode
// adds the hint as the hook's additionalContext (Claude Code's PostToolUseFailure, Codex's PostToolUse), and the
// model calls our MCP `recall` tool. The assertions are on what the mock model received. Hook mode and the MCP server run under the runtime running
// this suite (the harness's `record` shim), so recall needs it to have SQLite: Node 22.5+ or Bun.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { startAnthropic, startResponses } from "./mock-models.js";
import { makeSandbox, runClaude, runCodex, cleanup, CLAUDE, CODEX } from "./harness.js";
import { entries } from "../js/helpers.js";
import { record } from "../../plugin/recorder.js";
import { missingDriver } from "../../plugin/recall/driver.js";
import { sync } from "../../plugin/cli/sync.js";
import { teammateExports } from "../js/team-helpers.js";

const LESSON = "lesson: npm test reports 'not ok 2 - widget spins' when the spin fixture is stale; regenerate it with npm run fixtures";

/** LESSON, recorded in the sandbox's project by an earlier session, as an agent records it. */
function pastLesson(d) {
  const past = record(LESSON, { file: d.file, env: { HOME: d.home, XDG_STATE_HOME: d.state }, cwd: d.project, session: "ses_earlier", capture: "agent" });
  assert.equal(past.status, "recorded");
  return past;
}

test("the runtime running the hosts suite has SQLite for recall, or says what it needs", { skip: !missingDriver() && "it has" }, () => {
  assert.match(missingDriver(), /^recall needs SQLite, which Node \S+ does not have: run it with Node 22\.5 or later/);
});

test("claude-code: a failing gate gets the recall hint as additional context; the MCP recall tool answers", { skip: (!fs.existsSync(CLAUDE) && "claude not installed") || (missingDriver() ?? false) }, async () => {
  const d = makeSandbox("hosts-recall-");
  const past = pastLesson(d);
  const bodies = [];
  const mock = await startAnthropic(({ n, body }) => {
    if (!(body?.tools ?? []).length) return { text: "title" };
    bodies[n] = body;
    if (n === 0) return { tool: "Bash", args: { command: "npm test", description: "run the tests" } };
    if (n === 1) return { tool: "mcp__recordings__recall", args: { query: "widget spins fixture" } };
    return { text: "All done." };
  });
  try {
    const r = await runClaude(d, "fix the widget", { mockUrl: mock.url });
    assert.equal(r.code, 0, `claude failed: ${r.stderr.slice(-2000)}`);
    assert.equal(JSON.parse(r.stdout).is_error, false);
    // After the failed Bash call: the failure and, somewhere in what the model was sent, our hint.
    const afterBash = JSON.stringify(bodies[1].messages);
    assert.ok(afterBash.includes("not ok 2 - widget spins"), "the failure reached the model");
    assert.ok(afterBash.includes("[recordings] Past entries from this repository that match this failure"), afterBash.slice(-3000));
    assert.ok(afterBash.includes(past.eid));
    // The hint appears once: the gate's own hook ran once.
    assert.equal(afterBash.split("[recordings] Past entries").length, 2);
    // The recall tool's answer went back to the model, starting with the lesson's eid.
    const results = bodies[2].messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === "tool_result");
    const answer = results.map((b) => (Array.isArray(b.content) ? b.content.map((c) => c.text ?? "").join("") : String(b.content))).find((t) => t.includes(past.eid));
    assert.ok(answer && answer.startsWith(`${past.eid}  `), JSON.stringify(results).slice(0, 2000));
  } finally {
    await mock.close();
    cleanup(d);
  }
});

test("claude-code: a lesson only a teammate exported reaches the model in the hint, marked as theirs", { skip: (!fs.existsSync(CLAUDE) && "claude not installed") || (missingDriver() ?? false) }, async () => {
  const d = makeSandbox("hosts-team-");
  const mate = await teammateExports({
    origin: "git@example.com:acme/widget.git",
    lesson: "lesson: npm test says 'not ok 2 - widget spins' on a fresh clone because the spin fixture is generated; npm run fixtures makes it",
  });
  const bodies = [];
  const mock = await startAnthropic(({ n, body }) => {
    if (!(body?.tools ?? []).length) return { text: "title" };
    bodies[n] = body;
    if (n === 0) return { tool: "Bash", args: { command: "npm test", description: "run the tests" } };
    return { text: "All done." };
  });
  try {
    // The pull, with the environment hook mode will have (its index is under this HOME).
    let out = "";
    const env = { HOME: d.home, XDG_STATE_HOME: d.state, AI_RECORDINGS_FILE: d.file };
    const code = await sync(["--from", mate.url, "--json"], { env, cwd: d.project, stdout: { write: (t) => (out += t) }, stderr: { write: () => true } });
    assert.equal(code, 0);
    assert.equal(JSON.parse(out).added, 1, out);
    const r = await runClaude(d, "fix the widget", { mockUrl: mock.url });
    assert.equal(r.code, 0, `claude failed: ${r.stderr.slice(-2000)}`);
    const afterBash = JSON.stringify(bodies[1].messages);
    assert.ok(afterBash.includes("[recordings] Past entries from this repository that match this failure"), afterBash.slice(-3000));
    assert.ok(afterBash.includes(`${mate.eid}  `), afterBash.slice(-3000));
    // Its line in the hint (no escaped line break between) carries the team mark.
    assert.match(afterBash, new RegExp(`${mate.eid}  [^\\\\]*  team: \\S`));
  } finally {
    await mock.close();
    mate.destroy();
    cleanup(d);
  }
});

test("codex: a failing command gets the recall hint as a developer message, gate or not; each lesson once a session", { skip: (!fs.existsSync(CODEX) && "codex not installed") || (missingDriver() ?? false) }, async () => {
  const d = makeSandbox("hosts-recall-codex-");
  const past = pastLesson(d);
  const bodies = [];
  const mock = await startResponses(({ body, n }) => {
    bodies[n] = body;
    if (n === 0) return { tool: "exec_command", args: { cmd: "node fail.js" } }; // not a gate: a hint, no entry
    if (n === 1) return { tool: "exec_command", args: { cmd: "npm test" } }; // a gate: an entry, the lesson not again
    return { text: "All done." };
  });
  try {
    const r = await runCodex(d, "fix the widget", { mockUrl: mock.url });
    assert.equal(r.code, 0, `codex failed: ${r.stderr.slice(-2000)}`);
    const developer = (body) => body.input.filter((i) => i.type === "message" && i.role === "developer").map((i) => i.content.map((c) => c.text).join(""));
    const hinted = developer(bodies[1]).filter((t) => t.startsWith("[recordings] Past entries from this repository that match this failure"));
    assert.equal(hinted.length, 1, JSON.stringify(bodies[1].input).slice(-3000));
    assert.ok(hinted[0].includes(past.eid));
    // The failure itself reached the model as the command's output, unchanged by the hook.
    const outputs = bodies[1].input.filter((i) => i.type === "function_call_output").map((i) => String(i.output));
    assert.ok(outputs.some((o) => o.includes("not ok 2 - widget spins")), JSON.stringify(outputs));
    assert.equal(developer(bodies[2]).filter((t) => t.startsWith("[recordings]")).length, 1, "the second failure adds no second hint");
    assert.deepEqual(entries(d.file).map((e) => [e.trigger, e.command]), [[undefined, undefined], ["gate.failed", "npm test"]]);
  } finally {
    await mock.close();
    cleanup(d);
  }
});
