// The top-level members of a JSON object text with each value exactly as written. JSON.parse would rewrite
// 1.0 as 1, decode escapes and keep only the last of duplicated keys; Markdown shows what was recorded.

/**
 * The top-level members of one JSON object text, in order and with duplicates, each value as its exact
 * source text: [[key, rawValue], ...]. The text must be valid JSON (a line the reader accepted).
 */
export function rawMembers(text) {
  const out = [];
  let i = 0;
  const n = text.length;
  const ws = () => {
    while (i < n && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const skipString = () => {
    i++;
    while (i < n && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
  };
  ws();
  if (text[i] !== "{") return out;
  i++;
  for (;;) {
    ws();
    if (i >= n || text[i] === "}") break;
    const ks = i;
    skipString();
    const key = JSON.parse(text.slice(ks, i));
    ws();
    i++; // ':'
    ws();
    const vs = i;
    let depth = 0;
    while (i < n) {
      const c = text[i];
      if (c === '"') {
        skipString();
        if (depth === 0) break;
        continue;
      }
      if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") {
        if (depth === 0) break;
        depth--;
        if (depth === 0) {
          i++;
          break;
        }
      } else if (c === "," && depth === 0) break;
      i++;
    }
    let ve = i;
    while (ve > vs && " \t\r\n".includes(text[ve - 1])) ve--;
    out.push([key, text.slice(vs, ve)]);
    ws();
    if (text[i] === ",") i++;
  }
  return out;
}
