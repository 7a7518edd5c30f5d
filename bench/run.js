#!/usr/bin/env node
// Benchmarks of the JS edge (core + writer, CLI, many processes, rotation), written into BENCHMARKS.md between
// the markers <!-- writer-bench:start --> and <!-- writer-bench:end --> (other sections are left alone).
// Run: `bash scripts/bench.sh` (builds first) or `node bench/run.js [--quick]`.
// `node bench/run.js --compare=<dir>` measures the writer and git-facts rows for the code in <dir> (another
// checkout, with its plugin/wasm built) and for this one, alternating in one run, and writes that comparison
// between <!-- writer-compare:start --> and <!-- writer-compare:end -->.
// Each part runs in a child process of the runtime it measures (Node, then Bun), so loaded modules and JIT state
// never leak from one measurement into another.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { spawnSync, spawn } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { entry1k } from "./entry.js";
import { writeSection } from "./section.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "..");
const SELF = fileURLToPath(import.meta.url);
/** The code under measurement: this checkout, or the one a comparison names (BENCH_CODE, set for the children). */
const CODE = process.env.BENCH_CODE ? path.resolve(process.env.BENCH_CODE) : ROOT;
const COMPARE = process.argv.find((a) => a.startsWith("--compare="))?.slice("--compare=".length);
/** `--reps=N`: rounds per code in a comparison (default 5). */
const REPS = Number(process.argv.find((a) => a.startsWith("--reps="))?.slice("--reps=".length)) || undefined;

/** The URL of the first of `names` (paths under plugin/) that exists in the code under measurement: module paths
 *  differ between the layouts a comparison spans. */
function codeUrl(...names) {
  const found = names.map((n) => path.join(CODE, "plugin", n)).find((p) => fs.existsSync(p));
  return pathToFileURL(found ?? path.join(CODE, "plugin", names[0]));
}
const WRITER = ["writer/index.js", "writer.js"];
const GIT = ["git.js", "context.js"];
const BUN = path.join(ROOT, "node_modules", ".bin", "bun");
const NODE = process.execPath;
const QUICK = process.argv.includes("--quick");
/** Calls each many-process appender makes before it is timed. */
const WARM_CALLS = 20000;
/** `--only=<part>[,<part>]` runs just those parts (inproc, load, size, cli, throughput, rotation) and prints them
 *  without touching BENCHMARKS.md. */
const ONLY = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length).split(",");
const want = (part) => !ONLY || ONLY.includes(part);

// A typical 1 KiB JSON entry, as an agent writes it: exactly 1024 bytes with its newline.
const ENTRY_1K = entry1k();

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { median: q(0.5), p90: q(0.9), p99: q(0.99), n: s.length };
}
const us = (x) => (x * 1000).toFixed(1); // ms → µs text
const ms = (x) => x.toFixed(1);

function tmp(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

// -------------------------------------------------------------------------------------------------------------
// Parts run in children: `run.js --part <name> <args...>` prints one JSON line.

async function partInproc() {
  const { record } = await import(codeUrl("recorder.js"));
  const d = tmp("bench-inproc-");
  const iters = QUICK ? 2000 : 10000;
  const out = {};
  const line = ENTRY_1K + "\n";
  const statusFile = path.join(d, "state", "status.json"); // the status record on, as users have it
  const opts = (sync, file) => ({ file, cwd: ROOT, sync, statusFile });
  // warm up both paths (V8 tiers up the JS and the wasm over the first ~2000 calls)
  for (let i = 0; i < 3000; i++) {
    record(ENTRY_1K, opts(false, path.join(d, "warm.jsonl")));
    fs.appendFileSync(path.join(d, "warm-bare.jsonl"), line);
  }
  for (const sync of [false, true]) {
    const n = sync ? Math.min(iters, 1500) : iters;
    const a = [];
    const b = [];
    const fa = path.join(d, `rec-${sync}.jsonl`);
    const fb = path.join(d, `bare-${sync}.jsonl`);
    // alternate the two so that disk and CPU noise hits both alike
    for (let i = 0; i < n; i++) {
      let t = performance.now();
      record(ENTRY_1K, opts(sync, fa));
      a.push(performance.now() - t);
      t = performance.now();
      if (sync) {
        const fd = fs.openSync(fb, "a", 0o600);
        fs.writeSync(fd, line);
        fs.fdatasyncSync(fd);
        fs.closeSync(fd);
      } else {
        fs.appendFileSync(fb, line);
      }
      b.push(performance.now() - t);
    }
    out[sync ? "sync" : "nosync"] = { record: stats(a), bare: stats(b) };
  }
  // Where the time goes: each stage alone, same entry, medians.
  const { Core } = await import(codeUrl("core.js"));
  const { gitContext } = await import(codeUrl(...GIT));
  const { appendLine } = await import(codeUrl(...WRITER));
  const core = new Core(undefined);
  core.setContext({ capture: "cli", stamps: { pwd: ROOT, ...gitContext(ROOT) } });
  const stamped = core.record(ENTRY_1K, Date.now()).line;
  const stage = (fn) => {
    for (let i = 0; i < 3000; i++) fn();
    const xs = [];
    for (let i = 0; i < iters; i++) {
      const t = performance.now();
      fn();
      xs.push(performance.now() - t);
    }
    return stats(xs);
  };
  out.stages = {
    core: stage(() => core.record(ENTRY_1K, Date.now())),
    git: stage(() => gitContext(ROOT)),
    writer: stage(() => appendLine(path.join(d, "stage.jsonl"), stamped, { sync: false, statusFile: false })),
    bare: stage(() => fs.appendFileSync(path.join(d, "stage-bare.jsonl"), stamped)),
  };
  out.stampedBytes = Buffer.byteLength(stamped);
  fs.rmSync(d, { recursive: true, force: true });
  out.entryBytes = Buffer.byteLength(line);
  return out;
}

async function partLoad() {
  const t0 = performance.now();
  const { record } = await import(codeUrl("recorder.js"));
  const t1 = performance.now();
  const d = tmp("bench-load-");
  record(ENTRY_1K, { file: path.join(d, "r.jsonl"), cwd: ROOT, sync: false, statusFile: false });
  const t2 = performance.now();
  fs.rmSync(d, { recursive: true, force: true });
  return { importMs: t1 - t0, firstRecordMs: t2 - t1 };
}

async function partRotation() {
  const { appendLine } = await import(codeUrl(...WRITER));
  const d = tmp("bench-rot-");
  const f = path.join(d, "r.jsonl");
  const line = ENTRY_1K + "\n";
  const rot = [];
  const plain = [];
  const n = QUICK ? 5000 : 20000;
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const r = appendLine(f, line, { maxBytes: 64 * 1024, sync: false, statusFile: false });
    const dt = performance.now() - t;
    (r.rotated ? rot : plain).push(dt);
  }
  fs.rmSync(d, { recursive: true, force: true });
  return { rotating: stats(rot), plain: stats(plain), maxBytes: 64 * 1024 };
}

/** One process of the many-process throughput test: waits until `startAt` (epoch ms), appends `n` lines.
 *  mode: "bare-…" (open O_APPEND, write, [fdatasync,] close: fs.appendFileSync's syscalls), "append-…" (the writer,
 *  appendLine() of the same line) or "record-…" (record() of the entry: core, git facts, writer); "…-sync" or
 *  "…-nosync". */
async function partAppender(mode, file, n, startAt) {
  const line = ENTRY_1K + "\n";
  const sync = mode.endsWith("-sync");
  let one;
  if (mode.startsWith("record")) {
    const rec = (await import(codeUrl("recorder.js"))).record;
    one = (f, s) => rec(ENTRY_1K, { file: f, cwd: ROOT, sync: s, statusFile: file + ".status" });
  } else if (mode.startsWith("append")) {
    const { appendLine } = await import(codeUrl(...WRITER));
    one = (f, s) => appendLine(f, line, { sync: s, statusFile: file + ".status" });
  } else {
    const flags = fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT;
    one = (f, s) => {
      const fd = fs.openSync(f, flags, 0o600);
      fs.writeSync(fd, line);
      if (s) fs.fdatasyncSync(fd);
      fs.closeSync(fd);
    };
  }
  // Steady state: the first calls run while the JIT tiers the JS and the wasm up. V8 is there after ~2000 calls;
  // JSC (Bun) takes longer, the more so the more functions an append goes through (BENCHMARKS.md).
  for (let i = 0; i < WARM_CALLS; i++) one(file + ".warm", false);
  while (Date.now() < startAt) await new Promise((r) => setTimeout(r, 1));
  const t0 = Date.now();
  for (let i = 0; i < n; i++) one(file, sync);
  return { t0, t1: Date.now() };
}

// -------------------------------------------------------------------------------------------------------------
// Orchestration (parent)

function runPart(runtime, args, code = ROOT) {
  const env = { ...process.env, BENCH_CODE: code };
  const r = spawnSync(runtime, [SELF, "--part", ...args, ...(QUICK ? ["--quick"] : [])], { encoding: "utf8", maxBuffer: 1 << 26, env });
  if (r.status !== 0) throw new Error(`${path.basename(runtime)} ${args.join(" ")}: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop());
}

function runtimes() {
  const out = [["Node " + process.versions.node, NODE]];
  const v = spawnSync(BUN, ["--version"], { encoding: "utf8" });
  if (v.status === 0) out.push(["Bun " + v.stdout.trim(), BUN]);
  return out;
}

async function throughput(runtime, mode, procs, n, code = ROOT) {
  const d = tmp("bench-tp-");
  const file = path.join(d, "r.jsonl");
  const startAt = Date.now() + 5000; // every process has loaded and warmed up by then
  const kids = Array.from({ length: procs }, () =>
    new Promise((resolve, reject) => {
      const env = { ...process.env, BENCH_CODE: code };
      const p = spawn(runtime, [SELF, "--part", "appender", mode, file, String(n), String(startAt)], { stdio: ["ignore", "pipe", "pipe"], env });
      let out = "";
      let err = "";
      p.stdout.on("data", (x) => (out += x));
      p.stderr.on("data", (x) => (err += x));
      p.on("close", (code) => (code === 0 ? resolve(JSON.parse(out.trim())) : reject(new Error(err))));
    }),
  );
  const res = await Promise.all(kids);
  const { segments } = await import(pathToFileURL(path.join(ROOT, "plugin", "writer", "index.js")));
  const lines = segments(file)
    .map((s) => fs.readFileSync(s, "utf8").split("\n").filter((l) => l !== "").length)
    .reduce((a, b) => a + b, 0);
  fs.rmSync(d, { recursive: true, force: true });
  if (lines !== procs * n) throw new Error(`throughput ${mode}: ${lines} lines, expected ${procs * n}`);
  const t0 = Math.min(...res.map((r) => r.t0));
  const t1 = Math.max(...res.map((r) => r.t1));
  return (procs * n) / ((t1 - t0) / 1000);
}

function cliTimes(runs) {
  const d = tmp("bench-cli-");
  const f = path.join(d, "r.jsonl");
  const env = { ...process.env, AI_RECORDINGS_FILE: f, XDG_STATE_HOME: path.join(d, "state"), HOME: d };
  const cli = path.join(ROOT, "plugin", "record.cjs");
  const bare = `require("fs").appendFileSync(${JSON.stringify(f)}, process.argv[1] + "\\n")`;
  const a = [];
  const b = [];
  for (let i = 0; i < runs; i++) {
    // alternate, so that machine noise hits both alike
    let t = performance.now();
    let r = spawnSync(NODE, [cli, ENTRY_1K], { env, cwd: ROOT });
    a.push(performance.now() - t);
    if (r.status !== 0) throw new Error(String(r.stderr));
    t = performance.now();
    r = spawnSync(NODE, ["-e", bare, ENTRY_1K], { env, cwd: ROOT });
    b.push(performance.now() - t);
  }
  fs.rmSync(d, { recursive: true, force: true });
  return { cli: stats(a), bare: stats(b) };
}

function wasmSize() {
  const p = path.join(ROOT, "plugin", "wasm", "recordings_core_bg.wasm");
  const raw = fs.readFileSync(p);
  return { raw: raw.length, gzip: zlib.gzipSync(raw, { level: 9 }).length };
}

async function main() {
  const rts = runtimes();
  const date = new Date().toISOString().slice(0, 10);
  const cpu = `${os.cpus().length} cores (${(os.cpus()[0]?.model || "unknown CPU").trim()})`;
  const md = [];
  md.push("## Writer, CLI and many processes", "");
  md.push(`Measured by \`bash scripts/bench.sh\` (\`bench/run.js\`) on ${date}, ${cpu}, ${os.platform()} ${os.release()}, on the`);
  md.push(`filesystem of \`${os.tmpdir()}\`. Times in microseconds unless marked. Every part runs in a fresh child process of`);
  md.push("the runtime it measures. The entry is a typical 1 KiB JSON object; \"record()\" is the full path every surface");
  md.push("uses: target resolution, git facts (validated with stats once per millisecond, in this repository), one call into the wasm core");
  md.push("(parse, stamp, id, redaction), and the writer (O_APPEND descriptor, torn-tail check, one write; in a burst of");
  md.push("appends the descriptor is kept and checked by reads, with an fstat at least every 10 ms, see docs/writer.md).", "");

  // 1. in-process
  const inproc = {};
  if (want("inproc")) {
    md.push("### In-process: one 1 KiB entry", "");
    md.push("Alternating a `record()` and the bare baseline in one loop (10,000 pairs without sync, 1,500 with), after 3,000");
    md.push("warm-up pairs. Baselines: `fs.appendFileSync(file, line)`; with sync, open/write/fdatasync/close.", "");
    md.push("| runtime | sync | record() median | p90 | bare median | p90 | ratio (median) |", "|---|---|---|---|---|---|---|");
    for (const [name, rt] of rts) {
      const r = runPart(rt, ["inproc"]);
      inproc[name] = r;
      for (const k of ["nosync", "sync"]) {
        const x = r[k];
        md.push(`| ${name} | ${k === "sync" ? "fdatasync" : "none"} | ${us(x.record.median)} | ${us(x.record.p90)} | ${us(x.bare.median)} | ${us(x.bare.p90)} | ${(x.record.median / x.bare.median).toFixed(2)}× |`);
      }
    }
    md.push("", "Target: median within 3× the bare append (aim 2×), compared without sync on both sides.", "");
    md.push("Where the time goes (each stage alone, medians, µs; the stamped line is " + inproc[rts[0][0]].stampedBytes + " bytes):", "");
    md.push("| runtime | core.record() (wasm: parse, stamp, id, redact, boundary) | git facts (2 fstats once per ms in a burst) | writer appendLine() | bare appendFileSync of the stamped line |", "|---|---|---|---|---|");
    for (const [name] of rts) {
      const g = inproc[name].stages;
      md.push(`| ${name} | ${us(g.core.median)} | ${us(g.git.median)} | ${us(g.writer.median)} | ${us(g.bare.median)} |`);
    }
    md.push(
      "",
      "In a burst the writer costs, within 10 ms of its last fstat check and 64 KiB of lines, one pread (what others",
      "appended since: the size, and the last byte for the torn-tail check) + write + one pread (did our line land right",
      "after another writer's fragment?); otherwise an fstat before the write (an lstat of the path every 100 ms) and one after,",
      "against open + write + close for the bare append; a lone append opens, fstats and closes. The git facts cost two fstats of",
      "HEAD and the branch ref, held open during a burst (two path stats on a lone call), on the first call of each",
      "millisecond: the other calls in that millisecond reuse the answer (plugin/git.js).",
      "",
    );
  }

  // 2. load time
  if (want("load")) {
    md.push("### Module load", "");
    const loadRuns = QUICK ? 5 : 15;
    md.push(`\`await import("plugin/recorder.js")\` in a fresh process (the ES modules: generated bindings, core, git facts,`);
    md.push(`writer), then the first \`record()\` (reads, compiles and instantiates the .wasm, builds the core Recorder, and`);
    md.push("V8 compiles the wasm functions the first entry runs).");
    md.push(`Median of ${loadRuns} fresh processes.`, "");
    md.push("| runtime | import (ms) | first record() (ms) |", "|---|---|---|");
    for (const [name, rt] of rts) {
      const xs = Array.from({ length: loadRuns }, () => runPart(rt, ["load"]));
      md.push(`| ${name} | ${ms(stats(xs.map((x) => x.importMs)).median)} | ${ms(stats(xs.map((x) => x.firstRecordMs)).median)} |`);
    }
    md.push("", "Target: module load under 20 ms in Node and Bun.", "");
  }

  // 3. wasm size
  if (want("size")) {
    const w = wasmSize();
    md.push("### .wasm size", "");
    md.push(`\`plugin/wasm/recordings_core_bg.wasm\`: ${(w.raw / 1024).toFixed(0)} KiB raw, ${(w.gzip / 1024).toFixed(0)} KiB gzipped (zlib level 9). Target: under 250 KiB gzipped.`, "");
  }

  // 4. CLI
  if (want("cli")) {
    const cliRuns = QUICK ? 10 : 40;
    const c = cliTimes(cliRuns);
    md.push("### CLI: whole process", "");
    md.push(`\`node plugin/record.cjs '<1 KiB entry>'\` (the installed \`record\` command) against \`node -e 'require("fs").appendFileSync(file, argv[1] + "\\n")'\` with the same`);
    md.push(`entry, ${cliRuns} runs each, alternated, wall time from spawn to exit (spawnSync), Node ${process.versions.node}. The CLI syncs (the default).`, "");
    md.push("| | median (ms) | p90 (ms) |", "|---|---|---|");
    md.push(`| record CLI | ${ms(c.cli.median)} | ${ms(c.cli.p90)} |`);
    md.push(`| bare node -e append | ${ms(c.bare.median)} | ${ms(c.bare.p90)} |`);
    md.push(`| ratio | ${(c.cli.median / c.bare.median).toFixed(2)}× | |`, "");
    md.push("Target: within 1.5× the bare `node -e`.", "");
  }

  // 5. throughput
  if (want("throughput")) {
    // 20,000 lines: runs of 4,000 (~30 ms) were too short for a steady rate (the first appends to the measured file
    // after the warm-up file run slower, and Date.now() counts whole milliseconds): P=1 read 1.61x at 4,000 lines
    // and 1.28x at 20,000 in the same minute.
    const n = QUICK ? 2000 : 20000;
    const nSync = QUICK ? 250 : 1000;
    md.push("### Appends per second, many processes", "");
    md.push(`P processes append ${n} lines each to one file (${nSync} with fdatasync); every process loads and warms up first`);
    md.push("(3,000 appends to another file: the first ~2,000 calls run about 4× slower while V8 tiers up the JS and the wasm),");
    md.push("then all start at the same wall-clock instant; rate = all lines / (last finish − first start), in lines per second,");
    md.push("the median of three runs with the three variants alternating; ratio = bare rate ÷ rate (the time per line against the");
    md.push("bare append's; below 1 is faster).");
    md.push("**bare**: open with O_APPEND, write the 1 KiB line, (fdatasync,) close — `fs.appendFileSync`'s system calls.");
    md.push("**appendLine()**: the writer (plugin/writer/) appending the same line: in a burst it keeps its descriptor; within");
    md.push("10 ms of its last fstat check and 64 KiB of lines it stats nothing: one pread from where its last append left the end");
    md.push("gives the size (rotation) and the last byte (torn tail), and one pread of the span after the write shows whether its");
    md.push("line follows another writer's fragment; otherwise an fstat before the write (still the file to append to?) and one");
    md.push("after (deleted underneath?). When the last byte is not yet \"\\n\" (another writer's copy in progress) an empty");
    md.push("write(2) waits for that copy under the inode lock. An fstat per append, as before, made every next write update the");
    md.push("file's timestamps (Linux 6.13+) while holding that lock. **record()**: the");
    md.push("whole pipeline on the 1 KiB entry — the writer plus the wasm core (parse, stamp, id, redaction) and the git facts");
    md.push("(two fstats of HEAD and the branch ref, once per millisecond) — for comparison; its cost against a bare append is the target above.");
    md.push("Every run is checked for the right line count.", "");
    for (const [label, sync, count] of [["no sync", false, n], ["fdatasync after each append", true, nSync]]) {
      md.push(`${label}:`, "");
      md.push("| runtime | P | bare | appendLine() | ratio | record() | ratio |", "|---|---|---|---|---|---|---|");
      const tag = sync ? "sync" : "nosync";
      for (const [name, rt] of rts) {
        for (const p of [1, 2, 4, 8]) {
          // Each figure: the median of three runs, the three variants alternating (one run can catch another
          // tenant's burst on this machine).
          const runs = { bare: [], append: [], record: [] };
          for (let rep = 0; rep < 3; rep++) {
            for (const mode of Object.keys(runs)) runs[mode].push(await throughput(rt, `${mode}-${tag}`, p, count));
          }
          const [b, a, r] = Object.values(runs).map((xs) => stats(xs).median);
          md.push(`| ${name} | ${p} | ${b.toFixed(0)} | ${a.toFixed(0)} | ${(b / a).toFixed(2)}× | ${r.toFixed(0)} | ${(b / r).toFixed(2)}× |`);
        }
      }
      md.push("");
    }
    md.push(`Target: appends within 2× the bare appends without sync. This machine has ${os.cpus().length} cores: beyond that, processes share CPUs.`);
    md.push("Before the writer stopped stat'ing within a burst (an fstat before and after every append), the same bench read");
    md.push("1.34 / 1.95 / 1.65 / 2.16× (Node) and 1.28 / 1.71 / 1.70 / 2.23× (Bun) for P = 1 / 2 / 4 / 8 without sync (2026-11-29,");
    md.push("BENCHMARKS.md as of commit 816edd5).", "");
  }

  // 6. rotation
  if (want("rotation")) {
    md.push("### Rotation cost", "");
    md.push("`appendLine()` of a 1 KiB line with `maxBytes` 64 KiB (a rotation every ~63 appends), no sync: appends that rotated");
    md.push("(lock file create/write/close, lstat, archive-name lstat, rename, unlock, reopen) against those that did not.", "");
    md.push("| runtime | rotating append median | p90 | plain append median | p90 | rotations |", "|---|---|---|---|---|---|");
    for (const [name, rt] of rts) {
      const r = runPart(rt, ["rotation"]);
      md.push(`| ${name} | ${us(r.rotating.median)} | ${us(r.rotating.p90)} | ${us(r.plain.median)} | ${us(r.plain.p90)} | ${r.rotating.n} |`);
    }
    md.push("");
  }

  // durability decision
  const node = inproc[rts[0][0]];
  if (node) {
    md.push("### Durability decision", "");
    md.push(
      `fdatasync after every append is the default: it adds about ${us(node.sync.record.median - node.nosync.record.median)} µs per entry here`,
      "(Node, median), invisible next to an agent's turn, and it keeps recorded entries across a power loss. Set",
      "`AI_RECORDINGS_SYNC=0` (or `sync: false`) to skip it where that matters, e.g. very chatty automatic capture.",
      "",
    );
  }
  if (!ONLY) writeNamedSection(md.join("\n"));
  process.stdout.write(md.join("\n") + "\n");
}

/** The old code (COMPARE) against this checkout's, alternating in one run: the in-process rows (record() and the
 *  writer against the bare append, the git facts) and the writer's many-process rows. */
async function compare(oldDir) {
  const rts = runtimes();
  const old = path.resolve(oldDir);
  const codes = [["old", old], ["new", ROOT]];
  const rounds = QUICK ? 2 : REPS ?? 5;
  const reps = QUICK ? 1 : REPS ?? 5;
  const md = [];
  const rev = (dir) => spawnSync("git", ["-C", dir, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).stdout.trim() || dir;
  md.push("### Old against new code, same run", "");
  md.push(`\`node bench/run.js --compare=<checkout>\` on ${new Date().toISOString().slice(0, 10)}: the old code is a checkout of ${rev(old)} (with its`);
  md.push(`plugin/wasm built), the new one this checkout (${rev(ROOT)}${spawnSync("git", ["-C", ROOT, "status", "--porcelain", "plugin"], { encoding: "utf8" }).stdout.trim() ? ", with uncommitted changes" : ""}). Each in-process figure is the median over ${rounds} fresh child processes per`);
  md.push("code, old and new alternating; each child measures its own bare-append baseline, so a ratio never mixes two");
  md.push(`processes. The many-process rows alternate bare, old and new runs ${reps} times and take each one's median rate.`, "");
  md.push("| runtime | code | record() ÷ bare, no sync | writer appendLine() ÷ bare appendFileSync | writer appendLine() (µs) | git facts (µs) |", "|---|---|---|---|---|---|");
  for (const [name, rt] of rts) {
    const got = { old: [], new: [] };
    for (let i = 0; i < rounds; i++) for (const [tag, dir] of codes) got[tag].push(runPart(rt, ["inproc"], dir));
    for (const [tag] of codes) {
      const xs = got[tag];
      const med = (f) => stats(xs.map(f)).median;
      const rec = med((r) => r.nosync.record.median / r.nosync.bare.median);
      const wr = med((r) => r.stages.writer.median / r.stages.bare.median);
      md.push(`| ${name} | ${tag} | ${rec.toFixed(2)}× | ${wr.toFixed(2)}× | ${us(med((r) => r.stages.writer.median))} | ${us(med((r) => r.stages.git.median))} |`);
    }
  }
  const n = QUICK ? 2000 : 20000;
  md.push("", `Many processes, no sync: P processes append ${n} lines each (as in the table above); ratio = bare rate ÷ appendLine() rate.`, "");
  md.push("| runtime | P | old ratio | new ratio |", "|---|---|---|---|");
  for (const [name, rt] of rts) {
    for (const p of [1, 4]) {
      const runs = { bare: [], old: [], new: [] };
      for (let rep = 0; rep < reps; rep++) {
        runs.bare.push(await throughput(rt, "bare-nosync", p, n));
        for (const [tag, dir] of codes) runs[tag].push(await throughput(rt, "append-nosync", p, n, dir));
      }
      const [b, o, w] = Object.values(runs).map((xs) => stats(xs).median);
      md.push(`| ${name} | ${p} | ${(b / o).toFixed(2)}× | ${(b / w).toFixed(2)}× |`);
    }
  }
  md.push("");
  writeNamedSection(md.join("\n"), "writer-compare");
  process.stdout.write(md.join("\n") + "\n");
}

/** Writes `text` as the section between the `name` markers. */
function writeNamedSection(text, name = "writer-bench") {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  writeSection(start, end, `${start}\n${text}\n${end}`);
}

const argv = process.argv.slice(2);
if (argv[0] === "--part") {
  const [, name, ...rest] = argv.filter((a) => a !== "--quick");
  const parts = { inproc: partInproc, load: partLoad, rotation: partRotation, appender: (m, f, n, s) => partAppender(m, f, Number(n), Number(s)) };
  const out = await parts[name](...rest);
  process.stdout.write(JSON.stringify(out) + "\n");
} else if (COMPARE) {
  await compare(COMPARE);
} else {
  await main();
}
