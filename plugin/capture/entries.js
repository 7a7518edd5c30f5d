// The automatic entries, built from plain facts that each host adapter (plugin/hosts/) extracts from its own
// payloads. Every host's entry of one kind has the same fields and the same size bounds. The core stamps ts,
// eid, capture, pwd, the git facts, session, model and agent; nothing here stamps those.

import { LIMITS, asText, cutText, putBounded, stripAnsi } from "./bound.js";

/** Copies the members of `extra` that are not undefined onto `entry`, in their order. */
function addExtra(entry, extra) {
  for (const [k, v] of Object.entries(extra ?? {})) if (v !== undefined) entry[k] = v;
  return entry;
}

/**
 * `subagent.completed`: a subagent finished. facts: { description, subagent_type, prompt, child_session,
 * subagent_model, state, result, duration_ms, call }; `extra` members follow them.
 */
export function subagentEntry(facts, extra) {
  const entry = { trigger: "subagent.completed" };
  if (facts.description !== undefined) entry.description = asText(facts.description);
  if (facts.subagent_type !== undefined) entry.subagent_type = asText(facts.subagent_type);
  putBounded(entry, "prompt", asText(facts.prompt), LIMITS.subagentPrompt);
  if (facts.child_session) entry.child_session = facts.child_session;
  if (facts.subagent_model) entry.subagent_model = facts.subagent_model;
  if (facts.state) entry.state = facts.state;
  putBounded(entry, "result", asText(facts.result), LIMITS.subagentResult);
  if (typeof facts.duration_ms === "number") entry.duration_ms = Math.max(0, Math.round(facts.duration_ms));
  if (facts.call) entry.call = facts.call;
  return addExtra(entry, extra);
}

/** `gate.failed`: a gate command exited non-zero. facts: { command, exit, output, workdir, call }. The output
 *  keeps mostly its tail, terminal escapes removed. */
export function gateEntry(facts, extra) {
  const entry = { trigger: "gate.failed" };
  putBounded(entry, "command", facts.command, LIMITS.command);
  entry.exit = facts.exit;
  const c = cutText(stripAnsi(asText(facts.output)), LIMITS.gateOutput);
  entry.output_tail = c.text;
  entry.output_bytes = c.bytes;
  if (typeof facts.workdir === "string") entry.workdir = facts.workdir;
  if (facts.call) entry.call = facts.call;
  return addExtra(entry, extra);
}

/** `tool.failed`: a tool call failed without a gate's exit status. facts: { tool, error, args, permission,
 *  permission_reply, call }. */
export function toolFailedEntry(facts, extra) {
  const entry = { trigger: "tool.failed", tool: asText(facts.tool) };
  putBounded(entry, "error", asText(facts.error), LIMITS.toolError);
  if (facts.args !== undefined) putBounded(entry, "args", asText(facts.args), LIMITS.toolArgs);
  if (facts.permission !== undefined) entry.permission = asText(facts.permission);
  if (facts.permission_reply !== undefined) entry.permission_reply = asText(facts.permission_reply);
  if (facts.call) entry.call = facts.call;
  return addExtra(entry, extra);
}

/** `session.error`: the host reported an error for the session. facts: { name, message, status_code }. */
export function sessionErrorEntry(facts) {
  const entry = { trigger: "session.error", name: facts.name };
  putBounded(entry, "message", asText(facts.message), LIMITS.errorMessage);
  if (facts.status_code !== undefined && facts.status_code !== null) entry.status_code = facts.status_code;
  return entry;
}

/** `session.compacted`: earlier context was summarised away. */
export function compactedEntry() {
  return { trigger: "session.compacted", note: "earlier context of this session was summarised away" };
}

/** `gate.passed`: a gate command exited 0 after failing earlier in the session. facts: { command, resolves (the
 *  fingerprints of the failures it ends), failures (how many runs failed), first_eid, first_ts, minutes, call }. */
export function gatePassedEntry(facts, extra) {
  const entry = { trigger: "gate.passed" };
  putBounded(entry, "command", facts.command, LIMITS.command);
  entry.resolves = facts.resolves;
  entry.failures = facts.failures;
  if (facts.first_eid) entry.first_eid = facts.first_eid;
  if (facts.first_ts) entry.first_ts = facts.first_ts;
  if (typeof facts.minutes === "number") entry.minutes = facts.minutes;
  if (typeof facts.workdir === "string") entry.workdir = facts.workdir;
  if (facts.call) entry.call = facts.call;
  return addExtra(entry, extra);
}
