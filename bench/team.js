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
import { execFileSync, spawn, spawnSync } from "node:child_process";
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
      .map((l) => JSON.parse(l).lesson)
      .filter((t) => typeof t === "string")
      .map((t) => t.split(/[\s:—]+/).filter((w) => w.length > 2)),
  );
  return Array.from({ length: n }, (_, i) => {
    const ws = lessons[i % 2][Math.floor(rnd() * lessons[i % 2].length)];
    const at = Math.floor(rnd() * Math.max(1, ws.length - 4));
    return ws.slice(at, at + 4).join(" ");
  });
}

/** Recall in the plugin (the service held open) for each env, the queries alternating between them. */
async function inPlugin(envs, repo, qs) {
  const { createRecall } = await import("../plugin/recall/service.js");
  // Held open as the plugin and the MCP server hold it (plugin/recall/opencode.js, mcp.js).
  const services = envs.map((env) => createRecall({ file: env.AI_RECORDINGS_FILE, env, cwd: repo, held: true }));
  for (const q of qs.slice(0, 20)) for (const s of services) await s.find(q, { cwd: repo });
  const out = services.map(() => ({ lat: [], hits: 0, team: 0 }));
  for (const [i, q] of qs.slice(20).entries()) {
    const order = i % 2 ? [...services.keys()].reverse() : [...services.keys()];
    for (const k of order) {
      const t = process.hrtime.bigint();
      const r = await services[k].find(q, { cwd: repo });
      out[k].lat.push(ms(t));
      out[k].hits += r.hits.length;
      out[k].team += r.hits.filter((h) => h.machine).length;
    }
  }
  for (const s of services) await s.close();
  return out.map((o) => ({ p50: pct(o.lat, 0.5), p95: pct(o.lat, 0.95), hits: o.hits / o.lat.length, team: o.team / o.lat.length }));
}

/** Fresh `record recall` processes for each env and a bare runtime start, in rotation, with the code cache
 *  trained by this Node (as the test scripts do). */
function processes(envs, repo, qs) {
  execFileSync("bash", [path.join(ROOT, "scripts/train-cache.sh"), process.execPath], { cwd: ROOT, stdio: "ignore" });
  const time = (args, env) => {
    const t = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { env: { ...process.env, ...env }, cwd: repo, stdio: ["ignore", "ignore", "pipe"] });
    if (r.status !== 0) throw new Error(`${args.join(" ")}: ${r.stderr}`);
    return ms(t);
  };
  const runs = [...envs.map((env) => (q) => time([CLI, "recall", q], env)), () => time(["-e", "0"], {})];
  const lat = runs.map(() => []);
  for (let i = 0; i < 40; i++) {
    for (let j = 0; j < runs.length; j++) {
      const k = (i + j) % runs.length;
      lat[k].push(runs[k](qs[i % qs.length]));
    }
  }
  return lat.map((l) => ({ p50: pct(l.slice(4), 0.5), p95: pct(l.slice(4), 0.95) }));
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
    // The same index without team rows, for the same-run comparison.
    const localOnly = { ...env, XDG_DATA_HOME: path.join(tmp, "data-local-only") };
    const repo = path.join(localDir, REPOS[0]);
    const { openIndex } = await import("../plugin/recall/index.js");
    const { indexPath } = await import("../plugin/paths.js");
    const build = async (e) => {
      const t0 = process.hrtime.bigint();
      const ix = await openIndex({ file: localFile, env: e });
      const added = ix.catchUp().added;
      const took = ms(t0);
      ix.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      ix.close();
      return { added, ms: took };
    };
    let sent = 0;
    class Counting extends pg.Client {
      query(...args) {
        sent++;
        return super.query(...args);
      }
    }
    const { sync } = await import("../plugin/cli/sync.js");
    const pull = async (e) => {
      sent = 0;
      const out = sink();
      const t0 = process.hrtime.bigint();
      const code = await sync(["--from", url, "--json"], { env: e, cwd: repo, stdout: out, stderr: sink(), Client: Counting });
      const took = ms(t0);
      if (code !== 0) throw new Error(`record sync failed: ${out.text}`);
      return { ms: took, sent, ...JSON.parse(out.text) };
    };
    // Building from the files and pulling, twice each, alternating (the machine's load changes over minutes).
    process.stderr.write("team bench: building the local index, pulling; twice…\n");
    const builds = [await build(env)];
    const copy = indexPath(localFile, { env: localOnly });
    fs.mkdirSync(path.dirname(copy), { recursive: true, mode: 0o700 });
    fs.copyFileSync(indexPath(localFile, { env }), copy);
    const pulls = [await pull(env)];
    const second = { ...env, XDG_DATA_HOME: path.join(tmp, "data-2") };
    builds.push(await build(second));
    pulls.push(await pull(second));
    const first = pulls[0];
    let t;
    // Nothing new: the whole command against connect + SELECT 1 + disconnect; the pull alone on an open
    // connection against one SELECT 1 on it (a round trip).
    const { pullTeam } = await import("../plugin/export/pull.js");
    const ix2 = await openIndex({ file: localFile, env });
    const open = new Counting({ connectionString: url });
    await open.connect();
    const idle = [];
    const floor = [];
    const bare = [];
    const trip = [];
    for (let i = 0; i < 7; i++) {
      idle.push(await pull(env));
      const c = new pg.Client({ connectionString: url });
      t = process.hrtime.bigint();
      await c.connect();
      await c.query("SELECT 1");
      await c.end();
      floor.push(ms(t));
      sent = 0;
      t = process.hrtime.bigint();
      await pullTeam(open, ix2.db, { machine: env.AI_RECORDINGS_MACHINE, keys: first.repos });
      bare.push({ ms: ms(t), sent });
      t = process.hrtime.bigint();
      await open.query("SELECT 1");
      trip.push(ms(t));
    }
    await open.end();
    ix2.close();
    process.stderr.write("team bench: recall, local only and local + team, alternating…\n");
    const qs = queries([localFile, teamFile], 220);
    const [withTeam, without] = await inPlugin([env, localOnly], repo, qs);
    const [procTeam, procLocal, procBare] = processes([env, localOnly], repo, qs);

    const section = render({ exported, builds, pulls, first, idle, floor, bare, trip, withTeam, without, procTeam, procLocal, procBare });
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
  const med = (xs) => pct(xs.map((x) => x.ms), 0.5);
  const sentIn = (xs) => [...new Set(xs.map((x) => x.sent))].join(", ");
  const L = [];
  L.push(START, "", "## Team memory (`record sync`)", "");
  L.push(
    `Measured by \`node bench/team.js\` on ${new Date().toISOString().slice(0, 10)}, 2 cores shared with other work, ${process.versions.bun ? `Bun ${process.versions.bun}` : `Node ${process.versions.node}`}, PostgreSQL 15 on 127.0.0.1 (a throwaway cluster, fsync off). ` +
      `Two histories of 100,000 entries each, made by \`bench/recall.js --generate\` with different seeds in the same four repositories: a teammate's, exported (${r.exported.toLocaleString("en")} rows), and this machine's own. Every figure has its baseline from the same run.`,
  );
  L.push("");
  L.push("| what | ms | rows per second |", "|---|---:|---:|");
  const both = (xs, fn) => xs.map(fn).join(", ");
  L.push(`| baseline: building the index from this machine's files (${r.builds[0].added.toLocaleString("en")} entries), two runs | ${both(r.builds, (x) => f(x.ms))} | ${both(r.builds, (x) => rate(x.added, x.ms))} |`);
  L.push(`| **first \`record sync\`** into that index: ${r.first.added.toLocaleString("en")} team rows (${r.first.sent} queries, batches of 5,000), two runs, each after its build | **${both(r.pulls, (x) => f(x.ms))}** | **${both(r.pulls, (x) => rate(x.added, x.ms))}** (target ≥ 5,000) |`);
  L.push(`| \`record sync\` with nothing new, whole command, median of 7 (queries sent: ${sentIn(r.idle)}) | ${f(med(r.idle))} | |`);
  L.push(`| baseline: connect, \`SELECT 1\`, disconnect, median of 7 | ${f(pct(r.floor, 0.5))} | |`);
  L.push(`| the pull alone on an open connection, nothing new, median of 7 (queries sent: ${sentIn(r.bare)}) | ${f(med(r.bare))} | |`);
  L.push(`| baseline: one \`SELECT 1\` on an open connection (a round trip), median of 7 | ${f(pct(r.trip, 0.5))} | |`);
  L.push("");
  L.push("| recall, p50 / p95 ms | 100,000 local rows | 100,000 local + 100,000 team rows | target p95 |", "|---|---:|---:|---:|");
  L.push(`| in the plugin (service held open; 200 queries, the two indexes alternating) | ${f(r.without.p50)} / ${f(r.without.p95)} | ${f(r.withTeam.p50)} / ${f(r.withTeam.p95)} | 20 |`);
  L.push(`| hits per query (of them team rows) | ${r.without.hits.toFixed(1)} | ${r.withTeam.hits.toFixed(1)} (${r.withTeam.team.toFixed(1)}) | |`);
  L.push(`| fresh \`record recall\` process (36 runs each, in rotation with the baseline) | ${f(r.procLocal.p50)} / ${f(r.procLocal.p95)} | ${f(r.procTeam.p50)} / ${f(r.procTeam.p95)} | 100 |`);
  L.push(`| baseline: bare runtime start (\`-e 0\`) in the same rotation | ${f(r.procBare.p50)} / ${f(r.procBare.p95)} | | |`);
  L.push("");
  L.push(
    "A pull with nothing new sends one query after connecting: the head read under the SHARE lock, which finds the stored position already there; the whole command also opens the index, catches it up with the files, lists this machine's repositories, and notes the outcome. " +
      "The first pull reads the rows in id order, at most 5,000 per query from a window of ids after its position, and writes each batch into the index in one SQLite transaction with the position; its cost is the index's (parsing, names, FTS) more than the network's, as the local build beside it shows.",
  );
  L.push("", END);
  return L.join("\n");
}

const args = process.argv.slice(2);
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
await main(args.includes("--no-write"), { local: opt("--local"), team: opt("--team") });
