#!/usr/bin/env node
// The `record` command's grammar:
//   record [OPTIONS] [TEXT...]      record TEXT (words joined by spaces), or standard input if TEXT is absent or "-"
//   record [OPTIONS] -- TEXT...     record TEXT literally, even if it starts with "-" or names a subcommand
//   record SUBCOMMAND ...           a subcommand, when the FIRST argument names one and what follows looks like
//                                   its arguments (nothing, an option, or the one word `show`/`hook` take)
// Otherwise the words are an entry ("record read the docs first"), so a note that happens to start with a
// subcommand name is never lost. Subcommands load their module when named (plain `record TEXT` never does) and
// return their exit status; unlike recording, they may fail.

import { fs, importSibling, isMainModule, path } from "../builtins.js";
import { recordCommand } from "./record.js";
import { usedStream } from "./say.js";
import { skipped } from "../writer/errors.js";

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
  hook: (args) => import("./hook-mode.js").then((m) => m.runHookArgs(args)),
  export: lazy("./cli/export.js", "exportCmd"),
  sync: lazy("./cli/sync.js", "sync"),
  recall: (args) => import("./recall.js").then((m) => m.recall(args, {})),
  init: lazy("./cli/init.js", "init"),
  view: lazy("./cli/view.js", "view"),
};
// Subcommands whose words are all arguments (a query).
const ALL_WORDS = new Set(["recall"]);
// Subcommands that take one plain word (an eid; a host name).
const ONE_WORD = { show: /^[^\s]{1,64}$/, hook: /^(claude-code|codex)$/, init: /^(opencode|claude-code|codex)$/ };

/** Whether `args` (argv) invoke a subcommand rather than record text. */
export function isSubcommand(args) {
  if (args.length === 0 || !Object.hasOwn(SUBCOMMANDS, args[0])) return false;
  if (ALL_WORDS.has(args[0])) return true;
  if (args.length === 1 || args[1].startsWith("-")) return true;
  const word = ONE_WORD[args[0]];
  return Boolean(word && word.test(args[1]) && (args.length === 2 || args[2].startsWith("-")));
}

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

/** The arguments as typed. Bun drops a "--" that directly follows the script path (`bun cli.js -- -x` gives
 *  ["-x"]), which would turn literal text into options; on Linux the untouched command line is in /proc. */
async function argvAsTyped() {
  const args = process.argv.slice(2);
  if (!process.versions.bun || process.platform !== "linux") return args;
  try {
    const raw = fs.readFileSync("/proc/self/cmdline", "utf8").split("\0");
    if (raw.at(-1) === "") raw.pop();
    const script = process.argv[1];
    const at = raw.findIndex((a, i) => i > 0 && path.resolve(a) === script);
    const typed = at > 0 ? raw.slice(at + 1) : null;
    // Use it only if it is the same list apart from that one "--".
    if (typed && typed.length === args.length + 1 && typed[0] === "--") return typed;
  } catch {
    // fall back to what the runtime gave us
  }
  return args;
}

/** Runs the command with this process's arguments and sets the exit status. Never rejects. Resolves to whether
 *  the process may exit at once (process.exit): the work is done and written synchronously, and exiting skips
 *  the runtime's wind-down (heap and wasm engine teardown). `launcher`, from plugin/record.cjs: a function
 *  answering how this process started (plugin/launch.cjs launchState). */
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
if (isMainModule(import.meta.url)) {
  runCli().then((exitNow) => {
    if (exitNow) process.exit();
  });
}
