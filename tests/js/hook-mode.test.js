// Hook mode (`record hook claude-code|codex`, plugin/cli/hook-mode.js): payload → plan tables over the payloads captured
// from the real Claude Code 2.1.332 and Codex 0.171.0 (tests/fixtures/hosts/) plus hand-written shapes the
// real runs do not reach; then the command itself in a child process: exit 0, silent stdout, entries and
// stamps, bounds, redaction, quarantine of what is not a hook event.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { planHook, runHook } from "../../plugin/cli/hook-mode.js";
import { hintFailure } from "../../plugin/hosts/hook-events.js";
import { findFromEnd } from "../../plugin/hosts/transcript.js";
import { parseClaudeBashError } from "../../plugin/hosts/claude-code.js";
import { LIMITS } from "../../plugin/capture/bound.js";
import { record } from "../../plugin/recorder.js";
import { ROOT, RUNTIME, tmpdir, entries, lines, gitRepo } from "./helpers.js";

const FIX = path.join(ROOT, "tests/fixtures/hosts");
const HOOK = path.join(ROOT, "plugin/cli/hook-mode.js");

/** A fixture payload with its ${FIXTURE}/${PROJECT}/${TRANSCRIPT} placeholders filled in. */
function payload(rel, vars = {}) {
  let text = fs.readFileSync(path.join(FIX, rel), "utf8");
  const all = { FIXTURE: FIX, PROJECT: "/tmp/project", HOME: "/tmp/home", ...vars };
  for (const [k, v] of Object.entries(all)) text = text.split("${" + k + "}").join(v);
  return text;
}

function project() {
  const d = fs.realpathSync(tmpdir("rec-hook-"));
  const p = gitRepo(path.join(d, "project"), "https://example.com/acme/widget.git");
  return { d, project: p, file: path.join(d, "out", "rec.jsonl"), state: path.join(d, "state") };
}

/** Runs the hook as the hosts do: a child process, the payload on stdin. */
function runHookProcess(host, input, env) {
  const r = spawnSync(RUNTIME, [HOOK, host], { input, env: { PATH: process.env.PATH, ...env }, maxBuffer: 1 << 28 });
  return { code: r.status, stdout: r.stdout?.toString() ?? "", stderr: r.stderr?.toString() ?? "" };
}

// ---------------------------------------------------------------------------------------------------------
// Captured payloads

test("claude-code: captured PostToolUseFailure of `npm test` → gate.failed with the exit code from `error`", () => {
  const p = JSON.parse(payload("claude-code/post-tool-use-failure-gate.json"));
  const plan = planHook("claude-code", p);
  assert.equal(plan.kind, "entry");
  assert.deepEqual(
    { trigger: plan.entry.trigger, command: plan.entry.command, exit: plan.entry.exit, call: plan.entry.call },
    { trigger: "gate.failed", command: "npm test", exit: 3, call: "toolu_mock1" },
  );
  assert.match(plan.entry.output_tail, /not ok 2 - widget spins$/);
  assert.doesNotMatch(plan.entry.output_tail, /^Exit code/);
  assert.equal(plan.options.session, "c2283bc0-1be9-424d-b131-f1016a24911a");
  assert.equal(plan.options.cwd, "/tmp/project");
  assert.equal(plan.options.model, "claude-opus-5-5", "model from the transcript's latest assistant message");
});

test("claude-code: captured SubagentStop → subagent.completed with the brief from meta.json and the subagent transcript", () => {
  const p = JSON.parse(payload("claude-code/subagent-stop.json"));
  const plan = planHook("claude-code", p, { now: Date.parse("2026-11-29T08:44:08.000Z") });
  const e = plan.entry;
  assert.equal(e.trigger, "subagent.completed");
  assert.equal(e.description, "Find the spin bug");
  assert.equal(e.subagent_type, "general-purpose");
  assert.equal(e.prompt, "SUBAGENT-BRIEF: find why the widget spins; report the cause only.");
  assert.equal(e.result, "Subagent report: the widget spins because of a race in spin().");
  assert.equal(e.child_session, "ae2f2b4a27ab9fc1a");
  assert.equal(e.call, "toolu_mock3");
  assert.equal(e.subagent_model, "claude-opus-5-5");
  assert.equal(e.duration_ms, 65, "from the subagent transcript's first timestamp (08:44:07.935) to now");
  assert.equal(plan.options.agent, undefined, "the session's own agent, not the subagent's type");
});

test("claude-code: without meta.json the brief comes from the parent transcript's Agent call", () => {
  const d = tmpdir();
  const sub = path.join(d, "agent-x.jsonl");
  fs.copyFileSync(path.join(FIX, "claude-code/subagents/agent-ae2f2b4a27ab9fc1a.jsonl"), sub);
  const p = JSON.parse(payload("claude-code/subagent-stop.json"));
  p.agent_transcript_path = sub;
  const e = planHook("claude-code", p).entry;
  assert.equal(e.description, "Find the spin bug");
  assert.equal(e.subagent_type, "general-purpose");
  assert.equal(e.call, "toolu_mock3");
});

test("codex: captured PostToolUse of `npm test` → gate.failed with the exit code from the transcript", () => {
  const plan = planHook("codex", JSON.parse(payload("codex/post-tool-use-gate.json")));
  assert.equal(plan.entry.trigger, "gate.failed");
  assert.equal(plan.entry.exit, 3);
  assert.equal(plan.entry.command, "npm test");
  assert.match(plan.entry.output_tail, /not ok 2 - widget spins/);
  assert.equal(plan.options.model, "mock-model");
  assert.equal(plan.options.session, "01a2267a-59c3-7d80-9098-8e647791092d");
});

test("which failures a hint is looked for, and the event whose output carries it", () => {
  // Codex: any command that exited non-zero (the transcript says), a gate or not; a gate's also makes its entry.
  const gate = JSON.parse(payload("codex/post-tool-use-gate.json"));
  const gatePlan = planHook("codex", gate);
  assert.deepEqual(gatePlan.failed, { command: "npm test", output: gatePlan.failed.output });
  assert.match(gatePlan.failed.output, /not ok 2 - widget spins/);
  assert.deepEqual(hintFailure("codex", gate, gatePlan), { event: "PostToolUse", session: gate.session_id, cwd: gate.cwd, command: "npm test", output: gatePlan.failed.output });
  const other = { ...gate, tool_input: { ...gate.tool_input, command: "node fail.js" } };
  const otherPlan = planHook("codex", other);
  assert.deepEqual(otherPlan, { kind: "none", failed: { command: "node fail.js", output: gatePlan.failed.output } });
  assert.equal(hintFailure("codex", other, otherPlan).event, "PostToolUse");
  // Codex, a call that did not fail, and one whose outcome the transcript does not hold: none.
  for (const f of ["codex/post-tool-use-spawn-agent.json", "codex/post-tool-use-wait-agent.json", "codex/post-tool-use-mcp-record.json"]) {
    const p = JSON.parse(payload(f));
    assert.equal(hintFailure("codex", p, planHook("codex", p)), null, f);
  }
  const unknown = { ...gate, tool_use_id: "call_not_in_the_transcript" };
  assert.equal(hintFailure("codex", unknown, planHook("codex", unknown)), null);
  // Claude Code: every PostToolUseFailure, with its error text; nothing for a PostToolUse.
  const failed = JSON.parse(payload("claude-code/post-tool-use-failure-gate.json"));
  const h = hintFailure("claude-code", failed, planHook("claude-code", failed));
  assert.deepEqual([h.event, h.command, h.session, h.cwd], ["PostToolUseFailure", "npm test", failed.session_id, failed.cwd]);
  assert.match(h.error, /not ok 2 - widget spins/);
  assert.equal(hintFailure("claude-code", { ...failed, hook_event_name: "PostToolUse" }, { kind: "none" }), null);
});

test("codex: a gate's command is classified once per payload", () => {
  // Hook mode once fed the opencode builder a fake `bash` payload, which classified the command a second time.
  let tests = 0;
  const counting = { test: (seg) => (tests++, /^npm\s+test\b/.test(seg)) };
  const opts = { auto: { subagent: true, gate: true, tool: true }, gatePatterns: [counting] };
  const plan = planHook("codex", JSON.parse(payload("codex/post-tool-use-gate.json")), { opts });
  assert.equal(plan.entry.trigger, "gate.failed");
  assert.equal(tests, 1);
});

test("codex: captured SubagentStop → subagent.completed with the spawn_agent brief from the parent transcript", () => {
  const e = planHook("codex", JSON.parse(payload("codex/subagent-stop.json"))).entry;
  assert.equal(e.trigger, "subagent.completed");
  assert.equal(e.prompt, "SUBAGENT-BRIEF: find why the widget spins; report the cause only.");
  assert.equal(e.result, "Subagent report: the widget spins because of a race in spin().");
  assert.equal(e.child_session, "01a2267a-5c2e-72e1-8cc5-d957f0adda92");
  assert.equal(e.call, "call_mock2_0");
  assert.equal(e.subagent_name, "Banach");
  assert.equal(e.subagent_type, "default");
});

test("codex: SubagentStop falls back to the subagent transcript's first user message", () => {
  const p = JSON.parse(payload("codex/subagent-stop.json"));
  p.transcript_path = "/nonexistent/rollout.jsonl";
  assert.equal(planHook("codex", p).entry.prompt, "SUBAGENT-BRIEF: find why the widget spins; report the cause only.");
});

test("codex: captured successful tool calls (spawn_agent, wait_agent, our MCP record) write nothing", () => {
  for (const f of ["post-tool-use-spawn-agent.json", "post-tool-use-wait-agent.json", "post-tool-use-mcp-record.json"]) {
    assert.deepEqual(planHook("codex", JSON.parse(payload(`codex/${f}`))), { kind: "none" }, f);
  }
});

// ---------------------------------------------------------------------------------------------------------
// Hand-written shapes

const synthetic = JSON.parse(fs.readFileSync(path.join(FIX, "synthetic.json"), "utf8")).cases;
for (const c of synthetic) {
  test(`synthetic: ${c.name}`, () => {
    const d = tmpdir();
    const transcript = path.join(d, "transcript.jsonl");
    if (c.transcript) fs.writeFileSync(transcript, c.transcript.map((o) => JSON.stringify(o) + "\n").join(""));
    const p = JSON.parse(JSON.stringify(c.payload).split("${TRANSCRIPT}").join(transcript));
    const plan = planHook(c.host, p);
    if (c.expect === "none" || c.expect === "raw") {
      assert.equal(plan.kind, c.expect);
      return;
    }
    assert.equal(plan.kind, "entry");
    assert.equal(plan.entry.trigger, c.expect);
    for (const [k, v] of Object.entries(c.fields ?? {})) assert.deepEqual(plan.entry[k], v, k);
    for (const [k, v] of Object.entries(c.stamps ?? {})) assert.equal(plan.options[k], v, k);
  });
}

test("parseClaudeBashError: a table", () => {
  const cases = [
    ["Exit code 3\n\nboom", { exit: 3, output: "boom" }],
    ["Exit code 1\n\n", { exit: 1, output: "" }],
    ["Exit code 127", { exit: 127, output: "" }],
    ["Exit code 2\nline", { exit: 2, output: "line" }],
    ["Command timed out after 2m", null],
    ["exit code 3\n\nx", null],
    [undefined, null],
  ];
  for (const [input, want] of cases) assert.deepEqual(parseClaudeBashError(input), want, JSON.stringify(input));
});

test("triggers switched off in env (AI_RECORDINGS_AUTO) are not written", () => {
  const p = JSON.parse(payload("claude-code/post-tool-use-failure-gate.json"));
  assert.equal(planHook("claude-code", p, { env: { AI_RECORDINGS_AUTO: "subagent" } }).kind, "none");
  assert.equal(planHook("claude-code", p, { env: { AI_RECORDINGS_AUTO: "off" } }).kind, "none");
  const s = JSON.parse(payload("codex/subagent-stop.json"));
  assert.equal(planHook("codex", s, { env: { AI_RECORDINGS_AUTO: "gate,tool" } }).kind, "none");
  assert.equal(planHook("codex", s, { env: { AI_RECORDINGS_AUTO: "subagent" } }).kind, "entry");
});

test("extra gate patterns from env make a command a gate", () => {
  const p = {
    session_id: "s",
    cwd: "/tmp",
    hook_event_name: "PostToolUseFailure",
    tool_name: "Bash",
    tool_input: { command: "./check-all.sh" },
    error: "Exit code 1\n\nbad",
  };
  assert.equal(planHook("claude-code", p).kind, "none");
  assert.equal(planHook("claude-code", p, { env: { AI_RECORDINGS_GATE_PATTERNS: String.raw`check-all\.sh` } }).entry.trigger, "gate.failed");
});

// ---------------------------------------------------------------------------------------------------------
// Transcript scanning

test("findFromEnd reads what a short read returned, not the rest of its buffer", () => {
  // The tail reader once ignored readSync's count: a read that came back short left stale bytes in the chunk.
  const d = tmpdir();
  const f = path.join(d, "t.jsonl");
  const rows = [];
  for (let i = 0; i < 400; i++) rows.push(JSON.stringify({ i, id: `item-${i}` }));
  fs.writeFileSync(f, rows.join("\n") + "\n");
  const stingy = { ...fs, readSync: (fd, buf, off, len, pos) => fs.readSync(fd, buf, off, Math.min(len, 97), pos) };
  for (const i of [399, 250, 3, 0]) {
    assert.equal(findFromEnd(f, `item-${i}"`, (o) => o.id === `item-${i}`, { fs: stingy })?.i, i, `item ${i}`);
  }
});

test("findFromEnd finds the line nearest the end, across chunk boundaries and with a partial last line", () => {
  const d = tmpdir();
  const f = path.join(d, "t.jsonl");
  const filler = "x".repeat(70 * 1024); // longer than one 64 KiB read
  const rows = [];
  for (let i = 0; i < 6; i++) rows.push(JSON.stringify({ i, id: i % 2 ? "want" : "other", pad: filler.slice(0, (i * 17011) % filler.length) }));
  fs.writeFileSync(f, rows.join("\n") + "\n" + '{"id":"want","i":99'); // the last line is being written
  const hit = findFromEnd(f, "want", (o) => o.id === "want");
  assert.equal(hit.i, 5);
  assert.equal(findFromEnd(f, "want", (o) => o.id === "want" && o.i === 1).i, 1);
  assert.equal(findFromEnd(f, "nope", () => true), null);
  assert.equal(findFromEnd(path.join(d, "missing"), "x", () => true), null);
  // A cap on how far back to look.
  assert.equal(findFromEnd(f, "want", (o) => o.i === 1, { maxBytes: 1024 }), null);
});

// ---------------------------------------------------------------------------------------------------------
// The command

test("the hook process: exit 0, nothing on stdout, the gate entry stamped like the plugin's", () => {
  const t = project();
  const input = payload("claude-code/post-tool-use-failure-gate.json", { PROJECT: t.project });
  const r = runHookProcess("claude-code", input, { HOME: t.d, XDG_STATE_HOME: t.state, AI_RECORDINGS_FILE: t.file });
  assert.equal(r.code, 0);
  assert.equal(r.stdout, "");
  assert.equal(r.stderr, "");
  const [e] = entries(t.file);
  assert.equal(e.trigger, "gate.failed");
  assert.equal(e.capture, "auto");
  assert.equal(e.session, "c2283bc0-1be9-424d-b131-f1016a24911a");
  assert.equal(e.model, "claude-opus-5-5");
  assert.equal(e.client, "claude-code");
  assert.equal(e.pwd, t.project);
  assert.equal(e.repo, "widget");
  assert.equal(e.origin, "https://example.com/acme/widget.git");
  assert.ok(Object.keys(e).indexOf("trigger") < Object.keys(e).indexOf("capture"), "entry members first, stamps after");
});

test("the hook process: --file wins over the env target", () => {
  const t = project();
  const other = path.join(t.d, "flag.jsonl");
  const input = payload("codex/subagent-stop.json", { PROJECT: t.project });
  const r = spawnSync(RUNTIME, [HOOK, "codex", "--file", other], { input, env: { PATH: process.env.PATH, HOME: t.d, XDG_STATE_HOME: t.state, AI_RECORDINGS_FILE: t.file } });
  assert.equal(r.status, 0);
  assert.equal(entries(other)[0].trigger, "subagent.completed");
  assert.deepEqual(lines(t.file), []);
});

test("malformed and unknown payloads are kept, never lost; empty input writes nothing", () => {
  const t = project();
  const env = { HOME: t.d, XDG_STATE_HOME: t.state, AI_RECORDINGS_FILE: t.file };
  const q = t.file.replace(/\.jsonl$/, ".quarantine.jsonl");
  const broken = '{"session_id": "s", "hook_event_name": "PostToolUseFail';
  assert.equal(runHookProcess("claude-code", broken, env).code, 0);
  const nonUtf8 = Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
  assert.equal(runHookProcess("codex", nonUtf8, env).code, 0);
  const qs = entries(q);
  assert.equal(qs.length, 2, "both in quarantine");
  assert.ok(JSON.stringify(qs[0]).includes("PostToolUseFail"), "the broken payload verbatim");
  assert.equal(qs[0].capture, "auto");
  // Valid JSON that is not a hook event: the core keeps every member as given.
  const notHook = '{"note":"piped here by mistake","n":1.50}';
  assert.equal(runHookProcess("codex", notHook, env).code, 0);
  const kept = lines(t.file);
  assert.equal(kept.length, 1);
  assert.ok(kept[0].includes('"note":"piped here by mistake","n":1.50'), "members byte-identical");
  assert.match(kept[0], /"client":"codex"/);
  // Unknown host: kept too.
  assert.equal(runHookProcess("cursor", '{"hook_event_name":"afterShellExecution"}', env).code, 0);
  assert.equal(lines(t.file).length, 2);
  // Nothing on stdin: nothing to keep.
  assert.equal(runHookProcess("codex", "", env).code, 0);
  assert.equal(runHookProcess("codex", "\n", env).code, 0);
  assert.equal(lines(t.file).length + lines(q).length, 4);
});

test("an unwritable target: still exit 0 and silent (the reason goes to the status file)", () => {
  const t = project();
  const blocker = path.join(t.d, "blocker");
  fs.writeFileSync(blocker, "a file where a directory should be");
  const input = payload("claude-code/post-tool-use-failure-gate.json", { PROJECT: t.project });
  const r = runHookProcess("claude-code", input, { HOME: t.d, XDG_STATE_HOME: t.state, AI_RECORDINGS_FILE: path.join(blocker, "rec.jsonl") });
  assert.equal(r.code, 0);
  assert.equal(r.stdout, "");
  assert.equal(r.stderr, "");
  const debug = runHookProcess("claude-code", input, { HOME: t.d, XDG_STATE_HOME: t.state, AI_RECORDINGS_FILE: path.join(blocker, "rec.jsonl"), AI_RECORDINGS_DEBUG: "1" });
  assert.equal(debug.stdout, "");
  assert.match(debug.stderr, /skipped/);
});

test("long gate output is cut to the plugin's head and tail bounds, with the full byte count", async () => {
  const t = project();
  const output = "first line\n" + "é".repeat(300_000) + "\nFAILED: 1 of 900 tests";
  const p = { session_id: "s", cwd: t.project, hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_input: { command: "pytest -x" }, tool_use_id: "toolu_big", error: `Exit code 1\n\n${output}` };
  const status = [];
  await runHook("claude-code", {
    stdin: streamOf(JSON.stringify(p)),
    env: { HOME: t.d, AI_RECORDINGS_FILE: t.file },
    record: (input, o) => {
      const s = record(input, { ...o, statusFile: false });
      status.push(s);
      return s;
    },
  });
  assert.equal(status[0].status, "recorded");
  const [e] = entries(t.file);
  assert.equal(e.output_bytes, Buffer.byteLength(output));
  assert.ok(e.output_tail.startsWith("first line"));
  assert.ok(e.output_tail.endsWith("FAILED: 1 of 900 tests"));
  assert.ok(e.output_tail.length <= LIMITS.gateOutput.head + LIMITS.gateOutput.tail + 64);
});

test("the hook's entry is redacted exactly as record() redacts the same text", async () => {
  const t = project();
  const secret = "sk-ant-api03-" + "Q".repeat(93) + "AA";
  const p = { session_id: "s", cwd: t.project, hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_input: { command: "npm test" }, error: `Exit code 1\n\nANTHROPIC_API_KEY=${secret} rejected` };
  await runHook("claude-code", { stdin: streamOf(JSON.stringify(p)), env: { HOME: t.d, AI_RECORDINGS_FILE: t.file, XDG_STATE_HOME: t.state } });
  const direct = path.join(t.d, "direct.jsonl");
  record(JSON.stringify({ output_tail: `ANTHROPIC_API_KEY=${secret} rejected` }), { file: direct, statusFile: false, cwd: t.project });
  const [hooked] = entries(t.file);
  const [plain] = entries(direct);
  assert.equal(hooked.output_tail, plain.output_tail);
});

test("events that call for nothing never load the recorder", async () => {
  const calls = [];
  const spy = (...a) => {
    calls.push(a);
    return { status: "recorded", file: "x", eid: "e" };
  };
  const succeeded = { session_id: "s", cwd: "/tmp", hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "npm test" }, tool_response: { stdout: "ok" } };
  assert.equal(await runHook("claude-code", { stdin: streamOf(JSON.stringify(succeeded)), env: {}, record: spy }), 0);
  assert.equal(calls.length, 0);
  // And a static check: the hook module's import graph holds neither the MCP SDK nor the recorder.
  const src = fs.readFileSync(HOOK, "utf8");
  assert.doesNotMatch(src, /@modelcontextprotocol/);
  assert.doesNotMatch(src, /^import .*recorder\.js/m);
});

test("runHook never rejects, even when the recorder throws", async () => {
  const p = JSON.parse(payload("claude-code/post-tool-use-failure-gate.json"));
  const code = await runHook("claude-code", { stdin: streamOf(JSON.stringify(p)), env: {}, record: () => { throw new Error("boom"); } });
  assert.equal(code, 0);
});

/** A readable stream of one string (what process.stdin looks like to runHook). */
function streamOf(text) {
  const listeners = {};
  const s = {
    on(ev, fn) {
      (listeners[ev] ??= []).push(fn);
      return s;
    },
    once(ev, fn) {
      return s.on(ev, fn);
    },
  };
  setImmediate(() => {
    for (const fn of listeners.data ?? []) fn(Buffer.from(text));
    for (const fn of listeners.end ?? []) fn();
  });
  return s;
}
