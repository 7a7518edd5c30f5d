// The held-descriptor pool on its own: the cap, taking out and putting back, the idle sweep on the test's
// clock, closeAll() with releases that put again, and release at process exit.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createFdPool } from "../../plugin/fdpool.js";
import { manualClock } from "./fake-clock.js";

/** A pool of { used } items with max 2 and idle 1000 ms; `released` lists "key:context" in release order. */
function pool(onRelease = () => {}) {
  const { clock, now, timers } = manualClock();
  const released = [];
  const p = createFdPool({
    idleMs: 1000,
    max: 2,
    usedAt: (item) => item.used,
    release: (key, item, context) => {
      released.push(`${key}:${context ?? "-"}`);
      onRelease(key, item);
    },
    clock: now,
    timers,
  });
  return { p, clock, timers, released };
}

test("the least recently put item is released when the pool is full; a key put again replaces its item", () => {
  const { p, released } = pool();
  p.put("a", { used: 0 }, "ctx");
  p.put("b", { used: 0 }, "ctx");
  p.put("a", { used: 0 }, "again"); // replaces a, which becomes the most recent
  assert.deepEqual(released, ["a:again"]);
  p.put("c", { used: 0 }, "full");
  assert.deepEqual(released, ["a:again", "b:full"]);
  assert.equal(p.size, 2);
});

test("take() hands the item over: out of the pool until put back, never released meanwhile", () => {
  const { p, clock, timers, released } = pool();
  const item = { used: clock.t };
  p.put("a", item);
  assert.equal(p.take("a"), item);
  assert.equal(p.take("a"), undefined);
  assert.equal(p.size, 0);
  clock.t += 5000;
  timers.fire();
  assert.deepEqual(released, []);
});

test("the sweep releases what was idle for idleMs, on the pool's clock, and stops when nothing is held", () => {
  const { p, clock, timers, released } = pool();
  p.put("old", { used: clock.t });
  clock.t += 600;
  p.put("new", { used: clock.t });
  assert.ok(timers.unrefs >= 1, "the sweep's timer is unref'd");
  clock.t += 500; // old idle 1100 ms, new 500 ms
  timers.fire();
  assert.deepEqual(released, ["old:-"]);
  assert.equal(typeof timers.pending, "function", "swept again while something is held");
  clock.t += 500;
  timers.fire();
  assert.deepEqual(released, ["old:-", "new:-"]);
  assert.equal(timers.pending, null);
});

test("closeAll() releases everything, including items a release puts back", () => {
  let again = true;
  const box = {};
  const { p, released, timers } = pool((key) => {
    if (key === "a" && again) {
      again = false;
      box.p.put("a2", { used: 0 }); // as the writer does when it writes held lines again
    }
  });
  box.p = p;
  p.put("a", { used: 0 });
  p.put("b", { used: 0 });
  p.closeAll();
  assert.equal(p.size, 0);
  assert.deepEqual(released.sort(), ["a2:-", "a:-", "b:-"]);
  assert.equal(typeof timers.pending, "function", "the put during closeAll scheduled a sweep");
  timers.fire(); // into an empty pool: nothing to release
  assert.equal(released.length, 3);
});

test("what a pool holds is released at process exit, and its sweep timer does not keep the process alive", () => {
  const script = `
    import { createFdPool } from ${JSON.stringify(new URL("../../plugin/fdpool.js", import.meta.url).href)};
    const p = createFdPool({ idleMs: 60000, max: 4, usedAt: (x) => x.used, release: (k) => process.stdout.write("released " + k + "\\n") });
    p.put("held", { used: Date.now() });
    p.put("taken", { used: Date.now() });
    p.take("taken");
  `;
  // The sweep is due in a minute: a timer that kept the process alive would run into the kill below.
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 30_000 });
  assert.equal(r.signal, null, "the process exited on its own");
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, "released held\n");
});
