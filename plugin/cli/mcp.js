// `record mcp`: an MCP server over stdio (the official @modelcontextprotocol/sdk) with one tool, `record`, for
// any MCP host (Claude Code, Codex, Cursor, opencode's `mcp` block, ...).
//
// The tool takes the same single string argument `entry` as the opencode tool and answers with the same one
// line (`recorded <eid> → <file>` / `quarantined <eid> → <file> (<reason>)` / `not recorded: <reason>`).
// Entries are stamped `capture: "mcp"` and `client: "<name> <version>"` from the client's `initialize`.
// Target and options come from the same env as the CLI and the plugin (AI_RECORDINGS_FILE, _SESSION, _MODEL,
// _AGENT, _MAX_BYTES, _REDACT) and from flags: `record mcp [--file PATH] [--session S] [--model M] [--agent A]`.
//
// It never crashes the client's session:
//  - a recording that fails is a normal tool result saying it was not recorded and why (never isError, so the
//    model reads the reason instead of retrying blindly);
//  - protocol mistakes (an unknown tool, bad params) are MCP errors from the SDK;
//  - unknown methods get JSON-RPC -32601 "Method not found". Claude Code first probes a method newer than the
//    SDK (`server/discover`) and falls back to `initialize` only on -32601; the SDK's Protocol answers every
//    request that has no handler that way (tests/js/mcp.test.js sends that probe over a real pipe).
//
// The recorder (wasm) is loaded on the first call, so `initialize` and `tools/list` answer at once.

import { isMainModule } from "../builtins.js";
import { packageInfo } from "../package-info.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema, ErrorCode, McpError, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { resolveOptions } from "../capture/options.js";
import { ENTRY_ARG_DESCRIPTION, RECORD_TOOL_DESCRIPTION, callRecordTool } from "../capture/record-tool.js";
import { hostFlags } from "./entry-flags.js";

export const SERVER_NAME = "opencode-recordings";

export const RECORD_TOOL = {
  name: "record",
  title: "Record an observation",
  description: RECORD_TOOL_DESCRIPTION,
  inputSchema: {
    type: "object",
    properties: {
      entry: { type: "string", description: ENTRY_ARG_DESCRIPTION },
    },
    required: ["entry"],
  },
  // Appends only; never edits or deletes, and touches nothing outside the recordings file.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
};

/** `record mcp` flags → { options, warnings }. Unknown words are reported (on stderr by runMcp), not fatal:
 *  a host that passes an extra argument must still get a working server. */
export function parseMcpArgs(args = []) {
  return hostFlags(args, ["--file", "--session", "--model", "--agent"]);
}

/** The largest message read from the client. The SDK's own reader stops at 10 MiB and then closes the
 *  session; an entry may be 16 MiB and JSON escaping can grow it several times. */
export const MAX_MESSAGE_BYTES = 128 * 1024 * 1024;

/**
 * The SDK's stdio server transport with a line reader that never ends the session: a line that is not JSON
 * gets JSON-RPC -32700 (id null), JSON that is not a JSON-RPC message gets -32600, and a message over
 * MAX_MESSAGE_BYTES is dropped with -32600 (its id, when it can be seen near the start). Lines are joined once
 * (the SDK's reader re-concatenates its whole buffer on every chunk).
 */
export class LineTransport extends StdioServerTransport {
  constructor(stdin, stdout, { maxMessageBytes = MAX_MESSAGE_BYTES } = {}) {
    super(stdin, stdout);
    const pending = [];
    let size = 0;
    let skipping = null; // the head of a message being dropped for its size
    this._ondata = (chunk) => {
      if (typeof chunk === "string") chunk = Buffer.from(chunk, "utf8");
      let at = 0;
      for (let nl = chunk.indexOf(10, at); nl >= 0; nl = chunk.indexOf(10, at)) {
        const part = chunk.subarray(at, nl);
        at = nl + 1;
        if (skipping) {
          this.reject(skipping, size + part.length);
          skipping = null;
        } else {
          pending.push(part);
          const line = pending.length === 1 ? pending[0] : Buffer.concat(pending);
          this.deliver(line);
        }
        pending.length = 0;
        size = 0;
      }
      const rest = chunk.subarray(at);
      if (!rest.length) return;
      size += rest.length;
      if (skipping) return;
      pending.push(Buffer.from(rest));
      if (size > maxMessageBytes) {
        skipping = Buffer.concat(pending).subarray(0, 512).toString("utf8");
        pending.length = 0;
      }
    };
  }

  deliver(line) {
    const text = line.toString("utf8").replace(/\r$/, "");
    if (!text.trim()) return;
    let value;
    try {
      value = JSON.parse(text);
    } catch (e) {
      this.onerror?.(new Error(`parse error: ${e.message}`));
      this.answer(null, ErrorCode.ParseError, "Parse error: the line is not JSON");
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = value && typeof value === "object" && (typeof value.id === "string" || typeof value.id === "number") ? value.id : null;
      this.onerror?.(new Error("invalid request: not a JSON-RPC 2.0 message"));
      this.answer(id, ErrorCode.InvalidRequest, "Invalid Request: not a JSON-RPC 2.0 message");
      return;
    }
    this.onmessage?.(parsed.data);
  }

  reject(head, bytes) {
    const m = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(head);
    let id = null;
    try {
      id = m ? JSON.parse(m[1]) : null;
    } catch {}
    this.onerror?.(new Error(`message of ${bytes} bytes dropped`));
    this.answer(id, ErrorCode.InvalidRequest, `Invalid Request: message of ${bytes} bytes is over the ${MAX_MESSAGE_BYTES}-byte limit`);
  }

  answer(id, code, message) {
    this.send({ jsonrpc: "2.0", id, error: { code, message } }).catch(() => {});
  }
}

/** "name version" from the client's `initialize` clientInfo, or null. */
export function clientStamp(info) {
  if (!info || typeof info !== "object") return null;
  const name = typeof info.name === "string" ? info.name.trim() : "";
  const version = typeof info.version === "string" ? info.version.trim() : "";
  const s = [name, version].filter(Boolean).join(" ");
  return s || null;
}

/**
 * Builds the SDK Server with the `record` tool. `deps` = { record, options, env, cwd } where `record` is
 * plugin/recorder.js's record() (or a stand-in) or a function returning a promise of it.
 */
export function createServer(deps = {}) {
  const env = deps.env ?? process.env;
  const resolved = resolveOptions(null, env);
  const base = { ...(deps.options ?? {}) };
  if (base.redact === undefined && resolved.redact !== undefined) base.redact = resolved.redact;

  const server = new Server({ name: SERVER_NAME, version: packageInfo().version }, { capabilities: { tools: {} } });
  let recordFn = null;
  let loadError = null;
  async function recorder() {
    if (recordFn || loadError) return recordFn;
    try {
      recordFn = typeof deps.record === "function" ? deps.record : (await import("../recorder.js")).record;
    } catch (e) {
      loadError = e?.message ?? String(e);
    }
    return recordFn;
  }

  // The recall tool (plugin/recall/tool.js), loaded when listed; absent when switched off.
  const recall = import("../recall/mcp.js").then((m) => m.createMcpRecall({ options: base, env, cwd: deps.cwd ?? process.cwd() })).catch(() => null);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [RECORD_TOOL, ...((await recall)?.tools ?? [])] }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    const r = await recall;
    if (r && r.handles(name)) return { content: [{ type: "text", text: await r.call(args) }] };
    if (name !== RECORD_TOOL.name) throw new McpError(ErrorCode.InvalidParams, `unknown tool: ${name}`);
    return { content: [{ type: "text", text: await callRecord(args) }] };
  });

  async function callRecord(args) {
    const record = await recorder();
    const options = { ...base, capture: "mcp", env, cwd: deps.cwd ?? process.cwd() };
    const client = clientStamp(server.getClientVersion());
    if (client) options.stamps = { ...(base.stamps ?? {}), client };
    return callRecordTool({ record, loadError }, args?.entry, options);
  }

  return server;
}

/**
 * Serves MCP on `stdin`/`stdout` until stdin ends. Resolves to the exit status (always 0: a closed pipe is
 * the normal end of an MCP session). Diagnostics go to `stderr` (hosts show or log a server's stderr; stdout
 * carries only protocol messages).
 */
export async function runMcp({ stdin = process.stdin, stdout = process.stdout, stderr = process.stderr, env = process.env, args = [], cwd, record } = {}) {
  const { options, warnings } = parseMcpArgs(args);
  for (const w of warnings) stderr.write(`record mcp: ${w}\n`);
  const server = createServer({ options, env, cwd, record });
  const transport = new LineTransport(stdin, stdout);
  // A broken message (not JSON, not JSON-RPC) is skipped by the transport; say so and keep serving.
  server.onerror = (e) => {
    try {
      stderr.write(`record mcp: ${e?.message ?? e}\n`);
    } catch {}
  };
  const closed = new Promise((resolve) => {
    const done = () => resolve();
    stdin.once("end", done);
    stdin.once("close", done);
    server.onclose = done;
  });
  // EPIPE on stdout when the client has gone: nothing left to answer.
  stdout.on?.("error", () => {});
  await server.connect(transport);
  await closed;
  try {
    await server.close();
  } catch {}
  return 0;
}

// `node plugin/cli/mcp.js [flags]` runs the server directly (the same as `record mcp [flags]`).
if (isMainModule(import.meta)) {
  runMcp({ args: process.argv.slice(2) }).then(
    (code) => (process.exitCode = code),
    (e) => {
      process.stderr.write(`record mcp: ${e?.stack ?? e}\n`);
      process.exitCode = 1;
    },
  );
}
