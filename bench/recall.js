#!/usr/bin/env node
// Benchmark of recall: a 100,000-entry (~100 MiB) history in four repositories, recorded with the real
// recorder (rotated into 16 MiB segments), then, in each runtime that has SQLite (Bun; Node 22.5+ when one is
// found: RECORDINGS_NODE22, .tools/node22), in a fresh process each:
//   - the first build of the index over the whole history (entries per second) and its size against the files;
//   - recall inside the plugin (the service held open, the index caught up): p50/p95 of 200 queries;
//   - a fresh `record recall` process: p50/p95 against a bare runtime start, alternating;
//   - catching up 10,000 new entries;
//   - the latency a failing gate gains with hints on (the plugin's tool.execute.after, and a Claude Code hook
//     process served by the warm hook helper with hints on, with AI_RECORDINGS_HINTS=0, and with the helper off,
//     interleaved);
//   - record() per call in a process that loaded recall and holds the index open, against one that did not.
//
//   node bench/recall.js            measure and write BENCHMARKS.md between the recall-bench markers
//   node bench/recall.js --no-write print the section instead
//   node bench/recall.js --history DIR   measure on a history made before (`--generate DIR`), not a new one
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawnSync, execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { writeSection } from "./section.js";
import { endHelper, waitForHelper } from "./hook-helper.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const START = "<!-- recall-bench:start -->";
const END = "<!-- recall-bench:end -->";
const MiB = 1024 * 1024;
const ENTRIES = Number(process.env.RECALL_BENCH_ENTRIES ?? 100_000);
const NEW_ENTRIES = 10_000;
const CLI = path.join(ROOT, "plugin/record.cjs");
const SELF = fileURLToPath(import.meta.url);

// ---------------------------------------------------------------------------------------------------------
// A history that reads like one: words drawn Zipf-like from a developer's vocabulary plus a long tail of names

const COMMON = (
  "build test tests fails failed error errors warning module import export function type types config file files " +
  "path cache lock version upgrade install dependency dependencies script run runs command output timeout port " +
  "server client request response token session user database query migration schema index table column row " +
  "commit branch merge rebase ci pipeline container image docker compose deploy release tag flaky race retry " +
  "memory leak slow fast latency cpu thread async await promise callback stream buffer encoding utf8 json yaml " +
  "parse parser lexer tokenizer render component props state hook effect route handler middleware auth login " +
  "logout password secret env variable flag option default null undefined panic unwrap borrow lifetime trait " +
  "struct enum macro crate package workspace monorepo lint format prettier eslint clippy rustfmt mypy ruff pytest " +
  "jest vitest cargo npm pnpm yarn bun node python rust go java kotlin swift fixture snapshot golden mock stub"
).split(" ");
const ERRORS = [
  "error: linker `cc` not found",
  "Error: Cannot find module '@scope/pkg-NAME'",
  "E   AssertionError: assert NAME == 3",
  "error[E0308]: mismatched types in NAME",
  "FAIL tests/NAME.test.ts > renders > matches snapshot",
  "Error: listen EADDRINUSE: address already in use :::PORT",
  "TypeError: Cannot read properties of undefined (reading 'NAME')",
  "psycopg.OperationalError: database \"NAME\" does not exist",
  "ENOENT: no such file or directory, open 'fixtures/NAME.json'",
  "thread 'main' panicked at src/NAME.rs:12:5: called `Option::unwrap()` on a `None` value",
];

function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => ((s = (Math.imul(s ^ (s >>> 15), 2246822519) + 0x9e3779b9) >>> 0) / 4294967296);
}
const rand = rng(Number(process.env.RECALL_BENCH_SEED ?? 20261201));
const zipf = (n) => Math.floor(n * Math.pow(rand(), 2.2));
const tail = () => `${["widget", "spin", "ledger", "invoice", "tensor", "loader", "shard", "parcel"][zipf(8)]}${zipf(3000)}`;
const words = (n) => Array.from({ length: n }, () => (rand() < 0.8 ? COMMON[zipf(COMMON.length)] : tail())).join(" ");
const errorLine = () => ERRORS[zipf(ERRORS.length)].replace("NAME", tail()).replace("PORT", String(3000 + zipf(50)));

/** One entry's input and how it is recorded: a third are lessons someone wrote, the rest automatic gate failures. */
function entryOf(i) {
  if (i % 3 === 0) {
    return { text: JSON.stringify({ kind: "lesson", lesson: `${words(12)}: ${errorLine()} — ${words(40)}`, sentiment: words(2) }), capture: "agent" };
  }
  const out = Array.from({ length: 14 }, () => (rand() < 0.3 ? errorLine() : `  ${words(9)}`)).join("\n");
  return { text: JSON.stringify({ trigger: "gate.failed", command: `npm run ${COMMON[zipf(40)]}`, exit: 1, output_tail: out, output_bytes: out.length }), capture: "auto" };
}

async function generate(dir) {
  const { record } = await import("../plugin/recorder.js");
  const repos = ["widget", "billing", "dotfiles", "pipeline"].map((name) => {
    const p = path.join(dir, name);
    execFileSync("git", ["init", "-q", p]);
    return p;
  });
  const file = path.join(dir, "r.jsonl");
  const env = { HOME: dir, AI_RECORDINGS_SYNC: "0" };
  const t0 = Date.parse("2026-06-01T00:00:00Z");
  const step = (Date.parse("2026-12-01T00:00:00Z") - t0) / ENTRIES;
  for (let i = 0; i < ENTRIES; i++) {
    const e = entryOf(i);
    const r = record(e.text, { file, env, cwd: repos[zipf(4)], session: `ses_${Math.floor(i / 40)}`, capture: e.capture, now: () => t0 + i * step });
    if (r.status !== "recorded") throw new Error(`not recorded: ${r.reason}`);
  }
  return { file, repos };
}

// ---------------------------------------------------------------------------------------------------------
// Measuring, in a child per runtime

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length - 1) * p))];
};
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;

function queries(n) {
  return Array.from({ length: n }, (_, i) => (i % 2 ? errorLine() : `${words(2)} ${tail()} ${words(1)}`));
}

async function measure(dir, repo) {
  const file = path.join(dir, "r.jsonl");
  const env = { HOME: dir, XDG_DATA_HOME: path.join(dir, `data-${process.pid}`), XDG_STATE_HOME: path.join(dir, `state-${process.pid}`), AI_RECORDINGS_SYNC: "0" };
  const { openIndex } = await import("../plugin/recall/index.js");
  const { createRecall } = await import("../plugin/recall/service.js");
  const { createOpencodeRecall } = await import("../plugin/recall/opencode.js");
  const out = { runtime: process.versions.bun ? `Bun ${process.versions.bun}` : `Node ${process.versions.node}` };

  let t = process.hrtime.bigint();
  const ix = await openIndex({ file, env });
  const built = ix.catchUp();
  out.buildMs = ms(t);
  process.stderr.write(`  built ${built.added} in ${out.buildMs.toFixed(0)} ms\n`);
  out.built = built.added;
  ix.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  out.indexBytes = ["", "-wal", "-shm"].reduce((s, x) => s + (fs.existsSync(ix.path + x) ? fs.statSync(ix.path + x).size : 0), 0);
  ix.close();

  // Held open as the plugin and the MCP server hold it (plugin/recall/opencode.js, mcp.js).
  const service = createRecall({ file, env, cwd: repo, held: true });
  const qs = queries(220);
  for (const q of qs.slice(0, 20)) await service.find(q, { cwd: repo });
  const lat = [];
  let hits = 0;
  for (const q of qs.slice(20)) {
    t = process.hrtime.bigint();
    const r = await service.find(q, { cwd: repo });
    lat.push(ms(t));
    hits += r.hits.length;
  }
  process.stderr.write(`  recall done\n`);
  out.recall = { p50: pct(lat, 0.5), p95: pct(lat, 0.95), hitsPerQuery: hits / lat.length };

  const plugin = createOpencodeRecall({ file, env, cwd: repo });
  const off = createOpencodeRecall({ file, env, cwd: repo, hints: false });
  const on = [];
  const base = [];
  let hinted = 0;
  for (let i = 0; i < 100; i++) {
    const output = Array.from({ length: 12 }, () => (rand() < 0.3 ? errorLine() : `  ${words(8)}`)).join("\n");
    const call = () => [{ tool: "bash", sessionID: `bench_${i}`, args: { command: "npm test" } }, { output, metadata: { exit: 1 } }];
    for (const [svc, sink] of i % 2 ? [[plugin, on], [off, base]] : [[off, base], [plugin, on]]) {
      const [a, b] = call();
      t = process.hrtime.bigint();
      const h = await svc.afterTool(a, b);
      sink.push(ms(t));
      if (h) hinted++;
    }
  }
  process.stderr.write(`  hints done\n`);
  out.hint = { p50: pct(on, 0.5), p95: pct(on, 0.95), offP50: pct(base, 0.5), hinted };

  const { record } = await import("../plugin/recorder.js");
  t = process.hrtime.bigint();
  for (let i = 0; i < NEW_ENTRIES; i++) record(entryOf(i).text, { file, env, cwd: repo, capture: "cli" });
  out.appendMs = ms(t);
  const ix2 = await openIndex({ file, env });
  t = process.hrtime.bigint();
  out.caughtUp = ix2.catchUp().added;
  out.catchUpMs = ms(t);
  ix2.close();
  await service.close();
  out.env = env;
  process.stdout.write(JSON.stringify(out) + "\n");
}

/** record() per call (1 KiB entries) in this process, optionally after loading recall and opening the index. */
async function recordCost(dir, withRecall, repo) {
  const env = { HOME: dir, XDG_DATA_HOME: path.join(dir, "data-rc"), AI_RECORDINGS_SYNC: "0" };
  const { record } = await import("../plugin/recorder.js");
  if (withRecall === "recall") {
    const { createRecall } = await import("../plugin/recall/service.js");
    await createRecall({ file: path.join(dir, "r.jsonl"), env, cwd: repo }).find("warm up the index", { cwd: repo });
  }
  const scratch = path.join(dir, `scratch-${process.pid}.jsonl`);
  const text = JSON.stringify({ note: words(150) });
  for (let i = 0; i < 500; i++) record(text, { file: scratch, env, cwd: repo });
  const t = process.hrtime.bigint();
  for (let i = 0; i < 4000; i++) record(text, { file: scratch, env, cwd: repo });
  process.stdout.write(JSON.stringify({ us: (ms(t) * 1000) / 4000 }) + "\n");
  fs.rmSync(scratch, { force: true });
}

// ---------------------------------------------------------------------------------------------------------
// Driver

function runtimes() {
  const out = [];
  const bun = path.join(ROOT, "node_modules/.bin/bun");
  if (fs.existsSync(bun)) out.push(bun);
  for (const n of [process.env.RECORDINGS_NODE22, path.join(ROOT, ".tools/node22/node_modules/.bin/node"), process.execPath]) {
    if (!n || !fs.existsSync(n)) continue;
    const v = spawnSync(n, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout.trim().split(".").map(Number);
    if ((v[0] > 22 || (v[0] === 22 && v[1] >= 5)) && !out.includes(n)) {
      out.push(n);
      break;
    }
  }
  return out;
}

function child(runtime, args, env = {}) {
  const r = spawnSync(runtime, [SELF, ...args], { encoding: "utf8", maxBuffer: 1 << 26, env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`${path.basename(runtime)} ${args[0]} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop());
}

function timed(cmd, args, options) {
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { ...options, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")}: ${r.stderr}`);
  return { ms: ms(t), stdout: r.stdout };
}

function processes(runtime, dir, repo, env) {
  const recall = [];
  const bare = [];
  const hookOn = [];
  const hookOff = [];
  let hinted = 0;
  const payload = (i) =>
    JSON.stringify({
      session_id: `bench-hook-${i}`,
      cwd: repo,
      hook_event_name: "PostToolUseFailure",
      tool_name: "Bash",
      tool_input: { command: "npm test" },
      tool_use_id: `t${i}`,
      error: `Exit code 1\n\n${errorLine()}\n${errorLine()}`,
      transcript_path: path.join(dir, "none.jsonl"),
    });
  // The warm hook helper's socket in a directory of this run's own; the first hook starts the helper, which is
  // waited for, so the loop times hooks it serves (and, beside them, hooks with it off).
  const run = path.join(dir, `run-${path.basename(runtime)}`);
  fs.mkdirSync(run, { recursive: true, mode: 0o700 });
  const base = { ...process.env, ...env, XDG_RUNTIME_DIR: run, AI_RECORDINGS_FILE: path.join(dir, "r.jsonl") };
  const first = timed(runtime, [CLI, "hook", "claude-code"], { cwd: repo, env: base, input: payload(-1) }).ms;
  waitForHelper(run);
  const hookCold = [];
  for (let i = 0; i < 30; i++) {
    const q = queries(1)[0];
    const pair = [
      () => recall.push(timed(runtime, [CLI, "recall", q], { cwd: repo, env: base }).ms),
      () => bare.push(timed(runtime, ["-e", "0"], { cwd: repo, env: base }).ms),
      () => {
        const r = timed(runtime, [CLI, "hook", "claude-code"], { cwd: repo, env: base, input: payload(i) });
        hookOn.push(r.ms);
        if (r.stdout.includes("additionalContext")) hinted++;
      },
      () => hookOff.push(timed(runtime, [CLI, "hook", "claude-code"], { cwd: repo, env: { ...base, AI_RECORDINGS_HINTS: "0" }, input: payload(i) }).ms),
      () => hookCold.push(timed(runtime, [CLI, "hook", "claude-code"], { cwd: repo, env: { ...base, AI_RECORDINGS_HOOK_HELPER: "0" }, input: payload(100 + i) }).ms),
    ];
    for (const f of i % 2 ? pair : pair.reverse()) f();
  }
  endHelper(run);
  return {
    cli: { p50: pct(recall, 0.5), p95: pct(recall, 0.95), bareP50: pct(bare, 0.5), bareP95: pct(bare, 0.95) },
    hook: {
      on50: pct(hookOn, 0.5),
      on95: pct(hookOn, 0.95),
      off50: pct(hookOff, 0.5),
      off95: pct(hookOff, 0.95),
      cold50: pct(hookCold, 0.5),
      cold95: pct(hookCold, 0.95),
      first,
      hinted,
    },
  };
}

const f = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

function render(hist, results) {
  const L = [START, "", "## Recall (the derived SQLite index)", ""];
  L.push(
    `History: ${hist.entries.toLocaleString("en")} entries recorded with the real recorder into ${hist.segments} segments, ` +
      `${(hist.bytes / MiB).toFixed(1)} MiB, four repositories; a third lessons someone wrote (~0.5 KiB), the rest automatic ` +
      `gate failures (~1.3 KiB). Each runtime measures in fresh processes of its own (\`node bench/recall.js\`; machine: 2 cores ` +
      `shared with other work, so figures are medians/p95 of interleaved runs, each with its baseline in the same run).`,
    "",
  );
  const cols = results.map((r) => r.runtime);
  const row = (what, fn) => L.push(`| ${what} | ${results.map(fn).join(" | ")} |`);
  L.push(`| | ${cols.join(" | ")} |`, `|---|${cols.map(() => "---").join("|")}|`);
  row("first build over the whole history", (r) => `${(r.buildMs / 1000).toFixed(1)} s, ${Math.round(r.built / (r.buildMs / 1000)).toLocaleString("en")} entries/s`);
  row("index size on disk / the files", (r) => `${(r.indexBytes / MiB).toFixed(1)} MiB / ${(hist.bytes / MiB).toFixed(1)} MiB (${((100 * r.indexBytes) / hist.bytes).toFixed(0)}%)`);
  row("recall in the plugin, p50 / p95 (target p95 ≤ 20 ms)", (r) => `${f(r.recall.p50)} / ${f(r.recall.p95)} ms (${r.recall.hitsPerQuery.toFixed(1)} hits per query)`);
  row("fresh `record recall` process, p50 / p95 (target p95 ≤ 100 ms)", (r) => `${f(r.proc.cli.p50)} / ${f(r.proc.cli.p95)} ms`);
  row("baseline: bare runtime start (`-e 0`), p50 / p95", (r) => `${f(r.proc.cli.bareP50)} / ${f(r.proc.cli.bareP95)} ms`);
  row(`catching up ${NEW_ENTRIES.toLocaleString("en")} new entries`, (r) => `${f(r.catchUpMs)} ms (${r.caughtUp.toLocaleString("en")} added)`);
  row("failing gate in the plugin: tool.execute.after with hints, p50 / p95", (r) => `${f(r.hint.p50)} / ${f(r.hint.p95)} ms (${r.hint.hinted} of 100 hinted)`);
  row("the same with hints off, p50", (r) => `${f(r.hint.offP50)} ms`);
  row("Claude Code hook process, failing gate, hints on, the warm helper serving: p50 / p95 (target p95 ≤ 100 ms)", (r) => `${f(r.proc.hook.on50)} / ${f(r.proc.hook.on95)} ms`);
  row("the same with AI_RECORDINGS_HINTS=0: p50 / p95", (r) => `${f(r.proc.hook.off50)} / ${f(r.proc.hook.off95)} ms`);
  row("the same, hints on, with AI_RECORDINGS_HOOK_HELPER=0 (each process does it all): p50 / p95", (r) => `${f(r.proc.hook.cold50)} / ${f(r.proc.hook.cold95)} ms`);
  row("the first hook, which finds no helper and starts one", (r) => `${f(r.proc.hook.first)} ms`);
  row("hook processes whose failure got a hint, helper serving (of 30)", (r) => `${r.proc.hook.hinted}`);
  row("record() of a 1 KiB entry, recall loaded and index open / not loaded (median of 3 processes each)", (r) => `${f(r.rec.withRecall)} / ${f(r.rec.plain)} µs`);
  L.push(
    "",
    "Recall latency includes catching the index up (a stat of each segment when nothing is new). The hook process's " +
      "figures include recording the gate entry; with hints on it also loads SQLite, catches up and searches. With " +
      "the warm hook helper serving, the hook process hands the event over and the helper does that work (README, " +
      "\"Hook mode's warm helper\"); the three kinds of hook process are interleaved in one loop. The " +
      "write path never opens the index: the record() row compares processes that did and did not. A fresh " +
      "`record recall` or hook process runs recall from the `record` command's bundle and code cache (README, " +
      "\"How it is built\"), as the record path does.",
    "",
    END,
  );
  return L.join("\n");
}

async function main(noWrite, history) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "recall-bench-"));
  try {
    let file;
    let repos;
    if (history) {
      file = path.join(history, "r.jsonl");
      repos = ["widget", "billing", "dotfiles", "pipeline"].map((n) => path.join(history, n));
    } else {
      process.stderr.write(`recall bench: recording ${ENTRIES} entries…\n`);
      ({ file, repos } = await generate(tmp));
    }
    const { listSegments } = await import("../plugin/paths.js");
    const segs = listSegments(file);
    const hist = { entries: segs.reduce((n, x) => n + fs.readFileSync(x.path, "utf8").split("\n").length - 1, 0), segments: segs.length, bytes: segs.reduce((s, x) => s + fs.statSync(x.path).size, 0) };
    // The copy each runtime measures on (its catch-up of new entries appends to it).
    const results = [];
    for (const rt of runtimes()) {
      const dir = path.join(tmp, `run-${results.length}`);
      fs.mkdirSync(dir);
      for (const s of segs) fs.copyFileSync(s.path, path.join(dir, path.basename(s.path)));
      process.stderr.write(`recall bench: measuring in ${rt}…\n`);
      // The code cache trained by the Node that runs the processes below, as the test scripts do (Bun uses none).
      if (!rt.endsWith("bun")) execFileSync("bash", [path.join(ROOT, "scripts/train-cache.sh"), rt], { cwd: ROOT, stdio: "ignore" });
      const m = child(rt, ["--measure", dir, repos[0]]);
      m.proc = processes(rt, dir, repos[0], { XDG_DATA_HOME: m.env.XDG_DATA_HOME, XDG_STATE_HOME: m.env.XDG_STATE_HOME, HOME: dir });
      const plain = [];
      const withRecall = [];
      for (let i = 0; i < 3; i++) {
        plain.push(child(rt, ["--record-cost", dir, "plain", repos[0]]).us);
        withRecall.push(child(rt, ["--record-cost", dir, "recall", repos[0]]).us);
      }
      m.rec = { plain: pct(plain, 0.5), withRecall: pct(withRecall, 0.5) };
      results.push(m);
    }
    const section = render(hist, results);
    if (noWrite) {
      process.stdout.write(section + "\n");
      return;
    }
    writeSection(START, END, section);
    process.stdout.write(section + "\n");
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
if (args[0] === "--generate") await generate(args[1]);
else if (args[0] === "--measure") await measure(args[1], args[2]);
else if (args[0] === "--record-cost") await recordCost(args[1], args[2], args[3]);
else await main(args.includes("--no-write"), args.includes("--history") ? args[args.indexOf("--history") + 1] : null);
