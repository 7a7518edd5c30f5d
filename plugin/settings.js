// The one reader of the AI_RECORDINGS_* environment variables, and the snapshot of the environment the
// recording path reads. Every surface (CLI, plugin, hook mode, MCP, doctor) takes its settings from here, so a
// variable means the same thing everywhere.

let snapshot = null;

/** The environment to read: `options.env` when given, else a frozen copy of `process.env` taken once per
 *  process (each `process.env` read calls into the runtime, and one entry needs a dozen). A process that
 *  changes its own environment afterwards calls `refreshEnv()`. */
export function envOf(options) {
  return options?.env ?? (snapshot ??= Object.freeze({ ...process.env }));
}

/** Forgets the snapshot of `process.env`, so the next call reads it again. */
export function refreshEnv() {
  snapshot = null;
}

import { byteSize, durationMs, flag, list, positiveInt } from "./values.js";

const parsed = new WeakMap(); // frozen env → its settings
let lastEnv = null; // the frozen env settingsOf answered last, and its settings
let lastSettings = null;

/**
 * Every AI_RECORDINGS_* setting of `env`, parsed. Unset or unusable values are undefined (lists: empty), and
 * each unusable value is named in `problems`, so `record doctor` can say why a setting was ignored.
 *   file, session, model, agent   strings as given
 *   maxBytes                      rotation threshold (a size: bytes, or 16M, 512KiB)
 *   sync                          fdatasync after each append (a boolean)
 *   redact                        false turns redaction off; redactPatterns, allow, allowPatterns are lists
 *   auto                          false (all automatic triggers off), true (all on), or the list of names on
 *   gatePatterns                  extra gate commands (regular expressions), a list
 *   debug                         hook mode says on stderr what it did
 *   exportUrl                     the PostgreSQL URL `record export` copies into (AI_RECORDINGS_EXPORT_URL)
 *   exportAfterSession            start `record export` when a session ends (plugin, hook mode)
 *   machine                       this machine's name in the exported database (AI_RECORDINGS_MACHINE)
 *   recall                        false turns recall off (the tool, hints; `record recall` says it is off)
 *   hints                         false turns the hints added to failures off
 *   indexDir                      where recall indexes live (default under XDG_DATA_HOME)
 *   nudges                        false: no line asking for the lesson when a gate turns green
 *   nudgeAfter                    ask only after this many failures of the command (positive integer)
 *   team                          pull teammates' exported rows into the recall index before recalls
 *   hookHelper                    false: hook mode does all its work in each hook process (no warm helper)
 *   hookHelperIdleMs              how long the warm helper waits for the next hook event before it exits
 */
export function settingsOf(env) {
  // The writer asks once per append, nearly always of the one process snapshot: that answer is kept at hand.
  if (env === lastEnv) return lastSettings;
  const frozen = Object.isFrozen(env);
  if (frozen) {
    const hit = parsed.get(env);
    if (hit !== undefined) {
      lastEnv = env;
      lastSettings = hit;
      return hit;
    }
  }
  const problems = [];
  const str = (name) => {
    const v = env[name];
    return typeof v === "string" && v !== "" ? v : undefined;
  };
  const bool = (name) => {
    const v = str(name);
    const b = flag(v);
    if (v !== undefined && b === undefined) problems.push(`${name}=${JSON.stringify(v)} is neither on (1, true, yes, on) nor off (0, false, no, off, none): ignored`);
    return b;
  };
  const maxRaw = str("AI_RECORDINGS_MAX_BYTES");
  const maxBytes = byteSize(maxRaw);
  if (maxRaw !== undefined && maxBytes === undefined) problems.push(`AI_RECORDINGS_MAX_BYTES=${JSON.stringify(maxRaw)} is not a size in bytes (16777216, 16M, 512KiB): ignored`);
  const nudgeRaw = str("AI_RECORDINGS_NUDGE_AFTER");
  const nudgeAfter = positiveInt(nudgeRaw);
  if (nudgeRaw !== undefined && nudgeAfter === undefined) problems.push(`AI_RECORDINGS_NUDGE_AFTER=${JSON.stringify(nudgeRaw)} is not a positive number of failures: ignored`);
  const idleRaw = str("AI_RECORDINGS_HOOK_HELPER_IDLE");
  const hookHelperIdleMs = durationMs(idleRaw) || undefined;
  if (idleRaw !== undefined && hookHelperIdleMs === undefined) problems.push(`AI_RECORDINGS_HOOK_HELPER_IDLE=${JSON.stringify(idleRaw)} is not a duration above zero (90s, 15m, 1h): ignored`);
  const out = {
    file: str("AI_RECORDINGS_FILE"),
    session: str("AI_RECORDINGS_SESSION"),
    model: str("AI_RECORDINGS_MODEL"),
    agent: str("AI_RECORDINGS_AGENT"),
    maxBytes,
    sync: bool("AI_RECORDINGS_SYNC"),
    redact: bool("AI_RECORDINGS_REDACT"),
    redactPatterns: list(env.AI_RECORDINGS_REDACT_PATTERNS),
    allow: list(env.AI_RECORDINGS_REDACT_ALLOW),
    allowPatterns: list(env.AI_RECORDINGS_REDACT_ALLOW_PATTERNS),
    auto: autoOf(str("AI_RECORDINGS_AUTO")),
    gatePatterns: list(env.AI_RECORDINGS_GATE_PATTERNS),
    debug: flag(env.AI_RECORDINGS_DEBUG) === true,
    exportUrl: str("AI_RECORDINGS_EXPORT_URL"),
    exportAfterSession: bool("AI_RECORDINGS_EXPORT_AFTER_SESSION"),
    machine: str("AI_RECORDINGS_MACHINE"),
    recall: bool("AI_RECORDINGS_RECALL"),
    hints: bool("AI_RECORDINGS_HINTS"),
    indexDir: str("AI_RECORDINGS_INDEX_DIR"),
    nudges: bool("AI_RECORDINGS_NUDGES"),
    nudgeAfter,
    team: bool("AI_RECORDINGS_TEAM"),
    hookHelper: bool("AI_RECORDINGS_HOOK_HELPER"),
    hookHelperIdleMs,
    problems,
  };
  if (frozen) parsed.set(env, Object.freeze(out));
  return out;
}

/** AI_RECORDINGS_AUTO: "off" (or any false word), "on"/"all" (or any true word), or a comma or space separated
 *  list of the triggers to run. */
function autoOf(v) {
  if (v === undefined) return undefined;
  const b = flag(v);
  if (b !== undefined) return b;
  if (/^\s*all\s*$/i.test(v)) return true;
  return v.split(/[\s,]+/).filter(Boolean);
}

/**
 * The directories files are kept in, as `env` names them — the one rule for every path under HOME or an XDG
 * directory: home ($HOME, else the account's), configHome ($XDG_CONFIG_HOME, else ~/.config), cacheHome
 * ($XDG_CACHE_HOME, else ~/.cache), stateHome ($XDG_STATE_HOME, else ~/.local/state: the status record,
 * hook mode's memory), dataHome ($XDG_DATA_HOME, else ~/.local/share: the recall index), claudeConfigDir ($CLAUDE_CONFIG_DIR, else ~/.claude),
 * claudeUserFile (Claude Code's own ~/.claude.json, inside $CLAUDE_CONFIG_DIR when that is set),
 * codexHome ($CODEX_HOME, else ~/.codex) and runtimeDir ($XDG_RUNTIME_DIR, else undefined: it has no default).
 * Relative values are ignored, as the XDG spec says.
 */
export function placesOf(env, homedir) {
  const abs = (v) => (typeof v === "string" && v.startsWith("/") ? v : undefined);
  const home = abs(env.HOME) ?? homedir();
  const claude = abs(env.CLAUDE_CONFIG_DIR);
  return {
    home,
    configHome: abs(env.XDG_CONFIG_HOME) ?? `${home}/.config`,
    cacheHome: abs(env.XDG_CACHE_HOME) ?? `${home}/.cache`,
    stateHome: abs(env.XDG_STATE_HOME) ?? `${home}/.local/state`,
    dataHome: abs(env.XDG_DATA_HOME) ?? `${home}/.local/share`,
    claudeConfigDir: claude ?? `${home}/.claude`,
    claudeUserFile: claude ? `${claude}/.claude.json` : `${home}/.claude.json`,
    codexHome: abs(env.CODEX_HOME) ?? `${home}/.codex`,
    runtimeDir: abs(env.XDG_RUNTIME_DIR),
  };
}
