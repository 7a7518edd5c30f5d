// Reading recordings back, behind the package's "./read" export. Contract: index.d.ts.

// resolveTarget and quarantinePath under the names this module has always exported.
export { resolveTarget as resolveFile, quarantinePath as quarantineFile, listSegments } from "../paths.js";
export { CursorError, FINGERPRINT_BYTES, decodeCursor, encodeCursor } from "./cursor.js";
export { kindsOf, makeFilter, parseTime } from "./filter.js";
export { DEFAULT_SETTLE_MS, DEFAULT_TAIL_GRACE_MS, RecordingsReader, findEntries, readRecordings } from "./reader.js";
export { listSessions } from "./sessions.js";
export { rawMembers } from "./members.js";
export { entriesMarkdown, entryMarkdown } from "./markdown.js";
export { EPISODE_GAP_MS, episodeState, fingerprintOfEntry, foldEpisodes } from "./episodes.js";
