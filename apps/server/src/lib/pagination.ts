import type { ListMeta } from '@rota/contract';

export function pageWindow(query: { page: number; per_page: number }) {
  return { limit: query.per_page, offset: (query.page - 1) * query.per_page };
}

export function listMeta(query: { page: number; per_page: number }, total: number): ListMeta {
  return { total, current_page: query.page, per_page: query.per_page };
}

/** `%`, `_` and `\` typed by a user match themselves in ILIKE. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
