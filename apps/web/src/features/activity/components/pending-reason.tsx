import { Anchor, Group, Text } from '@mantine/core';
import { IconHourglass } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Execution, PendingReason } from '@rota/contract';
import { AGENTS_PATH } from '../../agents';
import { robotPath } from '../../robots';
import { SCHEDULINGS_PATH } from '../../schedulings';
import { VMS_PATH } from '../../vms';
import { useActivityTranslation } from '../i18n';
import { ACTIVITY_PATH } from '../paths';

/** Where a user fixes what keeps the run waiting. */
function fixPath(reason: PendingReason, execution: Execution): string {
  switch (reason) {
    case 'no_current_version':
      return robotPath(execution.rota_robots_id, 'versions');
    case 'no_vm':
      // A scheduled run waits for its scheduling's VMs; a manual one for the client's.
      return execution.rota_schedulings_id === null ? VMS_PATH : SCHEDULINGS_PATH;
    case 'no_agent_with_labels':
    case 'no_agent_active':
    case 'agents_busy':
      return AGENTS_PATH;
    case 'waiting_priority':
      return `${ACTIVITY_PATH}?status=queued`;
  }
}

/**
 * Why a queued execution still waits, in words, with a link to what to fix. Nothing
 * when it is not queued or about to be claimed.
 */
export function PendingReasonNote({
  execution,
  size = 'sm',
}: {
  execution: Execution;
  size?: 'xs' | 'sm';
}) {
  const t = useActivityTranslation();
  const reason = execution.status === 'queued' ? execution.pending_reason : null;
  if (!reason) return null;
  const text =
    reason !== 'no_agent_with_labels'
      ? t(`pendingReason.${reason}`)
      : // Labels no agent carries at all; else each is carried somewhere, but never all together.
        execution.missing_labels.length > 0
        ? t('pendingReason.no_agent_with_labels', {
            labels: execution.missing_labels.join(', '),
          })
        : t('pendingReason.no_agent_with_all_labels', { labels: execution.labels.join(', ') });
  return (
    <Group gap={4} wrap="nowrap" align="flex-start" data-testid="pending-reason">
      <IconHourglass
        size={size === 'xs' ? 12 : 14}
        aria-hidden
        style={{ flexShrink: 0, marginTop: 3 }}
      />
      <Text size={size} c="dimmed">
        {text}{' '}
        <Anchor component={Link} to={fixPath(reason, execution)} size={size} underline="always">
          {t(`pendingReason.fix.${reason}`)}
        </Anchor>
      </Text>
    </Group>
  );
}
