// Runs the real opencode (the pinned `opencode-ai` dev dependency) headless and offline against the mock LLM.
//
// Each sandbox is a temp dir holding an isolated HOME, XDG_* dirs and TMPDIR, and a project that is a git
// repository with a remote (without a repo opencode takes `/` as the worktree and walks config up to `/`).
// The facts about opencode that shape the code are noted inline.

import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { runProcess } from "../js/helpers.js";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const OPENCODE = path.join(REPO, "node_modules/opencode-linux-x64/bin/opencode");
export const PLUGIN_URL = pathToFileURL(path.join(REPO, "plugin/opencode.js")).href;
const PLUGIN_PKG = "@opencode-ai/plugin";
const PLUGIN_PKG_VERSION = "1.18.33";

// At start opencode npm-installs @opencode-ai/plugin into every config dir and waits for it (~70 s of failed
// retries offline). It skips the install when the dir already has node_modules/ and a package-lock.json whose
// root dependencies name the package.
function seedConfigDir(dir) {
  fs.mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  const lock = { lockfileVersion: 3, packages: { "": { dependencies: { [PLUGIN_PKG]: PLUGIN_PKG_VERSION } } } };
  fs.writeFileSync(path.join(dir, "package-lock.json"), JSON.stringify(lock));
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ dependencies: { [PLUGIN_PKG]: PLUGIN_PKG_VERSION } }));
}

/**
 * Creates a sandbox. `pluginOptions` is the tuple's second member (null: plugin not loaded); `files` are
 * written into the project; `extraPlugins` are module sources dropped into `.opencode/plugin/`.
 */
export function makeSandbox({ mockUrl, pluginOptions = {}, files = {}, extraPlugins = {}, config = {}, configDir = "project" } = {}) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "ocrec-e2e-"));
  const dirs = {
    root,
    home: path.join(root, "home"),
    config: path.join(root, "xdg/config"),
    data: path.join(root, "xdg/data"),
    cache: path.join(root, "xdg/cache"),
    state: path.join(root, "xdg/state"),
    tmp: path.join(root, "tmp"),
    project: path.join(root, "project"),
  };
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });
  seedConfigDir(path.join(dirs.config, "opencode"));
  seedConfigDir(path.join(dirs.project, ".opencode"));

  execFileSync("git", ["init", "-q", "-b", "main", dirs.project]);
  execFileSync("git", ["-C", dirs.project, "remote", "add", "origin", "https://example.com/acme/widget.git"]);

  const plugin = pluginOptions === null ? [] : [[PLUGIN_URL, pluginOptions]];
  const cfg = {
    $schema: "https://opencode.ai/config.json", // without it opencode rewrites the file
    provider: {
      mock: {
        npm: "@ai-sdk/openai-compatible",
        name: "Mock",
        options: { baseURL: mockUrl, apiKey: "sk-mock-key-not-a-secret" },
        models: { m: { name: "M", tool_call: true, limit: { context: 100000, output: 4096 } } },
      },
    },
    model: "mock/m",
    small_model: "mock/m",
    autoupdate: false,
    share: "disabled",
    plugin,
    ...config,
  };
  // configDir "global": the provider goes to the user config, leaving the project's config to the test.
  const cfgFile = configDir === "global" ? path.join(dirs.config, "opencode/opencode.json") : path.join(dirs.project, "opencode.json");
  fs.writeFileSync(cfgFile, JSON.stringify(cfg, null, 2));
  for (const [rel, text] of Object.entries(files)) {
    const p = path.join(dirs.project, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text);
  }
  if (Object.keys(extraPlugins).length) {
    const pdir = path.join(dirs.project, ".opencode/plugin");
    fs.mkdirSync(pdir, { recursive: true });
    for (const [name, src] of Object.entries(extraPlugins)) fs.writeFileSync(path.join(pdir, name), src);
  }
  return dirs;
}

export function sandboxEnv(dirs, extra = {}) {
  const env = {
    PATH: process.env.PATH,
    LANG: "C.UTF-8",
    HOME: dirs.home,
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: dirs.data,
    XDG_CACHE_HOME: dirs.cache,
    XDG_STATE_HOME: dirs.state,
    TMPDIR: dirs.tmp,
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_CLAUDE_CODE: "1",
    // Git identity for commands the agent may run; never the user's own config.
    GIT_CONFIG_NOSYSTEM: "1",
  };
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Boots an instance once without plugins, so parallel first starts do not race on creating the database. */
export function warmUp(dirs, env = {}) {
  execFileSync(OPENCODE, ["session", "list", "--pure"], { cwd: dirs.project, env: sandboxEnv(dirs, env), stdio: "ignore", timeout: 60000 });
}

/**
 * `opencode run --format json` with the message on stdin (a non-TTY stdin is read to EOF; argv words with
 * spaces get literal quotes). Resolves to { code, signal, events, stdout, stderr, sessionID, ms }.
 */
export async function runOpencode(dirs, message, { env = {}, args = [], timeoutMs = 60000 } = {}) {
  const r = await runProcess(OPENCODE, ["run", "--format", "json", "--print-logs", ...args], {
    cwd: dirs.project,
    env: sandboxEnv(dirs, env),
    input: message,
    timeoutMs,
  });
  const events = [];
  for (const line of r.stdout.split("\n")) {
    if (!line.trim()) continue;
    try {
      events.push(JSON.parse(line));
    } catch {}
  }
  const sessionID = events.find((e) => e.sessionID)?.sessionID ?? null;
  return { ...r, events, sessionID };
}

export function cleanup(dirs) {
  if (process.env.KEEP_E2E) return;
  try {
    fs.chmodSync(dirs.root, 0o700);
    fs.rmSync(dirs.root, { recursive: true, force: true });
  } catch {}
}
