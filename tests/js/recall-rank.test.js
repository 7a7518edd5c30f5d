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

const CI_LINKER = `travis_fold:start:install
$ rustup component add clippy
info: downloading component 'clippy'
warning: unused variable: \`scratch\`
  --> crates/core/src/cache.rs:12:9
travis_fold:end:install
$ cargo test
   Compiling widget-core v0.4.1 (/home/travis/build/acme/widget/crates/core)
error: linker \`cc\` not found
  |
  = note: No such file or directory (os error 2)
error: could not compile \`widget-core\` (lib) due to 1 previous error
The command "cargo test" exited with 101.
travis_fold:start:cache.2
store build cache
changes detected, packing new archive
uploading master/cache-linux-jammy-3f9c2a.tgz
cache uploaded
travis_fold:end:cache.2
Done. Your build exited with 1.`;
const CI_DATABASE = `+ pip install -r requirements.txt
Requirement already satisfied: pytest in ./venv/lib/python3.12/site-packages
WARNING: You are using pip version 23.0; however, version 24.2 is available.
+ pytest -q
ss...........E
==================================== ERRORS ====================================
_________________________ ERROR at setup of test_refund _________________________
E   psycopg.OperationalError: connection failed: FATAL:  database "billing_test" does not exist
=========================== short test summary info ============================
ERROR tests/test_refunds.py::test_refund - psycopg.OperationalError: connection failed
1 error, 12 passed, 2 skipped in 3.02s
make: *** [Makefile:14: test] Error 1`;
const LINT_QUOTES = `> widget@2.1.0 lint
> eslint src

/home/dev/src/widget/src/ui/Table.tsx
  14:7  error  Strings must use singlequote  quotes

✖ 1 problem (1 error, 0 warnings)
npm ERR! code ELIFECYCLE
npm ERR! errno 1`;
const CI_UNRELATED_TEST = `$ npm test
 RUN  v1.6.0 /home/travis/build/acme/widget
 ✓ src/ui/Button.test.tsx (3 tests) 41ms
 ❯ src/cart/total.test.ts (2 tests | 1 failed) 12ms
   × total > rounds half up
     → expected 10.05 to be 10.1
 FAIL  src/cart/total.test.ts > total > rounds half up
AssertionError: expected 10.05 to be 10.1 // Object.is equality
 Test Files  1 failed | 1 passed (2)
npm ERR! Test failed.  See above for more details.
The command "npm test" exited with 1.
Done. Your build exited with 1.`;

// A later step's summary after the cause: the core's last block says only that the build failed.
const CI_SUMMARY_AFTER = `$ cargo build -p widget-core
   Compiling widget-core v0.4.1
error: linker \`cc\` not found
  = note: No such file or directory (os error 2)
$ cat target/build.log
error: build failed`;

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
  // CI logs: the cause sits between early noise and the runner's boilerplate, under a command no gate list knows.
  ["the linker failure at the end of a CI log", "ci/script.sh", CI_LINKER, WIDGET, ["0a1b2c3d4e5f6"]],
  ["the missing test database under a build script", "./build.sh", CI_DATABASE, BILLING, ["0b1c2d3e4f5g6"]],
  ["a lint finding that shares only the linter's words", "npm run lint", LINT_QUOTES, WIDGET, []],
  ["an unrelated test failure wrapped in npm's and the runner's lines", "ci/script.sh", CI_UNRELATED_TEST, WIDGET, []],
  ["the linker failure before a later step's summary", "ci/script.sh", CI_SUMMARY_AFTER, WIDGET, ["0a1b2c3d4e5f6"]],
];

for (const [name, command, output, gitDir, want] of HINTS) {
  test(`hint: ${name}`, { skip }, async () => {
    const { search } = await import("../../plugin/recall/search.js");
    const { failureQuery } = await import("../../plugin/recall/query.js");
    const { hits } = search((await index()).db, failureQuery({ command, output }), { mode: "hint", gitDir, session: CURRENT, now: NOW, limit: 3 });
    assert.deepEqual(hits.map((h) => h.eid), want);
  });
}

// A search skips the matches whose text score could not reach its cut with maxBoost(): that is only lossless while
// no hit's boost exceeds it. Every kind of hit, against queries naming none to three files and commands.
test("maxBoost bounds boost for every hit and is reached by the best one", async () => {
  const { boost, maxBoost } = await import("../../plugin/recall/rank.js");
  const names = [[], ["src/a.ts"], ["src/a.ts", "lib/b.rs"], ["src/a.ts", "lib/b.rs", "c.py"]];
  const cmds = [[], ["npm test"], ["npm test", "cargo build"], ["npm test", "cargo build", "make"]];
  for (const hint of [false, true]) {
    for (const files of names) {
      for (const commands of cmds) {
        const query = { files, commands };
        const context = { gitDir: "/r/.git", repoKey: "k", now: NOW, hint };
        const bound = maxBoost(query, context);
        let best = 0;
        for (const machine of [undefined, "m2"]) {
          for (const git_dir of ["/r/.git", "/other/.git"]) {
            for (const capture of ["auto", "agent"]) {
              for (const t of [NOW, NOW - 400 * 86_400_000, undefined]) {
                for (const hf of names) {
                  for (const hc of cmds) {
                    const hit = { machine, team_key: machine ? "k" : undefined, git_dir, capture, t, files: hf, commands: hc };
                    const b = boost(hit, query, context);
                    assert.ok(b <= bound, `boost ${b} over the bound ${bound}`);
                    best = Math.max(best, b);
                  }
                }
              }
            }
          }
        }
        assert.equal(best, bound);
      }
    }
  }
});
