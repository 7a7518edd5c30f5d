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
//   gate.passed         a gate command exited 0 while an earlier failure of the same command in the session is
//                       still open (kept in a file per session: plugin/capture/memory.js). Claude Code:
//                       PostToolUse of Bash. Codex: PostToolUse of Bash, exit 0 in the transcript. Both with a
//                       line asking what fixed it as additionalContext after enough failures.
//   tool.failed         a tool other than Bash failed (Claude: PostToolUseFailure; Codex: the transcript item's
//                       status is "failed"), or a Bash call failed without running (no exit code: interrupted,
//                       timed out, refused).
//
// The entries are the plugin's (plugin/capture/entries.js, built from the facts plugin/hosts/ reads out of each
// host's payload), with the same fields, size bounds and gate list. Redaction is the core's.
//
// Contract with the host: always exit 0, quickly, and print nothing on stdout (hosts act on hook output: a
// Stop hook's `{"decision":"block"}` or exit 2 would force another turn; Codex puts a PostToolUse's "block"
// reason in place of the command's output) — except, for a failure (Claude Code's PostToolUseFailure, Codex's
// PostToolUse of a command that exited non-zero), the one documented JSON object carrying a recall hint as
// additionalContext, and for a PostToolUse of a gate that turned green, the one carrying the line that asks what
// fixed it. A payload that is not a hook event
// (not JSON, not an object, no hook_event_name, or a known event missing its fields) is passed to record()
// byte for byte, so the core keeps it: broken JSON and non-UTF-8 go to quarantine, anything else is kept as
// given — never lost. Set AI_RECORDINGS_DEBUG=1 to see what happened on stderr.
//
// Fast path: this module does not import the MCP SDK, and loads the recorder (wasm) only when there is an
// entry to write, recall only when it looks for a hint. Events that call for neither (a passing command) cost a
// node start: the `record` command runs this module from a bundle of its own (plugin/cli/hook-entry.js).

import { fs, importSibling, isMainModule } from "../builtins.js";
import { resolveOptions } from "../capture/options.js";
import { commitPass, noteFailure } from "../capture/green.js";
import { fileStore } from "../capture/memory.js";
import { sessionMemoryDir } from "../paths.js";
import { readToEnd } from "../io.js";
import { hintFailure, planHook } from "../hosts/hook-events.js";
import { envOf, settingsOf } from "../settings.js";
import { hostFlags } from "./entry-flags.js";
import { compileCoreWasm } from "../core-wasm.js";

export { HOSTS, planHook } from "../hosts/hook-events.js";

/** How long to wait for the host to close standard input before working with what arrived. */
const STDIN_TIMEOUT_MS = 10_000;
/** Payloads bigger than this are not parsed (they go to record() raw, which splits them into quarantine pieces). */
const MAX_PARSE_BYTES = 64 * 1024 * 1024;

/** Standard input read with reads on fd 0, without creating process.stdin (a stream costs a few ms of a hook's
 *  start), by io.js readToEnd's one rule for a descriptor that does not block, ending after STDIN_TIMEOUT_MS
 *  without a byte. Returns null when fd 0 cannot be read that way at all, so the caller falls back to the
 *  stream. */
export function readStdinSync(fd = 0) {
  const chunks = [];
  try {
    readToEnd(fs, fd, (bytes) => chunks.push(Buffer.from(bytes)), { idleMs: STDIN_TIMEOUT_MS });
  } catch {
    if (chunks.length === 0) return null;
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

/** The modules hook mode loads on the paths that need them, as ES modules beside this one; the `record`
 *  command's bundles pass their own (plugin/cli/hook-write.js hookModules). */
const ES_MODULES = {
  core: () => importSibling("./core.js"),
  recorder: () => importSibling("./recorder.js"),
  recallHook: () => importSibling("./recall/hook.js"),
};

/** The hook event on standard input, as bytes: fd 0 read directly, else through the stream. */
export async function readHookInput() {
  return readStdinSync() ?? (await readAll(process.stdin));
}

/** One of hook mode's AI_RECORDINGS_DEBUG lines, to `stderr` when given, else to fd 2 with write(2), not the
 *  stderr stream: the `record` command exits right after (cli.js runCli), and a stream's queued output would be
 *  lost on a pipe where streams write asynchronously. */
export function debugLine(msg, stderr) {
  try {
    if (stderr) stderr.write(`record hook: ${msg}\n`);
    else fs.writeSync(2, `record hook: ${msg}\n`);
  } catch {
    // nowhere to say it
  }
}

/** Writes hook output to fd 1 with write(2): the process may exit right after. */
const toStdout = (text) => fs.writeSync(1, text);

/**
 * Runs hook mode for `host` ("claude-code" or "codex"): reads the payload (`input`, the event's bytes when the
 * caller has read them; else from `stdin`, a readable stream; by default fd 0 is read directly), writes what it
 * calls for, and resolves to 0 — always (never rejects). `record` is plugin/recorder.js's record() by default (a
 * seam for tests); `env` is the process's environment, read once (settings.js envOf); `argv` may carry
 * `--file PATH`; `modules`: { core, recorder, recallHook }, each a function resolving to that module; `stdout`
 * receives what the host is to read (the warm helper, plugin/cli/hook-helper.js, collects it for the hook
 * process that asked). `delegate`: when the event needs the recorder or recall, called first; resolving to true
 * means it was handed over whole (to the warm helper, plugin/cli/hook-entry.js) and nothing is left to do here.
 */
export async function runHook(host, { input, stdin, env = envOf(), stderr, stdout = toStdout, args = [], record, now, modules = ES_MODULES, delegate } = {}) {
  const debug = settingsOf(env).debug;
  const say = (msg) => debug && debugLine(msg, stderr);
  try {
    const raw = input ?? (stdin ? await readAll(stdin) : await readHookInput());
    const flags = hostFlags(args, ["--file"]);
    for (const w of flags.warnings) say(w);
    const fileFlag = flags.options.file;
    const opts = resolveOptions(null, env);
    // What failed earlier in the session: every hook is a new process, so it is kept in a file per session.
    const memory = fileStore({ dir: sessionMemoryDir({ env }), now: now ?? Date.now });
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
      plan = payload === undefined ? { kind: "raw", why: "not JSON" } : planHook(host, payload, { env, now: now?.() ?? Date.now(), opts, memory });
    }
    // The failure a hint from recall is looked for (the host reads the hook's additionalContext): any failed call
    // in Claude Code, any failed command in Codex, a recognised gate or not (only gates are recorded).
    const hint = hintFailure(host, payload, plan);
    // An event that needs the recorder or recall may be run elsewhere, whole, before this process does any of it.
    if ((plan.kind !== "none" || hint) && delegate && (await delegate())) return 0;
    if (settingsOf(env).exportAfterSession) {
      const after = await importSibling("./export/after.js");
      if (after.endsSession(payload)) await after.startExport({ file: fileFlag ?? opts.file, env });
    }
    const file = fileFlag ?? opts.file;
    if (plan.kind === "none") {
      say("nothing to record");
      if (hint) await writeHint(await openHint(modules, hint, { env, file }), stdout);
      return 0;
    }
    // The core compiles on another thread while the recorder's code loads and the hint's index opens.
    const compiling = record ? null : compileCoreWasm();
    const rec = record ?? (await modules.recorder()).record;
    const hinting = hint ? await openHint(modules, hint, { env, file }) : null;
    if (compiling) (await modules.core()).loadCoreFrom(await compiling);
    const base = { capture: "auto", env, stamps: { client: host } };
    if (file) base.file = file;
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
      const t = now?.() ?? Date.now();
      if (plan.entry.trigger === "gate.failed") noteFailure(memory, o.session, { command: plan.entry.command, workdir: plan.entry.workdir, cwd: o.cwd, status, now: t });
      if (plan.pass && status?.status === "recorded") {
        commitPass(memory, o.session, plan.pass);
        // Both hosts give a PostToolUse hook's additionalContext to the model: the line asking what fixed it.
        if (plan.pass.nudge) {
          stdout(JSON.stringify({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: plan.pass.nudge } }) + "\n");
        }
      }
    }
    if (hinting) await writeHint(hinting, stdout);
    say(`${status?.status} ${status?.eid ?? ""} ${status?.file ?? ""} ${status?.reason ?? ""}`);
  } catch (e) {
    say(`internal error: ${e?.stack ?? e}`);
  }
  return 0;
}

/** The recall hint for `failure` (hosts/hook-events.js hintFailure), its index opened (recall/hook.js openHint). */
async function openHint(modules, failure, options) {
  try {
    return await (await modules.recallHook()).openHint(failure, options);
  } catch {
    return { text: async () => "" }; // recall's modules did not load: no hint, and the entry is still recorded
  }
}

/** Prints the hint `opened` finds, when one matches. */
async function writeHint(opened, stdout) {
  const out = await opened.text();
  if (out) stdout(out);
}

/** `record hook HOST [--file PATH]` as argv (the words after `hook`). */
export function runHookArgs(args, io) {
  const [host, ...rest] = args;
  return runHook(host ?? "", { ...io, args: rest });
}

// `node plugin/cli/hook-mode.js HOST` is the same as `record hook HOST`.
if (isMainModule(import.meta)) {
  runHookArgs(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
