import { Text } from '@mantine/core';
import { IconBuildingSkyscraper, IconPencil } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Client } from '@rota/contract';
import { AccessDenied } from '../../../components/access-denied';
import {
  CreateButton,
  DataTable,
  type DataTableColumn,
  type RowAction,
} from '../../../components/data-table';
import { DateTimeText } from '../../../components/date-time';
import { PageHeader } from '../../../components/page-header';
import { isApiError } from '../../../lib/http';
import { useFormat } from '../../../lib/format';
import { useDialog } from '../../../lib/use-dialog';
import { useListState } from '../../../lib/use-list-state';
import { CLIENT_SORTS, clientsQueryOptions, type ClientListBody } from '../api/list-clients';
import { ClientFormDrawer } from '../components/client-form-drawer';
import '../i18n';

/**
 * `/client`: the tenants, for platform administrators only; the server refuses anybody else
 * with a 403, which is shown as the page's denial.
 */
export default function ClientsPage() {
  const { t } = useTranslation('clients');
  const { t: tc } = useTranslation();
  const format = useFormat();
  const list = useListState({ sorts: CLIENT_SORTS, defaultSort: 'name', defaultOrder: 'asc' });
  const body: ClientListBody = { ...list.query };
  const query = useQuery(clientsQueryOptions(body));
  // The drawer's target: a client to edit, or null to create one.
  const drawer = useDialog<Client | null>();

  if (query.isError && isApiError(query.error) && query.error.status === 403) {
    return (
      <>
        <PageHeader title={tc('pages.client.title')} subtitle={t('list.deniedHint')} />
        <AccessDenied />
      </>
    );
  }

  const columns: DataTableColumn<Client>[] = [
    {
      key: 'name',
      header: t('columns.name'),
      sort: 'name',
      render: (client) => (
        <Text size="sm" fw={600}>
          {client.name}
        </Text>
      ),
    },
    {
      key: 'users',
      header: t('columns.users'),
      align: 'right',
      render: (client) => <Text size="sm">{format.number(client.users)}</Text>,
    },
    {
      key: 'created',
      header: t('columns.created'),
      sort: 'created_at',
      visibleFrom: 'sm',
      render: (client) => <DateTimeText value={client.created_at} />,
    },
  ];

  const rowActions: RowAction<Client>[] = [
    {
      key: 'edit',
      label: t('actions.edit'),
      icon: <IconPencil size={16} aria-hidden />,
      onClick: (client) => drawer.open(client),
    },
  ];

  const newClient = <CreateButton onClick={() => drawer.open(null)}>{t('list.new')}</CreateButton>;

  return (
    <>
      <PageHeader
        title={tc('pages.client.title')}
        subtitle={tc('pages.client.subtitle')}
        actions={newClient}
      />
      <DataTable
        label={t('list.label')}
        columns={columns}
        query={query}
        list={list}
        rowKey={(client) => client.rota_clients_id}
        rowLabel={(client) => client.name}
        searchable
        searchPlaceholder={t('list.searchPlaceholder')}
        empty={{
          title: t('list.emptyTitle'),
          description: t('list.emptyDescription'),
          action: newClient,
          icon: <IconBuildingSkyscraper size={28} aria-hidden />,
        }}
        rowActions={rowActions}
        minWidth={480}
      />
      <ClientFormDrawer opened={drawer.opened} onClose={drawer.close} client={drawer.target} />
    </>
  );
}
