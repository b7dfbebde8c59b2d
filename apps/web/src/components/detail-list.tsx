import type { ReactNode } from 'react';
import { SimpleGrid, Stack, Text } from '@mantine/core';

export type DetailItem = {
  label: string;
  value: ReactNode;
  /** Spans the whole row (descriptions, commands). */
  wide?: boolean;
};

/**
 * Label/value pairs of a detail page, as a description list: two columns on wide screens, one on
 * phones. Empty values show a dash.
 */
export function DetailList({ items }: { items: readonly DetailItem[] }) {
  return (
    <SimpleGrid component="dl" cols={{ base: 1, sm: 2 }} spacing="lg" verticalSpacing="md" m={0}>
      {items.map((item) => (
        <Stack
          key={item.label}
          gap={2}
          style={item.wide ? { gridColumn: '1 / -1' } : undefined}
          miw={0}
        >
          <Text component="dt" size="xs" c="dimmed" fw={600} tt="uppercase">
            {item.label}
          </Text>
          <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
            {item.value === null || item.value === undefined || item.value === ''
              ? '—'
              : item.value}
          </Text>
        </Stack>
      ))}
    </SimpleGrid>
  );
}
