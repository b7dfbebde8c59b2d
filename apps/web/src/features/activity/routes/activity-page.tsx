import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  CloseButton,
  Group,
  Select,
  Stack,
  Text,
} from '@mantine/core';
import { IconCalendarX, IconDownload, IconHistory } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { EXECUTION_SORTS, EXECUTION_STATUSES, type Execution } from '@rota/contract';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import {
  DateRangeFilter,
  defaultDateRange,
  useValidDateRange,
} from '../../../components/date-range-filter';
import { DateTimeText } from '../../../components/date-time';
import { PageHeader } from '../../../components/page-header';
import { localizeMessage } from '../../../lib/i18n';
import { useListState } from '../../../lib/use-list-state';
import { useCan } from '../../auth';
import { LiveIndicator } from '../../live';
import { RobotSelect } from '../../robots';
import { useExportExecutions } from '../api/export-executions';
import { useExecutionDuration } from '../components/execution-duration';
import { ExecutionProgress } from '../components/execution-progress';
import { AttendedBadge } from '../components/attended-badge';
import { PendingReasonNote } from '../components/pending-reason';
import { executionsQueryOptions, type ActivityListBody } from '../api/list-executions';
import {
  ExecutionStatusBadge,
  isExecutionStatus,
  useExecutionStatusLabels,
} from '../components/execution-status';
import { useActivityTranslation } from '../i18n';
import { executionPath } from '../paths';

const FILTERS = [
  'status',
  'rota_robots_id',
  'rota_schedulings_id',
  'rota_nodes_id',
  'stalled',
  'startDate',
  'endDate',
] as const;

function positiveId(value: string | undefined): number | undefined {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 ? id : undefined;
}

/**
 * `/activity`: every run of the client's robots as a server-side list, the last 10 days by default.
 * Filters, sort and page live in the URL; the header exports the filtered range as CSV; a row
 * opens its execution. Live events refresh the page (the shell invalidates the lists).
 */
export default function ActivityPage() {
  const t = useActivityTranslation();
  const { t: tc } = useTranslation();
  const can = useCan();
  const navigate = useNavigate();
  const statusLabels = useExecutionStatusLabels();
  const duration = useExecutionDuration();
  const defaults = defaultDateRange();
  const list = useListState({
    sorts: EXECUTION_SORTS,
    defaultSort: 'queued_at',
    defaultOrder: 'desc',
    filters: FILTERS,
    filterDefaults: defaults,
  });
  const dates = useValidDateRange(
    { startDate: list.filters.startDate, endDate: list.filters.endDate },
    defaults,
  );
  const status = isExecutionStatus(list.filters.status) ? list.filters.status : undefined;
  const robotFilter = positiveId(list.filters.rota_robots_id);
  const schedulingFilter = positiveId(list.filters.rota_schedulings_id);
  const agentFilter = positiveId(list.filters.rota_nodes_id);
  const stalledOnly = list.filters.stalled === 'true';
  const filters = {
    ...(status ? { status } : {}),
    ...(robotFilter !== undefined ? { rota_robots_id: robotFilter } : {}),
    ...(schedulingFilter !== undefined ? { rota_schedulings_id: schedulingFilter } : {}),
    ...(agentFilter !== undefined ? { rota_nodes_id: agentFilter } : {}),
    ...(stalledOnly ? { stalled: true } : {}),
    // Always a range: the one typed when valid, else the last valid one (while the field's error shows).
    ...dates.range,
  };
  const body: ActivityListBody = { ...list.query, ...filters };
  const query = useQuery(executionsQueryOptions(body));
  // Live refreshes replace the rows in place; only another page or filter dims the table.
  const tableQuery = {
    data: query.data,
    isPending: query.isPending,
    isError: query.isError,
    isFetching: query.isFetching && query.isPlaceholderData,
    refetch: query.refetch,
  };
  // A refused range empties the table and says why in its place: the last valid range's rows
  // would read as the answer to the new one, and messages under the inputs would move the row.
  const rangeMessages = [...new Set(Object.values(dates.errors))];
  const rangeNotice =
    rangeMessages.length > 0 ? (
      <Alert
        color="red"
        variant="light"
        role="alert"
        title={t('list.badRangeTitle')}
        icon={<IconCalendarX aria-hidden />}
      >
        {rangeMessages.map((key) => (
          <Text key={key} size="sm">
            {localizeMessage(key)}
          </Text>
        ))}
      </Alert>
    ) : undefined;
  const exportCsv = useExportExecutions();
  const canListRobots = can('ROBOS.LIST');

  const columns: DataTableColumn<Execution>[] = [
    {
      key: 'rota_robots_name',
      header: t('columns.robot'),
      sort: 'rota_robots_name',
      render: (execution) => (
        <Stack gap={0} miw={140}>
          <Anchor
            component={Link}
            to={executionPath(execution.execution_id)}
            size="sm"
            fw={600}
            lineClamp={2}
          >
            {execution.rota_robots_name}
          </Anchor>
          <Text size="xs" c="dimmed" lineClamp={1}>
            {execution.rota_schedulings_name ??
              (execution.trigger === 'api' ? t('trigger.api') : t('list.manual'))}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'rota_executor_name',
      header: t('columns.executor'),
      sort: 'rota_executor_name',
      render: (execution) =>
        execution.rota_executor_name ? (
          <Text size="sm">{execution.rota_executor_name}</Text>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        ),
    },
    {
      key: 'start_date',
      header: t('columns.start'),
      sort: 'start_date',
      render: (execution) => <DateTimeText value={execution.start_date} />,
    },
    {
      key: 'end_date',
      header: t('columns.end'),
      sort: 'end_date',
      render: (execution) => <DateTimeText value={execution.end_date} />,
    },
    {
      key: 'execution_id',
      header: t('columns.id'),
      sort: 'execution_id',
      align: 'right',
      render: (execution) => (
        <Text size="sm" ff="monospace">
          #{execution.execution_id}
        </Text>
      ),
    },
    {
      key: 'status',
      header: t('columns.status'),
      sort: 'status',
      render: (execution) => (
        <Stack gap={4} maw={260}>
          <Group gap={4} wrap="wrap">
            <ExecutionStatusBadge status={execution.status} />
            <AttendedBadge execution={execution} />
          </Group>
          <PendingReasonNote execution={execution} size="xs" />
          <ExecutionProgress execution={execution} compact />
        </Stack>
      ),
    },
    {
      key: 'duration',
      header: t('columns.duration'),
      sort: 'duration',
      align: 'right',
      render: (execution) => {
        const text = duration(execution);
        return text ? (
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            {text}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        );
      },
    },
  ];

  // Filters reached through links (a scheduling's, an agent's runs) have no input of their own.
  const urlOnlyFilters = [
    ...(robotFilter !== undefined && !canListRobots
      ? [{ name: 'rota_robots_id' as const, label: t('list.robotFilterId', { id: robotFilter }) }]
      : []),
    ...(schedulingFilter !== undefined
      ? [
          {
            name: 'rota_schedulings_id' as const,
            label: t('list.schedulingFilter', { id: schedulingFilter }),
          },
        ]
      : []),
    ...(agentFilter !== undefined
      ? [{ name: 'rota_nodes_id' as const, label: t('list.agentFilter', { id: agentFilter }) }]
      : []),
  ];

  return (
    <>
      <PageHeader
        title={tc('pages.activity.title')}
        subtitle={tc('pages.activity.subtitle')}
        actions={
          <>
            <LiveIndicator />
            <Button
              variant="default"
              leftSection={<IconDownload size={16} aria-hidden />}
              loading={exportCsv.isPending}
              disabled={!dates.valid}
              onClick={() =>
                exportCsv.mutate({
                  ...filters,
                  ...(list.search ? { search: list.search } : {}),
                })
              }
            >
              {t('list.export')}
            </Button>
          </>
        }
      />
      {urlOnlyFilters.length > 0 ? (
        <Group gap="xs" mb="sm">
          {urlOnlyFilters.map((filter) => (
            <Badge
              key={filter.name}
              variant="light"
              color="gray"
              radius="sm"
              tt="none"
              size="lg"
              rightSection={
                <CloseButton
                  size="xs"
                  aria-label={t('list.removeFilter', { name: filter.label })}
                  onClick={() => list.setFilter(filter.name, null)}
                />
              }
            >
              {filter.label}
            </Badge>
          ))}
        </Group>
      ) : null}
      <DataTable
        label={t('list.label')}
        columns={columns}
        query={tableQuery}
        list={list}
        rowKey={(execution) => execution.execution_id}
        rowLabel={(execution) => `#${execution.execution_id} ${execution.rota_robots_name}`}
        searchable
        searchPlaceholder={t('list.searchPlaceholder')}
        filters={
          <>
            <Select
              label={t('list.statusFilter')}
              placeholder={t('list.allStatuses')}
              clearable
              data={EXECUTION_STATUSES.map((value) => ({ value, label: statusLabels[value] }))}
              value={status ?? null}
              onChange={(value) => list.setFilter('status', value)}
              w={{ base: '100%', xs: 190 }}
            />
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
            <Checkbox
              label={t('progress.stalledFilter')}
              checked={stalledOnly}
              onChange={(event) =>
                list.setFilter('stalled', event.currentTarget.checked ? 'true' : null)
              }
              style={{ alignSelf: 'flex-end' }}
              mb={8}
            />
            <DateRangeFilter list={list} required messages="page" />
          </>
        }
        empty={{
          title: t('list.emptyTitle'),
          description: t('list.emptyDescription'),
          icon: <IconHistory size={28} aria-hidden />,
        }}
        onRowClick={(execution) => void navigate(executionPath(execution.execution_id))}
        minWidth={900}
        notice={rangeNotice}
      />
    </>
  );
}
