// A pool of held descriptors (or anything that must be released): the writer keeps its append descriptors
// here during a burst, the git facts the HEAD and ref files they watch. The pool closes what has been idle for
// `idleMs` (an unref'd timer, so it never keeps a process alive), holds at most `max` items (the least
// recently put released first), and releases everything at process exit. Clock and timers are parameters, so
// tests drive the idle sweep without sleeping.

const live = new Set(); // pools holding something, released at exit
let exitHooked = false;

function releaseAllAtExit() {
  for (const pool of [...live]) pool.closeAll();
}

/**
 * options:
 *  - idleMs: an item not used for this long is released by the sweep
 *  - max: at most this many items; putting one more releases the least recently put
 *  - usedAt(item): when the item was last used (the pool's clock)
 *  - release(key, item, context): closes the item; `context` is what the caller passed to put() or drop()
 *  - clock: () => ms (default Date.now); timers: { setTimeout, clearTimeout } (default the global ones)
 */
export function createFdPool({ idleMs, max, usedAt, release, clock = Date.now, timers = globalThis }) {
  const items = new Map(); // key → item, least recently put first
  let timer = null;

  function sweep() {
    timer = null;
    const cutoff = clock() - idleMs;
    for (const [key, item] of [...items]) {
      if (!(usedAt(item) > cutoff) && items.get(key) === item) {
        items.delete(key);
        release(key, item, undefined);
      }
    }
    settle();
  }

  function schedule() {
    if (timer !== null) return;
    try {
      timer = timers.setTimeout(sweep, idleMs);
      timer?.unref?.();
    } catch {
      timer = null; // no timers here: items live until they are replaced, evicted, or the process exits
    }
  }

  /** After a change: swept while anything is held, and released at exit. */
  function settle() {
    if (items.size === 0) {
      live.delete(pool);
      return;
    }
    live.add(pool);
    if (!exitHooked) {
      exitHooked = true;
      process.once("exit", releaseAllAtExit);
    }
    schedule();
  }

  const pool = {
    get size() {
      return items.size;
    },
    /** The item under `key`, taken out of the pool: the caller owns it until it puts it back. */
    take(key) {
      const item = items.get(key);
      if (item !== undefined) items.delete(key);
      return item;
    },
    /** Holds `item` under `key` as the most recently put; an item already there, and the least recently put
     *  one when the pool is full, are released first (with `context`). */
    put(key, item, context) {
      pool.drop(key, context);
      if (items.size >= max) pool.drop(items.keys().next().value, context);
      items.set(key, item);
      // Already live and swept unless nothing was held or no sweep is due: the hot path of a burst (a take()
      // and a put() of one file per append) skips it.
      if (timer === null || !live.has(pool)) settle();
    },
    /** Releases the item under `key`, if any. */
    drop(key, context) {
      const item = items.get(key);
      if (item === undefined) return;
      items.delete(key);
      release(key, item, context);
      if (items.size === 0) live.delete(pool);
    },
    /** Releases everything now. A release may put a new item (the writer writing held lines again): round again. */
    closeAll() {
      if (timer !== null) {
        try {
          timers.clearTimeout(timer);
        } catch {
          // a timer that cannot be cleared fires into an empty pool
        }
        timer = null;
      }
      while (items.size > 0) for (const key of [...items.keys()]) pool.drop(key, undefined);
      live.delete(pool);
    },
  };
  return pool;
}
