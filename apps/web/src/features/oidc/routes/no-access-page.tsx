import { Alert, Anchor, Stack } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SIGN_IN_PATH } from '../../../lib/paths';
import { AuthCard } from '../../auth';
import '../sign-in/i18n';

/**
 * `/login/no-access`: the provider signed the person in, but no mapping gives their groups a
 * client, so there is no session. A bare page like the other login pages.
 */
export default function NoAccessPage() {
  const { t } = useTranslation('oidcSignIn');
  const { t: tm } = useTranslation('messages');
  return (
    <AuthCard title={t('noAccessTitle')} description={t('noAccessHint')}>
      <Stack gap="md">
        <Alert color="yellow" variant="light" icon={<IconLock aria-hidden />}>
          {tm('oidc_no_access')}
        </Alert>
        <Anchor component={Link} to={SIGN_IN_PATH} size="sm" ta="center" display="block">
          {t('tryAgain')}
        </Anchor>
      </Stack>
    </AuthCard>
  );
}
