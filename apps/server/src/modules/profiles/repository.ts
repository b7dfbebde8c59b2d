import { asc, count, desc, eq, getTableColumns, ilike, sql } from 'drizzle-orm';
import type { Permission, ProfileListQuery } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { profiles, userClients } from '../../db/schema.js';
import { likePattern, pageWindow } from '../../lib/pagination.js';
import type { TenantScope } from '../../lib/tenant-scope.js';

const profileColumns = {
  ...getTableColumns(profiles),
  users: sql<number>`(select count(*)::int from ${userClients} uc where uc.profiles_id = ${profiles.profiles_id})`,
};

const sortColumns = { name: profiles.name, created_at: profiles.created_at } as const;

export async function listProfiles(db: Db, scope: TenantScope, query: ProfileListQuery) {
  const where = scope.where(
    profiles,
    query.search ? ilike(profiles.name, likePattern(query.search)) : undefined,
  );
  const direction = query.order === 'desc' ? desc : asc;
  const { limit, offset } = pageWindow(query);
  const [rows, [totals]] = await Promise.all([
    db
      .select(profileColumns)
      .from(profiles)
      .where(where)
      .orderBy(direction(sortColumns[query.sort]), asc(profiles.profiles_id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(profiles).where(where),
  ]);
  return { rows: rows.map(withPermissions), total: totals?.total ?? 0 };
}

export async function findProfile(db: Db, scope: TenantScope, id: number) {
  const [row] = await db
    .select(profileColumns)
    .from(profiles)
    .where(scope.where(profiles, eq(profiles.profiles_id, id)));
  return row ? withPermissions(row) : undefined;
}

const withPermissions = <T extends { permissions: string[] }>(row: T) => ({
  ...row,
  permissions: row.permissions as Permission[],
});
