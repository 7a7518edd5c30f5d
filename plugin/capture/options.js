// The capture options every host shares: which automatic triggers run, the gate list, the target and redaction,
// from the plugin's config tuple with the environment filling what it leaves out.

import { settingsOf } from "../settings.js";
import { byteSize, isKind, positiveInt } from "../values.js";
import { NUDGE_AFTER } from "./green.js";
import { DEFAULT_GATE_PATTERNS, compileGatePatterns } from "./gate.js";

export const AUTO_TRIGGERS = ["subagent", "gate", "tool", "error", "compacted"];

/** The plugin's options and the kind of value each takes. A key not here, or a value of another kind, is
 *  named in `warnings` and ignored (read as if absent). */
export const PLUGIN_OPTIONS = {
  file: "string",
  maxBytes: "size",
  redact: "boolean or object",
  auto: "boolean or object",
  export: "boolean",
  recall: "boolean",
  hints: "boolean",
  team: "boolean",
  nudges: "boolean",
  nudgeAfter: "positive integer",
  instructions: "boolean",
};
const AUTO_OPTIONS = { ...Object.fromEntries(AUTO_TRIGGERS.map((t) => [t, "boolean"])), gatePatterns: "list of strings", gateDefaults: "boolean" };

/** `o` with only the keys of `table` whose values are of their kind; the rest named in `warnings`. */
function checked(o, table, prefix, warnings) {
  const out = {};
  for (const [k, v] of Object.entries(o)) {
    if (!Object.hasOwn(table, k)) warnings.push(`option ${prefix}${k} is not one the plugin knows (${Object.keys(table).join(", ")}): ignored`);
    else if (v === undefined) continue;
    else if (!isKind(table[k], v)) warnings.push(`option ${prefix}${k}=${JSON.stringify(v)} is not a ${table[k]}: ignored`);
    else out[k] = v;
  }
  return out;
}

/**
 * The options from `["spec", {file, maxBytes, redact, auto: {...}, team}]`, with the environment used where an
 * option is absent (plugin/settings.js reads it): AI_RECORDINGS_REDACT off turns redaction off;
 * AI_RECORDINGS_TEAM on turns team pulls on;
 * AI_RECORDINGS_AUTO switches the automatic triggers (off, on, or a list of the ones to run);
 * AI_RECORDINGS_GATE_PATTERNS adds gate patterns. AI_RECORDINGS_FILE and _MAX_BYTES are the recorder's own.
 * `auto: false` in the config disables all triggers; `auto: {gate: false}` one of them. `nudges` (boolean;
 * AI_RECORDINGS_NUDGES) and `nudgeAfter` (AI_RECORDINGS_NUDGE_AFTER) shape the line asking for a lesson when a
 * gate turns green.
 */
export function resolveOptions(options, env = {}) {
  const warnings = [];
  const o = options && typeof options === "object" && !Array.isArray(options) ? checked(options, PLUGIN_OPTIONS, "", warnings) : {};
  if (o.auto && typeof o.auto === "object") o.auto = checked(o.auto, AUTO_OPTIONS, "auto.", warnings);
  const s = settingsOf(env);
  const out = { auto: {}, gatePatterns: [], warnings };
  if (typeof o.file === "string" && o.file) out.file = o.file;
  // Read by the plugin's wiring (opencode.js) as given: absent stays absent.
  for (const k of ["export", "recall", "hints", "instructions"]) if (o[k] !== undefined) out[k] = o[k];
  if (o.maxBytes !== undefined) out.maxBytes = byteSize(o.maxBytes);
  // `team: true` (or AI_RECORDINGS_TEAM=1): recall pulls teammates' exported rows now and then.
  out.team = o.team !== undefined ? o.team === true : s.team === true;
  if (o.redact !== undefined) out.redact = o.redact;
  else if (s.redact === false) out.redact = false;
  // Red to green: the line asking for the lesson when a gate passes after failing (plugin/capture/green.js).
  out.nudges = o.nudges ?? s.nudges !== false;
  out.nudgeAfter = positiveInt(o.nudgeAfter) ?? s.nudgeAfter ?? NUDGE_AFTER;

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
