import type { Vm } from '@rota/contract';
import { EntitySelect, type EntitySelectProps } from '../../../components/entity-select';
import { vmQueryOptions } from '../api/get-vm';
import { vmsQueryOptions } from '../api/list-vms';
import { useVmsTranslation } from '../i18n';

type VmSelectProps = Omit<EntitySelectProps<Vm>, 'listQuery' | 'itemQuery' | 'getId' | 'getLabel'>;

/** The first page of VMs matching a search, in name order (selects search on the server). */
export function vmOptionsQuery(search: string) {
  return vmsQueryOptions({
    page: 1,
    per_page: 50,
    sort: 'name',
    order: 'asc',
    ...(search ? { search } : {}),
  });
}

/**
 * Choose one VM of the selected client, searching by name, hostname or label on the server.
 * Labelled "VM" unless told otherwise; for the agent form and list filters.
 */
export function VmSelect({ label, placeholder, ...props }: VmSelectProps) {
  const t = useVmsTranslation();
  return (
    <EntitySelect
      label={label ?? t('select.vm')}
      placeholder={placeholder ?? t('select.placeholder')}
      listQuery={vmOptionsQuery}
      itemQuery={vmQueryOptions}
      getId={(vm) => vm.rota_vms_id}
      getLabel={(vm) => vm.name}
      {...props}
    />
  );
}
