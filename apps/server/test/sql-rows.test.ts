import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.js';
import { memoizedTextArrays } from '../src/lib/memoized-text-arrays.js';
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

describe('memoized text arrays', () => {
  const { getTypeParser } = memoizedTextArrays();
  const parseTextArray = getTypeParser(1009 as Parameters<typeof getTypeParser>[0], 'text') as (
    text: string,
  ) => readonly string[];

  it('parses a text[] once per distinct text and answers the same frozen list after that', () => {
    const first = parseTextArray('{ROBOS.LIST,"A, B","C\\"D",NULL}');
    expect(first).toEqual(['ROBOS.LIST', 'A, B', 'C"D', null]);
    expect(Object.isFrozen(first)).toBe(true);
    expect(parseTextArray('{ROBOS.LIST,"A, B","C\\"D",NULL}')).toBe(first);
    expect(() => (first as string[]).push('X')).toThrow(TypeError);
    const other = parseTextArray('{ROBOS.LIST}');
    expect(other).toEqual(['ROBOS.LIST']);
    expect(other).not.toBe(first);
    expect(parseTextArray('{}')).toEqual([]);
  });

  it('keeps a bounded number of lists: past a thousand it parses again', () => {
    const first = parseTextArray('{bounded}');
    for (let i = 0; i < 1_000; i += 1) parseTextArray(`{x${i}}`);
    const again = parseTextArray('{bounded}');
    expect(again).toEqual(['bounded']);
    expect(again).not.toBe(first);
  });

  it("leaves every other type to pg's own parsers", () => {
    const parseInt4 = getTypeParser(23 as Parameters<typeof getTypeParser>[0], 'text') as (
      text: string,
    ) => unknown;
    expect(parseInt4('42')).toBe(42);
    const parseIntArray = getTypeParser(1007 as Parameters<typeof getTypeParser>[0], 'text') as (
      text: string,
    ) => unknown;
    expect(parseIntArray('{1,2}')).toEqual([1, 2]);
  });
});
