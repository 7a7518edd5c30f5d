// `record recall [QUERY] [--json] [--scope repo|all] [--limit N]`: past entries that match QUERY, best first,
// from the recall index (caught up first). `recall(argv, io)` resolves to the exit status: 0 done (also when
// nothing matched), 1 recall cannot run here (no SQLite in this runtime) or is switched off, 2 a usage error.

import { settingsOf, envOf } from "../settings.js";
import { positiveInt } from "../values.js";
import { createRecall, recallOff } from "../recall/service.js";
import { formatHits, jsonHits } from "../recall/format.js";
import { lastPullFailed } from "../recall/team-state.js";
import { parseArgs } from "./args.js";
import { fdWriter } from "./say.js";

export const HELP = `record recall - past entries that match a question, best first

Usage: record recall [OPTIONS] [QUERY...]

QUERY is any text (several words are joined); it is taken as words, so quotes and search operators in
it are not interpreted. Entries are ranked by how much of the query they cover (BM25), preferring the
files and commands the query names, recent entries, and lessons someone wrote over automatic captures.
Without QUERY: the newest entries someone wrote. The entries of the current session (AI_RECORDINGS_SESSION
or --session) are left out. Corrections (entries that name another entry's eid) are shown with the
entry they correct.

Options:
  --scope repo|all   repo (default): entries of the repository of the working directory (its git dir,
                     shared by all its worktrees); all: every repository, this one's first
  --limit N          at most N hits (default 10)
  --budget BYTES     at most this much text without --json (default 2048)
  --json             one JSON object per hit: {"score", "entry" (the line as stored), "corrected_by",
                     "corrects"}
  --session S        the current session, whose entries are left out (default AI_RECORDINGS_SESSION)
  --include-session  keep the current session's entries
  --file PATH        the recordings file (default: env AI_RECORDINGS_FILE, else ~/git/ai_recordings.jsonl)
  -h, --help         show this help

The index is derived from the recordings files and lives in $XDG_DATA_HOME/opencode-recordings/recall/
(AI_RECORDINGS_INDEX_DIR to move it); delete it at any time, the next recall rebuilds it. Recall needs
SQLite: Node 22.5 or later, or Bun. AI_RECORDINGS_RECALL=0 switches it off. Teammates' entries (marked
"team: HOST") are those record sync pulled; AI_RECORDINGS_TEAM=1 pulls in the background now and then.
`;

const OPTIONS = {
  "--scope": { key: "scope" },
  "--limit": { key: "limit" },
  "--budget": { key: "budget" },
  "--json": { key: "json", flag: true },
  "--session": { key: "session" },
  "--include-session": { key: "include-session", flag: true },
  "--file": { key: "file" },
  "--help": { key: "help", flag: true },
  "-h": { key: "help", flag: true },
};

function usage(io, message) {
  io.stderr.write(`record recall: ${message}. See record recall --help.\n`);
  return 2;
}

/** Progress of a first build, on a terminal only, once it has taken a moment (only then is stderr asked
 *  whether it is one). */
function progress(stderr, now) {
  const t0 = now();
  let shown = false;
  let tty = null;
  return {
    tick({ entries, bytes }) {
      if (!shown && now() - t0 < 500) return;
      if (!(tty ??= Boolean(stderr.isTTY))) return;
      shown = true;
      stderr.write(`\rrecord recall: indexing the recordings: ${entries} entries, ${(bytes / 1048576).toFixed(1)} MiB`);
    },
    end() {
      if (shown) stderr.write("\n");
    },
  };
}

export async function recall(argv, io0 = {}) {
  const io = {
    // Short output, written with write(2): a stream would load the runtime's streams stack first.
    stdout: io0.stdout ?? fdWriter(1),
    stderr: io0.stderr ?? fdWriter(2),
    env: io0.env ?? process.env,
    cwd: io0.cwd ?? process.cwd(),
    now: io0.now ?? Date.now,
  };
  let parsed;
  try {
    parsed = parseArgs(argv, OPTIONS, "command");
  } catch (e) {
    return usage(io, e.message);
  }
  const o = parsed.values;
  if (o.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const scope = o.scope ?? "repo";
  if (scope !== "repo" && scope !== "all") return usage(io, `--scope is repo or all, not "${scope}"`);
  const limit = o.limit === undefined ? 10 : positiveInt(o.limit);
  if (limit === undefined) return usage(io, `--limit needs a positive whole number, not "${o.limit}"`);
  const budget = o.budget === undefined ? 2048 : positiveInt(o.budget);
  if (budget === undefined) return usage(io, `--budget needs a positive number of bytes, not "${o.budget}"`);
  const env = envOf({ env: io.env });
  const off = recallOff({ env });
  if (off) {
    io.stderr.write(`record recall: ${off}\n`);
    return 1;
  }
  const query = parsed.positional.join(" ").trim();
  const service = createRecall({ file: o.file, env, cwd: io.cwd });
  const bar = progress(io.stderr, io.now);
  let result;
  try {
    result = await service.find(query === "" ? null : query, {
      scope,
      limit,
      session: o.session ?? settingsOf(env).session,
      includeSession: o["include-session"],
      cwd: io.cwd,
      now: io.now(),
      onProgress: bar.tick,
    });
  } catch (e) {
    bar.end();
    io.stderr.write(`record recall: ${e?.message ?? e}\n`);
    return 1;
  } finally {
    await service.close();
  }
  bar.end();
  const { hits, gitDir, caught } = result;
  if (o.json) io.stdout.write(jsonHits(hits));
  else io.stdout.write(formatHits(hits, { budget, gitDir: scope === "all" ? gitDir : null }));
  if (caught.damaged.length) {
    io.stderr.write(`record recall: ${caught.damaged.length} damaged line(s) were skipped while indexing (record read lists them)\n`);
  }
  for (const n of caught.notes) io.stderr.write(`record recall: note: ${n}\n`);
  if (scope === "repo" && !gitDir) io.stderr.write("record recall: not in a git repository: searched every repository\n");
  const failed = lastPullFailed(result.team);
  if (failed) {
    const as = result.team.lastSuccess ? `as pulled at ${result.team.lastSuccess}` : "none pulled yet";
    io.stderr.write(`record recall: the team source ${result.team.source ?? "(none set)"} was not reached (${failed.at}: ${failed.reason}); teammates' entries are ${as}\n`);
  }
  if (!hits.length && !o.json) io.stderr.write(query ? "record recall: nothing recorded matches\n" : "record recall: nothing recorded yet\n");
  return 0;
}
