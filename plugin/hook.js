// `record hook claude-code` / `record hook codex`: hook mode. The host runs this command with one hook event as
// JSON on standard input; it writes the automatic entries the opencode plugin writes for the same moments
// (capture "auto", the host's session_id, cwd, and model where the host gives it):
//
//   gate.failed         a gate command (tests, build, lint, ...: the plugin's classifier) exited non-zero.
//                       Claude Code: PostToolUseFailure of Bash, the exit code parsed from `error`
//                       ("Exit code 3\n\n<output>"). Codex: PostToolUse of Bash (it fires for failures too), the
//                       exit code looked up in the session transcript: the `item_completed` line whose item id is
//                       the hook's `tool_use_id`.
//   subagent.completed  SubagentStop: the subagent's last message, and the brief it was given (description,
//                       prompt, type) from the host's own files: Claude's `agent-<id>.meta.json` and the first
//                       line of the subagent transcript; Codex's spawn_agent item in the parent transcript.
//   tool.failed         a tool other than Bash failed (Claude: PostToolUseFailure; Codex: the transcript item's
//                       status is "failed"), or a Bash call failed without running (no exit code: interrupted,
//                       timed out, refused).
//
// The entries are built by plugin/hooks.js's builders (the host payload is mapped onto the opencode payload
// shape they take), so the fields, size bounds and the gate list are the plugin's. Redaction is the core's.
//
// Contract with the host: always exit 0, quickly, and print nothing on stdout (hosts act on hook output: a
// Stop hook's `{"decision":"block"}` or exit 2 would force another turn) — except, for Claude Code's
// PostToolUseFailure, the one documented JSON object carrying a recall hint as additionalContext. A payload that is not a hook event
// (not JSON, not an object, no hook_event_name, or a known event missing its fields) is passed to record()
// byte for byte, so the core keeps it: broken JSON and non-UTF-8 go to quarantine, anything else is kept as
// given — never lost. Set AI_RECORDINGS_DEBUG=1 to see what happened on stderr.
//
// Fast path: this module does not import the MCP SDK, and loads the recorder (wasm) only when there is an
// entry to write. Events that call for no entry (a passing command, a non-gate failure) cost a node start.

import { closeQuietly, fs, importSibling, isMainModule } from "./builtins.js";
import { createState, entryFromToolAfter, entryFromEvent, isGate, resolveOptions } from "./hooks.js";

export const HOSTS = ["claude-code", "codex"];

/** How long to wait for the host to close standard input before working with what arrived. */
const STDIN_TIMEOUT_MS = 10_000;
/** Payloads bigger than this are not parsed (they go to record() raw, which splits them into quarantine pieces). */
const MAX_PARSE_BYTES = 64 * 1024 * 1024;
/** How far back in a transcript to look for an item (it is written just before the hook runs, so it sits
 *  near the end; a cap keeps a huge session from costing a full read on every hook). */
const TRANSCRIPT_SCAN_BYTES = 8 * 1024 * 1024;
const CHUNK = 64 * 1024;

// ---------------------------------------------------------------------------------------------------------
// Reading

/** Standard input read with blocking reads on fd 0, without creating process.stdin (a stream costs a few ms
 *  of a hook's start). Returns null when fd 0 cannot be read that way (non-blocking: EAGAIN), so the caller
 *  falls back to the stream. */
export function readStdinSync(fd = 0) {
  const chunks = [];
  const buf = Buffer.allocUnsafe(256 * 1024);
  try {
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      chunks.push(Buffer.from(buf.subarray(0, n)));
    }
  } catch (e) {
    if (e.code === "EOF") return Buffer.concat(chunks);
    if (chunks.length === 0) return null;
    return Buffer.concat(chunks);
  }
  return Buffer.concat(chunks);
}

/** Everything on `stream` as one Buffer; resolves early (with what arrived) after `timeoutMs`. */
export function readAll(stream, timeoutMs = STDIN_TIMEOUT_MS) {
  return new Promise((resolve) => {
    const chunks = [];
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    };
    const timer = setTimeout(() => {
      finish();
      try {
        stream.pause?.();
        stream.destroy?.();
      } catch {}
    }, timeoutMs);
    timer.unref?.();
    stream.on("data", (c) => chunks.push(typeof c === "string" ? Buffer.from(c) : c));
    stream.once("end", finish);
    stream.once("close", finish);
    stream.once("error", finish);
  });
}

/**
 * Scans a JSONL file from its end towards its start and returns the first parsed line (nearest the end) for
 * which `test(obj)` is true. `hint` is a string the raw line must contain, so most lines are never parsed.
 * Reads at most TRANSCRIPT_SCAN_BYTES; returns null when the file is missing or nothing matches.
 */
export function findFromEnd(file, hint, test, maxBytes = TRANSCRIPT_SCAN_BYTES) {
  return withFile(file, (fd) => {
    const size = fs.fstatSync(fd).size;
    let pos = size;
    let carry = Buffer.alloc(0); // the start of a line whose beginning is in an earlier chunk
    const stopAt = Math.max(0, size - maxBytes);
    while (pos > stopAt) {
      const len = Math.min(CHUNK, pos - stopAt);
      pos -= len;
      const buf = Buffer.allocUnsafe(len);
      fs.readSync(fd, buf, 0, len, pos);
      const data = carry.length ? Buffer.concat([buf, carry]) : buf;
      let end = data.length;
      // Lines fully inside `data`, from the last one back; the first (possibly partial) line is carried.
      for (let nl = data.lastIndexOf(10, end - 1); nl >= 0; nl = data.lastIndexOf(10, end - 1)) {
        const hit = lineMatch(data.subarray(nl + 1, end), hint, test);
        if (hit) return hit;
        end = nl;
        if (end === 0) break;
      }
      carry = Buffer.from(data.subarray(0, end));
    }
    if (pos === 0 && carry.length) return lineMatch(carry, hint, test);
    return null;
  });
}

/** fn(fd) on `file` opened for reading, the descriptor closed afterwards; null when `file` is not a path, cannot
 *  be opened, or fn throws. */
function withFile(file, fn) {
  if (typeof file !== "string" || !file) return null;
  let fd;
  try {
    fd = fs.openSync(file, "r");
    return fn(fd);
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeQuietly(fs, fd);
  }
}

function lineMatch(bytes, hint, test) {
  if (bytes.length === 0) return null;
  if (hint && bytes.indexOf(hint) < 0) return null;
  try {
    const obj = JSON.parse(bytes.toString("utf8"));
    return test(obj) ? obj : null;
  } catch {
    return null;
  }
}

/** The first line of a JSONL file, parsed (reads at most `maxBytes`). */
export function firstLine(file, maxBytes = 1024 * 1024) {
  return withFile(file, (fd) => {
    const buf = Buffer.allocUnsafe(maxBytes);
    let got = 0;
    while (got < maxBytes) {
      const n = fs.readSync(fd, buf, got, Math.min(CHUNK, maxBytes - got), got);
      if (n <= 0) break;
      const nl = buf.subarray(got, got + n).indexOf(10);
      got += n;
      if (nl >= 0) return JSON.parse(buf.subarray(0, got - n + nl).toString("utf8"));
    }
    return got ? JSON.parse(buf.subarray(0, got).toString("utf8")) : null;
  });
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

const str = (v) => (typeof v === "string" && v !== "" ? v : undefined);

// ---------------------------------------------------------------------------------------------------------
// Host facts

/** Claude Code's `error` for a failed Bash call: "Exit code 3\n\n<stdout+stderr>". null when it has none
 *  (interrupted, timed out, refused: the command did not finish with a status). */
export function parseClaudeBashError(error) {
  if (typeof error !== "string") return null;
  const m = /^Exit code (\d+)(?:\r?\n\r?\n?|$)/.exec(error);
  if (!m) return null;
  return { exit: Number(m[1]), output: error.slice(m[0].length) };
}

/** Codex: the `item_completed` item for a tool call, from the session transcript (null when not found). */
export function codexItem(transcriptPath, toolUseId) {
  if (!str(toolUseId)) return null;
  const hit = findFromEnd(
    transcriptPath,
    toolUseId,
    (o) => o?.payload?.type === "item_completed" && o.payload.item?.id === toolUseId,
  );
  return hit?.payload?.item ?? null;
}

/** Claude Code: the model of the session's latest assistant message in its transcript. */
export function claudeModel(transcriptPath) {
  const hit = findFromEnd(transcriptPath, '"assistant"', (o) => o?.type === "assistant" && typeof o.message?.model === "string", 2 * 1024 * 1024);
  return hit?.message?.model;
}

/** The first user message's text in a Claude subagent transcript (its brief's prompt) and when it started. */
function claudeSubagentStart(agentTranscript) {
  const first = firstLine(agentTranscript);
  if (!first || first.type !== "user") return {};
  const c = first.message?.content;
  let prompt;
  if (typeof c === "string") prompt = c;
  else if (Array.isArray(c)) prompt = c.filter((b) => b?.type === "text").map((b) => b.text).join("\n") || undefined;
  const t = Date.parse(first.timestamp);
  return { prompt, started: Number.isFinite(t) ? t : undefined };
}

/**
 * The brief of a Claude Code subagent: `agent-<id>.meta.json` beside its transcript gives agentType,
 * description, toolUseId and model; the transcript's first line gives the prompt. When the meta file is
 * missing, the parent transcript's Agent/Task tool_use with the same prompt is used.
 */
export function claudeBrief(payload) {
  const agentTranscript = str(payload.agent_transcript_path);
  const brief = {};
  if (agentTranscript) {
    const meta = readJson(agentTranscript.replace(/\.jsonl$/, ".meta.json"));
    if (meta) {
      brief.description = str(meta.description);
      brief.subagent_type = str(meta.agentType);
      brief.call = str(meta.toolUseId);
      brief.model = str(meta.model);
    }
    Object.assign(brief, claudeSubagentStart(agentTranscript));
  }
  if ((!brief.description || !brief.prompt) && (brief.call || brief.prompt)) {
    const hit = findFromEnd(payload.transcript_path, brief.call ?? '"tool_use"', (o) =>
      o?.type === "assistant" && Array.isArray(o.message?.content) && o.message.content.some((b) => isBriefCall(b, brief)),
    );
    const block = hit?.message?.content?.find((b) => isBriefCall(b, brief));
    if (block) {
      brief.description ??= str(block.input?.description);
      brief.prompt ??= str(block.input?.prompt);
      brief.subagent_type ??= str(block.input?.subagent_type);
      brief.call ??= str(block.id);
    }
  }
  return brief;
}

function isBriefCall(b, brief) {
  if (b?.type !== "tool_use") return false;
  if (brief.call) return b.id === brief.call;
  return (b.name === "Agent" || b.name === "Task") && b.input?.prompt === brief.prompt;
}

/** The brief of a Codex subagent: the parent transcript's spawn_agent item whose receivers include the
 *  agent, else the subagent transcript's first user message. */
export function codexBrief(payload) {
  const id = str(payload.agent_id);
  const brief = {};
  if (id) {
    const hit = findFromEnd(payload.transcript_path, id, (o) => {
      const it = o?.payload?.item;
      return o?.payload?.type === "item_completed" && it?.type === "CollabAgentToolCall" && it.tool === "spawn_agent" && Array.isArray(it.receiver_thread_ids) && it.receiver_thread_ids.includes(id);
    });
    const it = hit?.payload?.item;
    if (it) {
      brief.prompt = str(it.prompt);
      brief.call = str(it.id);
      brief.model = str(it.model);
      brief.nickname = str(it.receiver_agents?.find((a) => a?.thread_id === id)?.agent_nickname);
    }
  }
  if (!brief.prompt && str(payload.agent_transcript_path)) {
    const hit = findFromEnd(payload.agent_transcript_path, "UserMessage", (o) => o?.payload?.item?.type === "UserMessage");
    const text = hit?.payload?.item?.content?.filter((c) => c?.type === "text").map((c) => c.text).join("\n");
    if (text) brief.prompt = text;
  }
  return brief;
}

// ---------------------------------------------------------------------------------------------------------
// Payload → entry (pure apart from reading the host's transcripts)

/**
 * What one hook payload calls for: { kind: "entry", entry, options } (an automatic entry), { kind: "none" }
 * (an event that calls for nothing), or { kind: "raw", why } (not a hook event we can read: keep the bytes).
 * `options` here are the record() stamps: session, cwd, model, agent.
 */
export function planHook(host, payload, { env = {}, now = Date.now(), opts } = {}) {
  if (!HOSTS.includes(host)) return { kind: "raw", why: `unknown host ${JSON.stringify(host)}` };
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) return { kind: "raw", why: "not a JSON object" };
  const event = payload.hook_event_name;
  if (typeof event !== "string" || !event) return { kind: "raw", why: "no hook_event_name" };
  opts ??= resolveOptions(null, env);
  const stamps = {
    session: str(payload.session_id) ?? str(host === "claude-code" ? env.CLAUDE_CODE_SESSION_ID : undefined),
    cwd: str(payload.cwd) ?? str(host === "claude-code" ? env.CLAUDE_PROJECT_DIR : undefined),
    model: str(payload.model),
    agent: str(payload.agent_type),
  };
  const state = createState();
  const plan = (entry) => {
    if (!entry) return { kind: "none" };
    if (str(payload.agent_id) && event !== "SubagentStop") entry.agent_id = payload.agent_id;
    return { kind: "entry", entry, options: stamps };
  };

  if (event === "SubagentStop") {
    if (opts.auto.subagent === false) return { kind: "none" };
    if (typeof payload.last_assistant_message !== "string" && !str(payload.agent_id)) return { kind: "raw", why: "SubagentStop without agent_id or last_assistant_message" };
    const brief = host === "claude-code" ? claudeBrief(payload) : codexBrief(payload);
    // The plugin's builder, fed the opencode `task` shape: the brief as args, the last message as the result.
    const entry = entryFromToolAfter(
      state,
      { tool: "task", sessionID: stamps.session, callID: brief.call, args: { description: brief.description, prompt: brief.prompt ?? "", subagent_type: brief.subagent_type ?? str(payload.agent_type) } },
      { output: typeof payload.last_assistant_message === "string" ? payload.last_assistant_message : "", metadata: { sessionId: str(payload.agent_id) } },
      opts,
      now,
    );
    if (!entry) return { kind: "none" };
    if (brief.model) entry.subagent_model = brief.model;
    if (brief.nickname) entry.subagent_name = brief.nickname;
    if (typeof brief.started === "number") entry.duration_ms = Math.max(0, Math.round(now - brief.started));
    if (str(payload.agent_transcript_path)) entry.subagent_transcript = payload.agent_transcript_path;
    // The subagent's own model is subagent_model; the stamp is the session's (Codex gives it; Claude: transcript).
    stamps.agent = undefined;
    if (host === "claude-code" && !stamps.model) stamps.model = claudeModel(payload.transcript_path);
    return plan(entry);
  }

  const isPost = event === "PostToolUse" || event === "PostToolUseFailure";
  if (!isPost) return { kind: "none" }; // SessionStart, Stop, PreToolUse, ...: not a trigger
  if (typeof payload.tool_name !== "string") return { kind: "raw", why: `${event} without tool_name` };
  const tool = payload.tool_name;
  const input = payload.tool_input;
  const call = str(payload.tool_use_id);
  const command = tool === "Bash" && input && typeof input === "object" ? input.command : undefined;

  // What happened: { exit, output } for a command that ran; { error } for a tool that failed otherwise.
  let outcome = null;
  if (host === "claude-code") {
    if (event !== "PostToolUseFailure") return { kind: "none" }; // Claude sends failures only there
    const parsed = tool === "Bash" ? parseClaudeBashError(payload.error) : null;
    outcome = parsed ?? { error: payload.error ?? "failed", interrupted: payload.is_interrupt === true };
  } else {
    if (event !== "PostToolUse") return { kind: "none" };
    const gate = tool === "Bash" && isGate(command, opts.gatePatterns);
    // Only look at the transcript when it could matter: a gate, or a tool other than Bash (which may have failed).
    if (tool === "Bash" && !gate) return { kind: "none" };
    if (tool === "Bash" ? opts.auto.gate === false : opts.auto.tool === false) return { kind: "none" };
    const item = codexItem(payload.transcript_path, call);
    if (!item) return { kind: "none" }; // exit status unknown: not recorded as a failure
    const output = typeof payload.tool_response === "string" ? payload.tool_response : item.aggregated_output;
    if (tool === "Bash" && typeof item.exit_code === "number") outcome = { exit: item.exit_code, output };
    else if (item.status === "failed" || item.status === "declined" || item.error) {
      outcome = { error: item.error?.message ?? item.error ?? output ?? payload.tool_response ?? item.status };
    } else return { kind: "none" };
  }
  let entry = null;
  if (outcome.exit !== undefined) {
    if (outcome.exit === 0) return { kind: "none" };
    entry = entryFromToolAfter(
      state,
      { tool: "bash", sessionID: stamps.session, callID: call, args: { command, workdir: str(input?.workdir) } },
      { output: outcome.output ?? "", metadata: { exit: outcome.exit } },
      opts,
      now,
    );
  } else {
    // The plugin's builder, fed the opencode shape of a tool part that ended in error.
    const r = entryFromEvent(
      state,
      { type: "message.part.updated", properties: { part: { type: "tool", tool, callID: call, sessionID: stamps.session, state: { status: "error", error: outcome.error, input } } } },
      opts,
    );
    entry = r?.entry ?? null;
    if (entry && outcome.interrupted) entry.interrupted = true;
  }
  if (entry && host === "claude-code" && !stamps.model) stamps.model = claudeModel(payload.transcript_path);
  return plan(entry);
}

// ---------------------------------------------------------------------------------------------------------
// The command

/**
 * Runs hook mode for `host` ("claude-code" or "codex"): reads the payload from `stdin` (a readable stream;
 * by default fd 0 is read directly), writes what it calls for, and resolves to 0 — always (never rejects). `record` is plugin/recorder.js's record() by default
 * (a seam for tests); `argv` may carry `--file PATH`.
 */
export async function runHook(host, { stdin, env = process.env, stderr, args = [], record, now } = {}) {
  const debug = env.AI_RECORDINGS_DEBUG === "1";
  const say = (msg) => {
    if (!debug) return;
    try {
      // write(2), not the stderr stream, unless a stream was given: the `record` command exits right after
      // (cli.js runCli), and a stream's queued output would be lost on a pipe where streams write asynchronously.
      if (stderr) stderr.write(`record hook: ${msg}\n`);
      else fs.writeSync(2, `record hook: ${msg}\n`);
    } catch {}
  };
  try {
    const raw = (stdin ? null : readStdinSync()) ?? (await readAll(stdin ?? process.stdin));
    const fileFlag = flagValue(args, "--file");
    const opts = resolveOptions(null, env);
    let plan;
    let payload;
    // No payload at all (a host or a person running the command with nothing on stdin): nothing to keep.
    if (raw.length <= 4096 && /^\s*$/.test(raw.toString("latin1"))) plan = { kind: "none" };
    else if (raw.length > MAX_PARSE_BYTES) plan = { kind: "raw", why: `payload of ${raw.length} bytes not parsed` };
    else {
      try {
        payload = JSON.parse(raw.toString("utf8"));
      } catch {
        payload = undefined;
      }
      plan = payload === undefined ? { kind: "raw", why: "not JSON" } : planHook(host, payload, { env, now: now?.() ?? Date.now(), opts });
    }
    if (plan.kind === "none") {
      say("nothing to record");
      return 0;
    }
    const rec = record ?? (await import("./recorder.js")).record;
    const base = { capture: "auto", env, stamps: { client: host } };
    if (fileFlag) base.file = fileFlag;
    else if (opts.file) base.file = opts.file;
    if (opts.redact !== undefined) base.redact = opts.redact;
    if (now) base.now = now;
    let status;
    if (plan.kind === "raw") {
      say(`keeping the payload as given (${plan.why})`);
      status = rec(raw, base);
    } else {
      const o = { ...base };
      for (const [k, v] of Object.entries(plan.options)) if (v !== undefined) o[k] = v;
      status = rec(JSON.stringify(plan.entry), o);
      // Claude Code reads a PostToolUseFailure hook's additionalContext: a hint from recall, when one matches.
      if (host === "claude-code" && payload?.hook_event_name === "PostToolUseFailure") {
        const out = await (await importSibling("./recall/hook.js")).claudeHint(payload, { env, file: base.file });
        if (out) fs.writeSync(1, out);
      }
    }
    say(`${status?.status} ${status?.eid ?? ""} ${status?.file ?? ""} ${status?.reason ?? ""}`);
  } catch (e) {
    say(`internal error: ${e?.stack ?? e}`);
  }
  return 0;
}

function flagValue(args, name) {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === name) return args[i + 1];
    if (args[i].startsWith(name + "=")) return args[i].slice(name.length + 1);
  }
  return undefined;
}

/** `record hook HOST [--file PATH]` as argv (the words after `hook`). */
export function runHookArgs(args, io) {
  const [host, ...rest] = args;
  return runHook(host ?? "", { ...io, args: rest });
}

// `node plugin/hook.js HOST` is the same as `record hook HOST` (one module less to load).
if (isMainModule(import.meta.url)) {
  runHookArgs(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
