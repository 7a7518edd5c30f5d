// The entry of recall's own bundle, plugin/recall.bundle.cjs (scripts/build.sh): `record recall ...` with only
// recall's modules compiled. An agent asks mid-task and waits for the answer; the recording path and hook mode in
// the CLI bundle are about half of what that process would load otherwise.

import { argvAsTyped, isSubcommand } from "./grammar.js";
import { recall } from "./recall.js";

const RECALL = new Set(["recall"]);

/** Runs `record recall ...` when this process's words are that, and resolves to true when it has (the exit
 *  status is set), or to false when they are something else for the CLI bundle to run (under Bun, `record --
 *  recall ...` reaches the launcher without its "--": the words as typed are text to record). Never rejects. */
export async function runRecallCommand() {
  const args = await argvAsTyped();
  if (!isSubcommand(args, RECALL)) return false;
  try {
    process.exitCode = await recall(args.slice(1), {});
  } catch (e) {
    // Not expected (recall reports its own errors); still, a question never ends in a stack trace alone.
    process.stderr.write(`record recall: internal error: ${e && e.stack ? e.stack : e}\n`);
    process.exitCode = 1;
  }
  return true;
}
