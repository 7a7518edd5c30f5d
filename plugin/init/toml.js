// Editing a TOML config file in place with toml_edit (the Rust crate Cargo uses to keep a manifest's layout,
// here compiled to wasm): an added table goes in beside its siblings, and comments, order and spacing elsewhere
// stay as they were.

import { InitError } from "./errors.js";

let toml = null;

/** Loads the wasm editor once. */
async function editor() {
  if (!toml) {
    const mod = await import("@rainbowatcher/toml-edit-js");
    await mod.default();
    toml = mod;
  }
  return toml;
}

/** The file's content as plain values ({} for an empty file); an InitError when it is not TOML. */
export async function parseToml(text, file) {
  const t = await editor();
  try {
    return t.parse(text);
  } catch (e) {
    // toml_edit's report: "TOML parse error at line L, column C", the line with a caret, then what is wrong.
    const lines = String(e?.message ?? e).split("\n");
    const where = /at line \d+, column \d+/.exec(lines[0])?.[0];
    const what = lines.slice(1).filter((l) => l.trim() && !/^\s*\d*\s*\|/.test(l)).at(-1)?.trim();
    throw new InitError(`${file} is not valid TOML${where ? ` (${where})` : ""}: ${what || lines[0]}`);
  }
}

/** `text` with the table at the dotted `path` set to `value` (a plain object, written as a [table]). */
export async function setTable(text, path, value) {
  const t = await editor();
  return t.edit(text, path, value, { inline: false, finalNewline: true });
}
