// `record sync [--from URL]`: pulls the rows other machines exported to the shared PostgreSQL database into this
// machine's recall index as team rows (plugin/export/pull.js, plugin/recall/team.js). The recordings files are
// never touched. Exit 0 when the pull finished, 1 when it failed (what was not committed is pulled next time) or
// recall cannot run here, 2 for a usage error. The connection is shown only with its password redacted.

import { ConnectionError, connectionOf, describeDbError, scrub, urlSecrets } from "../export/connection.js";
import { connect } from "../export/run.js";
import { machineOf } from "../export/machine.js";
import { pullTeam } from "../export/pull.js";
import { openIndex } from "../recall/index.js";
import { repoOf } from "../recall/service.js";
import { ALL_REPOS, forgetTeam, ownKeys, teamRows } from "../recall/team.js";
import { noteAttempt, noteTeamState } from "../recall/team-state.js";
import { dbOptions } from "./export.js";

export const HELP = `record sync - pull what teammates exported into this machine's recall index

Usage: record sync [OPTIONS]

Reads the rows other machines exported to the shared PostgreSQL database (record export) since this index's
stored position and adds them to the local recall index as team rows: the stored line unchanged, with the
machine and host that exported it. This machine's own rows are skipped (they are in its files), and so is an
eid the index already holds. The position is kept in the index in the same transaction as the rows, so a
pull killed at any moment adds each row once. By default only rows of repositories this machine also works
on (the same origin, or the same name when there is no origin) are pulled; quarantined rows never are. The
recordings files are never touched.

Options:
  --from URL         postgres://USER:PASSWORD@HOST:PORT/DB (default: env AI_RECORDINGS_EXPORT_URL, else the
                     PG* variables: PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE)
  --all-repos        pull the rows of every repository
  --forget           delete every team row from the index instead (the next sync pulls them again)
  --file PATH        the recordings file whose index to fill (default: env AI_RECORDINGS_FILE, else
                     ~/git/ai_recordings.jsonl)
  --machine NAME     this machine's name in the database, whose rows are skipped (default as record export)
  --batch N          rows per transaction (default 5000)
  --json             print the outcome as one JSON object
  --quiet            nothing but errors
  --auto             as started by a recall (AI_RECORDINGS_TEAM=1): nothing on the terminal
  -h, --help         show this help

Recall and hints find team rows marked "team: HOST"; docs/recall.md says what is pulled and how to stop.
`;

const OPTIONS = {
  "--from": { key: "from" },
  "--all-repos": { key: "all-repos", flag: true },
  "--forget": { key: "forget", flag: true },
  "--file": { key: "file" },
  "--machine": { key: "machine" },
  "--batch": { key: "batch" },
  "--json": { key: "json", flag: true },
  "--quiet": { key: "quiet", flag: true },
  "--auto": { key: "auto", flag: true },
  "--help": { key: "help", flag: true },
  "-h": { key: "help", flag: true },
};

/** `record sync ARGS`: resolves to the exit status. io: { stdout, stderr, env, cwd, now, Client }. */
export async function sync(argv, io = {}) {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const env = io.env ?? process.env;
  const cwd = io.cwd ?? process.cwd();
  const now = () => new Date(io.now ? io.now() : Date.now()).toISOString();
  let opts;
  try {
    opts = dbOptions(argv, OPTIONS);
  } catch (e) {
    stderr.write(`record sync: ${scrub(e.message, urlSecrets(argv))}. See record sync --help.\n`);
    return 2;
  }
  if (opts.help) {
    stdout.write(HELP);
    return 0;
  }
  const quiet = opts.auto || opts.quiet;
  const say = (text) => !quiet && !opts.json && stdout.write(`record sync: ${text}\n`);
  let ix;
  try {
    ix = await openIndex({ file: opts.file, env, cwd });
  } catch (e) {
    if (!opts.auto) stderr.write(`record sync: ${e?.message ?? e}\n`);
    return 1;
  }
  let conn = null;
  let client = null;
  const fail = (text) => {
    noteTeamState(ix.path, { source: conn?.shown ?? null, lastFailure: now(), lastReason: text });
    if (!opts.auto) {
      if (opts.json) stdout.write(JSON.stringify({ ok: false, from: conn?.shown ?? null, error: text }) + "\n");
      stderr.write(`record sync: ${text}\n`);
    }
    return 1;
  };
  try {
    // This machine's own entries first, so an eid both hold is kept as its own.
    ix.catchUp();
    if (opts.forget) {
      const gone = forgetTeam(ix.db);
      noteTeamState(ix.path, { teamRows: 0, position: null, lastAdded: 0 });
      if (opts.json) stdout.write(JSON.stringify({ ok: true, forgotten: gone, index: ix.path }) + "\n");
      else say(`deleted ${gone} team row(s) from ${ix.path}`);
      return 0;
    }
    try {
      conn = connectionOf({ to: opts.from, env, flag: "--from" });
    } catch (e) {
      if (e instanceof ConnectionError) return fail(scrub(e.message, urlSecrets(argv)));
      throw e;
    }
    conn.config.application_name = "record sync";
    noteAttempt(ix.path, io.now ? io.now() : Date.now());
    const machine = machineOf({ explicit: opts.machine, env });
    const keys = opts["all-repos"] ? [ALL_REPOS] : ownKeys(ix.db, [repoOf(cwd).key]);
    try {
      client = await connect(conn, io.Client);
      const r = await pullTeam(client, ix.db, { machine: machine.id, keys, batch: opts.batch ? Number(opts.batch) : undefined });
      const total = teamRows(ix.db);
      const at = now();
      noteTeamState(ix.path, { source: conn.shown, lastSuccess: at, lastAdded: r.added, teamRows: total, position: r.position });
      const summary = { ok: true, from: conn.shown, machine: machine.id, index: ix.path, read: r.read, added: r.added, alreadyThere: r.skipped, teamRows: total, position: r.position, repos: keys };
      if (opts.json) stdout.write(JSON.stringify(summary) + "\n");
      else if (r.head === null) say(`nothing was exported to ${conn.shown} yet`);
      else say(`${r.added} team row(s) added from ${conn.shown} (${total} in the index; ${keys.includes(ALL_REPOS) ? "every repository" : `repositories: ${keys.join(", ") || "none known yet"}`})`);
      return 0;
    } catch (e) {
      return fail(`pull from ${conn.shown} failed: ${describeDbError(e, conn)}; what was not committed is pulled next time`);
    }
  } catch (e) {
    return fail(scrub(e?.message ?? String(e), conn?.secrets ?? []));
  } finally {
    await client?.end().catch(() => {});
    ix.close();
  }
}
