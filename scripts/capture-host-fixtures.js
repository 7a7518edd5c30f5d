// Regenerates the captured Claude Code and Codex hook payloads and transcripts (tests/fixtures/hosts/claude-code,
// codex) from the real CLIs in node_modules/.bin, offline against the mock models of tests/hosts/. Run it after
// upgrading either host: `node scripts/capture-host-fixtures.js [--out DIR]` (needs npm install and a build), then
// review the diff and bring the ids, nickname and timestamps tests/js/hook-mode.test.js pins up to date (they change).

import * as fs from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { startAnthropic, startResponses } from "../tests/hosts/mock-models.js";
import { REPO, CLAUDE, CODEX, makeSandbox, runClaude, runCodex, cleanup } from "../tests/hosts/harness.js";
import { claudeSession, codexSession } from "../tests/hosts/sessions.js";

/**
 * A `record` command to put first on PATH: `record hook ...` keeps a copy of its stdin (the payload) in
 * `saved`, then both it and `record mcp` run this checkout's command, so the session goes on as in the tests.
 */
function savingRecord(dir, saved) {
  const bin = path.join(dir, "capture-bin");
  fs.mkdirSync(bin, { recursive: true });
  const q = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
  const cli = `${q(process.execPath)} ${q(path.join(REPO, "plugin/record.cjs"))}`;
  const script = [
    "#!/bin/sh",
    `if [ "$1" = hook ]; then tee "$(mktemp ${q(saved)}/payload.XXXXXX)" | ${cli} "$@"; exit $?; fi`,
    `exec ${cli} "$@"`,
  ];
  fs.writeFileSync(path.join(bin, "record"), script.join("\n") + "\n", { mode: 0o755 });
  return bin;
}

/** Runs one host through its scripted session; returns the payloads its hooks received, with their raw text. */
async function capture(label, start, session, run) {
  const mock = await start(session);
  const d = makeSandbox(`capture-${label}-`);
  const saved = path.join(d.root, "payloads");
  fs.mkdirSync(saved);
  // The default target under HOME, so the path our MCP tool answers with becomes ${HOME}/... in the fixtures.
  const extraEnv = { PATH: `${savingRecord(d.root, saved)}:${process.env.PATH}`, AI_RECORDINGS_FILE: path.join(d.home, "git/ai_recordings.jsonl") };
  try {
    const r = await run(d, "fix the widget", { mockUrl: mock.url, extraEnv });
    if (r.code !== 0) throw new Error(`${label} exited ${r.code ?? r.signal}: ${r.stderr.slice(-2000)}`);
    const payloads = fs.readdirSync(saved).map((f) => {
      const raw = fs.readFileSync(path.join(saved, f), "utf8");
      return { raw, json: JSON.parse(raw) };
    });
    return { d, payloads };
  } catch (e) {
    cleanup(d);
    throw e;
  } finally {
    await mock.close();
  }
}

/** The one payload `test` picks; a clear error when the host sent none or several. */
function one(label, payloads, what, test) {
  const hits = payloads.filter((p) => test(p.json));
  if (hits.length !== 1) {
    const seen = payloads.map((p) => `${p.json.hook_event_name} ${p.json.tool_name ?? ""}`.trim()).join(", ");
    throw new Error(`${label}: expected one ${what} payload, got ${hits.length} (received: ${seen || "none"})`);
  }
  return hits[0];
}

// Of a transcript, only the conversation and the lines hook mode reads are kept: the hosts' own instructions and
// bookkeeping (token counts, settings, request shapes) are most of the bytes, and not ours to commit.
function keptLines(text, keep) {
  const out = [];
  for (const line of text.split("\n")) {
    if (!line) continue;
    let o;
    try {
      o = JSON.parse(line);
    } catch {
      out.push(line); // a line the host did not finish is kept as it is
      continue;
    }
    const kept = keep(o);
    if (kept === true) out.push(line);
    else if (kept) out.push(JSON.stringify(kept));
  }
  return out.join("\n") + "\n";
}

const claudeLine = (o) => o.type === "user" || o.type === "assistant";

const CODEX_EVENTS = new Set(["task_started", "item_completed", "task_complete"]);
function codexLine(o) {
  if (o.type === "session_meta") {
    const { base_instructions, ...meta } = o.payload ?? {};
    return base_instructions === undefined || { ...o, payload: meta };
  }
  return o.type === "response_item" || (o.type === "event_msg" && CODEX_EVENTS.has(o.payload?.type));
}

/** Files to write, as [relative name, text]: sandbox paths replaced by the placeholders hook-mode.test.js fills. */
function placed(label, d, files, paths) {
  // Longest first, so a transcript path under HOME becomes ${FIXTURE}/..., not ${HOME}/...
  const pairs = [...paths, [d.project, "${PROJECT}"], [d.home, "${HOME}"]].sort((a, b) => b[0].length - a[0].length);
  return files.map(([name, text]) => {
    for (const [from, to] of pairs) text = text.split(from).join(to);
    if (text.includes(d.root)) console.warn(`${label}/${name}: still names the sandbox ${d.root}`);
    return [name, text.endsWith("\n") ? text : text + "\n"];
  });
}

function claudeFiles({ d, payloads }) {
  const gate = one("claude-code", payloads, "PostToolUseFailure of Bash", (p) => p.hook_event_name === "PostToolUseFailure" && p.tool_name === "Bash");
  const stop = one("claude-code", payloads, "SubagentStop", (p) => p.hook_event_name === "SubagentStop");
  const transcript = gate.json.transcript_path;
  const agent = stop.json.agent_transcript_path;
  const agentName = `subagents/${path.basename(agent)}`;
  const meta = agent.replace(/\.jsonl$/, ".meta.json");
  const files = [
    ["post-tool-use-failure-gate.json", gate.raw],
    ["subagent-stop.json", stop.raw],
    ["transcript.jsonl", keptLines(fs.readFileSync(transcript, "utf8"), claudeLine)],
    [agentName, keptLines(fs.readFileSync(agent, "utf8"), claudeLine)],
    [agentName.replace(/\.jsonl$/, ".meta.json"), fs.readFileSync(meta, "utf8")],
  ];
  return placed("claude-code", d, files, [
    [transcript, "${FIXTURE}/claude-code/transcript.jsonl"],
    [agent, "${FIXTURE}/claude-code/" + agentName],
    [path.join(d.config, "claude"), "${HOME}/.claude"], // the harness's CLAUDE_CONFIG_DIR: a user's ~/.claude
  ]);
}

function codexFiles({ d, payloads }) {
  const post = (tool) => (p) => p.hook_event_name === "PostToolUse" && tool(p);
  const gate = one("codex", payloads, "PostToolUse of npm test", post((p) => p.tool_input?.command === "npm test"));
  const spawn = one("codex", payloads, "PostToolUse of spawn_agent", post((p) => p.tool_name === "spawn_agent"));
  const wait = one("codex", payloads, "PostToolUse of wait_agent", post((p) => /wait_agent$/.test(p.tool_name)));
  const mcp = one("codex", payloads, "PostToolUse of our MCP record", post((p) => p.tool_name === "mcp__recordings__record"));
  const stop = one("codex", payloads, "SubagentStop", (p) => p.hook_event_name === "SubagentStop");
  const transcripts = new Set([gate, spawn, wait, mcp, stop].map((p) => p.json.transcript_path));
  if (transcripts.size !== 1) throw new Error(`codex: the payloads name ${transcripts.size} parent transcripts, expected one`);
  const transcript = gate.json.transcript_path;
  const agent = stop.json.agent_transcript_path;
  const files = [
    ["post-tool-use-gate.json", gate.raw],
    ["post-tool-use-spawn-agent.json", spawn.raw],
    ["post-tool-use-wait-agent.json", wait.raw],
    ["post-tool-use-mcp-record.json", mcp.raw],
    ["subagent-stop.json", stop.raw],
    ["transcript.jsonl", keptLines(fs.readFileSync(transcript, "utf8"), codexLine)],
    ["subagent-transcript.jsonl", keptLines(fs.readFileSync(agent, "utf8"), codexLine)],
  ];
  return placed("codex", d, files, [
    [transcript, "${FIXTURE}/codex/transcript.jsonl"],
    [agent, "${FIXTURE}/codex/subagent-transcript.jsonl"],
    [path.join(d.config, "codex"), "${HOME}/.codex"], // the harness's CODEX_HOME: a user's ~/.codex
  ]);
}

async function main() {
  const { values } = parseArgs({ options: { out: { type: "string", default: path.join(REPO, "tests/fixtures/hosts") } } });
  const out = path.resolve(values.out);
  for (const bin of [CLAUDE, CODEX]) if (!fs.existsSync(bin)) throw new Error(`${path.relative(REPO, bin)} is missing: run npm install`);
  // Claude Code first: the mock numbers tool calls per process, and the fixtures' ids (toolu_mock1, ...) follow
  // from a fresh count, as in the end-to-end test.
  const claude = await capture("claude-code", startAnthropic, claudeSession, runClaude);
  let codex;
  try {
    codex = await capture("codex", startResponses, codexSession, runCodex);
    // Everything is read before anything is replaced, so a failed run leaves the old set as it was.
    const sets = { "claude-code": claudeFiles(claude), codex: codexFiles(codex) };
    for (const [host, files] of Object.entries(sets)) {
      const dir = path.join(out, host);
      fs.rmSync(dir, { recursive: true, force: true }); // a new run names its Claude subagent file anew
      for (const [name, text] of files) {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), text);
        console.log(path.relative(process.cwd(), path.join(dir, name)));
      }
    }
  } finally {
    cleanup(claude.d);
    if (codex) cleanup(codex.d);
  }
}

main().catch((e) => {
  console.error(`capture-host-fixtures: ${e.message}`);
  process.exitCode = 1;
});
