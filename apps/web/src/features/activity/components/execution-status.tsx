import { Loader, type MantineColor } from '@mantine/core';
import {
  EXECUTION_STATUSES,
  FINAL_EXECUTION_STATUSES,
  type DashboardCategory,
  type ExecutionStatus,
} from '@rota/contract';
import { StatusBadge } from '../../../components/badges';
import { useStatusPalette } from '../../status-items';
import { useActivityTranslation } from '../i18n';

/** Category colours: Process blue, Failure red, Others green, Idle grey. */
export const CATEGORY_COLORS: Record<DashboardCategory, MantineColor> = {
  process: 'blue',
  failure: 'red',
  others: 'green',
  idle: 'gray',
};

export function isFinalStatus(status: ExecutionStatus): boolean {
  return (FINAL_EXECUTION_STATUSES as readonly ExecutionStatus[]).includes(status);
}

export function isExecutionStatus(value: string | undefined): value is ExecutionStatus {
  return (EXECUTION_STATUSES as readonly string[]).includes(value ?? '');
}

/** Each status's text: the client's label (its status item), else the translated name. */
export function useExecutionStatusLabels(): Record<ExecutionStatus, string> {
  const t = useActivityTranslation();
  const palette = useStatusPalette();
  return Object.fromEntries(
    EXECUTION_STATUSES.map((status) => [status, palette.label[status] ?? t(`status.${status}`)]),
  ) as Record<ExecutionStatus, string>;
}

/** An execution's status as a badge in the client's colour; a running one spins. */
export function ExecutionStatusBadge({
  status,
  size,
}: {
  status: ExecutionStatus;
  size?: 'sm' | 'md' | 'lg';
}) {
  const labels = useExecutionStatusLabels();
  const palette = useStatusPalette();
  return (
    <StatusBadge
      status={status}
      colors={palette.color}
      labels={labels}
      size={size}
      leftSection={
        status === 'processing' ? (
          <Loader size={10} color={palette.color.processing} aria-hidden />
        ) : undefined
      }
    />
  );
}
