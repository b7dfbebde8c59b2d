import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

/** What drizzle's migrator reads: one entry per migration, `when` is its `created_at`. */
interface JournalEntry {
  tag: string;
  when: number;
}

export async function readJournal(migrationsFolder: string): Promise<JournalEntry[]> {
  const text = await readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8');
  return (JSON.parse(text) as { entries: JournalEntry[] }).entries;
}

/** The migrations a database has applied, as drizzle's migrator records them. */
export interface SchemaState {
  migrations: number;
  /** The `created_at` of the last one; null for a database never migrated. */
  last: number | null;
}

export async function schemaStateOf(pglite: PGlite): Promise<SchemaState> {
  const exists = await pglite.query<{ found: string | null }>(
    `select to_regclass('drizzle.__drizzle_migrations')::text as found`,
  );
  if (!exists.rows[0]?.found) return { migrations: 0, last: null };
  const result = await pglite.query<{ migrations: number; last: string | null }>(
    'select count(*)::int as migrations, max(created_at)::text as last from drizzle.__drizzle_migrations',
  );
  const row = result.rows[0]!;
  return { migrations: row.migrations, last: row.last === null ? null : Number(row.last) };
}

/** The journal's migrations drizzle would apply to a database in `state` (same rule as its migrator). */
export function pendingMigrations(journal: JournalEntry[], state: SchemaState): JournalEntry[] {
  return journal.filter((entry) => state.last === null || state.last < entry.when);
}
