import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

/** First key of this module's advisory locks (an arbitrary constant). */
const EXECUTION_LOCK_SPACE = 7_274_301;

/** Serialises uploads of one execution until the transaction ends (the per-run limit). */
export async function lockExecutionArtifacts(db: Db, executionId: number): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(${EXECUTION_LOCK_SPACE}, ${executionId})`);
}
