// The append-only writer: puts one complete line at the end of a JSONL file, rotates by size, never throws.
//
// Concurrency contract
// --------------------
// * Any number of processes and threads may append to the same file at the same time (opencode sessions,
//   subagents, shell calls to `record`). An append writes through an O_APPEND descriptor, optionally
//   fdatasyncs, and either closes the descriptor or keeps it for the next append (below).
// * Kept descriptors: during a burst (this process appended to the same file less than KEEP_OPEN_MS = 1 s
//   before), the descriptor of a regular file stays open after the append, at most MAX_KEPT = 8 of them (least
//   recently used closed first), each closed after 1 s without an append (an unref'd timer), after any error,
//   and at exit (O_CLOEXEC: never inherited by children). A lone append (the CLI, a hook now and then) opens
//   and closes as before and holds nothing after it returns. A kept descriptor is checked (validKept) in one
//   of three ways before it is used:
//     - within VERIFY_MS = 10 ms of its last check, and while the lines appended since stay under
//       PENDING_MAX_BYTES = 64 KiB, by nothing but reads: one pread from where our last append left the end
//       returns what others appended since, so it gives the size (for rotation) and the last byte (the torn-tail
//       check), and after the write one pread of the span shows whether our line follows a fragment. No stat:
//       on Linux 6.13+ any stat of the file makes its next write update the timestamps (journalled on ext4)
//       while holding the inode lock every writer waits for; with an fstat before and after every append,
//       2–8 processes appended at up to 2.2× the time per line of bare appends, without them at up to 1.8×
//       (BENCHMARKS.md). Until the next check, a file deleted, rotated away, chmod'ed or chown'ed
//       meanwhile still gets these lines: the lines appended since the last check are held (by reference), and
//       if the check finds the file deleted (no link) they are written again to the path, before anything
//       else; a rotated file keeps them complete in its archive, where readers find them. The check also runs
//       when the descriptor is closed (the idle timer, closeKept(), process exit), so only a process killed
//       within 10 ms of a deletion can lose the lines it appended in those 10 ms. Lines held when the check
//       runs may have reached the file before it was deleted: they are written again all the same (the writer
//       cannot tell), so a deleted file can come back with up to 10 ms of its last lines;
//     - otherwise fstat(2) of the descriptor (no path lookup): the file must still have a link, the same type,
//       mode and owner, and our rotation seals every archive it makes read-only, so a descriptor of a file
//       another process rotated away fails this check; with the fstat after the write (deleted underneath?
//       the size, for the span check) it makes the descriptor checked for the next VERIFY_MS;
//     - an lstat(2) of the path, which must show the very (dev, inode) the descriptor was opened on, as well
//       when the file's ctime moved since our last fstat while its size did not (a rename, link or attribute
//       change, not another writer's append), and instead at least every PATH_CHECK_MS = 100 ms.
//   A check that fails closes the descriptor and opens the path afresh (O_NOFOLLOW, same flags and modes), so a
//   file deleted, rotated away, replaced, replaced by a symlink (ELOOP), chmod'ed or chown'ed is noticed as a
//   fresh open would notice it. The other gap: a rename by something other than our rotation (`mv`) while
//   other processes are appending too, or on a kernel whose timestamps are too coarse to show it (Linux before
//   6.13, other filesystems), is seen only by the next path check: for up to PATH_CHECK_MS lines may still go
//   to the renamed file (complete, not lost, but not at the path the status names). The inode cannot have been
//   reused meanwhile: our open descriptor keeps it allocated. An error on a kept descriptor before any byte was
//   written closes it and retries once with a fresh open, so faults give the statuses a fresh open gives.
//   The cost of keeping: while a descriptor is open its filesystem cannot be remounted read-only or
//   unmounted (EBUSY; `umount -l` works); that lasts at most ~1 s after the last append of a burst, and
//   `closeKept()` releases everything at once.
// * Each entry is ONE write(2) of ONE complete line ending in "\n" on an O_APPEND descriptor. On a local Linux
//   or macOS filesystem the kernel moves the offset to the end and copies the bytes under the inode lock, so
//   lines from different writers never interleave, whatever their size (PIPE_BUF, 4 KiB, only bounds pipes:
//   https://pubs.opengroup.org/onlinepubs/9799919799/functions/write.html). NFS and other network
//   filesystems do not give this guarantee; do not share a recordings file over them.
// * A write can still come out short: a full disk, a quota, or a process killed while the kernel copies a large
//   line (Linux checks for fatal signals between pages). A short write is continued from where it stopped; when
//   that fails the line is ended with "\n" if possible and the append reports failure. Before every append the
//   writer reads the file's last byte and, if it is not "\n" (a torn line left by a crash), starts with "\n",
//   so a torn fragment stays on a line of its own and never glues two entries together. Reading the last byte
//   can race with another writer's copy in progress (the size grows page by page), so a missing "\n" is only
//   believed once an empty write (which waits for a copy in progress to finish) and ~16 ms more show the size
//   staying put (endsClean); a blank line may still appear, rarely, when two writers both close the same torn
//   tail, or where a copy in progress is not waited for and stalls longer than that. Readers skip blank lines.
//   The check and the write are not atomic: a writer killed mid-copy between them leaves a fragment that our
//   line then follows directly. So after writing, if the file grew by more than our line (others appended
//   meanwhile), the writer finds its line in that span and, if the byte before it is not "\n", writes the line
//   again on a fresh line. The glued copy stays behind the fragment as one damaged line (files are never
//   edited); the entry itself is whole on the next line. With a single writer this costs nothing.
// * Rotation: when an append would take a non-empty file past `maxBytes`, the writer tries to take the lock
//   file `<file>.lock` (hard-linked into place with its content, so it is never seen empty; it holds pid,
//   host and time). The holder checks, with lstat, that `<file>` is still the very inode that was measured
//   and still too large, renames it to the archive
//   `<stem>.<UTC yyyymmddThhmmssmmmZ>[.<n>].jsonl` (never replacing an existing archive), seals the archive
//   read-only (chmod a-w; descriptors already open can still write, which is the race below), and removes the
//   lock; it then closes its descriptor of the renamed file and opens the new one. Other processes notice the
//   rotation by the checks above (the seal changes the mode; the path names a new inode, or nothing yet).
//   Exactly one writer rotates a given file. Writers that find the lock taken do not wait: they append to the
//   file they opened. An append racing with the rename may therefore land in the archive just after it was
//   renamed; it is a complete line there and readers find it, because a reader reads all segments
//   (`segments()` below: archives in rotation order, then the live file). Archives are never edited or
//   deleted (the seal changes only their mode). A lock left by a crashed holder is stale when its pid is dead on
//   this host or it is older than `staleLockMs`; it is broken by renaming it aside (so two breakers cannot both
//   win) and rotation continues.
//   If rotation fails for any reason the entry is still appended to the old file (a warning says why).
// * Durability: by default each append is followed by fdatasync(2) (about 0.2 ms on the ext4 disk where it
//   was measured, see BENCHMARKS.md); `sync: false` or env AI_RECORDINGS_SYNC=0 turns it off, leaving the
//   line in the page cache (safe against process crashes, not against power loss).
// * The final path component is opened with O_NOFOLLOW: a target replaced by a symlink is refused (ELOOP),
//   never followed. New files get mode 0600, new parent directories 0700.
// * Never throws: every failure comes back as { ok: false, reason: "<CODE>: <plain words>" } and is noted in
//   a small status record (see `statusPath`), itself written best-effort.

import { closeQuietly, fs as nodeFs, os, path } from "./builtins.js";
import { archiveName, listSegments, lockPath, quarantinePath } from "./paths.js";
import { envOf, settingsOf } from "./settings.js";
import { readFully, replaceFile, writeFully } from "./io.js";

export { quarantinePath };

/** Default rotation threshold: 16 MiB (issue 5: a "sensible default"; large enough that a year of notes
 *  fits in a handful of segments, small enough for any editor or `jq` to open one). */
export const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

/** A rotation lock this old is stale even if its holder looks alive (rotation takes well under 1 ms). */
export const DEFAULT_STALE_LOCK_MS = 10_000;

/** How often a healthy process refreshes `lastSuccess` in the status record (failures are always noted). */
const STATUS_SUCCESS_EVERY_MS = 60_000;

const C = nodeFs.constants;
// O_RDWR, not O_WRONLY: the torn-tail check reads the last byte through the same descriptor. A file we may
// write but not read falls back to O_WRONLY without that check.
const OPEN_FLAGS = C.O_APPEND | C.O_CREAT | (C.O_NOFOLLOW ?? 0) | (C.O_CLOEXEC ?? 0) | (C.O_NONBLOCK ?? 0);

const PLAIN = {
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "read-only filesystem",
  ENOSPC: "no space left on device",
  EDQUOT: "disk quota exceeded",
  EISDIR: "target is a directory",
  ENOTDIR: "a parent of the target is not a directory",
  ELOOP: "target is a symlink (not followed; point at the real file)",
  ENOENT: "no such file or directory",
  EIO: "input/output error",
  EFBIG: "file too large",
  ENXIO: "no reader on the other end (FIFO or device)",
  EAGAIN: "target would block",
  ENAMETOOLONG: "path too long",
  EMFILE: "too many open files",
  ENFILE: "too many open files in system",
  EBADF: "bad file descriptor",
  ESTALE: "stale file handle",
  SHORT: "short write",
};

/** "<CODE>: <plain words>" for an error thrown by node:fs (or anything else). */
export function describeError(err) {
  const code = (err && typeof err.code === "string" && err.code) || "EUNKNOWN";
  const words = PLAIN[code] || String((err && err.message) || err).replace(/^[A-Z]+: /, "").split(",")[0];
  return `${code}: ${words}`;
}

function maxBytesFrom(options) {
  const v = options.maxBytes;
  const n = typeof v === "number" ? v : Number.parseInt(String(v ?? ""), 10);
  if (Number.isFinite(n) && n > 0) return n;
  return settingsOf(envOf(options)).maxBytes ?? DEFAULT_MAX_BYTES;
}

function syncFrom(options) {
  if (typeof options.sync === "boolean") return options.sync;
  return settingsOf(envOf(options)).sync ?? true;
}

/** The segment paths of a recordings file, oldest first: archives in rotation order, then the live file. */
export function segments(file, { fs = nodeFs } = {}) {
  return listSegments(file, { fs }).map((s) => s.path);
}

// ---------------------------------------------------------------------------------------------------------
// Status record

/** Where the status record lives: option, else $XDG_STATE_HOME/opencode-recordings/status.json, else
 *  ~/.local/state/opencode-recordings/status.json. When that cannot be written, the tmpdir fallback
 *  <tmpdir>/opencode-recordings-<uid>/status.json is used. */
export function statusPath(options = {}) {
  if (typeof options.statusFile === "string") return options.statusFile;
  const env = envOf(options);
  if (env === statusFor.env) return statusFor.path;
  const base = env.XDG_STATE_HOME || path.join(env.HOME || os.homedir(), ".local", "state");
  const p = path.join(base, "opencode-recordings", "status.json");
  // Remembered for the process's frozen snapshot of process.env (paths.js envOf), which cannot change.
  if (Object.isFrozen(env)) statusFor = { env, path: p };
  return p;
}

let statusFor = { env: null, path: "" };

function fallbackStatusPath() {
  let uid = "user";
  try {
    uid = String(process.getuid?.() ?? os.userInfo().username);
  } catch {
    // keep "user"
  }
  return path.join(os.tmpdir(), `opencode-recordings-${uid}`, "status.json");
}

const lastStatusWrite = new Map(); // status path → target → ms of our last success note

/** Reads the status record ({ targets: { <file>: { lastSuccess, lastFailure, lastReason, misses } } }).
 *  Returns null when absent or unreadable. Never throws. */
export function readStatus(options = {}) {
  const fs = options.fs ?? nodeFs;
  for (const p of [statusPath(options), fallbackStatusPath()]) {
    try {
      return { path: p, ...JSON.parse(fs.readFileSync(p, "utf8")) };
    } catch {
      // try the next place
    }
  }
  return null;
}

function writeStatusAt(fs, p, target, ok, reason, nowMs) {
  let doc = {};
  try {
    doc = JSON.parse(fs.readFileSync(p, "utf8"));
    if (!doc || typeof doc !== "object" || Array.isArray(doc)) doc = {};
  } catch {
    doc = {};
  }
  if (!doc.targets || typeof doc.targets !== "object") doc.targets = {};
  const t = doc.targets[target] ?? { misses: 0 };
  const when = new Date(nowMs).toISOString();
  if (ok) {
    t.lastSuccess = when;
  } else {
    t.lastFailure = when;
    t.lastReason = reason;
    t.misses = (Number(t.misses) || 0) + 1;
  }
  doc.targets[target] = t;
  doc.updated = when;
  makeDirs(fs, path.dirname(p));
  // Aside and renamed over, so a concurrent reader never sees half a record. Concurrent writers may lose
  // each other's increments of `misses`: it is a hint for finding gaps, not an exact count.
  replaceFile(fs, p, JSON.stringify(doc, null, 1) + "\n");
}

function recentSuccessOnRecord(fs, p, target, nowMs) {
  try {
    const t = JSON.parse(fs.readFileSync(p, "utf8")).targets[target];
    const ok = Date.parse(t.lastSuccess);
    const bad = t.lastFailure ? Date.parse(t.lastFailure) : -Infinity;
    return nowMs - ok < STATUS_SUCCESS_EVERY_MS && ok >= bad && ok <= nowMs;
  } catch {
    return false;
  }
}

/** Notes a success or failure for `target` in the status record. Successes are noted at most once a minute
 *  per process (and always right after a failure), so the record costs nothing on the hot path. */
export function noteStatus(target, ok, reason, options = {}) {
  if (options.statusFile === false) return;
  const fs = options.fs ?? nodeFs;
  const nowMs = (options.now ?? Date.now)();
  const p = statusPath(options);
  let notes = lastStatusWrite.get(p);
  if (notes === undefined) {
    if (lastStatusWrite.size >= 64) lastStatusWrite.clear();
    notes = new Map();
    lastStatusWrite.set(p, notes);
  }
  if (ok) {
    const last = notes.get(target);
    if (last !== undefined && nowMs - last < STATUS_SUCCESS_EVERY_MS) return;
    if (last === undefined && recentSuccessOnRecord(fs, p, target, nowMs)) {
      // Another process (e.g. the previous `record` run) noted a success moments ago: a read, not a rewrite.
      notes.set(target, nowMs);
      return;
    }
  }
  for (const where of [p, fallbackStatusPath()]) {
    try {
      writeStatusAt(fs, where, target, ok, reason, nowMs);
      if (ok) notes.set(target, nowMs);
      else notes.delete(target);
      return;
    } catch {
      // try the fallback, then give up silently: the status record must never break recording
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Rotation

function sameFile(a, b) {
  return a.ino === b.ino && a.dev === b.dev;
}

/** Whether the lock is stale. Uses the real clock (lock ages are physical time, not the `now` seam). */
function lockIsStale(fs, lockPath, staleMs) {
  const nowMs = Date.now();
  let st;
  let text = "";
  try {
    st = fs.statSync(lockPath);
    text = fs.readFileSync(lockPath, "utf8");
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

/** Takes the lock, or throws EEXIST. The lock appears with its content already in it (written aside, then
 *  hard-linked into place), so a holder killed at any moment leaves a lock that names it, never an empty one.
 *  Where hard links are not supported, it is created with O_EXCL and filled (an empty lock is stale after 1 s). */
function acquireLock(fs, lockPath) {
  const content = JSON.stringify({ pid: process.pid, host: os.hostname(), t: Date.now() });
  const aside = `${lockPath}.${process.pid}.${Math.random().toString(36).slice(2, 8)}`;
  let linked = false;
  try {
    fs.writeFileSync(aside, content, { mode: 0o600, flag: "wx" });
    try {
      fs.linkSync(aside, lockPath);
      linked = true;
    } catch (e) {
      if (e.code === "EEXIST") throw e;
    } finally {
      try {
        fs.unlinkSync(aside);
      } catch {
        // litter at worst
      }
    }
  } catch (e) {
    if (e.code === "EEXIST") throw e;
  }
  if (linked) return;
  const fd = fs.openSync(lockPath, "wx", 0o600);
  try {
    fs.writeSync(fd, content);
  } finally {
    fs.closeSync(fd);
  }
}

/** Moves a stale lock aside and removes it; if what we moved was not the lock we judged stale (a new holder
 *  took it meanwhile), puts it back. */
function breakLock(fs, lockPath, staleStat) {
  const aside = `${lockPath}.stale.${process.pid}.${Math.random().toString(36).slice(2, 8)}`;
  try {
    fs.renameSync(lockPath, aside);
  } catch {
    return;
  }
  try {
    const st = fs.statSync(aside);
    if (!sameFile(st, staleStat)) {
      try {
        fs.linkSync(aside, lockPath);
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

/** Tries to rotate `file`, which we measured as `measured` (fstat of our fd). Returns "rotated", "busy"
 *  (someone else holds the lock or already rotated), or an error string. */
function tryRotate(fs, file, measured, maxBytes, lineBytes, nowMs, staleMs) {
  const lock = lockPath(file);
  let held = false;
  for (let attempt = 0; attempt < 2 && !held; attempt++) {
    try {
      acquireLock(fs, lock);
      held = true;
    } catch (e) {
      if (e.code !== "EEXIST") return describeError(e);
      const stale = lockIsStale(fs, lock, staleMs);
      if (!stale) return "busy";
      breakLock(fs, lock, stale);
    }
  }
  if (!held) return "busy";
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
    // with their next fstat and reopen the path (see validKept). Best effort: without it they notice the rename
    // by their next path check, within PATH_CHECK_MS.
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

// ---------------------------------------------------------------------------------------------------------
// Append

/** mkdir -p with mode 0700 on every directory it creates (Bun's recursive mkdirSync applies the mode only to
 *  the last one). Directories that exist are left as they are. */
export function makeDirs(fs, dir) {
  const missing = [];
  let cur = path.resolve(dir);
  for (;;) {
    try {
      fs.statSync(cur);
      break;
    } catch (e) {
      if (e.code !== "ENOENT") throw e;
      missing.push(cur);
      const up = path.dirname(cur);
      if (up === cur) break;
      cur = up;
    }
  }
  for (const d of missing.reverse()) {
    try {
      fs.mkdirSync(d, { mode: 0o700 });
    } catch (e) {
      if (e.code !== "EEXIST") throw e; // another writer made it first
    }
  }
}

/** Opens for appending; returns { fd, readable }. */
function openTarget(fs, file) {
  for (let tries = 0; ; tries++) {
    try {
      return { fd: fs.openSync(file, OPEN_FLAGS | C.O_RDWR, 0o600), readable: true };
    } catch (e) {
      if (e.code === "EACCES") return { fd: fs.openSync(file, OPEN_FLAGS | C.O_WRONLY, 0o600), readable: false };
      if (e.code !== "ENOENT" || tries > 0) throw e;
    }
    // The parent directory is missing (ENOENT on open with O_CREAT): create it, private.
    makeDirs(fs, path.dirname(file));
  }
}

const NL = new Uint8Array([0x0a]);

/** Whether our line, written somewhere in [from, to) while others were appending too, follows a byte that is not
 *  "\n" (it was glued to a torn fragment). Only runs when the file grew by more than our line, i.e. under
 *  concurrent appends; reads just that span (capped: past it, the check is skipped). */
function gluedOnto(fs, fd, from, to, line) {
  const start = from > 0 ? from - 1 : 0;
  const span = to - start;
  if (span > 64 * 1024 * 1024) return false;
  // Under concurrent appends this runs on most appends: one scratch buffer, grown as needed, instead of a new
  // allocation each time (spans above 1 MiB get their own and are not kept).
  if (scratch.length < span) {
    if (span > 1024 * 1024) return gluedIn(fs, fd, start, Buffer.allocUnsafe(span), line);
    scratch = Buffer.allocUnsafe(Math.max(span, 2 * scratch.length));
  }
  return gluedIn(fs, fd, start, scratch.subarray(0, span), line);
}

let scratch = Buffer.allocUnsafe(16 * 1024);

function gluedIn(fs, fd, start, region, line) {
  const span = region.length;
  const got = readFully(fs, fd, region, 0, span, start);
  return followsFragment(region.subarray(0, got), line);
}

/** Whether `line`, looked for in `region` (bytes read back from the file), follows a byte that is not "\n": it
 *  was glued to another writer's fragment. Not found (cannot happen for a line carrying a unique eid), or at the
 *  region's start: nothing to repair. */
function followsFragment(region, line) {
  const at = region.indexOf(line);
  return at > 0 && region[at - 1] !== 0x0a;
}

/** Writes `data` (`size` bytes) again after our copy landed right behind another writer's fragment: on a fresh
 *  line unless the file now ends clean. Returns the bytes written. */
function writeAgain(fs, fd, data, size, warnings) {
  const clean = endsClean(fs, fd, fs.fstatSync(fd).size);
  writeFully(fs, fd, clean ? data : afterNewline(data), clean ? size : size + 1);
  warnings.push("another writer's torn line ended just before ours; wrote the line again on a fresh line");
  return clean ? size : size + 1;
}

/** `data` (string or bytes) on a fresh line: "\n" first. */
function afterNewline(data) {
  return typeof data === "string" ? "\n" + data : Buffer.concat([NL, data]);
}

const ONE = new Int32Array(new SharedArrayBuffer(4));
const LAST_BYTE = Buffer.alloc(1);
const NOTHING = Buffer.alloc(0);

/** Whether the file ends in "\n" (or is empty). A read does not wait for another process's write in progress:
 *  the size can already cover part of a line whose copy is still running (Linux grows i_size page by page, so a
 *  1 KiB line that crosses a page boundary is briefly half there, and its writer may be preempted mid-copy).
 *  Under concurrent appends that, not a torn line, is the usual reason for a missing "\n". So first an empty
 *  write(2): on ext4 it takes the inode lock that a copy in progress holds, the lock that keeps appended lines
 *  whole, so it returns once that copy is done (measured here: it waited out a 400 MiB write;
 *  tests/js/writer.test.js checks it on the machine the tests run on), and then the size shows the finished
 *  line; other Linux filesystems whose writes hold the inode lock behave alike. Sleeping instead (0.5 ms and up)
 *  took 16–43% of a writer's time with 2 and 4 processes on 2 cores: a sleep, even of 1/16 ms, came back only
 *  after 1–3 ms. Only if the size still stays put is the missing "\n" believed, after waits of 1/16, 1/8, … 8 ms
 *  (~16 ms, once per torn tail; the waits also cover filesystems where the empty write takes no lock). */
function endsClean(fs, fd, size) {
  const b = LAST_BYTE;
  let wait = 1 / 16;
  for (let looks = 0; looks < 64; looks++) {
    if (size === 0) return true;
    const n = fs.readSync(fd, b, 0, 1, size - 1);
    if (n === 1 && b[0] === 0x0a) return true;
    try {
      fs.writeSync(fd, NOTHING, 0, 0); // returns when a copy in progress is done (see above); writes nothing
    } catch {
      // a hint only: the waits below decide
    }
    let now = fs.fstatSync(fd).size;
    while (now === size) {
      if (wait > 8) return false; // the size stayed put and still no newline: torn by a crash
      Atomics.wait(ONE, 0, 0, wait); // let a concurrent writer finish its copy
      wait *= 2;
      now = fs.fstatSync(fd).size;
    }
    size = now;
  }
  return false; // the file kept growing without ever ending a line: start ours on a fresh one anyway
}

/**
 * Appends one line (string or bytes, ending in "\n") to `file`.
 *
 * options: { maxBytes, sync, now, fs, env, statusFile, staleLockMs }
 *  - maxBytes: rotation threshold (default env AI_RECORDINGS_MAX_BYTES, else 16 MiB)
 *  - sync: fdatasync after the write (default true; env AI_RECORDINGS_SYNC=0 turns it off)
 *  - now: clock for archive names and the status record (default Date.now)
 *  - fs: the node:fs functions to use (a seam for fault tests)
 *  - statusFile: path of the status record, or false for none
 *
 * Returns { ok: true, file, bytes, rotated, warnings } or { ok: false, file, reason, code }.
 */
export function appendLine(file, line, options = {}) {
  const fs = options.fs ?? nodeFs;
  const now = options.now ?? Date.now;
  const warnings = [];
  let result;
  try {
    result = appendInner(fs, file, line, options, now, warnings);
  } catch (e) {
    result = { ok: false, file, reason: describeError(e), code: (e && e.code) || "EUNKNOWN" };
    // After a failure the next append starts cold: no tail shortcut, and its descriptor is not kept.
    lastEnds.delete(file);
  }
  if (warnings.length) result.warnings = warnings;
  try {
    noteStatus(file, result.ok, result.reason, options);
  } catch {
    // never
  }
  return result;
}

/** Per file: the inode and size this process left after its last append (then the last byte is its "\n"), and
 *  when (Date.now(); `performance.now()` would load perf_hooks, ~1 ms of every CLI process). If anyone else
 *  appended since, the size differs and the byte is read. */
const lastEnds = new Map();

// ---------------------------------------------------------------------------------------------------------
// Kept descriptors (see the concurrency contract at the top)

/** A descriptor is kept only while appends to its file come this close together, and closed after this long
 *  without one (an unref'd timer: it never keeps a process alive). */
export const KEEP_OPEN_MS = 1000;
/** At most this many kept descriptors (least recently used closed first). */
const MAX_KEPT = 8;
/** A kept descriptor is checked against its path (lstat) at least this often; in between, by fstat. */
export const PATH_CHECK_MS = 100;
/** Within a burst, a kept descriptor is checked by fstat at least this often and every PENDING_MAX_BYTES of
 *  lines; the appends in between stat nothing (see the concurrency contract at the top). */
export const VERIFY_MS = 10;
/** At most this many bytes of lines are appended through a kept descriptor between two fstat checks (they are
 *  held, by reference, to be written again should the check find the file deleted). */
export const PENDING_MAX_BYTES = 64 * 1024;

/** file → { fd, readable, dev, ino, mode, uid, gid, used, checked: when the path last showed this inode,
 *  size and ctime: the file's, as our last fstat of it showed them; end: where the file ended right after our
 *  last append (-1: unknown), verified: when an fstat last showed it still linked, with its type, mode and
 *  owner; pending: the lines appended since, pendingBytes their size, opts: the options they came with } */
const kept = new Map();
let sweepTimer = null;

function dropKept(fs, file) {
  const h = kept.get(file);
  if (h === undefined) return;
  kept.delete(file);
  retire(fs, file, h);
}

/** Closes a kept descriptor that has left the map. Lines appended through it since its last fstat check are
 *  first checked once more: if the file has been deleted meanwhile they went to an unlinked inode, and they
 *  are written again to whatever now lives at the path (one write; a failure is noted in the status record).
 *  `warnings`, when an append is in progress, gets a word on it. */
function retire(fs, file, h, warnings) {
  const lines = h.pending ?? [];
  h.pending = [];
  h.pendingBytes = 0;
  let deleted = false;
  if (lines.length > 0) {
    try {
      deleted = fs.fstatSync(h.fd).nlink === 0;
    } catch {
      deleted = false; // cannot tell: writing them again could duplicate them
    }
  }
  closeQuietly(fs, h.fd);
  if (!deleted) return;
  const bytes = (l) => (typeof l === "string" ? Buffer.from(l, "utf8") : l);
  const joined = lines.every((l) => typeof l === "string") ? lines.join("") : Buffer.concat(lines.map(bytes));
  const r = appendLine(file, joined, h.opts);
  warnings?.push(
    r.ok
      ? `the file was deleted during a burst of appends; wrote the ${lines.length} line(s) appended since the last check again to a new file`
      : `the file was deleted during a burst of appends; the ${lines.length} line(s) appended since the last check could not be written again: ${r.reason}`,
  );
}

function sweep() {
  sweepTimer = null;
  const cutoff = Date.now() - KEEP_OPEN_MS;
  for (const [file, h] of kept) {
    if (h.used <= cutoff) {
      kept.delete(file);
      retire(h.opts.fs ?? nodeFs, file, h);
    }
  }
  if (kept.size > 0) scheduleSweep();
}

function scheduleSweep() {
  if (sweepTimer !== null) return;
  try {
    sweepTimer = setTimeout(sweep, KEEP_OPEN_MS);
    sweepTimer.unref?.();
  } catch {
    sweepTimer = null; // no timers here: descriptors then live until the next append's checks or process exit
  }
}

/** Closes every kept descriptor now (e.g. before unmounting the filesystem the recordings live on). */
export function closeKept() {
  if (sweepTimer !== null) {
    clearTimeout(sweepTimer);
    sweepTimer = null;
  }
  // A line written again (retire) may open and keep a descriptor of the new file: round again.
  while (kept.size > 0) {
    for (const file of [...kept.keys()]) {
      const h = kept.get(file);
      if (h !== undefined) dropKept(h.opts.fs ?? nodeFs, file);
    }
  }
}

/** The kept descriptor for `file` as { h, st, unchecked }, if it is still the file to append to; otherwise the
 *  kept descriptor is retired (closed, its held lines written again if the file was deleted) and null comes
 *  back. Within VERIFY_MS of its last check, with the held lines plus this one (`size` bytes) under
 *  PENDING_MAX_BYTES and no rotation due (`maxBytes`), reads decide (cleanEnd): `st` then carries only the size
 *  and identity, and `unchecked` is true. Otherwise one fstat(2) decides (no path lookup): the file must still
 *  have a link and the same type, mode and owner (an archive our rotation made is sealed read-only, which
 *  changes its mode). An lstat(2) of the path, which must show the very (dev, inode) the descriptor was opened
 *  on, decides instead when the file's ctime moved since our last fstat but its size did not (a rename, link or
 *  attribute change: not an append by another writer), and at least every PATH_CHECK_MS: that is how a rename
 *  by anything other than our rotation (`mv`) is seen. */
function validKept(fs, file, nowMs, size, maxBytes, warnings) {
  const h = kept.get(file);
  if (h === undefined) return null;
  // Taken out of the map while in use: the append owns it until keepOrClose() puts it back (so nothing else,
  // not even a re-entrant call through a test seam, can close it underneath).
  kept.delete(file);
  const recent = nowMs - h.checked < PATH_CHECK_MS && nowMs >= h.checked;
  if (recent && nowMs - h.verified < VERIFY_MS && nowMs >= h.verified && h.pendingBytes + size <= PENDING_MAX_BYTES) {
    const end = h.readable ? cleanEnd(fs, h) : -1;
    if (end > 0 && end + size <= maxBytes) {
      return { h, st: { size: end, ino: h.ino, dev: h.dev, isFile: yes, isDirectory: no }, unchecked: true };
    }
  }
  if (recent) {
    let cur = null;
    try {
      cur = fs.fstatSync(h.fd);
    } catch {
      cur = null;
    }
    if (!sameKept(cur, h)) {
      retire(fs, file, h, warnings);
      return null;
    }
    if (cur.ctimeMs === h.ctime || cur.size !== h.size) return { h: linked(h), st: cur, unchecked: false };
  }
  let cur = null;
  try {
    cur = fs.lstatSync(file);
  } catch {
    cur = null; // gone (deleted or rotated away) or unreachable: a fresh open says what is wrong
  }
  if (!sameKept(cur, h)) {
    retire(fs, file, h, warnings);
    return null;
  }
  h.checked = nowMs;
  return { h: linked(h), st: cur, unchecked: false };
}

/** A stat just showed the kept file linked: the lines held since the last check are where they belong. */
function linked(h) {
  h.pending = [];
  h.pendingBytes = 0;
  return h;
}

const yes = () => true;
const no = () => false;

/** Where the kept descriptor's file ends, read rather than stat'ed: one pread from the end our last append
 *  left, which returns what others appended since. The end if the file ends in "\n" and grew by less than the
 *  read; a last byte that is not "\n" gets one more look after an empty write (it waits for a copy in progress,
 *  see endsClean). Otherwise -1, and the fstat path decides: shrunk, grown a lot, or a tail still torn. */
function cleanEnd(fs, h) {
  if (h.end <= 0) return -1;
  try {
    for (let looks = 0; ; looks++) {
      const n = fs.readSync(h.fd, tailBuf, 0, tailBuf.length, h.end - 1);
      if (n <= 0 || n === tailBuf.length) return -1;
      if (tailBuf[n - 1] === 0x0a) return h.end - 1 + n;
      if (looks === 1) return -1;
      fs.writeSync(h.fd, NOTHING, 0, 0); // waits for a copy in progress (see endsClean), then one more look
    }
  } catch {
    return -1; // the fstat path meets the error again and reports it
  }
}

/** Scratch for cleanEnd and spanAfter. What others appended between two of our appends, and our line with
 *  what others appended around it, usually fit; when not, the fstat path takes over. */
const tailBuf = Buffer.allocUnsafe(16 * 1024);

/** After our write of `out` (`outSize` bytes) to a file that ended in "\n" at `start` (no fstat before it): one
 *  pread from the byte before `start` to the end. Returns { end, glued }: where the file ends now, and whether
 *  our line landed right after bytes that do not end a line (another writer's fragment); end is -1 when more
 *  was appended than one read takes (then the fstat path decides). */
function spanAfter(fs, fd, start, out, outSize) {
  let n;
  try {
    n = fs.readSync(fd, tailBuf, 0, tailBuf.length, start - 1);
  } catch {
    n = -1;
  }
  if (n <= 0 || n === tailBuf.length) return { end: -1, glued: false };
  if (n === outSize + 1) return { end: start + outSize, glued: false }; // nobody else appended
  return { end: start - 1 + n, glued: followsFragment(tailBuf.subarray(0, n), out) };
}

/** Whether a stat shows the kept descriptor's file: linked, same (dev, inode), type, mode and owner. */
function sameKept(st, h) {
  return (
    st !== null &&
    st.nlink > 0 &&
    st.ino === h.ino &&
    st.dev === h.dev &&
    st.mode === h.mode &&
    st.uid === h.uid &&
    st.gid === h.gid
  );
}

let exitHooked = false;

/** After a successful append through `h`: keep it if this is a burst (our previous append to this file was
 *  under KEEP_OPEN_MS ago), else close it. Returns whether it was kept. */
function keepOrClose(fs, file, h, burst, nowMs) {
  if (!burst) {
    retire(fs, file, h);
    return false;
  }
  h.used = nowMs;
  if (!exitHooked) {
    exitHooked = true;
    process.once("exit", closeKept); // lines since the last check are checked once more (retire)
  }
  dropKept(fs, file); // one kept descriptor per file (another could only come from a re-entrant call)
  if (kept.size >= MAX_KEPT) dropKept(fs, kept.keys().next().value); // least recently used
  kept.set(file, h);
  scheduleSweep();
  return true;
}

/** A descriptor freshly opened (openTarget's { fd, readable }) with the identity its fstat `st` shows, as validKept
 *  and keepOrClose track it: checked against its path at `nowMs`; size and ctime unknown until the first append. */
function handleOf(o, st, nowMs) {
  const { dev, ino, mode, uid, gid } = st;
  return {
    fd: o.fd,
    readable: o.readable,
    dev,
    ino,
    mode,
    uid,
    gid,
    used: 0,
    checked: nowMs,
    size: -1,
    ctime: -1,
    end: -1,
    verified: -1,
    pending: [],
    pendingBytes: 0,
    opts: {},
  };
}

function appendInner(fs, file, line, options, now, warnings) {
  // A line always ends in "\n". Strings stay strings until write(2) (see io.js writeFully); `size` is in bytes.
  let data = line;
  if (typeof data === "string") {
    if (!data.endsWith("\n")) data += "\n";
  } else if (data.length === 0 || data[data.length - 1] !== 0x0a) {
    data = Buffer.concat([data, NL]);
  }
  const size = typeof data === "string" ? Buffer.byteLength(data, "utf8") : data.length;
  const maxBytes = maxBytesFrom(options);
  const sync = syncFrom(options);
  const staleMs = options.staleLockMs ?? DEFAULT_STALE_LOCK_MS;
  let rotated = false;
  let retried = false;
  const mine = lastEnds.get(file);
  const t0 = Date.now();
  const burst = mine !== undefined && t0 - mine.at < KEEP_OPEN_MS;

  for (let attempt = 0; ; attempt++) {
    // A kept descriptor (validKept says how it was checked), or a fresh open (then fstat: the inode we got).
    let h = null;
    let st;
    const k = kept.size > 0 ? validKept(fs, file, t0, size, maxBytes, warnings) : null;
    const fromCache = k !== null;
    // No fstat before this append (a kept descriptor checked under VERIFY_MS ago): the end and its "\n" were
    // read instead, and the fstat after the write is skipped too.
    const unchecked = fromCache && k.unchecked;
    if (fromCache) {
      h = k.h;
      st = k.st;
    } else {
      const o = openTarget(fs, file);
      try {
        st = fs.fstatSync(o.fd);
      } catch (e) {
        closeQuietly(fs, o.fd);
        throw e;
      }
      h = handleOf(o, st, t0);
    }
    let open = true; // h.fd is ours to close or keep
    let wrote = false; // some bytes of this attempt may have reached the file: never retry blindly
    try {
      if (st.isDirectory()) {
        const e = new Error("is a directory");
        e.code = "EISDIR";
        throw e;
      }
      if (st.isFile() && st.size > 0 && st.size + size > maxBytes && attempt < 2) {
        const r = tryRotate(fs, file, st, maxBytes, size, now(), staleMs);
        if (r === "rotated") {
          // We renamed the file our descriptor points at: close it (kept or not) and open the new one.
          rotated = true;
          open = false;
          closeQuietly(fs, h.fd);
          const o = openTarget(fs, file);
          open = true;
          h = { fd: o.fd }; // closed by the handler below if the fstat throws
          st = fs.fstatSync(o.fd);
          h = handleOf(o, st, t0);
        } else if (r !== "busy") {
          warnings.push(`rotation failed, appended to the old file: ${r}`);
        }
      }
      const fd = h.fd;
      const readable = h.readable;
      let out = data;
      let outSize = size;
      // Skip reading the last byte when this process wrote it (same inode, and the size it left behind) or when
      // cleanEnd just read it.
      const known = unchecked || (mine !== undefined && mine.ino === st.ino && mine.dev === st.dev && mine.end === st.size);
      if (readable && st.isFile() && st.size > 0 && !known && !endsClean(fs, fd, st.size)) {
        out = afterNewline(data); // a torn line from a crash ends here; start on a fresh line
        outSize = size + 1;
        warnings.push("the file ended in a torn line; started on a fresh line");
      }
      try {
        writeFully(fs, fd, out, outSize);
      } catch (e) {
        if (e && e.written > 0) {
          wrote = true;
          // Best effort: end whatever part reached the file, so the next append starts clean.
          try {
            fs.writeSync(fd, NL, 0, 1);
          } catch {
            // the next writer's torn-tail check covers this
          }
        }
        throw e;
      }
      wrote = true;
      let end = -1;
      const span = unchecked ? spanAfter(fs, fd, st.size, out, outSize) : null;
      if (span !== null && span.end > 0) {
        // Checked by reads: held until the next fstat check, in case the file turns out deleted.
        end = st.size + outSize;
        if (span.glued) {
          outSize = writeAgain(fs, fd, data, size, warnings); // as below
          end = -1;
        }
        if (sync) fs.fdatasyncSync(fd);
        h.end = end === -1 ? -1 : span.end;
        h.pending.push(data);
        h.pendingBytes += size;
        h.opts = options;
      } else if (st.isFile()) {
        const after = fs.fstatSync(fd);
        if (after.nlink === 0 && attempt === 0) {
          // Deleted underneath (between our lstat or open and our write): the line went to an orphaned inode.
          // Write it again to whatever now lives at the path. (Renamed underneath needs nothing: the line is
          // complete in the archive, where readers find it.)
          warnings.push("the file was deleted during the append; wrote the line again to a new file");
          open = false;
          retire(fs, file, h, warnings); // lines held since the last check went there too
          continue;
        }
        end = st.size + outSize;
        if (readable && out === data && after.size !== end && gluedOnto(fs, fd, st.size, after.size, out)) {
          // Between our tail check and our write, another writer's line was cut short (killed mid-copy, disk
          // full) and ours landed right after its fragment. Write ours again, on a fresh line; the glued copy
          // stays behind a fragment, where a reader sees one damaged line.
          outSize = writeAgain(fs, fd, data, size, warnings);
          end = -1;
        }
        if (sync) fs.fdatasyncSync(fd);
        h.size = after.size;
        h.ctime = after.ctimeMs;
        h.end = end === -1 ? -1 : after.size;
        // The fstat after the write shows the file linked: the lines appended through it so far are where they
        // belong. With the fstat or open before it (type, mode and owner), the descriptor is checked for the
        // next VERIFY_MS; after a check by reads (whose span read fell short) it is not.
        linked(h);
        if (!unchecked) h.verified = t0;
        h.opts = options;
      }
      if (lastEnds.size >= 64 && !lastEnds.has(file)) lastEnds.clear();
      lastEnds.set(file, { ino: st.ino, dev: st.dev, end, at: t0 });
      // Keep only descriptors of regular files, and only within a burst of appends.
      open = false;
      keepOrClose(fs, file, h, burst && st.isFile(), t0);
      return { ok: true, file, bytes: outSize, rotated };
    } catch (e) {
      // Any error: this descriptor is not kept. An error on a kept descriptor before anything was written is
      // retried once with a fresh open, so a fault reports what a fresh open and write report.
      if (open) {
        open = false;
        retire(fs, file, h);
      }
      if (fromCache && !wrote && !retried) {
        retried = true;
        attempt--;
        continue;
      }
      throw e;
    } finally {
      if (open) closeQuietly(fs, h.fd);
    }
  }
}
