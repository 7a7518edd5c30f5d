// What the reading subcommands share on the way out: streams with back-pressure, the io seam, and telling
// stderr about damaged lines and unread tails.

/** Buffers text for a stream and honours its back-pressure (a pipe to `head` or `less`). */
export function streamWriter(stream) {
  let parts = [];
  let size = 0;
  const state = { broken: false };
  // A reader that went away (`record read | head`) is not an error of ours: stop writing, exit quietly.
  if (typeof stream.on === "function") stream.on("error", () => (state.broken = true));
  const push = async () => {
    if (!parts.length || state.broken) {
      parts = [];
      size = 0;
      return;
    }
    const text = parts.join("");
    parts = [];
    size = 0;
    const ok = stream.write(text);
    if (ok === false && typeof stream.once === "function") {
      await new Promise((resolve) => {
        const done = () => {
          stream.off?.("drain", done);
          stream.off?.("error", done);
          resolve();
        };
        stream.once("drain", done);
        stream.once("error", done);
      });
    }
  };
  return {
    write(s) {
      parts.push(s);
      size += s.length;
      return size >= 1 << 16;
    },
    flush: push,
    get broken() {
      return state.broken;
    },
  };
}

/** The streams, environment, working directory and clock a subcommand uses (a seam for tests). */
export function ioOf(io = {}) {
  return {
    stdout: io.stdout ?? process.stdout,
    stderr: io.stderr ?? process.stderr,
    env: io.env ?? process.env,
    cwd: io.cwd ?? process.cwd(),
    now: io.now ?? Date.now,
  };
}

/** A usage error: the message and a pointer to the subcommand's help on stderr; exit status 2. */
export function usage(stderr, cmd, e) {
  stderr.write(`record ${cmd}: ${e.message}. See record ${cmd} --help.\n`);
  return 2;
}

/** Tells stderr about damaged lines (the first few one by one, then a summary), notes and unread tails. */
export function reportTrouble(stderr, reader, { quiet = false } = {}) {
  const SHOW = 10;
  const lines = [];
  reader.damage.slice(0, SHOW).forEach((d) => {
    lines.push(`record: skipped a damaged line (${d.reason}) in ${d.segment} at byte ${d.offset}: ${d.preview}`);
  });
  if (reader.damage.length) {
    const segs = new Set(reader.damage.map((d) => d.segment)).size;
    const more = reader.damage.length > SHOW ? ` (the first ${SHOW} are listed above)` : "";
    lines.push(`record: ${reader.damage.length} damaged line(s) in ${segs} file(s) were skipped${more}`);
  }
  for (const p of reader.pending) {
    if (quiet && !p.archive) continue;
    lines.push(
      `record: ${p.segment} ends in an unfinished line (${p.length} bytes at byte ${p.offset}): a write in progress, ` +
        `or a line torn by a crash; it is read once it ends`,
    );
  }
  for (const n of reader.notes) lines.push(`record: note: ${n}`);
  if (lines.length) stderr.write(lines.join("\n") + "\n");
}

export function noFileNote(stderr, reader) {
  if (reader.stats.segments === 0 && reader.notes.length === 0) {
    stderr.write(`record: no recordings at ${reader.file} yet\n`);
  }
}

