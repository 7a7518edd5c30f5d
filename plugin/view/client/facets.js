// The facets: for each field whose values differ on this page, its values with their live counts (match.js),
// the most frequent first, the rest behind "all N".

import { el } from "./dom.js";
import { FACETS } from "./match.js";

const FACET_SHOWN = 8;

/**
 * The facet groups and a "clear filters" button. view: { counts, selected, varied (fields listed), open
 * (fields shown whole) }; on: { choose(field, value, checked), toggleAll(field), clear() }.
 */
export function facetNodes({ counts, selected, varied, open }, on) {
  const groups = FACETS.filter(([field]) => varied.has(field)).map(([field, heading]) => {
    const n = counts[field];
    const chosen = selected[field] ?? new Set();
    const values = [...new Set([...n.keys(), ...chosen])].sort((a, b) => (n.get(b) ?? 0) - (n.get(a) ?? 0) || (a < b ? -1 : 1));
    const all = open.has(field);
    const items = (all ? values : values.slice(0, FACET_SHOWN)).map((v) => {
      const box = el("input", { type: "checkbox", checked: chosen.has(v), data: { field } });
      box.value = v;
      box.addEventListener("change", () => on.choose(field, v, box.checked));
      return el("li", null, el("label", null, box, el("span", { className: "v" }, v), el("span", { className: "n" }, String(n.get(v) ?? 0))));
    });
    const toggle = values.length > FACET_SHOWN ? el("button", { type: "button", className: "all" }, all ? "fewer" : `all ${values.length}`) : null;
    toggle?.addEventListener("click", () => on.toggleAll(field));
    return el("fieldset", { className: "facet", data: { field } }, el("legend", null, heading), el("ul", null, items), toggle);
  });
  const clear = el("button", { type: "button", id: "clear" }, "clear filters");
  clear.addEventListener("click", on.clear);
  return [...groups, clear];
}
