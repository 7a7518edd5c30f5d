// Red to green through the real Claude Code and Codex, offline: in a scripted session `npm test` fails twice, the
// model fixes it and runs it again; hook mode (PostToolUse of Bash, added by `record init`) writes gate.passed and
// adds the line asking what fixed it as additionalContext. The assertions are on what the mock model received and
// on the recordings file.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { startAnthropic, startResponses } from "./mock-models.js";
import { execFileSync } from "node:child_process";
import { makeSandbox, runClaude, runCodex, cleanup, CLAUDE, CODEX } from "./harness.js";
import { CLI, helperListens, stopHelpers, until } from "../js/helpers.js";

const NUDGE = "[recordings] npm test passes now after 2 failures in this session";

/** A gate that fails until the file `fixed` exists. */
function fixableGate(d) {
  fs.writeFileSync(path.join(d.project, "fail.js"), 'if (require("fs").existsSync("fixed")) { console.log("ok 2 - widget spins"); process.exit(0); }\nconsole.error("not ok 2 - widget spins");\nprocess.exit(3);\n');
}

/** Runs the session: fail, fail, fix, pass, done (or `script` instead). Returns { bodies, entries }. */
async function session(d, { extraEnv = {}, script } = {}) {
  const bodies = [];
  const steps = script ?? ["npm test", "npm test", "touch fixed", "npm test"];
  const mock = await startAnthropic(({ n, body }) => {
    if (!(body?.tools ?? []).length) return { text: "title" };
    bodies[n] = body;
    if (n < steps.length) return { tool: "Bash", args: { command: steps[n], description: "step" } };
    return { text: "All done." };
  });
  try {
    const r = await runClaude(d, "fix the widget", { mockUrl: mock.url, extraEnv: { AI_RECORDINGS_HINTS: "0", ...extraEnv } });
    assert.equal(r.code, 0, `claude failed: ${r.stderr.slice(-2000)}`);
  } finally {
    await mock.close();
  }
  const entries = fs.existsSync(d.file) ? fs.readFileSync(d.file, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l)) : [];
  return { bodies, entries };
}

const skip = !fs.existsSync(CLAUDE) && "claude not installed";

test("claude-code: a gate that turns green is recorded and the model is asked, once, what fixed it", { skip }, async () => {
  const d = makeSandbox("hosts-green-");
  try {
    fixableGate(d);
    const { bodies, entries } = await session(d);
    const seen = (n) => JSON.stringify(bodies[n]?.messages ?? []);
    assert.ok(seen(2).includes("not ok 2 - widget spins"), "the failures reached the model");
    assert.ok(!seen(3).includes(NUDGE), "no line before the gate passes");
    const after = seen(4);
    assert.ok(after.includes(NUDGE), after.slice(-3000));
    assert.equal(after.split(NUDGE).length, 2, "the line appears once");
    const triggers = entries.map((e) => e.trigger);
    assert.deepEqual(triggers, ["gate.failed", "gate.failed", "gate.passed"]);
    const [f1, f2, pass] = entries;
    assert.equal(f1.fp, f2.fp, "two runs of one failure share a fingerprint");
    assert.deepEqual(pass.resolves, [f1.fp]);
    assert.equal(pass.failures, 2);
    assert.equal(pass.first_eid, f1.eid);
    assert.ok(after.includes(f1.eid), "the line names the failure to resolve");
  } finally {
    cleanup(d);
  }
});

test("claude-code: with hook mode's warm helper listening, every hook that records runs in it, to the same end", { skip }, async () => {
  const d = makeSandbox("hosts-green-helper-");
  try {
    fixableGate(d);
    // The helper started as a hook would start it, by a failing gate of another session into another file; the
    // session's hooks (Claude Code passes its environment on: TMPDIR, so the same socket) find it.
    const env = { PATH: process.env.PATH, HOME: d.home, TMPDIR: d.tmp, XDG_STATE_HOME: d.state, AI_RECORDINGS_FILE: path.join(d.root, "other.jsonl"), AI_RECORDINGS_HINTS: "0" };
    const first = { session_id: "earlier", cwd: d.project, hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_input: { command: "npm test" }, tool_use_id: "t0", error: "Exit code 3\n\nnot ok 2 - widget spins" };
    execFileSync(process.execPath, [CLI, "hook", "claude-code"], { env, input: JSON.stringify(first) });
    const sockets = path.join(d.tmp, `opencode-recordings-${process.getuid()}`);
    await until(() => helperListens(sockets), "the helper to listen");
    const { bodies, entries } = await session(d, { extraEnv: { AI_RECORDINGS_DEBUG: "1" } });
    assert.deepEqual(entries.map((e) => e.trigger), ["gate.failed", "gate.failed", "gate.passed"]);
    assert.ok(JSON.stringify(bodies[4]?.messages ?? []).includes(NUDGE), "the line reached the model");
    // What each hook process said on stderr, from Claude Code's own session transcript.
    const projects = path.join(d.config, "claude", "projects");
    const transcript = fs.readdirSync(projects, { recursive: true }).filter((f) => f.endsWith(".jsonl")).map((f) => fs.readFileSync(path.join(projects, f), "utf8")).join("\n");
    const said = transcript
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l).attachment)
      .filter((a) => a?.type === "hook_success" && /record hook: (recorded|nothing)/.test(a.stderr ?? ""));
    const recorded = said.filter((a) => /record hook: recorded /.test(a.stderr));
    assert.equal(recorded.length, 3, JSON.stringify(said.map((a) => a.stderr)));
    for (const a of recorded) assert.match(a.stderr, /record hook: the event ran in the warm helper/);
  } finally {
    stopHelpers(d.root);
    cleanup(d);
  }
});

test("claude-code: a gate that never failed, or nudges switched off, adds nothing", { skip }, async () => {
  const d = makeSandbox("hosts-green-off-");
  try {
    fixableGate(d);
    fs.writeFileSync(path.join(d.project, "fixed"), "");
    const clean = await session(d, { script: ["npm test", "npm test"] });
    assert.ok(!JSON.stringify(clean.bodies.map((b) => b?.messages)).includes("passes now"), "no line for a gate that never failed");
    assert.deepEqual(clean.entries, []);
  } finally {
    cleanup(d);
  }
  const e = makeSandbox("hosts-green-off-");
  try {
    fixableGate(e);
    const off = await session(e, { extraEnv: { AI_RECORDINGS_NUDGES: "0" } });
    assert.ok(!JSON.stringify(off.bodies.map((b) => b?.messages)).includes("passes now"), "switched off: no line");
    assert.deepEqual(off.entries.map((x) => x.trigger), ["gate.failed", "gate.failed", "gate.passed"], "the resolution is still recorded");
  } finally {
    cleanup(e);
  }
});

test("codex: a gate that turns green is recorded and the model is asked, once, what fixed it", { skip: !fs.existsSync(CODEX) && "codex not installed" }, async () => {
  const d = makeSandbox("hosts-green-codex-");
  const bodies = [];
  const steps = ["npm test", "npm test", "touch fixed", "npm test"];
  const mock = await startResponses(({ body, n }) => {
    bodies[n] = body;
    return n < steps.length ? { tool: "exec_command", args: { cmd: steps[n] } } : { text: "All done." };
  });
  try {
    fixableGate(d);
    const r = await runCodex(d, "fix the widget", { mockUrl: mock.url, extraEnv: { AI_RECORDINGS_HINTS: "0" } });
    assert.equal(r.code, 0, `codex failed: ${r.stderr.slice(-2000)}`);
    const developer = (n) => (bodies[n]?.input ?? []).filter((i) => i.type === "message" && i.role === "developer").map((i) => i.content.map((c) => c.text).join(""));
    assert.deepEqual(developer(3).filter((t) => t.includes("passes now")), [], "no line before the gate passes");
    const lines = developer(4).filter((t) => t.startsWith(NUDGE));
    assert.equal(lines.length, 1, JSON.stringify(bodies[4]?.input ?? []).slice(-3000));
    const entries = fs.readFileSync(d.file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(entries.map((e) => [e.trigger, e.client]), [["gate.failed", "codex"], ["gate.failed", "codex"], ["gate.passed", "codex"]]);
    assert.ok(lines[0].includes(entries[0].eid), "the line names the failure to resolve");
  } finally {
    await mock.close();
    cleanup(d);
  }
});
