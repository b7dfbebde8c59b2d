import { and, eq } from 'drizzle-orm';
import type { AccessRequestListQuery, AccessRequestStatus } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { accessRequests } from '../../db/schema/users.js';
import { count, orderBy, pageOf, searchAny } from '../../lib/list-query.js';

const sortable = {
  created_at: accessRequests.created_at,
  name: accessRequests.name,
  email: accessRequests.email,
  client_name: accessRequests.client_name,
} as const;

export type AccessRequestRow = typeof accessRequests.$inferSelect;

export async function listAccessRequests<R>(
  db: Db,
  query: AccessRequestListQuery,
  map: (row: AccessRequestRow) => R,
) {
  const where = and(
    searchAny(query.search, [
      accessRequests.name,
      accessRequests.email,
      accessRequests.client_name,
    ]),
    query.status ? eq(accessRequests.status, query.status) : undefined,
  );
  return pageOf(
    query,
    db
      .select()
      .from(accessRequests)
      .where(where)
      .orderBy(...orderBy(sortable[query.sort], query.order, accessRequests.access_requests_id))
      .$dynamic(),
    db.select({ total: count() }).from(accessRequests).where(where),
    map,
  );
}

export async function findAccessRequest(db: Db, id: number) {
  const [row] = await db
    .select()
    .from(accessRequests)
    .where(eq(accessRequests.access_requests_id, id));
  return row;
}

export async function setAccessRequestStatus(
  db: Db,
  id: number,
  status: AccessRequestStatus,
): Promise<boolean> {
  const updated = await db
    .update(accessRequests)
    .set({ status })
    .where(eq(accessRequests.access_requests_id, id))
    .returning({ id: accessRequests.access_requests_id });
  return updated.length > 0;
}

export async function insertAccessRequest(
  db: Db,
  values: Pick<
    typeof accessRequests.$inferInsert,
    'name' | 'email' | 'client_name' | 'message' | 'ip'
  >,
) {
  await db.insert(accessRequests).values(values);
}
