import { describe, expect, it } from 'vitest';
import { TtlCache } from '../src/lib/ttl-cache.js';

/** A clock the test moves by hand, as lru-cache's own tests do: no waiting, no faked globals. */
function manualClock() {
  let now = 1_000;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

describe('TtlCache', () => {
  it('drops the least recently used entry when full, not the first one in', () => {
    const cache = new TtlCache<string, number>(60_000, 3, manualClock());
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    // Reading `a` makes `b` the least recently used.
    expect(cache.get('a')).toBe(1);
    cache.set('d', 4);
    expect(cache.size).toBe(3);
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('a'), cache.get('c'), cache.get('d')]).toEqual([1, 3, 4]);
    // Writing again counts as a use too, and takes no second place.
    cache.set('c', 30);
    cache.set('e', 5);
    expect(cache.get('a')).toBeUndefined();
    expect([cache.get('c'), cache.get('d'), cache.get('e')]).toEqual([30, 4, 5]);
  });

  it('keeps an entry for the cache’s life, or for its own when one is given', () => {
    const clock = manualClock();
    const cache = new TtlCache<string, string>(1_000, 10, clock);
    cache.set('long', 'cache life');
    cache.set('short', 'own life', 100);
    clock.advance(99);
    expect(cache.get('short')).toBe('own life');
    clock.advance(2);
    expect(cache.get('short')).toBeUndefined();
    expect(cache.get('long')).toBe('cache life');
    // A read does not lengthen a life; a write starts a new one.
    clock.advance(898);
    expect(cache.get('long')).toBe('cache life');
    clock.advance(2);
    expect(cache.get('long')).toBeUndefined();
    cache.set('long', 'again');
    clock.advance(999);
    expect(cache.get('long')).toBe('again');
  });

  it('drops what matches, whatever its key, and clears', () => {
    const cache = new TtlCache<string, { agent: number }>(60_000, 10, manualClock());
    cache.set('t1', { agent: 1 });
    cache.set('t2', { agent: 2 });
    cache.set('t3', { agent: 1 });
    cache.deleteWhere((value) => value.agent === 1);
    expect(cache.size).toBe(1);
    expect(cache.get('t1')).toBeUndefined();
    expect(cache.get('t3')).toBeUndefined();
    expect(cache.get('t2')).toEqual({ agent: 2 });
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.get('t2')).toBeUndefined();
  });

  it('works on its default clock', () => {
    const cache = new TtlCache<string, number>(60_000);
    cache.set('a', 1);
    expect(cache.get('a')).toBe(1);
  });
});
