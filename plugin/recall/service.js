// Recall for one recordings file, as every surface uses it: the CLI (one search per process), the opencode
// plugin and the MCP server (an index held open for the session). Each search first catches the index up,
// so what was recorded a moment ago is found. With team pulls on, it also starts a pull in the background
// when one is due (team-state.js), and answers at once from the team rows pulled before.

import { gitContext } from "../git.js";
import { settingsOf, envOf } from "../settings.js";
import { isUnreadable, openIndex } from "./index.js";
import { countMemo } from "./counts.js";
import { recent, search } from "./search.js";
import { failureQuery } from "./query.js";
import { repoKey } from "./team.js";
import { readTeamState, startAutoPull } from "./team-state.js";

/** Why recall is off for these settings (AI_RECORDINGS_RECALL=0 or the `recall: false` option), or null. */
export function recallOff(options = {}) {
  if (options.recall === false) return "recall is switched off (the recall option is false)";
  if (settingsOf(envOf(options)).recall === false) return "recall is switched off (AI_RECORDINGS_RECALL=0)";
  return null;
}

/** The repository scope "repo" means for `cwd`: { gitDir (null outside a repository), key (team.js's repoKey
 *  of its origin or name, matching teammates' clones of it) }. */
export function repoOf(cwd, options = {}) {
  try {
    const g = gitContext(cwd ?? process.cwd(), options);
    return { gitDir: g.git_dir ?? null, key: g.git_dir ? repoKey(g.origin, g.repo) : null };
  } catch {
    return { gitDir: null, key: null };
  }
}

/** Whether team pulls are on: the `team` option, else AI_RECORDINGS_TEAM. */
export function teamOn(options = {}) {
  return options.team !== undefined ? options.team === true : settingsOf(envOf(options)).team === true;
}

/**
 * A recall service for the recordings file `options` resolve to ({file, env, cwd, team, spawn, held: kept for
 * many searches, index.js}). The index is opened on first use (or by `open()`) and kept open. `find(query, {scope, limit, session, includeSession, cwd, now})` and
 * `hint(failure, {session, cwd, now})` resolve to { hits, gitDir, caught, team } (caught: what catching up
 * found; team: the team state when team pulls are on, else null).
 */
export function createRecall(options = {}) {
  let opened = null;
  const index = () => (opened ??= openIndex(options));
  const team = teamOn(options);
  // A held index answers many searches: the words' stems and counts are kept between them.
  const memo = options.held ? countMemo() : null;
  async function run(query, o, mode) {
    try {
      return await attempt(query, o, mode);
    } catch (e) {
      if (!isUnreadable(e)) throw e;
      // A damaged index (its writes are not fsynced: schema.js) found mid-use: made again from the files.
      (await opened?.catch(() => null))?.discard();
      opened = null;
      return attempt(query, o, mode);
    }
  }
  async function attempt(query, o, mode) {
    const ix = await index();
    const caught = ix.catchUp({ onProgress: o.onProgress });
    const cwd = o.cwd ?? options.cwd;
    const repo = o.gitDir !== undefined ? { gitDir: o.gitDir, key: o.repoKey ?? null } : repoOf(cwd);
    const gitDir = repo.gitDir;
    const teamState = team ? readTeamState(ix.path) : null;
    if (team) await startAutoPull(ix, { state: teamState, env: options.env, cwd, now: o.now, spawn: options.spawn });
    // A hint is about this repository's past; outside one there is nothing to hint from.
    if (mode === "hint" && !gitDir) return { hits: [], gitDir, caught, index: ix.path, team: teamState };
    const { hits } = (query === null ? recent : search)(ix.db, query, {
      mode,
      scope: o.scope,
      gitDir,
      repoKey: repo.key,
      limit: o.limit,
      session: o.session,
      includeSession: o.includeSession,
      now: o.now,
      memo,
    });
    return { hits, gitDir, caught, index: ix.path, team: teamState };
  }
  return {
    /** Opens the index ahead of the first search (an index that cannot be opened is left to it to report). */
    open: async () => {
      await index().catch(() => {
        opened = null;
      });
    },
    find: (text, o = {}) => run(text, o, "recall"),
    hint: (failure, o = {}) => run(failureQuery(failure), { ...o, scope: "repo", limit: o.limit ?? 3 }, "hint"),
    async close() {
      if (opened) (await opened.catch(() => null))?.close();
      opened = null;
    },
  };
}
