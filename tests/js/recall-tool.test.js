// The recall tool in the opencode plugin and the MCP server, and hints on failures: in opencode the failed bash
// call's output, in Claude Code hook mode the PostToolUseFailure hook's additionalContext.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { execFileSync } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { tmpdir, isolatedEnv, runCli, CLI, RUNTIME } from "./helpers.js";
import { missingDriver } from "../../plugin/recall/driver.js";
import { record } from "../../plugin/recorder.js";

const skip = missingDriver() ?? false;
// The plugin reads process.env (as inside opencode): keep its index and hint state out of the real home.
const scratch = tmpdir("rec-recall-xdg-");
process.env.XDG_DATA_HOME = path.join(scratch, "data");
process.env.XDG_STATE_HOME = path.join(scratch, "state");

const LINKER_OUTPUT = "   Compiling widget-core v0.4.1\nerror: linker `cc` not found\n  = note: No such file or directory (os error 2)\nerror: could not compile `widget-core`";
const UNRELATED_OUTPUT = "error[E0308]: mismatched types\n --> crates/core/src/render.rs:88:9\n   |            ---   ^^^^ expected `u32`, found `&str`";

function world() {
  const dir = tmpdir("rec-recall-tool-");
  const file = path.join(dir, "r.jsonl");
  const env = isolatedEnv(dir, { AI_RECORDINGS_FILE: file, AI_RECORDINGS_SYNC: "0", XDG_DATA_HOME: path.join(dir, "data") });
  const repo = path.join(dir, "widget");
  execFileSync("git", ["init", "-q", repo]);
  const other = path.join(dir, "other");
  execFileSync("git", ["init", "-q", other]);
  const put = (text, cwd, session) => record(text, { env, cwd, session, capture: "agent" }).eid;
  const eids = {
    lesson: put("lesson: cargo test fails with linker cc not found in a fresh container; install build-essential first", repo, "ses_old"),
    elsewhere: put("lesson: the tokenizer must not allocate per token", other, "ses_old"),
  };
  return { dir, file, env, repo, other, eids };
}

async function plugin(w, options = {}) {
  const { AiRecordingsPlugin } = await import("../../plugin/opencode.js");
  return AiRecordingsPlugin({ directory: w.repo }, { file: w.file, ...options });
}

const bash = (sessionID, command, output, exit) => [
  { tool: "bash", sessionID, callID: `c${Math.random()}`, args: { command } },
  { title: command, output, metadata: { exit, output } },
];

test("opencode: the recall tool answers with the matching eid", { skip }, async () => {
  const w = world();
  const hooks = await plugin(w);
  assert.ok(hooks.tool.recall, "the plugin offers recall");
  assert.equal(hooks.tool.recall.args.query.type, "string");
  assert.deepEqual(hooks.tool.recall.args.scope.enum, ["repo", "all"]);
  const ctx = { sessionID: "ses_new", directory: w.repo };
  const out = await hooks.tool.recall.execute({ query: "why does cargo test say linker not found" }, ctx);
  assert.ok(out.startsWith(`${w.eids.lesson}  `), out);
  assert.ok(!out.includes(w.eids.elsewhere));
  assert.equal(await hooks.tool.recall.execute({ query: "sourdough bread" }, ctx), "nothing recorded matches (scope repo)");
  const all = await hooks.tool.recall.execute({ query: "tokenizer allocate", scope: "all" }, ctx);
  assert.ok(all.startsWith(`${w.eids.elsewhere}  `) && all.includes("  [other]"), all);
});

test("a held index keeps counts between searches, and a word it found absent is found once an entry holds it", { skip }, async () => {
  const w = world();
  const { createRecall } = await import("../../plugin/recall/service.js");
  const held = createRecall({ file: w.file, env: w.env, cwd: w.repo, held: true });
  const fresh = () => createRecall({ file: w.file, env: w.env, cwd: w.repo });
  const eids = async (service, q) => (await service.find(q, { cwd: w.repo })).hits.map((h) => h.eid);
  assert.deepEqual(await eids(held, "sourdough starter"), []);
  const later = record("lesson: the sourdough starter fails below 20 degrees; keep the fixture warm", { env: w.env, cwd: w.repo, capture: "agent" }).eid;
  assert.deepEqual(await eids(held, "sourdough starter"), [later], "a word counted absent before is searched again");
  for (const q of ["linker cc not found", "sourdough", "cargo test build-essential"]) {
    const f = fresh();
    assert.deepEqual(await eids(held, q), await eids(f, q), q);
    await f.close();
  }
  await held.close();
});

test("opencode: a failed gate gets a hint in its output once per session; an unrelated failure gets nothing", { skip }, async () => {
  const w = world();
  const hooks = await plugin(w);
  const [i, o] = bash("ses_a", "cargo test -p widget-core", LINKER_OUTPUT, 101);
  await hooks["tool.execute.after"](i, o);
  const [head, hint] = o.output.split("\n\n[recordings] ");
  assert.equal(head, LINKER_OUTPUT);
  assert.ok(hint.startsWith("Past entries from this repository that match this failure"), hint);
  assert.ok(hint.includes(w.eids.lesson));
  assert.ok(Buffer.byteLength(hint) <= 1024);
  // The same failure again in that session: nothing new to say.
  const [i2, o2] = bash("ses_a", "cargo test -p widget-core", LINKER_OUTPUT, 101);
  await hooks["tool.execute.after"](i2, o2);
  assert.equal(o2.output, LINKER_OUTPUT);
  // Another session hears it.
  const [i3, o3] = bash("ses_b", "cargo test -p widget-core", LINKER_OUTPUT, 101);
  await hooks["tool.execute.after"](i3, o3);
  assert.ok(o3.output.includes(w.eids.lesson));
  for (const [cmd, out, exit] of [["cargo build", UNRELATED_OUTPUT, 101], ["cargo test -p widget-core", LINKER_OUTPUT, 0], ["ls", "", 2]]) {
    const [i4, o4] = bash("ses_c", cmd, out, exit);
    await hooks["tool.execute.after"](i4, o4);
    assert.equal(o4.output, out, `${cmd} (exit ${exit}) is left as it was`);
  }
});

test("opencode: hints: false, recall: false and AI_RECORDINGS_HINTS=0 switch them off", { skip }, async () => {
  const w = world();
  for (const [options, tool] of [[{ hints: false }, true], [{ recall: false }, false]]) {
    const hooks = await plugin(w, options);
    assert.equal(Boolean(hooks.tool.recall), tool);
    const [i, o] = bash("ses_a", "cargo test", LINKER_OUTPUT, 101);
    await hooks["tool.execute.after"](i, o);
    assert.equal(o.output, LINKER_OUTPUT);
  }
  const { createOpencodeRecall } = await import("../../plugin/recall/opencode.js");
  const r = createOpencodeRecall({ file: w.file, env: { ...w.env, AI_RECORDINGS_HINTS: "0" }, cwd: w.repo });
  const [i, o] = bash("ses_a", "cargo test", LINKER_OUTPUT, 101);
  assert.equal(await r.afterTool(i, o), "");
  assert.equal(o.output, LINKER_OUTPUT);
  const on = createOpencodeRecall({ file: w.file, env: w.env, cwd: w.repo });
  assert.ok((await on.afterTool(i, o)).includes(w.eids.lesson), "the same call with hints on");
});

test("MCP: record mcp lists recall and answers with the matching eid", { skip }, async () => {
  const w = world();
  const transport = new StdioClientTransport({ command: RUNTIME, args: [CLI, "mcp"], env: { ...w.env, AI_RECORDINGS_SESSION: "ses_new" }, cwd: w.repo, stderr: "pipe" });
  const client = new Client({ name: "t", version: "1" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const recall = tools.find((t) => t.name === "recall");
    assert.deepEqual(recall.inputSchema.required, ["query"]);
    assert.match(recall.description, /after a failure/);
    const r = await client.callTool({ name: "recall", arguments: { query: "linker cc not found" } });
    assert.ok(r.content[0].text.startsWith(`${w.eids.lesson}  `), r.content[0].text);
  } finally {
    await client.close();
  }
});

test("hook mode: Claude Code's PostToolUseFailure gets the hint as additionalContext, once per session", { skip }, () => {
  const w = world();
  const payload = (session, output, command = "cargo test -p widget-core") =>
    JSON.stringify({
      session_id: session,
      transcript_path: path.join(w.dir, "none.jsonl"),
      cwd: w.repo,
      hook_event_name: "PostToolUseFailure",
      tool_name: "Bash",
      tool_input: { command },
      tool_use_id: "toolu_1",
      error: `Exit code 101\n\n${output}`,
      is_interrupt: false,
    });
  const r = runCli(["hook", "claude-code"], { env: w.env, input: payload("s1", LINKER_OUTPUT) });
  assert.equal(r.code, 0);
  assert.equal(r.stdout.split("\n").length, 2, "one JSON line");
  const out = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(out), ["hookSpecificOutput"]);
  assert.deepEqual(Object.keys(out.hookSpecificOutput), ["hookEventName", "additionalContext"]);
  assert.equal(out.hookSpecificOutput.hookEventName, "PostToolUseFailure");
  assert.ok(out.hookSpecificOutput.additionalContext.includes(w.eids.lesson));
  assert.equal(runCli(["hook", "claude-code"], { env: w.env, input: payload("s1", LINKER_OUTPUT) }).stdout, "", "not twice in a session");
  assert.ok(runCli(["hook", "claude-code"], { env: w.env, input: payload("s2", LINKER_OUTPUT) }).stdout.includes(w.eids.lesson));
  assert.equal(runCli(["hook", "claude-code"], { env: w.env, input: payload("s3", UNRELATED_OUTPUT, "cargo build") }).stdout, "");
  assert.equal(runCli(["hook", "claude-code"], { env: { ...w.env, AI_RECORDINGS_HINTS: "0" }, input: payload("s4", LINKER_OUTPUT) }).stdout, "");
  // A failing command that is not a gate (a CI entry point) is searched too, and not recorded.
  const before = fs.readFileSync(w.file, "utf8");
  const ci = runCli(["hook", "claude-code"], { env: w.env, input: payload("s5", LINKER_OUTPUT, "./ci/script.sh") });
  assert.ok(ci.stdout.includes(w.eids.lesson), ci.stdout || ci.stderr);
  assert.equal(fs.readFileSync(w.file, "utf8"), before, "only gates are recorded");
});
