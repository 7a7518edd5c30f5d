#!/usr/bin/env node
// The `record` command (package.json "bin"): starts plugin/cli/index.js's code as fast as Node can.
//
// This file is CommonJS because Node 20 starts an ES-module entry through its ESM loader, which costs several
// milliseconds before the first line runs; a CommonJS entry does not. It runs the CLI bundle with its code cache
// (plugin/launch.cjs, measured in BENCHMARKS.md). The subcommands that are not on the hot path (read, sessions,
// show, md, doctor, mcp) stay ES modules and are imported when used. Without the bundle (a checkout that was not
// built) the ES modules run as they are.
"use strict";

/** The last resort when neither the bundle nor the ES modules load (a broken install): say so, exit 0. */
function cannotLoad(e) {
  const reason = `EINTERNAL: the record command cannot load: ${e && e.message ? e.message : e}`;
  try {
    process.stderr.write(`record: not recorded: ${reason}\n`);
    if (process.argv.includes("--json")) {
      process.stdout.write(JSON.stringify({ status: "skipped", code: "EINTERNAL", file: null, eid: null, reason }) + "\n");
    }
  } catch {
    // nothing more to do
  }
  process.exitCode = 0;
}

function main() {
  let launch = null;
  let loaded = null;
  try {
    launch = require("./launch.cjs");
    loaded = launch.loadBundle();
  } catch {
    loaded = null; // a damaged bundle, or no launch.cjs: the ES modules below
  }
  // doctor asks how this process started: what loadBundle found, not a second compile V8 would answer from memory.
  const launcher = launch ? () => launch.launchState(loaded && loaded.found) : undefined;
  (loaded ? Promise.resolve(loaded.exports) : import("./cli/index.js"))
    .then((m) => m.runCli({ launcher }))
    .then((exitNow) => {
      if (exitNow) process.exit(); // see runCli in cli/index.js
    })
    .catch(cannotLoad);
}

main();
