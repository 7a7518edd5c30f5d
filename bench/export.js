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
import { writeSection } from "./section.js";
import { writeHistory } from "./history.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const START = "<!-- export-bench:start -->";
const END = "<!-- export-bench:end -->";
const MiB = 1024 * 1024;
const ROUNDS = 3;
const RERUNS = 7;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];


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
    const big = writeHistory(path.join(tmp, "big"), { count: 100_000 });
    const small = writeHistory(path.join(tmp, "small"), { bytes: 10 * MiB });
    const hundred = writeHistory(path.join(tmp, "hundred"), { bytes: 100 * MiB });
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
    writeSection(START, END, section);
    process.stdout.write(section + "\n");
  } finally {
    cluster.destroy();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main(!process.argv.includes("--no-write"));
