// What the opencode plugin does, as plain functions that opencode.js wires to host hooks.
//
// Everything here is testable without opencode: each function takes the payload opencode passes (shapes
// observed from opencode 1.18.33, saved in tests/fixtures/opencode/) and returns an entry object, a value, or
// null. The only I/O is the `record` function handed in by the caller (plugin/recorder.js in production), and
// `emit` never lets it throw into the host.
//
// Automatic entries are objects built here and passed to record() as JSON with capture "auto". The core
// stamps ts, eid, capture, pwd, the git facts, session, model and agent; nothing here stamps those.

import { settingsOf } from "./settings.js";

/** Text fields are cut to a head and a tail (in UTF-16 units, never splitting a surrogate pair) so one
 *  runaway command cannot make a multi-megabyte entry. The full size is kept next to them as `<field>_bytes`.
 *  The gate keeps mostly the tail: test runners and compilers print their verdict last. */
export const LIMITS = {
  gateOutput: { head: 1024, tail: 6144 },
  command: { head: 2048, tail: 1024 },
  subagentResult: { head: 6144, tail: 2048 },
  subagentPrompt: { head: 4096, tail: 1024 },
  toolError: { head: 2048, tail: 1024 },
  toolArgs: { head: 1024, tail: 512 },
  errorMessage: { head: 2048, tail: 1024 },
};

/** How many sessions and dedupe keys are remembered (a long-lived `opencode serve` sees many). */
const MAX_SESSIONS = 512;
const MAX_KEYS = 4096;

// ---------------------------------------------------------------------------------------------------------
// Options

export const AUTO_TRIGGERS = ["subagent", "gate", "tool", "error", "compacted"];

/**
 * The plugin's options, from the config tuple `["spec", {file, maxBytes, redact, auto: {...}}]`, with env vars
 * used where an option is absent:
 *   AI_RECORDINGS_FILE, AI_RECORDINGS_MAX_BYTES  read by the recorder itself when file/maxBytes are absent;
 *   AI_RECORDINGS_REDACT=0                        turns redaction off;
 *   AI_RECORDINGS_AUTO                            "off" (or 0/false/none) disables every automatic trigger,
 *                                                 "on" enables all, or a comma list of the ones to enable
 *                                                 (subagent, gate, tool, error, compacted);
 *   AI_RECORDINGS_GATE_PATTERNS                   extra gate patterns, one regular expression per line.
 * `auto: false` in the config disables all triggers; `auto: {gate: false}` one of them.
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

// ---------------------------------------------------------------------------------------------------------
// Cutting long text

/** The UTF-8 size of a string, without allocating a buffer for it. */
export function utf8Bytes(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

const isHigh = (c) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c) => c >= 0xdc00 && c <= 0xdfff;

/**
 * Keeps the first `head` and last `tail` UTF-16 units of `text`, with a marker saying how much was left out
 * between them. Never splits a surrogate pair (a lone half would send the whole entry to quarantine).
 * Returns { text, bytes, cut } where `bytes` is the UTF-8 size of the whole input.
 */
export function cutText(value, { head = 2048, tail = 2048 } = {}) {
  const text = typeof value === "string" ? value : value === undefined || value === null ? "" : String(value);
  const bytes = utf8Bytes(text);
  if (text.length <= head + tail + 64) return { text, bytes, cut: false };
  let h = head;
  if (h > 0 && isHigh(text.charCodeAt(h - 1))) h--;
  let t = text.length - tail;
  if (t < text.length && isLow(text.charCodeAt(t))) t++;
  const left = text.slice(0, h);
  const right = text.slice(t);
  const omitted = bytes - utf8Bytes(left) - utf8Bytes(right);
  return { text: `${left}\n[… ${omitted} bytes cut …]\n${right}`, bytes, cut: true };
}

/** Terminal colour and cursor escapes, which make output tails unreadable once JSON-escaped. */
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;
export function stripAnsi(s) {
  return typeof s === "string" ? s.replace(ANSI, "") : s;
}

/** A value as short text: strings as they are, anything else as JSON (never throws on cycles or BigInt). */
export function asText(v) {
  if (typeof v === "string") return v;
  if (v === undefined) return "";
  try {
    const seen = new WeakSet();
    return JSON.stringify(v, (k, x) => {
      if (typeof x === "bigint") return x.toString();
      if (x && typeof x === "object") {
        if (seen.has(x)) return "[circular]";
        seen.add(x);
      }
      return x;
    }) ?? String(v);
  } catch {
    return String(v);
  }
}

// ---------------------------------------------------------------------------------------------------------
// The gate classifier

/**
 * Commands that are gates: tests, builds, lints, type checks, format checks. Each is a regular expression
 * matched at the start of one normalised segment of a command line (see `gateSegments`), so `npm test`,
 * `cd web && npm run lint` and `cargo test 2>&1 | tail` are all gates while `npm install` or `grep` are not.
 */
export const DEFAULT_GATE_PATTERNS = [
  String.raw`cargo\s+(\+\S+\s+)?(test|t|build|b|check|c|clippy|nextest|bench|doc|miri)\b`,
  String.raw`cargo\s+(\+\S+\s+)?fmt\b.*--check`,
  String.raw`(npm|pnpm|yarn|bun)(\s+--?\S+)*\s+(test|t|build|lint|typecheck|check)\b`,
  String.raw`(npm|pnpm|yarn|bun)(\s+--?\S+)*\s+run(-script)?\s+(test|build|lint|typecheck|type-check|tsc|check|e2e|ci|verify|(format|fmt)[:-]check)\b`,
  String.raw`(jest|vitest|mocha|ava|tap|c8|nyc|karma|jasmine)\b`,
  String.raw`(playwright|cypress)\s+(test|run)\b`,
  String.raw`(tsc|vue-tsc|svelte-check|eslint|oxlint|stylelint|standard|xo|tslint)\b`,
  String.raw`biome\s+(check|lint|ci|format\b.*--check)\b`,
  String.raw`prettier\b.*(--check|--list-different|\s-c\b|\s-l\b)`,
  String.raw`(pytest|py\.test|tox|nox|mypy|pyright|basedpyright|flake8|pylint|pyflakes|bandit|unittest)\b`,
  String.raw`ruff(?!\s+format)\b`,
  String.raw`ruff\s+format\b.*--check`,
  String.raw`(black|isort)\b.*--check`,
  String.raw`go\s+(test|build|vet)\b`,
  String.raw`(golangci-lint|staticcheck|gofmt\s+-l)\b`,
  String.raw`g?make(\s+-\S+)*(\s+\S+=\S*)*(\s+(test|tests|check|build|lint|all|ci|verify)\b.*)?$`,
  String.raw`(gradle|gradlew)\b.*\b(test|check|build|assemble)\b`,
  String.raw`mvnw?\b.*\b(test|verify|package|install|compile)\b`,
  String.raw`(dotnet|swift)\s+(test|build)\b`,
  String.raw`zig\s+build\b`,
  String.raw`(ctest|rspec|phpunit|pest|shellcheck)\b`,
  String.raw`(meson|ninja)\s+(test|-C\s+\S+\s+test)\b`,
  String.raw`rake\s+(test|spec)\b`,
  String.raw`mix\s+(test|compile|credo|format\s+--check-formatted)\b`,
  String.raw`(stack|cabal)\s+(test|build)\b`,
  String.raw`dune\s+(test|build|runtest)\b`,
  String.raw`deno\s+(test|lint|check|fmt\b.*--check)\b`,
  String.raw`composer\s+(test|lint|check)\b`,
];

/** Compiles pattern strings (or RegExps) anchored at the segment start; bad ones become warnings. */
export function compileGatePatterns(list, warnings = []) {
  const out = [];
  for (const p of list) {
    if (p instanceof RegExp) {
      out.push(p);
      continue;
    }
    if (typeof p !== "string" || !p.trim()) continue;
    try {
      out.push(new RegExp(`^(?:${p.trim()})`));
    } catch (e) {
      warnings.push(`gate pattern ignored: ${p} (${e.message})`);
    }
  }
  return out;
}

// Wrappers stripped from the start of a segment before matching: env assignments, `sudo`, `time`, runners
// that just exec their argument (npx, bunx, pnpm exec/dlx, yarn dlx, uv run, poetry run, python -m, ...).
const WRAPPERS = [
  /^[A-Za-z_][A-Za-z0-9_]*=("[^"]*"|'[^']*'|\S*)\s+/,
  /^(sudo|time|nice|nohup|command|exec|builtin)\s+/,
  /^env(\s+-\S+)*\s+/,
  /^timeout(\s+-\S+)*\s+\S+\s+/,
  /^(npx|bunx|pnpx)(\s+-\S+)*\s+/,
  /^(pnpm|yarn|npm)\s+(exec|dlx|x)(\s+-\S+)*\s+/,
  /^(uv|poetry|pipenv|pdm|hatch|rye)\s+run(\s+-\S+)*\s+/,
  /^bundle\s+exec\s+/,
  /^python[0-9.]*\s+-m\s+/,
  /^\(\s*/,
];

/** Splits a command line into segments at `&&`, `||`, `;`, `|` and newlines, and normalises each: leading
 *  wrappers removed, a path on the program name reduced to its base name (`./gradlew`, `.venv/bin/pytest`).
 *  Quotes are not parsed: a separator inside quotes only makes an extra segment, which is harmless here. */
export function gateSegments(command) {
  if (typeof command !== "string") return [];
  const out = [];
  for (let seg of command.split(/&&|\|\||[;|\n]/)) {
    seg = seg.trim();
    for (let i = 0; i < 16; i++) {
      const before = seg;
      for (const w of WRAPPERS) seg = seg.replace(w, "");
      if (seg === before) break;
    }
    seg = seg.replace(/^(\S*\/)([^\s/]+)/, "$2");
    if (seg) out.push(seg);
  }
  return out;
}

/** Whether any segment of `command` is a gate. `patterns` are compiled RegExps (resolveOptions does that). */
export function isGate(command, patterns) {
  const list = patterns ?? DEFAULT_PATTERNS_COMPILED;
  for (const seg of gateSegments(command)) {
    for (const re of list) if (re.test(seg)) return true;
  }
  return false;
}
const DEFAULT_PATTERNS_COMPILED = compileGatePatterns(DEFAULT_GATE_PATTERNS);

// ---------------------------------------------------------------------------------------------------------
// Per-session state: model cache, parents, dedupe keys, tool start times

function boundedSet(map, key, value, max) {
  if (map.has(key)) map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value);
}

export function createState() {
  return {
    sessions: new Map(), // sessionID → { model, agent, parent }
    seen: new Map(), // dedupe key → true
    started: new Map(), // session\0callID → ms when tool.execute.before fired
    asked: new Map(), // permission request id → { key: session\0callID, permission }
    replies: new Map(), // session\0callID → { permission, reply }
  };
}

function session(state, id) {
  if (typeof id !== "string" || !id) return null;
  let s = state.sessions.get(id);
  if (!s) {
    s = {};
    boundedSet(state.sessions, id, s, MAX_SESSIONS);
  }
  return s;
}

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
  const s = session(state, input.sessionID);
  if (!s) return;
  const m = modelString(input.model?.providerID, input.model?.id);
  if (m) s.model = m;
  if (typeof input.agent === "string" && input.agent) s.agent = input.agent;
}

/** chat.message: `output.message.model.{providerID,modelID}` and `output.message.agent`. */
export function learnChatMessage(state, input, output) {
  const msg = output?.message;
  const s = session(state, input?.sessionID ?? msg?.sessionID);
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
    const s = session(state, info.id ?? p.sessionID);
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

/** What is known about a session: { model, agent, parent } (all possibly undefined). */
export function sessionInfo(state, id) {
  return state.sessions.get(id) ?? {};
}

/** True the first time a key is seen (bounded memory). */
export function firstTime(state, key) {
  if (state.seen.has(key)) return false;
  boundedSet(state.seen, key, true, MAX_KEYS);
  return true;
}

/** tool.execute.before: remembers when a task started, for the subagent's duration. */
export function noteToolStart(state, input, now) {
  if (input?.tool !== "task" || !input.callID) return;
  boundedSet(state.started, `${input.sessionID}\0${input.callID}`, now, MAX_KEYS);
}

// ---------------------------------------------------------------------------------------------------------
// Entries

function put(entry, field, value, limits) {
  const c = cutText(value, limits);
  entry[field] = c.text;
  if (c.cut) entry[`${field}_bytes`] = c.bytes;
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
    const entry = { trigger: "subagent.completed" };
    if (args.description !== undefined) entry.description = asText(args.description);
    if (args.subagent_type !== undefined) entry.subagent_type = asText(args.subagent_type);
    put(entry, "prompt", asText(args.prompt), LIMITS.subagentPrompt);
    const child = meta.sessionId ?? parsed.id;
    if (child) entry.child_session = child;
    const m = modelString(meta.model?.providerID, meta.model?.modelID);
    if (m) entry.subagent_model = m;
    if (parsed.state) entry.state = parsed.state;
    put(entry, "result", parsed.result, LIMITS.subagentResult);
    const key = `${input.sessionID}\0${input.callID}`;
    const t0 = state.started.get(key);
    if (typeof t0 === "number") {
      entry.duration_ms = Math.max(0, Math.round(now - t0));
      state.started.delete(key);
    }
    if (input.callID) entry.call = input.callID;
    return entry;
  }
  if (input.tool === "bash" && auto.gate !== false) {
    const exit = output.metadata?.exit;
    if (typeof exit !== "number" || exit === 0) return null;
    const command = input.args?.command;
    if (!isGate(command, opts?.gatePatterns)) return null;
    if (!firstTime(state, `${input.sessionID}\0${input.callID}\0gate.failed`)) return null;
    const entry = { trigger: "gate.failed" };
    put(entry, "command", command, LIMITS.command);
    entry.exit = exit;
    const out = stripAnsi(typeof output.output === "string" ? output.output : asText(output.metadata?.output));
    const c = cutText(out, LIMITS.gateOutput);
    entry.output_tail = c.text;
    entry.output_bytes = c.bytes;
    if (typeof input.args?.workdir === "string") entry.workdir = input.args.workdir;
    if (input.callID) entry.call = input.callID;
    return entry;
  }
  return null;
}

/**
 * An event → { session, entry } for the automatic entry it calls for, or null:
 *  - message.part.updated with a tool part in state "error" → `tool.failed` (opencode sends no
 *    tool.execute.after for a tool that threw or whose permission was rejected; a rejection adds
 *    `permission` and `permission_reply`, learned from the permission.asked / permission.replied events);
 *  - session.error → `session.error` (name, message, status code);
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
      const entry = { trigger: "tool.failed", tool: asText(part.tool) };
      put(entry, "error", asText(part.state.error), LIMITS.toolError);
      if (part.state.input !== undefined) put(entry, "args", asText(part.state.input), LIMITS.toolArgs);
      const perm = state.replies.get(`${sid}\0${part.callID}`);
      if (perm) {
        if (perm.permission !== undefined) entry.permission = asText(perm.permission);
        if (perm.reply !== undefined) entry.permission_reply = asText(perm.reply);
        state.replies.delete(`${sid}\0${part.callID}`);
      }
      if (part.callID) entry.call = part.callID;
      return { session: sid, entry };
    }
    case "session.error": {
      if (auto.error === false) return null;
      const err = p.error ?? {};
      const name = typeof err.name === "string" ? err.name : "UnknownError";
      const message = asText(err.data?.message ?? err.message ?? "");
      const s = session(state, p.sessionID);
      const key = `${name}\0${message}`;
      if (s) {
        s.errors ??= new Set();
        if (s.errors.has(key)) return null;
        s.errors.add(key);
      }
      const entry = { trigger: "session.error", name };
      put(entry, "message", message, LIMITS.errorMessage);
      const code = err.data?.statusCode;
      if (code !== undefined && code !== null) entry.status_code = code;
      return { session: p.sessionID, entry };
    }
    case "session.compacted": {
      if (auto.compacted === false) return null;
      if (event.id && !firstTime(state, `${event.id}\0session.compacted`)) return null;
      return { session: p.sessionID, entry: { trigger: "session.compacted", note: "earlier context of this session was summarised away" } };
    }
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Recording (the one place that calls record(); it never throws)

/** The one line the `record` tool answers with. */
export function resultLine(status) {
  if (!status || typeof status !== "object") return "not recorded: no status from the recorder";
  const file = status.file ?? "?";
  if (status.status === "recorded") return `recorded ${status.eid} → ${file}`;
  if (status.status === "quarantined") return `quarantined ${status.eid} → ${file} (${status.reason ?? "kept verbatim"})`;
  return `not recorded: ${status.reason ?? status.status ?? "unknown reason"}`;
}

function recordOptions(opts, extra) {
  const o = { ...extra };
  if (opts?.file !== undefined) o.file = opts.file;
  if (opts?.maxBytes !== undefined) o.maxBytes = opts.maxBytes;
  if (opts?.redact !== undefined) o.redact = opts.redact;
  for (const k of Object.keys(o)) if (o[k] === undefined || o[k] === null || o[k] === "") delete o[k];
  return o;
}

/**
 * Writes one automatic entry for `sessionID` (synchronously: event handlers are not awaited and a killed
 * opencode runs no dispose). Returns the recorder's status, or a skipped status if anything threw.
 */
export function emit(recordFn, opts, state, sessionID, entry, cwd) {
  try {
    const info = sessionInfo(state, sessionID);
    const o = recordOptions(opts, { capture: "auto", cwd, session: sessionID, model: info.model, agent: info.agent });
    if (info.parent) o.stamps = { parent_session: info.parent };
    return recordFn(JSON.stringify(entry), o);
  } catch (e) {
    return { status: "skipped", file: opts?.file ?? null, eid: null, reason: `recorder threw: ${e?.message ?? e}` };
  }
}

export const RECORD_TOOL_DESCRIPTION = [
  "Keep an observation in the shared recordings file (append-only JSONL, read later by people and agents).",
  "Use it at the moments you would explain to the user: a discovery, your own mistake, a subagent that ignored",
  "its brief, a review finding that was wrong, a fix that made things worse, a tool whose output lied, or when",
  "you feel surprise, guilt, irritation or relief. Any shape is fine: a JSON object, loose `key: value | ...`",
  "text, or plain sentences (add `sentiment: ...` at the end if you like). Detail is cheap; include what a",
  "later reader needs. Time, session, model, agent and git facts are stamped for you. Entries are never edited.",
].join("\n");

/**
 * The `record` tool: one string argument `entry`. Plain JSON-Schema args (opencode 1.18 accepts them and the
 * plugin needs no zod). `execute` returns one short line and never throws.
 * `deps` = { record, opts, state, loadError? } where loadError explains why the recorder is unavailable.
 */
export function recordTool(deps) {
  return {
    description: RECORD_TOOL_DESCRIPTION,
    args: {
      entry: {
        type: "string",
        description: "The observation: a JSON object, loose key: value text, or plain text.",
      },
    },
    async execute(args, ctx) {
      return runRecordTool(deps, args, ctx);
    },
  };
}

export function runRecordTool(deps, args, ctx) {
  try {
    if (deps.loadError || typeof deps.record !== "function") return `not recorded: recorder unavailable (${deps.loadError ?? "not loaded"})`;
    let input = args?.entry;
    if (input === undefined || input === null) input = "";
    else if (typeof input !== "string") input = asText(input); // a model that sent an object instead of a string
    const sid = ctx?.sessionID;
    const info = sessionInfo(deps.state, sid);
    const o = recordOptions(deps.opts, { capture: "agent", cwd: ctx?.directory, session: sid, model: info.model, agent: ctx?.agent ?? info.agent });
    // In a subagent's session, the root session it works for (session.created told us its parentID).
    if (info.parent) o.stamps = { parent_session: info.parent };
    const status = deps.record(input, o);
    return resultLine(status);
  } catch (e) {
    return `not recorded: ${e?.message ?? e}`;
  }
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
