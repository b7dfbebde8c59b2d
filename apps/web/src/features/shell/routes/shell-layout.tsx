import { Suspense, useState, type ReactNode } from 'react';
import { Alert, AppShell, Box, Button } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useMatches } from 'react-router';
import type { ConsoleRoute } from '@rota/contract';
import { PageSkeleton } from '../../../components/page-skeleton';
import { isApiError, isLeavingAfterUnauthorized } from '../../../lib/http';
import { signInPath } from '../../../lib/paths';
import { getToken } from '../../../lib/session';
import { ForcedPasswordChange } from '../../auth';
import { useCurrentUser } from '../../auth';
import { useLiveUpdates } from '../../live';
import { MaintenanceHost } from '../../maintenance';
import { PermissionGuard } from '../components/permission-guard';
import { ShellHeader } from '../components/shell-header';
import { Sidebar } from '../components/sidebar';
import classes from './shell-layout.module.css';

/** Route `handle` of every shell page: the ROUTE_PERMISSIONS entry that guards it. */
export type ShellRouteHandle = { route: ConsoleRoute };

export default function ShellLayout() {
  const location = useLocation();
  // Read once on entry. Later losses of the token are handled where they happen: sign-out and
  // other tabs navigate away at once, a 401 waits for its popup to be read, also one
  // that answered the entry's early `me` before this mounted.
  const [signedIn] = useState(() => getToken() !== undefined || isLeavingAfterUnauthorized());
  if (!signedIn) {
    return <Navigate to={signInPath(`${location.pathname}${location.search}`)} replace />;
  }
  return <ShellFrame />;
}

function ShellFrame() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const [navbarOpened, { toggle, close }] = useDisclosure(false);
  const sidebarShown = useSidebarShown(navbarOpened);
  const matches = useMatches();
  const handle = matches.at(-1)?.handle as ShellRouteHandle | undefined;
  const user = me.data;
  const mustChangePassword = user?.password_change_required === true;
  // One live-events stream per signed-in shell, for the selected client (a new client reloads).
  useLiveUpdates(user && !mustChangePassword ? (user.rota_clients_id_selected ?? 0) : undefined);

  let content: ReactNode;
  if (!user && me.isError && !(isApiError(me.error) && me.error.status === 401)) {
    content = (
      <Alert color="red" variant="light" title={t('shell.loadError')}>
        <Button size="xs" variant="light" color="red" mt="sm" onClick={() => void me.refetch()}>
          {t('app.retry')}
        </Button>
      </Alert>
    );
  } else if (!user) {
    // Also while a 401 waits to redirect: the popup explains, nothing else is worth showing.
    content = <PageSkeleton />;
  } else if (mustChangePassword) {
    content = (
      <Suspense fallback={<PageSkeleton />}>
        <ForcedPasswordChange />
      </Suspense>
    );
  } else if (handle) {
    content = (
      <PermissionGuard route={handle.route}>
        <Outlet />
      </PermissionGuard>
    );
  } else {
    content = <Outlet />;
  }

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{
        width: 260,
        breakpoint: 'lg',
        collapsed: { mobile: !navbarOpened || mustChangePassword, desktop: mustChangePassword },
      }}
      padding={{ base: 'sm', sm: 'md', lg: 'lg' }}
    >
      <AppShell.Header>
        <ShellHeader
          user={user}
          navbarOpened={navbarOpened}
          withNavbar={!mustChangePassword}
          onToggleNavbar={toggle}
          onNavigate={close}
        />
      </AppShell.Header>
      <AppShell.Navbar
        aria-label={t('shell.navigation')}
        className={classes.navbar}
        data-drawer={navbarOpened ? 'open' : 'closed'}
      >
        {sidebarShown ? <Sidebar user={user} onNavigate={close} /> : null}
      </AppShell.Navbar>
      <AppShell.Main>
        <Box maw={1400} mx="auto">
          {user && !mustChangePassword ? <MaintenanceHost user={user} /> : null}
          {content}
        </Box>
      </AppShell.Main>
    </AppShell>
  );
}

/** Below Mantine's `lg` breakpoint the navbar is a drawer (shell-layout.module.css). */
const DRAWER_QUERY = 'not all and (min-width: 75em)';

/**
 * Below `lg` the sidebar is a drawer, closed (and hidden) until the burger opens it: its links
 * are rendered the first time it opens rather than with the page, which spared a phone's first
 * paint and the renders after it ≈100 ms of work for links nobody could see. Once
 * rendered they stay, so the drawer slides with its content from then on.
 */
function useSidebarShown(navbarOpened: boolean): boolean {
  // Read at the first render (no effect, no second pass): a wide screen renders its links at once.
  const drawer = useMediaQuery(DRAWER_QUERY, false, { getInitialValueInEffect: false });
  const [openedOnce, setOpenedOnce] = useState(false);
  if (navbarOpened && !openedOnce) setOpenedOnce(true);
  return !drawer || navbarOpened || openedOnce;
}
