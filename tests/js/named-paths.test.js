// Comments and docs that name a file of this repository (`plugin/…`, `crate/src/…`, `tests/…`, `bench/…`,
// `scripts/…`, `docs/…`) name one that exists: a renamed or removed file leaves no stale pointer behind.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { execFileSync } from "node:child_process";
import { ROOT } from "./helpers.js";

// Paths the build or a bench writes (not committed).
const MADE = /^(plugin\/wasm\/|plugin\/cli\.bundle\.|plugin\/recorder\.bundle\.js|plugin\/node-cache\.cjs|plugin\/view\/dist\/|tests\/\.tmp\/|target\/)/;
// Paths inside test data: the made-up projects whose failures the recall tables rank.
const EXAMPLES = new Set(["tests/NAME.test.ts", "tests/e2e/login.test.ts", "tests/test_refunds.py"]);
// BENCHMARKS.md records what earlier revisions were measured with, under the names they had then.
const HISTORY = new Set(["BENCHMARKS.md"]);
const NAMED = /(?<![\w./-])((?:plugin|crate\/src|tests|bench|scripts|docs)\/[\w./-]*[\w/])/g;

function committedFiles() {
  return execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" }).split("\n").filter(Boolean);
}

test("every repository path named in code, comments and docs exists", () => {
  const files = committedFiles();
  const known = new Set(files);
  for (const f of files) for (let d = path.dirname(f); d !== "."; d = path.dirname(d)) known.add(d);
  const missing = [];
  for (const f of files) {
    if (!/\.(js|cjs|mjs|ts|rs|md|sh|toml|json)$/.test(f) || f === "package-lock.json" || f.startsWith("tests/fixtures/") || HISTORY.has(f)) continue;
    const text = fs.readFileSync(path.join(ROOT, f), "utf8");
    for (const m of text.matchAll(NAMED)) {
      let p = m[1].replace(/[.]+$/, "").replace(/\/$/, "");
      // A pattern (`tests/js/export*.test.js`, `holdout-*.jsonl`) names many files, not this one.
      const next = text.slice(m.index + m[0].length, m.index + m[0].length + 2);
      if (next.startsWith("*") || next === "-*" || MADE.test(p + "/") || EXAMPLES.has(p)) continue;
      // A reference with a line number keeps its path part only.
      p = p.replace(/:\d+$/, "");
      if (!known.has(p) && !fs.existsSync(path.join(ROOT, p))) missing.push(`${f}: ${p}`);
    }
  }
  assert.deepEqual(missing, []);
});
