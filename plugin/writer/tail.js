// Torn lines: a line another writer left cut short (killed mid-copy, disk full) must never glue two entries
// together. Before an append the writer makes sure the file ends in "\n"; after it, under concurrent appends,
// it makes sure its line does not follow a fragment. docs/writer.md explains the races these close.

import { readFully, writeFully } from "../io.js";

export const NL = new Uint8Array([0x0a]);
/** The empty write that waits for another writer's copy in progress (see endsClean). */
export const NOTHING = Buffer.alloc(0);

const ONE = new Int32Array(new SharedArrayBuffer(4));
const LAST_BYTE = Buffer.alloc(1);

/** `data` (string or bytes) on a fresh line: "\n" first. */
export function afterNewline(data) {
  return typeof data === "string" ? "\n" + data : Buffer.concat([NL, data]);
}

/** Whether the file ends in "\n" (or is empty). A read does not wait for another process's write in progress:
 *  the size can already cover part of a line whose copy is still running, so first an empty write(2), which
 *  on Linux takes the inode lock that copy holds and returns once it is done (tests/js/writer.test.js checks
 *  this on the machine the tests run on). Only if the size then stays put through waits of 1/16, 1/8, … 8 ms is
 *  the missing "\n" believed: a torn line left by a crash. */
export function endsClean(fs, fd, size) {
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

/** Whether `line`, looked for in `region` (bytes read back from the file), follows a byte that is not "\n": it
 *  was glued to another writer's fragment. Not found (cannot happen for a line carrying a unique eid), or at the
 *  region's start: nothing to repair. */
export function followsFragment(region, line) {
  const at = region.indexOf(line);
  return at > 0 && region[at - 1] !== 0x0a;
}

// Under concurrent appends gluedOnto runs on most appends: one scratch buffer, grown as needed, rather than an
// allocation each time (spans above 1 MiB get their own and are not kept).
let scratch = Buffer.allocUnsafe(16 * 1024);

/** Whether our line, written somewhere in [from, to) while others were appending too, follows a byte that is
 *  not "\n". Reads just that span (capped: past it, the check is skipped). */
export function gluedOnto(fs, fd, from, to, line) {
  const start = from > 0 ? from - 1 : 0;
  const span = to - start;
  if (span > 64 * 1024 * 1024) return false;
  if (scratch.length < span) {
    if (span > 1024 * 1024) return gluedIn(fs, fd, start, Buffer.allocUnsafe(span), line);
    scratch = Buffer.allocUnsafe(Math.max(span, 2 * scratch.length));
  }
  return gluedIn(fs, fd, start, scratch.subarray(0, span), line);
}

function gluedIn(fs, fd, start, region, line) {
  const got = readFully(fs, fd, region, 0, region.length, start);
  return followsFragment(region.subarray(0, got), line);
}

/** Writes `data` (`size` bytes) again after our copy landed right behind another writer's fragment: on a fresh
 *  line unless the file now ends clean. Returns the bytes written. */
export function writeAgain(fs, fd, data, size, warnings) {
  const clean = endsClean(fs, fd, fs.fstatSync(fd).size);
  writeFully(fs, fd, clean ? data : afterNewline(data), clean ? size : size + 1);
  warnings.push("another writer's torn line ended just before ours; wrote the line again on a fresh line");
  return clean ? size : size + 1;
}
