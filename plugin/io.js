// Whole reads and whole writes on descriptors, replacing a small file atomically, placing one that must never
// be seen half-written, and making private directories. The kernel may move fewer bytes than asked; every loop
// that needs all of them lives here, once.

import { path } from "./builtins.js";

/** Reads up to `length` bytes at `position` (null: the descriptor's offset) into `buf` from `offset`,
 *  continuing after short reads; stops early only at end of file. Returns the bytes read. */
export function readFully(fs, fd, buf, offset, length, position) {
  let got = 0;
  while (got < length) {
    const n = fs.readSync(fd, buf, offset + got, length - got, position === null ? null : position + got);
    if (n <= 0) break;
    got += n;
  }
  return got;
}

/** How long to wait before reading a non-blocking descriptor again when nothing was there (EAGAIN). */
const EAGAIN_WAIT_MS = 5;

/**
 * Reads `fd` from its offset to its end, handing each chunk to `onChunk(bytes)` (a view of a buffer reused for
 * the next chunk: copy what must be kept). The one rule for a descriptor that does not block (a pipe or
 * terminal opened non-blocking: EAGAIN, nothing there yet): wait EAGAIN_WAIT_MS and read again, and after
 * `idleMs` with no byte, end as if the input had. EOF (the error some runtimes raise at a console's end) ends it
 * too. Returns the bytes read; any other error is thrown.
 */
export function readToEnd(fs, fd, onChunk, { idleMs = Infinity, chunkBytes = 256 * 1024, now = Date.now } = {}) {
  const buf = Buffer.allocUnsafe(chunkBytes);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  let total = 0;
  let last = now();
  for (;;) {
    let n;
    try {
      n = fs.readSync(fd, buf, 0, buf.length, null);
    } catch (e) {
      if (e.code === "EOF") break;
      if (e.code !== "EAGAIN") throw e;
      if (now() - last >= idleMs) break;
      Atomics.wait(pause, 0, 0, EAGAIN_WAIT_MS);
      continue;
    }
    if (n === 0) break;
    total += n;
    last = now();
    onChunk(buf.subarray(0, n));
  }
  return total;
}

/** `length` bytes at `position` as a new Buffer (shorter when the file ends first). */
export function readAt(fs, fd, length, position) {
  const buf = Buffer.allocUnsafe(length);
  const got = readFully(fs, fd, buf, 0, length, position);
  return got === length ? buf : buf.subarray(0, got);
}

/** An error that says the kernel accepted nothing more without reporting why (a full pipe, a device). */
function shortWrite(written) {
  const e = new Error("short write");
  e.code = "SHORT";
  e.written = written;
  return e;
}

function writeSome(fs, fd, data, off, written) {
  let n;
  try {
    n = typeof data === "string" ? fs.writeSync(fd, data) : fs.writeSync(fd, data, off, data.length - off);
  } catch (e) {
    if (e && typeof e === "object") e.written = written;
    throw e;
  }
  if (!(n > 0)) throw shortWrite(written);
  return n;
}

/**
 * Writes all of `data` (a string of `size` UTF-8 bytes, or bytes) at the descriptor's offset, continuing after
 * short writes. A string goes to write(2) as it is: the runtime encodes it on the way, cheaper than encoding it
 * first. A write that makes no progress throws { code: "SHORT" }; every thrown error carries `written`, the
 * bytes that did reach the file.
 */
export function writeFully(fs, fd, data, size = typeof data === "string" ? Buffer.byteLength(data, "utf8") : data.length) {
  let bytes = data;
  let off = 0;
  if (typeof data === "string") {
    off = writeSome(fs, fd, data, 0, 0);
    if (off === size) return;
    bytes = Buffer.from(data, "utf8"); // a short write: go on from the byte where it stopped
  }
  while (off < bytes.length) off += writeSome(fs, fd, bytes, off, off);
}

/** A name beside `p` that no other process or call picks. */
export function asideName(p, tag = "tmp") {
  return `${p}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.${tag}`;
}

/** Replaces `p` with `data` so that a reader sees the old content or the new, never half of either: written
 *  aside (mode `mode`), then renamed over. The aside file is removed when anything fails; the error is thrown. */
export function replaceFile(fs, p, data, { mode = 0o600 } = {}) {
  const tmp = asideName(p);
  try {
    fs.writeFileSync(tmp, data, { mode, flag: "wx" });
    fs.renameSync(tmp, p);
  } catch (e) {
    try {
      fs.unlinkSync(tmp);
    } catch {
      // never created, or already renamed
    }
    throw e;
  }
}

/** Puts a new file `p` holding `data` into place so that it never exists empty: written aside (mode `mode`),
 *  then hard-linked to `p`, and the aside name removed. Throws EEXIST when `p` exists. Returns false, having
 *  placed nothing, where the filesystem refuses hard links or the aside file (the caller then falls back). */
export function linkFile(fs, p, data, { mode = 0o600, tag = "tmp" } = {}) {
  const aside = asideName(p, tag);
  try {
    fs.writeFileSync(aside, data, { mode, flag: "wx" });
    try {
      fs.linkSync(aside, p);
      return true;
    } finally {
      try {
        fs.unlinkSync(aside);
      } catch {
        // litter at worst
      }
    }
  } catch (e) {
    if (e && e.code === "EEXIST") throw e;
    return false;
  }
}

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
