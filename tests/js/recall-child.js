// A helper process for the recall suites. Usage (target, rotation and index from AI_RECORDINGS_* / XDG env):
//   recall-child.js write <child> <count>     record <count> entries, each naming its child and sequence number
//   recall-child.js catchup <rounds>          catch the index up <rounds> times, then print the totals as JSON
import { writeSync } from "node:fs";

const [mode, a, b] = process.argv.slice(2);

if (mode === "write") {
  const { record } = await import("../../plugin/recorder.js");
  const child = Number(a);
  for (let seq = 0; seq < Number(b); seq++) {
    const r = record(JSON.stringify({ lesson: `writer ${child} entry ${seq} about flaky widget${seq % 7} builds`, child, seq }), { capture: "cli" });
    if (r.status !== "recorded") writeSync(2, `not recorded: ${r.reason}\n`);
  }
} else if (mode === "catchup") {
  const { openIndex } = await import("../../plugin/recall/index.js");
  const ix = await openIndex({});
  let added = 0;
  let duplicates = 0;
  for (let i = 0; i < Number(a); i++) {
    const r = ix.catchUp();
    added += r.added;
    duplicates += r.duplicates;
  }
  ix.close();
  writeSync(1, JSON.stringify({ added, duplicates }) + "\n");
}
