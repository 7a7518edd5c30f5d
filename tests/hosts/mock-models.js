// Scripted model servers on 127.0.0.1 for driving the real Claude Code and Codex CLIs offline.
//
//   startAnthropic(script)  POST /v1/messages (Claude Code adds ?beta=true), stream:true → Messages SSE:
//                           message_start, content_block_start/delta/stop per block, message_delta, message_stop.
//   startResponses(script)  POST /v1/responses (Codex, wire_api = "responses") → Responses SSE:
//                           response.created, response.output_item.added/done per item, response.completed.
//
// Both call `script(ctx)` for every request, with ctx = { body, text, n, requests } where `text` is every
// message's text joined (so a script can tell a subagent's conversation by a marker in its brief) and `n` is
// how many tool results the conversation already holds (each conversation advances on its own). The script
// returns { text } for a final answer or { tool, args, ... } / { tools: [...] } for tool calls.
// Every request body is kept in `requests` for assertions and for learning the hosts' tool names.

import * as http from "node:http";

function listen(handler) {
  const requests = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (d) => chunks.push(d));
    req.on("end", () => {
      let body = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        body = null;
      }
      requests.push({ method: req.method, url: req.url, body });
      try {
        handler(req, res, body, requests);
      } catch (e) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: String(e?.stack ?? e) } }));
      }
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({
        port,
        url: `http://127.0.0.1:${port}`,
        requests,
        close: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}

function sse(res, frames) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "close" });
  for (const [event, data] of frames) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  res.end();
}

function callsOf(reply) {
  return reply.tools ?? (reply.tool ? [reply] : []);
}

// ---------------------------------------------------------------------------------------------------------
// Anthropic Messages

function anthropicText(messages) {
  const out = [];
  for (const m of messages ?? []) {
    if (typeof m.content === "string") out.push(m.content);
    else for (const b of m.content ?? []) {
      if (b.type === "text") out.push(b.text);
      else if (b.type === "tool_result") out.push(typeof b.content === "string" ? b.content : JSON.stringify(b.content));
    }
  }
  return out.join("\n");
}

function anthropicToolResults(messages) {
  let n = 0;
  for (const m of messages ?? []) if (Array.isArray(m.content)) for (const b of m.content) if (b.type === "tool_result") n++;
  return n;
}

let toolSeq = 0;

export function startAnthropic(script) {
  return listen((req, res, body, requests) => {
    if (req.method !== "POST" || !req.url.startsWith("/v1/messages")) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: `no route ${req.url}` } }));
      return;
    }
    const messages = body?.messages ?? [];
    const system = Array.isArray(body?.system) ? body.system.map((b) => b.text ?? "").join("\n") : String(body?.system ?? "");
    const reply = script({ body, system, text: anthropicText(messages), n: anthropicToolResults(messages), requests }) ?? { text: "ok" };
    const model = body?.model ?? "claude-mock";
    const blocks = [];
    if (reply.text) blocks.push({ type: "text", text: reply.text });
    for (const c of callsOf(reply)) blocks.push({ type: "tool_use", id: `toolu_mock${++toolSeq}`, name: c.tool, input: c.args ?? {} });
    const stop = blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
    const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    if (body?.stream === false) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: `msg_mock${toolSeq}`, type: "message", role: "assistant", model, content: blocks, stop_reason: stop, stop_sequence: null, usage }));
      return;
    }
    const frames = [["message_start", { type: "message_start", message: { id: `msg_mock${++toolSeq}`, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } }]];
    blocks.forEach((b, index) => {
      if (b.type === "text") {
        frames.push(["content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } }]);
        frames.push(["content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: b.text } }]);
      } else {
        frames.push(["content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id: b.id, name: b.name, input: {} } }]);
        const json = JSON.stringify(b.input);
        const cut = Math.floor(json.length / 2);
        frames.push(["content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: json.slice(0, cut) } }]);
        frames.push(["content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: json.slice(cut) } }]);
      }
      frames.push(["content_block_stop", { type: "content_block_stop", index }]);
    });
    frames.push(["message_delta", { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } }]);
    frames.push(["message_stop", { type: "message_stop" }]);
    sse(res, frames);
  });
}

// ---------------------------------------------------------------------------------------------------------
// OpenAI Responses

function responsesText(input) {
  const out = [];
  for (const item of input ?? []) {
    if (typeof item.content === "string") out.push(item.content);
    else if (Array.isArray(item.content)) for (const c of item.content) if (typeof c.text === "string") out.push(c.text);
    if (item.type === "function_call_output") out.push(typeof item.output === "string" ? item.output : JSON.stringify(item.output));
  }
  return out.join("\n");
}

function responsesToolResults(input) {
  let n = 0;
  for (const item of input ?? []) if (item.type === "function_call_output" || item.type === "custom_tool_call_output") n++;
  return n;
}

export function startResponses(script) {
  let seq = 0;
  return listen((req, res, body, requests) => {
    if (req.method !== "POST" || !req.url.startsWith("/v1/responses")) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `no route ${req.url}`, type: "not_found" } }));
      return;
    }
    const input = Array.isArray(body?.input) ? body.input : [];
    const reply = script({ body, text: responsesText(input) + "\n" + String(body?.instructions ?? ""), inputText: responsesText(input), n: responsesToolResults(input), requests }) ?? { text: "ok" };
    const id = `resp_mock${++seq}`;
    const items = [];
    if (reply.text) items.push({ type: "message", id: `msg_${seq}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: reply.text, annotations: [] }] });
    for (const c of callsOf(reply)) {
      const item = { type: "function_call", id: `fc_${seq}_${items.length}`, call_id: `call_mock${seq}_${items.length}`, name: c.tool, arguments: JSON.stringify(c.args ?? {}), status: "completed" };
      if (c.namespace) item.namespace = c.namespace;
      items.push(item);
    }
    const frames = [["response.created", { type: "response.created", response: { id, object: "response", status: "in_progress", output: [] } }]];
    items.forEach((item, output_index) => {
      frames.push(["response.output_item.added", { type: "response.output_item.added", output_index, item: item.type === "message" ? { ...item, content: [] } : item }]);
      if (item.type === "message") {
        frames.push(["response.output_text.delta", { type: "response.output_text.delta", output_index, content_index: 0, item_id: item.id, delta: item.content[0].text }]);
      }
      frames.push(["response.output_item.done", { type: "response.output_item.done", output_index, item }]);
    });
    const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
    frames.push(["response.completed", { type: "response.completed", response: { id, object: "response", status: "completed", output: items, usage } }]);
    sse(res, frames);
  });
}
