// Whole reads and writes over a file system that moves fewer bytes than asked, and the atomic replace.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { readAt, readFully, replaceFile, writeFully } from "../../plugin/io.js";
import { tmpdir } from "./helpers.js";

/** node:fs whose readSync and writeSync move at most `step` bytes a call (after `zeroAfter` calls: none). */
function stingy(step, { zeroAfter = Infinity } = {}) {
  let calls = 0;
  return {
    ...fs,
    readSync(fd, buf, off, len, pos) {
      return fs.readSync(fd, buf, off, Math.min(len, step), pos);
    },
    writeSync(fd, data, off, len) {
      if (++calls > zeroAfter) return 0;
      if (typeof data === "string") return fs.writeSync(fd, Buffer.from(data).subarray(0, step));
      return fs.writeSync(fd, data, off, Math.min(len, step));
    },
  };
}

test("readFully continues after short reads and stops at the end of the file", () => {
  const p = path.join(tmpdir(), "f");
  fs.writeFileSync(p, "0123456789");
  const fd = fs.openSync(p, "r");
  try {
    const buf = Buffer.alloc(16);
    assert.equal(readFully(stingy(3), fd, buf, 0, 8, 1), 8);
    assert.equal(buf.subarray(0, 8).toString(), "12345678");
    assert.equal(readFully(stingy(3), fd, buf, 2, 16, 4), 6, "only 6 bytes after offset 4");
    assert.equal(buf.subarray(2, 8).toString(), "456789");
    assert.equal(readAt(stingy(4), fd, 100, 7).toString(), "789");
  } finally {
    fs.closeSync(fd);
  }
});

test("writeFully continues after short writes, string and bytes alike", () => {
  const p = path.join(tmpdir(), "w");
  const fd = fs.openSync(p, "a");
  try {
    writeFully(stingy(3), fd, "héllo wörld\n");
    writeFully(stingy(2), fd, Buffer.from("bytes too\n"));
  } finally {
    fs.closeSync(fd);
  }
  assert.equal(fs.readFileSync(p, "utf8"), "héllo wörld\nbytes too\n");
});

test("writeFully throws SHORT, with the bytes written, when a write makes no progress", () => {
  const p = path.join(tmpdir(), "z");
  const fd = fs.openSync(p, "a");
  try {
    assert.throws(
      () => writeFully(stingy(4, { zeroAfter: 2 }), fd, Buffer.from("0123456789")),
      (e) => e.code === "SHORT" && e.written === 8,
    );
  } finally {
    fs.closeSync(fd);
  }
});

test("replaceFile: the new content or the old, mode 0600, no file left aside on failure", () => {
  const dir = tmpdir();
  const p = path.join(dir, "status.json");
  replaceFile(fs, p, "one\n");
  replaceFile(fs, p, "two\n");
  assert.equal(fs.readFileSync(p, "utf8"), "two\n");
  assert.equal(fs.statSync(p).mode & 0o777, 0o600);
  const failing = { ...fs, renameSync: () => { const e = new Error("no"); e.code = "EXDEV"; throw e; } };
  assert.throws(() => replaceFile(failing, p, "three\n"), { code: "EXDEV" });
  assert.equal(fs.readFileSync(p, "utf8"), "two\n");
  assert.deepEqual(fs.readdirSync(dir), ["status.json"]);
});

test("readToEnd: one rule for a descriptor that does not block — wait and read again, end after the idle time", async () => {
  const { readToEnd } = await import("../../plugin/io.js");
  // A fake descriptor: data, then two "nothing yet" answers, data, then the end.
  const script = [Buffer.from("ab"), "EAGAIN", "EAGAIN", Buffer.from("cd"), 0];
  const fake = {
    readSync(_fd, buf) {
      const step = script.shift();
      if (step === "EAGAIN") throw Object.assign(new Error("again"), { code: "EAGAIN" });
      if (step === 0) return 0;
      step.copy(buf);
      return step.length;
    },
  };
  const got = [];
  assert.equal(readToEnd(fake, 0, (b) => got.push(Buffer.from(b).toString())), 4);
  assert.deepEqual(got, ["ab", "cd"]);
  // Nothing ever arrives: it ends after idleMs on the clock it is given, having waited between tries.
  let t = 0;
  let tries = 0;
  const idle = { readSync() { tries++; t += 10; throw Object.assign(new Error("again"), { code: "EAGAIN" }); } };
  assert.equal(readToEnd(idle, 0, () => assert.fail("no data"), { idleMs: 50, now: () => t }), 0);
  assert.equal(tries, 5);
  // Any other error is the caller's.
  assert.throws(() => readToEnd({ readSync() { throw Object.assign(new Error("bad"), { code: "EBADF" }); } }, 0, () => {}), /bad/);
});
