// Opening the recall index of a recordings file: where it lives (plugin/paths.js indexPath), with which driver
// (driver.js), in which shape (schema.js). The index is private to the user like the recordings themselves.

import { fs as nodeFs, path } from "../builtins.js";
import { indexPath, resolveTarget } from "../paths.js";
import { loadDriver } from "./driver.js";
import { prepare } from "./schema.js";
import { catchUp } from "./build.js";

/** Whether SQLite's error `e` says the file is not a readable database (SQLITE_NOTADB, SQLITE_CORRUPT): an index
 *  that is replaced rather than reported. */
export function isUnreadable(e) {
  return /not a database|malformed/i.test(e?.message ?? "");
}

/** Removes the index at `where` with its WAL and shared-memory files. */
function removeIndex(where) {
  for (const suffix of ["", "-wal", "-shm"]) nodeFs.rmSync(where + suffix, { force: true });
}

/** How much of the index is read through a memory map (address space, not memory: pages stay in the OS's
 *  cache, shared by every process reading the index). */
const MMAP_BYTES = 1024 * 1024 * 1024;

/**
 * Opens (creating when needed) the index of the recordings file that `options` resolve to ({file, env, cwd}
 * as for the recorder; `held`: the index is kept open for many searches). Throws RecallUnavailable where the
 * runtime has no SQLite. An index of another schema version, or a file SQLite cannot read, is removed and made
 * again: it holds nothing the files do not (and for that reason it is written without fsync: schema.js prepare).
 */
export async function openIndex(options = {}) {
  const open = await loadDriver();
  const file = resolveTarget(options).file;
  const where = options.indexPath ?? indexPath(file, options);
  nodeFs.mkdirSync(path.dirname(where), { recursive: true, mode: 0o700 });
  let db = null;
  for (let attempt = 0; ; attempt++) {
    let unusable = false;
    try {
      nodeFs.closeSync(nodeFs.openSync(where, "a", 0o600));
      db = open(where);
      if (prepare(db)) break;
      unusable = true;
    } catch (e) {
      // Only a file that is not an index of ours is replaced; a busy or unwritable one is the caller's error.
      unusable = isUnreadable(e);
      if (!unusable || attempt > 0) throw e;
    }
    try {
      db?.close();
    } catch {}
    db = null;
    if (!unusable || attempt > 0) throw new Error(`the recall index ${where} cannot be used`);
    removeIndex(where);
  }
  // A search looks up the entries its words match at random places in a file much larger than SQLite's page
  // cache: mapped, those reads are memory reads from the OS's cache rather than a system call each. Only where
  // the index is held for many searches: a process that makes one pays for the mapping what it saves.
  if (options.held) db.exec(`PRAGMA mmap_size = ${MMAP_BYTES}`);
  return {
    db,
    file,
    path: where,
    catchUp: (o = {}) => catchUp(db, file, { env: options.env, cwd: options.cwd, ...o }),
    close: () => db.close(),
    /** Closes and removes the index: it is made again from the files when next opened. */
    discard: () => {
      try {
        db.close();
      } catch {}
      removeIndex(where);
    },
  };
}
