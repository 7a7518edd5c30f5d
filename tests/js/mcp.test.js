// The MCP server (`record mcp`, plugin/cli/mcp.js) driven over a real stdio pipe: by the official SDK client, and
// by hand-written JSON-RPC lines for what an SDK client never sends (Claude Code's `server/discover` probe,
// lines that are not JSON, messages that are not JSON-RPC).
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { missingDriver } from "../../plugin/recall/driver.js";
import { clientStamp, parseMcpArgs } from "../../plugin/cli/mcp.js";
import { ROOT, RUNTIME, tmpdir, entries, lines, rawMembers, gitRepo } from "./helpers.js";

const SERVER = path.join(ROOT, "plugin/cli/mcp.js");

function sandbox() {
  const d = fs.realpathSync(tmpdir("rec-mcp-"));
  const project = gitRepo(path.join(d, "project"), "https://example.com/acme/widget.git");
  return { d, project, file: path.join(d, "out", "rec.jsonl"), env: { PATH: process.env.PATH, HOME: d, XDG_STATE_HOME: path.join(d, "state") } };
}

async function connect(t, { env = {}, args = [], name = "mcp-test-client", version = "1.2.3" } = {}) {
  const transport = new StdioClientTransport({ command: RUNTIME, args: [SERVER, ...args], cwd: t.project, env: { ...t.env, ...env }, stderr: "pipe" });
  const client = new Client({ name, version });
  await client.connect(transport);
  return { client, transport };
}

const text = (result) => result.content.map((c) => c.text).join("");

test("initialize and tools/list: one `record` tool taking one string `entry`", async () => {
  const t = sandbox();
  const { client } = await connect(t, { env: { AI_RECORDINGS_FILE: t.file } });
  try {
    assert.equal(client.getServerVersion().name, "opencode-recordings");
    const { tools } = await client.listTools();
    // The recall tool is listed beside it where the runtime has SQLite (tests/js/recall-tool.test.js).
    assert.deepEqual(tools.map((x) => x.name), missingDriver() ? ["record"] : ["record", "recall"]);
    assert.equal(tools[0].name, "record");
    assert.deepEqual(tools[0].inputSchema.required, ["entry"]);
    assert.equal(tools[0].inputSchema.properties.entry.type, "string");
    assert.match(tools[0].description, /recordings file/);
  } finally {
    await client.close();
  }
});

test("record: the same one-line result as the opencode tool; capture mcp; client from the handshake; members byte-identical", async () => {
  const t = sandbox();
  const { client } = await connect(t, { env: { AI_RECORDINGS_FILE: t.file, AI_RECORDINGS_SESSION: "ses-from-env" } });
  try {
    const entry = '{"note":"grep -c counts lines","n":1.0,"n":2,"s":"\\u00e9\\/"}';
    const r = await client.callTool({ name: "record", arguments: { entry } });
    assert.ok(!r.isError);
    const [line] = lines(t.file);
    const e = JSON.parse(line);
    assert.equal(text(r), `recorded ${e.eid} → ${t.file}`);
    assert.equal(e.capture, "mcp");
    assert.equal(e.client, "mcp-test-client 1.2.3");
    assert.equal(e.session, "ses-from-env");
    assert.equal(e.pwd, t.project);
    assert.equal(e.repo, "widget");
    const members = rawMembers(line);
    for (const [k, v] of rawMembers(entry)) assert.ok(members.some(([k2, v2]) => k2 === k && v2 === v), `${k} ${v}`);

    const loose = await client.callTool({ name: "record", arguments: { entry: "category=tool lied | finding: ls hid dotfiles | sentiment: irritation" } });
    assert.match(text(loose), /^recorded \S+ → /);
    assert.equal(entries(t.file)[1].category, "tool lied");
  } finally {
    await client.close();
  }
});

test("record: broken JSON is quarantined and says so, as a normal result", async () => {
  const t = sandbox();
  const { client } = await connect(t, { env: { AI_RECORDINGS_FILE: t.file } });
  try {
    const r = await client.callTool({ name: "record", arguments: { entry: '{"note": "unterminated' } });
    assert.ok(!r.isError);
    const q = t.file.replace(/\.jsonl$/, ".quarantine.jsonl");
    const [e] = entries(q);
    assert.match(text(r), new RegExp(`^quarantined ${e.eid} → ${q.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(.+\\)$`));
  } finally {
    await client.close();
  }
});

test("record: an unwritable target is a normal result saying why, and the session goes on", async () => {
  const t = sandbox();
  const blocker = path.join(t.d, "blocker");
  fs.writeFileSync(blocker, "");
  const { client } = await connect(t, { args: ["--file", path.join(blocker, "rec.jsonl")] });
  try {
    const r = await client.callTool({ name: "record", arguments: { entry: "lost?" } });
    assert.ok(!r.isError);
    assert.match(text(r), /^not recorded: E\w+/);
    const again = await client.callTool({ name: "record", arguments: { entry: "still alive" } });
    assert.match(text(again), /^not recorded: /);
  } finally {
    await client.close();
  }
});

test("--file and env: the flag wins; --session/--model/--agent stamp", async () => {
  const t = sandbox();
  const flagged = path.join(t.d, "flag.jsonl");
  const { client } = await connect(t, { env: { AI_RECORDINGS_FILE: t.file }, args: ["--file", flagged, "--model", "m/x", "--agent=build", "--session", "S1"] });
  try {
    await client.callTool({ name: "record", arguments: { entry: "x" } });
    const [e] = entries(flagged);
    assert.deepEqual([e.session, e.model, e.agent], ["S1", "m/x", "build"]);
    assert.deepEqual(lines(t.file), []);
  } finally {
    await client.close();
  }
});

test("protocol errors are MCP errors: an unknown tool is -32602 and the session goes on", async () => {
  const t = sandbox();
  const { client } = await connect(t, { env: { AI_RECORDINGS_FILE: t.file } });
  try {
    await assert.rejects(client.callTool({ name: "erase", arguments: {} }), (e) => e instanceof McpError && e.code === -32602);
    // The server is still there.
    const r = await client.callTool({ name: "record", arguments: { entry: "after the error" } });
    assert.match(text(r), /^recorded /);
  } finally {
    await client.close();
  }
});

test("a non-string entry (a client that sent an object) is recorded as its JSON text", async () => {
  const t = sandbox();
  const { client } = await connect(t, { env: { AI_RECORDINGS_FILE: t.file } });
  try {
    const r = await client.callTool({ name: "record", arguments: { entry: { note: "object, not string" } } });
    assert.match(text(r), /^recorded /);
    assert.equal(entries(t.file)[0].note, "object, not string");
  } finally {
    await client.close();
  }
});

/** Spawns the server and talks raw JSON-RPC lines; resolves replies by id. */
function rawServer(t, env = {}) {
  const child = spawn(RUNTIME, [SERVER], { cwd: t.project, env: { ...t.env, AI_RECORDINGS_FILE: t.file, ...env }, stdio: ["pipe", "pipe", "pipe"] });
  const replies = [];
  let buf = "";
  let waiters = [];
  child.stdout.setEncoding("utf8").on("data", (d) => {
    buf += d;
    let nl;
    while ((nl = buf.indexOf("\n")) >= 0) {
      replies.push(JSON.parse(buf.slice(0, nl)));
      buf = buf.slice(nl + 1);
      waiters = waiters.filter((w) => !w());
    }
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
  const exited = new Promise((r) => child.on("close", (code) => r(code)));
  return {
    child,
    replies,
    exited,
    stderr: () => stderr,
    write: (s) => child.stdin.write(s),
    send: (m) => child.stdin.write(JSON.stringify(m) + "\n"),
    reply(pred, ms = 10000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const r = replies.find(pred);
          if (r) resolve(r);
          return Boolean(r);
        };
        if (check()) return;
        waiters.push(check);
        setTimeout(() => reject(new Error(`no reply; got ${JSON.stringify(replies)}; stderr ${stderr}`)), ms).unref();
      });
    },
  };
}

test("Claude Code's probe: `server/discover` before initialize gets -32601, then initialize works", async () => {
  const t = sandbox();
  const s = rawServer(t);
  s.send({ jsonrpc: "2.0", id: 0, method: "server/discover", params: {} });
  const probe = await s.reply((r) => r.id === 0);
  assert.equal(probe.error.code, -32601);
  s.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "claude-code", version: "2.1.332" } } });
  const init = await s.reply((r) => r.id === 1);
  assert.equal(init.result.serverInfo.name, "opencode-recordings");
  s.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  s.send({ jsonrpc: "2.0", id: 2, method: "some/future-method", params: {} });
  assert.equal((await s.reply((r) => r.id === 2)).error.code, -32601);
  s.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "record", arguments: { entry: "probe survived" } } });
  const rec = await s.reply((r) => r.id === 3);
  assert.match(rec.result.content[0].text, /^recorded /);
  assert.equal(entries(t.file)[0].client, "claude-code 2.1.332");
  s.child.stdin.end();
  assert.equal(await s.exited, 0, "stdin closed: a clean exit");
});

test("lines that are not JSON get -32700, non-JSON-RPC gets -32600, and the session goes on", async () => {
  const t = sandbox();
  const s = rawServer(t);
  s.write("this is not json\n");
  assert.equal((await s.reply((r) => r.error?.code === -32700)).id, null);
  s.send({ hello: "world", id: 7 });
  const bad = await s.reply((r) => r.error?.code === -32600);
  assert.equal(bad.id, 7);
  s.write("\n\r\n"); // blank lines are ignored
  s.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } } });
  assert.ok((await s.reply((r) => r.id === 1)).result);
  // A message split across writes, and two messages in one write.
  const call = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "record", arguments: { entry: "split across writes" } } }) + "\n";
  s.write(call.slice(0, 20));
  await new Promise((r) => setTimeout(r, 30));
  s.write(call.slice(20) + JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" }) + "\n");
  assert.match((await s.reply((r) => r.id === 2)).result.content[0].text, /^recorded /);
  assert.equal((await s.reply((r) => r.id === 3)).result.tools.length, missingDriver() ? 1 : 2);
  s.child.stdin.end();
  assert.equal(await s.exited, 0);
});

test("an entry larger than the SDK's own 10 MiB read limit is recorded, not a closed session", async () => {
  const t = sandbox();
  const s = rawServer(t);
  s.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } } });
  await s.reply((r) => r.id === 1);
  const big = "x".repeat(12 * 1024 * 1024);
  s.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "record", arguments: { entry: big } } });
  const r = await s.reply((x) => x.id === 2, 60000);
  assert.match(r.result.content[0].text, /^recorded /);
  assert.equal(fs.statSync(t.file).size > big.length, true);
  s.child.stdin.end();
  assert.equal(await s.exited, 0);
});

test("clientStamp and parseMcpArgs: tables", () => {
  assert.equal(clientStamp({ name: "claude-code", version: "2.1.332" }), "claude-code 2.1.332");
  assert.equal(clientStamp({ name: "codex-mcp-client", version: "" }), "codex-mcp-client");
  assert.equal(clientStamp({ name: " ", version: " " }), null);
  assert.equal(clientStamp(undefined), null);
  assert.deepEqual(parseMcpArgs(["--file", "a", "--model=m"]), { options: { file: "a", model: "m" }, warnings: [] });
  assert.deepEqual(parseMcpArgs(["--file"]).warnings, ["--file needs a value (ignored)"]);
  assert.deepEqual(parseMcpArgs(["stray"]).warnings, ["unknown argument stray (ignored)"]);
});
