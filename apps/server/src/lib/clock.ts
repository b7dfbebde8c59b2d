/**
 * What time it is, for what depends on the calendar (cron occurrences, business calendars, task
 * SLAs): tests move a fake clock instead of waiting. Statements that only compare with "now"
 * where no test needs to move time (leases, heartbeats) keep the database's clock.
 */
export interface Clock {
  now(): Date;
  /**
   * Milliseconds from an arbitrary start that never go back: for "how long ago" in memory
   * (how long a queue has been known empty), where a wall clock set back would stretch it.
   */
  monotonicMs(): number;
}

export const systemClock: Clock = { now: () => new Date(), monotonicMs: () => performance.now() };

/** A clock a test sets and moves. */
export class FakeClock implements Clock {
  constructor(private current: Date) {}
  now(): Date {
    return new Date(this.current);
  }
  /** Moves with `set` and `advance` (tests never set it back past a check they rely on). */
  monotonicMs(): number {
    return this.current.getTime();
  }
  set(at: Date | string): void {
    this.current = new Date(at);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
