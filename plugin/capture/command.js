// The identity of a command: how a shell command line is cut into segments and what makes two runs "the same
// command". The gate classifier matches segments; the red-to-green memory matches keys. The core's failure
// fingerprint (crate/src/fingerprint/) normalises commands by the same rule, held to it by a shared table of
// cases (tests/fixtures/commands.json).

// Wrappers stripped from the start of a segment before matching: env assignments, `sudo`, `time`, runners
// that just exec their argument (npx, bunx, pnpm exec/dlx, yarn dlx, uv run, poetry run, python -m, ...).
const WRAPPERS = [
  /^[A-Za-z_][A-Za-z0-9_]*=("[^"]*"|'[^']*'|\S*)\s+/,
  /^(sudo|time|nice|nohup|command|exec|builtin)\s+/,
  /^env(\s+-\S+)*\s+/,
  /^timeout(\s+-\S+)*\s+\S+\s+/,
  /^(npx|bunx|pnpx)(\s+-\S+)*\s+/,
  /^(pnpm|yarn|npm)\s+(exec|dlx|x)(\s+-\S+)*\s+/,
  /^(uv|poetry|pipenv|pdm|hatch|rye)\s+run(\s+-\S+)*\s+/,
  /^bundle\s+exec\s+/,
  /^python[0-9.]*\s+-m\s+/,
  /^\(\s*/,
];

/** Splits a command line into segments at `&&`, `||`, `;`, `|` and newlines, and normalises each: leading
 *  wrappers removed, a path on the program name reduced to its base name (`./gradlew`, `.venv/bin/pytest`).
 *  Quotes are not parsed: a separator inside quotes only makes an extra segment, which is harmless here. */
export function segments(command) {
  if (typeof command !== "string") return [];
  const out = [];
  for (let seg of command.split(/&&|\|\||[;|\n]/)) {
    seg = seg.trim();
    for (let i = 0; i < 16; i++) {
      const before = seg;
      for (const w of WRAPPERS) seg = seg.replace(w, "");
      if (seg === before) break;
    }
    seg = seg.replace(/^(\S*\/)([^\s/]+)/, "$2");
    if (seg) out.push(seg);
  }
  return out;
}

// The key's rule, as crate/src/fingerprint/ has it: whitespace collapsed; leading assignments and the
// time/env/nice/nohup/command/timeout wrappers removed; the working directory, temporary paths and home
// directories replaced.
const KEY_WRAPPER = /^(?:[A-Za-z_][A-Za-z0-9_]*=(?:"[^"]*"|'[^']*'|\S*)\s+|(?:time|env|nice|nohup|command)\s+|timeout(?:\s+-\S+)*\s+\S+\s+)/;
const TEMP = /(?:\/private)?(?:\/tmp|\/var\/tmp|\/var\/folders|\/dev\/shm)(?:\/[^\s:'")\]]*)?/g;
const HOME = /(?:\/home|\/Users)\/[^/\s:'"]+|\/root\b/g;

/** The key two runs of "the same command" share, given the directory it ran in. */
export function commandKey(command, workdir = "") {
  if (typeof command !== "string") return "";
  let s = command.split(/\s+/).filter(Boolean).join(" ");
  for (;;) {
    const next = s.replace(KEY_WRAPPER, "");
    if (next === s) break;
    s = next;
  }
  const wd = typeof workdir === "string" ? workdir.replace(/\/+$/, "") : "";
  if (wd.length > 1) s = s.split(wd).join("<repo>");
  return s.replace(TEMP, "<tmp>").replace(HOME, "~");
}
