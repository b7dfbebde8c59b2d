import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { writeBackupFile } from './create-backup.js';
import { pendingMigrations, readJournal, schemaStateOf } from './schema-state.js';

/** DATA_DIR/backups: where the embedded server keeps the backups it takes before migrating. */
export const BACKUPS_FOLDER = 'backups';
export const KEPT_MIGRATION_BACKUPS = 3;
const PREFIX = 'before-migration-';

/**
 * Backs up an embedded database that is about to be migrated to a newer schema (a database
 * never migrated has nothing to lose). Keeps the last three. Answers the file, or null when no
 * migration is pending.
 */
export async function backupBeforeMigrating(options: {
  pglite: PGlite;
  dataDir: string;
  keyFingerprint: string;
  migrationsFolder: string;
  now?: Date;
}): Promise<string | null> {
  const state = await schemaStateOf(options.pglite);
  if (state.migrations === 0) return null;
  const pending = pendingMigrations(await readJournal(options.migrationsFolder), state);
  if (pending.length === 0) return null;
  const folder = path.join(options.dataDir, BACKUPS_FOLDER);
  // The name sorts by time, and says which schema it holds.
  const stamp = (options.now ?? new Date()).toISOString().replace(/[-:.]/g, '');
  const file = path.join(folder, `${PREFIX}${stamp}-schema-${state.migrations}.tar.gz`);
  await writeBackupFile(options, file);
  await keepLatest(folder, KEPT_MIGRATION_BACKUPS);
  return file;
}

async function keepLatest(folder: string, count: number) {
  const names = (await readdir(folder))
    .filter((name) => name.startsWith(PREFIX) && name.endsWith('.tar.gz'))
    .sort();
  for (const name of names.slice(0, Math.max(0, names.length - count))) {
    await rm(path.join(folder, name), { force: true });
  }
}
