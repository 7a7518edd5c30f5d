// The gate classifier: which shell commands are tests, builds, lints, type checks or format checks, whose
// failure is worth an automatic entry.

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
export function gateSegments(command) {
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

/** Whether any segment of `command` is a gate. `patterns` are compiled RegExps (resolveOptions does that). */
export function isGate(command, patterns) {
  const list = patterns ?? DEFAULT_PATTERNS_COMPILED;
  for (const seg of gateSegments(command)) {
    for (const re of list) if (re.test(seg)) return true;
  }
  return false;
}
const DEFAULT_PATTERNS_COMPILED = compileGatePatterns(DEFAULT_GATE_PATTERNS);
