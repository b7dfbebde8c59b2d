import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { passwordResetCodes, sessions } from '../../db/schema/auth.js';
import { rowsOf } from '../../lib/sql-rows.js';

const gone = async (db: Db, statement: ReturnType<typeof sql>) =>
  (await rowsOf<{ n: number }>(db, statement))[0]?.n ?? 0;

/**
 * Sessions no one can use any more (expired, or revoked: sign-out, password change) and
 * password reset codes used or expired, by the database's clock like the checks that refuse
 * them. Answers how many rows of each went.
 */
export async function pruneSpentCredentials(
  db: Db,
): Promise<{ sessions: number; reset_codes: number }> {
  const s = await gone(
    db,
    sql`with gone as (delete from ${sessions}
          where ${sessions.expires_at} <= now() or ${sessions.revoked_at} is not null returning 1)
        select count(*)::int as n from gone`,
  );
  const r = await gone(
    db,
    sql`with gone as (delete from ${passwordResetCodes}
          where ${passwordResetCodes.used_at} is not null or ${passwordResetCodes.expires_at} <= now()
          returning 1)
        select count(*)::int as n from gone`,
  );
  return { sessions: s, reset_codes: r };
}
