import { abortReason, sleep } from './backoff.js';

/**
 * The time the agent's heartbeat waits on and its leases are counted in: tests move a fake clock
 * instead of waiting out heartbeat intervals and leases. The rest keeps real time (how often
 * leases are checked, retries and their backoff, a stop's grace, a run's timeout): short in
 * tests, or what a test watches a real process do.
 */
export interface Clock {
  /** Milliseconds on a clock that never goes back (not the calendar). */
  now(): number;
  /** Resolves after `ms` by this clock, or rejects with the signal's reason once it is aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = { now: () => performance.now(), sleep };

interface Sleeper {
  until: number;
  wake: () => void;
}

/** A clock a test moves: its sleeps end only when `advance` reaches them. */
export class FakeClock implements Clock {
  private readonly sleepers: Sleeper[] = [];
  private readonly watchers: (() => void)[] = [];

  constructor(private current = 0) {}

  now(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortReason(signal));
        return;
      }
      const onAbort = () => {
        this.sleepers.splice(this.sleepers.indexOf(sleeper), 1);
        reject(abortReason(signal as AbortSignal));
      };
      const sleeper: Sleeper = {
        until: this.current + ms,
        wake: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.sleepers.push(sleeper);
      for (const watcher of this.watchers.splice(0)) watcher();
    });
  }

  /** How many sleeps wait for this clock to move. */
  get sleeping(): number {
    return this.sleepers.length;
  }

  /** Resolves once something sleeps on this clock: at once if something does already. */
  untilSleeping(): Promise<void> {
    if (this.sleepers.length > 0) return Promise.resolve();
    return new Promise((resolve) => this.watchers.push(resolve));
  }

  /** Moves the clock on and wakes, earliest first, every sleep that is then over. */
  advance(ms: number): void {
    this.current += ms;
    const due = this.sleepers
      .filter((s) => s.until <= this.current)
      .sort((a, b) => a.until - b.until);
    for (const sleeper of due) {
      this.sleepers.splice(this.sleepers.indexOf(sleeper), 1);
      sleeper.wake();
    }
  }
}
