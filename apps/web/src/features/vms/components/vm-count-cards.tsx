import type { ReactNode } from 'react';
import {
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Text,
  ThemeIcon,
  type MantineColor,
} from '@mantine/core';
import { IconCircleCheck, IconCircleOff, IconServer } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useFormat } from '../../../lib/format';
import { vmCountQueryOptions } from '../api/count-vms';
import { useVmsTranslation } from '../i18n';

function StatCard({
  label,
  hint,
  value,
  loading,
  color,
  icon,
}: {
  label: string;
  hint?: string;
  value: string;
  loading: boolean;
  color: MantineColor;
  icon: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }} role="group" aria-label={label}>
      <Group justify="space-between" align="flex-start" gap={4} wrap="nowrap">
        <Text size="xs" c="dimmed" fw={600} tt="uppercase" title={hint} lineClamp={2}>
          {label}
        </Text>
        <ThemeIcon variant="light" color={color} size="sm" radius="xl" visibleFrom="xs">
          {icon}
        </ThemeIcon>
      </Group>
      {loading ? (
        <Skeleton height={28} width={48} mt={6} />
      ) : (
        <Text
          fz={{ base: 'xl', sm: 28 }}
          fw={700}
          lh={1.2}
          mt={4}
          c={color === 'gray' ? undefined : color}
        >
          {value}
        </Text>
      )}
    </Paper>
  );
}

/** Above the VMs list: how many the client has, active (an agent heard from) and inactive. */
export function VmCountCards() {
  const t = useVmsTranslation();
  const format = useFormat();
  const count = useQuery(vmCountQueryOptions());
  const show = (value: unknown) =>
    typeof value === 'number' && Number.isFinite(value) ? format.number(value) : '—';
  const loading = count.isPending;
  return (
    <SimpleGrid
      component="section"
      aria-label={t('count.label')}
      cols={3}
      spacing={{ base: 'xs', sm: 'md' }}
      mb="lg"
    >
      <StatCard
        label={t('count.total')}
        value={show(count.data?.total)}
        loading={loading}
        color="blue"
        icon={<IconServer size={14} aria-hidden />}
      />
      <StatCard
        label={t('count.active')}
        hint={t('count.activeHint')}
        value={show(count.data?.active)}
        loading={loading}
        color="green"
        icon={<IconCircleCheck size={14} aria-hidden />}
      />
      <StatCard
        label={t('count.inactive')}
        hint={t('count.inactiveHint')}
        value={show(count.data?.inactive)}
        loading={loading}
        color="gray"
        icon={<IconCircleOff size={14} aria-hidden />}
      />
    </SimpleGrid>
  );
}
