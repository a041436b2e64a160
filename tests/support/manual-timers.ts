// Timers that move only when the test says so.
import type { Timers } from "../../lib/timers.ts";

export function manualTimers() {
  let now = 0;
  let nextId = 0;
  const due = new Map<number, { at: number; run: () => void }>();
  const timers: Timers = {
    now: () => now,
    setTimeout(run, ms) {
      const id = nextId++;
      due.set(id, { at: now + ms, run });
      return id;
    },
    clearTimeout: (handle) => void due.delete(handle as number),
  };
  /** Moves the clock on by `ms`, running each timer that falls due, in order. */
  function advance(ms: number): void {
    const until = now + ms;
    for (;;) {
      const [id, timer] = [...due].sort(([, a], [, b]) => a.at - b.at)[0] ?? [];
      if (id === undefined || !timer || timer.at > until) break;
      due.delete(id);
      now = timer.at;
      timer.run();
    }
    now = until;
  }
  return { timers, advance, pending: () => due.size };
}
