import { Badge, Tooltip, type BadgeProps } from '@mantine/core';
import { IconUser } from '@tabler/icons-react';
import type { Execution } from '@rota/contract';
import { useActivityTranslation } from '../i18n';

type AttendedBadgeProps = {
  execution: Pick<Execution, 'attended_by' | 'attended_by_name'>;
} & Omit<BadgeProps, 'color' | 'children'>;

/**
 * "Attended": a run a person started on their own machine. Their name is in the badge's
 * accessible name and tooltip, so a row says who without widening the column.
 */
export function AttendedBadge({ execution, ...props }: AttendedBadgeProps) {
  const t = useActivityTranslation();
  if (execution.attended_by === null) return null;
  const name = execution.attended_by_name ?? t('attended.unknownUser');
  const title = t('attended.by', { name });
  return (
    <Tooltip label={title} withArrow>
      <Badge
        variant="light"
        color="grape"
        radius="sm"
        tt="none"
        miw="max-content"
        leftSection={<IconUser size={12} aria-hidden />}
        aria-label={title}
        {...props}
      >
        {t('attended.label')}
      </Badge>
    </Tooltip>
  );
}
