import { Badge, Group, Progress, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconPlugConnectedX } from '@tabler/icons-react';
import type { Execution } from '@rota/contract';
import { useFormat } from '../../../lib/format';
import { useNow } from '../../../lib/use-now';
import { relativeTime } from '../../agents';
import { useActivityTranslation } from '../i18n';

/** How often "last activity 3 min ago" reads the time again; live events re-render it too. */
const TICK_MS = 30_000;

/** A processing run its robot's `stall_minutes` passed without activity. */
export function StalledBadge({ execution }: { execution: Pick<Execution, 'stalled'> }) {
  const t = useActivityTranslation();
  if (!execution.stalled) return null;
  return (
    <Badge
      color="orange"
      variant="light"
      radius="sm"
      leftSection={<IconAlertTriangle size={12} aria-hidden />}
      data-testid="stalled-badge"
    >
      {t('progress.stalled')}
    </Badge>
  );
}

/**
 * A processing run whose agent's connection closed without a goodbye: it waits for the agent
 * to come back within its lease (then it goes on) or is settled when the lease runs out.
 */
export function ConnectionLostBadge({
  execution,
}: {
  execution: Pick<Execution, 'status' | 'connection_lost_at'>;
}) {
  const t = useActivityTranslation();
  const format = useFormat();
  if (execution.status !== 'processing' || !execution.connection_lost_at) return null;
  return (
    <Badge
      color="red"
      variant="light"
      radius="sm"
      tt="none"
      leftSection={<IconPlugConnectedX size={12} aria-hidden />}
      title={format.dateTime(execution.connection_lost_at)}
      // The sentence wraps in a narrow status column rather than being cut.
      styles={{ root: { height: 'auto', paddingBlock: 2 }, label: { whiteSpace: 'normal' } }}
      data-testid="connection-lost-badge"
    >
      {t('progress.connectionLost')}
    </Badge>
  );
}

/**
 * A running execution's progress (percent bar and message, as the robot reported them) and
 * when it was last active, relative and live. Nothing for a run not processing.
 */
export function ExecutionProgress({
  execution,
  compact = false,
}: {
  execution: Pick<
    Execution,
    | 'status'
    | 'progress_percent'
    | 'progress_message'
    | 'last_activity_at'
    | 'stalled'
    | 'connection_lost_at'
  >;
  compact?: boolean;
}) {
  const t = useActivityTranslation();
  const format = useFormat();
  const now = useNow(TICK_MS);
  if (execution.status !== 'processing') return null;
  const percent = execution.progress_percent;
  const size = compact ? 'xs' : 'sm';
  return (
    <Stack gap={4} maw={compact ? 260 : undefined} data-testid="execution-progress">
      {percent !== null ? (
        <Group gap="xs" wrap="nowrap">
          <Progress
            value={percent}
            size={compact ? 'sm' : 'md'}
            radius="sm"
            style={{ flex: 1, minWidth: 60 }}
            aria-label={t('progress.label', { percent })}
          />
          <Text size={size} fw={600} style={{ whiteSpace: 'nowrap' }}>
            {percent}%
          </Text>
        </Group>
      ) : null}
      {execution.progress_message ? (
        <Text size={size} lineClamp={compact ? 2 : undefined} style={{ wordBreak: 'break-word' }}>
          {execution.progress_message}
        </Text>
      ) : null}
      <Group gap={6} wrap="wrap">
        <ConnectionLostBadge execution={execution} />
        <StalledBadge execution={execution} />
        {execution.last_activity_at ? (
          <Text
            size={size}
            c={execution.stalled ? 'orange' : 'dimmed'}
            title={format.dateTime(execution.last_activity_at)}
          >
            {t('progress.lastActivity', {
              when: relativeTime(execution.last_activity_at, format.lang, now),
            })}
          </Text>
        ) : null}
      </Group>
    </Stack>
  );
}
