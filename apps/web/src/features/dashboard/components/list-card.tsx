import type { ReactNode } from 'react';
import { Paper, Skeleton, Stack, Text, Title } from '@mantine/core';

/**
 * A dashboard card holding a list: title, description, then skeleton rows while loading, the
 * empty sentence when there is nothing, or the list.
 */
export function ListCard({
  title,
  description,
  loading,
  skeleton,
  empty,
  children,
}: {
  title: string;
  description: string;
  loading: boolean;
  /** Rows and height of the loading placeholder. */
  skeleton: { rows: number; height: number };
  /** What to say instead of the list; null when there is something to list. */
  empty: string | null;
  children: ReactNode;
}) {
  let body;
  if (loading) {
    body = (
      <Stack gap="sm">
        {Array.from({ length: skeleton.rows }, (_, index) => (
          <Skeleton key={index} height={skeleton.height} radius="sm" />
        ))}
      </Stack>
    );
  } else if (empty !== null) {
    body = (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  } else {
    body = children;
  }
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Title order={2} fz="h4">
        {title}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {description}
      </Text>
      {body}
    </Paper>
  );
}
