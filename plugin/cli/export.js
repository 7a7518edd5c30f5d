// `record export [--to URL]`: copies every entry not yet exported into PostgreSQL (plugin/export/). Exit 0 when
// everything read was exported, 1 when the export failed (nothing half-done stays: the next run resumes), 2 for
// a usage error. Every message shows the connection with its password redacted.

import { ConnectionError, connectionOf, describeDbError, scrub, urlSecrets } from "../export/connection.js";
import { ExportError, connect, exportRecordings } from "../export/run.js";
import { SchemaError } from "../export/schema.js";
import { machineOf } from "../export/machine.js";
import { noteExport } from "../export/status.js";
import { resolveTarget } from "../paths.js";
import { UsageError, parseArgs } from "./args.js";

export const HELP = `record export - copy recordings into a PostgreSQL database, each entry exactly once

Usage: record export [OPTIONS]

Copies every entry not exported yet, in append order, into the table "recordings" (quarantined lines into
"recordings_quarantine"), creating or migrating the schema first. Where this machine stopped is kept in the
database, in the same transaction as the rows, so a run killed at any moment loses and repeats nothing, a
rerun copies only what is new, and many machines and processes can export into one database at once.

Options:
  --to URL           postgres://USER:PASSWORD@HOST:PORT/DB (default: env AI_RECORDINGS_EXPORT_URL, else the
                     PG* variables: PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE)
  --file PATH        the recordings file (default: env AI_RECORDINGS_FILE, else ~/git/ai_recordings.jsonl)
  --machine NAME     this machine's name in the database (default: env AI_RECORDINGS_MACHINE, else an id
                     made once and kept in the state directory)
  --batch N          entries per transaction (default 5000)
  --json             print the outcome as one JSON object
  --quiet            no progress or summary; errors only
  --after-session    as started after a session ends: nothing on the terminal, the outcome in the status record
  -h, --help         show this help

Schema and cron / systemd timer lines: docs/export.md.
`;

const OPTIONS = {
  "--to": { key: "to" },
  "--file": { key: "file" },
  "--machine": { key: "machine" },
  "--batch": { key: "batch" },
  "--json": { key: "json", flag: true },
  "--quiet": { key: "quiet", flag: true },
  "--after-session": { key: "after-session", flag: true },
  "--help": { key: "help", flag: true },
  "-h": { key: "help", flag: true },
};

/** The options of a database command (`spec`: export's or sync's); a --batch must be a positive number. */
export function dbOptions(argv, spec = OPTIONS) {
  const p = parseArgs(argv, spec, "command");
  if (p.positional.length) throw new UsageError(`unexpected argument "${p.positional[0]}"`);
  const out = p.values;
  if (out.batch !== undefined && !/^[1-9]\d*$/.test(out.batch)) throw new UsageError(`--batch needs a positive whole number, not "${out.batch}"`);
  return out;
}

/** `record export ARGS`: resolves to the exit status. io: { stdout, stderr, env, cwd, now, Client }. */
export async function exportCmd(argv, io = {}) {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const env = io.env ?? process.env;
  const cwd = io.cwd ?? process.cwd();
  let opts;
  try {
    opts = dbOptions(argv);
  } catch (e) {
    stderr.write(`record export: ${scrub(e.message, urlSecrets(argv))}. See record export --help.\n`);
    return 2;
  }
  if (opts.help) {
    stdout.write(HELP);
    return 0;
  }
  const after = Boolean(opts["after-session"]);
  const quiet = after || opts.quiet;
  const target = resolveTarget({ file: opts.file, env, cwd }).file;
  let conn = null;
  const fail = (text) => {
    noteExport(target, false, text, { env });
    if (!after) {
      if (opts.json) stdout.write(JSON.stringify({ ok: false, file: target, to: conn?.shown ?? null, error: text }) + "\n");
      stderr.write(`record export: ${text}\n`);
    }
    return 1;
  };
  try {
    conn = connectionOf({ to: opts.to, env });
  } catch (e) {
    if (e instanceof ConnectionError) return fail(scrub(e.message, urlSecrets(argv)));
    throw e;
  }
  const machine = machineOf({ explicit: opts.machine, env });
  if (machine.note && !quiet) stderr.write(`record export: note: ${machine.note}\n`);
  const progress = !quiet && !opts.json && (io.progress ?? Boolean(stderr.isTTY));
  let shownAt = 0;
  const onProgress = progress
    ? ({ family, entries, bytes }) => {
        const t = Date.now();
        if (t - shownAt < 200) return;
        shownAt = t;
        stderr.write(`\rrecord export: ${family}: ${entries} entries (${(bytes / 1048576).toFixed(1)} MiB read)`);
      }
    : undefined;
  let client;
  try {
    client = await connect(conn, io.Client);
    const r = await exportRecordings(client, {
      file: target,
      env,
      cwd,
      now: io.now,
      machine,
      batchRows: opts.batch ? Number(opts.batch) : undefined,
      onProgress,
    });
    if (shownAt) stderr.write("\n");
    noteExport(target, true, null, { env });
    const { main, quarantine } = r.families;
    const summary = {
      ok: true,
      file: target,
      to: conn.shown,
      machine: machine.id,
      schema: r.schema.to,
      migrated: r.schema.applied,
      entries: main.read,
      quarantined: quarantine.read,
      alreadyThere: main.read - main.inserted,
      damaged: main.damaged + quarantine.damaged,
      notes: [...main.notes, ...quarantine.notes],
    };
    if (opts.json) stdout.write(JSON.stringify(summary) + "\n");
    else if (!quiet) {
      const dup = summary.alreadyThere ? ` (${summary.alreadyThere} whose eid the database already held were skipped)` : "";
      const mig = summary.migrated.length ? `; schema migrated to version ${summary.schema}` : "";
      stdout.write(`record export: ${summary.entries} new entries and ${summary.quarantined} quarantined lines exported from ${target} to ${conn.shown} as machine ${machine.id}${dup}${mig}\n`);
      if (summary.damaged) stderr.write(`record export: ${summary.damaged} damaged line(s) were skipped (record read lists them)\n`);
      for (const n of summary.notes) stderr.write(`record export: note: ${n}\n`);
    }
    return 0;
  } catch (e) {
    if (shownAt) stderr.write("\n");
    const known = e instanceof ExportError || e instanceof SchemaError;
    const why = known ? scrub(e.message, conn.secrets) : describeDbError(e, conn);
    return fail(`export to ${conn.shown} failed: ${why}; nothing half-done was kept, the next run resumes`);
  } finally {
    await client?.end().catch(() => {});
  }
}
