// How recall orders and cuts its hits. Pure: numbers in, numbers out; the tables in tests/js/recall-rank.test.js
// hold what these weights must achieve on realistic entries.
//
// The text score is FTS5's BM25, made comparable across queries and index sizes:
//  - a recall's `relevance` is the BM25 score over the best a one-occurrence match of every query word could
//    score (the sum of their IDFs), so it reads as "how much of what was asked this entry covers";
//  - a hint's `evidence` is the BM25 score in units of one word seen in a single entry (in two when the session
//    has captured the failure automatically: its words are in that capture too), so it reads as "how many rare
//    words of the failure this entry shares" (a failure's text is long; coverage of it means little).
// Then boosts for what matters here, multiplied in.

/** BM25 column weights: the files and commands an entry names count twice its prose. */
export const COLUMN_WEIGHTS = [1, 2];

export const BOOSTS = {
  /** An entry from another repository than the one worked in (scope "all") counts this share. */
  otherRepo: 0.75,
  /** A teammate's entry (a team row) of the same repository counts this share: just below this machine's own
   *  when both match equally, far above another repository's. */
  teammate: 0.95,
  /** The same in a hint, where it only keeps this machine's lesson first when both match: a teammate's lesson is
   *  as much evidence about the failure, and at the bar a smaller share drops it where the same words would pass. */
  hintTeammate: 0.99,
  /** Per file named by both the query and the entry (two at most). */
  sharedFile: 0.3,
  /** The same for a hint: a file a failure and a lesson both name is what a failure's words rarely are, specific. */
  hintSharedFile: 0.6,
  /** Per command named by both (two at most). */
  sharedCommand: 0.2,
  /** An entry someone wrote on purpose (an agent's or a person's lesson), over an automatic capture. */
  written: 1.3,
  /** Recency: an entry keeps this share of its score however old... */
  oldFloor: 0.7,
  /** ...and the rest halves every this many days. */
  halfLifeDays: 90,
};

/** A recall shows hits whose boosted relevance reaches this. */
export const MIN_RELEVANCE = 0.5;
/** A hint needs this much boosted evidence: about two rare words in common. One shared word, however rare, is as
 *  often chance as it is the same failure. */
export const MIN_EVIDENCE = 2;
/** A hint shows the entries after the best only while they reach this share of its score: a runner-up far below
 *  the best shares the failure's common words, not its cause. */
export const RUNNER_UP = 0.5;

/** The hits a hint shows (best first, as search returns them): the best and the runners-up close to it. */
export function hintCut(hits) {
  const best = hits[0]?.score ?? 0;
  return hits.filter((h) => h.score >= RUNNER_UP * best);
}

/** FTS5's IDF of a word found in `n` of `total` entries (the same formula as its bm25(), floored as it is). */
export function idf(total, n) {
  const v = Math.log((total - n + 0.5) / (n + 0.5));
  return v > 0 ? v : 1e-6;
}

/** The best BM25 a query of words with these document counts can reach at one occurrence of each. */
export function ideal(total, counts) {
  return counts.reduce((s, n) => s + idf(total, n), 0);
}

/** How many of the names in `a` are in `b` too (the same path or the same base name), two at most. */
export function shared(a, b) {
  if (!a.length || !b.length) return 0;
  let n = 0;
  const base = (f) => f.replace(/^.*\//, "");
  for (const x of a) if (b.some((y) => y === x || base(y) === base(x))) n++;
  return Math.min(2, n);
}

/** The largest factor boost() can give any hit for `query` in `context`: a hit whose text score times this is
 *  below a cut cannot reach it, so a search need not read it (each factor of boost() at its most). */
export function maxBoost(query, context) {
  const files = Math.min(2, query.files.length);
  const commands = Math.min(2, query.commands.length);
  return (1 + (context.hint ? BOOSTS.hintSharedFile : BOOSTS.sharedFile) * files) * (1 + BOOSTS.sharedCommand * commands) * BOOSTS.written;
}

/**
 * The factor a hit's text score is multiplied by. `hit` = { git_dir, capture, t, files: [], commands: [],
 * machine, team_key (team rows) }; `query` = { files: [], commands: [] }; `context` = { gitDir, repoKey, now,
 * hint } (hint: scoring a failure's query).
 */
export function boost(hit, query, context) {
  let f = 1;
  if (hit.machine) {
    f *= context.hint ? BOOSTS.hintTeammate : BOOSTS.teammate;
    if (context.gitDir && !(context.repoKey && hit.team_key === context.repoKey)) f *= BOOSTS.otherRepo;
  } else if (context.gitDir && hit.git_dir !== context.gitDir) f *= BOOSTS.otherRepo;
  f *= 1 + (context.hint ? BOOSTS.hintSharedFile : BOOSTS.sharedFile) * shared(query.files, hit.files);
  f *= 1 + BOOSTS.sharedCommand * shared(query.commands, hit.commands);
  if (hit.capture && hit.capture !== "auto") f *= BOOSTS.written;
  if (typeof hit.t === "number" && typeof context.now === "number") {
    const days = Math.max(0, (context.now - hit.t) / 86_400_000);
    f *= BOOSTS.oldFloor + (1 - BOOSTS.oldFloor) * Math.pow(0.5, days / BOOSTS.halfLifeDays);
  }
  return f;
}
