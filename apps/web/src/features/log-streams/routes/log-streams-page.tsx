import { Badge, Group, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlugConnected, IconServerOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { LogStreamConfig } from '@rota/contract';
import { ConfirmDelete } from '../../../components/confirm-dialog';
import {
  CreateButton,
  DataTable,
  type DataTableColumn,
  type RowAction,
  useStandardRowActions,
} from '../../../components/data-table';
import { PageHeader } from '../../../components/page-header';
import { useDialog } from '../../../lib/use-dialog';
import { useListState } from '../../../lib/use-list-state';
import { useCan } from '../../auth';
import { LOG_STREAM_SORTS, logStreamsQueryOptions } from '../api/list-log-streams';
import { useDeleteLogStream, useSendLogStreamTest, useUpdateLogStream } from '../api/mutations';
import { LogStreamFormDrawer } from '../components/log-stream-form-drawer';
import { useLogStreamsTranslation } from '../i18n';

/**
 * `/log-stream`: where the client's audit records and runs go as syslog, guarded by
 * USUARIOS.* like the alert rules; a row's "test" sends one message at once.
 */
export default function LogStreamsPage() {
  const t = useLogStreamsTranslation();
  const can = useCan();
  const list = useListState({ sorts: LOG_STREAM_SORTS, defaultSort: 'name', defaultOrder: 'asc' });
  const query = useQuery(logStreamsQueryOptions(list.query));
  const drawer = useDialog<LogStreamConfig | null>();
  const remove = useDialog<LogStreamConfig>();
  const deleteStream = useDeleteLogStream();
  const update = useUpdateLogStream();
  const sendTest = useSendLogStreamTest();
  const canCreate = can('USUARIOS.CREATE');
  const canUpdate = can('USUARIOS.UPDATE');
  const canDelete = can('USUARIOS.DELETE');

  async function test(stream: LogStreamConfig) {
    try {
      const { message, data } = await sendTest.mutateAsync(stream.rota_log_streams_id);
      notifications.show({
        color: data.delivered ? 'teal' : 'red',
        title: message,
        message: data.delivered
          ? t('test.delivered', { host: stream.host })
          : t(
              `test.${data.last_error === 'destination_not_allowed' ? 'notAllowed' : 'notDelivered'}`,
            ),
      });
    } catch {
      // The HTTP client already said what went wrong.
    }
  }

  const columns: DataTableColumn<LogStreamConfig>[] = [
    {
      key: 'name',
      header: t('columns.name'),
      sort: 'name',
      render: (stream) => (
        <Text size="sm" fw={600}>
          {stream.name}
        </Text>
      ),
    },
    {
      key: 'destination',
      header: t('columns.destination'),
      render: (stream) => (
        <Stack gap={2} miw={0}>
          <Badge variant="outline" radius="sm" tt="none" w="fit-content">
            {t(`transport.${stream.transport}`)}
          </Badge>
          <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
            {stream.host}:{stream.port}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'events',
      header: t('columns.events'),
      visibleFrom: 'sm',
      render: (stream) => (
        <Group gap={4}>
          {stream.events.map((event) => (
            <Badge key={event} variant="light" radius="sm" tt="none">
              {t(`events.${event}`)}
            </Badge>
          ))}
        </Group>
      ),
    },
    {
      key: 'waiting',
      header: t('columns.waiting'),
      visibleFrom: 'md',
      render: (stream) =>
        stream.pending === 0 && stream.failed === 0 ? (
          <Text size="sm" c="dimmed">
            {t('columns.upToDate')}
          </Text>
        ) : (
          <Stack gap={2}>
            {stream.pending > 0 ? (
              <Text size="sm">{t('columns.pending', { count: stream.pending })}</Text>
            ) : null}
            {stream.failed > 0 ? (
              <Text size="sm" c="red">
                {t('columns.failed', { count: stream.failed })}
              </Text>
            ) : null}
          </Stack>
        ),
    },
    {
      key: 'active',
      header: t('columns.active'),
      render: (stream) => (
        <Switch
          checked={stream.active}
          disabled={!canUpdate}
          aria-label={t('columns.activeToggle', { name: stream.name })}
          onChange={(event) =>
            void update
              .mutateAsync({ id: stream.rota_log_streams_id, active: event.currentTarget.checked })
              .catch(() => undefined)
          }
        />
      ),
    },
  ];

  const actions = useStandardRowActions();
  const rowActions: RowAction<LogStreamConfig>[] = [
    {
      key: 'test',
      label: t('actions.test'),
      icon: <IconPlugConnected size={16} aria-hidden />,
      hidden: !canUpdate,
      onClick: (stream) => void test(stream),
    },
    actions.edit({ hidden: !canUpdate, onClick: (stream) => drawer.open(stream) }),
    actions.remove({ hidden: !canDelete, onClick: (stream) => remove.open(stream) }),
  ];

  const newStream = canCreate ? (
    <CreateButton onClick={() => drawer.open(null)}>{t('list.new')}</CreateButton>
  ) : null;

  return (
    <>
      <PageHeader title={t('page.title')} subtitle={t('page.subtitle')} actions={newStream} />
      <DataTable
        label={t('list.label')}
        columns={columns}
        query={query}
        list={list}
        rowKey={(stream) => stream.rota_log_streams_id}
        rowLabel={(stream) => stream.name}
        searchable
        searchPlaceholder={t('list.searchPlaceholder')}
        empty={{
          title: t('list.emptyTitle'),
          description: canCreate ? t('list.emptyDescription') : t('list.emptyDescriptionReadOnly'),
          action: newStream,
          icon: <IconServerOff size={28} aria-hidden />,
        }}
        rowActions={rowActions}
        minWidth={340}
      />
      <LogStreamFormDrawer opened={drawer.opened} onClose={drawer.close} stream={drawer.target} />
      <ConfirmDelete
        opened={remove.opened}
        onClose={remove.close}
        title={t('delete.title', { name: remove.target?.name ?? '' })}
        description={t('delete.description')}
        onConfirm={() =>
          remove.target && deleteStream.mutateAsync(remove.target.rota_log_streams_id)
        }
      />
    </>
  );
}
