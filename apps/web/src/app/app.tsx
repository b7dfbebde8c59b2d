import { useEffect, useState, type ComponentType } from 'react';
import { MantineProvider } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, matchRoutes, RouterProvider } from 'react-router';
import { meQueryOptions } from '../features/auth/api/me';
import { DEFAULT_COLOR_SCHEME } from '../lib/color-scheme';
import { setNavigator } from '../lib/navigation';
import { createQueryClient } from '../lib/query-client';
import { getToken } from '../lib/session';
import { routes, SHELL_ROUTE_ID } from './routes';
import { cssVariablesResolver, theme } from './theme';
import '../lib/i18n';

/**
 * The popups' container (and its transition and scroll libraries) loads with the first popup,
 * not with the page: the store keeps what was shown until it mounts, and it stays
 * mounted from then on so later popups come and go with their transitions. Loaded by hand rather
 * than with React.lazy: a Suspense boundary reveals late content on a timer, so a popup would
 * wait for the page's timers (and never show under a paused clock).
 */
function LazyNotifications() {
  const { notifications, queue } = useNotifications();
  const [host, setHost] = useState<{ Host: ComponentType } | null>(null);
  const wanted = notifications.length + queue.length > 0;
  useEffect(() => {
    if (!wanted || host) return;
    let current = true;
    void import('./notifications-host').then((module) => {
      if (current) setHost({ Host: module.default });
    });
    return () => {
      current = false;
    };
  }, [wanted, host]);
  return host ? <host.Host /> : null;
}

const queryClient = createQueryClient();
const router = createBrowserRouter(routes);

// A signed-in page waits for `me` before it shows anything: ask now, while the shell's chunks
// download, not once they have run. Only for the shell's pages and with a token, as
// the shell itself asks; a 401 shows its popup through the same client, and the shell stays on
// the page until the popup's redirect.
if (
  getToken() !== undefined &&
  matchRoutes(routes, window.location)?.some(({ route }) => route.id === SHELL_ROUTE_ID)
) {
  void queryClient.prefetchQuery(meQueryOptions());
}

// The HTTP client lives outside React; it navigates through the router without a reload.
setNavigator((path) => {
  void router.navigate(path);
});

export function App() {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme={DEFAULT_COLOR_SCHEME}
    >
      <LazyNotifications />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
