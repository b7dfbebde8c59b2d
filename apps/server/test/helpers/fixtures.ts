import { eq } from 'drizzle-orm';
import { PERMISSIONS, type Permission } from '@rota/contract';
import type { Db } from '../../src/db/client.js';
import { profiles, rotaClients, userClients, users } from '../../src/db/schema/index.js';
import { hashPassword } from '../../src/lib/passwords.js';
import { provisionClient } from '../../src/modules/clients/provision-client.js';

/** Test data written straight to the database, until the administration API exists. */
export async function createClient(db: Db, name: string) {
  const [row] = await db.insert(rotaClients).values({ name }).returning();
  return row!;
}

export async function findClient(db: Db, name: string) {
  const [row] = await db.select().from(rotaClients).where(eq(rotaClients.name, name));
  return row!;
}

export async function createProfile(
  db: Db,
  clientId: number,
  name: string,
  permissions: readonly Permission[],
) {
  const [row] = await db
    .insert(profiles)
    .values({ rota_clients_id: clientId, name, permissions: [...permissions] })
    .returning();
  return row!;
}

export const ALL_PERMISSIONS = PERMISSIONS;

export async function createUser(
  db: Db,
  input: {
    access: string;
    password: string;
    name?: string;
    last_name?: string;
    email?: string;
    password_change_required?: boolean;
    memberships: { clientId: number; profileId: number }[];
  },
) {
  const [user] = await db
    .insert(users)
    .values({
      access: input.access,
      email: input.email ?? `${input.access}@example.com`,
      name: input.name ?? input.access,
      last_name: input.last_name ?? 'Tester',
      password_hash: await hashPassword(input.password),
      password_change_required: input.password_change_required ?? false,
      rota_clients_id_selected: input.memberships[0]?.clientId ?? null,
    })
    .returning();
  for (const m of input.memberships) {
    await db
      .insert(userClients)
      .values({ users_id: user!.users_id, rota_clients_id: m.clientId, profiles_id: m.profileId });
  }
  return user!;
}

/** A client as the clients API makes one: its Administrator profile and default status items. */
export async function createProvisionedClient(db: Db, name: string) {
  const { client, profile } = await provisionClient(db, name);
  return { client, adminProfile: profile };
}

export async function makePlatformAdmin(db: Db, usersId: number) {
  await db.update(users).set({ is_platform_admin: true }).where(eq(users.users_id, usersId));
}
