import { count } from 'drizzle-orm';
import { PERMISSIONS } from '@rota/contract';
import type { Db } from './client.js';
import { profiles, rotaClients, userClients, users } from './schema.js';
import { generatePassword, hashPassword } from '../lib/passwords.js';

export const DEFAULT_CLIENT_NAME = 'Default';
export const ADMINISTRATOR_PROFILE_NAME = 'Administrator';

export interface SeedOptions {
  adminAccess: string;
  adminEmail: string;
  /** Unset: a random one, returned once, which the admin must change at first sign-in. */
  adminPassword?: string | undefined;
}

export interface SeedResult {
  access: string;
  email: string;
  /** Present only when this call generated it. */
  generatedPassword?: string;
}

/** First start only: client "Default", its "Administrator" profile with the whole catalogue, and the admin in it. */
export async function seedDatabase(db: Db, options: SeedOptions): Promise<SeedResult | null> {
  const [existing] = await db.select({ n: count() }).from(rotaClients);
  if ((existing?.n ?? 0) > 0) return null;

  const generated = options.adminPassword ? undefined : generatePassword();
  const passwordHash = await hashPassword(options.adminPassword ?? generated!);
  await db.transaction(async (tx) => {
    const [client] = await tx.insert(rotaClients).values({ name: DEFAULT_CLIENT_NAME }).returning();
    const [profile] = await tx
      .insert(profiles)
      .values({
        rota_clients_id: client!.rota_clients_id,
        name: ADMINISTRATOR_PROFILE_NAME,
        permissions: [...PERMISSIONS],
      })
      .returning();
    const [admin] = await tx
      .insert(users)
      .values({
        name: 'Admin',
        last_name: 'Rota',
        email: options.adminEmail.toLowerCase(),
        access: options.adminAccess.toLowerCase(),
        password_hash: passwordHash,
        password_change_required: generated !== undefined,
        is_platform_admin: true,
        rota_clients_id_selected: client!.rota_clients_id,
      })
      .returning();
    await tx.insert(userClients).values({
      users_id: admin!.users_id,
      rota_clients_id: client!.rota_clients_id,
      profiles_id: profile!.profiles_id,
    });
  });
  return {
    access: options.adminAccess,
    email: options.adminEmail,
    ...(generated ? { generatedPassword: generated } : {}),
  };
}
