// What a failure hint searches for: the core's last failure block, not early noise or the runner's boilerplate;
// the words every build prints left out; and which hits a hint shows (the best and the runners-up close to it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { failureBlockOf } from "../../plugin/core.js";
import { failureLines, failureQuery, wordsOf } from "../../plugin/recall/query.js";
import { RUNNER_UP, hintCut } from "../../plugin/recall/rank.js";

// A CI run: a tolerated warning and a skipped test first, the cause, then npm's wrapper and the runner's lines.
const RUN = `$ npm ci
npm WARN deprecated inflight@1.0.6: This module is not supported
Error: optional dependency fsevents skipped (unsupported platform)
$ npm test
  parser
    ✓ reads a header
    - streams large files (skipped)
    1) keeps quoted commas
  1 passing
  1 failing

  1) parser
       keeps quoted commas:
     AssertionError: expected [ 'a', 'b' ] to deeply equal [ 'a,b' ]
      at Context.<anonymous> (test/csvParser.test.js:41:12)

npm ERR! code ELIFECYCLE
npm ERR! Test failed.  See above for more details.
The command "npm test" exited with 1.
travis_fold:start:cache.1
store build cache
uploading master/cache-linux-jammy-9f1c2a.tgz
cache uploaded
travis_fold:end:cache.1
Done. Your build exited with 1.
`;

test("the block is the last failure, with what explains it, and no boilerplate", () => {
  const block = failureBlockOf(RUN);
  assert.ok(Array.isArray(block), "the core runs here");
  assert.ok(block.includes("AssertionError: expected [ 'a', 'b' ] to deeply equal [ 'a,b' ]"), block.join("\n"));
  assert.ok(block.includes("at Context.<anonymous> (test/csvParser.test.js:41:12)"), "the line after the failure explains it");
  for (const l of block) assert.doesNotMatch(l, /fsevents|npm ERR!|exited with|cache|Done\. Your build/, l);
});

test("the query holds the failure's own words, not the build's", () => {
  const q = failureQuery({ command: "ci/script.sh", error: "Exit code 1\n" + RUN });
  for (const w of ["quoted", "commas", "assertionerror", "parser"]) assert.ok(q.words.includes(w), `${w}: ${q.words}`);
  for (const w of ["fsevents", "optional", "cache", "uploading", "exited", "elifecycle", "failed", "test", "error"]) {
    assert.ok(!q.words.includes(w), `${w} is not the failure's: ${q.words}`);
  }
  assert.ok(q.files.includes("test/csvParser.test.js"), q.files.join(" "));
});

test("without the core, the error-looking lines stand in", () => {
  const none = () => null;
  const text = "compiling\nerror: linker `cc` not found\ndone";
  assert.deepEqual(failureLines(text, none), ["error: linker `cc` not found"]);
  assert.deepEqual(failureLines("step one\nstep two", none), ["step one", "step two"]);
  assert.ok(failureQuery({ output: text }, none).words.includes("linker"));
});

test("the core's block never throws, whatever it is given", () => {
  for (const x of [undefined, null, 42, {}, ""]) {
    const got = failureBlockOf(x);
    assert.ok(got === null || Array.isArray(got), String(x));
  }
  assert.deepEqual(failureBlockOf(""), []);
  const long = "x".repeat(3_000_000) + "\nerror: the end";
  assert.deepEqual(failureBlockOf(long).at(-1), "error: the end");
});

test("a hint shows the best and only the runners-up close to it", () => {
  const hits = [{ eid: "a", score: 6 }, { eid: "b", score: 6 * RUNNER_UP }, { eid: "c", score: 6 * RUNNER_UP - 0.01 }];
  assert.deepEqual(hintCut(hits).map((h) => h.eid), ["a", "b"]);
  assert.deepEqual(hintCut([]), []);
});

test("ASCII text is split into the words the Unicode rule finds", () => {
  // wordsOf takes a narrower pattern for ASCII text; it must find what the Unicode one does there.
  const unicode = (t) => [...new Set([...t.matchAll(/[\p{L}\p{N}\p{M}]+/gu)].map((m) => m[0].toLowerCase()))];
  let seed = 7;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  for (let i = 0; i < 300; i++) {
    const text = Array.from({ length: 80 }, () => String.fromCharCode(next() % 128)).join("");
    const keep = (w) => w.length >= 2 && !/^\d{1,3}$|^\d{7,}$/.test(w);
    assert.deepEqual(wordsOf(text, 1000).filter(keep), unicode(text).filter((w) => keep(w) && wordsOf(w, 1).length === 1));
  }
  // Text with any other character keeps the Unicode rule: accents and marks stay inside a word.
  assert.deepEqual(wordsOf("Straße schlug fehl: naïve café"), ["straße", "schlug", "fehl", "naïve", "café"]);
});
