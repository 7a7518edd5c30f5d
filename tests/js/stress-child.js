// A writer process for concurrency.test.js: records `count` entries of mixed sizes and, right after each
// record() returns, prints "<eid> <child> <seq> <status>" to stdout with a synchronous write, so the parent
// knows which appends had returned before it killed us.
// Usage: stress-child.js <child-id> <count> <seed>   (target and rotation from AI_RECORDINGS_* env)
import { writeSync } from "node:fs";
import { record } from "../../plugin/recorder.js";
import { xorshift32 } from "./helpers.js";

const [child, count, seed] = process.argv.slice(2).map(Number);

const rand = xorshift32(seed); // reproducible sizes per child

const MIN = 100;
const MAX = 256 * 1024;
const words = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor ";

for (let seq = 0; seq < count; seq++) {
  // log-uniform between 100 B and 256 KiB: most entries small, some near the top
  const size = Math.round(MIN * Math.exp(rand() * Math.log(MAX / MIN)));
  const head = `{"child":${child},"seq":${seq},"pad":"`;
  const padLen = Math.max(0, size - head.length - 2);
  const pad = words.repeat(Math.ceil(padLen / words.length)).slice(0, padLen);
  const r = record(`${head}${pad}"}`, { capture: "auto" });
  writeSync(1, `${r.eid} ${child} ${seq} ${r.status}\n`);
}
