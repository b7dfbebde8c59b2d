import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { setNavigator } from '../lib/navigation';
import { createQueryClient } from '../lib/query-client';
import { routes } from './routes';
import notificationClasses from './notifications.module.css';
import { cssVariablesResolver, theme } from './theme';
import '../lib/i18n';

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
      <Notifications position="top-right" limit={5} classNames={notificationClasses} />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
