// Reading the hosts' own JSONL transcripts: the line nearest the end that matches, or the first line. The
// item a hook asks about was written just before the hook ran, so it sits near the end; a cap keeps a huge
// session from costing a full read on every hook.

import { closeQuietly, fs as nodeFs } from "../builtins.js";
import { readFully } from "../io.js";

export const TRANSCRIPT_SCAN_BYTES = 8 * 1024 * 1024;
const CHUNK = 64 * 1024;

/** fn(fd) on `file` opened for reading, closed afterwards; null when `file` is not a path, cannot be opened,
 *  or fn throws. */
function withFile(fs, file, fn) {
  if (typeof file !== "string" || !file) return null;
  let fd;
  try {
    fd = fs.openSync(file, "r");
    return fn(fd);
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeQuietly(fs, fd);
  }
}

function lineMatch(bytes, hint, test) {
  if (bytes.length === 0) return null;
  if (hint && bytes.indexOf(hint) < 0) return null;
  try {
    const obj = JSON.parse(bytes.toString("utf8"));
    return test(obj) ? obj : null;
  } catch {
    return null;
  }
}

/**
 * The parsed line nearest the end of a JSONL file for which `test(obj)` is true; `hint` is a string the raw line
 * must contain, so most lines are never parsed. Reads at most `maxBytes` from the end; null when the file is
 * missing or nothing matches.
 */
export function findFromEnd(file, hint, test, { maxBytes = TRANSCRIPT_SCAN_BYTES, fs = nodeFs } = {}) {
  return withFile(fs, file, (fd) => {
    const size = fs.fstatSync(fd).size;
    let pos = size;
    let carry = Buffer.alloc(0); // the start of a line whose beginning is in an earlier chunk
    const stopAt = Math.max(0, size - maxBytes);
    while (pos > stopAt) {
      const len = Math.min(CHUNK, pos - stopAt);
      pos -= len;
      const buf = Buffer.allocUnsafe(len);
      // A file that shrank meanwhile reads short: what is missing is not there to search.
      const got = readFully(fs, fd, buf, 0, len, pos);
      const chunk = got === len ? buf : buf.subarray(0, got);
      const data = carry.length ? Buffer.concat([chunk, carry]) : chunk;
      let end = data.length;
      // Lines fully inside `data`, from the last one back; the first (possibly partial) line is carried.
      for (let nl = data.lastIndexOf(10, end - 1); nl >= 0; nl = data.lastIndexOf(10, end - 1)) {
        const hit = lineMatch(data.subarray(nl + 1, end), hint, test);
        if (hit) return hit;
        end = nl;
        if (end === 0) break;
      }
      carry = Buffer.from(data.subarray(0, end));
    }
    if (pos === 0 && carry.length) return lineMatch(carry, hint, test);
    return null;
  });
}

/** The first line of a JSONL file, parsed (reads at most `maxBytes`); null when missing or not JSON. */
export function firstLine(file, { maxBytes = 1024 * 1024, fs = nodeFs } = {}) {
  return withFile(fs, file, (fd) => {
    const buf = Buffer.allocUnsafe(maxBytes);
    let got = 0;
    while (got < maxBytes) {
      const n = readFully(fs, fd, buf, got, Math.min(CHUNK, maxBytes - got), got);
      if (n <= 0) break;
      const nl = buf.subarray(got, got + n).indexOf(10);
      got += n;
      if (nl >= 0) return JSON.parse(buf.subarray(0, got - n + nl).toString("utf8"));
    }
    return got ? JSON.parse(buf.subarray(0, got).toString("utf8")) : null;
  });
}

/** A whole JSON file, parsed; null when missing or not JSON. */
export function readJson(file, fs = nodeFs) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}
