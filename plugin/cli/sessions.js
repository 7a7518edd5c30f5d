// `record sessions`: see its help text below.

import { CursorError, listSessions } from "../read/index.js";
import { UsageError } from "./args.js";
import { FILTER_HELP, FILTER_OPTIONS, TARGET_HELP, TARGET_OPTIONS, filterOf } from "./filters.js";
import { commandArgs } from "./prologue.js";
import { ioOf, noFileNote, reportTrouble, streamWriter, usage } from "./output.js";

export const HELP = `record sessions - the sessions seen in the recordings, most recent first

Usage: record sessions [OPTIONS] [FILTERS]

One line per session: its id, entry count, first and last time, and the repos it recorded in.
The runs of one repeated automatic failure count as one entry (FAILED: the failure episodes, and how
many runs they had). Entries without a session are counted under "(no session)".

Options:
${TARGET_HELP}
  --json             print one JSON object per session
  -h, --help         show this help

${FILTER_HELP}
`;

/** record sessions */
export async function sessions(argv, io0) {
  const io = ioOf(io0);
  let opts;
  let result;
  try {
    opts = commandArgs(HELP, argv, { ...TARGET_OPTIONS, ...FILTER_OPTIONS }, io);
    if (!opts) return 0;
    result = listSessions({ file: opts.file, quarantine: opts.quarantine, env: io.env, cwd: io.cwd, now: io.now, filter: filterOf(opts, io.now()) });
  } catch (e) {
    if (e instanceof UsageError || e instanceof CursorError) return usage(io.stderr, "sessions", e);
    throw e;
  }
  const out = streamWriter(io.stdout);
  if (opts.json) {
    for (const s of result.sessions) out.write(JSON.stringify(s) + "\n");
  } else if (result.sessions.length) {
    const rows = result.sessions.map((s) => [
      s.session ?? "(no session)",
      String(s.entries - s.runs + s.episodes),
      s.episodes ? `${s.episodes} (${s.runs} run${s.runs === 1 ? "" : "s"})` : "-",
      s.first ?? "-",
      s.last ?? "-",
      s.repos.join(", ") || "-",
    ]);
    const head = ["SESSION", "ENTRIES", "FAILED", "FIRST", "LAST", "REPOS"];
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

