import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Backoff, sleep } from '../src/backoff.js';

describe('Backoff', () => {
  it('doubles from 0.5 s to a 30 s cap, each delay jittered within [d/2, d]', () => {
    const top = new Backoff(undefined, () => 1);
    expect(Array.from({ length: 9 }, () => top.nextDelayMs())).toEqual([
      500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
    const bottom = new Backoff(undefined, () => 0);
    expect(Array.from({ length: 3 }, () => bottom.nextDelayMs())).toEqual([250, 500, 1000]);
  });

  it('really is random between the bounds', () => {
    const backoff = new Backoff({ initialMs: 1000, maxMs: 1000 });
    const delays = new Set(Array.from({ length: 20 }, () => backoff.nextDelayMs()));
    expect(delays.size).toBeGreaterThan(1);
    for (const d of delays) {
      expect(d).toBeGreaterThanOrEqual(500);
      expect(d).toBeLessThanOrEqual(1000);
    }
  });

  it('starts over after reset', () => {
    const backoff = new Backoff(undefined, () => 1);
    backoff.nextDelayMs();
    backoff.nextDelayMs();
    backoff.reset();
    expect(backoff.nextDelayMs()).toBe(500);
  });
});

describe('sleep', () => {
  // Its own timer is all it waits on: fake timers stand for the time it takes.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resolves once its time is up, not before', async () => {
    let done = false;
    const slept = sleep(10_000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(9_999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await slept;
    expect(done).toBe(true);
  });

  it('is cut short by its signal', async () => {
    const controller = new AbortController();
    const slept = sleep(10_000, controller.signal);
    const outcome = expect(slept).rejects.toThrow('stop');
    await vi.advanceTimersByTimeAsync(20);
    controller.abort(new Error('stop'));
    // Its timer went with it: nothing is left to fire at 10 s.
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    await outcome;
  });
});
