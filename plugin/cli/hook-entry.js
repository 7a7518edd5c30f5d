// The entry of hook mode's own bundle, plugin/hook.bundle.cjs (scripts/build.sh): `record hook HOST` reads the
// event and decides what it calls for with only hook mode's modules compiled. Most hook calls are a passing
// command that writes nothing; the recorder, the wasm core and recall (plugin/hook-write.bundle.cjs, else the CLI
// bundle) are loaded only when an entry is to be written or a hint looked for.

import { argvAsTyped, isSubcommand } from "./grammar.js";
import { runHookArgs } from "./hook-mode.js";

const HOOK = new Set(["hook"]);

/** Runs `record hook ...` when this process's words are that, and resolves to true when it has (the exit status
 *  is set; the process may exit at once), or to false when they are something else for the CLI bundle to run.
 *  `writing()`: exports holding `hookModules` (plugin/cli/hook-write.js: the hook-write bundle's, else the CLI
 *  bundle's), or a promise of them; loaded when first needed. */
export async function runHookCommand(writing) {
  const args = await argvAsTyped();
  if (!isSubcommand(args, HOOK)) return false;
  const from = (name) => async () => (await writing()).hookModules[name]();
  const modules = { core: from("core"), recorder: from("recorder"), recallHook: from("recallHook") };
  process.exitCode = await runHookArgs(args.slice(1), { modules });
  return true;
}
