// The capture options every host shares: which automatic triggers run, the gate list, the target and redaction,
// from the plugin's config tuple with the environment filling what it leaves out.

import { positiveInt, settingsOf } from "../settings.js";
import { NUDGE_AFTER } from "./green.js";
import { DEFAULT_GATE_PATTERNS, compileGatePatterns } from "./gate.js";

export const AUTO_TRIGGERS = ["subagent", "gate", "tool", "error", "compacted"];

/**
 * The options from `["spec", {file, maxBytes, redact, auto: {...}}]`, with the environment used where an
 * option is absent (plugin/settings.js reads it): AI_RECORDINGS_REDACT off turns redaction off;
 * AI_RECORDINGS_AUTO switches the automatic triggers (off, on, or a list of the ones to run);
 * AI_RECORDINGS_GATE_PATTERNS adds gate patterns. AI_RECORDINGS_FILE and _MAX_BYTES are the recorder's own.
 * `auto: false` in the config disables all triggers; `auto: {gate: false}` one of them. `nudges` (boolean;
 * AI_RECORDINGS_NUDGES) and `nudgeAfter` (AI_RECORDINGS_NUDGE_AFTER) shape the line asking for a lesson when a
 * gate turns green.
 */
export function resolveOptions(options, env = {}) {
  const o = options && typeof options === "object" ? options : {};
  const s = settingsOf(env);
  const warnings = [];
  const out = { auto: {}, gatePatterns: [], warnings };
  if (typeof o.file === "string" && o.file) out.file = o.file;
  if (Number.isFinite(Number(o.maxBytes)) && o.maxBytes !== null && o.maxBytes !== "") out.maxBytes = Number(o.maxBytes);
  if (o.redact !== undefined) out.redact = o.redact;
  else if (s.redact === false) out.redact = false;
  // Red to green: the line asking for the lesson when a gate passes after failing (plugin/capture/green.js).
  out.nudges = typeof o.nudges === "boolean" ? o.nudges : s.nudges !== false;
  if (o.nudges !== undefined && typeof o.nudges !== "boolean") warnings.push(`option nudges=${JSON.stringify(o.nudges)} is not true or false: ignored`);
  const after = positiveInt(o.nudgeAfter);
  if (o.nudgeAfter !== undefined && after === undefined) warnings.push(`option nudgeAfter=${JSON.stringify(o.nudgeAfter)} is not a positive integer: ignored`);
  out.nudgeAfter = after ?? s.nudgeAfter ?? NUDGE_AFTER;

  let auto = o.auto;
  if (auto === undefined && s.auto !== undefined) {
    const on = new Set(Array.isArray(s.auto) ? s.auto : []);
    auto = typeof s.auto === "boolean" ? s.auto : Object.fromEntries(AUTO_TRIGGERS.map((t) => [t, on.has(t)]));
  }
  for (const t of AUTO_TRIGGERS) {
    if (auto === false) out.auto[t] = false;
    else if (auto && typeof auto === "object" && auto[t] !== undefined) out.auto[t] = auto[t] !== false;
    else out.auto[t] = true;
  }

  const extra = [];
  if (auto && typeof auto === "object" && Array.isArray(auto.gatePatterns)) extra.push(...auto.gatePatterns);
  else extra.push(...s.gatePatterns);
  const useDefaults = !(auto && typeof auto === "object" && auto.gateDefaults === false);
  out.gatePatterns = compileGatePatterns(useDefaults ? [...DEFAULT_GATE_PATTERNS, ...extra] : extra, warnings);
  return out;
}
