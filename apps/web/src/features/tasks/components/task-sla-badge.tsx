import { Text, type MantineColor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TASK_SLA_STATES, type TaskSlaState } from '@rota/contract';
import { StatusBadge } from '../../../components/badges';
import '../i18n';

/** On time green, at risk yellow, breached red; once finished, met teal and missed orange. */
export const TASK_SLA_COLORS: Record<TaskSlaState, MantineColor> = {
  on_time: 'green',
  at_risk: 'yellow',
  breached: 'red',
  met: 'teal',
  missed: 'orange',
};

export function useTaskSlaLabels(): Record<TaskSlaState, string> {
  const { t } = useTranslation('tasks');
  return Object.fromEntries(TASK_SLA_STATES.map((state) => [state, t(`sla.${state}`)])) as Record<
    TaskSlaState,
    string
  >;
}

/** A task's SLA state in words; a dash when it has no deadline. */
export function TaskSlaBadge({ state }: { state: TaskSlaState | null }) {
  const labels = useTaskSlaLabels();
  const { t } = useTranslation('tasks');
  if (state === null)
    return (
      <Text size="sm" c="dimmed" aria-label={t('sla.none')}>
        —
      </Text>
    );
  return <StatusBadge status={state} colors={TASK_SLA_COLORS} labels={labels} />;
}
