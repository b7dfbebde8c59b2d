import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

/** First key of the package advisory locks (an arbitrary constant of this module). */
const PACKAGE_LOCK_SPACE = 7_274_275;

/**
 * Serialises, across server instances, everything that adds or removes the file of one
 * sha256, until the transaction ends: an upload must not reuse a file a delete is removing
 * (nor the blob sweep remove one an upload is reusing). It touches no table.
 */
export async function lockPackage(db: Db, sha256: string): Promise<void> {
  // The two-key form keeps these locks apart from the one-key migration lock.
  await db.execute(sql`select pg_advisory_xact_lock(${PACKAGE_LOCK_SPACE}, hashtext(${sha256}))`);
}
