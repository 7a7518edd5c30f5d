#!/usr/bin/env node
// Benchmark of reading recordings back (issue 6): `record read` over a 100 MiB multi-segment file, and the
// time to resume from a cursor near the start and near the end, for two history sizes (10 MiB and 100 MiB),
// to show that resuming does not rescan what lies before the cursor.
//
//   node bench/read.js            generate the fixtures in a temp dir, measure in Node and in Bun, and write
//                                 BENCHMARKS.md between <!-- read-bench:start --> and <!-- read-bench:end -->
//   node bench/read.js --no-write print the section instead of writing it
//
// The fixtures are made here (never committed): lines shaped like the core's (~1 KiB each: ts, eid, a note,
// a sentiment, the context stamps), split into 16 MiB segments named as the writer names archives; the
// archives' modification times are set a day back, as they would be in a history of any age.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const START = "<!-- read-bench:start -->";
const END = "<!-- read-bench:end -->";
const MiB = 1024 * 1024;
const SEGMENT = 16 * MiB; // the writer's default rotation size (plugin/writer.js DEFAULT_MAX_BYTES)
const REPEAT = 3;

const args = process.argv.slice(2);
if (args[0] === "--measure") {
  await measure(args[1], args[2]);
} else {
  await main(args.includes("--no-write"));
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Writes `bytes` of recordings as segments of `dir/r.jsonl`; returns the entry count. */
function generate(dir, bytes) {
  fs.mkdirSync(dir, { recursive: true });
  const words = "the flaky test was a race between two writers appending to one file without O_APPEND ";
  let n = 0;
  let total = 0;
  let seg = 0;
  const t0 = Date.parse("2026-01-01T00:00:00.000Z");
  const archives = [];
  while (total < bytes) {
    const parts = [];
    let size = 0;
    while (size < SEGMENT && total + size < bytes) {
      const ts = new Date(t0 + n * 60_000).toISOString();
      const eid = n.toString(32).padStart(13, "0");
      const note = words.repeat(8).slice(0, 500 + (n % 300));
      const line =
        `{"ts":"${ts}","eid":"${eid}","note":"${note}","sentiment":["relief","guilt"],"capture":"cli",` +
        `"pwd":"/home/user/src/project","repo":"project","git_dir":"/home/user/src/project/.git",` +
        `"origin":"git@example.com:user/project.git","head":"4b825dc642cb6eb9a060e54bf8d69288fbee4904",` +
        `"branch":"main","session":"ses_${Math.floor(n / 50)}","model":"anthropic/claude","agent":"build"}\n`;
      parts.push(line);
      size += line.length;
      n++;
    }
    total += size;
    const last = total >= bytes;
    const stamp = new Date(t0 + seg * 86_400_000).toISOString().replace(/[-:.]/g, "").replace(/^(\d{8}T\d{6})(\d{3})Z$/, "$1$2Z");
    const p = last ? path.join(dir, "r.jsonl") : path.join(dir, `r.${stamp}.jsonl`);
    fs.writeFileSync(p, parts.join(""));
    if (!last) archives.push(p);
    seg++;
  }
  const dayAgo = new Date(Date.now() - 86_400_000);
  for (const a of archives) fs.utimesSync(a, dayAgo, dayAgo);
  return { entries: n, bytes: total, segments: seg };
}

/** Runs in the runtime under test: prints one JSON object of timings. */
async function measure(dir100, dir10) {
  const read = await import("../plugin/read/index.js");
  const { read: readCmd } = await import("../plugin/commands.js");
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

async function main(noWrite) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "read-bench-"));
  try {
    const big = generate(path.join(tmp, "h100"), 100 * MiB);
    const small = generate(path.join(tmp, "h10"), 10 * MiB);
    const bun = path.join(ROOT, "node_modules", ".bin", "bun");
    const runtimes = [["Node", process.execPath, `Node ${process.version}`]];
    if (fs.existsSync(bun)) runtimes.push(["Bun", bun, `Bun ${runtimeVersion(bun)}`]);
    const results = [];
    for (const [name, exe, label] of runtimes) {
      const r = spawnSync(exe, [fileURLToPath(import.meta.url), "--measure", path.join(tmp, "h100"), path.join(tmp, "h10")], {
        encoding: "utf8",
        maxBuffer: 1 << 26,
      });
      if (r.status !== 0) throw new Error(`${name} measurement failed: ${r.stderr}`);
      results.push({ name, label, ...JSON.parse(r.stdout.trim().split("\n").pop()) });
    }
    const section = render(big, small, results);
    if (noWrite) {
      process.stdout.write(section + "\n");
      return;
    }
    const md = path.join(ROOT, "BENCHMARKS.md");
    let text = "";
    try {
      text = fs.readFileSync(md, "utf8");
    } catch {
      text = "# Benchmarks\n";
    }
    const a = text.indexOf(START);
    const b = text.indexOf(END);
    text = a >= 0 && b > a ? text.slice(0, a) + section + text.slice(b + END.length) : text.replace(/\n*$/, "\n\n") + section + "\n";
    fs.writeFileSync(md, text);
    process.stdout.write(section + "\n");
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function f(ms) {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

function render(big, small, results) {
  const mb = big.bytes / MiB;
  const cols = results.map((r) => r.label);
  const row = (what, fn) => `| ${what} | ${results.map(fn).join(" | ")} |`;
  const L = [];
  L.push(START);
  L.push("## Reading back (issue 6)");
  L.push("");
  L.push(
    `Measured by \`node bench/read.js\` on ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, in process, page cache warm ` +
      `(the fixture was just written). Fixture: ${mb.toFixed(0)} MiB, ${big.entries} entries of about 1 KiB shaped like the core's lines, ` +
      `in ${big.segments} segments of 16 MiB (the default rotation size), archives last modified a day ago; a second fixture of ` +
      `${(small.bytes / MiB).toFixed(0)} MiB (${small.segments} segment${small.segments === 1 ? "" : "s"}) for the history-size comparison. Medians of ${REPEAT} runs ` +
      `(resume: of 7).`,
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
