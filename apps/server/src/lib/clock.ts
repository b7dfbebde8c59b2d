/**
 * What time it is, for what depends on the calendar (cron occurrences, business calendars, task
 * SLAs): tests move a fake clock instead of waiting. Statements that only compare with "now"
 * where no test needs to move time (leases, heartbeats) keep the database's clock.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock a test sets and moves. */
export class FakeClock implements Clock {
  constructor(private current: Date) {}
  now(): Date {
    return new Date(this.current);
  }
  set(at: Date | string): void {
    this.current = new Date(at);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
