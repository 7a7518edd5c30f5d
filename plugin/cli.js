#!/usr/bin/env node
// The `record` command. Grammar:
//   record [OPTIONS] [TEXT...]      record TEXT (words joined by spaces), or standard input if TEXT is absent or "-"
//   record [OPTIONS] -- TEXT...     record TEXT literally, even if it starts with "-" or names a subcommand
//   record SUBCOMMAND ...           a subcommand, when the FIRST argument names one (see SUBCOMMANDS)
// Recording always exits 0 (a recording must never fail the caller's task); only a pure usage error where no
// entry text was given exits 2. Imports are lazy so that `--help` and usage errors never load the wasm.

import { fs, importSibling, isatty, isMainModule, path } from "./builtins.js";

const HELP = `record - append an observation to your AI recordings file (JSONL), never rejecting it

Usage:
  record [OPTIONS] [TEXT...]     record TEXT (several words are joined with spaces)
  record [OPTIONS] -             record standard input
  record [OPTIONS]               record standard input (when TEXT is absent)
  record [OPTIONS] -- TEXT...    record TEXT literally (use this when TEXT starts with "-" or a
                                 subcommand name)
  record SUBCOMMAND [ARGS...]    see "Subcommands" below

Subcommands (each has --help):
  read       print recordings across rotated archives, resumable with a cursor
  sessions   the sessions seen in the recordings
  show EID   one entry as Markdown
  md         recent entries as Markdown
  doctor     why a recording that should exist does not (writability, status record, setup)
  mcp        serve the "record" tool over MCP (stdio), for Claude Code, Codex and other MCP clients
  hook HOST  hook mode for claude-code or codex: one hook event on stdin, recorded
  init HOST  add the plugin, hooks or MCP server to opencode's, Claude Code's or Codex's config
  A subcommand runs only when the words after it are its arguments (none, options, or the one word
  show/hook/init take); "record read the docs first" records that sentence.

TEXT can be anything: a JSON object (every member you supply is kept byte for byte), loose
"key=value | key: value" text, or plain prose with an optional "sentiment: ..." tail. Input that
cannot be kept faithfully (broken JSON, bytes that are not UTF-8) goes to the quarantine file
<stem>.quarantine.jsonl beside the target, verbatim. Nothing is rejected. Secrets are redacted.

Options:
  --file PATH      the recordings file (see "Target" below)
  --session S      stamp session S   (default: env AI_RECORDINGS_SESSION)
  --model M        stamp model M     (default: env AI_RECORDINGS_MODEL)
  --agent A        stamp agent A     (default: env AI_RECORDINGS_AGENT)
  --json           print one status line: {"status","file","eid","reason"}
  --no-redact      keep secrets as written (redaction is on by default)
  --redact-pattern RE   also redact what the regular expression RE matches (its group 1 if it has one);
                   reported as rule custom-<n>; repeatable
  --allow TEXT     never redact the literal TEXT; repeatable
  --allow-pattern RE    never redact a candidate secret that RE matches; repeatable
  -h, --help       show this help
  Options go before TEXT; anything after the first word of TEXT is part of TEXT.
  An unknown option is reported on stderr and, with everything after it, recorded as TEXT.

Target (first that applies):
  1. --file PATH
  2. env AI_RECORDINGS_FILE
  3. ~/git/ai_recordings.jsonl
  Missing directories are created (mode 0700), the file with mode 0600.

Each entry gets stamps unless you supplied the same key: ts, eid, capture ("cli"), pwd, and from the
git repository of the working directory: repo, git_dir, origin, head, branch; plus session, model
and agent when known.

Environment:
  AI_RECORDINGS_FILE        target file (see above)
  AI_RECORDINGS_SESSION     session stamp
  AI_RECORDINGS_MODEL       model stamp
  AI_RECORDINGS_AGENT       agent stamp
  AI_RECORDINGS_MAX_BYTES   rotate the file when it would grow past this many bytes (default 16777216);
                            the old file becomes <stem>.<UTC time>.jsonl and is never deleted
  AI_RECORDINGS_SYNC        0 to skip fdatasync after each append (default: sync)
  AI_RECORDINGS_REDACT      0 to turn secret redaction off (default: on)
  AI_RECORDINGS_REDACT_PATTERNS, AI_RECORDINGS_REDACT_ALLOW, AI_RECORDINGS_REDACT_ALLOW_PATTERNS
                            newline-separated lists, used when the matching flags are not given
  XDG_STATE_HOME            where the status record lives: $XDG_STATE_HOME/opencode-recordings/status.json
                            (default ~/.local/state/...); it notes the last success, the last failure and
                            its reason, and a count of misses

Exit status and output:
  Recording: always 0 when an entry was given, whether or not it could be written, so recording never
  fails a task. (Subcommands have their own: see their --help.)
  Without --json: nothing on success; one short line on stderr when the entry went to quarantine or
  could not be written (status "skipped", with the reason, e.g. "EACCES: permission denied").
  2 only for a usage error where no entry text was given (e.g. "--file" without a path).

Examples:
  record 'category=tool lied | finding: grep -c counts lines, not matches | result: fixed'
  record '{"note": "flaky test was a race", "sentiment": ["relief"]}'
  git diff --stat | record --json -
  record -- '--force was the wrong call'
`;

// Subcommands: run when the FIRST argument names one AND what follows looks like its arguments (nothing, an
// option, or the one word `show`/`hook` take). Otherwise the words are an entry ("record read the docs first"),
// recorded as text, so a note that happens to start with a subcommand name is never lost. Each loads its module
// lazily (plain `record TEXT` never loads them) and returns its exit status; unlike recording, they may fail.
// (commands.js and mcp.js stay separate ES modules, imported when used; hook.js is part of the CLI bundle.)
const commands = (name) => (args) => importSibling("./commands.js").then((m) => m.COMMANDS[name](args, {}));
const SUBCOMMANDS = {
  read: commands("read"),
  sessions: commands("sessions"),
  show: commands("show"),
  md: commands("md"),
  doctor: commands("doctor"),
  mcp: (args) => importSibling("./mcp.js").then((m) => m.runMcp({ args })),
  hook: (args) => import("./hook.js").then((m) => m.runHookArgs(args)),
  init: (args) => importSibling("./cli/init.js").then((m) => m.init(args, {})),
};
// Subcommands that take one plain word (an eid; a host name).
const ONE_WORD = { show: /^[^\s]{1,64}$/, hook: /^(claude-code|codex)$/, init: /^(opencode|claude-code|codex)$/ };

/** Whether `args` (argv) invoke a subcommand rather than record text. */
function isSubcommand(args) {
  if (args.length === 0 || !Object.hasOwn(SUBCOMMANDS, args[0])) return false;
  if (args.length === 1 || args[1].startsWith("-")) return true;
  const word = ONE_WORD[args[0]];
  return Boolean(word && word.test(args[1]) && (args.length === 2 || args[2].startsWith("-")));
}

// Options that take a value, mapped to the record() option they set.
const VALUE_OPTIONS = { "--file": "file", "--session": "session", "--model": "model", "--agent": "agent" };
// Repeatable redaction options, mapped to the list in the `redact` option they extend.
const LIST_OPTIONS = { "--redact-pattern": "patterns", "--allow": "allow", "--allow-pattern": "allowPatterns" };

/** Parses argv. Returns { options, json, help, text (string | null for stdin), notes, usageError }. */
function parseArgs(args) {
  const out = { options: {}, json: false, help: false, text: null, notes: [], usageError: null };
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === "--") {
      out.text = args.slice(i + 1).join(" ");
      return out;
    }
    if (a === "-") {
      // "-" is standard input; any words after it are text (nothing typed is dropped)
      if (i + 1 < args.length) out.text = args.slice(i + 1).join(" ");
      return out;
    }
    if (a === "--json") {
      out.json = true;
      continue;
    }
    if (a === "--no-redact") {
      out.options.redact = false;
      continue;
    }
    const list = LIST_OPTIONS[a.startsWith("--") && a.includes("=") ? a.slice(0, a.indexOf("=")) : a];
    if (list) {
      const value = a.includes("=") ? a.slice(a.indexOf("=") + 1) : args[++i];
      if (value === undefined) {
        out.usageError = `${a} needs a value`;
        continue;
      }
      if (out.options.redact === false) continue;
      const r = (out.options.redact ??= {});
      (r[list] ??= []).push(value);
      continue;
    }
    if (a === "--help" || a === "-h") {
      out.help = true;
      continue;
    }
    const eq = a.indexOf("=");
    const name = a.startsWith("--") && eq > 0 ? a.slice(0, eq) : a;
    if (Object.hasOwn(VALUE_OPTIONS, name)) {
      let value;
      if (name !== a) value = a.slice(eq + 1);
      else if (i + 1 < args.length) value = args[++i];
      else {
        out.usageError = `${a} needs a value`;
        continue;
      }
      out.options[VALUE_OPTIONS[name]] = value;
      continue;
    }
    if (a.startsWith("-") && a.length > 1) {
      // Unknown option: keep it and everything after it as the text, so nothing the caller typed is lost.
      out.notes.push(`unknown option ${a}: recorded literally with the rest (use "record -- TEXT" for text starting with "-")`);
      out.unknownOnly = i === args.length - 1;
      out.text = args.slice(i).join(" ");
      return out;
    }
    out.text = args.slice(i).join(" ");
    return out;
  }
  return out;
}

let streamed = false; // some output went through a stream (it may still be queued: see runCli)

/** Writes a message to fd 1 or 2 with write(2) directly: process.stdout and process.stderr are streams, and
 *  the first use of one loads Node's streams stack (~2 ms of a one-entry `record` process). Falls back to the
 *  stream when the direct write fails (EAGAIN: a non-blocking pipe that is full). */
function say(fd, text) {
  let bytes = Buffer.from(text, "utf8");
  try {
    while (bytes.length > 0) bytes = bytes.subarray(fs.writeSync(fd, bytes));
    return;
  } catch {
    // the rest through the stream, which waits for the pipe
  }
  streamed = true;
  (fd === 1 ? process.stdout : process.stderr).write(bytes);
}

function stdinIsTTY() {
  try {
    // Not process.stdin.isTTY: creating that stream loads the streams stack. Pipes, files and sockets are no
    // terminal; only a character device needs the question asked.
    return fs.fstatSync(0).isCharacterDevice() && isatty(0);
  } catch {
    return false;
  }
}

/** Runs the command. Resolves to { code, finished }: `finished` when everything it had to do is done and
 *  written with write(2), so the process may exit at once (recording and hook mode; not the subcommands whose
 *  output goes through streams, nor the MCP server, which keeps running). */
async function main(args) {
  if (isSubcommand(args)) {
    const code = await SUBCOMMANDS[args[0]](args.slice(1));
    return { code, finished: args[0] === "hook" };
  }
  const parsed = parseArgs(args);
  if (parsed.help) {
    process.stdout.write(HELP);
    if (parsed.text === null) return { code: 0, finished: false };
  }
  // A lone unknown option is not an entry: with a terminal on stdin it is a usage error (exit 2, nothing to
  // lose); with piped input, the input is the entry and the option is ignored.
  if (parsed.unknownOnly) {
    if (stdinIsTTY()) {
      say(2, `record: unknown option ${parsed.text}; no entry text given. See record --help.\n`);
      return { code: 2, finished: true };
    }
    parsed.notes = [`unknown option ${parsed.text} ignored; recording standard input`];
    parsed.text = null;
  }
  const noText = parsed.text === null;
  if (parsed.usageError && noText && stdinIsTTY()) {
    say(2, `record: ${parsed.usageError}; no entry text given. See record --help.\n`);
    return { code: 2, finished: true };
  }
  for (const n of parsed.notes) say(2, `record: ${n}\n`);
  if (parsed.usageError) say(2, `record: ${parsed.usageError} (ignored; recording anyway)\n`);

  const rec = await import("./recorder.js");
  let status;
  if (noText) {
    if (stdinIsTTY()) say(2, "record: reading the entry from standard input; end it with Ctrl-D\n");
    status = rec.recordFd(0, parsed.options);
  } else {
    status = rec.record(parsed.text, parsed.options);
  }
  report(status, parsed.json);
  return { code: 0, finished: !parsed.help };
}

function report(status, json) {
  for (const w of status.optionWarnings ?? []) say(2, `record: option ignored: ${w}\n`);
  if (json) {
    const line = { status: status.status, file: status.file, eid: status.eid ?? null, reason: status.reason ?? null };
    say(1, JSON.stringify(line) + "\n");
    return;
  }
  if (status.status === "skipped") {
    say(2, `record: not recorded (${status.reason}): ${status.file}\n`);
  } else if (status.status === "quarantined") {
    say(2, `record: kept in quarantine (${status.reason}): ${status.file}\n`);
  }
}

/** The arguments as typed. Bun drops a "--" that directly follows the script path (`bun cli.js -- -x` gives
 *  ["-x"]), which would turn literal text into options; on Linux the untouched command line is in /proc. */
async function argvAsTyped() {
  const args = process.argv.slice(2);
  if (!process.versions.bun || process.platform !== "linux") return args;
  try {
    const raw = fs.readFileSync("/proc/self/cmdline", "utf8").split("\0");
    if (raw.at(-1) === "") raw.pop();
    const script = process.argv[1];
    const at = raw.findIndex((a, i) => i > 0 && path.resolve(a) === script);
    const typed = at > 0 ? raw.slice(at + 1) : null;
    // Use it only if it is the same list apart from that one "--".
    if (typed && typed.length === args.length + 1 && typed[0] === "--") return typed;
  } catch {
    // fall back to what the runtime gave us
  }
  return args;
}

/** Runs the command with this process's arguments and sets the exit status. Never rejects. Resolves to whether
 *  the process may exit at once (process.exit): the work is done and written synchronously. Exiting then, rather
 *  than letting Node wind down (tear down the heap and the wasm engine), saved a hook process that writes an
 *  entry ~0.8 ms of ~37 here (80 alternating runs each way). */
export async function runCli() {
  let code = 0;
  let finished = false;
  try {
    ({ code, finished } = await main(await argvAsTyped()));
  } catch (e) {
    // Not expected (record() never throws); still, recording must not fail the caller.
    try {
      process.stderr.write(`record: not recorded: internal error: ${e && e.stack ? e.stack : e}\n`);
      if (process.argv.includes("--json")) {
        const reason = `EINTERNAL: ${e && e.message ? e.message : e}`;
        process.stdout.write(JSON.stringify({ status: "skipped", file: null, eid: null, reason }) + "\n");
      }
    } catch {
      // nothing
    }
    code = 0;
  }
  process.exitCode = code;
  return finished && !streamed;
}

// `node plugin/cli.js ...` runs the ES modules as they are; the `record` command (plugin/record.cjs) runs the
// same code from the CommonJS bundle scripts/build.sh makes of this module.
if (isMainModule(import.meta.url)) {
  runCli().then((exitNow) => {
    if (exitNow) process.exit();
  });
}
