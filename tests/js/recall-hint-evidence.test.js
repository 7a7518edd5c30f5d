// What a hint takes as evidence: two of the failure's rare words (or files) in common, not one however often
// repeated; the block before a failure block that is only a summary; the failure's own earlier runs not counted
// against its lesson; and on a large index, only the rare words matched (what to match is matchOf's).
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { tmpdir } from "./helpers.js";
import { missingDriver } from "../../plugin/recall/driver.js";
import { failureQuery } from "../../plugin/recall/query.js";

const skip = missingDriver() ?? false;
const REPO = "/home/dev/src/shop";
const GIT_DIR = `${REPO}/.git`;
const NOW = Date.parse("2026-12-01T00:00:00Z");
let seq = 0;

function entry(fields) {
  seq++;
  return JSON.stringify({
    ts: new Date(NOW - 86_400_000 + seq * 1000).toISOString(),
    eid: `0e${String(seq).padStart(11, "0")}`,
    pwd: REPO,
    repo: "shop",
    git_dir: GIT_DIR,
    origin: "https://github.com/acme/shop.git",
    session: `ses_${seq}`,
    ...fields,
  });
}
const lesson = (text, extra = {}) => entry({ kind: "lesson", lesson: text, capture: "agent", ...extra });
const gate = (command, output, session) => entry({ trigger: "gate.failed", command, exit: 1, output_tail: output, capture: "auto", session });

// Notes someone wrote about other things: the background a young index has.
const BACKGROUND = [
  "the release script needs GITHUB_TOKEN exported; without it the changelog step is skipped silently",
  "docker compose up fails on a fresh clone until .env is copied from .env.example",
  "the staging database is reset every night at 02:00 UTC, fixtures included",
  "prettier and eslint disagree on trailing commas in JSON files; eslint's rule is off for json",
  "run the payment tests with STRIPE_KEY unset: they use the recorded cassettes then",
  "a migration that renames a column needs the two-step deploy the runbook describes",
];

async function indexOf(lines) {
  const { openIndex } = await import("../../plugin/recall/index.js");
  const dir = tmpdir("rec-evidence-");
  fs.writeFileSync(path.join(dir, "r.jsonl"), lines.map((l) => l + "\n").join(""));
  const ix = await openIndex({ file: path.join(dir, "r.jsonl"), env: { HOME: dir } });
  ix.catchUp();
  return ix;
}

async function hinted(ix, failure, session = "ses_now") {
  const { search } = await import("../../plugin/recall/search.js");
  const { hits } = search(ix.db, failureQuery(failure), { mode: "hint", gitDir: GIT_DIR, session, now: NOW, limit: 3 });
  return hits.map((h) => JSON.parse(h.line).lesson);
}

test("one shared word, however often a lesson repeats it, is no hint; two are", { skip }, async () => {
  const once = "kombucha kombucha kombucha: the kombucha fixture again, kombucha everywhere";
  const twice = "the invoice renderer breaks on a zero-width joiner in a customer name: strip it before layout";
  const ix = await indexOf([...BACKGROUND.map((t) => lesson(t)), lesson(once), lesson(twice)]);
  try {
    assert.deepEqual(await hinted(ix, { command: "npm test", output: "Error: kombucha missing from the seed data" }), []);
    const got = await hinted(ix, { command: "npm test", output: "TypeError: renderer cannot lay out a joiner in the customer name" });
    assert.deepEqual(got, [twice]);
  } finally {
    ix.close();
  }
});

test("a failure block that is only a summary is searched with the block before it", () => {
  const log = [
    "$ cargo build --release",
    "   Compiling shop-core v0.3.0",
    "error[E0432]: unresolved import `serde_json::Valu`",
    " --> src/config.rs:3:5",
    "error: could not compile `shop-core` (lib) due to 1 previous error",
    "$ cat target/build.log",
    "error: build failed",
  ].join("\n");
  const q = failureQuery({ command: "ci/script.sh", error: `Exit code 1\n${log}` });
  for (const w of ["unresolved", "import", "serde", "valu"]) assert.ok(q.words.includes(w), `${w}: ${q.words}`);
  assert.ok(q.files.some((f) => f.startsWith("src/config.rs")), q.files.join(" "));
});

test("a block with words enough is searched alone", () => {
  const log = [
    "$ npm test",
    "Error: listen EADDRINUSE: address already in use :::5173",
    "$ npm run e2e",
    "AssertionError: expected the checkout subtotal of two discounted gift cards to round half up, got 10.05",
  ].join("\n");
  const q = failureQuery({ command: "ci/script.sh", error: log });
  assert.ok(q.words.includes("checkout"), q.words.join(" "));
  assert.ok(!q.words.includes("eaddrinuse"), q.words.join(" "));
});

test("a runner's header before a short block is not a failure block", () => {
  const log = "> shop@1.0.0 lint\n> eslint src\n\nsrc/ui/Cart.tsx\n  14:7  error  Strings must use singlequote  quotes\n\n✖ 1 problem (1 error, 0 warnings)";
  const q = failureQuery({ command: "npm run lint", output: log });
  assert.ok(q.words.includes("singlequote"), q.words.join(" "));
  assert.ok(!q.words.includes("eslint"), q.words.join(" "));
});

test("a failure's earlier runs do not push its lesson under the bar", { skip }, async () => {
  const output = "Error: no rate for category grocery-hotfood in region BR-SP";
  const fix = "grocery hotfood: ask finance for the figure, the importer cannot know it";
  const runs = Array.from({ length: 9 }, (_, i) => gate("npm test", output, `ses_run${i}`));
  const ix = await indexOf([...BACKGROUND.map((t) => lesson(t)), lesson(fix), ...runs, gate("npm test", output, "ses_now")]);
  try {
    assert.deepEqual(await hinted(ix, { command: "npm test", output }, "ses_now"), [fix]);
    // Its first run: the same words, as many entries hold them beside the lesson.
    assert.deepEqual(await hinted(ix, { command: "npm test", output }, "ses_run0"), [fix]);
  } finally {
    ix.close();
  }
});

test("a hint matches the rarest words while their entries stay few; recall matches all that are not common", async () => {
  const { matchOf, HINT_POSTINGS } = await import("../../plugin/recall/search.js");
  const words = ["widget", "zeta", "omega", "tau", "build"];
  const total = 100_000;
  const counts = [HINT_POSTINGS / 2, 3, HINT_POSTINGS / 2, 40, 50_000];
  const hint = matchOf(words, counts, total, HINT_POSTINGS);
  assert.deepEqual(hint.rare.map((x) => x.w), ["zeta", "tau", "widget"]);
  assert.deepEqual(matchOf(words, counts, total).rare.map((x) => x.w), ["zeta", "tau", "widget", "omega"]);
  // The rarest word goes in however many entries hold it.
  assert.deepEqual(matchOf(["kappa"], [HINT_POSTINGS * 2], total, HINT_POSTINGS).rare.map((x) => x.w), ["kappa"]);
  assert.deepEqual(matchOf(["build"], [50_000], total, HINT_POSTINGS), { all: ["build"] });
});

test("a failure whose every word is common gets no hint", { skip }, async () => {
  const many = Array.from({ length: 260 }, (_, i) => lesson(`checkout total rounding seen again in run ${i}`));
  const ix = await indexOf([...many, lesson("checkout total rounding: see src/cart/total.ts")]);
  try {
    assert.deepEqual(await hinted(ix, { command: "npm test", output: "checkout total rounding in src/cart/total.ts" }), []);
  } finally {
    ix.close();
  }
});
