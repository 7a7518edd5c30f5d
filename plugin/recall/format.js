// How hits read: one short line each (eid, day, kind, the first line of what it says) inside a byte budget,
// or one JSON object each holding the stored line unchanged. What an entry is called: read/present.js.

import { gistOf, labelOf } from "../read/present.js";

function parse(line) {
  try {
    const v = JSON.parse(line);
    return v && typeof v === "object" ? v : {};
  } catch {
    return {};
  }
}

/** One hit as a short line: `eid  day  kind  text`, plus its repo when it is not the one worked in,
 *  `team: HOST` for a teammate's entry (pulled from the exported database), and `(×N, fp FP)` for an automatic
 *  failure that ran N times (one hit for all its runs). */
export function hitLine(hit, { gitDir } = {}) {
  const e = parse(hit.line);
  const day = typeof e.ts === "string" ? e.ts.slice(0, 10) : "-";
  const repo = gitDir && hit.git_dir !== gitDir && typeof e.repo === "string" ? `  [${e.repo}]` : "";
  const team = hit.machine ? `  team: ${hit.host ?? hit.machine}` : "";
  const runs = hit.runs > 1 ? `  (×${hit.runs}, fp ${hit.fp})` : "";
  return `${hit.eid ?? "-"}  ${day}  ${labelOf(e)}  ${gistOf(e)}${repo}${team}${runs}`;
}

function relatedLines(hit, indent) {
  const out = [];
  for (const c of hit.correctedBy ?? []) out.push(`${indent}↳ corrected by ${shortRef(c)}`);
  for (const c of hit.corrects ?? []) out.push(`${indent}↳ corrects ${shortRef(c)}`);
  return out;
}

function shortRef(h) {
  const e = parse(h.line);
  return `${h.eid} (${typeof e.ts === "string" ? e.ts.slice(0, 10) : "-"}): ${gistOf(e)}`;
}

const bytes = (s) => Buffer.byteLength(s, "utf8");

/**
 * Short lines for hits, at most `budget` bytes in all (a hit is left out whole, with its corrections, rather
 * than cut); the last line says how many were left out. Returns the text ("" for no hits).
 */
export function formatHits(hits, { budget = 2048, gitDir, more = "use --json or a larger --budget" } = {}) {
  const out = [];
  let used = 0;
  let shown = 0;
  for (const h of hits) {
    const block = [hitLine(h, { gitDir }), ...relatedLines(h, "    ")].join("\n") + "\n";
    if (used + bytes(block) > budget) break;
    out.push(block);
    used += bytes(block);
    shown++;
  }
  if (shown < hits.length) out.push(`… ${hits.length - shown} more (${more})\n`);
  return out.join("");
}

/** One JSON line per hit: the stored line unchanged as `entry`, its score, and the stored lines of the
 *  entries that correct it or that it corrects; a team row's `machine` and `host` too; an automatic failure's
 *  `fp` and how many runs of it the index holds (`runs`: they are one hit). */
export function jsonHits(hits) {
  return hits
    .map((h) => {
      const rel = (xs) => `[${(xs ?? []).map((x) => x.line).join(",")}]`;
      const team = h.machine ? `,"machine":${JSON.stringify(h.machine)},"host":${JSON.stringify(h.host ?? null)}` : "";
      const runs = h.fp ? `,"fp":${JSON.stringify(h.fp)},"runs":${h.runs ?? 1}` : "";
      return `{"score":${Number(h.score.toFixed(4))},"entry":${h.line},"corrected_by":${rel(h.correctedBy)},"corrects":${rel(h.corrects)}${team}${runs}}\n`;
    })
    .join("");
}

/** A hint for a failure: a heading and the hits' lines, at most `budget` bytes. "" when there are none. */
export function formatHint(hits, { budget = 1024 } = {}) {
  if (!hits.length) return "";
  const head = "[recordings] Past entries from this repository that match this failure (record show EID for one in full):\n";
  const body = formatHits(hits, { budget: budget - bytes(head), more: "recall for the rest" });
  return body && !body.startsWith("… ") ? head + body.trimEnd() : "";
}
