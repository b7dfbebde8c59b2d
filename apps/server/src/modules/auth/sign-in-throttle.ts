import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../engine/sql-rows.js';

/**
 * How a key is barred once it has failed. `freeFailures: null` only counts (never bars). After
 * the n-th counted failure with n >= freeFailures the key is barred for
 * `min(maxSeconds, firstWaitSeconds * factor^(n - freeFailures))`.
 */
export interface ThrottlePolicy {
  freeFailures: number | null;
  firstWaitSeconds: number;
  factor: number;
  maxSeconds: number;
  /** Failures are forgotten after this long without one. */
  memorySeconds: number;
}

export type Claim = { allowed: true; failures: number } | { allowed: false; retryAfter: number };

/**
 * Throttle rows in `sign_in_throttles`, shared by every server instance (DESIGN §3).
 *
 * `claim` counts an attempt *before* its password is checked and answers whether it may go on,
 * in one INSERT … ON CONFLICT DO UPDATE … WHERE … RETURNING: the row lock that statement takes
 * serialises concurrent attempts on one key, so N simultaneous guesses cannot all read "under the
 * limit" (issue 11 measured 18 checks for a limit of 10 when counting and checking were apart).
 * A successful attempt then `clear`s or `release`s what it claimed.
 */
export class SignInThrottle {
  constructor(private readonly db: Db) {}

  async claim(key: string, policy: ThrottlePolicy): Promise<Claim> {
    const counted = sql`case when t.last_failure_at <= now() - make_interval(secs => ${policy.memorySeconds})
      then 1 else t.failures + 1 end`;
    const [row] = await rowsOf<{ failures: number }>(
      this.db,
      sql`insert into sign_in_throttles as t (key, failures, last_failure_at, blocked_until)
        values (${key}, 1, now(), ${barredUntil(sql`1`, policy)})
        on conflict (key) do update set
          failures = ${counted},
          last_failure_at = now(),
          blocked_until = ${barredUntil(counted, policy)}
        where t.blocked_until is null or t.blocked_until <= now()
        returning t.failures`,
    );
    if (row) return { allowed: true, failures: Number(row.failures) };
    return { allowed: false, retryAfter: await this.retryAfter(key) };
  }

  /** Seconds until the key may try again (at least 1). */
  private async retryAfter(key: string): Promise<number> {
    const [row] = await rowsOf<{ wait: number | string | null }>(
      this.db,
      sql`select ceil(extract(epoch from blocked_until - now())) as wait
        from sign_in_throttles where key = ${key}`,
    );
    return Math.max(1, Number(row?.wait ?? 1));
  }

  /** Gives back one claimed attempt that turned out not to be a failure (bar left as it is). */
  async release(key: string): Promise<void> {
    await this.db.execute(
      sql`update sign_in_throttles set failures = greatest(failures - 1, 0) where key = ${key}`,
    );
  }

  /** Forgets the key (the right password from this pair). */
  async clear(key: string): Promise<void> {
    await this.db.execute(sql`delete from sign_in_throttles where key = ${key}`);
  }

  /** Drops rows neither barring nor remembered any more; housekeeping, now and then. */
  async prune(olderThanSeconds: number): Promise<void> {
    await this.db.execute(
      sql`delete from sign_in_throttles
        where last_failure_at <= now() - make_interval(secs => ${olderThanSeconds})
          and (blocked_until is null or blocked_until <= now())`,
    );
  }
}

function barredUntil(failures: SQL, policy: ThrottlePolicy): SQL {
  if (policy.freeFailures === null) return sql`null::timestamptz`;
  // The exponent is capped so a long-remembered count cannot overflow float8.
  return sql`case when (${failures}) >= ${policy.freeFailures}::int
    then now() + make_interval(secs => least(${policy.maxSeconds}::float8,
      ${policy.firstWaitSeconds}::float8
        * power(${policy.factor}::float8, least((${failures}) - ${policy.freeFailures}::int, 40)::float8)))
    else null end`;
}
