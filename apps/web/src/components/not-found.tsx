import { Stack, Text, Title } from '@mantine/core';
import { IconMapPinOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { WayOut } from './access-denied';

/** An address no page answers, inside the shell: says so instead of silently going home. */
export function NotFound() {
  const { t } = useTranslation();
  return (
    <Stack align="center" gap="xs" py="xl" ta="center">
      <IconMapPinOff size={40} aria-hidden style={{ opacity: 0.6 }} />
      <Title order={1} fz="h2">
        {t('guard.notFoundTitle')}
      </Title>
      <Text c="dimmed" maw={420}>
        {t('guard.notFoundText')}
      </Text>
      <WayOut />
    </Stack>
  );
}

/** Route module form (`lazy`), so the page is fetched only when an address is unknown. */
export default NotFound;
