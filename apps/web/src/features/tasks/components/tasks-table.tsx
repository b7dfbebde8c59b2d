import { Anchor, Button, Select, Stack, Text } from '@mantine/core';
import { IconListCheck, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  TASK_SLA_STATES,
  TASK_STATUSES,
  type Task,
  type TaskSlaState,
  type TaskStatus,
} from '@rota/contract';
import { ConfirmDelete, ConfirmDialog } from '../../../components/confirm-dialog';
import {
  DataTable,
  useRowSelection,
  type DataTableColumn,
  type RowAction,
} from '../../../components/data-table';
import { DateRangeFilter, dateRangeQuery } from '../../../components/date-range-filter';
import { DateTimeText } from '../../../components/date-time';
import { useFormat } from '../../../lib/format';
import { useDialog } from '../../../lib/use-dialog';
import { useListState } from '../../../lib/use-list-state';
import { useCan } from '../../auth';
import { RobotSelect } from '../../robots';
import { robotPath } from '../../robots';
import { useDeleteTask } from '../api/delete-task';
import { useDeleteTasks } from '../api/delete-tasks';
import { tasksQueryOptions, type TaskListBody } from '../api/list-tasks';
import { taskPath } from '../paths';
import { useRetryTasks } from '../api/retry-tasks';
import { TaskSlaBadge, useTaskSlaLabels } from './task-sla-badge';
import { TaskStatusBadge, useTaskStatusLabels } from './task-status-badge';
import '../i18n';

const TASK_SORTS = [
  'created_at',
  'priority',
  'expiration_date',
  'deadline',
  'status',
  'label',
] as const;

type Confirm = { kind: 'retry' | 'delete'; tasks: Task[] };

function isTaskStatus(value: string | undefined): value is TaskStatus {
  return (TASK_STATUSES as readonly string[]).includes(value ?? '');
}

function isTaskSlaState(value: string | undefined): value is TaskSlaState {
  return (TASK_SLA_STATES as readonly string[]).includes(value ?? '');
}

type TasksTableProps = {
  /** Only this robot's tasks (its Tasks tab): no robot filter nor robot column. */
  robotId?: number;
  prefix?: string;
  /** The "Nova tarefa" button for the empty state. */
  createAction?: ReactNode;
};

/**
 * Tasks list (`/task` and a robot's Tasks tab): robot, status and date filters, selection for
 * retrying or deleting several at once, each with a confirmation.
 */
export function TasksTable({ robotId, prefix, createAction }: TasksTableProps) {
  const { t } = useTranslation('tasks');
  const can = useCan();
  const format = useFormat();
  const statusLabels = useTaskStatusLabels();
  const slaLabels = useTaskSlaLabels();
  const list = useListState({
    sorts: TASK_SORTS,
    defaultSort: 'created_at',
    defaultOrder: 'desc',
    filters:
      robotId === undefined
        ? ['rota_robots_id', 'status', 'sla_state', 'startDate', 'endDate']
        : ['status', 'sla_state', 'startDate', 'endDate'],
    prefix,
  });
  const filteredRobot = Number(list.filters.rota_robots_id);
  const robotFilter =
    robotId ?? (Number.isInteger(filteredRobot) && filteredRobot > 0 ? filteredRobot : undefined);
  const status = isTaskStatus(list.filters.status) ? list.filters.status : undefined;
  const slaState = isTaskSlaState(list.filters.sla_state) ? list.filters.sla_state : undefined;
  const body: TaskListBody = {
    ...list.query,
    ...(robotFilter !== undefined ? { rota_robots_id: robotFilter } : {}),
    ...(status ? { status } : {}),
    ...(slaState ? { sla_state: slaState } : {}),
    ...dateRangeQuery({ startDate: list.filters.startDate, endDate: list.filters.endDate }),
  };
  const query = useQuery(tasksQueryOptions(body));
  const selection = useRowSelection<number>(JSON.stringify(body));
  const confirm = useDialog<Confirm>();
  const retry = useRetryTasks();
  const deleteOne = useDeleteTask();
  const deleteMany = useDeleteTasks();
  const canRetry = can('ATIVIDADES.UPDATE');
  const canDelete = can('ATIVIDADES.DELETE');

  const nameOf = (task: Task) => task.label ?? t('untitled', { id: task.rota_tasks_id });

  const columns: DataTableColumn<Task>[] = [
    {
      key: 'label',
      header: t('columns.label'),
      sort: 'label',
      render: (task) => (
        <Stack gap={0} miw={140}>
          <Anchor
            component={Link}
            to={taskPath(task.rota_tasks_id)}
            size="sm"
            fw={500}
            lineClamp={2}
            maw={280}
          >
            {nameOf(task)}
          </Anchor>
          <Text size="xs" c="dimmed">
            #{task.rota_tasks_id}
          </Text>
        </Stack>
      ),
    },
    ...(robotId === undefined
      ? [
          {
            key: 'robot',
            header: t('columns.robot'),
            render: (task: Task) => (
              <Anchor component={Link} to={robotPath(task.rota_robots_id, 'tasks')} size="sm">
                {task.rota_robots_name}
              </Anchor>
            ),
          },
        ]
      : []),
    {
      key: 'status',
      header: t('columns.status'),
      sort: 'status',
      render: (task) => (
        <Stack gap={2} align="flex-start">
          <TaskStatusBadge status={task.status} />
          {task.business_error ? (
            <Text size="xs" c="orange.8" lineClamp={2} maw={240} title={task.business_error}>
              {task.business_error}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'sla',
      header: t('columns.sla'),
      render: (task) => <TaskSlaBadge state={task.sla_state} />,
    },
    {
      key: 'deadline',
      header: t('columns.deadline'),
      sort: 'deadline',
      render: (task) => (task.deadline ? <DateTimeText value={task.deadline} /> : '—'),
    },
    {
      key: 'priority',
      header: t('columns.priority'),
      sort: 'priority',
      align: 'right',
      render: (task) => <Text size="sm">{format.number(task.priority)}</Text>,
    },
    {
      key: 'attempts',
      header: t('columns.attempts'),
      align: 'right',
      render: (task) => <Text size="sm">{format.number(task.attempts)}</Text>,
    },
    {
      key: 'expiration_date',
      header: t('columns.expiration'),
      sort: 'expiration_date',
      render: (task) => <DateTimeText value={task.expiration_date} />,
    },
    {
      key: 'created_at',
      header: t('columns.created'),
      sort: 'created_at',
      render: (task) => <DateTimeText value={task.created_at} />,
    },
  ];

  const rowActions: RowAction<Task>[] = [
    {
      key: 'retry',
      label: t('actions.retry'),
      icon: <IconRefresh size={16} aria-hidden />,
      hidden: !canRetry,
      disabled: (task) => task.status === 'processing',
      onClick: (task) => confirm.open({ kind: 'retry', tasks: [task] }),
    },
    {
      key: 'delete',
      label: t('actions.delete'),
      icon: <IconTrash size={16} aria-hidden />,
      color: 'red',
      hidden: !canDelete,
      onClick: (task) => confirm.open({ kind: 'delete', tasks: [task] }),
    },
  ];

  const target = confirm.target;
  const single = target?.tasks.length === 1 ? target.tasks[0] : undefined;
  const count = target?.tasks.length ?? 0;
  const ids = target?.tasks.map((task) => task.rota_tasks_id) ?? [];

  async function runConfirmed() {
    if (!target) return;
    if (target.kind === 'retry') await retry.mutateAsync(ids);
    else if (single) await deleteOne.mutateAsync(single.rota_tasks_id);
    else await deleteMany.mutateAsync(ids);
    selection.clear();
  }

  return (
    <>
      <DataTable
        label={t('list.label')}
        columns={columns}
        query={query}
        list={list}
        rowKey={(task) => task.rota_tasks_id}
        rowLabel={nameOf}
        searchable
        searchPlaceholder={t('list.searchPlaceholder')}
        filters={
          <>
            {robotId === undefined ? (
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
              label={t('list.statusFilter')}
              placeholder={t('list.allStatuses')}
              clearable
              data={TASK_STATUSES.map((value) => ({ value, label: statusLabels[value] }))}
              value={status ?? null}
              onChange={(value) => list.setFilter('status', value)}
              w={{ base: '100%', xs: 190 }}
            />
            <Select
              label={t('list.slaFilter')}
              placeholder={t('list.allSlaStates')}
              clearable
              data={TASK_SLA_STATES.map((value) => ({ value, label: slaLabels[value] }))}
              value={slaState ?? null}
              onChange={(value) => list.setFilter('sla_state', value)}
              w={{ base: '100%', xs: 190 }}
            />
            <DateRangeFilter list={list} />
          </>
        }
        empty={{
          title: t('list.emptyTitle'),
          description: createAction
            ? t('list.emptyDescription')
            : t('list.emptyDescriptionReadOnly'),
          action: createAction,
          icon: <IconListCheck size={28} aria-hidden />,
        }}
        rowActions={rowActions}
        selection={canRetry || canDelete ? selection : undefined}
        bulkActions={(rows) => (
          <>
            {canRetry ? (
              <Button
                size="xs"
                variant="light"
                leftSection={<IconRefresh size={14} aria-hidden />}
                onClick={() => confirm.open({ kind: 'retry', tasks: rows })}
              >
                {t('actions.retrySelected')}
              </Button>
            ) : null}
            {canDelete ? (
              <Button
                size="xs"
                variant="light"
                color="red"
                leftSection={<IconTrash size={14} aria-hidden />}
                onClick={() => confirm.open({ kind: 'delete', tasks: rows })}
              >
                {t('actions.deleteSelected')}
              </Button>
            ) : null}
          </>
        )}
        minWidth={1060}
      />
      {target?.kind === 'delete' ? (
        <ConfirmDelete
          opened={confirm.opened}
          onClose={confirm.close}
          title={
            single ? t('delete.title', { name: nameOf(single) }) : t('delete.bulkTitle', { count })
          }
          onConfirm={runConfirmed}
        />
      ) : (
        <ConfirmDialog
          opened={confirm.opened}
          onClose={confirm.close}
          title={
            single ? t('retry.title', { name: nameOf(single) }) : t('retry.bulkTitle', { count })
          }
          confirmLabel={t('actions.retry')}
          onConfirm={runConfirmed}
        >
          {single ? t('retry.description') : t('retry.bulkDescription')}
        </ConfirmDialog>
      )}
    </>
  );
}
