// `record show`: see its help text below.

import { entryMarkdown, findEntries } from "../read/index.js";
import { UsageError } from "./args.js";
import { commandArgs } from "./prologue.js";
import { ioOf, streamWriter, usage } from "./output.js";

export const HELP = `record show - one entry as Markdown, for pasting into a review

Usage: record show [OPTIONS] EID...

EID is an entry id (the "eid" member), or a prefix of at least 4 characters of one. The main file is
searched first, then the quarantine file. Exit status 1 when no entry has that id.

Options:
  --file PATH        the recordings file (default: env AI_RECORDINGS_FILE, else ~/git/ai_recordings.jsonl)
  --json             print the entry's line as stored instead of Markdown
  -h, --help         show this help
`;

/** record show */
export async function show(argv, io0) {
  const io = ioOf(io0);
  let opts;
  try {
    opts = commandArgs(HELP, argv, { "--file": { key: "file" } }, io, { positional: true });
    if (!opts) return 0;
    if (!opts.positional.length) throw new UsageError("which entry? give its eid");
    for (const eid of opts.positional) {
      if (eid.length < 4) throw new UsageError(`"${eid}" is too short: give the eid or at least its first 4 characters`);
    }
  } catch (e) {
    if (e instanceof UsageError) return usage(io.stderr, "show", e);
    throw e;
  }
  const out = streamWriter(io.stdout);
  let status = 0;
  let first = true;
  for (const eid of opts.positional) {
    const found = findEntries(eid, { file: opts.file, env: io.env, cwd: io.cwd, now: io.now });
    if (!found.records.length) {
      // A teammate's entry is in no file here, only in the recall index `record sync` filled.
      const team = await (await import("../recall/show.js")).teamEntries(eid, { file: opts.file, env: io.env, cwd: io.cwd });
      if (team.length === 1) {
        if (!first) out.write("\n");
        first = false;
        const [t] = team;
        out.write(opts.json ? t.line + "\n" : `${entryMarkdown(t.line)}\n_A teammate's entry: exported by ${t.host ?? "?"} (machine ${t.machine}), pulled by record sync; in no file here._\n`);
        continue;
      }
      io.stderr.write(`record show: no entry with eid ${eid}\n`);
      status = 1;
      continue;
    }
    if (found.ambiguous) {
      const ids = [...new Set(found.records.map((r) => r.entry.eid))];
      io.stderr.write(`record show: "${eid}" is the beginning of ${ids.length} eids (${ids.slice(0, 5).join(", ")}); give more of it\n`);
      status = 1;
      continue;
    }
    for (const r of found.records) {
      if (opts.json) {
        out.write(r.text + "\n");
        continue;
      }
      if (!first) out.write("\n");
      first = false;
      out.write(entryMarkdown(r.text));
      if (r.quarantine) out.write(`\n_From the quarantine file ${"`"}${r.segment}${"`"}._\n`);
      // Entries that correct this one (or that it corrects), from the recall index where there is one.
      if (typeof r.entry.eid === "string") out.write(await (await import("../recall/show.js")).relatedMarkdown(r.entry.eid, { file: opts.file, env: io.env, cwd: io.cwd }));
    }
  }
  await out.flush();
  return status;
}

