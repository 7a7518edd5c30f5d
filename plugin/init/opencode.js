// `record init opencode`: the package name in `plugin` of the project's opencode.jsonc / opencode.json (the
// first that exists in the working directory), or of the user's with --global. The plugin then hands the agent
// the recording instructions itself, so nothing else is needed.

import { parseConfig, setAt, valueAt } from "./jsonc.js";
import { InitError } from "./errors.js";

export const PACKAGE = "opencode-recordings";
const NAMES = ["opencode.jsonc", "opencode.json"];
// opencode rewrites a config that lacks "$schema"; a new file starts with it.
const NEW_FILE = '{\n  "$schema": "https://opencode.ai/config.json"\n}\n';

/** Whether a `plugin` item names this package: "opencode-recordings", "opencode-recordings@1.2.3", or the
 *  tuple form ["opencode-recordings", {options}]. */
export function namesUs(item) {
  const spec = Array.isArray(item) ? item[0] : item;
  return typeof spec === "string" && (spec === PACKAGE || spec.startsWith(`${PACKAGE}@`));
}

/** The files to change: [{ file, empty, edit(text) -> { text, said } }]. */
export function plan({ places, cwd, global, exists }) {
  const dir = global ? `${places.configHome}/opencode` : cwd;
  const file = NAMES.map((n) => `${dir}/${n}`).find(exists) ?? `${dir}/opencode.json`;
  return [{ file, empty: NEW_FILE, edit: (text) => addPlugin(text, file) }];
}

function addPlugin(text, file) {
  const root = parseConfig(text, file);
  const list = valueAt(root, ["plugin"]);
  if (list !== undefined && !Array.isArray(list)) throw new InitError(`${file}: "plugin" is not a list`);
  if ((list ?? []).some(namesUs)) return { text, said: [`"plugin" already loads ${PACKAGE}`] };
  const next = list === undefined ? setAt(text, ["plugin"], [PACKAGE]) : setAt(text, ["plugin", -1], PACKAGE);
  return { text: next, said: [`"plugin" gets ${PACKAGE}`] };
}
