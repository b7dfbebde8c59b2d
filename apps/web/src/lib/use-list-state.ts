import { useEffect, useRef, useState } from 'react';
import { useSearchParams, type SetURLSearchParams } from 'react-router';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@rota/contract';

export type SortOrder = 'asc' | 'desc';
export type PageSize = (typeof PAGE_SIZES)[number];

export type ListStateOptions<TSort extends string, TFilter extends string> = {
  /** Columns the server sorts by; a `sort` in the URL outside this list is ignored. */
  sorts?: readonly TSort[];
  /** The server's default sort, shown as active on the column head while the URL names none. */
  defaultSort?: TSort;
  defaultOrder?: SortOrder;
  /** Names of the filters this list keeps in the URL (`active`, `rota_robots_id`…). */
  filters?: readonly TFilter[];
  /**
   * Prefix of this list's URL parameters, for a page that shows more than one list
   * (`fields_` gives `fields_page`, `fields_sort`…).
   */
  prefix?: string;
  defaultPerPage?: PageSize;
  /** Milliseconds the search box waits after the last keystroke before it touches the URL. */
  searchDebounceMs?: number;
  /**
   * Values a filter has while the URL names none (the activity's last 10 days). They stay out of
   * the URL; a filter the user empties is kept as `name=` so it does not fall back to its default,
   * and "clear filters" brings the defaults back.
   */
  filterDefaults?: Partial<Record<TFilter, string>>;
};

/** The `index` body fields every list sends. */
export type ListQueryParams<TSort extends string> = {
  page: number;
  per_page: number;
  search?: string;
  sort?: TSort;
  order: SortOrder;
};

/**
 * A list's page, size, search, sort and filters, read from and written to the URL, so a reload,
 * a shared link or the back button show the same list. Setters are methods so a
 * `ListState<'name', 'active'>` can be handed to components that take any list.
 */
export type ListState<TSort extends string = string, TFilter extends string = string> = {
  page: number;
  perPage: number;
  /** The search the list is filtered by (what is in the URL). */
  search: string;
  /** What the search box shows: follows keystrokes at once, reaches the URL debounced. */
  searchInput: string;
  sort: TSort | undefined;
  order: SortOrder;
  /** Every declared filter's URL value; absent ones are undefined. */
  filters: Partial<Record<TFilter, string>>;
  /** A search or a filter narrows the list (an empty answer is "nothing found", not "nothing yet"). */
  hasFilters: boolean;
  /** Body fields for the `index` call; the caller adds its filters, typed as the API wants. */
  query: ListQueryParams<TSort>;
  setPage(page: number): void;
  setPerPage(perPage: number): void;
  /** Debounced; the page goes back to 1. */
  setSearch(text: string): void;
  /** Without `order`: ascending on a new column, reversed on the current one. Page back to 1. */
  setSort(column: TSort, order?: SortOrder): void;
  /** `null`, `undefined` or '' removes the filter. Page back to 1. */
  setFilter(name: TFilter, value: string | number | boolean | null | undefined): void;
  /** Several filters in one URL change (two setFilter calls in a row would lose the first). */
  setFilters(values: Partial<Record<TFilter, string | number | boolean | null | undefined>>): void;
  /** Removes the search and every filter (those with a default go back to it). */
  clearFilters(): void;
};

type Changes = Record<string, string | number | boolean | null | undefined>;

function positiveInt(value: string | null): number | undefined {
  if (value === null) return undefined;
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : undefined;
}

function isPageSize(value: number): value is PageSize {
  return (PAGE_SIZES as readonly number[]).includes(value);
}

export function useListState<TSort extends string = string, TFilter extends string = string>(
  options: ListStateOptions<TSort, TFilter> = {},
): ListState<TSort, TFilter> {
  const {
    sorts,
    defaultSort,
    defaultOrder = 'asc',
    filters: filterNames = [],
    prefix = '',
    defaultPerPage = DEFAULT_PAGE_SIZE as PageSize,
    searchDebounceMs = 300,
    filterDefaults = {},
  } = options;
  const defaults: Partial<Record<string, string>> = filterDefaults;
  const [params, setParams] = useSearchParams();
  const key = (name: string) => `${prefix}${name}`;

  // setSearchParams' functional update reads the params of the render that created it; the
  // debounced search runs later, so it goes through the latest setter.
  const setParamsRef = useRef<SetURLSearchParams>(setParams);
  useEffect(() => {
    setParamsRef.current = setParams;
  }, [setParams]);

  const page = positiveInt(params.get(key('page'))) ?? 1;
  const perPageValue = Number(params.get(key('per_page')));
  const perPage = isPageSize(perPageValue) ? perPageValue : defaultPerPage;
  const sortValue = params.get(key('sort'));
  const sort =
    sortValue !== null && (!sorts || (sorts as readonly string[]).includes(sortValue))
      ? (sortValue as TSort)
      : defaultSort;
  const orderValue = params.get(key('order'));
  const order: SortOrder =
    orderValue === 'asc' || orderValue === 'desc' ? orderValue : defaultOrder;
  const search = params.get(key('search')) ?? '';
  const filters: Partial<Record<TFilter, string>> = {};
  let changedFilter = false;
  for (const name of filterNames) {
    const value = params.get(key(name)) ?? defaults[name] ?? null;
    if (value !== null && value !== '') filters[name] = value;
    if ((value ?? '') !== (defaults[name] ?? '')) changedFilter = true;
  }
  // A filter at its default narrows nothing the user chose: the empty list is "nothing yet".
  const hasFilters = search.trim() !== '' || changedFilter;

  // The box follows the URL when it changes from elsewhere (back button, "clear filters").
  const [searchInput, setSearchInput] = useState(search);
  const [syncedSearch, setSyncedSearch] = useState(search);
  if (search !== syncedSearch) {
    setSyncedSearch(search);
    if (search !== searchInput.trim()) setSearchInput(search);
  }

  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  function update(changes: Changes, { resetPage = true, replace = false } = {}) {
    setParamsRef.current(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const [name, value] of Object.entries(changes)) {
          const text = value === null || value === undefined ? '' : String(value);
          const fallback = defaults[name];
          if (fallback !== undefined && text !== fallback) next.set(key(name), text);
          else if (text === '' || text === fallback) next.delete(key(name));
          else next.set(key(name), text);
        }
        if (resetPage) next.delete(key('page'));
        return next;
      },
      { replace, preventScrollReset: true },
    );
  }

  const trimmed = search.trim();
  return {
    page,
    perPage,
    search: trimmed,
    searchInput,
    sort,
    order,
    filters,
    hasFilters,
    query: {
      page,
      per_page: perPage,
      ...(trimmed ? { search: trimmed } : {}),
      ...(sort ? { sort } : {}),
      order,
    },
    setPage(next) {
      update({ page: next > 1 ? next : null }, { resetPage: false });
    },
    setPerPage(next) {
      update({ per_page: next === defaultPerPage || !isPageSize(next) ? null : next });
    },
    setSearch(text) {
      setSearchInput(text);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        // Typing replaces the history entry instead of adding one per pause.
        update({ search: text.trim() }, { replace: true });
      }, searchDebounceMs);
    },
    setSort(column, nextOrder) {
      const resolved = nextOrder ?? (column === sort && order === 'asc' ? 'desc' : 'asc');
      update({ sort: column, order: resolved });
    },
    setFilter(name, value) {
      update({ [name]: value });
    },
    setFilters(values) {
      update(values as Changes);
    },
    clearFilters() {
      clearTimeout(timer.current);
      setSearchInput('');
      // A filter with a default goes back to it (and out of the URL).
      update(
        Object.fromEntries([['search', null], ...filterNames.map((n) => [n, defaults[n] ?? null])]),
      );
    },
  };
}
