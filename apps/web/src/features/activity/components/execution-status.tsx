import { Loader, type MantineColor } from '@mantine/core';
import {
  DEFAULT_STATUS_CATEGORIES,
  EXECUTION_STATUSES,
  FINAL_EXECUTION_STATUSES,
  type DashboardCategory,
  type ExecutionStatus,
} from '@rota/contract';
import { StatusBadge } from '../../../components/badges';
import { useActivityTranslation } from '../i18n';

/** DESIGN §6 categories: Process blue, Failure red, Others green, Idle grey. */
export const CATEGORY_COLORS: Record<DashboardCategory, MantineColor> = {
  process: 'blue',
  failure: 'red',
  others: 'green',
  idle: 'gray',
};

/**
 * A status takes its category's colour (the status items will let each client choose them);
 * among the Others, a cancelled run is grey rather than the green of a success.
 */
export const EXECUTION_STATUS_COLORS = Object.fromEntries(
  EXECUTION_STATUSES.map((status) => [
    status,
    status === 'cancelled' ? 'gray' : CATEGORY_COLORS[DEFAULT_STATUS_CATEGORIES[status]],
  ]),
) as Record<ExecutionStatus, MantineColor>;

export function isFinalStatus(status: ExecutionStatus): boolean {
  return (FINAL_EXECUTION_STATUSES as readonly ExecutionStatus[]).includes(status);
}

export function isExecutionStatus(value: string | undefined): value is ExecutionStatus {
  return (EXECUTION_STATUSES as readonly string[]).includes(value ?? '');
}

export function useExecutionStatusLabels(): Record<ExecutionStatus, string> {
  const t = useActivityTranslation();
  return Object.fromEntries(
    EXECUTION_STATUSES.map((status) => [status, t(`status.${status}`)]),
  ) as Record<ExecutionStatus, string>;
}

/** An execution's status as a coloured badge; a running one spins. */
export function ExecutionStatusBadge({
  status,
  size,
}: {
  status: ExecutionStatus;
  size?: 'sm' | 'md' | 'lg';
}) {
  const labels = useExecutionStatusLabels();
  return (
    <StatusBadge
      status={status}
      colors={EXECUTION_STATUS_COLORS}
      labels={labels}
      size={size}
      leftSection={
        status === 'processing' ? <Loader size={10} color="blue" aria-hidden /> : undefined
      }
    />
  );
}
