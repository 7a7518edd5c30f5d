// Making elements. Every recorded string enters the page as a text node (textContent or createTextNode),
// never as HTML; attributes are set only from the page's own words.

import { matchRanges } from "./match.js";

/** An element: `props` are assigned as properties (className, type, title, ...), `kids` appended (strings as
 *  text nodes, null skipped). */
export function el(tag, props, ...kids) {
  const node = document.createElement(tag);
  if (props) {
    for (const [k, v] of Object.entries(props)) {
      if (k === "data") for (const [dk, dv] of Object.entries(v)) node.dataset[dk] = dv;
      else node[k] = v;
    }
  }
  for (const kid of kids.flat(Infinity)) if (kid !== null && kid !== undefined && kid !== false) node.append(typeof kid === "string" ? document.createTextNode(kid) : kid);
  return node;
}

/** A text with each term's occurrences in <mark>, as a fragment. */
export function marked(text, terms) {
  const frag = document.createDocumentFragment();
  let at = 0;
  for (const [a, b] of matchRanges(text, terms)) {
    if (a > at) frag.append(document.createTextNode(text.slice(at, a)));
    frag.append(el("mark", null, text.slice(a, b)));
    at = b;
  }
  if (at < text.length) frag.append(document.createTextNode(text.slice(at)));
  return frag;
}

/** A byte count in words: "812 bytes", "3.4 KiB", "1.0 MiB". */
export function bytes(n) {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
