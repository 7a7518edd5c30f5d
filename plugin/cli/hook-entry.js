// The entry of hook mode's own bundle, plugin/hook.bundle.cjs (scripts/build.sh): `record hook HOST` reads the
// event and decides what it calls for with only hook mode's modules compiled. Most hook calls are a passing
// command that writes nothing; the recorder, the wasm core and recall (plugin/hook-write.bundle.cjs, else the CLI
// bundle) are loaded only when an entry is to be written or a hint looked for. When the warm hook helper of this
// install is listening, the event is handed to it instead (plugin/cli/hook-client.js), and a process that had to
// load those itself starts one for the next events.

import { fs } from "../builtins.js";
import { settingsOf, envOf } from "../settings.js";
import { argvAsTyped, isSubcommand } from "./grammar.js";
import { askHelper, helperSocket, startHelper } from "./hook-client.js";
import { debugLine, readHookInput, runHookArgs } from "./hook-mode.js";

const HOOK = new Set(["hook"]);

/** Runs `record hook ...` when this process's words are that, and resolves to true when it has (the exit status
 *  is set; the process may exit at once), or to false when they are something else for the CLI bundle to run.
 *  `writing()`: exports holding `hookModules` (plugin/cli/hook-write.js: the hook-write bundle's, else the CLI
 *  bundle's), or a promise of them; loaded when first needed. `launch`: { script, files }, the `record`
 *  command's launcher and the install's files (plugin/record.cjs), which find and start the warm helper; without
 *  it there is none. */
export async function runHookCommand(writing, launch) {
  const args = await argvAsTyped();
  if (!isSubcommand(args, HOOK)) return false;
  let loaded = false;
  const from = (name) => async () => {
    loaded = true;
    return (await writing()).hookModules[name]();
  };
  const modules = { core: from("core"), recorder: from("recorder"), recallHook: from("recallHook") };
  const env = envOf();
  const [, ...rest] = args;
  process.exitCode = 0;
  if (rest[0] === "--serve") {
    try {
      if (launch && rest[1]) await (await (await writing()).hookModules.helper()).serveHooks(rest[1], { launch, modules, env, run: runHookArgs });
    } catch {
      // no helper: hook processes go on doing their own work, and start another later
    }
    return true;
  }
  const input = await readHookInput();
  // Only an event that needs the recorder or recall goes to the helper: hook mode decides that the others need
  // nothing in less time than the round trip takes, and does not even look for one.
  let socket;
  const delegate = launch
    ? async () => {
        socket = helperSocket(launch, env);
        if (!socket) return false;
        let cwd;
        try {
          cwd = process.cwd();
        } catch {
          return false; // a working directory that is gone: the helper could not stand in it
        }
        const answer = await askHelper(socket, { args: rest, env, cwd, input });
        if (answer.taken) printAnswer(answer, settingsOf(env).debug);
        else if (settingsOf(env).debug) debugLine(`the warm helper did not take the event (${answer.why}): working here`);
        return answer.taken;
      }
    : undefined;
  process.exitCode = await runHookArgs(rest, { modules, input, env, delegate });
  if (loaded && socket) startHelper(launch, socket, env);
  return true;
}

/** What the helper's run of the event printed, printed here; with AI_RECORDINGS_DEBUG=1, which process ran it. */
function printAnswer({ out, err, lost }, debugOn) {
  try {
    if (out) fs.writeSync(1, out);
    if (debugOn) debugLine(lost ? `the warm helper took the event but did not answer (${lost}); it may be recorded` : "the event ran in the warm helper");
    if (err) fs.writeSync(2, err);
  } catch {
    // the host stopped reading
  }
}
