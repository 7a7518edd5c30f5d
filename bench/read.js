#!/usr/bin/env node
// Benchmark of reading recordings back: `record read` over a 100 MiB multi-segment file, and the time to
// resume from a cursor near the start and near the end, for two history sizes (10 MiB and 100 MiB), to show
// that resuming does not rescan what lies before the cursor.
//
//   node bench/read.js            generate the fixtures in a temp dir, measure in Node and in Bun, and write
//                                 BENCHMARKS.md between <!-- read-bench:start --> and <!-- read-bench:end -->
//   node bench/read.js --no-write print the section instead of writing it
//   node bench/read.js --baseline REV
//                                 also measure plugin/ as it is at git revision REV, on the same fixtures, in
//                                 alternating child runs, and write the comparison between
//                                 <!-- read-compare:start --> and <!-- read-compare:end -->
//
// The fixtures are made here (never committed): lines shaped like the core's (~1 KiB each: ts, eid, a note,
// a sentiment, the context stamps), split into 16 MiB segments named as the writer names archives; the
// archives' modification times are set a day back, as they would be in a history of any age.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { writeSection } from "./section.js";
import { writeHistory } from "./history.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const START = "<!-- read-bench:start -->";
const END = "<!-- read-bench:end -->";
const COMPARE_START = "<!-- read-compare:start -->";
const COMPARE_END = "<!-- read-compare:end -->";
/** Child runs per runtime and code when comparing: figures are medians over them. */
const ROUNDS = 3;
/** The rows compared between the baseline and this code: [label, figure]. */
const COMPARED = [
  ["reader: every line parsed, all entries", (r) => r.readerMs],
  ["`record read` to /dev/null", (r) => r.cmdMs],
  ["`record read --json` to /dev/null", (r) => r.jsonMs],
  ["resume near the end, 10 MiB history, to the end", (r) => r.h10_end.wholeMs],
  ["resume near the end, 100 MiB history, to the end", (r) => r.h100_end.wholeMs],
  ["resume near the start, 10 MiB history, first entry", (r) => r.h10_start.firstMs],
  ["resume near the start, 10 MiB history, everything after", (r) => r.h10_start.wholeMs],
  ["resume near the start, 100 MiB history, first entry", (r) => r.h100_start.firstMs],
  ["resume near the start, 100 MiB history, everything after", (r) => r.h100_start.wholeMs],
];
const MiB = 1024 * 1024;
const REPEAT = 3;

const args = process.argv.slice(2);
if (args[0] === "--measure") {
  await measure(args[1], args[2], args[3]);
} else {
  const b = args.indexOf("--baseline");
  await main(args.includes("--no-write"), b >= 0 ? args[b + 1] : null);
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** The first of `names` (paths inside a plugin directory) that exists there, as a URL: the layouts differ by
 *  revision. */
function moduleOf(pluginDir, ...names) {
  const found = names.map((n) => path.join(pluginDir, n)).find((p) => fs.existsSync(p));
  return pathToFileURL(found ?? path.join(pluginDir, names[0])).href;
}

/** Runs in the runtime under test, on the plugin in `pluginDir`: prints one JSON object of timings. */
async function measure(pluginDir, dir100, dir10) {
  const read = await import(moduleOf(pluginDir, "read/index.js", "read.js"));
  const { read: readCmd } = await import(moduleOf(pluginDir, "cli/read.js", "commands.js"));
  const out = {};
  const file100 = path.join(dir100, "r.jsonl");
  const file10 = path.join(dir10, "r.jsonl");
  const devnull = () => {
    const fd = fs.openSync("/dev/null", "w");
    return { write: (s) => (fs.writeSync(fd, s), true), close: () => fs.closeSync(fd) };
  };

  // 1. Everything, in process: the reader alone (parse every line), then `record read` and `--json` with
  //    their output written to /dev/null.
  const times = { reader: [], cmd: [], json: [] };
  let entries = 0;
  for (let i = 0; i < REPEAT; i++) {
    let t = performance.now();
    const r = new read.RecordingsReader({ file: file100 });
    let k = 0;
    for (const _ of r.records()) k++;
    times.reader.push(performance.now() - t);
    entries = k;
    for (const [key, argv] of [["cmd", ["--file", file100]], ["json", ["--json", "--file", file100]]]) {
      const o = devnull();
      t = performance.now();
      await readCmd(argv, { stdout: o, stderr: o, env: {} });
      times[key].push(performance.now() - t);
      o.close();
    }
  }
  out.entries = entries;
  out.readerMs = median(times.reader);
  out.cmdMs = median(times.cmd);
  out.jsonMs = median(times.json);

  // 2. Resume: cursors after the 1st entry (near the start) and 10 entries before the end, for both history
  //    sizes. Time to the first entry after the cursor, and to the end; bytes the reader read.
  for (const [label, file] of [["h10", file10], ["h100", file100]]) {
    const all = [];
    const r = new read.RecordingsReader({ file });
    let i = 0;
    for (const rec of r.records()) {
      if (i === 0) all.start = rec.cursor;
      all.push(rec.cursor);
      i++;
    }
    const nearEnd = all[all.length - 11];
    for (const [where, cursor] of [["start", all.start], ["end", nearEnd]]) {
      const first = [];
      const whole = [];
      let bytes = 0;
      let got = 0;
      for (let k = 0; k < 7; k++) {
        const t = performance.now();
        const rr = new read.RecordingsReader({ file, since: cursor });
        let n = 0;
        for (const _ of rr.records()) {
          if (n === 0) first.push(performance.now() - t);
          n++;
        }
        whole.push(performance.now() - t);
        bytes = rr.stats.bytes;
        got = n;
      }
      out[`${label}_${where}`] = { firstMs: median(first), wholeMs: median(whole), bytes, entries: got };
    }
    out[`${label}_cursorChars`] = nearEnd.length;
  }
  process.stdout.write(JSON.stringify(out) + "\n");
}

function runtimeVersion(cmd) {
  const r = spawnSync(cmd, ["--version"], { encoding: "utf8" });
  return (r.stdout || "").trim();
}

/** One child run of `measure` in runtime `exe` on the plugin in `pluginDir`. */
function measureIn(name, exe, pluginDir, tmp) {
  const r = spawnSync(exe, [fileURLToPath(import.meta.url), "--measure", pluginDir, path.join(tmp, "h100"), path.join(tmp, "h10")], {
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`${name} measurement failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop());
}

/** The median of each number over several runs' results (same shape). */
function medianOf(runs) {
  const first = runs[0];
  if (typeof first === "number") return median(runs);
  if (first === null || typeof first !== "object") return first;
  return Object.fromEntries(Object.keys(first).map((k) => [k, medianOf(runs.map((r) => r[k]))]));
}

/** plugin/ as it is at `rev`, with this checkout's built wasm beside it (the build output is not in git). */
function checkoutPlugin(rev, into) {
  fs.mkdirSync(into, { recursive: true });
  const archive = spawnSync("git", ["-C", ROOT, "archive", "--format=tar", rev, "plugin"], { maxBuffer: 1 << 28 });
  if (archive.status !== 0) throw new Error(`git archive ${rev} failed: ${archive.stderr}`);
  const untar = spawnSync("tar", ["-x", "-C", into], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
  fs.cpSync(path.join(ROOT, "plugin", "wasm"), path.join(into, "plugin", "wasm"), { recursive: true });
  return path.join(into, "plugin");
}

async function main(noWrite, baseline) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "read-bench-"));
  try {
    const big = writeHistory(path.join(tmp, "h100"), { bytes: 100 * MiB, sentiment: ["relief", "guilt"] });
    const small = writeHistory(path.join(tmp, "h10"), { bytes: 10 * MiB, sentiment: ["relief", "guilt"] });
    const bun = path.join(ROOT, "node_modules", ".bin", "bun");
    const runtimes = [["Node", process.execPath, `Node ${process.version}`]];
    if (fs.existsSync(bun)) runtimes.push(["Bun", bun, `Bun ${runtimeVersion(bun)}`]);
    const here = path.join(ROOT, "plugin");
    const old = baseline ? checkoutPlugin(baseline, path.join(tmp, "baseline")) : null;
    const results = [];
    const baseResults = [];
    for (const [name, exe, label] of runtimes) {
      if (!old) {
        results.push({ name, label, ...measureIn(name, exe, here, tmp) });
        continue;
      }
      // Old and new take turns, the first of each round alternating, so drift on a shared machine hits both.
      const runs = { new: [], old: [] };
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? ["old", "new"] : ["new", "old"];
        for (const which of order) runs[which].push(measureIn(name, exe, which === "new" ? here : old, tmp));
      }
      results.push({ name, label, ...medianOf(runs.new) });
      baseResults.push({ name, label, ...medianOf(runs.old) });
    }
    const section = render(big, small, results, old ? ROUNDS : 1);
    const compare = old ? renderCompare(baseline, results, baseResults) : null;
    if (!noWrite) {
      writeSection(START, END, section);
      if (compare) writeSection(COMPARE_START, COMPARE_END, compare);
    }
    process.stdout.write(section + "\n" + (compare ? "\n" + compare + "\n" : ""));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function f(ms) {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

function render(big, small, results, rounds) {
  const mb = big.bytes / MiB;
  const cols = results.map((r) => r.label);
  const row = (what, fn) => `| ${what} | ${results.map(fn).join(" | ")} |`;
  const L = [];
  L.push(START);
  L.push("## Reading back");
  L.push("");
  L.push(
    `Measured by \`node bench/read.js\` on ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, in process, page cache warm ` +
      `(the fixture was just written). Fixture: ${mb.toFixed(0)} MiB, ${big.entries} entries of about 1 KiB shaped like the core's lines, ` +
      `in ${big.segments} segments of 16 MiB (the default rotation size), archives last modified a day ago; a second fixture of ` +
      `${(small.bytes / MiB).toFixed(0)} MiB (${small.segments} segment${small.segments === 1 ? "" : "s"}) for the history-size comparison. Medians of ${REPEAT} runs ` +
      `(resume: of 7)${rounds > 1 ? `, then the median over ${rounds} child processes per runtime` : ""}.`,
  );
  L.push("");
  L.push(`| what | ${cols.join(" | ")} |`);
  L.push(`|---|${cols.map(() => "---:").join("|")}|`);
  L.push(row("reader: every line parsed, all entries (ms)", (r) => f(r.readerMs)));
  L.push(row("**entries per second** (reader)", (r) => `**${Math.round(r.entries / (r.readerMs / 1000)).toLocaleString("en")}**`));
  L.push(row("MiB per second (reader)", (r) => (mb / (r.readerMs / 1000)).toFixed(0)));
  L.push(row("`record read` to /dev/null (ms)", (r) => f(r.cmdMs)));
  L.push(row("`record read --json` to /dev/null (ms)", (r) => f(r.jsonMs)));
  for (const [h, label] of [["h10", `${(small.bytes / MiB).toFixed(0)} MiB history`], ["h100", `${mb.toFixed(0)} MiB history`]]) {
    L.push(
      row(`resume near the end, ${label}: time to the end, 10 entries (ms)`, (r) => f(r[`${h}_end`].wholeMs)),
    );
    L.push(row(`… bytes read`, (r) => r[`${h}_end`].bytes.toLocaleString("en")));
    L.push(row(`resume near the start, ${label}: time to the first entry (ms)`, (r) => f(r[`${h}_start`].firstMs)));
    L.push(row(`… time to read everything after it (ms)`, (r) => f(r[`${h}_start`].wholeMs)));
  }
  L.push(row("cursor length near the end, 100 MiB (characters)", (r) => String(r.h100_cursorChars)));
  L.push("");
  L.push(
    "Resuming seeks straight to the offsets the cursor holds: the cost near the end is a directory listing, a stat " +
      "per segment and the bytes after the cursor, whatever the history before it (compare the two history sizes). " +
      "Archives that were read to the end and unchanged for a minute are folded into the cursor's base, so the " +
      "cursor stays short. `record read` without filters still parses every line, because damaged lines must be " +
      "found and reported; `--json` adds the cursor to each entry.",
  );
  L.push(END);
  return L.join("\n");
}


function renderCompare(rev, results, baseResults) {
  const L = [COMPARE_START, "### Reading back: this code against an earlier revision, same run", ""];
  const sha = spawnSync("git", ["-C", ROOT, "rev-parse", "--short", rev], { encoding: "utf8" }).stdout.trim() || rev;
  L.push(
    `Measured by \`node bench/read.js --baseline ${rev}\` on ${new Date().toISOString().slice(0, 10)}: plugin/ as at ${sha} ` +
      `(\`git archive\`, with this checkout's wasm) and this checkout's plugin/ read the same fixtures, in ${ROUNDS} ` +
      `rounds per runtime of one child process each, old and new taking turns (the first of each round alternating). ` +
      `Times in ms, medians; a ratio above 1 means this code is slower. Load average at the end of the run: ` +
      `${os.loadavg().map((x) => x.toFixed(1)).join(", ")} (1, 5, 15 min) on ${os.cpus().length} cores.`,
  );
  L.push("");
  const head = results.flatMap((r) => [`${r.name} old`, `${r.name} new`, `${r.name} new/old`]);
  L.push(`| what | ${head.join(" | ")} |`);
  L.push(`|---|${head.map(() => "---:").join("|")}|`);
  for (const [what, fig] of COMPARED) {
    const cells = results.flatMap((r, i) => {
      const a = fig(baseResults[i]);
      const b = fig(r);
      return [f(a), f(b), `${(b / a).toFixed(2)}×`];
    });
    L.push(`| ${what} | ${cells.join(" | ")} |`);
  }
  const same = results.every((r, i) => {
    const o = baseResults[i];
    return r.entries === o.entries && r.h100_cursorChars === o.h100_cursorChars && r.h100_end.bytes === o.h100_end.bytes && r.h10_end.bytes === o.h10_end.bytes;
  });
  L.push("");
  L.push(same ? "Both read the same entries and bytes and made cursors of the same length." : "**The two codes read different entries, bytes or cursor lengths: see the raw figures.**");
  L.push(COMPARE_END);
  return L.join("\n");
}
