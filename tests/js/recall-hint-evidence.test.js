// What a hint takes as evidence: on a large index, only the rare words matched (what to match is matchOf's),
// and nothing when every word of the failure is common.
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
  "a migration that renames a column needs the two-step deploy in docs/deploy.md",
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
