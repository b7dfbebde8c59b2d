import { Alert, Anchor, Group, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DateTimeText } from '../../../components/date-time';
import { executionsQueryOptions } from '../api/list-executions';
import { useActivityTranslation } from '../i18n';
import { executionPath, robotActivityPath } from '../paths';
import { useExecutionDuration } from './execution-duration';
import { ExecutionStatusBadge } from './execution-status';

const LATEST = 5;

/**
 * A robot's latest executions (its Overview tab), newest first; they refresh live because the
 * shell invalidates every executions list on `execution` events. Needs HISTORIC.LIST.
 */
export function LatestExecutions({ robotId }: { robotId: number }) {
  const t = useActivityTranslation();
  const { t: tc } = useTranslation();
  const duration = useExecutionDuration();
  const query = useQuery(
    executionsQueryOptions({
      page: 1,
      per_page: LATEST,
      sort: 'queued_at',
      order: 'desc',
      rota_robots_id: robotId,
    }),
  );
  const rows = query.data?.data ?? [];

  let body;
  if (query.isPending) {
    body = (
      <Stack gap={8} role="status" aria-busy="true" aria-label={tc('app.loading')}>
        {Array.from({ length: 3 }, (_, index) => (
          <Skeleton key={index} height={22} radius="sm" />
        ))}
      </Stack>
    );
  } else if (query.isError && !query.data) {
    body = (
      <Alert color="red" variant="light" title={t('latest.loadError')}>
        <Anchor component="button" size="sm" onClick={() => void query.refetch()}>
          {tc('app.retry')}
        </Anchor>
      </Alert>
    );
  } else if (rows.length === 0) {
    body = (
      <Text size="sm" c="dimmed">
        {t('latest.empty')}
      </Text>
    );
  } else {
    body = (
      <Table.ScrollContainer minWidth={560} type="native" pos="relative">
        <Table aria-label={t('latest.label')} verticalSpacing="xs" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('columns.id')}</Table.Th>
              <Table.Th>{t('columns.status')}</Table.Th>
              <Table.Th>{t('columns.start')}</Table.Th>
              <Table.Th ta="right">{t('columns.duration')}</Table.Th>
              <Table.Th>{t('columns.executor')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((execution) => (
              <Table.Tr key={execution.execution_id}>
                <Table.Td>
                  <Anchor
                    component={Link}
                    to={executionPath(execution.execution_id)}
                    size="sm"
                    ff="monospace"
                  >
                    #{execution.execution_id}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <ExecutionStatusBadge status={execution.status} />
                </Table.Td>
                <Table.Td>
                  <DateTimeText value={execution.start_date ?? execution.queued_at} />
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                    {duration(execution) || '—'}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{execution.rota_executor_name ?? '—'}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Group justify="space-between" align="flex-start" gap="sm" mb="sm">
        <div>
          <Title order={2} fz="h4">
            {t('latest.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('latest.description')}
          </Text>
        </div>
        <Anchor component={Link} to={robotActivityPath(robotId)} size="sm">
          {t('latest.viewAll')}
        </Anchor>
      </Group>
      {body}
    </Paper>
  );
}
