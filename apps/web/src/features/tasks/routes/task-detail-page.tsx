import { Alert, Anchor, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { Task } from '@rota/contract';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DateTimeText } from '../../../components/date-time';
import { DetailList } from '../../../components/detail-list';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { useFormat } from '../../../lib/format';
import { isApiError } from '../../../lib/http';
import { useDialog } from '../../../lib/use-dialog';
import { useCan } from '../../auth';
import { robotPath } from '../../robots';
import { taskQueryOptions } from '../api/get-task';
import { taskHistoryQueryOptions } from '../api/get-task-history';
import { useRetryTasks } from '../api/retry-tasks';
import { TaskData } from '../components/task-data';
import { TaskExecutions, TaskHistoryTimeline } from '../components/task-history';
import { TaskSlaBadge } from '../components/task-sla-badge';
import { TaskStatusBadge } from '../components/task-status-badge';
import { TASKS_PATH } from '../paths';
import '../i18n';

function BackLink() {
  const { t } = useTranslation('tasks');
  return (
    <Anchor component={Link} to={TASKS_PATH} size="sm" mb="xs" display="inline-flex">
      <Group gap={4} wrap="nowrap" component="span">
        <IconArrowLeft size={14} aria-hidden />
        {t('detail.back')}
      </Group>
    </Anchor>
  );
}

function Details({ task }: { task: Task }) {
  const { t } = useTranslation('tasks');
  const format = useFormat();
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Title order={2} fz="h4" mb="md">
        {t('detail.details')}
      </Title>
      <DetailList
        items={[
          {
            label: t('detail.robot'),
            value: (
              <Anchor component={Link} to={robotPath(task.rota_robots_id, 'tasks')} size="sm">
                {task.rota_robots_name}
              </Anchor>
            ),
          },
          { label: t('detail.status'), value: <TaskStatusBadge status={task.status} /> },
          ...(task.business_error
            ? [
                {
                  label: t('detail.businessError'),
                  value: (
                    <Text component="span" size="sm" c="orange.9">
                      {task.business_error}
                    </Text>
                  ),
                  wide: true,
                },
              ]
            : []),
          { label: t('detail.attempts'), value: format.number(task.attempts) },
          { label: t('detail.priority'), value: format.number(task.priority) },
          {
            label: t('detail.deadline'),
            value: task.deadline ? <DateTimeText value={task.deadline} /> : null,
          },
          { label: t('detail.sla'), value: <TaskSlaBadge state={task.sla_state} /> },
          { label: t('detail.expiration'), value: <DateTimeText value={task.expiration_date} /> },
          {
            label: t('detail.postponeUntil'),
            value: task.postpone_until ? <DateTimeText value={task.postpone_until} /> : null,
          },
          { label: t('detail.created'), value: <DateTimeText value={task.created_at} /> },
          {
            label: t('detail.finished'),
            value: task.finished_at ? <DateTimeText value={task.finished_at} /> : null,
          },
        ]}
      />
    </Paper>
  );
}

/**
 * `/task/:id`: one task: its data as the robot's fields label it, status, SLA, business error,
 * attempts, the history of its status changes and the executions that held it (linked to their
 * pages); ATIVIDADES.UPDATE may put a finished one back in the queue.
 */
export default function TaskDetailPage() {
  const { t } = useTranslation('tasks');
  const { t: tc } = useTranslation();
  const can = useCan();
  const { id } = useParams();
  const taskId = Number(id);
  const validId = Number.isInteger(taskId) && taskId > 0;
  const task = useQuery({ ...taskQueryOptions(validId ? taskId : 0), enabled: validId });
  const history = useQuery({ ...taskHistoryQueryOptions(validId ? taskId : 0), enabled: validId });
  const retry = useRetryTasks();
  const confirm = useDialog<Task>();

  if (!validId || (task.isError && isApiError(task.error) && task.error.status === 404)) {
    return (
      <>
        <BackLink />
        <PageHeader title={t('detail.notFoundTitle')} subtitle={t('detail.notFound')} />
      </>
    );
  }
  if (task.isError) {
    return (
      <>
        <BackLink />
        <Alert color="red" variant="light" title={t('detail.loadErrorTitle')}>
          <Text size="sm">{task.error.message}</Text>
          <Button size="xs" variant="light" color="red" mt="sm" onClick={() => void task.refetch()}>
            {tc('app.retry')}
          </Button>
        </Alert>
      </>
    );
  }
  if (task.isPending) return <PageSkeleton />;

  const data = task.data;
  const name = data.label ?? t('untitled', { id: data.rota_tasks_id });
  const retryable =
    can('ATIVIDADES.UPDATE') && data.status !== 'pending' && data.status !== 'processing';
  const entries = history.data ?? [];
  return (
    <>
      <BackLink />
      <PageHeader
        title={name}
        subtitle={t('detail.subtitle', { id: data.rota_tasks_id, robot: data.rota_robots_name })}
        actions={
          <>
            <TaskStatusBadge status={data.status} size="lg" />
            {retryable ? (
              <Button
                variant="light"
                leftSection={<IconRefresh size={16} aria-hidden />}
                onClick={() => confirm.open(data)}
              >
                {t('detail.retry')}
              </Button>
            ) : null}
          </>
        }
      />
      <Stack gap="lg">
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Details task={data} />
          <TaskData task={data} />
        </SimpleGrid>
        {history.isError ? (
          <Alert color="red" variant="light" title={t('detail.history')}>
            <Text size="sm">{history.error.message}</Text>
          </Alert>
        ) : (
          <>
            {/* Full width: the executions table needs its five columns side by side. */}
            <TaskHistoryTimeline entries={entries} />
            <TaskExecutions entries={entries} />
          </>
        )}
      </Stack>
      <ConfirmDialog
        opened={confirm.opened}
        onClose={confirm.close}
        title={t('retry.title', { name })}
        confirmLabel={t('actions.retry')}
        onConfirm={() => retry.mutateAsync([data.rota_tasks_id])}
      >
        {t('retry.description')}
      </ConfirmDialog>
    </>
  );
}
