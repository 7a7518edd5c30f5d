// Shared helpers for the JS suites. The suites use node:test + node:assert and run unchanged under
// `node --test` and `bun test` (Bun's runner executes node:test files). Child processes run under the same
// runtime as the suite (process.execPath is node or bun), so a Bun run exercises Bun end to end.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawnSync, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
/** The `record` command as installed (package.json "bin"): the CommonJS launcher of the CLI bundle. */
export const CLI = path.join(ROOT, "plugin", "record.cjs");
export const RUNTIME = process.execPath;
export const IS_BUN = typeof globalThis.Bun !== "undefined";

const made = [];

/** A fresh private temporary directory, removed when the process exits. */
export function tmpdir(prefix = "rec-test-") {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(d);
  return d;
}

process.on("exit", () => {
  if (process.env.KEEP_TMP) return;
  for (const d of made) {
    try {
      fs.rmSync(d, { recursive: true, force: true });
    } catch {
      // best effort
    }
  }
});

/** An environment for child processes that never touches the real ~/git/ai_recordings.jsonl or status. */
export function isolatedEnv(dir, extra = {}) {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith("AI_RECORDINGS_")) delete env[k];
  // Bun creates $HOME/.bun at start-up; make HOME exist so modes we assert are the ones we created.
  fs.mkdirSync(path.join(dir, "home"), { recursive: true });
  return { ...env, HOME: path.join(dir, "home"), XDG_STATE_HOME: path.join(dir, "state"), ...extra };
}

/** Runs the CLI synchronously; returns { code, stdout, stderr, json (parsed last stdout line or null) }. */
export function runCli(args, { env, input, cwd, user } = {}) {
  let cmd = RUNTIME;
  let argv = [CLI, ...args];
  if (user) {
    argv = [`--reuid=${user}`, `--regid=${user === "nobody" ? "nogroup" : user}`, "--clear-groups", cmd, ...argv];
    cmd = "setpriv";
  }
  const r = spawnSync(cmd, argv, { env, input, cwd, maxBuffer: 1 << 30 });
  const stdout = r.stdout ? r.stdout.toString("utf8") : "";
  let json = null;
  const last = stdout.trim().split("\n").pop();
  try {
    json = last ? JSON.parse(last) : null;
  } catch {
    json = null;
  }
  return { code: r.status, signal: r.signal, stdout, stderr: r.stderr ? r.stderr.toString("utf8") : "", json, error: r.error };
}

/** Lines of a JSONL file (without the final empty string); [] when absent. */
export function lines(file) {
  let text;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const out = text.split("\n");
  if (out[out.length - 1] === "") out.pop();
  return out;
}

/** A reproducible generator of numbers in [0, 1): xorshift32 (Marsaglia 2003) from a seed. */
export function xorshift32(seed) {
  let s = (seed * 2654435761) >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

export function entries(file) {
  return lines(file).filter((l) => l !== "").map((l) => JSON.parse(l));
}

/**
 * The top-level members of a JSON object text, each value as its raw source text with the whitespace outside
 * strings removed: [[key, rawValue], ...], keeping order and duplicates. Used to prove members round-trip
 * byte-identically (JSON.parse would normalise 1.0, \u00e9 and drop duplicate keys).
 */
export function rawMembers(text) {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\r\n".includes(text[i])) i++;
  };
  const str = () => {
    const start = i;
    i++; // opening quote
    while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    return text.slice(start, i);
  };
  const value = () => {
    ws();
    let out = "";
    let depth = 0;
    for (;;) {
      const c = text[i];
      if (c === undefined) return out;
      if (c === '"') {
        out += str();
        if (depth === 0) return out;
        continue;
      }
      if (c === "{" || c === "[") depth++;
      if (c === "}" || c === "]") {
        if (depth === 0) return out;
        depth--;
        out += c;
        i++;
        if (depth === 0) return out;
        continue;
      }
      if (c === "," && depth === 0) return out;
      if (!" \t\r\n".includes(c)) out += c;
      i++;
    }
  };
  const members = [];
  ws();
  if (text[i] !== "{") throw new Error("not an object");
  i++;
  for (;;) {
    ws();
    if (text[i] === "}") break;
    const key = JSON.parse(str());
    ws();
    i++; // colon
    members.push([key, value()]);
    ws();
    if (text[i] === ",") i++;
  }
  return members;
}

/** True when `needles` (members) appear in `hay` in the same order (other members may sit between). */
export function containsInOrder(hay, needles) {
  let j = 0;
  for (const m of hay) if (j < needles.length && m[0] === needles[j][0] && m[1] === needles[j][1]) j++;
  return j === needles.length;
}

/** Whether `mount -t tmpfs` works here (root in a permissive container). Returns the reason when not. */
export function canMount() {
  if (process.getuid?.() !== 0) return "not root";
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "rec-mnt-probe-"));
  const r = spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", d]);
  if (r.status !== 0) {
    fs.rmdirSync(d);
    return `mount -t tmpfs failed: ${String(r.stderr).trim()}`;
  }
  spawnSync("umount", [d]);
  fs.rmdirSync(d);
  return null;
}

/** Mounts a tmpfs of `size` at a new directory; returns { dir, remount(opts), umount() }. */
export function mountTmpfs(size) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rec-tmpfs-"));
  const r = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${size},mode=0755`, "tmpfs", dir]);
  if (r.status !== 0) throw new Error(`mount failed: ${r.stderr}`);
  return {
    dir,
    remount(opts) {
      const x = spawnSync("mount", ["-o", `remount,${opts}`, dir]);
      if (x.status !== 0) throw new Error(`remount failed: ${x.stderr}`);
    },
    umount() {
      spawnSync("umount", ["-l", dir]);
      try {
        fs.rmdirSync(dir);
      } catch {
        // best effort
      }
    },
  };
}

/** Whether we can run a command as `nobody` (root with setpriv). Returns the reason when not. */
export function canDropPrivileges() {
  if (process.getuid?.() !== 0) return "not root (the permission test needs to switch to an unprivileged user)";
  const r = spawnSync("setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", RUNTIME, "-e", "process.exit(process.getuid() === 0 ? 1 : 0)"]);
  return r.status === 0 ? null : `setpriv to nobody failed: ${String(r.stderr || r.error).trim()}`;
}

/** Runs `git` in `cwd` with a fixed identity; throws on failure. */
/** Runs a command to its end (SIGKILL after `timeoutMs`), `input` on its standard input when given. Resolves to
 *  { code, signal, stdout, stderr, ms }. */
export function runProcess(cmd, args, { cwd, env, input, timeoutMs = 60000 } = {}) {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env, stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (x) => (stdout += x));
    child.stderr.setEncoding("utf8").on("data", (x) => (stderr += x));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - t0 });
    });
    if (input !== undefined) child.stdin.end(input);
  });
}

/** The paths this process holds open (Linux: /proc/self/fd), or null where there is no /proc. */
export function openPaths() {
  let fds;
  try {
    fds = fs.readdirSync("/proc/self/fd");
  } catch {
    return null;
  }
  const out = [];
  for (const fd of fds) {
    try {
      out.push(fs.readlinkSync(`/proc/self/fd/${fd}`));
    } catch {
      // closed meanwhile
    }
  }
  return out;
}

/** A new git repository at `dir` (created, parents too) whose remote `origin` is `origin`; returns `dir`. */
export function gitRepo(dir, origin) {
  fs.mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q");
  git(dir, "remote", "add", "origin", origin);
  return dir;
}

export function git(cwd, ...args) {
  const r = spawnSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "init.defaultBranch=main", ...args], {
    cwd,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
}

export { spawn, spawnSync };

/** The warm hook helpers (plugin/cli/hook-helper.js) serving a socket under `dir`: [{ pid, socket }], from /proc;
 *  zombies left out. */
export function helpersUnder(dir) {
  const out = [];
  for (const pid of fs.readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    let args;
    let state;
    try {
      args = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      state = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1][0];
    } catch {
      continue; // gone meanwhile
    }
    const at = args.indexOf("--serve");
    if (at > 0 && args[at + 1]?.startsWith(dir + path.sep) && state !== "Z") out.push({ pid: Number(pid), socket: args[at + 1] });
  }
  return out;
}

/** Whether a warm hook helper listens in the socket directory `sockets`: a helper process serving it, its socket
 *  there, and no `.starting` file (the helper removes it once it listens). */
export function helperListens(sockets) {
  let names;
  try {
    names = fs.readdirSync(sockets);
  } catch {
    return false;
  }
  return helpersUnder(sockets).length > 0 && names.some((n) => n.endsWith(".sock")) && !names.some((n) => n.endsWith(".starting"));
}

/** Kills the warm hook helpers serving under `dir`, a stopped one too. */
export function stopHelpers(dir) {
  for (const { pid } of helpersUnder(dir)) {
    try {
      process.kill(pid, "SIGCONT");
      process.kill(pid, "SIGKILL");
    } catch {
      // gone already
    }
  }
}

/** Waits, up to `ms`, until `cond()` holds; fails the test with `what` if it never does. */
export async function until(cond, what, ms = 20_000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
