import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.js';
import { hotStatement } from '../src/lib/sql-rows.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

/** Rendered once, prepared on PostgreSQL: the same statement on the database and in a transaction. */
const stateOf = hotStatement<{ at: string }>(
  'rota_test_engine_state',
  () => sql`select at::text as at from engine_state where key = ${sql.placeholder('key')}`,
);

describe('a hot statement', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ engine: { loop: false } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('runs on the database and, inside a transaction, on its connection', async () => {
    expect(await stateOf(t.db, { key: 'hot-statement-test' })).toEqual([]);
    await expect(
      t.db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        await tx.execute(
          sql`insert into engine_state (key, at) values ('hot-statement-test', now())`,
        );
        // Sees the transaction's own uncommitted row: it ran on the transaction's connection.
        expect(await stateOf(tx, { key: 'hot-statement-test' })).toHaveLength(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await stateOf(t.db, { key: 'hot-statement-test' })).toEqual([]);
  });
});
