// The export's only contact with the writer's status record: a run's outcome is noted there under a key of its
// own beside the recordings file's, so `record doctor` can say when the last export failed and why.

import { path } from "../builtins.js";
import { noteStatus, readStatus, statusPath } from "../writer/index.js";

/** The status record's key for exports of `file`. */
export function exportKey(file) {
  return `${file} (export)`;
}

/** Notes an export of `file` as done or failed (`reason` must already be scrubbed of secrets). Never throws. */
export function noteExport(file, ok, reason, { env } = {}) {
  try {
    noteStatus(exportKey(file), ok, reason, { env });
  } catch {
    // the status record is a hint; an export's outcome is also its exit status
  }
}

/** The last export outcome noted for `file`: { lastSuccess, lastFailure, lastReason, failures } or null. */
export function exportStatusOf(file, { env, fs } = {}) {
  const doc = readStatus({ env, fs });
  const t = doc?.targets?.[exportKey(file)];
  if (!t) return null;
  return { lastSuccess: t.lastSuccess ?? null, lastFailure: t.lastFailure ?? null, lastReason: t.lastReason ?? null, failures: Number(t.misses) || 0 };
}

/** The directory of the per-user state (where the status record lives). */
export function stateDir(env) {
  return path.dirname(statusPath({ env }));
}
