// When the `record` command's words name a subcommand, and the words as typed: the rules plugin/cli/index.js
// runs the command by, kept apart from it so that hook mode's own bundle (plugin/cli/hook-entry.js) decides by the
// same rules without loading the rest of the command.

import { fs, path } from "../builtins.js";

// Subcommands whose words are all arguments (a query).
const ALL_WORDS = new Set(["recall"]);
// Subcommands that take one plain word (an eid; a host name).
const ONE_WORD = { show: /^[^\s]{1,64}$/, hook: /^(claude-code|codex)$/, init: /^(opencode|claude-code|codex)$/ };

/** Whether `args` (argv) invoke one of the subcommands `names` (a Set of names) rather than record text: the
 *  first word names one and what follows looks like its arguments (nothing, an option, or the one word `show`,
 *  `hook` and `init` take). */
export function isSubcommand(args, names) {
  if (args.length === 0 || !names.has(args[0])) return false;
  if (ALL_WORDS.has(args[0])) return true;
  if (args.length === 1 || args[1].startsWith("-")) return true;
  const word = ONE_WORD[args[0]];
  return Boolean(word && word.test(args[1]) && (args.length === 2 || args[2].startsWith("-")));
}

/** The arguments as typed. Bun drops a "--" that directly follows the script path (`bun cli.js -- -x` gives
 *  ["-x"]), which would turn literal text into options; on Linux the untouched command line is in /proc. */
export async function argvAsTyped() {
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
