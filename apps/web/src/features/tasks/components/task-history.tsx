import { Anchor, Group, Paper, Stack, Text, Timeline, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TaskHistoryEntry } from '@rota/contract';
import { DateTimeText } from '../../../components/date-time';
import { ACTIVITY_PATH, ExecutionStatusBadge } from '../../activity';
import { TASK_STATUS_COLORS, TaskStatusBadge } from './task-status-badge';
import '../i18n';

const executionPath = (id: number) => `${ACTIVITY_PATH}/${id}`;

/** The task's status changes, oldest first, each with the execution that held it then. */
export function TaskHistoryTimeline({ entries }: { entries: readonly TaskHistoryEntry[] }) {
  const { t } = useTranslation('tasks');
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Title order={2} fz="h4" mb="md">
        {t('detail.history')}
      </Title>
      {entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('detail.noHistory')}
        </Text>
      ) : (
        <Timeline
          active={entries.length - 1}
          bulletSize={14}
          lineWidth={2}
          aria-label={t('detail.history')}
        >
          {entries.map((entry) => (
            <Timeline.Item
              key={entry.rota_task_history_id}
              color={TASK_STATUS_COLORS[entry.status]}
              title={
                <Group gap="xs" wrap="wrap">
                  <TaskStatusBadge status={entry.status} />
                  <DateTimeText value={entry.at} c="dimmed" />
                </Group>
              }
              data-testid="task-history-entry"
            >
              <Group gap="xs" mt={4} wrap="wrap">
                {entry.attempts > 0 ? (
                  <Text size="xs" c="dimmed">
                    {t('detail.attempt', { n: entry.attempts })}
                  </Text>
                ) : null}
                {entry.rota_executions_id !== null ? (
                  <Anchor component={Link} to={executionPath(entry.rota_executions_id)} size="xs">
                    {entry.execution?.rota_nodes_name
                      ? t('detail.heldByOn', {
                          id: entry.rota_executions_id,
                          agent: entry.execution.rota_nodes_name,
                        })
                      : t('detail.heldBy', { id: entry.rota_executions_id })}
                  </Anchor>
                ) : null}
              </Group>
              {entry.business_error ? (
                <Text size="sm" c="orange.9" mt={4} style={{ overflowWrap: 'anywhere' }}>
                  {entry.business_error}
                </Text>
              ) : null}
            </Timeline.Item>
          ))}
        </Timeline>
      )}
    </Paper>
  );
}

/** The executions that held the task, once each, oldest first, linked to their pages. */
export function TaskExecutions({ entries }: { entries: readonly TaskHistoryEntry[] }) {
  const { t } = useTranslation('tasks');
  const seen = new Map<number, TaskHistoryEntry>();
  for (const entry of entries) {
    // The latest row of each execution says the most about it.
    if (entry.rota_executions_id !== null) seen.set(entry.rota_executions_id, entry);
  }
  const executions = [...seen.entries()];
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Title order={2} fz="h4" mb="md">
        {t('detail.executions')}
      </Title>
      {executions.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('detail.noExecutions')}
        </Text>
      ) : (
        // A list, not a table: each execution wraps onto two lines on a phone instead of scrolling.
        <Stack
          component="ul"
          gap="sm"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          aria-label={t('detail.executions')}
        >
          {executions.map(([id, entry]) => (
            <Group
              key={id}
              component="li"
              gap="xs"
              wrap="wrap"
              data-testid="task-execution"
              aria-label={t('detail.heldBy', { id })}
            >
              <Anchor component={Link} to={executionPath(id)} size="sm" fw={500}>
                #{id}
              </Anchor>
              {entry.execution ? (
                <ExecutionStatusBadge status={entry.execution.status} />
              ) : (
                <Text size="sm" c="dimmed">
                  {t('detail.executionGone')}
                </Text>
              )}
              {entry.execution?.rota_nodes_name ? (
                <Text size="sm">
                  {t('detail.agent')}: {entry.execution.rota_nodes_name}
                </Text>
              ) : null}
              {entry.execution?.started_at ? (
                <Group gap={4} wrap="nowrap">
                  <Text size="sm" c="dimmed">
                    {t('detail.started')}
                  </Text>
                  <DateTimeText value={entry.execution.started_at} />
                </Group>
              ) : null}
              {entry.execution?.ended_at ? (
                <Group gap={4} wrap="nowrap">
                  <Text size="sm" c="dimmed">
                    {t('detail.ended')}
                  </Text>
                  <DateTimeText value={entry.execution.ended_at} />
                </Group>
              ) : null}
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
