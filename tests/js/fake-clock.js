// A clock the test moves and timers it fires, for the writer's and the git facts' seams: idle sweeps and time
// windows are then driven by the test, never by sleeping.

/** { clock: { t } (ms, moved by the test), now() (reads it), timers: { setTimeout, clearTimeout, fire(), pending,
 *  unrefs } }: a timer set is `pending` until fire() runs it; `unrefs` counts unref() calls on the timers handed out. */
export function manualClock(start = 1_000_000) {
  const clock = { t: start };
  const timers = {
    pending: null,
    unrefs: 0,
    setTimeout(fn) {
      timers.pending = fn;
      return { unref: () => timers.unrefs++ };
    },
    clearTimeout() {
      timers.pending = null;
    },
    fire() {
      const fn = timers.pending;
      timers.pending = null;
      fn?.();
    },
  };
  return { clock, now: () => clock.t, timers };
}
