import { Alert, Button, Group } from '@mantine/core';
import { IconArrowLeft, IconHome, IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { HOME_PATH } from '../lib/paths';

/** The ways out of a page that is not for this user (no dead ends). */
export function WayOut() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // The router keys the page it started on 'default': opened straight from a link or a
  // bookmark, there is no page of this app to go back to, only home.
  const canGoBack = useLocation().key !== 'default';
  return (
    <Group gap="sm" mt="md">
      {canGoBack ? (
        <Button
          variant="default"
          leftSection={<IconArrowLeft size={16} aria-hidden />}
          onClick={() => void navigate(-1)}
        >
          {t('guard.back')}
        </Button>
      ) : null}
      <Button component={Link} to={HOME_PATH} leftSection={<IconHome size={16} aria-hidden />}>
        {t('guard.home')}
      </Button>
    </Group>
  );
}

/** Denial alert, shown in place of a page the user lacks the permissions for. */
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
      <WayOut />
    </Alert>
  );
}
