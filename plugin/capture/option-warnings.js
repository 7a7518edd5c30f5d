// What a host process found wrong with its options (an unknown key, a value of the wrong type), kept where
// `record doctor` reads it: `option-warnings.json` beside the status record. The plugin's options live in the
// host's config, which doctor does not read; the plugin writes what it ignored, and nothing is thrown.

import { fs as nodeFs, path } from "../builtins.js";
import { statusPath } from "../writer/status.js";
import { replaceFile } from "../io.js";

/** The file beside the status record. */
export function optionWarningsPath(options = {}) {
  return path.join(path.dirname(statusPath(options)), "option-warnings.json");
}

/** Notes `warnings` for `surface` ("opencode plugin"), replacing what it noted before (none: its entry goes).
 *  Never throws. */
export function noteOptionWarnings(surface, warnings, options = {}) {
  const fs = options.fs ?? nodeFs;
  try {
    const p = optionWarningsPath(options);
    const doc = readOptionWarnings(options) ?? {};
    if (!warnings?.length && !doc[surface]) return;
    if (warnings?.length) doc[surface] = { at: new Date(options.now?.() ?? Date.now()).toISOString(), warnings };
    else delete doc[surface];
    fs.mkdirSync(path.dirname(p), { recursive: true, mode: 0o700 });
    replaceFile(fs, p, JSON.stringify(doc) + "\n");
  } catch {}
}

/** { <surface>: { at, warnings } }, or null when nothing was noted. Never throws. */
export function readOptionWarnings(options = {}) {
  const fs = options.fs ?? nodeFs;
  try {
    const doc = JSON.parse(fs.readFileSync(optionWarningsPath(options), "utf8"));
    return doc && typeof doc === "object" && !Array.isArray(doc) ? doc : null;
  } catch {
    return null;
  }
}
