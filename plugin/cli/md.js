// `record md`: see its help text below.

import { CursorError, entriesMarkdown, episodeState, foldEpisodes } from "../read/index.js";
import { episodeMarkdown } from "../read/episode-markdown.js";
import { UsageError } from "./args.js";
import { FILTER_HELP, FILTER_OPTIONS, TARGET_HELP, TARGET_OPTIONS, makeReader } from "./filters.js";
import { commandArgs, count } from "./prologue.js";
import { ioOf, noFileNote, reportTrouble, streamWriter, usage } from "./output.js";

export const HELP = `record md - recordings as Markdown, for pasting into a review

Usage: record md [OPTIONS] [FILTERS]

Each entry shows what was recorded (category, finding, result, lesson, note, sentiment exactly as
written, and any other member), when, where (repo, branch, head, working directory) and how (capture,
trigger, session, model, agent).

Options:
${TARGET_HELP}
  --since CURSOR     only entries after CURSOR (see record read --help)
  --last N           only the last N matching entries
  --limit N          only the first N matching entries
  --title TEXT       the document's heading (default "N recordings")
  --no-fold          show every run of a repeated automatic failure (by default the runs of one failure
                     fingerprint are one item: count, first and last time, heads, how it was resolved)
  -h, --help         show this help

${FILTER_HELP}
`;

/** The records with each failure episode's runs replaced by one item, where its first run was. */
function foldedItems(recs) {
  const { byEid } = foldEpisodes(recs);
  const byId = new Map(recs.filter((r) => typeof r.entry?.eid === "string").map((r) => [r.entry.eid, r.entry]));
  const shown = new Set();
  const items = [];
  for (const r of recs) {
    const ep = byEid.get(r.entry?.eid);
    if (!ep || !ep.eids.includes(r.entry.eid)) {
      items.push(r);
      continue;
    }
    if (shown.has(ep)) continue;
    shown.add(ep);
    items.push({ markdown: episodeMarkdown(ep, { entryOf: (eid) => byId.get(eid), state: episodeState(ep) }) });
  }
  return items;
}

/** record md */
export async function md(argv, io0) {
  const io = ioOf(io0);
  let opts;
  let reader;
  try {
    opts = commandArgs(HELP, argv, {
      ...TARGET_OPTIONS,
      ...FILTER_OPTIONS,
      "--since": { key: "since" },
      "--last": { key: "last" },
      "--limit": { key: "limit" },
      "--title": { key: "title" },
      "--no-fold": { key: "noFold", flag: true },
    }, io);
    if (!opts) return 0;
    opts.last = count(opts.last, "--last");
    opts.limit = count(opts.limit, "--limit");
    reader = makeReader(opts, io, { since: opts.since ?? null });
  } catch (e) {
    if (e instanceof UsageError || e instanceof CursorError) return usage(io.stderr, "md", e);
    throw e;
  }
  let recs = [];
  for (const r of reader.records()) {
    recs.push(r);
    if (opts.last !== undefined && recs.length > opts.last * 2 + 64) recs = recs.slice(-opts.last);
    if (opts.limit !== undefined && recs.length >= opts.limit && opts.last === undefined) break;
  }
  if (opts.last !== undefined) recs = opts.last === 0 ? [] : recs.slice(-opts.last);
  if (opts.limit !== undefined) recs = recs.slice(0, opts.limit);
  const out = streamWriter(io.stdout);
  out.write(entriesMarkdown(opts.noFold ? recs : foldedItems(recs), { title: opts.title, count: recs.length }));
  await out.flush();
  noFileNote(io.stderr, reader);
  reportTrouble(io.stderr, reader);
  return 0;
}

