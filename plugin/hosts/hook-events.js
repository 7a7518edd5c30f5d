// The hook events Claude Code and Codex share (PostToolUse, PostToolUseFailure, SubagentStop, with session_id,
// cwd, transcript_path), turned into automatic entries. Where the hosts differ — the exit status, the
// subagent's brief, the model — plugin/hosts/claude-code.js and plugin/hosts/codex.js answer.

import { gateEntry, subagentEntry, toolFailedEntry } from "../capture/entries.js";
import { isGate } from "../capture/gate.js";
import { planPass } from "../capture/green.js";
import { resolveOptions } from "../capture/options.js";
import { claudeBrief, claudeModel, claudeOutcome } from "./claude-code.js";
import { codexBrief, codexOutcome } from "./codex.js";

export const HOSTS = ["claude-code", "codex"];

const str = (v) => (typeof v === "string" && v !== "" ? v : undefined);

const HOST = {
  "claude-code": {
    brief: claudeBrief,
    outcome: claudeOutcome,
    // Claude's hook payloads carry no model: the session transcript's latest assistant message does.
    model: (payload) => claudeModel(payload.transcript_path),
    sessionEnv: "CLAUDE_CODE_SESSION_ID",
    projectEnv: "CLAUDE_PROJECT_DIR",
    worthLooking: () => true,
  },
  codex: {
    brief: codexBrief,
    outcome: codexOutcome,
    model: () => undefined,
    // The outcome is read from the transcript: only when it could make an entry, or, for a command, a hint.
    worthLooking: (tool, gate, opts) => tool === "Bash" || opts.auto.tool !== false,
  },
};

/**
 * The failure hook mode looks for a recall hint for, and the hook event whose output carries it to the model, or
 * null: { event, session, cwd, command, error, output }. Claude Code: every PostToolUseFailure (a command or
 * another tool; its `error` holds the output). Codex: a command that exited non-zero (`plan.failed`, from the
 * transcript), whose PostToolUse output reaches the model as a developer message (measured with 0.171.0).
 */
export function hintFailure(host, payload, plan) {
  const session = str(payload?.session_id) ?? null;
  const cwd = str(payload?.cwd);
  if (host === "claude-code" && payload?.hook_event_name === "PostToolUseFailure") {
    const command = typeof payload.tool_input?.command === "string" ? payload.tool_input.command : "";
    return { event: "PostToolUseFailure", session, cwd, command, error: typeof payload.error === "string" ? payload.error : "" };
  }
  if (host === "codex" && plan?.failed) return { event: "PostToolUse", session, cwd, command: plan.failed.command, output: plan.failed.output };
  return null;
}

/**
 * What one hook payload calls for: { kind: "entry", entry, options } (an automatic entry), { kind: "none" } (an
 * event that calls for nothing), or { kind: "raw", why } (not a hook event we can read: keep the bytes). A
 * command that exited non-zero adds `failed`: { command, output }.
 * `options` are the record() stamps: session, cwd, model, agent. A passing gate with a failure still open in the
 * session's `memory` (plugin/capture/memory.js) gives the `gate.passed` entry and `pass`, the red-to-green plan
 * (plugin/capture/green.js) to commit once it is written. Each event is delivered once per call, so nothing is
 * deduplicated here.
 */
export function planHook(host, payload, { env = {}, now = Date.now(), opts, memory } = {}) {
  const h = Object.hasOwn(HOST, host) ? HOST[host] : null;
  if (!h) return { kind: "raw", why: `unknown host ${JSON.stringify(host)}` };
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) return { kind: "raw", why: "not a JSON object" };
  const event = payload.hook_event_name;
  if (typeof event !== "string" || !event) return { kind: "raw", why: "no hook_event_name" };
  opts ??= resolveOptions(null, env);
  const stamps = {
    session: str(payload.session_id) ?? str(h.sessionEnv ? env[h.sessionEnv] : undefined),
    cwd: str(payload.cwd) ?? str(h.projectEnv ? env[h.projectEnv] : undefined),
    model: str(payload.model),
    agent: str(payload.agent_type),
  };
  const plan = (entry) => {
    if (!entry) return { kind: "none" };
    if (str(payload.agent_id) && event !== "SubagentStop") entry.agent_id = payload.agent_id;
    stamps.model ??= h.model(payload);
    return { kind: "entry", entry, options: stamps };
  };

  if (event === "SubagentStop") {
    if (opts.auto.subagent === false) return { kind: "none" };
    const last = payload.last_assistant_message;
    if (typeof last !== "string" && !str(payload.agent_id)) return { kind: "raw", why: "SubagentStop without agent_id or last_assistant_message" };
    const brief = h.brief(payload);
    const entry = subagentEntry(
      {
        description: brief.description,
        subagent_type: brief.subagent_type ?? str(payload.agent_type),
        prompt: brief.prompt ?? "",
        child_session: str(payload.agent_id),
        result: typeof last === "string" ? last : "",
        call: brief.call,
      },
      {
        subagent_model: brief.model,
        subagent_name: brief.nickname,
        duration_ms: typeof brief.started === "number" ? Math.max(0, Math.round(now - brief.started)) : undefined,
        subagent_transcript: str(payload.agent_transcript_path),
      },
    );
    // The subagent's own model is subagent_model; the stamps are the session's.
    stamps.agent = undefined;
    return plan(entry);
  }

  if (event !== "PostToolUse" && event !== "PostToolUseFailure") return { kind: "none" }; // SessionStart, Stop, ...
  const tool = payload.tool_name;
  if (typeof tool !== "string") return { kind: "raw", why: `${event} without tool_name` };
  const input = payload.tool_input;
  const command = tool === "Bash" && input && typeof input === "object" ? input.command : undefined;
  const gate = tool === "Bash" && isGate(command, opts.gatePatterns);
  if (!h.worthLooking(tool, gate, opts)) return { kind: "none" };
  const outcome = h.outcome(event, payload, tool);
  if (!outcome) return { kind: "none" };
  const call = str(payload.tool_use_id);
  if (outcome.exit !== undefined) {
    // A command that failed, gate or not, is one a hint may be looked for (hintFailure).
    const failed = outcome.exit !== 0 ? { command: typeof command === "string" ? command : "", output: outcome.output ?? "" } : undefined;
    if (!gate || opts.auto.gate === false) return failed ? { kind: "none", failed } : { kind: "none" };
    if (outcome.exit === 0) {
      const pass = planPass(memory, stamps.session, { command, workdir: str(input?.workdir), cwd: stamps.cwd, now, call, nudges: opts.nudges, nudgeAfter: opts.nudgeAfter });
      return pass ? { ...plan(pass.entry), pass } : { kind: "none" };
    }
    return { ...plan(gateEntry({ command, exit: outcome.exit, output: outcome.output ?? "", workdir: str(input?.workdir), call })), failed };
  }
  if (opts.auto.tool === false) return { kind: "none" };
  return plan(toolFailedEntry({ tool, error: outcome.error, args: input, call }, { interrupted: outcome.interrupted ? true : undefined }));
}
