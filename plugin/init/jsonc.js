// Editing a JSON or JSONC config file in place: what is added goes in with the file's own indentation and line
// ends, and everything else (comments, order, trailing commas, odd spacing) stays as it was, byte for byte.
// jsonc-parser parses and locates; the insertion itself is a splice at the offsets it reports.

import { parseTree, findNodeAtLocation, getNodeValue, printParseErrorCode } from "jsonc-parser";
import { InitError } from "./errors.js";

const PARSE = { allowTrailingComma: true, disallowComments: false };

/** The file's root object as a jsonc-parser tree (null for a text of blanks: the caller starts from a
 *  skeleton); an InitError when the text is not JSON(C) or its root is not an object. */
export function parseConfig(text, file) {
  if (text.trim() === "") return null;
  const errors = [];
  const root = parseTree(text, errors, PARSE);
  if (errors.length) {
    const e = errors[0];
    const { line, column } = lineColumn(text, e.offset);
    throw new InitError(`${file} is not valid JSON: ${printParseErrorCode(e.error)} at line ${line}, column ${column}`);
  }
  if (!root || root.type !== "object") throw new InitError(`${file} does not hold a JSON object at its top`);
  return root;
}

/** The value at `path` (an array of keys and indices), or undefined. */
export function valueAt(root, path) {
  const node = root && findNodeAtLocation(root, path);
  return node ? getNodeValue(node) : undefined;
}

/** `text` with `value` added at `path` (an array of keys; -1 last appends to an array), containers missing on
 *  the way made with it. The new member goes on its own line after the last one, indented like its
 *  siblings, and no other byte of the file moves (jsonc-parser's own formatter would re-lay the lines it
 *  touches). */
export function setAt(text, path, value) {
  const root = parseTree(text, [], PARSE);
  if (!root || root.type !== "object") throw new InitError("the file holds no JSON object to add to");
  for (let depth = path.length - 1; depth >= 0; depth--) {
    const container = depth === 0 ? root : findNodeAtLocation(root, path.slice(0, depth));
    if (!container) continue;
    // Build what is missing below the deepest container that exists.
    let v = value;
    for (let i = path.length - 1; i > depth; i--) v = path[i] === -1 ? [v] : { [path[i]]: v };
    return insert(text, container, container.type === "array" ? undefined : path[depth], v);
  }
  throw new InitError("nowhere to add the entry");
}

function insert(text, container, key, value) {
  const eol = eolOf(text);
  const unit = unitOf(text);
  const kids = container.children ?? [];
  const open = container.offset;
  const close = container.offset + container.length - 1;
  const outer = indentAt(text, open);
  if (kids.length === 0) {
    const indent = outer + unit;
    return text.slice(0, open + 1) + eol + indent + member(key, value, unit, indent, eol) + eol + outer + text.slice(close);
  }
  const last = kids.at(-1);
  const lastEnd = last.offset + last.length;
  if (!text.slice(open, close).includes("\n")) {
    // A container on one line stays on one line.
    return text.slice(0, lastEnd) + ", " + member(key, value, "", "", "") + text.slice(lastEnd);
  }
  const indent = indentAt(text, kids[0].offset);
  const item = member(key, value, unit, indent, eol);
  let p = lastEnd;
  while (text[p] === " " || text[p] === "\t") p++;
  const comma = text[p] === ",";
  if (comma) p++;
  let lineEnd = text.indexOf("\n", p);
  if (lineEnd < 0) lineEnd = text.length;
  if (text[lineEnd - 1] === "\r") lineEnd--;
  const rest = text.slice(p, lineEnd);
  if (/^\s*(\/\/.*|\/\*.*\*\/\s*)?$/.test(rest) && lineEnd < close) {
    // Only a comment (or nothing) after the last member on its line: the new one goes on the next line.
    const head = comma ? text.slice(0, lineEnd) : text.slice(0, lastEnd) + "," + text.slice(lastEnd, lineEnd);
    return head + eol + indent + item + (comma ? "," : "") + text.slice(lineEnd);
  }
  // The closing bracket (or more) follows on the same line.
  return text.slice(0, p) + (comma ? "" : ",") + eol + indent + item + (comma ? "," : "") + text.slice(p);
}

/** `"key": value` (or the value alone in an array) as JSON laid out with `unit` per level from `indent`. */
function member(key, value, unit, indent, eol) {
  const body = unit ? JSON.stringify(value, null, unit).split("\n").join(eol + indent) : JSON.stringify(value);
  return key === undefined ? body : `${JSON.stringify(key)}: ${body}`;
}

const eolOf = (text) => (text.includes("\r\n") ? "\r\n" : "\n");

/** The file's indentation step: the first indented line's leading blanks, else two spaces. */
const unitOf = (text) => /\n([ \t]+)\S/.exec(text)?.[1] ?? "  ";

/** The leading blanks of the line that holds `offset`. */
function indentAt(text, offset) {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))[0];
}

function lineColumn(text, offset) {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before.at(-1).length + 1 };
}
