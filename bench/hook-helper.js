// The warm hook helper (plugin/cli/hook-helper.js) in a benchmark: each bench gives hook processes an
// XDG_RUNTIME_DIR of its own (`run`), waits for the helper the first of them starts, and ends it when done.
import * as fs from "node:fs";
import * as path from "node:path";
import { spawnSync } from "node:child_process";

const socketsOf = (run) => path.join(run, "opencode-recordings");

/** Waits until the helper under `run` listens: its socket there and the file saying it starts gone (the helper
 *  removes that once it listens). Throws after 20 s. */
export function waitForHelper(run) {
  for (const end = Date.now() + 20_000; ; ) {
    const names = fs.existsSync(socketsOf(run)) ? fs.readdirSync(socketsOf(run)) : [];
    if (names.some((n) => n.endsWith(".sock")) && !names.some((n) => n.endsWith(".starting"))) return;
    if (Date.now() > end) throw new Error("the hook helper did not start");
    spawnSync("sleep", ["0.05"]);
  }
}

/** Ends the helper under `run`: it leaves when its socket does. */
export function endHelper(run) {
  fs.rmSync(socketsOf(run), { recursive: true, force: true });
}
