#!/usr/bin/env node
// The redaction report: recall and false-positive rate per rule and overall through the built wasm core
// (plugin/core.js `Core.record`), i.e. what lands in the file, loose `key: value` reading of text included, for the
// fixture sets in tests/fixtures/redaction/: the one the rules were written against, and four held-out sets other
// sessions wrote without looking at the rules (holdout.mjs to holdout4.mjs; what their first runs found
// was fixed where a general rule could, so they are no longer blind: see tests/js/redaction.test.js). Run: `node bench/redaction-report.js` (or under Bun). `--check` exits 1 when a
// target is missed on the first set (recall >= 99%, false positives <= 1%). The Rust report of the redactor alone
// is `cargo test -p recordings-core --test redaction -- --nocapture`.
//
// A positive is caught when its secret appears nowhere in the line (verbatim or JSON-escaped); "named" when the
// line's `redacted` list also names the fixture's rule. A negative is a false positive when the core redacted
// anything in it; it is charged to the rule(s) its `redacted` list names.
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { redactionFixtures } from "../tests/fixtures/redaction/fixtures.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const VERBOSE = process.argv.includes("--verbose") || process.argv.includes("-v");


const { Core, coreLoadError } = await import(pathToFileURL(path.join(ROOT, "plugin", "core.js")));
if (coreLoadError()) {
  console.error(`the wasm core did not load (${coreLoadError()}); run: bash scripts/build.sh`);
  process.exit(2);
}
const core = new Core();
core.setContext({ capture: "cli", stamps: {} }); // no stamps: only the fixture decides what is redacted
const NOW = Date.UTC(2026, 10, 29, 10, 0, 0);

function leaks(line, secret) {
  return line.includes(secret) || line.includes(JSON.stringify(secret).slice(1, -1));
}

const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(1)}%` : "-");
const pad = (s, w, right = true) => (right ? String(s).padStart(w) : String(s).padEnd(w));
const runtime = typeof Bun !== "undefined" ? `Bun ${Bun.version}` : `Node ${process.versions.node}`;

/** Runs one fixture set through the core and prints its table; returns whether both targets are met. */
function report(title, positives, negatives) {
  const rows = new Map(); // rule -> { n, caught, named, fp }
  const row = (rule) => rows.get(rule) ?? rows.set(rule, { n: 0, caught: 0, named: 0, fp: 0 }).get(rule);
  const details = [];
  let ruleset = null;
  for (const p of positives) {
    const r = row(p.rule);
    r.n++;
    const out = core.record(p.input, NOW);
    const entry = JSON.parse(out.line);
    ruleset ??= entry.redaction_rules ?? null;
    if (leaks(out.line, p.secret)) {
      details.push(`MISSED [${p.rule}] ${JSON.stringify(p.input)}`);
      continue;
    }
    r.caught++;
    if ((entry.redacted ?? []).some((h) => h.rule === p.rule)) r.named++;
    else details.push(`other rule [${p.rule}] -> ${JSON.stringify((entry.redacted ?? []).map((h) => h.rule))} ${JSON.stringify(p.input)}`);
  }
  let fps = 0;
  for (const n of negatives) {
    const out = core.record(n.input, NOW);
    const entry = JSON.parse(out.line);
    if (out.redactions > 0 || entry.redacted !== undefined) {
      fps++;
      const rules = [...new Set((entry.redacted ?? []).map((h) => h.rule))];
      for (const rule of rules) row(rule).fp++;
      details.push(`FALSE POSITIVE (${n.why}) ${JSON.stringify(rules)} ${JSON.stringify(n.input)}`);
    }
  }
  console.log(`${title}: redaction report through the wasm core (${runtime}; rule set ${ruleset ?? "?"})`);
  console.log(`${positives.length} positives, ${negatives.length} negatives\n`);
  console.log(`${pad("rule", 26, false)} ${pad("n", 4)} ${pad("caught", 6)} ${pad("recall", 7)} ${pad("named", 7)} ${pad("FPs", 4)} ${pad("FP rate", 8)}`);
  let total = 0;
  let caught = 0;
  let named = 0;
  for (const [rule, r] of [...rows].sort((a, b) => a[0].localeCompare(b[0]))) {
    total += r.n;
    caught += r.caught;
    named += r.named;
    // a rule's false-positive rate: negatives it fired on, over all negatives (each negative could trip any rule)
    console.log(
      `${pad(rule, 26, false)} ${pad(r.n, 4)} ${pad(r.caught, 6)} ${pad(pct(r.caught, r.n), 7)} ${pad(pct(r.named, r.n), 7)} ${pad(r.fp, 4)} ${pad(pct(r.fp, negatives.length), 8)}`,
    );
  }
  console.log(
    `${pad("ALL", 26, false)} ${pad(total, 4)} ${pad(caught, 6)} ${pad(pct(caught, total), 7)} ${pad(pct(named, total), 7)} ${pad(fps, 4)} ${pad(pct(fps, negatives.length), 8)}`,
  );
  const recall = caught / total;
  const fpRate = fps / negatives.length;
  console.log(`\ntargets: recall >= 99% ${recall >= 0.99 ? "met" : "NOT MET"} (${pct(caught, total)}), false positives <= 1% ${fpRate <= 0.01 ? "met" : "NOT MET"} (${pct(fps, negatives.length)})`);
  if (details.length) {
    if (VERBOSE) console.log(`\n${details.join("\n")}`);
    else console.log(`${details.length} misses / false positives (--verbose lists them)`);
  }
  return recall >= 0.99 && fpRate <= 0.01;
}

const ok = report(
  "Fixtures the rules were written against (tests/fixtures/redaction/positives.jsonl, negatives.jsonl)",
  redactionFixtures("positives.jsonl"),
  redactionFixtures("negatives.jsonl"),
);
console.log("");
report(
  "Held-out set, written blind by another session (tests/fixtures/redaction/holdout-*.jsonl, see holdout.mjs)",
  redactionFixtures("holdout-positives.jsonl"),
  redactionFixtures("holdout-negatives.jsonl"),
);
console.log("");
report(
  "Held-out set 2, long tool output, written blind by another session (holdout2-*.jsonl, see holdout2.mjs)",
  redactionFixtures("holdout2-positives.jsonl"),
  redactionFixtures("holdout2-negatives.jsonl"),
);
console.log("");
report(
  "Held-out set 3, passwords on command lines, written blind by another session (holdout3-*.jsonl, see holdout3.mjs)",
  redactionFixtures("holdout3-positives.jsonl"),
  redactionFixtures("holdout3-negatives.jsonl"),
);
console.log("");
report(
  "Held-out set 4, config and credential files, source code, vendor tokens, written blind by another session (holdout4-*.jsonl, see holdout4.mjs)",
  redactionFixtures("holdout4-positives.jsonl"),
  redactionFixtures("holdout4-negatives.jsonl"),
);
console.log("");
report(
  "General rules of rule set 2026-12-01.1: labels of several words or with no operator, vendors' names, keys with values drawn at random, tokens led by what they are, two-part credentials (general-*.jsonl, written with the rules)",
  redactionFixtures("general-positives.jsonl"),
  redactionFixtures("general-negatives.jsonl"),
);
console.log("");
report(
  "Shapes of rule set 2026-12-02.1: vendor prefixes, password hashes, webhook URLs, labels naming a credential before a value shaped as one (shapes-*.jsonl, written with the rules)",
  redactionFixtures("shapes-positives.jsonl"),
  redactionFixtures("shapes-negatives.jsonl"),
);
console.log("");
report(
  "Leads of rule set 2026-12-02.2: tokens led by a word naming a credential, UUIDs and keys in groups after labels, vendor properties and shapes, connection-string passwords (leads-*.jsonl, written with the rules)",
  redactionFixtures("leads-positives.jsonl"),
  redactionFixtures("leads-negatives.jsonl"),
);
console.log("");
report(
  "Formats of rule set 2026-12-02.3: documented token and output formats (Telegram, ClickUp, Stripe, JWS, Vault unseal keys, PowerShell parameters, Terraform and Gradle values), values named on the line before or by a quoted name (formats-*.jsonl, written with the rules)",
  redactionFixtures("formats-positives.jsonl"),
  redactionFixtures("formats-negatives.jsonl"),
);
if (process.argv.includes("--check") && !ok) process.exitCode = 1;
