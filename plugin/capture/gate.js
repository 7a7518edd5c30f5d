// The gate classifier: which shell commands are tests, builds, lints, type checks or format checks, whose
// failure is worth an automatic entry.

import { segments } from "./command.js";

/**
 * Commands that are gates: tests, builds, lints, type checks, format checks. Each is the program names it can
 * start with and a regular expression for the rest, matched at the start of one normalised segment of a command
 * line (see `gateSegments`), so `npm test`, `cd web && npm run lint` and `cargo test 2>&1 | tail` are all gates
 * while `npm install` or `grep` are not. The names let a segment skip every pattern it cannot match: a regular
 * expression is compiled when first used, and a hook process that classifies one command would otherwise pay
 * for compiling all of them.
 */
const DEFAULT_GATES = [
  [["cargo"], String.raw`\s+(\+\S+\s+)?(test|t|build|b|check|c|clippy|nextest|bench|doc|miri)\b`],
  [["cargo"], String.raw`\s+(\+\S+\s+)?fmt\b.*--check`],
  [["npm", "pnpm", "yarn", "bun"], String.raw`(\s+--?\S+)*\s+(test|t|build|lint|typecheck|check)\b`],
  [["npm", "pnpm", "yarn", "bun"], String.raw`(\s+--?\S+)*\s+run(-script)?\s+(test|build|lint|typecheck|type-check|tsc|check|e2e|ci|verify|(format|fmt)[:-]check)\b`],
  [["jest", "vitest", "mocha", "ava", "tap", "c8", "nyc", "karma", "jasmine"], String.raw`\b`],
  [["playwright", "cypress"], String.raw`\s+(test|run)\b`],
  [["tsc", "vue-tsc", "svelte-check", "eslint", "oxlint", "stylelint", "standard", "xo", "tslint"], String.raw`\b`],
  [["biome"], String.raw`\s+(check|lint|ci|format\b.*--check)\b`],
  [["prettier"], String.raw`\b.*(--check|--list-different|\s-c\b|\s-l\b)`],
  [["pytest", "py.test", "tox", "nox", "mypy", "pyright", "basedpyright", "flake8", "pylint", "pyflakes", "bandit", "unittest"], String.raw`\b`],
  [["ruff"], String.raw`(?!\s+format)\b`],
  [["ruff"], String.raw`\s+format\b.*--check`],
  [["black", "isort"], String.raw`\b.*--check`],
  [["go"], String.raw`\s+(test|build|vet)\b`],
  [["golangci-lint", "staticcheck"], String.raw`\b`],
  [["gofmt"], String.raw`\s+-l\b`],
  [["make", "gmake"], String.raw`(\s+-\S+)*(\s+\S+=\S*)*(\s+(test|tests|check|build|lint|all|ci|verify)\b.*)?$`],
  [["gradle", "gradlew"], String.raw`\b.*\b(test|check|build|assemble)\b`],
  [["mvn", "mvnw"], String.raw`\b.*\b(test|verify|package|install|compile)\b`],
  [["dotnet", "swift"], String.raw`\s+(test|build)\b`],
  [["zig"], String.raw`\s+build\b`],
  [["ctest", "rspec", "phpunit", "pest", "shellcheck"], String.raw`\b`],
  [["meson", "ninja"], String.raw`\s+(test|-C\s+\S+\s+test)\b`],
  [["rake"], String.raw`\s+(test|spec)\b`],
  [["mix"], String.raw`\s+(test|compile|credo|format\s+--check-formatted)\b`],
  [["stack", "cabal"], String.raw`\s+(test|build)\b`],
  [["dune"], String.raw`\s+(test|build|runtest)\b`],
  [["deno"], String.raw`\s+(test|lint|check|fmt\b.*--check)\b`],
  [["composer"], String.raw`\s+(test|lint|check)\b`],
];

// Only "." (py.test) needs escaping among the names.
const escapeName = (name) => name.split(".").join("\\.");

/** The default gate patterns as strings (what `gateDefaults: false` leaves out, and what docs list). */
export const DEFAULT_GATE_PATTERNS = DEFAULT_GATES.map(([names, rest]) =>
  names.length === 1 ? escapeName(names[0]) + rest : `(${names.map(escapeName).join("|")})${rest}`,
);
/** Default pattern string → { names: the program names it can start with, re: compiled when first needed }. */
const DEFAULTS = new Map(DEFAULT_GATES.map(([names], i) => [DEFAULT_GATE_PATTERNS[i], { names, source: DEFAULT_GATE_PATTERNS[i], re: null }]));

/** The gate patterns from strings (or RegExps), anchored at the segment start; bad ones become warnings. A
 *  default pattern stays a string until a segment starts with one of its names (see DEFAULT_GATES). */
export function compileGatePatterns(list, warnings = []) {
  const out = [];
  for (const p of list) {
    if (p instanceof RegExp) {
      out.push(p);
      continue;
    }
    if (typeof p !== "string" || !p.trim()) continue;
    if (DEFAULTS.has(p)) {
      out.push(DEFAULTS.get(p));
      continue;
    }
    try {
      out.push(new RegExp(`^(?:${p.trim()})`));
    } catch (e) {
      warnings.push(`gate pattern ignored: ${p} (${e.message})`);
    }
  }
  return out;
}

/** The segments the patterns are matched against: plugin/capture/command.js (one rule for every caller). */
export { segments as gateSegments };

let defaultPatterns = null;

/** Whether any segment of `command` is a gate. `patterns` come from compileGatePatterns (resolveOptions does
 *  that); the defaults when absent. */
export function isGate(command, patterns) {
  const list = patterns ?? (defaultPatterns ??= compileGatePatterns(DEFAULT_GATE_PATTERNS));
  for (const seg of segments(command)) {
    for (const p of list) {
      if (!p.names) {
        if (p.test(seg)) return true; // a RegExp, or anything else with test()
        continue;
      }
      if (!p.names.some((n) => startsWithName(seg, n))) continue;
      if ((p.re ??= new RegExp(`^(?:${p.source})`)).test(seg)) return true;
    }
  }
  return false;
}

/** Whether `seg` starts with program name `name` followed by the end or a character that is not a word
 *  character: what every default pattern's rest needs (`\s`, `\b`, `$` or a look-ahead followed by `\b`). */
function startsWithName(seg, name) {
  if (!seg.startsWith(name)) return false;
  const next = seg.charCodeAt(name.length);
  return Number.isNaN(next) || !isWordChar(next);
}

function isWordChar(c) {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}
