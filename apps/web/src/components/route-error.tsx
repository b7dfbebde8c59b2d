import { Alert, Button, Center, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { reloadPage } from '../lib/navigation';

/**
 * Root error boundary. The likely cause in production is a route chunk that no longer exists
 * after a deploy, which a reload fixes.
 */
export function RouteError() {
  const { t } = useTranslation();
  return (
    <Center mih="100dvh" p="md">
      <Stack maw={480}>
        <Alert color="red" title={t('app.errorTitle')}>
          {t('app.errorText')}
        </Alert>
        <Button onClick={reloadPage}>{t('app.reload')}</Button>
      </Stack>
    </Center>
  );
}
