// Kept descriptors: during a burst of appends to one file, its O_APPEND descriptor stays open in the writer's
// pool (fdpool.js) and is checked before each use, by reads, by fstat(2) or by an lstat(2) of the path. This
// file decides which check runs and what a failed one does; docs/writer.md has the reasoning.

import { closeQuietly } from "../builtins.js";
import { followsFragment, NOTHING } from "./tail.js";

/** A descriptor is kept only while appends to its file come this close together, and closed after this long
 *  without one. */
export const KEEP_OPEN_MS = 1000;
/** At most this many kept descriptors (least recently used closed first). */
export const MAX_KEPT = 8;
/** A kept descriptor is checked against its path (lstat) at least this often; in between, by fstat. */
export const PATH_CHECK_MS = 100;
/** Within a burst, a kept descriptor is checked by fstat at least this often and every PENDING_MAX_BYTES of
 *  lines; the appends in between stat nothing. */
export const VERIFY_MS = 10;
/** At most this many bytes of lines are appended through a kept descriptor between two fstat checks (they are
 *  held, by reference, to be written again should the check find the file deleted). */
export const PENDING_MAX_BYTES = 64 * 1024;

/**
 * A descriptor freshly opened ({ fd, readable }) with the identity its fstat `st` shows: checked against its
 * path at `nowMs`; size and ctime unknown until the first append. Fields: used (last append), checked (when the
 * path last showed this inode), size and ctime (as our last fstat showed them), end (where the file ended right
 * after our last append, -1: unknown), verified (when an fstat last showed it linked, with its type, mode and
 * owner), pending (the lines appended since), pendingBytes, opts (the options they came with).
 */
export function handleOf(o, st, nowMs) {
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

/** Closes a kept descriptor that has left the pool. Lines appended through it since its last fstat check are
 *  first checked once more: if the file has been deleted meanwhile they went to an unlinked inode, and they
 *  are written again (with `append`, the writer's own) to whatever now lives at the path. `warnings`, when an
 *  append is in progress, gets a word on it. */
export function retire(append, fs, file, h, warnings) {
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
  const r = append(file, joined, h.opts);
  warnings?.push(
    r.ok
      ? `the file was deleted during a burst of appends; wrote the ${lines.length} line(s) appended since the last check again to a new file`
      : `the file was deleted during a burst of appends; the ${lines.length} line(s) appended since the last check could not be written again: ${r.reason}`,
  );
}

/**
 * The kept descriptor for `file` as { h, st, unchecked }, taken out of `pool`, if it is still the file to append
 * to; otherwise it is retired and null comes back. Within VERIFY_MS of its last check, with the held lines plus
 * this one (`size` bytes) under PENDING_MAX_BYTES and no rotation due, reads decide (cleanEnd): `st` then
 * carries only the size and identity, and `unchecked` is true. Otherwise one fstat decides (linked, same type,
 * mode and owner: an archive our rotation made is sealed read-only, which changes its mode), and an lstat of
 * the path when the ctime moved but the size did not (a rename, link or attribute change) and at least every
 * PATH_CHECK_MS: that is how a rename by anything other than our rotation is seen.
 */
export function validKept(pool, append, fs, file, nowMs, size, maxBytes, warnings) {
  // Taken out of the pool while in use: the append owns it until it is put back, so nothing else (not even a
  // re-entrant call through a test seam) can close it underneath.
  const h = pool.take(file);
  if (h === undefined) return null;
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
      retire(append, fs, file, h, warnings);
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
    retire(append, fs, file, h, warnings);
    return null;
  }
  h.checked = nowMs;
  return { h: linked(h), st: cur, unchecked: false };
}

/** A stat just showed the kept file linked: the lines held since the last check are where they belong. */
export function linked(h) {
  h.pending = [];
  h.pendingBytes = 0;
  return h;
}

const yes = () => true;
const no = () => false;

/** Scratch for cleanEnd and spanAfter. What others appended between two of our appends, and our line with
 *  what others appended around it, usually fit; when not, the fstat path takes over. */
const tailBuf = Buffer.allocUnsafe(16 * 1024);

/** Where the kept descriptor's file ends, read rather than stat'ed: one pread from the end our last append
 *  left, which returns what others appended since. The end if the file ends in "\n" and grew by less than the
 *  read; a last byte that is not "\n" gets one more look after an empty write (it waits for a copy in progress,
 *  see tail.js endsClean). Otherwise -1, and the fstat path decides: shrunk, grown a lot, or a tail still torn. */
function cleanEnd(fs, h) {
  if (h.end <= 0) return -1;
  try {
    for (let looks = 0; ; looks++) {
      const n = fs.readSync(h.fd, tailBuf, 0, tailBuf.length, h.end - 1);
      if (n <= 0 || n === tailBuf.length) return -1;
      if (tailBuf[n - 1] === 0x0a) return h.end - 1 + n;
      if (looks === 1) return -1;
      fs.writeSync(h.fd, NOTHING, 0, 0); // waits for a copy in progress, then one more look
    }
  } catch {
    return -1; // the fstat path meets the error again and reports it
  }
}

/** After our write of `out` (`outSize` bytes) to a file that ended in "\n" at `start` (no fstat before it): one
 *  pread from the byte before `start` to the end. Returns { end, glued }: where the file ends now, and whether
 *  our line landed right after bytes that do not end a line (another writer's fragment); end is -1 when more
 *  was appended than one read takes (then the fstat path decides). */
export function spanAfter(fs, fd, start, out, outSize) {
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
