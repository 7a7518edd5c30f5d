// Any text → the words a recall searches for. Nothing a user or a failing command types is interpreted: FTS5
// operators (AND, NEAR, *, ^, column filters) and quotes become plain words or vanish, and every word is
// quoted, so no query can fail to parse.

import { commandsNamed, filesIn } from "../columns.js";
import { failureBlockOf } from "../core.js";
import { PLACEHOLDER_WORD } from "./schema.js";

/** The most words one query keeps (a failure's output can hold thousands). */
export const MAX_TERMS = 48;

// Words too common in any English sentence to say what an entry is about.
const STOP = new Set(
  ("a an and are as at be been but by can could did do does doing for from had has have how i if in into is it its " +
    "me my no not of on or our so than that the their them then there these they this to too up us was we were what " +
    "when where which while who why will with would you your").split(" "),
);

// Letters, digits and combining marks: what SQLite's unicode61 tokenizer keeps together as one token. In ASCII
// text that is letters and digits, and the narrower pattern is used there: the Unicode classes are slow to
// compile at first use and even to create (BENCHMARKS.md, Recall), so that pattern is made only for text that
// needs it; most failures are ASCII.
let word = null;
const unicodeWord = () => (word ??= new RegExp("[\\p{L}\\p{N}\\p{M}]+", "gu"));
const ASCII_WORD = /[A-Za-z0-9]+/g;
const ASCII = /^[\x00-\x7f]*$/;

/** The distinct words of `text` worth searching for, lower-cased, in order, at most `max`: no stop words, no
 *  single characters, no short or very long bare numbers (line and column numbers, timings, sizes; a port or
 *  an error number stays). */
export function wordsOf(text, max = MAX_TERMS) {
  const out = [];
  if (typeof text !== "string") return out;
  for (const m of text.matchAll(ASCII.test(text) ? ASCII_WORD : unicodeWord())) {
    const w = m[0].toLowerCase();
    if (w.length < 2 || STOP.has(w) || w === PLACEHOLDER_WORD || /^\d{1,3}$|^\d{7,}$/.test(w) || out.includes(w)) continue;
    out.push(w);
    if (out.length >= max) break;
  }
  return out;
}

/** An FTS5 MATCH expression: any of the words, each a quoted string (they hold only letters and digits). */
export function matchExpression(words) {
  return words.map((w) => `"${w}"`).join(" OR ");
}

/** What a recall looks for: its words, and the files and commands it names (for the boosts). */
export function parseQuery(text) {
  const t = typeof text === "string" ? text : text == null ? "" : String(text);
  return { words: wordsOf(t), files: filesIn(t), commands: commandsNamed(t) };
}

// Without the core: lines of a tool's output that say what went wrong (tested with the files named in them
// taken out, so a `fail.js` or `errors.rs` in a path does not count).
const ERROR_LINE = /\b(?:error|fail|panic|exception|traceback|cannot|can't|could not|unable|not found|no such|undefined|denied|refused|timed? ?out|missing|invalid|unexpected|expected|mismatch|assert|abort|not ok)|EADDRINUSE|ENOENT|EACCES|[\u2717\u2715\u00d7]/i;
// A path with a directory part: named as a file for the boosts, not as words (src, lib, test say nothing).
const PATHISH = /(?:[\w@.+-]*\/)+[\w@.+-]+(?:[:(]\d+(?:[,:]\d+)*\)?)?/g;

/** Whether a line looks like it says what went wrong, the files named in it left out. */
function looksWrong(line) {
  return ERROR_LINE.test(filesIn(line).reduce((t, f) => t.split(f).join(" "), line));
}

/** The lines that say why a failure failed: the core's last failure block (crate/src/fingerprint/, the lines the
 *  fingerprint's signature is taken from), or, when the core cannot run, the error-looking lines (else the last
 *  lines). */
export function failureLines(text, linesOf = failureBlockOf) {
  const sig = linesOf(text);
  if (Array.isArray(sig)) return sig;
  const all = text.split("\n");
  const errs = all.filter(looksWrong);
  return errs.length ? errs : all.filter((l) => l.trim()).slice(-8);
}

// Words every failing build prints, whatever broke: sharing them says nothing about which failure it was.
const BUILD_WORDS = new Set(
  ("error errors fail failed failing failure failures test tests testing passed pass passing skipped pending " +
    "expected actual build building exit exited code status warning warnings line lines file files run running " +
    "ok total time finished done see above details more information").split(" "),
);

/** A failure block that leaves fewer words than this to search for is mostly a summary (`error: build failed`,
 *  `npm ERR!`): the block before it is searched too. */
export const FEW_WORDS = 8;

/** What a failure looks for: the words of its failure lines without the paths in them and without the words
 *  every build log has (and, when those are few, the words of the failure block before them), and the files and
 *  commands they and the command name. `failure` = { command, output, error }. */
export function failureQuery(failure = {}, linesOf = failureBlockOf) {
  const text = [failure.error, failure.output].filter((x) => typeof x === "string").join("\n");
  const block = failureLines(text, linesOf);
  let lines = block.join("\n");
  let words = searchable(lines);
  if (words.length < FEW_WORDS && block.length) {
    const before = blockBefore(text, block, linesOf);
    if (before.length) {
      lines = `${lines}\n${before.join("\n")}`;
      words = searchable(lines);
    }
  }
  const command = typeof failure.command === "string" ? failure.command : "";
  return {
    words,
    files: filesIn(lines).concat(filesIn(command)).slice(0, 32),
    commands: commandsNamed(command),
  };
}

/** The words of failure lines worth searching for: no paths, no words every build prints, at most MAX_TERMS. */
function searchable(lines) {
  return wordsOf(lines.replace(PATHISH, " "), MAX_TERMS * 2).filter((w) => !BUILD_WORDS.has(w)).slice(0, MAX_TERMS);
}

/** The failure block of the output before `block` (the core's, found where the block starts), or []: none (the
 *  core's last lines without a failure, such as a runner's header, are not one), the core cannot run, or it is
 *  the same block again. */
function blockBefore(text, block, linesOf) {
  const at = text.lastIndexOf(block[0]);
  const before = at > 0 ? linesOf(text.slice(0, at)) : null;
  if (!Array.isArray(before) || !before.some(looksWrong) || before.some((l) => block.includes(l))) return [];
  return before;
}
