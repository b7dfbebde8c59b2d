import type { ReactElement } from 'react';
import { MantineProvider } from '@mantine/core';
import { Notifications, notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { RouterProvider, createMemoryRouter, type RouteObject } from 'react-router';
import { SESSION_COOKIE, type Language } from '@rota/contract';
import { cssVariablesResolver, theme } from '../src/app/theme';
import { routes as appRoutes } from '../src/app/routes';
import { DEFAULT_COLOR_SCHEME } from '../src/lib/color-scheme';
import { changeLanguage } from '../src/lib/i18n';
import { setNavigator } from '../src/lib/navigation';
import { createQueryClient } from '../src/lib/query-client';

/** Clean slate between tests: language, cookie, storage, notifications. */
export async function resetEnvironment(lang: Language = 'pt') {
  Cookies.remove(SESSION_COOKIE, { path: '/' });
  window.localStorage.clear();
  notifications.clean();
  await changeLanguage(lang);
}

type RenderOptions = {
  /** Where the memory router starts. */
  path?: string;
  /** Route table; defaults to the app's own. */
  routes?: RouteObject[];
  queryClient?: QueryClient;
};

/**
 * Renders with the app's providers and a memory router; the router is also plugged in as the
 * navigator of code outside React (the HTTP client), like app.tsx does with the browser router.
 */
export function renderWithRouter(options: RenderOptions = {}) {
  const queryClient = options.queryClient ?? createQueryClient();
  const router = createMemoryRouter(options.routes ?? appRoutes, {
    initialEntries: [options.path ?? '/'],
  });
  setNavigator((path) => {
    void router.navigate(path);
  });
  const user = userEvent.setup();
  const view = render(
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme={DEFAULT_COLOR_SCHEME}
      env="test"
    >
      <Notifications />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...view, router, queryClient, user };
}

/** One element at `path`, inside the providers. */
export function renderElement(element: ReactElement, options: Omit<RenderOptions, 'routes'> = {}) {
  return renderWithRouter({
    ...options,
    routes: [{ path: '*', element }],
  });
}
