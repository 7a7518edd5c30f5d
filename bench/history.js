// A history of recordings written straight to disk for the read and export benches: realistic ~1 KiB lines
// with the stamps the recorder adds, cut into segments the way rotation names them, archives dated a day back.
import * as fs from "node:fs";
import * as path from "node:path";

const MiB = 1024 * 1024;
const WORDS = "the flaky test was a race between two writers appending to one file without O_APPEND ";

/** `count` entries (or until `bytes`) as segments of dir/r.jsonl, each up to `segment` bytes. Returns
 *  { entries, bytes, segments, lines } (`lines` without their newlines). */
export function writeHistory(dir, { count = Infinity, bytes = Infinity, segment = 16 * MiB, sentiment = ["relief"] } = {}) {
  fs.mkdirSync(dir, { recursive: true });
  const t0 = Date.parse("2026-01-01T00:00:00.000Z");
  const feeling = JSON.stringify(sentiment);
  const lines = [];
  const archives = [];
  let n = 0;
  let total = 0;
  let seg = 0;
  while (n < count && total < bytes) {
    const parts = [];
    let size = 0;
    while (size < segment && n < count && total + size < bytes) {
      const ts = new Date(t0 + n * 60_000).toISOString();
      const eid = n.toString(32).padStart(13, "0");
      const line =
        `{"ts":"${ts}","eid":"${eid}","note":"${WORDS.repeat(8).slice(0, 500 + (n % 300))}","sentiment":${feeling},"capture":"cli",` +
        `"pwd":"/home/user/src/project","repo":"project","git_dir":"/home/user/src/project/.git",` +
        `"origin":"git@example.com:user/project.git","head":"4b825dc642cb6eb9a060e54bf8d69288fbee4904",` +
        `"branch":"main","session":"ses_${Math.floor(n / 50)}","model":"anthropic/claude","agent":"build"}`;
      parts.push(line + "\n");
      lines.push(line);
      size += line.length + 1;
      n++;
    }
    total += size;
    const last = !(n < count && total < bytes);
    const stamp = new Date(t0 + seg * 86_400_000).toISOString().replace(/[-:.]/g, "");
    const p = last ? path.join(dir, "r.jsonl") : path.join(dir, `r.${stamp}.jsonl`);
    fs.writeFileSync(p, parts.join(""));
    if (!last) archives.push(p);
    seg++;
  }
  const dayAgo = new Date(Date.now() - 86_400_000);
  for (const a of archives) fs.utimesSync(a, dayAgo, dayAgo);
  return { entries: n, bytes: total, segments: seg, lines };
}
