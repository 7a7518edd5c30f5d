// The columns a derived store (the local recall index, an exported database) keeps beside each entry's exact
// line, so that one table shape serves both. The line is the record; these are only for querying. Which members
// are stamps rather than what an entry says: read/present.js.

import { segments } from "./capture/command.js";
import { STAMPS } from "./read/present.js";

/** The common string columns, in table order. Each is the entry's member of that name when it is a string. */
export const COLUMNS = ["ts", "capture", "trigger", "kind", "session", "model", "agent", "repo", "origin", "git_dir", "head", "branch"];

/** The common columns of a parsed entry: each a string or null. `kind` falls back to `category`, the other
 *  name agents use for what kind of observation an entry is. */
export function columnsOf(entry) {
  const out = {};
  for (const c of COLUMNS) out[c] = typeof entry?.[c] === "string" ? entry[c] : null;
  if (out.kind === null && typeof entry?.category === "string") out.kind = entry.category;
  return out;
}


/** Every string an entry says, in member order (nested objects and arrays included; keys and stamps not).
 *  `raw`, the verbatim input the core keeps beside what it read out of text, only when nothing else is said. */
export function contentStrings(entry) {
  const out = [];
  const walk = (v, depth) => {
    if (typeof v === "string") out.push(v);
    else if (v && typeof v === "object" && depth < 16) for (const x of Array.isArray(v) ? v : Object.values(v)) walk(x, depth + 1);
  };
  if (!entry || typeof entry !== "object") return out;
  const keys = Object.keys(entry).filter((k) => !STAMPS.has(k));
  const said = keys.some((k) => k !== "raw");
  for (const k of keys) if (k !== "raw" || !said) walk(entry[k], 0);
  return out;
}

// A file is a word with a known extension, or a path of several segments ending in one. Words are found by
// splitting (a regular expression scanning for paths backtracks at every position of a long output).
const FILE_WORD = /^(?:\.{0,2}\/)?(?:[\w@.+-]+\/)*[\w@+-][\w@.+-]*\.(?:[cm]?[jt]sx?|rs|py|go|rb|java|kt|swift|c|cc|cpp|h|hpp|cs|php|sh|ps1|toml|ya?ml|json[c5l]?|lock|md|txt|sql|proto|css|scss|html|vue|svelte|zig|ex|exs|erl|hs|ml|lua|dart|gradle|xml|ini|cfg|conf|env|tf|nix|wasm)$/;
const FILE_SPLIT = /[\s"'`()[\]<>=,;|{}]+/;
// Words that start a command worth naming when an entry quotes it in text.
const PROGRAMS = /^(cargo|npm|pnpm|yarn|bun|npx|bunx|node|deno|go|make|gmake|pytest|python3?|pip|uv|poetry|tox|ruff|mypy|tsc|eslint|prettier|jest|vitest|mocha|git|docker|kubectl|terraform|gradle|gradlew|mvn|dotnet|swift|zig|rustc|rustup|gcc|clang|cmake|ctest|meson|ninja|mix|rake|rspec|bundle|composer|psql|sqlite3|curl|opencode|claude|codex|record)$/;
// Shell steps that only set the scene for the command that matters.
const NOT_COMMANDS = /^(cd|pushd|popd|export|set|unset|source|\.|echo|printf|true|false|exit)$/;

/** A command line as the short key entries are matched on: per segment, cut and stripped of wrappers (sudo,
 *  env VAR=..., npx, timeout N, python -m) by the command identity's one rule (capture/command.js), the program's
 *  base name and its first word that is not an option ("cargo test", "npm run lint" → "npm run lint" keeps
 *  `run`'s script). */
export function commandKeys(line) {
  const out = [];
  if (typeof line !== "string") return out;
  for (const seg of segments(line)) {
    const words = seg.split(/\s+/).filter(Boolean);
    if (!words.length) continue;
    const prog = words[0].replace(/^.*\//, "");
    if (!/^[\w.+-]+$/.test(prog) || NOT_COMMANDS.test(prog)) continue;
    const rest = words.slice(1).filter((w) => !w.startsWith("-") && /^[\w:.@/-]+$/.test(w));
    const key = [prog, ...rest.slice(0, prog === "npm" || prog === "pnpm" || prog === "yarn" || prog === "bun" ? (rest[0] === "run" ? 2 : 1) : 1)];
    const k = key.join(" ").toLowerCase();
    if (!out.includes(k)) out.push(k);
  }
  return out;
}

/** Files named in a text (paths as written, "./" dropped; a trailing `:line:col` or punctuation is not part). */
export function filesIn(text) {
  const out = [];
  if (typeof text !== "string" || !text.includes(".")) return out;
  // Only a line with a dot can hold a file: the others are not cut into words (most of a long output).
  for (const line of text.includes("\n") ? text.split("\n") : [text]) {
    if (!line.includes(".")) continue;
    for (let w of line.split(FILE_SPLIT)) {
      if (w.length < 3 || w.length > 300 || !w.includes(".") || w.includes("://")) continue;
      w = w.replace(/(?::\d+)+:?$/, "").replace(/[.:!?]+$/, "");
      if (!FILE_WORD.test(w)) continue;
      const f = w.replace(/^\.\//, "");
      if (!/^\d+(\.\d+)+$/.test(f) && !out.includes(f)) out.push(f);
    }
  }
  return out;
}

/** Commands quoted in a text: backticked snippets, shell-prompt lines (`$ cargo test`), and a first line that
 *  starts with a known program ("npm run lint: eslint crashes ..."); each must start with a known program.
 *  Later lines of a long output are not read for commands: they are mostly the program's own words. */
export function commandsIn(text, keysOf = commandKeys) {
  const out = [];
  if (typeof text !== "string") return out;
  const add = (c) => {
    for (const k of keysOf(c)) if (PROGRAMS.test(k.split(" ")[0]) && !out.includes(k)) out.push(k);
  };
  if (text.includes("`")) for (const m of text.matchAll(/`([^`\n]{2,200})`/g)) add(m[1]);
  if (text.includes("$ ")) for (const m of text.matchAll(/^\s*\$ (.{2,200})$/gm)) add(m[1]);
  const first = text.slice(0, 200).split("\n", 1)[0].trim();
  if (PROGRAMS.test(first.split(/\s+/, 1)[0])) add(first.split(/[:;,]\s/, 1)[0]);
  return out;
}

/** Commands a free text names anywhere: from each known program word on ("why does cargo test fail" →
 *  "cargo test"), besides what commandsIn finds. For queries, where nothing is quoted. */
export function commandsNamed(text) {
  const out = commandsIn(text);
  if (typeof text !== "string") return out;
  const words = text.split(/\s+/);
  for (let i = 0; i < words.length; i++) {
    if (!PROGRAMS.test(words[i])) continue;
    const k = commandKeys(words.slice(i, i + 4).join(" "))[0];
    if (k && !out.includes(k)) out.push(k);
  }
  return out;
}

/** The files and commands an entry names: its `command`/`commands`/`cmd` and `file`/`files`/`path` members,
 *  and what its text quotes (`strings`, its contentStrings, when the caller has them). `commands` are
 *  commandKeys; `files` paths as written. */
export function namesOf(entry, strings = contentStrings(entry)) {
  const files = [];
  const commands = [];
  const push = (list, xs) => {
    for (const x of xs) if (!list.includes(x)) list.push(x);
  };
  if (!entry || typeof entry !== "object") return { files, commands };
  // An entry's command member is usually also one of its strings: its keys are worked out once.
  const keys = new Map();
  const keysOf = (c) => {
    let k = keys.get(c);
    if (k === undefined) keys.set(c, (k = commandKeys(c)));
    return k;
  };
  const each = (v, fn) => (Array.isArray(v) ? v.forEach(fn) : fn(v));
  for (const k of ["command", "commands", "cmd"]) {
    if (entry[k] !== undefined) each(entry[k], (v) => typeof v === "string" && push(commands, keysOf(v)));
  }
  for (const k of ["file", "files", "path", "paths"]) {
    if (entry[k] !== undefined) each(entry[k], (v) => typeof v === "string" && v.trim() && v.length < 512 && push(files, [v.trim().replace(/^\.\//, "")]));
  }
  for (const s of strings) {
    push(files, filesIn(s));
    push(commands, commandsIn(s, keysOf));
  }
  return { files: files.slice(0, 64), commands: commands.slice(0, 32) };
}
