import { getTableName, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';

/**
 * A column's bare name, for the places SQL wants it unqualified: SET targets and insert column
 * lists. Written from the column reference, so renaming the column fails to compile here.
 */
export const col = (column: AnyPgColumn): SQL => sql`${sql.identifier(column.name)}`;

/** Drizzle keeps an alias's table name under this registered symbol (drizzle-orm/table.js). */
const ORIGINAL_NAME = Symbol.for('drizzle:OriginalName');

/** `"rota_executions" "e"` for a table aliased with drizzle's `alias(table, 'e')`. */
export function tableAs(aliased: PgTable): SQL {
  const original = (aliased as unknown as Record<symbol, string>)[ORIGINAL_NAME]!;
  return sql`${sql.identifier(original)} ${sql.identifier(getTableName(aliased))}`;
}

/**
 * Arrays as one bound parameter each (a PostgreSQL array literal), for `unnest` and `= any`:
 * both drivers pass a text parameter the same way, whatever their handling of JS arrays.
 */
export const intArray = (values: readonly number[]): SQL =>
  sql`${`{${values.map((v) => Math.trunc(v)).join(',')}}`}::integer[]`;

export const instantArray = (values: readonly (Date | null)[]): SQL =>
  sql`${`{${values.map((v) => (v ? `"${v.toISOString()}"` : 'NULL')).join(',')}}`}::timestamptz[]`;

export const boolArray = (values: readonly boolean[]): SQL =>
  sql`${`{${values.map((v) => (v ? 't' : 'f')).join(',')}}`}::boolean[]`;
