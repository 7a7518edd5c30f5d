#!/usr/bin/env node
// Benchmark of `record export` into PostgreSQL: throughput for 100,000 entries against a bare COPY of the same
// lines into a one-column table in the same run and cluster, and a rerun with nothing new at 10 MiB and
// 100 MiB of history.
//
//   node bench/export.js            measure and write BENCHMARKS.md between <!-- export-bench:start --> and
//                                   <!-- export-bench:end -->
//   node bench/export.js --no-write print the section instead
//
// A throwaway cluster (tests/js/pg-cluster.js, fsync off as in the tests: the figures are the client's and the
// server's work, not the disk's). Fixtures are made here: lines shaped like the core's (~1 KiB), split into
// 16 MiB segments named as the writer names archives, archives last modified a day ago.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import pg from "pg";
import copyStreams from "pg-copy-streams";
import { startCluster } from "../tests/js/pg-cluster.js";
import { exportCmd } from "../plugin/cli/export.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const START = "<!-- export-bench:start -->";
const END = "<!-- export-bench:end -->";
const MiB = 1024 * 1024;
const SEGMENT = 16 * MiB;
const ROUNDS = 3;
const RERUNS = 7;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** `count` entries (or until `bytes`) as segments of dir/r.jsonl; returns { entries, bytes, segments, lines }. */
function generate(dir, { count = Infinity, bytes = Infinity }) {
  fs.mkdirSync(dir, { recursive: true });
  const words = "the flaky test was a race between two writers appending to one file without O_APPEND ";
  const t0 = Date.parse("2026-01-01T00:00:00.000Z");
  const lines = [];
  let n = 0;
  let total = 0;
  let seg = 0;
  const archives = [];
  while (n < count && total < bytes) {
    const parts = [];
    let size = 0;
    while (size < SEGMENT && n < count && total + size < bytes) {
      const ts = new Date(t0 + n * 60_000).toISOString();
      const eid = n.toString(32).padStart(13, "0");
      const line =
        `{"ts":"${ts}","eid":"${eid}","note":"${words.repeat(8).slice(0, 500 + (n % 300))}","sentiment":["relief"],"capture":"cli",` +
        `"pwd":"/home/user/src/project","repo":"project","git_dir":"/home/user/src/project/.git",` +
        `"origin":"git@example.com:user/project.git","head":"4b825dc642cb6eb9a060e54bf8d69288fbee4904",` +
        `"branch":"main","session":"ses_${Math.floor(n / 50)}","model":"anthropic/claude","agent":"build"}`;
      parts.push(line + "\n");
      lines.push(line);
      size += line.length + 1;
      n++;
    }
    total += size;
    const last = !(n < count && total < bytes);
    const stamp = new Date(t0 + seg * 86_400_000).toISOString().replace(/[-:.]/g, "");
    const p = last ? path.join(dir, "r.jsonl") : path.join(dir, `r.${stamp}.jsonl`);
    fs.writeFileSync(p, parts.join(""));
    if (!last) archives.push(p);
    seg++;
  }
  const dayAgo = new Date(Date.now() - 86_400_000);
  for (const a of archives) fs.utimesSync(a, dayAgo, dayAgo);
  return { entries: n, bytes: total, segments: seg, lines };
}

const sink = { write: () => true };

async function exportOnce(url, dir, env) {
  const t0 = performance.now();
  const code = await exportCmd(["--to", url, "--file", path.join(dir, "r.jsonl"), "--quiet"], { env, stdout: sink, stderr: sink, cwd: dir });
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`export failed (${code})`);
  return ms;
}

/** The baseline: the same lines, one COPY into a table of one text column, in one transaction. */
async function bareCopy(url, lines) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query("CREATE TABLE bare (line text)");
  const t0 = performance.now();
  await c.query("BEGIN");
  const esc = (s) => s.replace(/[\\\n\r\t]/g, (ch) => ({ "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" })[ch]);
  await pipeline(Readable.from(lines.map((l) => esc(l) + "\n")), c.query(copyStreams.from("COPY bare (line) FROM STDIN")));
  await c.query("COMMIT");
  const ms = performance.now() - t0;
  await c.end();
  return ms;
}

async function main(write) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rec-export-bench-"));
  const cluster = await startCluster();
  try {
    const env = { ...process.env, HOME: tmp, XDG_STATE_HOME: path.join(tmp, "state"), AI_RECORDINGS_MACHINE: "bench" };
    const big = generate(path.join(tmp, "big"), { count: 100_000 });
    const small = generate(path.join(tmp, "small"), { bytes: 10 * MiB });
    const hundred = generate(path.join(tmp, "hundred"), { bytes: 100 * MiB });
    const exportMs = [];
    const copyMs = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Alternating, each into a fresh database, so neither gets a warmer server.
      copyMs.push(await bareCopy(cluster.url(await cluster.createDatabase()), big.lines));
      exportMs.push(await exportOnce(cluster.url(await cluster.createDatabase()), path.join(tmp, "big"), env));
    }
    const rerun = {};
    for (const [name, fx] of [["10 MiB", small], ["100 MiB", hundred]]) {
      const url = cluster.url(await cluster.createDatabase());
      const dir = path.join(tmp, name === "10 MiB" ? "small" : "hundred");
      await exportOnce(url, dir, env);
      await exportOnce(url, dir, env); // the first rerun settles the cursor's base
      const xs = [];
      for (let i = 0; i < RERUNS; i++) xs.push(await exportOnce(url, dir, env));
      rerun[name] = { ms: median(xs), fx };
    }
    const e = median(exportMs);
    const b = median(copyMs);
    const L = [
      START,
      "## Export into PostgreSQL",
      "",
      `Measured by \`node bench/export.js\` on ${new Date().toISOString().slice(0, 10)}, 2 cores, Node ${process.version}, PostgreSQL 15 on 127.0.0.1 (a throwaway cluster with fsync off, as in the tests), page cache warm. In process: \`record export\`'s code with a fresh connection each run (connect, schema check, both file families). Fixture: ${big.entries.toLocaleString("en")} entries of about 1 KiB shaped like the core's lines (${(big.bytes / MiB).toFixed(0)} MiB, ${big.segments} segments of 16 MiB). Medians of ${ROUNDS} runs, baseline and export alternating, each into a fresh database; reruns: medians of ${RERUNS}.`,
      "",
      "| what | ms | entries per second |",
      "|---|---:|---:|",
      `| baseline: one bare \`COPY\` of the same lines into a one-column table | ${b.toFixed(0)} | ${Math.round(big.entries / (b / 1000)).toLocaleString("en")} |`,
      `| **\`record export\`**: read, columns, COPY into staging, INSERT into \`recordings\` (jsonb, unique eid, indexes), position | **${e.toFixed(0)}** | **${Math.round(big.entries / (e / 1000)).toLocaleString("en")}** |`,
      `| export / baseline | ${(e / b).toFixed(2)}x | |`,
      "",
      "| rerun with nothing new | history | segments | ms |",
      "|---|---:|---:|---:|",
      ...Object.entries(rerun).map(([name, r]) => `| \`record export\` | ${name} (${r.fx.entries.toLocaleString("en")} entries) | ${r.fx.segments} | ${r.ms.toFixed(1)} |`),
      "",
      "The export does more per line than the baseline: it parses each line (the reader's damage check), takes the common columns, and the server parses the line again as jsonb, checks the unique eid and keeps three more indexes. A rerun with nothing new connects, checks the schema version, and per file family locks its position row and resumes the reader from the stored cursor: a directory listing and a stat per segment since the last settled archive, whatever the history before it.",
      END,
    ];
    const section = L.join("\n");
    if (!write) {
      process.stdout.write(section + "\n");
      return;
    }
    const md = path.join(ROOT, "BENCHMARKS.md");
    let text = fs.readFileSync(md, "utf8");
    const a = text.indexOf(START);
    const z = text.indexOf(END);
    text = a >= 0 && z > a ? text.slice(0, a) + section + text.slice(z + END.length) : text.replace(/\n*$/, "\n\n") + section + "\n";
    fs.writeFileSync(md, text);
    process.stdout.write(section + "\n");
  } finally {
    cluster.destroy();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main(!process.argv.includes("--no-write"));
