import type { MantineColor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TASK_STATUSES, type TaskStatus } from '@rota/contract';
import { StatusBadge } from '../../../components/badges';
import '../i18n';

/** Colours of task statuses: waiting blue, running cyan, done green, failures red/orange. */
export const TASK_STATUS_COLORS: Record<TaskStatus, MantineColor> = {
  pending: 'blue',
  processing: 'cyan',
  success: 'teal',
  business_error: 'orange',
  application_error: 'red',
  expired: 'gray',
};

export function useTaskStatusLabels(): Record<TaskStatus, string> {
  const { t } = useTranslation('tasks');
  return Object.fromEntries(
    TASK_STATUSES.map((status) => [status, t(`status.${status}`)]),
  ) as Record<TaskStatus, string>;
}

export function TaskStatusBadge({
  status,
  size,
}: {
  status: TaskStatus;
  size?: 'sm' | 'md' | 'lg';
}) {
  const labels = useTaskStatusLabels();
  return <StatusBadge status={status} colors={TASK_STATUS_COLORS} labels={labels} size={size} />;
}
