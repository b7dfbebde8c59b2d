import { useState } from 'react';
import { MultiSelect, type MultiSelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  keepPreviousData,
  useQuery,
  type QueryKey,
  type UseQueryOptions,
} from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MemberChoice } from '../api/get-team-members';

export type MemberMultiSelectProps<TData, TKey extends QueryKey> = Omit<
  MultiSelectProps,
  'data' | 'value' | 'onChange' | 'searchValue' | 'onSearchChange' | 'searchable' | 'filter'
> & {
  value: number[];
  onChange: (ids: number[]) => void;
  /** Members chosen before (an edited team's), so their pills have a name. */
  known?: readonly MemberChoice[];
  /**
   * The options for a typed text, searched on the server; null when the user may not list them
   * (the pills already chosen can still be removed).
   */
  optionsQuery: ((search: string) => UseQueryOptions<TData, Error, TData, TKey>) | null;
  toChoices: (data: TData) => MemberChoice[];
};

/**
 * Choose several robots or users, searching on the server. Names of chosen members come from
 * `known` or from the options they were picked from, so a pill keeps its name when the search
 * moves on.
 */
export function MemberMultiSelect<TData, TKey extends QueryKey>({
  value,
  onChange,
  known = [],
  optionsQuery,
  toChoices,
  ...props
}: MemberMultiSelectProps<TData, TKey>) {
  const { t } = useTranslation();
  const [searchValue, setSearchValue] = useState('');
  const [search] = useDebouncedValue(searchValue.trim(), 250);
  const [picked, setPicked] = useState<Map<number, string>>(() => new Map());
  const options = useQuery({
    // A stand-in that never runs when the options may not be listed. Cast: the caller's key type
    // (TKey) cannot be built here, and the query is disabled, so no cache entry uses this key.
    ...(optionsQuery?.(search) ?? {
      queryKey: ['no-options'] as unknown as TKey,
      queryFn: () => Promise.reject(new Error('not listed')),
    }),
    enabled: optionsQuery !== null,
    placeholderData: keepPreviousData,
  });

  const names = new Map<number, string>();
  for (const choice of known) names.set(choice.id, choice.label);
  for (const [id, label] of picked) names.set(id, label);
  const listed = new Set<string>();
  const data = (options.data ? toChoices(options.data) : []).map((choice) => {
    names.set(choice.id, choice.label);
    listed.add(String(choice.id));
    return { value: String(choice.id), label: choice.label };
  });
  // Chosen members missing from these options still need an option for their pill.
  for (const id of value) {
    if (!listed.has(String(id))) data.push({ value: String(id), label: names.get(id) ?? `#${id}` });
  }

  return (
    <MultiSelect
      {...props}
      searchable
      hidePickedOptions
      data={data}
      value={value.map(String)}
      searchValue={searchValue}
      onSearchChange={setSearchValue}
      nothingFoundMessage={optionsQuery ? t('common.select.nothingFound') : undefined}
      // The server already filtered by the typed text; chosen ones off this page only feed pills.
      filter={({ options: all }) =>
        all.filter((option) => !('value' in option) || listed.has(option.value))
      }
      onChange={(next) => {
        const ids = next.map(Number);
        setPicked((previous) => {
          const map = new Map(previous);
          for (const id of ids) {
            const name = names.get(id);
            if (name) map.set(id, name);
          }
          return map;
        });
        onChange(ids);
      }}
    />
  );
}
