import { useState } from 'react';
import { Select, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  keepPreviousData,
  useQuery,
  type QueryKey,
  type UseQueryOptions,
} from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ListResponse } from '@rota/contract';

export type EntitySelectProps<
  T,
  LK extends QueryKey = QueryKey,
  IK extends QueryKey = QueryKey,
> = Omit<
  SelectProps,
  'data' | 'value' | 'onChange' | 'searchValue' | 'onSearchChange' | 'searchable'
> & {
  value: number | null;
  onChange: (value: number | null, item: T | undefined) => void;
  /** The options for a search text: an `index` query (its search runs on the server). */
  listQuery: (search: string) => UseQueryOptions<ListResponse<T>, Error, ListResponse<T>, LK>;
  /** The chosen item when it is not among the options (a value read from the URL): a `show`. */
  itemQuery: (id: number) => UseQueryOptions<T, Error, T, IK>;
  getId: (item: T) => number;
  getLabel: (item: T) => string;
};

/**
 * A searchable Select over a server list (robots, VMs…): the typed text searches the `index`
 * call (debounced), and the chosen item keeps its label even when it is not on the first page.
 */
export function EntitySelect<T, LK extends QueryKey = QueryKey, IK extends QueryKey = QueryKey>({
  value,
  onChange,
  listQuery,
  itemQuery,
  getId,
  getLabel,
  nothingFoundMessage,
  ...props
}: EntitySelectProps<T, LK, IK>) {
  const { t } = useTranslation();
  const [searchValue, setSearchValue] = useState('');
  const [picked, setPicked] = useState<{ id: number; label: string } | null>(null);
  const pickedLabel = picked && picked.id === value ? picked.label : null;
  // The box shows the chosen item's label; that is not a search.
  const typed = searchValue === pickedLabel ? '' : searchValue.trim();
  const [search] = useDebouncedValue(typed, 250);

  const options = useQuery({ ...listQuery(search), placeholderData: keepPreviousData });
  const items = options.data?.data ?? [];
  const listed = value !== null && items.some((item) => getId(item) === value);
  // Asked only once the options are in and do not hold the chosen item.
  const needItem = value !== null && !listed && pickedLabel === null && !options.isPending;
  const chosen = useQuery({ ...itemQuery(value ?? 0), enabled: needItem });

  const data = items.map((item) => ({ value: String(getId(item)), label: getLabel(item) }));
  if (value !== null && !listed) {
    const label = pickedLabel ?? (chosen.data ? getLabel(chosen.data) : `#${value}`);
    data.unshift({ value: String(value), label });
  }

  return (
    <Select
      {...props}
      searchable
      data={data}
      value={value === null ? null : String(value)}
      searchValue={searchValue}
      onSearchChange={setSearchValue}
      nothingFoundMessage={nothingFoundMessage ?? t('common.select.nothingFound')}
      // The server already filtered by the typed text; Mantine's own filter would hide matches
      // on other columns (a robot found by its executor).
      filter={({ options: all }) => all}
      onChange={(next, option) => {
        if (next === null || !option) {
          setPicked(null);
          onChange(null, undefined);
          return;
        }
        const id = Number(next);
        setPicked({ id, label: option.label });
        onChange(
          id,
          items.find((item) => getId(item) === id),
        );
      }}
    />
  );
}
