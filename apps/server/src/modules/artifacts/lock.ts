import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

/** First keys of this module's advisory locks (arbitrary constants). */
const EXECUTION_LOCK_SPACE = 7_274_301;
const BLOB_LOCK_SPACE = 7_274_302;

/** Serialises uploads of one execution until the transaction ends (the per-run limit). */
export async function lockExecutionArtifacts(db: Db, executionId: number): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(${EXECUTION_LOCK_SPACE}, ${executionId})`);
}

/** Serialises an upload reusing an artifact blob with the sweep removing it. */
export async function lockArtifactBlob(db: Db, sha256: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(${BLOB_LOCK_SPACE}, hashtext(${sha256}))`);
}
