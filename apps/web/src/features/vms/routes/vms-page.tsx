import { Anchor, Badge, Button, Code, Select, Stack, Text } from '@mantine/core';
import { IconDevices, IconServer, IconTool } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CONNECTIVITY, type Connectivity, type Vm } from '@rota/contract';
import { ConfirmDelete } from '../../../components/confirm-dialog';
import {
  DataTable,
  type DataTableColumn,
  type RowAction,
  CreateButton,
  useStandardRowActions,
} from '../../../components/data-table';
import { PageHeader } from '../../../components/page-header';
import { useFormat } from '../../../lib/format';
import { useDialog } from '../../../lib/use-dialog';
import { useListState } from '../../../lib/use-list-state';
import { agentsOfVmPath, AGENTS_PATH } from '../../agents';
import { useCan } from '../../auth';
import { MaintenanceDrawer } from '../../maintenance';
import { useDeleteVm } from '../api/delete-vm';
import { VM_SORTS, vmsQueryOptions, type VmListBody } from '../api/list-vms';
import { ConnectivityBadge } from '../components/connectivity-badge';
import { VmCountCards } from '../components/vm-count-cards';
import { VmFormDrawer } from '../components/vm-form-drawer';
import { useVmsTranslation } from '../i18n';

function isConnectivity(value: string | undefined): value is Connectivity {
  return (CONNECTIVITY as readonly string[]).includes(value ?? '');
}

/** `/vm`: the client's machines, a count summary above the list, "Nova VM" in the header. */
export default function VmsPage() {
  const t = useVmsTranslation();
  const { t: tc } = useTranslation();
  const can = useCan();
  const format = useFormat();
  const list = useListState({
    sorts: VM_SORTS,
    defaultSort: 'name',
    defaultOrder: 'asc',
    filters: ['connectivity'],
  });
  const connectivity = isConnectivity(list.filters.connectivity)
    ? list.filters.connectivity
    : undefined;
  const body: VmListBody = { ...list.query, ...(connectivity ? { connectivity } : {}) };
  const query = useQuery(vmsQueryOptions(body));
  // The drawer's target: a VM to edit, or null to create one.
  const drawer = useDialog<Vm | null>();
  const remove = useDialog<Vm>();
  const maintenance = useDialog<Vm>();
  const deleteVm = useDeleteVm();
  const canCreate = can('AGENTES.CREATE');
  const connectivityLabels: Record<Connectivity, string> = {
    active: t('connectivity.active'),
    inactive: t('connectivity.inactive'),
  };

  const columns: DataTableColumn<Vm>[] = [
    {
      key: 'name',
      header: t('columns.name'),
      sort: 'name',
      render: (vm) => (
        <Stack gap={0} miw={0}>
          <Text size="sm" fw={600}>
            {vm.name}
          </Text>
          {vm.description ? (
            <Text size="xs" c="dimmed" lineClamp={1} maw={280} title={vm.description}>
              {vm.description}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'hostname',
      header: t('columns.hostname'),
      sort: 'hostname',
      render: (vm) => <Code style={{ whiteSpace: 'nowrap' }}>{vm.hostname}</Code>,
    },
    {
      key: 'os',
      header: t('columns.os'),
      sort: 'os',
      render: (vm) => (
        <Text size="sm" c={vm.os ? undefined : 'dimmed'}>
          {vm.os ?? '—'}
        </Text>
      ),
    },
    {
      key: 'label',
      header: t('columns.label'),
      render: (vm) =>
        vm.label ? (
          <Badge variant="outline" color="gray" radius="sm" tt="none">
            {vm.label}
          </Badge>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        ),
    },
    {
      key: 'agents',
      header: t('columns.agents'),
      align: 'right',
      render: (vm) =>
        vm.agents > 0 ? (
          <Anchor
            component={Link}
            to={agentsOfVmPath(vm.rota_vms_id)}
            size="sm"
            aria-label={t('agentsOf', { name: vm.name })}
          >
            {format.number(vm.agents)}
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            {format.number(0)}
          </Text>
        ),
    },
    {
      key: 'connectivity',
      header: t('columns.connectivity'),
      render: (vm) => <ConnectivityBadge value={vm.connectivity} labels={connectivityLabels} />,
    },
  ];

  const actions = useStandardRowActions();
  const rowActions: RowAction<Vm>[] = [
    actions.edit({
      hidden: !can('AGENTES.UPDATE'),
      onClick: (vm) => drawer.open(vm),
    }),
    {
      key: 'maintenance',
      label: t('maintenance'),
      icon: <IconTool size={16} aria-hidden />,
      hidden: !can('AGENTES.UPDATE'),
      onClick: (vm) => maintenance.open(vm),
    },
    actions.remove({
      hidden: !can('AGENTES.DELETE'),
      onClick: (vm) => remove.open(vm),
    }),
  ];

  const newVm = canCreate ? (
    <CreateButton onClick={() => drawer.open(null)}>{t('list.new')}</CreateButton>
  ) : null;

  return (
    <>
      <PageHeader
        title={tc('pages.vm.title')}
        subtitle={tc('pages.vm.subtitle')}
        actions={
          <>
            <Button
              variant="default"
              component={Link}
              to={AGENTS_PATH}
              leftSection={<IconDevices size={16} aria-hidden />}
            >
              {t('list.agentsLink')}
            </Button>
            {newVm}
          </>
        }
      />
      <VmCountCards />
      <DataTable
        label={t('list.label')}
        columns={columns}
        query={query}
        list={list}
        rowKey={(vm) => vm.rota_vms_id}
        rowLabel={(vm) => vm.name}
        searchable
        searchPlaceholder={t('list.searchPlaceholder')}
        filters={
          <Select
            label={t('list.connectivityFilter')}
            data={[
              { value: 'all', label: t('list.connectivityAll') },
              { value: 'active', label: connectivityLabels.active },
              { value: 'inactive', label: connectivityLabels.inactive },
            ]}
            value={connectivity ?? 'all'}
            onChange={(value) => list.setFilter('connectivity', value === 'all' ? null : value)}
            allowDeselect={false}
            w={{ base: '100%', xs: 170 }}
          />
        }
        empty={{
          title: t('list.emptyTitle'),
          description: canCreate ? t('list.emptyDescription') : t('list.emptyDescriptionReadOnly'),
          action: newVm,
          icon: <IconServer size={28} aria-hidden />,
        }}
        rowActions={rowActions}
      />
      <VmFormDrawer opened={drawer.opened} onClose={drawer.close} vm={drawer.target} />
      <ConfirmDelete
        opened={remove.opened}
        onClose={remove.close}
        title={t('delete.title', { name: remove.target?.name ?? '' })}
        description={t('delete.description')}
        onConfirm={() => remove.target && deleteVm.mutateAsync(remove.target.rota_vms_id)}
      />
      {maintenance.target ? (
        <MaintenanceDrawer
          opened={maintenance.opened}
          onClose={maintenance.close}
          target={{
            scope: 'vm',
            vmId: maintenance.target.rota_vms_id,
            vmName: maintenance.target.name,
          }}
        />
      ) : null}
    </>
  );
}
