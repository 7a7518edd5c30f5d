// The reader across a rotation that happens between its directory listing and its open of the live file: the
// archive the rotation made comes first, then the new live file (append order), each entry once.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { readRecordings } from "../../plugin/read/index.js";
import { archiveName } from "../../plugin/paths.js";
import { tmpdir } from "./helpers.js";

const line = (n) => `{"eid":"e${String(n).padStart(12, "0")}","n":${n}}\n`;
const QUIET = () => Date.parse("2100-01-01T00:00:00Z");

test("a rotation between listing and opening the live file keeps append order", () => {
  const dir = tmpdir();
  const file = path.join(dir, "r.jsonl");
  fs.writeFileSync(archiveName(file, Date.UTC(2026, 0, 1)), line(1) + line(2));
  fs.writeFileSync(file, line(3) + line(4));
  let rotated = false;
  // node:fs, except that the first open of the live path rotates it first, as another writer could.
  const racing = {
    ...fs,
    openSync(p, ...rest) {
      if (p === file && !rotated) {
        rotated = true;
        fs.renameSync(file, archiveName(file, Date.UTC(2026, 0, 2)));
        fs.writeFileSync(file, line(5) + line(6));
      }
      return fs.openSync(p, ...rest);
    },
  };
  const r = readRecordings({ file, fs: racing, now: QUIET });
  assert.equal(rotated, true, "the race happened");
  assert.deepEqual(r.records.map((x) => x.entry.n), [1, 2, 3, 4, 5, 6]);
  // and the cursor resumes after all of them
  fs.appendFileSync(file, line(7));
  assert.deepEqual(readRecordings({ file, since: r.cursor, now: QUIET }).records.map((x) => x.entry.n), [7]);
});
