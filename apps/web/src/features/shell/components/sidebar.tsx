import { useState } from 'react';
import { AppShell, NavLink, ScrollArea, Skeleton, Stack, Text } from '@mantine/core';
import { IconSettings } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ROUTE_PERMISSIONS, hasPermissions, type MeResponse } from '@rota/contract';
import { VersionLabel } from '../../../components/version-label';
import { useIsPlatformAdmin } from '../../clients';
import {
  CONFIGURATION_GATES,
  CONFIGURATION_NAV,
  MAIN_NAV,
  isActiveItem,
  isActivePath,
  navPermissions,
  type NavItem,
} from './nav-items';

type SidebarProps = {
  user: MeResponse | undefined;
  /** Called after a link is followed, so the drawer closes on small screens. */
  onNavigate: () => void;
};

export function Sidebar({ user, onNavigate }: SidebarProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { isPlatformAdmin } = useIsPlatformAdmin(user);
  const allowed = (item: NavItem) =>
    hasPermissions(user?.permissions, navPermissions(item)) &&
    (!item.platformAdmin || isPlatformAdmin);
  const mainItems = MAIN_NAV.filter(allowed);
  const configItems = CONFIGURATION_NAV.filter(allowed);
  const inConfiguration = CONFIGURATION_NAV.some((item) => isActivePath(pathname, item.to));
  // Closed, like any dropdown, unless the page shown is one of its entries.
  const [configOpened, setConfigOpened] = useState(inConfiguration);
  const showConfiguration = CONFIGURATION_GATES.some((route) =>
    hasPermissions(user?.permissions, ROUTE_PERMISSIONS[route]),
  );

  const renderLink = (item: NavItem) => {
    const active = isActiveItem(pathname, item.to, [...MAIN_NAV, ...CONFIGURATION_NAV]);
    const Icon = item.icon;
    return (
      <NavLink
        key={item.to}
        component={Link}
        to={item.to}
        label={t(item.label)}
        leftSection={<Icon size={18} stroke={1.6} aria-hidden />}
        active={active}
        aria-current={active ? 'page' : undefined}
        onClick={onNavigate}
        pl={item.nested ? 'xl' : undefined}
      />
    );
  };

  return (
    <>
      <AppShell.Section px="md" pt="md" pb="xs">
        <Text
          component="h2"
          size="xs"
          fw={700}
          tt="uppercase"
          c="dimmed"
          style={{ letterSpacing: '0.06em' }}
        >
          {t('shell.sidebarTitle')}
        </Text>
      </AppShell.Section>
      <AppShell.Section grow component={ScrollArea} px="xs">
        {user ? (
          <>
            {mainItems.map(renderLink)}
            {showConfiguration ? (
              <NavLink
                component="button"
                type="button"
                label={t('nav.configuration')}
                leftSection={<IconSettings size={18} stroke={1.6} aria-hidden />}
                opened={configOpened}
                onChange={setConfigOpened}
                aria-expanded={configOpened}
                active={inConfiguration}
                variant="subtle"
              >
                {configItems.map(renderLink)}
              </NavLink>
            ) : null}
          </>
        ) : (
          <Stack
            gap={10}
            px="xs"
            pt={4}
            role="status"
            aria-busy="true"
            aria-label={t('app.loading')}
          >
            {Array.from({ length: 6 }, (_, index) => (
              <Skeleton key={index} height={28} radius="sm" />
            ))}
          </Stack>
        )}
      </AppShell.Section>
      <AppShell.Section px="md" py="sm">
        <VersionLabel />
      </AppShell.Section>
    </>
  );
}
