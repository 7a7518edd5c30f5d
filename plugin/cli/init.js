// `record init HOST [--global] [--dry-run]`: adds this package's entries to a host's own config files (which
// ones, per host, in ../init/). Unlike recording, init may fail: 0 done (or nothing to do), 1 a config it could
// not edit (named, and left as it was), 2 a usage error.

import { UsageError } from "./args.js";
import { commandArgs } from "./prologue.js";
import { fs as nodeFs, os } from "../builtins.js";
import { envOf, placesOf } from "../settings.js";
import { applyChanges, diffOf } from "../init/apply.js";
import { InitError } from "../init/errors.js";

const HOSTS = {
  opencode: () => import("../init/opencode.js"),
  "claude-code": () => import("../init/claude-code.js"),
  codex: () => import("../init/codex.js"),
};

export const HELP = `record init - add the recordings plugin, hooks or MCP server to a host's own config

Usage: record init opencode|claude-code|codex [--global] [--dry-run]

  opencode      "opencode-recordings" in "plugin" of opencode.jsonc / opencode.json in this directory
                (--global: the user's, in $XDG_CONFIG_HOME/opencode/); the plugin gives the agent the
                record tool, automatic capture and the recording instructions
  claude-code   hook mode (PostToolUseFailure, SubagentStop) in .claude/settings.json and the MCP server in
                .mcp.json of this directory (--global: settings.json in ~/.claude or $CLAUDE_CONFIG_DIR,
                and the user's mcpServers in ~/.claude.json)
  codex         the MCP server in $CODEX_HOME/config.toml and hook mode (PostToolUse, SubagentStop) in
                $CODEX_HOME/hooks.json (default ~/.codex; Codex has no project scope for these), then
                the trust step Codex needs before it runs a hook

Options:
  --global     the user's config instead of this project's
  --dry-run    print the change as a diff and write nothing
  -h, --help   show this help

Everything else in a file stays as it was: comments, order and formatting (JSONC and TOML alike). An entry
that is already there is left as it is, so a second run changes nothing and says so. A file that is
rewritten is first copied to <file>.bak (.bak.1, ... when that exists). A file that cannot be read as
JSON or TOML is left untouched: the message says where, and the exit status is 1. The hooks and servers
run \`record\`, so install the package where hosts find it on PATH (npm i -g opencode-recordings).

Exit status: 0 done or nothing to do, 1 a config could not be edited, 2 a usage error.
`;

/** record init: (argv, { stdout, stderr, env, cwd, fs }) => exit status. */
export async function init(argv, io0 = {}) {
  const io = {
    stdout: io0.stdout ?? process.stdout,
    stderr: io0.stderr ?? process.stderr,
    env: io0.env ?? envOf(),
    cwd: io0.cwd ?? process.cwd(),
    fs: io0.fs ?? nodeFs,
  };
  let opts;
  try {
    opts = commandArgs(HELP, argv, { "--global": { key: "global", flag: true }, "--dry-run": { key: "dryRun", flag: true } }, io, { positional: true });
  } catch (e) {
    if (e instanceof UsageError) return usage(io, e.message);
    throw e;
  }
  if (!opts) return 0;
  const [hostName, extra] = opts.positional;
  if (hostName === undefined) return usage(io, "which host? opencode, claude-code or codex");
  if (!Object.hasOwn(HOSTS, hostName)) return usage(io, `"${hostName}" is not a host: opencode, claude-code or codex`);
  if (extra !== undefined) return usage(io, `"${extra}" is not a host: opencode, claude-code or codex (one host at a time)`);
  const args = { host: hostName, global: opts.global === true, dryRun: opts.dryRun === true };

  const host = await HOSTS[args.host]();
  const places = placesOf(io.env, () => os.homedir());
  const changes = host.plan({ places, cwd: io.cwd, global: args.global, exists: (f) => io.fs.existsSync(f) });
  let done;
  try {
    done = await applyChanges(changes, { fs: io.fs, dryRun: args.dryRun });
  } catch (e) {
    if (!(e instanceof InitError)) throw e;
    io.stderr.write(`record init: ${e.message}; nothing was changed.\n`);
    return 1;
  }
  report(io, args, done);
  if (host.TRUST_STEP) io.stdout.write(`\n${host.TRUST_STEP}\n`);
  return 0;
}

function report(io, args, done) {
  const changed = done.filter((d) => d.after !== d.before);
  for (const d of done) {
    const what = d.said.join("; ");
    if (d.after === d.before) io.stdout.write(`${d.file}: unchanged (${what})\n`);
    else if (args.dryRun) io.stdout.write(`${d.file}: would change (${what})\n${diffOf(d)}`);
    else io.stdout.write(`${d.file}: ${d.created ? "created" : "changed"} (${what})${d.backup ? `; the old file is ${d.backup}` : ""}\n`);
  }
  if (changed.length === 0) io.stdout.write(`Nothing to change: ${args.host} is already set up.\n`);
  else if (args.dryRun) io.stdout.write("Dry run: nothing was written.\n");
}

function usage(io, why) {
  io.stderr.write(`record init: ${why}\nUsage: record init opencode|claude-code|codex [--global] [--dry-run]\n`);
  return 2;
}
