import type { ReactNode } from 'react';
import { Alert, Anchor, Stack } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SIGN_IN_PATH } from '../../../lib/paths';
import { AuthCard } from './auth-card';

export function BackToSignInLink() {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to={SIGN_IN_PATH} size="sm" ta="center" display="block">
      {t('auth.backToSignIn')}
    </Anchor>
  );
}

/** A login form's failure that belongs to no field (wrong credentials, throttling, server down). */
export function FailureAlert({ title, children }: { title: string; children: ReactNode }) {
  if (!children) return null;
  return (
    <Alert color="red" variant="light" title={title} icon={<IconAlertCircle aria-hidden />}>
      {children}
    </Alert>
  );
}

/** What a login page shows once its request went through: the server's words and a way back. */
export function SentCard({
  title,
  heading,
  message,
}: {
  title: string;
  heading: string;
  message: string;
}) {
  return (
    <AuthCard title={title}>
      <Stack gap="md">
        <Alert color="teal" variant="light" title={heading} icon={<IconCircleCheck aria-hidden />}>
          {message}
        </Alert>
        <BackToSignInLink />
      </Stack>
    </AuthCard>
  );
}
