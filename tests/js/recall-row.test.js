// What one entry gives the index (plugin/recall/row.js rowOf): its words, the files and commands it names, the
// eids it mentions. The names are worked out per line and per command once; these cases hold what they are.
import { test } from "node:test";
import assert from "node:assert/strict";
import { rowOf } from "../../plugin/recall/row.js";
import { filesIn, namesOf } from "../../plugin/columns.js";

test("files are found on every line of a long output, as written, each once", () => {
  const text = "compiling\n  --> src/lib.rs:12:5\nno dots here at all\nsee ./guide/a.md, then src/lib.rs again\r\nversion 1.2.3 ok";
  assert.deepEqual(filesIn(text), ["src/lib.rs", "guide/a.md"]);
  assert.deepEqual(filesIn("one line: package.json."), ["package.json"]);
  assert.deepEqual(filesIn("nothing\nto see"), []);
});

test("the command member and the same text among the strings give one key; arrays and odd members are read", () => {
  const entry = { command: ["npm run lint", 7, ["nested.js"]], cmd: "cargo test -p core", files: ["./a/b.py", "  ", 3], path: "c.go", note: "ran `git status` then npm run lint" };
  const { files, commands } = namesOf(entry);
  assert.deepEqual(commands, ["npm run lint", "cargo test", "git status"]);
  assert.deepEqual(files, ["a/b.py", "c.go", "nested.js"]);
  assert.deepEqual(namesOf(null), { files: [], commands: [] });
});

test("a row: its words, names and the eids it mentions, its own left out", () => {
  const entry = { eid: "0123456789abc", kind: "lesson", lesson: "fixes 0123456789abd in src/x.ts; see 0123456789abc", command: "npm test" };
  const row = rowOf(entry, JSON.stringify(entry));
  assert.equal(row.eid, "0123456789abc");
  assert.equal(row.body, "fixes 0123456789abd in src/x.ts; see 0123456789abc\nnpm test");
  assert.equal(row.names, "src/x.ts\nnpm test\nlesson");
  assert.deepEqual(row.refs, ["0123456789abd"]);
});
