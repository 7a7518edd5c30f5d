// For the end-to-end suites' team case: a teammate's machine (its own HOME, a clone of the repository under
// test) records a lesson and exports it into a throwaway PostgreSQL cluster, as `record export` does on a
// teammate's laptop. The suite then pulls it with `record sync` into its sandbox's index.
import * as path from "node:path";
import { startCluster } from "./pg-cluster.js";
import { exportIn, machine, put } from "./export-helpers.js";
import { gitRepo } from "./helpers.js";

/** Starts a cluster holding `lesson`, recorded in a clone of `origin` by machine `name`. Returns { url, eid,
 *  host, destroy() }. Throws when the export fails. */
export async function teammateExports({ origin, lesson, name = "teammate-laptop" }) {
  const cluster = await startCluster();
  try {
    const m = machine("teammate", { AI_RECORDINGS_MACHINE: name });
    const clone = gitRepo(path.join(m.dir, "src", "widget"), origin);
    const [r] = put(m, [lesson], { cwd: clone, capture: "agent", session: "ses_teammate" });
    if (r.status !== "recorded") throw new Error(`the teammate's lesson was not recorded: ${JSON.stringify(r)}`);
    const url = cluster.url("postgres");
    const e = await exportIn(m, ["--to", url]);
    if (e.code !== 0) throw new Error(`the teammate's export failed: ${e.stderr}`);
    return { url, eid: r.eid, destroy: () => cluster.destroy() };
  } catch (e) {
    cluster.destroy();
    throw e;
  }
}
