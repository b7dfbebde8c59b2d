import { Anchor, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MAX_PAGE_SIZE } from '@rota/contract';
import { useCan } from '../../auth';
import { tasksQueryOptions } from '../api/list-tasks';
import { taskPath } from '../paths';
import { TaskStatusBadge } from './task-status-badge';
import '../i18n';

/**
 * The execution page's "Tasks" section: the tasks the run took from the queue (read from the
 * tasks' history), each linked to its page. Nothing without ATIVIDADES.LIST.
 */
export function ExecutionTasks({ executionId }: { executionId: number }) {
  const can = useCan();
  if (!can('ATIVIDADES.LIST')) return null;
  return <ExecutionTasksList executionId={executionId} />;
}

function ExecutionTasksList({ executionId }: { executionId: number }) {
  const { t } = useTranslation('tasks');
  const tasks = useQuery(
    tasksQueryOptions({
      rota_executions_id: executionId,
      page: 1,
      per_page: MAX_PAGE_SIZE,
      sort: 'created_at',
      order: 'asc',
    }),
  );
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'md', sm: 'lg' }}
      mt="lg"
      component="section"
      aria-labelledby="execution-tasks-title"
    >
      <Title order={2} fz="h4" id="execution-tasks-title">
        {t('executionTasks.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {t('executionTasks.description')}
      </Text>
      {tasks.isPending ? (
        <Skeleton height={24} />
      ) : tasks.isError ? (
        <Text size="sm" c="red.8">
          {t('executionTasks.loadError')}
        </Text>
      ) : tasks.data.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('executionTasks.empty')}
        </Text>
      ) : (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {tasks.data.data.map((task) => (
            <Group key={task.rota_tasks_id} component="li" gap="sm" wrap="wrap">
              <Anchor component={Link} to={taskPath(task.rota_tasks_id)} size="sm" fw={500}>
                {task.label ?? t('untitled', { id: task.rota_tasks_id })}
              </Anchor>
              <Text size="xs" c="dimmed">
                #{task.rota_tasks_id}
              </Text>
              <TaskStatusBadge status={task.status} />
              <Text size="xs" c="dimmed">
                {t('executionTasks.attempts', { n: task.attempts })}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
