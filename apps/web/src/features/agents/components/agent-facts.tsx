import { Badge, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { Agent } from '@rota/contract';
import { useFormat } from '../../../lib/format';
import { useAgentsTranslation } from '../i18n';

/** "Low disk space": the agent's last hello said under 1 GiB free in its work dir. */
export function LowDiskBadge({ agent }: { agent: Agent }) {
  const t = useAgentsTranslation();
  const format = useFormat();
  if (!agent.low_disk) return null;
  const free = agent.facts?.free_disk_bytes;
  return (
    <Badge
      color="orange"
      variant="light"
      radius="sm"
      tt="none"
      miw="max-content"
      leftSection={<IconAlertTriangle size={12} aria-hidden />}
      title={free == null ? undefined : t('facts.lowDiskHint', { free: format.bytes(free) })}
      data-testid="agent-low-disk"
    >
      {t('facts.lowDisk')}
    </Badge>
  );
}

/**
 * What the agent said of its machine in its last hello: the system and architecture, then
 * CPUs, memory, free disk and how it was started. A dash before any such hello.
 */
export function AgentFacts({ agent }: { agent: Agent }) {
  const t = useAgentsTranslation();
  const format = useFormat();
  const facts = agent.facts;
  if (!facts) {
    return (
      <Text size="sm" c="dimmed" title={t('facts.none')}>
        —
      </Text>
    );
  }
  const system = [facts.os_version ?? facts.os, facts.arch].filter(Boolean).join(' · ');
  const details = [
    facts.cpus == null ? null : t('facts.cpus', { count: facts.cpus }),
    facts.memory_bytes == null
      ? null
      : t('facts.memory', { size: format.bytes(facts.memory_bytes) }),
    facts.free_disk_bytes == null
      ? null
      : t('facts.freeDisk', { size: format.bytes(facts.free_disk_bytes) }),
    facts.mode == null ? null : t(`facts.modes.${facts.mode}`),
  ].filter((part): part is string => part !== null);
  return (
    <Stack gap={0} miw={0} data-testid="agent-facts">
      <Text size="sm" title={facts.os ?? undefined}>
        {system || '—'}
      </Text>
      {details.length > 0 ? (
        <Text size="xs" c="dimmed">
          {details.join(' · ')}
        </Text>
      ) : null}
    </Stack>
  );
}
