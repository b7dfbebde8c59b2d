import { Skeleton, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Placeholder with the shape of a page header and a list while the user or a page loads. */
export function PageSkeleton() {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" role="status" aria-busy="true" aria-label={t('app.loading')}>
      <Skeleton height={30} width="40%" radius="sm" />
      <Skeleton height={16} width="65%" radius="sm" mb="md" />
      <Skeleton height={40} radius="sm" />
      <Skeleton height={40} radius="sm" />
      <Skeleton height={40} radius="sm" />
    </Stack>
  );
}
