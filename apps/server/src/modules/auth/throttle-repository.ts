import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../lib/sql-rows.js';
import type { ThrottlePolicy } from './sign-in-throttle.js';

/**
 * Counts one attempt on `key` and answers its failures, or nothing when the key is barred: one
 * INSERT … ON CONFLICT DO UPDATE … WHERE … RETURNING, whose row lock serialises concurrent
 * attempts on one key (see SignInThrottle).
 */
export async function claimThrottle(
  db: Db,
  key: string,
  policy: ThrottlePolicy,
): Promise<number | undefined> {
  const counted = sql`case when t.last_failure_at <= now() - make_interval(secs => ${policy.memorySeconds})
      then 1 else t.failures + 1 end`;
  const [row] = await rowsOf<{ failures: number }>(
    db,
    sql`insert into sign_in_throttles as t (key, failures, last_failure_at, blocked_until)
        values (${key}, 1, now(), ${barredUntil(sql`1`, policy)})
        on conflict (key) do update set
          failures = ${counted},
          last_failure_at = now(),
          blocked_until = ${barredUntil(counted, policy)}
        where t.blocked_until is null or t.blocked_until <= now()
        returning t.failures`,
  );
  return row ? Number(row.failures) : undefined;
}

/** Seconds until the key may try again (at least 1). */
export async function throttleRetryAfter(db: Db, key: string): Promise<number> {
  const [row] = await rowsOf<{ wait: number | string | null }>(
    db,
    sql`select ceil(extract(epoch from blocked_until - now())) as wait
        from sign_in_throttles where key = ${key}`,
  );
  return Math.max(1, Number(row?.wait ?? 1));
}

export async function releaseThrottle(db: Db, key: string): Promise<void> {
  await db.execute(
    sql`update sign_in_throttles set failures = greatest(failures - 1, 0) where key = ${key}`,
  );
}

export async function clearThrottle(db: Db, key: string): Promise<void> {
  await db.execute(sql`delete from sign_in_throttles where key = ${key}`);
}

export async function pruneThrottles(db: Db, olderThanSeconds: number): Promise<void> {
  await db.execute(
    sql`delete from sign_in_throttles
        where last_failure_at <= now() - make_interval(secs => ${olderThanSeconds})
          and (blocked_until is null or blocked_until <= now())`,
  );
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
