/**
 * A small map whose entries live `ttlMs`: for hot reads that may be a moment stale (an agent's
 * identity by token, a client's run environment), never for decisions about secrets' contents.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  clear() {
    this.entries.clear();
  }

  get size() {
    return this.entries.size;
  }

  /** Drops every entry whose value matches (a revoked credential, whatever its key). */
  deleteWhere(matches: (value: V) => boolean) {
    for (const [key, entry] of this.entries) if (matches(entry.value)) this.entries.delete(key);
  }

  /** `ttlMs`: this entry's own life when shorter than the cache's (e.g. while NOTIFY is down). */
  set(key: K, value: V, ttlMs = this.ttlMs) {
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) {
      // Oldest first (a Map iterates in insertion order).
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expires: Date.now() + ttlMs });
  }
}
