import { Group, Skeleton, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A list's first page loading: a head and a few rows of placeholders, announced as busy. */
export function LoadingRows({ columns, rows }: { columns: number; rows: number }) {
  const { t } = useTranslation();
  return (
    <Stack gap={8} role="status" aria-busy="true" aria-label={t('app.loading')} py="xs">
      <Skeleton height={34} radius="sm" />
      {Array.from({ length: rows }, (_, index) => (
        <Group key={index} gap="md" wrap="nowrap">
          {Array.from({ length: Math.min(columns, 5) }, (_, cell) => (
            <Skeleton key={cell} height={22} radius="sm" style={{ flex: cell === 0 ? 2 : 1 }} />
          ))}
        </Group>
      ))}
    </Stack>
  );
}
