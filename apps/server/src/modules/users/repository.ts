import { and, asc, eq, exists, ilike, ne, not, or, sql, type SQL } from 'drizzle-orm';
import type { UserListQuery } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema/users.js';
import type { FieldIssue } from '../../lib/errors.js';
import { count, orderBy, pageOf, searchAny } from '../../lib/list-query.js';
import { likePattern } from '../../lib/pagination.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { clientNames } from '../clients/views.js';
import { memberships } from '../user-clients/views.js';

/** By access identifier or email, both stored lower-case. */
export async function findUserByIdentifier(db: Db, identifier: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(or(eq(users.access, identifier), eq(users.email, identifier)))
    .limit(1);
  return row;
}

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row;
}

export async function findUserById(db: Db, usersId: number) {
  const [row] = await db.select().from(users).where(eq(users.users_id, usersId)).limit(1);
  return row;
}

export async function setSelectedClient(db: Db, usersId: number, clientId: number | null) {
  await db
    .update(users)
    .set({ rota_clients_id_selected: clientId, updated_at: sql`now()` })
    .where(eq(users.users_id, usersId));
}

/** A new password; `changeRequired` when someone else set it and the user must replace it. */
export async function setPassword(
  db: Db,
  usersId: number,
  passwordHash: string,
  changeRequired = false,
) {
  await db
    .update(users)
    .set({
      password_hash: passwordHash,
      password_change_required: changeRequired,
      updated_at: sql`now()`,
    })
    .where(eq(users.users_id, usersId));
}

/* ---------- The users area: accounts as administrators see them. ---------- */

/** Everything of a user but the password hash, which never leaves this module's writes. */
const accountColumns = {
  users_id: users.users_id,
  name: users.name,
  last_name: users.last_name,
  email: users.email,
  access: users.access,
  group: users.group,
  sector: users.sector,
  work: users.work,
  role: users.role,
  avatar: users.avatar,
  language: users.language,
  color_scheme: users.color_scheme,
  password_change_required: users.password_change_required,
  is_platform_admin: users.is_platform_admin,
  created_at: users.created_at,
  updated_at: users.updated_at,
};

function selectAccounts(db: Db) {
  return db.select(accountColumns).from(users);
}

export type AccountRow = Awaited<ReturnType<typeof selectAccounts>>[number];

const userSortable = {
  name: users.name,
  email: users.email,
  access: users.access,
  created_at: users.created_at,
} as const;

/**
 * Members of the selected client. Joined to the membership (one per user and client) rather
 * than filtered by a subquery, so the tenant condition sits where `scope.where` puts it.
 */
function selectMembers(db: Db, scope: TenantScope, ...conditions: (SQL | undefined)[]) {
  return db
    .select(accountColumns)
    .from(users)
    .innerJoin(memberships, eq(memberships.users_id, users.users_id))
    .where(scope.where(memberships, ...conditions));
}

export async function listUsers<R>(
  db: Db,
  scope: TenantScope,
  query: UserListQuery,
  map: (row: AccountRow) => R,
) {
  const conditions = [
    searchAny(query.search, [users.name, users.last_name, users.email, users.access]),
    query.profiles_id ? eq(memberships.profiles_id, query.profiles_id) : undefined,
  ];
  return pageOf(
    query,
    selectMembers(db, scope, ...conditions)
      .orderBy(...orderBy(userSortable[query.sort], query.order, users.users_id))
      .$dynamic(),
    db
      .select({ total: count() })
      .from(users)
      .innerJoin(memberships, eq(memberships.users_id, users.users_id))
      .where(scope.where(memberships, ...conditions)),
    map,
  );
}

/** A user who belongs to the selected client; another client's user is not found. */
export async function findMember(db: Db, scope: TenantScope, usersId: number) {
  const [row] = await selectMembers(db, scope, eq(users.users_id, usersId));
  return row;
}

export async function findAccount(db: Db, usersId: number): Promise<AccountRow | undefined> {
  const [row] = await selectAccounts(db).where(eq(users.users_id, usersId));
  return row;
}

/** `{users_id, name, last_name}` of the selected client's members, for pickers. */
export async function listMemberNames(
  db: Db,
  scope: TenantScope,
  search: string | undefined,
  limit: number,
) {
  const pattern = search ? likePattern(search) : undefined;
  return db
    .select({ users_id: users.users_id, name: users.name, last_name: users.last_name })
    .from(users)
    .innerJoin(memberships, eq(memberships.users_id, users.users_id))
    .where(
      scope.where(
        memberships,
        pattern
          ? or(
              ilike(users.name, pattern),
              ilike(users.last_name, pattern),
              ilike(sql`${users.name} || ' ' || ${users.last_name}`, pattern),
            )
          : undefined,
      ),
    )
    .orderBy(asc(users.name), asc(users.last_name), asc(users.users_id))
    .limit(limit);
}

/** Field errors for an email or access already taken by another user (both are unique). */
export async function accountConflicts(
  db: Db,
  values: { email?: string | undefined; access?: string | undefined },
  exceptId?: number,
): Promise<FieldIssue[]> {
  const checks = [
    values.email === undefined ? undefined : eq(users.email, values.email),
    values.access === undefined ? undefined : eq(users.access, values.access),
  ].filter(Boolean);
  if (checks.length === 0) return [];
  const rows = await db
    .select({ email: users.email, access: users.access })
    .from(users)
    .where(and(or(...checks), exceptId === undefined ? undefined : ne(users.users_id, exceptId)));
  const issues: FieldIssue[] = [];
  if (values.email !== undefined && rows.some((r) => r.email === values.email)) {
    issues.push({ field: 'email', message: 'duplicate_email' });
  }
  if (values.access !== undefined && rows.some((r) => r.access === values.access)) {
    issues.push({ field: 'access', message: 'duplicate_access' });
  }
  return issues;
}

export type AccountValues = Partial<
  Pick<
    typeof users.$inferInsert,
    | 'name'
    | 'last_name'
    | 'email'
    | 'access'
    | 'group'
    | 'sector'
    | 'work'
    | 'role'
    | 'avatar'
    | 'password_change_required'
    | 'language'
    | 'color_scheme'
  >
>;

export async function insertAccount(
  db: Db,
  values: AccountValues &
    Pick<typeof users.$inferInsert, 'name' | 'email' | 'access' | 'password_hash'> & {
      rota_clients_id_selected: number;
    },
): Promise<number> {
  const [row] = await db.insert(users).values(values).returning({ id: users.users_id });
  return row!.id;
}

export async function updateAccount(db: Db, usersId: number, values: AccountValues) {
  if (Object.keys(values).length === 0) return;
  await db
    .update(users)
    .set({ ...values, updated_at: sql`now()` })
    .where(eq(users.users_id, usersId));
}

/** Memberships, sessions, recovery codes and team places go with the user (ON DELETE CASCADE). */
export async function deleteAccount(db: Db, usersId: number) {
  await db.delete(users).where(eq(users.users_id, usersId));
}

/** Whether any user still shows this picture (files are shared by content). */
export async function avatarInUse(db: Db, avatar: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.users_id })
    .from(users)
    .where(eq(users.avatar, avatar))
    .limit(1);
  return Boolean(row);
}

/**
 * After memberships changed: a user whose selected client is no longer theirs moves to the
 * first client they still belong to, so their next request works there at once.
 */
export async function repairSelectedClient(db: Db, usersId: number) {
  const firstClient = db
    .select({ id: memberships.rota_clients_id })
    .from(memberships)
    .innerJoin(clientNames, eq(clientNames.rota_clients_id, memberships.rota_clients_id))
    .where(eq(memberships.users_id, usersId))
    .orderBy(asc(clientNames.name), asc(clientNames.rota_clients_id))
    .limit(1);
  const stillMember = exists(
    db
      .select({ one: sql`1` })
      .from(memberships)
      .where(
        and(
          eq(memberships.users_id, usersId),
          eq(memberships.rota_clients_id, users.rota_clients_id_selected),
        ),
      ),
  );
  await db
    .update(users)
    .set({ rota_clients_id_selected: sql`(${firstClient})` })
    .where(
      and(
        eq(users.users_id, usersId),
        or(sql`${users.rota_clients_id_selected} is null`, not(stillMember)),
      ),
    );
}

/** Serialises membership changes of one user, so "keep at least one" holds under races. */
export async function lockUser(db: Db, usersId: number): Promise<boolean> {
  const rows = await db
    .select({ id: users.users_id })
    .from(users)
    .where(eq(users.users_id, usersId))
    .for('update');
  return rows.length > 0;
}
