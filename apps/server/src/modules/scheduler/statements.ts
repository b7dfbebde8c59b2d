import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { engineState } from '../../db/schema/scheduler.js';
import { col } from '../../lib/sql-refs.js';
import { rowsOf } from '../../lib/sql-rows.js';

/**
 * Takes a once-per-cluster duty (e.g. the nightly retention): stamps `now` on `key` when its
 * last stamp is at least `intervalSeconds` older, in one statement, so of several instances
 * only one gets `true` (the others wait on the row and then see the new stamp). A stamp more
 * than an interval ahead (the clock was set back) is taken too, so the duty cannot stall.
 */
export async function claimDuty(
  db: Db,
  key: string,
  now: Date,
  intervalSeconds: number,
): Promise<boolean> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const rows = await rowsOf<{ key: string }>(
    db,
    sql`insert into ${engineState} (${col(engineState.key)}, ${col(engineState.at)})
        values (${key}, ${at})
        on conflict (${col(engineState.key)}) do update set ${col(engineState.at)} = excluded.at
         where ${engineState.at} <= excluded.at - make_interval(secs => ${intervalSeconds})
            or ${engineState.at} > excluded.at + make_interval(secs => ${intervalSeconds})
        returning ${col(engineState.key)} as key`,
  );
  return rows.length > 0;
}
