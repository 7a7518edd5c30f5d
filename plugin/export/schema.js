// The exported database's schema, as numbered migrations applied in order. `recordings_schema` holds the
// version reached; docs/export.md describes each version. A migration is never edited once released: a
// change is a new one, so every database reaches the same shape by the same steps.

import { COLUMNS } from "../columns.js";

const COMMON = COLUMNS.map((c) => `${c} text`).join(", ");
// Where a line came from: the machine, the file family read, the segment and byte offset at export time.
const ORIGIN = `machine text not null, host text, file text not null, segment text not null, "offset" bigint not null, exported_at timestamptz not null default now()`;

export const MIGRATIONS = [
  {
    version: 1,
    about: "recordings, recordings_quarantine, recordings_positions",
    sql: `
      CREATE TABLE recordings (id bigserial primary key, eid text unique, line text not null, entry jsonb, ${COMMON}, ${ORIGIN});
      CREATE TABLE recordings_quarantine (id bigserial primary key, eid text, reason text, line text not null, entry jsonb, ${COMMON}, ${ORIGIN});
      CREATE TABLE recordings_positions (machine text not null, file text not null, quarantine boolean not null,
        cursor text, entries bigint not null default 0, host text, updated_at timestamptz not null default now(),
        primary key (machine, file, quarantine));
      CREATE INDEX recordings_session_idx ON recordings (session);
      CREATE INDEX recordings_repo_idx ON recordings (repo);`,
  },
  {
    version: 2,
    about: "the time as timestamptz (at), filled in for rows already there; entry lookups by kind",
    sql: `
      CREATE FUNCTION recordings_time(t text) RETURNS timestamptz LANGUAGE plpgsql IMMUTABLE AS $$
        BEGIN
          IF t !~ '^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d(:\\d\\d(\\.\\d+)?)?(Z|[+-]\\d\\d:?\\d\\d)$' THEN RETURN NULL; END IF;
          RETURN t::timestamptz;
        EXCEPTION WHEN others THEN RETURN NULL;
        END $$;
      CREATE FUNCTION recordings_jsonb(t text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
        BEGIN RETURN t::jsonb; EXCEPTION WHEN others THEN RETURN NULL; END $$;
      ALTER TABLE recordings ADD COLUMN at timestamptz;
      ALTER TABLE recordings_quarantine ADD COLUMN at timestamptz;
      UPDATE recordings SET at = recordings_time(ts) WHERE ts IS NOT NULL;
      UPDATE recordings_quarantine SET at = recordings_time(ts) WHERE ts IS NOT NULL;
      CREATE INDEX recordings_repo_at_idx ON recordings (repo, at);
      CREATE INDEX recordings_kind_idx ON recordings (kind);`,
  },
  {
    version: 3,
    about: "the failure fingerprint (fp) of automatic failures, filled in from the rows' stored fp",
    sql: `
      ALTER TABLE recordings ADD COLUMN fp text;
      ALTER TABLE recordings_quarantine ADD COLUMN fp text;
      UPDATE recordings SET fp = entry->>'fp' WHERE entry ? 'fp' AND jsonb_typeof(entry->'fp') = 'string';
      CREATE INDEX recordings_fp_idx ON recordings (fp) WHERE fp IS NOT NULL;`,
  },
];

export const LATEST = MIGRATIONS[MIGRATIONS.length - 1].version;

// One advisory lock for all migrating exporters, so many machines starting at once on an empty database
// create the tables once.
const MIGRATION_LOCK = 0x7265636f7264; // "record"

export class SchemaError extends Error {}

/** The version the database is at (0: no schema yet). */
export async function schemaVersion(client) {
  const r = await client.query(`SELECT to_regclass('recordings_schema') IS NOT NULL AS present`);
  if (!r.rows[0].present) return 0;
  const v = await client.query(`SELECT max(version) AS v FROM recordings_schema`);
  return Number(v.rows[0].v ?? 0);
}

/**
 * Brings the schema to `to` (default the latest), one transaction per migration, under an advisory lock.
 * Returns { from, to, applied: [versions] }. Throws SchemaError for a database newer than this code.
 */
export async function migrate(client, { to = LATEST } = {}) {
  const applied = [];
  let from = null;
  for (;;) {
    await client.query("BEGIN");
    try {
      await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
      await client.query(`CREATE TABLE IF NOT EXISTS recordings_schema (version integer primary key, applied_at timestamptz not null default now(), about text)`);
      const at = await schemaVersion(client);
      from ??= at;
      if (at > LATEST) {
        throw new SchemaError(`the database's recordings schema is version ${at}, newer than this record knows (${LATEST}): update opencode-recordings`);
      }
      const next = MIGRATIONS.find((m) => m.version === at + 1);
      if (at >= to || !next) {
        await client.query("COMMIT");
        return { from, to: at, applied };
      }
      await client.query(next.sql);
      await client.query(`INSERT INTO recordings_schema (version, about) VALUES ($1, $2)`, [next.version, next.about]);
      await client.query("COMMIT");
      applied.push(next.version);
    } catch (e) {
      await client.query("ROLLBACK").catch(() => {});
      throw e;
    }
  }
}
