// Which entries a view state shows, and the facets' live counts: pure functions over the embedded entries, so
// they run the same in the page and in Node's tests.

/** The facets, in the order the page lists them: [field, heading]. `sentiment` is whether an entry has one. */
export const FACETS = [
  ["repo", "Repository"],
  ["session", "Session"],
  ["capture", "Capture"],
  ["trigger", "Trigger"],
  ["kind", "Kind"],
  ["model", "Model"],
  ["agent", "Agent"],
  ["sentiment", "Has sentiment"],
];
export const NONE = "(none)";

/** An entry's value for a facet, as the facet lists it. */
export function facetValue(e, field) {
  if (field === "sentiment") return e.sentiment ? "yes" : "no";
  const v = e[field];
  return typeof v === "string" && v !== "" ? v : NONE;
}

/** The text a query searches in an entry, lower-cased once: its stored line, which holds every member (keys
 *  and stamps too, and so all its title, gist and stamps are made of); for a line embedded cut, also the
 *  members made from the whole line. */
export function haystackOf(e) {
  const parts = [e.line];
  if (e.line_cut) for (const m of e.members) parts.push(m[0], m[1]);
  return parts.join("\n").toLowerCase();
}

/** A query's terms: words, lower-cased; every term must occur. */
export function termsOf(query) {
  return String(query ?? "").toLowerCase().split(/\s+/).filter(Boolean);
}

/**
 * The entries the state shows and the facets' counts. `hay` are the entries' haystacks (needed only with a
 * query), `selected` maps a
 * field to the Set of its chosen values (any of them matches; different fields must all match). A facet
 * value's count is how many entries would show with that value chosen instead: the query and every other
 * facet applied, its own left out; only the fields in `counted` are counted (the page lists only those whose
 * values differ). Returns { shown: [index], counts: { field: Map(value → count) } }.
 */
export function applyState(entries, hay, query, selected, counted = FACETS.map(([f]) => f)) {
  const terms = termsOf(query);
  const active = FACETS.map(([f]) => f).filter((f) => selected[f] && selected[f].size);
  const counts = {};
  for (const [f] of FACETS) counts[f] = new Map();
  const shown = [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const h = terms.length ? hay[i] : "";
    let ok = true;
    for (const t of terms) {
      if (!h.includes(t)) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    let failing = 0;
    let failed = null;
    for (const f of active) {
      if (!selected[f].has(facetValue(e, f))) {
        failing++;
        failed = f;
      }
    }
    if (failing === 0) shown.push(i);
    if (failing > 1) continue;
    for (const f of counted) {
      if (failing === 1 && f !== failed) continue;
      const v = facetValue(e, f);
      counts[f].set(v, (counts[f].get(v) ?? 0) + 1);
    }
  }
  return { shown, counts };
}

/** Where each term occurs in a text, as [start, end) ranges merged and in order (for highlighting). */
export function matchRanges(text, terms) {
  if (!terms.length || !text) return [];
  const low = text.toLowerCase();
  const ranges = [];
  for (const t of terms) {
    for (let at = low.indexOf(t); at >= 0; at = low.indexOf(t, at + t.length)) ranges.push([at, at + t.length]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const out = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([...r]);
  }
  return out;
}

/** The view state as a URL hash ("#q=...&repo=a&repo=b&sel=EID"), and back. */
export function stateToHash(state) {
  const p = new URLSearchParams();
  if (state.query) p.set("q", state.query);
  for (const [f] of FACETS) for (const v of state.selected[f] ?? []) p.append(f, v);
  if (state.sel) p.set("sel", state.sel);
  if (state.theme) p.set("theme", state.theme);
  const s = p.toString();
  return s ? `#${s}` : "";
}

export function hashToState(hash) {
  const p = new URLSearchParams(String(hash ?? "").replace(/^#/, ""));
  const selected = {};
  for (const [f] of FACETS) {
    const vs = p.getAll(f);
    if (vs.length) selected[f] = new Set(vs);
  }
  const theme = p.get("theme");
  return { query: p.get("q") ?? "", selected, sel: p.get("sel") ?? "", theme: theme === "dark" || theme === "light" ? theme : "" };
}
