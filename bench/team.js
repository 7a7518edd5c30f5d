#!/usr/bin/env node
// Benchmark of team memory (`record sync`): a teammate's 100,000-entry history exported into a throwaway
// PostgreSQL cluster (tests/js/pg-cluster.js, fsync off as in the tests), then on this machine, which has a
// 100,000-entry history of its own in the same four repositories (both made by `bench/recall.js --generate`
// with different seeds):
//   - the first pull of the 100,000 team rows (rows per second), against building the index from the local
//     files in the same run (the same index work without the network);
//   - a pull with nothing new: the queries it sends (counted at the client) and its time, against a bare
//     connect and `SELECT 1`;
//   - recall in the plugin (the service held open) and a fresh `record recall` process, p50/p95, with the
//     local rows only and then with the team rows too, a bare runtime start as the process baseline.
// Needs Node 22.5+ (node:sqlite); run with .tools/node22 or RECORDINGS_NODE22.
//
//   node bench/team.js                 measure and write BENCHMARKS.md between the team-bench markers
//   node bench/team.js --no-write      print the section instead
//   node bench/team.js --local DIR --team DIR   histories made before with bench/recall.js --generate
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { startCluster } from "../tests/js/pg-cluster.js";
import { writeSection } from "./section.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const START = "<!-- team-bench:start -->";
const END = "<!-- team-bench:end -->";
const CLI = path.join(ROOT, "plugin/record.cjs");
const REPOS = ["widget", "billing", "dotfiles", "pipeline"];

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length - 1) * p))];
};
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
const f = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const sink = () => ({ text: "", write(s) { this.text += s; return true; } });

function generate(dir, seed) {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [path.join(ROOT, "bench/recall.js"), "--generate", dir], { env: { ...process.env, RECALL_BENCH_SEED: String(seed) }, stdio: "inherit" });
    c.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`generating ${dir} failed (${code})`))));
  });
}

/** Queries made of a few words of lessons from both histories: half from each, deterministic. */
function queries(files, n) {
  let s = 20261202;
  const rnd = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296);
  const lessons = files.map((file) =>
    fs
      .readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l.includes('"lesson"'))
      .map((l) => JSON.parse(l).lesson.split(/[\s:—]+/).filter((w) => w.length > 2)),
  );
  return Array.from({ length: n }, (_, i) => {
    const ws = lessons[i % 2][Math.floor(rnd() * lessons[i % 2].length)];
    const at = Math.floor(rnd() * Math.max(1, ws.length - 4));
    return ws.slice(at, at + 4).join(" ");
  });
}

async function inPlugin(env, repo, qs) {
  const { createRecall } = await import("../plugin/recall/service.js");
  const service = createRecall({ file: env.AI_RECORDINGS_FILE, env, cwd: repo });
  for (const q of qs.slice(0, 20)) await service.find(q, { cwd: repo });
  const lat = [];
  let hits = 0;
  let team = 0;
  for (const q of qs.slice(20)) {
    const t = process.hrtime.bigint();
    const r = await service.find(q, { cwd: repo });
    lat.push(ms(t));
    hits += r.hits.length;
    team += r.hits.filter((h) => h.machine).length;
  }
  await service.close();
  return { p50: pct(lat, 0.5), p95: pct(lat, 0.95), hits: hits / lat.length, team: team / lat.length };
}

/** Fresh `record recall` processes against a bare runtime start, alternating. */
function processes(env, repo, qs) {
  const time = (args) => {
    const t = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { env: { ...process.env, ...env }, cwd: repo, stdio: ["ignore", "ignore", "pipe"] });
    if (r.status !== 0) throw new Error(`${args.join(" ")}: ${r.stderr}`);
    return ms(t);
  };
  const recall = [];
  const bare = [];
  for (let i = 0; i < 40; i++) {
    const q = qs[i % qs.length];
    if (i % 2) {
      recall.push(time([CLI, "recall", q]));
      bare.push(time(["-e", "0"]));
    } else {
      bare.push(time(["-e", "0"]));
      recall.push(time([CLI, "recall", q]));
    }
  }
  return { p50: pct(recall.slice(4), 0.5), p95: pct(recall.slice(4), 0.95), bareP50: pct(bare.slice(4), 0.5), bareP95: pct(bare.slice(4), 0.95) };
}

async function main(noWrite, given) {
  const { missingDriver } = await import("../plugin/recall/driver.js");
  if (missingDriver()) throw new Error(`${missingDriver()} (bench/team.js needs it)`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "team-bench-"));
  const cluster = await startCluster();
  try {
    const localDir = given.local ?? path.join(tmp, "local");
    const teamDir = given.team ?? path.join(tmp, "team");
    if (!given.local || !given.team) {
      process.stderr.write("team bench: recording two histories…\n");
      await Promise.all([generate(localDir, 20261201), generate(teamDir, 7)]);
    }
    const localFile = path.join(localDir, "r.jsonl");
    const teamFile = path.join(teamDir, "r.jsonl");
    const url = cluster.url("postgres");

    process.stderr.write("team bench: the teammate exports…\n");
    const { exportCmd } = await import("../plugin/cli/export.js");
    const teamEnv = { HOME: teamDir, XDG_STATE_HOME: path.join(tmp, "team-state"), AI_RECORDINGS_MACHINE: "teammate", AI_RECORDINGS_SYNC: "0" };
    if ((await exportCmd(["--to", url, "--file", teamFile, "--quiet"], { env: teamEnv, stdout: sink(), stderr: sink(), cwd: teamDir })) !== 0) throw new Error("the export failed");
    const exported = Number((await cluster.query("SELECT count(*) n FROM recordings")).rows[0].n);

    const env = { HOME: localDir, XDG_DATA_HOME: path.join(tmp, "data"), XDG_STATE_HOME: path.join(tmp, "state"), AI_RECORDINGS_FILE: localFile, AI_RECORDINGS_SYNC: "0", AI_RECORDINGS_MACHINE: "this-laptop" };
    const repo = path.join(localDir, REPOS[0]);
    const { openIndex } = await import("../plugin/recall/index.js");
    process.stderr.write("team bench: building the local index…\n");
    let t = process.hrtime.bigint();
    const ix = await openIndex({ file: localFile, env });
    const built = ix.catchUp().added;
    const buildMs = ms(t);
    ix.close();

    const qs = queries([localFile, teamFile], 220);
    process.stderr.write("team bench: recall, local rows only…\n");
    const before = { plugin: await inPlugin(env, repo, qs), proc: processes(env, repo, qs) };

    let sent = 0;
    class Counting extends pg.Client {
      query(...args) {
        sent++;
        return super.query(...args);
      }
    }
    const { sync } = await import("../plugin/cli/sync.js");
    const pull = async () => {
      sent = 0;
      const out = sink();
      const t0 = process.hrtime.bigint();
      const code = await sync(["--from", url, "--json"], { env, cwd: repo, stdout: out, stderr: sink(), Client: Counting });
      const took = ms(t0);
      if (code !== 0) throw new Error(`record sync failed: ${out.text}`);
      return { ms: took, sent, ...JSON.parse(out.text) };
    };
    process.stderr.write("team bench: pulling…\n");
    const first = await pull();
    const idle = [];
    const floor = [];
    for (let i = 0; i < 7; i++) {
      idle.push(await pull());
      const c = new pg.Client({ connectionString: url });
      t = process.hrtime.bigint();
      await c.connect();
      await c.query("SELECT 1");
      await c.end();
      floor.push(ms(t));
    }
    process.stderr.write("team bench: recall, local and team rows…\n");
    const after = { plugin: await inPlugin(env, repo, qs), proc: processes(env, repo, qs) };

    const section = render({ exported, built, buildMs, first, idle, floor, before, after });
    if (noWrite) process.stdout.write(section + "\n");
    else {
      writeSection(START, END, section);
      process.stdout.write(section + "\n");
    }
  } finally {
    cluster.destroy();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function render(r) {
  const rate = (n, took) => Math.round(n / (took / 1000)).toLocaleString("en");
  const idleMs = pct(r.idle.map((x) => x.ms), 0.5);
  const sentIdle = [...new Set(r.idle.map((x) => x.sent))].join(", ");
  const L = [];
  L.push(START, "", "## Team memory (`record sync`)", "");
  L.push(
    `Measured by \`node bench/team.js\` on ${new Date().toISOString().slice(0, 10)}, 2 cores shared with other work, ${process.versions.bun ? `Bun ${process.versions.bun}` : `Node ${process.versions.node}`}, PostgreSQL 15 on 127.0.0.1 (a throwaway cluster, fsync off). ` +
      `Two histories of 100,000 entries each, made by \`bench/recall.js --generate\` with different seeds in the same four repositories: a teammate's, exported (${r.exported.toLocaleString("en")} rows), and this machine's own. Every figure has its baseline from the same run.`,
  );
  L.push("");
  L.push("| what | ms | rows per second |", "|---|---:|---:|");
  L.push(`| baseline: building the index from this machine's files (${r.built.toLocaleString("en")} entries) | ${f(r.buildMs)} | ${rate(r.built, r.buildMs)} |`);
  L.push(`| **first \`record sync\`**: ${r.first.added.toLocaleString("en")} team rows (${r.first.sent} queries, batches of 5,000) | **${f(r.first.ms)}** | **${rate(r.first.added, r.first.ms)}** (target ≥ 5,000) |`);
  L.push(`| \`record sync\` with nothing new, median of 7 (queries sent: ${sentIdle}) | ${f(idleMs)} | |`);
  L.push(`| baseline: connect, \`SELECT 1\`, disconnect, median of 7 | ${f(pct(r.floor, 0.5))} | |`);
  L.push("");
  L.push("| recall, p50 / p95 ms | 100,000 local rows | 100,000 local + 100,000 team rows | target p95 |", "|---|---:|---:|---:|");
  L.push(`| in the plugin (service held open; 200 queries) | ${f(r.before.plugin.p50)} / ${f(r.before.plugin.p95)} | ${f(r.after.plugin.p50)} / ${f(r.after.plugin.p95)} | 20 |`);
  L.push(`| hits per query (of them team rows) | ${r.before.plugin.hits.toFixed(1)} | ${r.after.plugin.hits.toFixed(1)} (${r.after.plugin.team.toFixed(1)}) | |`);
  L.push(`| fresh \`record recall\` process (36 runs) | ${f(r.before.proc.p50)} / ${f(r.before.proc.p95)} | ${f(r.after.proc.p50)} / ${f(r.after.proc.p95)} | 100 |`);
  L.push(`| baseline: bare runtime start (\`-e 0\`), alternating | ${f(r.before.proc.bareP50)} / ${f(r.before.proc.bareP95)} | ${f(r.after.proc.bareP50)} / ${f(r.after.proc.bareP95)} | |`);
  L.push("");
  L.push(
    "A pull with nothing new connects (TCP, startup, SCRAM) and sends one query: the head read under the SHARE lock, which finds the stored position already there. " +
      "The first pull reads the rows in id order, 5,000 per query, and writes each batch into the index in one SQLite transaction with the position; its rate is the index's (parsing, names, FTS) more than the network's, as the local build beside it shows.",
  );
  L.push("", END);
  return L.join("\n");
}

const args = process.argv.slice(2);
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
await main(args.includes("--no-write"), { local: opt("--local"), team: opt("--team") });
