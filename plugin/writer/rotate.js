// Rotation: when an append would take a file past its size limit, exactly one writer renames it to an archive
// and seals the archive read-only, under a lock file; the others go on appending. docs/writer.md says why
// every step is as it is.

import { os } from "../builtins.js";
import { asideName, linkFile } from "../io.js";
import { archiveName, lockPath } from "../paths.js";
import { describeError } from "./errors.js";

/** A rotation lock this old is stale even if its holder looks alive (rotation takes well under 1 ms). */
export const DEFAULT_STALE_LOCK_MS = 10_000;

/** Whether two stats show the same file. */
function sameFile(a, b) {
  return a.ino === b.ino && a.dev === b.dev;
}

/** The lock's stat when it is stale, else null. Uses the real clock: lock ages are physical time, compared
 *  across processes, not the writer's clock. */
function lockIsStale(fs, lock, staleMs) {
  const nowMs = Date.now();
  let st;
  let text = "";
  try {
    st = fs.statSync(lock);
    text = fs.readFileSync(lock, "utf8");
  } catch {
    return null; // gone: not stale, just retry
  }
  let info = null;
  try {
    info = JSON.parse(text);
  } catch {
    info = null;
  }
  const born = info && Number.isFinite(info.t) ? info.t : st.mtimeMs;
  // An empty or unparsable lock is a holder that died between create and write (microseconds): give it 1 s.
  if (!info) return nowMs - st.mtimeMs > 1000 ? st : null;
  if (nowMs - born > staleMs) return st;
  if (info.host === os.hostname() && Number.isInteger(info.pid) && info.pid !== process.pid) {
    try {
      process.kill(info.pid, 0);
    } catch (e) {
      if (e && e.code === "ESRCH") return st;
    }
  }
  return null;
}

/** Takes the lock, or throws EEXIST. The lock appears with its content already in it (io.js linkFile), so a
 *  holder killed at any moment leaves a lock that names it, never an empty one. Where hard links are not
 *  supported, it is created with O_EXCL and filled (an empty lock is stale after 1 s). */
function acquireLock(fs, lock) {
  const content = JSON.stringify({ pid: process.pid, host: os.hostname(), t: Date.now() });
  if (linkFile(fs, lock, content, { tag: "lock" })) return;
  const fd = fs.openSync(lock, "wx", 0o600);
  try {
    fs.writeSync(fd, content);
  } finally {
    fs.closeSync(fd);
  }
}

/** Moves a stale lock aside and removes it; if what we moved was not the lock we judged stale (a new holder
 *  took it meanwhile), puts it back. */
function breakLock(fs, lock, staleStat) {
  const aside = asideName(lock, "stale");
  try {
    fs.renameSync(lock, aside);
  } catch {
    return;
  }
  try {
    const st = fs.statSync(aside);
    if (!sameFile(st, staleStat)) {
      try {
        fs.linkSync(aside, lock);
      } catch {
        // someone else holds a newer lock already
      }
    }
  } catch {
    // fall through to cleanup
  }
  try {
    fs.unlinkSync(aside);
  } catch {
    // nothing more to do
  }
}

/** Takes the lock, breaking a stale one once. Returns null when held, else "busy" or an error string. */
function takeLock(fs, lock, staleMs) {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      acquireLock(fs, lock);
      return null;
    } catch (e) {
      if (e.code !== "EEXIST") return describeError(e);
      const stale = lockIsStale(fs, lock, staleMs);
      if (!stale) return "busy";
      breakLock(fs, lock, stale);
    }
  }
  return "busy";
}

/** Tries to rotate `file`, which we measured as `measured` (fstat of our fd). Returns "rotated", "busy"
 *  (someone else holds the lock or already rotated), or an error string. */
export function tryRotate(fs, file, measured, maxBytes, lineBytes, nowMs, staleMs) {
  const lock = lockPath(file);
  const refused = takeLock(fs, lock, staleMs);
  if (refused !== null) return refused;
  try {
    let cur;
    try {
      cur = fs.lstatSync(file);
    } catch (e) {
      return e.code === "ENOENT" ? "busy" : describeError(e);
    }
    // Rotate only the file we measured, and only if it is still too large: a writer that raced another
    // rotator sees a different inode here and leaves the fresh file alone.
    if (!sameFile(cur, measured) || !cur.isFile() || cur.size === 0 || cur.size + lineBytes <= maxBytes) return "busy";
    let archive = archiveName(file, nowMs);
    for (let n = 1; exists(fs, archive); n++) archive = archiveName(file, nowMs, n);
    fs.renameSync(file, archive);
    // Seal the archive read-only: writers in other processes that keep a descriptor of it see the mode change
    // with their next fstat and reopen the path. Best effort: without it they notice the rename by their next
    // path check.
    try {
      fs.chmodSync(archive, cur.mode & 0o7555);
    } catch {
      // not ours to chmod (another owner): the path check covers it
    }
    return "rotated";
  } catch (e) {
    return describeError(e);
  } finally {
    try {
      fs.unlinkSync(lock);
    } catch {
      // a breaker removed it; harmless
    }
  }
}

function exists(fs, p) {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}
