import { asc, count, desc, eq, getTableColumns, ilike, notExists, sql } from 'drizzle-orm';
import {
  ADMINISTRATOR_PROFILE_NAME,
  PERMISSIONS,
  type Permission,
  type ProfileCreate,
  type ProfileListQuery,
  type ProfileUpdate,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { profiles } from '../../db/schema/profiles.js';
import { likePattern, pageWindow } from '../../lib/pagination.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { memberships } from '../user-clients/views.js';

/**
 * Memberships holding the profile. The profile's key is written out qualified: Drizzle leaves
 * the columns of a single-table select bare, and a bare "profiles_id" inside the subquery would
 * be the membership's own column, counting every membership of every client.
 */
const usersOfProfile = sql<number>`(select count(*)::int from ${memberships} where ${memberships.profiles_id} = ${sql.raw('"profiles"."profiles_id"')})`;

const profileColumns = { ...getTableColumns(profiles), users: usersOfProfile };

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
      .orderBy(direction(sortColumns[query.sort]), direction(profiles.profiles_id))
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

export async function insertProfile(db: Db, scope: TenantScope, values: ProfileCreate) {
  const [row] = await db
    .insert(profiles)
    .values(scope.stamp(values))
    .returning({ id: profiles.profiles_id });
  return row!.id;
}

export async function updateProfile(
  db: Db,
  scope: TenantScope,
  id: number,
  values: Omit<ProfileUpdate, 'id'>,
): Promise<boolean> {
  const updated = await db
    .update(profiles)
    .set({ ...values, updated_at: sql`now()` })
    .where(scope.where(profiles, eq(profiles.profiles_id, id)))
    .returning({ id: profiles.profiles_id });
  return updated.length > 0;
}

/**
 * Deletes a profile nobody holds. The check is in the statement (the foreign key is RESTRICT,
 * but a clear answer beats a violation caught afterwards).
 */
export async function deleteProfile(
  db: Db,
  scope: TenantScope,
  id: number,
): Promise<'deleted' | 'in_use' | 'absent'> {
  const deleted = await db
    .delete(profiles)
    .where(
      scope.where(
        profiles,
        eq(profiles.profiles_id, id),
        notExists(
          db
            .select({ id: memberships.user_clients_id })
            .from(memberships)
            .where(eq(memberships.profiles_id, id)),
        ),
      ),
    )
    .returning({ id: profiles.profiles_id });
  if (deleted.length > 0) return 'deleted';
  return (await findProfile(db, scope, id)) ? 'in_use' : 'absent';
}

const withPermissions = <T extends { permissions: string[] }>(row: T) => ({
  ...row,
  permissions: row.permissions as Permission[],
});

/** A new client's "Administrator" profile, holding the whole catalogue (provisionClient). */
export async function insertAdministratorProfile(db: Db, scope: TenantScope) {
  const [row] = await db
    .insert(profiles)
    .values(
      scope.stamp({ name: ADMINISTRATOR_PROFILE_NAME, permissions: [...PERMISSIONS] as string[] }),
    )
    .returning();
  return row!;
}
