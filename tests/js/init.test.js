// `record init` against realistic host configs: comments, other plugins and hooks, odd formatting, a trailing
// comma, an empty file, a missing file, a malformed file. Each case checks what was added, that the rest stayed
// byte for byte (every line of the old file is still there, in order), the backup, idempotence and --dry-run.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse as parseJsonc } from "jsonc-parser";
import { init } from "../../plugin/cli/init.js";
import { runsOurHook } from "../../plugin/init/hook-entries.js";
import { spawnSync, RUNTIME, ROOT } from "./helpers.js";

function sandbox() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "init-test-"));
  const dirs = { root, home: path.join(root, "home"), project: path.join(root, "project"), config: path.join(root, "xdg") };
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });
  const env = { HOME: dirs.home, XDG_CONFIG_HOME: dirs.config, CODEX_HOME: path.join(root, "codex") };
  return { ...dirs, env, codex: env.CODEX_HOME };
}

async function run(sb, argv, env = sb.env) {
  let stdout = "";
  let stderr = "";
  const io = { stdout: { write: (s) => (stdout += s) }, stderr: { write: (s) => (stderr += s) }, env, cwd: sb.project };
  const code = await init(argv, io);
  return { code, stdout, stderr };
}

const write = (file, text) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};
const read = (file) => fs.readFileSync(file, "utf8");
const json = (file) => parseJsonc(read(file), [], { allowTrailingComma: true });

/** Every line of `before` is in `after`, in the same order: the edit only added lines (and the comma a last
 *  member needs once another follows it). */
function onlyAdded(before, after) {
  const rest = after.split(/\r?\n/);
  let i = 0;
  for (const line of before.split(/\r?\n/)) {
    while (i < rest.length && rest[i] !== line && rest[i] !== `${line},`) i++;
    assert.ok(i < rest.length, `line ${JSON.stringify(line)} of the old file is gone:\n${after}`);
    i++;
  }
}

/** Runs `argv` twice: the first changes `file` (backed up byte for byte), the second changes nothing. */
async function changesOnce(sb, argv, file) {
  const before = fs.existsSync(file) ? read(file) : null;
  const first = await run(sb, argv);
  assert.equal(first.code, 0, first.stderr);
  const after = read(file);
  assert.notEqual(after, before);
  if (before !== null) {
    assert.equal(read(`${file}.bak`), before, "the backup is the old file");
    if (before.trim() !== "") onlyAdded(before, after);
  } else assert.equal(fs.existsSync(`${file}.bak`), false, "no backup of a file that was not there");
  const second = await run(sb, argv);
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stdout, /Nothing to change/);
  assert.equal(read(file), after, "a second run changes nothing");
  assert.equal(fs.existsSync(`${file}.bak.1`), false, "and backs up nothing");
  return { before, after, first };
}

const OPENCODE_JSONC = `// Project config: shared with the team
{
  "$schema": "https://opencode.ai/config.json",
  /* plugins we rely on */
  "plugin": [
    "opencode-wakatime",
    ["@acme/opencode-lint", { "strict": true }], // tuple form
  ],
  "model":    "anthropic/claude-sonnet",
}
`;

test("opencode: the package joins an existing plugin list; comments, tuples and the trailing comma stay", async () => {
  const sb = sandbox();
  const file = path.join(sb.project, "opencode.jsonc");
  write(file, OPENCODE_JSONC);
  write(path.join(sb.project, "opencode.json"), "{}\n"); // opencode.jsonc wins when both are there
  const { after } = await changesOnce(sb, ["opencode"], file);
  assert.deepEqual(json(file).plugin, ["opencode-wakatime", ["@acme/opencode-lint", { strict: true }], "opencode-recordings"]);
  assert.match(after, /\/\* plugins we rely on \*\//);
  assert.match(after, /"model": {4}"anthropic\/claude-sonnet",\n}/);
  assert.equal(read(path.join(sb.project, "opencode.json")), "{}\n");
});

const ABSENT_CASES = [
  ["a missing file", null],
  ["an empty file", ""],
  ["a file of blanks", "  \n\n"],
  ["an object without plugin", '{\n\t"model": "x/y"\n}\n'],
];
test("opencode: missing, empty, or without a plugin list: one is made", async () => {
  for (const [name, text] of ABSENT_CASES) {
    const sb = sandbox();
    const file = path.join(sb.project, "opencode.json");
    if (text !== null) write(file, text);
    const { after } = await changesOnce(sb, ["opencode"], file);
    const cfg = json(file);
    assert.deepEqual(cfg.plugin, ["opencode-recordings"], name);
    if (text === null || !text.trim()) assert.equal(cfg.$schema, "https://opencode.ai/config.json", name);
    else assert.match(after, /^\t"plugin": \[$/m, `${name}: the file's tab indentation is kept`);
    assert.ok(after.endsWith("\n"), name);
  }
});

test("opencode: Windows line ends and a one-line list keep their shape", async () => {
  const sb = sandbox();
  const file = path.join(sb.project, "opencode.json");
  write(file, '{\r\n  "plugin": [\r\n    "a"\r\n  ],\r\n  "x": { "plugin": 1 }\r\n}\r\n');
  await changesOnce(sb, ["opencode"], file);
  assert.equal(read(file), '{\r\n  "plugin": [\r\n    "a",\r\n    "opencode-recordings"\r\n  ],\r\n  "x": { "plugin": 1 }\r\n}\r\n');
  write(file, '{ "plugin": ["a"], "model": "m" }');
  await run(sb, ["opencode"]);
  assert.equal(read(file), '{ "plugin": ["a", "opencode-recordings"], "model": "m" }');
});

const PRESENT = ['"opencode-recordings"', '"opencode-recordings@0.1.0"', '["opencode-recordings", { "file": "/tmp/r.jsonl" }]'];
test("opencode: a plugin list that already names the package is left alone", async () => {
  for (const item of PRESENT) {
    const sb = sandbox();
    const file = path.join(sb.project, "opencode.json");
    const text = `{ "plugin": [${item}] }\n`;
    write(file, text);
    const r = await run(sb, ["opencode"]);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /unchanged \("plugin" already loads opencode-recordings\)/);
    assert.equal(read(file), text, item);
    assert.equal(fs.existsSync(`${file}.bak`), false);
  }
});

test("opencode --global: the user's config in $XDG_CONFIG_HOME/opencode", async () => {
  const sb = sandbox();
  const file = path.join(sb.config, "opencode/opencode.json");
  await changesOnce(sb, ["opencode", "--global"], file);
  assert.deepEqual(json(file).plugin, ["opencode-recordings"]);
  assert.equal(fs.existsSync(path.join(sb.project, "opencode.json")), false);
});

const MALFORMED = [
  ["opencode", "opencode.json", '{ "plugin": ["a" "b"] }', /opencode\.json is not valid JSON: CommaExpected at line 1, column 18/],
  ["opencode", "opencode.json", '["not", "an", "object"]', /does not hold a JSON object at its top/],
  ["opencode", "opencode.json", '{ "plugin": "opencode-wakatime" }', /"plugin" is not a list/],
  ["claude-code", ".claude/settings.json", '{ "hooks": { "SubagentStop": {} } }', /"hooks\.SubagentStop" is not a list/],
  ["claude-code", ".claude/settings.json", '{ "hooks": [] }', /"hooks" is not an object of events/],
  ["claude-code", ".mcp.json", '{ "mcpServers": { ', /\.mcp\.json is not valid JSON/],
];
test("a malformed config is left untouched, with where and why, exit 1, and no other file is written", async () => {
  for (const [host, rel, text, message] of MALFORMED) {
    const sb = sandbox();
    const file = path.join(sb.project, rel);
    write(file, text);
    const r = await run(sb, [host]);
    assert.equal(r.code, 1, rel);
    assert.match(r.stderr, message);
    assert.match(r.stderr, /nothing was changed/);
    assert.equal(read(file), text);
    const made = fs.readdirSync(sb.project, { recursive: true }).filter((f) => !fs.statSync(path.join(sb.project, f)).isDirectory());
    assert.deepEqual(made, [rel], `${rel}: only the malformed file is there`);
  }
});

test("--dry-run prints the diff and writes nothing", async () => {
  const sb = sandbox();
  const file = path.join(sb.project, "opencode.jsonc");
  write(file, OPENCODE_JSONC);
  const r = await run(sb, ["opencode", "--dry-run"]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, new RegExp(`^--- ${file}\n\\+\\+\\+ ${file}\n@@`, "m"));
  assert.match(r.stdout, /^\+ {4}"opencode-recordings",$/m);
  assert.match(r.stdout, /Dry run: nothing was written/);
  assert.equal(read(file), OPENCODE_JSONC);
  assert.equal(fs.existsSync(`${file}.bak`), false);
  const created = await run(sb, ["claude-code", "--dry-run"]);
  assert.match(created.stdout, /^--- \/dev\/null\n\+\+\+ .*\.mcp\.json$/m);
  assert.equal(fs.existsSync(path.join(sb.project, ".mcp.json")), false);
});

const CLAUDE_SETTINGS = `{
    "permissions": { "allow": ["Bash(npm test)"] },
    "hooks": {
        "PreToolUse": [
            { "matcher": "Bash", "hooks": [ { "type": "command", "command": "./guard.sh" } ] }
        ],
        "PostToolUseFailure": [
            { "matcher": "Edit", "hooks": [ { "type": "command", "command": "notify-send failed" } ] }
        ]
    }
}
`;

test("claude-code: hooks beside the user's own in .claude/settings.json, the server in .mcp.json", async () => {
  const sb = sandbox();
  const settings = path.join(sb.project, ".claude/settings.json");
  const mcp = path.join(sb.project, ".mcp.json");
  write(settings, CLAUDE_SETTINGS);
  write(mcp, '{"mcpServers": {"github": {"command": "gh-mcp"}}}');
  const { after } = await changesOnce(sb, ["claude-code"], settings);
  const hooks = json(settings).hooks;
  assert.deepEqual(hooks.PreToolUse, [{ matcher: "Bash", hooks: [{ type: "command", command: "./guard.sh" }] }]);
  const ours = { matcher: "*", hooks: [{ type: "command", command: "record hook claude-code" }] };
  assert.deepEqual(hooks.PostToolUseFailure, [{ matcher: "Edit", hooks: [{ type: "command", command: "notify-send failed" }] }, ours]);
  assert.deepEqual(hooks.SubagentStop, [ours]);
  // A passing Bash call is the red-to-green moment: PostToolUse, for Bash only.
  assert.deepEqual(hooks.PostToolUse, [{ ...ours, matcher: "Bash" }]);
  assert.match(after, /^ {8}"SubagentStop": \[$/m, "four-space indentation kept");
  assert.deepEqual(json(mcp).mcpServers, { github: { command: "gh-mcp" }, recordings: { type: "stdio", command: "record", args: ["mcp"] } });
  assert.equal(read(`${mcp}.bak`), '{"mcpServers": {"github": {"command": "gh-mcp"}}}');
});

test("claude-code --global: settings.json in $CLAUDE_CONFIG_DIR, mcpServers in its .claude.json", async () => {
  const sb = sandbox();
  const dir = path.join(sb.root, "claude-config");
  const env = { ...sb.env, CLAUDE_CONFIG_DIR: dir };
  write(path.join(dir, ".claude.json"), '{"numStartups": 3, "projects": {}}');
  const r = await run(sb, ["claude-code", "--global"], env);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(json(path.join(dir, "settings.json")).hooks.SubagentStop[0].hooks[0].command, "record hook claude-code");
  const user = json(path.join(dir, ".claude.json"));
  assert.equal(user.numStartups, 3);
  assert.deepEqual(user.mcpServers.recordings.args, ["mcp"]);
  // Without CLAUDE_CONFIG_DIR: ~/.claude/settings.json and ~/.claude.json.
  assert.equal((await run(sb, ["claude-code", "--global"])).code, 0);
  assert.ok(json(path.join(sb.home, ".claude/settings.json")).hooks.PostToolUseFailure);
  assert.ok(json(path.join(sb.home, ".claude.json")).mcpServers.recordings);
});

test("a config that is a symlink (dotfiles) is edited where it lives, and stays a link", async () => {
  const sb = sandbox();
  const real = path.join(sb.root, "dotfiles/opencode.json");
  write(real, '{ "model": "x/y" }\n');
  fs.symlinkSync(real, path.join(sb.project, "opencode.json"));
  assert.equal((await run(sb, ["opencode"])).code, 0);
  assert.ok(fs.lstatSync(path.join(sb.project, "opencode.json")).isSymbolicLink());
  assert.deepEqual(json(real).plugin, ["opencode-recordings"]);
  assert.equal(read(`${real}.bak`), '{ "model": "x/y" }\n');
});

const OURS_ALREADY = [
  ["record hook claude-code", true],
  ["node /opt/x/plugin/record.cjs hook claude-code", true],
  ["/usr/bin/env node ./plugin/cli.js hook claude-code --file /tmp/r.jsonl", true],
  ["record hook codex", false],
  ["my-record hook claude-code", false],
  ["echo record", false],
];
test("an existing hook that runs hook mode for the host counts as ours, however the command is spelled", () => {
  for (const [command, ours] of OURS_ALREADY) assert.equal(runsOurHook(command, "claude-code"), ours, command);
});

const CODEX_CONFIG = `# Codex, configured by hand
model = "gpt-5.1"   # the default model
approval_policy = "on-request"

[model_providers.local]
name = "Local"
base_url = "http://127.0.0.1:8080/v1"
wire_api = "responses"

# MCP servers
[mcp_servers.docs]
command = "docs-mcp"
args = [ "--port",  "0" ]

[projects."/home/me/work"]
trust_level = "trusted"
`;

test("codex: the server table beside the other servers in config.toml, hooks in hooks.json, the trust step", async () => {
  const sb = sandbox();
  const config = path.join(sb.codex, "config.toml");
  const hooksFile = path.join(sb.codex, "hooks.json");
  write(config, CODEX_CONFIG);
  write(hooksFile, '{\n  "hooks": {\n    "Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }],\n  }\n}\n');
  const { after, first } = await changesOnce(sb, ["codex"], config);
  assert.match(first.stdout, /Codex runs a hook only once you have trusted it/);
  const added = '[mcp_servers.recordings]\ncommand = "record"\nargs = ["mcp"]\nenv_vars = ["AI_RECORDINGS_FILE"]\n';
  assert.ok(after.includes('args = [ "--port",  "0" ]\n\n' + added + '\n[projects."/home/me/work"]'), after);
  const hooks = json(hooksFile).hooks;
  assert.deepEqual(Object.keys(hooks), ["Stop", "PostToolUse", "SubagentStop"]);
  assert.equal(hooks.PostToolUse[0].hooks[0].command, "record hook codex");
  // --global is the same place for Codex.
  assert.match((await run(sb, ["codex", "--global"])).stdout, /Nothing to change/);
});

test("codex: an empty config.toml gets the table; a malformed one stops both files", async () => {
  const sb = sandbox();
  const config = path.join(sb.codex, "config.toml");
  write(config, "");
  assert.equal((await run(sb, ["codex"])).code, 0);
  assert.match(read(config), /\[mcp_servers\.recordings\]\ncommand = "record"/);
  const bad = sandbox();
  const broken = 'model = "gpt-5\n[mcp_servers.docs]\n';
  write(path.join(bad.codex, "config.toml"), broken);
  const r = await run(bad, ["codex"]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /config\.toml is not valid TOML \(at line 1, column \d+\)/);
  assert.equal(read(path.join(bad.codex, "config.toml")), broken);
  assert.equal(fs.existsSync(path.join(bad.codex, "hooks.json")), false);
});

const USAGE = [
  [[], /which host\?/],
  [["vscode"], /"vscode" is not a host/],
  [["opencode", "--force"], /unknown option --force/],
  [["opencode", "codex"], /"codex" is not a host/],
];
test("usage errors exit 2 and say what was wrong", async () => {
  const sb = sandbox();
  for (const [argv, message] of USAGE) {
    const r = await run(sb, argv);
    assert.equal(r.code, 2, argv.join(" "));
    assert.match(r.stderr, message);
  }
  assert.match((await run(sb, ["--help"])).stdout, /^record init - /);
});

test("`record init` from the command line (the bin), and `record init the docs` still records text", () => {
  const sb = sandbox();
  const cli = path.join(ROOT, "plugin/record.cjs");
  const env = { PATH: process.env.PATH, ...sb.env, XDG_STATE_HOME: path.join(sb.root, "state") };
  const r = spawnSync(RUNTIME, [cli, "init", "opencode"], { cwd: sb.project, env, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(json(path.join(sb.project, "opencode.json")).plugin, ["opencode-recordings"]);
  const file = path.join(sb.root, "r.jsonl");
  const t = spawnSync(RUNTIME, [cli, "--file", file, "init", "the", "docs"], { cwd: sb.project, env, encoding: "utf8" });
  assert.equal(t.status, 0, t.stderr);
  assert.match(read(file), /init the docs/);
});
