#!/usr/bin/env node
// The `record` command's grammar:
//   record [OPTIONS] [TEXT...]      record TEXT (words joined by spaces), or standard input if TEXT is absent or "-"
//   record [OPTIONS] -- TEXT...     record TEXT literally, even if it starts with "-" or names a subcommand
//   record SUBCOMMAND ...           a subcommand, when the FIRST argument names one and what follows looks like
//                                   its arguments (nothing, an option, or the one word `show`/`hook` take)
// Otherwise the words are an entry ("record read the docs first"), so a note that happens to start with a
// subcommand name is never lost. Subcommands load their module when named (plain `record TEXT` never does) and
// return their exit status; unlike recording, they may fail.

import { importSibling, isMainModule } from "../builtins.js";
import { argvAsTyped, isSubcommand as isSubcommandOf } from "./grammar.js";
import { recordCommand } from "./record.js";
import { usedStream } from "./say.js";
import { skipped } from "../writer/errors.js";
import { hookModules } from "./hook-write.js";

// What hook mode loads to write or hint (plugin/cli/hook-write.js), offered as well to hook mode's own bundle
// when there is no hook-write bundle (plugin/record.cjs).
export { hookModules };

// Subcommand modules outside the hot path are separate ES modules, imported when used (the `record` bundle
// leaves them out; importSibling resolves against plugin/). Hook mode and recall, which agents and hooks start
// mid-task, are part of the bundle: a literal import() is bundled.
// `ctx` is what the launcher passes on ({ launcher }: how this process started, for doctor).
const lazy = (spec, fn) => (args, ctx) => importSibling(spec).then((m) => m[fn](args, ctx ?? {}));
export const SUBCOMMANDS = {
  read: lazy("./cli/read.js", "read"),
  sessions: lazy("./cli/sessions.js", "sessions"),
  show: lazy("./cli/show.js", "show"),
  md: lazy("./cli/md.js", "md"),
  doctor: lazy("./cli/doctor.js", "doctor"),
  mcp: (args) => importSibling("./cli/mcp.js").then((m) => m.runMcp({ args })),
  hook: (args) => import("./hook-mode.js").then((m) => m.runHookArgs(args, { modules: hookModules })),
  export: lazy("./cli/export.js", "exportCmd"),
  sync: lazy("./cli/sync.js", "sync"),
  recall: (args) => import("./recall.js").then((m) => m.recall(args, {})),
  init: lazy("./cli/init.js", "init"),
  view: lazy("./cli/view.js", "view"),
};
const NAMES = new Set(Object.keys(SUBCOMMANDS));

/** Whether `args` (argv) invoke a subcommand rather than record text (plugin/cli/grammar.js). */
export const isSubcommand = (args) => isSubcommandOf(args, NAMES);

/** Runs the command. Resolves to { code, finished }: `finished` when everything it had to do is done and
 *  written with write(2), so the process may exit at once (recording and hook mode; not the subcommands whose
 *  output goes through streams, nor the MCP server, which keeps running). */
async function main(args, ctx) {
  if (isSubcommand(args)) {
    const code = await SUBCOMMANDS[args[0]](args.slice(1), ctx);
    return { code, finished: args[0] === "hook" };
  }
  return recordCommand(args);
}

/** Runs the command with this process's arguments and sets the exit status. Never rejects. Resolves to whether
 *  the process may exit at once (process.exit): the work is done and written synchronously, and exiting skips
 *  the runtime's wind-down (heap and wasm engine teardown). `launcher`, from plugin/record.cjs: a function
 *  answering how this process started (plugin/record.cjs launchState). */
export async function runCli({ launcher } = {}) {
  let code = 0;
  let finished = false;
  try {
    ({ code, finished } = await main(await argvAsTyped(), { launcher }));
  } catch (e) {
    // Not expected (record() never throws); still, recording must not fail the caller.
    try {
      process.stderr.write(`record: not recorded: internal error: ${e && e.stack ? e.stack : e}\n`);
      if (process.argv.includes("--json")) {
        const reason = `EINTERNAL: ${e && e.message ? e.message : e}`;
        process.stdout.write(JSON.stringify(skipped("EINTERNAL", null, reason)) + "\n");
      }
    } catch {
      // nothing
    }
    code = 0;
  }
  process.exitCode = code;
  return finished && !usedStream();
}

// `node plugin/cli/index.js ...` runs the ES modules as they are; the `record` command (plugin/record.cjs) runs
// the same code from the CommonJS bundle scripts/build.sh makes of this module.
if (isMainModule(import.meta)) {
  runCli().then((exitNow) => {
    if (exitNow) process.exit();
  });
}
