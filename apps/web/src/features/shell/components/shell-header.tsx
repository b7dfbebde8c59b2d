import { Anchor, Burger, Group, Skeleton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PRODUCT_NAME, type MeResponse } from '@rota/contract';
import { Brand } from '../../../components/brand';
import { ColorSchemeToggle } from '../../../components/color-scheme-toggle';
import { LanguageMenu } from '../../../components/language-menu';
import { HOME_PATH } from '../../../lib/paths';
import { useApplyAccountPreferences, useSavePreferences } from '../../account';
import { AlertBell } from '../../alerts';
import { useIsPlatformAdmin } from '../../clients';
import { MaintenanceButton } from '../../maintenance';
import { ClientSelector } from './client-selector';
import { UserMenu } from './user-menu';

type ShellHeaderProps = {
  user: MeResponse | undefined;
  navbarOpened: boolean;
  withNavbar: boolean;
  onToggleNavbar: () => void;
  onNavigate: () => void;
};

export function ShellHeader({
  user,
  navbarOpened,
  withNavbar,
  onToggleNavbar,
  onNavigate,
}: ShellHeaderProps) {
  const { t } = useTranslation();
  // Language and colour scheme follow the account between browsers.
  useApplyAccountPreferences(user);
  const save = useSavePreferences(user !== undefined);
  const { isPlatformAdmin } = useIsPlatformAdmin(user);
  return (
    <Group h="100%" px={{ base: 'xs', sm: 'md' }} justify="space-between" wrap="nowrap" gap={8}>
      <Group gap={8} wrap="nowrap">
        {withNavbar ? (
          <Burger
            opened={navbarOpened}
            onClick={onToggleNavbar}
            hiddenFrom="lg"
            size="sm"
            aria-label={t('shell.toggleMenu')}
            aria-expanded={navbarOpened}
          />
        ) : null}
        {/* Labelled, because below `xs` only the icon shows. */}
        <Anchor
          component={Link}
          to={HOME_PATH}
          underline="never"
          c="inherit"
          aria-label={PRODUCT_NAME}
          onClick={onNavigate}
        >
          <Brand nameVisibleFrom="xs" />
        </Anchor>
      </Group>
      <Group gap={4} wrap="nowrap">
        {user ? <ClientSelector user={user} /> : null}
        {/* The selected client's alerts. */}
        {user?.rota_clients_id_selected ? <AlertBell /> : null}
        {/* Maintenance of the whole cluster: platform administrators only. */}
        {isPlatformAdmin ? <MaintenanceButton target={{ scope: 'cluster' }} /> : null}
        <ColorSchemeToggle onChange={save.colorScheme} />
        <LanguageMenu onChange={save.language} />
        {user ? <UserMenu user={user} /> : <Skeleton circle height={34} />}
      </Group>
    </Group>
  );
}
