// Runs the real Claude Code and Codex CLIs (pinned dev dependencies) headless and offline, each in a throwaway
// sandbox (HOME, config dir, TMPDIR, a git project) against a mock model on 127.0.0.1, with our hook mode and
// our MCP server configured by `record init` as a user would run it (the same entries docs/hosts.md shows:
// hosts.e2e.test.js compares them).

import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { runProcess } from "../js/helpers.js";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const CLAUDE = path.join(REPO, "node_modules/.bin/claude");
export const CODEX = path.join(REPO, "node_modules/.bin/codex");
/** The `record` command as installed (package.json "bin"). */
const CLI = path.join(REPO, "plugin/record.cjs");

/** A code block of docs/hosts.md, marked `<!-- snippet: NAME -->` on the line before its fence. The tests write
 *  the hosts' configuration from these blocks, so the documented snippets are the tested ones. */
export function docSnippet(name) {
  const text = fs.readFileSync(path.join(REPO, "docs/hosts.md"), "utf8");
  const m = new RegExp("<!-- snippet: " + name + " -->\\n```\\w*\\n([\\s\\S]*?)\\n```").exec(text);
  if (!m) throw new Error(`docs/hosts.md has no snippet ${name}`);
  return m[1];
}

/**
 * A directory holding a `record` command, to put first on PATH, so the documented configurations (which say
 * `record hook claude-code`, `record mcp`) run as written: this checkout's `record` under the runtime running
 * the tests.
 */
export function recordShim(dir) {
  const bin = path.join(dir, "bin");
  fs.mkdirSync(bin, { recursive: true });
  const lines = ["#!/bin/sh", `exec ${shellQuote(process.execPath)} ${shellQuote(CLI)} "$@"`];
  fs.writeFileSync(path.join(bin, "record"), lines.join("\n") + "\n", { mode: 0o755 });
  return bin;
}

/** `record init ARGS` with `env`, as a user runs it before starting the host; throws unless it exits 0. */
export function recordInit(args, env, cwd) {
  return execFileSync(process.execPath, [CLI, "init", ...args], { cwd, env, encoding: "utf8" });
}

const shellQuote = (s) => (/^[A-Za-z0-9_\/.:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

export function makeSandbox(prefix) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  const d = {
    root,
    home: path.join(root, "home"),
    tmp: path.join(root, "tmp"),
    config: path.join(root, "config"),
    project: path.join(root, "project"),
    file: path.join(root, "out", "recordings.jsonl"),
    state: path.join(root, "state"),
  };
  for (const k of ["home", "tmp", "config", "project", "state"]) fs.mkdirSync(d[k], { recursive: true });
  execFileSync("git", ["init", "-q", "-b", "main", d.project]);
  execFileSync("git", ["-C", d.project, "remote", "add", "origin", "https://example.com/acme/widget.git"]);
  // The gate: `npm test` fails with exit code 3 and a recognisable tail.
  fs.writeFileSync(
    path.join(d.project, "package.json"),
    JSON.stringify({ name: "widget", version: "1.0.0", private: true, scripts: { test: "node fail.js" } }, null, 2),
  );
  fs.writeFileSync(path.join(d.project, "fail.js"), 'console.log("running 2 tests");\nconsole.error("not ok 2 - widget spins");\nprocess.exit(3);\n');
  return d;
}

/** Environment shared by both hosts: isolated home and temp, our target file, no user recordings touched. */
function baseEnv(d, extra) {
  const env = {
    PATH: process.env.PATH,
    LANG: "C.UTF-8",
    HOME: d.home,
    TMPDIR: d.tmp,
    XDG_STATE_HOME: d.state,
    XDG_CONFIG_HOME: path.join(d.home, ".config"),
    XDG_CACHE_HOME: path.join(d.home, ".cache"),
    GIT_CONFIG_NOSYSTEM: "1",
    npm_config_update_notifier: "false",
    AI_RECORDINGS_FILE: d.file,
  };
  return { ...env, ...extra };
}


// ---------------------------------------------------------------------------------------------------------
// Claude Code

export async function runClaude(d, prompt, { mockUrl, timeoutMs = 90000, extraEnv = {} } = {}) {
  const configDir = path.join(d.config, "claude");
  fs.mkdirSync(configDir, { recursive: true });
  const env = baseEnv(d, {
    PATH: `${recordShim(d.root)}:${process.env.PATH}`,
    ANTHROPIC_BASE_URL: mockUrl,
    ANTHROPIC_API_KEY: "sk-ant-mock-not-a-secret",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    CLAUDE_CODE_MAX_RETRIES: "0",
    CLAUDE_CODE_TMPDIR: d.tmp,
    CLAUDE_CONFIG_DIR: configDir,
    IS_SANDBOX: "1", // bypass mode refuses to run as root without it
    ...extraEnv,
  });
  // The hooks in $CLAUDE_CONFIG_DIR/settings.json and the server in its .claude.json (user scope).
  recordInit(["claude-code", "--global"], env, d.project);
  const args = ["-p", prompt, "--output-format", "json", "--dangerously-skip-permissions"];
  return runProcess(CLAUDE, args, { cwd: d.project, env, timeoutMs });
}

// ---------------------------------------------------------------------------------------------------------
// Codex

const tomlString = (s) => JSON.stringify(s); // TOML basic strings share JSON's escapes for these paths

export async function runCodex(d, prompt, { mockUrl, timeoutMs = 90000, extraEnv = {} } = {}) {
  const home = path.join(d.config, "codex");
  fs.mkdirSync(home, { recursive: true });
  // The offline provider and the switches that keep Codex from looking outside; `record init codex` then adds our MCP server and hooks.
  const toml = [
    'model = "mock-model"',
    'model_provider = "mock"',
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    "check_for_update_on_startup = false",
    "",
    "[model_providers.mock]",
    'name = "Mock"',
    `base_url = ${tomlString(mockUrl + "/v1")}`,
    'wire_api = "responses"',
    'env_key = "MOCK_API_KEY"',
    "request_max_retries = 0",
    "stream_max_retries = 0",
    "",
    "[analytics]",
    "enabled = false",
    "",
    "[features]",
    "plugins = false",
    "",
    `[projects.${tomlString(d.project)}]`,
    'trust_level = "trusted"',
    "",
  ].join("\n");
  fs.writeFileSync(path.join(home, "config.toml"), toml);
  const env = baseEnv(d, { PATH: `${recordShim(d.root)}:${process.env.PATH}`, CODEX_HOME: home, MOCK_API_KEY: "sk-mock-not-a-secret", ...extraEnv });
  recordInit(["codex"], env, d.project);
  // Hooks are skipped by `codex exec` unless trusted; the flag stands in for the interactive trust step.
  const args = ["exec", "--dangerously-bypass-hook-trust", "--skip-git-repo-check", "--json", prompt];
  return runProcess(CODEX, args, { cwd: d.project, env, timeoutMs });
}

export function cleanup(d) {
  if (process.env.KEEP_HOSTS) return;
  try {
    fs.rmSync(d.root, { recursive: true, force: true });
  } catch {}
}
