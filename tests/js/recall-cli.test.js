// `record recall` and `record show` through the real command, in real git repositories.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { execFileSync } from "node:child_process";
import { tmpdir, isolatedEnv, runCli, lines } from "./helpers.js";
import { missingDriver } from "../../plugin/recall/driver.js";
import { record } from "../../plugin/recorder.js";

const missing = missingDriver();
const skip = missing ?? false;

function world() {
  const dir = tmpdir("rec-recall-cli-");
  const file = path.join(dir, "r.jsonl");
  const env = isolatedEnv(dir, { AI_RECORDINGS_FILE: file, AI_RECORDINGS_SYNC: "0", XDG_DATA_HOME: path.join(dir, "data") });
  const repo = (name) => {
    const p = path.join(dir, name);
    execFileSync("git", ["init", "-q", p]);
    return p;
  };
  const a = repo("widget");
  const b = repo("billing");
  const put = (text, cwd, session) => {
    const r = record(text, { env, cwd, session });
    assert.equal(r.status, "recorded");
    return r.eid;
  };
  const ids = {
    linker: put("lesson: cargo test fails with linker cc not found in a fresh container; install build-essential first", a, "ses_1"),
    other: put("lesson: the billing build fails with linker cc not found on the slim image", b, "ses_2"),
    tz: put("lesson: Button snapshot tests fail because of the timezone; use TZ=UTC", a, "ses_3"),
    mine: put("lesson: cargo test linker flags belong in .cargo/config.toml", a, "ses_now"),
  };
  ids.fix = put(`correction of ${ids.tz}: not the timezone but the locale; set LANG=C.UTF-8`, a, "ses_4");
  return { dir, file, env: { ...env, AI_RECORDINGS_SESSION: "ses_now" }, a, b, ids };
}

test("on a runtime without SQLite, record recall says what it needs and exits 1", { skip: !missing && "this runtime has SQLite" }, () => {
  const dir = tmpdir("rec-recall-cli-");
  const r = runCli(["recall", "anything"], { env: isolatedEnv(dir, { AI_RECORDINGS_FILE: path.join(dir, "r.jsonl") }) });
  assert.equal(r.code, 1);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /^record recall: recall needs SQLite, which Node \d+\.\d+\.\d+ does not have: run it with Node 22\.5 or later \(node:sqlite\) or Bun \(bun:sqlite\)\. Recording works as before\.\n$/);
});

test("record recall: this repository's lessons, the current session left out, a correction beside what it corrects", { skip }, () => {
  const w = world();
  const r = runCli(["recall", "cargo", "test", "linker", "not", "found"], { env: w.env, cwd: w.a });
  assert.equal(r.code, 0, r.stderr);
  const out = r.stdout.trim().split("\n");
  assert.match(out[0], new RegExp(`^${w.ids.linker}  \\d{4}-\\d\\d-\\d\\d  cli  cargo test fails with linker cc not found`));
  assert.ok(!r.stdout.includes(w.ids.other), "another repository's entry is out of scope repo");
  assert.ok(!r.stdout.includes(w.ids.mine), "the current session is left out");
  const all = runCli(["recall", "--scope", "all", "linker cc not found"], { env: w.env, cwd: w.a });
  const order = all.stdout.trim().split("\n").map((l) => l.split(" ")[0]);
  assert.deepEqual(order.slice(0, 2), [w.ids.linker, w.ids.other]);
  assert.match(all.stdout, /\[billing\]\n/);
  const tz = runCli(["recall", "snapshot timezone"], { env: w.env, cwd: w.a });
  assert.equal(tz.stdout, tz.stdout.trimEnd() + "\n");
  const [hit, rel] = tz.stdout.split("\n");
  assert.ok(hit.startsWith(w.ids.tz), tz.stdout);
  assert.ok(rel.startsWith(`    ↳ corrected by ${w.ids.fix} (`), tz.stdout);
  const mine = runCli(["recall", "--include-session", "linker flags config.toml"], { env: w.env, cwd: w.a });
  assert.ok(mine.stdout.startsWith(w.ids.mine), mine.stdout);
});

test("record recall --json: the stored line unchanged, with its score and corrections", { skip }, () => {
  const w = world();
  const r = runCli(["recall", "--json", "snapshot timezone"], { env: w.env, cwd: w.a });
  assert.equal(r.code, 0, r.stderr);
  const stored = new Map(lines(w.file).map((l) => [JSON.parse(l).eid, l]));
  const out = r.stdout.trim().split("\n");
  assert.equal(out.length, 1);
  const m = /^\{"score":([0-9.]+),"entry":(.*),"corrected_by":\[(.*)\],"corrects":\[\]\}$/.exec(out[0]);
  assert.ok(m, out[0]);
  assert.ok(Number(m[1]) > 0);
  assert.equal(m[2], stored.get(w.ids.tz));
  assert.equal(m[3], stored.get(w.ids.fix));
});

test("record recall: any text is a query; nothing matching is not an error; usage errors exit 2", { skip }, () => {
  const w = world();
  for (const q of ['"unterminated', "AND OR NOT", "NEAR(a b", "col:*^", "-- --", "'; DROP TABLE entries; --", "\u00e9\ud83d\ude00 \u0007"]) {
    const r = runCli(["recall", "--", q], { env: w.env, cwd: w.a });
    assert.equal(r.code, 0, `${q}: ${r.stderr}`);
    assert.equal(r.stdout, "");
    assert.equal(r.stderr, "record recall: nothing recorded matches\n");
  }
  assert.equal(runCli(["recall", "--scope", "everything"], { env: w.env, cwd: w.a }).code, 2);
  assert.equal(runCli(["recall", "--limit", "0", "x"], { env: w.env, cwd: w.a }).code, 2);
  const bad = runCli(["recall", "--frobnicate"], { env: w.env, cwd: w.a });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^record recall: Unknown option '--frobnicate'.*See record recall --help\.\n$/);
  // Every word after "recall" is the query: nothing is recorded.
  const before = lines(w.file).length;
  assert.equal(runCli(["recall", "the", "docs", "first"], { env: w.env, cwd: w.a }).code, 0);
  assert.equal(lines(w.file).length, before);
  const off = runCli(["recall", "linker"], { env: { ...w.env, AI_RECORDINGS_RECALL: "0" }, cwd: w.a });
  assert.equal(off.code, 1);
  assert.equal(off.stderr, "record recall: recall is switched off (AI_RECORDINGS_RECALL=0)\n");
});

test("record recall: --limit, the byte budget, and no query lists the newest written entries", { skip }, () => {
  const w = world();
  const one = runCli(["recall", "--limit", "1", "--scope", "all", "linker"], { env: w.env, cwd: w.a });
  assert.equal(one.stdout.trim().split("\n").length, 1);
  const small = runCli(["recall", "--budget", "200", "--scope", "all", "linker cc not found"], { env: w.env, cwd: w.a });
  assert.ok(Buffer.byteLength(small.stdout) < 200 + 80, small.stdout);
  assert.match(small.stdout, /\n… 1 more \(use --json or a larger --budget\)\n$/);
  const newest = runCli(["recall"], { env: w.env, cwd: w.a });
  assert.deepEqual(newest.stdout.trim().split("\n").map((l) => l.trim().split(" ")[0]), [w.ids.fix, "↳", w.ids.linker]);
});

test("record show: an entry with the entry that corrects it, and a correction with what it corrects", { skip }, () => {
  const w = world();
  const r = runCli(["show", w.ids.tz], { env: w.env, cwd: w.a });
  assert.equal(r.code, 0, r.stderr);
  const [own, by] = r.stdout.split("\n## Corrected by\n\n");
  assert.ok(own.includes(w.ids.tz));
  assert.ok(by.startsWith("### "), by);
  assert.ok(by.includes(`eid \`${w.ids.fix}\``));
  const c = runCli(["show", w.ids.fix], { env: w.env, cwd: w.a });
  assert.ok(c.stdout.split("\n## Corrects\n\n")[1].includes(`eid \`${w.ids.tz}\``), c.stdout);
  const plain = runCli(["show", w.ids.linker], { env: w.env, cwd: w.a });
  assert.ok(!plain.stdout.includes("## Corrected by") && !plain.stdout.includes("## Corrects"));
});

test("a first build shows progress on a terminal, and nothing when stderr is not one", { skip }, async () => {
  const w = world();
  const { recall } = await import("../../plugin/cli/recall.js");
  const sink = (isTTY) => ({ isTTY, text: "", write(s) { this.text += s; return true; } });
  let t = 0;
  const err = sink(true);
  const code = await recall(["linker"], { stdout: sink(false), stderr: err, env: w.env, cwd: w.a, now: () => (t += 1000) });
  assert.equal(code, 0);
  assert.match(err.text, /^\rrecord recall: indexing the recordings: 5 entries, 0\.0 MiB\n/);
  const quiet = sink(false);
  fs.rmSync(path.join(w.dir, "data"), { recursive: true });
  await recall(["linker"], { stdout: sink(false), stderr: quiet, env: w.env, cwd: w.a, now: () => (t += 1000) });
  assert.equal(quiet.text, "");
});
