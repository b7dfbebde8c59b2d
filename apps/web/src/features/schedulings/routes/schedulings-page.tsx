import {
  Anchor,
  Badge,
  Button,
  Group,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Tooltip,
  useMatches,
} from '@mantine/core';
import {
  IconCalendarOff,
  IconCalendarTime,
  IconPlayerPlay,
  IconRestore,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  DELETED_FILTERS,
  SCHEDULING_TRIGGERS,
  type DeletedFilter,
  type Scheduling,
} from '@rota/contract';
import { BooleanBadge } from '../../../components/badges';
import { ConfirmDelete, ConfirmDialog } from '../../../components/confirm-dialog';
import {
  DataTable,
  type DataTableColumn,
  type RowAction,
  CreateButton,
  useStandardRowActions,
} from '../../../components/data-table';
import { DateTimeText } from '../../../components/date-time';
import { PageHeader } from '../../../components/page-header';
import { useFormat } from '../../../lib/format';
import { useDialog } from '../../../lib/use-dialog';
import { useListState } from '../../../lib/use-list-state';
import { showExecutionStartedToast } from '../../activity';
import { useCan } from '../../auth';
import { CALENDARS_PATH, CalendarSelect } from '../../calendars';
import { RobotSelect } from '../../robots';
import { robotPath } from '../../robots';
import { useDeleteScheduling } from '../api/delete-scheduling';
import {
  SCHEDULING_SORTS,
  schedulingsQueryOptions,
  type SchedulingListBody,
} from '../api/list-schedulings';
import { useRestoreScheduling } from '../api/restore-scheduling';
import { useRunScheduling } from '../api/run-scheduling';
import { splitMinutes } from '../components/format-interval';
import { SchedulingFormDrawer } from '../components/scheduling-form-drawer';
import { useSchedulingsTranslation } from '../i18n';

/** The deleted filter's options in order: All, Not deleted (the default), Deleted. */
const DELETED_OPTIONS: readonly DeletedFilter[] = ['all', 'not_deleted', 'deleted'];
const DEFAULT_DELETED: DeletedFilter = 'not_deleted';
/** VM badges shown in a row before "+N". */
const VM_BADGES = 3;

function isDeletedFilter(value: string | undefined): value is DeletedFilter {
  return (DELETED_FILTERS as readonly string[]).includes(value ?? '');
}

/**
 * `/scheduling`: when and where each robot runs. The "deleted" filter (three scheduling
 * filters) lives in the URL like the others; deleted schedulings can only be restored.
 */
export default function SchedulingsPage() {
  const t = useSchedulingsTranslation();
  const { t: tc } = useTranslation();
  const can = useCan();
  const format = useFormat();
  const orientation = useMatches<'vertical' | 'horizontal'>({ base: 'vertical', sm: 'horizontal' });
  const list = useListState({
    sorts: SCHEDULING_SORTS,
    defaultSort: 'name',
    defaultOrder: 'asc',
    filters: ['deleted', 'rota_robots_id', 'active', 'trigger_type', 'rota_calendars_id'],
  });
  const deleted = isDeletedFilter(list.filters.deleted) ? list.filters.deleted : DEFAULT_DELETED;
  const filteredRobot = Number(list.filters.rota_robots_id);
  const robotFilter =
    Number.isInteger(filteredRobot) && filteredRobot > 0 ? filteredRobot : undefined;
  const active = list.filters.active;
  const trigger = SCHEDULING_TRIGGERS.find((value) => value === list.filters.trigger_type);
  const filteredCalendar = Number(list.filters.rota_calendars_id);
  const calendarFilter =
    Number.isInteger(filteredCalendar) && filteredCalendar > 0 ? filteredCalendar : undefined;
  const body: SchedulingListBody = {
    ...list.query,
    // Always sent, so the request says which schedulings it wants.
    deleted,
    ...(robotFilter !== undefined ? { rota_robots_id: robotFilter } : {}),
    ...(active === 'true' || active === 'false' ? { active: active === 'true' } : {}),
    ...(trigger ? { trigger_type: trigger } : {}),
    ...(calendarFilter !== undefined ? { rota_calendars_id: calendarFilter } : {}),
  };
  const query = useQuery(schedulingsQueryOptions(body));
  // The drawer's target: a scheduling to edit, or null to create one.
  const drawer = useDialog<Scheduling | null>();
  const remove = useDialog<Scheduling>();
  const run = useDialog<Scheduling>();
  const runScheduling = useRunScheduling();
  const deleteScheduling = useDeleteScheduling();
  const restoreScheduling = useRestoreScheduling();
  const canCreate = can('AGENDAMENTOS.CREATE');
  const canUpdate = can('AGENDAMENTOS.UPDATE');
  // Restoring undoes a delete: the server guards it with the delete permission.
  const canDelete = can('AGENDAMENTOS.DELETE');
  const canListRobots = can('ROBOS.LIST');
  const isDeleted = (scheduling: Scheduling) => scheduling.deleted_at !== null;

  const minutes = (value: number, kind: 'interval' | 'duration') => {
    const { unit, count } = splitMinutes(value);
    return t(`${kind}.${unit}`, { count });
  };

  /** "a cada 15 min", "Cron 0 7 * * 1-5 (America/Sao_Paulo)", "Fila (≥ 1 tarefa pendente)". */
  const triggerText = (scheduling: Scheduling) => {
    if (scheduling.trigger_type === 'cron') {
      const cron = scheduling.cron ?? '';
      return scheduling.time_zone
        ? t('triggerText.cron', { cron, zone: scheduling.time_zone })
        : t('triggerText.cronServer', { cron });
    }
    if (scheduling.trigger_type === 'queue') {
      return t('triggerText.queue', { count: scheduling.min_pending });
    }
    return minutes(scheduling.interval_minutes, 'interval');
  };

  const columns: DataTableColumn<Scheduling>[] = [
    {
      key: 'name',
      header: t('columns.name'),
      sort: 'name',
      render: (scheduling) => (
        <Text size="sm" fw={600} c={isDeleted(scheduling) ? 'dimmed' : undefined}>
          {scheduling.name}
        </Text>
      ),
    },
    {
      key: 'robot',
      header: t('columns.robot'),
      render: (scheduling) =>
        canListRobots ? (
          <Anchor component={Link} to={robotPath(scheduling.rota_robots_id)} size="sm">
            {scheduling.rota_robots_name}
          </Anchor>
        ) : (
          <Text size="sm">{scheduling.rota_robots_name}</Text>
        ),
    },
    {
      key: 'trigger',
      header: t('columns.trigger'),
      render: (scheduling) => (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }} maw={240}>
          {triggerText(scheduling)}
        </Text>
      ),
    },
    {
      key: 'next_run_at',
      header: t('columns.nextRun'),
      sort: 'next_run_at',
      render: (scheduling) => <DateTimeText value={scheduling.next_run_at} />,
    },
    {
      key: 'timeout_minutes',
      header: t('columns.timeout'),
      render: (scheduling) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {minutes(scheduling.timeout_minutes, 'duration')}
        </Text>
      ),
    },
    {
      key: 'retries',
      header: t('columns.retries'),
      align: 'right',
      // Room for the trigger and the next run on a laptop screen.
      visibleFrom: 'xl',
      render: (scheduling) => <Text size="sm">{format.number(scheduling.retries)}</Text>,
    },
    {
      key: 'priority',
      header: t('columns.priority'),
      sort: 'priority',
      align: 'right',
      render: (scheduling) => <Text size="sm">{format.number(scheduling.priority)}</Text>,
    },
    {
      key: 'vms',
      header: t('columns.vms'),
      render: (scheduling) => {
        if (scheduling.vms.length === 0) {
          return (
            <Text size="sm" c="dimmed">
              {t('noVms')}
            </Text>
          );
        }
        const shown = scheduling.vms.slice(0, VM_BADGES);
        const rest = scheduling.vms.slice(VM_BADGES);
        return (
          <Group gap={4} wrap="wrap" maw={260}>
            {shown.map((vm) => (
              <Badge key={vm.rota_vms_id} variant="outline" color="gray" radius="sm" tt="none">
                {vm.name}
              </Badge>
            ))}
            {rest.length > 0 ? (
              <Tooltip label={rest.map((vm) => vm.name).join(', ')} withArrow>
                <Badge variant="light" color="gray" radius="sm" tt="none" tabIndex={0}>
                  {t('moreVms', { count: rest.length })}
                </Badge>
              </Tooltip>
            ) : null}
          </Group>
        );
      },
    },
    {
      key: 'active',
      header: t('columns.status'),
      render: (scheduling) =>
        isDeleted(scheduling) ? (
          <Badge variant="light" color="red" radius="sm" tt="none">
            {t('status.deleted')}
          </Badge>
        ) : (
          <BooleanBadge
            value={scheduling.active}
            trueLabel={t('status.active')}
            falseLabel={t('status.inactive')}
          />
        ),
    },
    ...(deleted === 'not_deleted'
      ? []
      : [
          {
            key: 'deleted_at',
            header: t('columns.deletedAt'),
            sort: 'deleted_at',
            render: (scheduling: Scheduling) => <DateTimeText value={scheduling.deleted_at} />,
          },
        ]),
  ];

  const actions = useStandardRowActions();
  const rowActions: RowAction<Scheduling>[] = [
    {
      key: 'run',
      label: t('actions.runNow'),
      icon: <IconPlayerPlay size={16} aria-hidden />,
      hidden: (scheduling) => !canUpdate || isDeleted(scheduling),
      onClick: (scheduling) => run.open(scheduling),
    },
    actions.edit({
      // A deleted scheduling is read-only until restored.
      hidden: (scheduling) => !canUpdate || isDeleted(scheduling),
      onClick: (scheduling) => drawer.open(scheduling),
    }),
    {
      key: 'restore',
      label: t('actions.restore'),
      icon: <IconRestore size={16} aria-hidden />,
      hidden: (scheduling) => !canDelete || !isDeleted(scheduling),
      // Undoes a delete, so it asks no confirmation; a failure shows the client's popup.
      onClick: (scheduling) => restoreScheduling.mutate(scheduling.rota_schedulings_id),
    },
    actions.remove({
      hidden: (scheduling) => !canDelete || isDeleted(scheduling),
      onClick: (scheduling) => remove.open(scheduling),
    }),
  ];

  const newScheduling = canCreate ? (
    <CreateButton onClick={() => drawer.open(null)}>{t('list.new')}</CreateButton>
  ) : null;
  const headerActions = (
    <>
      <Button
        component={Link}
        to={CALENDARS_PATH}
        variant="default"
        leftSection={<IconCalendarOff size={16} aria-hidden />}
      >
        {t('list.calendars')}
      </Button>
      {newScheduling}
    </>
  );

  return (
    <>
      <PageHeader
        title={tc('pages.scheduling.title')}
        subtitle={tc('pages.scheduling.subtitle')}
        actions={headerActions}
      />
      <Stack gap="sm" mb="sm">
        <SegmentedControl
          aria-label={t('list.deletedFilter')}
          orientation={orientation}
          fullWidth={orientation === 'vertical'}
          data={DELETED_OPTIONS.map((value) => ({ value, label: t(`deleted.${value}`) }))}
          value={deleted}
          onChange={(value) => list.setFilter('deleted', value === DEFAULT_DELETED ? null : value)}
          style={{ alignSelf: orientation === 'vertical' ? 'stretch' : 'flex-start' }}
        />
      </Stack>
      <DataTable
        label={t('list.label')}
        columns={columns}
        query={query}
        list={list}
        rowKey={(scheduling) => scheduling.rota_schedulings_id}
        rowLabel={(scheduling) => scheduling.name}
        searchable
        searchPlaceholder={t('list.searchPlaceholder')}
        filters={
          <>
            {canListRobots ? (
              <RobotSelect
                label={t('list.robotFilter')}
                placeholder={t('list.allRobots')}
                clearable
                value={robotFilter ?? null}
                onChange={(id) => list.setFilter('rota_robots_id', id)}
                w={{ base: '100%', xs: 220 }}
              />
            ) : null}
            <Select
              label={t('list.activeFilter')}
              data={[
                { value: 'all', label: t('list.activeAll') },
                { value: 'true', label: t('status.active') },
                { value: 'false', label: t('status.inactive') },
              ]}
              value={active === 'true' || active === 'false' ? active : 'all'}
              onChange={(value) => list.setFilter('active', value === 'all' ? null : value)}
              allowDeselect={false}
              w={{ base: '100%', xs: 160 }}
            />
            <Select
              label={t('list.triggerFilter')}
              data={[
                { value: 'all', label: t('list.triggerAll') },
                ...SCHEDULING_TRIGGERS.map((value) => ({ value, label: t(`trigger.${value}`) })),
              ]}
              value={trigger ?? 'all'}
              onChange={(value) => list.setFilter('trigger_type', value === 'all' ? null : value)}
              allowDeselect={false}
              w={{ base: '100%', xs: 160 }}
            />
            <CalendarSelect
              placeholder={t('list.allCalendars')}
              clearable
              value={calendarFilter ?? null}
              onChange={(id) => list.setFilter('rota_calendars_id', id)}
              w={{ base: '100%', xs: 220 }}
            />
          </>
        }
        empty={{
          title: t('list.emptyTitle'),
          description: canCreate ? t('list.emptyDescription') : t('list.emptyDescriptionReadOnly'),
          action: newScheduling,
          icon: <IconCalendarTime size={28} aria-hidden />,
        }}
        rowActions={rowActions}
        minWidth={960}
      />
      <SchedulingFormDrawer
        opened={drawer.opened}
        onClose={drawer.close}
        scheduling={drawer.target}
      />
      <ConfirmDialog
        opened={run.opened}
        onClose={run.close}
        title={t('run.title', { name: run.target?.name ?? '' })}
        confirmLabel={t('run.confirm')}
        onConfirm={async () => {
          if (!run.target) return;
          showExecutionStartedToast(
            await runScheduling.mutateAsync(run.target.rota_schedulings_id),
          );
        }}
      >
        {t('run.description', { robot: run.target?.rota_robots_name ?? '' })}
      </ConfirmDialog>
      <ConfirmDelete
        opened={remove.opened}
        onClose={remove.close}
        title={t('delete.title', { name: remove.target?.name ?? '' })}
        description={t('delete.description')}
        onConfirm={() =>
          remove.target && deleteScheduling.mutateAsync(remove.target.rota_schedulings_id)
        }
      />
    </>
  );
}
