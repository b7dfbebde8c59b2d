import { count } from 'drizzle-orm';
import { ADMINISTRATOR_PROFILE_NAME } from '@rota/contract';
import type { Db } from './client.js';
import { rotaClients, userClients, users } from './schema/index.js';
import { provisionClient } from '../modules/clients/provision-client.js';
import { generatePassword, hashPassword } from '../lib/passwords.js';

export const DEFAULT_CLIENT_NAME = 'Default';
export { ADMINISTRATOR_PROFILE_NAME };

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

/** First start only: client "Default" (provisioned as every client is) and the admin in it. */
export async function seedDatabase(db: Db, options: SeedOptions): Promise<SeedResult | null> {
  const [existing] = await db.select({ n: count() }).from(rotaClients);
  if ((existing?.n ?? 0) > 0) return null;

  const generated = options.adminPassword ? undefined : generatePassword();
  const passwordHash = await hashPassword(options.adminPassword ?? generated!);
  await db.transaction(async (tx) => {
    const { client, profile } = await provisionClient(tx, DEFAULT_CLIENT_NAME);
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
        rota_clients_id_selected: client.rota_clients_id,
      })
      .returning();
    await tx.insert(userClients).values({
      users_id: admin!.users_id,
      rota_clients_id: client.rota_clients_id,
      profiles_id: profile.profiles_id,
    });
  });
  return {
    access: options.adminAccess,
    email: options.adminEmail,
    ...(generated ? { generatedPassword: generated } : {}),
  };
}
