// Recording from the command line: `record [OPTIONS] [TEXT... | - | -- TEXT...]`. Always exits 0 when an entry
// was given, written or not, so recording never fails the caller's task; 2 only for a usage error where no
// entry text was given. The recorder (and so the wasm) is loaded only once there is an entry to write.

import { parseArgs } from "./args.js";
import { entryOptions, flagSpec } from "./entry-flags.js";
import { say, stdinIsTTY } from "./say.js";

export const HELP = `record - append an observation to your AI recordings file (JSONL), never rejecting it

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
  recall [QUERY...]  past entries that match QUERY, best first (every word after "recall" is the
             query: "record -- recall ..." records such a sentence)
  md         recent entries as Markdown
  view       the recordings as one offline HTML page (charts, episodes, search)
  doctor     why a recording that should exist does not (writability, status record, setup)
  mcp        serve the "record" and "recall" tools over MCP (stdio), for Claude Code, Codex and other MCP clients
  hook HOST  hook mode for claude-code or codex: one hook event on stdin, recorded
  export     copy recordings into PostgreSQL, each entry exactly once (docs/export.md)
  sync       pull what teammates exported there into the recall index as team rows (docs/recall.md)
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
  --json           print one status line: {"status","code","file","eid","reason"}
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

// The entry grammar's options (cli/args.js): the flags that set record() options (cli/entry-flags.js), --json and
// --help.
const SPEC = {
  ...flagSpec(),
  "--json": { key: "json", flag: true },
  "--help": { key: "help", flag: true },
  "-h": { key: "help", flag: true },
};

/** argv → { options (for record()), json, help, text (string, or null for standard input), notes,
 *  usageErrors, unknownOnly }. */
export function parseRecordArgs(args) {
  const p = parseArgs(args, SPEC, "entry");
  const v = p.values;
  const warnings = [];
  const options = entryOptions(v, warnings);
  const notes = warnings.map((w) => `option ignored: ${w}`);
  if (p.unknown !== null) {
    notes.push(`unknown option ${p.unknown}: recorded literally with the rest (use "record -- TEXT" for text starting with "-")`);
  }
  return {
    options,
    json: Boolean(v.json),
    help: Boolean(v.help),
    text: p.text,
    notes,
    usageErrors: p.problems,
    unknownOnly: p.unknown !== null && p.text === p.unknown,
  };
}

/** Runs the recording command. Resolves to { code, finished } (see cli/index.js). */
export async function recordCommand(args) {
  const parsed = parseRecordArgs(args);
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
  if (parsed.usageErrors.length && noText && stdinIsTTY()) {
    say(2, `record: ${parsed.usageErrors.at(-1)}; no entry text given. See record --help.\n`);
    return { code: 2, finished: true };
  }
  for (const n of parsed.notes) say(2, `record: ${n}\n`);
  for (const u of parsed.usageErrors) say(2, `record: ${u} (ignored; recording anyway)\n`);

  const rec = await import("../recorder.js");
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
    const line = { status: status.status, code: status.code, file: status.file, eid: status.eid ?? null, reason: status.reason ?? null };
    say(1, JSON.stringify(line) + "\n");
    return;
  }
  if (status.status === "skipped") {
    say(2, `record: not recorded (${status.reason}): ${status.file}\n`);
  } else if (status.status === "quarantined") {
    say(2, `record: kept in quarantine (${status.reason}): ${status.file}\n`);
  }
}

