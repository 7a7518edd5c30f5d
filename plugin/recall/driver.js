// The SQLite driver recall runs on: the runtime's own, never a package. Bun (where opencode runs plugins) has
// bun:sqlite; Node has node:sqlite from 22.5. Both are built with FTS5. Node 20 has neither, and there recall
// says what it needs instead of failing some other way; recording never loads this module.

/** The error recall reports when the runtime has no SQLite driver; `code` is "ENOSQLITE". */
export class RecallUnavailable extends Error {
  constructor(message) {
    super(message);
    this.name = "RecallUnavailable";
    this.code = "ENOSQLITE";
  }
}

/** What this runtime is, in words, for messages. */
export function runtimeName(versions = process.versions) {
  return versions.bun ? `Bun ${versions.bun}` : `Node ${versions.node}`;
}

/** Why recall cannot run here, or null when it can: Bun any version, Node 22.5 or later. */
export function missingDriver(versions = process.versions) {
  if (versions.bun) return null;
  const [major, minor] = String(versions.node).split(".").map(Number);
  if (major > 22 || (major === 22 && minor >= 5)) return null;
  return (
    `recall needs SQLite, which ${runtimeName(versions)} does not have: run it with Node 22.5 or later ` +
    `(node:sqlite) or Bun (bun:sqlite). Recording works as before.`
  );
}

let loaded = null; // the driver module's open function, once imported

// node:sqlite announces itself as experimental on first import; that line on a CLI's or hook's stderr would
// only be noise (hook output is read by the host), so that one warning is dropped while it is imported.
async function importNodeSqlite() {
  const emit = process.emitWarning;
  process.emitWarning = function (warning, ...rest) {
    const text = typeof warning === "string" ? warning : warning?.message;
    if (typeof text === "string" && text.includes("SQLite is an experimental feature")) return;
    return emit.call(this, warning, ...rest);
  };
  try {
    return await import("node:sqlite");
  } finally {
    process.emitWarning = emit;
  }
}

/** Loads the driver (once). Throws RecallUnavailable where there is none. */
export async function loadDriver(versions = process.versions) {
  if (loaded) return loaded;
  const missing = missingDriver(versions);
  if (missing) throw new RecallUnavailable(missing);
  try {
    if (versions.bun) {
      const { Database } = await import("bun:sqlite");
      loaded = (file) => wrap(new Database(file, { create: true }), "bun:sqlite");
    } else {
      const { DatabaseSync } = await importNodeSqlite();
      loaded = (file) => wrap(new DatabaseSync(file), "node:sqlite");
    }
  } catch (e) {
    throw new RecallUnavailable(`recall could not load SQLite in ${runtimeName(versions)}: ${e?.message ?? e}`);
  }
  return loaded;
}

/** One interface over both drivers: positional `?` parameters only, rows as plain objects. */
function wrap(db, driver) {
  const cache = new Map();
  const stmt = (sql) => {
    let s = cache.get(sql);
    if (!s) {
      s = db.prepare(sql);
      cache.set(sql, s);
    }
    return s;
  };
  return {
    driver,
    exec: (sql) => db.exec(sql),
    run: (sql, ...params) => stmt(sql).run(...params),
    get: (sql, ...params) => stmt(sql).get(...params) ?? undefined,
    all: (sql, ...params) => stmt(sql).all(...params),
    close: () => db.close(),
  };
}
