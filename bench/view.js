#!/usr/bin/env node
// Benchmark of `record view`: writing the page for the default window of a 100,000-entry history, against
// the reader alone on the same file; then, in headless Chromium, how soon a 10,000-entry page is ready and
// how long a search keystroke takes to redraw the list, from the page's own performance marks.
//
//   node bench/view.js            measure and write BENCHMARKS.md between <!-- view-bench:start --> and
//                                 <!-- view-bench:end -->
//   node bench/view.js --no-write print the section instead
//
// The history is bench/history.js's (~1 KiB lines, one a minute from 2026-01-01); the clock is set one
// minute after its last entry, so the default 30-day window holds the last 43,200 entries.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { writeHistory } from "./history.js";
import { writeSection } from "./section.js";
import { readRecordings } from "../plugin/read/index.js";
import { view } from "../plugin/cli/view.js";
import { launch } from "../tests/browser/browser.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const START = "<!-- view-bench:start -->";
const END = "<!-- view-bench:end -->";
const ROUNDS = 5;
const T0 = Date.parse("2026-01-01T00:00:00.000Z");

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;
const quiet = { write: () => true };

async function timed(fn) {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function writePage(file, out, args, nowMs) {
  const code = await view(["--file", file, "-o", out, "--all", ...args], { stdout: quiet, stderr: quiet, env: { HOME: "/nonexistent-home" }, cwd: "/", now: () => nowMs });
  if (code !== 0) throw new Error(`record view exited ${code}`);
}

async function main(write) {
  // Debian's Chromium, installed when missing (no browser is downloaded).
  spawnSync("bash", [path.join(ROOT, "scripts/chromium.sh")], { stdio: ["ignore", "ignore", "inherit"] });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "view-bench-"));
  try {
    const big = writeHistory(path.join(dir, "h100k"), { count: 100_000 });
    const file = path.join(dir, "h100k", "r.jsonl");
    const nowMs = T0 + big.entries * 60_000;
    const out = path.join(dir, "v.html");
    const reader = [];
    const readTime = () => {
      const t = performance.now();
      readRecordings({ file });
      return performance.now() - t;
    };
    const page = [];
    // Alternating which goes first, so neither always pays for the other's garbage.
    for (let i = 0; i < 4; i++) {
      const runs = [() => reader.push(readTime()), async () => page.push(await timed(() => writePage(file, out, [], nowMs)))];
      for (const run of i % 2 ? runs.reverse() : runs) await run();
    }
    const data = JSON.parse(/<script type="application\/json" id="data">([^]*?)<\/script>/.exec(fs.readFileSync(out, "utf8"))[1]);
    const pageBytes = fs.statSync(out).size;
    // The same as a process: Node's start and module loading included (the window given as a time, since the
    // process reads the real clock).
    const since = new Date(nowMs - 30 * 86_400_000).toISOString();
    const proc = [];
    for (let i = 0; i < 3; i++) {
      proc.push(await timed(() => {
        const r = spawnSync(process.execPath, [path.join(ROOT, "plugin/cli/index.js"), "view", "--file", file, "-o", out, "--all", "--since", since]);
        if (r.status !== 0) throw new Error(r.stderr.toString());
      }));
    }

    // Chromium: a 10,000-entry page (every entry on it: the cap raised), and the page of an empty history.
    writeHistory(path.join(dir, "h10k"), { count: 10_000 });
    const page10k = path.join(dir, "p10k.html");
    await writePage(path.join(dir, "h10k", "r.jsonl"), page10k, ["--since", "all", "--max-bytes", "64M"], nowMs);
    fs.mkdirSync(path.join(dir, "empty"));
    const pageEmpty = path.join(dir, "p0.html");
    await writePage(path.join(dir, "empty", "r.jsonl"), pageEmpty, ["--since", "all"], nowMs);
    const browser = await launch();
    const ready = { full: [], empty: [] };
    const parsed = { full: [], empty: [] };
    const search = [];
    let chromium = "";
    try {
      chromium = browser.context.browser()?.version() ?? "";
      for (let i = 0; i < ROUNDS; i++) {
        for (const [key, f] of [["empty", pageEmpty], ["full", page10k]]) {
          const p = await browser.context.newPage();
          await p.setViewportSize({ width: 1280, height: 900 });
          await p.goto(pathToFileURL(f).href);
          await p.waitForSelector("html[data-ready='1']");
          ready[key].push(await p.evaluate(() => performance.getEntriesByName("view:ready")[0].startTime));
          parsed[key].push(await p.evaluate(() => performance.getEntriesByName("view:parsed")[0].startTime));
          if (key === "full") {
            await p.focus("#q");
            for (const [n, ch] of [..."race"].entries()) {
              await p.keyboard.type(ch);
              await p.waitForFunction((k) => performance.getEntriesByName("view:search").length > k, n);
            }
            search.push(...(await p.evaluate(() => performance.getEntriesByName("view:search").map((m) => m.duration))));
          }
          await p.close();
        }
      }
    } finally {
      await browser.close();
    }
    const page10kBytes = fs.statSync(page10k).size;
    const section = `${START}
## View (\`record view\`)

\`node bench/view.js\`, ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), Node ${process.version},
Chromium ${chromium}; load average ${os.loadavg()[0].toFixed(1)} when it finished (the machine is shared). Figures are medians.

Writing the page for the default window (30 days: the last ${data.meta.total.toLocaleString("en")} entries) of a
${big.entries.toLocaleString("en")}-entry, ${(big.bytes / 1024 / 1024).toFixed(0)} MiB history (bench/history.js), in process, against the reader alone
reading every entry of the same file:

| what | time |
|---|---|
| reader: every line of the file parsed (baseline) | ${ms(median(reader))} |
| \`record view\` in process: read, fold, chart series, the newest entries that fit in 5 MB, write | ${ms(median(page))} |
| \`record view\` as a process (\`node plugin/cli/index.js view\`, same window given as a time) | ${ms(median(proc))} |

The page: ${(pageBytes / 1e6).toFixed(2)} MB with ${data.meta.shown.toLocaleString("en")} entries shown (${data.meta.left_out.toLocaleString("en")} older ones left off by the cap).

In headless Chromium at 1280 px, ${ROUNDS} fresh loads each, times from the page's own performance marks
(\`view:parsed\`: the file read, the HTML parsed and the embedded JSON parsed; \`view:ready\`: then the header,
charts, facets and the first 50 entries drawn; \`view:search\`: from the input event to the redrawn list laid
out), all from the start of navigation:

| page | data parsed | ready |
|---|---|---|
| empty history (baseline: the script and charts alone) | ${ms(median(parsed.empty))} | ${ms(median(ready.empty))} |
| 10,000 entries, every one embedded (${(page10kBytes / 1e6).toFixed(1)} MB, \`--max-bytes 64M\`) | ${ms(median(parsed.full))} | ${ms(median(ready.full))} |

A search keystroke on the 10,000-entry page (typing "race", ${search.length} keystrokes): median ${ms(median(search))},
slowest ${ms(Math.max(...search))}.
${END}`;
    if (write) writeSection(START, END, section);
    else console.log(section);
    console.error(section);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main(!process.argv.includes("--no-write"));
