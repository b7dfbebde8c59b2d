import { asc, count, desc, ilike, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect } from 'drizzle-orm/pg-core';
import type { ListMeta } from '@rota/contract';
import { likePattern, listMeta, pageWindow } from './pagination.js';

/** ILIKE on any of the columns; undefined (no condition) without a search. */
export function searchAny(search: string | undefined, columns: AnyPgColumn[]): SQL | undefined {
  if (!search) return undefined;
  const pattern = likePattern(search);
  return or(...columns.map((c) => ilike(c, pattern)));
}

/** The requested column and direction, then the key, so pages never overlap. */
export function orderBy(column: AnyPgColumn | SQL, order: 'asc' | 'desc', tieBreaker: AnyPgColumn) {
  const direction = order === 'desc' ? desc : asc;
  return [direction(column), direction(tieBreaker)];
}

/**
 * One page and the total for a list: `rows` is the page query (already filtered and ordered),
 * `total` counts with the same filters. Given as a function, the count runs only when the page
 * cannot tell: the page is read with one row more than it shows, so a page that ends the list
 * (its extra row missing, and not past the end) gives the total as its offset plus its rows;
 * most searches end on their first page, one that fills it exactly included, and skip a second
 * scan.
 */
export async function pageOf<Q extends PgSelect, R>(
  page: { page: number; per_page: number },
  rows: Q,
  total: Promise<{ total: number }[]> | (() => Promise<{ total: number }[]>),
  map: (row: Awaited<Q>[number]) => R,
): Promise<{ data: R[]; meta: ListMeta }> {
  const { limit, offset } = pageWindow(page);
  const paged = async () => (await rows.limit(limit).offset(offset)) as Awaited<Q>;
  let found: Awaited<Q>;
  let counted: number;
  if (typeof total === 'function') {
    const read = (await rows.limit(limit + 1).offset(offset)) as Awaited<Q>;
    const ends = read.length <= limit && (read.length > 0 || offset === 0);
    found = read.slice(0, limit) as Awaited<Q>;
    counted = ends ? offset + read.length : ((await total())[0]?.total ?? 0);
  } else {
    const [all, [first]] = await Promise.all([paged(), total]);
    found = all;
    counted = first?.total ?? 0;
  }
  return { data: found.map(map), meta: listMeta(page, counted) };
}

export { count };

export const iso = (date: Date) => date.toISOString();
export const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);
