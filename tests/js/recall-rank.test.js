// Ranking as tables: realistic entries from four repositories (tests/fixtures/recall/entries.jsonl), and per
// query the hits expected on top, in order, and the ones that must not show.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { tmpdir, ROOT } from "./helpers.js";
import { missingDriver } from "../../plugin/recall/driver.js";

const skip = missingDriver() ?? false;
const FIXTURE = path.join(ROOT, "tests/fixtures/recall/entries.jsonl");
const WIDGET = "/home/dev/src/widget/.git";
const BILLING = "/home/dev/src/billing-api/.git";
const NOW = Date.parse("2026-12-01T00:00:00Z");
const CURRENT = "ses_now";

let ix = null;
async function index() {
  if (ix) return ix;
  const { openIndex } = await import("../../plugin/recall/index.js");
  const dir = tmpdir("rec-rank-");
  fs.copyFileSync(FIXTURE, path.join(dir, "r.jsonl"));
  ix = await openIndex({ file: path.join(dir, "r.jsonl"), env: { HOME: dir } });
  ix.catchUp();
  return ix;
}

// query, scope, repo worked in, expected top eids in order (with their attached corrections), eids never shown
const RECALL = [
  ["a lesson above the automatic capture of the same failure", "cargo test linker cc not found", "repo", WIDGET, ["0a1b2c3d4e5f6", "0a1b2c3d4e5f7"], ["0b1c2d3e4f5g8"]],
  ["this repo's lesson above another repo's", "cargo test linker cc not found", "all", WIDGET, ["0a1b2c3d4e5f6", "0a1b2c3d4e5f7", "0b1c2d3e4f5g8"], []],
  ["the same question from the other repo", "linker cc not found", "all", BILLING, ["0b1c2d3e4f5g8"], []],
  ["a correction shown with what it corrects", "snapshot Button.test.tsx timezone", "repo", WIDGET, ["0a1b2c3d4e5f9+0a1b2c3d4e5fa"], []],
  ["the correction found by its own words brings the entry it corrects", "LANG locale Intl formats numbers", "repo", WIDGET, ["0a1b2c3d4e5fa+0a1b2c3d4e5f9"], []],
  ["the current session left out", "npm run lint eslint", "repo", WIDGET, ["0a1b2c3d4e5ff", "0a1b2c3d4e5g0"], ["0a1b2c3d4e5fe"]],
  ["scope repo keeps other repos out", "pytest database does not exist", "repo", BILLING, ["0b1c2d3e4f5g6", "0b1c2d3e4f5g7"], ["0a1b2c3d4e5f6"]],
  ["a file named in common", "crates/core/src/lib.rs oldString", "repo", WIDGET, ["0a1b2c3d4e5fb"], []],
  ["an unrelated query answers nothing", "sourdough bread recipe", "all", WIDGET, [], null],
  ["an unrelated question of common words answers nothing", "how do I deploy to production kubernetes", "all", WIDGET, [], null],
  ["only stop words", "what is the way to do it", "all", WIDGET, [], null],
  ["FTS syntax is taken as words", '"unterminated AND NEAR( * ^col: OR -', "all", WIDGET, [], null],
  ["FTS syntax around real words", 'linker* AND "cc" NEAR(found', "repo", WIDGET, ["0a1b2c3d4e5f6"], []],
];

for (const [name, query, scope, gitDir, top, never] of RECALL) {
  test(`recall: ${name}`, { skip }, async () => {
    const { search } = await import("../../plugin/recall/search.js");
    const { hits } = search((await index()).db, query, { scope, gitDir, session: CURRENT, now: NOW });
    const got = hits.map((h) => [h.eid, ...h.corrects.map((c) => c.eid), ...h.correctedBy.map((c) => c.eid)].join("+"));
    assert.deepEqual(got.slice(0, top.length), top, `hits: ${got.join(", ")}`);
    if (never === null) assert.deepEqual(got, []);
    for (const e of never ?? []) assert.ok(!got.some((g) => g.includes(e)), `${e} must not show: ${got.join(", ")}`);
  });
}

test("recall: the current session's entries are there when asked for", { skip }, async () => {
  const { search } = await import("../../plugin/recall/search.js");
  const { hits } = search((await index()).db, "npm run lint generated files", { gitDir: WIDGET, session: CURRENT, includeSession: true, now: NOW });
  assert.equal(hits[0].eid, "0a1b2c3d4e5fe");
});

// failure (command, output), repo, expected hint eids (best first); [] = silent
const HINTS = [
  ["the same linker failure", "cargo test -p widget-core", "   Compiling widget-core v0.4.1\nerror: linker `cc` not found\n  = note: No such file or directory (os error 2)\nerror: could not compile `widget-core`", WIDGET, ["0a1b2c3d4e5f6"]],
  ["a port still bound", "npm test", "FAIL tests/e2e/login.test.ts\n  Error: listen EADDRINUSE: address already in use :::5173", WIDGET, ["0a1b2c3d4e5f8"]],
  ["the eslint parser again", "npm run lint", "> eslint src\nError: Cannot find module '@typescript-eslint/parser'", WIDGET, ["0a1b2c3d4e5ff"]],
  ["the missing test database", "pytest -q", 'E   psycopg.OperationalError: connection failed: FATAL:  database "billing_test" does not exist', BILLING, ["0b1c2d3e4f5g6"]],
  ["an unrelated type error", "npx tsc --noEmit", "src/ui/Table.tsx(12,3): error TS2339: Property 'rows' does not exist on type 'Props'.", WIDGET, []],
  ["an unrelated compile error", "cargo build", "error[E0308]: mismatched types\n --> crates/core/src/render.rs:88:9\n  |\n88 |     let n: u32 = name;\n   |            ---   ^^^^ expected `u32`, found `&str`", WIDGET, []],
  ["an unrelated assertion", "pytest -q", "FAILED tests/test_refunds.py::test_partial - AssertionError: assert 10 == 9\n1 failed, 40 passed in 2.10s", BILLING, []],
  ["a lesson of another repo is no hint here", "pytest -q", 'FATAL:  database "billing_test" does not exist', WIDGET, []],
  ["a failure without output", "make", "", WIDGET, []],
];

for (const [name, command, output, gitDir, want] of HINTS) {
  test(`hint: ${name}`, { skip }, async () => {
    const { search } = await import("../../plugin/recall/search.js");
    const { failureQuery } = await import("../../plugin/recall/query.js");
    const { hits } = search((await index()).db, failureQuery({ command, output }), { mode: "hint", gitDir, session: CURRENT, now: NOW, limit: 3 });
    assert.deepEqual(hits.map((h) => h.eid), want);
  });
}
