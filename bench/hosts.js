#!/usr/bin/env node
// Benchmark of the host surfaces:
//  - hook mode: the wall time of one `record hook` process (plugin/record.cjs, the installed command), from spawn
//    to exit, as Claude Code and Codex run it (payload on stdin), against a bare `node` start of an empty script
//    in the same run: an empty CommonJS script (the fastest start there is: the baseline of the target) and an
//    empty ES module (Node 20 starts those through its ESM loader). Variants are run alternately, round by round,
//    so drift in machine load hits all of them alike. Target: ≤ 1.5× the bare start (hooks run serially in the
//    host's turn, so each process's start is what users feel).
//  - the MCP server: one `record` tool call's round trip through the official SDK client over a stdio pipe,
//    and the server's start (spawn → initialize answered).
//
//   node bench/hosts.js             measure and write BENCHMARKS.md between the hosts-bench markers
//   node bench/hosts.js --no-write  print the section instead
//   node bench/hosts.js --base DIR  also the hook rows of DIR, a built checkout of older code, in the same rounds
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawnSync, execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { writeSection } from "./section.js";
import { endHelper, waitForHelper } from "./hook-helper.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const START = "<!-- hosts-bench:start -->";
const END = "<!-- hosts-bench:end -->";
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const CALLS = Number(process.env.BENCH_CALLS ?? 300);
const NODE = process.execPath;
const BUN = path.join(ROOT, "node_modules/.bin/bun");

const noWrite = process.argv.includes("--no-write");
const BASE = process.argv.includes("--base") ? path.resolve(process.argv[process.argv.indexOf("--base") + 1]) : null;
const commitOf = (dir) => execFileSync("git", ["-C", dir, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
// Each checkout's code cache trained by this Node, as the test scripts do before a Node line's suites.
for (const dir of [ROOT, BASE].filter(Boolean)) execFileSync("bash", [path.join(dir, "scripts/train-cache.sh"), NODE], { cwd: dir, stdio: "ignore" });

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const fmt = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const stats = (xs) => `${fmt(pct(xs, 50))} / ${fmt(pct(xs, 90))}`;

const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "bench-hosts-")));
const project = path.join(work, "project");
fs.mkdirSync(project);
execFileSync("git", ["init", "-q", "-b", "main", project]);
execFileSync("git", ["-C", project, "remote", "add", "origin", "https://example.com/acme/widget.git"]);
const bareCjs = path.join(work, "bare.cjs");
const bareMjs = path.join(work, "bare.mjs");
fs.writeFileSync(bareCjs, "");
fs.writeFileSync(bareMjs, "");
const FIX = path.join(ROOT, "tests/fixtures/hosts");
const fill = (rel) =>
  fs.readFileSync(path.join(FIX, rel), "utf8").split("${FIXTURE}").join(FIX).split("${PROJECT}").join(project).split("${HOME}").join(work);

const payloads = {
  claudeGate: fill("claude-code/post-tool-use-failure-gate.json"),
  claudeSubagent: fill("claude-code/subagent-stop.json"),
  codexGate: fill("codex/post-tool-use-gate.json"),
  passing: JSON.stringify({ session_id: "s", transcript_path: "/nonexistent", cwd: project, hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "npm test" }, tool_response: { stdout: "ok", stderr: "" }, tool_use_id: "t" }),
};

function timeProcess(cmd, args, input, env) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { input, env, stdio: ["pipe", "ignore", "ignore"] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}`);
  return ms;
}

function hookBench(runtime, label) {
  // The warm hook helper's socket in a directory of this run's own; the warm-up rounds start the helper.
  const run = path.join(work, `run-${label}`);
  fs.mkdirSync(run, { mode: 0o700 });
  const env = { PATH: process.env.PATH, HOME: work, XDG_STATE_HOME: path.join(work, "state"), XDG_RUNTIME_DIR: run, AI_RECORDINGS_FILE: path.join(work, `${label}.jsonl`) };
  const noHelper = { ...env, AI_RECORDINGS_HOOK_HELPER: "0" };
  const record = path.join(ROOT, "plugin/record.cjs");
  const variants = [
    ["bare start, empty CommonJS script", [bareCjs], ""],
    ["bare start, empty ES module", [bareMjs], ""],
    ["bare start, `-e ''`", ["-e", ""], ""],
    ["hook, passing Bash call (nothing written)", [record, "hook", "claude-code"], payloads.passing],
    ["hook, Claude gate.failed (entry written)", [record, "hook", "claude-code"], payloads.claudeGate],
    ["hook, Claude subagent.completed (meta + transcripts read)", [record, "hook", "claude-code"], payloads.claudeSubagent],
    ["hook, Codex gate.failed (exit code from the transcript)", [record, "hook", "codex"], payloads.codexGate],
    ["hook, Claude gate.failed with `AI_RECORDINGS_HOOK_HELPER=0`", [record, "hook", "claude-code"], payloads.claudeGate, noHelper],
    ["the same Claude gate.failed through `node plugin/cli/index.js hook` (ES modules, no bundle)", [path.join(ROOT, "plugin/cli/index.js"), "hook", "claude-code"], payloads.claudeGate],
  ];
  if (BASE) {
    const old = path.join(BASE, "plugin/record.cjs");
    variants.push([`hook, passing Bash call, the older code (${commitOf(BASE)})`, [old, "hook", "claude-code"], payloads.passing]);
    variants.push([`hook, Claude gate.failed, the older code (${commitOf(BASE)})`, [old, "hook", "claude-code"], payloads.claudeGate]);
  }
  const times = variants.map(() => []);
  for (let i = 0; i < 2; i++) for (const [, args, input, e] of variants) timeProcess(runtime, args, input, e ?? env); // warm the page cache
  waitForHelper(run);
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < variants.length; k++) {
      const v = (k + r) % variants.length; // rotate the order every round
      times[v].push(timeProcess(runtime, variants[v][1], variants[v][2], variants[v][3] ?? env));
    }
  }
  endHelper(run);
  const ratio = (i, b) => `${(pct(times[i], 50) / pct(times[b], 50)).toFixed(2)}×`;
  return variants.map(([name], i) => ({ name, stats: stats(times[i]), vsCjs: ratio(i, 0), vsMjs: ratio(i, 1), vsE: ratio(i, 2) }));
}

async function mcpBench(syncOff) {
  const file = path.join(work, `mcp-${syncOff ? "nosync" : "sync"}.jsonl`);
  const env = { PATH: process.env.PATH, HOME: work, XDG_STATE_HOME: path.join(work, "state"), AI_RECORDINGS_FILE: file };
  if (syncOff) env.AI_RECORDINGS_SYNC = "0";
  const starts = [];
  let client;
  for (let i = 0; i < 5; i++) {
    const t0 = process.hrtime.bigint();
    const transport = new StdioClientTransport({ command: NODE, args: [path.join(ROOT, "plugin/cli/mcp.js")], cwd: project, env, stderr: "ignore" });
    const c = new Client({ name: "bench", version: "1" });
    await c.connect(transport);
    starts.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (i < 4) await c.close();
    else client = c;
  }
  const entry = JSON.stringify({ note: "x".repeat(900), sentiment: ["relief"], category: "discovery" }); // ~1 KiB
  await client.callTool({ name: "record", arguments: { entry } }); // loads the recorder
  const calls = [];
  for (let i = 0; i < CALLS; i++) {
    const t0 = process.hrtime.bigint();
    const r = await client.callTool({ name: "record", arguments: { entry } });
    calls.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (!/^recorded /.test(r.content[0].text)) throw new Error(r.content[0].text);
  }
  await client.close();
  return { starts, calls };
}

const nodeRows = hookBench(NODE, "node");
const bunRows = fs.existsSync(BUN) ? hookBench(BUN, "bun") : null;
const mcpSync = await mcpBench(false);
const mcpNoSync = await mcpBench(true);
fs.rmSync(work, { recursive: true, force: true });

const bunVersion = bunRows ? spawnSync(BUN, ["--version"]).stdout.toString().trim() : null;
const cpu = os.cpus()[0]?.model?.replace(/\s+/g, " ").trim() ?? "?";
const lines = [
  START,
  "## Hosts: hook mode and the MCP server",
  "",
  `Measured by \`node bench/hosts.js\` on ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (${cpu}).`,
  `Hook mode: wall time of one process from spawn to exit with the payload on stdin (captured real payloads,`,
  `tests/fixtures/hosts/), ${ROUNDS} rounds with the variants alternating; milliseconds, median / p90, and the`,
  "median against each bare start in the same run. Target: ≤ 1.5× the bare start — read here against the faster",
  "one, the empty CommonJS script. Entries are written with the default fdatasync. `record` is plugin/record.cjs",
  "(what package.json installs): a CommonJS launcher that compiles hook mode's bundles with V8's code cache.",
  "",
  bunRows
    ? `| what | Node ${process.version} | vs bare CJS | vs bare ESM | vs \`-e ''\` | Bun ${bunVersion} | vs bare CJS |`
    : `| what | Node ${process.version} | vs bare CJS | vs bare ESM | vs \`-e ''\` |`,
  bunRows ? "|---|---:|---:|---:|---:|---:|---:|" : "|---|---:|---:|---:|---:|",
  ...nodeRows.map((r, i) =>
    bunRows
      ? `| ${r.name} | ${r.stats} | ${r.vsCjs} | ${r.vsMjs} | ${r.vsE} | ${bunRows[i].stats} | ${bunRows[i].vsCjs} |`
      : `| ${r.name} | ${r.stats} | ${r.vsCjs} | ${r.vsMjs} | ${r.vsE} |`,
  ),
  "",
  `MCP server (Node ${process.version}, official SDK client over a stdio pipe, 1 KiB JSON entry, ${CALLS} calls`,
  "after one warm-up call that loads the recorder): milliseconds, median / p90.",
  "",
  "| what | fdatasync on (default) | `AI_RECORDINGS_SYNC=0` |",
  "|---|---:|---:|",
  `| server start: spawn → \`initialize\` answered | ${stats(mcpSync.starts)} | ${stats(mcpNoSync.starts)} |`,
  `| one \`record\` call, round trip | ${stats(mcpSync.calls)} | ${stats(mcpNoSync.calls)} |`,
  "",
  "Hook mode loads neither the MCP SDK nor, for events that call for no entry, the wasm; what it costs above a",
  "bare start is loading its bundle, reading stdin, the gate classifier, and for entries loading the hook-write",
  "bundle, compiling and instantiating the wasm core and the lazy compilation of the functions a first entry runs,",
  "the git facts and one append (the Recall section times each part). A host runs one such process per configured",
  "hook event, serially in its turn. The rows that write an entry are served by hook mode's warm helper (README,",
  "\"Hook mode's warm helper\"), started in the warm-up rounds, except the one with it off and the ES modules' row",
  "(the helper is the `record` command's).",
  ...(BASE ? ["", `The older code's rows are ${commitOf(BASE)}'s (\`--base\`), built beside this checkout (${commitOf(ROOT)}) and timed in the same rounds.`] : []),
  END,
];
const section = lines.join("\n");

if (noWrite) {
  console.log(section);
} else {
  writeSection(START, END, section);
  console.log(section);
}
