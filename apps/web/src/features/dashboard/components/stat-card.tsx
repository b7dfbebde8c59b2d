import type { ReactNode } from 'react';
import { Group, Paper, Skeleton, Text, ThemeIcon, type MantineColor } from '@mantine/core';

/** One figure of the dashboard: a label, the number in its colour, and what it counts. */
export function StatCard({
  label,
  value,
  hint,
  loading,
  color,
  icon,
}: {
  label: string;
  value: string;
  hint?: string;
  loading: boolean;
  color: MantineColor;
  icon: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} role="group" aria-label={label}>
      <Group justify="space-between" align="flex-start" gap={4} wrap="nowrap">
        <Text size="xs" c="dimmed" fw={700} tt="uppercase" lineClamp={1}>
          {label}
        </Text>
        <ThemeIcon variant="light" color={color} size="md" radius="xl" aria-hidden>
          {icon}
        </ThemeIcon>
      </Group>
      {loading ? (
        <Skeleton height={32} width={56} mt={6} />
      ) : (
        <Text
          fz={{ base: 24, sm: 30 }}
          fw={700}
          lh={1.2}
          mt={4}
          c={color === 'gray' ? undefined : color}
        >
          {value}
        </Text>
      )}
      {hint ? (
        <Text size="xs" c="dimmed" mt={4} lineClamp={3} visibleFrom="xs">
          {hint}
        </Text>
      ) : null}
    </Paper>
  );
}
