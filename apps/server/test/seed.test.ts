import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '@rota/contract';
import { profiles, rotaClients, userClients, users } from '../src/db/schema/index.js';
import { seedDatabase } from '../src/db/seed.js';
import { verifyPassword } from '../src/lib/passwords.js';
import { openTestDatabase } from './helpers/database.js';

describe('first start', () => {
  it('seeds Default, Administrator with the whole catalogue and the admin, once', async () => {
    const database = await openTestDatabase();
    try {
      const first = await seedDatabase(database.db, {
        adminAccess: 'boss',
        adminEmail: 'Boss@Example.com',
      });
      expect(first?.generatedPassword).toMatch(/^\S{16}$/);
      const second = await seedDatabase(database.db, {
        adminAccess: 'boss',
        adminEmail: 'boss@example.com',
      });
      expect(second).toBeNull();

      expect((await database.db.select().from(rotaClients)).map((c) => c.name)).toEqual([
        'Default',
      ]);
      const [profile] = await database.db.select().from(profiles);
      expect(profile!.name).toBe('Administrator');
      expect([...profile!.permissions].sort()).toEqual([...PERMISSIONS].sort());
      const [admin] = await database.db.select().from(users);
      expect(admin).toMatchObject({
        access: 'boss',
        email: 'boss@example.com',
        password_change_required: true,
        is_platform_admin: true,
      });
      expect(await verifyPassword(first!.generatedPassword!, admin!.password_hash)).toBe(true);
      expect(await database.db.select().from(userClients)).toHaveLength(1);
    } finally {
      await database.close();
    }
  });

  it('does not ask to change a password given through ROTA_ADMIN_PASSWORD', async () => {
    const database = await openTestDatabase();
    try {
      const result = await seedDatabase(database.db, {
        adminAccess: 'admin',
        adminEmail: 'admin@localhost',
        adminPassword: 'given-password',
      });
      expect(result?.generatedPassword).toBeUndefined();
      const [admin] = await database.db.select().from(users);
      expect(admin!.password_change_required).toBe(false);
    } finally {
      await database.close();
    }
  });
});
