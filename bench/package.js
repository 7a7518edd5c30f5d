#!/usr/bin/env node
// Benchmark of the package as users install it:
//  - size: the tarball `npm pack` makes, its unpacked size, and what an install adds to node_modules (this
//    package alone, and with its dependencies);
//  - start-up: one hook-mode process (a Claude Code gate failure that writes an entry, payload on stdin) run
//    from the installed package, against a bare start of an empty CommonJS script, in each runtime: the
//    machine's Node, Node 22 and 24 (.tools/, from scripts/setup.sh) and Bun. For Node 22 and 24 also the
//    same bundle started through Node's own compile cache (module.enableCompileCache) instead of the
//    launcher's V8 code cache, to choose between them. Variants alternate round by round.
//
//   node bench/package.js             measure and write BENCHMARKS.md between the package-bench markers
//   node bench/package.js --no-write  print the section instead
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { execFileSync, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { writeSection } from "./section.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const START = "<!-- package-bench:start -->";
const END = "<!-- package-bench:end -->";
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 25);
const PKG = "opencode-recordings";
const RUNTIMES = [
  ["Node (machine)", process.execPath],
  ["Node 22", path.join(ROOT, ".tools/node22/node_modules/.bin/node")],
  ["Node 24", path.join(ROOT, ".tools/node24/node_modules/.bin/node")],
  ["Bun", path.join(ROOT, "node_modules/.bin/bun")],
].filter(([, bin]) => fs.existsSync(bin));

const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "bench-package-")));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (n) => `${(n / 1000).toFixed(1)} kB`;

function du(dir) {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) n += du(p);
    else if (e.isFile()) n += fs.statSync(p).size;
  }
  return n;
}

// Size: pack the built checkout (scripts/build.sh ran first), install the tarball into an empty project.
const packed = JSON.parse(execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", work], { cwd: ROOT, encoding: "utf8" }).replace(/^[^[]*/, ""))[0];
const tarball = path.join(work, packed.filename);
const project = path.join(work, "project");
fs.mkdirSync(project);
fs.writeFileSync(path.join(project, "package.json"), '{"name": "bench", "private": true}\n');
execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball], { cwd: project, stdio: "ignore" });
const installedPkg = du(path.join(project, "node_modules", PKG));
const installedAll = du(path.join(project, "node_modules"));
const deps = fs.readdirSync(path.join(project, "node_modules")).filter((n) => !n.startsWith("."));

// Start-up, from the installed package.
const repo = path.join(work, "repo");
fs.mkdirSync(repo);
execFileSync("git", ["init", "-q", repo]);
const FIX = path.join(ROOT, "tests/fixtures/hosts");
const payload = fs.readFileSync(path.join(FIX, "claude-code/post-tool-use-failure-gate.json"), "utf8").split("${FIXTURE}").join(FIX).split("${PROJECT}").join(repo);
const bare = path.join(work, "bare.cjs");
fs.writeFileSync(bare, "");

function startup(name, bin) {
  // A copy of the installed package per runtime, so each trains and keeps its own code cache.
  const copy = path.join(work, `pkg-${name.replace(/\W+/g, "-")}`);
  fs.cpSync(path.join(project, "node_modules", PKG), copy, { recursive: true });
  fs.symlinkSync(path.join(project, "node_modules"), path.join(copy, "node_modules"));
  const nodeCache = path.join(copy, "plugin/node-cache.cjs");
  fs.writeFileSync(nodeCache, `"use strict";require("node:module").enableCompileCache(${JSON.stringify(path.join(copy, "compile-cache"))});
Promise.resolve(require("./cli.bundle.cjs").runCli()).then((exitNow) => { if (exitNow) { require("node:module").flushCompileCache(); process.exit(); } });\n`);
  const hasNodeCache = spawnSync(bin, ["-e", 'process.exit(typeof require("node:module").enableCompileCache === "function" && !process.versions.bun ? 0 : 1)']).status === 0;
  // No warm hook helper: these rows compare how each way of starting compiles the process's own code.
  const env = { PATH: process.env.PATH, HOME: work, XDG_STATE_HOME: path.join(work, "state"), XDG_CACHE_HOME: path.join(work, "cache"), AI_RECORDINGS_FILE: path.join(work, "r.jsonl"), AI_RECORDINGS_HOOK_HELPER: "0" };
  const variants = [
    ["bare start, empty CommonJS script", [bare], ""],
    [`hook, Claude gate.failed, \`record\` (${name === "Bun" ? "Bun: no code cache" : "V8 code cache"})`, [path.join(copy, "plugin/record.cjs"), "hook", "claude-code"], payload],
  ];
  if (hasNodeCache) variants.push(["the same through Node's module.enableCompileCache", [nodeCache, "hook", "claude-code"], payload]);
  const times = variants.map(() => []);
  const once = (v) => {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(bin, variants[v][1], { input: variants[v][2], env, stdio: ["pipe", "ignore", "pipe"] });
    if (r.status !== 0) throw new Error(`${name}: ${variants[v][0]} exited ${r.status}: ${r.stderr}`);
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  for (let i = 0; i < 3; i++) for (let v = 0; v < variants.length; v++) once(v); // caches written, page cache warm
  for (let r = 0; r < ROUNDS; r++) for (let k = 0; k < variants.length; k++) {
    const v = (k + r) % variants.length;
    times[v].push(once(v));
  }
  const version = spawnSync(bin, ["--version"], { encoding: "utf8" }).stdout.trim();
  const base = median(times[0]);
  return variants.map(([what], i) => ({ runtime: `${name} ${version}`, what, ms: median(times[i]), ratio: median(times[i]) / base }));
}

const rows = RUNTIMES.flatMap(([name, bin]) => startup(name, bin));
fs.rmSync(work, { recursive: true, force: true });

const cpu = os.cpus()[0]?.model?.replace(/\s+/g, " ").trim() ?? "?";
const load = os.loadavg()[0].toFixed(1);
const section = [
  START,
  "## The installed package: size and start-up",
  "",
  `Measured by \`node bench/package.js\` on ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (${cpu}), load average ${load} at the end.`,
  "",
  "| what | size |",
  "|---|---:|",
  `| tarball (\`npm pack\`, ${packed.entryCount} files) | ${kb(packed.size)} |`,
  `| unpacked | ${kb(packed.unpackedSize)} |`,
  `| installed: this package | ${kb(installedPkg)} |`,
  `| installed: with its dependencies (${deps.length} top-level entries in node_modules) | ${kb(installedAll)} |`,
  "",
  `Start-up: wall time of one process from spawn to exit run from the installed package, ${ROUNDS} rounds with the`,
  "variants alternating, milliseconds (median), and the median against the bare start of the same runtime in the",
  "same run. The hook writes one entry (default fdatasync), with `AI_RECORDINGS_HOOK_HELPER=0`: each process does",
  "its own work, as it would without a warm helper (the Recall and Hosts sections time hooks the helper serves).",
  "",
  "| runtime | what | ms | vs bare start |",
  "|---|---|---:|---:|",
  ...rows.map((r) => `| ${r.runtime} | ${r.what} | ${r.ms.toFixed(1)} | ${r.ratio.toFixed(2)}× |`),
  "",
  "The launcher (plugin/record.cjs) keeps its own V8 code cache on every Node line: where Node has",
  "module.enableCompileCache (22, 24) the same bundle started through it is the row below the launcher's, and",
  "the launcher's row is the one to beat. Bun has no V8 cache to use; its row is the bundle alone. A machine",
  "under load (see the load average above) stretches every row, the bare start included, unevenly: compare",
  "ratios within one run.",
  END,
].join("\n");

if (process.argv.includes("--no-write")) console.log(section);
else {
  writeSection(START, END, section);
  console.log(section);
}
