// One parser per kind of value, for settings from the environment, plugin options and command-line flags
// alike: a switch, a count, a positive integer, a size in bytes, a duration, a list. Each returns undefined for
// a value it cannot read, so every caller can say which value it ignored.

const FALSE = /^(0|false|no|off|none)$/i;
const TRUE = /^(1|true|yes|on)$/i;

/** A switch: true, false, or undefined when unset, empty or unreadable. */
export function flag(value) {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "boolean") return value;
  const v = String(value).trim();
  if (FALSE.test(v)) return false;
  if (TRUE.test(v)) return true;
  return undefined;
}

/** A whole number ≥ 0 (a number, or decimal digits), else undefined. */
export function wholeNumber(value) {
  const n = typeof value === "number" ? value : /^\s*\d+\s*$/.test(String(value ?? "")) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** A positive integer (a number, or decimal digits), else undefined. */
export function positiveInt(value) {
  const n = wholeNumber(value);
  return n !== undefined && n > 0 ? n : undefined;
}

const BYTE_UNITS = { "": 1, b: 1, k: 1024, kb: 1024, kib: 1024, m: 1024 ** 2, mb: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3, gib: 1024 ** 3 };

/** A size in bytes: a positive number, or digits with a unit (`16k`, `16KiB`, `1.5M`, `2G`; binary multiples),
 *  else undefined. */
export function byteSize(value) {
  if (typeof value === "number") return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?i?b?)\s*$/i.exec(String(value ?? ""));
  if (!m || !Object.hasOwn(BYTE_UNITS, m[2].toLowerCase())) return undefined;
  const n = Math.floor(Number(m[1]) * BYTE_UNITS[m[2].toLowerCase()]);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

const MS = { ms: 1, s: 1e3, m: 60e3, h: 3600e3, d: 86400e3, w: 604800e3 };

/** A duration in milliseconds: a number of milliseconds, or digits with a unit (`500ms`, `90s`, `30m`, `12h`,
 *  `7d`, `2w`), else undefined. */
export function durationMs(value) {
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? value : undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)\s*$/i.exec(String(value ?? ""));
  return m ? Number(m[1]) * MS[m[2].toLowerCase()] : undefined;
}

/** A list: one item per line (patterns may hold commas and spaces), blank lines dropped. */
export function list(value) {
  if (typeof value !== "string") return [];
  return value
    .split("\n")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Whether `v` is a value of `kind` as the option tables name kinds (capture/options.js for the plugin,
 *  cli/entry-flags.js for the flags): "string" (not empty), "boolean", "boolean or object", "size", "positive
 *  integer", "list of strings". A kind not named here reads nothing. */
export function isKind(kind, v) {
  switch (kind) {
    case "string":
      return typeof v === "string" && v !== "";
    case "boolean":
      return typeof v === "boolean";
    case "boolean or object":
      return typeof v === "boolean" || (v !== null && typeof v === "object" && !Array.isArray(v));
    case "size":
      return byteSize(v) !== undefined;
    case "positive integer":
      return positiveInt(v) !== undefined;
    case "list of strings":
      return Array.isArray(v) && v.every((x) => typeof x === "string" || x instanceof RegExp);
    default:
      return false;
  }
}
