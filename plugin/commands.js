// The reading subcommands of `record`: read, sessions, show, md, doctor. Each is
// `(argv, { stdout, stderr, env, cwd }) => Promise<exit status>`; the CLI imports this module only when one of
// them is named, so plain `record TEXT` never loads it. Unlike recording, these may fail: 0 means done (damaged
// lines are reported on stderr and skipped, not fatal), 1 that something was not found or is wrong (show,
// doctor), 2 a usage error (unknown option, bad cursor).

import { fs as nodeFs, path } from "./builtins.js";
import { replaceFile } from "./io.js";
import {
  CursorError,
  RecordingsReader,
  entriesMarkdown,
  entryMarkdown,
  findEntries,
  listSessions,
  parseTime,
} from "./read.js";

const FILTER_HELP = `Filters (repeat one to accept any of its values; different filters must all match):
  --session ID       entries of this opencode session
  --repo NAME        entries whose repo, origin or git_dir is NAME
  --capture HOW      cli, agent, auto or mcp
  --kind KIND        entries whose kind, trigger (automatic captures) or category is KIND (any case)
  --since-time T     entries at or after T: an ISO time ("2026-11-29", "2026-11-29T08:00Z") or an
                     age ("90m", "12h", "7d", "2w")
  --until-time T     entries before T (same forms)`;

const TARGET_HELP = `  --file PATH        the recordings file (default: env AI_RECORDINGS_FILE, else ~/git/ai_recordings.jsonl)
  --quarantine       read <stem>.quarantine.jsonl (what could not be kept in the main file) instead`;

export const HELP = {
  read: `record read - print recordings in the order they were appended, across rotated archives

Usage: record read [OPTIONS] [FILTERS]

Prints each entry as its line in the file (JSON Lines), oldest first: archives in rotation order, then
the live file. A line that is not a JSON object is skipped and reported on stderr with its file and
byte offset, with a summary at the end; it never stops the read.

Options:
${TARGET_HELP}
  --json             print {"cursor": C, "entry": {...}} per entry (the entry exactly as stored), then
                     one last line {"cursor": C} with the cursor to resume from after everything read
  --since CURSOR     resume: print only what was appended after CURSOR (a cursor from --json or
                     --cursor-file; an opaque string that stays valid across rotation and runs)
  --cursor-file F    resume from the cursor in file F (if it exists) and store the new cursor there
                     when done: "record read --cursor-file F" run again prints only what is new
  --limit N          stop after N entries (the cursor then points just after the N-th)
  -h, --help         show this help

${FILTER_HELP}

Resuming never repeats or skips an entry, even while other processes append and rotate the file. A
cursor skips entries that did not pass the filters too: use the same filters when resuming.
`,
  sessions: `record sessions - the sessions seen in the recordings, most recent first

Usage: record sessions [OPTIONS] [FILTERS]

One line per session: its id, entry count, first and last time, and the repos it recorded in.
Entries without a session are counted under "(no session)".

Options:
${TARGET_HELP}
  --json             print one JSON object per session
  -h, --help         show this help

${FILTER_HELP}
`,
  show: `record show - one entry as Markdown, for pasting into a review

Usage: record show [OPTIONS] EID...

EID is an entry id (the "eid" member), or a prefix of at least 4 characters of one. The main file is
searched first, then the quarantine file. Exit status 1 when no entry has that id.

Options:
  --file PATH        the recordings file (default: env AI_RECORDINGS_FILE, else ~/git/ai_recordings.jsonl)
  --json             print the entry's line as stored instead of Markdown
  -h, --help         show this help
`,
  md: `record md - recordings as Markdown, for pasting into a review

Usage: record md [OPTIONS] [FILTERS]

Each entry shows what was recorded (category, finding, result, lesson, note, sentiment exactly as
written, and any other member), when, where (repo, branch, head, working directory) and how (capture,
trigger, session, model, agent).

Options:
${TARGET_HELP}
  --since CURSOR     only entries after CURSOR (see record read --help)
  --last N           only the last N matching entries
  --limit N          only the first N matching entries
  --title TEXT       the document's heading (default "N recordings")
  -h, --help         show this help

${FILTER_HELP}
`,
  doctor: `record doctor - check where recordings go and whether recording works right now

Usage: record doctor [--file PATH] [--json]

Says where recordings go and why (--file, env AI_RECORDINGS_FILE or the default), whether that file can
be appended to right now (tested by opening it for append and closing it: nothing is written), the last
success and last failure with its reason and the count of misses (from the status record), how many
entries, quarantined entries and damaged lines the files hold, and the versions in use.

Exit status: 0 when healthy, 1 when something is wrong (each problem is explained), 2 for a usage error.

Options:
  --file PATH        the recordings file to check
  --json             print the findings as one JSON object
  -h, --help         show this help
`,
};

// ---------------------------------------------------------------------------------------------------------
// Arguments

class UsageError extends Error {}

const FILTER_OPTIONS = {
  "--session": { key: "session", multi: true },
  "--repo": { key: "repo", multi: true },
  "--capture": { key: "capture", multi: true },
  "--kind": { key: "kind", multi: true },
  "--since-time": { key: "sinceTime" },
  "--until-time": { key: "untilTime" },
};
const TARGET_OPTIONS = { "--file": { key: "file" }, "--quarantine": { key: "quarantine", flag: true } };
const COMMON = { "--json": { key: "json", flag: true }, "--help": { key: "help", flag: true }, "-h": { key: "help", flag: true } };

function parse(argv, spec) {
  const out = { positional: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      out.positional.push(...argv.slice(i + 1));
      break;
    }
    if (!a.startsWith("-") || a === "-") {
      out.positional.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    const name = a.startsWith("--") && eq > 0 ? a.slice(0, eq) : a;
    const o = spec[name];
    if (!o) throw new UsageError(`unknown option ${name}`);
    if (o.flag) {
      if (name !== a) throw new UsageError(`${name} takes no value`);
      out[o.key] = true;
      continue;
    }
    let value;
    if (name !== a) value = a.slice(eq + 1);
    else if (i + 1 < argv.length) value = argv[++i];
    else throw new UsageError(`${name} needs a value`);
    if (o.multi) (out[o.key] ??= []).push(value);
    else out[o.key] = value;
  }
  return out;
}

/** A subcommand's arguments: `parse` with `spec` (plus --json and --help), its help printed instead when asked
 *  (then null), and no positional argument unless `positional`. Throws UsageError. */
function commandArgs(name, argv, spec, io, { positional = false } = {}) {
  const opts = parse(argv, { ...COMMON, ...spec });
  if (opts.help) {
    io.stdout.write(HELP[name]);
    return null;
  }
  if (!positional && opts.positional.length) throw new UsageError(`unexpected argument "${opts.positional[0]}"`);
  return opts;
}

function count(value, name) {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${name} needs a whole number, not "${value}"`);
  return n;
}

function filterOf(opts, now) {
  const f = {};
  for (const o of Object.values(FILTER_OPTIONS)) if (opts[o.key] !== undefined) f[o.key] = opts[o.key];
  for (const k of ["sinceTime", "untilTime"]) {
    if (f[k] !== undefined && Number.isNaN(parseTime(f[k], now))) {
      throw new UsageError(`--${k === "sinceTime" ? "since" : "until"}-time: "${f[k]}" is neither a time (2026-11-29T08:00Z) nor an age (12h, 7d)`);
    }
  }
  return f;
}

// ---------------------------------------------------------------------------------------------------------
// Output

/** Buffers text for a stream and honours its back-pressure (a pipe to `head` or `less`). */
function writer(stream) {
  let parts = [];
  let size = 0;
  const state = { broken: false };
  // A reader that went away (`record read | head`) is not an error of ours: stop writing, exit quietly.
  if (typeof stream.on === "function") stream.on("error", () => (state.broken = true));
  const push = async () => {
    if (!parts.length || state.broken) {
      parts = [];
      size = 0;
      return;
    }
    const text = parts.join("");
    parts = [];
    size = 0;
    const ok = stream.write(text);
    if (ok === false && typeof stream.once === "function") {
      await new Promise((resolve) => {
        const done = () => {
          stream.off?.("drain", done);
          stream.off?.("error", done);
          resolve();
        };
        stream.once("drain", done);
        stream.once("error", done);
      });
    }
  };
  return {
    write(s) {
      parts.push(s);
      size += s.length;
      return size >= 1 << 16;
    },
    flush: push,
    get broken() {
      return state.broken;
    },
  };
}

function ioOf(io = {}) {
  return {
    stdout: io.stdout ?? process.stdout,
    stderr: io.stderr ?? process.stderr,
    env: io.env ?? process.env,
    cwd: io.cwd ?? process.cwd(),
    now: io.now ?? Date.now,
  };
}

/** Tells stderr about damaged lines (the first few one by one, then a summary), notes and unread tails. */
function reportTrouble(stderr, reader, { quiet = false } = {}) {
  const SHOW = 10;
  const lines = [];
  reader.damage.slice(0, SHOW).forEach((d) => {
    lines.push(`record: skipped a damaged line (${d.reason}) in ${d.segment} at byte ${d.offset}: ${d.preview}`);
  });
  if (reader.damage.length) {
    const segs = new Set(reader.damage.map((d) => d.segment)).size;
    const more = reader.damage.length > SHOW ? ` (the first ${SHOW} are listed above)` : "";
    lines.push(`record: ${reader.damage.length} damaged line(s) in ${segs} file(s) were skipped${more}`);
  }
  for (const p of reader.pending) {
    if (quiet && !p.archive) continue;
    lines.push(
      `record: ${p.segment} ends in an unfinished line (${p.length} bytes at byte ${p.offset}): a write in progress, ` +
        `or a line torn by a crash; it is read once it ends`,
    );
  }
  for (const n of reader.notes) lines.push(`record: note: ${n}`);
  if (lines.length) stderr.write(lines.join("\n") + "\n");
}

function usage(stderr, cmd, e) {
  stderr.write(`record ${cmd}: ${e.message}. See record ${cmd} --help.\n`);
  return 2;
}

function noFileNote(stderr, reader) {
  if (reader.stats.segments === 0 && reader.notes.length === 0) {
    stderr.write(`record: no recordings at ${reader.file} yet\n`);
  }
}

function readCursorFile(p) {
  try {
    const t = nodeFs.readFileSync(p, "utf8").trim();
    return t === "" ? null : t;
  } catch (e) {
    if (e && e.code === "ENOENT") return null;
    throw new UsageError(`cannot read the cursor file ${p}: ${e.code || e.message}`);
  }
}

/** Stores the cursor beside, then renames over, so a crash never leaves half a cursor. */
function writeCursorFile(p, cursor) {
  replaceFile(nodeFs, p, cursor + "\n");
}

function makeReader(opts, io, extra = {}) {
  return new RecordingsReader({
    file: opts.file,
    quarantine: opts.quarantine,
    env: io.env,
    cwd: io.cwd,
    now: io.now,
    filter: filterOf(opts, io.now()),
    ...extra,
  });
}

// ---------------------------------------------------------------------------------------------------------
// Commands

/** record read */
export async function read(argv, io0) {
  const io = ioOf(io0);
  let opts;
  let reader;
  let cursorFile = null;
  try {
    opts = commandArgs("read", argv, {
      ...TARGET_OPTIONS,
      ...FILTER_OPTIONS,
      "--since": { key: "since" },
      "--cursor-file": { key: "cursorFile" },
      "--limit": { key: "limit" },
    }, io);
    if (!opts) return 0;
    opts.limit = count(opts.limit, "--limit");
    let since = opts.since ?? null;
    if (opts.cursorFile !== undefined) {
      cursorFile = path.resolve(io.cwd, opts.cursorFile);
      if (since === null) since = readCursorFile(cursorFile);
    }
    reader = makeReader(opts, io, { since });
  } catch (e) {
    if (e instanceof UsageError || e instanceof CursorError) return usage(io.stderr, "read", e);
    throw e;
  }
  const out = writer(io.stdout);
  let n = 0;
  let last = null;
  if (opts.limit !== 0) {
    for (const r of reader.records()) {
      if (opts.json) out.write(`{"cursor":"${r.cursor}","entry":${r.text}}\n`);
      else out.write(r.text + "\n");
      last = r.cursor;
      if (++n >= (opts.limit ?? Infinity)) break;
      if (n % 256 === 0) {
        await out.flush();
        if (out.broken) break;
      }
    }
  }
  // With --limit, resume just after the last entry printed; otherwise after everything read.
  const cursor = opts.limit !== undefined && n >= opts.limit && last !== null ? last : reader.cursor;
  if (opts.json) out.write(`{"cursor":"${cursor}"}\n`);
  await out.flush();
  if (out.broken) {
    // Output went nowhere part-way: do not move a stored cursor past entries nobody received.
    if (cursorFile) io.stderr.write(`record read: the output was closed early; ${cursorFile} was left as it was\n`);
    return cursorFile ? 1 : 0;
  }
  if (cursorFile) {
    try {
      writeCursorFile(cursorFile, cursor);
    } catch (e) {
      io.stderr.write(`record read: could not store the cursor in ${cursorFile}: ${e.code || e.message}\n`);
      reportTrouble(io.stderr, reader);
      return 1;
    }
  }
  noFileNote(io.stderr, reader);
  reportTrouble(io.stderr, reader);
  return 0;
}

/** record sessions */
export async function sessions(argv, io0) {
  const io = ioOf(io0);
  let opts;
  let result;
  try {
    opts = commandArgs("sessions", argv, { ...TARGET_OPTIONS, ...FILTER_OPTIONS }, io);
    if (!opts) return 0;
    result = listSessions({ file: opts.file, quarantine: opts.quarantine, env: io.env, cwd: io.cwd, now: io.now, filter: filterOf(opts, io.now()) });
  } catch (e) {
    if (e instanceof UsageError || e instanceof CursorError) return usage(io.stderr, "sessions", e);
    throw e;
  }
  const out = writer(io.stdout);
  if (opts.json) {
    for (const s of result.sessions) out.write(JSON.stringify(s) + "\n");
  } else if (result.sessions.length) {
    const rows = result.sessions.map((s) => [
      s.session ?? "(no session)",
      String(s.entries),
      s.first ?? "-",
      s.last ?? "-",
      s.repos.join(", ") || "-",
    ]);
    const head = ["SESSION", "ENTRIES", "FIRST", "LAST", "REPOS"];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    for (const r of [head, ...rows]) {
      out.write(r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join("  ") + "\n");
    }
  }
  await out.flush();
  const fake = { damage: result.damage, notes: result.notes, pending: [], stats: result.stats, file: result.file };
  noFileNote(io.stderr, fake);
  reportTrouble(io.stderr, fake);
  return 0;
}

/** record show */
export async function show(argv, io0) {
  const io = ioOf(io0);
  let opts;
  try {
    opts = commandArgs("show", argv, { "--file": { key: "file" } }, io, { positional: true });
    if (!opts) return 0;
    if (!opts.positional.length) throw new UsageError("which entry? give its eid");
    for (const eid of opts.positional) {
      if (eid.length < 4) throw new UsageError(`"${eid}" is too short: give the eid or at least its first 4 characters`);
    }
  } catch (e) {
    if (e instanceof UsageError) return usage(io.stderr, "show", e);
    throw e;
  }
  const out = writer(io.stdout);
  let status = 0;
  let first = true;
  for (const eid of opts.positional) {
    const found = findEntries(eid, { file: opts.file, env: io.env, cwd: io.cwd, now: io.now });
    if (!found.records.length) {
      io.stderr.write(`record show: no entry with eid ${eid}\n`);
      status = 1;
      continue;
    }
    if (found.ambiguous) {
      const ids = [...new Set(found.records.map((r) => r.entry.eid))];
      io.stderr.write(`record show: "${eid}" is the beginning of ${ids.length} eids (${ids.slice(0, 5).join(", ")}); give more of it\n`);
      status = 1;
      continue;
    }
    for (const r of found.records) {
      if (opts.json) {
        out.write(r.text + "\n");
        continue;
      }
      if (!first) out.write("\n");
      first = false;
      out.write(entryMarkdown(r.text));
      if (r.quarantine) out.write(`\n_From the quarantine file ${"`"}${r.segment}${"`"}._\n`);
      // Entries that correct this one (or that it corrects), from the recall index where there is one.
      if (typeof r.entry.eid === "string") out.write(await (await import("./recall/show.js")).relatedMarkdown(r.entry.eid, { file: opts.file, env: io.env, cwd: io.cwd }));
    }
  }
  await out.flush();
  return status;
}

/** record md */
export async function md(argv, io0) {
  const io = ioOf(io0);
  let opts;
  let reader;
  try {
    opts = commandArgs("md", argv, {
      ...TARGET_OPTIONS,
      ...FILTER_OPTIONS,
      "--since": { key: "since" },
      "--last": { key: "last" },
      "--limit": { key: "limit" },
      "--title": { key: "title" },
    }, io);
    if (!opts) return 0;
    opts.last = count(opts.last, "--last");
    opts.limit = count(opts.limit, "--limit");
    reader = makeReader(opts, io, { since: opts.since ?? null });
  } catch (e) {
    if (e instanceof UsageError || e instanceof CursorError) return usage(io.stderr, "md", e);
    throw e;
  }
  let texts = [];
  for (const r of reader.records()) {
    texts.push(r.text);
    if (opts.last !== undefined && texts.length > opts.last * 2 + 64) texts = texts.slice(-opts.last);
    if (opts.limit !== undefined && texts.length >= opts.limit && opts.last === undefined) break;
  }
  if (opts.last !== undefined) texts = opts.last === 0 ? [] : texts.slice(-opts.last);
  if (opts.limit !== undefined) texts = texts.slice(0, opts.limit);
  const out = writer(io.stdout);
  out.write(entriesMarkdown(texts, { title: opts.title }));
  await out.flush();
  noFileNote(io.stderr, reader);
  reportTrouble(io.stderr, reader);
  return 0;
}

/** record doctor (plugin/doctor.js) */
export async function doctor(argv, io0) {
  const io = ioOf(io0);
  let opts;
  try {
    opts = commandArgs("doctor", argv, { "--file": { key: "file" } }, io);
    if (!opts) return 0;
  } catch (e) {
    if (e instanceof UsageError) return usage(io.stderr, "doctor", e);
    throw e;
  }
  const { examine, formatReport } = await import("./doctor.js");
  const report = await examine({ file: opts.file, env: io.env, cwd: io.cwd, now: io.now });
  io.stdout.write(opts.json ? JSON.stringify(report, null, 1) + "\n" : formatReport(report));
  return report.healthy ? 0 : 1;
}

/** The subcommands by name, for the CLI's dispatch table. */
export const COMMANDS = { read, sessions, show, md, doctor };
