import { asc, count, desc, ilike, or, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect } from 'drizzle-orm/pg-core';
import type { ListMeta } from '@rota/contract';
import { likePattern, listMeta, pageWindow } from './pagination.js';

/** ILIKE on any of the columns; undefined (no condition) without a search. */
export function searchAny(search: string | undefined, columns: AnyPgColumn[]): SQL | undefined {
  if (!search) return undefined;
  return matchAny(likePattern(search), columns);
}

/** ILIKE on any of the columns, with a pattern already escaped, or a placeholder for one. */
export function matchAny(pattern: string | SQLWrapper, columns: AnyPgColumn[]): SQL | undefined {
  return or(...columns.map((c) => ilike(c, pattern)));
}

/**
 * The total of a list read with one row more than its page (`read` rows), when that read can
 * tell it: the page ends the list (its extra row missing, and not past the end). Otherwise
 * undefined: the list must be counted.
 */
export function totalOfEndingPage(read: number, page: { page: number; per_page: number }) {
  const { limit, offset } = pageWindow(page);
  return read <= limit && (read > 0 || offset === 0) ? offset + read : undefined;
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
    found = read.slice(0, limit) as Awaited<Q>;
    counted = totalOfEndingPage(read.length, page) ?? (await total())[0]?.total ?? 0;
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
