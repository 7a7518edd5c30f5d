// The scripted sessions the mock models play for the real Claude Code and Codex: a failing gate (`npm test`), a
// subagent with a recognisable brief, a call of our MCP `record` tool, and for Claude Code a failed Read. Shared by
// the end-to-end tests and scripts/capture-host-fixtures.js, which captures the hook payloads they produce.

export const BRIEF = "SUBAGENT-BRIEF: find why the widget spins; report the cause only.";
export const REPORT = "Subagent report: the widget spins because of a race in spin().";
export const NOTE = "category=discovery | finding: the widget spins | sentiment: relief";

/** Claude Code (tests/hosts/mock-models.js startAnthropic): the reply for the n-th assistant turn. */
export function claudeSession({ text, n, body }) {
  if (text.includes(BRIEF) && !text.includes("fix the widget")) return { text: REPORT };
  if (!(body?.tools ?? []).length) return { text: "title" };
  if (n === 0) return { tool: "Bash", args: { command: "npm test", description: "run the tests" } };
  // run_in_background:false keeps the subagent inside the turn, so its hooks come in order.
  if (n === 1) return { tool: "Agent", args: { description: "Find the spin bug", prompt: BRIEF, subagent_type: "general-purpose", run_in_background: false } };
  if (n === 2) return { tool: "mcp__recordings__record", args: { entry: NOTE } };
  if (n === 3) return { tool: "Read", args: { file_path: "/nonexistent/widget/spin.rs" } };
  return { text: "All done." };
}

/** Codex (startResponses): spawn_agent then wait_agent on the id it answered. */
export function codexSession({ body, inputText, n }) {
  if (inputText.includes(BRIEF) && !inputText.includes("fix the widget")) return { text: REPORT };
  if (n === 0) return { tool: "exec_command", args: { cmd: "npm test" } };
  if (n === 1) return { tool: "spawn_agent", namespace: "multi_agent_v1", args: { message: BRIEF } };
  if (n === 2) {
    const out = body.input.filter((i) => i.type === "function_call_output").at(-1).output;
    const id = JSON.parse(typeof out === "string" ? out : JSON.stringify(out)).agent_id;
    return { tool: "wait_agent", namespace: "multi_agent_v1", args: { targets: [id], timeout_ms: 10000 } };
  }
  if (n === 3) return { tool: "record", namespace: "mcp__recordings", args: { entry: NOTE } };
  return { text: "All done." };
}
