// Which machine an export comes from: the key of its positions in the database, so many machines (and their
// files, which may share a path such as ~/git/ai_recordings.jsonl) each resume where they stopped. Host names
// repeat across sandboxes and CI runners, so the id is the host name plus random digits, made once per user
// state directory and kept there; --machine or AI_RECORDINGS_MACHINE names it explicitly.

import { fs as nodeFs, os, path } from "../builtins.js";
import { randomBytes } from "node:crypto";
import { settingsOf } from "../settings.js";
import { stateDir } from "./status.js";

/** { id, host, note }: `note` says why the id is not the kept one (the state directory is not writable). */
export function machineOf({ explicit, env, fs = nodeFs }) {
  const host = os.hostname();
  const given = explicit ?? settingsOf(env).machine;
  if (given !== undefined) return { id: given, host, note: null };
  const file = path.join(stateDir(env), "machine-id");
  const read = () => {
    const t = fs.readFileSync(file, "utf8").trim();
    return t === "" ? null : t;
  };
  try {
    const kept = read();
    if (kept) return { id: kept, host, note: null };
  } catch {
    // not made yet
  }
  const id = `${host}-${randomBytes(4).toString("hex")}`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // Exclusive create: of two first exports at once, one id wins and both use it.
    fs.writeFileSync(file, id + "\n", { flag: "wx", mode: 0o644 });
    return { id, host, note: null };
  } catch (e) {
    try {
      const kept = read();
      if (kept) return { id: kept, host, note: null };
    } catch {
      // fall through
    }
    return { id: host, host, note: `cannot keep a machine id in ${file} (${e.code || e.message}); using the host name` };
  }
}
