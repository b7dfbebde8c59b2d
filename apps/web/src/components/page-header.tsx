import type { ReactNode } from 'react';
import { Box, Group, Text, Title } from '@mantine/core';

/** Every page opens with its title, a short subtitle and its primary action on the right. */
export function PageHeader({
  title,
  subtitle,
  actions,
}: {
  title: string;
  subtitle: string;
  actions?: ReactNode;
}) {
  return (
    <Group justify="space-between" align="flex-start" gap="sm" mb="lg">
      {/* The text shrinks first, so the actions stay on the right beside a long subtitle. */}
      <Box miw={0} style={{ flex: '1 1 20rem' }}>
        <Title order={1} fz="h2">
          {title}
        </Title>
        <Text c="dimmed" mt={4}>
          {subtitle}
        </Text>
      </Box>
      {actions ? <Group gap="sm">{actions}</Group> : null}
    </Group>
  );
}
