// The options the reading subcommands share: which file and which entries (filters), and the reader they make.
// Each subcommand's arguments go through cli/prologue.js.

import { RecordingsReader, parseTime } from "../read/index.js";
import { UsageError } from "./args.js";

export const FILTER_HELP = `Filters (repeat one to accept any of its values; different filters must all match):
  --session ID       entries of this opencode session
  --repo NAME        entries whose repo, origin or git_dir is NAME
  --capture HOW      cli, agent, auto or mcp
  --kind KIND        entries whose kind, trigger (automatic captures) or category is KIND (any case)
  --since-time T     entries at or after T: an ISO time ("2026-11-29", "2026-11-29T08:00Z") or an
                     age ("90m", "12h", "7d", "2w")
  --until-time T     entries before T (same forms)`;

export const TARGET_HELP = `  --file PATH        the recordings file (default: env AI_RECORDINGS_FILE, else ~/git/ai_recordings.jsonl)
  --quarantine       read <stem>.quarantine.jsonl (what could not be kept in the main file) instead`;

export const FILTER_OPTIONS = {
  "--session": { key: "session", multi: true },
  "--repo": { key: "repo", multi: true },
  "--capture": { key: "capture", multi: true },
  "--kind": { key: "kind", multi: true },
  "--since-time": { key: "sinceTime" },
  "--until-time": { key: "untilTime" },
};
export const TARGET_OPTIONS = { "--file": { key: "file" }, "--quarantine": { key: "quarantine", flag: true } };
/** The reader filter the options ask for. */
export function filterOf(opts, now) {
  const f = {};
  for (const o of Object.values(FILTER_OPTIONS)) if (opts[o.key] !== undefined) f[o.key] = opts[o.key];
  for (const k of ["sinceTime", "untilTime"]) {
    if (f[k] !== undefined && Number.isNaN(parseTime(f[k], now))) {
      throw new UsageError(`--${k === "sinceTime" ? "since" : "until"}-time: "${f[k]}" is neither a time (2026-11-29T08:00Z) nor an age (12h, 7d)`);
    }
  }
  return f;
}

/** A reader over the file and filters the options name. */
export function makeReader(opts, io, extra = {}) {
  return new RecordingsReader({
    file: opts.file,
    quarantine: opts.quarantine,
    env: io.env,
    cwd: io.cwd,
    now: io.now,
    filter: filterOf(opts, io.now()),
    ...extra,
  });
}

