import { LRUCache } from 'lru-cache';

/** What tells the cache the time, in milliseconds: only differences between readings matter. */
export interface TtlClock {
  now(): number;
}

/**
 * A small map whose entries live `ttlMs`: for hot reads that may be a moment stale (an agent's
 * identity by token, a client's run environment), never for decisions about secrets' contents.
 * Full, it drops the entry least recently read or written, so the agents that keep calling stay
 * cached while one that went quiet makes room (first in, first out would drop the oldest agent,
 * busy or not, at every newcomer).
 */
export class TtlCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>> {
  private readonly entries: LRUCache<K, V>;

  /**
   * `clock` is `performance` unless a test brings its own: a monotonic clock, so that setting the
   * wall clock back cannot lengthen an entry's life.
   */
  constructor(ttlMs: number, maxEntries = 10_000, clock: TtlClock = performance) {
    this.entries = new LRUCache<K, V>({
      max: maxEntries,
      ttl: ttlMs,
      // Read at every check instead of once a millisecond: `now()` is cheap, and lru-cache's
      // reuse of a reading costs a timer each millisecond and hides a test clock's steps.
      ttlResolution: 0,
      perf: clock,
    });
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  clear() {
    this.entries.clear();
  }

  /** Entries held, expired ones included until they are read or pushed out. */
  get size() {
    return this.entries.size;
  }

  /** Drops every entry whose value matches (a revoked credential, whatever its key). */
  deleteWhere(matches: (value: V) => boolean) {
    const doomed: K[] = [];
    for (const [key, value] of this.entries.entries()) if (matches(value)) doomed.push(key);
    for (const key of doomed) this.entries.delete(key);
  }

  /** `ttlMs`: this entry's own life when shorter than the cache's (e.g. while NOTIFY is down). */
  set(key: K, value: V, ttlMs?: number) {
    this.entries.set(key, value, ttlMs === undefined ? undefined : { ttl: ttlMs });
  }
}
