import { useState } from 'react';
import { MultiSelect, type MultiSelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useVmsTranslation } from '../i18n';
import { vmOptionsQuery } from './vm-select';

/** A chosen VM: its id and the name to show while it is not among the listed options. */
export type VmChoice = { rota_vms_id: number; name: string };

type VmMultiSelectProps = Omit<
  MultiSelectProps,
  'data' | 'value' | 'onChange' | 'searchValue' | 'onSearchChange' | 'searchable' | 'filter'
> & {
  value: number[];
  onChange: (ids: number[]) => void;
  /** Names of VMs chosen before (an edited scheduling's `vms`), so their pills have a label. */
  known?: readonly VmChoice[];
};

/**
 * Choose several VMs, searching on the server (name, hostname, label). The shared EntitySelect
 * picks one item only; this is its multi-value sibling for the scheduling form.
 */
export function VmMultiSelect({
  value,
  onChange,
  known = [],
  label,
  placeholder,
  ...props
}: VmMultiSelectProps) {
  const t = useVmsTranslation();
  const { t: tc } = useTranslation();
  const [searchValue, setSearchValue] = useState('');
  const [search] = useDebouncedValue(searchValue.trim(), 250);
  // Names of what was picked here, so a pill keeps its label after the search moves on.
  const [picked, setPicked] = useState<Map<number, string>>(() => new Map());
  const options = useQuery({ ...vmOptionsQuery(search), placeholderData: keepPreviousData });

  const names = new Map<number, string>();
  for (const vm of known) names.set(vm.rota_vms_id, vm.name);
  for (const [id, name] of picked) names.set(id, name);
  const listed = new Set<string>();
  const data = (options.data?.data ?? []).map((vm) => {
    names.set(vm.rota_vms_id, vm.name);
    listed.add(String(vm.rota_vms_id));
    return { value: String(vm.rota_vms_id), label: vm.name };
  });
  // Chosen VMs missing from this page of options still need an option for their pill.
  for (const id of value) {
    if (!data.some((option) => option.value === String(id))) {
      data.push({ value: String(id), label: names.get(id) ?? `#${id}` });
    }
  }

  return (
    <MultiSelect
      {...props}
      label={label ?? t('select.vms')}
      placeholder={value.length === 0 ? (placeholder ?? t('select.vmsPlaceholder')) : undefined}
      searchable
      data={data}
      value={value.map(String)}
      searchValue={searchValue}
      onSearchChange={setSearchValue}
      nothingFoundMessage={tc('common.select.nothingFound')}
      // The server already filtered by the typed text; chosen VMs off this page only feed pills.
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
