import { lazy, Suspense, useState } from 'react';
import { MantineProvider } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { setNavigator } from '../lib/navigation';
import { createQueryClient } from '../lib/query-client';
import { routes } from './routes';
import { cssVariablesResolver, theme } from './theme';
import '../lib/i18n';

const NotificationsHost = lazy(() => import('./notifications-host'));

/**
 * The popups' container (and its transition and scroll libraries) loads with the first popup,
 * not with the page (issue 16): the store keeps what was shown until it mounts, and it stays
 * mounted from then on so later popups come and go with their transitions.
 */
function LazyNotifications() {
  const { notifications, queue } = useNotifications();
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length + queue.length > 0) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <NotificationsHost />
    </Suspense>
  );
}

const queryClient = createQueryClient();
const router = createBrowserRouter(routes);

// The HTTP client lives outside React; it navigates through the router without a reload.
setNavigator((path) => {
  void router.navigate(path);
});

export function App() {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="light"
    >
      <LazyNotifications />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
