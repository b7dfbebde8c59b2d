import { describe, expect, it } from 'vitest';
import { FakeClock } from '../src/clock.js';

describe('FakeClock', () => {
  it('ends a sleep only when advanced to its end, earliest first', async () => {
    const clock = new FakeClock(100);
    const woke: string[] = [];
    const long = clock.sleep(2_000).then(() => woke.push('long'));
    const short = clock.sleep(1_000).then(() => woke.push('short'));
    expect(clock.sleeping).toBe(2);
    clock.advance(999);
    await Promise.resolve();
    expect(woke).toEqual([]);
    expect(clock.now()).toBe(1_099);
    clock.advance(1_001);
    await Promise.all([long, short]);
    expect(woke).toEqual(['short', 'long']);
    expect(clock.sleeping).toBe(0);
  });

  it('rejects a sleep with its signal’s reason and forgets it', async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    const slept = clock.sleep(1_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(slept).rejects.toThrow('stop');
    expect(clock.sleeping).toBe(0);
    await expect(clock.sleep(1_000, controller.signal)).rejects.toThrow('stop');
  });

  it('tells when something sleeps on it', async () => {
    const clock = new FakeClock();
    let asleep = false;
    const watched = clock.untilSleeping().then(() => (asleep = true));
    await Promise.resolve();
    expect(asleep).toBe(false);
    void clock.sleep(10);
    await watched;
    expect(asleep).toBe(true);
    await clock.untilSleeping();
  });
});
