// The typical 1 KiB JSON entry every benchmark records, so their numbers compare.

/** A 1023-byte JSON object; `extra` goes into `finding` before the padding. */
export function entry1k(extra = "") {
  const base = {
    category: "tool lied",
    finding: "grep -c counts matching lines, not matches; the test counted 3 where there were 7 occurrences. " + extra,
    result: "switched to grep -o | wc -l and the count matched",
    sentiment: ["surprise", "relief"],
    confidence: "high",
  };
  const pad = 1023 - JSON.stringify(base).length;
  base.finding += "details ".repeat(Math.ceil(pad / 8)).slice(0, pad);
  return JSON.stringify(base);
}
