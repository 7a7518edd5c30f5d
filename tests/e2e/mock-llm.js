// A scripted OpenAI-compatible chat server for driving the real opencode offline.
//
// opencode's `@ai-sdk/openai-compatible` provider POSTs /v1/chat/completions with stream:true. Each reply is an
// SSE stream of chat.completion.chunk objects: a role chunk, content or tool-call chunks, a finish chunk, a
// usage chunk with empty choices, then `data: [DONE]` (the shape opencode 1.18.33 accepts).
//
// Replies are chosen by a script function, called with what a test needs to tell turns apart:
//   n      — how many assistant messages the request already holds (0 for a session's first turn). Every
//            session (root, subagent, a parallel run) counts its own, so they advance independently.
//   system — the system prompt text; lastUser — the last user message text; tools — the offered tool names;
//   body   — the parsed request.
// and returns one of:
//   { text: "..." }                                   a final answer (finish_reason "stop")
//   { tool: "name", args: {...} } or { tools: [...] } tool call(s) (finish_reason "tool_calls")
//   { status: 400, message: "..." }                   an HTTP error (4xx is not retried by opencode)
// Title requests (system prompt "You are a title generator", sent once per root session) are answered here
// and never reach the script, so they cannot eat a scripted turn.

import * as http from "node:http";

function textOf(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p?.text === "string" ? p.text : "")).join("");
  return "";
}

function chunk(delta, finish = null) {
  return { id: "mock", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] };
}

let callCounter = 0;

/** The SSE frames for one reply. Tool arguments are sent in two pieces, as real providers stream them. */
export function frames(reply) {
  const out = [chunk({ role: "assistant", content: "" })];
  const calls = reply.tools ?? (reply.tool ? [{ name: reply.tool, args: reply.args ?? {} }] : []);
  if (reply.text) out.push(chunk({ content: reply.text }));
  calls.forEach((c, index) => {
    const id = `call_${++callCounter}_${c.name}`;
    const args = typeof c.args === "string" ? c.args : JSON.stringify(c.args ?? {});
    const cut = Math.floor(args.length / 2);
    out.push(chunk({ tool_calls: [{ index, id, type: "function", function: { name: c.name, arguments: "" } }] }));
    out.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(0, cut) } }] }));
    out.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(cut) } }] }));
  });
  out.push(chunk({}, calls.length ? "tool_calls" : "stop"));
  out.push({ id: "mock", object: "chat.completion.chunk", created: 0, model: "m", choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
  return out.map((f) => `data: ${JSON.stringify(f)}\n\n`).join("") + "data: [DONE]\n\n";
}

/**
 * Starts the server on 127.0.0.1 (a free port). `script(ctx)` picks each reply; it may be swapped per test
 * with `server.script = fn`. Resolves to { url, port, requests, script, close() }.
 */
export function startMock(script = () => ({ text: "done" })) {
  const state = { script, requests: [] };
  const server = http.createServer((req, res) => {
    let data = "";
    req.setEncoding("utf8");
    req.on("data", (d) => (data += d));
    req.on("end", () => {
      let body = {};
      try {
        body = JSON.parse(data || "{}");
      } catch {}
      const messages = Array.isArray(body.messages) ? body.messages : [];
      const system = messages.filter((m) => m.role === "system").map((m) => textOf(m.content)).join("\n");
      const users = messages.filter((m) => m.role === "user");
      const ctx = {
        n: messages.filter((m) => m.role === "assistant").length,
        system,
        lastUser: users.length ? textOf(users[users.length - 1].content) : "",
        tools: (body.tools ?? []).map((t) => t.function?.name).filter(Boolean),
        body,
      };
      const title = system.includes("You are a title generator");
      let reply;
      try {
        reply = title ? { text: "Mock title" } : state.script(ctx) ?? { text: "done" };
      } catch (e) {
        reply = { text: `mock script error: ${e.message}` };
      }
      state.requests.push({ path: req.url, title, n: ctx.n, tools: ctx.tools, reply });
      if (reply.status) {
        res.writeHead(reply.status, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: reply.message ?? "mock error", type: "invalid_request_error", code: reply.status } }));
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
      res.end(frames(reply));
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({
        port,
        url: `http://127.0.0.1:${port}/v1`,
        requests: state.requests,
        get script() {
          return state.script;
        },
        set script(fn) {
          state.script = fn;
        },
        close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(() => r()); }),
      });
    });
  });
}
