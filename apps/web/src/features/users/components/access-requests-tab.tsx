import { Select, Stack, Text } from '@mantine/core';
import { IconArrowBackUp, IconInbox, IconUserPlus, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  ACCESS_REQUEST_STATUSES,
  type AccessRequest,
  type AccessRequestStatus,
  type MeResponse,
} from '@rota/contract';
import { StatusBadge } from '../../../components/badges';
import { DataTable, type DataTableColumn, type RowAction } from '../../../components/data-table';
import { DateTimeText } from '../../../components/date-time';
import { useDialog } from '../../../lib/use-dialog';
import { useListState } from '../../../lib/use-list-state';
import { useCan } from '../../auth';
import {
  ACCESS_REQUEST_SORTS,
  accessRequestsQueryOptions,
  type AccessRequestListBody,
} from '../api/list-access-requests';
import { useUpdateAccessRequest } from '../api/update-access-request';
import { UserFormDrawer } from './user-form-drawer';
import '../i18n';

function isStatus(value: string | undefined): value is AccessRequestStatus {
  return (ACCESS_REQUEST_STATUSES as readonly string[]).includes(value ?? '');
}

const STATUS_COLORS = { pending: 'yellow', approved: 'teal', dismissed: 'gray' } as const;

/**
 * Requests sent from the sign-in page, for platform administrators. "Create user"
 * opens the user form filled from the request and marks it approved once the user exists;
 * "Dismiss" sets it aside (and can be undone).
 */
export function AccessRequestsTab({ me }: { me: MeResponse }) {
  const { t } = useTranslation('users');
  const can = useCan();
  const list = useListState({
    sorts: ACCESS_REQUEST_SORTS,
    defaultSort: 'created_at',
    defaultOrder: 'desc',
    filters: ['status'],
    filterDefaults: { status: 'pending' },
  });
  const status = isStatus(list.filters.status) ? list.filters.status : undefined;
  const body: AccessRequestListBody = { ...list.query, ...(status ? { status } : {}) };
  const query = useQuery(accessRequestsQueryOptions(body));
  const createUser = useDialog<AccessRequest>();
  // Approval follows the create's own popup; a second one would say the same.
  const approve = useUpdateAccessRequest({ quietSuccess: true });
  const dismiss = useUpdateAccessRequest({ successMessage: t('requests.dismissed') });
  const reopen = useUpdateAccessRequest({ successMessage: t('requests.reopened') });
  const statusLabels: Record<AccessRequestStatus, string> = {
    pending: t('requests.status.pending'),
    approved: t('requests.status.approved'),
    dismissed: t('requests.status.dismissed'),
  };

  const columns: DataTableColumn<AccessRequest>[] = [
    {
      key: 'name',
      header: t('requests.columns.name'),
      sort: 'name',
      render: (request) => (
        <Stack gap={0} miw={0}>
          <Text size="sm" fw={600}>
            {request.name}
          </Text>
          <Text size="xs" c="dimmed">
            {request.email}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'client',
      header: t('requests.columns.client'),
      sort: 'client_name',
      render: (request) => <Text size="sm">{request.client_name}</Text>,
    },
    {
      key: 'message',
      header: t('requests.columns.message'),
      visibleFrom: 'md',
      render: (request) =>
        request.message ? (
          <Text size="sm" lineClamp={2} maw={320} title={request.message}>
            {request.message}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        ),
    },
    {
      key: 'status',
      header: t('requests.columns.status'),
      render: (request) => (
        <StatusBadge status={request.status} colors={STATUS_COLORS} labels={statusLabels} />
      ),
    },
    {
      key: 'created',
      header: t('requests.columns.created'),
      sort: 'created_at',
      visibleFrom: 'sm',
      render: (request) => <DateTimeText value={request.created_at} />,
    },
  ];

  const rowActions: RowAction<AccessRequest>[] = [
    {
      key: 'create-user',
      label: t('requests.createUser'),
      icon: <IconUserPlus size={16} aria-hidden />,
      hidden: (request) => !can('USUARIOS.CREATE') || request.status === 'approved',
      onClick: (request) => createUser.open(request),
    },
    {
      key: 'dismiss',
      label: t('requests.dismiss'),
      icon: <IconX size={16} aria-hidden />,
      hidden: (request) => request.status !== 'pending',
      onClick: (request) =>
        void dismiss
          .mutateAsync({ id: request.access_requests_id, status: 'dismissed' })
          .catch(() => undefined),
    },
    {
      key: 'reopen',
      label: t('requests.reopen'),
      icon: <IconArrowBackUp size={16} aria-hidden />,
      hidden: (request) => request.status !== 'dismissed',
      onClick: (request) =>
        void reopen
          .mutateAsync({ id: request.access_requests_id, status: 'pending' })
          .catch(() => undefined),
    },
  ];

  return (
    <>
      <DataTable
        label={t('requests.label')}
        columns={columns}
        query={query}
        list={list}
        rowKey={(request) => request.access_requests_id}
        rowLabel={(request) => request.name}
        searchable
        searchPlaceholder={t('requests.searchPlaceholder')}
        filters={
          <Select
            label={t('requests.statusFilter')}
            data={[
              { value: 'all', label: t('requests.statusAll') },
              ...ACCESS_REQUEST_STATUSES.map((value) => ({ value, label: statusLabels[value] })),
            ]}
            value={status ?? 'all'}
            // "All" is kept in the URL as an empty filter, so it does not fall back to pending.
            onChange={(value) => list.setFilter('status', value === 'all' ? '' : value)}
            allowDeselect={false}
            w={{ base: '100%', xs: 170 }}
          />
        }
        empty={{
          title: t('requests.emptyTitle'),
          description: t('requests.emptyDescription'),
          icon: <IconInbox size={28} aria-hidden />,
        }}
        rowActions={rowActions}
        minWidth={600}
      />
      <UserFormDrawer
        opened={createUser.opened}
        onClose={createUser.close}
        me={me}
        prefill={createUser.target}
        onCreated={() =>
          createUser.target
            ? approve.mutateAsync({ id: createUser.target.access_requests_id, status: 'approved' })
            : Promise.resolve()
        }
      />
    </>
  );
}
