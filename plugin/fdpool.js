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
  // key → { item, seq, taken }. A taken entry stays in the map, marked, so that a burst's take() and put() of
  // one file change two fields rather than the map; everything else treats it as out of the pool.
  const entries = new Map();
  let held = 0; // entries not taken
  let seq = 0; // the order of put(), for evicting the least recently put
  let timer = null;

  const forget = (key, e) => {
    entries.delete(key);
    if (!e.taken) held--;
  };

  function sweep() {
    timer = null;
    const cutoff = clock() - idleMs;
    for (const [key, e] of [...entries]) {
      if (!e.taken && !(usedAt(e.item) > cutoff) && entries.get(key) === e) {
        forget(key, e);
        release(key, e.item, undefined);
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
    if (held === 0) {
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

  /** The key of the least recently put entry in the pool, if any. */
  function oldest() {
    let found;
    let least = Infinity;
    for (const [key, e] of entries) {
      if (!e.taken && e.seq < least) {
        least = e.seq;
        found = key;
      }
    }
    return found;
  }

  const pool = {
    get size() {
      return held;
    },
    /** The item under `key`, taken out of the pool: the caller owns it until it puts it back. */
    take(key) {
      const e = entries.get(key);
      if (e === undefined || e.taken) return undefined;
      e.taken = true;
      held--;
      return e.item;
    },
    /** Holds `item` under `key` as the most recently put; an item already there, and the least recently put
     *  one when the pool is full, are released first (with `context`). */
    put(key, item, context) {
      const e = entries.get(key);
      if (e !== undefined && e.taken && e.item === item) {
        e.taken = false; // back from take(): the burst's hot path
        e.seq = ++seq;
        held++;
      } else {
        if (e !== undefined) {
          forget(key, e);
          if (!e.taken) release(key, e.item, context); // a taken item is its taker's, not ours to close
        }
        if (held >= max) pool.drop(oldest(), context);
        entries.set(key, { item, seq: ++seq, taken: false });
        held++;
      }
      // Already live and swept unless nothing was held or no sweep is due: the hot path skips it.
      if (timer === null || !live.has(pool)) settle();
    },
    /** Releases the item under `key`, if any. */
    drop(key, context) {
      const e = entries.get(key);
      if (e === undefined || e.taken) return;
      forget(key, e);
      release(key, e.item, context);
      if (held === 0) live.delete(pool);
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
      while (held > 0) for (const key of [...entries.keys()]) pool.drop(key, undefined);
      live.delete(pool);
    },
  };
  return pool;
}
