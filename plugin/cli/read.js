// `record read`: see its help text below.

import { fs as nodeFs, path } from "../builtins.js";
import { replaceFile } from "../io.js";
import { CursorError, foldEpisodes } from "../read/index.js";
import { UsageError } from "./args.js";
import { FILTER_HELP, FILTER_OPTIONS, TARGET_HELP, TARGET_OPTIONS, makeReader } from "./filters.js";
import { commandArgs, count } from "./prologue.js";
import { ioOf, noFileNote, reportTrouble, streamWriter, usage } from "./output.js";

export const HELP = `record read - print recordings in the order they were appended, across rotated archives

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
  --fold             fold repeated automatic failures: the runs of one failure fingerprint in a session
                     print as one line {"episode": {...}} where the first run was (count, first and last
                     time and eid, heads, failure lines, first and last output, resolved, regressed,
                     lessons). With --json every entry is still printed, a run with "episode": ID added,
                     and each episode follows as {"episode": {...}} before the closing cursor line
  -h, --help         show this help

${FILTER_HELP}

Resuming never repeats or skips an entry, even while other processes append and rotate the file. A
cursor skips entries that did not pass the filters too: use the same filters when resuming.
`;

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

/** The records with their failure episodes: see --fold in the help. */
function writeFolded(out, recs, json) {
  const { episodes, byEid } = foldEpisodes(recs);
  const runOf = (r) => {
    const ep = byEid.get(r.entry?.eid);
    return ep && ep.eids.includes(r.entry.eid) ? ep : null;
  };
  if (json) {
    for (const r of recs) {
      const ep = runOf(r);
      out.write(`{"cursor":"${r.cursor}","entry":${r.text}${ep ? `,"episode":${JSON.stringify(ep.id)}` : ""}}\n`);
    }
    for (const ep of episodes) out.write(JSON.stringify({ episode: ep }) + "\n");
    return;
  }
  const shown = new Set();
  for (const r of recs) {
    const ep = runOf(r);
    if (!ep) out.write(r.text + "\n");
    else if (!shown.has(ep)) {
      shown.add(ep);
      out.write(JSON.stringify({ episode: ep }) + "\n");
    }
  }
}

/** record read */
export async function read(argv, io0) {
  const io = ioOf(io0);
  let opts;
  let reader;
  let cursorFile = null;
  try {
    opts = commandArgs(HELP, argv, {
      ...TARGET_OPTIONS,
      ...FILTER_OPTIONS,
      "--since": { key: "since" },
      "--cursor-file": { key: "cursorFile" },
      "--limit": { key: "limit" },
      "--fold": { key: "fold", flag: true },
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
  const out = streamWriter(io.stdout);
  let n = 0;
  let last = null;
  if (opts.fold && opts.limit !== 0) {
    // Folding needs every run of an episode before it can print the first: the read is gathered first.
    const recs = [];
    for (const r of reader.records()) {
      recs.push(r);
      last = r.cursor;
      if (++n >= (opts.limit ?? Infinity)) break;
    }
    writeFolded(out, recs, opts.json);
  } else if (opts.limit !== 0) {
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

