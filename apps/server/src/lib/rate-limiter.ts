import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { rateLimits } from '../db/schema/lib/rate-limiter.js';

/**
 * Fixed-window counters in the database, so every server instance sees the same count
 * (no instance-local state that another instance needs).
 */
export class RateLimiter {
  constructor(
    private readonly db: Db,
    private readonly windowSeconds: number,
  ) {}

  /** Counts one hit and answers the count inside the current window. */
  async hit(key: string): Promise<number> {
    const expired = sql`${rateLimits.window_start} <= now() - make_interval(secs => ${this.windowSeconds})`;
    const [row] = await this.db
      .insert(rateLimits)
      .values({ key, window_start: sql`now()`, count: 1 })
      .onConflictDoUpdate({
        target: rateLimits.key,
        set: {
          count: sql`case when ${expired} then 1 else ${rateLimits.count} + 1 end`,
          window_start: sql`case when ${expired} then now() else ${rateLimits.window_start} end`,
        },
      })
      .returning({ count: rateLimits.count });
    return row?.count ?? 1;
  }

  /** The count inside the current window, without counting. */
  async count(key: string): Promise<number> {
    const [row] = await this.db
      .select({ count: rateLimits.count })
      .from(rateLimits)
      .where(
        sql`${rateLimits.key} = ${key} and ${rateLimits.window_start} > now() - make_interval(secs => ${this.windowSeconds})`,
      );
    return row?.count ?? 0;
  }

  /**
   * Gives back one hit of the current window: callers `hit` before doing the guarded work (so
   * concurrent requests cannot all pass a separate count) and release when it was not a failure.
   */
  async release(key: string): Promise<void> {
    await this.db
      .update(rateLimits)
      .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
      .where(sql`${rateLimits.key} = ${key}`);
  }

  async reset(key: string): Promise<void> {
    await this.db.delete(rateLimits).where(sql`${rateLimits.key} = ${key}`);
  }

  /** Drops windows long over; called now and then so the table stays small. */
  async prune(): Promise<void> {
    await this.db
      .delete(rateLimits)
      .where(
        sql`${rateLimits.window_start} <= now() - make_interval(secs => ${this.windowSeconds})`,
      );
  }
}
