import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

/** Rows of a raw statement; both drivers answer `{rows}`. */
export async function rowsOf<T>(db: Db, statement: SQL): Promise<T[]> {
  const result = (await db.execute(statement)) as unknown as { rows: T[] };
  return result.rows;
}
