// The one truncation policy for automatic entries: long text is kept as a head and a tail, with its full size
// beside it, so one runaway command cannot make a multi-megabyte entry.

/** Head and tail kept per field, in UTF-16 units. The gate keeps mostly the tail: test runners and compilers
 *  print their verdict last. */
export const LIMITS = {
  gateOutput: { head: 1024, tail: 6144 },
  command: { head: 2048, tail: 1024 },
  subagentResult: { head: 6144, tail: 2048 },
  subagentPrompt: { head: 4096, tail: 1024 },
  toolError: { head: 2048, tail: 1024 },
  toolArgs: { head: 1024, tail: 512 },
  errorMessage: { head: 2048, tail: 1024 },
};

/** The UTF-8 size of a string, without allocating a buffer for it. */
export function utf8Bytes(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

const isHigh = (c) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c) => c >= 0xdc00 && c <= 0xdfff;

/**
 * Keeps the first `head` and last `tail` UTF-16 units of `text`, with a marker saying how much was left out
 * between them. Never splits a surrogate pair (a lone half would send the whole entry to quarantine).
 * Returns { text, bytes, cut } where `bytes` is the UTF-8 size of the whole input.
 */
export function cutText(value, { head = 2048, tail = 2048 } = {}) {
  const text = typeof value === "string" ? value : value === undefined || value === null ? "" : String(value);
  const bytes = utf8Bytes(text);
  if (text.length <= head + tail + 64) return { text, bytes, cut: false };
  let h = head;
  if (h > 0 && isHigh(text.charCodeAt(h - 1))) h--;
  let t = text.length - tail;
  if (t < text.length && isLow(text.charCodeAt(t))) t++;
  const left = text.slice(0, h);
  const right = text.slice(t);
  const omitted = bytes - utf8Bytes(left) - utf8Bytes(right);
  return { text: `${left}\n[… ${omitted} bytes cut …]\n${right}`, bytes, cut: true };
}

/** Terminal colour and cursor escapes, which make output tails unreadable once JSON-escaped. */
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;
export function stripAnsi(s) {
  return typeof s === "string" ? s.replace(ANSI, "") : s;
}

/** A value as short text: strings as they are, anything else as JSON (never throws on cycles or BigInt). */
export function asText(v) {
  if (typeof v === "string") return v;
  if (v === undefined) return "";
  try {
    const seen = new WeakSet();
    return JSON.stringify(v, (k, x) => {
      if (typeof x === "bigint") return x.toString();
      if (x && typeof x === "object") {
        if (seen.has(x)) return "[circular]";
        seen.add(x);
      }
      return x;
    }) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Sets `entry[field]` to `value` cut to `limits`, and `entry[field + "_bytes"]` to its full UTF-8 size when it
 *  was cut. */
export function putBounded(entry, field, value, limits) {
  const c = cutText(value, limits);
  entry[field] = c.text;
  if (c.cut) entry[`${field}_bytes`] = c.bytes;
}
