import { Alert } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** SPEC §2 denial alert, shown in place of a page the user lacks the permissions for. */
export function AccessDenied() {
  const { t } = useTranslation();
  return (
    <Alert
      color="red"
      variant="light"
      title={t('guard.deniedTitle')}
      icon={<IconLock aria-hidden />}
    >
      {t('guard.deniedText')}
    </Alert>
  );
}
