// One export run: every entry of a recordings file (then of its quarantine file) after the position the
// database holds for this machine and file family, copied in batches. Each batch is one transaction that locks
// the family's position row, reads on from the position, copies the rows and moves the position past them, so
// a run killed at any moment leaves rows and position agreeing, and concurrent runs take turns batch by batch.

import pg from "pg";
import { columnsOf } from "../columns.js";
import { RecordingsReader } from "../read/index.js";
import { copyRows, prepareStage, stageRow } from "./copy.js";
import { migrate } from "./schema.js";

export const DEFAULT_BATCH_ROWS = 5000;
export const DEFAULT_BATCH_BYTES = 8 << 20;
// Deadlock and serialization failures (two machines inserting the same eids in different orders): the
// batch is rolled back and read again from the stored position.
const RETRY_CODES = new Set(["40P01", "40001"]);
const RETRIES = 5;

export class ExportError extends Error {}

/** Opens a client whose connection errors reject the query in flight instead of crashing the process. */
export async function connect(conn, Client = pg.Client) {
  const client = new Client(conn.config);
  client.on("error", () => {});
  await client.connect();
  return client;
}

/**
 * Exports `file` (main and quarantine) through `client`. options: { file, env, cwd, machine: {id, host},
 * batchRows, batchBytes, onProgress({ family, entries, bytes }), now }. Returns { schema, families: { main,
 * quarantine }: { read, inserted, damaged, notes } }.
 */
export async function exportRecordings(client, options) {
  const enc = await client.query("SHOW server_encoding");
  if (enc.rows[0].server_encoding !== "UTF8") {
    throw new ExportError(`the database's encoding is ${enc.rows[0].server_encoding}; the lines need UTF8 (CREATE DATABASE ... ENCODING 'UTF8')`);
  }
  const schema = await migrate(client);
  await prepareStage(client);
  const families = {};
  for (const quarantine of [false, true]) families[quarantine ? "quarantine" : "main"] = await exportFamily(client, quarantine, options);
  return { schema, families };
}

async function exportFamily(client, quarantine, o) {
  const batchRows = o.batchRows ?? DEFAULT_BATCH_ROWS;
  const batchBytes = o.batchBytes ?? DEFAULT_BATCH_BYTES;
  const opened = () => new RecordingsReader({ file: o.file, env: o.env, cwd: o.cwd, now: o.now, quarantine, since: null });
  const file = opened().file;
  const key = [o.machine.id, file, quarantine];
  const out = { file, read: 0, inserted: 0, damaged: 0, notes: [] };
  let reader = null;
  let iter = null;
  let mine; // the position this process last committed (or found): a reader is kept across batches while it holds
  let retries = 0;
  const drop = (committed = true) => {
    if (reader && committed) {
      out.damaged += reader.damage.length;
      for (const n of reader.notes) if (!out.notes.includes(n)) out.notes.push(n);
    }
    iter?.return?.();
    reader = null;
    iter = null;
  };
  for (let done = false; !done; ) {
    await client.query("BEGIN");
    try {
      await client.query(`INSERT INTO recordings_positions (machine, file, quarantine) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, key);
      const at = (await client.query(`SELECT cursor FROM recordings_positions WHERE machine = $1 AND file = $2 AND quarantine = $3 FOR UPDATE`, key)).rows[0].cursor;
      if (reader === null || at !== mine) {
        drop();
        reader = readerAt(o, quarantine, at);
        iter = reader.records();
      }
      const rows = [];
      let bytes = 0;
      let last = null;
      while (rows.length < batchRows && bytes < batchBytes) {
        const n = iter.next();
        if (n.done) {
          done = true;
          break;
        }
        last = n.value;
        rows.push(stageRow(last, columnsOf(last.entry)));
        bytes += last.length;
      }
      const cursor = done ? reader.cursor : last.cursor;
      let inserted = 0;
      if (rows.length) inserted = await copyRows(client, rows, { quarantine, machine: o.machine.id, host: o.machine.host, file });
      if (cursor !== at) {
        await client.query(
          `UPDATE recordings_positions SET cursor = $4, entries = entries + $5, host = $6, updated_at = now() WHERE machine = $1 AND file = $2 AND quarantine = $3`,
          [...key, cursor, rows.length, o.machine.host],
        );
      }
      await client.query("COMMIT");
      mine = cursor;
      out.read += rows.length;
      out.inserted += inserted;
      retries = 0;
      if (rows.length) o.onProgress?.({ family: quarantine ? "quarantine" : "main", entries: out.read, bytes: reader.stats.bytes });
    } catch (e) {
      await client.query("ROLLBACK").catch(() => {});
      // What this process read past the stored position was not committed: read it again from there.
      drop(false);
      done = false;
      if (RETRY_CODES.has(e?.code) && ++retries <= RETRIES) continue;
      throw e;
    }
  }
  drop();
  return out;
}

function readerAt(o, quarantine, since) {
  try {
    return new RecordingsReader({ file: o.file, env: o.env, cwd: o.cwd, now: o.now, quarantine, since });
  } catch (e) {
    throw new ExportError(`the position stored for this machine and file is not usable (${e.message}); delete its row in recordings_positions to export the file again from its start`);
  }
}
