import { lazy, memo, Suspense, useDeferredValue } from 'react';
import { Alert, Button, Grid, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dashboard } from '@rota/contract';
import {
  DateRangeFilter,
  defaultDateRange,
  useValidDateRange,
} from '../../../components/date-range-filter';
import { PageHeader } from '../../../components/page-header';
import { useFormat } from '../../../lib/format';
import { useListState } from '../../../lib/use-list-state';
import { LiveIndicator } from '../../live';
import { dashboardQueryOptions } from '../api/get-dashboard';
import { CategoryCards } from '../components/category-cards';
import { FailingRobots } from '../components/failing-robots';
import { FleetCards } from '../components/fleet-cards';
import { TaskSlaCard } from '../components/task-sla-card';
import { useDashboardTranslation } from '../i18n';

// The chart (a few kB of SVG drawing) comes in its own chunk, fetched only when there are
// executions to draw: the figures paint without waiting for it.
const ExecutionsChart = lazy(() => import('../components/executions-chart'));

const CHART_HEIGHT = 300;

/**
 * `/dashboard` (home; needs only a session): for a range of days (the last 10 by default, in the
 * URL), robots per category, executions per day by status, the fleet, the robots failing most
 * and the tasks at risk or breached. Live events refresh it (the shell invalidates it,
 * debounced), and so does a timer, since SLA states change with time alone.
 */
export default function DashboardPage() {
  const t = useDashboardTranslation();
  const { t: tc } = useTranslation();
  const defaults = defaultDateRange();
  const list = useListState({ filters: ['startDate', 'endDate'], filterDefaults: defaults });
  const dates = useValidDateRange(
    { startDate: list.filters.startDate, endDate: list.filters.endDate },
    defaults,
  );
  const query = useQuery(dashboardQueryOptions(dates.range));
  // The figures draw as a background render, which React slices into short tasks, so a phone's
  // main thread answers while they draw: as one task, drawing them was the longest task after
  // the first paint. The filter row and the error stay urgent.
  const data = useDeferredValue(query.data);
  const loading = useDeferredValue(query.isPending);
  const dimmed = useDeferredValue(query.isPlaceholderData);

  return (
    <>
      <PageHeader
        title={tc('pages.dashboard.title')}
        subtitle={tc('pages.dashboard.subtitle')}
        actions={<LiveIndicator />}
      />
      <Stack gap="lg">
        <Group gap="sm" align="flex-end">
          <DateRangeFilter list={list} required />
        </Group>
        {query.isError && !query.data ? (
          <Alert color="red" variant="light" title={t('loadError')}>
            <Button
              size="xs"
              variant="light"
              color="red"
              mt="xs"
              onClick={() => void query.refetch()}
            >
              {tc('app.retry')}
            </Button>
          </Alert>
        ) : null}
        <DashboardFigures
          data={data}
          loading={loading}
          dimmed={dimmed}
          startDate={dates.range.startDate}
          endDate={dates.range.endDate}
        />
      </Stack>
    </>
  );
}

type FiguresProps = {
  data: Dashboard | undefined;
  loading: boolean;
  /** Another range's figures, shown until this one's arrive. */
  dimmed: boolean;
  /** The range's ends, apart: the range object is new on every render. */
  startDate: string;
  endDate: string;
};

/** Memoised: the page's urgent renders (the query's own states) skip it until its figures change. */
const DashboardFigures = memo(function DashboardFigures({
  data,
  loading,
  dimmed,
  startDate,
  endDate,
}: FiguresProps) {
  const t = useDashboardTranslation();
  const format = useFormat();
  return (
    <>
      <CategoryCards categories={data?.categories} loading={loading} />
      <Grid gap={{ base: 'md', sm: 'lg' }}>
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Paper
            withBorder
            radius="md"
            p={{ base: 'md', sm: 'lg' }}
            h="100%"
            // Another range dims the chart until its figures arrive; live refreshes do not.
            style={{ opacity: dimmed ? 0.7 : 1 }}
          >
            <Group justify="space-between" align="flex-start" gap="xs" mb="md">
              <div>
                <Title order={2} fz="h4">
                  {t('chart.title')}
                </Title>
                <Text size="sm" c="dimmed">
                  {t('chart.description')}
                </Text>
              </div>
              {data ? (
                <Text size="sm" fw={600}>
                  {t('chart.total', {
                    count: data.totals.executions,
                    formatted: format.number(data.totals.executions),
                  })}
                </Text>
              ) : null}
            </Group>
            {loading || !data ? (
              <Skeleton height={CHART_HEIGHT} radius="sm" />
            ) : data.totals.executions === 0 ? (
              <Stack h={CHART_HEIGHT} align="center" justify="center" gap="xs">
                <IconChartBar size={32} aria-hidden style={{ opacity: 0.4 }} />
                <Text size="sm" c="dimmed">
                  {t('chart.empty')}
                </Text>
              </Stack>
            ) : (
              <Suspense fallback={<Skeleton height={CHART_HEIGHT} radius="sm" />}>
                <ExecutionsChart perDay={data.per_day} label={t('chart.label')} />
              </Suspense>
            )}
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <FleetCards data={data} loading={loading} />
        </Grid.Col>
      </Grid>
      <FailingRobots
        robots={data?.failing_robots}
        range={{ startDate, endDate }}
        loading={loading}
      />
      <TaskSlaCard robots={data?.task_sla} loading={loading} />
    </>
  );
});
