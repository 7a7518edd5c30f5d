// Carries out what a host's plan asks for: reads each file (a missing or empty one starts from the plan's
// skeleton), computes every edit before writing any, so one malformed file leaves all of them as they were;
// then prints a diff (--dry-run) or keeps a backup of each file it rewrites and replaces it whole.

import { createTwoFilesPatch } from "diff";
import { replaceFile } from "../io.js";

/** Runs `changes` ([{ file, empty, edit(text) -> { text, said } }]) with `fs`. Resolves to the report:
 *  [{ file, before, after, created, said, backup }]; an InitError from an edit rejects it with nothing written. */
export async function applyChanges(changes, { fs, dryRun }) {
  const done = [];
  for (const c of changes) {
    const before = readOrNull(fs, c.file);
    const start = before === null || before.trim() === "" ? c.empty : before;
    const r = await c.edit(start);
    // A file made from the skeleton ends with a line end, as the editor of a new file would leave it.
    const after = start === c.empty && r.text !== start && !r.text.endsWith("\n") ? r.text + "\n" : r.text;
    done.push({ file: c.file, before: before ?? "", after, created: before === null, said: r.said, backup: null });
  }
  if (dryRun) return done;
  for (const d of done) {
    if (d.after === d.before) continue;
    if (d.created) fs.mkdirSync(dirOf(d.file), { recursive: true });
    let mode = 0o644;
    let target = d.file;
    if (!d.created) {
      // A config kept elsewhere and linked in (dotfiles) is edited where it lives; the link stays a link.
      target = fs.realpathSync(d.file);
      mode = fs.statSync(target).mode & 0o777;
      d.backup = backupName(fs, target);
      fs.copyFileSync(target, d.backup, fs.constants.COPYFILE_EXCL);
    }
    replaceFile(fs, target, d.after, { mode });
  }
  return done;
}

/** The change to one file as a unified diff. */
export function diffOf(d) {
  const patch = createTwoFilesPatch(d.created ? "/dev/null" : d.file, d.file, d.before, d.after, "", "", { context: 3 });
  return patch.replace(/^(Index: .*\n)?=+\n/, ""); // jsdiff's svn-style header; the ---/+++ lines say it all
}

function readOrNull(fs, file) {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (e) {
    if (e.code === "ENOENT") return null;
    throw e;
  }
}

/** <file>.bak, or .bak.1, .bak.2 … when earlier backups are there: none is ever overwritten. */
function backupName(fs, file) {
  for (let n = 0; ; n++) {
    const name = n === 0 ? `${file}.bak` : `${file}.bak.${n}`;
    if (!fs.existsSync(name)) return name;
  }
}

const dirOf = (file) => file.slice(0, file.lastIndexOf("/")) || "/";
