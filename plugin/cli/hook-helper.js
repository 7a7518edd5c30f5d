// The warm hook helper: `record hook --serve SOCKET`, started detached by a hook process that had to do its own
// work (plugin/cli/hook-client.js). It keeps the recorder, the wasm core and recall compiled, and runs the hook
// events handed to it one at a time, each exactly as its hook process would have run it: with that process's
// environment, working directory, arguments and event (plugin/cli/hook-mode.js runHook), and what it prints sent
// back for the hook process to print.
//
// It listens on a Unix socket in a private directory, and exits when no event has come for
// AI_RECORDINGS_HOOK_HELPER_IDLE (default 15 minutes), when its socket is removed or replaced (another helper
// took its place), or when the install's files change (a reinstall or rebuild: new hook processes look for a
// helper of the new code). The wire and its time limits: plugin/cli/hook-wire.js.

import { builtin, fs, os, path } from "../builtins.js";
import { settingsOf } from "../settings.js";
import { helperKey, retireSocket, startingFile } from "./hook-client.js";
import { ACK_MS, TAKE_MS, answerBytes, readRequest } from "./hook-wire.js";

const IDLE_MS = 15 * 60_000;
/** How often the helper looks at its socket and the install's files. */
const CHECK_MS = 5_000;

/**
 * Serves hook events on `socket` until one of the ends above. `launch`: the install (plugin/record.cjs), whose
 * key names the socket; `modules`: what hook mode loads (plugin/cli/hook-write.js hookModules); `env`: the
 * helper's own environment (its idle time); `run`: hook mode's runHookArgs (plugin/cli/hook-mode.js), as the
 * hook process has it loaded. Resolves when it has stopped listening and every event taken is answered.
 */
export async function serveHooks(socket, { launch, modules, env, run }) {
  const net = builtin("node:net");
  const key = helperKey(launch);
  if (path.basename(socket) !== `hook-${key}.sock`) return; // started for other files than these
  const idleMs = settingsOf(env).hookHelperIdleMs ?? IDLE_MS;
  await warmUp(modules, run);

  const server = net.createServer();
  let queue = Promise.resolve();
  let lastUsed = Date.now();
  let busy = 0;
  server.on("connection", (conn) => {
    conn.on("error", () => {}); // a hook process that gave up: nothing to answer
    conn.setTimeout(ACK_MS, () => conn.destroy()); // a connection that sends no event in time
    readRequest(conn).then((req) => {
      if (!req) return conn.destroy();
      conn.setTimeout(0);
      busy++;
      queue = queue
        .then(() => handle(conn, req, modules, run))
        .catch(() => conn.destroy()) // the hook process hears that no answer came
        .finally(() => {
          busy--;
          lastUsed = Date.now();
        });
    });
  });

  // Listening under a name of its own, then renamed into place: a helper started at the same time by another
  // hook process is replaced whole, never half bound, and sees it at its next check.
  const aside = `${socket}.${process.pid}.tmp`;
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(aside, resolve);
  });
  server.on("error", () => {}); // a failed accept: that hook process does its own work
  fs.renameSync(aside, socket);
  const ino = fs.lstatSync(socket).ino;
  fs.rmSync(startingFile(socket), { force: true });

  await new Promise((resolve) => {
    const stop = (unlink) => {
      clearInterval(timer);
      server.close();
      if (unlink) retireSocket(socket, ino);
      queue.then(resolve);
    };
    const timer = setInterval(() => {
      let st = null;
      try {
        st = fs.lstatSync(socket);
      } catch {
        // removed
      }
      if (!st || st.ino !== ino) stop(false);
      else if (helperKey(launch) !== key) stop(true);
      else if (busy === 0 && Date.now() - lastUsed >= idleMs) stop(true);
    }, Math.min(CHECK_MS, idleMs));
  });
}

/** Runs one event as its hook process would have, if it is still in time; the answer goes back on `conn`. */
async function handle(conn, { header, input }, modules, run) {
  if (conn.destroyed || Date.now() - header.sent > TAKE_MS) return conn.destroy(); // the hook process does it
  try {
    process.chdir(header.cwd);
  } catch {
    return conn.destroy();
  }
  conn.write("A");
  const out = [];
  const err = [];
  try {
    await run(header.args, {
      input,
      env: Object.freeze(header.env),
      stdout: (text) => out.push(text),
      stderr: { write: (text) => err.push(text) },
      modules,
    });
  } finally {
    try {
      process.chdir("/");
    } catch {
      // stays where it was; the next event changes it
    }
  }
  conn.end(answerBytes(out.join(""), err.join("")));
}

/** One failing test run recorded into a throwaway directory, its hint looked for there, so the code the first
 *  real event needs is loaded and compiled before it comes. */
async function warmUp(modules, run) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "record-helper-warm-"));
  try {
    const env = Object.freeze({
      HOME: dir,
      PATH: process.env.PATH ?? "",
      XDG_STATE_HOME: path.join(dir, "state"),
      XDG_DATA_HOME: path.join(dir, "data"),
      AI_RECORDINGS_FILE: path.join(dir, "warm.jsonl"),
    });
    const event = {
      session_id: "warm-up",
      cwd: dir,
      hook_event_name: "PostToolUseFailure",
      tool_name: "Bash",
      tool_input: { command: "npm test" },
      error: "Exit code 1\n\nFAIL src/a.test.js\n  Expected: 2\n  Received: 3\nTests: 1 failed, 4 passed",
    };
    process.chdir(dir);
    await run(["claude-code"], { input: Buffer.from(JSON.stringify(event)), env, stdout: () => {}, stderr: { write: () => {} }, modules });
  } catch {
    // a helper that could not warm up still serves; its first event compiles what it needs
  } finally {
    try {
      process.chdir("/");
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // a temporary directory left behind
    }
  }
}
