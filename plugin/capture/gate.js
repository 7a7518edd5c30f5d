// The gate classifier: which shell commands are tests, builds, lints, type checks or format checks, whose
// failure is worth an automatic entry.

import { segments } from "./command.js";

/**
 * Commands that are gates: tests, builds, lints, type checks, format checks. Each is a regular expression
 * matched at the start of one normalised segment of a command line (see `gateSegments`), so `npm test`,
 * `cd web && npm run lint` and `cargo test 2>&1 | tail` are all gates while `npm install` or `grep` are not.
 */
export const DEFAULT_GATE_PATTERNS = [
  String.raw`cargo\s+(\+\S+\s+)?(test|t|build|b|check|c|clippy|nextest|bench|doc|miri)\b`,
  String.raw`cargo\s+(\+\S+\s+)?fmt\b.*--check`,
  String.raw`(npm|pnpm|yarn|bun)(\s+--?\S+)*\s+(test|t|build|lint|typecheck|check)\b`,
  String.raw`(npm|pnpm|yarn|bun)(\s+--?\S+)*\s+run(-script)?\s+(test|build|lint|typecheck|type-check|tsc|check|e2e|ci|verify|(format|fmt)[:-]check)\b`,
  String.raw`(jest|vitest|mocha|ava|tap|c8|nyc|karma|jasmine)\b`,
  String.raw`(playwright|cypress)\s+(test|run)\b`,
  String.raw`(tsc|vue-tsc|svelte-check|eslint|oxlint|stylelint|standard|xo|tslint)\b`,
  String.raw`biome\s+(check|lint|ci|format\b.*--check)\b`,
  String.raw`prettier\b.*(--check|--list-different|\s-c\b|\s-l\b)`,
  String.raw`(pytest|py\.test|tox|nox|mypy|pyright|basedpyright|flake8|pylint|pyflakes|bandit|unittest)\b`,
  String.raw`ruff(?!\s+format)\b`,
  String.raw`ruff\s+format\b.*--check`,
  String.raw`(black|isort)\b.*--check`,
  String.raw`go\s+(test|build|vet)\b`,
  String.raw`(golangci-lint|staticcheck|gofmt\s+-l)\b`,
  String.raw`g?make(\s+-\S+)*(\s+\S+=\S*)*(\s+(test|tests|check|build|lint|all|ci|verify)\b.*)?$`,
  String.raw`(gradle|gradlew)\b.*\b(test|check|build|assemble)\b`,
  String.raw`mvnw?\b.*\b(test|verify|package|install|compile)\b`,
  String.raw`(dotnet|swift)\s+(test|build)\b`,
  String.raw`zig\s+build\b`,
  String.raw`(ctest|rspec|phpunit|pest|shellcheck)\b`,
  String.raw`(meson|ninja)\s+(test|-C\s+\S+\s+test)\b`,
  String.raw`rake\s+(test|spec)\b`,
  String.raw`mix\s+(test|compile|credo|format\s+--check-formatted)\b`,
  String.raw`(stack|cabal)\s+(test|build)\b`,
  String.raw`dune\s+(test|build|runtest)\b`,
  String.raw`deno\s+(test|lint|check|fmt\b.*--check)\b`,
  String.raw`composer\s+(test|lint|check)\b`,
];

/** Compiles pattern strings (or RegExps) anchored at the segment start; bad ones become warnings. */
export function compileGatePatterns(list, warnings = []) {
  const out = [];
  for (const p of list) {
    if (p instanceof RegExp) {
      out.push(p);
      continue;
    }
    if (typeof p !== "string" || !p.trim()) continue;
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

/** Whether any segment of `command` is a gate. `patterns` are compiled RegExps (resolveOptions does that). */
export function isGate(command, patterns) {
  const list = patterns ?? DEFAULT_PATTERNS_COMPILED;
  for (const seg of segments(command)) {
    for (const re of list) if (re.test(seg)) return true;
  }
  return false;
}
const DEFAULT_PATTERNS_COMPILED = compileGatePatterns(DEFAULT_GATE_PATTERNS);
