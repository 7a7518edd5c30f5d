// A hook process's side of the warm hook helper (plugin/cli/hook-helper.js). Every hook is a new process, and one
// that records an entry or looks for a hint spends most of its time loading and compiling code (the recorder, the
// wasm core, recall) that a process which stays up has compiled already. So, when a helper for this install and
// runtime is listening, the hook process hands it the event and prints its answer; when none is, it does the work
// itself and then starts one, detached, for the next events.
//
// The helper is found by a key made of the runtime and the install's files (their inode, size and times), so a
// reinstall, a rebuild or another Node finds no helper of the old code and starts its own. Its socket lives in a
// directory only this user may enter (checked before every connect: the event and the environment go through it).

import { builtin, fs, path } from "../builtins.js";
import { helperSocketPath, shortHash } from "../paths.js";
import { settingsOf } from "../settings.js";
import { ACK_MS, ANSWER_MS, parseAnswer, requestBytes } from "./hook-wire.js";

/** The longest socket path every Unix takes (sun_path: 108 bytes on Linux, 104 on macOS). */
const MAX_SOCKET_BYTES = 103;

/**
 * The socket of the helper for this install (`launch`: { script, files }, plugin/record.cjs) and runtime, or
 * null when there is to be none: hook mode without the `record` command's launcher, AI_RECORDINGS_HOOK_HELPER=0,
 * Windows, or a path too long for a socket.
 */
export function helperSocket(launch, env) {
  if (!launch || process.platform === "win32" || settingsOf(env).hookHelper === false) return null;
  const socket = helperSocketPath(helperKey(launch), { env });
  return Buffer.byteLength(socket) <= MAX_SOCKET_BYTES ? socket : null;
}

/** What tells helpers apart: the runtime, its version, and each of the install's files as it is on disk now. */
export function helperKey(launch) {
  const parts = [process.execPath, process.version, process.versions.bun ?? ""];
  for (const file of launch.files) {
    try {
      const st = fs.statSync(file);
      parts.push(file, st.ino, st.size, st.mtimeMs, st.ctimeMs);
    } catch {
      parts.push(file, "absent");
    }
  }
  return shortHash(parts.join("\0"));
}

/** Whether `dir` is a directory that only this user can enter. Anything else (another user's directory in a
 *  shared temp dir, a symlink) could put someone else's listener where the helper's socket is expected. */
export function privateDir(dir) {
  try {
    const st = fs.lstatSync(dir);
    return st.isDirectory() && st.uid === process.getuid() && (st.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/** The socket file's inode when a helper may be listening at `socket` (a socket file in a private directory),
 *  else null. Checked before node:net is loaded (a millisecond or two), which most hook processes then need not
 *  pay for. */
function socketIno(socket) {
  try {
    const st = fs.lstatSync(socket);
    return st.isSocket() && privateDir(path.dirname(socket)) ? st.ino : null;
  } catch {
    return null;
  }
}

const mayListen = (socket) => socketIno(socket) !== null;

/** Removes `socket` if it is still the one at `ino`. A hook process retires a helper that does not take events
 *  (the next hook processes then start a new one rather than wait for it; should it come back, it finds its
 *  socket gone and leaves), and a helper that leaves removes its own, but never a successor's. */
export function retireSocket(socket, ino) {
  try {
    if (fs.lstatSync(socket).ino === ino) fs.unlinkSync(socket);
  } catch {
    // gone already
  }
}

/** Whether a helper is listening at `socket` now: a connection it accepts (and closes, as it carries no event).
 *  For `record doctor`. */
export function helperListening(socket, { timeoutMs = 1000 } = {}) {
  if (!socket || !mayListen(socket)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const conn = builtin("node:net").createConnection({ path: socket });
    const end = (ok) => {
      clearTimeout(timer);
      conn.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => end(false), timeoutMs);
    conn.on("connect", () => end(true));
    conn.on("error", () => end(false));
  });
}

/**
 * Hands one hook event to the helper at `socket`. `request`: { args (the words after `hook`), env, cwd, input
 * (the event's bytes) }. Resolves to { taken: false, why } when this process is to do the work (no helper, or it
 * did not take the event within ACK_MS), { taken: true, out, err } with what the event printed, or { taken: true,
 * out: "", err: "", lost } when the helper took it but no answer came (it may have recorded the entry). Never
 * rejects.
 */
export function askHelper(socket, { args, env, cwd, input }, { now = Date.now } = {}) {
  const ino = socketIno(socket);
  if (ino === null) return Promise.resolve({ taken: false, why: "no helper" });
  return new Promise((resolve) => {
    let taken = false;
    let settled = false;
    const rest = [];
    const done = (value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      conn.destroy();
      resolve(value);
    };
    const sent = now();
    // Given up on after the next poll of the socket, not in the timer's own turn: a process that was stalled past
    // ACK_MS may have the helper's "A" waiting unread, and must not then do the event a second time.
    const giveUp = () =>
      setImmediate(() => {
        if (taken) return;
        retireSocket(socket, ino);
        done({ taken: false, why: `the helper did not take the event within ${ACK_MS} ms` });
      });
    let timer = setTimeout(giveUp, ACK_MS);
    const conn = builtin("node:net").createConnection({ path: socket });
    conn.on("connect", () => conn.write(requestBytes({ args, env, cwd, sent }, input)));
    conn.on("data", (chunk) => {
      if (!taken) {
        if (chunk[0] !== 0x41) return done({ taken: false, why: "the helper answered out of turn" });
        taken = true;
        clearTimeout(timer);
        timer = setTimeout(() => done({ taken: true, out: "", err: "", lost: `no answer within ${ANSWER_MS} ms` }), ANSWER_MS);
        chunk = chunk.subarray(1);
      }
      rest.push(chunk);
    });
    conn.on("error", (e) => done(taken ? { taken: true, out: "", err: "", lost: e.code || e.message } : { taken: false, why: e.code || e.message }));
    conn.on("close", () => {
      if (!taken) return done({ taken: false, why: "the helper did not take the event" });
      const answer = parseAnswer(Buffer.concat(rest));
      done(answer ? { taken: true, ...answer } : { taken: true, out: "", err: "", lost: "the helper stopped before it answered" });
    });
  });
}

/** How long a helper that was started may take to listen before another hook process starts one again. */
const START_MS = 10_000;

/** The file a hook process creates when it starts the helper of `socket`, and the helper removes once it
 *  listens: hook processes that come while a helper warms up start no second one. */
export const startingFile = (socket) => `${socket}.starting`;

/**
 * Starts the helper for `socket`, detached, its output discarded, so the next hook events find it; nothing when
 * one was started less than START_MS ago and is not listening yet. Creates the socket's directory (mode 0700)
 * and starts nothing unless it is private. Never throws.
 */
export function startHelper(launch, socket, env, { now = Date.now } = {}) {
  try {
    const dir = path.dirname(socket);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!privateDir(dir)) return;
    const starting = startingFile(socket);
    try {
      fs.closeSync(fs.openSync(starting, "wx", 0o600));
    } catch (e) {
      if (e.code !== "EEXIST" || now() - fs.statSync(starting).mtimeMs < START_MS) return;
      fs.utimesSync(starting, new Date(now()), new Date(now())); // one that never came up: start another
    }
    const childEnv = { ...env };
    delete childEnv.AI_RECORDINGS_CODE_CACHE_OUT; // the build's training runs: a helper trains nothing
    const child = builtin("node:child_process").spawn(process.execPath, [launch.script, "hook", "--serve", socket], {
      cwd: "/",
      env: childEnv,
      detached: true,
      stdio: "ignore",
    });
    child.on("error", () => {});
    child.unref();
  } catch {
    // no helper: the next hook process does its own work again
  }
}
