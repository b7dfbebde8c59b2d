import { sql, type SQL } from 'drizzle-orm';
import { QueryBuilder, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { users } from '../../db/schema/users.js';

const qb = new QueryBuilder();

/**
 * Read-only: a user as other modules may join on (names, email, what a session carries), never
 * the password hash (PostgreSQL inlines it). A leaf (it imports the schema only), so views
 * joining each other form no import cycle.
 */
export const userAccounts = qb
  .select({
    users_id: users.users_id,
    access: users.access,
    name: users.name,
    last_name: users.last_name,
    email: users.email,
    group: users.group,
    avatar: users.avatar,
    language: users.language,
    color_scheme: users.color_scheme,
    password_change_required: users.password_change_required,
    is_platform_admin: users.is_platform_admin,
    rota_clients_id_selected: users.rota_clients_id_selected,
  })
  .from(users)
  .as('user_accounts');

/** A user's full name by id, as a scalar subquery (null when `id` is null or the user is gone). */
export const userNameOf = (id: AnyPgColumn): SQL<string | null> =>
  sql<
    string | null
  >`(select trim(${users.name} || ' ' || ${users.last_name}) from ${users} where ${users.users_id} = ${id})`;
