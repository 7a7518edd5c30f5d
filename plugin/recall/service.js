// Recall for one recordings file, as every surface uses it: the CLI (one search per process), the opencode
// plugin and the MCP server (an index held open for the session). Each search first catches the index up,
// so what was recorded a moment ago is found.

import { gitContext } from "../git.js";
import { settingsOf, envOf } from "../settings.js";
import { openIndex } from "./index.js";
import { recent, search } from "./search.js";
import { failureQuery } from "./query.js";

/** Why recall is off for these settings (AI_RECORDINGS_RECALL=0 or the `recall: false` option), or null. */
export function recallOff(options = {}) {
  if (options.recall === false) return "recall is switched off (the recall option is false)";
  if (settingsOf(envOf(options)).recall === false) return "recall is switched off (AI_RECORDINGS_RECALL=0)";
  return null;
}

/** The git dir that scope "repo" means for `cwd`, or null outside a repository. */
export function repoOf(cwd, options = {}) {
  try {
    return gitContext(cwd ?? process.cwd(), options).git_dir ?? null;
  } catch {
    return null;
  }
}

/**
 * A recall service for the recordings file `options` resolve to ({file, env, cwd}). The index is opened on
 * first use and kept open. `find(query, {scope, limit, session, includeSession, cwd, now})` and
 * `hint(failure, {session, cwd, now})` resolve to { hits, gitDir, caught } (caught: what catching up found).
 */
export function createRecall(options = {}) {
  let opened = null;
  const index = () => (opened ??= openIndex(options));
  async function run(query, o, mode) {
    const ix = await index();
    const caught = ix.catchUp({ onProgress: o.onProgress });
    const gitDir = o.gitDir !== undefined ? o.gitDir : repoOf(o.cwd ?? options.cwd);
    // A hint is about this repository's past; outside one there is nothing to hint from.
    if (mode === "hint" && !gitDir) return { hits: [], gitDir, caught, index: ix.path };
    const { hits } = (query === null ? recent : search)(ix.db, query, {
      mode,
      scope: o.scope,
      gitDir,
      limit: o.limit,
      session: o.session,
      includeSession: o.includeSession,
      now: o.now,
    });
    return { hits, gitDir, caught, index: ix.path };
  }
  return {
    find: (text, o = {}) => run(text, o, "recall"),
    hint: (failure, o = {}) => run(failureQuery(failure), { ...o, scope: "repo", limit: o.limit ?? 3 }, "hint"),
    async close() {
      if (opened) (await opened.catch(() => null))?.close();
      opened = null;
    },
  };
}
