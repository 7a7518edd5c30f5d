// The SQLite driver recall runs on: the runtime's own, never a package. Bun (where opencode runs plugins) has
// bun:sqlite; Node has node:sqlite from 22.5. Both are built with FTS5. Node 20 has neither, and there recall
// says what it needs instead of failing some other way; recording never loads this module.

import { builtin } from "../builtins.js";

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

let loaded = null; // the driver module's open function, once loaded

// The driver is require()d: the `record` bundle runs as a script, where import() has no loader (and an ESM
// import of a built-in reads every export). node:sqlite announces itself as experimental on first load; that
// line on a CLI's or hook's stderr would only be noise (hook output is read by the host), so it is dropped.
function requireNodeSqlite() {
  const emit = process.emitWarning;
  process.emitWarning = function (warning, ...rest) {
    const text = typeof warning === "string" ? warning : warning?.message;
    if (typeof text === "string" && text.includes("SQLite is an experimental feature")) return;
    return emit.call(this, warning, ...rest);
  };
  try {
    return builtin("node:sqlite");
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
      const { Database } = builtin("bun:sqlite");
      loaded = (file) => wrap(new Database(file, { create: true }), "bun:sqlite");
    } else {
      const { DatabaseSync } = requireNodeSqlite();
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
      s = prepared(db.prepare(sql), driver);
      cache.set(sql, s);
    }
    return s;
  };
  return {
    driver,
    exec: (sql) => db.exec(sql),
    run: (sql, ...params) => stmt(sql).run(...params),
    get: (sql, ...params) => stmt(sql).get(...params),
    all: (sql, ...params) => stmt(sql).all(...params),
    close: () => db.close(),
  };
}

/** A statement whose rows are plain objects of one shape. node:sqlite makes each row a dictionary-mode object
 *  (no shape shared between rows), where every property read and write is a hash lookup: scoring a search's
 *  candidates on such rows took twice as long as on plain ones. Where it can return the values as arrays
 *  (`setReturnArrays`: Node 24, and the Node 22 releases that have it, such as 22.23) the rows are built here in
 *  column order, so they share one hidden class; bun:sqlite's rows already do. */
function prepared(s, driver) {
  if (driver !== "node:sqlite" || typeof s.setReturnArrays !== "function" || typeof s.columns !== "function") {
    return { run: (...p) => s.run(...p), get: (...p) => s.get(...p) ?? undefined, all: (...p) => s.all(...p) };
  }
  s.setReturnArrays(true);
  let names = null; // read on first use: a statement that only writes has no columns to name
  const row = (values) => {
    names ??= s.columns().map((c) => c.name);
    const o = {};
    for (let i = 0; i < names.length; i++) o[names[i]] = values[i];
    return o;
  };
  return {
    run: (...p) => s.run(...p),
    get: (...p) => {
      const values = s.get(...p);
      return values ? row(values) : undefined;
    },
    all: (...p) => s.all(...p).map(row),
  };
}
