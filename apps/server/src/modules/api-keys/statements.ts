import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { userApiKeys } from '../../db/schema/api-keys.js';

/**
 * Every live key of a user, in every client, stops working: lent to auth, whose password change
 * or reset runs it in its own transaction (a stolen password may have minted keys; a key that
 * outlives the change would keep the thief in).
 */
export async function revokeUserApiKeys(db: Db, usersId: number): Promise<void> {
  await db
    .update(userApiKeys)
    .set({ revoked_at: sql`now()` })
    .where(and(eq(userApiKeys.users_id, usersId), isNull(userApiKeys.revoked_at)));
}
