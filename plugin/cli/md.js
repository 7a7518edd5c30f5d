// `record md`: see its help text below.

import { CursorError, entriesMarkdown } from "../read/index.js";
import { UsageError } from "./args.js";
import { FILTER_HELP, FILTER_OPTIONS, TARGET_HELP, TARGET_OPTIONS, commandArgs, count, makeReader } from "./filters.js";
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
  -h, --help         show this help

${FILTER_HELP}
`;

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
    }, io);
    if (!opts) return 0;
    opts.last = count(opts.last, "--last");
    opts.limit = count(opts.limit, "--limit");
    reader = makeReader(opts, io, { since: opts.since ?? null });
  } catch (e) {
    if (e instanceof UsageError || e instanceof CursorError) return usage(io.stderr, "md", e);
    throw e;
  }
  let texts = [];
  for (const r of reader.records()) {
    texts.push(r.text);
    if (opts.last !== undefined && texts.length > opts.last * 2 + 64) texts = texts.slice(-opts.last);
    if (opts.limit !== undefined && texts.length >= opts.limit && opts.last === undefined) break;
  }
  if (opts.last !== undefined) texts = opts.last === 0 ? [] : texts.slice(-opts.last);
  if (opts.limit !== undefined) texts = texts.slice(0, opts.limit);
  const out = streamWriter(io.stdout);
  out.write(entriesMarkdown(texts, { title: opts.title }));
  await out.flush();
  noFileNote(io.stderr, reader);
  reportTrouble(io.stderr, reader);
  return 0;
}

