// Unit tests of plugin/hosts/opencode.js (payload → entry or nothing), and of the plugin as a whole fed with hook
// calls captured from the real opencode 1.18.33 (tests/fixtures/opencode/*.jsonl, made by tests/e2e/capture.js).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import * as bound from "../../plugin/capture/bound.js";
import * as gate from "../../plugin/capture/gate.js";
import * as options from "../../plugin/capture/options.js";
import * as recordTool from "../../plugin/capture/record-tool.js";
import * as state from "../../plugin/capture/state.js";
import * as opencodeHost from "../../plugin/hosts/opencode.js";
import { AiRecordingsPlugin } from "../../plugin/opencode.js";
import { refreshEnv } from "../../plugin/recorder.js";

const h = { ...bound, ...gate, ...options, ...recordTool, ...state, ...opencodeHost };

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const FIXTURES = path.join(ROOT, "tests/fixtures/opencode");
const fixture = (name) =>
  fs.readFileSync(path.join(FIXTURES, `${name}.jsonl`), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
const opts = (o = {}, env = {}) => h.resolveOptions(o, env);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "hooks-test-"));
// The recorder notes successes in $XDG_STATE_HOME/opencode-recordings/status.json: keep ours out of the
// user's, and put the variable back afterwards (Bun runs every suite in one process).
const savedState = process.env.XDG_STATE_HOME;
before(() => {
  process.env.XDG_STATE_HOME = path.join(tmp, "state");
  refreshEnv(); // the recorder reads the environment once per process
});
after(() => {
  if (savedState === undefined) delete process.env.XDG_STATE_HOME;
  else process.env.XDG_STATE_HOME = savedState;
  refreshEnv();
  fs.rmSync(tmp, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------------------
// Gate classifier

const GATES = [
  ["cargo test", true],
  ["cargo test --workspace -- --nocapture", true],
  ["cargo +nightly clippy -- -D warnings", true],
  ["cargo build --release", true],
  ["cargo check", true],
  ["cargo fmt --check", true],
  ["cargo fmt --all -- --check", true],
  ["cargo fmt", false],
  ["cargo run", false],
  ["cargo add serde", false],
  ["npm test", true],
  ["npm t", true],
  ["npm run build", true],
  ["npm run test:unit -- --watch=false", true],
  ["npm run lint", true],
  ["pnpm typecheck", true],
  ["pnpm -r test", true],
  ["yarn test", true],
  ["bun test", true],
  ["bun run typecheck", true],
  ["npm install", false],
  ["npm ci", false],
  ["npm run dev", false],
  ["npx tsc --noEmit", true],
  ["npx eslint .", true],
  ["npx prettier --check .", true],
  ["npx prettier --write .", false],
  ["pnpm exec vitest run", true],
  ["jest --ci", true],
  ["./node_modules/.bin/mocha", true],
  ["pytest -x tests/", true],
  ["python -m pytest", true],
  ["python3 -m unittest discover", true],
  [".venv/bin/pytest -q", true],
  ["uv run pytest", true],
  ["ruff check .", true],
  ["ruff format .", false],
  ["ruff format --check .", true],
  ["mypy src", true],
  ["black --check .", true],
  ["go test ./...", true],
  ["go vet ./...", true],
  ["go build ./cmd/x", true],
  ["go run .", false],
  ["make", true],
  ["make test", true],
  ["make -j4 check", true],
  ["make install", false],
  ["./gradlew test", true],
  ["mvn -q verify", true],
  ["tsc -p .", true],
  ["eslint src", true],
  ["cd web && npm test", true],
  ["cd web; npm run build 2>&1 | tail -20", true],
  ["CI=1 npm test", true],
  ["FOO=bar BAZ='a b' cargo test", true],
  ["time make test", true],
  ["echo ok && ls", false],
  ["git commit -m 'fix tests'", false],
  ["grep -r pytest .", false],
  ["cat Makefile", false],
  ["rm -rf target", false],
  ["", false],
];

test("gate classifier: default patterns", () => {
  const o = opts();
  const wrong = GATES.filter(([cmd, want]) => h.isGate(cmd, o.gatePatterns) !== want);
  assert.deepEqual(wrong, []);
});

test("gate classifier: patterns from options extend the defaults; bad ones are warnings", () => {
  const o = opts({ auto: { gatePatterns: ["just\\s+(test|ci)\\b", "(unclosed"] } });
  assert.equal(h.isGate("just test", o.gatePatterns), true);
  assert.equal(h.isGate("cd x && just ci", o.gatePatterns), true);
  assert.equal(h.isGate("just fmt", o.gatePatterns), false);
  assert.equal(h.isGate("cargo test", o.gatePatterns), true, "defaults kept");
  assert.equal(o.warnings.length, 1);
  assert.match(o.warnings[0], /\(unclosed/);
  const only = opts({ auto: { gateDefaults: false, gatePatterns: ["just test"] } });
  assert.equal(h.isGate("cargo test", only.gatePatterns), false);
  const env = opts({}, { AI_RECORDINGS_GATE_PATTERNS: "just test\ntask check" });
  assert.equal(h.isGate("task check", env.gatePatterns), true);
});

test("gateSegments strips wrappers and program paths", () => {
  assert.deepEqual(h.gateSegments("cd a && CI=1 npx -y jest --ci | tee log; ./gradlew build"), ["cd a", "jest --ci", "tee log", "gradlew build"]);
});

// ---------------------------------------------------------------------------------------------------------
// Options

test("options: defaults, config switches, env switches", () => {
  const all = { subagent: true, gate: true, tool: true, error: true, compacted: true };
  const cases = [
    [{}, {}, all],
    [{ auto: false }, {}, { subagent: false, gate: false, tool: false, error: false, compacted: false }],
    [{ auto: { gate: false } }, {}, { ...all, gate: false }],
    [{}, { AI_RECORDINGS_AUTO: "off" }, { subagent: false, gate: false, tool: false, error: false, compacted: false }],
    [{}, { AI_RECORDINGS_AUTO: "gate,error" }, { subagent: false, gate: true, tool: false, error: true, compacted: false }],
    [{}, { AI_RECORDINGS_AUTO: "on" }, all],
    [{ auto: { tool: false } }, { AI_RECORDINGS_AUTO: "off" }, { ...all, tool: false }], // the option wins
  ];
  for (const [o, env, want] of cases) assert.deepEqual(opts(o, env).auto, want, JSON.stringify([o, env]));
  assert.equal(opts({ file: "/x.jsonl", maxBytes: 1024 }).file, "/x.jsonl");
  assert.equal(opts({ file: "/x.jsonl", maxBytes: 1024 }).maxBytes, 1024);
  assert.equal(opts({}, { AI_RECORDINGS_REDACT: "0" }).redact, false);
  assert.equal(opts({ redact: true }, { AI_RECORDINGS_REDACT: "0" }).redact, true);
  assert.equal(opts({}).file, undefined, "file left to the recorder (env, then default)");
  assert.deepEqual(opts(null).auto, all);
});

// ---------------------------------------------------------------------------------------------------------
// Cutting

test("cutText: short text untouched, long text cut to head and tail with the byte count", () => {
  assert.deepEqual(h.cutText("short", { head: 2, tail: 2 }), { text: "short", bytes: 5, cut: false });
  const long = "H".repeat(100) + "m".repeat(1000) + "T".repeat(100);
  const c = h.cutText(long, { head: 100, tail: 100 });
  assert.equal(c.cut, true);
  assert.equal(c.bytes, 1200);
  assert.ok(c.text.startsWith("H".repeat(100) + "\n[… 1000 bytes cut …]\n"));
  assert.ok(c.text.endsWith("\n" + "T".repeat(100)));
  assert.equal(h.cutText(undefined).text, "");
  assert.equal(h.cutText(null).bytes, 0);
});

test("cutText never splits a surrogate pair and counts UTF-8 bytes", () => {
  const s = "a" + "😀".repeat(200) + "é".repeat(200);
  for (const [head, tail] of [[1, 1], [2, 3], [10, 11], [11, 10]]) {
    const c = h.cutText(s, { head, tail });
    assert.equal(c.bytes, Buffer.byteLength(s));
    assert.ok(c.text.isWellFormed ? c.text.isWellFormed() : !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(c.text));
  }
  assert.equal(h.utf8Bytes("a\u00e9\u20ac😀\ud800"), 1 + 2 + 3 + 4 + 3);
});

test("stripAnsi removes colour codes", () => {
  assert.equal(h.stripAnsi("\u001b[31mFAIL\u001b[0m src/a.test.ts"), "FAIL src/a.test.ts");
});

// ---------------------------------------------------------------------------------------------------------
// Model cache

test("model cache: learned from chat.params, chat.message, session.updated; the title request is skipped", () => {
  const s = h.createState();
  h.learnChatParams(s, { sessionID: "a", agent: "title", model: { providerID: "small", id: "tiny" }, provider: { options: { apiKey: "sk-1" } } });
  assert.equal(h.sessionInfo(s, "a").model, undefined);
  h.learnChatParams(s, { sessionID: "a", agent: "build", model: { providerID: "anthropic", id: "claude" }, provider: { options: { apiKey: "sk-1" } } });
  assert.deepEqual(h.sessionInfo(s, "a"), { model: "anthropic/claude", agent: "build" });
  assert.ok(!JSON.stringify([...s.sessions]).includes("sk-1"), "the API key is never kept");
  h.learnChatMessage(s, { sessionID: "b" }, { message: { agent: "plan", model: { providerID: "openai", modelID: "gpt" } } });
  assert.deepEqual(h.sessionInfo(s, "b"), { model: "openai/gpt", agent: "plan" });
  h.learnEvent(s, { type: "session.updated", properties: { info: { id: "c", agent: "build", model: { id: "m", providerID: "mock" } } } });
  assert.deepEqual(h.sessionInfo(s, "c"), { model: "mock/m", agent: "build" });
  h.learnEvent(s, { type: "session.created", properties: { info: { id: "d", parentID: "c" } } });
  assert.equal(h.sessionInfo(s, "d").parent, "c");
});

test("model cache from a real run's hook calls", () => {
  const s = h.createState();
  for (const { hook, input, output } of fixture("gate-failed")) {
    if (hook === "chat.params") h.learnChatParams(s, input);
    else if (hook === "chat.message") h.learnChatMessage(s, input, output);
    else if (hook === "event") h.learnEvent(s, input);
  }
  assert.equal(s.sessions.size, 1);
  assert.deepEqual([...s.sessions.values()][0], { model: "mock/m", agent: "build" });
});

// ---------------------------------------------------------------------------------------------------------
// Entries from payloads

const bashAfter = (command, exit, out = "", callID = "c1") => [
  { tool: "bash", sessionID: "s", callID, args: { command, description: "d" } },
  { title: command, metadata: { output: out, exit, truncated: false }, output: out },
];

test("gate.failed: only gates that exited non-zero, once per call, output cut to its tail", () => {
  const o = opts();
  const s = h.createState();
  assert.equal(h.entryFromToolAfter(s, ...bashAfter("npm test", 0), o), null);
  assert.equal(h.entryFromToolAfter(s, ...bashAfter("ls nope", 2), o), null);
  assert.equal(h.entryFromToolAfter(s, ...bashAfter("npm test", undefined), o), null);
  const big = "\u001b[32mok\u001b[0m\n".repeat(5000) + "FAILED: 1 of 3\n";
  const e = h.entryFromToolAfter(s, ...bashAfter("cargo test", 101, big, "c2"), o);
  assert.equal(e.trigger, "gate.failed");
  assert.equal(e.command, "cargo test");
  assert.equal(e.exit, 101);
  assert.equal(e.output_bytes, Buffer.byteLength(big.replace(/\u001b\[[0-9;]*m/g, "")));
  assert.ok(e.output_tail.endsWith("FAILED: 1 of 3\n"));
  assert.ok(!e.output_tail.includes("\u001b"));
  assert.ok(e.output_tail.length < 8000);
  assert.equal(e.call, "c2");
  assert.equal(h.entryFromToolAfter(s, ...bashAfter("cargo test", 101, big, "c2"), o), null, "deduplicated");
  assert.equal(h.entryFromToolAfter(h.createState(), ...bashAfter("cargo test", 1), opts({ auto: { gate: false } })), null);
});

test("subagent.completed from the real task payload, with its duration", () => {
  const lines = fixture("subagent");
  const before = lines.find((l) => l.hook === "tool.execute.before" && l.input.tool === "task");
  const after = lines.find((l) => l.hook === "tool.execute.after" && l.input.tool === "task");
  const s = h.createState();
  h.noteToolStart(s, before.input, 1000);
  const e = h.entryFromToolAfter(s, after.input, after.output, opts(), 1750);
  assert.deepEqual(
    { ...e, child_session: typeof e.child_session },
    {
      trigger: "subagent.completed",
      description: "Count files",
      subagent_type: "general",
      prompt: "Count the files in the project and report the number.",
      child_session: "string",
      subagent_model: "mock/m",
      state: "completed",
      result: "There are 3 files.",
      duration_ms: 750,
      call: after.input.callID,
    },
  );
  assert.equal(e.child_session, after.output.metadata.sessionId);
  assert.equal(h.entryFromToolAfter(s, after.input, after.output, opts(), 1750), null, "deduplicated");
  assert.equal(h.entryFromToolAfter(h.createState(), after.input, after.output, opts({ auto: { subagent: false } })), null);
});

test("parseTaskOutput", () => {
  assert.deepEqual(h.parseTaskOutput('<task id="ses_1" state="completed">\n<task_result>\nhi\nthere\n</task_result>\n</task>'), { id: "ses_1", state: "completed", result: "hi\nthere" });
  assert.deepEqual(h.parseTaskOutput("plain"), { id: undefined, state: undefined, result: "plain" });
});

test("tool.failed from the real error part, once however often the part updates", () => {
  const ev = fixture("tool-error").find((l) => l.hook === "event" && l.input.properties?.part?.state?.status === "error").input;
  const s = h.createState();
  const hit = h.entryFromEvent(s, ev, opts());
  assert.equal(hit.session, ev.properties.sessionID);
  assert.equal(hit.entry.trigger, "tool.failed");
  assert.equal(hit.entry.tool, "read");
  assert.match(hit.entry.error, /^File not found: /);
  assert.equal(hit.entry.args, '{"filePath":"does/not/exist.txt"}');
  assert.equal(h.entryFromEvent(s, ev, opts()), null);
  assert.equal(h.entryFromEvent(h.createState(), ev, opts({ auto: { tool: false } })), null);
  // Running and completed tool parts are not failures.
  const ok = structuredClone(ev);
  ok.properties.part.state.status = "completed";
  assert.equal(h.entryFromEvent(h.createState(), ok, opts()), null);
});

test("tool.failed for a rejected permission names the permission and the reply (real events)", () => {
  const s = h.createState();
  const hits = fixture("permission-rejected")
    .filter((l) => l.hook === "event")
    .map((l) => h.entryFromEvent(s, l.input, opts()))
    .filter(Boolean);
  assert.equal(hits.length, 1);
  const e = hits[0].entry;
  assert.equal(e.trigger, "tool.failed");
  assert.equal(e.tool, "bash");
  assert.match(e.error, /rejected permission/);
  assert.equal(e.permission, "bash");
  assert.equal(e.permission_reply, "reject");
  assert.equal(s.replies.size, 0);
});

test("session.error from the real event; a repeat before the session goes idle is dropped", () => {
  const ev = fixture("api-error").find((l) => l.input?.type === "session.error").input;
  const s = h.createState();
  const hit = h.entryFromEvent(s, ev, opts());
  assert.equal(hit.entry.trigger, "session.error");
  assert.equal(hit.entry.name, ev.properties.error.name);
  assert.equal(hit.entry.message, "mock: unsupported parameter");
  assert.equal(h.entryFromEvent(s, { ...ev, id: "evt_other" }, opts()), null);
  h.entryFromEvent(s, { type: "session.idle", properties: { sessionID: ev.properties.sessionID } }, opts());
  assert.ok(h.entryFromEvent(s, ev, opts()), "recorded again after idle");
  const coded = h.entryFromEvent(h.createState(), { type: "session.error", properties: { sessionID: "x", error: { name: "APIError", data: { message: "bad", statusCode: 400 } } } }, opts());
  assert.equal(coded.entry.status_code, 400);
  assert.equal(h.entryFromEvent(h.createState(), ev, opts({ auto: { error: false } })), null);
});

test("session.compacted from the real event", () => {
  const ev = fixture("compaction").find((l) => l.input?.type === "session.compacted").input;
  const s = h.createState();
  const hit = h.entryFromEvent(s, ev, opts());
  assert.equal(hit.entry.trigger, "session.compacted");
  assert.equal(hit.session, ev.properties.sessionID);
  assert.equal(h.entryFromEvent(s, ev, opts()), null);
  assert.equal(h.entryFromEvent(h.createState(), ev, opts({ auto: { compacted: false } })), null);
});

test("noise events and junk payloads give nothing and never throw", () => {
  const s = h.createState();
  for (const ev of [undefined, null, 1, "x", {}, { type: "catalog.updated" }, { type: "message.part.updated", properties: {} }, { type: "session.error" }]) {
    const hit = h.entryFromEvent(s, ev, opts());
    if (ev?.type === "session.error") assert.equal(hit.entry.name, "UnknownError");
    else assert.equal(hit, null);
  }
  assert.equal(h.entryFromToolAfter(s, undefined, undefined, opts()), null);
  assert.equal(h.entryFromToolAfter(s, { tool: "bash" }, {}, opts()), null);
});

// ---------------------------------------------------------------------------------------------------------
// The record tool, emit, shell.env

test("record tool: schema, description, one-line results, never throws", async () => {
  const calls = [];
  const state = h.createState();
  h.learnChatParams(state, { sessionID: "s1", agent: "build", model: { providerID: "p", id: "m" } });
  const fake = (status) => (input, o) => (calls.push([input, o]), status);
  const ctx = { sessionID: "s1", agent: "build", directory: "/proj", callID: "c" };
  const tool = (record, extra = {}) => h.recordTool({ record, opts: opts({ file: "/r.jsonl" }), state, ...extra });

  assert.deepEqual(Object.keys(tool(fake({})).args), ["entry"]);
  assert.equal(tool(fake({})).args.entry.type, "string");
  const d = h.RECORD_TOOL_DESCRIPTION;
  for (const word of ["mistake", "subagent", "surprise", "guilt", "Any shape"]) assert.ok(d.includes(word), word);
  assert.ok(d.split("\n").length <= 8);

  assert.equal(await tool(fake({ status: "recorded", eid: "e1", file: "/r.jsonl" })).execute({ entry: "hi" }, ctx), "recorded e1 → /r.jsonl");
  assert.deepEqual(calls[0], ["hi", { capture: "agent", cwd: "/proj", session: "s1", model: "p/m", agent: "build", file: "/r.jsonl" }]);
  assert.equal(
    await tool(fake({ status: "quarantined", eid: "e2", file: "/r.quarantine.jsonl", reason: "invalid UTF-8" })).execute({ entry: "x" }, ctx),
    "quarantined e2 → /r.quarantine.jsonl (invalid UTF-8)",
  );
  assert.equal(await tool(fake({ status: "skipped", eid: null, file: "/r.jsonl", reason: "EACCES: permission denied" })).execute({ entry: "x" }, ctx), "not recorded: EACCES: permission denied");
  assert.match(await tool(() => { throw new Error("boom"); }).execute({ entry: "x" }, ctx), /^not recorded: boom$/);
  assert.match(await tool(null, { loadError: "no wasm" }).execute({ entry: "x" }, ctx), /^not recorded: recorder unavailable \(no wasm\)$/);
  await tool(fake({ status: "recorded", eid: "e3", file: "f" })).execute({ entry: { a: 1 } }, ctx);
  assert.equal(calls.at(-1)[0], '{"a":1}', "an object instead of a string is recorded as JSON");
  await tool(fake({ status: "recorded", eid: "e4", file: "f" })).execute({}, undefined);
  assert.equal(calls.at(-1)[0], "");
});

test("emit passes the entry as JSON with capture auto and the session's stamps; a throwing recorder is contained", () => {
  const state = h.createState();
  h.learnEvent(state, { type: "session.created", properties: { info: { id: "child", parentID: "root", agent: "general", model: { providerID: "p", id: "m" } } } });
  let got;
  const st = h.emit((input, o) => ((got = [input, o]), { status: "recorded" }), opts(), state, "child", { trigger: "gate.failed" }, "/proj");
  assert.equal(st.status, "recorded");
  assert.deepEqual(JSON.parse(got[0]), { trigger: "gate.failed" });
  assert.deepEqual(got[1], { capture: "auto", cwd: "/proj", session: "child", model: "p/m", agent: "general", stamps: { parent_session: "root" } });
  const bad = h.emit(() => { throw new Error("disk on fire"); }, opts(), state, "child", {}, "/proj");
  assert.equal(bad.status, "skipped");
  assert.match(bad.reason, /disk on fire/);
});

test("shellEnv exports the session, model, agent and file", () => {
  const s = h.createState();
  h.learnChatParams(s, { sessionID: "s", agent: "build", model: { providerID: "p", id: "m" } });
  assert.deepEqual(h.shellEnv(s, { sessionID: "s", cwd: "/x", callID: "c" }, "/f.jsonl"), {
    AI_RECORDINGS_SESSION: "s",
    AI_RECORDINGS_MODEL: "p/m",
    AI_RECORDINGS_AGENT: "build",
    AI_RECORDINGS_FILE: "/f.jsonl",
  });
  assert.deepEqual(h.shellEnv(s, {}, null), {});
});

// ---------------------------------------------------------------------------------------------------------
// The plugin module, replaying captured hook calls with the real recorder

async function replay(name, options = {}) {
  const file = path.join(fs.mkdtempSync(path.join(tmp, `${name}-`)), "rec.jsonl");
  const hooks = await AiRecordingsPlugin({ directory: tmp }, { file, ...options });
  for (const { hook, input, output } of fixture(name)) {
    if (hook === "event") await hooks.event({ event: input });
    else if (hooks[hook]) await hooks[hook](input, output);
  }
  const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  return { hooks, file, lines: text.split("\n").filter(Boolean).map((l) => JSON.parse(l)) };
}

test("the plugin module exports only plugins", async () => {
  const mod = await import("../../plugin/opencode.js");
  for (const [k, v] of Object.entries(mod)) assert.equal(typeof v, "function", k);
});

test("replayed runs: each fixture gives exactly its automatic entries, stamped", async () => {
  const want = {
    "gate-failed": ["gate.failed"],
    subagent: ["subagent.completed"],
    "tool-error": ["tool.failed"],
    "permission-rejected": ["tool.failed"],
    "api-error": ["session.error"],
    // The overflow that triggers the compaction is itself a session.error (opencode then exits 1).
    compaction: ["session.error", "session.compacted"],
  };
  for (const [name, triggers] of Object.entries(want)) {
    const { lines } = await replay(name);
    assert.deepEqual(lines.map((l) => l.trigger), triggers, name);
    for (const l of lines) {
      assert.equal(l.capture, "auto");
      assert.match(l.session, /^ses_/);
      assert.equal(l.model, "mock/m", name);
      assert.equal(l.agent, "build", name);
      assert.ok(!JSON.stringify(l).includes("apiKey"));
    }
  }
  const off = await replay("gate-failed", { auto: false });
  assert.deepEqual(off.lines, []);
});

test("the plugin's record tool writes through the real recorder, and shell.env points at the same file", async () => {
  const { hooks, file } = await replay("gate-failed", { auto: false });
  const sid = fixture("gate-failed")[0].input.properties.sessionID;
  const out = await hooks.tool.record.execute({ entry: '{"finding":"x","n":1.0}' }, { sessionID: sid, agent: "build", directory: tmp });
  assert.match(out, /^recorded \S+ → /);
  assert.ok(out.endsWith(file));
  const line = fs.readFileSync(file, "utf8");
  assert.ok(line.includes('"finding":"x","n":1.0'));
  const rec = JSON.parse(line);
  assert.equal(rec.capture, "agent");
  assert.equal(rec.session, sid);
  assert.equal(rec.model, "mock/m");
  const env = { env: {} };
  await hooks["shell.env"]({ sessionID: sid, cwd: tmp, callID: "c" }, env);
  assert.equal(env.env.AI_RECORDINGS_FILE, file);
  assert.equal(env.env.AI_RECORDINGS_SESSION, sid);
  assert.equal(env.env.AI_RECORDINGS_MODEL, "mock/m");
});

test("hooks never throw into the host, whatever they are given", async () => {
  const hooks = await AiRecordingsPlugin({ directory: tmp }, { file: path.join(tmp, "junk.jsonl") });
  for (const [name, fn] of Object.entries(hooks)) {
    if (typeof fn !== "function") continue;
    await fn(undefined, undefined);
    await fn(null, null);
    await fn({}, {});
  }
});
