import { randomBytes } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../src/db/client.js';
import { createPglite, openPglite } from '../src/db/pglite.js';
import { seedDatabase } from '../src/db/seed.js';
import { restoreBackup } from '../src/db/backup/restore-backup.js';
import { keyFingerprint } from '../src/lib/secret-box.js';
import { everyRow } from './helpers/backup.js';

/**
 * The embedded server's backup before a migration: taken only when one is pending, the last
 * three kept, and a migration that fails leaves the database as it was. The newer schema is a
 * copy of the real migrations with one more, written here: the product ships none that fails.
 */
const embedded = !process.env.DATABASE_URL;

describe.runIf(embedded)(
  'backup before migrating the embedded database',
  { timeout: 180_000 },
  () => {
    let root: string;
    let dataDir: string;
    const secretKey = randomBytes(32);

    beforeAll(async () => {
      root = await mkdtemp(path.join(os.tmpdir(), 'rota-migration-'));
      dataDir = path.join(root, 'data');
      await mkdir(dataDir);
      const database = await openWith(MIGRATIONS_DIR);
      const noted: string[] = [];
      await database.migrate();
      await seedDatabase(database.db, {
        adminAccess: 'admin',
        adminEmail: 'admin@localhost',
        adminPassword: 'admin-password-1',
      });
      await database.close();
      // Migrated to the current schema and reopened: nothing pending, no backup.
      const again = await openWith(MIGRATIONS_DIR, noted);
      await again.migrate();
      await again.close();
      expect(noted).toEqual([]);
    });
    afterAll(() => rm(root, { recursive: true, force: true }));

    async function openWith(migrationsFolder: string, noted: string[] = []) {
      return openPglite(await createPglite({ dataDir: path.join(dataDir, 'pglite') }), {
        dataDir,
        keyFingerprint: keyFingerprint(secretKey),
        migrationsFolder,
        onBackup: (file) => noted.push(file),
      });
    }

    /** The real migrations and one more, whose statements are `sql`. */
    async function newerSchema(name: string, sql: string) {
      const folder = path.join(root, name);
      await cp(MIGRATIONS_DIR, folder, { recursive: true });
      const journalFile = path.join(folder, 'meta', '_journal.json');
      const journal = JSON.parse(await readFile(journalFile, 'utf8')) as {
        entries: {
          idx: number;
          version: string;
          when: number;
          tag: string;
          breakpoints: boolean;
        }[];
      };
      const last = journal.entries.at(-1)!;
      const tag = `${String(last.idx + 1).padStart(4, '0')}_${name}`;
      journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1, tag });
      await writeFile(journalFile, JSON.stringify(journal));
      await writeFile(path.join(folder, `${tag}.sql`), sql);
      return folder;
    }

    const backups = async () =>
      (await readdir(path.join(dataDir, 'backups'))).filter((n) => n.endsWith('.tar.gz')).sort();

    async function rowsNow() {
      const pglite = await createPglite({ dataDir: path.join(dataDir, 'pglite') });
      try {
        return await everyRow((q) => pglite.query(q));
      } finally {
        await pglite.close();
      }
    }

    it('leaves the database untouched when a migration fails, with a backup taken first', async () => {
      const before = await rowsNow();
      const failing = await newerSchema(
        'fails_on_purpose',
        `create table upgrade_probe (id int);\n--> statement-breakpoint\nupdate users set name = 'half an upgrade';\n--> statement-breakpoint\nselect 1 / 0;`,
      );
      const noted: string[] = [];
      const database = await openWith(failing, noted);
      await expect(database.migrate()).rejects.toThrow(/select 1 \/ 0/);
      await database.close();

      expect(noted).toHaveLength(1);
      expect(await backups()).toEqual([path.basename(noted[0]!)]);
      // Every table as it was: no probe table, no half-inserted client, no migration recorded.
      expect(await rowsNow()).toEqual(before);

      // And the backup restores to that same database.
      const restored = path.join(root, 'restored');
      await restoreBackup({
        archive: noted[0]!,
        target: restored,
        secretKey,
        writeKeyFile: false,
        forceOtherKey: false,
        migrationsFolder: MIGRATIONS_DIR,
      });
      const pglite = await createPglite({ dataDir: path.join(restored, 'pglite') });
      const copy = await everyRow((q) => pglite.query(q));
      await pglite.close();
      expect(copy).toEqual(before);
    });

    it('keeps the last three backups taken before migrations', async () => {
      const failing = path.join(root, 'fails_on_purpose');
      const taken: string[] = [];
      for (let i = 0; i < 3; i++) {
        const database = await openWith(failing, taken);
        await expect(database.migrate()).rejects.toThrow();
        await database.close();
      }
      const upgrade = await newerSchema('adds_a_table', 'create table upgrade_probe (id int);');
      const database = await openWith(upgrade, taken);
      await database.migrate();
      await database.close();
      // Four more were taken (five in all with the test above); the three latest remain.
      expect(taken).toHaveLength(4);
      const kept = await backups();
      expect(kept).toEqual(taken.slice(-3).map((file) => path.basename(file)));
      expect(kept.at(-1)).toMatch(/^before-migration-.*\.tar\.gz$/);

      // The migration applied: now nothing is pending, so no backup.
      const current = await openWith(upgrade, taken);
      await current.migrate();
      await current.close();
      expect(taken).toHaveLength(4);
    });
  },
);
