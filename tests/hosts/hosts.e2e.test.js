// The real Claude Code and Codex CLIs, offline, with our hook mode and our MCP server configured by
// `record init` (which writes what docs/hosts.md shows: the first test holds the two to each other). In each scripted session a gate fails (`npm test` exits 3), a subagent finishes, and the
// model calls our MCP `record` tool (and in Claude Code's, a Read of a missing file fails); the assertions are
// on the lines written to the recordings file.
//
// Needs the pinned dev dependencies (@anthropic-ai/claude-code, @openai/codex) and the built wasm. A run of
// each host takes about 1–2 s. Skipped (with a note) when a CLI is not installed.
import { test } from "node:test";
import { entries } from "../js/helpers.js";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { startAnthropic, startResponses } from "./mock-models.js";
import * as path from "node:path";
import { parse as parseToml } from "@rainbowatcher/toml-edit-js";
import initToml from "@rainbowatcher/toml-edit-js";
import { makeSandbox, runClaude, runCodex, cleanup, recordInit, docSnippet, CLAUDE, CODEX } from "./harness.js";

import { BRIEF, NOTE, REPORT, claudeSession, codexSession } from "./sessions.js";

const has = (bin) => fs.existsSync(bin);

/** What both hosts' `npm test` failure (exit 3, fixture output) must have become: a gate.failed entry, automatic,
 *  stamped with the host's session, the project and the host's name. */
function assertGate(gate, { session, project, client }) {
  assert.equal(gate.capture, "auto");
  assert.equal(gate.command, "npm test");
  assert.equal(gate.exit, 3);
  assert.match(gate.output_tail, /not ok 2 - widget spins/);
  assert.equal(gate.session, session);
  assert.equal(gate.pwd, project);
  assert.equal(gate.client, client);
}

function byTrigger(lines) {
  const out = {};
  for (const e of lines) {
    const k = e.trigger ?? `capture:${e.capture}`;
    (out[k] ??= []).push(e);
  }
  return out;
}

test("record init writes the entries docs/hosts.md shows, for Claude Code and Codex", async () => {
  const d = makeSandbox("hosts-init-");
  try {
    const env = { PATH: process.env.PATH, HOME: d.home, CLAUDE_CONFIG_DIR: path.join(d.config, "claude"), CODEX_HOME: path.join(d.config, "codex") };
    recordInit(["claude-code", "--global"], env, d.project);
    recordInit(["codex"], env, d.project);
    const json = (p) => JSON.parse(fs.readFileSync(p, "utf8"));
    assert.deepEqual(json(path.join(env.CLAUDE_CONFIG_DIR, "settings.json")), JSON.parse(docSnippet("claude-settings")));
    assert.deepEqual(json(path.join(env.CLAUDE_CONFIG_DIR, ".claude.json")), JSON.parse(docSnippet("claude-mcp")));
    assert.deepEqual(json(path.join(env.CODEX_HOME, "hooks.json")), JSON.parse(docSnippet("codex-hooks")));
    await initToml();
    assert.deepEqual(parseToml(fs.readFileSync(path.join(env.CODEX_HOME, "config.toml"), "utf8")), parseToml(docSnippet("codex-config")));
  } finally {
    cleanup(d);
  }
});

test("claude-code: gate failure, failed tool and subagent through hook mode, a record call through the MCP server", { skip: !has(CLAUDE) && "claude not installed" }, async () => {
  const mock = await startAnthropic(claudeSession);
  const d = makeSandbox("hosts-claude-");
  try {
    const r = await runClaude(d, "fix the widget", { mockUrl: mock.url });
    assert.equal(r.code, 0, `claude failed: ${r.stderr.slice(-2000)}`);
    const result = JSON.parse(r.stdout);
    assert.equal(result.is_error, false);
    const session = result.session_id;
    const lines = entries(d.file);
    const t = byTrigger(lines);
    assert.equal(lines.length, 4, JSON.stringify(lines, null, 1));

    const [gate] = t["gate.failed"];
    assertGate(gate, { session, project: d.project, client: "claude-code" });
    assert.equal(gate.repo, "widget");

    const [failed] = t["tool.failed"];
    assert.equal(failed.tool, "Read");
    assert.match(failed.args, /nonexistent\/widget\/spin\.rs/);
    assert.ok(failed.error.length > 0);
    assert.equal(failed.session, session);
    assert.equal(gate.model, "claude-opus-5-5", "the model Claude Code asked the mock for");

    const [sub] = t["subagent.completed"];
    assert.equal(sub.capture, "auto");
    assert.equal(sub.session, session);
    assert.equal(sub.prompt, BRIEF);
    assert.equal(sub.description, "Find the spin bug");
    assert.equal(sub.subagent_type, "general-purpose");
    assert.equal(sub.result, REPORT);
    assert.ok(Number.isInteger(sub.duration_ms) && sub.duration_ms >= 0 && sub.duration_ms < 60000);

    const [mcp] = t["capture:mcp"];
    assert.equal(mcp.category, "discovery");
    assert.equal(mcp.sentiment, "relief");
    assert.equal(mcp.client, "claude-code 2.1.332");
    assert.equal(mcp.pwd, d.project);

    // The MCP tool result went back to the model as our one line.
    const results = mock.requests.at(-1).body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === "tool_result");
    const mcpResult = results.find((b) => JSON.stringify(b.content).includes(mcp.eid));
    assert.match(mcpResult.content[0].text, new RegExp(`^recorded ${mcp.eid} → `));
  } finally {
    await mock.close();
    cleanup(d);
  }
});

test("codex: gate failure (exit code from the transcript) and subagent through hook mode, a record call through the MCP server", { skip: !has(CODEX) && "codex not installed" }, async () => {
  const mock = await startResponses(codexSession);
  const d = makeSandbox("hosts-codex-");
  try {
    const r = await runCodex(d, "fix the widget", { mockUrl: mock.url });
    assert.equal(r.code, 0, `codex failed: ${r.stderr.slice(-2000)}`);
    const events = r.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l));
    const session = events.find((e) => e.type === "thread.started").thread_id;
    assert.ok(events.some((e) => e.type === "item.completed" && e.item.type === "command_execution" && e.item.exit_code === 3), "the gate really failed");
    const lines = entries(d.file);
    const t = byTrigger(lines);
    assert.equal(lines.length, 3, JSON.stringify(lines, null, 1));

    const [gate] = t["gate.failed"];
    assertGate(gate, { session, project: d.project, client: "codex" });
    assert.equal(gate.model, "mock-model");

    const [sub] = t["subagent.completed"];
    assert.equal(sub.session, session, "Codex gives the parent's session id inside a subagent");
    assert.equal(sub.prompt, BRIEF);
    assert.equal(sub.result, REPORT);
    assert.match(sub.child_session, /^[0-9a-f-]{36}$/);
    assert.equal(sub.model, "mock-model");

    const [mcp] = t["capture:mcp"];
    assert.equal(mcp.category, "discovery");
    assert.equal(mcp.client, "codex-mcp-client 0.171.0");
    assert.equal(mcp.pwd, d.project);
  } finally {
    await mock.close();
    cleanup(d);
  }
});
