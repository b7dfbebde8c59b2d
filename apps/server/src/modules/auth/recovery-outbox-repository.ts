import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { recoveryOutbox } from '../../db/schema/auth.js';
import { rowsOf } from '../../lib/sql-rows.js';

export interface OutboxRow {
  recovery_outbox_id: number;
  email: string;
  lang: string;
  attempts: number;
}

export async function insertOutboxRow(db: Db, email: string, lang: string): Promise<void> {
  await db.insert(recoveryOutbox).values({ email, lang });
}

/**
 * Leases the oldest due row, its lease doubling with each attempt; SKIP LOCKED, so instances
 * never take the same one.
 */
export async function takeOutboxRow(
  db: Db,
  firstLeaseSeconds: number,
): Promise<OutboxRow | undefined> {
  const [row] = await rowsOf<OutboxRow>(
    db,
    sql`update recovery_outbox set attempts = attempts + 1,
          next_attempt_at = now() + make_interval(secs => ${firstLeaseSeconds}::float8 * power(2, attempts))
        where recovery_outbox_id = (
          select recovery_outbox_id from recovery_outbox where next_attempt_at <= now()
          order by recovery_outbox_id limit 1 for update skip locked)
        returning recovery_outbox_id, email, lang, attempts`,
  );
  return row;
}

export async function deleteOutboxRow(db: Db, id: number): Promise<void> {
  await db.execute(sql`delete from recovery_outbox where recovery_outbox_id = ${id}`);
}
