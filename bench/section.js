// One bench's section of BENCHMARKS.md: the text between its two markers is replaced, markers included (the
// section is appended when they are missing); every other section stays as it is.
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const BENCHMARKS = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "BENCHMARKS.md");

/** Writes `section` (which begins with `start` and ends with `end`) in place of the old one. */
export function writeSection(start, end, section, file = BENCHMARKS) {
  const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Benchmarks\n";
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  const next = a >= 0 && b > a ? text.slice(0, a) + section + text.slice(b + end.length) : text.replace(/\n*$/, "\n\n") + section + "\n";
  fs.writeFileSync(file, next);
}
