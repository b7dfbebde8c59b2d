import { asc, eq, or, sql } from 'drizzle-orm';
import type { ClientSummary, Permission } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { profiles, rotaClients, userClients, users } from '../../db/schema.js';

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

/** The clients a user works for, with the profile held in each. */
export async function listMemberships(db: Db, usersId: number) {
  const rows = await db
    .select({
      rota_clients_id: rotaClients.rota_clients_id,
      name: rotaClients.name,
      permissions: profiles.permissions,
    })
    .from(userClients)
    .innerJoin(rotaClients, eq(rotaClients.rota_clients_id, userClients.rota_clients_id))
    .innerJoin(profiles, eq(profiles.profiles_id, userClients.profiles_id))
    .where(eq(userClients.users_id, usersId))
    .orderBy(asc(rotaClients.name), asc(rotaClients.rota_clients_id));
  return rows.map((r) => ({ ...r, permissions: r.permissions as Permission[] }));
}

export async function setSelectedClient(db: Db, usersId: number, clientId: number | null) {
  await db
    .update(users)
    .set({ rota_clients_id_selected: clientId, updated_at: sql`now()` })
    .where(eq(users.users_id, usersId));
}

export async function setPassword(db: Db, usersId: number, passwordHash: string) {
  await db
    .update(users)
    .set({ password_hash: passwordHash, password_change_required: false, updated_at: sql`now()` })
    .where(eq(users.users_id, usersId));
}

export type Membership = Awaited<ReturnType<typeof listMemberships>>[number];
export const toClientSummary = (m: Membership): ClientSummary => ({
  rota_clients_id: m.rota_clients_id,
  name: m.name,
});
