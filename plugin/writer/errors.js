// How the writer words a failure: "<CODE>: <plain words>", so a person reading a status or a tool result
// knows what went wrong without looking the code up, and a program can still switch on the code.

const PLAIN = {
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "read-only filesystem",
  ENOSPC: "no space left on device",
  EDQUOT: "disk quota exceeded",
  EISDIR: "target is a directory",
  ENOTDIR: "a parent of the target is not a directory",
  ELOOP: "target is a symlink (not followed; point at the real file)",
  ENOENT: "no such file or directory",
  EIO: "input/output error",
  EFBIG: "file too large",
  ENXIO: "no reader on the other end (FIFO or device)",
  EAGAIN: "target would block",
  ENAMETOOLONG: "path too long",
  EMFILE: "too many open files",
  ENFILE: "too many open files in system",
  EBADF: "bad file descriptor",
  ESTALE: "stale file handle",
  SHORT: "short write",
};

/** The codes a failed append reports in its closed `code` (RecordStatus.code): those above, EOTHER for any
 *  other error. */
export const WRITE_ERROR_CODES = [...Object.keys(PLAIN), "EOTHER"];

/** `code` as one of WRITE_ERROR_CODES. */
export function closedCode(code) {
  return Object.hasOwn(PLAIN, code) ? code : "EOTHER";
}

/** The one shape of "nothing was written" (RecordStatus, plugin/recorder.d.ts): `code` is EINTERNAL or made one of
 *  WRITE_ERROR_CODES; `warnings` only when there are any. */
export function skipped(code, file, reason, warnings) {
  const status = { status: "skipped", code: code === "EINTERNAL" ? code : closedCode(code), file: file ?? null, eid: null, reason };
  if (warnings?.length) status.warnings = warnings;
  return status;
}

/** The error's code, or EUNKNOWN for anything thrown without one. */
export function codeOf(err) {
  return (err && typeof err.code === "string" && err.code) || "EUNKNOWN";
}

/** "<CODE>: <plain words>" for an error thrown by node:fs (or anything else). */
export function describeError(err) {
  const code = codeOf(err);
  const words = PLAIN[code] || String((err && err.message) || err).replace(/^[A-Z]+: /, "").split(",")[0];
  return `${code}: ${words}`;
}

/** An error with `code`, as node:fs would throw it, for a failure the writer finds itself. */
export function errorWithCode(code, message) {
  const e = new Error(message);
  e.code = code;
  return e;
}
