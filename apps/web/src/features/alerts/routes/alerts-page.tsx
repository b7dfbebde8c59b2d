import { Badge, Group, Select, Stack, Switch, Text } from '@mantine/core';
import { IconBellOff, IconListDetails } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { ALERT_CHANNEL_TYPES, type Alert, type AlertChannelType } from '@rota/contract';
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
import { useDeleteAlert } from '../api/delete-alert';
import { ALERT_SORTS, alertsQueryOptions, type AlertListBody } from '../api/list-alerts';
import { useUpdateAlert } from '../api/update-alert';
import { AlertFormDrawer } from '../components/alert-form-drawer';
import { DeliveriesDrawer } from '../components/deliveries-drawer';
import { useEventLabel } from '../components/event-labels';
import { useAlertsTranslation } from '../i18n';

/** Events shown as badges in a row before "+N". */
const EVENTS_SHOWN = 3;

function isChannelType(value: string | undefined): value is AlertChannelType {
  return (ALERT_CHANNEL_TYPES as readonly string[]).includes(value ?? '');
}

/** Where a rule's messages go: the addresses, the webhook URL, or just "Slack" / "Teams". */
function ChannelCell({ alert }: { alert: Alert }) {
  const t = useAlertsTranslation();
  const channel = alert.channel;
  const target =
    channel.type === 'email'
      ? channel.to.join(', ')
      : channel.type === 'webhook'
        ? channel.url
        : '';
  return (
    <Stack gap={2} miw={0}>
      <Badge variant="outline" radius="sm" tt="none" w="fit-content">
        {t(`channel.${channel.type}`)}
      </Badge>
      {target ? (
        <Text
          size="xs"
          c="dimmed"
          lineClamp={1}
          maw={260}
          title={target}
          style={{ wordBreak: 'break-all' }}
        >
          {target}
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * `/alert`: the client's alert rules, guarded by USUARIOS.*; from a row its delivery
 * log with "send test".
 */
export default function AlertsPage() {
  const t = useAlertsTranslation();
  const can = useCan();
  const label = useEventLabel();
  const list = useListState({
    sorts: ALERT_SORTS,
    defaultSort: 'name',
    defaultOrder: 'asc',
    filters: ['channel_type', 'active'],
  });
  const channelType = isChannelType(list.filters.channel_type)
    ? list.filters.channel_type
    : undefined;
  const active = list.filters.active;
  const body: AlertListBody = {
    ...list.query,
    ...(channelType ? { channel_type: channelType } : {}),
    ...(active === 'true' || active === 'false' ? { active: active === 'true' } : {}),
  };
  const query = useQuery(alertsQueryOptions(body));
  const drawer = useDialog<Alert | null>();
  const remove = useDialog<Alert>();
  const log = useDialog<Alert>();
  const deleteAlert = useDeleteAlert();
  const update = useUpdateAlert();
  const canCreate = can('USUARIOS.CREATE');
  const canUpdate = can('USUARIOS.UPDATE');
  const canDelete = can('USUARIOS.DELETE');

  const columns: DataTableColumn<Alert>[] = [
    {
      key: 'name',
      header: t('columns.name'),
      sort: 'name',
      render: (alert) => (
        <Text size="sm" fw={600}>
          {alert.name}
        </Text>
      ),
    },
    {
      key: 'channel',
      header: t('columns.channel'),
      render: (alert) => <ChannelCell alert={alert} />,
    },
    {
      key: 'events',
      header: t('columns.events'),
      visibleFrom: 'sm',
      render: (alert) => (
        <Group gap={4} maw={360}>
          {alert.events.slice(0, EVENTS_SHOWN).map((event) => (
            <Badge key={event} variant="light" radius="sm" tt="none" miw="max-content">
              {label(event)}
            </Badge>
          ))}
          {alert.events.length > EVENTS_SHOWN ? (
            <Badge
              variant="light"
              color="gray"
              radius="sm"
              tt="none"
              title={alert.events.slice(EVENTS_SHOWN).map(label).join(', ')}
            >
              +{alert.events.length - EVENTS_SHOWN}
            </Badge>
          ) : null}
        </Group>
      ),
    },
    {
      key: 'robots',
      header: t('columns.robots'),
      visibleFrom: 'md',
      render: (alert) => {
        if (alert.rota_robots_ids.length === 0) {
          return (
            <Text size="sm" c="dimmed">
              {t('columns.allRobots')}
            </Text>
          );
        }
        // A robot the answer does not name (deleted, or outside the user's teams) shows its id.
        const named = new Map(alert.robots.map((robot) => [robot.rota_robots_id, robot.name]));
        const names = alert.rota_robots_ids.map((id) => named.get(id) ?? `#${id}`);
        return (
          <Text size="sm" lineClamp={2} maw={220} title={names.join(', ')}>
            {names.length > 2 ? t('columns.robotCount', { count: names.length }) : names.join(', ')}
          </Text>
        );
      },
    },
    {
      key: 'active',
      header: t('columns.active'),
      render: (alert) => (
        <Switch
          checked={alert.active}
          disabled={!canUpdate}
          aria-label={t('columns.activeToggle', { name: alert.name })}
          onChange={(event) =>
            void update
              .mutateAsync({ id: alert.rota_alerts_id, active: event.currentTarget.checked })
              .catch(() => undefined)
          }
        />
      ),
    },
  ];

  const actions = useStandardRowActions();
  const rowActions: RowAction<Alert>[] = [
    {
      key: 'deliveries',
      label: t('actions.deliveries'),
      icon: <IconListDetails size={16} aria-hidden />,
      onClick: (alert) => log.open(alert),
    },
    actions.edit({ hidden: !canUpdate, onClick: (alert) => drawer.open(alert) }),
    actions.remove({ hidden: !canDelete, onClick: (alert) => remove.open(alert) }),
  ];

  const newAlert = canCreate ? (
    <CreateButton onClick={() => drawer.open(null)}>{t('list.new')}</CreateButton>
  ) : null;

  return (
    <>
      <PageHeader title={t('page.title')} subtitle={t('page.subtitle')} actions={newAlert} />
      <DataTable
        label={t('list.label')}
        columns={columns}
        query={query}
        list={list}
        rowKey={(alert) => alert.rota_alerts_id}
        rowLabel={(alert) => alert.name}
        searchable
        searchPlaceholder={t('list.searchPlaceholder')}
        filters={
          <>
            <Select
              label={t('list.channelFilter')}
              data={[
                { value: 'all', label: t('list.channelAll') },
                ...ALERT_CHANNEL_TYPES.map((value) => ({ value, label: t(`channel.${value}`) })),
              ]}
              value={channelType ?? 'all'}
              onChange={(value) => list.setFilter('channel_type', value === 'all' ? null : value)}
              allowDeselect={false}
              w={{ base: '100%', xs: 170 }}
            />
            <Select
              label={t('list.activeFilter')}
              data={[
                { value: 'all', label: t('list.activeAll') },
                { value: 'true', label: t('list.activeOnly') },
                { value: 'false', label: t('list.inactiveOnly') },
              ]}
              value={active === 'true' || active === 'false' ? active : 'all'}
              onChange={(value) => list.setFilter('active', value === 'all' ? null : value)}
              allowDeselect={false}
              w={{ base: '100%', xs: 150 }}
            />
          </>
        }
        empty={{
          title: t('list.emptyTitle'),
          description: canCreate ? t('list.emptyDescription') : t('list.emptyDescriptionReadOnly'),
          action: newAlert,
          icon: <IconBellOff size={28} aria-hidden />,
        }}
        rowActions={rowActions}
        minWidth={340}
      />
      <AlertFormDrawer opened={drawer.opened} onClose={drawer.close} alert={drawer.target} />
      <DeliveriesDrawer
        opened={log.opened}
        onClose={log.close}
        alert={log.target}
        canTest={canUpdate}
      />
      <ConfirmDelete
        opened={remove.opened}
        onClose={remove.close}
        title={t('delete.title', { name: remove.target?.name ?? '' })}
        description={t('delete.description')}
        onConfirm={() => remove.target && deleteAlert.mutateAsync(remove.target.rota_alerts_id)}
      />
    </>
  );
}
