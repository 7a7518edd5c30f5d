// The recording instructions (instructions/recordings.md, shipped in the package) handed to the agent through
// opencode's `experimental.chat.system.transform` hook, so `"plugin": ["opencode-recordings"]` alone tells the
// model when and how to record. The hook gets `output.system`, the prompt's parts as strings; opencode has
// already added the files listed in `instructions` there, so the text is added only when no part holds it.

import { fs } from "../builtins.js";

export const INSTRUCTIONS_URL = new URL("../../instructions/recordings.md", import.meta.url);

/** The instructions' text, or null when the file cannot be read (a copy of plugin/ without it). */
export function readInstructions(readFile = (url) => fs.readFileSync(url, "utf8")) {
  try {
    const text = readFile(INSTRUCTIONS_URL).trim();
    return text === "" ? null : text;
  } catch {
    return null;
  }
}

// Compared with runs of whitespace made one space: a host may re-wrap or trim a file it includes.
const squeeze = (s) => s.replace(/\s+/g, " ");

/** Adds `text` as a part of `system` (an array of strings, changed in place) unless a part already holds it.
 *  Returns whether it was added. Anything that is not an array of strings is left alone. */
export function addInstructions(system, text) {
  if (!text || !Array.isArray(system)) return false;
  const want = squeeze(text);
  if (system.some((part) => typeof part === "string" && squeeze(part).includes(want))) return false;
  system.push(text);
  return true;
}
