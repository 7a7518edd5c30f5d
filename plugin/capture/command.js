// The identity of a command: how a shell command line is cut into segments and what makes two runs "the same
// command". The gate classifier matches segments; the red-to-green memory matches keys. The core's failure
// fingerprint (crate/src/fingerprint/) normalises commands by the same rule, held to it by a shared table of
// cases (tests/fixtures/commands.json).

// Wrappers stripped from the start of a segment before matching: env assignments, `sudo`, `time`, runners
// that just exec their argument (npx, bunx, pnpm exec/dlx, yarn dlx, uv run, poetry run, python -m, ...). Each
// with the first words it can start with, so a segment is matched only against the expressions that can
// apply: an expression is compiled when first used, and a hook process normalises one command.
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=("[^"]*"|'[^']*'|\S*)\s+/;
const WRAPPERS = new Map([
  ...["sudo", "time", "nice", "nohup", "command", "exec", "builtin"].map((w) => [w, /^(sudo|time|nice|nohup|command|exec|builtin)\s+/]),
  ["env", /^env(\s+-\S+)*\s+/],
  ["timeout", /^timeout(\s+-\S+)*\s+\S+\s+/],
  ...["npx", "bunx", "pnpx"].map((w) => [w, /^(npx|bunx|pnpx)(\s+-\S+)*\s+/]),
  ...["pnpm", "yarn", "npm"].map((w) => [w, /^(pnpm|yarn|npm)\s+(exec|dlx|x)(\s+-\S+)*\s+/]),
  ...["uv", "poetry", "pipenv", "pdm", "hatch", "rye"].map((w) => [w, /^(uv|poetry|pipenv|pdm|hatch|rye)\s+run(\s+-\S+)*\s+/]),
  ["bundle", /^bundle\s+exec\s+/],
]);
const PYTHON_M = /^python[0-9.]*\s+-m\s+/;
const SUBSHELL = /^\(\s*/;

/** `seg` without the one wrapper it starts with, or as it is. */
function unwrapOnce(seg) {
  if (seg.startsWith("(")) return seg.replace(SUBSHELL, "");
  const word = seg.slice(0, firstSpace(seg));
  if (word.includes("=")) return seg.replace(ASSIGNMENT, "");
  const re = WRAPPERS.get(word);
  if (re) return seg.replace(re, "");
  if (word.startsWith("python")) return seg.replace(PYTHON_M, "");
  return seg;
}

/** The index of the first whitespace character of `s` (as `\s` has it), or its length. */
function firstSpace(s) {
  const at = s.search(/\s/);
  return at < 0 ? s.length : at;
}

/** Splits a command line into segments at `&&`, `||`, `;`, `|` and newlines, and normalises each: leading
 *  wrappers removed, a path on the program name reduced to its base name (`./gradlew`, `.venv/bin/pytest`).
 *  Quotes are not parsed: a separator inside quotes only makes an extra segment, which is harmless here. */
export function segments(command) {
  if (typeof command !== "string") return [];
  const out = [];
  for (let seg of command.split(/&&|\|\||[;|\n]/)) {
    seg = seg.trim();
    for (let i = 0; i < 160; i++) { // a bound for pathological input; real lines need a few
      const next = unwrapOnce(seg);
      if (next === seg) break;
      seg = next;
    }
    if (seg.slice(0, firstSpace(seg)).includes("/")) seg = seg.replace(/^(\S*\/)([^\s/]+)/, "$2");
    if (seg) out.push(seg);
  }
  return out;
}

// The key's rule, as crate/src/fingerprint/ has it: whitespace collapsed; leading assignments and the
// time/env/nice/nohup/command/timeout wrappers removed; the working directory, temporary paths and home
// directories replaced.
const KEY_WRAPPER = /^(?:[A-Za-z_][A-Za-z0-9_]*=(?:"[^"]*"|'[^']*'|\S*)\s+|(?:time|env|nice|nohup|command)\s+|timeout(?:\s+-\S+)*\s+\S+\s+)/;
const KEY_WORDS = new Set(["time", "env", "nice", "nohup", "command", "timeout"]);
const TEMP = /(?:\/private)?(?:\/tmp|\/var\/tmp|\/var\/folders|\/dev\/shm)(?:\/[^\s:'")\]]*)?/g;
const HOME = /(?:\/home|\/Users)\/[^/\s:'"]+|\/root\b/g;

/** The key two runs of "the same command" share, given the directory it ran in. */
export function commandKey(command, workdir = "") {
  if (typeof command !== "string") return "";
  let s = command.split(/\s+/).filter(Boolean).join(" ");
  for (;;) {
    const word = s.slice(0, firstSpace(s));
    if (!word.includes("=") && !KEY_WORDS.has(word)) break;
    const next = s.replace(KEY_WRAPPER, "");
    if (next === s) break;
    s = next;
  }
  const wd = typeof workdir === "string" ? workdir.replace(/\/+$/, "") : "";
  if (wd.length > 1) s = s.split(wd).join("<repo>");
  // Asked only when the text can hold what they replace (see WRAPPERS on why).
  if (s.includes("/tmp") || s.includes("/var/") || s.includes("/dev/shm")) s = s.replace(TEMP, "<tmp>");
  if (s.includes("/home/") || s.includes("/Users/") || s.includes("/root")) s = s.replace(HOME, "~");
  return s;
}
