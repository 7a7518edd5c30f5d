// One append, in named steps: take a descriptor (kept and checked, or freshly opened), rotate if the line would
// take the file past its limit, start on a fresh line after a torn tail, write the line whole, then check what
// the write found (another writer's fragment before it, the file deleted underneath) and keep or close the
// descriptor. docs/writer.md gives the contract each step keeps.

import { byteSize } from "../values.js";
import { closeQuietly, fs as nodeFs, path } from "../builtins.js";
import { makeDirs, writeFully } from "../io.js";
import { envOf, settingsOf } from "../settings.js";
import { errorWithCode } from "./errors.js";
import { handleOf, KEEP_OPEN_MS, linked, retire, spanAfter, validKept } from "./kept.js";
import { DEFAULT_STALE_LOCK_MS, tryRotate } from "./rotate.js";
import { afterNewline, endsClean, gluedOnto, NL, writeAgain } from "./tail.js";

/** Default rotation threshold: 16 MiB, large enough that a year of notes fits in a handful of segments, small
 *  enough for any editor or `jq` to open one. */
export const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

const C = nodeFs.constants;
// O_RDWR, not O_WRONLY: the torn-tail check reads the last byte through the same descriptor. A file we may
// write but not read falls back to O_WRONLY without that check.
const OPEN_FLAGS = C.O_APPEND | C.O_CREAT | (C.O_NOFOLLOW ?? 0) | (C.O_CLOEXEC ?? 0) | (C.O_NONBLOCK ?? 0);

/** What settleByFstat returns when the file was deleted underneath and the line must go again. */
const DELETED = -2;

/** Finished jobs a writer keeps to reuse (an append inside an append, as a retire that writes held lines
 *  again, takes another). */
const SPARE_JOBS = 4;

function maxBytesFrom(options) {
  const v = options.maxBytes;
  if (v !== undefined) {
    const n = byteSize(v);
    if (n !== undefined) return n;
  }
  return settingsOf(envOf(options)).maxBytes ?? DEFAULT_MAX_BYTES;
}

function syncFrom(options) {
  if (typeof options.sync === "boolean") return options.sync;
  return settingsOf(envOf(options)).sync ?? true;
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

/**
 * Appends one line through the writer `w` ({ pool, lastEnds, clock, append }); throws on failure, which the
 * writer turns into a result. Returns { ok: true, file, bytes, rotated }.
 */
export function appendInner(w, fs, file, line, options, warnings) {
  const job = startJob(w, fs, file, line, options, warnings);
  try {
    return appendJob(w, job);
  } finally {
    // Kept for the next append (a burst makes one a few microseconds apart); what it pointed at is let go.
    job.fs = job.options = job.warnings = job.data = job.out = job.mine = job.h = job.st = null;
    if (w.spareJobs.length < SPARE_JOBS) w.spareJobs.push(job);
  }
}

/** The attempts of one append: a fresh open after a kept descriptor failed, a second write after the file was
 *  deleted underneath. */
function appendJob(w, job) {
  let rewritten = false; // the line went to a file deleted underneath and was written again
  let retried = false; // a kept descriptor failed before writing anything; tried again with a fresh open
  for (;;) {
    acquire(w, job);
    try {
      const result = appendThrough(w, job, !rewritten);
      if (result !== null) return result;
      rewritten = true;
    } catch (e) {
      // An error on a kept descriptor before anything was written is retried once with a fresh open, so a fault
      // reports what a fresh open and write report.
      if (job.fromCache && !job.wrote && !retried) {
        retried = true;
        continue;
      }
      throw e;
    }
  }
}

/** The append's facts: the line ending in "\n" (strings stay strings until write(2), see io.js writeFully) and
 *  its size in bytes, the settings, and whether this is a burst (our last append to the file was recent). */
function startJob(w, fs, file, line, options, warnings) {
  let data = line;
  if (typeof data === "string") {
    if (!data.endsWith("\n")) data += "\n";
  } else if (data.length === 0 || data[data.length - 1] !== 0x0a) {
    data = Buffer.concat([data, NL]);
  }
  const mine = w.lastEnds.get(file);
  const t0 = w.clock();
  const job = w.spareJobs.pop() ?? {};
  job.fs = fs;
  job.file = file;
  job.options = options;
  job.warnings = warnings;
  job.data = data;
  job.size = typeof data === "string" ? Buffer.byteLength(data, "utf8") : data.length;
  job.maxBytes = maxBytesFrom(options);
  job.sync = syncFrom(options);
  job.staleMs = options.staleLockMs ?? DEFAULT_STALE_LOCK_MS;
  job.now = options.now ?? Date.now;
  job.mine = mine;
  job.t0 = t0;
  job.burst = mine !== undefined && t0 - mine.at < KEEP_OPEN_MS;
  job.rotated = false;
  // The attempt in progress (acquire sets them): the handle and the stat that decided it, how it was checked,
  // whether its descriptor is ours to close, whether bytes may have reached the file, what we write.
  job.h = null;
  job.st = null;
  job.fromCache = false;
  job.unchecked = false;
  job.open = false;
  job.wrote = false;
  job.out = data;
  job.outSize = 0;
  return job;
}

/** A kept descriptor (validKept says how it was checked), or a fresh open and the fstat of the inode we got. */
function acquire(w, job) {
  const { fs, file } = job;
  const k = w.pool.size > 0 ? validKept(w.pool, w.append, fs, file, job.t0, job.size, job.maxBytes, job.warnings) : null;
  job.fromCache = k !== null;
  job.wrote = false;
  if (k !== null) {
    job.h = k.h;
    job.st = k.st;
    // No fstat before this append: the end and its "\n" were read instead, and the fstat after it is skipped.
    job.unchecked = k.unchecked;
  } else {
    const o = openTarget(fs, file);
    try {
      job.st = fs.fstatSync(o.fd);
    } catch (e) {
      closeQuietly(fs, o.fd);
      throw e;
    }
    job.h = handleOf(o, job.st, job.t0);
    job.unchecked = false;
  }
  job.open = true;
}

/** One attempt through the acquired descriptor. Returns the result, or null when the file was deleted
 *  underneath and the line must go again (`mayRewrite`: not done already). */
function appendThrough(w, job, mayRewrite) {
  const { fs, file } = job;
  try {
    if (job.st.isDirectory()) throw errorWithCode("EISDIR", "is a directory");
    rotateIfDue(job);
    freshLineIfTorn(job);
    writeLine(job);
    const span = job.unchecked ? spanAfter(fs, job.h.fd, job.st.size, job.out, job.outSize) : null;
    let end = -1;
    if (span !== null && span.end > 0) end = settleByReads(job, span);
    else if (job.st.isFile()) end = settleByFstat(w, job, mayRewrite);
    if (end === DELETED) return null;
    keepOrClose(w, job, end);
    return { ok: true, file, bytes: job.outSize, rotated: job.rotated };
  } catch (e) {
    // Any error: this descriptor is not kept.
    if (job.open) {
      job.open = false;
      retire(w.append, fs, file, job.h);
    }
    throw e;
  } finally {
    if (job.open) closeQuietly(fs, job.h.fd);
  }
}

/** Rotates when the line would take a non-empty file past maxBytes; after a rotation, opens the new file. A
 *  rotation that fails leaves the line to the old file, with a warning. */
function rotateIfDue(job) {
  const { fs, file, st } = job;
  if (!(st.isFile() && st.size > 0 && st.size + job.size > job.maxBytes)) return;
  const r = tryRotate(fs, file, st, job.maxBytes, job.size, job.now(), job.staleMs);
  if (r === "rotated") {
    // We renamed the file our descriptor points at: close it (kept or not) and open the new one.
    job.rotated = true;
    job.open = false;
    closeQuietly(fs, job.h.fd);
    const o = openTarget(fs, file);
    job.open = true;
    job.h = { fd: o.fd }; // closed by appendThrough's handler if the fstat throws
    job.st = fs.fstatSync(o.fd);
    job.h = handleOf(o, job.st, job.t0);
  } else if (r !== "busy") {
    job.warnings.push(`rotation failed, appended to the old file: ${r}`);
  }
}

/** Sets what to write: the line, or the line on a fresh line when the file ends in a torn one. The last byte
 *  is not read when this process wrote it (same inode, the size it left behind) or when cleanEnd just read it. */
function freshLineIfTorn(job) {
  const { st, mine, h } = job;
  job.out = job.data;
  job.outSize = job.size;
  const known = job.unchecked || (mine !== undefined && mine.ino === st.ino && mine.dev === st.dev && mine.end === st.size);
  if (h.readable && st.isFile() && st.size > 0 && !known && !endsClean(job.fs, h.fd, st.size)) {
    job.out = afterNewline(job.data); // a torn line from a crash ends here; start on a fresh line
    job.outSize = job.size + 1;
    job.warnings.push("the file ended in a torn line; started on a fresh line");
  }
}

/** One write of the whole line. When it fails part way, the part that reached the file is ended with "\n" if
 *  possible, so the next append starts clean. */
function writeLine(job) {
  const { fs } = job;
  const fd = job.h.fd;
  try {
    writeFully(fs, fd, job.out, job.outSize);
  } catch (e) {
    if (e && e.written > 0) {
      job.wrote = true;
      try {
        fs.writeSync(fd, NL, 0, 1);
      } catch {
        // the next writer's torn-tail check covers this
      }
    }
    throw e;
  }
  job.wrote = true;
}

/** After a write through a descriptor checked by reads: the span read after it showed where the file ends and
 *  whether our line follows a fragment. The line is held until the next fstat check, in case the file turns
 *  out deleted. Returns where our line ended (-1: written again, so unknown). */
function settleByReads(job, span) {
  const { fs, h } = job;
  let end = job.st.size + job.outSize;
  if (span.glued) {
    job.outSize = writeAgain(fs, h.fd, job.data, job.size, job.warnings); // as in settleByFstat
    end = -1;
  }
  if (job.sync) fs.fdatasyncSync(h.fd);
  h.end = end === -1 ? -1 : span.end;
  h.pending.push(job.data);
  h.pendingBytes += job.size;
  h.opts = job.options;
  return end;
}

/** After a write checked by fstat: the file deleted underneath (DELETED: the line goes again), our line glued
 *  to another writer's fragment (written again), else where our line ended. */
function settleByFstat(w, job, mayRewrite) {
  const { fs, file, h } = job;
  const after = fs.fstatSync(h.fd);
  if (after.nlink === 0 && mayRewrite) {
    // Deleted underneath (between our lstat or open and our write): the line went to an orphaned inode. Write it
    // again to whatever now lives at the path. (Renamed underneath needs nothing: the line is complete in the
    // archive, where readers find it.)
    job.warnings.push("the file was deleted during the append; wrote the line again to a new file");
    job.open = false;
    retire(w.append, fs, file, h, job.warnings); // lines held since the last check went there too
    return DELETED;
  }
  let end = job.st.size + job.outSize;
  if (h.readable && job.out === job.data && after.size !== end && gluedOnto(fs, h.fd, job.st.size, after.size, job.out)) {
    // Between our tail check and our write, another writer's line was cut short and ours landed right after its
    // fragment. Write ours again, on a fresh line; the glued copy stays behind a fragment, where a reader sees
    // one damaged line.
    job.outSize = writeAgain(fs, h.fd, job.data, job.size, job.warnings);
    end = -1;
  }
  if (job.sync) fs.fdatasyncSync(h.fd);
  h.size = after.size;
  h.ctime = after.ctimeMs;
  h.end = end === -1 ? -1 : after.size;
  // The fstat after the write shows the file linked: the lines appended through it so far are where they
  // belong. With the fstat or open before it, the descriptor is checked for the next VERIFY_MS; after a check
  // by reads (whose span read fell short) it is not.
  linked(h);
  if (!job.unchecked) h.verified = job.t0;
  h.opts = job.options;
  return end;
}

/** Remembers where our line left the file, then keeps the descriptor if this is a burst (of a regular file),
 *  else closes it. */
function keepOrClose(w, job, end) {
  const { fs, file, st, h, t0 } = job;
  const { lastEnds } = w;
  if (lastEnds.size >= 64 && !lastEnds.has(file)) lastEnds.clear();
  lastEnds.set(file, { ino: st.ino, dev: st.dev, end, at: t0 });
  job.open = false;
  if (!(job.burst && st.isFile())) {
    retire(w.append, fs, file, h);
    return;
  }
  h.used = t0;
  w.pool.put(file, h, fs); // one kept descriptor per file; the least recently used closed when full
}
