import { useState } from 'react';
import { Switch, Text } from '@mantine/core';
import { IconBan, IconKeyOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ApiKey, ApiKeyWithSecret } from '@rota/contract';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import {
  CreateButton,
  DataTable,
  type DataTableColumn,
  type RowAction,
} from '../../../components/data-table';
import { DateTimeText } from '../../../components/date-time';
import { PageHeader } from '../../../components/page-header';
import { useDialog } from '../../../lib/use-dialog';
import { useListState } from '../../../lib/use-list-state';
import { useNow } from '../../../lib/use-now';
import { useCan, useCurrentUser } from '../../auth';
import { API_KEY_SORTS, apiKeysQueryOptions } from '../api/list-api-keys';
import { useRevokeApiKey } from '../api/revoke-api-key';
import { ApiKeyFormDrawer } from '../components/api-key-form-drawer';
import { ApiKeyStatusBadge, apiKeyStatus } from '../components/api-key-status';
import { OneTimeSecretModal } from '../components/one-time-secret';
import { PermissionBadges } from '../components/permission-badges';
import { TimeAgo } from '../components/time-ago';
import { useApiKeysTranslation } from '../i18n';

/** What a new key can do first: list the robots. */
export function apiKeyExample(key: string, origin: string = window.location.origin): string {
  return (
    `curl -H "Authorization: Bearer ${key}" ${origin}/api/rota/robot/api/v1/index ` +
    `-X POST -H 'content-type: application/json' -d '{}'`
  );
}

/**
 * `/apikey`: the signed-in user's personal API keys for the selected client. Any
 * user may make their own; USUARIOS.LIST shows every key of the client, USUARIOS.UPDATE revokes
 * anyone's.
 */
export default function ApiKeysPage() {
  const t = useApiKeysTranslation();
  const can = useCan();
  const now = useNow(30_000);
  const { data: me } = useCurrentUser();
  const list = useListState({
    sorts: API_KEY_SORTS,
    defaultSort: 'created_at',
    defaultOrder: 'desc',
    filters: ['all'],
  });
  const canSeeAll = can('USUARIOS.LIST');
  const all = canSeeAll && list.filters.all === 'true';
  const query = useQuery(apiKeysQueryOptions({ ...list.query, ...(all ? { all: true } : {}) }));
  const [creating, setCreating] = useState(false);
  const [revealed, setRevealed] = useState<ApiKeyWithSecret | null>(null);
  const [revealOpened, setRevealOpened] = useState(false);
  const revoke = useDialog<ApiKey>();
  const revokeKey = useRevokeApiKey();
  const canRevokeOthers = can('USUARIOS.UPDATE');

  const columns: DataTableColumn<ApiKey>[] = [
    {
      key: 'name',
      header: t('columns.name'),
      sort: 'name',
      render: (key) => (
        <div>
          <Text size="sm" fw={600}>
            {key.name}
          </Text>
          <Text size="xs" c="dimmed" ff="monospace">
            …{key.key_hint}
          </Text>
        </div>
      ),
    },
    ...(all
      ? [
          {
            key: 'user',
            header: t('columns.user'),
            render: (key: ApiKey) => <Text size="sm">{key.user_name}</Text>,
          },
        ]
      : []),
    {
      key: 'permissions',
      header: t('columns.permissions'),
      render: (key) => <PermissionBadges permissions={key.permissions} />,
    },
    {
      key: 'created_at',
      header: t('columns.created'),
      sort: 'created_at',
      visibleFrom: 'sm',
      render: (key) => <DateTimeText value={key.created_at} mode="date" />,
    },
    {
      key: 'expires_at',
      header: t('columns.expires'),
      render: (key) =>
        key.expires_at ? (
          <DateTimeText value={key.expires_at} mode="date" />
        ) : (
          <Text size="sm" c="dimmed">
            {t('columns.never')}
          </Text>
        ),
    },
    {
      key: 'last_used_at',
      header: t('columns.lastUsed'),
      sort: 'last_used_at',
      render: (key) => (
        <TimeAgo value={key.last_used_at} now={now} empty={t('columns.neverUsed')} />
      ),
    },
    {
      key: 'status',
      header: t('columns.status'),
      render: (key) => <ApiKeyStatusBadge status={apiKeyStatus(key, now)} />,
    },
  ];

  const rowActions: RowAction<ApiKey>[] = [
    {
      key: 'revoke',
      label: t('actions.revoke'),
      icon: <IconBan size={16} aria-hidden />,
      color: 'red',
      hidden: (key) =>
        key.revoked_at !== null || (key.users_id !== me?.users_id && !canRevokeOthers),
      onClick: (key) => revoke.open(key),
    },
  ];

  const newKey = <CreateButton onClick={() => setCreating(true)}>{t('list.new')}</CreateButton>;

  return (
    <>
      <PageHeader title={t('page.title')} subtitle={t('page.subtitle')} actions={newKey} />
      <DataTable
        label={t('list.label')}
        columns={columns}
        query={query}
        list={list}
        rowKey={(key) => key.user_api_keys_id}
        rowLabel={(key) => key.name}
        searchable
        searchPlaceholder={t('list.searchPlaceholder')}
        filters={
          canSeeAll ? (
            <Switch
              label={t('list.all')}
              checked={all}
              onChange={(event) => list.setFilter('all', event.currentTarget.checked || null)}
            />
          ) : undefined
        }
        empty={{
          title: t('list.emptyTitle'),
          description: t('list.emptyDescription'),
          action: newKey,
          icon: <IconKeyOff size={28} aria-hidden />,
        }}
        rowActions={rowActions}
        minWidth={720}
      />
      <ApiKeyFormDrawer
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(key) => {
          setRevealed(key);
          setRevealOpened(true);
        }}
      />
      <OneTimeSecretModal
        opened={revealOpened}
        onClose={() => setRevealOpened(false)}
        onExited={() => setRevealed(null)}
        title={t('secret.title', { name: revealed?.name ?? '' })}
        label={t('secret.label')}
        secret={revealed?.key ?? ''}
        warning={t('secret.warning')}
        example={apiKeyExample(revealed?.key ?? '')}
        exampleHint={t('secret.exampleHint')}
      />
      <ConfirmDialog
        opened={revoke.opened}
        onClose={revoke.close}
        title={t('revoke.title', { name: revoke.target?.name ?? '' })}
        confirmLabel={t('revoke.confirm')}
        confirmColor="red"
        onConfirm={() => revoke.target && revokeKey.mutateAsync(revoke.target.user_api_keys_id)}
      >
        {t('revoke.description')}
      </ConfirmDialog>
    </>
  );
}
