// opencode's payloads (shapes observed from opencode 1.18.33, saved in tests/fixtures/opencode/) turned into the
// facts the shared entry builders take, plus what the plugin learns along the way (models, agents, parents,
// permission replies). opencode reports a tool part several times, so entries are deduplicated here.

import { asText } from "../capture/bound.js";
import { compactedEntry, gateEntry, sessionErrorEntry, subagentEntry, toolFailedEntry } from "../capture/entries.js";
import { isGate } from "../capture/gate.js";
import { commitPass, noteFailure, planPass } from "../capture/green.js";
import { ENTRY_ARG_DESCRIPTION, RECORD_TOOL_DESCRIPTION, callRecordTool, sessionRecordOptions } from "../capture/record-tool.js";
import { boundedSet } from "../capture/memory.js";
import { MAX_KEYS, firstTime, sessionInfo, sessionOf } from "../capture/state.js";

/** "provider/model" from the shapes opencode uses ({providerID, modelID} or {providerID, id}). */
export function modelString(providerID, modelID) {
  if (typeof modelID !== "string" || !modelID) return null;
  return typeof providerID === "string" && providerID ? `${providerID}/${modelID}` : modelID;
}

// Agents opencode runs for its own bookkeeping, on possibly another model (small_model for titles).
const INTERNAL_AGENTS = new Set(["title", "summary", "compaction"]);

/** chat.params: `input.model.{providerID,id}` and `input.agent`. The title request (agent "title") may use
 *  the small model and is skipped. `input.provider.options` holds the API key: it is never read. */
export function learnChatParams(state, input) {
  if (!input || INTERNAL_AGENTS.has(input.agent)) return;
  const s = sessionOf(state, input.sessionID);
  if (!s) return;
  const m = modelString(input.model?.providerID, input.model?.id);
  if (m) s.model = m;
  if (typeof input.agent === "string" && input.agent) s.agent = input.agent;
}

/** chat.message: `output.message.model.{providerID,modelID}` and `output.message.agent`. */
export function learnChatMessage(state, input, output) {
  const msg = output?.message;
  const s = sessionOf(state, input?.sessionID ?? msg?.sessionID);
  if (!s || !msg) return;
  const m = modelString(msg.model?.providerID, msg.model?.modelID);
  if (m) s.model = m;
  if (typeof msg.agent === "string" && msg.agent && !INTERNAL_AGENTS.has(msg.agent)) s.agent = msg.agent;
}

/** session.created / session.updated: `info.parentID`, `info.model.{providerID,id}`, `info.agent`. */
export function learnEvent(state, event) {
  const type = event?.type;
  const p = event?.properties;
  if (!p) return;
  if (type === "session.created" || type === "session.updated") {
    const info = p.info ?? {};
    const s = sessionOf(state, info.id ?? p.sessionID);
    if (!s) return;
    if (typeof info.parentID === "string" && info.parentID) s.parent = info.parentID;
    const m = modelString(info.model?.providerID, info.model?.id ?? info.model?.modelID);
    if (m && !s.model) s.model = m;
    if (typeof info.agent === "string" && info.agent && !s.agent && !INTERNAL_AGENTS.has(info.agent)) s.agent = info.agent;
  } else if (type === "session.idle") {
    // A session's errors are deduplicated until it goes idle (opencode can repeat one error while retrying).
    const s = state.sessions.get(p.sessionID);
    if (s) delete s.errors;
  } else if (type === "permission.asked") {
    // The permission.ask hook is never called in 1.18; these events tie a reply to the tool call it blocked.
    const callID = p.tool?.callID;
    if (p.id && callID) boundedSet(state.asked, p.id, { key: `${p.sessionID}\0${callID}`, permission: p.permission }, MAX_KEYS);
  } else if (type === "permission.replied") {
    const ask = state.asked.get(p.requestID ?? p.permissionID ?? p.id);
    if (ask) {
      boundedSet(state.replies, ask.key, { permission: ask.permission, reply: p.reply ?? p.response }, MAX_KEYS);
      state.asked.delete(p.requestID ?? p.permissionID ?? p.id);
    }
  } else if (type === "session.deleted") {
    state.sessions.delete(p.info?.id ?? p.sessionID);
  }
}

/** tool.execute.before: remembers when a task started, for the subagent's duration. */
export function noteToolStart(state, input, now) {
  if (input?.tool !== "task" || !input.callID) return;
  boundedSet(state.started, `${input.sessionID}\0${input.callID}`, now, MAX_KEYS);
}

/** `<task id="ses_…" state="completed"><task_result>…</task_result></task>` → its parts. */
export function parseTaskOutput(text) {
  if (typeof text !== "string") return { result: "" };
  const head = /<task\b([^>]*)>/.exec(text);
  const attr = (name) => (head ? new RegExp(`\\b${name}="([^"]*)"`).exec(head[1])?.[1] : undefined);
  const body = /<task_result>\n?([\s\S]*?)\n?<\/task_result>/.exec(text);
  return { id: attr("id"), state: attr("state"), result: body ? body[1] : text };
}

/**
 * tool.execute.after → the automatic entry it calls for, or null:
 *  - `task` finished → `subagent.completed` (the brief, the child session, the result, how long it ran);
 *  - `bash` ran a gate that exited non-zero → `gate.failed` (command, exit code, the tail of the output).
 * Deduplicated on session + callID + trigger.
 */
export function entryFromToolAfter(state, input, output, opts, now = Date.now()) {
  if (!input || !output) return null;
  const auto = opts?.auto ?? {};
  if (input.tool === "task" && auto.subagent !== false) {
    if (!firstTime(state, `${input.sessionID}\0${input.callID}\0subagent.completed`)) return null;
    const args = input.args ?? {};
    const meta = output.metadata ?? {};
    const parsed = parseTaskOutput(typeof output.output === "string" ? output.output : asText(output.output));
    const key = `${input.sessionID}\0${input.callID}`;
    const t0 = state.started.get(key);
    state.started.delete(key);
    return subagentEntry({
      description: args.description,
      subagent_type: args.subagent_type,
      prompt: args.prompt,
      child_session: meta.sessionId ?? parsed.id,
      subagent_model: modelString(meta.model?.providerID, meta.model?.modelID),
      state: parsed.state,
      result: parsed.result,
      duration_ms: typeof t0 === "number" ? now - t0 : undefined,
      call: input.callID,
    });
  }
  if (input.tool === "bash" && auto.gate !== false) {
    const exit = output.metadata?.exit;
    if (typeof exit !== "number" || exit === 0) return null;
    const command = input.args?.command;
    if (!isGate(command, opts?.gatePatterns)) return null;
    if (!firstTime(state, `${input.sessionID}\0${input.callID}\0gate.failed`)) return null;
    const outputText = typeof output.output === "string" ? output.output : asText(output.metadata?.output);
    return gateEntry({ command, exit, output: outputText, workdir: input.args?.workdir, call: input.callID });
  }
  return null;
}

/**
 * tool.execute.after of a bash gate that exited 0, in a session where the same command failed and is still open:
 * the red-to-green plan ({ entry, nudge, event }, plugin/capture/green.js), else null. `memory` is the session
 * memory; `cwd` stands for the workdir when the call names none, as it does when the failure is noted.
 */
export function passFromToolAfter(state, memory, input, output, opts, now = Date.now(), cwd) {
  if (input?.tool !== "bash" || opts?.auto?.gate === false || output?.metadata?.exit !== 0) return null;
  const command = input.args?.command;
  if (typeof command !== "string" || !isGate(command, opts?.gatePatterns)) return null;
  if (!firstTime(state, `${input.sessionID}\0${input.callID}\0gate.passed`)) return null;
  return planPass(memory, input.sessionID, {
    command,
    workdir: input.args?.workdir,
    cwd,
    now,
    call: input.callID,
    nudges: opts?.nudges,
    nudgeAfter: opts?.nudgeAfter,
  });
}

/**
 * One tool.execute.after, written: the automatic entry it calls for (entryFromToolAfter), a failed gate noted in
 * the session memory, a green gate's `gate.passed` (passFromToolAfter). `write(session, entry)` records and
 * returns record()'s status. Returns the line to add to what the model reads of the call, or "".
 */
export function handleToolAfter({ state, memory, opts, write, cwd }, input, output, now = Date.now()) {
  const entry = entryFromToolAfter(state, input, output, opts, now);
  if (entry) {
    const status = write(input.sessionID, entry);
    if (entry.trigger === "gate.failed") noteFailure(memory, input.sessionID, { command: entry.command, workdir: input.args?.workdir, cwd, status, now });
    return "";
  }
  const pass = passFromToolAfter(state, memory, input, output, opts, now, cwd);
  if (!pass) return "";
  const status = write(input.sessionID, pass.entry);
  if (status?.status !== "recorded") return "";
  commitPass(memory, input.sessionID, pass);
  if (pass.nudge && typeof output.output === "string") output.output = `${output.output}\n\n${pass.nudge}`;
  return pass.nudge;
}

/**
 * An event → { session, entry } for the automatic entry it calls for, or null:
 *  - message.part.updated with a tool part in state "error" → `tool.failed` (opencode sends no
 *    tool.execute.after for a tool that threw or whose permission was rejected; a rejection adds
 *    `permission` and `permission_reply`, learned from the permission.asked / permission.replied events);
 *  - session.error → `session.error` (name, message, status code), once per session until it goes idle;
 *  - session.compacted → `session.compacted`.
 * Also feeds the session cache (learnEvent).
 */
export function entryFromEvent(state, event, opts) {
  if (!event || typeof event !== "object") return null;
  learnEvent(state, event);
  const auto = opts?.auto ?? {};
  const p = event.properties ?? {};
  switch (event.type) {
    case "message.part.updated": {
      const part = p.part;
      if (!part || part.type !== "tool" || part.state?.status !== "error" || auto.tool === false) return null;
      const sid = part.sessionID ?? p.sessionID;
      if (!firstTime(state, `${sid}\0${part.callID ?? part.id}\0tool.failed`)) return null;
      const key = `${sid}\0${part.callID}`;
      const perm = state.replies.get(key);
      state.replies.delete(key);
      const entry = toolFailedEntry({
        tool: part.tool,
        error: part.state.error,
        args: part.state.input,
        permission: perm?.permission,
        permission_reply: perm?.reply,
        call: part.callID,
      });
      return { session: sid, entry };
    }
    case "session.error": {
      if (auto.error === false) return null;
      const err = p.error ?? {};
      const name = typeof err.name === "string" ? err.name : "UnknownError";
      const message = asText(err.data?.message ?? err.message ?? "");
      const s = sessionOf(state, p.sessionID);
      const key = `${name}\0${message}`;
      if (s) {
        s.errors ??= new Set();
        if (s.errors.has(key)) return null;
        s.errors.add(key);
      }
      return { session: p.sessionID, entry: sessionErrorEntry({ name, message, status_code: err.data?.statusCode }) };
    }
    case "session.compacted": {
      if (auto.compacted === false) return null;
      if (event.id && !firstTime(state, `${event.id}\0session.compacted`)) return null;
      return { session: p.sessionID, entry: compactedEntry() };
    }
    default:
      return null;
  }
}

/**
 * The opencode `record` tool: one string argument `entry`. Plain JSON-Schema args (opencode 1.18 accepts them,
 * so the plugin needs no zod). `execute` answers one short line and never throws. `deps` = { record, opts,
 * state, loadError? }, where loadError explains why the recorder is unavailable.
 */
export function recordTool(deps) {
  return {
    description: RECORD_TOOL_DESCRIPTION,
    args: { entry: { type: "string", description: ENTRY_ARG_DESCRIPTION } },
    async execute(args, ctx) {
      return runRecordTool(deps, args, ctx);
    },
  };
}

/** One call of the opencode tool: stamped `capture: "agent"` with the calling session, model and agent. */
export function runRecordTool(deps, args, ctx) {
  const sid = ctx?.sessionID;
  let options;
  try {
    options = sessionRecordOptions(deps.opts, deps.state, sid, { capture: "agent", cwd: ctx?.directory, agent: ctx?.agent });
  } catch (e) {
    return `not recorded: ${e?.message ?? e}`;
  }
  return callRecordTool(deps, args?.entry, options);
}

/** shell.env: the stamps a `record` run from the agent's shell needs to match the tool's. */
export function shellEnv(state, input, target) {
  const env = {};
  const sid = input?.sessionID;
  if (sid) env.AI_RECORDINGS_SESSION = sid;
  const info = sessionInfo(state, sid);
  if (info.model) env.AI_RECORDINGS_MODEL = info.model;
  if (info.agent) env.AI_RECORDINGS_AGENT = info.agent;
  if (target) env.AI_RECORDINGS_FILE = target;
  return env;
}
