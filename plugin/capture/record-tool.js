// The `record` tool as agents see it, shared by the opencode plugin and the MCP server: its description, the
// one handler both call, and the one line it answers with. Never throws into the host.

import { skipped } from "../writer/errors.js";
import { asText } from "./bound.js";
import { sessionInfo } from "./state.js";

export const RECORD_TOOL_DESCRIPTION = [
  "Keep an observation in the shared recordings file (append-only JSONL, read later by people and agents).",
  "Use it at the moments you would explain to the user: a discovery, your own mistake, a subagent that ignored",
  "its brief, a review finding that was wrong, a fix that made things worse, a tool whose output lied, or when",
  "you feel surprise, guilt, irritation or relief. Any shape is fine: a JSON object, loose `key: value | ...`",
  "text, or plain sentences (add `sentiment: ...` at the end if you like). Detail is cheap; include what a",
  "later reader needs. Time, session, model, agent and git facts are stamped for you. Entries are never edited.",
].join("\n");

export const ENTRY_ARG_DESCRIPTION = "The observation: a JSON object, loose key: value text, or plain text.";

/** The one line the `record` tool answers with. */
export function resultLine(status) {
  if (!status || typeof status !== "object") return "not recorded: no status from the recorder";
  const file = status.file ?? "?";
  if (status.status === "recorded") return `recorded ${status.eid} → ${file}`;
  if (status.status === "quarantined") return `quarantined ${status.eid} → ${file} (${status.reason ?? "kept verbatim"})`;
  return `not recorded: ${status.reason ?? status.status ?? "unknown reason"}`;
}

/**
 * One call of the `record` tool: `entry` is what the model sent (a model may send an object instead of a
 * string: it is kept as JSON), `options` the record() options for this caller. `recorder` is { record,
 * loadError }, where loadError says why the recorder could not be loaded. Returns the answer line.
 */
export function callRecordTool(recorder, entry, options) {
  try {
    if (recorder.loadError || typeof recorder.record !== "function") {
      return `not recorded: recorder unavailable (${recorder.loadError ?? "not loaded"})`;
    }
    const input = entry === undefined || entry === null ? "" : typeof entry === "string" ? entry : asText(entry);
    return resultLine(recorder.record(input, options));
  } catch (e) {
    return `not recorded: ${e?.message ?? e}`;
  }
}

/** The record() options for one entry of a session: the plugin options that concern the recorder, then
 *  `extra` (its undefined members change nothing); empty values are left out. A subagent's session carries the root session it works for. */
export function sessionRecordOptions(opts, state, sessionID, extra) {
  const info = sessionInfo(state, sessionID);
  const o = { model: info.model, agent: info.agent, session: sessionID };
  for (const [k, v] of Object.entries(extra ?? {})) if (v !== undefined) o[k] = v;
  if (opts?.file !== undefined) o.file = opts.file;
  if (opts?.maxBytes !== undefined) o.maxBytes = opts.maxBytes;
  if (opts?.redact !== undefined) o.redact = opts.redact;
  for (const k of Object.keys(o)) if (o[k] === undefined || o[k] === null || o[k] === "") delete o[k];
  if (info.parent) o.stamps = { parent_session: info.parent };
  return o;
}

/**
 * Writes one automatic entry for `sessionID`, synchronously (event handlers are not awaited, and a killed host
 * runs no cleanup). Returns the recorder's status, or a skipped status if anything threw.
 */
export function emit(recordFn, opts, state, sessionID, entry, cwd) {
  try {
    return recordFn(JSON.stringify(entry), sessionRecordOptions(opts, state, sessionID, { capture: "auto", cwd }));
  } catch (e) {
    return skipped("EINTERNAL", opts?.file, `EINTERNAL: recorder threw: ${e?.message ?? e}`);
  }
}
