import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { invalidField } from '../../lib/errors.js';
import { memberships } from '../user-clients/views.js';
import { userAccounts } from '../users/views.js';

/**
 * The user an attended agent's hello names (`attended_user`, an access): one who is a member of
 * the agent's client, else a field error; no access, an unattended agent (null).
 */
export async function attendedUserOf(
  db: Db,
  clientId: number,
  access: string | undefined,
): Promise<number | null> {
  if (access === undefined) return null;
  const u = userAccounts;
  const m = memberships;
  const [row] = await db
    .select({ users_id: u.users_id })
    .from(u)
    .innerJoin(m, and(eq(m.users_id, u.users_id), eq(m.rota_clients_id, clientId)))
    // Accesses are stored lower-case.
    .where(eq(u.access, access.trim().toLowerCase()))
    .limit(1);
  if (!row) throw invalidField('attended_user', 'attended_user_unknown');
  return row.users_id;
}
